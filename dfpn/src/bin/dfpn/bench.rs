use std::io::Write;
use std::time::Instant;

use dfpn::Prover;
use engine::cli::{self, Failure, PositionArgs};
use engine::search::Solver;

use crate::ProverArgs;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    positions: PositionArgs,
    /// Thresholds to ask, comma-separated (default: at least a draw, a win).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true, default_values_t = [0, 2],
          value_parser = clap::value_parser!(i32).range(-64..=64))]
    thresholds: Vec<i32>,
    #[command(flatten)]
    pub search: ProverArgs,
}

#[derive(serde::Serialize)]
struct Row {
    index: usize,
    empties: u32,
    threshold: i32,
    proven: bool,
    dfpn_nodes: u64,
    dfpn_seconds: f64,
    alphabeta_nodes: u64,
    alphabeta_seconds: f64,
}

/// Each question answered twice, same run, fresh tables of the same memory: by df-pn and
/// by the engine's null-window alpha-beta as `engine solve` runs it (from 20 empties a
/// selective pass first), one thread. The answers must agree.
pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let positions = args.positions.read()?;
    let options = args.search.options()?;
    let stop = cli::interrupt_flag();
    let json = args.search.output.json;
    if !json {
        writeln!(
            out,
            "{:>4} {:>7} {:>4} {:>9} {:>13} {:>9} {:>13} {:>9} {:>7}",
            "#", "empties", "t", "result", "dfpn nodes", "seconds", "ab nodes", "seconds", "time x"
        )?;
    }
    let (mut dfpn_total, mut ab_total) = (0.0, 0.0);
    let mut disagreements = 0;
    let pool = cli::thread_pool(Some(1))?;
    let eval = args.search.eval.load()?;
    for (index, obf) in &positions {
        let board = obf.position.board;
        for &threshold in &args.thresholds {
            let mut prover = Prover::new(options).with_eval(eval.clone());
            let start = Instant::now();
            let proven = prover
                .prove(&board, threshold, &stop)
                .ok_or(Failure::Interrupted)?;
            let dfpn_seconds = start.elapsed().as_secs_f64();

            let solver =
                Solver::new(options.table_mb + options.leaf_table_mb).with_eval(eval.clone());
            let start = Instant::now();
            let t = engine::Board::even_threshold(threshold);
            let solution = pool
                .install(|| solver.solve(&board, t - 1, t, &stop))
                .ok_or(Failure::Interrupted)?;
            let (bound, ab_nodes) = (solution.score, solution.nodes);
            let ab_seconds = start.elapsed().as_secs_f64();
            disagreements += (proven != (bound >= t)) as usize;
            dfpn_total += dfpn_seconds;
            ab_total += ab_seconds;
            let row = Row {
                index: *index,
                empties: board.empty_count(),
                threshold,
                proven,
                dfpn_nodes: prover.stats().nodes(),
                dfpn_seconds,
                alphabeta_nodes: ab_nodes,
                alphabeta_seconds: ab_seconds,
            };
            if json {
                cli::write_json(out, &row)?;
            } else {
                writeln!(
                    out,
                    "{:>4} {:>7} {:>4} {:>9} {:>13} {:>9.3} {:>13} {:>9.3} {:>7.2}{}",
                    row.index,
                    row.empties,
                    row.threshold,
                    if proven { "PROVEN" } else { "DISPROVEN" },
                    row.dfpn_nodes,
                    row.dfpn_seconds,
                    row.alphabeta_nodes,
                    row.alphabeta_seconds,
                    row.dfpn_seconds / row.alphabeta_seconds.max(1e-9),
                    if proven != (bound >= t) {
                        "  DISAGREE"
                    } else {
                        ""
                    }
                )?;
            }
            out.flush()?;
        }
    }
    if json {
        cli::write_json(
            out,
            &serde_json::json!({"summary": true, "dfpn_seconds": dfpn_total, "alphabeta_seconds": ab_total, "disagreements": disagreements}),
        )?;
    } else {
        writeln!(
            out,
            "total: dfpn {dfpn_total:.3} s, alpha-beta {ab_total:.3} s, ratio {:.2}, {disagreements} disagreements",
            dfpn_total / ab_total.max(1e-9)
        )?;
    }
    if disagreements > 0 {
        return Err(Failure::Mismatch(disagreements));
    }
    Ok(())
}
