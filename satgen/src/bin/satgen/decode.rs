//! `satgen decode`: a solver's model of an emitted CNF turned into a game, replayed by the
//! core.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use engine::cli::Failure;
use satgen::dimacs;
use satgen::solve::Outcome;

use crate::solve::{answer, print, target_answer};

#[derive(clap::Args)]
pub(crate) struct DecodeArgs {
    /// The CNF written by `satgen emit`.
    cnf: PathBuf,
    /// The solver's output (s/v lines).
    model: PathBuf,
    #[arg(long)]
    json: bool,
}

fn read(path: &PathBuf) -> Result<String, Failure> {
    std::fs::read_to_string(path).map_err(|e| Failure::Input(format!("{}: {e}", path.display())))
}

pub(crate) fn decode_files(args: &DecodeArgs, out: &mut impl Write) -> Result<(), Failure> {
    let start = Instant::now();
    let cnf = read(&args.cnf)?;
    if let Some(layout) =
        dimacs::read_target_layout(&cnf).map_err(|e| Failure::Input(e.located(&args.cnf)))?
    {
        let model_text = read(&args.model)?;
        let model =
            dimacs::read_model(&model_text).map_err(|e| Failure::Input(e.located(&args.model)))?;
        let outcome = model.map_or(Outcome::Unsat, Outcome::Sat);
        return print(&target_answer(&layout, outcome, start)?, args.json, out);
    }
    let layout = dimacs::read_layout(&cnf).map_err(|e| Failure::Input(e.located(&args.cnf)))?;
    let (wanted, side) =
        dimacs::read_target(&cnf).map_err(|e| Failure::Input(e.located(&args.cnf)))?;
    let model_text = read(&args.model)?;
    let model =
        dimacs::read_model(&model_text).map_err(|e| Failure::Input(e.located(&args.model)))?;
    let answer = answer(&layout, model, wanted, side, start)?;
    print(&answer, args.json, out)
}
