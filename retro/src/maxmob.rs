//! The largest mobility (legal moves of the side to move) over the positions reachable
//! within a number of plies, by brute force over the enumerated levels, with a witness
//! game found by walking back through the levels and replayed forward by the core.

use std::io;

use engine::{Board, Move, Position};

use crate::enumerate::{reduce, successors, Convention, Level, Side};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaxMobility {
    pub plies: u32,
    pub mobility: u32,
    /// A game from the start reaching a position with that mobility (the side to move of
    /// its last position has `mobility` legal moves).
    pub witness: Vec<Move>,
    pub position: Position,
}

/// The largest mobility within `plies` plies, holding at most `limit` keys in memory per
/// level being built.
pub fn max_mobility(plies: u32, limit: usize) -> io::Result<MaxMobility> {
    let mut levels = vec![Level::start(Convention::Plies)];
    let mut best = (Board::START.mobility(), 0usize, Board::START, 0 as Side);
    for ply in 1..=plies as usize {
        let level = levels[ply - 1].next(Convention::Plies, limit)?;
        level.for_each(|b, side| {
            let m = b.mobility();
            if m > best.0 {
                best = (m, ply, *b, side);
            }
        })?;
        levels.push(level);
    }
    let (mobility, found_at, target, side) = best;

    // Representatives along a path back to the start.
    let mut chain = vec![(target, side)];
    for ply in (0..found_at).rev() {
        let (next, next_side) = *chain.last().expect("the target");
        let mut previous = None;
        levels[ply].for_each(|b, s| {
            if previous.is_none()
                && successors(Convention::Plies, b, s)
                    .iter()
                    .any(|(c, cs)| *cs == next_side && reduce(c) == next)
            {
                previous = Some((*b, s));
            }
        })?;
        chain.push(previous.expect("every representative has a predecessor"));
    }
    chain.reverse();

    // Forward from the start: at each ply the move whose result reduces to the next one.
    let mut position = Position::START;
    let mut witness = Vec::new();
    for &(next, _) in &chain[1..] {
        let board = position.board;
        let mv = if board.moves() == 0 {
            Move::Pass
        } else {
            engine::Bitboard(board.moves())
                .map(Move::Play)
                .find(|&mv| position.play(mv).is_ok_and(|p| reduce(&p.board) == next))
                .expect("a move to the next representative")
        };
        position = position.play(mv).expect("a legal move");
        witness.push(mv);
    }
    assert_eq!(
        position.board.mobility(),
        mobility,
        "the witness reaches the mobility"
    );
    Ok(MaxMobility {
        plies,
        mobility,
        witness,
        position,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_a_plain_search_and_the_witness_replays() {
        for plies in 0..=6 {
            let found = max_mobility(plies, 1 << 16).unwrap();
            assert_eq!(
                found.mobility,
                engine::reference::max_mobility(&Board::START, plies),
                "{plies} plies"
            );
            assert!(found.witness.len() <= plies as usize);
            let mut p = Position::START;
            for &mv in &found.witness {
                p = p.play(mv).unwrap();
            }
            assert_eq!(p, found.position);
            assert_eq!(p.board.mobility(), found.mobility);
        }
    }
}
