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
    let levels = levels(plies, limit)?;
    let mut best = (Board::START.mobility(), 0usize, Board::START, 0 as Side);
    for (ply, level) in levels.iter().enumerate() {
        level.for_each(|b, side| {
            let m = b.mobility();
            if m > best.0 {
                best = (m, ply, *b, side);
            }
        })?;
    }
    let (mobility, found_at, target, side) = best;
    let (witness, position) = witness(&levels[..=found_at], target, side)?;
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

/// The largest mobility after exactly one number of plies, over every position the
/// enumeration reaches there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyMaximum {
    pub ply: usize,
    pub mobility: u32,
    /// Positions after exactly `ply` plies, up to the symmetries of the start.
    pub positions: u64,
    /// A game of exactly `ply` plies ending at a position with `mobility` moves.
    pub witness: Vec<Move>,
}

/// For each ply from 0 to `plies`, the largest mobility after exactly that many plies
/// (a forced pass is a ply), by brute force, each with its witness.
pub fn max_mobility_by_ply(plies: u32, limit: usize) -> io::Result<Vec<PlyMaximum>> {
    let levels = levels(plies, limit)?;
    let mut maxima = Vec::new();
    for (ply, level) in levels.iter().enumerate() {
        let mut best: Option<(u32, Board, Side)> = None;
        let mut positions = 0u64;
        level.for_each(|b, side| {
            positions += 1;
            if best.is_none_or(|(m, _, _)| b.mobility() > m) {
                best = Some((b.mobility(), *b, side));
            }
        })?;
        let Some((mobility, target, side)) = best else {
            break;
        };
        let (witness, position) = witness(&levels[..=ply], target, side)?;
        assert_eq!(
            position.board.mobility(),
            mobility,
            "the witness reaches it"
        );
        maxima.push(PlyMaximum {
            ply,
            mobility,
            positions,
            witness,
        });
    }
    Ok(maxima)
}

/// The levels after 0 to `plies` plies.
fn levels(plies: u32, limit: usize) -> io::Result<Vec<Level>> {
    let mut levels = vec![Level::start(Convention::Plies)];
    for ply in 1..=plies as usize {
        let level = levels[ply - 1].next(Convention::Plies, limit)?;
        levels.push(level);
    }
    Ok(levels)
}

/// A game from the start to `target` (with `side` to move) in the last of `levels`:
/// representatives walked back level by level, then replayed forward by the core, each
/// move the one whose result reduces to the next representative.
fn witness(levels: &[Level], target: Board, side: Side) -> io::Result<(Vec<Move>, Position)> {
    let mut chain = vec![(target, side)];
    for level in levels[..levels.len() - 1].iter().rev() {
        let (next, next_side) = *chain.last().expect("the target");
        let mut previous = None;
        level.for_each(|b, s| {
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
    let mut position = Position::START;
    let mut moves = Vec::new();
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
        moves.push(mv);
    }
    Ok((moves, position))
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

    /// The largest mobility after exactly P plies (variant rules: a pass only without a
    /// move), by a plain search.
    fn exactly(board: &Board, plies: u32) -> u32 {
        match (plies, board.moves()) {
            (0, _) => board.mobility(),
            (_, 0) if board.pass().moves() == 0 => 0,
            (_, 0) => exactly(&board.pass(), plies - 1),
            (_, moves) => engine::Bitboard(moves)
                .map(|sq| exactly(&board.play(sq).expect("legal"), plies - 1))
                .max()
                .unwrap_or(0),
        }
    }

    #[test]
    fn by_ply_matches_a_plain_search_and_each_witness_replays() {
        let maxima = max_mobility_by_ply(7, 1 << 16).unwrap();
        assert_eq!(maxima.len(), 8);
        for m in &maxima {
            assert_eq!(
                m.mobility,
                exactly(&Board::START, m.ply as u32),
                "ply {}",
                m.ply
            );
            assert_eq!(m.witness.len(), m.ply);
            let mut p = Position::START;
            for &mv in &m.witness {
                p = p.play(mv).unwrap();
            }
            assert_eq!(p.board.mobility(), m.mobility);
        }
        assert_eq!(maxima[0].positions, 1);
        // A124005 up to symmetry begins 1, 1, 3, 14, 60.
        let counts: Vec<u64> = maxima[..5].iter().map(|m| m.positions).collect();
        assert_eq!(counts, [1, 1, 3, 14, 60]);
    }
}
