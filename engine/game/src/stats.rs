//! The statistics of the balance lab: confidence intervals for win rates, a significance test
//! for the difference between two rule sets, and quantiles of game lengths.
//!
//! Pure functions over counts and numbers, each with the method named, so a report can say
//! which one it used:
//! - [`wilson`]: the Wilson score interval for a proportion (good at small counts and near 0 or
//!   1, where the textbook `p ± z·sqrt(p(1-p)/n)` interval collapses or leaves [0, 1]);
//! - [`fisher_exact`]: Fisher's exact test on a 2x2 table, two-sided (exact at any sample
//!   size, so a 10-game sweep gets an honest p-value where a z-test would not);
//! - [`quantile`] and [`Spread`]: quantiles by linear interpolation between order statistics
//!   (Hyndman and Fan's type 7, the default of R, NumPy and spreadsheets).
//!
//! Floating point is fine here: this is reporting, never rules. What this module deliberately
//! does not do: decide what is "significant" (the report compares a p-value with 0.05 and says
//! so), correct for testing several sides at once, or pair games by seed (two rule sets'
//! games share a seed but diverge at the first rule that differs, so they are treated as
//! independent samples).
//!
//! ```
//! use hexforge_game::stats::{Z95, fisher_exact, wilson};
//! let ci = wilson(8, 10, Z95);
//! assert!((ci.low - 0.4902).abs() < 1e-4 && (ci.high - 0.9433).abs() < 1e-4);
//! assert!(fisher_exact(5, 5, 5, 5) > 0.99); // the same rates: nothing to see
//! ```

use serde::{Deserialize, Serialize};

/// The normal quantile for a two-sided 95% interval (`z` with `P(|Z| <= z) = 0.95`).
pub const Z95: f64 = 1.959_963_984_540_054;

/// A closed interval `[low, high]`, here always within [0, 1].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// The lower end.
    pub low: f64,
    /// The upper end.
    pub high: f64,
}

/// The Wilson score interval for `successes` out of `trials` at normal quantile `z` ([`Z95`]
/// for 95%). No trials: the whole of [0, 1] (nothing is known).
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub fn wilson(successes: usize, trials: usize, z: f64) -> Interval {
    if trials == 0 {
        return Interval {
            low: 0.0,
            high: 1.0,
        };
    }
    let n = trials as f64;
    let p = successes.min(trials) as f64 / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Interval {
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// Fisher's exact test, two-sided, on the 2x2 table `[[a, b], [c, d]]` (here: rule set A's wins
/// and other results, rule set B's wins and other results). The p-value is the probability,
/// with the margins fixed, of a table at most as likely as the one observed (as R's
/// `fisher.test` and SciPy's `fisher_exact` define it). An empty row or column gives 1.
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub fn fisher_exact(a: usize, b: usize, c: usize, d: usize) -> f64 {
    let (row1, row2, col1) = (a + b, c + d, a + c);
    let low = col1.saturating_sub(row2);
    let high = row1.min(col1);
    if low == high {
        return 1.0;
    }
    // The hypergeometric weights of x = low..=high (x the table's top-left cell), built by the
    // ratio of neighbours in log space (no factorials, so any number of games), then normalised.
    let mut logs = Vec::with_capacity(high - low + 1);
    let mut log = 0.0_f64;
    logs.push(log);
    for x in low..high {
        let up = (row1 - x) as f64 * (col1 - x) as f64;
        let down = (x + 1) as f64 * (row2 + x + 1 - col1) as f64;
        log += up.ln() - down.ln();
        logs.push(log);
    }
    let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = logs.iter().map(|l| (l - top).exp()).collect();
    let total: f64 = weights.iter().sum();
    let observed = weights[a - low];
    // The relative tolerance keeps tables exactly as likely as the observed one from being
    // dropped by rounding (R uses 1 + 1e-7 the same way).
    let p: f64 = weights
        .iter()
        .filter(|&&w| w <= observed * (1.0 + 1e-7))
        .sum::<f64>()
        / total;
    p.min(1.0)
}

/// The `q` quantile (0..=1) of `sorted` (ascending) by linear interpolation between order
/// statistics: position `(n - 1) q`, type 7. `None` for no values.
#[must_use]
#[allow(clippy::cast_precision_loss, clippy::cast_sign_loss)]
pub fn quantile(sorted: &[f64], q: f64) -> Option<f64> {
    let last = sorted.len().checked_sub(1)?;
    let h = last as f64 * q.clamp(0.0, 1.0);
    let below = h.floor() as usize;
    let above = (below + 1).min(last);
    Some(sorted[below] + (h - below as f64) * (sorted[above] - sorted[below]))
}

/// Five quantiles and the mean of a sample (a game length in actions or rounds).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    /// The smallest value.
    pub min: f64,
    /// The first quartile.
    pub q1: f64,
    /// The median.
    pub median: f64,
    /// The third quartile.
    pub q3: f64,
    /// The largest value.
    pub max: f64,
    /// The mean.
    pub mean: f64,
}

impl Spread {
    /// The spread of `values` (any order), `None` for none.
    #[must_use]
    #[allow(clippy::cast_precision_loss)]
    pub fn of(values: &[f64]) -> Option<Spread> {
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let at = |q| quantile(&sorted, q);
        Some(Spread {
            min: at(0.0)?,
            q1: at(0.25)?,
            median: at(0.5)?,
            q3: at(0.75)?,
            max: at(1.0)?,
            mean: sorted.iter().sum::<f64>() / sorted.len() as f64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: f64, want: f64, tolerance: f64) {
        assert!(
            (got - want).abs() <= tolerance,
            "got {got}, want {want} ± {tolerance}"
        );
    }

    #[test]
    fn wilson_matches_known_intervals() {
        // (successes, trials, low, high), from statsmodels' proportion_confint(method="wilson").
        for (k, n, low, high) in [
            (8, 10, 0.490_162_472, 0.943_317_849),
            (0, 10, 0.0, 0.277_532_800),
            (10, 10, 0.722_467_200, 1.0),
            (50, 100, 0.403_831_530, 0.596_168_470),
            (1, 3, 0.061_491_945, 0.792_340_399),
            (412, 1000, 0.381_887_311, 0.442_786_198),
        ] {
            let ci = wilson(k, n, Z95);
            close(ci.low, low, 1e-8);
            close(ci.high, high, 1e-8);
        }
    }

    #[test]
    fn wilson_of_nothing_is_everything_and_narrows_with_more_games() {
        assert_eq!(
            wilson(0, 0, Z95),
            Interval {
                low: 0.0,
                high: 1.0
            }
        );
        let few = wilson(5, 10, Z95);
        let many = wilson(500, 1000, Z95);
        assert!(many.high - many.low < (few.high - few.low) / 5.0);
    }

    #[test]
    fn fisher_matches_known_p_values() {
        // From SciPy's stats.fisher_exact(..., alternative="two-sided").
        for ((a, b, c, d), p) in [
            ((8, 2, 1, 5), 0.034_965_034_965),
            ((1, 9, 11, 3), 0.002_759_456_185),
            ((3, 1, 1, 3), 0.485_714_285_714),
            ((20, 20, 20, 20), 1.0),
            ((60, 40, 45, 55), 0.047_165_485_383),
            ((0, 10, 0, 10), 1.0),
            ((520, 480, 470, 530), 0.028_393_696_371),
        ] {
            close(fisher_exact(a, b, c, d), p, 1e-10);
        }
    }

    #[test]
    fn fisher_is_symmetric_in_rows_and_columns() {
        let p = fisher_exact(12, 8, 5, 15);
        close(fisher_exact(5, 15, 12, 8), p, 1e-12);
        close(fisher_exact(12, 5, 8, 15), p, 1e-12);
    }

    #[test]
    fn quantiles_interpolate_like_numpy() {
        // numpy.quantile([1, 2, 4, 7, 20], [0, .25, .5, .75, 1]) and the mean.
        let spread = Spread::of(&[7.0, 1.0, 20.0, 4.0, 2.0]).unwrap();
        assert_eq!(
            spread,
            Spread {
                min: 1.0,
                q1: 2.0,
                median: 4.0,
                q3: 7.0,
                max: 20.0,
                mean: 6.8
            }
        );
        // Between order statistics: numpy.quantile([1, 2, 3, 4], .25) = 1.75.
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0], 0.25), Some(1.75));
        assert_eq!(quantile(&[3.0], 0.9), Some(3.0));
        assert_eq!(quantile(&[], 0.5), None);
        assert_eq!(Spread::of(&[]), None);
    }
}
