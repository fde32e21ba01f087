//! `retro`: forward enumeration of reachable positions and maximum mobility.

use std::io::{self, Write};
use std::process::ExitCode;

mod enumerate;
mod maxmob;
mod merge;
mod plots;
mod reach;

use clap::{Parser, Subcommand};
use engine::cli::{self, Failure};

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
    Enumerate(enumerate::Args),
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

fn main() -> ExitCode {
    let cli: Cli = match cli::parse_args() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let mut out = io::stdout().lock();
    let result = match cli.command {
        Command::Enumerate(args) => enumerate::run(&args, &mut out),
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
