//! `satgen emit`: the question as DIMACS.

use std::path::PathBuf;

use engine::cli::{self, Failure};
use satgen::{dimacs, encode, encode_target};

use crate::question::{Asked, QuestionArgs};

#[derive(clap::Args)]
pub(crate) struct Args {
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

/// The question written to `--output` whole or not at all: a question that cannot be
/// built (a target no game reaches by the cheap tests, say) leaves no file behind.
pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    let asked = args.question.asked()?;
    let formula = cli::write_file(&args.output, |mut writer| {
        let writer = &mut writer;
        Ok(match asked {
            Asked::Mobility(q) => {
                let encoded = encode(&q);
                dimacs::write(writer, &q, &encoded, &[])?;
                encoded.formula
            }
            Asked::Target(position, _) if args.accounting => {
                let formula = satgen::accounting::encode_accounting(&position);
                dimacs::write_accounting(writer, &position, &formula)?;
                formula
            }
            Asked::Target(position, cube) => {
                let question = encode_target(&position, cube);
                dimacs::write_target(writer, &question)?;
                question.formula
            }
        })
    })?;
    eprintln!(
        "satgen: {} variables, {} clauses written to {}",
        formula.variables(),
        formula.clauses(),
        args.output.display()
    );
    Ok(())
}
