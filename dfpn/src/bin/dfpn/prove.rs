use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use engine::cli::{self, Failure, PositionArgs};

use crate::ProverArgs;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    positions: PositionArgs,
    /// The score to reach, -64..=64 (odd values mean the next even one: scores are even).
    #[arg(long, allow_hyphen_values = true, value_parser = clap::value_parser!(i32).range(-64..=64))]
    threshold: i32,
    /// Write the proof as JSON to FILE (check it with `dfpn check-proof FILE`) and as
    /// Graphviz DOT next to it (FILE with extension .dot); one position only.
    #[arg(long, value_name = "FILE")]
    proof: Option<PathBuf>,
    #[command(flatten)]
    pub search: ProverArgs,
}

#[derive(serde::Serialize)]
struct Row {
    index: usize,
    empties: u32,
    threshold: i32,
    proven: bool,
    nodes: u64,
    dfpn_nodes: u64,
    leaf_nodes: u64,
    seconds: f64,
    table_peak_bytes: usize,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let (positions, mut summary) = args
        .positions
        .read_batch("dfpn prove", &format!("--threshold {}", args.threshold))?;
    if args.proof.is_some() && positions.len() != 1 {
        return Err(Failure::Input(format!(
            "--proof writes the proof of one position, {} given",
            positions.len()
        )));
    }
    let stop = cli::interrupt_flag();
    let progress = cli::position_progress(positions.len());
    let mut prover = args.search.prover()?;
    crate::show_progress(&mut prover, &progress);
    if !args.search.output.json {
        let header = format!(
            "{:>4} {:>7} {:>9} {:>10} {:>9} {:>14} {:>12} {:>10}",
            "#", "empties", "threshold", "result", "seconds", "nodes", "nodes/s", "table MiB"
        );
        progress.suspend(|| writeln!(out, "{header}"))?;
    }
    for (index, obf) in &positions {
        let board = obf.position.board;
        let start = Instant::now();
        let before = prover.stats();
        let Some(proven) = prover.prove(&board, args.threshold, &stop) else {
            summary.interrupted = true;
            break;
        };
        let seconds = start.elapsed().as_secs_f64();
        let stats = prover.stats();
        let row = Row {
            index: *index,
            empties: board.empty_count(),
            threshold: args.threshold,
            proven,
            nodes: stats.nodes() - before.nodes(),
            dfpn_nodes: stats.dfpn_nodes - before.dfpn_nodes,
            leaf_nodes: stats.leaf_nodes - before.leaf_nodes,
            seconds,
            table_peak_bytes: prover.table_stats().peak_bytes,
        };
        summary.add(row.nodes, seconds, None);
        let line = if args.search.output.json {
            summary.json_row(&row)
        } else {
            format!(
                "{:>4} {:>7} {:>9} {:>10} {:>9.3} {:>14} {:>12.0} {:>10.1}",
                row.index,
                row.empties,
                row.threshold,
                if proven { "PROVEN" } else { "DISPROVEN" },
                row.seconds,
                row.nodes,
                row.nodes as f64 / row.seconds.max(1e-9),
                row.table_peak_bytes as f64 / (1 << 20) as f64,
            )
        };
        progress.suspend(|| writeln!(out, "{line}"))?;
        progress.inc(1);
        out.flush()?;
        if let Some(path) = &args.proof {
            let Some(proof) = prover.proof(&obf.position, args.threshold, &stop) else {
                summary.interrupted = true;
                break;
            };
            let write = |path: &PathBuf, text: String| {
                cli::write_file(path, |w| Ok(w.write_all(text.as_bytes())?))
            };
            let json = serde_json::to_string(&proof.to_file()).expect("a proof serialises");
            write(path, json)?;
            write(&path.with_extension("dot"), proof.to_dot())?;
            if !args.search.output.json {
                let note = format!(
                    "proof: {} nodes written to {} and {}",
                    proof.graph.node_count(),
                    path.display(),
                    path.with_extension("dot").display()
                );
                progress.suspend(|| writeln!(out, "{note}"))?;
            }
        }
    }
    progress.finish_and_clear();
    // The same summary as the other batch commands (JSON: the last line).
    summary.finish(out, args.search.output.json, Default::default(), "")
}
