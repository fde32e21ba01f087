use std::io::Write;
use std::path::PathBuf;

use engine::cli::{self, EvalArgs, Failure};
use engine::train::{datagen, probcut};
use engine::Board;

#[derive(clap::Args)]
#[command(after_long_help = "--json: one per (empties, depth), then per midgame depth.")]
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
    /// Also measure the midgame model on this many positions with 20 to 52 empties (spread
    /// evenly over the files' rows): each depth of --midgame-depths against its shallow
    /// prediction depth.
    #[arg(long, default_value_t = 0)]
    midgame: usize,
    #[arg(long, value_delimiter = ',', default_value = "4,5,6,7,8,9")]
    midgame_depths: Vec<u32>,
    #[command(flatten)]
    output: cli::OutputArgs,
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
    let midgame_rows: Vec<Board> = rows
        .iter()
        .map(|r| r.board)
        .filter(|b| (20..=52).contains(&b.empty_count()))
        .collect();
    let step = (midgame_rows.len() / args.midgame.max(1)).max(1);
    let sample: Vec<Board> = midgame_rows
        .into_iter()
        .step_by(step)
        .take(args.midgame)
        .collect();
    let midgame = match args.midgame {
        0 => Vec::new(),
        _ => probcut::measure_midgame(&sample, &eval, &args.midgame_depths),
    };
    if args.output.json {
        for e in &errors {
            cli::write_json(out, e)?;
        }
        for e in &midgame {
            cli::write_json(out, e)?;
        }
        return Ok(());
    }
    let endgame_rows = errors
        .iter()
        .map(|e| (e.empties, e.depth, e.positions, e.bias, e.sigma));
    print_table(out, ["empties", "depth"], endgame_rows)?;
    if !midgame.is_empty() {
        writeln!(out)?;
        let midgame_rows = midgame
            .iter()
            .map(|e| (e.depth, e.shallow, e.positions, e.bias, e.sigma));
        print_table(out, ["depth", "shallow"], midgame_rows)?;
    }
    Ok(())
}

/// An error table: the two columns that say what was measured (`keys`), then the number
/// of positions, the bias and the standard deviation.
fn print_table(
    out: &mut impl Write,
    keys: [&str; 2],
    rows: impl Iterator<Item = (u32, u32, usize, f64, f64)>,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{:>7} {:>7} {:>9} {:>7} {:>7}",
        keys[0], keys[1], "positions", "bias", "sigma"
    )?;
    for (a, b, positions, bias, sigma) in rows {
        writeln!(out, "{a:>7} {b:>7} {positions:>9} {bias:>7.2} {sigma:>7.2}")?;
    }
    Ok(())
}
