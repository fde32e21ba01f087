use std::io::Write;
use std::time::Instant;

use engine::cli::{self, Failure, PositionArgs};
use engine::clock::{self, Ended};
use engine::game::format_moves;
use engine::search::{Solver, Wld};

#[derive(clap::Args)]
#[command(after_long_help = "--json: one per position, then a summary.")]
pub struct Args {
    #[command(flatten)]
    positions: PositionArgs,
    #[command(flatten)]
    search: cli::SearchArgs,
    #[command(flatten)]
    eval: cli::EvalArgs,
    /// Win/draw/loss only (window -1..1): shown as win, draw or loss; in JSON `wld`, and `score` +1, 0 or -1.
    #[arg(long)]
    wld: bool,
    /// Also check the score the line gives for every other move (`H1:+12` beside the
    /// best `G8:+18`), each by a search of its position with a window around it: about
    /// one more solve per move listed. Without it only the best score and move are checked.
    #[arg(long)]
    check_all_answers: bool,
    #[command(flatten)]
    limit: cli::TimeLimitArgs,
    #[command(flatten)]
    output: cli::OutputArgs,
}

#[derive(serde::Serialize)]
struct Row {
    index: usize,
    empties: u32,
    /// The score, or with `--wld` its sign (+1, 0, -1); null when unknown.
    score: Option<i32>,
    /// With `--wld`: win, draw or loss.
    #[serde(skip_serializing_if = "Option::is_none")]
    wld: Option<Wld>,
    best_move: Option<String>,
    nodes: u64,
    seconds: f64,
    pv: String,
    /// Whether the score and move agree with the answers on the OBF line (null: none given).
    expected_ok: Option<bool>,
    /// Left unknown at `--time-limit` (its nodes are not counted then).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    unknown: bool,
}

/// From this many empties an exact solve may run for days.
const LONG_EMPTIES: u32 = 40;

/// Whether every answer of `obf` for a move other than its best holds (`--check-all-answers`):
/// the position after the move, searched with a window just around the score the line
/// gives it (its sign with `wld`), must give that score. `Err` is the row's note on the
/// first that does not; with the nodes searched; `None` when stopped.
fn check_other_answers(
    obf: &engine::Obf,
    solver: &Solver,
    pool: &rayon::ThreadPool,
    wld: bool,
    stop: &std::sync::atomic::AtomicBool,
) -> Option<(Result<(), String>, u64)> {
    let Some(best) = obf.best_score() else {
        return Some((Ok(()), 0));
    };
    let mut nodes = 0;
    for answer in obf.answers.iter().filter(|a| a.score != best) {
        let child = obf
            .position
            .play(answer.mv)
            .expect("answers are legal moves");
        // The child's score is the move's, negated; the window holds exactly the one given.
        let expected = if wld {
            answer.score.signum()
        } else {
            answer.score
        };
        let (alpha, beta) = match wld {
            true => (-1, 1),
            false => (-expected - 1, -expected + 1),
        };
        let found = pool.install(|| solver.solve(&child.board, alpha, beta, stop))?;
        nodes += found.nodes;
        let score = if wld {
            -found.score.signum()
        } else {
            -found.score
        };
        if score != expected {
            // Outside the window the search gives a bound, not the score: say which side.
            let side = if score > expected { "more" } else { "less" };
            let why = format!(
                "  MISMATCH ({} scores {side} than the {:+} the line gives)",
                answer.mv, answer.score
            );
            return Some((Err(why), nodes));
        }
    }
    Some((Ok(()), nodes))
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let (positions, mut summary) = args
        .positions
        .read_batch("engine solve", if args.wld { "--wld" } else { "" })?;
    // An exact solve grows about 3x per empty square: past 40 it runs for days, and a
    // user who only wants the winner should know the cheaper ways.
    let most = positions
        .iter()
        .map(|(_, obf)| obf.position.board.empty_count())
        .max()
        .unwrap_or(0);
    if most >= LONG_EMPTIES {
        eprintln!(
            "engine: warning: a position has {most} empties; an exact solve of {LONG_EMPTIES} or more may take days \
             (--wld, `dfpn wld`, or `engine analyze --depth N` answer sooner; Ctrl-C stops and prints what is solved)"
        );
    }
    let stop = cli::interrupt_flag();
    let solver = Solver::new(args.search.hash.mb()).with_eval(args.eval.load()?);
    let pool = args.search.threads.pool()?;
    let (alpha, beta) = if args.wld { (-1, 1) } else { (-65, 65) };
    let progress = cli::position_progress(positions.len());
    if !args.output.json {
        let header = format!(
            "{:>4} {:>7} {:>5} {:>4} {:>9} {:>14} {:>12}  pv",
            "#",
            "empties",
            if args.wld { "wld" } else { "score" },
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
        // The other answers' checks are part of the position's work, its time limit too.
        let (answer, ended) = clock::until(args.limit.deadline(), &stop, |flag| {
            let solution = pool.install(|| solver.solve(&board, alpha, beta, flag))?;
            let score = match args.wld {
                true => solution.score.signum(),
                false => solution.score,
            };
            let expected_ok = cli::check_answers(obf, score, solution.best_move, args.wld);
            let others = match args.check_all_answers && expected_ok == Some(true) {
                true => Some(check_other_answers(obf, &solver, &pool, args.wld, flag)?),
                false => None,
            };
            Some((solution, score, expected_ok, others))
        });
        let seconds = start.elapsed().as_secs_f64();
        let (row, note) = match answer {
            Some((solution, score, mut expected_ok, others)) => {
                let mut note = cli::mismatch_note(obf, expected_ok, args.wld);
                let mut nodes = solution.nodes;
                if let Some((others, more_nodes)) = others {
                    if let Err(why) = others {
                        expected_ok = Some(false);
                        note = why;
                    }
                    nodes += more_nodes;
                }
                summary.add(nodes, seconds, expected_ok);
                let row = Row {
                    index: *index,
                    empties: board.empty_count(),
                    score: Some(score),
                    wld: args.wld.then(|| Wld::of_score(score)),
                    best_move: solution.best_move.map(|m| m.to_string()),
                    nodes,
                    seconds,
                    pv: format_moves(&solution.pv),
                    expected_ok,
                    unknown: false,
                };
                (row, note)
            }
            None if ended == Ended::Deadline => {
                summary.add_unknown(0, seconds);
                let row = Row {
                    index: *index,
                    empties: board.empty_count(),
                    score: None,
                    wld: None,
                    best_move: None,
                    nodes: 0,
                    seconds,
                    pv: String::new(),
                    expected_ok: None,
                    unknown: true,
                };
                (row, String::new())
            }
            None => {
                summary.interrupted = true;
                break;
            }
        };
        let line = if args.output.json {
            summary.json_row(&row)
        } else {
            let answer = match (row.wld, row.score) {
                (Some(w), _) => w.to_string(),
                (None, Some(score)) => format!("{score:+}"),
                (None, None) => "?".to_string(),
            };
            format!(
                "{:>4} {:>7} {:>5} {:>4} {:>9.3} {:>14} {:>12.0}  {}{}",
                row.index,
                row.empties,
                answer,
                row.best_move.as_deref().unwrap_or("--"),
                row.seconds,
                row.nodes,
                row.nodes as f64 / row.seconds.max(1e-9),
                if row.unknown {
                    "unknown: over the time limit"
                } else {
                    &row.pv
                },
                note
            )
        };
        progress.suspend(|| writeln!(out, "{line}").and_then(|()| out.flush()))?;
        progress.inc(1);
    }
    progress.finish_and_clear();
    summary.finish(out, args.output.json, Default::default(), "")
}
