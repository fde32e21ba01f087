use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use engine::cli::{self, Failure};
use engine::eval::PatternEval;
use engine::train::datagen;
use engine::train::fit::{self, FitOptions};

#[derive(clap::Args)]
#[command(after_long_help = "--json: one per phase.")]
pub struct Args {
    /// Data files written by `engine datagen`.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Weights file to write.
    #[arg(short, long)]
    out: PathBuf,
    /// Ridge penalty on each weight.
    #[arg(long, default_value_t = FitOptions::default().ridge)]
    ridge: f64,
    /// Conjugate-gradient iterations per phase.
    #[arg(long, default_value_t = FitOptions::default().iterations)]
    iterations: usize,
    /// Positions this many empties outside a phase also train it.
    #[arg(long, default_value_t = FitOptions::default().margin)]
    margin: u32,
    /// Keep one position in N (by board hash) out of training to measure the error.
    #[arg(long, default_value_t = FitOptions::default().holdout)]
    holdout: u64,
    /// Ignore labels of this kind (exact, outcome, depthD); repeatable.
    #[arg(long)]
    skip_label: Vec<String>,
    #[command(flatten)]
    output: cli::OutputArgs,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let mut samples = Vec::new();
    for path in &args.data {
        let name = path.display();
        let text = std::fs::read_to_string(path)
            .map_err(|e| Failure::Input(format!("{name}: cannot read: {e}")))?;
        let rows = datagen::read(&text).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
        samples.extend(
            rows.iter()
                .filter(|r| !args.skip_label.contains(&r.label.name()))
                .map(|r| r.sample()),
        );
    }
    if samples.is_empty() {
        return Err(Failure::Input("no positions to train on".into()));
    }
    let options = FitOptions {
        ridge: args.ridge,
        iterations: args.iterations,
        margin: args.margin,
        holdout: args.holdout,
    };
    let start = Instant::now();
    let progress = cli::progress_bar(engine::eval::PHASES as u64, "phases");
    let (tables, reports) = fit::fit(&samples, &options, |_| progress.inc(1));
    progress.finish_and_clear();
    let eval = PatternEval::from_discs(&tables);
    let bytes = eval.encode();
    cli::write_file(&args.out, |w| Ok(w.write_all(&bytes)?))?;
    if args.output.json {
        for report in &reports {
            cli::write_json(out, report)?;
        }
    } else {
        writeln!(
            out,
            "{:>5} {:>7} {:>9} {:>8} {:>10} {:>10} {:>10}",
            "phase", "empties", "train", "test", "train rms", "test rms", "mean rms"
        )?;
        for r in &reports {
            writeln!(
                out,
                "{:>5} {:>7} {:>9} {:>8} {:>10.2} {:>10.2} {:>10.2}",
                r.phase, r.empties, r.train, r.test, r.train_rmse, r.test_rmse, r.test_rmse_of_mean
            )?;
        }
        writeln!(
            out,
            "{} positions, weights written to {} ({} bytes) in {:.1} s",
            samples.len(),
            args.out.display(),
            bytes.len(),
            start.elapsed().as_secs_f64()
        )?;
    }
    Ok(())
}
