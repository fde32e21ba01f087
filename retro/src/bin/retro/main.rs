//! `retro`: forward enumeration of reachable positions and maximum mobility.

use std::io;
use std::process::ExitCode;

mod check;
mod enumerate;
mod maxmob;
mod merge;
mod plots;
mod reach;
mod sample;

use clap::{Parser, Subcommand};
use engine::cli;

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
    Maxmob(maxmob::Args),
    /// Is this position reachable from the start? A witness game (replayed), or how it
    /// was refuted: a cheap invariant, the exhaustive backward search, or UNSAT.
    Reach(reach::Args),
    /// Reachability of every position of a file (OBF lines, or CSV of hex bitboards
    /// player,opponent: then either colour to move counts). Rows come as positions are
    /// decided (the quick ones first, each written at once, so that a stopped run keeps
    /// them), numbered by the file; `merge` puts them in file order.
    Check(check::Args),
    /// Positions of uniformly random legal games with the given numbers of discs, as OBF
    /// lines (reachable by construction: test material for `reach` and `check`), or
    /// uniformly random boards (`--random-boards`).
    Sample(sample::Args),
    /// The JSON of `check --shard I/N` runs put back together: counts by answer and
    /// method, and (`--estimate`, for random boards) the number of legal positions.
    Merge(merge::Args),
    /// Shell completions (bash, zsh, fish, elvish, powershell) on standard output.
    Completions(cli::CompletionsArgs),
    /// Man pages of this tool and each of its commands, written into a directory.
    Manual(cli::ManualArgs),
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
        Command::Maxmob(args) => maxmob::run(&args, &mut out),
        Command::Reach(args) => reach::run(&args, &mut out),
        Command::Check(args) => check::run(&args, &mut out),
        Command::Merge(args) => merge::run(&args, &mut out),
        Command::Sample(args) => sample::run(&args, &mut out),
        Command::Completions(args) => cli::completions::<Cli>(&args, &mut out),
        Command::Manual(args) => cli::manual::<Cli>(&args, &mut out),
    };
    cli::exit_code("retro", result)
}
