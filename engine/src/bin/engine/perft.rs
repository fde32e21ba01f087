use std::io::Write;
use std::time::Instant;

use engine::perft::perft_parallel;
use engine::{input, Board};

use engine::cli::{self, Failure};

#[derive(clap::Args)]
pub struct Args {
    /// Count games of 1..=DEPTH plies.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: u32,
    /// Start from this position (an OBF line or a move list) instead of the start position.
    #[arg(long, allow_hyphen_values = true)]
    board: Option<String>,
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// JSON Lines (one object per line): one per depth, instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(serde::Serialize)]
struct Row {
    depth: u32,
    /// Positions after exactly `depth` plies, a game that ended sooner not among them.
    leaves: u64,
    passes: u64,
    /// Games that ended before `depth` plies.
    finished: u64,
    /// Leaves plus finished games: the published convention (OEIS A124004, Edax's
    /// `-count games`), where a game that ended early counts as a leaf.
    games: u64,
    seconds: f64,
    leaves_per_second: f64,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let board = match &args.board {
        Some(text) => input::parse_position("--board", text)?.0.position.board,
        None => Board::START,
    };
    let pool = cli::thread_pool(args.threads)?;
    if !args.json {
        writeln!(
            out,
            "{:>5} {:>16} {:>12} {:>12} {:>16} {:>10} {:>14}",
            "depth", "leaves", "passes", "finished", "games (A124004)", "seconds", "leaves/s"
        )?;
    }
    for depth in 1..=args.depth {
        let start = Instant::now();
        let counts = pool.install(|| perft_parallel(&board, depth));
        let seconds = start.elapsed().as_secs_f64();
        let row = Row {
            depth,
            leaves: counts.leaves,
            passes: counts.passes,
            finished: counts.finished,
            games: counts.leaves + counts.finished,
            seconds,
            leaves_per_second: counts.leaves as f64 / seconds.max(1e-9),
        };
        if args.json {
            cli::write_json(out, &row)?;
        } else {
            writeln!(
                out,
                "{:>5} {:>16} {:>12} {:>12} {:>16} {:>10.3} {:>14.0}",
                row.depth,
                row.leaves,
                row.passes,
                row.finished,
                row.games,
                row.seconds,
                row.leaves_per_second
            )?;
        }
        out.flush()?;
    }
    Ok(())
}
