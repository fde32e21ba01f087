//! Positions as users give them on a command line: an OBF line or a move list.

use crate::error::{ParseError, ParseErrorKind};
use crate::game::Game;
use crate::obf::{self, Obf};
use crate::position::Position;

/// Reads `text` (named `source` in errors) as an OBF line when its first word has 64
/// characters, otherwise as a move list from the start position. An OBF position that
/// cannot arise in a game is an error; a move list returns the game it plays.
pub fn parse_position(source: &str, text: &str) -> Result<(Obf, Option<Game>), ParseError> {
    let located = |offset, kind| ParseError::new(source, 1, obf::column(text, offset), kind);
    let first_word = text.split_whitespace().next().unwrap_or_default();
    if first_word.chars().count() == 64 {
        let obf = Obf::parse(text).map_err(|(offset, kind)| located(offset, kind))?;
        check_possible(source, 1, &obf)?;
        Ok((obf, None))
    } else {
        let game = Game::replay(Position::START, text).map_err(|(o, kind)| located(o, kind))?;
        Ok((Obf::new(*game.last()), Some(game)))
    }
}

/// An error naming `source:line` if the position fails the cheap reachability checks.
pub fn check_possible(source: &str, line: usize, obf: &Obf) -> Result<(), ParseError> {
    match obf.position.board.impossibility() {
        Some(why) => Err(ParseError::new(
            source,
            line,
            0,
            ParseErrorKind::Impossible(why),
        )),
        None => Ok(()),
    }
}

/// Reads an OBF file and checks every position in it.
pub fn read_obf_file(path: &std::path::Path) -> Result<Vec<(usize, Obf)>, ParseError> {
    let positions = obf::read_file(path)?;
    let source = path.display().to_string();
    for (line, obf) in &positions {
        check_possible(&source, *line, obf)?;
    }
    Ok(positions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn obf_lines_and_move_lists() {
        let (obf, game) = parse_position("arg", "f5d6").unwrap();
        assert_eq!(game.unwrap().moves.len(), 2);
        assert_eq!(obf.position.board.empty_count(), 58);
        let line = obf.to_string();
        let (again, game) = parse_position("arg", &line).unwrap();
        assert_eq!((again, game), (obf, None));
    }

    #[test]
    fn errors_are_located() {
        let err = parse_position("--board", "f5 d6 z9").unwrap_err();
        assert_eq!(
            err.to_string(),
            "--board:1:7: \"z9\" is not a move (a1..h8, or ps/pa for a pass)"
        );
        let empty_centre = format!("{} X", "-".repeat(64));
        let err = parse_position("--board", &empty_centre).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--board:1: impossible position: centre square d4 is empty"
        );
    }
}
