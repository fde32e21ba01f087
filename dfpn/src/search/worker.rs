//! The threads' search: each thread a [`Worker`] expanding the proof-number tree below a
//! node (`mid`), choosing children, and sharing what it learns through the table.

use std::cell::OnceCell;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};

use arrayvec::ArrayVec;
use rayon::prelude::*;

use engine::search::Stop;
use engine::stability::score_bounds;
use engine::{Board, Move};

use super::numbers::{
    aggregate, best_two, child_limits, evaluation_numbers, table_hint, weighed_number,
};
use super::{
    decided, ordering_value, with_leaf_bound, Child, Initial, ProgressReport, Shared, Stats,
    CAREFUL_FROM, PROGRESS_INTERVAL, SHALLOW_FROM,
};

/// The counters of all threads, each adding its own every [`PROGRESS_INTERVAL`] nodes
/// and when it ends.
#[derive(Default)]
pub(super) struct Published {
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

    pub(super) fn total(&self) -> Stats {
        Stats {
            dfpn_nodes: self.dfpn_nodes.load(Relaxed),
            leaves: self.leaves.load(Relaxed),
            leaf_nodes: self.leaf_nodes.load(Relaxed),
        }
    }
}

/// One thread's part of a search.
pub(super) struct Worker<'a> {
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
    pub(super) progress: Option<(&'a mut ProgressReport, Stats)>,
    /// The root's threshold: nodes asked it are the question's side to move.
    pub(super) root_threshold: i32,
    /// One thread over the tree, several in the rayon pool: a node whose first child
    /// failed searches its leaves together ([`Worker::search_leaves_together`]).
    leaves_together: bool,
}

impl<'a> Worker<'a> {
    pub(super) fn new(
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
    pub(super) fn publish(&mut self) {
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
    pub(super) fn mid(&mut self, board: &Board, t: i32, pn_limit: u32, dn_limit: u32) -> Child {
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
                let (lower, upper) = score_bounds(&board);
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
        let value = ordering_value(&*self.shared.eval, board);
        values.put(board, value);
        value
    }
}

/// Whether a node of `empties` empties grades its children by the ordering search rather
/// than the static evaluation: from [`SHALLOW_FROM`] empties, and from [`CAREFUL_FROM`]
/// where it `expects_proof` (only asked there).
pub(super) fn grades_by_search(empties: u32, expects_proof: impl FnOnce() -> bool) -> bool {
    empties >= SHALLOW_FROM || (empties >= CAREFUL_FROM && expects_proof())
}

/// Whether the threads part at a node of `empties` empties, a child another thread
/// searches left to it while a sibling is worth searching: where the node is not
/// expected to be proved, since all its children are then needed. Where it `expects_proof`
/// (only asked then), one child should suffice, as at alpha-beta's cut nodes where young
/// brothers wait: the threads stay together on the best child and part below it. Unless
/// its children are leaves of at most `leaf_empties` empties: the second thread would only
/// repeat the first's alpha-beta search (measured in results/dfpn.md).
pub(super) fn threads_part(
    empties: u32,
    leaf_empties: u32,
    expects_proof: impl FnOnce() -> bool,
) -> bool {
    empties <= leaf_empties + 1 || !expects_proof()
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
