use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use engine::cli::{self, Failure};
use engine::game::format_moves;
use engine::obf::{self, Obf};
use engine::{input, Color, ParseError, Position};
use rayon::prelude::*;
use retro::{reach, Frontier};

use crate::RunArgs;

#[derive(clap::Args)]
pub struct SearchArgs {
    /// Enumerate every reachable position with up to this many discs first; the backward
    /// search stops there (memory: about 50 MB at 14 discs, 4-8x more per extra disc).
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(4..=16))]
    frontier_discs: u32,
    /// Refuted positions remembered per position searched (the memo restarts when full).
    #[arg(long, default_value_t = 1 << 22)]
    memo_entries: usize,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(clap::Args)]
pub struct ReachArgs {
    /// The position: an OBF line (board and side to move) or a move list.
    #[arg(long, allow_hyphen_values = true)]
    board: String,
    #[command(flatten)]
    search: SearchArgs,
}

#[derive(clap::Args)]
pub struct CheckArgs {
    /// OBF file, or CSV of hexadecimal bitboards `player,opponent`.
    file: PathBuf,
    /// Take only positions I, I+N, I+2N... (1-based), for clusters.
    #[arg(long, value_name = "I/N", value_parser = cli::parse_shard)]
    shard: Option<(usize, usize)>,
    #[command(flatten)]
    search: SearchArgs,
}

#[derive(serde::Serialize)]
struct Row {
    #[serde(skip_serializing_if = "Option::is_none")]
    index: Option<usize>,
    reachable: bool,
    witness: Option<String>,
    nodes: u64,
    seconds: f64,
}

/// An OBF line as given, without the input checks that would call an unreachable position
/// an error (here it is an answer); or a move list.
fn read_position(text: &str) -> Result<Position, Failure> {
    let first = text.split_whitespace().next().unwrap_or_default();
    if first.chars().count() == 64 {
        let obf = Obf::parse(text).map_err(|(offset, kind)| {
            ParseError::new("--board", 1, obf::column(text, offset), kind)
        })?;
        Ok(obf.position)
    } else {
        Ok(*input::parse_position("--board", text)?
            .1
            .expect("a move list")
            .last())
    }
}

fn frontier(args: &SearchArgs) -> Result<Frontier, Failure> {
    let start = Instant::now();
    let frontier = Frontier::new(args.frontier_discs)?;
    eprintln!(
        "retro: frontier of {} positions (up to {} discs) in {:.1} s",
        frontier.len(),
        frontier.discs(),
        start.elapsed().as_secs_f64()
    );
    Ok(frontier)
}

/// Whether any of `candidates` (the same board with either side to move) is reachable.
fn answer(
    frontier: &Frontier,
    candidates: &[Position],
    args: &SearchArgs,
    stop: &std::sync::atomic::AtomicBool,
) -> Option<Row> {
    let start = Instant::now();
    let mut nodes = 0;
    for p in candidates {
        let found = reach(frontier, p, args.memo_entries, stop)?;
        nodes += found.nodes;
        if let Some(w) = found.witness {
            return Some(Row {
                index: None,
                reachable: true,
                witness: Some(format_moves(&w)),
                nodes,
                seconds: start.elapsed().as_secs_f64(),
            });
        }
    }
    Some(Row {
        index: None,
        reachable: false,
        witness: None,
        nodes,
        seconds: start.elapsed().as_secs_f64(),
    })
}

fn line(row: &Row) -> String {
    format!(
        "{:>5} {:>11} {:>12} {:>9.3}  {}",
        row.index.unwrap_or(1),
        if row.reachable {
            "REACHABLE"
        } else {
            "UNREACHABLE"
        },
        row.nodes,
        row.seconds,
        row.witness.as_deref().unwrap_or("")
    )
}

const HEADER: &str = "    #      answer        nodes   seconds  witness";

pub fn reach_one(args: &ReachArgs, out: &mut impl Write) -> Result<(), Failure> {
    let position = read_position(&args.board)?;
    let pool = cli::thread_pool(args.search.run.threads)?;
    let frontier = pool.install(|| frontier(&args.search))?;
    let stop = cli::interrupt_flag();
    let row = answer(&frontier, &[position], &args.search, &stop).ok_or(Failure::Interrupted)?;
    if args.search.run.json {
        cli::write_json(out, &row)?;
    } else {
        writeln!(out, "{HEADER}\n{}", line(&row))?;
    }
    Ok(())
}

pub fn check(args: &CheckArgs, out: &mut impl Write) -> Result<(), Failure> {
    let source = args.file.display().to_string();
    let is_csv = args
        .file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
    let mut positions: Vec<(usize, Vec<Position>)> = if is_csv {
        let text = std::fs::read_to_string(&args.file)
            .map_err(|e| Failure::Input(format!("{source}: {e}")))?;
        input::parse_bitboard_csv(&source, &text)?
            .into_iter()
            .map(|(_, board)| {
                vec![
                    Position {
                        board,
                        side: Color::Black,
                    },
                    Position {
                        board,
                        side: Color::White,
                    },
                ]
            })
            .enumerate()
            .map(|(i, p)| (i + 1, p))
            .collect()
    } else {
        obf::read_file(&args.file)?
            .into_iter()
            .enumerate()
            .map(|(i, (_, obf))| (i + 1, vec![obf.position]))
            .collect()
    };
    if let Some((i, n)) = args.shard {
        positions.retain(|(index, _)| (index - 1) % n == i - 1);
    }
    let pool = cli::thread_pool(args.search.run.threads)?;
    let frontier = pool.install(|| frontier(&args.search))?;
    let stop = cli::interrupt_flag();
    let json = args.search.run.json;
    let progress = cli::position_progress(positions.len());
    if !json {
        writeln!(out, "{HEADER}")?;
    }
    let start = Instant::now();
    // Workers send rows as they finish; this thread prints them, so an interrupt keeps
    // every finished row.
    let (sender, receiver) = std::sync::mpsc::channel::<Row>();
    let mut results = Vec::new();
    std::thread::scope(|scope| -> Result<(), Failure> {
        scope.spawn(|| {
            pool.install(|| {
                positions
                    .par_iter()
                    .for_each_with(sender, |sender, (index, candidates)| {
                        if let Some(mut row) = answer(&frontier, candidates, &args.search, &stop) {
                            row.index = Some(*index);
                            let _ = sender.send(row);
                        }
                    })
            })
        });
        for row in receiver {
            let text = if json {
                serde_json::to_string(&row).expect("a row serialises")
            } else {
                line(&row)
            };
            progress.suspend(|| writeln!(out, "{text}").and_then(|()| out.flush()))?;
            progress.inc(1);
            results.push(row.reachable);
        }
        Ok(())
    })?;
    progress.finish_and_clear();
    let done = results.len();
    let reachable = results.iter().filter(|&&r| r).count();
    let interrupted = done < positions.len();
    let seconds = start.elapsed().as_secs_f64();
    if json {
        cli::write_json(
            out,
            &serde_json::json!({"summary": true, "positions": done, "reachable": reachable, "unreachable": done - reachable, "seconds": seconds, "interrupted": interrupted}),
        )?;
    } else {
        writeln!(
            out,
            "total: {done} positions, {reachable} reachable, {} unreachable, {seconds:.3} s{}",
            done - reachable,
            if interrupted { " (interrupted)" } else { "" }
        )?;
    }
    if interrupted {
        return Err(Failure::Interrupted);
    }
    Ok(())
}
