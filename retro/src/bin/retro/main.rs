//! `retro`: forward enumeration of reachable positions and maximum mobility.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

mod maxmob;
mod merge;
mod plots;
mod reach;

use clap::{Parser, Subcommand};
use engine::cli::{self, seal, Failure};
use retro::enumerate::Build;
use retro::{Convention, Level};

#[derive(Parser)]
#[command(
    name = "retro",
    version,
    arg_required_else_help = true,
    about = "Which Othello positions can a game from the start reach?"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the distinct positions after each ply (or with each number of discs).
    Enumerate(EnumerateArgs),
    /// The largest mobility reachable within N plies, with a witness game.
    Maxmob(maxmob::MaxmobArgs),
    /// Is this position reachable from the start? A witness game (replayed), or how it
    /// was refuted: a cheap invariant, the exhaustive backward search, or UNSAT.
    Reach(reach::ReachArgs),
    /// Reachability of every position of a file (OBF lines, or CSV of hex bitboards
    /// player,opponent: then either colour to move counts). Rows come as positions are
    /// decided (the quick ones first, each written at once, so that a stopped run keeps
    /// them), numbered by the file; `merge` puts them in file order.
    Check(reach::CheckArgs),
    /// Positions of uniformly random legal games with the given numbers of discs, as OBF
    /// lines (reachable by construction: test material for `reach` and `check`), or
    /// uniformly random boards (`--random-boards`).
    Sample(SampleArgs),
    /// The JSON of `check --shard I/N` runs put back together: counts by answer and
    /// method, and (`--estimate`, for random boards) the number of legal positions.
    Merge(merge::MergeArgs),
    /// Shell completions (bash, zsh, fish, elvish, powershell) on standard output.
    Completions(cli::CompletionsArgs),
    /// Man pages of this tool and each of its commands, written into a directory.
    Manual(cli::ManualArgs),
}

#[derive(clap::Args)]
struct SampleArgs {
    /// Disc counts, e.g. 20,24,28.
    #[arg(long, value_delimiter = ',', required_unless_present = "random_boards",
          value_parser = clap::value_parser!(u32).range(4..=64))]
    discs: Vec<u32>,
    /// Instead: positions drawn uniformly from all boards with the centre occupied (each
    /// other square empty, black or white) and either side to move: 2^5 * 3^60 positions,
    /// a superset of the legal ones, so the fraction reachable estimates their number.
    #[arg(long, conflicts_with = "discs")]
    random_boards: bool,
    /// Positions per disc count (with --random-boards: in all).
    #[arg(long, default_value_t = 50)]
    count: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn sample(args: &SampleArgs, out: &mut impl Write) -> Result<(), Failure> {
    if args.random_boards {
        writeln!(
            out,
            "% retro sample --random-boards --count {} --seed {}",
            args.count, args.seed
        )?;
        for p in retro::sample::random_positions(args.count, args.seed) {
            writeln!(out, "{}", engine::Obf::new(p))?;
        }
        return Ok(());
    }
    writeln!(
        out,
        "% retro sample --discs {} --count {} --seed {}",
        args.discs
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(","),
        args.count,
        args.seed
    )?;
    for &discs in &args.discs {
        for p in retro::sample::random_game_positions(discs, args.count, args.seed) {
            writeln!(out, "{}", engine::Obf::new(p))?;
        }
    }
    Ok(())
}

#[derive(clap::Args)]
#[command(
    after_long_help = "--shard I/N: Count only partition I of N of the last level (its positions split by a hash that the symmetries and the side to move leave alone; the levels below are whole), so that separate runs or machines share a level too large for one; `retro merge` adds the shards' rows up."
)]
struct EnumerateArgs {
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

#[derive(clap::Args)]
pub struct RunArgs {
    /// Memory for the positions being sorted, in MiB; larger levels spill to temporary
    /// files (in TMPDIR). The process needs up to 100 MiB more whatever the budget (its
    /// code, the run files' read buffers, each thread's batch), so peak memory is at most
    /// this plus 100 MiB.
    #[arg(long, default_value_t = 2048, value_parser = cli::parse_memory_mb, allow_hyphen_values = true)]
    pub memory_mb: u64,
    #[command(flatten)]
    pub threads: cli::ThreadArgs,
    #[command(flatten)]
    pub output: cli::OutputArgs,
}

impl RunArgs {
    /// Keys (16 bytes) held in memory at once: the level being built and its sort.
    pub fn key_limit(&self) -> usize {
        (self.memory_mb as usize) << 20 >> 5
    }
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

fn enumerate(args: &EnumerateArgs, out: &mut impl Write) -> Result<(), Failure> {
    let (convention, last) = match (args.plies, args.discs) {
        (Some(n), _) => (Convention::Plies, n),
        (None, Some(n)) => (Convention::Discs, n),
        (None, None) => return Err(Failure::Input("give --plies or --discs".into())),
    };
    // With --shard the last level is partitioned and never kept.
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
    let limit = args.run.key_limit();
    let pool = args.run.threads.pool()?;
    let stop = cli::interrupt_flag();
    let label = match convention {
        Convention::Plies => "ply",
        Convention::Discs => "discs",
    };
    if !args.run.output.json {
        let canonical = if args.canonical {
            format!("{:>14}", "canonical")
        } else {
            String::new()
        };
        writeln!(
            out,
            "{label:>5} {:>14}{canonical} {:>9} {:>10}",
            "positions", "seconds", "peak MiB"
        )?;
    }
    let start = Instant::now();
    let mut level = match &args.levels {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .map_err(|e| Failure::Input(format!("--levels {}: {e}", dir.display())))?;
            Level::load_latest(dir, convention, last_whole)
                .map_err(|e| Failure::Input(format!("--levels {}: {e}", dir.display())))?
                .unwrap_or_else(|| Level::start(convention))
        }
        None => Level::start(convention),
    };
    let mut shard = None;
    let mut first_passes = match &args.first_passes {
        Some(path) => {
            let mut file = std::fs::File::create(path)
                .map(io::BufWriter::new)
                .map_err(|e| Failure::Input(format!("{}: {e}", path.display())))?;
            writeln!(
                file,
                "% retro enumerate --plies {last} --first-passes: where a game's first pass can fall"
            )?;
            Some(file)
        }
        None => None,
    };
    loop {
        let count = pool.install(|| match (&args.levels, shard) {
            (Some(dir), None) => level.count_in(dir, convention, args.canonical, limit, &stop),
            _ => level.count_until(args.canonical, limit, &stop),
        });
        let count = match count {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {
                return interrupted(out, args.run.output.json, label, level.number);
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
        if args.run.output.json {
            seal::write_sealed(out, &row)?;
        } else {
            let canonical = count
                .canonical
                .map_or(String::new(), |c| format!("{c:>14}"));
            let memory = row.peak_memory_bytes.map_or("?".into(), |b| {
                format!("{:.0}", b as f64 / (1 << 20) as f64)
            });
            let part = row
                .shard
                .as_ref()
                .map_or(String::new(), |s| format!("  (partition {s})"));
            writeln!(
                out,
                "{:>5} {:>14}{canonical} {:>9.3} {:>10}{part}",
                count.level, count.positions, row.seconds, memory
            )?;
        }
        out.flush()?;
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
                return interrupted(out, args.run.output.json, label, count.level + 1);
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

fn main() -> ExitCode {
    let cli: Cli = match cli::parse_args() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let mut out = io::stdout().lock();
    let result = match cli.command {
        Command::Enumerate(args) => enumerate(&args, &mut out),
        Command::Maxmob(args) => maxmob::maxmob(&args, &mut out),
        Command::Reach(args) => reach::reach_one(&args, &mut out),
        Command::Check(args) => reach::check(&args, &mut out),
        Command::Merge(args) => merge::merge(&args, &mut out),
        Command::Sample(args) => sample(&args, &mut out),
        Command::Completions(args) => cli::completions::<Cli>(&args, &mut out),
        Command::Manual(args) => cli::manual::<Cli>(&args, &mut out),
    };
    cli::exit_code("retro", result)
}
