//! How many positions are legal: the fraction of uniformly random positions
//! ([`crate::sample::random_positions`]) that a game reaches, scaled to the space they are
//! drawn from, with a Wilson score interval; undecided positions widen it (counted as
//! unreachable for the lower end, reachable for the upper).

/// Positions `retro sample --random-boards` draws from: each centre square black or white,
/// every other square empty, black or white, either side to move (2^5 * 3^60).
pub fn random_board_space() -> f64 {
    32.0 * 3f64.powi(60)
}

/// The two-sided normal quantile of a confidence level, for the levels people quote.
pub fn z_score(confidence: f64) -> Option<f64> {
    // Quantiles of the standard normal distribution at (1 + confidence) / 2.
    const TABLE: [(f64, f64); 5] = [
        (0.90, 1.644_853_6),
        (0.95, 1.959_964_0),
        (0.99, 2.575_829_3),
        (0.995, 2.807_033_8),
        (0.999, 3.290_526_7),
    ];
    TABLE
        .iter()
        .find(|(level, _)| (level - confidence).abs() < 1e-9)
        .map(|&(_, z)| z)
}

/// Wilson score interval for `successes` of `trials` at normal quantile `z`.
pub fn wilson(successes: u64, trials: u64, z: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The estimate from a sample: `reachable` and `unknown` of `sampled` positions.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Estimate {
    /// Positions drawn.
    pub sampled: u64,
    /// Of them, shown reachable.
    pub reachable: u64,
    /// Of them, undecided.
    pub unknown: u64,
    /// The interval's confidence (0.995 for 99.5%).
    pub confidence: f64,
    /// The interval for the fraction reachable (unknowns counted both ways).
    pub fraction: (f64, f64),
    /// The same scaled to the space sampled: the number of legal positions.
    pub positions: (f64, f64),
}

/// The number of legal positions in `space`, from a uniform sample of it.
pub fn estimate(
    sampled: u64,
    reachable: u64,
    unknown: u64,
    confidence: f64,
    space: f64,
) -> Option<Estimate> {
    let z = z_score(confidence)?;
    let low = wilson(reachable, sampled, z).0;
    let high = wilson(reachable + unknown, sampled, z).1;
    Some(Estimate {
        sampled,
        reachable,
        unknown,
        confidence,
        fraction: (low, high),
        positions: (low * space, high * space),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_the_closed_form_on_known_cases() {
        // 0 of 10 at 95%: upper end z^2 / (n + z^2).
        let (low, high) = wilson(0, 10, 1.959_964);
        assert_eq!(low, 0.0);
        let z2 = 1.959_964f64.powi(2);
        assert!((high - z2 / (10.0 + z2)).abs() < 1e-12);
        // Symmetric around 1/2 for half the trials.
        let (low, high) = wilson(50, 100, 2.575_829_3);
        assert!((low + high - 1.0).abs() < 1e-12);
        // 10 of 100 at 95%: the textbook interval [0.0552, 0.1744].
        let (low, high) = wilson(10, 100, 1.959_964);
        assert!(
            (low - 0.0552).abs() < 1e-4 && (high - 0.1744).abs() < 1e-4,
            "{low} {high}"
        );
    }

    #[test]
    fn unknowns_widen_the_estimate() {
        let space = random_board_space();
        assert!((space / 1.356e30 - 1.0).abs() < 1e-3);
        let sure = estimate(1_000_000, 100, 0, 0.995, space).unwrap();
        let unsure = estimate(1_000_000, 100, 50, 0.995, space).unwrap();
        assert_eq!(sure.fraction.0, unsure.fraction.0);
        assert!(unsure.fraction.1 > sure.fraction.1);
        assert!(sure.positions.0 < 100e-6 * space && 100e-6 * space < sure.positions.1);
        assert_eq!(estimate(10, 1, 0, 0.42, space), None);
    }
}
