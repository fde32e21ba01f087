//! `satgen curve`: the maximum-mobility curve by ply, each point with its witness and the
//! UNSAT (and checked proof) of one move more; `satgen curve-plot` draws it.

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

#[derive(clap::Args)]
pub struct PlotArgs {
    /// JSON Lines of `satgen curve --json` (runs and shards; a ply answered twice must
    /// agree).
    #[arg(required = true)]
    rows: Vec<PathBuf>,
    /// The SVG file to write.
    #[arg(short, long)]
    output: PathBuf,
}

const HEADER: &str = "  ply  side    max  bounds    questions  seconds  witness";

/// An unsettled point's range: from its witness's count to one below the first count
/// proven impossible (open-ended without one); empty for a settled point.
fn bounds(max: Option<u64>, lower: u64, impossible: Option<u64>) -> String {
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

/// Per ply, what the rows say together: a settled point (rows that settle one ply must
/// agree), else the best bound on each side of the unsettled ones; with where it was read.
fn points(rows: Vec<cli::JsonLine>) -> Result<BTreeMap<u64, (String, serde_json::Value)>, Failure> {
    let mut points: BTreeMap<u64, (String, serde_json::Value)> = BTreeMap::new();
    for read in rows {
        let (at, row) = (read.at(), read.value);
        if row["summary"] == true {
            continue;
        }
        let ply = row["ply"]
            .as_u64()
            .ok_or_else(|| Failure::Input(format!("{at}: a row without its ply")))?;
        match points.get(&ply) {
            Some((first, earlier)) if !earlier["max"].is_null() && !row["max"].is_null() => {
                if earlier["max"] != row["max"] {
                    return Err(Failure::Invalid(format!(
                        "ply {ply}: {first} says {} and {at} says {}",
                        earlier["max"], row["max"]
                    )));
                }
            }
            // A settled point replaces an unsettled one.
            Some((_, earlier)) if !earlier["max"].is_null() => {}
            // Two unsettled ones: the better bound on each side (a beam's witness and a
            // climb's UNSAT, say).
            Some((first, earlier)) if row["max"].is_null() => {
                let lower = |r: &serde_json::Value| r["lower"].as_u64().unwrap_or(0);
                // The smallest UNSAT, with the row it was read from (a merged row keeps
                // it in `impossible_from`).
                let bound = [(&row, &at), (earlier, first)]
                    .into_iter()
                    .filter_map(|(r, at)| {
                        let from = r["impossible_from"].as_str().unwrap_or(at).to_string();
                        r["impossible"].as_u64().map(|u| (u, from))
                    })
                    .min();
                let (mut best, from) = if lower(&row) > lower(earlier) {
                    (row, at)
                } else {
                    (earlier.clone(), first.clone())
                };
                let impossible = bound.as_ref().map(|(u, _)| *u);
                best["impossible"] = impossible.into();
                if let Some((_, bound_from)) = bound {
                    best["impossible_from"] = bound_from.into();
                }
                // One side's witness meeting the other's UNSAT settles the point.
                if impossible == Some(lower(&best) + 1) {
                    best["max"] = best["lower"].clone();
                }
                points.insert(ply, (from, best));
            }
            _ => {
                points.insert(ply, (at, row));
            }
        }
    }
    Ok(points)
}

/// Draws the curve: the maximum at each ply (black's plies and white's as two series), and
/// the bounds where a point is not settled; prints where each ply stands (its maximum or
/// bounds, the witness, and the row that gave it).
pub fn plot(args: &PlotArgs, out: &mut impl Write) -> Result<(), Failure> {
    let points = points(cli::read_json_lines(&args.rows)?)?;
    draw(&args.output, &points)
        .map_err(|e| Failure::Input(format!("{}: {e}", args.output.display())))?;
    writeln!(
        out,
        "  ply  side    max  bounds    witness  (from; the bound's row where another)"
    )?;
    for (ply, (at, row)) in &points {
        let from = match row["impossible_from"].as_str() {
            Some(bound_from) if bound_from != at => format!("{at}; bound {bound_from}"),
            _ => at.clone(),
        };
        let bounds = bounds(
            row["max"].as_u64(),
            row["lower"].as_u64().unwrap_or(0),
            row["impossible"].as_u64(),
        );
        writeln!(
            out,
            "{ply:>5}  {:<5} {:>5}  {bounds:<8}  {}  ({from})",
            row["side"].as_str().unwrap_or("?"),
            row["max"]
                .as_u64()
                .map_or("-".to_string(), |m| m.to_string()),
            row["witness"].as_str().unwrap_or(""),
        )?;
    }
    let settled = points.values().filter(|(_, r)| !r["max"].is_null()).count();
    writeln!(
        out,
        "{} plies ({settled} settled) drawn to {}",
        points.len(),
        args.output.display()
    )?;
    Ok(())
}

fn draw(
    path: &std::path::Path,
    points: &BTreeMap<u64, (String, serde_json::Value)>,
) -> Result<(), Box<dyn std::error::Error>> {
    use plotters::prelude::*;
    let value = |row: &serde_json::Value, key: &str| row[key].as_u64().map(|v| v as i32);
    let top = points
        .values()
        .filter_map(|(_, r)| value(r, "impossible").or(value(r, "lower")))
        .max()
        .unwrap_or(1)
        + 2;
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "The most legal moves after exactly P plies (a pass is a ply)",
            ("sans-serif", 16),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(-1i32..61i32, 0i32..top)?;
    chart
        .configure_mesh()
        .x_desc("ply P (black to move at even P, white at odd)")
        .y_desc("legal moves")
        .draw()?;
    for (side, colour) in [("black", BLACK), ("white", RED)] {
        let settled: Vec<(i32, i32)> = points
            .iter()
            .filter(|(_, (_, r))| r["side"] == side)
            .filter_map(|(&p, (_, r))| value(r, "max").map(|m| (p as i32, m)))
            .collect();
        chart
            .draw_series(LineSeries::new(settled.clone(), colour.stroke_width(2)))?
            .label(format!("{side} to move: maximum"))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        chart.draw_series(settled.iter().map(|&p| Circle::new(p, 3, colour.filled())))?;
        // Unsettled: the witness's count up to one below the first count proven impossible
        // (or the top of the chart).
        let open = points
            .iter()
            .filter(|(_, (_, r))| r["side"] == side && r["max"].is_null())
            .map(|(&p, (_, r))| {
                let low = value(r, "lower").unwrap_or(0);
                let high = value(r, "impossible").map_or(top, |u| u - 1);
                PathElement::new(
                    vec![(p as i32, low), (p as i32, high)],
                    colour.stroke_width(1),
                )
            });
        chart.draw_series(open)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(lines: &[&str]) -> Vec<cli::JsonLine> {
        lines
            .iter()
            .enumerate()
            .map(|(i, l)| cli::JsonLine {
                file: "rows".into(),
                line: i + 1,
                value: serde_json::from_str(l).unwrap(),
            })
            .collect()
    }

    /// Unsettled rows of one ply give the best bound of each (the beam's witness, the
    /// climb's UNSAT), which settle the point where they meet; a settled row stands over
    /// them; settled rows that disagree fail.
    #[test]
    fn points_take_the_best_bounds() {
        let beam = r#"{"ply":25,"max":null,"lower":29,"impossible":null,"witness":"beam"}"#;
        let climb = r#"{"ply":25,"max":null,"lower":28,"impossible":34,"witness":"climb"}"#;
        let settled = r#"{"ply":25,"max":30,"lower":30,"impossible":31,"witness":"sat"}"#;
        for order in [[beam, climb], [climb, beam]] {
            let points = points(rows(&order)).unwrap();
            let (_, row) = &points[&25];
            assert_eq!(
                (&row["lower"], &row["impossible"]),
                (&29.into(), &34.into())
            );
            assert_eq!(row["witness"], "beam");
            let climb_at = if order[0] == climb {
                "rows:1"
            } else {
                "rows:2"
            };
            assert_eq!(row["impossible_from"], climb_at);
        }
        let all = points(rows(&[beam, settled, climb])).unwrap();
        assert_eq!(all[&25].1["max"], 30);
        let tight = r#"{"ply":25,"max":null,"lower":27,"impossible":30,"witness":"climb"}"#;
        let met = points(rows(&[beam, tight])).unwrap();
        assert_eq!(
            (&met[&25].1["max"], &met[&25].1["witness"]),
            (&29.into(), &"beam".into())
        );
        let other = r#"{"ply":25,"max":31,"lower":31,"impossible":32,"witness":"x"}"#;
        assert!(points(rows(&[settled, other])).is_err());
    }
}
