//! A small hand-made evaluation: the baseline the trained patterns are measured against.

use crate::board::Board;
use crate::eval::Evaluation;

/// Mobility, potential mobility, corners, X-squares next to empty corners, and parity.
#[derive(Clone, Copy, Debug, Default)]
pub struct HandEval;

const CORNERS: u64 = 0x8100_0000_0000_0081;
/// b2, g2, b7, g7, each with the corner it touches.
const X_SQUARES: [(u64, u64); 4] = [
    (1 << 9, 1),
    (1 << 14, 1 << 7),
    (1 << 49, 1 << 56),
    (1 << 54, 1 << 63),
];

impl HandEval {
    fn side(player: u64, opponent: u64) -> i32 {
        let board = Board::new(player, opponent);
        let mobility = board.moves().count_ones() as i32;
        let corner_moves = (board.moves() & CORNERS).count_ones() as i32;
        // Empty squares next to opponent discs: room for later moves.
        let potential = (crate::board::neighbours(opponent) & board.empties()).count_ones() as i32;
        let corners = (player & CORNERS).count_ones() as i32;
        let empty = board.empties();
        let x_squares = X_SQUARES
            .iter()
            .filter(|&&(x, corner)| player & x != 0 && empty & corner != 0)
            .count() as i32;
        100 * mobility + 150 * corner_moves + 30 * potential + 500 * corners - 250 * x_squares
    }
}

impl Evaluation for HandEval {
    fn evaluate(&self, board: &Board) -> i32 {
        let parity = if board.empty_count() % 2 == 1 {
            100
        } else {
            -100
        };
        Self::side(board.player, board.opponent) - Self::side(board.opponent, board.player) + parity
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_start_and_corner_preference() {
        let start = HandEval.evaluate(&Board::START);
        // Parity only: the position is symmetric between the two sides.
        assert_eq!(start, -100);
        let with_corner = Board::new(Board::START.player | 1, Board::START.opponent);
        assert!(HandEval.evaluate(&with_corner) > start);
    }
}
