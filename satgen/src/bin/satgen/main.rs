//! `satgen`: CNF for "a legal game reaching N legal moves", solved inside or outside,
//! models decoded and replayed.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

mod curve;

use clap::{Parser, Subcommand};
use engine::cli::{self, Failure};
use rayon::prelude::*;
use satgen::solve::{Embedded, Outcome};
use satgen::{
    decode, decode_target, dimacs, encode, encode_target, Cube, Encoding, Question, SideFilter,
};

#[derive(Parser)]
#[command(
    name = "satgen",
    version,
    arg_required_else_help = true,
    about = "SAT encodings of Othello maximum-mobility reachability"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write the CNF in DIMACS.
    Emit(EmitArgs),
    /// Build and solve: SAT with a replayed game, or UNSAT.
    Solve(SolveArgs),
    /// Turn a solver's model of an emitted CNF into a game, replayed by the core.
    Decode(DecodeArgs),
    /// Split the question by the first plies into independent CNFs and a manifest.
    Cubes(CubesArgs),
    /// The maximum-mobility curve: for each ply, the most legal moves after exactly that
    /// many plies, with a witness game and the UNSAT (and proof) of one more.
    Curve(curve::Args),
    /// Draw the curve from the JSON Lines of `satgen curve --json` (SVG).
    CurvePlot(curve::PlotArgs),
    /// Check a proof of unsatisfiability against its CNF: LRAT (CaDiCaL's, text or binary)
    /// or varisat's format (`retro check --proof`), told apart by content: VERIFIED, or the
    /// first step that fails (exit 1).
    CheckProof(CheckProofArgs),
    /// Shell completions (bash, zsh, fish, elvish, powershell) on standard output.
    Completions(cli::CompletionsArgs),
    /// Man pages of this tool and each of its commands, written into a directory.
    Manual(cli::ManualArgs),
}

#[derive(clap::Args)]
struct CheckProofArgs {
    /// The CNF (DIMACS).
    cnf: PathBuf,
    /// The proof (LRAT or varisat's format).
    proof: PathBuf,
}

#[derive(clap::Args)]
struct CubesArgs {
    #[command(flatten)]
    question: QuestionArgs,
    /// Plies fixed per cube: one cube per sequence of first moves.
    /// (With --target: one cube per first move, whatever the depth.)
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=8),
          required_unless_present_any = ["by_ply", "target"])]
    depth: Option<u32>,
    /// One cube per ply P up to --plies instead: the position after exactly P plies has
    /// the moves (see --exact-ply). Listed from the last ply that leaves N empty squares
    /// without a pass down, then the plies that need passes.
    #[arg(long, conflicts_with = "depth")]
    by_ply: bool,
    /// Directory for the cube CNFs and manifest.txt (one line per cube: number, moves
    /// fixed or ply=P, CNF file, and the file for its proof, as in `cadical --lrat=true
    /// CNF PROOF`), e.g. for `parallel` or a Slurm array; `satgen decode` works on each
    /// cube's model, `satgen check-proof` on its proof.
    #[arg(short, long)]
    output: PathBuf,
}

fn cubes(args: &CubesArgs) -> Result<(), Failure> {
    let dir = &args.output;
    std::fs::create_dir_all(dir).map_err(|e| Failure::Input(format!("{}: {e}", dir.display())))?;
    // Cubes of an earlier run beside the new manifest would be solved as if they were
    // part of this question (or left out of it): refuse, never mix.
    let earlier = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .filter(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            name == "manifest.txt" || name.starts_with("cube-")
        })
        .count();
    if earlier > 0 {
        return Err(Failure::Input(format!(
            "{}: holds {earlier} files of earlier cubes (manifest.txt, cube-*): remove them or choose another directory",
            dir.display()
        )));
    }
    let q = match args.question.asked()? {
        Asked::Mobility(q) => q,
        Asked::Target(position, cube) => return target_cubes(&position, cube, dir),
    };
    let mut manifest = String::new();
    let count = match args.depth {
        Some(depth) => {
            if depth as usize > q.plies {
                return Err(Failure::Input(format!(
                    "--depth {depth} exceeds --plies {}",
                    q.plies
                )));
            }
            let encoded = encode(&q);
            let cubes = satgen::cubes::prefixes(depth as usize, q.symmetry_break);
            for (i, prefix) in cubes.iter().enumerate() {
                let label = engine::game::format_moves(prefix);
                write_cube(dir, &mut manifest, i, &label, |out| {
                    dimacs::write(out, &q, &encoded, prefix)
                })?;
            }
            cubes.len()
        }
        None => {
            let cubes = satgen::cubes::by_ply(&q);
            for (i, cube) in cubes.iter().enumerate() {
                let label = format!("ply={}", cube.plies);
                write_cube(dir, &mut manifest, i, &label, |out| {
                    dimacs::write(out, cube, &encode(cube), &[])
                })?;
            }
            cubes.len()
        }
    };
    std::fs::write(dir.join("manifest.txt"), manifest)?;
    eprintln!("satgen: {count} cubes in {}", dir.display());
    Ok(())
}

/// Writes cube `i` into `dir` (its CNF by `write`) and its manifest line: number, label,
/// CNF file, and the file for its proof (as in `cadical --lrat=true CNF PROOF`).
fn write_cube(
    dir: &std::path::Path,
    manifest: &mut String,
    i: usize,
    label: &str,
    write: impl FnOnce(&mut BufWriter<std::fs::File>) -> io::Result<()>,
) -> Result<(), Failure> {
    let name = format!("cube-{i:05}.cnf");
    let mut writer = BufWriter::new(std::fs::File::create(dir.join(&name))?);
    write(&mut writer)?;
    writer.flush()?;
    manifest.push_str(&format!("{i:05} {label} {name} cube-{i:05}.lrat\n"));
    Ok(())
}

/// A reachability question split by its first move (the squares of d3, c4, f5, e6 the
/// target occupies): one CNF each and a manifest (number, first_move=SQ, file, proof file).
fn target_cubes(
    position: &engine::Position,
    cube: Cube,
    dir: &std::path::Path,
) -> Result<(), Failure> {
    let mut manifest = String::new();
    let firsts = satgen::target::first_moves(position);
    for (i, &first) in firsts.iter().enumerate() {
        let question = encode_target(
            position,
            Cube {
                first_move: Some(first),
                ..cube
            },
        );
        write_cube(
            dir,
            &mut manifest,
            i,
            &format!("first_move={first}"),
            |out| dimacs::write_target(out, &question),
        )?;
    }
    std::fs::write(dir.join("manifest.txt"), manifest)?;
    eprintln!("satgen: {} cubes in {}", firsts.len(), dir.display());
    Ok(())
}

#[derive(clap::Args)]
struct QuestionArgs {
    /// At least this many legal moves for the side to move at some position.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=64),
          required_unless_present = "target", conflicts_with = "target")]
    mobility: Option<u32>,
    /// Instead: can a legal game (real rules: forced passes, any number of them) reach
    /// exactly this position? An OBF line (board and side to move) or a move list.
    #[arg(long, allow_hyphen_values = true)]
    target: Option<String>,
    /// With --target: games without a pass only (a formula half the size; UNSAT then
    /// says nothing of games with passes).
    // (`conflicts_with = "mobility"` as well: clap checks `requires` only when no
    // argument in conflict with it is present.)
    #[arg(long, requires = "target", conflicts_with_all = ["no_passes_before", "mobility"])]
    no_passes: bool,
    /// With --target: games without a pass before this step (move) only.
    #[arg(
        long,
        requires = "target",
        conflicts_with = "mobility",
        value_name = "STEP"
    )]
    no_passes_before: Option<usize>,
    /// With --target: games with exactly one pass, just before this step (move), only:
    /// the side whose turn it is there has no legal move (where the target needs an odd
    /// number of passes, the part `retro check` tries first).
    #[arg(
        long,
        requires = "target",
        conflicts_with_all = ["no_passes", "no_passes_before", "mobility"],
        value_name = "STEP"
    )]
    single_pass_before: Option<usize>,
    /// Plies from the start (a pass is a ply).
    #[arg(long, default_value_t = 42, value_parser = clap::value_parser!(u32).range(1..=60))]
    plies: u32,
    /// Whose move it must be at that position.
    #[arg(long, value_enum, default_value_t = SideFilter::Any)]
    side: SideFilter,
    /// Do not fix the first move to f5.
    #[arg(long)]
    no_symmetry_break: bool,
    /// How the rules become clauses: chains along rays, or the core's table-free word
    /// operations bit-blasted.
    #[arg(long, value_enum, default_value_t = Encoding::Rays)]
    encoding: Encoding,
    /// Only the position after exactly --plies plies counts (not any up to it).
    #[arg(long)]
    exact_ply: bool,
}

/// The two kinds of question satgen builds.
enum Asked {
    Mobility(Question),
    Target(engine::Position, Cube),
}

impl QuestionArgs {
    fn asked(&self) -> Result<Asked, Failure> {
        match &self.target {
            Some(text) => Ok(Asked::Target(
                engine::input::parse_any_position("--target", text)?,
                Cube {
                    first_move: None,
                    no_passes_before: if self.no_passes {
                        usize::MAX
                    } else {
                        self.no_passes_before.unwrap_or(0)
                    },
                    single_pass_before: self.single_pass_before,
                },
            )),
            None => Ok(Asked::Mobility(self.question())),
        }
    }

    /// The mobility question (`--mobility` given).
    fn question(&self) -> Question {
        Question {
            plies: self.plies as usize,
            mobility: self.mobility.unwrap_or_default() as usize,
            side: self.side,
            symmetry_break: !self.no_symmetry_break,
            encoding: self.encoding,
            exact_ply: self.exact_ply,
        }
    }
}

#[derive(clap::Args)]
struct EmitArgs {
    #[command(flatten)]
    question: QuestionArgs,
    /// With --target: the flip accounting instead (what `retro check` reports as method
    /// "accounting"), a necessary condition with time left out: UNSAT means no game
    /// reaches the target; a model proves nothing.
    #[arg(long, requires = "target", conflicts_with_all = ["no_passes", "no_passes_before", "single_pass_before", "mobility"])]
    accounting: bool,
    /// Output file.
    #[arg(short, long)]
    output: PathBuf,
}

/// Which solver answers, and whether its UNSAT answers must come with checked proofs.
#[derive(clap::Args)]
struct SolverArgs {
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
}

#[derive(clap::Args)]
struct SolveArgs {
    #[command(flatten)]
    question: QuestionArgs,
    #[command(flatten)]
    solving: SolverArgs,
    /// Split the question into its cubes by ply (`satgen cubes --by-ply`) and solve them
    /// side by side, in that order: the first SAT cube answers (the others are stopped),
    /// UNSAT when every cube is.
    #[arg(long)]
    by_ply: bool,
    /// Cubes solved at once with --by-ply (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// One JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct DecodeArgs {
    /// The CNF written by `satgen emit`.
    cnf: PathBuf,
    /// The solver's output (s/v lines).
    model: PathBuf,
    #[arg(long)]
    json: bool,
}

#[derive(serde::Serialize)]
struct Answer {
    result: &'static str,
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

/// What `--proof DIR` left for one UNSAT question: its files and their check.
#[derive(Clone, serde::Serialize)]
struct ProofReport {
    cnf: String,
    proof: String,
    proof_format: satgen::proof::Format,
    proof_bytes: u64,
    /// Always true: a proof that fails its check is an error (exit 1), never an answer.
    proof_checked: bool,
    check_seconds: f64,
}

#[derive(Clone, serde::Serialize)]
struct CubeReport {
    ply: usize,
    /// SAT, UNSAT, or stopped (another cube answered first, or Ctrl-C).
    result: &'static str,
    variables: u32,
    clauses: usize,
    seconds: f64,
    /// With --proof, an UNSAT cube's checked proof.
    #[serde(flatten)]
    proof: Option<ProofReport>,
}

fn print(answer: &Answer, json: bool, out: &mut impl Write) -> Result<(), Failure> {
    if json {
        return cli::write_json(out, answer);
    }
    writeln!(out, "{}", answer.result)?;
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
            count("SAT"),
            count("UNSAT"),
            count("stopped")
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
            "proof {} ({:?}, {:.1} MB) of {} checked in {:.1} s",
            p.proof,
            p.proof_format,
            p.proof_bytes as f64 / 1e6,
            p.cnf,
            p.check_seconds
        )?;
    }
    writeln!(out, "{:.3} s", answer.seconds)?;
    Ok(())
}

fn read(path: &PathBuf) -> Result<String, Failure> {
    std::fs::read_to_string(path).map_err(|e| Failure::Input(format!("{}: {e}", path.display())))
}

fn emit(args: &EmitArgs) -> Result<(), Failure> {
    let file = std::fs::File::create(&args.output)
        .map_err(|e| Failure::Input(format!("{}: {e}", args.output.display())))?;
    let mut writer = BufWriter::new(file);
    let formula = match args.question.asked()? {
        Asked::Mobility(q) => {
            let encoded = encode(&q);
            dimacs::write(&mut writer, &q, &encoded, &[])?;
            encoded.formula
        }
        Asked::Target(position, _) if args.accounting => {
            let formula = satgen::accounting::encode_accounting(&position);
            dimacs::write_accounting(&mut writer, &position, &formula)?;
            formula
        }
        Asked::Target(position, cube) => {
            let question = encode_target(&position, cube);
            dimacs::write_target(&mut writer, &question)?;
            question.formula
        }
    };
    writer.flush()?;
    eprintln!(
        "satgen: {} variables, {} clauses written to {}",
        formula.variables(),
        formula.clauses(),
        args.output.display()
    );
    Ok(())
}

/// UNSAT, or the game `model` decodes to; a model that does not replay to the mobility
/// asked is never trusted (exit 1).
fn answer(
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
    Ok(Answer {
        result: if game.is_some() { "SAT" } else { "UNSAT" },
        moves: game.as_ref().map(|g| engine::game::format_moves(&g.moves)),
        ply: game.as_ref().map(|g| g.ply),
        mobility: game.as_ref().map(|g| g.mobility),
        variables: None,
        clauses: None,
        seconds: start.elapsed().as_secs_f64(),
        cubes: None,
        cubes_in_all: None,
        proof: None,
    })
}

/// Solves `formula` with the solver chosen (linked in, or external on what `dimacs`
/// writes), until `stop`; with `--proof DIR`, an UNSAT leaves NAME.cnf and its proof in
/// DIR, checked here (a proof that fails is an error, exit 1).
fn run_solver(
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
        return Ok((outcome.map_err(Failure::Input)?, None));
    };
    let cnf = dir.join(format!("{name}.cnf"));
    let written =
        |path: &std::path::Path, e: io::Error| Failure::Input(format!("{}: {e}", path.display()));
    let (outcome, proof) = match &args.solver_cmd {
        Some(command) => {
            let proof = dir.join(format!("{name}.lrat"));
            let outcome = satgen::solve::external_lrat(command, dimacs, &cnf, &proof, stop)
                .map_err(Failure::Input)?;
            (outcome, proof)
        }
        None => {
            let proof = dir.join(format!("{name}.varisat"));
            let (outcome, bytes) =
                satgen::solve::varisat_with_proof(formula, stop).map_err(Failure::Input)?;
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
    let proof_format = satgen::proof::check_files(&cnf, &proof).map_err(|e| {
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
            proof_format,
            proof_bytes,
            proof_checked: true,
            check_seconds: start.elapsed().as_secs_f64(),
        }),
    ))
}

/// With `--proof DIR`: the directory made, and the solver able to write a proof satgen
/// checks.
fn prepare_proofs(args: &SolverArgs) -> Result<(), Failure> {
    let Some(dir) = &args.proof else {
        return Ok(());
    };
    match &args.solver_cmd {
        Some(command) => satgen::solve::lrat_solver(command).map_err(Failure::Input)?,
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
fn mobility_dimacs<'a>(
    q: &'a Question,
    encoded: &'a satgen::Encoded,
) -> impl FnOnce(&mut dyn Write) -> io::Result<()> + 'a {
    move |mut out| dimacs::write(&mut out, q, encoded, &[])
}

fn solve(args: &SolveArgs, out: &mut impl Write) -> Result<(), Failure> {
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
        Outcome::Stopped => return stopped(&encoded.formula, start, args.json, out),
    };
    let mut answer = answer(&encoded.layout, model, q.mobility as u32, q.side, start)?;
    answer.proof = proof;
    answer.variables = Some(encoded.formula.variables());
    answer.clauses = Some(encoded.formula.clauses());
    answer.seconds = start.elapsed().as_secs_f64();
    print(&answer, args.json, out)
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
        result: "UNKNOWN",
        moves: None,
        ply: None,
        mobility: None,
        variables: Some(formula.variables()),
        clauses: Some(formula.clauses()),
        seconds: start.elapsed().as_secs_f64(),
        cubes: None,
        cubes_in_all: None,
        proof: None,
    };
    print(&answer, json, out)?;
    Err(Failure::Interrupted)
}

/// Whether a legal game reaches `position`: SAT with the game (decoded, replayed to exactly
/// the position), or UNSAT.
fn solve_target(
    args: &SolveArgs,
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
        return stopped(&question.formula, start, args.json, out);
    }
    let answer = target_answer(&question.layout, outcome, start)?;
    let answer = Answer {
        variables: Some(question.formula.variables()),
        clauses: Some(question.formula.clauses()),
        proof,
        ..answer
    };
    print(&answer, args.json, out)
}

/// UNSAT, or the game a model of a reachability question decodes to (never trusted: a
/// model that does not replay to the position is rejected, exit 1).
fn target_answer(
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
    Ok(Answer {
        result: if moves.is_some() { "SAT" } else { "UNSAT" },
        ply: moves.as_ref().map(Vec::len),
        moves: moves.as_deref().map(engine::game::format_moves),
        mobility: None,
        variables: None,
        clauses: None,
        seconds: start.elapsed().as_secs_f64(),
        cubes: None,
        cubes_in_all: None,
        proof: None,
    })
}

/// The cubes by ply, several at once, each taken in order by the next free thread; the
/// first SAT cube's game (replayed) is the answer and stops the others.
fn solve_by_ply(
    args: &SolveArgs,
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
    let pool = cli::thread_pool(args.threads)?;
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
                    Ok(Outcome::Sat(_)) => "SAT",
                    Ok(Outcome::Unsat) => "UNSAT",
                    Ok(Outcome::Stopped) | Err(_) => "stopped",
                };
                let check_seconds = proof.as_ref().map_or(0.0, |p| p.check_seconds);
                let report = CubeReport {
                    ply: cube.plies,
                    result,
                    variables: encoded.formula.variables(),
                    clauses: encoded.formula.clauses(),
                    // The solver's time; the proof's check is counted apart.
                    seconds: cube_start.elapsed().as_secs_f64() - check_seconds,
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
        None => Answer {
            result: if reports.len() == cubes.len() && reports.iter().all(|r| r.result == "UNSAT") {
                "UNSAT"
            } else {
                "UNKNOWN"
            },
            moves: None,
            ply: None,
            mobility: None,
            variables: None,
            clauses: None,
            seconds: 0.0,
            cubes: None,
            cubes_in_all: None,
            proof: None,
        },
    };
    answer.seconds = start.elapsed().as_secs_f64();
    answer.cubes = Some(reports);
    answer.cubes_in_all = Some(cubes.len());
    print(&answer, args.json, out)?;
    if answer.result == "UNKNOWN" {
        return Err(Failure::Interrupted);
    }
    Ok(())
}

fn check_proof(args: &CheckProofArgs, out: &mut impl Write) -> Result<(), Failure> {
    let open = |path: &PathBuf| {
        std::fs::File::open(path)
            .map(std::io::BufReader::new)
            .map_err(|e| Failure::Input(format!("{}: {e}", path.display())))
    };
    let (cnf, proof) = (open(&args.cnf)?, open(&args.proof)?);
    let progress = cli::spinner(format!("checking {}", args.proof.display()));
    let checked = satgen::proof::check_any(cnf, proof);
    progress.finish_and_clear();
    let format = checked.map_err(|e| Failure::Invalid(format!("{}: {e}", args.proof.display())))?;
    writeln!(
        out,
        "VERIFIED: {} ({format:?}) proves {} unsatisfiable",
        args.proof.display(),
        args.cnf.display()
    )?;
    Ok(())
}

fn decode_files(args: &DecodeArgs, out: &mut impl Write) -> Result<(), Failure> {
    let start = Instant::now();
    let cnf = read(&args.cnf)?;
    if let Some(layout) =
        dimacs::read_target_layout(&cnf).map_err(|e| Failure::Input(e.located(&args.cnf)))?
    {
        let model_text = read(&args.model)?;
        let model =
            dimacs::read_model(&model_text).map_err(|e| Failure::Input(e.located(&args.model)))?;
        let outcome = model.map_or(Outcome::Unsat, Outcome::Sat);
        return print(&target_answer(&layout, outcome, start)?, args.json, out);
    }
    let layout = dimacs::read_layout(&cnf).map_err(|e| Failure::Input(e.located(&args.cnf)))?;
    let (wanted, side) =
        dimacs::read_target(&cnf).map_err(|e| Failure::Input(e.located(&args.cnf)))?;
    let model_text = read(&args.model)?;
    let model =
        dimacs::read_model(&model_text).map_err(|e| Failure::Input(e.located(&args.model)))?;
    let answer = answer(&layout, model, wanted, side, start)?;
    print(&answer, args.json, out)
}

fn main() -> ExitCode {
    let cli: Cli = match cli::parse_args() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let mut out = io::stdout().lock();
    let result = match cli.command {
        Command::Emit(args) => emit(&args),
        Command::Solve(args) => solve(&args, &mut out),
        Command::Decode(args) => decode_files(&args, &mut out),
        Command::Cubes(args) => cubes(&args),
        Command::CheckProof(args) => check_proof(&args, &mut out),
        Command::Curve(args) => curve::run(&args, &mut out),
        Command::CurvePlot(args) => curve::plot(&args, &mut out),
        Command::Completions(args) => cli::completions::<Cli>(&args, &mut out),
        Command::Manual(args) => cli::manual::<Cli>(&args, &mut out),
    };
    cli::exit_code("satgen", result)
}
