//! `satgen decode`: a solver's model of an emitted CNF turned into a game, replayed by the
//! core.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use engine::cli::{self, Failure};
use satgen::dimacs;
use satgen::solve::Outcome;

use crate::solve::{answer, print, target_answer};

#[derive(clap::Args)]
pub(crate) struct Args {
    /// The CNF written by `satgen emit` (`-`: standard input).
    cnf: PathBuf,
    /// The solver's output (s/v lines; `-`: standard input).
    model: PathBuf,
    #[command(flatten)]
    output: cli::OutputArgs,
}

fn open(path: &std::path::Path) -> Result<Box<dyn std::io::BufRead>, Failure> {
    Ok(engine::obf::open(path)?)
}

/// The CNF is read up to its `p cnf` line (the header says what the variables mean), the
/// model with a cap set by the CNF's variables: neither file is read whole unbounded.
pub(crate) fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let start = Instant::now();
    if args.cnf == args.model {
        return Err(Failure::Input(format!(
            "{}: the CNF and the model are one file",
            args.cnf.display()
        )));
    }
    let header =
        dimacs::read_header(open(&args.cnf)?).map_err(|e| Failure::Input(e.located(&args.cnf)))?;
    let cnf = &header.comments;
    let model = |args: &Args| {
        dimacs::read_model_from(open(&args.model)?, header.variables)
            .map_err(|e| Failure::Input(e.located(&args.model)))
    };
    if let Some(layout) =
        dimacs::read_target_layout(cnf).map_err(|e| Failure::Input(e.located(&args.cnf)))?
    {
        let outcome = model(args)?.map_or(Outcome::Unsat, Outcome::Sat);
        return print(
            &target_answer(&layout, outcome, start)?,
            args.output.json,
            out,
        );
    }
    let layout = dimacs::read_layout(cnf).map_err(|e| Failure::Input(e.located(&args.cnf)))?;
    let (wanted, side) =
        dimacs::read_target(cnf).map_err(|e| Failure::Input(e.located(&args.cnf)))?;
    let answer = answer(&layout, model(args)?, wanted, side, start)?;
    print(&answer, args.output.json, out)
}
