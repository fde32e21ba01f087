//! A board with colours: which side is to move, and the moves that lead between positions.

use std::fmt;
use std::str::FromStr;

use arrayvec::ArrayVec;

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::error::ParseErrorKind;
use crate::square::Square;

/// A side: black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// X in OBF.
    Black,
    /// O in OBF.
    White,
}

impl Color {
    /// The other side.
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
    /// A disc on this square.
    Play(Square),
    /// No move: the side to move has none.
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

impl Board {
    /// The moves of the side to move with the boards they lead to: a pass where it has
    /// none but the game goes on (a ply of its own, as perft and proof trees count it),
    /// none at the end of the game. Room for a move on every square: boards given as
    /// input need not be reachable, and even reachable ones have up to 33.
    pub fn children(&self) -> ArrayVec<(Move, Board), 64> {
        let moves = self.moves();
        if moves == 0 {
            let passed = self.pass();
            return if passed.moves() == 0 {
                ArrayVec::new()
            } else {
                [(Move::Pass, passed)].into_iter().collect()
            };
        }
        Bitboard(moves)
            .map(|sq| (Move::Play(sq), self.play_flips(sq, self.flips(sq))))
            .collect()
    }
}

/// A board and the colour of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The discs, from the side to move's view.
    pub board: Board,
    /// Whose move it is.
    pub side: Color,
}

impl Position {
    /// The start of every game, black to move.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_are_the_moves_then_a_forced_pass_then_none() {
        let start = Board::START.children();
        assert_eq!(start.len(), 4);
        assert!(start.iter().all(|&(mv, child)| match mv {
            Move::Play(sq) => Board::START.play(sq) == Some(child),
            Move::Pass => false,
        }));
        // The side to move (b1) flips nothing past the corner a1; the other side takes c1.
        let must_pass = Board::new(1 << 1, 1);
        assert_eq!(must_pass.moves(), 0);
        assert_eq!(
            must_pass.children().as_slice(),
            [(Move::Pass, must_pass.pass())]
        );
        let over = Board::new(u64::MAX, 0);
        assert!(over.children().is_empty());
    }

    #[test]
    fn children_hold_the_published_33_moves() {
        // The black-to-move game of problems/mobility33-witnesses.txt, 26 plies.
        let game = "f5d6c4f3c5b4b3e6c6g5f6c7c3d2c2b2f4g4g3g7g6e7d3g2h3b6";
        let (obf, _) = crate::input::parse_position("test", game).unwrap();
        assert_eq!(obf.position.board.children().len(), 33);
    }
}
