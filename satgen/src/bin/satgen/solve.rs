//! `satgen solve`: a question built and solved (in process or by an external solver, whole
//! or by cubes of ply), its model replayed and its UNSAT proof checked.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

use engine::cli::{self, Failure};
use rayon::prelude::*;
use satgen::solve::{Embedded, Outcome};
use satgen::{decode, decode_target, dimacs, encode, encode_target, Cube, Question, SideFilter};

use crate::question::{Asked, QuestionArgs};

/// Which solver answers, and whether its UNSAT answers must come with checked proofs.
#[derive(clap::Args)]
pub(crate) struct SolverArgs {
    /// The solver linked in: varisat, or cadical / kissat when built with the cargo
    /// feature of that name.
    #[arg(long, value_enum, default_value_t = Embedded::Varisat, conflicts_with = "solver_cmd")]
    solver: Embedded,
    /// An external DIMACS solver command (e.g. "cadical"), given the CNF file as its last
    /// argument and expected to print s/v lines; default: the embedded varisat.
    #[arg(long)]
    solver_cmd: Option<String>,
    /// Certify every UNSAT: the CNF and the solver's proof of each UNSAT question (or
    /// cube) are written to this directory (NAME.cnf with NAME.lrat from an external
    /// CaDiCaL 1.9 or later, NAME.varisat from the embedded varisat) and checked before
    /// the answer is given (`satgen check-proof` checks them again). Kissat writes no
    /// proof that satgen checks.
    #[arg(long, value_name = "DIR")]
    proof: Option<PathBuf>,
    #[command(flatten)]
    checker: satgen::proof::CheckerArgs,
}

#[derive(clap::Args)]
#[command(after_long_help = "--json: One JSON object.")]
pub(crate) struct Args {
    #[command(flatten)]
    question: QuestionArgs,
    #[command(flatten)]
    solving: SolverArgs,
    /// Split the question into its cubes by ply (`satgen cubes --by-ply`) and solve them
    /// side by side, in that order: the first SAT cube answers (the others are stopped),
    /// UNSAT when every cube is.
    #[arg(long)]
    by_ply: bool,
    #[command(flatten)]
    threads: cli::ThreadArgs,
    #[command(flatten)]
    output: cli::OutputArgs,
}

/// What a question or a cube came to, written as its JSON and text say it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub(crate) enum Verdict {
    /// A model, decoded and replayed.
    #[serde(rename = "SAT")]
    Sat,
    #[serde(rename = "UNSAT")]
    Unsat,
    /// The whole question unanswered (Ctrl-C or SIGTERM).
    #[serde(rename = "UNKNOWN")]
    Unknown,
    /// A cube left when another answered first, or at an interrupt.
    #[serde(rename = "stopped")]
    Stopped,
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Verdict::Sat => "SAT",
            Verdict::Unsat => "UNSAT",
            Verdict::Unknown => "UNKNOWN",
            Verdict::Stopped => "stopped",
        })
    }
}

#[derive(serde::Serialize)]
pub(crate) struct Answer {
    result: Verdict,
    moves: Option<String>,
    ply: Option<usize>,
    mobility: Option<u32>,
    variables: Option<u32>,
    clauses: Option<usize>,
    seconds: f64,
    /// With --by-ply: each cube started, in the order they finished.
    #[serde(skip_serializing_if = "Option::is_none")]
    cubes: Option<Vec<CubeReport>>,
    /// With --by-ply: the cubes of the question, started or not (an answer stops the
    /// rest).
    #[serde(skip_serializing_if = "Option::is_none")]
    cubes_in_all: Option<usize>,
    /// With --proof: the checked proof of the UNSAT.
    #[serde(flatten)]
    proof: Option<ProofReport>,
}

impl Answer {
    /// `result` alone, after the time since `start`: no game, sizes, cubes or proof.
    fn bare(result: Verdict, start: Instant) -> Answer {
        Answer {
            result,
            moves: None,
            ply: None,
            mobility: None,
            variables: None,
            clauses: None,
            seconds: start.elapsed().as_secs_f64(),
            cubes: None,
            cubes_in_all: None,
            proof: None,
        }
    }
}

/// What `--proof DIR` left for one UNSAT question: its files and their check.
#[derive(Clone, serde::Serialize)]
pub(crate) struct ProofReport {
    cnf: String,
    pub proof: String,
    proof_format: satgen::proof::Format,
    /// Who accepted the proof (`--checker`).
    checked_by: &'static str,
    proof_bytes: u64,
    check_seconds: f64,
}

#[derive(Clone, serde::Serialize)]
struct CubeReport {
    ply: usize,
    /// SAT, UNSAT, or stopped (another cube answered first, or Ctrl-C).
    result: Verdict,
    variables: u32,
    clauses: usize,
    seconds: f64,
    /// For an UNSAT cube: whether its proof was checked (false: the solver's word).
    #[serde(skip_serializing_if = "Option::is_none")]
    proof_checked: Option<bool>,
    /// With --proof, an UNSAT cube's checked proof.
    #[serde(flatten)]
    proof: Option<ProofReport>,
}

impl Answer {
    /// For an UNSAT: whether checked proofs stand behind it (its own, or every UNSAT
    /// cube's); `false` is the solver's word (no `--proof`, or a solver output decoded).
    /// `None` for the other answers.
    fn proof_checked(&self) -> Option<bool> {
        let cubes_checked = self.cubes.as_ref().is_some_and(|cubes| {
            let mut unsat = cubes
                .iter()
                .filter(|c| c.result == Verdict::Unsat)
                .peekable();
            unsat.peek().is_some() && unsat.all(|c| c.proof.is_some())
        });
        (self.result == Verdict::Unsat).then_some(self.proof.is_some() || cubes_checked)
    }
}

/// The answer as a table or JSON; an UNSAT that no checked proof stands behind says so
/// ("UNSAT (unchecked)", `"proof_checked": false`).
pub(crate) fn print(answer: &Answer, json: bool, out: &mut impl Write) -> Result<(), Failure> {
    let checked = answer.proof_checked();
    if json {
        let mut value = serde_json::to_value(answer).expect("an answer serialises");
        if let Some(checked) = checked {
            value["proof_checked"] = checked.into();
        }
        return cli::write_json(out, &value);
    }
    match checked {
        Some(false) => writeln!(out, "{} (unchecked)", answer.result)?,
        _ => writeln!(out, "{}", answer.result)?,
    }
    match (&answer.moves, answer.ply, answer.mobility) {
        (Some(moves), Some(ply), Some(mobility)) => {
            writeln!(out, "mobility {mobility} at ply {ply} after {moves}")?
        }
        (Some(moves), Some(ply), None) => writeln!(out, "reached after {ply} plies: {moves}")?,
        _ => {}
    }
    if let (Some(v), Some(c)) = (answer.variables, answer.clauses) {
        writeln!(out, "{v} variables, {c} clauses")?;
    }
    if let Some(cubes) = &answer.cubes {
        let count = |result| cubes.iter().filter(|c| c.result == result).count();
        write!(
            out,
            "{} of {} cubes by ply run: {} SAT, {} UNSAT, {} stopped",
            cubes.len(),
            answer.cubes_in_all.unwrap_or(cubes.len()),
            count(Verdict::Sat),
            count(Verdict::Unsat),
            count(Verdict::Stopped)
        )?;
        if let Some(slowest) = cubes.iter().max_by(|a, b| a.seconds.total_cmp(&b.seconds)) {
            write!(
                out,
                "; slowest: ply {} in {:.1} s",
                slowest.ply, slowest.seconds
            )?;
        }
        writeln!(out)?;
        let proofs: Vec<&ProofReport> = cubes.iter().filter_map(|c| c.proof.as_ref()).collect();
        if !proofs.is_empty() {
            writeln!(
                out,
                "{} proofs checked ({:.1} MB in all), checking took {:.1} s in all",
                proofs.len(),
                proofs.iter().map(|p| p.proof_bytes).sum::<u64>() as f64 / 1e6,
                proofs.iter().map(|p| p.check_seconds).sum::<f64>()
            )?;
        }
    }
    if let Some(p) = &answer.proof {
        writeln!(
            out,
            "proof {} ({:?}, {:.1} MB) of {} checked by {} in {:.1} s",
            p.proof,
            p.proof_format,
            p.proof_bytes as f64 / 1e6,
            p.cnf,
            p.checked_by,
            p.check_seconds
        )?;
    }
    writeln!(out, "{:.3} s", answer.seconds)?;
    Ok(())
}

/// UNSAT, or the game `model` decodes to; a model that does not replay to the mobility
/// asked is never trusted (exit 1).
pub(crate) fn answer(
    layout: &satgen::Layout,
    model: Option<Vec<bool>>,
    wanted: u32,
    side: SideFilter,
    start: Instant,
) -> Result<Answer, Failure> {
    let game = match model {
        Some(model) => Some(
            decode(layout, &model, wanted, side)
                .map_err(|e| Failure::Invalid(format!("model rejected: {e}")))?,
        ),
        None => None,
    };
    let result = if game.is_some() {
        Verdict::Sat
    } else {
        Verdict::Unsat
    };
    Ok(Answer {
        moves: game.as_ref().map(|g| engine::game::format_moves(&g.moves)),
        ply: game.as_ref().map(|g| g.ply),
        mobility: game.as_ref().map(|g| g.mobility),
        ..Answer::bare(result, start)
    })
}

/// Solves `formula` with the solver chosen (linked in, or external on what `dimacs`
/// writes), until `stop`; with `--proof DIR`, an UNSAT leaves NAME.cnf and its proof in
/// DIR, checked here (a proof that fails is an error, exit 1).
pub(crate) fn run_solver(
    args: &SolverArgs,
    formula: &satgen::formula::Formula,
    dimacs: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    name: &str,
    stop: impl Fn() -> bool + Sync,
) -> Result<(Outcome, Option<ProofReport>), Failure> {
    let Some(dir) = &args.proof else {
        let outcome = match &args.solver_cmd {
            None => satgen::solve::embedded(args.solver, formula, stop),
            Some(command) => satgen::solve::external(command, dimacs, stop),
        };
        return Ok((outcome.map_err(Failure::input)?, None));
    };
    let cnf = dir.join(format!("{name}.cnf"));
    let written =
        |path: &std::path::Path, e: io::Error| Failure::Input(format!("{}: {e}", path.display()));
    let (outcome, proof) = match &args.solver_cmd {
        Some(command) => {
            let proof = dir.join(format!("{name}.lrat"));
            let outcome = satgen::solve::external_lrat(command, dimacs, &cnf, &proof, stop)
                .map_err(Failure::input)?;
            (outcome, proof)
        }
        None => {
            let proof = dir.join(format!("{name}.varisat"));
            let (outcome, bytes) =
                satgen::solve::varisat_with_proof(formula, stop).map_err(Failure::input)?;
            if let Some(bytes) = bytes {
                let mut writer =
                    BufWriter::new(std::fs::File::create(&cnf).map_err(|e| written(&cnf, e))?);
                dimacs(&mut writer)
                    .and_then(|()| writer.flush())
                    .map_err(|e| written(&cnf, e))?;
                std::fs::write(&proof, bytes).map_err(|e| written(&proof, e))?;
            }
            (outcome, proof)
        }
    };
    if outcome != Outcome::Unsat {
        // Only an UNSAT has a proof to keep (CaDiCaL leaves a partial one otherwise).
        let _ = std::fs::remove_file(&cnf);
        let _ = std::fs::remove_file(&proof);
        return Ok((outcome, None));
    }
    let start = Instant::now();
    let checked = satgen::proof::check_files(&cnf, &proof, args.checker.checker).map_err(|e| {
        Failure::Invalid(format!(
            "{}: the solver's proof is rejected: {e}",
            proof.display()
        ))
    })?;
    let proof_bytes = std::fs::metadata(&proof)
        .map_err(|e| written(&proof, e))?
        .len();
    Ok((
        outcome,
        Some(ProofReport {
            cnf: cnf.display().to_string(),
            proof: proof.display().to_string(),
            proof_format: checked.format,
            checked_by: checked.by,
            proof_bytes,
            check_seconds: start.elapsed().as_secs_f64(),
        }),
    ))
}

/// With `--proof DIR`: the directory made, and the solver able to write a proof satgen
/// checks.
pub(crate) fn prepare_proofs(args: &SolverArgs) -> Result<(), Failure> {
    args.checker.checker()?;
    let Some(dir) = &args.proof else {
        return Ok(());
    };
    match &args.solver_cmd {
        Some(command) => satgen::solve::lrat_solver(command).map_err(Failure::input)?,
        None if args.solver != Embedded::Varisat => {
            return Err(Failure::Input(
                "--proof needs the embedded varisat or an external CaDiCaL (--solver-cmd cadical)"
                    .into(),
            ))
        }
        None => {}
    }
    std::fs::create_dir_all(dir).map_err(|e| Failure::Input(format!("{}: {e}", dir.display())))
}

/// The DIMACS writer of a mobility question, for [`run_solver`].
pub(crate) fn mobility_dimacs<'a>(
    q: &'a Question,
    encoded: &'a satgen::Encoded,
) -> impl FnOnce(&mut dyn Write) -> io::Result<()> + 'a {
    move |mut out| dimacs::write(&mut out, q, encoded, &[])
}

pub(crate) fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let start = Instant::now();
    prepare_proofs(&args.solving)?;
    let q = match args.question.asked()? {
        Asked::Mobility(q) => q,
        Asked::Target(position, cube) => return solve_target(args, &position, cube, start, out),
    };
    if args.by_ply {
        return solve_by_ply(args, &q, start, out);
    }
    let encoded = encode(&q);
    let interrupt = cli::interrupt_flag();
    let progress = solving(&encoded.formula);
    let (outcome, proof) = run_solver(
        &args.solving,
        &encoded.formula,
        mobility_dimacs(&q, &encoded),
        "question",
        || interrupt.load(Relaxed),
    )?;
    progress.finish_and_clear();
    let model = match outcome {
        Outcome::Sat(model) => Some(model),
        Outcome::Unsat => None,
        Outcome::Stopped => return stopped(&encoded.formula, start, args.output.json, out),
    };
    let mut answer = answer(&encoded.layout, model, q.mobility as u32, q.side, start)?;
    answer.proof = proof;
    answer.variables = Some(encoded.formula.variables());
    answer.clauses = Some(encoded.formula.clauses());
    answer.seconds = start.elapsed().as_secs_f64();
    print(&answer, args.output.json, out)
}

/// The spinner of one question being solved (and its proof checked).
fn solving(formula: &satgen::formula::Formula) -> cli::ProgressBar {
    cli::spinner(format!(
        "solving {} variables, {} clauses",
        formula.variables(),
        formula.clauses()
    ))
}

/// After Ctrl-C or SIGTERM: the answer UNKNOWN with the formula's size and the time spent,
/// then the interrupt's exit status.
fn stopped(
    formula: &satgen::formula::Formula,
    start: Instant,
    json: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let answer = Answer {
        variables: Some(formula.variables()),
        clauses: Some(formula.clauses()),
        ..Answer::bare(Verdict::Unknown, start)
    };
    print(&answer, json, out)?;
    Err(Failure::Interrupted)
}

/// Whether a legal game reaches `position`: SAT with the game (decoded, replayed to exactly
/// the position), or UNSAT.
fn solve_target(
    args: &Args,
    position: &engine::Position,
    cube: Cube,
    start: Instant,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let question = encode_target(position, cube);
    let interrupt = cli::interrupt_flag();
    let stop = || interrupt.load(Relaxed);
    let progress = solving(&question.formula);
    let (outcome, proof) = run_solver(
        &args.solving,
        &question.formula,
        |mut out| dimacs::write_target(&mut out, &question),
        "target",
        stop,
    )?;
    progress.finish_and_clear();
    if let Outcome::Stopped = outcome {
        return stopped(&question.formula, start, args.output.json, out);
    }
    let answer = target_answer(&question.layout, outcome, start)?;
    let answer = Answer {
        variables: Some(question.formula.variables()),
        clauses: Some(question.formula.clauses()),
        proof,
        ..answer
    };
    print(&answer, args.output.json, out)
}

/// UNSAT, or the game a model of a reachability question decodes to (never trusted: a
/// model that does not replay to the position is rejected, exit 1).
pub(crate) fn target_answer(
    layout: &satgen::target::TargetLayout,
    outcome: Outcome,
    start: Instant,
) -> Result<Answer, Failure> {
    let moves = match outcome {
        Outcome::Sat(model) => Some(
            decode_target(layout, &model)
                .map_err(|e| Failure::Invalid(format!("model rejected: {e}")))?,
        ),
        Outcome::Unsat => None,
        Outcome::Stopped => return Err(Failure::Interrupted),
    };
    let result = if moves.is_some() {
        Verdict::Sat
    } else {
        Verdict::Unsat
    };
    Ok(Answer {
        ply: moves.as_ref().map(Vec::len),
        moves: moves.as_deref().map(engine::game::format_moves),
        ..Answer::bare(result, start)
    })
}

/// The cubes by ply, several at once, each taken in order by the next free thread; the
/// first SAT cube's game (replayed) is the answer and stops the others.
fn solve_by_ply(
    args: &Args,
    q: &Question,
    start: Instant,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let cubes = satgen::cubes::by_ply(q);
    let interrupt = cli::interrupt_flag();
    let answered = AtomicBool::new(false);
    let stop = || answered.load(Relaxed) || interrupt.load(Relaxed);
    let next = AtomicUsize::new(0);
    let reports = Mutex::new(Vec::new());
    let found: Mutex<Option<Result<Answer, Failure>>> = Mutex::new(None);
    let progress = cli::progress_bar(cubes.len() as u64, "cubes");
    let pool = args.threads.pool()?;
    pool.install(|| {
        (0..rayon::current_num_threads())
            .into_par_iter()
            .for_each(|_| loop {
                let i = next.fetch_add(1, Relaxed);
                if i >= cubes.len() || stop() {
                    break;
                }
                let cube_start = Instant::now();
                let cube = &cubes[i];
                let encoded = encode(cube);
                let (outcome, proof) = match run_solver(
                    &args.solving,
                    &encoded.formula,
                    mobility_dimacs(cube, &encoded),
                    &format!("ply-{:02}", cube.plies),
                    stop,
                ) {
                    Ok((outcome, proof)) => (Ok(outcome), proof),
                    Err(e) => (Err(e), None),
                };
                let result = match &outcome {
                    Ok(Outcome::Sat(_)) => Verdict::Sat,
                    Ok(Outcome::Unsat) => Verdict::Unsat,
                    Ok(Outcome::Stopped) | Err(_) => Verdict::Stopped,
                };
                let check_seconds = proof.as_ref().map_or(0.0, |p| p.check_seconds);
                let report = CubeReport {
                    ply: cube.plies,
                    result,
                    variables: encoded.formula.variables(),
                    clauses: encoded.formula.clauses(),
                    // The solver's time; the proof's check is counted apart.
                    seconds: cube_start.elapsed().as_secs_f64() - check_seconds,
                    proof_checked: (result == Verdict::Unsat).then_some(proof.is_some()),
                    proof,
                };
                progress.suspend(|| {
                    let checked = report.proof.as_ref().map_or(String::new(), |p| {
                        format!(", proof checked in {:.1} s", p.check_seconds)
                    });
                    eprintln!(
                        "satgen: ply {}: {} in {:.1} s{checked}",
                        report.ply, report.result, report.seconds
                    )
                });
                progress.inc(1);
                reports.lock().expect("no panics").push(report);
                let settled = match outcome {
                    Ok(Outcome::Sat(model)) => Some(answer(
                        &encoded.layout,
                        Some(model),
                        q.mobility as u32,
                        q.side,
                        start,
                    )),
                    Err(e) => Some(Err(e)),
                    Ok(_) => None,
                };
                if let Some(settled) = settled {
                    // The first answer (or failure) stands; the other cubes are stopped.
                    found.lock().expect("no panics").get_or_insert(settled);
                    answered.store(true, Relaxed);
                    break;
                }
            })
    });
    progress.finish_and_clear();
    let reports = reports.into_inner().expect("no panics");
    let mut answer = match found.into_inner().expect("no panics") {
        Some(settled) => settled?,
        // UNSAT only on every cube's word (an interrupt leaves some unsolved).
        None => Answer::bare(
            if reports.len() == cubes.len() && reports.iter().all(|r| r.result == Verdict::Unsat) {
                Verdict::Unsat
            } else {
                Verdict::Unknown
            },
            start,
        ),
    };
    answer.seconds = start.elapsed().as_secs_f64();
    answer.cubes = Some(reports);
    answer.cubes_in_all = Some(cubes.len());
    print(&answer, args.output.json, out)?;
    if answer.result == Verdict::Unknown {
        return Err(Failure::Interrupted);
    }
    Ok(())
}
