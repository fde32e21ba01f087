//! Reachable positions to test on: the position of a uniformly random legal game at the
//! moment it has a given number of discs (forced passes included, so some have passed).

use engine::{Game, Position};
use rand::{rngs::SmallRng, SeedableRng};

/// `count` positions with `discs` discs each, from random games seeded by `seed` (the same
/// seed, the same positions). Games that end before `discs` discs are drawn again.
pub fn random_game_positions(discs: u32, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed ^ (u64::from(discs) << 32));
    let mut found = Vec::with_capacity(count);
    while found.len() < count {
        let game = Game::random(&mut rng, 80);
        if let Some(p) = game
            .positions
            .iter()
            .find(|p| (p.board.player | p.board.opponent).count_ones() == discs)
        {
            found.push(*p);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_have_the_discs_asked_and_repeat_with_the_seed() {
        let a = random_game_positions(30, 5, 7);
        assert_eq!(a.len(), 5);
        assert!(a
            .iter()
            .all(|p| (p.board.player | p.board.opponent).count_ones() == 30));
        assert_eq!(a, random_game_positions(30, 5, 7));
        assert_ne!(a, random_game_positions(30, 5, 8));
    }
}
