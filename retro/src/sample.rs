//! Positions to decide: those of uniformly random legal games (reachable by
//! construction), and uniformly random boards (to estimate how many positions are legal).

use engine::board::CENTRE;
use engine::{Color, Game, Position};
use rand::{rngs::SmallRng, RngExt, SeedableRng};

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

/// `count` positions drawn uniformly from the space of the legal-position estimate: each
/// centre square black or white, each other square empty, black or white, either side to
/// move (2^5 * 3^60 positions, which hold every reachable one: the centre is never empty).
pub fn random_positions(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let (mut black, mut white) = (0u64, 0u64);
            for square in 0..64 {
                let bit = 1u64 << square;
                let colours = if CENTRE & bit != 0 { 2 } else { 3 };
                match rng.random_range(0..colours) {
                    0 => black |= bit,
                    1 => white |= bit,
                    _ => {}
                }
            }
            let side = if rng.random::<bool>() {
                Color::Black
            } else {
                Color::White
            };
            Position::from_colors(black, white, side)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_positions_fill_the_centre_and_spread_evenly() {
        let positions = random_positions(3000, 1);
        assert_eq!(positions, random_positions(3000, 1));
        let mut counts = [0usize; 3];
        let mut black_to_move = 0;
        for p in &positions {
            let (black, white) = p.discs();
            assert_eq!((black | white) & CENTRE, CENTRE);
            assert_eq!(black & white, 0);
            // a1's three states, each near a third of the draws.
            counts[(black & 1 | (white & 1) << 1) as usize] += 1;
            black_to_move += usize::from(p.side == Color::Black);
        }
        for c in [counts[0], counts[1], counts[2]] {
            assert!((900..1100).contains(&c), "{counts:?}");
        }
        assert!((1400..1600).contains(&black_to_move), "{black_to_move}");
    }

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
