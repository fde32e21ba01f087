//! `satgen curve`: the maximum-mobility curve by ply, each point with its witness and the
//! UNSAT (and checked proof) of one move more (`curve_plot.rs` draws the rows).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use engine::cli::{self, Failure};
use engine::Move;
use rayon::prelude::*;
use satgen::curve::{climb, ClimbError, FromAbove, Point};

use crate::solve::{mobility_dimacs, prepare_proofs, run_solver, SolverArgs};

#[derive(clap::Args)]
#[command(
    after_long_help = "--json: one per ply.\n\n--shard I/N: Take only plies I, I+N, I+2N... (1-based) of the range, for clusters; the shards' JSON Lines put together (`cat`) are the curve."
)]
pub struct Args {
    /// First ply.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=60))]
    from: u32,
    /// Last ply.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(0..=60))]
    to: u32,
    #[command(flatten)]
    shard: cli::ShardArgs,
    /// Skip the plies whose maximum these JSON Lines files (of earlier runs) already give:
    /// an interrupted run goes on where it stopped. With --ceiling N, also those they
    /// bound at N or below; with --bisect, the bisection goes on below their bound.
    #[arg(long, value_name = "FILE")]
    done: Vec<PathBuf>,
    /// Known games (one per line, `label;` before the moves optional, `%` comments, as
    /// problems/mobility33-witnesses.txt; or rows of `satgen curve --json` and `retro
    /// maxmob --by-ply --json`, whose witnesses are the games, e.g. of `retro maxmob
    /// --beam`): at each ply, the best of their positions after that many plies (forced
    /// passes counted) is the first witness, and the climb starts one move above it.
    #[arg(long, value_name = "FILE")]
    witnesses: Option<PathBuf>,
    /// Ask only "N moves after exactly P plies" at each ply instead of climbing: its UNSAT
    /// (with its checked proof under --proof) bounds the point from above, and settles it
    /// where the best known witness reaches N - 1; its SAT gives a witness of at least N.
    /// For the plies whose climb takes hours: 34 bounds every ply to 42 (the mobility-34
    /// cubes), one question each.
    #[arg(long, value_name = "N")]
    ceiling: Option<u32>,
    /// With --ceiling: go on between the witness and the bound, each question the middle
    /// of the counts neither witnessed nor refuted (rounded up), until the point is
    /// settled; a question that runs out of --time-limit moves the next ones above it
    /// (refuting is quicker further above the maximum), until none is left. For plies
    /// where one move more than the witness is hard to satisfy.
    #[arg(long, requires = "ceiling")]
    bisect: bool,
    /// Seconds per question; a point whose question runs out keeps its bounds (max null).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    #[command(flatten)]
    solving: SolverArgs,
    #[command(flatten)]
    threads: cli::ThreadArgs,
    #[command(flatten)]
    output: cli::OutputArgs,
}

const HEADER: &str = "  ply  side    max  bounds    questions  seconds  witness";

/// An unsettled point's range: from its witness's count to one below the first count
/// proven impossible (open-ended without one); empty for a settled point.
pub(crate) fn bounds(max: Option<u64>, lower: u64, impossible: Option<u64>) -> String {
    match (max, impossible) {
        (Some(_), _) => String::new(),
        (None, Some(u)) => format!("{lower}..{}", u - 1),
        (None, None) => format!("{lower}.."),
    }
}

fn line(point: &Point) -> String {
    let bounds = bounds(
        point.max.map(u64::from),
        u64::from(point.lower),
        point.impossible.map(u64::from),
    );
    // An UNSAT that no checked proof stands behind says so, as everywhere.
    let unchecked = match point.proof_checked {
        Some(false) => "  (UNSAT unchecked)",
        _ => "",
    };
    format!(
        "{:>5}  {:<5} {:>5}  {:<8} {:>10} {:>8.1}  {}{unchecked}",
        point.ply,
        point.side,
        point.max.map_or("-".to_string(), |m| m.to_string()),
        bounds,
        point.questions.len(),
        point.seconds,
        point.witness
    )
}

/// The games of a `--witnesses` file, with forced passes: read a line at a time (a line
/// over 1 MiB is an error naming it, as for every input file).
fn known_games(path: &std::path::Path) -> Result<Vec<engine::Game>, Failure> {
    let source = path.display().to_string();
    let game = |source: &str, line: usize, text: &str| {
        let text = text.trim();
        if text.is_empty() || text.starts_with('%') {
            return Ok(None);
        }
        let bad =
            |why: String| engine::ParseError::new(source, line, 0, engine::ParseErrorKind::Io(why));
        let row: serde_json::Value;
        let moves = if text.starts_with('{') {
            row = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
            // An interrupted run's summary line: no game.
            if row["summary"] == true {
                return Ok(None);
            }
            row["witness"]
                .as_str()
                .ok_or_else(|| bad("a row without a witness game".into()))?
        } else {
            text.rsplit(';').next().unwrap_or(text).trim()
        };
        engine::Game::replay(engine::Position::START, moves)
            .map(Some)
            .map_err(|(offset, kind)| bad(format!("move at byte {offset} of the moves: {kind}")))
    };
    let games = engine::obf::parse_lines(&source, engine::obf::open(path)?, game)?;
    Ok(games.into_iter().map(|(_, game)| game).collect())
}

/// The first `ply` moves of the game whose position after them gives its side to move the
/// most legal moves, with that number, if any game is that long.
fn best_known(games: &[engine::Game], ply: usize) -> Option<(&[Move], u32)> {
    games
        .iter()
        .filter(|g| g.moves.len() >= ply)
        .map(|g| (&g.moves[..ply], g.positions[ply].board.mobility()))
        .max_by_key(|&(_, mobility)| mobility)
}

/// What the rows of earlier runs (--done) say of one ply.
#[derive(Clone, Copy, Default)]
struct Known {
    settled: bool,
    /// The fewest moves a row proves impossible.
    impossible: Option<u32>,
}

fn known_bounds(files: &[PathBuf]) -> Result<BTreeMap<usize, Known>, Failure> {
    let mut bounds: BTreeMap<usize, Known> = BTreeMap::new();
    for row in cli::read_json_lines_resuming(files)? {
        // An interrupted run's last line says where it stopped; the rows are its points.
        if row.value["summary"] == true {
            continue;
        }
        let ply = row.value["ply"]
            .as_u64()
            .ok_or_else(|| Failure::Input(format!("{}: a row without its ply", row.at())))?;
        let known = bounds.entry(ply as usize).or_default();
        known.settled |= !row.value["max"].is_null();
        if let Some(u) = row.value["impossible"].as_u64() {
            known.impossible = Some(known.impossible.map_or(u as u32, |k| k.min(u as u32)));
        }
    }
    Ok(bounds)
}

/// How the questions at `ply` go: the climb (`Some(None)`), or from the ceiling down with
/// the bound of the --done rows; `None` where nothing is left to ask (settled, bounded at
/// the ceiling without --bisect, or a bound of the rows meeting the best known witness).
fn plan(args: &Args, done: Known, games: &[engine::Game], ply: usize) -> Option<Option<FromAbove>> {
    if done.settled {
        return None;
    }
    let Some(ceiling) = args.ceiling else {
        return Some(None);
    };
    let lower = best_known(games, ply).map_or(0, |(_, mobility)| mobility);
    let bound = done.impossible.unwrap_or(u32::MAX);
    if (bound <= ceiling && !args.bisect) || bound <= lower + 1 {
        return None;
    }
    Some(Some(FromAbove {
        ceiling,
        bisect: args.bisect,
        known_impossible: done.impossible,
    }))
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    if args.from > args.to {
        return Err(Failure::Input(format!(
            "--from {} is after --to {}",
            args.from, args.to
        )));
    }
    prepare_proofs(&args.solving)?;
    let limit = args
        .time_limit
        .map(|s| cli::seconds(s, "--time-limit"))
        .transpose()?;
    let bounds = known_bounds(&args.done)?;
    let known = match &args.witnesses {
        Some(path) => known_games(path)?,
        None => Vec::new(),
    };
    let plies: Vec<(usize, Option<FromAbove>)> = (args.from as usize..=args.to as usize)
        .enumerate()
        .filter(|(k, _)| args.shard.part.is_none_or(|(i, n)| k % n == i - 1))
        .filter_map(|(_, ply)| {
            let done = bounds.get(&ply).copied().unwrap_or_default();
            plan(args, done, &known, ply).map(|how| (ply, how))
        })
        .collect();
    let interrupt = cli::interrupt_flag();
    let progress = cli::progress_bar(plies.len() as u64, "plies");
    if !args.output.json {
        progress.suspend(|| writeln!(out, "{HEADER}"))?;
    }
    let failure: Mutex<Option<Failure>> = Mutex::new(None);
    let pool = args.threads.pool()?;
    // The points come back as they are settled and are written at once, so that an
    // interrupted run keeps them (`--done` resumes from them).
    let (sender, points) = std::sync::mpsc::channel::<String>();
    let mut rows_written = 0;
    let written = std::thread::scope(|scope| {
        scope.spawn(|| {
            pool.install(|| {
                plies
                    .par_iter()
                    .with_max_len(1)
                    .for_each_with(sender, |sender, &(ply, how)| {
                        if interrupt.load(Relaxed) || failure.lock().expect("no panics").is_some() {
                            return;
                        }
                        let game = best_known(&known, ply).map(|(moves, _)| moves);
                        match point(args, ply, game, how, limit, &interrupt) {
                            Ok(point) => {
                                let text = if args.output.json {
                                    serde_json::to_string(&point).expect("a point serialises")
                                } else {
                                    line(&point)
                                };
                                let _ = sender.send(text);
                            }
                            Err(e) => {
                                failure
                                    .lock()
                                    .expect("no panics")
                                    .get_or_insert(Failure::invalid(e));
                            }
                        }
                    })
            })
        });
        points.iter().try_for_each(|text| {
            progress.inc(1);
            rows_written += 1;
            progress.suspend(|| writeln!(out, "{text}").and_then(|()| out.flush()))
        })
    });
    written?;
    progress.finish_and_clear();
    if let Some(failure) = failure.into_inner().expect("no panics") {
        return Err(failure);
    }
    if interrupt.load(Relaxed) {
        // As the other batch commands end: a summary line counting the points above
        // (settled, or bounds where the interrupt stopped them), which `--done` resumes.
        let done = rows_written;
        if args.output.json {
            cli::write_json(
                out,
                &serde_json::json!({"summary": true, "interrupted": true, "points": done}),
            )?;
        } else {
            writeln!(
                out,
                "interrupted: {done} points above, the unsettled ones as bounds (--done goes on from them)"
            )?;
        }
        return Err(Failure::Interrupted);
    }
    Ok(())
}

/// One point (climbed, or from above), each question by the solver chosen, stopped by
/// the interrupt or `limit`.
fn point(
    args: &Args,
    ply: usize,
    known: Option<&[Move]>,
    from_above: Option<FromAbove>,
    limit: Option<Duration>,
    interrupt: &std::sync::atomic::AtomicBool,
) -> Result<Point, ClimbError<String>> {
    climb(
        ply,
        known,
        from_above,
        || interrupt.load(Relaxed),
        |q, encoded| {
            let asked = Instant::now();
            let stop = || interrupt.load(Relaxed) || limit.is_some_and(|l| asked.elapsed() >= l);
            let name = format!("ply-{ply:02}-mobility-{:02}", q.mobility);
            let dimacs = mobility_dimacs(q, encoded);
            let (outcome, proof) = run_solver(&args.solving, &encoded.formula, dimacs, &name, stop)
                .map_err(|e| match e {
                    Failure::Input(m) | Failure::Invalid(m) => m,
                    other => format!("{other:?}"),
                })?;
            Ok((outcome, proof.map(|p| p.proof)))
        },
    )
}
