use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

use engine::cli::seal::{self, Run};
use engine::cli::{self, Failure};
use engine::clock::{self, CpuClock, CpuTimer};
use engine::{input, Color, Position};
use rayon::prelude::*;
use retro::{decide, Decision, Frontier, Method, Options, SatSolver};

use crate::RunArgs;

#[derive(clap::Args)]
pub struct SearchArgs {
    /// Enumerate every reachable position with up to this many discs first; the backward
    /// search stops there (memory: about 50 MB at 14 discs, 4-8x more per extra disc).
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(4..=16))]
    frontier_discs: u32,
    /// Refuted positions the backward search remembers (it restarts the memo when full).
    #[arg(long, default_value_t = 1 << 22)]
    memo_entries: usize,
    /// Positions the backward search visits before its thread turns to SAT.
    #[arg(long, default_value_t = 2_000_000)]
    backward_nodes: u64,
    /// A SAT solver to race (repeat for several): "varisat" (embedded), or a DIMACS
    /// solver command such as "kissat" or "cadical" (given the CNF file last; each run
    /// adds `-q --seed=K` to these two; named alone, "kissat" also gets the race's
    /// `--probe=false`, and "cadical" `--unsat --congruence=false --sweep=false` on the
    /// whole question, which a command with options of its own does not).
    /// Default: kissat and cadical where on the PATH (scripts/install-solvers.sh), else
    /// varisat.
    #[arg(long = "sat-solver", value_name = "SOLVER")]
    sat_solvers: Vec<String>,
    /// Positions the backward search visits alone before the race starts (what it
    /// decides so fast, `check` decides on every thread at once, a position each).
    #[arg(long, default_value_t = 20_000)]
    quick_nodes: u64,
    /// Keep the CNF and the checked proof of each flip-accounting or SAT "no" in this
    /// directory (INDEX.cnf with INDEX.varisat or INDEX.lrat; for a CSV line, one per
    /// side to move: INDEX-black.*, INDEX-white.*), named in the output; `satgen
    /// check-proof` checks them again. Without it the proofs are checked and dropped.
    #[arg(long, value_name = "DIR", conflicts_with = "trust_unsat")]
    proof: Option<PathBuf>,
    /// Take a SAT solver's UNSAT without a checked proof. By default every SAT "no"
    /// carries one: only the UNSAT of a solver that writes proofs (CaDiCaL 1.9 or later:
    /// LRAT; varisat) answers the whole question, varisat standing in where none is
    /// raced; Kissat, whose proofs satgen does not check, then searches only for games.
    #[arg(long)]
    trust_unsat: bool,
    /// One thread opens with the whole question, before the parts of it that find games
    /// fastest: quicker where most positions are unreachable (random boards), slower to
    /// find the games of real ones.
    #[arg(long)]
    whole_first: bool,
    /// Give up (UNKNOWN) once the position has used this many seconds of processor
    /// time, every thread and solver process together (Linux): the same work whatever
    /// else runs on the machine, where the wall-clock --time-limit counts the load too.
    #[arg(long, value_name = "SECONDS")]
    cpu_limit: Option<f64>,
    #[command(flatten)]
    checker: satgen::proof::CheckerArgs,
    #[command(flatten)]
    run: RunArgs,
}

impl SearchArgs {
    fn options(&self, time_limit: Option<f64>) -> Result<Options, Failure> {
        let solvers = if self.sat_solvers.is_empty() {
            SatSolver::detect()
        } else {
            self.sat_solvers
                .iter()
                .map(|s| match s.as_str() {
                    "varisat" => SatSolver::Varisat,
                    command => SatSolver::external(command),
                })
                .collect()
        };
        Ok(Options {
            workers: cli::thread_count(self.run.threads.count),
            solvers,
            backward_nodes: self.backward_nodes,
            memo_entries: self.memo_entries,
            quick_nodes: self.quick_nodes,
            time_limit: time_limit
                .map(|t| cli::seconds(t, "--time-limit"))
                .transpose()?,
            cpu_limit: self
                .cpu_limit
                .map(|t| match clock::cpu_seconds(CpuClock::ProcessAndChildren) {
                    Some(_) => cli::seconds(t, "--cpu-limit"),
                    None => Err(Failure::Input(format!(
                        "--cpu-limit {t}: this system does not report processor time"
                    ))),
                })
                .transpose()?,
            trust_unsat: self.trust_unsat,
            whole_first: self.whole_first,
            checker: self.checker.checker()?,
        })
    }
}

#[derive(clap::Args)]
pub struct ReachArgs {
    /// The position: an OBF line (board and side to move) or a move list.
    #[arg(long, allow_hyphen_values = true)]
    board: String,
    /// Give up (UNKNOWN) after this many seconds; default: no limit.
    #[arg(long)]
    time_limit: Option<f64>,
    #[command(flatten)]
    search: SearchArgs,
}

#[derive(clap::Args)]
#[command(
    after_long_help = "--shard I/N: Take only positions I, I+N, I+2N... (1-based), for clusters."
)]
pub struct CheckArgs {
    /// OBF file (`-`: standard input), CSV of hexadecimal bitboards `player,opponent` (a
    /// name ending in .csv), or a file of games (WTHOR .wtb, GGF .ggf: see --empties).
    file: PathBuf,
    #[command(flatten)]
    games: cli::GameArgs,
    #[command(flatten)]
    shard: cli::ShardArgs,
    /// Seconds per position before it is left UNKNOWN [default: 60, none with
    /// --cpu-limit].
    #[arg(long)]
    time_limit: Option<f64>,
    /// Skip the positions that these JSON Lines files (earlier `check --json` runs of the
    /// same file) decided: an interrupted run goes on where it stopped, and what a run
    /// left UNKNOWN is decided again (say with a longer --time-limit), as is a "no" by
    /// a solver whose proof was not checked (`--trust-unsat`, older runs). With
    /// --cpu-limit, a position left UNKNOWN by a --cpu-limit at least as large is
    /// skipped too: a requeued job does not repeat it. `retro merge` of
    /// the old and new files puts each new answer over the UNKNOWN it replaces. Takes
    /// several files (`--done part*.jsonl`).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    done: Vec<PathBuf>,
    /// Take only the positions where every game reaching them with that side to move
    /// passes (`odd`: no game without passes ends there so), or the others (`even`); row
    /// numbers stay the file's, so the two runs merge. For scheduling: on `odd` random
    /// boards the race's searches by parts rarely find a game, and the whole question
    /// decides nearly all (results/reach.md), so run apart with `--threads
    /// 1`, a position per core, they give it all of their processor time. Not for CSV
    /// input, whose lines ask both sides to move.
    #[arg(long, value_enum)]
    passes: Option<Passes>,
    #[command(flatten)]
    search: SearchArgs,
}

/// Which positions `check --passes` takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Passes {
    /// Only those that no game without passes reaches with their side to move.
    Odd,
    /// Only those that some game without passes may reach.
    Even,
}

/// One position's answer (for a CSV line: either colour to move).
#[derive(serde::Serialize)]
struct Row {
    index: usize,
    /// true, false, or null (undecided within the limit).
    reachable: Option<bool>,
    method: Option<Method>,
    witness: Option<String>,
    certificate: Option<String>,
    solver: Option<String>,
    /// The proof files of a "no" by accounting or SAT (`--proof`): one, or one per side
    /// to move.
    proofs: Vec<String>,
    /// For a "no" by the flip accounting or SAT: whether its proof was checked (false:
    /// the solver's word, `--trust-unsat`); null for the other answers.
    proof_checked: Option<bool>,
    nodes: u64,
    seconds: f64,
    /// Processor seconds spent on it, solver processes included (null where the system
    /// does not say): on a shared machine a position left UNKNOWN after little of it
    /// was starved rather than hard.
    cpu_seconds: Option<f64>,
    /// The --cpu-limit that left it UNKNOWN (absent otherwise): `--done` asks again only
    /// with a larger one.
    #[serde(skip_serializing_if = "Option::is_none")]
    cpu_limit: Option<f64>,
}

/// Whether a row of `check --json` is a "no" by a solver (the flip accounting, SAT)
/// without a checked proof: the solver's word (`--trust-unsat`, or a row from before
/// rows said `proof_checked`).
pub fn unchecked_no(row: &serde_json::Value) -> bool {
    row["reachable"] == false
        && (row["method"] == "sat" || row["method"] == "accounting")
        && row["proof_checked"] != true
}

impl Row {
    /// With `--proof DIR`: an accounting answer's CNF and proof written there, and named
    /// in the row. (The accounting ignores the side to move: any candidate serves.)
    fn write_proof(
        &mut self,
        dir: Option<&std::path::Path>,
        position: &Position,
    ) -> Result<(), Failure> {
        let Some(dir) = dir.filter(|_| self.method == Some(Method::Accounting)) else {
            return Ok(());
        };
        let refuted = satgen::accounting::accounting_refutes(position).ok_or_else(|| {
            Failure::Invalid(format!(
                "position {}: the accounting no longer refutes it",
                self.index
            ))
        })?;
        let failed = |e: std::io::Error| Failure::Input(format!("{}: {e}", dir.display()));
        std::fs::create_dir_all(dir).map_err(failed)?;
        let cnf = dir.join(format!("{}.cnf", self.index));
        let mut file = std::io::BufWriter::new(std::fs::File::create(&cnf).map_err(failed)?);
        satgen::dimacs::write_accounting(&mut file, position, &refuted.formula)?;
        file.flush()?;
        let proof = dir.join(format!("{}.varisat", self.index));
        std::fs::write(&proof, &refuted.proof).map_err(failed)?;
        self.proofs = vec![proof.display().to_string()];
        Ok(())
    }

    fn answer(&self) -> &'static str {
        match self.reachable {
            Some(true) => "REACHABLE",
            Some(false) => "UNREACHABLE",
            None => "UNKNOWN",
        }
    }
}

/// The answer for `candidates` (the same board with either side to move, or one
/// position): reachable when one is, unreachable when every one is.
/// With `proofs` (`--proof DIR`), a SAT "no" keeps its files there (see [`SearchArgs`]).
fn answer(
    index: usize,
    frontier: &Frontier,
    candidates: &[Position],
    options: &Options,
    interrupt: &std::sync::atomic::AtomicBool,
    proofs: Option<&std::path::Path>,
) -> Result<Row, Failure> {
    if let Some(dir) = proofs {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::Input(format!("{}: {e}", dir.display())))?;
    }
    combine(index, candidates, CpuClock::ProcessAndChildren, |p| {
        let keep = proofs.map(|dir| {
            dir.join(if candidates.len() > 1 {
                format!("{index}-{}", p.side)
            } else {
                index.to_string()
            })
        });
        decide(frontier, p, options, interrupt, keep.as_deref())
            .map(Some)
            .map_err(Failure::input)
    })
    .map(|row| row.expect("decide always answers"))
}

/// [`answer`] by [`retro::decide::quick`] alone: `None` where that does not decide.
fn quick_answer(
    index: usize,
    frontier: &Frontier,
    candidates: &[Position],
    options: &Options,
    interrupt: &std::sync::atomic::AtomicBool,
) -> Option<Row> {
    combine(index, candidates, CpuClock::Thread, |p| {
        Ok(retro::decide::quick(frontier, p, options, interrupt))
    })
    .ok()
    .flatten()
}

/// One row from the decisions on `candidates`, taken in turn until one is reachable or
/// undecided; `None` if `decide` left one undecided with `None`. `clock` counts what
/// `decide` runs on: its thread, or every thread and solver process.
fn combine(
    index: usize,
    candidates: &[Position],
    clock: CpuClock,
    mut decide: impl FnMut(&Position) -> Result<Option<Decision>, Failure>,
) -> Result<Option<Row>, Failure> {
    let start = Instant::now();
    let cpu = CpuTimer::start(clock);
    let mut decisions: Vec<(Color, Decision)> = Vec::new();
    for p in candidates {
        let Some(decision) = decide(p)? else {
            return Ok(None);
        };
        let reachable = decision.reachable;
        decisions.push((p.side, decision));
        if reachable != Some(false) {
            break;
        }
    }
    let last = &decisions.last().expect("one candidate at least").1;
    let certificate = if candidates.len() > 1 && last.reachable == Some(false) {
        let parts: Vec<String> = decisions
            .iter()
            .map(|(side, d)| format!("{side} to move: {}", d.certificate.as_deref().unwrap_or("")))
            .collect();
        Some(parts.join("; "))
    } else {
        last.certificate.clone()
    };
    Ok(Some(Row {
        index,
        reachable: last.reachable,
        method: last.method,
        witness: last.witness.as_deref().map(engine::game::format_moves),
        certificate,
        solver: last.solver.clone(),
        // A reachable line's other side may have kept a proof: only a "no" names them.
        proofs: decisions
            .iter()
            .filter(|_| last.reachable == Some(false))
            .filter_map(|(_, d)| d.proof.as_ref().map(|p| p.display().to_string()))
            .collect(),
        // A "no" is as checked as the least checked of its sides.
        proof_checked: (last.reachable == Some(false))
            .then(|| decisions.iter().filter_map(|(_, d)| d.proof_checked).min())
            .flatten(),
        nodes: decisions.iter().map(|(_, d)| d.nodes).sum(),
        seconds: start.elapsed().as_secs_f64(),
        cpu_seconds: cpu.elapsed(),
        cpu_limit: last.cpu_limit,
    }))
}

fn frontier(args: &SearchArgs, pool: &rayon::ThreadPool) -> Result<Frontier, Failure> {
    let start = Instant::now();
    let frontier = pool.install(|| Frontier::new(args.frontier_discs))?;
    eprintln!(
        "retro: frontier of {} positions (up to {} discs) in {:.1} s",
        frontier.len(),
        frontier.discs(),
        start.elapsed().as_secs_f64()
    );
    Ok(frontier)
}

fn line(row: &Row) -> String {
    let method = row.method.map_or("-".to_string(), |m| {
        serde_json::to_value(m)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    });
    let detail = row
        .witness
        .as_deref()
        .or(row.certificate.as_deref())
        .unwrap_or("");
    format!(
        "{:>5} {:>11} {:>10} {:>12} {:>9.3}  {detail}",
        row.index,
        row.answer(),
        method,
        row.nodes,
        row.seconds,
    )
}

const HEADER: &str = "    #      answer     method        nodes   seconds  witness or certificate";

pub fn reach_one(args: &ReachArgs, out: &mut impl Write) -> Result<(), Failure> {
    let position = input::parse_any_position("--board", &args.board)?;
    let options = args.search.options(args.time_limit)?;
    let frontier = frontier(&args.search, &args.search.run.threads.pool()?)?;
    let interrupt = cli::interrupt_flag();
    let mut row = answer(
        1,
        &frontier,
        &[position],
        &options,
        &interrupt,
        args.search.proof.as_deref(),
    )?;
    row.write_proof(args.search.proof.as_deref(), &position)?;
    if args.search.run.output.json {
        cli::write_json(out, &row)?;
    } else {
        writeln!(out, "{HEADER}\n{}", line(&row))?;
    }
    if interrupt.load(Relaxed) {
        return Err(Failure::Interrupted);
    }
    Ok(())
}

/// Per line of a check file, its number and the positions to try.
type Numbered = Vec<(usize, Vec<Position>)>;

/// The positions of a check file that this run asks, and the run: `retro check` over the
/// whole file.
fn read_check_file(args: &CheckArgs) -> Result<(Numbered, Run), Failure> {
    let is_csv = args
        .file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
    if is_csv && args.passes.is_some() {
        return Err(Failure::Input(format!(
            "{}: --passes takes OBF or game files, not CSV (a CSV line asks both sides to move)",
            args.file.display()
        )));
    }
    let positions: Vec<Vec<Position>> = if is_csv {
        input::read_bitboard_csv(&args.file)?
            .into_iter()
            .map(|(_, board)| {
                [Color::Black, Color::White]
                    .map(|side| Position { board, side })
                    .to_vec()
            })
            .collect()
    } else {
        input::read_positions(&args.file, args.games.empties)?
            .into_iter()
            .map(|(_, obf)| vec![obf.position])
            .collect()
    };
    let positions_in_file = positions.len();
    let options = args
        .games
        .empties
        .map_or(String::new(), |e| format!("--empties {e}"));
    let mut run = Run::new("retro check", positions.iter().flatten(), &options);
    // Rows are numbered by line: a CSV line asks both sides to move.
    run.positions = positions_in_file;
    let mut numbered: Vec<(usize, Vec<Position>)> = positions
        .into_iter()
        .enumerate()
        .map(|(i, p)| (i + 1, p))
        .collect();
    if let Some((i, n)) = args.shard.part {
        numbered.retain(|(index, _)| (index - 1) % n == i - 1);
    }
    if let Some(passes) = args.passes {
        let odd = passes == Passes::Odd;
        numbered.retain(|(_, p)| {
            p.iter()
                .all(|p| satgen::target::no_passes_possible(p) != odd)
        });
    }
    let settled = settled(&args.done, &run, args.search.cpu_limit)?;
    numbered.retain(|(index, _)| !settled.contains(index));
    Ok((numbered, run))
}

/// The positions that the `check --json` rows of `files` decided (of `run`'s file), or
/// left UNKNOWN after at least `cpu_limit` of processor time: a run resumed with the
/// same limit (a requeued cluster job) does not repeat them, while one with a longer
/// limit, or a wall-clock one (whose UNKNOWN may have been starved by the load), does.
/// The files' sealed parts are checked as `merge` checks them, and must be of this file;
/// the rows of a run killed before its summary are taken (that is what resuming is for),
/// a last line cut off with a warning.
fn settled(
    files: &[PathBuf],
    run: &Run,
    cpu_limit: Option<f64>,
) -> Result<HashSet<usize>, Failure> {
    let count = run.positions;
    let lines = cli::read_json_lines_resuming(files)?;
    let trust = seal::Trust {
        unsealed: true,
        mixed_runs: false,
    };
    if let Some((theirs, at)) = seal::check_parts(&lines, &["retro check"], trust)?.run {
        if let Some(difference) = theirs.difference(run) {
            return Err(Failure::Input(format!(
                "{at}: results of another run than this one ({difference})"
            )));
        }
    }
    let mut settled = HashSet::new();
    for read in lines {
        let row = &read.value;
        if row["summary"] == true {
            continue;
        }
        let index = row_index(&read)?;
        if index == 0 || index > count as u64 {
            return Err(Failure::Input(format!(
                "{}: position {index}, but the file checked has {count} positions (results of another file?)",
                read.at()
            )));
        }
        let tried_enough = cpu_limit
            .zip(row["cpu_limit"].as_f64())
            .is_some_and(|(now, then)| then >= now);
        if (row["reachable"].is_boolean() && !unchecked_no(row)) || tried_enough {
            settled.insert(index as usize);
        }
    }
    Ok(settled)
}

/// The position number of a row of `check --json` (not its summary), or an error naming
/// the line that is no such row.
pub fn row_index(read: &cli::JsonLine) -> Result<u64, Failure> {
    let row = &read.value;
    let bad = |why: &str| {
        Failure::Input(format!(
            "{}: not a row of `retro check --json` ({why})",
            read.at()
        ))
    };
    let index = row["index"].as_u64().ok_or_else(|| bad("no index"))?;
    match row.get("reachable") {
        Some(answer) if answer.is_boolean() || answer.is_null() => Ok(index),
        _ => Err(bad("no answer")),
    }
}

/// `check`'s wall-clock seconds per position where no limit is given: every file ends.
const CHECK_TIME_LIMIT: f64 = 60.0;

/// The rows of a check as they are decided: printed at once (an interrupt keeps every
/// finished one), counted, and summed into the summary's digest.
struct Printer<'a> {
    json: bool,
    proof: Option<&'a Path>,
    progress: cli::ProgressBar,
    /// Reachable, unreachable, unknown.
    counts: [usize; 3],
    done: usize,
    digest: seal::RowDigest,
}

impl Printer<'_> {
    fn print(
        &mut self,
        out: &mut impl Write,
        mut row: Row,
        candidates: &[Position],
    ) -> Result<(), Failure> {
        row.write_proof(self.proof, &candidates[0])?;
        let text = if self.json {
            self.digest.add_row(&row);
            serde_json::to_string(&row).expect("a row serialises")
        } else {
            line(&row)
        };
        self.progress
            .suspend(|| writeln!(out, "{text}").and_then(|()| out.flush()))?;
        self.progress.inc(1);
        self.counts[match row.reachable {
            Some(true) => 0,
            Some(false) => 1,
            None => 2,
        }] += 1;
        self.done += 1;
        Ok(())
    }
}

pub fn check(args: &CheckArgs, out: &mut impl Write) -> Result<(), Failure> {
    let (positions, run) = read_check_file(args)?;
    let time_limit = match (args.time_limit, args.search.cpu_limit) {
        (None, None) => Some(CHECK_TIME_LIMIT),
        (limit, _) => limit,
    };
    let options = args.search.options(time_limit)?;
    let pool = args.search.run.threads.pool()?;
    let frontier = frontier(&args.search, &pool)?;
    let interrupt = cli::interrupt_flag();
    let mut printer = Printer {
        json: args.search.run.output.json,
        proof: args.search.proof.as_deref(),
        progress: cli::position_progress(positions.len()),
        counts: [0; 3],
        done: 0,
        digest: seal::RowDigest::default(),
    };
    if !printer.json {
        writeln!(out, "{HEADER}")?;
    }
    let start = Instant::now();
    let cpu = CpuTimer::start(CpuClock::ProcessAndChildren);
    // First what the refutations and a short backward search decide, a position per
    // thread; then the rest one at a time, each raced on every thread.
    let quick = |(index, candidates): &(usize, Vec<Position>)| {
        quick_answer(*index, &frontier, candidates, &options, &interrupt)
    };
    let hard = quick_pass(&positions, &pool, quick, &mut printer, out)?;
    for i in hard {
        if interrupt.load(Relaxed) {
            break;
        }
        let (index, candidates) = &positions[i];
        let row = answer(
            *index,
            &frontier,
            candidates,
            &options,
            &interrupt,
            printer.proof,
        )?;
        if interrupt.load(Relaxed) {
            break;
        }
        printer.print(out, row, candidates)?;
    }
    printer.progress.finish_and_clear();
    let interrupted = printer.done < positions.len();
    let times = (start.elapsed().as_secs_f64(), cpu.elapsed());
    write_summary(out, printer, run, args.shard.part, times, interrupted)?;
    if interrupted {
        return Err(Failure::Interrupted);
    }
    Ok(())
}

/// Every position's quick answer, a position per thread, each row printed as it comes;
/// the positions left for the race (their places in `positions`, in order).
fn quick_pass(
    positions: &Numbered,
    pool: &rayon::ThreadPool,
    quick: impl Fn(&(usize, Vec<Position>)) -> Option<Row> + Sync,
    printer: &mut Printer,
    out: &mut impl Write,
) -> Result<Vec<usize>, Failure> {
    let (sender, receiver) = std::sync::mpsc::channel::<(usize, Option<Row>)>();
    let mut hard = Vec::new();
    std::thread::scope(|scope| -> Result<(), Failure> {
        scope.spawn(|| {
            pool.install(|| {
                positions
                    .par_iter()
                    .enumerate()
                    .for_each_with(sender, |sender, (i, item)| {
                        let _ = sender.send((i, quick(item)));
                    })
            })
        });
        for (i, row) in receiver {
            match row {
                Some(row) => printer.print(out, row, &positions[i].1)?,
                None => hard.push(i),
            }
        }
        Ok(())
    })?;
    hard.sort_unstable();
    Ok(hard)
}

/// The check's last line: the sealed summary in JSON (the run, the rows' digest), or the
/// totals.
fn write_summary(
    out: &mut impl Write,
    printer: Printer,
    run: Run,
    shard: Option<(usize, usize)>,
    (seconds, cpu_seconds): (f64, Option<f64>),
    interrupted: bool,
) -> Result<(), Failure> {
    let [reachable, unreachable, unknown] = printer.counts;
    let done = printer.done;
    if !printer.json {
        writeln!(
            out,
            "total: {done} positions, {reachable} reachable, {unreachable} unreachable, {unknown} unknown, {seconds:.3} s{}{}",
            cpu_seconds.map_or(String::new(), |c| format!(" ({c:.1} s of processor time)")),
            if interrupted { " (interrupted)" } else { "" }
        )?;
        return Ok(());
    }
    let serde_json::Value::Object(mut summary) = serde_json::json!({"summary": true,
        "positions": done, "reachable": reachable, "unreachable": unreachable,
        "unknown": unknown, "seconds": seconds, "cpu_seconds": cpu_seconds,
        "interrupted": interrupted, "shard": shard.map(|(i, n)| format!("{i}/{n}")),
        "run": run})
    else {
        unreachable!("a summary is an object")
    };
    printer.digest.write_into(&mut summary);
    seal::seal(&mut summary);
    cli::write_json(out, &summary)
}
