//! `satgen check-proof`: a proof of unsatisfiability against its CNF.

use std::io::Write;
use std::path::PathBuf;

use engine::cli::{self, Failure};

#[derive(clap::Args)]
pub(crate) struct Args {
    /// The CNF (DIMACS; `-`: standard input).
    pub cnf: PathBuf,
    /// The proof (LRAT or varisat's format; `-`: standard input).
    pub proof: PathBuf,
    #[command(flatten)]
    pub checker: satgen::proof::CheckerArgs,
}

pub(crate) fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    if args.cnf == args.proof {
        return Err(Failure::Input(format!(
            "{}: the CNF and the proof are one file",
            args.cnf.display()
        )));
    }
    for path in [&args.cnf, &args.proof] {
        if path.as_os_str() != "-" {
            std::fs::File::open(path)
                .map_err(|e| Failure::Input(format!("{}: {e}", path.display())))?;
        }
    }
    let checker = args.checker.checker()?;
    // Either may be standard input (`-`): both are read more than once.
    let (cnf, _cnf_temp) = cli::input_file(&args.cnf)?;
    let (proof, _proof_temp) = cli::input_file(&args.proof)?;
    let progress = cli::spinner(format!("checking {}", args.proof.display()));
    let checked = satgen::proof::check_files(&cnf, &proof, checker);
    progress.finish_and_clear();
    let checked =
        checked.map_err(|e| Failure::Invalid(format!("{}: {e}", args.proof.display())))?;
    writeln!(
        out,
        "VERIFIED: {} ({:?}) proves {} unsatisfiable (checked by {})",
        args.proof.display(),
        checked.format,
        args.cnf.display(),
        checked.by
    )?;
    Ok(())
}
