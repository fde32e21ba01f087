//! Measuring the ProbCut error model (`engine probcut`): how well shallow searches
//! predict exact scores (endgame) and deeper searches (midgame). The tables of
//! `search::probcut` are written from these measurements.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use rayon::prelude::*;
use serde::Serialize;

use crate::board::Board;
use crate::eval::Evaluation;
use crate::search::midgame::Midgame;
use crate::search::probcut::midgame_prediction_depth;
use crate::search::shallow_value;
use crate::train::datagen::{Label, Labelled};
use crate::train::fit::held_out;

/// How well a `depth`-ply search with the evaluation predicts the exact score of positions
/// with `empties` empties (discs).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PredictionError {
    /// Empties of the positions.
    pub empties: u32,
    /// Plies of the predicting search.
    pub depth: u32,
    /// Positions measured.
    pub positions: usize,
    /// Mean of exact score minus prediction.
    pub bias: f64,
    /// Standard deviation of exact score minus prediction.
    pub sigma: f64,
}

/// The prediction error at each of `depths` for every number of empties among the
/// exactly labelled `rows` held out of training (one in `holdout`, as `engine train`
/// splits them).
pub fn measure(
    rows: &[Labelled],
    eval: &dyn Evaluation,
    depths: &[u32],
    holdout: u64,
) -> Vec<PredictionError> {
    let exact: Vec<&Labelled> = rows
        .iter()
        .filter(|r| r.label == Label::Exact && held_out(&r.board, holdout))
        .collect();
    let mut errors = Vec::new();
    for empties in 0..=60 {
        let here: Vec<&&Labelled> = exact
            .iter()
            .filter(|r| r.board.empty_count() == empties)
            .collect();
        if here.len() < 2 {
            continue;
        }
        for &depth in depths {
            let residuals: Vec<f64> = here
                .par_iter()
                .map(|r| {
                    let predicted = shallow_value(eval, &r.board, depth, -30_000, 30_000);
                    (r.score - predicted) as f64 / 100.0
                })
                .collect();
            let (bias, sigma) = mean_and_deviation(&residuals);
            errors.push(PredictionError {
                empties,
                depth,
                positions: residuals.len(),
                bias,
                sigma,
            });
        }
    }
    errors
}

/// The mean and the (sample) standard deviation of at least two `values`.
fn mean_and_deviation(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let variance = values.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, variance.sqrt())
}

/// How well a `shallow`-ply midgame search predicts a `depth`-ply one (discs).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DepthPredictionError {
    /// Plies of the deep search.
    pub depth: u32,
    /// Plies of the predicting one.
    pub shallow: u32,
    /// Positions measured.
    pub positions: usize,
    /// Mean of the deep value minus the shallow one.
    pub bias: f64,
    /// The standard deviation of the same.
    pub sigma: f64,
}

/// The midgame prediction error for each of `depths` over `boards`: full-width searches at
/// the depth and at its `midgame_prediction_depth` (the evaluation alone decides, no
/// exact solving).
pub fn measure_midgame(
    boards: &[Board],
    eval: &Arc<dyn Evaluation>,
    depths: &[u32],
) -> Vec<DepthPredictionError> {
    let stop = AtomicBool::new(false);
    depths
        .iter()
        .map(|&depth| {
            let shallow = midgame_prediction_depth(depth);
            let residuals: Vec<f64> = boards
                .par_iter()
                .map(|board| {
                    // A fresh table: a deeper entry of another search would answer for
                    // the shallow one.
                    let mut midgame = Midgame::new(eval.clone(), 4);
                    midgame.selectivity = None;
                    midgame.exact_empties = 0;
                    let predicted = midgame.search(board, shallow, -30_000, 30_000, &stop);
                    let deep = midgame.search(board, depth, -30_000, 30_000, &stop);
                    (deep - predicted) as f64 / 100.0
                })
                .collect();
            let (bias, sigma) = mean_and_deviation(&residuals);
            DepthPredictionError {
                depth,
                shallow,
                positions: residuals.len(),
                bias,
                sigma,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::HandEval;
    use crate::game::Game;
    use rand::{rngs::SmallRng, SeedableRng};

    /// Rows labelled with the evaluation's own value: the depth-0 prediction is exact.
    #[test]
    fn measure_finds_no_error_where_the_label_is_the_prediction() {
        let mut rng = SmallRng::seed_from_u64(1);
        let rows: Vec<Labelled> = (0..200)
            .flat_map(|game| {
                let positions = Game::random(&mut rng, 60).positions;
                positions.into_iter().map(move |p| Labelled {
                    game,
                    board: p.board,
                    score: HandEval.evaluate(&p.board),
                    label: Label::Exact,
                })
            })
            .collect();
        let errors = measure(&rows, &HandEval, &[0, 1], 1);
        assert!(errors.len() > 50);
        for e in errors.iter().filter(|e| e.depth == 0) {
            assert_eq!((e.bias, e.sigma), (0.0, 0.0), "{e:?}");
        }
        assert!(errors.iter().any(|e| e.depth == 1 && e.sigma > 1.0));
    }
}
