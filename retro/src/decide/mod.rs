//! One decider for "can a legal game from the start reach this position?", and how each
//! answer was shown.
//!
//! First the cheap refutations of [`crate::refute`](mod@crate::refute) (microseconds), then the flip
//! accounting of [`satgen::accounting`] (milliseconds: a small SAT question with time left
//! out, refuting most of what the cheap rules pass on random boards); then a race on threads between the
//! backward search to the forward frontier ([`crate::reach`](mod@crate::reach), exhaustive: its "no" is a
//! complete search) and SAT solvers on satgen's real-rules question ([`satgen::target`],
//! complete over every number of passes). The first answer wins and stops the others. Every
//! "yes" carries a witness game replayed by the core before it is returned; a SAT "no"
//! carries the solver's proof, checked before it is returned (CaDiCaL 1.9 and later:
//! LRAT; varisat: its own). Only with [`Options::trust_unsat`] is a solver's UNSAT taken
//! without one (Kissat's), and the certificate then says so.
//!
//! One file per part: `solvers` (which SAT solvers race, and their command lines),
//! `schedule` (the order of the runs: solver, part of the question, seed), `race` (the
//! racers' shared state and one run), `clocks` (the limits watched while they run) and
//! `certificates` (a SAT "no": its proof checked, and kept); and `candidates`, a board
//! whose side to move is not given, decided side by side.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use engine::clock::{CpuClock, CpuTimer};
use engine::{Move, ParseErrorKind, Position};
use satgen::decode::DecodeError;
use satgen::proof::ProofError;
use satgen::solve::SolveError;

use crate::reach::{reach, Frontier};

mod candidates;
mod certificates;
mod clocks;
mod race;
mod schedule;
mod solvers;

pub use candidates::Candidates;
use clocks::{watch, Clocks};
use race::Race;
use schedule::{Order, Run};
pub use solvers::{SatSolver, CADICAL_WHOLE_OPTIONS, KISSAT_OPTIONS};

/// Why a position was not decided, where no limit stopped the race: the first racer's
/// error (when no other answered), or a witness the core refuses.
#[derive(Debug, thiserror::Error)]
pub enum DecideError {
    /// A scratch directory for a proof could not be made.
    #[error("scratch directory: {0}")]
    Scratch(std::io::Error),
    /// A solver failed to run or to answer.
    #[error("{0}")]
    Solver(SolveError),
    /// A solver's model does not decode to a game.
    #[error("{solver}: model rejected: {error}")]
    Model {
        /// The solver.
        solver: String,
        /// Why.
        error: DecodeError,
    },
    /// A solver's UNSAT whose proof does not check (or could not be kept).
    #[error("{solver}: UNSAT not taken, its proof is rejected: {error}")]
    ProofRejected {
        /// The solver.
        solver: String,
        /// Why.
        error: ProofError,
    },
    /// A witness with a move the core refuses.
    #[error("witness rejected at {mv}: {kind}")]
    IllegalWitness {
        /// The move.
        mv: Move,
        /// Why it is not legal.
        kind: ParseErrorKind,
    },
    /// A witness that ends at another position.
    #[error("witness rejected: it ends at another position")]
    WitnessElsewhere,
}

/// How an answer was shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// A cheap invariant the position breaks ([`crate::refute`](mod@crate::refute)).
    Refutation,
    /// Flip accounting ([`satgen::accounting`]): no choice of colours and flipped runs,
    /// time left out, gives every disc its colour (UNSAT in milliseconds).
    Accounting,
    /// The backward search: a witness, or every way back refuted.
    Backward,
    /// A SAT solver: a model decoded to a witness, or UNSAT.
    Sat,
}

/// What the race may use.
#[derive(Clone, Debug)]
pub struct Options {
    /// Threads racing: the first searches backward, then (out of nodes) solves SAT; the
    /// others solve SAT, cycling through `solvers` with new seeds.
    pub workers: usize,
    /// The solvers the SAT threads take in turn.
    pub solvers: Vec<SatSolver>,
    /// Positions the backward search visits before it gives up its thread.
    pub backward_nodes: u64,
    /// Refuted positions the backward search remembers.
    pub memo_entries: usize,
    /// Positions the backward search visits alone, before the race (most positions near
    /// the start, and most refutations, take it milliseconds; starting a solver costs
    /// more). [`quick`] answers with this budget.
    pub quick_nodes: u64,
    /// UNKNOWN after this long.
    pub time_limit: Option<Duration>,
    /// UNKNOWN after this many seconds of processor time on the position: every thread
    /// and solver process together, read up to ten times a second. The same work on a
    /// loaded machine as on an idle one, where a wall-clock limit counts the load too.
    pub cpu_limit: Option<Duration>,
    /// Take a solver's UNSAT of the whole question without a checked proof (Kissat's).
    /// Otherwise only the UNSAT of a solver that writes proofs answers the whole question
    /// (varisat's where none of `solvers` does; the others search it for games), and
    /// every SAT "no" carries a checked proof.
    pub trust_unsat: bool,
    /// The last worker opens with the whole question (the first solver that may answer
    /// it), before the parts: where most positions are unreachable (random boards) the
    /// whole question's UNSAT is the only "no", and the parts before it are time lost.
    pub whole_first: bool,
    /// Who checks an LRAT proof (varisat's proofs are checked by varisat's checker).
    pub checker: satgen::proof::Checker,
}

/// The answer for one position.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Decision {
    /// `None`: undecided (time limit, interrupt).
    pub reachable: Option<bool>,
    /// How it was shown (`None` when undecided).
    pub method: Option<Method>,
    /// A game from the start reaching the position, replayed by the core.
    #[serde(serialize_with = "moves_text")]
    pub witness: Option<Vec<Move>>,
    /// How a "no" was shown (or why there is no answer).
    pub certificate: Option<String>,
    /// The solver that answered (SAT).
    pub solver: Option<String>,
    /// The proof file of a SAT "no", kept where [`decide`] was asked to keep it.
    pub proof: Option<PathBuf>,
    /// For a "no" by a solver (the flip accounting, SAT): whether an independent checker
    /// accepted its proof (false: the solver's word, under [`Options::trust_unsat`]).
    /// `None` for answers that need no proof: a witness replayed, a refutation rule, the
    /// exhaustive backward search.
    pub proof_checked: Option<bool>,
    /// Positions the backward search visited.
    pub nodes: u64,
    /// Wall time for the position.
    pub seconds: f64,
    /// The processor seconds it was given, where [`Options::cpu_limit`] left it
    /// undecided: a later run with no more than that need not ask again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_limit: Option<f64>,
}

fn moves_text<S: serde::Serializer>(moves: &Option<Vec<Move>>, s: S) -> Result<S::Ok, S::Error> {
    match moves {
        Some(m) => s.serialize_str(&engine::game::format_moves(m)),
        None => s.serialize_none(),
    }
}

/// A finished answer from one racer.
struct Found {
    reachable: bool,
    method: Method,
    witness: Option<Vec<Move>>,
    certificate: Option<String>,
    solver: Option<String>,
    proof: Option<PathBuf>,
    proof_checked: Option<bool>,
}

/// The cheap part of [`decide`]: the refutations, the flip accounting, then the backward search with at most
/// `options.quick_nodes` positions. `None`: not decided so cheaply.
pub fn quick(
    frontier: &Frontier,
    position: &Position,
    options: &Options,
    stop: &AtomicBool,
) -> Option<Decision> {
    let start = Instant::now();
    let decision = |found: Found, nodes| {
        Some(Decision {
            reachable: Some(found.reachable),
            method: Some(found.method),
            witness: found.witness,
            certificate: found.certificate,
            solver: None,
            proof: None,
            proof_checked: found.proof_checked,
            nodes,
            seconds: start.elapsed().as_secs_f64(),
            cpu_limit: None,
        })
    };
    if let Some(why) = crate::refute::refute(position) {
        return decision(
            Found {
                reachable: false,
                method: Method::Refutation,
                witness: None,
                certificate: Some(why),
                solver: None,
                proof: None,
                proof_checked: None,
            },
            0,
        );
    }
    if let Some(refuted) = satgen::accounting::accounting_refutes(position) {
        return decision(
            Found {
                reachable: false,
                method: Method::Accounting,
                witness: None,
                certificate: Some(format!(
                    "flip accounting: no colours and flipped runs give every disc its colour (UNSAT by varisat, {} variables, {} clauses; proof of {} bytes checked by varisat's checker)",
                    refuted.formula.variables(),
                    refuted.formula.clauses(),
                    refuted.proof.len()
                )),
                solver: None,
                proof: None,
                proof_checked: Some(true),
            },
            0,
        );
    }
    let result = reach(
        frontier,
        position,
        options.memo_entries,
        options.quick_nodes,
        stop,
    )
    .ok()?;
    decision(backward_found(&result), result.nodes)
}

/// The backward search's answer as a finished one.
fn backward_found(result: &crate::reach::Reach) -> Found {
    let reachable = result.witness.is_some();
    Found {
        reachable,
        method: Method::Backward,
        certificate: (!reachable).then(|| {
            format!(
                "exhaustive backward search: {} positions, every way back refuted",
                result.nodes
            )
        }),
        witness: result.witness.clone(),
        solver: None,
        proof: None,
        proof_checked: None,
    }
}

/// Decides `position`: [`quick`], then the race. `interrupt` (Ctrl-C) stops the race as
/// the time limit does: the answer is then `reachable: None`. An external solver that
/// cannot be run is an error, unless another racer answered.
///
/// `keep`: where a SAT "no" leaves its question and checked proof (`KEEP.cnf` with
/// `KEEP.lrat` or `KEEP.varisat`); given, only a checked proof answers "no", even with
/// [`Options::trust_unsat`]. Without it the proofs are checked and dropped.
pub fn decide(
    frontier: &Frontier,
    position: &Position,
    options: &Options,
    interrupt: &AtomicBool,
    keep: Option<&Path>,
) -> Result<Decision, DecideError> {
    let clocks = Clocks {
        start: Instant::now(),
        time_limit: options.time_limit,
        cpu_limit: options.cpu_limit.map(|limit| {
            (
                limit.as_secs_f64(),
                CpuTimer::start(CpuClock::ProcessAndChildren),
            )
        }),
    };
    if let Some(decision) = quick(frontier, position, options, interrupt) {
        return Ok(decision);
    }
    let race = Race::new(position, options, keep);
    let (solvers, done) = (&options.solvers, &race.done);
    let no_passes = race.no_passes;
    let order = Order {
        odd_passes: !no_passes,
        whole_first: options.whole_first,
    };
    let runs_per_seed = solvers.len() * Run::slots(order).len();
    let next_run = std::sync::atomic::AtomicUsize::new(0);
    // Whether the processor-time limit stopped the race.
    let mut cpu_spent = false;
    let nodes = Mutex::new(0u64);
    let workers = options.workers.max(1);
    let opening = Run::opening(solvers, order, race.proof_needed).filter(|_| options.whole_first);
    // A worker takes runs until one answers, or until the runs are spent (no external
    // solver: varisat once per part; every solver failed to run).
    let sat_runs = || loop {
        let k = next_run.fetch_add(1, Relaxed);
        let spent = solvers.iter().all(|s| *s == SatSolver::Varisat) && k >= runs_per_seed;
        if done.load(Relaxed) || spent || race.broken.iter().all(|b| b.load(Relaxed)) {
            return;
        }
        let run = Run::of(k, solvers.len(), order);
        if Some(run) != opening {
            race.sat_run(run);
        }
    };
    let early_runs = || loop {
        let k = next_run.load(Relaxed);
        let run = Run::of(k, solvers.len(), order);
        if done.load(Relaxed) || !schedule::is_early(run.part) {
            return;
        }
        next_run.fetch_add(1, Relaxed);
        race.sat_run(run);
    };
    let backward = || {
        let result = reach(
            frontier,
            position,
            options.memo_entries,
            options.backward_nodes,
            done,
        );
        match result {
            Ok(result) => {
                *nodes.lock().expect("no panics") = result.nodes;
                race.settle(backward_found(&result));
            }
            Err(halted) => *nodes.lock().expect("no panics") = halted.nodes,
        }
    };
    std::thread::scope(|scope| {
        let (finished, all_finished) = std::sync::mpsc::channel::<()>();
        for w in 0..workers {
            let (backward, sat_runs, early_runs, race) = (&backward, &sat_runs, &early_runs, &race);
            let finished = finished.clone();
            scope.spawn(move || {
                if w == 0 {
                    backward();
                }
                if let Some(run) = opening.filter(|_| w == workers - 1) {
                    // Alone, the worker first takes the early single-pass parts (each
                    // bounded: EARLY_BUDGET) that the schedule opens with.
                    if workers == 1 {
                        early_runs();
                    }
                    if !done.load(Relaxed) {
                        race.sat_run(run);
                    }
                }
                sat_runs();
                let _ = finished.send(());
            });
        }
        cpu_spent = watch(&all_finished, workers, &clocks, interrupt, done);
    });
    let nodes = nodes.into_inner().expect("no panics");
    let Some(found) = race.found.into_inner().expect("no panics") else {
        let errors = race.errors.into_inner().expect("no panics");
        return undecided(errors, cpu_spent, &clocks, interrupt, nodes);
    };
    if let Some(witness) = &found.witness {
        replay(witness, position)?;
    }
    Ok(Decision {
        reachable: Some(found.reachable),
        method: Some(found.method),
        witness: found.witness,
        certificate: found.certificate,
        solver: found.solver,
        proof: found.proof,
        proof_checked: found.proof_checked,
        nodes,
        seconds: clocks.start.elapsed().as_secs_f64(),
        cpu_limit: None,
    })
}

/// The answer where no racer found one: UNKNOWN, saying which limit stopped it, or the
/// first error of a racer where none did.
fn undecided(
    errors: Vec<DecideError>,
    cpu_spent: bool,
    clocks: &Clocks,
    interrupt: &AtomicBool,
    nodes: u64,
) -> Result<Decision, DecideError> {
    // Read once, so that the certificate and the limit it names agree.
    let interrupted = interrupt.load(Relaxed);
    if let Some(first) = errors.into_iter().next() {
        if !interrupted
            && !cpu_spent
            && clocks.time_limit.is_none_or(|l| clocks.start.elapsed() < l)
        {
            return Err(first);
        }
    }
    let by_cpu = cpu_spent && !interrupted;
    Ok(Decision {
        reachable: None,
        method: None,
        witness: None,
        certificate: Some(if interrupted {
            "interrupted".into()
        } else if by_cpu {
            "processor time limit".into()
        } else {
            "time limit".into()
        }),
        solver: None,
        proof: None,
        proof_checked: None,
        nodes,
        seconds: clocks.start.elapsed().as_secs_f64(),
        cpu_limit: clocks
            .cpu_limit
            .as_ref()
            .filter(|_| by_cpu)
            .map(|(limit, _)| *limit),
    })
}

/// Whatever found a witness, the core replays it to exactly the position.
fn replay(witness: &[Move], position: &Position) -> Result<(), DecideError> {
    let mut replayed = Position::START;
    for &mv in witness {
        replayed = replayed
            .play(mv)
            .map_err(|kind| DecideError::IllegalWitness { mv, kind })?;
    }
    if replayed != *position {
        return Err(DecideError::WitnessElsewhere);
    }
    Ok(())
}
