//! The order of the race's SAT runs: per round, per solver, the parts of the question
//! with their seeds.

use super::SatSolver;

/// The steps before which the early single-pass parts put their pass: every step where a
/// game's first pass can fall, up to 13 ([`satgen::target::first_pass_possible`]).
pub(super) const EARLY_PASSES: [usize; 5] = [8, 10, 11, 12, 13];

/// The parts of the question the race solves: without passes, with a single pass before
/// the last move, with a single pass before each of [`EARLY_PASSES`], without passes
/// before the last moves, whole.
pub(super) const PARTS: usize = 4 + EARLY_PASSES.len();

/// The part with a single pass before `EARLY_PASSES[i]`.
pub(super) const fn early(i: usize) -> usize {
    2 + i
}

/// Whether `part` is one of the early single-pass parts.
pub(super) fn is_early(part: usize) -> bool {
    (early(0)..early(EARLY_PASSES.len())).contains(&part)
}

/// The part without passes before the last moves.
pub(super) const LATE_PART: usize = PARTS - 2;

/// The whole question.
pub(super) const WHOLE_PART: usize = PARTS - 1;

/// What orders the runs: whether the target needs an odd number of passes, and whether
/// the whole question opens ([`Options::whole_first`](super::Options::whole_first): random
/// boards, mostly unreachable).
#[derive(Clone, Copy, Debug)]
pub(super) struct Order {
    pub(super) odd_passes: bool,
    pub(super) whole_first: bool,
}

/// The race's `k`-th SAT run: which solver, part and seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Run {
    pub(super) solver: usize,
    pub(super) part: usize,
    pub(super) seed: usize,
}

impl Run {
    /// Per round, per solver, the parts in order, each with the round's seed (from 1).
    /// The part that most games reaching the target fit runs twice, with two seeds, so
    /// that two threads race on it: without passes, or with `odd_passes` (where no game
    /// without passes reaches it) a single pass before the last move; there the part
    /// without passes before the last moves runs twice too, so that after the
    /// single-pass part is refuted (the pass lies elsewhere) both threads race on it.
    pub(super) fn of(k: usize, solvers: usize, order: Order) -> Run {
        let slots = Run::slots(order);
        let round = k / (solvers * slots.len());
        let slot = k % slots.len();
        let (part, twice) = slots[slot];
        // The slot's rank among the slots of its part in this round.
        let rank = slots[..slot].iter().filter(|s| s.0 == part).count();
        Run {
            solver: k / slots.len() % solvers,
            part,
            seed: twice * round + rank + 1,
        }
    }

    /// The run [`Options::whole_first`](super::Options::whole_first) opens with: the schedule's first run of the whole
    /// question that may answer (by a solver that proves UNSAT, or by any where its word
    /// is trusted), so that the schedule skips it.
    pub(super) fn opening(solvers: &[SatSolver], order: Order, proof_needed: bool) -> Option<Run> {
        (0..solvers.len() * Run::slots(order).len())
            .map(|k| Run::of(k, solvers.len(), order))
            .find(|run| {
                run.part == WHOLE_PART && (!proof_needed || solvers[run.solver].writes_proof())
            })
    }

    /// One solver's runs in a round: (part, runs of that part per round). Where the
    /// target needs an odd number of passes, the early single-pass parts, each small and
    /// given [`EARLY_BUDGET`](super::race::EARLY_BUDGET): first on random boards, where
    /// the pass of the reachable ones most often comes early (results/reach.md); else
    /// after one run of the part with a single pass before the last move, the typical
    /// game of a full board.
    pub(super) fn slots(order: Order) -> &'static [(usize, usize)] {
        /// The odd schedule: the early parts once each, the single pass before the last
        /// move twice (once before the early parts where `last_pass_first`), the late part
        /// twice, the whole question.
        const fn odd(last_pass_first: bool) -> [(usize, usize); 10] {
            let mut slots = [(WHOLE_PART, 1); 10];
            let mut at = 0;
            if last_pass_first {
                slots[0] = (1, 2);
                at = 1;
            }
            let mut i = 0;
            while i < EARLY_PASSES.len() {
                slots[at] = (early(i), 1);
                at += 1;
                i += 1;
            }
            if !last_pass_first {
                slots[at] = (1, 2);
                at += 1;
            }
            slots[at] = (1, 2);
            slots[at + 1] = (LATE_PART, 2);
            slots[at + 2] = (LATE_PART, 2);
            slots
        }
        const ODD_EARLY_FIRST: [(usize, usize); 10] = odd(false);
        const ODD_LAST_PASS_FIRST: [(usize, usize); 10] = odd(true);
        match (order.odd_passes, order.whole_first) {
            (true, true) => &ODD_EARLY_FIRST,
            (true, false) => &ODD_LAST_PASS_FIRST,
            (false, _) => &[(0, 2), (0, 2), (LATE_PART, 1), (WHOLE_PART, 1)],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ODD_BOARDS: Order = Order {
        odd_passes: true,
        whole_first: true,
    };
    const ODD_GAMES: Order = Order {
        odd_passes: true,
        whole_first: false,
    };
    const EVEN: Order = Order {
        odd_passes: false,
        whole_first: false,
    };

    #[test]
    fn runs_cover_each_solver_part_and_seed_once() {
        let run = |solver, part, seed| Run { solver, part, seed };
        // An odd number of passes, random boards: the early single-pass parts, the single
        // pass before the last move and the late part twice each, the whole question;
        // then the next solver.
        let first: Vec<Run> = (0..11).map(|k| Run::of(k, 2, ODD_BOARDS)).collect();
        assert_eq!(
            first,
            [
                run(0, early(0), 1),
                run(0, early(1), 1),
                run(0, early(2), 1),
                run(0, early(3), 1),
                run(0, early(4), 1),
                run(0, 1, 1),
                run(0, 1, 2),
                run(0, LATE_PART, 1),
                run(0, LATE_PART, 2),
                run(0, WHOLE_PART, 1),
                run(1, early(0), 1),
            ]
        );
        assert_eq!(Run::of(20, 2, ODD_BOARDS), run(0, early(0), 2));
        assert_eq!(Run::of(25, 2, ODD_BOARDS), run(0, 1, 3));
        // Positions of games: one run of the single pass before the last move first.
        let first: Vec<Run> = (0..3).map(|k| Run::of(k, 2, ODD_GAMES)).collect();
        assert_eq!(
            first,
            [run(0, 1, 1), run(0, early(0), 1), run(0, early(1), 1)]
        );
        assert_eq!(Run::of(6, 2, ODD_GAMES), run(0, 1, 2));
        // Without passes, the part without them first, with two seeds.
        let first: Vec<Run> = (0..5).map(|k| Run::of(k, 2, EVEN)).collect();
        assert_eq!(
            first,
            [
                run(0, 0, 1),
                run(0, 0, 2),
                run(0, LATE_PART, 1),
                run(0, WHOLE_PART, 1),
                run(1, 0, 1)
            ]
        );
        assert_eq!(Run::of(8, 2, EVEN), run(0, 0, 3));
        for order in [ODD_BOARDS, ODD_GAMES, EVEN] {
            let runs: Vec<Run> = (0..200).map(|k| Run::of(k, 2, order)).collect();
            let distinct: std::collections::HashSet<Run> = runs.iter().copied().collect();
            assert_eq!(distinct.len(), runs.len());
            // Every part each solver runs gets seeds 1, 2, ... with none skipped.
            for solver in 0..2 {
                for part in 0..PARTS {
                    let mut seeds: Vec<usize> = runs
                        .iter()
                        .filter(|r| r.solver == solver && r.part == part)
                        .map(|r| r.seed)
                        .collect();
                    seeds.sort();
                    assert!(seeds.iter().enumerate().all(|(i, &s)| s == i + 1));
                    // The parts that cannot hold the game: none without passes where
                    // they are odd, none with a single pass where they are even.
                    let never = if order.odd_passes {
                        part == 0
                    } else {
                        part == 1 || is_early(part)
                    };
                    assert_eq!(seeds.is_empty(), never);
                }
            }
        }
    }

    #[test]
    fn the_early_parts_are_every_early_first_pass() {
        let steps: Vec<usize> = (0..=EARLY_PASSES[EARLY_PASSES.len() - 1])
            .filter(|&k| satgen::target::first_pass_possible(k))
            .collect();
        assert_eq!(steps, EARLY_PASSES);
        assert!((0..PARTS)
            .filter(|&p| is_early(p))
            .eq(early(0)..early(EARLY_PASSES.len())));
    }

    #[test]
    fn the_opening_is_the_first_whole_question_that_may_answer() {
        let run = |solver, part, seed| Some(Run { solver, part, seed });
        let kissat = SatSolver::Command {
            line: "kissat".into(),
            lrat: false,
        };
        let cadical = SatSolver::Command {
            line: "cadical".into(),
            lrat: true,
        };
        let both = [kissat.clone(), cadical];
        // Kissat's UNSAT is no answer without a proof: CaDiCaL's whole question opens.
        assert_eq!(Run::opening(&both, EVEN, true), run(1, WHOLE_PART, 1));
        assert_eq!(Run::opening(&both, ODD_BOARDS, true), run(1, WHOLE_PART, 1));
        // Trusted, the first solver's.
        assert_eq!(
            Run::opening(&both, ODD_BOARDS, false),
            run(0, WHOLE_PART, 1)
        );
        assert_eq!(
            Run::opening(&[SatSolver::Varisat], EVEN, true),
            run(0, WHOLE_PART, 1)
        );
        // None proves it: varisat stands in on its turn, as without `whole_first`.
        assert_eq!(Run::opening(&[kissat], EVEN, true), None);
        // The opening is a run of the schedule (which then skips it).
        let opening = Run::opening(&both, ODD_BOARDS, true).unwrap();
        assert!((0..20).any(|k| Run::of(k, 2, ODD_BOARDS) == opening));
    }
}
