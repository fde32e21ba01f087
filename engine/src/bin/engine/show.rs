use std::io::Write;

use engine::display::Diagram;
use engine::game::format_moves;
use engine::input::{self, PositionOrFile};
use engine::Obf;

use engine::cli::{Failure, GameArgs};

#[derive(clap::Args)]
pub struct Args {
    /// An OBF line ("<64 squares> X"), a move list from the start ("f5d6c3"), or a file
    /// (OBF, or games: WTHOR .wtb, GGF .ggf): what parses as a position is one; anything
    /// else names a file.
    #[arg(allow_hyphen_values = true)]
    position: String,
    #[command(flatten)]
    games: GameArgs,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let (obf, game) = match input::position_or_file("position", &args.position)? {
        PositionOrFile::Position(obf, game) => (obf, game),
        PositionOrFile::File(path) => {
            let games = input::GameFile::of(&path).is_some();
            for (number, obf) in input::read_possible_positions(&path, args.games.empties)? {
                match games {
                    true => writeln!(out, "{} game {number}", path.display())?,
                    false => writeln!(out, "{}:{number}", path.display())?,
                }
                show(&obf, out)?;
                if let Some(score) = obf.known_score {
                    writeln!(out, "theoretical score: {score:+} for the side to move")?;
                }
                writeln!(out)?;
            }
            return Ok(());
        }
    };
    if let Some(game) = game {
        writeln!(
            out,
            "moves: {} ({} plies)",
            format_moves(&game.moves),
            game.moves.len()
        )?;
    }
    show(&obf, out)
}

fn show(obf: &Obf, out: &mut impl Write) -> Result<(), Failure> {
    let board = &obf.position.board;
    writeln!(out, "{}", Diagram(&obf.position))?;
    writeln!(out, "obf: {obf}")?;
    let moves = board.legal_moves();
    if !moves.is_empty() {
        writeln!(out, "legal moves ({}): {moves}", moves.len())?;
    } else if board.is_game_over() {
        writeln!(
            out,
            "game over: final score {:+} for the side to move",
            board.final_score()
        )?;
    } else {
        writeln!(out, "legal moves (0): the side to move must pass")?;
    }
    Ok(())
}
