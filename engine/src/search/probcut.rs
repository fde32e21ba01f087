//! Probable cut-offs (Buro's ProbCut): a shallow search predicts the score of a deep one;
//! when the prediction lies beyond the window by `t` standard deviations of its error, the
//! node is cut without the deep search. The error model is measured on our own data
//! (`engine probcut`, [`crate::train::probcut`]): for positions with exact labels, the
//! shallow value at each depth against the exact score.

use crate::board::Board;
use crate::eval::{Evaluation, Features};
use crate::search::ordering::shallow_value_from;

/// The row of a table measured for `first..first + rows` to use for `value >= first`: its
/// own, or beyond the table the last one of the same parity (the evaluation's bias
/// alternates with the side to move).
fn measured_row(value: u32, first: u32, rows: usize) -> usize {
    let last = first + rows as u32 - 1;
    let value = if value > last {
        last - (value - last) % 2
    } else {
        value
    };
    (value - first) as usize
}

/// Selectivity levels of the endgame search: level `i` cuts where the prediction lies
/// `CONFIDENCE[i]` standard deviations beyond the window (as Edax's levels: about 73%,
/// 87%, 95%, 98% and 99% confidence).
pub const CONFIDENCE: [f64; 5] = [1.1, 1.5, 2.0, 2.6, 3.3];

/// The level of an exact search: nothing is cut probably.
pub const EXACT: u8 = CONFIDENCE.len() as u8;

/// Empties from which a node may be cut probably (below, the subtree is cheaper than the
/// prediction is worth).
pub const MIN_EMPTIES: u32 = 10;

/// The predicting search's depth at a node with `empties` empties.
fn prediction_depth(empties: u32) -> u32 {
    if empties < 16 {
        2
    } else {
        4
    }
}

/// (bias, sigma) in discs of the depth-2 and depth-4 predictions for 10 to 18 empties:
/// `engine probcut` on rounds 4 and 5 of the training data (held-out exact positions,
/// results/eval.md). Odd numbers of empties have a bias of about +2 discs (the
/// evaluation sees the position after an even number of plies from an odd count).
const ERRORS: [[(f64, f64); 2]; 9] = [
    [(0.02, 6.81), (-0.29, 5.46)],
    [(2.21, 6.88), (1.92, 5.75)],
    [(-0.29, 6.98), (-0.24, 5.64)],
    [(1.99, 7.05), (2.03, 5.79)],
    [(0.00, 6.95), (-0.51, 5.82)],
    [(2.41, 6.86), (1.99, 5.94)],
    [(-0.34, 6.86), (-0.21, 5.85)],
    [(2.14, 6.75), (2.19, 5.77)],
    [(-0.11, 6.65), (-0.46, 5.73)],
];

/// The prediction error at `empties` (>= MIN_EMPTIES) and `depth` (2 or 4); beyond the
/// measured range, that of the last measured count of the same parity.
fn error(empties: u32, depth: u32) -> (f64, f64) {
    ERRORS[measured_row(empties, MIN_EMPTIES, ERRORS.len())][(depth == 4) as usize]
}

/// A probable cut of the null window at `alpha` (scores in discs) at selectivity `level`
/// (< EXACT): `alpha + 1` when the score is probably above `alpha`, `alpha` when probably
/// not, `None` when the prediction is not clear enough.
pub fn cut(
    eval: &dyn Evaluation,
    board: &Board,
    alpha: i32,
    empties: u32,
    level: u8,
) -> Option<i32> {
    let depth = prediction_depth(empties);
    let (bias, sigma) = error(empties, depth);
    let margin = CONFIDENCE[level as usize] * sigma;
    // In hundredths of a disc, the raw shallow value needed for each cut.
    let high = (((alpha + 1) as f64 + margin - bias) * 100.0).ceil() as i32;
    let low = ((alpha as f64 - margin - bias) * 100.0).floor() as i32;
    // The static evaluation says which cut is worth trying.
    let features = Features::of(board);
    let guess = eval.evaluate_features(board, &features) + (bias * 100.0) as i32;
    let value = |alpha, beta| shallow_value_from(eval, board, &features, depth, alpha, beta);
    if guess > alpha * 100 {
        (high < 6400 && value(high - 1, high) >= high).then_some(alpha + 1)
    } else {
        (low > -6400 && value(low, low + 1) <= low).then_some(alpha)
    }
}

/// The depth of the search that predicts a `depth`-ply midgame search (as Edax: about
/// half, odd when `depth` is odd, since the evaluation's bias follows the side to move).
pub fn midgame_prediction_depth(depth: u32) -> u32 {
    2 * (depth / 4) + (depth & 1)
}

/// Midgame searches from this depth may be cut probably.
pub const MIDGAME_MIN_DEPTH: u32 = 4;

/// (bias, sigma) in discs of the midgame prediction for depths 4 to 9: `engine probcut
/// --midgame 2000` on rounds 4-5 of the training data (results/eval.md); deeper, that of the
/// last measured depth of the same parity.
const MIDGAME_ERRORS: [(f64, f64); 6] = [
    (0.45, 2.89),
    (-0.21, 2.63),
    (0.88, 3.81),
    (-0.42, 3.27),
    (0.91, 3.20),
    (-0.51, 2.75),
];

/// A probable cut of the midgame null window at `alpha` (hundredths of a disc) for a
/// `depth`-ply search at selectivity `level`: the bound to return when the prediction,
/// searched by `predict(depth, alpha)` (a null-window search, fail-soft), is clear.
pub fn midgame_cut(
    static_value: i32,
    alpha: i32,
    depth: u32,
    level: u8,
    mut predict: impl FnMut(u32, i32) -> i32,
) -> Option<i32> {
    let (bias, sigma) =
        MIDGAME_ERRORS[measured_row(depth, MIDGAME_MIN_DEPTH, MIDGAME_ERRORS.len())];
    let margin = (CONFIDENCE[level as usize] * sigma * 100.0) as i32;
    let bias = (bias * 100.0) as i32;
    let shallow = midgame_prediction_depth(depth);
    if static_value + bias > alpha {
        let high = alpha + 1 + margin - bias;
        (high < 30_000 && predict(shallow, high - 1) >= high).then_some(alpha + 1)
    } else {
        let low = alpha - margin - bias;
        (low > -30_000 && predict(shallow, low) <= low).then_some(alpha)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_beyond_the_table_keep_their_parity() {
        // Rows for 10..=18: 18 and 17 are the last of each parity.
        assert_eq!(measured_row(10, 10, 9), 0);
        assert_eq!(measured_row(18, 10, 9), 8);
        assert_eq!(measured_row(19, 10, 9), 7);
        assert_eq!(measured_row(20, 10, 9), 8);
        assert_eq!(measured_row(31, 10, 9), 7);
    }

    #[test]
    fn cuts_only_where_the_prediction_is_clear() {
        let eval = crate::eval::PatternEval::embedded();
        let board = Board::START;
        for level in 0..EXACT {
            assert_eq!(cut(&*eval, &board, 40, 60, level), Some(40));
            assert_eq!(cut(&*eval, &board, -40, 60, level), Some(-39));
            assert_eq!(cut(&*eval, &board, 0, 60, level), None);
        }
    }
}
