//! `satgen check-proof`: a proof of unsatisfiability against its CNF.

use std::io::Write;
use std::path::PathBuf;

use engine::cli::{self, Failure};

#[derive(clap::Args)]
pub(crate) struct CheckProofArgs {
    /// The CNF (DIMACS).
    pub cnf: PathBuf,
    /// The proof (LRAT or varisat's format).
    pub proof: PathBuf,
    #[command(flatten)]
    pub checker: satgen::proof::CheckerArgs,
}

pub(crate) fn check_proof(args: &CheckProofArgs, out: &mut impl Write) -> Result<(), Failure> {
    for path in [&args.cnf, &args.proof] {
        std::fs::File::open(path)
            .map_err(|e| Failure::Input(format!("{}: {e}", path.display())))?;
    }
    let checker = args.checker.checker().map_err(Failure::Input)?;
    let progress = cli::spinner(format!("checking {}", args.proof.display()));
    let checked = satgen::proof::check_files(&args.cnf, &args.proof, checker);
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
