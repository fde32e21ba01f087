//! A game in the terminal against the engine: type moves (`f5`), `undo` (takes back your
//! last move and the engine's reply), `hint`, `quit`.

use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use engine::cli::{self, Failure};
use engine::display::Diagram;
use engine::game::Game;
use engine::position::{Color, Move, Position};
use engine::search::midgame::Midgame;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    selectivity: cli::SelectivityArgs,
    /// The engine's colour.
    #[arg(long, value_enum, default_value_t = Side::White)]
    engine: Side,
    /// The engine's search depth in plies (the most, with --seconds).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: u32,
    /// Seconds per engine move: the deepest iteration finished by then is played (an exact
    /// solve near the end of the game is not cut short).
    #[arg(long)]
    seconds: Option<f64>,
    #[command(flatten)]
    eval: cli::EvalArgs,
    /// Moves played before the game starts (e.g. f5d6).
    #[arg(long, default_value = "")]
    moves: String,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Side {
    Black,
    White,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let engine_color = match args.engine {
        Side::Black => Color::Black,
        Side::White => Color::White,
    };
    if args.seconds.is_some_and(|s| !(0.0..=86_400.0).contains(&s)) {
        return Err(Failure::Input("--seconds must lie in 0..=86400".into()));
    }
    let mut midgame = Midgame::new(args.eval.load()?, 128);
    midgame.selectivity = args.selectivity.selectivity;
    let never = AtomicBool::new(false);
    let mut game = Game::replay(Position::START, &args.moves)
        .map_err(|(offset, e)| Failure::Input(format!("--moves, offset {offset}: {e}")))?;
    let mut lines = std::io::stdin().lock().lines();
    loop {
        let here = *game.last();
        writeln!(out, "{}", Diagram(&here))?;
        if here.board.is_game_over() {
            let (black, white) = here.discs();
            writeln!(
                out,
                "game over: black {} white {}",
                black.count_ones(),
                white.count_ones()
            )?;
            return Ok(());
        }
        if here.side == engine_color || here.board.must_pass() {
            let start = Instant::now();
            let deadline = args.seconds.map(|s| start + Duration::from_secs_f64(s));
            let analysis = midgame.iterate(&here.board, args.depth, deadline, &never);
            let mv = analysis.best_move.unwrap_or(Move::Pass);
            writeln!(
                out,
                "engine plays {mv} ({:+.2} discs, depth {}, {:.2} s)",
                analysis.score as f64 / 100.0,
                analysis.depth,
                start.elapsed().as_secs_f64()
            )?;
            game.play(mv).expect("the engine plays legal moves");
            continue;
        }
        write!(out, "your move ({}): ", here.board.legal_moves())?;
        out.flush()?;
        let Some(line) = lines.next().transpose()? else {
            return Ok(());
        };
        match line.trim() {
            "quit" => return Ok(()),
            "undo" => {
                // Back to the previous position where it was our turn.
                let ours = |p: &Position| p.side != engine_color && !p.board.must_pass();
                let mut taken = false;
                while !game.moves.is_empty() {
                    game.moves.pop();
                    game.positions.pop();
                    if ours(game.last()) {
                        taken = true;
                        break;
                    }
                }
                if !taken {
                    writeln!(out, "nothing to undo")?;
                }
            }
            "hint" => {
                for (mv, score) in midgame.analyze(&here.board, args.depth, &never) {
                    write!(out, "{mv} {:+.2}  ", score as f64 / 100.0)?;
                }
                writeln!(out)?;
            }
            text => {
                if let Err(e) = text.parse().and_then(|mv| game.play(mv)) {
                    writeln!(out, "{e}")?;
                }
            }
        }
    }
}
