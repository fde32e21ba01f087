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
//! - searched children kept: where the question's side expects a proof, a move already
//!   searched is left for a fresh sibling only if the sibling's first estimate, weighed
//!   up, is still the smaller (estimates are optimistic next to numbers that search has
//!   grown, and a move left half proved is work lost when another proves the node);
//! - exact leaves: at `leaf_empties` or fewer empties the engine's null-window alpha-beta
//!   decides the question (orders of magnitude cheaper per node than proof numbers), and
//!   up to `easy_leaf_empties` where the evaluation lies far above the threshold (one
//!   good move suffices there, and alpha-beta tries it first: a proof-number tree above
//!   it only adds nodes);
//! - bounds: every node keeps proved bounds on its exact score (from leaves' fail-soft
//!   values, stable discs and children), so a node is solved when its bounds decide `t`,
//!   whatever the numbers say, and later thresholds reuse them;
//! - initial numbers from mobility scaled by the evaluation's distance to the threshold
//!   (near the root, and from 18 empties where the node is expected to be proved, the
//!   value of the engine's move-ordering search),
//!   pushed past the threshold where the alpha-beta table (the selective guess's searches)
//!   has a bound on the node (mobility alone, or 1/1, to compare);
//! - a table of bounded memory with garbage collection (the crate's `table` module);
//! - threads: one searching the tree, its leaves split over the rayon pool's threads as
//!   the engine's searches are, and searched together, one per thread, once a node's
//!   first child has failed (young brothers wait, as the engine splits its nodes); or
//!   several over that one table, each counted into the nodes it searches below: they
//!   part where a node is expected to be disproved (every child is needed) and stay
//!   together on the best child where it is expected to be proved (one should suffice)
//!   and that child is not a leaf; each then searches its leaves alone, without
//!   splitting them among the pool's threads.
//!
//! Here the options, the statistics and the root loop ([`Prover`]); beside it a file per
//! part: `worker` (a thread's expansion of the tree, `mid`, and its choices), `numbers`
//! (the proof-number arithmetic: aggregation, the children's limits, first numbers, the
//! choice of a child) and `value_cache` (the shallow-search values the threads share).
//! The rules the search leans on are the core's: even thresholds
//! ([`Board::even_threshold`]) and the stability bounds
//! ([`score_bounds`]).

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

use engine::eval::{Evaluation, PatternEval};
use engine::search::{shallow_value, sort_depth, Solver, Stop};
use engine::stability::score_bounds;
use engine::{Board, Move, Square};

use crate::table::{Table, TableStats};

mod numbers;
mod value_cache;
mod worker;

use numbers::table_hint;

use value_cache::ValueCache;
use worker::{Published, Worker};

/// The value of `board`, a node's child, as the alpha-beta search ranks the same children:
/// its ordering search at the depth for its parent's empties, full window. The search
/// grades children so; `dfpn split` orders its jobs so.
pub fn ordering_value(eval: &dyn Evaluation, board: &Board) -> i32 {
    let depth = sort_depth(board.empty_count() + 1);
    shallow_value(eval, board, depth, -30_000, 30_000)
}

/// Discs of evaluation margin over which [`Initial::Evaluation`] grades its numbers
/// (measured in results/dfpn.md).
const MARGIN_RANGE: i32 = 28;

/// How far beyond the threshold (in discs) [`table_hint`] puts a node the alpha-beta table
/// has a bound for (measured in results/dfpn.md).
const HINT_MARGIN: i32 = 20;

/// Empties of a node from which its children are graded by a shallow search rather than
/// the static evaluation ([`Worker::value`]). The alpha-beta search ranks by searches from
/// [`engine::search::SHALLOW_SORT_MIN`], but a proof-number tree holds many more
/// nodes just above its leaves than an alpha-beta tree does, and there the searches cost
/// more than they save (measured in results/dfpn.md).
const SHALLOW_FROM: u32 = 24;

/// Empties from which a node below [`SHALLOW_FROM`] that is expected to be proved (its
/// evaluation, with the alpha-beta table's bounds, at or above its threshold) grades its
/// children by the ordering search too: there the first child tried usually decides, as
/// at the alpha-beta search's cut nodes, and a wrong first choice costs a failed subtree;
/// the expected disproofs search every child anyway and keep the static evaluation
/// (measured in results/dfpn.md).
const CAREFUL_FROM: u32 = 18;

/// Empties of the largest leaves by default ([`Options::leaf_empties`]): on positions of
/// 28-30 empties the proof-number tree pays only at its top levels (measured in
/// results/dfpn.md).
pub const LEAF_EMPTIES: u32 = 28;

/// The proof or disproof number of a solved node.
pub const INFINITE: u32 = u32::MAX;
/// Unsolved nodes never reach [`INFINITE`]: only bounds solve a node.
const LARGEST: u32 = u32::MAX - 1;

/// How unexpanded nodes get their first proof and disproof numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Aggregation {
    /// Weak proof numbers: max + (unsolved children - 1).
    Weak,
    /// Plain df-pn: the sum.
    Sum,
}

/// How a [`Prover`] searches.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Positions with at most this many empties are decided by null-window alpha-beta.
    pub leaf_empties: u32,
    /// Positions with at most this many empties whose evaluation lies at least
    /// `easy_margin` discs above the threshold are decided by alpha-beta too (0: none).
    pub easy_leaf_empties: u32,
    /// Discs above the threshold that make such a position a leaf.
    pub easy_margin: i32,
    /// First proof and disproof numbers of a new node.
    pub initial: Initial,
    /// How a node's disproof number sums its children.
    pub aggregation: Aggregation,
    /// The best child may run until its number is (1 + epsilon) times the second best.
    pub epsilon: f64,
    /// At the nodes of the question's side (the root's side to move) that expect a proof,
    /// a child whose numbers are still first estimates counts its disproof number this
    /// many times against a sibling already searched (1: no preference).
    pub estimate_factor: f64,
    /// Memory of the proof-number table, in MiB.
    pub table_mb: usize,
    /// Memory of the leaf solver's table, in MiB.
    pub leaf_table_mb: usize,
    /// From this many empties, the exact score and win/draw/loss first guess the score
    /// with the engine's selective alpha-beta search and ask the thresholds around it
    /// first (the guess orders the questions, it never answers one); 61: never.
    pub guess_empties: u32,
    /// Threads searching the proof-number tree together over the shared table. With one,
    /// the leaves' alpha-beta searches split over the rayon pool's threads (every core,
    /// as the engine's do), and a node whose first child failed searches its leaves
    /// together; with more, each searches its leaves alone (the pool's threads
    /// would have no core of their own), which suits small leaves: they do not split.
    pub tree_threads: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            // The proof-number tree pays near the root, where its numbers pick among moves
            // whose searches are large; nearer the end it leaves moves half searched that
            // the alpha-beta search, ordered by the selective guess's table, never starts.
            // Such leaves split over every core, so one thread searches the tree.
            leaf_empties: LEAF_EMPTIES,
            // None beyond the leaves: early leaves paid above small leaves
            // (results/dfpn.md).
            easy_leaf_empties: 0,
            easy_margin: 16,
            initial: Initial::Evaluation,
            aggregation: Aggregation::Weak,
            epsilon: 0.25,
            // Proof questions gain, and weighing the refuter's side too costs the
            // disproofs more than it saves (measured in results/dfpn.md).
            estimate_factor: 1.5,
            table_mb: 192,
            leaf_table_mb: 64,
            guess_empties: engine::search::SELECTIVE_MIN,
            tree_threads: 1,
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
    /// Nodes the alpha-beta solver searched.
    pub leaf_nodes: u64,
}

impl Stats {
    /// Nodes of both searches.
    pub fn nodes(&self) -> u64 {
        self.dfpn_nodes + self.leaf_nodes
    }
}

impl std::ops::Add for Stats {
    type Output = Stats;
    fn add(self, other: Stats) -> Stats {
        Stats {
            dfpn_nodes: self.dfpn_nodes + other.dfpn_nodes,
            leaves: self.leaves + other.leaves,
            leaf_nodes: self.leaf_nodes + other.leaf_nodes,
        }
    }
}

impl std::ops::Sub for Stats {
    type Output = Stats;
    fn sub(self, other: Stats) -> Stats {
        Stats {
            dfpn_nodes: self.dfpn_nodes - other.dfpn_nodes,
            leaves: self.leaves - other.leaves,
            leaf_nodes: self.leaf_nodes - other.leaf_nodes,
        }
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
    /// Threads searching below it now.
    busy: u8,
    /// Its numbers are still the first estimate: nothing below it searched yet.
    estimated: bool,
}

/// Bounds `lower..=upper` narrowed by a leaf's fail-soft `bound` from its null-window
/// search for threshold `t`: at least `bound` if it reaches `t`, else at most it.
fn with_leaf_bound(lower: i32, upper: i32, bound: i32, t: i32) -> (i32, i32) {
    if bound >= t {
        (lower.max(bound), upper)
    } else {
        (lower, upper.min(bound))
    }
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

/// A df-pn / WPNS prover of threshold questions ("does the side to move score at least
/// t?"), its table and alpha-beta leaf solver kept from one question to the next.
pub struct Prover {
    shared: Shared,
    stats: Stats,
    /// Called every [`PROGRESS_INTERVAL`] expansions with the counters so far.
    progress: Option<ProgressReport>,
}

/// What the threads of a search share.
struct Shared {
    table: Table,
    solver: Solver,
    options: Options,
    /// Scales the initial numbers ([`Initial::Evaluation`]) and orders the leaf searches.
    eval: Arc<dyn Evaluation>,
    /// Kept from question to question: the values depend on the board alone, and a
    /// position's thresholds meet the same children.
    values: ValueCache,
}

/// What [`Prover::on_progress`] calls.
type ProgressReport = Box<dyn FnMut(&Stats)>;

/// Expansions between two progress reports.
pub const PROGRESS_INTERVAL: u64 = 1 << 16;

impl Prover {
    /// A prover with these options and the trained evaluation.
    pub fn new(options: Options) -> Prover {
        Prover {
            shared: Shared {
                table: Table::new(options.table_mb),
                solver: Solver::new(options.leaf_table_mb).selective_from(options.guess_empties),
                eval: PatternEval::embedded(),
                options,
                values: ValueCache::new(),
            },
            stats: Stats::default(),
            progress: None,
        }
    }

    /// Uses `eval` (for the initial numbers and the leaf searches' ordering) instead of
    /// the trained evaluation.
    pub fn with_eval(mut self, eval: Arc<dyn Evaluation>) -> Prover {
        self.shared.solver = self.shared.solver.with_eval(eval.clone());
        self.shared.eval = eval;
        self
    }

    /// The options it searches with.
    pub fn options(&self) -> &Options {
        &self.shared.options
    }

    /// Whether the search decides "`board` scores at least `t`" by alpha-beta whole (a
    /// leaf of its proofs).
    pub(crate) fn is_leaf(&self, board: &Board, t: i32) -> bool {
        self.shared.is_leaf(board, t)
    }

    /// Reports the counters to `report` now and then during long searches.
    pub fn on_progress(&mut self, report: impl FnMut(&Stats) + 'static) {
        self.progress = Some(Box::new(report));
    }

    /// Its counters so far, over every question.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// What its proof-number table has been through.
    pub fn table_stats(&self) -> TableStats {
        self.shared.table.stats()
    }

    /// Bounds proved so far on the exact score of `board`: from the table, else from
    /// stable discs.
    pub fn bounds(&self, board: &Board) -> (i32, i32) {
        self.shared.bounds(board)
    }

    /// The best move the alpha-beta table holds for `board` (from its leaf searches and
    /// the guesses), if any.
    pub(crate) fn table_move(&self, board: &Board) -> Option<Move> {
        let best = self.shared.solver.probe(board)?.best;
        Square::new(best.into()).map(Move::Play)
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
        let (guess, nodes) = self
            .shared
            .solver
            .selective_guess(board, alpha, beta, stop)?;
        self.stats.leaf_nodes += nodes;
        Some(guess)
    }

    /// Whether the side to move of `board` scores at least `threshold` (any value in
    /// -64..=64), or `None` if `stop` was raised first.
    pub fn prove(&mut self, board: &Board, threshold: i32, stop: &AtomicBool) -> Option<bool> {
        let t = Board::even_threshold(threshold);
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
            let root = self.search_root(board, t, stop);
            if decided(root.lower, root.upper, t).is_none() && !stop.load(Relaxed) {
                let (bound, nodes) =
                    self.shared
                        .solver
                        .null_window(board, t - 1, Stop::new(stop), true);
                self.stats.leaf_nodes += nodes;
                return Some(bound? >= t);
            }
        }
    }

    /// Searches from the root on [`Options::threads`] threads until one of them returns
    /// (the root decided, its numbers saturated, or `stop`), then stops the others; what
    /// that first one returned.
    fn search_root(&mut self, board: &Board, t: i32, stop: &AtomicBool) -> Child {
        let threads = self.shared.options.tree_threads.max(1);
        let finished = AtomicBool::new(false);
        let published = Published::default();
        let first: std::sync::Mutex<Option<Child>> = std::sync::Mutex::new(None);
        let shared = &self.shared;
        let before = self.stats;
        let progress = self.progress.as_mut();
        let (finished, published) = (&finished, &published);
        let run = &|worker: &mut Worker| {
            worker.root_threshold = t;
            let root = worker.mid(board, t, LARGEST, LARGEST);
            if !finished.swap(true, Relaxed) {
                *first.lock().expect("not poisoned") = Some(root);
            }
            worker.publish();
        };
        // Every thread publishes all its counters before it ends (`run`).
        std::thread::scope(|scope| {
            for _ in 1..threads {
                scope.spawn(move || {
                    run(&mut Worker::new(shared, finished, stop, published, threads))
                });
            }
            let mut worker = Worker::new(shared, finished, stop, published, threads);
            worker.progress = progress.map(|report| (report, before));
            run(&mut worker);
        });
        self.stats = self.stats + published.total();
        first
            .into_inner()
            .expect("not poisoned")
            .expect("a thread returned")
    }
}

impl Shared {
    fn bounds(&self, board: &Board) -> (i32, i32) {
        match self.table.get(board) {
            Some(e) => (e.lower as i32, e.upper as i32),
            None => score_bounds(board),
        }
    }

    /// Whether the question "`board` scores at least `t`" goes to alpha-beta whole: near
    /// the end ([`Options::leaf_empties`]), or a little further where the evaluation (with
    /// the alpha-beta table's bounds) lies far above `t` ([`Options::easy_leaf_empties`]).
    fn is_leaf(&self, board: &Board, t: i32) -> bool {
        let empties = board.empty_count();
        let options = &self.options;
        empties <= options.leaf_empties
            || (empties <= options.easy_leaf_empties
                && self.hinted_evaluation(board, t) - t >= options.easy_margin)
    }

    /// The static evaluation of `board` in discs, moved past `t` where the alpha-beta
    /// table has a bound on it ([`table_hint`]): where a node expects to lie against `t`.
    fn hinted_evaluation(&self, board: &Board, t: i32) -> i32 {
        table_hint(self.eval.evaluate(board) / 100, self.solver.probe(board), t)
    }

    /// Whether `board` is expected to score at least `t`: its [hinted
    /// evaluation](Shared::hinted_evaluation) is.
    fn expects_proof(&self, board: &Board, t: i32) -> bool {
        self.hinted_evaluation(board, t) >= t
    }
}
