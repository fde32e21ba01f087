//! Perft: counting the games of a given length, the standard check of move generation.
//!
//! Convention of OEIS A124004: a pass is a ply; a game that ends before the last ply is not
//! a leaf but is counted in `finished`, so `leaves + finished` is the number of games of at
//! most `depth` plies that either end or last that long.

use std::ops::{Add, AddAssign};

use rayon::prelude::*;

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::cpu::Isa;
use crate::{isa_dispatch, isa_versions};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct PerftCounts {
    /// Positions after exactly `depth` plies.
    pub leaves: u64,
    /// Leaves whose last ply was a pass.
    pub passes: u64,
    /// Games that ended (neither side could move) before `depth` plies.
    pub finished: u64,
}

impl Add for PerftCounts {
    type Output = PerftCounts;
    fn add(self, rhs: PerftCounts) -> PerftCounts {
        PerftCounts {
            leaves: self.leaves + rhs.leaves,
            passes: self.passes + rhs.passes,
            finished: self.finished + rhs.finished,
        }
    }
}

impl AddAssign for PerftCounts {
    fn add_assign(&mut self, rhs: PerftCounts) {
        *self = *self + rhs;
    }
}

impl std::iter::Sum for PerftCounts {
    fn sum<I: Iterator<Item = PerftCounts>>(iter: I) -> PerftCounts {
        iter.fold(PerftCounts::default(), Add::add)
    }
}

const LEAF: PerftCounts = PerftCounts {
    leaves: 1,
    passes: 0,
    finished: 0,
};
const PASS_LEAF: PerftCounts = PerftCounts {
    leaves: 1,
    passes: 1,
    finished: 0,
};
const FINISHED: PerftCounts = PerftCounts {
    leaves: 0,
    passes: 0,
    finished: 1,
};

/// Counts games of `depth` plies from `board`, on the calling thread.
pub fn perft(board: &Board, depth: u32) -> PerftCounts {
    perft_with(Isa::detect(), board, depth)
}

/// [`perft`] compiled for instruction set `isa`, which this CPU must run.
pub fn perft_with(isa: Isa, board: &Board, depth: u32) -> PerftCounts {
    if depth == 0 {
        return LEAF;
    }
    isa_dispatch!(isa, count(board, depth))
}

/// Like [`perft`], with the first plies searched in parallel on the current rayon pool.
pub fn perft_parallel(board: &Board, depth: u32) -> PerftCounts {
    /// Plies split into parallel tasks: enough subtrees (about 10^3) to balance the load.
    const SPLIT_PLIES: u32 = 3;
    fn split(board: &Board, depth: u32, plies: u32) -> PerftCounts {
        if plies == 0 || depth <= 4 {
            return perft(board, depth);
        }
        let moves = board.moves();
        if moves == 0 {
            return match board.pass() {
                passed if passed.moves() == 0 => FINISHED,
                passed => split(&passed, depth - 1, plies - 1),
            };
        }
        let squares: Vec<_> = Bitboard(moves).collect();
        squares
            .par_iter()
            .map(|&sq| split(&board.play_flips(sq, board.flips(sq)), depth - 1, plies - 1))
            .sum()
    }
    split(board, depth, SPLIT_PLIES)
}

isa_versions! {
    /// The recursion, `depth >= 1`; the last two plies are counted without making the moves
    /// of the last one (bulk counting: the leaves under a node are its number of moves).
    fn count(board: &Board, depth: u32) -> PerftCounts {
        let moves = board.moves();
        if moves == 0 {
            let passed = board.pass();
            return if passed.moves() == 0 {
                FINISHED
            } else if depth == 1 {
                PASS_LEAF
            } else {
                count(&passed, depth - 1)
            };
        }
        if depth == 1 {
            return PerftCounts {
                leaves: moves.count_ones() as u64,
                ..PerftCounts::default()
            };
        }
        let mut total = PerftCounts::default();
        for sq in Bitboard(moves) {
            let child = board.play_flips(sq, flip(sq.index(), board.player, board.opponent));
            if depth == 2 {
                let child_moves = child.moves();
                if child_moves != 0 {
                    total.leaves += child_moves.count_ones() as u64;
                } else if child.pass().moves() != 0 {
                    total += PASS_LEAF;
                } else {
                    total += FINISHED;
                }
            } else {
                total += count(&child, depth - 1);
            }
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_plies_from_the_start() {
        let leaves: Vec<u64> = (0..=6).map(|d| perft(&Board::START, d).leaves).collect();
        assert_eq!(leaves, [1, 4, 12, 56, 244, 1396, 8200]);
        assert_eq!(perft_parallel(&Board::START, 6), perft(&Board::START, 6));
        for isa in Isa::available() {
            assert_eq!(perft_with(isa, &Board::START, 8).leaves, 390216, "{isa:?}");
        }
    }

    #[test]
    fn passes_and_finished_games() {
        // Two discs far apart: neither side can move.
        let over = Board::new(1, 1 << 63);
        assert_eq!(perft(&over, 1), FINISHED);
        assert_eq!(perft(&over, 3), FINISHED);
        // The side to move on b1 cannot move; the other, on a1, can play c1.
        let must_pass = Board::new(0b10, 0b01);
        assert!(must_pass.must_pass());
        assert_eq!(perft(&must_pass, 1), PASS_LEAF);
    }
}
