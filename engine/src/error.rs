//! Typed errors for everything read from users: positions, moves, files.

use std::fmt;

/// What is wrong with a piece of input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// A board string of the wrong length.
    #[error("board has {0} squares, expected 64 (X or * black, O white, - or . empty)")]
    BoardLength(usize),
    /// A character that is no square's content.
    #[error("unexpected {0:?} in board (X or * black, O white, - or . empty)")]
    BadSquareChar(char),
    /// No side to move after the board.
    #[error("missing side to move (X or O) after the 64 squares")]
    MissingSide,
    /// A side to move other than X or O.
    #[error("side to move must be X or O, found {0:?}")]
    BadSide(String),
    /// Not a square name.
    #[error("{0:?} is not a square (a1..h8)")]
    BadSquare(String),
    /// Not a move.
    #[error("{0:?} is not a move (a1..h8, or ps/pa/pass for a pass)")]
    BadMove(String),
    /// An OBF answer field that is not MOVE:SCORE.
    #[error("answer field {0:?} is not MOVE:SCORE")]
    BadAnswer(String),
    /// A score beyond -64..64.
    #[error("score {0} is out of range -64..64")]
    ScoreRange(i64),
    /// A move the rules do not allow there.
    #[error("illegal move {mv} (legal: {legal})")]
    IllegalMove {
        /// The move.
        mv: String,
        /// The legal moves there.
        legal: String,
    },
    /// A pass where the side to move has a move.
    #[error("pass, but the side to move can play {legal}")]
    IllegalPass {
        /// The legal moves there.
        legal: String,
    },
    /// A move after the end of the game.
    #[error("move {0} after the end of the game")]
    GameOver(String),
    /// A line that is not two disjoint hexadecimal bitboards.
    #[error("expected two hexadecimal bitboards without common bits, player,opponent: {0:?}")]
    BadBitboards(String),
    /// A position no game can reach, by a cheap test.
    #[error("impossible position: {0}")]
    Impossible(String),
    /// The input could not be read.
    #[error("{0}")]
    Io(String),
    /// Nothing to read.
    #[error("no positions (every line is empty or a comment)")]
    Empty,
}

/// A [`ParseErrorKind`] with where it was found: `source` names the file (or the
/// argument), `line` and `column` count from 1; 0 means not known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The file or argument read.
    pub source: String,
    /// The line, from 1 (0: not known).
    pub line: usize,
    /// The column, from 1 (0: not known).
    pub column: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

impl ParseError {
    /// `kind` found in `source` at `line`, `column`.
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
