use std::io::Write;

use engine::display::Diagram;
use engine::game::format_moves;
use engine::input::{self, PositionOrFile};
use engine::Obf;

use engine::cli::Failure;

#[derive(clap::Args)]
pub struct Args {
    /// An OBF line ("<64 squares> X"), a move list from the start ("f5d6c3"), or an OBF
    /// file: what parses as a position is one; anything else names a file.
    #[arg(allow_hyphen_values = true)]
    position: String,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let (obf, game) = match input::position_or_file("position", &args.position)? {
        PositionOrFile::Position(obf, game) => (obf, game),
        PositionOrFile::File(path) => {
            for (line, obf) in input::read_obf_file(&path)? {
                writeln!(out, "{}:{line}", path.display())?;
                show(&obf, out)?;
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
