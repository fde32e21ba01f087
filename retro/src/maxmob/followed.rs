//! Every line of play followed depth-first from a position: the largest mobility and the
//! number of lines at each depth, without memory (a maximum needs no deduplication).

use engine::board::neighbours;
use engine::cpu::Isa;
use engine::{isa_dispatch, isa_versions, Bitboard, Board, Move, Square};

use crate::enumerate::Side;

/// The best of the positions `1..=depth` plies after the representatives followed so far.
pub(super) struct Followed {
    /// Per number of plies after the representative: the largest mobility, and the first
    /// representative (with its side to move) reaching it; `None` while no line is that
    /// long.
    pub(super) best: Vec<(u32, Option<Board>, Side)>,
    /// Per number of plies: the lines of play of that length followed.
    pub(super) lines: Vec<u64>,
    /// Representatives followed.
    pub(super) from_positions: u64,
}

impl Followed {
    pub(super) fn new(depth: usize) -> Followed {
        Followed {
            best: vec![(0, None, 0); depth],
            lines: vec![0; depth],
            from_positions: 0,
        }
    }

    /// The best so far and nothing counted: where another search starts, so that it
    /// skips what cannot beat what is already found.
    pub(super) fn floor(&self) -> Followed {
        Followed {
            best: self.best.clone(),
            ..Followed::new(self.best.len())
        }
    }

    pub(super) fn follow_from(&mut self, from: Board, side: Side) {
        self.from_positions += 1;
        let depth = self.best.len();
        let (mut most, mut lines) = ([0u32; MAX_FOLLOWED], [0u64; MAX_FOLLOWED]);
        for (m, best) in most.iter_mut().zip(&self.best) {
            *m = best.0;
        }
        isa_dispatch!(
            Isa::detect(),
            follow(&from, &mut most[..depth], &mut lines[..depth])
        );
        for ((best, total), (&m, &n)) in self
            .best
            .iter_mut()
            .zip(&mut self.lines)
            .zip(most.iter().zip(&lines))
        {
            *total += n;
            if n > 0 && (best.1.is_none() || m > best.0) {
                *best = (m, Some(from), side);
            }
        }
    }

    /// Both together; on ties the representative of `self` (the earlier ones) is kept.
    pub(super) fn merge(mut self, other: Followed) -> Followed {
        for (best, theirs) in self.best.iter_mut().zip(other.best) {
            if best.1.is_none() || (theirs.1.is_some() && theirs.0 > best.0) {
                *best = theirs;
            }
        }
        for (lines, theirs) in self.lines.iter_mut().zip(other.lines) {
            *lines += theirs;
        }
        self.from_positions += other.from_positions;
        self
    }
}

/// Plies a line is followed beyond the last enumerated level, at most (each is about 11x
/// the time of the one before).
pub const MAX_FOLLOWED: usize = 8;

isa_versions!(
    /// Raises `most[d]` to the mobility of each position `d + 1` plies after `board` and
    /// counts those positions in `lines[d]` (a forced pass is a ply; a finished game has no
    /// successors, as in [`crate::enumerate::successors`]). `most` may start at the best
    /// found elsewhere: the last ply's positions that cannot beat it are counted without
    /// their moves being generated. Compiled per instruction set: nearly all its time is
    /// the last ply's flips and move counts.
    fn follow(board: &Board, most: &mut [u32], lines: &mut [u64]) -> () {
        let (Some((first, deeper)), Some((counted, deeper_lines))) =
            (most.split_first_mut(), lines.split_first_mut())
        else {
            return;
        };
        let moves = board.moves();
        // (More than 32 moves is more than any reachable position has, 33 being the most;
        // the general case below takes it.)
        if deeper.is_empty() && moves != 0 && moves.count_ones() <= 32 {
            // The children are the last ply, where only their number and largest mobility
            // matter. Each move of a child's side to move is an empty square next to a
            // disc of the side that just moved (its discs before, the one placed, the
            // flipped ones), so a child with no more such squares than `most[0]` cannot
            // raise it: it is counted without its moves being generated. Kept free of
            // branches (the test is a coin toss for the predictor), the children that can
            // are made afterwards.
            let occupied = board.player | board.opponent;
            let (mut squares, mut flips) = ([Square::A1; 32], [0u64; 32]);
            let mut kept = 0;
            for sq in Bitboard(moves) {
                let f = flip(sq.index(), board.player, board.opponent);
                (squares[kept], flips[kept]) = (sq, f);
                let near = neighbours(board.player | sq.bit() | f) & !(occupied | sq.bit());
                kept += usize::from(near.count_ones() > *first);
            }
            *counted += u64::from(moves.count_ones());
            for (&sq, &f) in squares[..kept].iter().zip(&flips[..kept]) {
                *first = (*first).max(board.play_flips(sq, f).mobility());
            }
            return;
        }
        let mut visit = |child: Board| {
            *first = (*first).max(child.mobility());
            *counted += 1;
            follow(&child, deeper, deeper_lines);
        };
        if moves != 0 {
            for sq in Bitboard(moves) {
                visit(board.play_flips(sq, flip(sq.index(), board.player, board.opponent)));
            }
        } else if board.pass().moves() != 0 {
            visit(board.pass());
        }
    }
);

/// Moves of exactly `plies` plies from `board` to a position with `mobility` legal moves,
/// if there are any.
pub(super) fn line_to_mobility(board: &Board, plies: usize, mobility: u32) -> Option<Vec<Move>> {
    if plies == 0 {
        return (board.mobility() == mobility).then(Vec::new);
    }
    board.children().into_iter().find_map(|(mv, child)| {
        let mut line = line_to_mobility(&child, plies - 1, mobility)?;
        line.insert(0, mv);
        Some(line)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::reference::max_mobility_exactly;

    /// Every compiled version of `follow` that this CPU runs gives the plain search's
    /// maxima and perft's counts, from the start and from late positions of random games,
    /// where passes are common, also when it starts from nearly the maxima (and so skips
    /// most of the last ply).
    #[test]
    fn each_version_of_follow_matches_a_plain_search_and_perft() {
        let mut boards = vec![Board::START];
        boards.extend(
            crate::sample::random_game_positions(54, 40, 7)
                .iter()
                .map(|p| p.board),
        );
        let mut passes = 0;
        for isa in Isa::available() {
            for board in &boards {
                let (mut most, mut lines) = ([0u32; 4], [0u64; 4]);
                isa_dispatch!(isa, follow(board, &mut most, &mut lines));
                // Started from the maxima less one, as a search that found them elsewhere
                // but for one move: it must find the last move, and count the same lines.
                let mut below = most.map(|m| m.saturating_sub(1));
                let mut seeded_lines = [0u64; 4];
                isa_dispatch!(isa, follow(board, &mut below, &mut seeded_lines));
                for d in 0..4 {
                    let counts = engine::perft::perft(board, d as u32 + 1);
                    passes += counts.passes;
                    assert_eq!(lines[d], counts.leaves, "{isa:?} {board:?} {d}");
                    assert_eq!(seeded_lines[d], counts.leaves, "{isa:?} {board:?} {d}");
                    let exact = max_mobility_exactly(board, d as u32 + 1);
                    assert_eq!((most[d], below[d]), (exact, exact), "{isa:?} {board:?} {d}");
                }
            }
        }
        assert!(passes > 0, "no line with a pass was followed");
    }
}
