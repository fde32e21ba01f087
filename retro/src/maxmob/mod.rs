//! The largest mobility (legal moves of the side to move) over the positions reachable
//! within a number of plies, by brute force over the enumerated levels, with a witness
//! game found by walking back through the levels and replayed forward by the core.
//!
//! Three ways, a file each beside the levels and witnesses here: `by_ply` (the maximum
//! after each exact number of plies: the levels enumerated, then every line followed
//! beyond the last), `followed` (the depth-first lines it follows, compiled per
//! instruction set) and `beam` (a lower bound with its witness where neither reaches).

use std::io;
use std::path::Path;

use engine::{Board, Move, Position};

use crate::enumerate::{reduce, Convention, Level, Side};
use crate::sorted::key;
use crate::unmove::unmoves;

mod beam;
mod by_ply;
mod followed;

pub use beam::beam_by_ply;
pub use by_ply::max_mobility_by_ply;
pub use followed::MAX_FOLLOWED;

/// The largest mobility within a number of plies, with a witness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaxMobility {
    /// The plies searched (at most).
    pub plies: u32,
    /// The largest number of legal moves of the side to move met.
    pub mobility: u32,
    /// A game from the start reaching a position with that mobility (the side to move of
    /// its last position has `mobility` legal moves).
    pub witness: Vec<Move>,
    /// That position.
    pub position: Position,
}

/// The largest mobility within `plies` plies, holding at most `limit` keys in memory per
/// level being built.
pub fn max_mobility(plies: u32, limit: usize) -> io::Result<MaxMobility> {
    let levels = levels(plies, limit, None)?;
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
    /// Plies from the start (a pass is a ply).
    pub ply: usize,
    /// The most legal moves met there.
    pub mobility: u32,
    /// How every position after exactly `ply` plies was seen.
    pub coverage: Coverage,
    /// A game of exactly `ply` plies ending at a position with `mobility` moves.
    pub witness: Vec<Move>,
}

/// How a [`PlyMaximum`] saw every position of its ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// Enumerated: this many distinct positions, up to the symmetries of the start.
    Positions(u64),
    /// Followed depth-first from every one of `from_positions` distinct positions (up to
    /// the start's symmetries) after exactly `from_ply` plies, or from those of partition
    /// `shard` = (I, N), 1-based, of them: `lines` continuations of exactly the remaining
    /// plies, transpositions included.
    Lines {
        /// The level followed from.
        from_ply: usize,
        /// Its positions followed.
        from_positions: u64,
        /// Continuations followed.
        lines: u64,
        /// The partition (I, N) followed, if not all.
        shard: Option<(usize, usize)>,
    },
    /// A beam search's best: at every ply before, at most `width` distinct positions (up
    /// to the start's symmetries) were kept ([`beam_by_ply`]), and every child of them was
    /// seen. A lower bound, not the maximum, unless no ply before was cut: then the row is
    /// [`Coverage::Positions`].
    Beam {
        /// Positions kept per ply.
        width: usize,
    },
}

/// The levels after 0 to `plies` plies. With `keep`, a directory of levels (as `retro
/// enumerate --plies N --levels DIR` keeps them): a level saved there is read instead of
/// built, and a level built is saved there, so that the runs that follow lines from one
/// deep level (the shards of the next plies) enumerate it once.
pub(super) fn levels(plies: u32, limit: usize, keep: Option<&Path>) -> io::Result<Vec<Level>> {
    let mut levels = vec![Level::start(Convention::Plies)];
    for ply in 1..=plies {
        let saved = keep
            .map(|dir| Level::load_latest(dir, Convention::Plies, ply))
            .transpose()?
            .flatten();
        let level = match saved {
            Some(saved) if saved.number == ply => saved,
            _ => levels
                .last()
                .expect("the start")
                .next_in(Convention::Plies, limit, keep)?,
        };
        levels.push(level);
    }
    Ok(levels)
}

/// A game from the start to `target` (with `side` to move) in the last of `levels`:
/// representatives walked back level by level, then replayed forward by the core, each
/// move the one whose result reduces to the next representative. The representatives one
/// level back are those of the unmoves of the next one (a symmetry of the start maps the
/// unmoves of a position onto those of its image), looked up in the level's sorted keys:
/// a few binary searches where a scan of the level would cost a pass over every position.
pub(super) fn witness(
    levels: &[Level],
    target: Board,
    side: Side,
) -> io::Result<(Vec<Move>, Position)> {
    let mut chain = vec![(target, side)];
    for level in levels[..levels.len() - 1].iter().rev() {
        let (next, next_side) = *chain.last().expect("the target");
        let mut previous = None;
        for unmove in unmoves(&next, next_side) {
            let before = reduce(&unmove.board);
            if level.sets[unmove.side].contains(key(&before))? {
                previous = Some((before, unmove.side));
                break;
            }
        }
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
    use engine::reference::max_mobility_exactly;
    use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

    /// A witness walks back through a pass as through a move: every position of the
    /// levels to ply 9 where the side that did not move has no move (so it may follow a
    /// pass) gets a game that replays to an image of it, and some of those games end
    /// with the pass.
    #[test]
    fn witnesses_walk_back_through_passes() {
        let levels = levels(9, 1 << 20, None).unwrap();
        let mut after_pass = Vec::new();
        for (ply, level) in levels.iter().enumerate().skip(1) {
            level
                .for_each(|b, side| {
                    if b.pass().moves() == 0 && b.moves() != 0 {
                        after_pass.push((ply, *b, side));
                    }
                })
                .unwrap();
        }
        let mut passes = 0;
        for &(ply, board, side) in &after_pass {
            let (moves, position) = witness(&levels[..=ply], board, side).unwrap();
            assert_eq!(moves.len(), ply);
            assert_eq!(reduce(&position.board), board);
            assert_eq!(crate::enumerate::side_index(position.side), side);
            passes += usize::from(moves.last() == Some(&Move::Pass));
        }
        assert!(passes > 0, "{} positions, no pass", after_pass.len());
    }

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

    fn by_ply(plies: u32, enumerated: u32) -> Vec<PlyMaximum> {
        let stop = AtomicBool::new(false);
        max_mobility_by_ply(plies, enumerated, None, 1 << 16, None, &stop, &|_, _| ()).unwrap()
    }

    #[test]
    fn by_ply_matches_a_plain_search_and_each_witness_replays() {
        let enumerated = by_ply(7, 7);
        let followed = by_ply(7, 3);
        assert_eq!(enumerated.len(), 8);
        assert_eq!(followed.len(), 8);
        for (m, f) in enumerated.iter().zip(&followed) {
            assert_eq!((f.ply, f.mobility), (m.ply, m.mobility));
            assert_eq!(f.coverage == m.coverage, m.ply <= 3, "ply {}", m.ply);
        }
        for m in enumerated.iter().chain(&followed) {
            assert_eq!(
                m.mobility,
                max_mobility_exactly(&Board::START, m.ply as u32),
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
        // A124005 up to symmetry begins 1, 1, 3, 14, 60.
        let counts: Vec<Coverage> = enumerated[..5].iter().map(|m| m.coverage).collect();
        assert_eq!(counts, [1, 1, 3, 14, 60].map(Coverage::Positions));
        // From the 14 positions after 3 plies (up to symmetry), the lines of 1 and 2 more
        // plies: perft 1 and 2 from each of those representatives.
        let lines = |ply: usize| match followed[ply].coverage {
            Coverage::Lines {
                from_ply: 3,
                from_positions: 14,
                lines,
                shard: None,
            } => lines,
            other => panic!("ply {ply}: {other:?}"),
        };
        let plain = |plies: u32| -> u64 {
            let level = levels(3, 1 << 16, None).unwrap().pop().unwrap();
            let mut n = 0;
            level
                .for_each(|b, _| n += engine::perft::perft(b, plies).leaves)
                .unwrap();
            n
        };
        assert_eq!(lines(4), plain(1));
        assert_eq!(lines(5), plain(2));
    }

    /// The beam: exact, and equal to the enumeration, up to the first ply cut to its width
    /// (60 positions after 4 plies, 322 after 5); lower bounds after, each witness a game of
    /// its ply reaching its count; the same rows again on a second run; a raised stop ends
    /// it.
    #[test]
    fn beam_is_exact_until_cut_and_a_lower_bound_after() {
        let stop = AtomicBool::new(false);
        let exact = by_ply(8, 8);
        let beam = beam_by_ply(8, 100, &stop, &|| ()).unwrap();
        assert_eq!(beam.len(), 9);
        for (b, e) in beam.iter().zip(&exact) {
            assert_eq!(b.ply, e.ply);
            if b.ply <= 5 {
                assert_eq!(
                    (b.mobility, b.coverage),
                    (e.mobility, e.coverage),
                    "ply {}",
                    b.ply
                );
            } else {
                assert_eq!(b.coverage, Coverage::Beam { width: 100 });
                assert!(b.mobility <= e.mobility, "ply {}", b.ply);
            }
            assert_eq!(b.witness.len(), b.ply);
            let mut p = Position::START;
            for &mv in &b.witness {
                p = p.play(mv).unwrap();
            }
            assert_eq!(p.board.mobility(), b.mobility, "ply {}", b.ply);
        }
        // A width of one is the greedy line, which falls short at ply 8.
        let greedy = beam_by_ply(8, 1, &stop, &|| ()).unwrap();
        assert!(greedy[8].mobility < exact[8].mobility);
        assert_eq!(beam, beam_by_ply(8, 100, &stop, &|| ()).unwrap());
        stop.store(true, Relaxed);
        let stopped = beam_by_ply(8, 100, &stop, &|| ()).unwrap_err();
        assert_eq!(stopped.kind(), io::ErrorKind::Interrupted);
    }
}
