//! Solving a question in process (varisat always; CaDiCaL and Kissat through rustsat's
//! bindings when built with the cargo features `cadical`, `kissat`) or with an external
//! DIMACS solver run on a file (CaDiCaL writing an LRAT proof when asked); each can be
//! stopped midway (another cube answered, Ctrl-C): interrupted, killed, or for varisat
//! abandoned on its thread.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use varisat::ExtendFormula;

use crate::formula::Formula;

/// Why a solver gave no answer (an answer may be UNSAT or stopped: see [`Outcome`]).
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// An embedded solver this build does not link.
    #[error("this satgen was built without {0}: cargo build --release -p satgen --features {0}")]
    NotBuiltIn(&'static str),
    /// varisat's thread ended without an answer (a panic in it).
    #[error("varisat failed")]
    VarisatFailed,
    /// An embedded solver's own error (rustsat's).
    #[error("{0}")]
    Embedded(String),
    /// `--solver-cmd` names no program.
    #[error("empty --solver-cmd")]
    EmptyCommand,
    /// A checked proof asked of a solver that writes none satgen checks.
    #[error(
        "a checked proof needs the embedded varisat or CaDiCaL 1.9 or later (LRAT); {0} \
         (Kissat writes only DRAT, which satgen does not check; scripts/install-solvers.sh \
         builds CaDiCaL 2.2.1)"
    )]
    NoLrat(String),
    /// The external solver could not be started or waited for.
    #[error("cannot run {program:?}: {source}")]
    CannotRun {
        /// The program.
        program: String,
        /// Why.
        source: io::Error,
    },
    /// A file of the run could not be written or read back.
    #[error("{}: {source}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The CNF written does not read back.
    #[error("{0}")]
    Cnf(String),
    /// The external solver's output is no answer.
    #[error("{program} output: {problem}")]
    Output {
        /// The program.
        program: String,
        /// What is wrong with its output.
        problem: String,
    },
}

/// The error of a file `path` of the run.
fn file_error(path: &Path) -> impl FnOnce(io::Error) -> SolveError {
    let path = path.to_path_buf();
    move |source| SolveError::File { path, source }
}

/// A model (value per variable, index 0 = variable 1) or `None` if unsatisfiable.
pub fn varisat(formula: &Formula) -> Option<Vec<bool>> {
    run_varisat(formula, None)
}

/// varisat on `formula`, writing its proof (varisat's format) to `proof` when given: a
/// model (value per variable, index 0 = variable 1), or `None` if unsatisfiable.
pub(crate) fn run_varisat(formula: &Formula, proof: Option<&mut Vec<u8>>) -> Option<Vec<bool>> {
    let mut solver = varisat::Solver::new();
    let proving = proof.is_some();
    if let Some(proof) = proof {
        solver.write_proof(proof, varisat::ProofFormat::Varisat);
    }
    let mut clause = Vec::new();
    for c in formula.cnf.iter() {
        clause.clear();
        clause.extend(c.iter().map(|&l| to_varisat(l)));
        solver.add_clause(&clause);
    }
    if !solver
        .solve()
        .expect("varisat without proof output, or writing it to memory, does not fail")
    {
        if proving {
            solver.close_proof().expect("a proof in memory closes");
        }
        return None;
    }
    let mut values = vec![false; formula.variables() as usize];
    for l in solver.model().expect("a model after SAT") {
        if let Some(v) = values.get_mut(l.var().index()) {
            *v = l.is_positive();
        }
    }
    Some(values)
}

/// A literal of the formula as varisat writes it.
pub(crate) fn to_varisat(l: rustsat::types::Lit) -> varisat::Lit {
    varisat::Lit::from_dimacs(l.to_ipasir() as isize)
}

/// The solvers linked into satgen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Embedded {
    /// varisat, always linked in.
    Varisat,
    /// CaDiCaL by rustsat's bindings (cargo feature `cadical`).
    Cadical,
    /// Kissat by rustsat's bindings (cargo feature `kissat`).
    Kissat,
}

/// Solves the formula with an in-process solver until `stop`.
pub fn embedded(
    solver: Embedded,
    formula: &Formula,
    stop: impl Fn() -> bool + Sync,
) -> Result<Outcome, SolveError> {
    match solver {
        Embedded::Varisat => varisat_until(formula, stop),
        #[cfg(feature = "cadical")]
        Embedded::Cadical => with_rustsat(rustsat_cadical::CaDiCaL::default(), formula, stop),
        #[cfg(feature = "kissat")]
        Embedded::Kissat => with_rustsat(rustsat_kissat::Kissat::default(), formula, stop),
        #[cfg(not(feature = "cadical"))]
        Embedded::Cadical => Err(SolveError::NotBuiltIn("cadical")),
        #[cfg(not(feature = "kissat"))]
        Embedded::Kissat => Err(SolveError::NotBuiltIn("kissat")),
    }
}

/// varisat cannot be interrupted: it runs on a thread of its own, abandoned when `stop`
/// holds (it keeps its core until it finishes or the process ends, as `solve --by-ply`
/// does right after an answer).
fn varisat_until(formula: &Formula, stop: impl Fn() -> bool) -> Result<Outcome, SolveError> {
    let formula = formula.clone();
    Ok(
        on_thread(move || varisat(&formula), stop)?.map_or(Outcome::Stopped, |model| {
            model.map_or(Outcome::Unsat, Outcome::Sat)
        }),
    )
}

/// varisat writing its proof as it solves (see [`crate::proof`]): the outcome, and the
/// proof when it is UNSAT.
pub fn varisat_with_proof(
    formula: &Formula,
    stop: impl Fn() -> bool,
) -> Result<(Outcome, Option<Vec<u8>>), SolveError> {
    let formula = formula.clone();
    let solve = move || {
        let mut proof = Vec::new();
        let model = run_varisat(&formula, Some(&mut proof));
        (model, proof)
    };
    Ok(match on_thread(solve, stop)? {
        None => (Outcome::Stopped, None),
        Some((Some(model), _)) => (Outcome::Sat(model), None),
        Some((None, proof)) => (Outcome::Unsat, Some(proof)),
    })
}

/// Runs `job` on a thread of its own: its result, or `None` once `stop` holds first (the
/// thread is abandoned).
fn on_thread<T: Send + 'static>(
    job: impl FnOnce() -> T + Send + 'static,
    stop: impl Fn() -> bool,
) -> Result<Option<T>, SolveError> {
    use std::sync::mpsc::{channel, RecvTimeoutError};
    let (sender, receiver) = channel();
    std::thread::spawn(move || {
        let _ = sender.send(job());
    });
    loop {
        match receiver.recv_timeout(POLL) {
            Ok(result) => return Ok(Some(result)),
            Err(RecvTimeoutError::Timeout) if stop() => return Ok(None),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return Err(SolveError::VarisatFailed),
        }
    }
}

/// Runs a rustsat solver on the formula; a watcher thread interrupts it once `stop` holds.
#[cfg(any(feature = "cadical", feature = "kissat"))]
fn with_rustsat<S>(
    mut solver: S,
    formula: &Formula,
    stop: impl Fn() -> bool + Sync,
) -> Result<Outcome, SolveError>
where
    S: rustsat::solvers::Solve + rustsat::solvers::Interrupt,
{
    use rustsat::solvers::{InterruptSolver, SolverResult};
    use rustsat::types::{TernaryVal, Var};
    use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

    solver
        .add_cnf_ref(&formula.cnf)
        .map_err(|e| SolveError::Embedded(e.to_string()))?;
    let interrupter = solver.interrupter();
    let finished = AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !finished.load(Relaxed) {
                if stop() {
                    interrupter.interrupt();
                    break;
                }
                std::thread::sleep(POLL);
            }
        });
        let result = solver.solve();
        finished.store(true, Relaxed);
        result
    });
    match result.map_err(|e| SolveError::Embedded(e.to_string()))? {
        SolverResult::Unsat => Ok(Outcome::Unsat),
        SolverResult::Interrupted => Ok(Outcome::Stopped),
        SolverResult::Sat => {
            let variables = formula.variables();
            let mut model = vec![false; variables as usize];
            if variables > 0 {
                let solution = solver
                    .solution(Var::new(variables - 1))
                    .map_err(|e| SolveError::Embedded(e.to_string()))?;
                for (i, value) in model.iter_mut().enumerate() {
                    *value = solution.var_value(Var::new(i as u32)) == TernaryVal::True;
                }
            }
            Ok(Outcome::Sat(model))
        }
    }
}

/// What a solver run came to.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A model (unchecked: decode it).
    Sat(Vec<bool>),
    /// No model.
    Unsat,
    /// Stopped from outside before the solver answered (an external solver is killed).
    Stopped,
}

/// How often a running solver is checked for an answer and the stop condition.
const POLL: Duration = Duration::from_millis(20);

/// Runs `command` (a program and its arguments; the CNF file is appended) on the question
/// that `dimacs` writes (`dimacs::write` or `dimacs::write_target`), in a temporary file.
pub fn external(
    command: &str,
    dimacs: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
    stop: impl Fn() -> bool,
) -> Result<Outcome, SolveError> {
    let dir = tempfile::tempdir().map_err(file_error(&std::env::temp_dir()))?;
    run_external(
        command,
        dimacs,
        &dir.path().join("question.cnf"),
        None,
        stop,
    )
}

/// As [`external`] with a solver that writes LRAT (CaDiCaL 1.9 or later, see
/// [`lrat_solver`]): the CNF is written to `cnf` and the solver's proof to `proof`, both
/// kept for [`crate::lrat::check`] (after an UNSAT; otherwise the proof is partial).
pub fn external_lrat(
    command: &str,
    dimacs: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
    cnf: &Path,
    proof: &Path,
    stop: impl Fn() -> bool,
) -> Result<Outcome, SolveError> {
    run_external(command, dimacs, cnf, Some(proof), stop)
}

/// Whether `command` is a CaDiCaL that writes LRAT (`--lrat`, from version 1.9): `Ok`, or
/// why not. Kissat writes DRAT only, which satgen does not check.
pub fn lrat_solver(command: &str) -> Result<(), SolveError> {
    let program = command
        .split_whitespace()
        .next()
        .ok_or(SolveError::EmptyCommand)?;
    // Only CaDiCaL is asked its version: another program is not run for nothing.
    let is_cadical = Path::new(program)
        .file_name()
        .is_some_and(|name| name.to_string_lossy().contains("cadical"));
    if !is_cadical {
        return Err(SolveError::NoLrat(format!("{program} is not CaDiCaL")));
    }
    let version = Command::new(program)
        .arg("--version")
        .output()
        .map_err(|source| SolveError::CannotRun {
            program: program.into(),
            source,
        })?;
    let version = String::from_utf8_lossy(&version.stdout).trim().to_string();
    let numbers: Vec<u32> = version
        .split('.')
        .map_while(|part| part.parse().ok())
        .collect();
    if numbers.len() >= 2 && (numbers[0], numbers[1]) >= (1, 9) {
        Ok(())
    } else {
        Err(SolveError::NoLrat(format!(
            "{program} says its version is {version:?}"
        )))
    }
}

/// Runs the solver on the question written to `cnf`; with `proof`, CaDiCaL's `--lrat`
/// and the proof file after the CNF. The solver writes to a file, not a pipe: a model is
/// larger than a pipe's buffer and the solver must not block on it while `stop` is polled.
fn run_external(
    command: &str,
    dimacs: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
    cnf: &Path,
    proof: Option<&Path>,
    stop: impl Fn() -> bool,
) -> Result<Outcome, SolveError> {
    let mut words = command.split_whitespace();
    let program = words.next().ok_or(SolveError::EmptyCommand)?;
    let cannot_run = |source| SolveError::CannotRun {
        program: program.into(),
        source,
    };
    let write = || -> std::io::Result<()> {
        let mut writer = BufWriter::new(std::fs::File::create(cnf)?);
        dimacs(&mut writer)?;
        writer.flush()
    };
    write().map_err(file_error(cnf))?;
    let output = tempfile::NamedTempFile::new().map_err(file_error(&std::env::temp_dir()))?;
    let out_file = output.reopen().map_err(file_error(output.path()))?;
    let mut command = Command::new(program);
    command.args(words);
    if proof.is_some() {
        command.arg("--lrat=true");
    }
    command
        .arg(cnf)
        .args(proof)
        .stdout(out_file)
        .stderr(Stdio::null());
    // A process group of its own, so that stopping it stops what it started too (a
    // wrapper such as `timeout 3600 kissat`); Ctrl-C reaches it through `stop`.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command.spawn().map_err(cannot_run)?;
    loop {
        if child.try_wait().map_err(cannot_run)?.is_some() {
            break;
        }
        if stop() {
            #[cfg(unix)]
            // SAFETY: kill(2) has no memory effects; the group is the child's own (its pid).
            unsafe {
                libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL);
            }
            let _ = child.kill();
            let _ = child.wait();
            return Ok(Outcome::Stopped);
        }
        std::thread::sleep(POLL);
    }
    let open = |path: &Path| {
        std::fs::File::open(path)
            .map(std::io::BufReader::new)
            .map_err(file_error(path))
    };
    let header =
        crate::dimacs::read_header(open(cnf)?).map_err(|e| SolveError::Cnf(e.located(cnf)))?;
    let model = crate::dimacs::read_model_from(open(output.path())?, header.variables);
    let output_error = |e: crate::dimacs::FormatError| SolveError::Output {
        program: program.into(),
        problem: e.to_string(),
    };
    match model.map_err(output_error)? {
        Some(model) => Ok(Outcome::Sat(model)),
        None => Ok(Outcome::Unsat),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::{encode, Encoded, Encoding, Question, SideFilter};
    use std::time::Instant;

    fn small() -> (Question, Encoded) {
        let q = Question {
            plies: 2,
            mobility: 3,
            side: SideFilter::Any,
            symmetry_break: true,
            encoding: Encoding::Rays,
            exact_ply: false,
        };
        let encoded = encode(&q);
        (q, encoded)
    }

    /// A stand-in solver: a shell script printing `text` whatever the CNF.
    fn script(dir: &std::path::Path, name: &str, text: &str) -> String {
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\nprintf '{text}'\n")).unwrap();
        format!("sh {}", path.display())
    }

    #[test]
    fn external_verdicts_stops_and_failures() {
        let (q, encoded) = small();
        let external = |command: &str, stop: fn() -> bool| {
            external(
                command,
                |mut out| crate::dimacs::write(&mut out, &q, &encoded, &[]),
                stop,
            )
        };
        let dir = tempfile::tempdir().unwrap();
        let unsat = script(dir.path(), "unsat.sh", "s UNSATISFIABLE\\n");
        assert_eq!(external(&unsat, || false).unwrap(), Outcome::Unsat);
        let sat = script(dir.path(), "sat.sh", "s SATISFIABLE\\nv 1 -2 3 0\\n");
        assert_eq!(
            external(&sat, || false).unwrap(),
            Outcome::Sat(vec![true, false, true])
        );
        let garbage = script(dir.path(), "garbage.sh", "s MAYBE\\n");
        assert!(matches!(
            external(&garbage, || false),
            Err(SolveError::Output { .. })
        ));
        assert!(matches!(
            external("/no/such/solver", || false),
            Err(SolveError::CannotRun { .. })
        ));
        // A solver that would run for a minute is killed as soon as it is stopped.
        let slow = dir.path().join("slow.sh");
        std::fs::write(&slow, "#!/bin/sh\nsleep 60\n").unwrap();
        let slow = format!("sh {}", slow.display());
        let start = Instant::now();
        assert_eq!(external(&slow, || true).unwrap(), Outcome::Stopped);
        assert!(start.elapsed() < Duration::from_secs(30));
    }

    /// `solver` on N = 30 over 42 plies (minutes of work), stopped after 0.2 s.
    fn assert_stops(solver: Embedded) {
        let q = Question {
            plies: 42,
            mobility: 30,
            ..small().0
        };
        let encoded = encode(&q);
        let start = Instant::now();
        let stop = || start.elapsed() > Duration::from_millis(200);
        assert_eq!(
            embedded(solver, &encoded.formula, stop).unwrap(),
            Outcome::Stopped
        );
        assert!(start.elapsed() < Duration::from_secs(10));
    }

    /// varisat, which has no interrupt, is abandoned on its thread when stopped.
    #[test]
    fn varisat_is_abandoned_when_stopped() {
        assert_stops(Embedded::Varisat);
        let (q, encoded) = small();
        let model = embedded(Embedded::Varisat, &encoded.formula, || false);
        assert!(matches!(model, Ok(Outcome::Sat(_))), "{q:?}");
    }

    /// The linked-in solver (built with `--features cadical` or `kissat`) finds the
    /// brute-force boundary at 4 plies as varisat does, and is interrupted when stopped.
    #[cfg(any(feature = "cadical", feature = "kissat"))]
    #[test]
    fn linked_solver_answers_and_stops() {
        let solver = if cfg!(feature = "cadical") {
            Embedded::Cadical
        } else {
            Embedded::Kissat
        };
        let most = engine::reference::max_mobility(&engine::Board::START, 4) as usize;
        for (mobility, sat) in [(most, true), (most + 1, false)] {
            let q = Question {
                plies: 4,
                mobility,
                ..small().0
            };
            let encoded = encode(&q);
            match embedded(solver, &encoded.formula, || false).unwrap() {
                Outcome::Sat(model) => {
                    assert!(sat);
                    let game =
                        crate::decode(&encoded.layout, &model, mobility as u32, SideFilter::Any)
                            .unwrap();
                    assert_eq!(game.mobility as usize, most);
                }
                outcome => assert_eq!((outcome, sat), (Outcome::Unsat, false)),
            }
        }
        assert_stops(solver);
    }
}
