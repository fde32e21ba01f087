//! `retro enumerate`: the distinct positions level by level, by plies or by discs, each
//! level's count a row; deep counts keep their levels on disk and split the last one.

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

use engine::cli::{self, seal, Failure};
use retro::enumerate::Build;
use retro::{Convention, Level};

use crate::RunArgs;

#[derive(clap::Args)]
#[command(
    after_long_help = "--shard I/N: Count only partition I of N of the last level (its positions split by a hash that the symmetries and the side to move leave alone; the levels below are whole), so that separate runs or machines share a level too large for one; `retro merge` adds the shards' rows up."
)]
pub struct Args {
    /// Levels by plies from the start: 0..=N.
    #[arg(long, required_unless_present = "discs", conflicts_with = "discs",
          value_parser = clap::value_parser!(u32).range(0..=60))]
    plies: Option<u32>,
    /// Levels by discs on the board: 4..=N, counting positions whose side to move has a
    /// legal move (passes folded into the move before them).
    #[arg(long, value_parser = clap::value_parser!(u32).range(4..=64))]
    discs: Option<u32>,
    /// Also count positions up to the eight symmetries.
    #[arg(long)]
    canonical: bool,
    /// Keep every whole level in DIR (16 bytes a position, about a quarter of the
    /// positions: one per class under the start's symmetries), its spilled runs there too,
    /// and start from the highest level already there: a long run resumes after an
    /// interruption, and shards share the levels below theirs.
    #[arg(long, value_name = "DIR")]
    levels: Option<PathBuf>,
    #[command(flatten)]
    shard: cli::ShardArgs,
    /// Write to FILE (OBF lines, a comment per ply) every position of each ply whose side
    /// to move has no legal move while the other has one, reached without an earlier pass:
    /// each place a game's first pass can fall.
    #[arg(long, value_name = "FILE", requires = "plies", conflicts_with_all = ["discs", "levels", "shard"])]
    first_passes: Option<PathBuf>,
    #[command(flatten)]
    run: RunArgs,
}

/// Peak resident memory of this process so far (Linux), in bytes.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb << 10)
}

#[derive(serde::Serialize)]
struct Row {
    /// Always "enumerate": tells these rows from `retro check`'s in `retro merge`.
    command: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    ply: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    discs: Option<u32>,
    positions: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    canonical: Option<u64>,
    /// "I/N" when the row counts one partition of its level.
    #[serde(skip_serializing_if = "Option::is_none")]
    shard: Option<String>,
    seconds: f64,
    peak_memory_bytes: Option<u64>,
}

/// The convention of the levels, the last level, and the last level counted whole (the
/// one before it with `--shard`, whose last level is partitioned and never kept).
fn levels(args: &Args) -> Result<(Convention, u32, u32), Failure> {
    let (convention, last) = match (args.plies, args.discs) {
        (Some(n), _) => (Convention::Plies, n),
        (None, Some(n)) => (Convention::Discs, n),
        (None, None) => return Err(Failure::Input("give --plies or --discs".into())),
    };
    let last_whole = match args.shard.part {
        Some(_) if last == Level::start(convention).number => {
            return Err(Failure::Input(format!(
                "--shard partitions the level after the start: give --{} {} or more",
                if convention == Convention::Plies {
                    "plies"
                } else {
                    "discs"
                },
                last + 1
            )))
        }
        Some(_) => last - 1,
        None => last,
    };
    Ok((convention, last, last_whole))
}

/// The level to start from: the highest whole one kept in `--levels DIR` (up to
/// `last_whole`), or the start.
fn first_level(args: &Args, convention: Convention, last_whole: u32) -> Result<Level, Failure> {
    let Some(dir) = &args.levels else {
        return Ok(Level::start(convention));
    };
    let failed = |e: std::io::Error| Failure::Input(format!("--levels {}: {e}", dir.display()));
    std::fs::create_dir_all(dir).map_err(failed)?;
    Ok(Level::load_latest(dir, convention, last_whole)
        .map_err(failed)?
        .unwrap_or_else(|| Level::start(convention)))
}

/// The `--first-passes` file, its first line written.
fn first_passes_file(
    args: &Args,
    last: u32,
) -> Result<Option<io::BufWriter<std::fs::File>>, Failure> {
    let Some(path) = &args.first_passes else {
        return Ok(None);
    };
    let mut file = std::fs::File::create(path)
        .map(io::BufWriter::new)
        .map_err(|e| Failure::Input(format!("{}: {e}", path.display())))?;
    writeln!(
        file,
        "% retro enumerate --plies {last} --first-passes: where a game's first pass can fall"
    )?;
    Ok(Some(file))
}

/// A level's row: a sealed JSON line, or a line of the table.
fn write_row(out: &mut impl Write, row: &Row, level: u32, json: bool) -> Result<(), Failure> {
    if json {
        seal::write_sealed(out, row)?;
    } else {
        let canonical = row.canonical.map_or(String::new(), |c| format!("{c:>14}"));
        let memory = row.peak_memory_bytes.map_or("?".into(), |b| {
            format!("{:.0}", b as f64 / (1 << 20) as f64)
        });
        let part = row
            .shard
            .as_ref()
            .map_or(String::new(), |s| format!("  (partition {s})"));
        writeln!(
            out,
            "{level:>5} {:>14}{canonical} {:>9.3} {:>10}{part}",
            row.positions, row.seconds, memory
        )?;
    }
    out.flush()?;
    Ok(())
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let (convention, last, last_whole) = levels(args)?;
    let limit = args.run.key_limit();
    let pool = args.run.threads.pool()?;
    let stop = cli::interrupt_flag();
    let json = args.run.output.json;
    let label = match convention {
        Convention::Plies => "ply",
        Convention::Discs => "discs",
    };
    if !json {
        let canonical = match args.canonical {
            true => format!("{:>14}", "canonical"),
            false => String::new(),
        };
        writeln!(
            out,
            "{label:>5} {:>14}{canonical} {:>9} {:>10}",
            "positions", "seconds", "peak MiB"
        )?;
    }
    let start = Instant::now();
    let mut level = first_level(args, convention, last_whole)?;
    let mut shard = None;
    let mut first_passes = first_passes_file(args, last)?;
    loop {
        let count = pool.install(|| match (&args.levels, shard) {
            (Some(dir), None) => level.count_in(dir, convention, args.canonical, limit, &stop),
            _ => level.count_until(args.canonical, limit, &stop),
        });
        let count = match count {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {
                return interrupted(out, json, label, level.number);
            }
            count => count?,
        };
        let row = Row {
            command: "enumerate",
            ply: (convention == Convention::Plies).then_some(count.level),
            discs: (convention == Convention::Discs).then_some(count.level),
            positions: count.positions,
            canonical: count.canonical,
            shard: shard.map(|(i, n)| format!("{i}/{n}")),
            seconds: start.elapsed().as_secs_f64(),
            peak_memory_bytes: peak_memory(),
        };
        write_row(out, &row, count.level, json)?;
        if let Some(file) = &mut first_passes {
            let found = level.first_passes()?;
            writeln!(file, "% ply {}: {} positions", count.level, found.len())?;
            for position in found {
                writeln!(file, "{}", engine::Obf::new(position))?;
            }
            file.flush()?;
        }
        if count.level >= last || count.positions == 0 {
            return Ok(());
        }
        if count.level + 1 == last {
            shard = args.shard.part;
        }
        let expanding = level.sets.iter().map(|s| s.len() as u64).sum();
        let progress =
            cli::progress_bar(expanding, &format!("positions of {label} {}", count.level));
        let build = Build {
            limit,
            dir: args.levels.as_deref(),
            partition: shard.map(|(i, n)| (i - 1, n)),
            stop: &stop,
            done: &|n| progress.inc(n as u64),
        };
        let next = pool.install(|| level.build_next(convention, &build));
        progress.finish_and_clear();
        level = match next {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {
                return interrupted(out, json, label, count.level + 1);
            }
            next => next?,
        };
        if let (Some(dir), None) = (&args.levels, shard) {
            level = level.save(dir, convention)?;
        }
    }
}

/// How `enumerate` ends when stopped while counting level `number`: as the other batch
/// commands, a summary line (JSON with `--json`) saying the rows above are complete.
fn interrupted(out: &mut impl Write, json: bool, label: &str, number: u32) -> Result<(), Failure> {
    if json {
        seal::write_sealed(
            out,
            &serde_json::json!({"command": "enumerate", "summary": true, "interrupted": true,
                "stopped_at": format!("{label} {number}")}),
        )?;
    } else {
        writeln!(
            out,
            "interrupted while counting {label} {number}: the rows above are complete"
        )?;
    }
    Err(Failure::Interrupted)
}
