//! OBF, the one-line position format of Edax and the FFO suite:
//! `--XXXXX--OOOXX-O-...-OOOOO-- X; G8:+18; H1:+12;` — 64 squares a1..h8 (`X` or `*` black,
//! `O` white, `-` or `.` empty), the side to move, then optional `MOVE:SCORE` answers, each
//! ended by `;`. `%` starts a comment. Formatting writes the canonical spelling (`X`, `O`,
//! `-`, upper-case moves, signed scores), which parses back to the same value.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use crate::error::{ParseError, ParseErrorKind, Spanned};
use crate::position::{Color, Move, Position};

/// A move with its exact score for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move.
    pub mv: Move,
    /// Its exact score.
    pub score: i32,
}

/// One OBF position with the answers it carries (best first in the FFO files).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Obf {
    /// The position.
    pub position: Position,
    /// The moves with their scores given after it.
    pub answers: Vec<Answer>,
    /// An exact score known without its move (a WTHOR database's theoretical score); OBF
    /// text does not carry it.
    pub known_score: Option<i32>,
}

impl Obf {
    /// The position without answers.
    pub fn new(position: Position) -> Obf {
        Obf {
            position,
            answers: Vec::new(),
            known_score: None,
        }
    }

    /// The best score among the answers, or the known score, if any.
    pub fn best_score(&self) -> Option<i32> {
        self.answers
            .iter()
            .map(|a| a.score)
            .max()
            .or(self.known_score)
    }

    /// Parses one line (a `%` comment is allowed at its end). Errors carry byte offsets.
    pub fn parse(line: &str) -> Result<Obf, Spanned> {
        let line = line.split('%').next().unwrap_or_default();
        let start = line.len() - line.trim_start().len();
        let mut board_end = line[start..]
            .find(|c: char| c.is_whitespace() || c == ';')
            .map_or(line.len(), |i| start + i);
        // The side attached without a space ("...-OX X" pasted as "...-OXX"): 64 squares,
        // then the side.
        let word = &line[start..board_end];
        if word.chars().count() == 65 {
            board_end = start + word.char_indices().nth(64).map_or(0, |(i, _)| i);
        }
        let board = &line[start..board_end];
        let (mut black, mut white) = (0u64, 0u64);
        let mut count = 0;
        for (i, c) in board.char_indices() {
            let bit = 1u64.checked_shl(count).unwrap_or(0);
            match c {
                'X' | 'x' | '*' => black |= bit,
                'O' | 'o' => white |= bit,
                '-' | '.' => {}
                _ => return Err((start + i, ParseErrorKind::BadSquareChar(c))),
            }
            count += 1;
        }
        if count != 64 {
            return Err((start, ParseErrorKind::BoardLength(count as usize)));
        }

        let rest = &line[board_end..];
        let side_start = board_end + (rest.len() - rest.trim_start().len());
        let side_end = line[side_start..]
            .find(|c: char| c.is_whitespace() || c == ';')
            .map_or(line.len(), |i| side_start + i);
        let side = match &line[side_start..side_end] {
            "X" | "x" | "*" => Color::Black,
            "O" | "o" => Color::White,
            "" => return Err((side_start, ParseErrorKind::MissingSide)),
            other => return Err((side_start, ParseErrorKind::BadSide(other.to_string()))),
        };

        let mut answers = Vec::new();
        let mut offset = side_end;
        for (i, field) in line[side_end..].split(';').enumerate() {
            let field_start = offset + (field.len() - field.trim_start().len());
            offset += field.len() + 1;
            let field = field.trim();
            if field.is_empty() {
                continue;
            }
            if i == 0 {
                // Text between the side to move and the first ';'.
                return Err((field_start, ParseErrorKind::BadAnswer(field.to_string())));
            }
            answers.push((
                field_start,
                parse_answer(field).map_err(|e| (field_start, e))?,
            ));
        }
        let position = Position::from_colors(black, white, side);
        // An answer for a move that cannot be played there is a malformed line, not an
        // answer the solver could disagree with.
        for (at, answer) in &answers {
            position.play(answer.mv).map_err(|e| (*at, e))?;
        }
        Ok(Obf {
            position,
            answers: answers.into_iter().map(|(_, answer)| answer).collect(),
            known_score: None,
        })
    }
}

fn parse_answer(field: &str) -> Result<Answer, ParseErrorKind> {
    let bad = || ParseErrorKind::BadAnswer(field.to_string());
    let (mv, score) = field.split_once(':').ok_or_else(bad)?;
    let mv = mv.trim().parse::<Move>()?;
    let score: i64 = score.trim().parse().map_err(|_| bad())?;
    if !(-64..=64).contains(&score) {
        return Err(ParseErrorKind::ScoreRange(score));
    }
    Ok(Answer {
        mv,
        score: score as i32,
    })
}

impl FromStr for Obf {
    type Err = ParseErrorKind;

    fn from_str(s: &str) -> Result<Obf, ParseErrorKind> {
        Obf::parse(s).map_err(|(_, kind)| kind)
    }
}

impl fmt::Display for Obf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (black, white) = self.position.discs();
        for sq in 0..64 {
            let c = if black >> sq & 1 != 0 {
                'X'
            } else if white >> sq & 1 != 0 {
                'O'
            } else {
                '-'
            };
            f.write_fmt(format_args!("{c}"))?;
        }
        write!(f, " {};", self.position.side.symbol())?;
        for answer in &self.answers {
            let mv = answer.mv.to_string().to_uppercase();
            write!(f, " {mv}:{:+};", answer.score)?;
        }
        Ok(())
    }
}

/// The 1-based character column of byte `offset` in `line`.
pub fn column(line: &str, offset: usize) -> usize {
    line.get(..offset).map_or(offset, |s| s.chars().count()) + 1
}

/// Parses every position in `text`, skipping blank and comment lines; `source` names the
/// text in errors. Returns each position with its 1-based line number.
pub fn parse_text(source: &str, text: &str) -> Result<Vec<(usize, Obf)>, ParseError> {
    parse_lines(source, text.as_bytes(), parse_line)
}

/// The position on line `number` of a file, `None` for a blank or comment line. Comments:
/// from `%` to the end of a line, and lines that start with `#` or `;`.
fn parse_line(source: &str, number: usize, line: &str) -> Result<Option<Obf>, ParseError> {
    let content = line.split('%').next().unwrap_or_default();
    if content.trim().is_empty() || content.trim_start().starts_with(['#', ';']) {
        return Ok(None);
    }
    Obf::parse(line)
        .map(Some)
        .map_err(|(offset, kind)| ParseError::new(source, number, column(line, offset), kind))
}

/// The longest line a text input may have, in bytes. An OBF line is about 70 bytes and a
/// game record a few thousand: a longer line (`/dev/zero`, a binary file) is refused before
/// it fills the memory.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The largest input read whole (WTHOR databases, GGF archives), in bytes.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// The file at `path`, or standard input for `-`, buffered.
pub fn open(path: &Path) -> Result<Box<dyn std::io::BufRead>, ParseError> {
    if path == Path::new("-") {
        return Ok(Box::new(std::io::stdin().lock()));
    }
    let file = std::fs::File::open(path)
        .map_err(|e| io_error(&path.display().to_string(), 0, e.to_string()))?;
    Ok(Box::new(std::io::BufReader::new(file)))
}

fn io_error(source: &str, line: usize, message: String) -> ParseError {
    ParseError::new(source, line, 0, ParseErrorKind::Io(message))
}

/// What `parse` keeps of each line of `reader` (`source` names it in errors), with the
/// line's 1-based number. Lines are read one at a time, so memory holds one line whatever
/// the input: a line longer than [`MAX_LINE_BYTES`] or not UTF-8 is an error naming it.
/// `parse` sees a line without its ending (`\n` or `\r\n`) and the first line without a
/// byte-order mark; `None` skips the line.
pub fn parse_lines<T>(
    source: &str,
    mut reader: impl std::io::BufRead,
    parse: impl Fn(&str, usize, &str) -> Result<Option<T>, ParseError>,
) -> Result<Vec<(usize, T)>, ParseError> {
    use std::io::{BufRead, Read};
    let mut parsed = Vec::new();
    let mut bytes = Vec::new();
    for number in 1.. {
        bytes.clear();
        let read = (&mut reader)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(|e| io_error(source, number, e.to_string()))?;
        if read == 0 {
            break;
        }
        if bytes.len() > MAX_LINE_BYTES {
            return Err(io_error(
                source,
                number,
                format!(
                    "line longer than {} MiB: not a text of positions",
                    MAX_LINE_BYTES >> 20
                ),
            ));
        }
        let text = std::str::from_utf8(&bytes)
            .map_err(|_| io_error(source, number, "not UTF-8 text".into()))?;
        let text = text.strip_suffix('\n').unwrap_or(text);
        let text = text.strip_suffix('\r').unwrap_or(text);
        let text = if number == 1 {
            // A byte-order mark (as some editors write) is not part of the first line.
            text.strip_prefix('\u{feff}').unwrap_or(text)
        } else {
            text
        };
        if let Some(value) = parse(source, number, text)? {
            parsed.push((number, value));
        }
    }
    Ok(parsed)
}

/// `items`, or the error that `source` holds none.
pub fn non_empty<T>(source: &str, items: Vec<T>) -> Result<Vec<T>, ParseError> {
    if items.is_empty() {
        return Err(ParseError::new(source, 0, 0, ParseErrorKind::Empty));
    }
    Ok(items)
}

/// The bytes of the file at `path`, or of standard input for `-`, at most
/// [`MAX_FILE_BYTES`] of them (a larger input is an error, not an allocation).
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, ParseError> {
    let source = path.display().to_string();
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(open(path)?, MAX_FILE_BYTES + 1),
        &mut bytes,
    )
    .map_err(|e| io_error(&source, 0, e.to_string()))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(io_error(
            &source,
            0,
            format!("larger than {} GiB", MAX_FILE_BYTES >> 30),
        ));
    }
    Ok(bytes)
}

/// Reads and parses an OBF file (`-`: standard input), line by line.
pub fn read_file(path: &Path) -> Result<Vec<(usize, Obf)>, ParseError> {
    let source = path.display().to_string();
    non_empty(&source, parse_lines(&source, open(path)?, parse_line)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";

    #[test]
    fn side_attached_to_the_board_is_read() {
        let (board, rest) = FFO_1.split_once(' ').unwrap();
        let attached: Obf = format!("{board}{rest}").parse().unwrap();
        assert_eq!(attached, FFO_1.parse::<Obf>().unwrap());
        let bare: Obf = format!("{board}X").parse().unwrap();
        assert_eq!(bare.position, attached.position);
        assert!(format!("{board}XX").parse::<Obf>().is_err());
    }

    #[test]
    fn comments_and_byte_order_mark_are_skipped() {
        let text = format!("\u{feff}% suite\n# a comment\n; another\n{FFO_1}\n  # indented\n");
        let positions = parse_text("f.obf", &text).unwrap();
        assert_eq!(positions.len(), 1);
        assert_eq!(positions[0].0, 4);
    }

    #[test]
    fn non_utf8_names_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("latin1.obf");
        std::fs::write(&path, [FFO_1.as_bytes(), b"\n% caf\xe9\n"].concat()).unwrap();
        let err = read_file(&path).unwrap_err().to_string();
        assert!(err.ends_with("latin1.obf:2: not UTF-8 text"), "{err}");
    }

    #[test]
    fn lines_are_read_one_at_a_time_and_capped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("crlf.obf");
        std::fs::write(&path, format!("\u{feff}% suite\r\n{FFO_1}\r\n\r\n{FFO_1}")).unwrap();
        let positions = read_file(&path).unwrap();
        assert_eq!(positions.iter().map(|p| p.0).collect::<Vec<_>>(), [2, 4]);
        // A line past the cap (a binary file, /dev/zero) is refused at that line, before it
        // is held whole.
        let long = dir.path().join("long.obf");
        let mut text = format!("{FFO_1}\n").into_bytes();
        text.resize(text.len() + MAX_LINE_BYTES + 1, 0);
        std::fs::write(&long, text).unwrap();
        let err = read_file(&long).unwrap_err().to_string();
        assert!(
            err.ends_with("long.obf:2: line longer than 1 MiB: not a text of positions"),
            "{err}"
        );
        let lines = std::cell::Cell::new(0);
        let counted = |_: &str, _: usize, _: &str| -> Result<Option<()>, ParseError> {
            lines.set(lines.get() + 1);
            Ok(None)
        };
        parse_lines("long.obf", open(&long).unwrap(), counted).unwrap_err();
        assert_eq!(lines.get(), 1);
    }

    #[test]
    fn ffo_line_round_trips() {
        let obf: Obf = FFO_1.parse().unwrap();
        assert_eq!(obf.position.side, Color::Black);
        assert_eq!(obf.position.board.empty_count(), 14);
        assert_eq!(obf.answers.len(), 8);
        assert_eq!(obf.answers[0].mv, Move::Play("g8".parse().unwrap()));
        assert_eq!(obf.best_score(), Some(18));
        assert_eq!(obf.to_string(), FFO_1);
    }

    #[test]
    fn accepts_alternative_spellings() {
        let start = "---------------------------OX------XO--------------------------- X";
        let obf: Obf = start.parse().unwrap();
        assert_eq!(obf.position, Position::START);
        let dotted = start.replace('-', ".").replace('X', "*");
        assert_eq!(dotted.parse::<Obf>().unwrap(), obf);
        let white = format!("{} O; % a comment", &start[..64]);
        let obf: Obf = white.parse().unwrap();
        assert_eq!(obf.position.board, Board::START.pass());
        assert_eq!(obf.to_string(), format!("{} O;", &start[..64]));
    }

    #[test]
    fn errors_point_at_the_problem() {
        let start = "---------------------------OX------XO---------------------------";
        let cases = [
            (
                format!("{start} Z"),
                66,
                "side to move must be X or O, found \"Z\"",
            ),
            (
                start.to_string(),
                65,
                "missing side to move (X or O) after the 64 squares",
            ),
            (format!("{} X", &start[1..]), 1, "board has 63 squares"),
            (
                format!("{}Q{} X", &start[..10], &start[11..]),
                11,
                "unexpected 'Q'",
            ),
            (
                format!("{start} X; G8:+99;"),
                69,
                "score 99 is out of range",
            ),
            (format!("{start} X; G9:+1;"), 69, "\"G9\" is not a move"),
            (format!("{start} X; G8+1;"), 69, "answer field \"G8+1\""),
            (
                format!("{start} X junk; G8:+1;"),
                68,
                "answer field \"junk\"",
            ),
        ];
        for (line, col, message) in cases {
            let err = parse_text("f.obf", &format!("% header\n{line}\n")).unwrap_err();
            assert_eq!((err.line, err.column), (2, col), "{line}");
            assert!(
                err.to_string()
                    .starts_with(&format!("f.obf:2:{col}: {message}")),
                "{err}"
            );
        }
    }

    #[test]
    fn parse_text_skips_blank_and_comment_lines() {
        let text = format!("% first\n\n{FFO_1}\n   % indented comment\n{FFO_1}\n");
        let lines: Vec<usize> = parse_text("t", &text)
            .unwrap()
            .iter()
            .map(|p| p.0)
            .collect();
        assert_eq!(lines, [3, 5]);
    }
}
