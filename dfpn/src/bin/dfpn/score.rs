use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use dfpn::{Step, Wld};
use engine::cli::{self, Failure, PositionArgs};
use engine::clock::{self, Ended};

use crate::ProverArgs;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    positions: PositionArgs,
    /// Write a proof of each answer to DIR/INDEX.json, for `dfpn check-proof`: the exact
    /// score's two halves ("at least s" and "less than s + 2"); for wld, "at least 2" (a
    /// win), "less than 0" (a loss), or both halves of 0 (a draw).
    #[arg(long, value_name = "DIR")]
    proof: Option<PathBuf>,
    /// The proof is part of a position's work, within its time limit.
    #[command(flatten)]
    limit: cli::TimeLimitArgs,
    #[command(flatten)]
    pub search: ProverArgs,
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
    /// The proof file written (`--proof`), its nodes and the seconds it took.
    #[serde(skip_serializing_if = "Option::is_none")]
    proof: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    proof_nodes: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    proof_seconds: Option<f64>,
    /// Left unknown at `--time-limit` (its nodes are counted up to then).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    unknown: bool,
}

/// Writes the proof of the answer for position `index` to `dir`: the file and its nodes,
/// or `None` when `stop` was raised.
fn write_proof(
    prover: &mut dfpn::Prover,
    obf: &engine::Obf,
    index: usize,
    answer: (Option<i32>, Option<Wld>),
    dir: &Path,
    stop: &AtomicBool,
) -> Result<Option<(PathBuf, usize)>, Failure> {
    let position = &obf.position;
    // An exact score (a draw is the exact score 0) takes both halves; a win or a loss one.
    let exact = match answer {
        (Some(score), _) => Some(score),
        (None, Some(Wld::Draw)) => Some(0),
        _ => None,
    };
    let (json, nodes) = match (exact, answer.1) {
        (Some(score), _) => {
            let Some(proof) = prover.exact_proof(position, score, stop) else {
                return Ok(None);
            };
            (serde_json::to_string(&proof.to_file()), proof.nodes())
        }
        (None, Some(wld)) => {
            let threshold = if wld == Wld::Win { 2 } else { 0 };
            let Some(proof) = prover.proof(position, threshold, stop) else {
                return Ok(None);
            };
            (
                serde_json::to_string(&proof.to_file()),
                proof.graph.node_count(),
            )
        }
        (None, None) => return Ok(None),
    };
    let failed = |e: std::io::Error| Failure::Input(format!("{}: {e}", dir.display()));
    std::fs::create_dir_all(dir).map_err(failed)?;
    let path = dir.join(format!("{index}.json"));
    let json = json.expect("a proof serialises");
    cli::write_file(&path, |w| Ok(w.write_all(json.as_bytes())?))?;
    Ok(Some((path, nodes)))
}

/// The table's header: the answer's column is "wld" or "score".
fn header(wld: bool) -> String {
    format!(
        "{:>4} {:>7} {:>5} {:>4} {:>9} {:>14} {:>12}  thresholds",
        "#",
        "empties",
        if wld { "wld" } else { "score" },
        "move",
        "seconds",
        "nodes",
        "nodes/s"
    )
}

/// One position's answer (`wld`, or the exact score), with its proof written where asked;
/// `None` when stopped.
fn answer_one(
    prover: &mut dfpn::Prover,
    (index, obf): (usize, &engine::Obf),
    wld: bool,
    proof_dir: Option<&Path>,
    stop: &AtomicBool,
) -> Result<Option<Row>, Failure> {
    let board = obf.position.board;
    let start = Instant::now();
    let before = prover.stats();
    let answer = if wld {
        prover
            .wld(&board, stop)
            .map(|(w, best_move, steps)| (None, Some(best_move), Some(w), steps))
    } else {
        prover
            .exact_score(&board, stop)
            .map(|e| (Some(e.score), Some(e.best_move), None, e.steps))
    };
    let Some((score, best_move, wld_answer, steps)) = answer else {
        return Ok(None);
    };
    let seconds = start.elapsed().as_secs_f64();
    let stats = prover.stats();
    let mut proof = None;
    if let Some(dir) = proof_dir {
        let started = Instant::now();
        match write_proof(prover, obf, index, (score, wld_answer), dir, stop)? {
            Some((path, nodes)) => proof = Some((path, nodes, started.elapsed().as_secs_f64())),
            None => return Ok(None),
        }
    }
    let expected_ok = match (score, wld_answer) {
        (Some(s), _) => cli::check_answers(obf, s, best_move.flatten(), false),
        (None, Some(w)) => cli::check_answers(obf, w.sign(), None, true),
        (None, None) => None,
    };
    Ok(Some(Row {
        index,
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
        proof: proof
            .as_ref()
            .map(|(path, _, _)| path.display().to_string()),
        proof_nodes: proof.as_ref().map(|(_, nodes, _)| *nodes),
        proof_seconds: proof.as_ref().map(|(_, _, seconds)| *seconds),
        unknown: false,
    }))
}

/// The row of a position left unknown at the time limit: the prover's counters `before` it
/// and `after`, and its time since `start`.
fn unknown_row(
    index: usize,
    obf: &engine::Obf,
    before: &dfpn::Stats,
    after: &dfpn::Stats,
    start: Instant,
) -> Row {
    Row {
        index,
        empties: obf.position.board.empty_count(),
        score: None,
        best_move: None,
        wld: None,
        nodes: after.nodes() - before.nodes(),
        dfpn_nodes: after.dfpn_nodes - before.dfpn_nodes,
        leaf_nodes: after.leaf_nodes - before.leaf_nodes,
        seconds: start.elapsed().as_secs_f64(),
        steps: Vec::new(),
        expected_ok: None,
        proof: None,
        proof_nodes: None,
        proof_seconds: None,
        unknown: true,
    }
}

/// A row's line of the table.
fn table_line(row: &Row, obf: &engine::Obf, wld: bool) -> String {
    let answer = match (row.score, row.wld) {
        (Some(s), _) => format!("{s:+}"),
        (None, Some(w)) => w.to_string(),
        (None, None) => "?".into(),
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
        match row.unknown {
            true => "unknown: over the time limit".into(),
            false => steps.join(" "),
        },
        cli::mismatch_note(obf, row.expected_ok, wld)
    )
}

pub fn run(args: &Args, wld: bool, out: &mut impl Write) -> Result<(), Failure> {
    let (positions, mut summary) = args
        .positions
        .read_batch(if wld { "dfpn wld" } else { "dfpn score" }, "")?;
    let stop = cli::interrupt_flag();
    let json = args.search.output.json;
    let progress = cli::position_progress(positions.len());
    let mut prover = args.search.prover()?;
    crate::show_progress(&mut prover, &progress);
    if !json {
        progress.suspend(|| writeln!(out, "{}", header(wld)))?;
    }
    for (index, obf) in &positions {
        let start = Instant::now();
        let before = prover.stats();
        let (row, ended) = clock::until(args.limit.deadline(), &stop, |flag| {
            answer_one(&mut prover, (*index, obf), wld, args.proof.as_deref(), flag)
        });
        let row = match row? {
            Some(row) => {
                summary.add(row.nodes, row.seconds, row.expected_ok);
                row
            }
            None if ended == Ended::Deadline => {
                let row = unknown_row(*index, obf, &before, &prover.stats(), start);
                summary.add_unknown(row.nodes, row.seconds);
                row
            }
            None => {
                summary.interrupted = true;
                break;
            }
        };
        let line = match json {
            true => summary.json_row(&row),
            false => table_line(&row, obf, wld),
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
