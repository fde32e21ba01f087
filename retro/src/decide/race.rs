//! The race's shared state, and one SAT run: a solver on a part of the question.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use engine::Position;
use satgen::solve::{Embedded, Outcome};
use satgen::target::{decode_target, encode_target, Cube, Target};

use super::certificates::{certify_lrat, certify_varisat};
use super::schedule::{early, is_early, Run, EARLY_PASSES, LATE_PART, PARTS, WHOLE_PART};
use super::{DecideError, Found, Method, Options, SatSolver};

/// How long the part of the game's question without passes before the last moves leaves
/// them free: most real games pass only near the end, if at all.
const LATE: usize = 12;

/// How long one run of an early single-pass part may take: most are refuted or hold the
/// game within it (results/reach.md); a longer one gives its thread back to the rest.
pub(super) const EARLY_BUDGET: Duration = Duration::from_secs(30);

/// The race's shared state: the questions (parts of the game's question), which are
/// refuted, which solvers failed to run, and the answer once one is found.
pub(super) struct Race<'a> {
    position: &'a Position,
    options: &'a Options,
    keep: Option<&'a Path>,
    pub(super) no_passes: bool,
    /// The parts, the whole question last.
    parts: [Cube; PARTS],
    /// Which parts the number of moves leaves worth asking.
    useful: [bool; PARTS],
    /// Parts refuted (with those inside them): their runs are skipped.
    unsat: [AtomicBool; PARTS],
    /// Each part's formula, built by the first run that asks it.
    questions: [OnceLock<Target>; PARTS],
    /// Solvers that failed to run (a missing program): never tried again.
    pub(super) broken: Vec<AtomicBool>,
    /// Whether the whole question's UNSAT needs a checked proof to be an answer.
    pub(super) proof_needed: bool,
    /// Where no solver raced writes a proof: varisat takes the first solver's turn on the
    /// whole question.
    varisat_stands_in: bool,
    /// Set when a solver without a proof found the whole question UNSAT: no game, which
    /// its next seeds need not look for again (the answer waits for a proof).
    no_game_unproved: AtomicBool,
    pub(super) done: AtomicBool,
    pub(super) found: Mutex<Option<Found>>,
    pub(super) errors: Mutex<Vec<DecideError>>,
}

impl<'a> Race<'a> {
    /// The SAT runs, in the order workers take them: per seed, per solver, the parts of
    /// the question that can hold the game, then the whole question (passes anywhere:
    /// twice the size, and rarely first). Where the target's side to move allows no
    /// passes, the part without them; where it needs an odd number, the part with a
    /// single pass just before the last move (a full board's typical game: the last
    /// square is one side's only); either twice, with two seeds (seeds move Kissat's
    /// time by 2-4x). Then the part without passes before the last `LATE` moves. The
    /// first three are about half the whole question's size. A second varisat run would
    /// repeat the first; once a part is UNSAT, its runs (and those of the parts inside
    /// it) are skipped.
    pub(super) fn new(
        position: &'a Position,
        options: &'a Options,
        keep: Option<&'a Path>,
    ) -> Race<'a> {
        let steps = satgen::target::moves_played(position);
        let single = |k: usize| Cube {
            single_pass_before: Some(k),
            ..Cube::default()
        };
        let mut parts = [Cube::default(); PARTS];
        let mut useful = [true; PARTS];
        parts[0] = Cube::NO_PASSES;
        parts[1] = single(steps.saturating_sub(1));
        useful[1] = steps >= 2;
        for (i, &k) in EARLY_PASSES.iter().enumerate() {
            parts[early(i)] = single(k);
            // Before the last move, the early pass would be part 1's.
            useful[early(i)] = k + 1 < steps;
        }
        parts[LATE_PART] = Cube {
            no_passes_before: steps.saturating_sub(LATE),
            ..Cube::default()
        };
        useful[LATE_PART] = steps > LATE;
        // The whole question's UNSAT is an answer only from solvers that prove it (unless
        // their word is trusted); where none of them does, the first solver's turn goes to
        // varisat. The others still search it for games: only the whole question holds a
        // game with a pass in the middle, and Kissat finds games sooner than CaDiCaL. The
        // parts' UNSAT only prunes: any solver may ask them.
        let proof_needed = keep.is_some() || !options.trust_unsat;
        Race {
            position,
            options,
            keep,
            no_passes: satgen::target::no_passes_possible(position),
            parts,
            // Which parts the side to move allows is the schedule's choice
            // (`Run::slots`); here only what the number of moves rules out.
            useful,
            unsat: Default::default(),
            questions: Default::default(),
            broken: options
                .solvers
                .iter()
                .map(|_| AtomicBool::new(false))
                .collect(),
            proof_needed,
            varisat_stands_in: proof_needed && !options.solvers.iter().any(SatSolver::writes_proof),
            no_game_unproved: AtomicBool::new(false),
            done: AtomicBool::new(false),
            found: Mutex::new(None),
            errors: Mutex::new(Vec::new()),
        }
    }

    /// The first answer stands; every racer stops.
    pub(super) fn settle(&self, answer: Found) {
        self.found.lock().expect("no panics").get_or_insert(answer);
        self.done.store(true, Relaxed);
    }

    fn error(&self, error: DecideError) {
        self.errors.lock().expect("no panics").push(error);
    }

    /// The solver a run uses, or `None` where the run is not worth making: the whole
    /// question needs a solver that proves (varisat standing in for the first), varisat
    /// runs once, and a refuted part or one the moves rule out is skipped.
    fn solver_of(&self, run: Run) -> Option<&'a SatSolver> {
        let whole = run.part == WHOLE_PART;
        let solvers = &self.options.solvers;
        let solver = match &solvers[run.solver] {
            s if whole && self.proof_needed && !s.writes_proof() => match run.solver {
                0 if self.varisat_stands_in => &SatSolver::Varisat,
                _ if self.no_game_unproved.load(Relaxed) => return None,
                _ => s,
            },
            s => s,
        };
        let skip = (*solver == SatSolver::Varisat && run.seed > 1)
            || !self.useful[run.part]
            || (!whole && self.unsat[run.part].load(Relaxed));
        (!skip).then_some(solver)
    }

    /// One run: a solver on a part of the question; its answer settles the race, prunes
    /// the parts it refutes, or is an error.
    pub(super) fn sat_run(&self, run: Run) {
        let Run {
            solver: index,
            part,
            seed,
        } = run;
        if self.broken[index].load(Relaxed) {
            return;
        }
        let Some(solver) = self.solver_of(run) else {
            return;
        };
        let whole = part == WHOLE_PART;
        let target =
            self.questions[part].get_or_init(|| encode_target(self.position, self.parts[part]));
        // A part another run refuted meanwhile has nothing left to tell; an early
        // single-pass part has its budget.
        let started = Instant::now();
        let budgeted = is_early(part);
        let stop = || {
            self.done.load(Relaxed)
                || (!whole && self.unsat[part].load(Relaxed))
                || (budgeted && started.elapsed() > EARLY_BUDGET)
        };
        let command = solver.command(seed, whole);
        let dimacs =
            |mut out: &mut dyn std::io::Write| satgen::dimacs::write_target(&mut out, target);
        // The whole question's UNSAT is an answer: it comes with a proof where the solver
        // writes one (LRAT beside its CNF in a scratch directory; varisat's in memory).
        let scratch = match solver {
            SatSolver::Command { lrat: true, .. } if whole => match tempfile::tempdir() {
                Ok(dir) => Some(dir),
                Err(e) => return self.error(DecideError::Scratch(e)),
            },
            _ => None,
        };
        let lrat_files = scratch
            .as_ref()
            .map(|dir| (dir.path().join("q.cnf"), dir.path().join("q.lrat")));
        let mut varisat_proof = None;
        let outcome = match (&command, &lrat_files) {
            (None, _) if whole => {
                satgen::solve::varisat_with_proof(&target.formula, stop).map(|(outcome, proof)| {
                    varisat_proof = proof;
                    outcome
                })
            }
            (None, _) => satgen::solve::embedded(Embedded::Varisat, &target.formula, stop),
            (Some(command), Some((cnf, proof))) => {
                satgen::solve::external_lrat(command, dimacs, cnf, proof, stop)
            }
            (Some(command), None) => satgen::solve::external(command, dimacs, stop),
        };
        let name = command.unwrap_or_else(|| solver.name());
        let proof = match (&varisat_proof, &lrat_files) {
            (Some(proof), _) => Proof::Varisat(proof),
            (None, Some((cnf, proof))) => Proof::Lrat(cnf, proof),
            (None, None) => Proof::None,
        };
        match outcome {
            Ok(Outcome::Sat(model)) => match decode_target(&target.layout, &model) {
                Ok(witness) => self.settle(Found {
                    reachable: true,
                    method: Method::Sat,
                    witness: Some(witness),
                    certificate: None,
                    solver: Some(format!("{name}{}", self.label(part))),
                    proof: None,
                    proof_checked: None,
                }),
                Err(error) => self.error(DecideError::Model {
                    solver: name,
                    error,
                }),
            },
            Ok(Outcome::Unsat) if !whole => {
                // The parts inside this one are refuted with it.
                for (inside, refuted) in self.parts.iter().zip(&self.unsat) {
                    if inside.inside(&self.parts[part]) {
                        refuted.store(true, Relaxed);
                    }
                }
            }
            Ok(Outcome::Unsat) => self.unsat_whole(target, name, proof),
            Ok(Outcome::Stopped) => {}
            Err(e) => {
                self.broken[index].store(true, Relaxed);
                self.error(DecideError::Solver(e));
            }
        }
    }

    /// How a SAT answer names the part that held the game.
    fn label(&self, part: usize) -> String {
        let cube = &self.parts[part];
        match (cube.single_pass_before, cube.no_passes_before) {
            (Some(k), _) => format!(" (one pass, before move {})", k + 1),
            (None, usize::MAX) => " (games without passes)".to_string(),
            (None, 0) => String::new(),
            (None, n) => format!(" (no pass before move {})", n + 1),
        }
    }

    /// The whole question UNSAT: a "no" with its proof checked, or without one where the
    /// solver's word is trusted; else no game, and the answer waits for a proof.
    fn unsat_whole(&self, target: &Target, name: String, proof: Proof) {
        let size = format!(
            "{} variables, {} clauses",
            target.formula.variables(),
            target.formula.clauses()
        );
        let checked = match proof {
            Proof::Varisat(proof) => certify_varisat(target, proof, self.keep),
            Proof::Lrat(cnf, proof) => certify_lrat(cnf, proof, self.keep, self.options.checker),
            Proof::None => Ok(None),
        };
        match checked {
            Ok(Some((words, proof))) => self.settle(Found {
                reachable: false,
                method: Method::Sat,
                witness: None,
                certificate: Some(format!(
                    "UNSAT by {name} on the real-rules question ({size}); {words}"
                )),
                solver: Some(name),
                proof,
                proof_checked: Some(true),
            }),
            // No proof: an answer only where the solver's word is trusted.
            Ok(None) if !self.proof_needed => self.settle(Found {
                reachable: false,
                method: Method::Sat,
                witness: None,
                certificate: Some(format!(
                    "UNSAT by {name} on the real-rules question ({size}; it writes no proof that is checked)"
                )),
                solver: Some(name),
                proof: None,
                proof_checked: Some(false),
            }),
            Ok(None) => self.no_game_unproved.store(true, Relaxed),
            Err(error) => self.error(DecideError::ProofRejected {
                solver: name,
                error,
            }),
        }
    }
}

/// The proof a run of the whole question leaves: varisat's in memory, or an LRAT file
/// beside its CNF.
enum Proof<'p> {
    Varisat(&'p [u8]),
    Lrat(&'p Path, &'p Path),
    None,
}
