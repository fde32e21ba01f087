//! Exact endgame search: negamax with null-window searches (NWS) below principal-variation
//! (PVS) nodes, fail-soft, scores in discs from -64 to 64.
//!
//! Stages by number of empties, as in Edax:
//! - 1: `solve1` counts the flips of the last move without making it;
//! - 2..=4: `solve4`, `solve3`, `solve2` try the empty squares directly, in parity order
//!   (set at 4, the lone square first again at 3);
//! - 5..=`SHALLOW`: `nws_shallow`, move generation and parity ordering (from
//!   `FASTEST_FIRST_MIN`, fewest replies first), no table;
//! - above: `nws_table`, with the transposition table and fastest-first ordering.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering::Relaxed};

use arrayvec::ArrayVec;
use rayon::prelude::*;

use crate::bitboard::Bitboard;
use crate::board::{neighbours, Board};
use crate::cpu::Isa;
use crate::eval::Evaluation;
use crate::flip::last_flip_count;
use crate::search::ordering::{lone_first, odd_quadrants, parity_order, MoveList};
use crate::search::probcut;
use crate::search::tt::{Bounds, Exact, TranspositionTable, NO_MOVE};
use crate::stability;
use crate::{isa_dispatch, isa_versions, Square};

/// Empties at and below which the table is not used (its probes cost more than they save).
pub const SHALLOW: u32 = 7;

/// Empties from which `nws_shallow` tries its moves fastest first (fewest replies, then
/// odd quadrants) rather than in parity order alone: far fewer nodes, each dearer, and
/// less time in all; from 7 less gain, from 5 slower (results/ffo.md, "Figures once in
/// code comments").
pub const FASTEST_FIRST_MIN: u32 = 6;

/// Empties at and below which nodes keep their bounds in the small table
/// (`Search::shallow_tt`) rather than the main one: it stays in the processor's caches,
/// where a probe of the main table waits for memory (as Edax's shallow table): less time
/// for a few more nodes; 8-11 empties and 1-8 MiB measured alike (results/ffo.md,
/// "Figures once in code comments").
pub const SHALLOW_TT_MAX: u32 = 9;

/// Empties from which children are looked up in the table before any is searched
/// (enhanced transposition cut-off).
pub const ETC_MIN: u32 = 12;

/// Empties from which the later moves of a PV node are searched in parallel.
pub const SPLIT_MIN: u32 = 12;

/// Empties from which the later moves of a null-window node are searched in parallel once
/// the first has failed to cut.
pub const SPLIT_NWS_MIN: u32 = 18;

/// When to abandon a search: a flag raised from outside (Ctrl-C, a caller's deadline) or by
/// a parallel split whose other moves made this one useless, and the flags of the splits
/// (and the root) enclosing it.
#[derive(Clone, Copy)]
pub struct Stop<'a> {
    flag: &'a AtomicBool,
    parent: Option<&'a Stop<'a>>,
}

impl<'a> Stop<'a> {
    /// Raised with `flag` alone.
    pub fn new(flag: &'a AtomicBool) -> Stop<'a> {
        Stop { flag, parent: None }
    }

    /// `flag`, or any flag that stops `parent`.
    pub fn within(flag: &'a AtomicBool, parent: &'a Stop<'a>) -> Stop<'a> {
        Stop {
            flag,
            parent: Some(parent),
        }
    }

    /// Whether this flag or an enclosing one is raised.
    pub fn raised(&self) -> bool {
        self.flag.load(Relaxed) || self.parent.is_some_and(|p| p.raised())
    }
}

/// What one search (one thread) carries down the tree.
pub struct Search<'a> {
    /// The table of the nodes with more than SHALLOW_TT_MAX empties.
    pub tt: &'a TranspositionTable,
    /// The table of the nodes with at most SHALLOW_TT_MAX empties.
    pub shallow_tt: &'a TranspositionTable,
    /// Orders moves; exact answers never depend on it.
    pub eval: &'a dyn Evaluation,
    /// Nodes searched so far.
    pub nodes: u64,
    /// When raised, the search is abandoned; results of an abandoned search are
    /// meaningless and must be discarded by the caller.
    pub stop: Stop<'a>,
    /// `probcut::EXACT`, or a lower level at which nodes may be cut probably (the root's
    /// selective iterations, for a first score and good moves).
    pub selectivity: u8,
    /// Whether its nodes may hand moves to the other threads of the rayon pool. Off where
    /// the search is itself one of several threads searching at once (dfpn's leaves): a
    /// split there wakes a pool thread that has no core of its own.
    pub split: bool,
}

impl<'a> Search<'a> {
    /// An exact search over these tables, stopped by `stop`.
    pub fn new(
        tt: &'a TranspositionTable,
        shallow_tt: &'a TranspositionTable,
        eval: &'a dyn Evaluation,
        stop: Stop<'a>,
    ) -> Search<'a> {
        Search {
            tt,
            shallow_tt,
            eval,
            nodes: 0,
            stop,
            selectivity: probcut::EXACT,
            split: rayon::current_num_threads() > 1,
        }
    }

    /// A search for one thread of a split of `parent`'s, abandoned when `abandon` is
    /// raised or `parent` is stopped.
    fn helper<'b>(parent: &'b Search<'a>, abandon: &'b AtomicBool) -> Search<'b> {
        Search {
            tt: parent.tt,
            shallow_tt: parent.shallow_tt,
            eval: parent.eval,
            nodes: 0,
            stop: Stop::within(abandon, &parent.stop),
            selectivity: parent.selectivity,
            split: parent.split,
        }
    }

    /// Whether the search is to be abandoned.
    pub fn stopped(&self) -> bool {
        self.stop.raised()
    }

    /// The table of the nodes with `empties` empties.
    #[inline(always)]
    fn table(&self, empties: u32) -> &'a TranspositionTable {
        if empties <= SHALLOW_TT_MAX {
            self.shallow_tt
        } else {
            self.tt
        }
    }
}

/// The exact score with one empty square `x` left.
#[inline(always)]
fn solve1(board: &Board, x: usize) -> i32 {
    let p = board.player.count_ones() as i32;
    let flipped = last_flip_count(x, board.player) as i32;
    if flipped > 0 {
        return 2 * (p + flipped + 1) - 64;
    }
    let flipped = last_flip_count(x, board.opponent) as i32;
    if flipped > 0 {
        return 2 * (p - flipped) - 64;
    }
    // Nobody can play: the empty square goes to the winner (63 discs: no draw).
    if 2 * p > 63 {
        2 * p - 62
    } else {
        2 * p - 64
    }
}

/// [`solve1`] as the last-move solvers' `search`: a function defined outside
/// [`isa_versions!`], which a closure inside (inheriting the target features) would not be,
/// is inlined into `solve2` (it was a call per child, a measurable share of the time).
#[inline(always)]
fn solve_last(_: &mut Search, child: &Board, _: i32, last: usize) -> i32 {
    solve1(child, last)
}

isa_versions!(
    /// Null-window search with the two empty squares `x`: is the score above `alpha`?
    /// Fail-soft, as the other `solve` functions.
    fn solve2(s: &mut Search, board: &Board, alpha: i32, x: [usize; 2]) -> i32 {
        let children = [(x[0], x[1]), (x[1], x[0])];
        let flips = |sq, p, o| flip(sq, p, o);
        solve_squares(s, board, alpha, &children, flips, solve_last)
    }

    /// [`solve2`] with three empty squares, tried in the order given but for a square
    /// alone in its quadrant, which goes first ([`lone_first`]).
    fn solve3(s: &mut Search, board: &Board, alpha: i32, x: [usize; 3]) -> i32 {
        let x = lone_first(x);
        let children = [
            (x[0], [x[1], x[2]]),
            (x[1], [x[0], x[2]]),
            (x[2], [x[0], x[1]]),
        ];
        let flips = |sq, p, o| flip(sq, p, o);
        solve_squares(s, board, alpha, &children, flips, |s, b, a, x| {
            solve2(s, b, a, x)
        })
    }

    /// [`solve2`] with four empty squares, tried in the order given (parity order).
    fn solve4(s: &mut Search, board: &Board, alpha: i32, x: [usize; 4]) -> i32 {
        let children = [
            (x[0], [x[1], x[2], x[3]]),
            (x[1], [x[0], x[2], x[3]]),
            (x[2], [x[0], x[1], x[3]]),
            (x[3], [x[0], x[1], x[2]]),
        ];
        let flips = |sq, p, o| flip(sq, p, o);
        solve_squares(s, board, alpha, &children, flips, |s, b, a, x| {
            solve3(s, b, a, x)
        })
    }

    /// The answer of a null window at `alpha` found without a search, if any: beyond the
    /// possible scores, or the stability cut-off (the side to move scores at most 64 minus
    /// twice the opponent's stable discs: when that is not above `alpha`, it is the
    /// fail-soft answer). One function, not `or_else` on two: the closure (inheriting the
    /// target features) was not inlined.
    fn bound_without_search(board: &Board, alpha: i32, empties: u32) -> Option<i32> {
        if let Some(bound) = outside_score_range(alpha) {
            return Some(bound);
        }
        if !stability::worth_trying(alpha, empties) {
            return None;
        }
        let bound = 64 - 2 * stable_discs(board.opponent, board.player).count_ones() as i32;
        (bound <= alpha).then_some(bound)
    }

    /// Null-window search with at most 4 empties, in parity order.
    fn solve_few(s: &mut Search, board: &Board, alpha: i32, empties: u32) -> i32 {
        let x = last_squares(board.empties());
        match empties {
            4 => solve4(s, board, alpha, x),
            3 => solve3(s, board, alpha, [x[0], x[1], x[2]]),
            2 => solve2(s, board, alpha, [x[0], x[1]]),
            1 => solve1(board, x[0]),
            _ => board.final_score(),
        }
    }

    /// Null-window search with 5..=SHALLOW empties: legal moves, odd quadrants first.
    fn nws_shallow(s: &mut Search, board: &Board, alpha: i32, empties: u32) -> i32 {
        if let Some(bound) = bound_without_search(board, alpha, empties) {
            return bound;
        }
        if empties <= 4 {
            return solve_few(s, board, alpha, empties);
        }
        let moves = board.moves();
        if moves == 0 {
            let passed = board.pass();
            if passed.moves() == 0 {
                return board.final_score();
            }
            return -nws_shallow(s, &passed, -alpha - 1, empties);
        }
        // Fastest first from FASTEST_FIRST_MIN (all children made and ranked first), else
        // parity order (each child made when its turn comes). One plain loop: the closures
        // of iterator adapters here (which inherit the target features) were not inlined,
        // and the children came back through the stack.
        let fastest_first = empties >= FASTEST_FIRST_MIN;
        let mut list = MoveList::default();
        let parity_parts = if fastest_first {
            list.generate(board, moves, NO_MOVE, |sq, p, o| flip(sq, p, o));
            list.rank_by_replies(odd_quadrants(board.empties()));
            [0; 6] // unused: the list hands out the moves
        } else {
            parity_order(moves, board.empties())
        };
        let mut parity_squares = parity_parts.into_iter().flat_map(Bitboard);
        let mut best = -65;
        loop {
            let child = if fastest_first {
                match list.next_best() {
                    Some((_, child)) => child,
                    None => break,
                }
            } else {
                match parity_squares.next() {
                    Some(sq) => {
                        board.play_flips(sq, flip(sq.index(), board.player, board.opponent))
                    }
                    None => break,
                }
            };
            s.nodes += 1;
            let score = -nws_shallow(s, &child, -alpha - 1, empties - 1);
            if score > best {
                best = score;
                if score > alpha {
                    break;
                }
            }
        }
        best
    }

    /// Null-window search with the transposition table: is the score above `alpha`?
    ///
    /// One function of about a hundred lines, as Edax's `NWS_endgame`: the table probe,
    /// the pass, ProbCut, the lazy ranking of the moves, the enhanced transposition
    /// cut-off, the split to the other threads and the table store share its locals (the
    /// move list, the stored bounds, the hash move), on the exact solver's hottest path;
    /// split up, each piece would take and return most of them.
    fn nws_table(s: &mut Search, board: &Board, alpha: i32, empties: u32) -> i32 {
        if empties <= SHALLOW {
            return nws_shallow(s, board, alpha, empties);
        }
        if let Some(bound) = bound_without_search(board, alpha, empties) {
            return bound;
        }
        if s.stopped() {
            return 0;
        }
        let tt = s.table(empties);
        let stored = tt.probe(board);
        let mut hash_move = NO_MOVE;
        if let Some(b) = stored {
            if b.selectivity >= s.selectivity {
                if b.lower > alpha {
                    return b.lower;
                }
                if b.upper <= alpha {
                    return b.upper;
                }
            }
            hash_move = b.best;
        }
        let moves = board.moves();
        if moves == 0 {
            let passed = board.pass();
            if passed.moves() == 0 {
                return board.final_score();
            }
            return -nws_table(s, &passed, -alpha - 1, empties);
        }
        if s.selectivity < probcut::EXACT && empties >= probcut::MIN_EMPTIES {
            if let Some(bound) = probcut::cut(s.eval, board, alpha, empties, s.selectivity) {
                return bound;
            }
        }
        let nodes_before = s.nodes;
        let mut list = MoveList::default();
        // With a hash move (or a wipeout), the other moves are ranked only if it fails to
        // cut: the ranking (evaluations, shallow searches) is most of a node's own cost,
        // and the first move cuts at most cut nodes. Same order, same tree.
        let mut ranked = !list.generate(board, moves, hash_move, |sq, p, o| flip(sq, p, o));
        if empties > SHALLOW + 1 {
            // All children's buckets asked for at once, so that the cut-off's probes below
            // wait for memory once rather than once per child, and before the ranking,
            // which then runs while they come.
            list.prefetch(s.table(empties - 1));
        }
        if ranked {
            list.rank(board, s.eval);
        }
        if empties >= ETC_MIN {
            if let Some(score) =
                list.transposition_cutoff(s.table(empties - 1), alpha, s.selectivity)
            {
                return score;
            }
        }
        let mut best = -65;
        let mut best_move = NO_MOVE;
        let mut first = true;
        while let Some((sq, child)) = list.next_best() {
            if !first && empties >= SPLIT_NWS_MIN && !list.is_empty() && s.split {
                // Young brothers wait: the first move did not cut; the others go in parallel.
                let mut rest: ArrayVec<(Square, Board), 64> = ArrayVec::new();
                rest.push((sq, child));
                rest.extend(std::iter::from_fn(|| list.next_best()));
                let (score, square) = split_null_window(s, &rest, alpha, empties);
                if score > best {
                    best = score;
                    best_move = square.map_or(NO_MOVE, |sq| sq.index() as u8);
                }
                break;
            }
            first = false;
            s.nodes += 1;
            let score = -nws_table(s, &child, -alpha - 1, empties - 1);
            if score > best {
                best = score;
                best_move = sq.index() as u8;
                if score > alpha {
                    break;
                }
            }
            if !ranked {
                list.rank(board, s.eval);
                ranked = true;
            }
        }
        if s.stopped() {
            return 0;
        }
        let bounds = if best > alpha {
            Bounds {
                lower: best,
                upper: 64,
                best: best_move,
                selectivity: s.selectivity,
            }
        } else {
            Bounds {
                lower: -64,
                upper: best,
                best: best_move,
                selectivity: s.selectivity,
            }
        };
        tt.store(
            board,
            Exact {
                bounds: tighten(bounds, stored),
                empties,
                nodes: s.nodes - nodes_before,
            },
        );
        best
    }

    /// Principal-variation search in the window (`alpha`, `beta`): the first move with the
    /// full window, the others with a null window and a re-search when they beat `alpha`.
    /// Returns the score and the best move (`None` for a pass or the end of the game).
    fn pvs(
        s: &mut Search,
        board: &Board,
        alpha: i32,
        beta: i32,
        empties: u32,
    ) -> (i32, Option<Square>) {
        let moves = board.moves();
        if moves == 0 {
            let passed = board.pass();
            if passed.moves() == 0 {
                return (board.final_score(), None);
            }
            return (-pvs(s, &passed, -beta, -alpha, empties).0, None);
        }
        if empties == 1 {
            return (
                solve1(board, board.empties().trailing_zeros() as usize),
                Square::new(moves.trailing_zeros()),
            );
        }
        let stored = s.tt.probe(board);
        let hash_move = stored.map_or(NO_MOVE, |b| b.best);
        let nodes_before = s.nodes;
        let mut list = MoveList::default();
        list.score(board, moves, hash_move, s.eval, |sq, p, o| flip(sq, p, o));
        let children: ArrayVec<(Square, Board), 64> =
            std::iter::from_fn(|| list.next_best()).collect();
        let (mut alpha, mut best, mut best_move) = (alpha, -65, None);
        let original_alpha = alpha;
        for (i, &(sq, child)) in children.iter().enumerate() {
            if i == 1 && empties >= SPLIT_MIN && children.len() > 2 && s.split {
                let (score, square) = split(s, &children[1..], alpha, beta, empties);
                if score > best {
                    (best, best_move) = (score, square);
                }
                break;
            }
            s.nodes += 1;
            let mut score;
            if i == 0 {
                score = -pvs(s, &child, -beta, -alpha, empties - 1).0;
            } else {
                score = -nws_table(s, &child, -alpha - 1, empties - 1);
                if score > alpha && score < beta {
                    score = -pvs(s, &child, -beta, -score, empties - 1).0;
                }
            }
            if s.stopped() {
                return (0, None);
            }
            if score > best {
                best = score;
                best_move = Some(sq);
                if score >= beta {
                    break;
                }
                alpha = alpha.max(score);
            }
        }
        if s.stopped() {
            return (0, None);
        }
        let best_index = best_move.map_or(NO_MOVE, |sq| sq.index() as u8);
        let bounds = if best >= beta {
            Bounds {
                lower: best,
                upper: 64,
                best: best_index,
                selectivity: s.selectivity,
            }
        } else if best > original_alpha {
            Bounds {
                lower: best,
                upper: best,
                best: best_index,
                selectivity: s.selectivity,
            }
        } else {
            Bounds {
                lower: -64,
                upper: best,
                best: best_index,
                selectivity: s.selectivity,
            }
        };
        s.tt.store(
            board,
            Exact {
                bounds: tighten(bounds, stored),
                empties,
                nodes: s.nodes - nodes_before,
            },
        );
        (best, best_move)
    }

    /// Principal-variation splitting: after the first move of a PV node has set `alpha`,
    /// every thread takes the next of the other `children` in order, tests it against the
    /// current alpha (shared, so later tests use what earlier ones found) and settles it
    /// with a PV re-search when it does better. Returns the best score found among them
    /// (fail-soft) and its move.
    fn split(
        s: &mut Search,
        children: &[(Square, Board)],
        alpha: i32,
        beta: i32,
        empties: u32,
    ) -> (i32, Option<Square>) {
        let next = AtomicUsize::new(0);
        let shared_alpha = AtomicI32::new(alpha);
        // Raised at a fail high: the moves still being searched can no longer matter.
        let abandon = AtomicBool::new(false);
        let parent = &*s;
        let worker = |_| {
            let mut task = Search::helper(parent, &abandon);
            // (score, whether it beat the alpha it was tested at, move): a bound equal to an
            // exact score must not win the tie, its move may be worse.
            let mut best = (-65, false, None);
            loop {
                let i = next.fetch_add(1, Relaxed);
                let alpha = shared_alpha.load(Relaxed);
                if i >= children.len() || task.stopped() {
                    break;
                }
                let (sq, child) = children[i];
                task.nodes += 1;
                let mut score = -nws_table(&mut task, &child, -alpha - 1, empties - 1);
                if score > alpha && score < beta {
                    score = -pvs(&mut task, &child, -beta, -score, empties - 1).0;
                }
                if task.stopped() {
                    break; // abandoned midway: the score means nothing
                }
                let found = (score, score > alpha, Some(sq));
                if (found.0, found.1) > (best.0, best.1) {
                    best = found;
                }
                shared_alpha.fetch_max(score, Relaxed);
                if score >= beta {
                    abandon.store(true, Relaxed);
                }
            }
            (best, task.nodes)
        };
        let results: Vec<(Candidate, u64)> = (0..rayon::current_num_threads())
            .into_par_iter()
            .map(worker)
            .collect();
        s.nodes += results.iter().map(|r| r.1).sum::<u64>();
        let best = results
            .iter()
            .map(|r| r.0)
            .max_by_key(|r| (r.0, r.1))
            .unwrap_or((-65, false, None));
        (best.0, best.2)
    }

    /// The null-window test at `alpha` of the `children`, shared among the threads: each
    /// takes the next child until one beats `alpha`; the others are then abandoned.
    /// Returns the best score (fail-soft) and its move.
    fn split_null_window(
        s: &mut Search,
        children: &[(Square, Board)],
        alpha: i32,
        empties: u32,
    ) -> (i32, Option<Square>) {
        let next = AtomicUsize::new(0);
        let cut = AtomicBool::new(false);
        let parent = &*s;
        let worker = |_| {
            let mut task = Search::helper(parent, &cut);
            let mut best = (-65, None);
            loop {
                let i = next.fetch_add(1, Relaxed);
                if i >= children.len() || task.stopped() {
                    break;
                }
                let (sq, child) = children[i];
                task.nodes += 1;
                let score = -nws_table(&mut task, &child, -alpha - 1, empties - 1);
                if task.stopped() {
                    break; // abandoned midway: the score means nothing
                }
                if score > best.0 {
                    best = (score, Some(sq));
                }
                if score > alpha {
                    cut.store(true, Relaxed);
                }
            }
            (best, task.nodes)
        };
        let results: Vec<((i32, Option<Square>), u64)> = (0..rayon::current_num_threads())
            .into_par_iter()
            .map(worker)
            .collect();
        s.nodes += results.iter().map(|r| r.1).sum::<u64>();
        results
            .iter()
            .map(|r| r.0)
            .max_by_key(|r| r.0)
            .unwrap_or((-65, None))
    }
);

/// A move's score, whether it beat the alpha it was tested at, and the move.
type Candidate = (i32, bool, Option<Square>);

/// Up to four empty squares in the order to try them ([`parity_order`]).
#[inline(always)]
fn last_squares(empties: u64) -> [usize; 4] {
    let mut squares = [0; 4];
    let mut n = 0;
    for part in parity_order(empties, empties) {
        for sq in Bitboard(part) {
            if n < 4 {
                squares[n] = sq.index();
                n += 1;
            }
        }
    }
    squares
}

/// The squares touching each square: a move needs an opponent disc among them.
static NEIGHBOURS: [u64; 64] = {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = neighbours(1 << sq);
        sq += 1;
    }
    table
};

/// The discs `p` flips by playing `sq` against `o` (0: illegal) by `flip`, without
/// computing the flip when no disc of `o` touches `sq` (often so with few empties left).
#[inline(always)]
fn flip_near(flip: impl Fn(usize, u64, u64) -> u64, sq: usize, p: u64, o: u64) -> u64 {
    if NEIGHBOURS[sq] & o == 0 {
        0
    } else {
        flip(sq, p, o)
    }
}

/// The score of the last-move solvers: the side to move's moves to `children` (square,
/// squares left) by [`first_beating`]; if it has none, the opponent's after a pass (tried
/// directly: asking first whether there are any would compute their flips twice); if
/// neither has any, the final score.
#[inline(always)]
fn solve_squares<R: Copy>(
    s: &mut Search,
    board: &Board,
    alpha: i32,
    children: &[(usize, R)],
    flip: impl Fn(usize, u64, u64) -> u64 + Copy,
    search: impl Fn(&mut Search, &Board, i32, R) -> i32 + Copy,
) -> i32 {
    if let Some(best) = first_beating(s, board, alpha, children, flip, search) {
        return best;
    }
    match first_beating(s, &board.pass(), -alpha - 1, children, flip, search) {
        Some(best) => -best,
        None => board.final_score(),
    }
}

/// The null-window move loop of the last-move solvers: for each (square, squares left)
/// in order where the side to move can play (flips by `flip`), the child's score by
/// `search`, until one beats `alpha` (fail-soft best). `None` when no move was possible.
#[inline(always)]
fn first_beating<R: Copy>(
    s: &mut Search,
    board: &Board,
    alpha: i32,
    children: &[(usize, R)],
    flip: impl Fn(usize, u64, u64) -> u64 + Copy,
    search: impl Fn(&mut Search, &Board, i32, R) -> i32,
) -> Option<i32> {
    let mut best = None;
    for &(sq, rest) in children {
        let flipped = flip_near(flip, sq, board.player, board.opponent);
        if flipped != 0 {
            s.nodes += 1;
            let score = -search(s, &after(board, sq, flipped), -alpha - 1, rest);
            if best.is_none_or(|b| score > b) {
                best = Some(score);
                if score > alpha {
                    break;
                }
            }
        }
    }
    best
}

/// The child after the side to move plays square `sq` flipping `flipped`.
#[inline(always)]
fn after(board: &Board, sq: usize, flipped: u64) -> Board {
    Board::new(board.opponent ^ flipped, board.player ^ flipped ^ 1 << sq)
}

/// For a null window at `alpha` beyond the possible scores, the answer without a search
/// (else proving "no score exceeds 64" would take a full-width tree).
#[inline(always)]
fn outside_score_range(alpha: i32) -> Option<i32> {
    if alpha >= 64 {
        Some(64)
    } else if alpha < -64 {
        Some(-64)
    } else {
        None
    }
}

/// New bounds combined with what the table already knew: intersected at the same
/// selectivity, replaced by more exact ones, kept over less exact ones.
fn tighten(new: Bounds, old: Option<Bounds>) -> Bounds {
    match old {
        Some(old) if old.selectivity > new.selectivity => old,
        Some(old)
            if old.selectivity == new.selectivity
                && old.lower.max(new.lower) <= old.upper.min(new.upper) =>
        {
            Bounds {
                lower: old.lower.max(new.lower),
                upper: old.upper.min(new.upper),
                ..new
            }
        }
        _ => new,
    }
}

/// `pvs` compiled for `isa` (one this CPU runs).
pub fn pvs_with(
    isa: Isa,
    s: &mut Search,
    board: &Board,
    alpha: i32,
    beta: i32,
) -> (i32, Option<Square>) {
    isa_dispatch!(isa, pvs(s, board, alpha, beta, board.empty_count()))
}

/// `nws_table` compiled for `isa`: a score `> alpha` or `<= alpha`, fail-soft.
pub fn nws_with(isa: Isa, s: &mut Search, board: &Board, alpha: i32) -> i32 {
    isa_dispatch!(isa, nws_table(s, board, alpha, board.empty_count()))
}
