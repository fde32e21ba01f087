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

use std::cell::OnceCell;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

use arrayvec::ArrayVec;
use rayon::prelude::*;

use engine::eval::{Evaluation, PatternEval};
use engine::search::Bounds;
use engine::search::{shallow_value, sort_depth};
use engine::search::{Solver, Stop};
use engine::stability::stable_discs;
use engine::{Board, Move, Square};

use crate::table::{Table, TableStats};

/// Discs of evaluation margin over which [`Initial::Evaluation`] grades its numbers
/// (measured on FFO #40-#52 `wld`: 24, 28 and 32 within noise, 8 and 16 worse).
const MARGIN_RANGE: i32 = 28;

/// How far beyond the threshold (in discs) [`table_hint`] puts a node the alpha-beta table
/// has a bound for (measured on FFO #40-#53, #56-#58 `wld`, results/dfpn.md).
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
/// (measured in results/dfpn.md, sessions 56-57).
const CAREFUL_FROM: u32 = 18;

/// Empties of the largest leaves by default ([`Options::leaf_empties`]): on positions of
/// 28-30 empties the proof-number tree pays only at its top levels (measured in
/// results/dfpn.md, sessions 62-63).
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
            None => stability_bounds(board),
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

/// The counters of all threads, each adding its own every [`PROGRESS_INTERVAL`] nodes
/// and when it ends.
#[derive(Default)]
struct Published {
    dfpn_nodes: AtomicU64,
    leaves: AtomicU64,
    leaf_nodes: AtomicU64,
}

impl Published {
    fn add(&self, stats: Stats) {
        self.dfpn_nodes.fetch_add(stats.dfpn_nodes, Relaxed);
        self.leaves.fetch_add(stats.leaves, Relaxed);
        self.leaf_nodes.fetch_add(stats.leaf_nodes, Relaxed);
    }

    fn total(&self) -> Stats {
        Stats {
            dfpn_nodes: self.dfpn_nodes.load(Relaxed),
            leaves: self.leaves.load(Relaxed),
            leaf_nodes: self.leaf_nodes.load(Relaxed),
        }
    }
}

/// One thread's part of a search.
struct Worker<'a> {
    shared: &'a Shared,
    stats: Stats,
    /// Counted into [`Published`] so far.
    published_stats: Stats,
    published: &'a Published,
    /// Raised when a thread's root search returned: the others stop.
    finished: &'a AtomicBool,
    stop: &'a AtomicBool,
    /// Other threads share the table: children are read again before each choice; where
    /// the threads part ([`threads_part`]), a child another thread searches is left to it
    /// while a sibling is worth searching; and the leaves' searches do not split.
    parallel: bool,
    /// The report, with the counters before this search (one thread reports).
    progress: Option<(&'a mut ProgressReport, Stats)>,
    /// The root's threshold: nodes asked it are the question's side to move.
    root_threshold: i32,
    /// One thread over the tree, several in the rayon pool: a node whose first child
    /// failed searches its leaves together ([`Worker::search_leaves_together`]).
    leaves_together: bool,
}

impl<'a> Worker<'a> {
    fn new(
        shared: &'a Shared,
        finished: &'a AtomicBool,
        stop: &'a AtomicBool,
        published: &'a Published,
        threads: usize,
    ) -> Worker<'a> {
        Worker {
            shared,
            stats: Stats::default(),
            published_stats: Stats::default(),
            published,
            finished,
            stop,
            parallel: threads > 1,
            progress: None,
            root_threshold: 0,
            leaves_together: threads == 1 && rayon::current_num_threads() > 1,
        }
    }

    fn halted(&self) -> bool {
        self.stop.load(Relaxed) || self.finished.load(Relaxed)
    }

    /// Adds this thread's counters since the last time to [`Published`].
    fn publish(&mut self) {
        self.published.add(self.stats - self.published_stats);
        self.published_stats = self.stats;
    }

    /// Counts a node of the proof-number tree, and publishes the counters now and then.
    fn count_node(&mut self) {
        self.stats.dfpn_nodes += 1;
        if self.stats.dfpn_nodes % PROGRESS_INTERVAL == 0 {
            self.publish();
            if let Some((report, before)) = &mut self.progress {
                report(&(*before + self.published.total()));
            }
        }
    }

    /// Expands `board` for threshold `t` until its proof number reaches `pn_limit`, its
    /// disproof number `dn_limit`, or it is solved; stores and returns what it learnt.
    fn mid(&mut self, board: &Board, t: i32, pn_limit: u32, dn_limit: u32) -> Child {
        let work_before = self.stats.nodes();
        self.count_node();
        if self.parallel {
            self.shared.table.enter(board);
        }
        let (mut lower, mut upper) = self.shared.bounds(board);
        let mut numbers = (1, 1);
        if decided(lower, upper, t).is_none() {
            if self.shared.is_leaf(board, t) {
                // Several threads are each one core's search already: their leaves do
                // not split.
                let (bound, nodes) = self.shared.solver.null_window(
                    board,
                    t - 1,
                    Stop::new(self.stop),
                    !self.parallel,
                );
                self.stats.leaf_nodes += nodes;
                if let Some(bound) = bound {
                    self.stats.leaves += 1;
                    (lower, upper) = with_leaf_bound(lower, upper, bound, t);
                }
            } else {
                let boards = board.children();
                for (_, child) in &boards {
                    self.shared.table.prefetch(child);
                    self.shared.solver.prefetch(child);
                }
                // Where the node expects to lie against `t`, asked at most once, and only
                // where it matters.
                let expects_proof = OnceCell::new();
                let expects_proof =
                    || *expects_proof.get_or_init(|| self.shared.expects_proof(board, t));
                let empties = board.empty_count();
                let searched = grades_by_search(empties, expects_proof);
                let leave_busy = self.parallel
                    && threads_part(empties, self.shared.options.leaf_empties, expects_proof);
                let mut kids: ArrayVec<Child, 64> = boards
                    .into_iter()
                    .map(|(mv, b)| self.child(mv, b, 2 - t, searched))
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
                    numbers = aggregate(self.shared.options.aggregation, &kids);
                    if numbers.0 >= pn_limit || numbers.1 >= dn_limit || self.halted() {
                        break;
                    }
                    let (best, second) = self.choose(&kids, t, pn_limit, leave_busy, expects_proof);
                    let c = kids[best];
                    if self.leaves_together
                        && kids.iter().any(|k| k.pn == 0)
                        && self.shared.is_leaf(&c.board, 2 - t)
                        && self.search_leaves_together(&mut kids, 2 - t)
                    {
                        continue;
                    }
                    let (child_pn_limit, child_dn_limit) = child_limits(
                        (pn_limit, dn_limit),
                        numbers.1,
                        c.pn,
                        second,
                        self.shared.options.epsilon,
                    );
                    kids[best] = Child {
                        mv: c.mv,
                        ..self.mid(&c.board, 2 - t, child_pn_limit, child_dn_limit)
                    };
                    if self.parallel {
                        // What the other threads learnt meanwhile.
                        for kid in kids.iter_mut() {
                            self.refresh(kid, 2 - t);
                        }
                        let (l, u) = self.shared.bounds(board);
                        (lower, upper) = (lower.max(l), upper.min(u));
                    }
                }
            }
        }
        let numbers = decided(lower, upper, t).unwrap_or(numbers);
        let work = self.stats.nodes() - work_before;
        let table = &self.shared.table;
        table.store(board, lower, upper, (numbers.0, numbers.1, t), work);
        if self.parallel {
            table.leave(board);
        }
        Child {
            mv: Move::Pass,
            board: *board,
            pn: numbers.0,
            dn: numbers.1,
            lower,
            upper,
            busy: 0,
            estimated: false,
        }
    }

    /// Young brothers wait, over the leaves: once a child of a node has failed (been
    /// proved at its threshold `t`, so that it cannot prove the node), the node is likely
    /// to need every child, and its children that are leaves are searched at once, each
    /// rayon thread taking the next (by disproof number) until one is disproved (the node
    /// is then proved, and the searches still running are abandoned). A leaf splits only
    /// below its first move, so searching several at once keeps the cores busy where one
    /// at a time leaves them waiting at each leaf's start and end. Returns false, having
    /// searched nothing, where fewer than two leaves are open.
    fn search_leaves_together(&mut self, kids: &mut [Child], t: i32) -> bool {
        let mut open: ArrayVec<usize, 64> = (0..kids.len())
            .filter(|&i| {
                let kid = &kids[i];
                decided(kid.lower, kid.upper, t).is_none() && self.shared.is_leaf(&kid.board, t)
            })
            .collect();
        if open.len() < 2 {
            return false;
        }
        open.sort_by_key(|&i| kids[i].dn);
        let next = AtomicUsize::new(0);
        let disproved = AtomicBool::new(false);
        let stop = Stop::new(self.stop);
        let solver = &self.shared.solver;
        let (open_kids, kids_seen) = (&open, &*kids);
        let searched: Vec<(usize, Option<i32>, u64)> = (0..rayon::current_num_threads())
            .into_par_iter()
            .flat_map_iter(|_| {
                std::iter::from_fn(|| {
                    let j = next.fetch_add(1, Relaxed);
                    if j >= open_kids.len() || stop.raised() || disproved.load(Relaxed) {
                        return None;
                    }
                    let (bound, nodes) = solver.null_window(
                        &kids_seen[open_kids[j]].board,
                        t - 1,
                        Stop::within(&disproved, &stop),
                        true,
                    );
                    if bound.is_some_and(|b| b < t) {
                        disproved.store(true, Relaxed);
                    }
                    Some((j, bound, nodes))
                })
            })
            .collect();
        for (j, bound, nodes) in searched {
            self.stats.leaf_nodes += nodes;
            let Some(bound) = bound else { continue };
            self.stats.dfpn_nodes += 1;
            self.stats.leaves += 1;
            let kid = &mut kids[open[j]];
            (kid.lower, kid.upper) = with_leaf_bound(kid.lower, kid.upper, bound, t);
            (kid.pn, kid.dn) = decided(kid.lower, kid.upper, t).expect("a leaf's bound decides");
            kid.estimated = false;
            self.shared.table.store(
                &kid.board,
                kid.lower,
                kid.upper,
                (kid.pn, kid.dn, t),
                1 + nodes,
            );
        }
        true
    }

    /// The child to search next and the disproof number it must stay within ([`best_two`]),
    /// the children's first estimates weighed up by [`Options::estimate_factor`] against
    /// searched siblings where the question's side (`t` is the root's threshold) expects
    /// a proof (only asked then), as long as the child so chosen is still within
    /// `pn_limit`.
    fn choose(
        &self,
        kids: &[Child],
        t: i32,
        pn_limit: u32,
        leave_busy: bool,
        expects_proof: impl FnOnce() -> bool,
    ) -> (usize, u32) {
        let factor = self.shared.options.estimate_factor;
        let searched_open = |k: &Child| !k.estimated && k.pn != 0 && k.dn != 0;
        if factor > 1.0
            && t == self.root_threshold
            && kids.iter().any(searched_open)
            && expects_proof()
        {
            let (best, second) = best_two(kids, weighed_number(factor), pn_limit, leave_busy);
            if kids[best].dn < pn_limit {
                return (best, second);
            }
        }
        best_two(kids, |k| k.dn, pn_limit, leave_busy)
    }

    /// What is known of a child for threshold `t` before searching it; `searched`: its
    /// first numbers come from the ordering search (see [`grades_by_search`]).
    fn child(&self, mv: Move, board: Board, t: i32, searched: bool) -> Child {
        let (lower, upper, stored, busy) = match self.shared.table.get(&board) {
            Some(e) => (
                e.lower as i32,
                e.upper as i32,
                (e.threshold as i32 == t).then_some((e.pn, e.dn)),
                e.busy,
            ),
            None => {
                let (lower, upper) = stability_bounds(&board);
                (lower, upper, None, 0)
            }
        };
        let known = decided(lower, upper, t).or(stored);
        let estimated = known.is_none();
        let (pn, dn) = known.unwrap_or_else(|| self.initial_numbers(&board, t, searched));
        Child {
            mv,
            board,
            pn,
            dn,
            lower,
            upper,
            busy,
            estimated,
        }
    }

    /// `kid` updated from the table, where other threads may have searched it.
    fn refresh(&self, kid: &mut Child, t: i32) {
        let Some(e) = self.shared.table.get(&kid.board) else {
            kid.busy = 0;
            return;
        };
        kid.lower = kid.lower.max(e.lower as i32);
        kid.upper = kid.upper.min(e.upper as i32);
        kid.busy = e.busy;
        if let Some((pn, dn)) = decided(kid.lower, kid.upper, t) {
            (kid.pn, kid.dn) = (pn, dn);
        } else if e.threshold as i32 == t {
            (kid.pn, kid.dn) = (e.pn, e.dn);
            kid.estimated = false;
        }
    }

    fn initial_numbers(&self, board: &Board, t: i32, searched: bool) -> (u32, u32) {
        match self.shared.options.initial {
            Initial::Unit => (1, 1),
            Initial::Mobility => (1, board.mobility().max(1)),
            Initial::Evaluation => {
                let value = self.value(board, searched) / 100;
                let hinted = table_hint(value, self.shared.solver.probe(board), t);
                evaluation_numbers(hinted, t, board.mobility())
            }
        }
    }

    /// The evaluation of `board` (hundredths of a disc) that grades its initial numbers:
    /// if `searched`, the engine's ordering search from it (as deep as the alpha-beta
    /// search ranks the same children), else the static evaluation, which misjudges
    /// children where a wrong first choice costs a whole failed subtree.
    fn value(&self, board: &Board, searched: bool) -> i32 {
        if !searched {
            return self.shared.eval.evaluate(board);
        }
        let values = &self.shared.values;
        if let Some(value) = values.get(board) {
            return value;
        }
        let depth = sort_depth(board.empty_count() + 1);
        let value = shallow_value(&*self.shared.eval, board, depth, -30_000, 30_000);
        values.put(board, value);
        value
    }
}

/// Whether a node of `empties` empties grades its children by the ordering search rather
/// than the static evaluation: from [`SHALLOW_FROM`] empties, and from [`CAREFUL_FROM`]
/// where it `expects_proof` (only asked there).
fn grades_by_search(empties: u32, expects_proof: impl FnOnce() -> bool) -> bool {
    empties >= SHALLOW_FROM || (empties >= CAREFUL_FROM && expects_proof())
}

/// Whether the threads part at a node of `empties` empties, a child another thread
/// searches left to it while a sibling is worth searching: where the node is not
/// expected to be proved, since all its children are then needed. Where it `expects_proof`
/// (only asked then), one child should suffice, as at alpha-beta's cut nodes where young
/// brothers wait: the threads stay together on the best child and part below it. Unless
/// its children are leaves of at most `leaf_empties` empties: the second thread would only
/// repeat the first's alpha-beta search (measured in results/dfpn.md).
fn threads_part(empties: u32, leaf_empties: u32, expects_proof: impl FnOnce() -> bool) -> bool {
    empties <= leaf_empties + 1 || !expects_proof()
}

/// A direct-mapped cache of shallow-search values that the threads share: a node's
/// unexpanded children are graded again at each of its expansions, at each threshold
/// asked of the position, and by each thread that passes through it, and their searches
/// would otherwise be repeated every time.
///
/// Lock-free: a slot holds the board's two words each XORed with the value, and the
/// value, so a slot torn by two threads writing at once fails the check on reading
/// (both boards' words would have to agree with one value) and reads as a miss. The
/// values only grade the search's choices: a wrong one could cost nodes, never an answer.
struct ValueCache {
    slots: Vec<[AtomicU64; 3]>,
}

impl ValueCache {
    const SLOTS: usize = 1 << 17;

    fn new() -> ValueCache {
        ValueCache {
            slots: (0..Self::SLOTS).map(|_| Default::default()).collect(),
        }
    }

    fn slot(&self, board: &Board) -> &[AtomicU64; 3] {
        &self.slots[board.hash() as usize & (Self::SLOTS - 1)]
    }

    fn get(&self, board: &Board) -> Option<i32> {
        let [player, opponent, value] = self.slot(board).each_ref().map(|w| w.load(Relaxed));
        (player ^ value == board.player && opponent ^ value == board.opponent)
            .then_some(value as u32 as i32)
    }

    fn put(&self, board: &Board, value: i32) {
        let value = value as u32 as u64;
        let [player, opponent, stored] = self.slot(board);
        player.store(board.player ^ value, Relaxed);
        opponent.store(board.opponent ^ value, Relaxed);
        stored.store(value, Relaxed);
    }
}

/// The proof and disproof numbers of a node from its unsolved-or-not children.
fn aggregate(aggregation: Aggregation, kids: &[Child]) -> (u32, u32) {
    let pn = kids.iter().map(|c| c.dn).min().expect("children");
    let open = kids.iter().filter(|c| c.pn != 0);
    let dn = match aggregation {
        Aggregation::Weak => open
            .clone()
            .map(|c| c.pn)
            .max()
            .map_or(0, |max| max.saturating_add(open.count() as u32 - 1)),
        Aggregation::Sum => open.fold(0u32, |sum, c| sum.saturating_add(c.pn)),
    };
    (pn.min(LARGEST), dn.min(LARGEST))
}

/// The limits of the child `mid` descends into, from the parent's `limits` (proof,
/// disproof): the child's proof number may grow until the parent's disproof number `dn`
/// (the sum or weak sum it is part of) reaches the parent's limit; its disproof number
/// until it passes `second` (the next sibling's, as `choose` ranks them) widened by
/// 1 + `epsilon` (the 1+epsilon trick: fewer switches between siblings), within the
/// parent's proof limit.
fn child_limits(
    limits: (u32, u32),
    dn: u32,
    child_pn: u32,
    second: u32,
    epsilon: f64,
) -> (u32, u32) {
    let (pn_limit, dn_limit) = limits;
    let child_pn_limit = if dn_limit == LARGEST {
        LARGEST
    } else {
        (dn_limit - dn).saturating_add(child_pn).min(LARGEST)
    };
    let widened = ((second as f64) * (1.0 + epsilon)).ceil();
    let child_dn_limit = pn_limit.min(
        second
            .saturating_add(1)
            .max(widened.min(LARGEST as f64) as u32),
    );
    (child_pn_limit, child_dn_limit)
}

/// The evaluation `value` of a node moved to at least [`HINT_MARGIN`] beyond the threshold
/// `t` on the side that the alpha-beta table's bounds put it (the selective guess leaves
/// them for the nodes near the root, the leaves for theirs): a search, even a selective
/// one, sees further than the static evaluation. Numbers only: proved bounds come from
/// the proof-number table alone.
fn table_hint(value: i32, bounds: Option<Bounds>, t: i32) -> i32 {
    match bounds {
        Some(b) if b.lower >= t => value.max(t + HINT_MARGIN),
        Some(b) if b.upper < t => value.min(t - HINT_MARGIN),
        _ => value,
    }
}

/// [`Initial::Evaluation`]'s numbers for a node the evaluation puts at `value` discs,
/// asked whether it scores at least `t`, with `mobility` legal moves.
///
/// Both numbers follow the margin over the whole range, beyond the threshold too: of two
/// children expected to succeed, the one with more to spare comes first, and its leaves,
/// far from the threshold, are cheap. (Weighing only the side short of the threshold, as
/// before, made all expected successes alike and cost far more nodes: results/dfpn.md,
/// "Figures once in code comments".)
fn evaluation_numbers(value: i32, t: i32, mobility: u32) -> (u32, u32) {
    let margin = (value - t).clamp(-MARGIN_RANGE, MARGIN_RANGE);
    let weight = |m: i32| 1 + (MARGIN_RANGE - m) as u32 / 2;
    (weight(margin), mobility.max(1) * weight(-margin))
}

/// A child's disproof number, a first estimate's multiplied by `factor` (saturating below
/// [`INFINITE`]): the key that ranks the estimates against the searched children.
fn weighed_number(factor: f64) -> impl Fn(&Child) -> u32 {
    move |k| match k.estimated {
        true => (k.dn as f64 * factor).min(LARGEST as f64) as u32,
        false => k.dn,
    }
}

/// The child to search next and the number it must stay within: the child with the
/// smallest `number` (the first on ties) and the second smallest. With `leave_busy`, a
/// child that other threads search is passed over for the best of the others while that
/// one's number is below `pn_limit` (so searching it can make progress here); the second
/// smallest is then taken among the others too.
fn best_two(
    kids: &[Child],
    number: impl Fn(&Child) -> u32,
    pn_limit: u32,
    leave_busy: bool,
) -> (usize, u32) {
    let best_of = |free_only: bool| {
        let mut best: Option<(usize, u32)> = None;
        let mut second = INFINITE;
        for (i, c) in kids.iter().enumerate() {
            if free_only && c.busy > 0 {
                continue;
            }
            let n = number(c);
            match best {
                None => best = Some((i, n)),
                Some((_, b)) if n < b => {
                    second = b;
                    best = Some((i, n));
                }
                Some(_) => second = second.min(n),
            }
        }
        best.map(|(b, n)| (b, n, second))
    };
    let (best, _, second) = best_of(false).expect("children");
    if leave_busy && kids[best].busy > 0 {
        if let Some((free, n, free_second)) = best_of(true) {
            if n < pn_limit {
                return (free, free_second);
            }
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
    fn table_bounds_move_the_evaluation_past_the_threshold() {
        let bounds = |lower, upper| {
            Some(Bounds {
                lower,
                upper,
                best: engine::search::NO_MOVE,
                selectivity: 0,
            })
        };
        assert_eq!(table_hint(-5, bounds(2, 64), 2), 2 + HINT_MARGIN);
        assert_eq!(table_hint(30, bounds(2, 64), 2), 30, "already further");
        assert_eq!(table_hint(5, bounds(-64, 0), 2), 2 - HINT_MARGIN);
        assert_eq!(table_hint(5, bounds(-2, 4), 2), 5, "undecided bounds");
        assert_eq!(table_hint(5, None, 2), 5);
    }

    #[test]
    fn children_are_graded_by_search_far_from_the_leaves_and_at_expected_proofs() {
        let unasked = || -> bool { panic!("the expectation is not needed here") };
        assert!(grades_by_search(SHALLOW_FROM, unasked));
        assert!(grades_by_search(30, unasked));
        assert!(!grades_by_search(CAREFUL_FROM - 1, unasked));
        for empties in CAREFUL_FROM..SHALLOW_FROM {
            assert!(
                grades_by_search(empties, || true),
                "{empties}: expected proof"
            );
            assert!(
                !grades_by_search(empties, || false),
                "{empties}: expected disproof"
            );
        }
    }

    #[test]
    fn threads_stay_together_at_expected_proofs_above_the_leaves() {
        let unasked = || -> bool { panic!("the expectation is not needed here") };
        assert!(threads_part(17, 16, unasked), "its children are leaves");
        assert!(threads_part(18, 16, || false), "an expected disproof");
        assert!(!threads_part(18, 16, || true), "an expected proof");
        assert!(!threads_part(30, 16, || true));
    }

    #[test]
    fn the_value_cache_answers_only_for_the_board_it_holds() {
        let cache = ValueCache::new();
        let start = Board::START;
        let after_f5 = start.children()[0].1;
        assert_eq!(cache.get(&start), None);
        cache.put(&start, -37);
        assert_eq!(cache.get(&start), Some(-37));
        assert_eq!(cache.get(&after_f5), None);
        // A board of the same slot takes it over.
        let rival = (1..)
            .map(|bit| Board {
                player: 1 << (bit % 64),
                opponent: bit,
            })
            .find(|b| std::ptr::eq(cache.slot(b), cache.slot(&start)))
            .expect("a board in the same slot");
        cache.put(&rival, 5);
        assert_eq!(cache.get(&start), None);
        assert_eq!(cache.get(&rival), Some(5));
        // Torn by two threads: the start's first word over the rival's slot.
        cache.slot(&start)[0].store(start.player ^ (-37i32 as u32 as u64), Relaxed);
        assert_eq!(cache.get(&start), None);
        assert_eq!(cache.get(&rival), None);
        cache.put(&start, -1);
        assert_eq!(
            cache.get(&start),
            Some(-1),
            "negative values come back whole"
        );
    }

    /// A child of unknown score with these numbers, `busy` threads below it, its numbers
    /// first estimates or not.
    fn unsolved(pn: u32, dn: u32, busy: u8, estimated: bool) -> Child {
        Child {
            mv: Move::Pass,
            board: Board::START,
            pn,
            dn,
            lower: -64,
            upper: 64,
            busy,
            estimated,
        }
    }

    /// The plain ranking of [`best_two`].
    fn dn(kid: &Child) -> u32 {
        kid.dn
    }

    #[test]
    fn weak_aggregation_of_solved_children_solves() {
        let kid = |pn, dn| unsolved(pn, dn, 0, false);
        let weak = Aggregation::Weak;
        assert_eq!(aggregate(weak, &[kid(0, INFINITE), kid(0, INFINITE)]).1, 0);
        assert_eq!(
            aggregate(weak, &[kid(3, 2), kid(5, 1), kid(0, INFINITE)]),
            (1, 6)
        );
        assert_eq!(
            best_two(&[kid(3, 2), kid(5, 1), kid(1, 4)], dn, LARGEST, true),
            (1, 2)
        );
    }

    #[test]
    fn a_child_another_thread_searches_is_left_while_a_sibling_can_progress() {
        let kid = |dn, busy| unsolved(1, dn, busy, false);
        let kids = [kid(2, 0), kid(1, 1), kid(4, 0)];
        // The best is busy: the best of the others, within the others' second best.
        assert_eq!(best_two(&kids, dn, 10, true), (0, 4));
        // Unless the others cannot progress within the limit.
        assert_eq!(best_two(&kids, dn, 2, true), (1, 2));
        // All busy: the best.
        assert_eq!(best_two(&[kid(2, 1), kid(1, 2)], dn, 10, true), (1, 2));
        // At an expected proof the threads stay together on the best.
        assert_eq!(best_two(&kids, dn, 10, false), (1, 2));
    }

    #[test]
    fn a_searched_child_is_kept_against_estimates_within_the_factor() {
        let kid = |dn, estimated| unsolved(1, dn, 0, estimated);
        let kids = [kid(8, true), kid(10, false), kid(12, true)];
        let weighed = weighed_number(1.5);
        // The estimate 8 weighs 12: the searched 10 goes on, within 12.
        assert_eq!(best_two(&kids, &weighed, LARGEST, false), (1, 12));
        assert_eq!(weighed(&kids[1]), 10, "searched numbers stay");
        // An estimate under two thirds of the searched number still wins.
        let kids = [kid(6, true), kid(10, false)];
        assert_eq!(best_two(&kids, &weighed, LARGEST, false), (0, 10));
        assert_eq!(weighed(&kid(LARGEST, true)), LARGEST);
    }
}
