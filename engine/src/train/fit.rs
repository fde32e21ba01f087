//! Training the pattern weights: per phase, ridge-regularised least squares of the
//! evaluation against labelled positions, solved by conjugate gradients (CGLS), which
//! needs only products with the sparse 0/1 feature matrix and its transpose.
//!
//! Each phase is fitted on the positions whose empties lie in the phase or within
//! `margin` of it (neighbouring phases lend data, which smooths the weights from one
//! phase to the next); a fixed one in `holdout` of the positions (by board hash) is never
//! trained on and measures the error.

use rayon::prelude::*;

use crate::board::Board;
use crate::eval::patterns::{features, fold, FEATURE_COUNT, TABLE_SIZE};
use crate::eval::weights::{phase_empties, PHASES};

/// A position and the value the evaluation should give it, in discs for the side to move.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// The position, from the side to move's view.
    pub board: Board,
    /// The value to learn.
    pub target: f32,
}

/// How the weights are fitted.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// Ridge penalty on every weight (larger: rarely seen weights stay nearer zero).
    pub ridge: f64,
    /// Conjugate-gradient iterations per phase.
    pub iterations: usize,
    /// Positions up to this many empties outside a phase also train it.
    pub margin: u32,
    /// One position in `holdout` is kept out of training to measure the error.
    pub holdout: u64,
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions {
            ridge: 2.0,
            iterations: 60,
            margin: 2,
            holdout: 10,
        }
    }
}

/// How well one phase was fitted.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PhaseReport {
    /// The phase's number.
    pub phase: usize,
    /// The empties it covers (e.g. "20-23").
    pub empties: String,
    /// Positions trained on.
    pub train: usize,
    /// Positions held out.
    pub test: usize,
    /// Root mean square error in discs on the training and held-out positions.
    pub train_rmse: f64,
    /// See `train_rmse`.
    pub test_rmse: f64,
    /// The held-out error of always answering the training mean: what the fit improves on.
    pub test_rmse_of_mean: f64,
}

/// Whether `board` belongs to the held-out positions.
pub fn held_out(board: &Board, holdout: u64) -> bool {
    holdout > 0 && board.hash() % holdout == 0
}

/// Fits every phase; returns the weights in discs (`[phase][table index]`, tied indices
/// equal) and a report per phase. `progress(phase)` is called as each phase starts.
pub fn fit(
    samples: &[Sample],
    options: &FitOptions,
    progress: impl Fn(usize) + Sync,
) -> (Vec<Vec<f32>>, Vec<PhaseReport>) {
    let rows: Vec<[u32; FEATURE_COUNT]> = samples
        .par_iter()
        .map(|s| features(&s.board).map(|i| fold(i as usize) as u32))
        .collect();
    let mut tables = Vec::with_capacity(PHASES);
    let mut reports = Vec::with_capacity(PHASES);
    for phase in 0..PHASES {
        progress(phase);
        let own = phase_empties(phase);
        let wide = own.start().saturating_sub(options.margin)..=own.end() + options.margin;
        let (mut train, mut test) = (Vec::new(), Vec::new());
        for (i, s) in samples.iter().enumerate() {
            let empties = s.board.empty_count();
            if held_out(&s.board, options.holdout) {
                if own.contains(&empties) {
                    test.push(i);
                }
            } else if wide.contains(&empties) {
                train.push(i);
            }
        }
        let weights = cgls(&rows, samples, &train, options);
        let rmse = |set: &[usize], predict: &dyn Fn(usize) -> f64| {
            let sum: f64 = set
                .iter()
                .map(|&i| (predict(i) - samples[i].target as f64).powi(2))
                .sum();
            (sum / set.len().max(1) as f64).sqrt()
        };
        let predict = |i: usize| rows[i].iter().map(|&f| weights[f as usize]).sum::<f64>();
        let mean = train.iter().map(|&i| samples[i].target as f64).sum::<f64>()
            / train.len().max(1) as f64;
        reports.push(PhaseReport {
            phase,
            empties: format!("{}-{}", own.start(), own.end()),
            train: train.len(),
            test: test.len(),
            train_rmse: rmse(&train, &predict),
            test_rmse: rmse(&test, &predict),
            test_rmse_of_mean: rmse(&test, &|_| mean),
        });
        let table = (0..TABLE_SIZE).map(|i| weights[fold(i)] as f32).collect();
        tables.push(table);
    }
    (tables, reports)
}

/// Minimises |A w - y|^2 + ridge |w|^2 over the rows `set`, A the 0/1 feature matrix.
fn cgls(
    rows: &[[u32; FEATURE_COUNT]],
    samples: &[Sample],
    set: &[usize],
    options: &FitOptions,
) -> Vec<f64> {
    let ridge = options.ridge;
    let product = |v: &[f64]| -> Vec<f64> {
        set.par_iter()
            .map(|&i| rows[i].iter().map(|&f| v[f as usize]).sum())
            .collect()
    };
    let transposed = |r: &[f64]| -> Vec<f64> {
        let chunk = set.len().div_ceil(rayon::current_num_threads()).max(1);
        set.par_chunks(chunk)
            .zip(r.par_chunks(chunk))
            .map(|(ids, rs)| {
                let mut acc = vec![0.0; TABLE_SIZE];
                for (&i, &ri) in ids.iter().zip(rs) {
                    for &f in &rows[i] {
                        acc[f as usize] += ri;
                    }
                }
                acc
            })
            .reduce(
                || vec![0.0; TABLE_SIZE],
                |mut a, b| {
                    a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                    a
                },
            )
    };
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();

    let mut w = vec![0.0; TABLE_SIZE];
    let mut r: Vec<f64> = set.iter().map(|&i| samples[i].target as f64).collect();
    let mut s = transposed(&r);
    let mut p = s.clone();
    let mut gamma = dot(&s, &s);
    for _ in 0..options.iterations {
        if gamma <= 1e-12 {
            break;
        }
        let q = product(&p);
        let alpha = gamma / (dot(&q, &q) + ridge * dot(&p, &p));
        w.iter_mut().zip(&p).for_each(|(wi, pi)| *wi += alpha * pi);
        r.iter_mut().zip(&q).for_each(|(ri, qi)| *ri -= alpha * qi);
        s = transposed(&r);
        s.iter_mut().zip(&w).for_each(|(si, wi)| *si -= ridge * wi);
        let next = dot(&s, &s);
        let beta = next / gamma;
        gamma = next;
        p.iter_mut()
            .zip(&s)
            .for_each(|(pi, si)| *pi = si + beta * *pi);
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::weights::PatternEval;
    use crate::eval::Evaluation;
    use rand::{rngs::StdRng, RngExt, SeedableRng};

    /// Positions from random games, labelled by a known pattern evaluation: the fit
    /// must recover labels it can represent (held-out error far below the spread).
    #[test]
    fn fit_recovers_a_representable_target() {
        let mut rng = StdRng::seed_from_u64(7);
        let truth: Vec<Vec<f32>> = (0..PHASES)
            .map(|_| {
                let base: Vec<f32> = (0..TABLE_SIZE)
                    .map(|_| rng.random_range(-1.0..1.0))
                    .collect();
                (0..TABLE_SIZE).map(|i| base[fold(i)]).collect()
            })
            .collect();
        let truth = PatternEval::from_discs(&truth);
        let mut samples = Vec::new();
        for _ in 0..3000 {
            let mut board = Board::START;
            while !board.is_game_over() {
                let moves = crate::Bitboard(board.moves());
                board = match moves
                    .into_iter()
                    .nth(rng.random_range(0..moves.count().max(1) as usize))
                {
                    Some(sq) => board.play(sq).unwrap(),
                    None => board.pass(),
                };
                if board.empty_count() == 30 {
                    break;
                }
            }
            samples.push(Sample {
                board,
                target: truth.discs(&board),
            });
        }
        let options = FitOptions {
            ridge: 0.01,
            iterations: 200,
            margin: 0,
            holdout: 10,
        };
        let (tables, reports) = fit(&samples, &options, |_| ());
        let report = &reports[crate::eval::weights::phase(30)];
        assert!(report.train > 2500 && report.test > 200, "{report:?}");
        // Training labels are reproduced almost exactly (more weights than positions).
        assert!(
            report.train_rmse < 0.05 * report.test_rmse_of_mean,
            "{report:?}"
        );
        let fitted = PatternEval::from_discs(&tables);
        let sample = samples.iter().find(|s| !held_out(&s.board, 10)).unwrap();
        assert!((fitted.evaluate(&sample.board) as f32 / 100.0 - sample.target).abs() < 0.5);
    }
}
