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

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use engine::clock::{CpuClock, CpuTimer};
use engine::{Move, Position};
use satgen::solve::{Embedded, Outcome};
use satgen::target::{decode_target, encode_target, Cube, Target};

use crate::reach::{reach, Frontier};

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

/// What the race passes to Kissat named alone. Its failed-literal probing takes a large
/// share of its time on these questions (long chains of gates from step to step) and
/// rarely pays: without it the parts that hold the game are solved faster, the slowest
/// runs most (measured in results/reach.md).
pub const KISSAT_OPTIONS: &str = "--probe=false";

/// What the race passes to CaDiCaL named alone on the whole question, whose only answer
/// that counts is nearly always UNSAT (the parts find the games): its configuration for
/// unsatisfiable formulas, which on these questions proves UNSAT faster, the hard ones
/// most; and without congruence closure and sweeping, which here cost more than they save
/// (both measured in results/reach.md, sessions 46 and 64).
pub const CADICAL_WHOLE_OPTIONS: &str = "--unsat --congruence=false --sweep=false";

/// A SAT solver the race can run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatSolver {
    /// The embedded varisat (always there; cannot be interrupted: a stopped run is left to
    /// finish on its thread).
    Varisat,
    /// An external DIMACS solver: program and arguments (the CNF file is appended); Kissat
    /// and CaDiCaL get `--seed=K` so that several runs differ, and named alone the race's
    /// options ([`KISSAT_OPTIONS`]; CaDiCaL on the whole question
    /// [`CADICAL_WHOLE_OPTIONS`]).
    Command {
        /// The command line.
        line: String,
        /// Whether it writes LRAT proofs (CaDiCaL 1.9 and later), asked once, when the
        /// solver is chosen.
        lrat: bool,
    },
}

impl SatSolver {
    /// Kissat and CaDiCaL where they are on the PATH (`scripts/install-solvers.sh`), else
    /// varisat.
    pub fn detect() -> Vec<SatSolver> {
        let on_path = |program: &str| {
            std::env::var_os("PATH").is_some_and(|paths| {
                std::env::split_paths(&paths).any(|dir| dir.join(program).is_file())
            })
        };
        let found: Vec<SatSolver> = ["kissat", "cadical"]
            .into_iter()
            .filter(|p| on_path(p))
            .map(SatSolver::external)
            .collect();
        if found.is_empty() {
            vec![SatSolver::Varisat]
        } else {
            found
        }
    }

    /// The external solver `line` (program and arguments).
    pub fn external(line: &str) -> SatSolver {
        SatSolver::Command {
            line: line.to_string(),
            lrat: satgen::solve::lrat_solver(line).is_ok(),
        }
    }

    /// Whether its UNSAT comes with a proof that satgen checks (varisat's own; LRAT).
    pub fn writes_proof(&self) -> bool {
        match self {
            SatSolver::Varisat => true,
            SatSolver::Command { lrat, .. } => *lrat,
        }
    }

    /// `varisat`, or the command as given.
    pub fn name(&self) -> String {
        match self {
            SatSolver::Varisat => "varisat".into(),
            SatSolver::Command { line, .. } => line.clone(),
        }
    }

    /// The command line of run `seed` (from 1), on the `whole` question or a part.
    fn command(&self, seed: usize, whole: bool) -> Option<String> {
        match self {
            SatSolver::Varisat => None,
            SatSolver::Command { line: c, .. } => {
                let mut words = c.split_whitespace();
                let program = words.next().unwrap_or_default();
                let base = std::path::Path::new(program)
                    .file_name()
                    .and_then(|n| n.to_str())
                    .unwrap_or_default();
                // A command with options of its own runs with those alone.
                let alone = words.next().is_none();
                Some(match base {
                    "kissat" if alone => format!("{c} {KISSAT_OPTIONS} -q --seed={seed}"),
                    "cadical" if alone && whole => {
                        format!("{c} {CADICAL_WHOLE_OPTIONS} -q --seed={seed}")
                    }
                    "kissat" | "cadical" => format!("{c} -q --seed={seed}"),
                    _ => c.clone(),
                })
            }
        }
    }
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
) -> Result<Decision, String> {
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
    let runs_per_seed = solvers.len() * Run::slots(!no_passes).len();
    let next_run = std::sync::atomic::AtomicUsize::new(0);
    // Whether the processor-time limit stopped the race.
    let mut cpu_spent = false;
    let nodes = Mutex::new(0u64);
    let workers = options.workers.max(1);
    let opening =
        Run::opening(solvers, !no_passes, race.proof_needed).filter(|_| options.whole_first);
    // A worker takes runs until one answers, or until the runs are spent (no external
    // solver: varisat once per part; every solver failed to run).
    let sat_runs = || loop {
        let k = next_run.fetch_add(1, Relaxed);
        let spent = solvers.iter().all(|s| *s == SatSolver::Varisat) && k >= runs_per_seed;
        if done.load(Relaxed) || spent || race.broken.iter().all(|b| b.load(Relaxed)) {
            return;
        }
        let run = Run::of(k, solvers.len(), !no_passes);
        if Some(run) != opening {
            race.sat_run(run);
        }
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
            let (backward, sat_runs, race) = (&backward, &sat_runs, &race);
            let finished = finished.clone();
            scope.spawn(move || {
                if w == 0 {
                    backward();
                }
                if let Some(run) = opening.filter(|_| w == workers - 1) {
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

/// The race's clocks: since when it runs, its time limit, and its processor-time limit
/// with the timer that reads it (read only under a limit: a reading scans the processes).
struct Clocks {
    start: Instant,
    time_limit: Option<Duration>,
    cpu_limit: Option<(f64, CpuTimer)>,
}

/// Watches the clocks and the interrupt until every racer is back (they stop as soon as
/// one answered), and stops them at a limit; whether the processor-time limit stopped
/// them. A reading of processor time scans every process of the machine: it is taken at
/// most every CPU_READ_EVERY, and at most a twentieth of the time (see
/// `next_cpu_read_in`).
fn watch(
    all_finished: &std::sync::mpsc::Receiver<()>,
    workers: usize,
    clocks: &Clocks,
    interrupt: &AtomicBool,
    done: &AtomicBool,
) -> bool {
    let mut cpu_spent = false;
    let mut back = 0;
    let mut next_cpu_read = Instant::now();
    while back < workers {
        match all_finished.recv_timeout(Duration::from_millis(5)) {
            Ok(()) => back += 1,
            Err(_) => {
                let late = clocks
                    .time_limit
                    .is_some_and(|limit| clocks.start.elapsed() >= limit);
                let spent = clocks.cpu_limit.as_ref().is_some_and(|(limit, cpu)| {
                    let now = Instant::now();
                    now >= next_cpu_read && {
                        let used = cpu.elapsed();
                        next_cpu_read = Instant::now() + next_cpu_read_in(now.elapsed());
                        used.is_some_and(|used| used >= *limit)
                    }
                });
                cpu_spent |= spent;
                if late || spent || interrupt.load(Relaxed) {
                    done.store(true, Relaxed);
                }
            }
        }
    }
    cpu_spent
}

/// The answer where no racer found one: UNKNOWN, saying which limit stopped it, or the
/// first error of a racer where none did.
fn undecided(
    errors: Vec<String>,
    cpu_spent: bool,
    clocks: &Clocks,
    interrupt: &AtomicBool,
    nodes: u64,
) -> Result<Decision, String> {
    // Read once, so that the certificate and the limit it names agree.
    let interrupted = interrupt.load(Relaxed);
    if let Some(first) = errors.first() {
        if !interrupted
            && !cpu_spent
            && clocks.time_limit.is_none_or(|l| clocks.start.elapsed() < l)
        {
            return Err(first.clone());
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
fn replay(witness: &[Move], position: &Position) -> Result<(), String> {
    let mut replayed = Position::START;
    for &mv in witness {
        replayed = replayed
            .play(mv)
            .map_err(|e| format!("witness rejected at {mv}: {e}"))?;
    }
    if replayed != *position {
        return Err("witness rejected: it ends at another position".into());
    }
    Ok(())
}

/// How long the part of the game's question without passes before the last moves leaves
/// them free: most real games pass only near the end, if at all.
const LATE: usize = 12;

/// The race's shared state: the questions (parts of the game's question), which are
/// refuted, which solvers failed to run, and the answer once one is found.
struct Race<'a> {
    position: &'a Position,
    options: &'a Options,
    keep: Option<&'a Path>,
    steps: usize,
    no_passes: bool,
    /// The parts, the whole question last.
    parts: [Cube; PARTS],
    /// Which parts the number of moves leaves worth asking.
    useful: [bool; PARTS],
    /// Parts refuted (with those inside them): their runs are skipped.
    unsat: [AtomicBool; PARTS],
    /// Each part's formula, built by the first run that asks it.
    questions: [OnceLock<Target>; PARTS],
    /// Solvers that failed to run (a missing program): never tried again.
    broken: Vec<AtomicBool>,
    /// Whether the whole question's UNSAT needs a checked proof to be an answer.
    proof_needed: bool,
    /// Where no solver raced writes a proof: varisat takes the first solver's turn on the
    /// whole question.
    varisat_stands_in: bool,
    /// Set when a solver without a proof found the whole question UNSAT: no game, which
    /// its next seeds need not look for again (the answer waits for a proof).
    no_game_unproved: AtomicBool,
    done: AtomicBool,
    found: Mutex<Option<Found>>,
    errors: Mutex<Vec<String>>,
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
    fn new(position: &'a Position, options: &'a Options, keep: Option<&'a Path>) -> Race<'a> {
        let steps = satgen::target::moves_played(position);
        let parts: [Cube; PARTS] = [
            Cube::NO_PASSES,
            Cube {
                single_pass_before: Some(steps.saturating_sub(1)),
                ..Cube::default()
            },
            Cube {
                no_passes_before: steps.saturating_sub(LATE),
                ..Cube::default()
            },
            Cube::default(),
        ];
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
            steps,
            no_passes: satgen::target::no_passes_possible(position),
            parts,
            // Which of the first two parts the side to move allows is the schedule's
            // choice (`Run::slots`); here only what the number of moves rules out.
            useful: [true, steps >= 2, steps > LATE, true],
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
    fn settle(&self, answer: Found) {
        self.found.lock().expect("no panics").get_or_insert(answer);
        self.done.store(true, Relaxed);
    }

    fn error(&self, error: String) {
        self.errors.lock().expect("no panics").push(error);
    }

    /// The solver a run uses, or `None` where the run is not worth making: the whole
    /// question needs a solver that proves (varisat standing in for the first), varisat
    /// runs once, and a refuted part or one the moves rule out is skipped.
    fn solver_of(&self, run: Run) -> Option<&'a SatSolver> {
        let whole = run.part == PARTS - 1;
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
    fn sat_run(&self, run: Run) {
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
        let whole = part == PARTS - 1;
        let target =
            self.questions[part].get_or_init(|| encode_target(self.position, self.parts[part]));
        // A part another run refuted meanwhile has nothing left to tell.
        let stop = || self.done.load(Relaxed) || (!whole && self.unsat[part].load(Relaxed));
        let command = solver.command(seed, whole);
        let dimacs =
            |mut out: &mut dyn std::io::Write| satgen::dimacs::write_target(&mut out, target);
        // The whole question's UNSAT is an answer: it comes with a proof where the solver
        // writes one (LRAT beside its CNF in a scratch directory; varisat's in memory).
        let scratch = match solver {
            SatSolver::Command { lrat: true, .. } if whole => match tempfile::tempdir() {
                Ok(dir) => Some(dir),
                Err(e) => return self.error(e.to_string()),
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
                Err(e) => self.error(format!("{name}: model rejected: {e}")),
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
                self.error(e);
            }
        }
    }

    /// How a SAT answer names the part that held the game.
    fn label(&self, part: usize) -> String {
        match part {
            0 => " (games without passes)".to_string(),
            1 => format!(" (one pass, before move {})", self.steps),
            2 => format!(
                " (no pass before move {})",
                self.parts[2].no_passes_before + 1
            ),
            _ => String::new(),
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
            Err(e) => self.error(format!("{name}: UNSAT not taken, its proof is rejected: {e}")),
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

/// How often the race reads the processor time it has spent, for [`Options::cpu_limit`].
const CPU_READ_EVERY: Duration = Duration::from_millis(100);

/// The longest wait between two readings of processor time: what a position may run past
/// its limit at most.
const CPU_READ_AT_MOST: Duration = Duration::from_secs(5);

/// The wait before the next reading of processor time, after a reading that took `took`:
/// twenty times as long, so that readings cost at most a twentieth of the time, but never
/// more than [`CPU_READ_AT_MOST`]. A process stopped during a reading (Ctrl-Z, or a batch
/// system suspending the job) sees a reading as long as the stop, and without the bound
/// would not read again for twenty times that, running on past its limit.
fn next_cpu_read_in(took: Duration) -> Duration {
    (took * 20).clamp(CPU_READ_EVERY, CPU_READ_AT_MOST)
}

/// The parts of the question the race solves: without passes, with a single pass before
/// the last move, without passes before the last moves, whole.
const PARTS: usize = 4;

/// The race's `k`-th SAT run: which solver, part and seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Run {
    solver: usize,
    part: usize,
    seed: usize,
}

impl Run {
    /// Per round, per solver, the parts in order, each with the round's seed (from 1).
    /// The part that most games reaching the target fit runs twice, with two seeds, so
    /// that two threads race on it: without passes, or with `odd_passes` (where no game
    /// without passes reaches it) a single pass before the last move; there the part
    /// without passes before the last moves runs twice too, so that after the
    /// single-pass part is refuted (the pass lies elsewhere) both threads race on it.
    fn of(k: usize, solvers: usize, odd_passes: bool) -> Run {
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

    /// The run [`Options::whole_first`] opens with: the schedule's first run of the whole
    /// question that may answer (by a solver that proves UNSAT, or by any where its word
    /// is trusted), so that the schedule skips it.
    fn opening(solvers: &[SatSolver], odd_passes: bool, proof_needed: bool) -> Option<Run> {
        (0..solvers.len() * Run::slots(odd_passes).len())
            .map(|k| Run::of(k, solvers.len(), odd_passes))
            .find(|run| {
                run.part == PARTS - 1 && (!proof_needed || solvers[run.solver].writes_proof())
            })
    }

    /// One solver's runs in a round: (part, runs of that part per round).
    fn slots(odd_passes: bool) -> &'static [(usize, usize)] {
        if odd_passes {
            &[(1, 2), (1, 2), (2, 2), (2, 2), (3, 1)]
        } else {
            &[(0, 2), (0, 2), (2, 1), (3, 1)]
        }
    }
}

/// What a checked proof adds to a certificate, and where it was kept.
type Certified = Option<(String, Option<PathBuf>)>;

/// Checks varisat's proof of the question; with `keep`, writes KEEP.cnf and KEEP.varisat.
fn certify_varisat(
    target: &Target,
    proof: &[u8],
    keep: Option<&Path>,
) -> Result<Certified, String> {
    let start = Instant::now();
    satgen::proof::check(&target.formula, proof)?;
    let words = format!(
        "varisat proof of {} bytes checked in {:.2} s",
        proof.len(),
        start.elapsed().as_secs_f64()
    );
    let Some(keep) = keep else {
        return Ok(Some((words, None)));
    };
    let (cnf, kept) = (keep.with_extension("cnf"), keep.with_extension("varisat"));
    let failed = |path: &Path, e: std::io::Error| format!("{}: {e}", path.display());
    let mut file =
        std::io::BufWriter::new(std::fs::File::create(&cnf).map_err(|e| failed(&cnf, e))?);
    satgen::dimacs::write_target(&mut file, target)
        .and_then(|()| std::io::Write::flush(&mut file))
        .map_err(|e| failed(&cnf, e))?;
    std::fs::write(&kept, proof).map_err(|e| failed(&kept, e))?;
    Ok(Some((words, Some(kept))))
}

/// Checks the LRAT proof the solver left beside the CNF; with `keep`, moves both to
/// KEEP.cnf and KEEP.lrat.
fn certify_lrat(
    cnf: &Path,
    proof: &Path,
    keep: Option<&Path>,
    checker: satgen::proof::Checker,
) -> Result<Certified, String> {
    let start = Instant::now();
    let checked = satgen::proof::check_files(cnf, proof, checker)?;
    let bytes = std::fs::metadata(proof)
        .map(|m| m.len())
        .unwrap_or_default();
    let by = match checker {
        // As the certificates said before the checker could be chosen.
        satgen::proof::Checker::Builtin => String::new(),
        _ => format!(" by {}", checked.by),
    };
    let words = format!(
        "LRAT proof of {bytes} bytes checked{by} in {:.2} s",
        start.elapsed().as_secs_f64()
    );
    let Some(keep) = keep else {
        return Ok(Some((words, None)));
    };
    let kept = keep.with_extension("lrat");
    for (from, to) in [(cnf, keep.with_extension("cnf")), (proof, kept.clone())] {
        // A rename where the scratch directory shares the file system, else a copy.
        if std::fs::rename(from, &to).is_err() {
            std::fs::copy(from, &to).map_err(|e| format!("{}: {e}", to.display()))?;
        }
    }
    Ok(Some((words, Some(kept))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slow_reading_of_processor_time_postpones_the_next_by_a_bounded_wait() {
        let ms = Duration::from_millis;
        assert_eq!(next_cpu_read_in(ms(1)), CPU_READ_EVERY);
        assert_eq!(next_cpu_read_in(ms(10)), ms(200));
        // A reading during which the process was stopped for 20 minutes.
        assert_eq!(
            next_cpu_read_in(Duration::from_secs(1200)),
            CPU_READ_AT_MOST
        );
    }

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

    #[test]
    fn kissat_and_cadical_get_seeds_alone_the_race_options_others_run_as_given() {
        let kissat = SatSolver::external("/usr/local/bin/kissat");
        for whole in [false, true] {
            assert_eq!(
                kissat.command(3, whole).as_deref(),
                Some("/usr/local/bin/kissat --probe=false -q --seed=3")
            );
        }
        // Options of the user's own replace the race's.
        let kissat = SatSolver::external("kissat --probe=true");
        assert_eq!(
            kissat.command(2, false).as_deref(),
            Some("kissat --probe=true -q --seed=2")
        );
        // CaDiCaL's configuration for UNSAT on the whole question only.
        let cadical = SatSolver::external("cadical");
        assert_eq!(
            cadical.command(1, false).as_deref(),
            Some("cadical -q --seed=1")
        );
        assert_eq!(
            cadical.command(2, true).as_deref(),
            Some("cadical --unsat --congruence=false --sweep=false -q --seed=2")
        );
        let cadical = SatSolver::external("/opt/bin/cadical --sat");
        assert_eq!(
            cadical.command(1, true).as_deref(),
            Some("/opt/bin/cadical --sat -q --seed=1")
        );
        let other = SatSolver::external("minisat-wrapper --x");
        assert_eq!(
            other.command(2, true).as_deref(),
            Some("minisat-wrapper --x")
        );
        assert_eq!(SatSolver::Varisat.command(1, true), None);
        assert_eq!(SatSolver::Varisat.name(), "varisat");
    }
}
