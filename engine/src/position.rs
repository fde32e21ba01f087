//! A board with colours: which side is to move, and the moves that lead between positions.

use std::fmt;
use std::str::FromStr;

use crate::board::Board;
use crate::error::ParseErrorKind;
use crate::square::Square;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `X` for black, `O` for white, as in OBF.
    pub const fn symbol(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// A move: a disc on a square, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Play(Square),
    Pass,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(sq) => sq.fmt(f),
            Move::Pass => f.write_str("ps"),
        }
    }
}

impl FromStr for Move {
    type Err = ParseErrorKind;

    /// `a1`..`h8` or `ps`/`pa` (pass), either case.
    fn from_str(s: &str) -> Result<Move, ParseErrorKind> {
        if s.eq_ignore_ascii_case("ps") || s.eq_ignore_ascii_case("pa") {
            return Ok(Move::Pass);
        }
        s.parse()
            .map(Move::Play)
            .map_err(|_| ParseErrorKind::BadMove(s.to_string()))
    }
}

/// A board and the colour of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub board: Board,
    pub side: Color,
}

impl Position {
    pub const START: Position = Position {
        board: Board::START,
        side: Color::Black,
    };

    /// The position from the discs of each colour.
    pub fn from_colors(black: u64, white: u64, side: Color) -> Position {
        let board = match side {
            Color::Black => Board::new(black, white),
            Color::White => Board::new(white, black),
        };
        Position { board, side }
    }

    /// (black discs, white discs).
    pub fn discs(&self) -> (u64, u64) {
        match self.side {
            Color::Black => (self.board.player, self.board.opponent),
            Color::White => (self.board.opponent, self.board.player),
        }
    }

    /// The position after `mv`, or why it is not legal here.
    pub fn play(&self, mv: Move) -> Result<Position, ParseErrorKind> {
        let legal = self.board.legal_moves();
        let board = match mv {
            Move::Pass if legal.is_empty() && !self.board.is_game_over() => self.board.pass(),
            Move::Pass if legal.is_empty() => return Err(ParseErrorKind::GameOver(mv.to_string())),
            Move::Pass => {
                return Err(ParseErrorKind::IllegalPass {
                    legal: legal.to_string(),
                })
            }
            Move::Play(sq) => match self.board.play(sq) {
                Some(board) => board,
                None if self.board.is_game_over() => {
                    return Err(ParseErrorKind::GameOver(mv.to_string()))
                }
                None => {
                    let legal = if legal.is_empty() {
                        "only a pass".into()
                    } else {
                        legal.to_string()
                    };
                    return Err(ParseErrorKind::IllegalMove {
                        mv: mv.to_string(),
                        legal,
                    });
                }
            },
        };
        Ok(Position {
            board,
            side: self.side.other(),
        })
    }
}
