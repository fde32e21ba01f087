//! `satgen emit`: the question as DIMACS.

use std::io::{BufWriter, Write};
use std::path::PathBuf;

use engine::cli::Failure;
use satgen::{dimacs, encode, encode_target};

use crate::question::{Asked, QuestionArgs};

#[derive(clap::Args)]
pub(crate) struct EmitArgs {
    #[command(flatten)]
    question: QuestionArgs,
    /// With --target: the flip accounting instead (what `retro check` reports as method
    /// "accounting"), a necessary condition with time left out: UNSAT means no game
    /// reaches the target; a model proves nothing.
    #[arg(long, requires = "target", conflicts_with_all = ["no_passes", "no_passes_before", "single_pass_before", "mobility"])]
    accounting: bool,
    /// Output file.
    #[arg(short, long)]
    output: PathBuf,
}

pub(crate) fn emit(args: &EmitArgs) -> Result<(), Failure> {
    let file = std::fs::File::create(&args.output)
        .map_err(|e| Failure::Input(format!("{}: {e}", args.output.display())))?;
    let mut writer = BufWriter::new(file);
    let formula = match args.question.asked()? {
        Asked::Mobility(q) => {
            let encoded = encode(&q);
            dimacs::write(&mut writer, &q, &encoded, &[])?;
            encoded.formula
        }
        Asked::Target(position, _) if args.accounting => {
            let formula = satgen::accounting::encode_accounting(&position);
            dimacs::write_accounting(&mut writer, &position, &formula)?;
            formula
        }
        Asked::Target(position, cube) => {
            let question = encode_target(&position, cube);
            dimacs::write_target(&mut writer, &question)?;
            question.formula
        }
    };
    writer.flush()?;
    eprintln!(
        "satgen: {} variables, {} clauses written to {}",
        formula.variables(),
        formula.clauses(),
        args.output.display()
    );
    Ok(())
}
