//! `engine debias`: takes the side-to-move bias out of a weights file.
//!
//! Weights trained on labels that are the previous weights' own even-depth searches keep
//! whatever bias those weights had for the side to move: an even-depth search ends at a
//! position with the same side to move, so the bias passes into the label and training
//! fits it again. A bias `b` of the evaluation (for the side to move) shows in search as
//! `+b` at even depths and `-b` at odd ones; so per phase, half the mean difference between
//! even- and odd-depth searches of the phase's positions measures it, and it comes off
//! the phase's constant. Leaves of one phase's searches lie in the next phase down, so
//! the correction is measured and applied again for a few rounds. The last phase is the
//! start alone, set to the game's value.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use engine::cli::{self, Failure};
use engine::eval::{phase, phase_empties, PHASES};
use engine::eval::{Evaluation, PatternEval};
use engine::search::midgame::Midgame;
use engine::Game;
use rand::{rngs::StdRng, SeedableRng};

#[derive(clap::Args)]
#[command(after_long_help = "--json: one per phase.")]
pub struct Args {
    /// Weights to correct: a file written by `engine train`, or "trained" (the built-in
    /// weights).
    #[arg(default_value = "trained")]
    weights: String,
    /// Corrected weights file to write.
    #[arg(short, long)]
    out: PathBuf,
    /// Uniformly random games whose positions measure the bias.
    #[arg(long, default_value_t = 300)]
    games: u64,
    /// Only phases from this many empties up are corrected: below, training labels are
    /// exact scores, which carry no bias of the evaluation.
    #[arg(long, default_value_t = 20)]
    from_empties: u32,
    /// Rounds of measuring and correcting.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=20))]
    rounds: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    output: cli::OutputArgs,
}

/// Searches per position: depths 0 (the static value) to 4, full width, never exact.
const DEPTHS: u32 = 5;

/// The bias of one phase before and after the correction.
#[derive(serde::Serialize)]
struct Row {
    phase: usize,
    empties: String,
    positions: usize,
    /// Per round, the bias measured before that round's correction (discs; for the start,
    /// its value).
    measured: Vec<f64>,
    /// The constant added in all (discs).
    correction: f64,
    /// Measured after the last round.
    remaining: f64,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let bytes = match args.weights.as_str() {
        "trained" => PatternEval::embedded().encode(),
        path => cli::read_weights(path)?,
    };
    let mut eval = PatternEval::decode(&bytes)
        .map_err(|e| Failure::Input(format!("{}: {e}", args.weights)))?;
    let mut rng = StdRng::seed_from_u64(args.seed);
    let boards: Vec<engine::Board> = (0..args.games)
        .flat_map(|_| Game::random(&mut rng, 60).positions)
        .map(|p| p.board)
        .filter(|b| b.moves() != 0 && b.empty_count() >= args.from_empties)
        .collect();
    let corrected = |p: usize| *phase_empties(p).end() >= args.from_empties;
    let mut rows: Vec<Row> = (0..PHASES)
        .map(|p| Row {
            phase: p,
            empties: format!("{}-{}", phase_empties(p).start(), phase_empties(p).end()),
            positions: boards
                .iter()
                .filter(|b| phase(b.empty_count()) == p)
                .count(),
            measured: Vec::new(),
            correction: 0.0,
            remaining: 0.0,
        })
        .filter(|r| corrected(r.phase) && r.positions > 0)
        .collect();
    let progress = cli::progress_bar(args.rounds as u64 + 1, "rounds");
    for round in 0..=args.rounds {
        let shared = Arc::new(eval);
        let bias = measure(shared.clone(), &boards);
        eval = Arc::into_inner(shared).expect("the searches are done");
        for row in &mut rows {
            let b = bias[row.phase];
            if round == args.rounds {
                row.remaining = b;
            } else {
                row.measured.push(b);
                row.correction -= b;
                eval.shift_constant(row.phase, -b);
            }
        }
        progress.inc(1);
    }
    progress.finish_and_clear();
    // The last phase holds the start alone (60 empties), where the parity measure has
    // nothing to compare: its constant makes the start's value that of the game, a draw
    // (Othello was solved by Takizawa, 2023).
    let start = eval.discs(&engine::Board::START) as f64;
    eval.shift_constant(PHASES - 1, -start);
    rows.retain(|r| r.phase != PHASES - 1);
    rows.push(Row {
        phase: PHASES - 1,
        empties: "60".into(),
        positions: 1,
        measured: vec![start],
        correction: -start,
        remaining: eval.discs(&engine::Board::START) as f64,
    });
    cli::write_file(&args.out, |w| Ok(w.write_all(&eval.encode())?))?;
    if args.output.json {
        for row in &rows {
            cli::write_json(out, row)?;
        }
        return Ok(());
    }
    writeln!(
        out,
        "{:>5} {:>7} {:>9} {:>10} {:>10} {:>10}",
        "phase", "empties", "positions", "bias", "correction", "remaining"
    )?;
    for r in &rows {
        writeln!(
            out,
            "{:>5} {:>7} {:>9} {:>+10.2} {:>+10.2} {:>+10.2}",
            r.phase, r.empties, r.positions, r.measured[0], r.correction, r.remaining
        )?;
    }
    writeln!(out, "written to {}", args.out.display())?;
    Ok(())
}

/// Per phase, the mean over its positions of the side-to-move bias `(v0 - 2 v1 + 2 v2 -
/// 2 v3 + v4) / 8` (`vd`: the `d`-ply value, for the side to move), whose weights cancel
/// the true value and any trend in depth up to a straight line, leaving `b` where
/// even depths read `+b` and odd ones `-b`.
fn measure(eval: Arc<PatternEval>, boards: &[engine::Board]) -> [f64; PHASES] {
    let stop = AtomicBool::new(false);
    let mut search = Midgame::new(eval.clone(), 16);
    search.selectivity = None;
    search.exact_empties = 0;
    let mut sums = [(0.0, 0usize); PHASES];
    for board in boards {
        let value = |d: u32, search: &mut Midgame| {
            let v = if d == 0 {
                eval.evaluate(board)
            } else {
                search.search(board, d, -30_000, 30_000, &stop)
            };
            v as f64 / 100.0
        };
        let weights = [1.0, -2.0, 2.0, -2.0, 1.0];
        let b: f64 = (0..DEPTHS)
            .map(|d| weights[d as usize] * value(d, &mut search))
            .sum::<f64>()
            / 8.0;
        let sum = &mut sums[phase(board.empty_count())];
        sum.0 += b;
        sum.1 += 1;
    }
    sums.map(|(total, n)| if n == 0 { 0.0 } else { total / n as f64 })
}
