//! Positions as users give them on a command line: an OBF line or a move list.

use crate::board::Board;
use crate::error::{ParseError, ParseErrorKind};
use crate::game::Game;
use crate::obf::{self, Obf};
use crate::position::Position;
use std::path::Path;

/// Reads `text` (named `source` in errors) as an OBF line when its first word has 64
/// characters, otherwise as a move list from the start position. An OBF position that
/// cannot arise in a game is an error; a move list returns the game it plays.
pub fn parse_position(source: &str, text: &str) -> Result<(Obf, Option<Game>), ParseError> {
    let located = |offset, kind| ParseError::new(source, 1, obf::column(text, offset), kind);
    if looks_like_obf(text) {
        let obf = Obf::parse(text).map_err(|(offset, kind)| located(offset, kind))?;
        check_possible(source, 1, &obf)?;
        Ok((obf, None))
    } else {
        let game = Game::replay(Position::START, text).map_err(|(o, kind)| located(o, kind))?;
        Ok((Obf::new(*game.last()), Some(game)))
    }
}

/// Whether `text` is meant as an OBF line: its first word has the 64 squares (perhaps
/// with the side to move attached, and a `;`), or is a long run of square characters
/// (a board with a square too many or too few, which the OBF parser then names; no move
/// list is made of them).
pub fn looks_like_obf(text: &str) -> bool {
    let first_word = text.split_whitespace().next().unwrap_or_default();
    let squares = first_word.trim_end_matches(';');
    matches!(squares.chars().count(), 64 | 65)
        || (squares.len() >= 16 && squares.chars().all(|c| "XxOo*-.".contains(c)))
}

/// What a command-line argument that takes a position or a file names.
pub enum PositionOrFile {
    /// An OBF line, or a move list from the start with the game it plays.
    Position(Obf, Option<Game>),
    /// A file to read positions from.
    File(std::path::PathBuf),
}

/// Reads `text` as a position when it parses as one (an OBF line, a move list), else as a
/// file when one is at that path. Otherwise the error says what was meant: "no such file"
/// when the text looks like a path (a `/` or `\\`, or a name with an extension such as
/// `.obf`, without spaces), the position's own error when it does not.
/// `-` is standard input.
pub fn position_or_file(source: &str, text: &str) -> Result<PositionOrFile, ParseError> {
    let error = match parse_position(source, text) {
        Ok((obf, game)) => return Ok(PositionOrFile::Position(obf, game)),
        Err(e) => e,
    };
    let path = std::path::Path::new(text);
    if path.is_file() || text == "-" {
        return Ok(PositionOrFile::File(path.to_path_buf()));
    }
    if path.is_dir() {
        return Err(ParseError::new(
            text,
            0,
            0,
            ParseErrorKind::Io("is a directory, not a file of positions".into()),
        ));
    }
    if looks_like_obf(text) {
        return Err(error);
    }
    // Neither a position nor a file: say both, since either may have been meant.
    let error = ParseError {
        kind: ParseErrorKind::Io(format!("{}; nor is there a file {text:?}", error.kind)),
        ..error
    };
    let looks_like_path = text.contains(['/', '\\'])
        || (path.extension().is_some() && !text.contains(char::is_whitespace));
    if looks_like_path {
        return Err(ParseError::new(
            text,
            0,
            0,
            ParseErrorKind::Io("no such file".into()),
        ));
    }
    Err(error)
}

/// Reads `text` as [`parse_position`] does but without calling an unreachable position an
/// error: for the tools whose answer that is (retro, satgen's reachability questions).
pub fn parse_any_position(source: &str, text: &str) -> Result<Position, ParseError> {
    if looks_like_obf(text) {
        let obf = Obf::parse(text).map_err(|(offset, kind)| {
            ParseError::new(source, 1, obf::column(text, offset), kind)
        })?;
        Ok(obf.position)
    } else {
        Ok(*parse_position(source, text)?.1.expect("a move list").last())
    }
}

/// An error naming `source:line` if the position fails the cheap reachability checks.
pub(crate) fn check_possible(source: &str, line: usize, obf: &Obf) -> Result<(), ParseError> {
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

/// A file of games, told by its extension: WTHOR (`.wtb`) or GGF (`.ggf`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameFile {
    /// A WTHOR database (`.wtb`).
    Wthor,
    /// Generic Game Format (`.ggf`).
    Ggf,
}

impl GameFile {
    /// The kind of game file `path` names, if any.
    pub fn of(path: &Path) -> Option<GameFile> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "wtb" => Some(GameFile::Wthor),
            "ggf" => Some(GameFile::Ggf),
            _ => None,
        }
    }
}

/// The positions of a file: an OBF file as [`obf::read_file`] reads it (with line numbers,
/// unreachable positions included, as retro asks about them), or a file of games
/// ([`GameFile`]) of which each game gives its first position with `empties` empty squares
/// (with the game's number; games that end sooner give none).
/// For WTHOR, `empties` defaults to the header's depth of the theoretical scores, and at
/// that depth each position carries its game's theoretical score as its known score,
/// which the solvers check as they check OBF answers (Edax's `-wtest`).
pub fn read_positions(path: &Path, empties: Option<u32>) -> Result<Vec<(usize, Obf)>, ParseError> {
    let source = path.display().to_string();
    let fail = |message: String| ParseError::new(&source, 0, 0, ParseErrorKind::Io(message));
    let Some(kind) = GameFile::of(path) else {
        if empties.is_some() {
            return Err(fail("--empties is for files of games (.wtb, .ggf)".into()));
        }
        return obf::read_file(path);
    };
    let bytes = obf::read_bytes(path)?;
    let (games, empties, depth) = match kind {
        GameFile::Wthor => {
            let (header, records) = crate::wthor::parse(&source, &bytes)?;
            let depth = (header.depth > 0).then_some(header.depth as u32);
            let empties = empties.or(depth).ok_or_else(|| {
                fail("the header gives no depth for theoretical scores: give --empties".into())
            })?;
            let games = records
                .into_iter()
                .map(|r| (r.game, Some(r.theoretical_black_discs)))
                .collect::<Vec<_>>();
            (games, empties, depth)
        }
        GameFile::Ggf => {
            let empties = empties.ok_or_else(|| fail("give --empties for a GGF file".into()))?;
            let text = std::str::from_utf8(&bytes).map_err(|_| fail("not UTF-8 text".into()))?;
            let games = crate::ggf::split_games(text)
                .map_err(|(line, e)| ParseError::new(&source, line, 0, ParseErrorKind::Io(e)))?
                .into_iter()
                .map(|(line, game)| {
                    crate::ggf::parse(game)
                        .map(|game| (game, None))
                        .map_err(|e| ParseError::new(&source, line, 0, ParseErrorKind::Io(e)))
                })
                .collect::<Result<Vec<_>, _>>()?;
            (games, empties, None)
        }
    };
    if games.is_empty() {
        return Err(fail("no games".into()));
    }
    if empties > 60 {
        return Err(fail(format!("--empties {empties}: at most 60")));
    }
    let positions: Vec<(usize, Obf)> = games
        .into_iter()
        .enumerate()
        .filter_map(|(index, (game, known))| {
            let position = *game
                .positions
                .iter()
                .find(|p| p.board.empties().count_ones() == empties)?;
            let known = known.filter(|_| depth == Some(empties));
            let obf = Obf {
                known_score: known.map(|black| crate::wthor::disc_difference(black, position.side)),
                ..Obf::new(position)
            };
            Some((index + 1, obf))
        })
        .collect();
    if positions.is_empty() {
        return Err(fail(format!(
            "no game has a position with {empties} empties"
        )));
    }
    Ok(positions)
}

/// [`read_positions`] for the solvers: a position of an OBF file that fails the cheap
/// reachability checks is an error naming its line. (Positions of games are reachable.)
pub fn read_possible_positions(
    path: &Path,
    empties: Option<u32>,
) -> Result<Vec<(usize, Obf)>, ParseError> {
    let positions = read_positions(path, empties)?;
    let source = path.display().to_string();
    for (line, obf) in &positions {
        check_possible(&source, *line, obf)?;
    }
    Ok(positions)
}

/// Parses lines `player,opponent` of hexadecimal bitboards (`0x` optional; blank lines and
/// `%`/`#` comments are skipped, and a first line that is a header: each of its fields has
/// a letter that no hexadecimal number has, as in `player,opponent`; data is never taken
/// for a header). The side to move is not given: callers decide what colours mean. A file
/// without a board is an error.
pub fn parse_bitboard_csv(source: &str, text: &str) -> Result<Vec<(usize, Board)>, ParseError> {
    obf::non_empty(
        source,
        obf::parse_lines(source, text.as_bytes(), parse_bitboard_line)?,
    )
}

/// [`parse_bitboard_csv`] of the file at `path` (`-`: standard input), read line by line.
pub fn read_bitboard_csv(path: &Path) -> Result<Vec<(usize, Board)>, ParseError> {
    let source = path.display().to_string();
    obf::non_empty(
        &source,
        obf::parse_lines(&source, obf::open(path)?, parse_bitboard_line)?,
    )
}

/// The board on line `number` of a bitboard CSV, `None` for a blank, comment or header
/// line.
fn parse_bitboard_line(
    source: &str,
    number: usize,
    line: &str,
) -> Result<Option<Board>, ParseError> {
    let is_header = |line: &str| {
        line.split(',').all(|field| {
            let digits = field
                .trim()
                .trim_start_matches("0x")
                .trim_start_matches("0X");
            digits
                .chars()
                .any(|c| c.is_alphabetic() && !c.is_ascii_hexdigit())
        })
    };
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with(['%', '#']) || (number == 1 && is_header(trimmed))
    {
        return Ok(None);
    }
    let bad = || {
        ParseError::new(
            source,
            number,
            1,
            ParseErrorKind::BadBitboards(trimmed.to_string()),
        )
    };
    let hex = |field: &str| {
        let digits = field
            .trim()
            .trim_start_matches("0x")
            .trim_start_matches("0X");
        u64::from_str_radix(digits, 16).map_err(|_| bad())
    };
    let (player, opponent) = trimmed.split_once(',').ok_or_else(bad)?;
    let (player, opponent) = (hex(player)?, hex(opponent)?);
    if player & opponent != 0 {
        return Err(bad());
    }
    Ok(Some(Board::new(player, opponent)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitboard_csv() {
        let text =
            "player,opponent\n0x0000341c10261000,0x006a4a620a406e00\n\n810000000000001,0x2\n";
        let boards = parse_bitboard_csv("c.csv", text).unwrap();
        assert_eq!(boards.len(), 2);
        assert_eq!(
            boards[0],
            (2, Board::new(0x0000_341c_1026_1000, 0x006a_4a62_0a40_6e00))
        );
        assert_eq!(boards[1].0, 4);
        let err = parse_bitboard_csv("c.csv", "0x1,0x1\n").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("c.csv:1:1: expected two hexadecimal"),
            "{err}"
        );
        assert!(parse_bitboard_csv("c.csv", "0x1;0x2\n").is_err());
        assert!(parse_bitboard_csv("c.csv", "0x1,zz\n").is_err());
        // Data that starts with a hexadecimal letter is data, not a header.
        let boards = parse_bitboard_csv("c.csv", "a000000000000000,0x2\n").unwrap();
        assert_eq!(boards, vec![(1, Board::new(0xa000_0000_0000_0000, 2))]);
        // A header alone, or nothing: no boards is an error.
        for empty in ["player,opponent\n", "", "% comment\n\n"] {
            let err = parse_bitboard_csv("c.csv", empty).unwrap_err();
            assert_eq!(
                err.to_string(),
                "c.csv: no positions (every line is empty or a comment)"
            );
        }
    }

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
            "--board:1:7: \"z9\" is not a move (a1..h8, or ps/pa/pass for a pass)"
        );
        let empty_centre = format!("{} X", "-".repeat(64));
        let err = parse_position("--board", &empty_centre).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--board:1: impossible position: centre square d4 is empty"
        );
    }
}
