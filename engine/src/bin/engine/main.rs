//! `engine`: show positions, count games (perft) and, later, solve and play.

mod perft;
mod show;
mod solve;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

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

/// What can end a command: bad input (exit 2), answers that disagree with the expected
/// ones (exit 1), an interrupt (exit 130), or a failed write (a closed pipe ends quietly).
pub enum Failure {
    Input(String),
    Mismatch(usize),
    Interrupted,
    Io(io::Error),
}

impl From<engine::ParseError> for Failure {
    fn from(e: engine::ParseError) -> Failure {
        Failure::Input(e.to_string())
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Io(e)
    }
}

/// A pool of `threads` workers (default: one per core).
pub fn thread_pool(threads: Option<u32>) -> Result<rayon::ThreadPool, Failure> {
    let threads = threads.map_or(0, |t| t as usize);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Failure::Input(format!("cannot start {threads} threads: {e}")))
}

/// Writes `value` as one line of JSON.
pub fn write_json(out: &mut impl Write, value: &impl serde::Serialize) -> Result<(), Failure> {
    let line = serde_json::to_string(value).map_err(|e| Failure::Io(e.into()))?;
    writeln!(out, "{line}")?;
    Ok(())
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("invalid arguments");
            eprintln!("engine: {}", first.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    let mut out = io::stdout().lock();
    let result = match cli.command {
        Command::Show(args) => show::run(&args, &mut out),
        Command::Perft(args) => perft::run(&args, &mut out),
        Command::Solve(args) => solve::run(&args, &mut out),
    };
    match result.and_then(|()| out.flush().map_err(Failure::from)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(message)) => {
            eprintln!("engine: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Mismatch(n)) => {
            eprintln!("engine: {n} answers differ from the expected ones");
            ExitCode::from(1)
        }
        Err(Failure::Interrupted) => ExitCode::from(130),
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Io(e)) => {
            eprintln!("engine: {e}");
            ExitCode::from(2)
        }
    }
}
