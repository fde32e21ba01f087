//! Move ordering: which move to search first.

use arrayvec::ArrayVec;

use crate::bitboard::Bitboard;
use crate::board::{neighbours, Board};
use crate::cpu::Isa;
use crate::eval::{Evaluation, Features};
use crate::search::tt::TranspositionTable;
use crate::square::Square;
use crate::{isa_dispatch, isa_versions};

const QUADRANTS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The quadrants holding an odd number of the `empties`: playing there first tends to leave
/// the last move of each region to us (parity).
#[inline(always)]
pub fn odd_quadrants(empties: u64) -> u64 {
    // No iterator adapters: `Iter::fold` was left a call in `nws_table`, compiled without
    // the POPCNT instruction.
    let odd = |q: u64| q & ((empties & q).count_ones() as u64 & 1).wrapping_neg();
    odd(QUADRANTS[0]) | odd(QUADRANTS[1]) | odd(QUADRANTS[2]) | odd(QUADRANTS[3])
}

/// C-squares (on an edge next to a corner) and X-squares (diagonally next to a corner):
/// moves there tend to give the corner away.
const C_SQUARES: u64 = 0x4281_0000_0000_8142;
const X_SQUARES: u64 = 0x0042_0000_0000_4200;

/// The `empties` alone in their quadrant: playing one closes its region with the last move
/// there.
#[inline(always)]
pub fn lone_empties(empties: u64) -> u64 {
    let lone = |q: u64| {
        let here = empties & q;
        here & ((here.count_ones() == 1) as u64).wrapping_neg()
    };
    lone(QUADRANTS[0]) | lone(QUADRANTS[1]) | lone(QUADRANTS[2]) | lone(QUADRANTS[3])
}

/// The `squares` in the order the last plies try them, where no evaluation ranks them, as
/// six disjoint parts to take in turn: those alone in their quadrant of the `empties`
/// first, then the rest of the odd quadrants, then the even ones, and in each the C- and
/// X-squares last (as Edax's presorted squares). Fewer nodes than square-index order, and
/// fewer again with the lone squares ahead of the other odd ones (at 4 and 5 empties and,
/// by [`lone_first`], at 3; results/ffo.md, "Figures once in code comments").
#[inline(always)]
pub fn parity_order(squares: u64, empties: u64) -> [u64; 6] {
    const RISKY: u64 = C_SQUARES | X_SQUARES;
    let lone = lone_empties(empties);
    let odd = odd_quadrants(empties) & !lone;
    let (first, second, third) = (squares & lone, squares & odd, squares & !(lone | odd));
    [
        first & !RISKY,
        first & RISKY,
        second & !RISKY,
        second & RISKY,
        third & !RISKY,
        third & RISKY,
    ]
}

/// Three empty squares, given in parity order for four, in [`parity_order`] for three: one
/// alone in its quadrant while the other two share one goes first (the only split of
/// three where the order changes), the others keep their order.
#[inline(always)]
pub fn lone_first(x: [usize; 3]) -> [usize; 3] {
    let quadrant = |sq: usize| (sq >> 2 & 1) | (sq >> 4 & 2);
    let (a, b, c) = (quadrant(x[0]), quadrant(x[1]), quadrant(x[2]));
    if a == b && c != a {
        [x[2], x[0], x[1]]
    } else if a == c && b != a {
        [x[1], x[0], x[2]]
    } else {
        x
    }
}

/// The opponent's replies in `child`, corners counted twice: what fastest-first ordering
/// minimises.
#[inline(always)]
fn weighted_replies(child: &Board) -> i32 {
    let replies = child.moves();
    (replies.count_ones() + (replies & CORNERS).count_ones()) as i32
}

/// Our corners and the edge squares next to them that we hold: a cheap count of stable
/// discs (Edax's corner stability).
#[inline(always)]
fn corner_stability(p: u64) -> i32 {
    let stable = ((0x0100_0000_0000_0001 & p) << 1
        | (0x8000_0000_0000_0080 & p) >> 1
        | (0x0000_0000_0000_0081 & p) << 8
        | (0x8100_0000_0000_0000 & p) >> 8
        | CORNERS)
        & p;
    stable.count_ones() as i32
}

/// The deepest ordering search: one ply per 4 empties above 12 would grow without bound
/// at the start of a game (positions far from the endgame can still be given to solve).
/// One ply per 3 (the first choice) searched fewer nodes but spent more time evaluating;
/// per 5 was slower again (results/ffo.md, "Figures once in code comments").
const MAX_SORT_DEPTH: u32 = 6;

/// Empties from which a node's moves are ranked by a shallow search of each child
/// ([`sort_depth`] plies) rather than by the child's evaluation.
pub const SHALLOW_SORT_MIN: u32 = 18;

/// The depth of the search that ranks the children of a node with `empties` empties (from
/// [`SHALLOW_SORT_MIN`]): 2 plies up to 23 empties, then one per 4 empties above 12.
/// 18-19 empties gained from 2 plies over 1 (results/ffo.md).
pub fn sort_depth(empties: u32) -> u32 {
    match empties {
        ..=23 => 2,
        _ => ((empties - 12) / 4).min(MAX_SORT_DEPTH),
    }
}

/// A `depth`-ply alpha-beta estimate with the evaluation (for ordering only), fail-soft.
pub fn shallow_value(
    eval: &dyn Evaluation,
    board: &Board,
    depth: u32,
    alpha: i32,
    beta: i32,
) -> i32 {
    shallow_value_from(eval, board, &Features::of(board), depth, alpha, beta)
}

/// [`shallow_value`] given `board`'s features (as its parent's updated by the move).
pub fn shallow_value_from(
    eval: &dyn Evaluation,
    board: &Board,
    features: &Features,
    depth: u32,
    alpha: i32,
    beta: i32,
) -> i32 {
    isa_dispatch!(
        Isa::detect(),
        shallow_search(eval, board, features, depth, alpha, beta)
    )
}

isa_versions!(
    /// [`shallow_value`] for one instruction set.
    fn shallow_search(
        eval: &dyn Evaluation,
        board: &Board,
        features: &Features,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if depth == 0 {
            return eval.evaluate_features(board, features);
        }
        let moves = board.moves();
        if moves == 0 {
            return if board.pass().moves() == 0 {
                board.final_score() * 100
            } else {
                -shallow_search(
                    eval,
                    &board.pass(),
                    &features.passed(),
                    depth,
                    -beta,
                    -alpha,
                )
            };
        }
        let (mut alpha, mut best) = (alpha, -30_000);
        for sq in Bitboard(moves) {
            let flipped = flip(sq.index(), board.player, board.opponent);
            let child = board.play_flips(sq, flipped);
            let child_features = features.after_move(sq.index(), flipped);
            best = best.max(-shallow_search(
                eval,
                &child,
                &child_features,
                depth - 1,
                -beta,
                -alpha,
            ));
            alpha = alpha.max(best);
            if alpha >= beta {
                break;
            }
        }
        best
    }
);

/// The legal moves of a position with their children, handed out best first.
///
/// Made empty where it is used, then filled by [`MoveList::score`], or in two steps by
/// [`MoveList::generate`] and [`MoveList::rank`]: a list returned by value was copied
/// whole, 1.5 KiB, a visible share of the solver's time (results/ffo.md, "Figures once in
/// code comments").
#[derive(Default)]
pub struct MoveList {
    /// (move, child, ordering score); at most one per square, never initialised beyond use.
    entries: ArrayVec<(Square, Board, i32), 64>,
}

/// The score of a move [`MoveList::generate`] left for [`MoveList::rank`].
const UNRANKED: i32 = i32::MIN;

impl MoveList {
    /// Scores every move: [`MoveList::generate`] then [`MoveList::rank`].
    #[inline(always)]
    pub fn score(
        &mut self,
        board: &Board,
        moves: u64,
        hash_move: u8,
        eval: &dyn Evaluation,
        flip: impl Fn(usize, u64, u64) -> u64,
    ) {
        self.generate(board, moves, hash_move, flip);
        self.rank(board, eval);
    }

    /// Fills the list with the `moves` and their children (flips by `flip`, as
    /// [`crate::flip::flip`]), ranking only the moves that come first whatever the others
    /// score: the hash move, then moves that leave the opponent no discs. Returns whether
    /// there is such a move; the others can be ranked after it has been searched, and need
    /// not be when it cuts.
    #[inline(always)]
    pub fn generate(
        &mut self,
        board: &Board,
        moves: u64,
        hash_move: u8,
        flip: impl Fn(usize, u64, u64) -> u64,
    ) -> bool {
        self.entries.clear();
        let mut any_first = false;
        for sq in Bitboard(moves) {
            let child = board.play_flips(sq, flip(sq.index(), board.player, board.opponent));
            let score = if sq.index() as u8 == hash_move {
                1 << 30
            } else if child.player == 0 {
                1 << 29
            } else {
                UNRANKED
            };
            any_first |= score != UNRANKED;
            self.entries.push((sq, child, score));
        }
        any_first
    }

    /// Ranks the moves [`MoveList::generate`] left unranked: fastest first (fewest
    /// opponent replies, corners counted twice), with a bonus for odd quadrants and for
    /// our corners and the C-squares they hold (fewer nodes: results/ffo.md, "Figures once
    /// in code comments") and, from 14 empties, the evaluation of the child (from 18, a
    /// shallow search).
    #[inline(always)]
    pub fn rank(&mut self, board: &Board, eval: &dyn Evaluation) {
        if self.entries.len() < 2 {
            return; // a single move needs no ranking (nor its evaluation)
        }
        let odd = odd_quadrants(board.empties());
        let empties = board.empty_count();
        let depth = sort_depth(empties);
        // The children's features are the parent's updated by each move (Features).
        let features = (empties >= 14).then(|| Features::of(board));
        for (sq, child, score) in self.entries.iter_mut().filter(|e| e.2 == UNRANKED) {
            let mobility = weighted_replies(child);
            // Empty squares next to our discs: the opponent's room for later moves, each
            // an eighth of a reply; an odd quadrant a quarter (fewer nodes than a 32nd and
            // an eighth: results/ffo.md, "Figures once in code comments").
            let potential = (neighbours(child.opponent) & child.empties()).count_ones() as i32;
            let parity = (odd & sq.bit() != 0) as i32;
            // Discs that stay ours: each worth a quarter of a reply, about half a disc of
            // evaluation (best of 4..32 units on fforum-20-39 and FFO #40-#47).
            let stable = corner_stability(child.opponent);
            // Hundredths of a disc / 3: one reply less weighs as much as about two discs
            // of evaluation (measured best of /2../8 on fforum-20-39 and #40-#44 with the
            // trained weights).
            let eval = match &features {
                None => 0,
                Some(features) => {
                    let flipped = board.opponent & child.opponent;
                    let child_features = features.after_move(sq.index(), flipped);
                    -match empties {
                        0..SHALLOW_SORT_MIN => eval.evaluate_features(child, &child_features),
                        _ => {
                            shallow_value_from(eval, child, &child_features, depth, -30_000, 30_000)
                        }
                    } / 3
                }
            };
            *score = -(mobility << 6) - (potential << 3) + (parity << 4) + (stable << 4) + eval;
        }
    }

    /// Ranks the moves [`MoveList::generate`] left unranked by the opponent's replies alone
    /// (corners twice), a move into an `odd` quadrant counting as most of one reply less:
    /// the cheap ordering of the nodes just above the last-move solvers.
    #[inline(always)]
    pub fn rank_by_replies(&mut self, odd: u64) {
        for (sq, child, score) in self.entries.iter_mut().filter(|e| e.2 == UNRANKED) {
            let mobility = weighted_replies(child);
            let parity = (odd & sq.bit() != 0) as i32;
            *score = -4 * mobility + 3 * parity;
        }
    }

    /// Whether the list has no move.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Asks the table for every child's bucket (see [`TranspositionTable::prefetch`]).
    pub fn prefetch(&self, tt: &TranspositionTable) {
        for (_, child, _) in &self.entries {
            tt.prefetch(child);
        }
    }

    /// Enhanced transposition cut-off: a child whose stored upper bound (searched at
    /// `selectivity` or more exactly) is below `-alpha` proves the null window at `alpha`
    /// fails high without a search.
    pub fn transposition_cutoff(
        &self,
        tt: &TranspositionTable,
        alpha: i32,
        selectivity: u8,
    ) -> Option<i32> {
        self.entries
            .iter()
            .filter_map(|(_, child, _)| tt.probe(child))
            .filter(|bounds| bounds.selectivity >= selectivity)
            .map(|bounds| -bounds.upper)
            .find(|&score| score > alpha)
    }

    /// Removes and returns the best remaining move (selection: cut-offs usually come
    /// early, so sorting the whole list would be wasted).
    #[inline(always)]
    pub fn next_best(&mut self) -> Option<(Square, Board)> {
        let best = (0..self.entries.len()).max_by_key(|&i| self.entries[i].2)?;
        let (sq, child, _) = self.entries.swap_remove(best);
        Some((sq, child))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parity_quadrants() {
        assert_eq!(odd_quadrants(0), 0);
        assert_eq!(odd_quadrants(1), QUADRANTS[0]);
        assert_eq!(odd_quadrants(1 | 1 << 1), 0);
        assert_eq!(odd_quadrants(1 << 63 | 1 << 7), QUADRANTS[1] | QUADRANTS[3]);
    }

    fn bits(squares: &str) -> u64 {
        squares
            .split(' ')
            .map(|sq| sq.parse::<Square>().unwrap().bit())
            .sum()
    }

    fn names(parts: impl IntoIterator<Item = u64>) -> Vec<String> {
        parts
            .into_iter()
            .flat_map(Bitboard)
            .map(|sq| sq.to_string())
            .collect()
    }

    #[test]
    fn lone_squares_then_odd_quadrants_then_even_with_risky_squares_last_in_each() {
        // a1-d4 holds b2 (X), c1, a2 (C), d4, b3: odd. e1-h4 holds h1 alone. a5-d8 holds
        // a8 and b7 (X): even. e5-h8 holds h8 (corner) and g7 (X): even.
        let empties = bits("b2 c1 a2 d4 b3 h1 a8 b7 h8 g7");
        let squares = bits("b2 c1 a2 d4 h1 b7 h8 g7");
        assert_eq!(lone_empties(empties), bits("h1"));
        assert_eq!(
            names(parity_order(squares, empties)),
            ["h1", "c1", "d4", "a2", "b2", "h8", "b7", "g7"]
        );
    }

    #[test]
    fn of_three_squares_the_lone_one_comes_first() {
        let square = |name: &str| name.parse::<Square>().unwrap().index();
        let [a1, b1, h8] = [square("a1"), square("b1"), square("h8")];
        assert_eq!(lone_first([a1, b1, h8]), [h8, a1, b1]);
        assert_eq!(lone_first([a1, h8, b1]), [h8, a1, b1]);
        assert_eq!(lone_first([h8, a1, b1]), [h8, a1, b1]);
        // All in one quadrant, or each alone: as given.
        let [c2, g7, h1] = [square("c2"), square("g7"), square("h1")];
        assert_eq!(lone_first([a1, b1, c2]), [a1, b1, c2]);
        assert_eq!(lone_first([a1, g7, h1]), [a1, g7, h1]);
    }

    #[test]
    fn corner_stability_counts_corners_and_their_c_squares() {
        // a1 with b1 and a2; h8 with h7; g1 and h2 have no corner of ours; b2 is inside.
        assert_eq!(corner_stability(bits("a1 b1 a2 g1 h2 b2 h8 h7")), 5);
        assert_eq!(corner_stability(0), 0);
    }

    #[test]
    fn hash_move_comes_first_and_all_moves_come_out() {
        let board = Board::START;
        let mut list = MoveList::default();
        list.score(
            &board,
            board.moves(),
            37,
            &crate::eval::HandEval,
            crate::flip::flip,
        );
        assert_eq!(list.entries.len(), 4);
        assert_eq!(list.next_best().unwrap().0.to_string(), "f5");
        let rest: Bitboard = std::iter::from_fn(|| list.next_best().map(|m| m.0)).collect();
        assert_eq!(rest.to_string(), "d3 c4 e6");
        assert!(list.is_empty());
    }
}
