use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;

use engine::game::format_moves;
use engine::obf::Obf;
use engine::search::Solver;
use engine::{input, Move};

use crate::Failure;

#[derive(clap::Args)]
pub struct Args {
    /// OBF file of positions (answers like "; G8:+18;" are checked).
    #[arg(required_unless_present = "board", conflicts_with = "board")]
    file: Option<PathBuf>,
    /// One position: an OBF line or a move list.
    #[arg(long, allow_hyphen_values = true)]
    board: Option<String>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=65536))]
    hash_mb: u64,
    /// Search threads (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Win/draw/loss only (window -1..1): score is +1, 0 or -1.
    #[arg(long)]
    wld: bool,
    /// Solve only positions I, I+N, I+2N... (1-based) of the file, for clusters.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    shard: Option<(usize, usize)>,
    /// One JSON object per position, then a summary object.
    #[arg(long)]
    json: bool,
}

fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("shard must be I/N with 1 <= I <= N, found {text:?}");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

#[derive(serde::Serialize)]
struct Row {
    index: usize,
    empties: u32,
    score: i32,
    best_move: Option<String>,
    nodes: u64,
    seconds: f64,
    pv: String,
    /// Whether the score and move agree with the answers on the OBF line (null: none given).
    expected_ok: Option<bool>,
}

#[derive(serde::Serialize)]
struct Summary {
    summary: bool,
    positions: usize,
    nodes: u64,
    seconds: f64,
    mismatches: usize,
    interrupted: bool,
}

/// Whether `score` and `mv` agree with the answers of `obf` (exact scores, or signs for WLD).
fn check(obf: &Obf, score: i32, mv: Option<Move>, wld: bool) -> Option<bool> {
    let best = obf.best_score()?;
    let listed = |m: Move| obf.answers.iter().find(|a| a.mv == m).map(|a| a.score);
    Some(if wld {
        score.signum() == best.signum()
            && mv
                .and_then(listed)
                .is_none_or(|s| s.signum() == best.signum())
    } else {
        score == best && mv.and_then(listed) == Some(best)
    })
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let positions: Vec<(usize, Obf)> = match (&args.file, &args.board) {
        (Some(path), _) => input::read_obf_file(path)?
            .into_iter()
            .map(|(_, obf)| obf)
            .enumerate()
            .map(|(i, obf)| (i + 1, obf))
            .collect(),
        (None, Some(text)) => vec![(1, input::parse_position("--board", text)?.0)],
        (None, None) => unreachable!("clap requires a file or --board"),
    };
    let positions: Vec<(usize, Obf)> = match args.shard {
        Some((i, n)) => positions
            .into_iter()
            .filter(|(index, _)| (index - 1) % n == i - 1)
            .collect(),
        None => positions,
    };

    let stop = Arc::new(AtomicBool::new(false));
    let handler_stop = Arc::clone(&stop);
    // Ctrl-C stops the current position; the rows already solved and the total still print.
    let _ = ctrlc::set_handler(move || handler_stop.store(true, Relaxed));

    let solver = Solver::new(args.hash_mb as usize);
    let pool = crate::thread_pool(args.threads)?;
    let (alpha, beta) = if args.wld { (-1, 1) } else { (-65, 65) };
    let progress = indicatif::ProgressBar::new(positions.len() as u64);
    progress.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} positions, {elapsed} {msg}")
            .expect("a valid template"),
    );
    if !args.json {
        let header = format!(
            "{:>4} {:>7} {:>5} {:>4} {:>9} {:>14} {:>12}  pv",
            "#", "empties", "score", "move", "seconds", "nodes", "nodes/s"
        );
        progress.suspend(|| writeln!(out, "{header}"))?;
    }
    let mut summary = Summary {
        summary: true,
        positions: 0,
        nodes: 0,
        seconds: 0.0,
        mismatches: 0,
        interrupted: false,
    };
    for (index, obf) in &positions {
        let board = obf.position.board;
        let start = Instant::now();
        let Some(solution) = pool.install(|| solver.solve(&board, alpha, beta, &stop)) else {
            summary.interrupted = true;
            break;
        };
        let seconds = start.elapsed().as_secs_f64();
        let score = if args.wld {
            solution.score.signum()
        } else {
            solution.score
        };
        let expected_ok = check(obf, score, solution.best_move, args.wld);
        summary.positions += 1;
        summary.nodes += solution.nodes;
        summary.seconds += seconds;
        summary.mismatches += (expected_ok == Some(false)) as usize;
        let row = Row {
            index: *index,
            empties: board.empty_count(),
            score,
            best_move: solution.best_move.map(|m| m.to_string()),
            nodes: solution.nodes,
            seconds,
            pv: format_moves(&solution.pv),
            expected_ok,
        };
        let line = if args.json {
            serde_json::to_string(&row).expect("a row serialises")
        } else {
            format!(
                "{:>4} {:>7} {:>+5} {:>4} {:>9.3} {:>14} {:>12.0}  {}{}",
                row.index,
                row.empties,
                row.score,
                row.best_move.as_deref().unwrap_or("--"),
                row.seconds,
                row.nodes,
                row.nodes as f64 / row.seconds.max(1e-9),
                row.pv,
                match expected_ok {
                    Some(false) => "  MISMATCH",
                    _ => "",
                }
            )
        };
        progress.suspend(|| writeln!(out, "{line}").and_then(|()| out.flush()))?;
        progress.inc(1);
    }
    progress.finish_and_clear();
    if args.json {
        crate::write_json(out, &summary)?;
    } else {
        writeln!(
            out,
            "total: {} positions, {:.3} s, {} nodes, {:.0} nodes/s, {} mismatches{}",
            summary.positions,
            summary.seconds,
            summary.nodes,
            summary.nodes as f64 / summary.seconds.max(1e-9),
            summary.mismatches,
            if summary.interrupted {
                " (interrupted)"
            } else {
                ""
            }
        )?;
    }
    if summary.mismatches > 0 {
        return Err(Failure::Mismatch(summary.mismatches));
    }
    if summary.interrupted {
        return Err(Failure::Interrupted);
    }
    Ok(())
}
