//! `retro check`: a file of positions (OBF, games, a CSV of candidates), each decided as
//! `retro reach` decides one, in shards and resumable, with a summary sealed over its rows.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

use engine::cli::seal::{self, Run};
use engine::cli::{self, Failure};
use engine::clock::{CpuClock, CpuTimer};
use engine::{input, Color, Position};
use rayon::prelude::*;

use crate::reach::{answer, frontier, line, quick_answer, unchecked_no, Row, SearchArgs, HEADER};

#[derive(clap::Args)]
#[command(
    after_long_help = "--shard I/N: Take only positions I, I+N, I+2N... (1-based), for clusters."
)]
pub struct Args {
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

/// Per line of a check file, its number and the positions to try.
type Numbered = Vec<(usize, Vec<Position>)>;

/// The positions of a check file that this run asks, and the run: `retro check` over the
/// whole file.
fn read_check_file(args: &Args) -> Result<(Numbered, Run), Failure> {
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

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
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
