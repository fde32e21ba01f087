//! `engine`: show positions, count games (perft) and, later, solve and play.

mod perft;
mod show;
mod solve;

use std::io;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use engine::cli;

#[derive(Parser)]
#[command(
    name = "engine",
    version,
    about = "Othello engine: positions, perft, exact solving"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Show a position: board, side to move, legal moves.
    Show(show::Args),
    /// Count games of each length up to DEPTH plies (a pass is a ply).
    Perft(perft::Args),
    /// Exact final score and best move of endgame positions.
    Solve(solve::Args),
}

fn main() -> ExitCode {
    let cli: Cli = match cli::parse_args("engine") {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let mut out = io::stdout().lock();
    let result = match cli.command {
        Command::Show(args) => show::run(&args, &mut out),
        Command::Perft(args) => perft::run(&args, &mut out),
        Command::Solve(args) => solve::run(&args, &mut out),
    };
    cli::exit_code("engine", result)
}
