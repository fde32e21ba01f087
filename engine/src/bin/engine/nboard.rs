//! The NBoard protocol (version 2) on stdin/stdout, so that GUIs such as NBoard can use the
//! engine: `nboard 2`, `set depth N`, `set game GGF`, `set contempt N`, `move M[/eval/time]`,
//! `hint N`, `go`, `ping N`, `learn`, `analyze`, `quit`.
//!
//! Time: when the game has a time limit (`TI` in its GGF), each player's clock is that
//! limit less the times of its moves (in the GGF and in `move` commands, which NBoard sends
//! for both sides' moves); `go` then searches iteratively until its share of the clock
//! is spent (at most `set depth` plies).

use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use engine::cli::{self, Failure};
use engine::game::Game;
use engine::ggf;
use engine::position::{Move, Position};
use engine::search::midgame::Midgame;
use engine::Board;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    selectivity: cli::SelectivityArgs,
    #[command(flatten)]
    eval: cli::EvalArgs,
    #[command(flatten)]
    hash: cli::HashArgs,
}

/// The share of `left` for one move: the clock spread over the side's remaining moves,
/// keeping a tenth in reserve.
fn budget(left: Duration, board: &Board) -> Duration {
    let moves_left = board.empty_count().div_ceil(2);
    left.mul_f64(0.9) / moves_left.max(1)
}

/// NBoard writes moves in capitals and a pass as PA.
fn nboard_move(mv: Move) -> String {
    match mv {
        Move::Play(sq) => sq.to_string().to_uppercase(),
        Move::Pass => "PA".into(),
    }
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let eval = args.eval.load()?;
    let mut midgame = Midgame::new(eval, args.hash.mb());
    midgame.selectivity = args.selectivity.selectivity;
    let never = AtomicBool::new(false);
    let mut game = Game {
        positions: vec![Position::START],
        moves: Vec::new(),
    };
    let mut depth = 12;
    let mut clock: Option<ggf::Clock> = None;
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let (command, rest) = line.trim().split_once(' ').unwrap_or((line.trim(), ""));
        match command {
            "nboard" => writeln!(out, "set myname engine")?,
            "set" => {
                let (what, value) = rest.split_once(' ').unwrap_or((rest, ""));
                match what {
                    "depth" => match value.trim().parse::<u32>() {
                        Ok(d) if (1..=60).contains(&d) => depth = d,
                        _ => writeln!(out, "status bad depth {value:?}")?,
                    },
                    "game" => match ggf::parse_with_clock(value) {
                        Ok((g, c)) => (game, clock) = (g, c),
                        Err(e) => writeln!(out, "status bad game: {e}")?,
                    },
                    _ => {} // contempt and others: nothing to change
                }
            }
            "move" => {
                let mut fields = rest.split('/');
                let text = fields.next().unwrap_or("").trim();
                let mover = game.last().side;
                match text.parse().and_then(|mv| game.play(mv)) {
                    Ok(()) => {
                        let seconds = fields.nth(1).and_then(|t| t.trim().parse::<f64>().ok());
                        if let (Some(clock), Some(seconds)) = (&mut clock, seconds) {
                            clock.spend(mover, seconds);
                        }
                    }
                    Err(e) => writeln!(out, "status bad move {text:?}: {e}")?,
                }
            }
            "hint" => {
                let wanted: usize = rest.trim().parse().unwrap_or(1).max(1);
                let board = game.last().board;
                let start = Instant::now();
                writeln!(out, "status thinking")?;
                out.flush()?;
                let scores = midgame.analyze(&board, depth, &never);
                for (mv, score) in scores.iter().take(wanted) {
                    writeln!(
                        out,
                        "search {} {:.2} 0 {depth}",
                        nboard_move(*mv),
                        *score as f64 / 100.0
                    )?;
                }
                let seconds = start.elapsed().as_secs_f64();
                writeln!(out, "nodestats {} {seconds:.3}", midgame.nodes())?;
                writeln!(out, "status")?;
            }
            "go" => {
                let board = game.last().board;
                let start = Instant::now();
                writeln!(out, "status thinking")?;
                out.flush()?;
                let deadline = clock.map(|c| start + budget(c.left(game.last().side), &board));
                let analysis = midgame.iterate(&board, depth, deadline, &never);
                let seconds = start.elapsed().as_secs_f64();
                let mv = analysis.best_move.unwrap_or(Move::Pass);
                writeln!(out, "nodestats {} {seconds:.3}", analysis.nodes)?;
                writeln!(
                    out,
                    "=== {}/{:.2}/{seconds:.3}",
                    nboard_move(mv),
                    analysis.score as f64 / 100.0
                )?;
                writeln!(out, "status")?;
            }
            "ping" => writeln!(out, "pong {}", rest.trim())?,
            "learn" => writeln!(out, "learned")?,
            "analyze" => writeln!(out, "status analyze is not supported")?,
            "quit" => break,
            "" => {}
            other => writeln!(out, "status unknown command {other:?}")?,
        }
        out.flush()?;
    }
    Ok(())
}
