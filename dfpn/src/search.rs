//! Depth-first proof-number search on the question "does the side to move score at least
//! `t`?", in negamax form: a node is proved by one child disproved at `2 - t` (scores are
//! even, so "the opponent scores less than `-t + 2`"), disproved by all children proved.
//!
//! What a plain df-pn lacks on Othello, and this search has:
//! - weak proof numbers (WPNS): the disproof number of a node is the largest proof number
//!   of its unsolved children plus their count minus one, not the sum, which transpositions
//!   inflate by counting shared subtrees several times;
//! - the 1+epsilon trick: the best child may run until its number exceeds the second best
//!   by a factor, not by one, which stops the search oscillating between close siblings;
//! - exact leaves: at `leaf_empties` or fewer empties the engine's null-window alpha-beta
//!   decides the question (orders of magnitude cheaper per node than proof numbers);
//! - bounds: every node keeps proved bounds on its exact score (from leaves' fail-soft
//!   values, stable discs and children), so a node is solved when its bounds decide `t`,
//!   whatever the numbers say, and later thresholds reuse them;
//! - initial numbers from mobility scaled by the evaluation's distance to the threshold
//!   (mobility alone, or 1/1, to compare);
//! - a table of bounded memory with garbage collection (see [`crate::table`]).

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use arrayvec::ArrayVec;
use std::sync::Arc;

use engine::eval::{Evaluation, PatternEval};
use engine::search::stability::stable_discs;
use engine::search::Solver;
use engine::{Bitboard, Board, Move};

use crate::table::{Table, TableStats};

/// Discs of evaluation margin over which [`Initial::Evaluation`] grades its numbers
/// (measured on FFO #40-#52 `wld`: 24, 28 and 32 within noise, 8 and 16 worse).
const MARGIN_RANGE: i32 = 28;

/// The proof or disproof number of a solved node.
pub const INFINITE: u32 = u32::MAX;
/// Unsolved nodes never reach [`INFINITE`]: only bounds solve a node.
const LARGEST: u32 = u32::MAX - 1;

/// How unexpanded nodes get their first proof and disproof numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
pub enum Initial {
    /// 1 and 1.
    Unit,
    /// 1 to prove (one good move suffices), the number of legal moves to disprove (all
    /// must fail).
    Mobility,
    /// Mobility scaled by where the evaluation lies against the threshold, on either side.
    Evaluation,
}

/// How a node sums the proof numbers of its children into its disproof number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
pub enum Aggregation {
    /// Weak proof numbers: max + (unsolved children - 1).
    Weak,
    /// Plain df-pn: the sum.
    Sum,
}

#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Positions with at most this many empties are decided by null-window alpha-beta.
    pub leaf_empties: u32,
    pub initial: Initial,
    pub aggregation: Aggregation,
    /// The best child may run until its number is (1 + epsilon) times the second best.
    pub epsilon: f64,
    /// Memory of the proof-number table and of the leaf solver's table, in MiB.
    pub table_mb: usize,
    pub leaf_table_mb: usize,
    /// From this many empties, the exact score and win/draw/loss first guess the score
    /// with the engine's selective alpha-beta search and ask the thresholds around it
    /// first (the guess orders the questions, it never answers one); 61: never.
    pub guess_empties: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            leaf_empties: 14,
            initial: Initial::Evaluation,
            aggregation: Aggregation::Weak,
            epsilon: 0.25,
            table_mb: 192,
            leaf_table_mb: 64,
            guess_empties: engine::search::root::SELECTIVE_MIN,
        }
    }
}

/// Counters of one prover's work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Proof-number nodes expanded.
    pub dfpn_nodes: u64,
    /// Questions handed to the alpha-beta solver, and the nodes it searched (for them and
    /// for the selective guesses).
    pub leaves: u64,
    pub leaf_nodes: u64,
}

impl Stats {
    pub fn nodes(&self) -> u64 {
        self.dfpn_nodes + self.leaf_nodes
    }
}

/// A child in a node's working set: its board, the move to it and what is known of it.
#[derive(Clone, Copy)]
struct Child {
    mv: Move,
    board: Board,
    pn: u32,
    dn: u32,
    lower: i32,
    upper: i32,
}

/// The proof and disproof numbers of a node for threshold `t`, if its bounds decide it.
fn decided(lower: i32, upper: i32, t: i32) -> Option<(u32, u32)> {
    if lower >= t {
        Some((0, INFINITE))
    } else if upper < t {
        Some((INFINITE, 0))
    } else {
        None
    }
}

/// The children of `board` (a pass when the side to move has no move but the game goes
/// on; none when it is over).
pub fn children(board: &Board) -> ArrayVec<(Move, Board), 32> {
    let moves = board.moves();
    if moves == 0 {
        let passed = board.pass();
        return if passed.moves() == 0 {
            ArrayVec::new()
        } else {
            [(Move::Pass, passed)].into_iter().collect()
        };
    }
    Bitboard(moves)
        .map(|sq| (Move::Play(sq), board.play(sq).expect("a legal move")))
        .collect()
}

pub struct Prover {
    table: Table,
    solver: Solver,
    options: Options,
    /// Scales the initial numbers ([`Initial::Evaluation`]) and orders the leaf searches.
    eval: Arc<dyn Evaluation>,
    stats: Stats,
    /// Called every [`PROGRESS_INTERVAL`] expansions with the counters so far.
    progress: Option<ProgressReport>,
}

/// What [`Prover::on_progress`] calls.
type ProgressReport = Box<dyn FnMut(&Stats)>;

/// Expansions between two progress reports.
pub const PROGRESS_INTERVAL: u64 = 1 << 16;

impl Prover {
    pub fn new(options: Options) -> Prover {
        Prover {
            table: Table::new(options.table_mb),
            solver: Solver::new(options.leaf_table_mb).selective_from(options.guess_empties),
            eval: PatternEval::embedded(),
            options,
            stats: Stats::default(),
            progress: None,
        }
    }

    /// Uses `eval` (for the initial numbers and the leaf searches' ordering) instead of
    /// the trained evaluation.
    pub fn with_eval(mut self, eval: Arc<dyn Evaluation>) -> Prover {
        self.solver = self.solver.with_eval(eval.clone());
        self.eval = eval;
        self
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Reports the counters to `report` now and then during long searches.
    pub fn on_progress(&mut self, report: impl FnMut(&Stats) + 'static) {
        self.progress = Some(Box::new(report));
    }

    pub fn stats(&self) -> Stats {
        self.stats
    }

    pub fn table_stats(&self) -> TableStats {
        self.table.stats()
    }

    /// Bounds proved so far on the exact score of `board`: from the table, else from
    /// stable discs.
    pub fn bounds(&self, board: &Board) -> (i32, i32) {
        match self.table.get(board) {
            Some(e) => (e.lower as i32, e.upper as i32),
            None => stability_bounds(board),
        }
    }

    /// The selective search's guess at the score of `board` in the window (`alpha`,
    /// `beta`) (`None` below [`Options::guess_empties`]), or `None` if `stop` was raised.
    pub fn guess(
        &mut self,
        board: &Board,
        alpha: i32,
        beta: i32,
        stop: &AtomicBool,
    ) -> Option<Option<i32>> {
        let (guess, nodes) = self.solver.selective_guess(board, alpha, beta, stop)?;
        self.stats.leaf_nodes += nodes;
        Some(guess)
    }

    /// Whether the side to move of `board` scores at least `threshold` (any value in
    /// -64..=64), or `None` if `stop` was raised first.
    pub fn prove(&mut self, board: &Board, threshold: i32, stop: &AtomicBool) -> Option<bool> {
        let t = even_threshold(threshold);
        loop {
            let (lower, upper) = self.bounds(board);
            if lower >= t || upper < t {
                return Some(lower >= t);
            }
            if stop.load(Relaxed) {
                return None;
            }
            // The root runs until its bounds decide (or the search is stopped), unless its
            // numbers saturate: then alpha-beta settles the question.
            let root = self.mid(board, t, LARGEST, LARGEST, stop);
            if decided(root.lower, root.upper, t).is_none() && !stop.load(Relaxed) {
                let (bound, nodes) = self.solver.null_window(board, t - 1, stop)?;
                self.stats.leaf_nodes += nodes;
                return Some(bound >= t);
            }
        }
    }

    /// Expands `board` for threshold `t` until its proof number reaches `pn_limit`, its
    /// disproof number `dn_limit`, or it is solved; stores and returns what it learnt.
    fn mid(
        &mut self,
        board: &Board,
        t: i32,
        pn_limit: u32,
        dn_limit: u32,
        stop: &AtomicBool,
    ) -> Child {
        let work_before = self.stats.nodes();
        self.stats.dfpn_nodes += 1;
        if self.stats.dfpn_nodes % PROGRESS_INTERVAL == 0 {
            if let Some(report) = &mut self.progress {
                report(&self.stats);
            }
        }
        let (mut lower, mut upper) = self.bounds(board);
        let mut numbers = (1, 1);
        if decided(lower, upper, t).is_none() {
            if board.empty_count() <= self.options.leaf_empties {
                if let Some((bound, nodes)) = self.solver.null_window(board, t - 1, stop) {
                    self.stats.leaves += 1;
                    self.stats.leaf_nodes += nodes;
                    if bound >= t {
                        lower = lower.max(bound);
                    } else {
                        upper = upper.min(bound);
                    }
                }
            } else {
                let mut kids: ArrayVec<Child, 32> = children(board)
                    .into_iter()
                    .map(|(mv, b)| self.child(mv, b, 2 - t))
                    .collect();
                if kids.is_empty() {
                    let score = board.final_score();
                    (lower, upper) = (score, score);
                }
                while !kids.is_empty() {
                    // Negamax over the children's bounds.
                    lower = lower.max(kids.iter().map(|c| -c.upper).max().expect("children"));
                    upper = upper.min(kids.iter().map(|c| -c.lower).max().expect("children"));
                    if decided(lower, upper, t).is_some() {
                        break;
                    }
                    numbers = self.aggregate(&kids);
                    if numbers.0 >= pn_limit || numbers.1 >= dn_limit || stop.load(Relaxed) {
                        break;
                    }
                    let (best, second) = best_two(&kids);
                    let c = kids[best];
                    let child_pn_limit = if dn_limit == LARGEST {
                        LARGEST
                    } else {
                        (dn_limit - numbers.1).saturating_add(c.pn).min(LARGEST)
                    };
                    let widened = ((second as f64) * (1.0 + self.options.epsilon)).ceil();
                    let child_dn_limit = pn_limit.min(
                        second
                            .saturating_add(1)
                            .max(widened.min(LARGEST as f64) as u32),
                    );
                    kids[best] = Child {
                        mv: c.mv,
                        ..self.mid(&c.board, 2 - t, child_pn_limit, child_dn_limit, stop)
                    };
                }
            }
        }
        let numbers = decided(lower, upper, t).unwrap_or(numbers);
        let work = self.stats.nodes() - work_before;
        self.table
            .store(board, lower, upper, (numbers.0, numbers.1, t), work);
        Child {
            mv: Move::Pass,
            board: *board,
            pn: numbers.0,
            dn: numbers.1,
            lower,
            upper,
        }
    }

    /// What is known of a child for threshold `t` before searching it.
    fn child(&self, mv: Move, board: Board, t: i32) -> Child {
        let (lower, upper, stored) = match self.table.get(&board) {
            Some(e) => (
                e.lower as i32,
                e.upper as i32,
                (e.threshold as i32 == t).then_some((e.pn, e.dn)),
            ),
            None => {
                let (lower, upper) = stability_bounds(&board);
                (lower, upper, None)
            }
        };
        let (pn, dn) = decided(lower, upper, t)
            .or(stored)
            .unwrap_or_else(|| self.initial_numbers(&board, t));
        Child {
            mv,
            board,
            pn,
            dn,
            lower,
            upper,
        }
    }

    fn initial_numbers(&self, board: &Board, t: i32) -> (u32, u32) {
        match self.options.initial {
            Initial::Unit => (1, 1),
            Initial::Mobility => (1, board.mobility().max(1)),
            Initial::Evaluation => {
                evaluation_numbers(self.eval.evaluate(board) / 100, t, board.mobility())
            }
        }
    }

    /// The proof and disproof numbers of a node from its unsolved-or-not children.
    fn aggregate(&self, kids: &[Child]) -> (u32, u32) {
        let pn = kids.iter().map(|c| c.dn).min().expect("children");
        let open = kids.iter().filter(|c| c.pn != 0);
        let dn = match self.options.aggregation {
            Aggregation::Weak => open
                .clone()
                .map(|c| c.pn)
                .max()
                .map_or(0, |max| max.saturating_add(open.count() as u32 - 1)),
            Aggregation::Sum => open.fold(0u32, |sum, c| sum.saturating_add(c.pn)),
        };
        (pn.min(LARGEST), dn.min(LARGEST))
    }
}

/// [`Initial::Evaluation`]'s numbers for a node the evaluation puts at `value` discs,
/// asked whether it scores at least `t`, with `mobility` legal moves.
///
/// Both numbers follow the margin over the whole range, beyond the threshold too: of two
/// children expected to succeed, the one with more to spare comes first, and its leaves,
/// far from the threshold, are cheap. (Weighing only the side short of the threshold, as
/// before, made all expected successes alike: 3.0x the nodes on FFO #40-#52 `wld`,
/// results/dfpn.md.)
fn evaluation_numbers(value: i32, t: i32, mobility: u32) -> (u32, u32) {
    let margin = (value - t).clamp(-MARGIN_RANGE, MARGIN_RANGE);
    let weight = |m: i32| 1 + (MARGIN_RANGE - m) as u32 / 2;
    (weight(margin), mobility.max(1) * weight(-margin))
}

/// The index of the child with the smallest disproof number (the first on ties) and the
/// second smallest disproof number.
fn best_two(kids: &[Child]) -> (usize, u32) {
    let mut best = 0;
    let mut second = INFINITE;
    for (i, c) in kids.iter().enumerate().skip(1) {
        if c.dn < kids[best].dn {
            second = kids[best].dn;
            best = i;
        } else if c.dn < second {
            second = c.dn;
        }
    }
    (best, second)
}

/// Final scores are even: "at least `t`" is "at least `t` rounded up to even".
pub fn even_threshold(t: i32) -> i32 {
    t + (t & 1)
}

/// Bounds on the final score from the discs neither side can lose.
pub fn stability_bounds(board: &Board) -> (i32, i32) {
    let own = stable_discs(board.player, board.opponent).count_ones() as i32;
    let theirs = stable_discs(board.opponent, board.player).count_ones() as i32;
    (2 * own - 64, 64 - 2 * theirs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_round_up_to_even() {
        assert_eq!(even_threshold(3), 4);
        assert_eq!(even_threshold(-3), -2);
        assert_eq!(even_threshold(2), 2);
        assert_eq!(even_threshold(0), 0);
    }

    #[test]
    fn evaluation_numbers_grade_both_sides_of_the_threshold() {
        // More to spare: easier to prove, harder to disprove, on either side of t.
        for t in [-2, 0, 2] {
            for value in -40..40 {
                let (pn, dn) = evaluation_numbers(value, t, 5);
                let (next_pn, next_dn) = evaluation_numbers(value + 1, t, 5);
                assert!(next_pn <= pn && next_dn >= dn, "value {value}, t {t}");
            }
            let near = evaluation_numbers(t + 2, t, 5);
            let far = evaluation_numbers(t + 20, t, 5);
            assert!(far.0 < near.0 && far.1 > near.1, "t {t}: {near:?} {far:?}");
            let near = evaluation_numbers(t - 2, t, 5);
            let far = evaluation_numbers(t - 20, t, 5);
            assert!(far.0 > near.0 && far.1 < near.1, "t {t}: {near:?} {far:?}");
        }
        assert_eq!(
            evaluation_numbers(0, 0, 0),
            (1 + 14, 1 + 14),
            "no move counts as one"
        );
        assert_eq!(evaluation_numbers(64, 0, 3), (1, 3 * 29));
    }

    #[test]
    fn weak_aggregation_of_solved_children_solves() {
        let prover = Prover::new(Options {
            table_mb: 1,
            leaf_table_mb: 1,
            ..Options::default()
        });
        let kid = |pn, dn| Child {
            mv: Move::Pass,
            board: Board::START,
            pn,
            dn,
            lower: -64,
            upper: 64,
        };
        assert_eq!(prover.aggregate(&[kid(0, INFINITE), kid(0, INFINITE)]).1, 0);
        assert_eq!(
            prover.aggregate(&[kid(3, 2), kid(5, 1), kid(0, INFINITE)]),
            (1, 6)
        );
        assert_eq!(best_two(&[kid(3, 2), kid(5, 1), kid(1, 4)]), (1, 2));
    }
}
