//! The order of the race's SAT runs: per round, per solver, the parts of the question
//! with their seeds.

use super::SatSolver;

/// The parts of the question the race solves: without passes, with a single pass before
/// the last move, without passes before the last moves, whole.
pub(super) const PARTS: usize = 4;

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
    pub(super) fn of(k: usize, solvers: usize, odd_passes: bool) -> Run {
        let slots = Run::slots(odd_passes);
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
    pub(super) fn opening(
        solvers: &[SatSolver],
        odd_passes: bool,
        proof_needed: bool,
    ) -> Option<Run> {
        (0..solvers.len() * Run::slots(odd_passes).len())
            .map(|k| Run::of(k, solvers.len(), odd_passes))
            .find(|run| {
                run.part == PARTS - 1 && (!proof_needed || solvers[run.solver].writes_proof())
            })
    }

    /// One solver's runs in a round: (part, runs of that part per round).
    pub(super) fn slots(odd_passes: bool) -> &'static [(usize, usize)] {
        if odd_passes {
            &[(1, 2), (1, 2), (2, 2), (2, 2), (3, 1)]
        } else {
            &[(0, 2), (0, 2), (2, 1), (3, 1)]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_cover_each_solver_part_and_seed_once() {
        let run = |solver, part, seed| Run { solver, part, seed };
        let first: Vec<Run> = (0..6).map(|k| Run::of(k, 2, true)).collect();
        assert_eq!(
            first,
            [
                run(0, 1, 1),
                run(0, 1, 2),
                run(0, 2, 1),
                run(0, 2, 2),
                run(0, 3, 1),
                run(1, 1, 1)
            ]
        );
        assert_eq!(Run::of(10, 2, true), run(0, 1, 3));
        // Without passes, the part without them first, with two seeds.
        let first: Vec<Run> = (0..5).map(|k| Run::of(k, 2, false)).collect();
        assert_eq!(
            first,
            [
                run(0, 0, 1),
                run(0, 0, 2),
                run(0, 2, 1),
                run(0, 3, 1),
                run(1, 0, 1)
            ]
        );
        assert_eq!(Run::of(8, 2, false), run(0, 0, 3));
        for odd_passes in [false, true] {
            let runs: Vec<Run> = (0..80).map(|k| Run::of(k, 2, odd_passes)).collect();
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
                    // The part that cannot hold the game: none without passes where
                    // they are odd, none with a single pass where they are even.
                    let never = if odd_passes { 0 } else { 1 };
                    assert_eq!(seeds.is_empty(), part == never);
                }
            }
        }
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
        assert_eq!(Run::opening(&both, false, true), run(1, 3, 1));
        assert_eq!(Run::opening(&both, true, true), run(1, 3, 1));
        // Trusted, the first solver's.
        assert_eq!(Run::opening(&both, true, false), run(0, 3, 1));
        assert_eq!(
            Run::opening(&[SatSolver::Varisat], false, true),
            run(0, 3, 1)
        );
        // None proves it: varisat stands in on its turn, as without `whole_first`.
        assert_eq!(Run::opening(&[kissat], false, true), None);
        // The opening is a run of the schedule (which then skips it).
        let opening = Run::opening(&both, true, true).unwrap();
        assert!((0..20).any(|k| Run::of(k, 2, true) == opening));
    }
}
