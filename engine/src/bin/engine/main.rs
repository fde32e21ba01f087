//! `engine`: show positions, count games (perft), solve endgames exactly, analyse
//! positions with the evaluation, and make the training data and weights of that evaluation.

mod analyze;
mod datagen;
mod debias;
mod match_;
mod merge;
mod nboard;
mod perft;
mod play;
mod probcut;
mod show;
mod solve;
mod train;

use std::io;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use engine::cli;

#[derive(Parser)]
#[command(
    name = "engine",
    version,
    arg_required_else_help = true,
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
    /// Score every legal move by a depth-limited search with the evaluation.
    Analyze(analyze::Args),
    /// Play a game against the engine in the terminal.
    Play(play::Args),
    /// A match between two evaluations at equal depth, both colours of each opening.
    Match(match_::Args),
    /// Speak the NBoard protocol on stdin/stdout (for GUIs).
    Nboard(nboard::Args),
    /// Play games and label their positions, as training data for the evaluation.
    Datagen(datagen::Args),
    /// Fit the pattern evaluation's weights to data from `datagen`.
    Train(train::Args),
    /// Measure how well shallow searches predict exact scores (the ProbCut error model).
    Probcut(probcut::Args),
    /// Take the side-to-move bias out of weights (per phase, measured by the parity of
    /// search depth) and write the corrected weights.
    Debias(debias::Args),
    /// Put the JSON Lines of `--shard` runs (engine solve, dfpn score/wld) back together:
    /// one table, the totals, the answers checked; missing or repeated shards are errors.
    Merge(merge::Args),
    /// Shell completions (bash, zsh, fish, elvish, powershell) on standard output.
    Completions(cli::CompletionsArgs),
    /// Man pages of this tool and each of its commands, written into a directory.
    Manual(cli::ManualArgs),
}

fn main() -> ExitCode {
    let cli: Cli = match cli::parse_args() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let mut out = io::stdout().lock();
    let result = match cli.command {
        Command::Show(args) => show::run(&args, &mut out),
        Command::Perft(args) => perft::run(&args, &mut out),
        Command::Solve(args) => solve::run(&args, &mut out),
        Command::Analyze(args) => analyze::run(&args, &mut out),
        Command::Play(args) => play::run(&args, &mut out),
        Command::Match(args) => match_::run(&args, &mut out),
        Command::Nboard(args) => nboard::run(&args, &mut out),
        Command::Datagen(args) => datagen::run(&args, &mut out),
        Command::Train(args) => train::run(&args, &mut out),
        Command::Probcut(args) => probcut::run(&args, &mut out),
        Command::Debias(args) => debias::run(&args, &mut out),
        Command::Merge(args) => merge::run(&args, &mut out),
        Command::Completions(args) => cli::completions::<Cli>(&args, &mut out),
        Command::Manual(args) => cli::manual::<Cli>(&args, &mut out),
    };
    cli::exit_code("engine", result)
}
