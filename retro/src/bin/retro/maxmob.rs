//! `retro maxmob`: the largest mobility within N plies, or after exactly each ply; and the
//! merge of the rows of `retro maxmob --by-ply --shard I/N` runs.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use engine::cli::{self, seal, Failure};
use engine::game::format_moves;
use engine::{Game, Position};
use retro::max_mobility;
use retro::maxmob::{Coverage, PlyMaximum, MAX_FOLLOWED};

use crate::RunArgs;

#[derive(clap::Args)]
#[command(
    after_long_help = "--shard I/N: With --enumerate-to: follow only the positions of partition I of N of its ply, so that N runs (GNU parallel, a Slurm array) share the work; `retro merge` puts their rows together. A part's row gives a lower bound (`lower`, with its witness), not the maximum. The rows of the enumerated plies, the same in every part, come with part 1 only."
)]
pub struct Args {
    /// Plies from the start.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=60))]
    plies: u32,
    /// The largest mobility after exactly each number of plies up to --plies instead, every
    /// reachable position seen (rows as `satgen curve --json` writes them, for
    /// `satgen curve-plot`; a pass is a ply).
    #[arg(long)]
    by_ply: bool,
    /// With --by-ply: enumerate the distinct positions up to this ply (default: --plies),
    /// then follow every line of play depth-first from each position of that ply to
    /// --plies, at most 8 plies further. Needs no memory beyond the last enumerated level;
    /// each ply followed costs about 11x the one before (results/maxmob-by-ply.md).
    #[arg(long, value_name = "PLY", requires = "by_ply")]
    enumerate_to: Option<u32>,
    #[command(flatten)]
    shard: cli::ShardArgs,
    /// With --by-ply: a beam search instead, for plies past what the enumeration reaches:
    /// each ply keeps this many distinct positions, half those with the most legal moves
    /// for both sides together and half (of the rest) those with the most empty squares
    /// next to a disc, and sees every child of them. Rows are exact while no ply was
    /// cut to the width, lower bounds with their witnesses after (the games for
    /// `satgen curve --witnesses`). Memory: about 2.1 GB per million of WIDTH.
    #[arg(long, value_name = "WIDTH", requires = "by_ply", conflicts_with = "enumerate_to",
          value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    beam: Option<u64>,
    /// With --by-ply: keep the enumerated levels in DIR, and read those already there (as
    /// `retro enumerate --plies N --levels DIR` keeps them) instead of enumerating them
    /// again: the shards of a deep ply enumerate the levels below it once (16 bytes a
    /// position; ply 13 is about 15 GB). Fill DIR before starting shards side by side
    /// (one run, or `retro enumerate --plies N --levels DIR`): two runs building the
    /// same level there at once would overwrite each other's files.
    #[arg(long, value_name = "DIR", requires = "by_ply", conflicts_with = "beam")]
    levels: Option<std::path::PathBuf>,
    #[command(flatten)]
    run: RunArgs,
}

/// One row of `--by-ply --json` (the fields `satgen curve-plot` reads: ply, side, max,
/// lower, impossible, witness), whole or a shard's part.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct Row {
    command: String,
    ply: usize,
    side: String,
    /// The largest mobility; `None` in a shard's part.
    max: Option<u32>,
    /// Reached by the witness.
    lower: u32,
    /// The smallest mobility no position of this ply has; `None` in a shard's part.
    impossible: Option<u32>,
    witness: String,
    /// Enumerated: the distinct positions of this ply, up to the start's symmetries.
    positions: Option<u64>,
    /// Followed depth-first: from these positions of this ply (a shard's part of them)...
    from_ply: Option<usize>,
    from_positions: Option<u64>,
    /// ... along this many lines of play.
    lines: Option<u64>,
    shard: Option<String>,
    /// A beam search's row: the positions kept per ply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    beam: Option<usize>,
    certificate: String,
    seconds: f64,
}

impl Row {
    fn new(m: &PlyMaximum, seconds: f64) -> Row {
        let mut row = Row {
            command: "maxmob".into(),
            ply: m.ply,
            side: if m.ply % 2 == 0 { "black" } else { "white" }.into(),
            max: Some(m.mobility),
            lower: m.mobility,
            impossible: Some(m.mobility + 1),
            witness: format_moves(&m.witness),
            positions: None,
            from_ply: None,
            from_positions: None,
            lines: None,
            shard: None,
            beam: None,
            certificate: String::new(),
            seconds,
        };
        match m.coverage {
            Coverage::Positions(positions) => row.positions = Some(positions),
            Coverage::Lines {
                from_ply,
                from_positions,
                lines,
                shard,
            } => {
                (row.from_ply, row.from_positions, row.lines) =
                    (Some(from_ply), Some(from_positions), Some(lines));
                if let Some((i, n)) = shard {
                    row.shard = Some(format!("{i}/{n}"));
                    (row.max, row.impossible) = (None, None);
                }
            }
            Coverage::Beam { width } => {
                row.beam = Some(width);
                (row.max, row.impossible) = (None, None);
            }
        }
        row.certify();
        row
    }

    /// Says how the row's positions were covered.
    fn certify(&mut self) {
        self.certificate = match (self.beam, self.positions, self.from_ply, self.from_positions) {
            (Some(width), ..) => format!(
                "lower bound: the best child of a beam of {width} positions a ply (the witness reaches it)"
            ),
            (None, Some(positions), _, _) => format!(
                "exhaustive: every one of the {positions} positions after exactly {} plies (up to the start's symmetries)",
                self.ply
            ),
            (None, None, Some(from_ply), Some(from_positions)) => format!(
                "{}: every line of {} plies from each of the {from_positions} positions{} after exactly {from_ply} plies (up to the start's symmetries), {} lines",
                if self.shard.is_some() { "part" } else { "exhaustive" },
                self.ply - from_ply,
                self.shard.as_ref().map_or(String::new(), |s| format!(" of partition {s}")),
                self.lines.unwrap_or(0)
            ),
            _ => String::new(),
        };
    }
}

/// What the maxima by ply come from: the rows, or the error that stopped them, and what
/// was being done (for the message when interrupted).
type Maxima = (std::io::Result<Vec<PlyMaximum>>, String);

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    if args.shard.part.is_some() && args.enumerate_to.is_none() {
        return Err(Failure::Input(
            "--shard splits the lines followed beyond --enumerate-to: give --by-ply --enumerate-to L".into(),
        ));
    }
    let pool = args.run.threads.pool()?;
    let start = Instant::now();
    if !args.by_ply {
        return within(args, &pool, start, out);
    }
    let stop = cli::interrupt_flag();
    let (maxima, work) = match args.beam {
        Some(width) => beam(args, width, &pool, &stop),
        None => followed(args, &pool, &stop)?,
    };
    let maxima = match maxima {
        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {
            eprintln!("retro: interrupted while {work}");
            return Err(Failure::Interrupted);
        }
        maxima => maxima?,
    };
    let rows: Vec<Row> = maxima
        .iter()
        .map(|m| Row::new(m, start.elapsed().as_secs_f64()))
        .collect();
    write_rows(&rows, args.run.output.json, out)
}

/// `--beam WIDTH`: lower bounds at every ply from the beam search.
fn beam(args: &Args, width: u64, pool: &rayon::ThreadPool, stop: &AtomicBool) -> Maxima {
    let bar = cli::progress_bar(u64::from(args.plies), "plies of the beam search");
    let maxima = pool
        .install(|| retro::maxmob::beam_by_ply(args.plies, width as usize, stop, &|| bar.inc(1)));
    bar.finish_and_clear();
    (maxima, "searching the beam".to_string())
}

/// Every position enumerated to `--enumerate-to`, every line followed beyond it (the lines
/// of one partition with `--shard`).
fn followed(args: &Args, pool: &rayon::ThreadPool, stop: &AtomicBool) -> Result<Maxima, Failure> {
    let enumerated = args.enumerate_to.unwrap_or(args.plies).min(args.plies);
    if args.plies - enumerated > MAX_FOLLOWED as u32 {
        return Err(Failure::Input(format!(
            "--enumerate-to {enumerated}: at most {MAX_FOLLOWED} plies can be followed beyond it, --plies is {}",
            args.plies
        )));
    }
    if args.shard.part.is_some() && enumerated >= args.plies {
        return Err(Failure::Input(format!(
            "--shard splits the plies followed beyond --enumerate-to {enumerated}: give --plies {} or more",
            enumerated + 1
        )));
    }
    if let Some(dir) = &args.levels {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::Input(format!("--levels {}: {e}", dir.display())))?;
    }
    let progress = std::sync::Mutex::new(None);
    let maxima = pool.install(|| {
        retro::maxmob::max_mobility_by_ply(
            args.plies,
            enumerated,
            args.shard.part,
            args.run.key_limit(),
            args.levels.as_deref(),
            stop,
            &|n, total| {
                let mut bar = progress.lock().expect("not poisoned");
                bar.get_or_insert_with(|| {
                    cli::progress_bar(total, &format!("positions of ply {enumerated} followed"))
                })
                .inc(n)
            },
        )
    });
    if let Some(bar) = progress.lock().expect("not poisoned").take() {
        bar.finish_and_clear();
    }
    Ok((
        maxima,
        format!("following the lines beyond ply {enumerated}"),
    ))
}

/// Without `--by-ply`: the largest mobility within `--plies`, with a witness.
fn within(
    args: &Args,
    pool: &rayon::ThreadPool,
    start: Instant,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let found = pool.install(|| max_mobility(args.plies, args.run.key_limit()))?;
    let witness = format_moves(&found.witness);
    if args.run.output.json {
        return cli::write_json(
            out,
            &serde_json::json!({
                "plies": found.plies,
                "mobility": found.mobility,
                "witness": witness,
                "seconds": start.elapsed().as_secs_f64(),
            }),
        );
    }
    writeln!(
        out,
        "within {} plies: mobility {} after {} ({} plies)",
        found.plies,
        found.mobility,
        if witness.is_empty() {
            "the start"
        } else {
            &witness
        },
        found.witness.len()
    )?;
    writeln!(out, "{}", engine::display::Diagram(&found.position))?;
    Ok(())
}

fn write_rows(rows: &[Row], json: bool, out: &mut impl Write) -> Result<(), Failure> {
    if !json {
        writeln!(out, "  ply  side    max      positions  witness")?;
    }
    for row in rows {
        if json {
            seal::write_sealed(out, row)?;
        } else {
            let seen = match (row.positions, row.beam) {
                (Some(positions), _) => positions.to_string(),
                (None, Some(width)) => format!("beam of {width}"),
                (None, None) => format!("{} lines", row.lines.unwrap_or(0)),
            };
            let max = row
                .max
                .map_or_else(|| format!(">={}", row.lower), |m| m.to_string());
            writeln!(
                out,
                "{:>5}  {:<5} {max:>5} {seen:>14}  {}",
                row.ply, row.side, row.witness
            )?;
        }
    }
    Ok(())
}

/// The rows of `retro maxmob --by-ply --json` runs, the parts of a split (or of splits
/// that nest, [`cli::Split`]), put back together: per ply the best part's witness (replayed
/// by the core), the lines and positions followed added up; refused if a part is missing
/// or repeated, if whole rows of one ply disagree, if a ply has both, or if the positions
/// followed do not add up to the level followed from.
pub fn merge(lines: Vec<cli::JsonLine>, json: bool, out: &mut impl Write) -> Result<(), Failure> {
    #[derive(Default)]
    struct Ply {
        whole: Option<(Row, String)>,
        parts: cli::Split<Row>,
    }
    let mut plies: BTreeMap<usize, Ply> = BTreeMap::new();
    for read in lines {
        let at = read.at();
        let bad = |why: &str| Failure::Input(format!("{at}: {why}"));
        let row: Row = serde_json::from_value(read.value.clone())
            .map_err(|e| bad(&format!("not a row of `retro maxmob --by-ply --json`: {e}")))?;
        let game = Game::replay(Position::START, &row.witness).map_err(|(offset, kind)| {
            bad(&format!(
                "witness {}: at character {}: {kind}",
                row.witness,
                offset + 1
            ))
        })?;
        if game.moves.len() != row.ply || game.last().board.mobility() != row.lower {
            return Err(bad(&format!(
                "the witness does not reach {} moves after {} plies",
                row.lower, row.ply
            )));
        }
        let ply = plies.entry(row.ply).or_default();
        match row.shard.clone() {
            None => match &ply.whole {
                Some((first, first_at))
                    if (first.max, first.positions, first.lines)
                        != (row.max, row.positions, row.lines) =>
                {
                    return Err(bad(&format!(
                        "ply {}: max {:?} here, {:?} at {first_at}",
                        row.ply, row.max, first.max
                    )))
                }
                Some(_) => {}
                None => ply.whole = Some((row, at)),
            },
            Some(shard) => ply.parts.add(&shard, row, &at).map_err(Failure::Input)?,
        }
    }
    let mut rows = Vec::new();
    for (number, ply) in plies {
        if let Some((row, at)) = ply.whole {
            if !ply.parts.is_empty() {
                return Err(Failure::Input(format!(
                    "ply {number}: a whole row ({at}) and shards of it together"
                )));
            }
            rows.push(row);
            continue;
        }
        let parts = ply
            .parts
            .complete()
            .map_err(|e| Failure::Input(format!("ply {number}: {e}")))?;
        // The first part (by shard number) with the largest lower bound.
        let best = parts.iter().rev().max_by_key(|r| r.lower).expect("a part");
        let mut merged = best.clone();
        merged.shard = None;
        merged.max = Some(best.lower);
        merged.impossible = Some(best.lower + 1);
        merged.from_positions = Some(parts.iter().filter_map(|r| r.from_positions).sum());
        merged.lines = Some(parts.iter().filter_map(|r| r.lines).sum());
        merged.seconds = parts.iter().map(|r| r.seconds).sum();
        merged.certify();
        rows.push(merged);
    }
    // The positions followed add up to the level followed from, where its row is read
    // (part 1 brings it): every position of that level was followed once, which the shard
    // numbers alone do not show (a part run on a damaged copy of the level would not).
    for row in &rows {
        let (Some(from), Some(followed)) = (row.from_ply, row.from_positions) else {
            continue;
        };
        if let Some(level) = rows
            .iter()
            .find(|r| r.ply == from)
            .and_then(|r| r.positions)
        {
            if followed != level {
                return Err(Failure::Input(format!(
                    "ply {}: lines followed from {followed} positions of ply {from}, which has {level}",
                    row.ply
                )));
            }
        }
    }
    write_rows(&rows, json, out)
}
