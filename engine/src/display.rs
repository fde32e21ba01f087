//! The board drawn for a terminal.

use std::fmt;

use crate::position::{Color, Position};

/// Draws `position` with coordinates: `X` black, `O` white, `.` a legal move, `-` empty
/// (not `*`, which OBF reads as a black disc: read as OBF, the diagram's squares are the
/// board).
pub struct Diagram<'a>(pub &'a Position);

impl fmt::Display for Diagram<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let position = self.0;
        let (black, white) = position.discs();
        let moves = position.board.moves();
        writeln!(f, "  a b c d e f g h")?;
        for rank in 0..8 {
            write!(f, "{}", rank + 1)?;
            for file in 0..8 {
                let bit = 1u64 << (rank * 8 + file);
                let c = if black & bit != 0 {
                    'X'
                } else if white & bit != 0 {
                    'O'
                } else if moves & bit != 0 {
                    '.'
                } else {
                    '-'
                };
                write!(f, " {c}")?;
            }
            writeln!(f, " {}", rank + 1)?;
        }
        writeln!(f, "  a b c d e f g h")?;
        let to_move = match position.side {
            Color::Black => "X",
            Color::White => "O",
        };
        write!(
            f,
            "{} ({to_move}) to move; X {} O {}, {} empty",
            position.side,
            black.count_ones(),
            white.count_ones(),
            position.board.empty_count()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_the_start_position() {
        let text = Diagram(&Position::START).to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[3], "3 - - - . - - - - 3");
        assert_eq!(lines[4], "4 - - . O X - - - 4");
        assert_eq!(lines[5], "5 - - - X O . - - 5");
        assert_eq!(lines[10], "black (X) to move; X 2 O 2, 60 empty");
    }
}
