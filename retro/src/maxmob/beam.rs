//! A beam search: a lower bound on the maximum after each number of plies, with its
//! witness, where the enumeration does not reach.

use std::cmp::Reverse;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use engine::board::neighbours;
use engine::{Board, Move};
use rayon::prelude::*;

use super::{Coverage, PlyMaximum};
use crate::enumerate::reduce;

/// For each ply from 0 to `plies`, a position with many legal moves after exactly that many
/// plies (a forced pass is a ply), with its witness, found by a beam search: each ply keeps
/// `width` distinct positions (up to the start's symmetries) and sees every child of them.
/// Half the beam are those with the most legal moves for both sides together (open for
/// both, so for whoever moves next); the other half, of the rest, those with the most
/// empty squares next to a disc, which keeps the lines where passes leave the board open
/// late (the best games of the late plies pass, results/maxmob-by-ply.md). Where the plies
/// before were never cut to `width`, the row is exact (every position seen,
/// [`Coverage::Positions`]); beyond, a lower bound with its witness ([`Coverage::Beam`]),
/// the starting point `satgen curve --witnesses` climbs from. `progress` is called after
/// each ply; raising `stop` ends the search with an error of kind `Interrupted`.
pub fn beam_by_ply(
    plies: u32,
    width: usize,
    stop: &AtomicBool,
    progress: &(dyn Fn() + Sync),
) -> io::Result<Vec<PlyMaximum>> {
    struct Child {
        key: Board,
        /// The legal moves of its side to move.
        moves: u32,
        /// The legal moves of both sides together (the first half of the beam's order).
        rank: u32,
        room: u32,
        parent: u32,
        mv: Move,
        board: Board,
    }
    let width = width.max(1);
    let mut beam = vec![Board::START];
    // Per ply from 1: how each position of the beam was reached (its parent in the beam of
    // the ply before, and the move).
    let mut reached: Vec<Vec<(u32, Move)>> = Vec::new();
    let line = |reached: &[Vec<(u32, Move)>], mut index: u32| {
        let mut moves: Vec<Move> = reached
            .iter()
            .rev()
            .map(|step| {
                let (parent, mv) = step[index as usize];
                index = parent;
                mv
            })
            .collect();
        moves.reverse();
        moves
    };
    let mut maxima = vec![PlyMaximum {
        ply: 0,
        mobility: Board::START.mobility(),
        coverage: Coverage::Positions(1),
        witness: Vec::new(),
    }];
    let mut cut = false;
    for ply in 1..=plies as usize {
        if stop.load(Relaxed) {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "stopped"));
        }
        let mut children: Vec<Child> = beam
            .par_iter()
            .enumerate()
            .flat_map_iter(|(parent, board)| {
                board.children().into_iter().map(move |(mv, child)| {
                    let moves = child.mobility();
                    Child {
                        key: reduce(&child),
                        moves,
                        rank: moves + child.pass().mobility(),
                        room: room(&child),
                        parent: parent as u32,
                        mv,
                        board: child,
                    }
                })
            })
            .collect();
        let Some(best) = children.iter().max_by_key(|c| c.moves) else {
            break;
        };
        let mut witness = line(&reached, best.parent);
        witness.push(best.mv);
        let mobility = best.moves;
        children.par_sort_unstable_by_key(|c| c.key);
        children.dedup_by_key(|c| c.key);
        let coverage = if cut {
            Coverage::Beam { width }
        } else {
            Coverage::Positions(children.len() as u64)
        };
        maxima.push(PlyMaximum {
            ply,
            mobility,
            coverage,
            witness,
        });
        if children.len() > width {
            cut = true;
            // Half the beam by moves, the other half of the rest by room; among equals the
            // smaller key, so that a run is repeatable.
            let by_moves = width.div_ceil(2);
            children.select_nth_unstable_by_key(by_moves - 1, |c| (Reverse(c.rank), c.key));
            let rest = &mut children[by_moves..];
            let by_room = width - by_moves;
            if by_room > 0 {
                rest.select_nth_unstable_by_key(by_room - 1, |c| (Reverse(c.room), c.key));
            }
            children.truncate(width);
        }
        reached.push(children.iter().map(|c| (c.parent, c.mv)).collect());
        beam = children.into_iter().map(|c| c.board).collect();
        progress();
    }
    Ok(maxima)
}

/// Empty squares next to a disc: where moves can come, for either side, once the discs
/// around them change colour.
fn room(board: &Board) -> u32 {
    let occupied = board.player | board.opponent;
    (neighbours(occupied) & !occupied).count_ones()
}
