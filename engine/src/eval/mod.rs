//! The evaluation seam: an estimate of the final disc difference. The endgame solver uses
//! it only to order moves (its answers never depend on it); midgame search and play use
//! it as the score.
//!
//! - `hand`: mobility, potential mobility, corners and parity, hand-weighted;
//! - `patterns`: the board features (edges, corners, lines, diagonals) of the trained one;
//! - `weights`: the trained pattern evaluation, its file format and the embedded weights.
//!
//! Training them is [`crate::train`]'s.

mod hand;
pub(crate) mod patterns;
pub(crate) mod weights;

pub use hand::HandEval;
pub use patterns::{features, Features, FEATURE_COUNT};
pub use weights::{phase, phase_empties, PatternEval, WeightsError, PHASES};

use crate::board::Board;

/// Estimates, in hundredths of a disc, the final disc difference for the side to move.
pub trait Evaluation: Send + Sync {
    /// The estimate for `board`.
    fn evaluate(&self, board: &Board) -> i32;

    /// [`Evaluation::evaluate`] given the pattern features of `board` (carried down a
    /// search by [`Features::after_move`]): the trained evaluation then need not read
    /// them, the others ignore them.
    fn evaluate_features(&self, board: &Board, _features: &Features) -> i32 {
        self.evaluate(board)
    }
}

/// One evaluation shared by several searches (threads, solvers).
impl<E: Evaluation + ?Sized> Evaluation for std::sync::Arc<E> {
    #[inline]
    fn evaluate(&self, board: &Board) -> i32 {
        (**self).evaluate(board)
    }

    #[inline]
    fn evaluate_features(&self, board: &Board, features: &Features) -> i32 {
        (**self).evaluate_features(board, features)
    }
}
