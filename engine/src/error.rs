//! Typed errors for everything read from users: positions, moves, files.

use std::fmt;

/// What is wrong with a piece of input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    #[error("board has {0} squares, expected 64 (X or * black, O white, - or . empty)")]
    BoardLength(usize),
    #[error("unexpected {0:?} in board (X or * black, O white, - or . empty)")]
    BadSquareChar(char),
    #[error("missing side to move (X or O) after the 64 squares")]
    MissingSide,
    #[error("side to move must be X or O, found {0:?}")]
    BadSide(String),
    #[error("{0:?} is not a square (a1..h8)")]
    BadSquare(String),
    #[error("{0:?} is not a move (a1..h8, or ps/pa/pass for a pass)")]
    BadMove(String),
    #[error("answer field {0:?} is not MOVE:SCORE")]
    BadAnswer(String),
    #[error("score {0} is out of range -64..64")]
    ScoreRange(i64),
    #[error("illegal move {mv} (legal: {legal})")]
    IllegalMove { mv: String, legal: String },
    #[error("pass, but the side to move can play {legal}")]
    IllegalPass { legal: String },
    #[error("move {0} after the end of the game")]
    GameOver(String),
    #[error("expected two hexadecimal bitboards without common bits, player,opponent: {0:?}")]
    BadBitboards(String),
    #[error("impossible position: {0}")]
    Impossible(String),
    #[error("{0}")]
    Io(String),
    #[error("no positions (every line is empty or a comment)")]
    Empty,
}

/// A [`ParseErrorKind`] with where it was found: `source` names the file (or the
/// argument), `line` and `column` count from 1; 0 means not known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub source: String,
    pub line: usize,
    pub column: usize,
    pub kind: ParseErrorKind,
}

impl ParseError {
    pub fn new(source: &str, line: usize, column: usize, kind: ParseErrorKind) -> ParseError {
        ParseError {
            source: source.to_string(),
            line,
            column,
            kind,
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.source)?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
        }
        if self.column > 0 {
            write!(f, ":{}", self.column)?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl std::error::Error for ParseError {}

/// A kind of error at a 0-based byte offset into a line, before the line is known.
pub(crate) type Spanned = (usize, ParseErrorKind);
