use std::io::Write;
use std::path::Path;

use engine::display::Diagram;
use engine::game::format_moves;
use engine::{input, Obf};

use engine::cli::Failure;

#[derive(clap::Args)]
pub struct Args {
    /// An OBF line ("<64 squares> X"), a move list from the start ("f5d6c3"), or an OBF file.
    #[arg(allow_hyphen_values = true)]
    position: String,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let path = Path::new(&args.position);
    if path.is_file() {
        for (line, obf) in input::read_obf_file(path)? {
            writeln!(out, "{}:{line}", path.display())?;
            show(&obf, out)?;
            writeln!(out)?;
        }
        return Ok(());
    }
    let (obf, game) = input::parse_position("position", &args.position)?;
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
