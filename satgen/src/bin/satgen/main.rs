//! `satgen`: CNF for "a legal game reaching N legal moves", solved inside or outside,
//! models decoded and replayed.

use std::io;
use std::process::ExitCode;

mod check_proof;
mod cubes;
mod curve;
mod curve_plot;
mod decode;
mod emit;
mod question;
mod solve;

use clap::{Parser, Subcommand};
use engine::cli;

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
    Emit(emit::Args),
    /// Build and solve: SAT with a replayed game, or UNSAT.
    Solve(solve::Args),
    /// Turn a solver's model of an emitted CNF into a game, replayed by the core.
    Decode(decode::Args),
    /// Split the question by the first plies into independent CNFs and a manifest.
    Cubes(cubes::Args),
    /// The maximum-mobility curve: for each ply, the most legal moves after exactly that
    /// many plies, with a witness game and the UNSAT (and proof) of one more.
    Curve(curve::Args),
    /// Draw the curve from the JSON Lines of `satgen curve --json` (SVG).
    CurvePlot(curve_plot::Args),
    /// Check a proof of unsatisfiability against its CNF: LRAT (CaDiCaL's, text or binary)
    /// or varisat's format (`retro check --proof`), told apart by content: VERIFIED, or the
    /// first step that fails (exit 1).
    CheckProof(check_proof::Args),
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
        Command::Emit(args) => emit::run(&args),
        Command::Solve(args) => solve::run(&args, &mut out),
        Command::Decode(args) => decode::run(&args, &mut out),
        Command::Cubes(args) => cubes::run(&args),
        Command::CheckProof(args) => check_proof::run(&args, &mut out),
        Command::Curve(args) => curve::run(&args, &mut out),
        Command::CurvePlot(args) => curve_plot::run(&args, &mut out),
        Command::Completions(args) => cli::completions::<Cli>(&args, &mut out),
        Command::Manual(args) => cli::manual::<Cli>(&args, &mut out),
    };
    cli::exit_code("satgen", result)
}
