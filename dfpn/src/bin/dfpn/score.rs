use std::io::Write;
use std::time::Instant;

use dfpn::{Step, Wld};
use engine::cli::{self, Failure, PositionArgs};

use crate::SearchArgs;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    positions: PositionArgs,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// A row of `score` (with `score` and `best_move`) or of `wld` (with `wld`).
#[derive(serde::Serialize)]
struct Row {
    index: usize,
    empties: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    best_move: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    wld: Option<Wld>,
    nodes: u64,
    dfpn_nodes: u64,
    leaf_nodes: u64,
    seconds: f64,
    /// The threshold questions asked, in order.
    steps: Vec<Step>,
    /// Whether the answer agrees with the OBF line's (null: none given).
    expected_ok: Option<bool>,
}

pub fn run(args: &Args, wld: bool, out: &mut impl Write) -> Result<(), Failure> {
    let (positions, mut summary) = args.positions.read_batch()?;
    let stop = cli::interrupt_flag();
    let json = args.search.json;
    let progress = cli::position_progress(positions.len());
    let mut prover = args.search.prover()?;
    crate::show_progress(&mut prover, &progress);
    if !json {
        let header = format!(
            "{:>4} {:>7} {:>5} {:>4} {:>9} {:>14} {:>12}  thresholds",
            "#",
            "empties",
            if wld { "wld" } else { "score" },
            "move",
            "seconds",
            "nodes",
            "nodes/s"
        );
        progress.suspend(|| writeln!(out, "{header}"))?;
    }
    for (index, obf) in &positions {
        let board = obf.position.board;
        let start = Instant::now();
        let before = prover.stats();
        let answer = if wld {
            prover
                .wld(&board, &stop)
                .map(|(w, best_move, steps)| (None, Some(best_move), Some(w), steps))
        } else {
            prover
                .exact_score(&board, &stop)
                .map(|e| (Some(e.score), Some(e.best_move), None, e.steps))
        };
        let Some((score, best_move, wld_answer, steps)) = answer else {
            summary.interrupted = true;
            break;
        };
        let seconds = start.elapsed().as_secs_f64();
        let stats = prover.stats();
        let expected_ok = match (score, wld_answer) {
            (Some(s), _) => cli::check_answers(obf, s, best_move.flatten(), false),
            (None, Some(w)) => cli::check_answers(obf, w.sign(), None, true),
            (None, None) => None,
        };
        let row = Row {
            index: *index,
            empties: board.empty_count(),
            score,
            best_move: best_move.map(|m| m.map(|m| m.to_string())),
            wld: wld_answer,
            nodes: stats.nodes() - before.nodes(),
            dfpn_nodes: stats.dfpn_nodes - before.dfpn_nodes,
            leaf_nodes: stats.leaf_nodes - before.leaf_nodes,
            seconds,
            steps,
            expected_ok,
        };
        summary.add(row.nodes, seconds, expected_ok);
        let line = if json {
            serde_json::to_string(&row).expect("a row serialises")
        } else {
            let answer = match (row.score, row.wld) {
                (Some(s), _) => format!("{s:+}"),
                (None, Some(w)) => w.to_string(),
                (None, None) => String::new(),
            };
            let steps: Vec<String> = row
                .steps
                .iter()
                .map(|s| format!("{}{}", if s.proven { ">=" } else { "<" }, s.threshold))
                .collect();
            format!(
                "{:>4} {:>7} {:>5} {:>4} {:>9.3} {:>14} {:>12.0}  {}{}",
                row.index,
                row.empties,
                answer,
                row.best_move.clone().flatten().as_deref().unwrap_or("--"),
                row.seconds,
                row.nodes,
                row.nodes as f64 / row.seconds.max(1e-9),
                steps.join(" "),
                if expected_ok == Some(false) {
                    "  MISMATCH"
                } else {
                    ""
                }
            )
        };
        progress.suspend(|| writeln!(out, "{line}").and_then(|()| out.flush()))?;
        progress.inc(1);
    }
    progress.finish_and_clear();
    let table = prover.table_stats();
    let mut extra = serde_json::Map::new();
    extra.insert("table_peak_bytes".into(), table.peak_bytes.into());
    extra.insert("table_collections".into(), table.collections.into());
    let note = format!(
        ", table peak {:.1} MiB, {} collections",
        table.peak_bytes as f64 / (1 << 20) as f64,
        table.collections
    );
    summary.finish(out, json, extra, &note)
}
