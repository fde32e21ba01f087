use std::io::Write;
use std::path::PathBuf;

use engine::cli::{self, EvalArgs, Failure};
use engine::eval::datagen;
use engine::search::probcut;

#[derive(clap::Args)]
pub struct Args {
    /// Data files written by `engine datagen` (their exactly labelled positions are used).
    #[arg(required = true)]
    data: Vec<PathBuf>,
    #[command(flatten)]
    eval: EvalArgs,
    /// Depths of the predicting search, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "0,1,2,3,4")]
    depths: Vec<u32>,
    /// Use the one position in N held out of training (as `engine train --holdout`).
    #[arg(long, default_value_t = 10)]
    holdout: u64,
    /// One JSON object per (empties, depth).
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let eval = args.eval.load()?;
    let mut rows = Vec::new();
    for path in &args.data {
        let name = path.display();
        let text = std::fs::read_to_string(path)
            .map_err(|e| Failure::Input(format!("{name}: cannot read: {e}")))?;
        rows.extend(datagen::read(&text).map_err(|e| Failure::Input(format!("{name}: {e}")))?);
    }
    let errors = probcut::measure(&rows, &*eval, &args.depths, args.holdout);
    if errors.is_empty() {
        return Err(Failure::Input(
            "no exactly labelled held-out positions".into(),
        ));
    }
    if args.json {
        for e in &errors {
            cli::write_json(out, e)?;
        }
        return Ok(());
    }
    writeln!(
        out,
        "{:>7} {:>5} {:>9} {:>7} {:>7}",
        "empties", "depth", "positions", "bias", "sigma"
    )?;
    for e in &errors {
        writeln!(
            out,
            "{:>7} {:>5} {:>9} {:>7.2} {:>7.2}",
            e.empties, e.depth, e.positions, e.bias, e.sigma
        )?;
    }
    Ok(())
}
