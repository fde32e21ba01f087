use std::io::Write;
use std::time::Instant;

use engine::perft::{CountTable, Split};
use engine::{input, Board, Obf, Position};

use engine::cli::{self, seal, Failure};

#[derive(clap::Args)]
#[command(
    after_long_help = "--json: one per depth, instead of a table.\n\n--shard I/N: Count only every N-th subtree from the I-th (games that end sooner: shard 1), so that GNU parallel or a Slurm array can share a deep count; `engine merge` adds the shards' JSON Lines up per depth."
)]
pub struct Args {
    /// Count games of 1..=DEPTH plies.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: u32,
    /// Start from this position (an OBF line or a move list) instead of the start position.
    #[arg(long, allow_hyphen_values = true)]
    board: Option<String>,
    #[command(flatten)]
    threads: cli::ThreadArgs,
    /// `--hash-mb`: the table of subtree counts, kept from one depth to the next.
    #[command(flatten)]
    hash: cli::HashArgs<512>,
    /// Plies enumerated before the subtrees (distinct up to symmetry) are handed to the
    /// threads and shards (fewer at smaller depths). From the start: 1,773 subtrees at 6
    /// plies, 434,021 at 9; at most 10 (2,958,555 subtrees, some 100 MB to hold them).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(0..=10))]
    split_plies: u32,
    #[command(flatten)]
    shard: cli::ShardArgs,
    #[command(flatten)]
    output: cli::OutputArgs,
}

/// One depth's counts; `engine merge` adds up the rows of the shards of one count.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct Row {
    /// Always "perft": tells these rows from the solvers' in `engine merge`.
    pub command: String,
    /// The position counted from, as an OBF line.
    pub board: String,
    pub depth: u32,
    /// Positions after exactly `depth` plies, a game that ended sooner not among them.
    pub leaves: u64,
    pub passes: u64,
    /// Games that ended before `depth` plies.
    pub finished: u64,
    /// Leaves plus finished games: the published convention (OEIS A124004, Edax's
    /// `-count games`), where a game that ended early counts as a leaf.
    pub games: u64,
    pub split_plies: u32,
    /// Subtrees counted (by this shard; by all, merged).
    pub subtrees: usize,
    /// "I/N" for one shard of the subtrees.
    pub shard: Option<String>,
    /// Seconds of this run (merged: the shards' seconds added up).
    pub seconds: f64,
    pub leaves_per_second: f64,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let position = match &args.board {
        Some(text) => input::parse_position("--board", text)?.0.position,
        None => Position::START,
    };
    let board: Board = position.board;
    let obf = Obf::new(position).to_string();
    let pool = args.threads.pool()?;
    let stop = cli::interrupt_flag();
    let table = CountTable::new(args.hash.hash_mb);
    if !args.output.json {
        write_header(out)?;
    }
    for depth in 1..=args.depth {
        let start = Instant::now();
        let mut split = Split::new(&board, depth, args.split_plies);
        if let Some((index, count)) = args.shard.part {
            split = split.shard(index, count);
        }
        let progress = cli::progress_bar(
            split.subtrees.len() as u64,
            &format!("subtrees of depth {depth}"),
        );
        let counts = pool.install(|| split.count(&table, &stop, &|| progress.inc(1)));
        progress.finish_and_clear();
        let Some(counts) = counts else {
            // As the other batch commands end: a summary line saying where it stopped.
            if args.output.json {
                seal::write_sealed(
                    out,
                    &serde_json::json!({"command": "perft", "summary": true, "interrupted": true,
                        "complete_depths": depth - 1}),
                )?;
            } else {
                writeln!(
                    out,
                    "interrupted at depth {depth}: the depths above are complete"
                )?;
            }
            return Err(Failure::Interrupted);
        };
        let seconds = start.elapsed().as_secs_f64();
        let row = Row {
            command: "perft".into(),
            board: obf.clone(),
            depth,
            leaves: counts.leaves,
            passes: counts.passes,
            finished: counts.finished,
            games: counts.leaves + counts.finished,
            split_plies: split.plies,
            subtrees: split.subtrees.len(),
            shard: args.shard.part.map(|(i, n)| format!("{i}/{n}")),
            seconds,
            leaves_per_second: counts.leaves as f64 / seconds.max(1e-9),
        };
        write_row(out, &row, args.output.json)?;
        out.flush()?;
    }
    Ok(())
}

/// The table's header (without `--json`).
pub fn write_header(out: &mut impl Write) -> Result<(), Failure> {
    writeln!(
        out,
        "{:>5} {:>16} {:>12} {:>12} {:>16} {:>10} {:>14}",
        "depth", "leaves", "passes", "finished", "games (A124004)", "seconds", "leaves/s"
    )?;
    Ok(())
}

/// One depth: a line of the table, or with `json` one JSON object.
pub fn write_row(out: &mut impl Write, row: &Row, json: bool) -> Result<(), Failure> {
    if json {
        return seal::write_sealed(out, row);
    }
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
    Ok(())
}
