//! Exact probability distributions of numeric dice expressions.
//!
//! [`distribution`] counts outcomes exactly: every possible roll of every die is one outcome, so
//! `2d6` has 36 outcomes and a total of 7 occurs in 6 of them. Counts are `u128`; the total number
//! of outcomes must stay below 2^127 (so probabilities fit the [`Ratio`] type), otherwise the
//! answer is [`DiceError::TooManyOutcomes`], never a rounded number.
//!
//! How: a sum of plain dice is built one die at a time, each step a sliding-window sum (adding a
//! uniform die to a distribution is a moving window of its width). A keep-highest/lowest group is
//! counted by dynamic programming over faces from best to worst, tracking how many dice have been
//! placed and the sum of the kept ones, weighting by binomials for which dice show each face.
//! Groups are then combined by convolution. This module does not roll dice or read tables.
//!
//! ```
//! use hexforge_core::dice::{DiceExpr, Ratio, distribution};
//!
//! let d = distribution(&"3d6".parse::<DiceExpr>().unwrap()).unwrap();
//! assert_eq!(d.probability(10), Ratio::new(27, 216).unwrap());
//! assert_eq!(d.mean().unwrap(), Ratio::new(21, 2).unwrap());
//! ```

use super::expr::{Die, Keep, Part};
use super::{DiceError, DiceExpr};
use std::fmt;

/// Largest number of outcomes counted exactly (probabilities are `i128` fractions).
pub const MAX_OUTCOMES: u128 = i128::MAX as u128;

/// Upper bound on the steps one exact computation may take (keeps odds instant for any input).
pub const WORK_BUDGET: u128 = 50_000_000;

/// An exact fraction in lowest terms with a positive denominator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ratio {
    numer: i128,
    denom: i128,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Ratio {
    /// `numer / denom` in lowest terms; `None` when `denom` is 0 (or the sign cannot be
    /// normalised because a value is `i128::MIN`).
    #[must_use]
    pub fn new(numer: i128, denom: i128) -> Option<Self> {
        if denom == 0 || numer == i128::MIN || denom == i128::MIN {
            return None;
        }
        let g = gcd(numer.unsigned_abs(), denom.unsigned_abs()).max(1) as i128;
        let (n, d) = (numer / g, denom / g);
        Some(if d < 0 {
            Ratio {
                numer: -n,
                denom: -d,
            }
        } else {
            Ratio { numer: n, denom: d }
        })
    }

    /// The numerator (carries the sign).
    #[must_use]
    pub fn numer(self) -> i128 {
        self.numer
    }

    /// The denominator (always positive).
    #[must_use]
    pub fn denom(self) -> i128 {
        self.denom
    }

    /// `self + other`, or `None` on overflow.
    #[must_use]
    pub fn checked_add(self, other: Ratio) -> Option<Ratio> {
        let g = gcd(self.denom as u128, other.denom as u128) as i128;
        let denom = (self.denom / g).checked_mul(other.denom)?;
        let numer = self
            .numer
            .checked_mul(other.denom / g)?
            .checked_add(other.numer.checked_mul(self.denom / g)?)?;
        Ratio::new(numer, denom)
    }

    /// The nearest `f64`, for display only.
    #[must_use]
    #[allow(clippy::cast_precision_loss)] // display only
    pub fn to_f64(self) -> f64 {
        self.numer as f64 / self.denom as f64
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.denom == 1 {
            write!(f, "{}", self.numer)
        } else {
            write!(f, "{}/{}", self.numer, self.denom)
        }
    }
}

/// The exact distribution of an expression's total: outcome counts over a total.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distribution {
    min: i64,
    counts: Vec<u128>,
    total: u128,
    // Kept alongside the counts because the mean adds up term by term, which stays exact even
    // when sum(value * count) would overflow (38d10 has 10^38 outcomes). `None` = overflowed.
    mean: Option<Ratio>,
}

impl Distribution {
    fn point(value: i64) -> Self {
        Distribution {
            min: value,
            counts: vec![1],
            total: 1,
            mean: Some(Ratio {
                numer: i128::from(value),
                denom: 1,
            }),
        }
    }

    /// The number of equally likely outcomes (product of all dice's sides).
    #[must_use]
    pub fn total(&self) -> u128 {
        self.total
    }

    /// The smallest possible value.
    #[must_use]
    pub fn min(&self) -> i64 {
        self.min
    }

    /// The largest possible value.
    #[must_use]
    pub fn max(&self) -> i64 {
        self.min + self.counts.len() as i64 - 1
    }

    /// How many outcomes give exactly `value`.
    #[must_use]
    pub fn count(&self, value: i64) -> u128 {
        value
            .checked_sub(self.min)
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| self.counts.get(i).copied())
            .unwrap_or(0)
    }

    /// `(value, count)` for every value from min to max, including zero counts inside the range.
    pub fn iter(&self) -> impl Iterator<Item = (i64, u128)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .map(|(i, &c)| (self.min + i as i64, c))
    }

    fn ratio(&self, count: u128) -> Ratio {
        // count <= total <= MAX_OUTCOMES, so both fit i128 and total > 0.
        Ratio::new(count as i128, self.total as i128).unwrap_or(Ratio { numer: 0, denom: 1 })
    }

    /// Probability of exactly `value`.
    #[must_use]
    pub fn probability(&self, value: i64) -> Ratio {
        self.ratio(self.count(value))
    }

    /// Probability of a total `<= value`.
    #[must_use]
    pub fn at_most(&self, value: i64) -> Ratio {
        self.ratio(
            self.iter()
                .filter(|&(v, _)| v <= value)
                .map(|(_, c)| c)
                .sum(),
        )
    }

    /// Probability of a total `>= value`.
    #[must_use]
    pub fn at_least(&self, value: i64) -> Ratio {
        self.ratio(
            self.iter()
                .filter(|&(v, _)| v >= value)
                .map(|(_, c)| c)
                .sum(),
        )
    }

    /// The exact mean.
    ///
    /// # Errors
    /// [`DiceError::TooManyOutcomes`] if the exact fraction overflows 128 bits.
    pub fn mean(&self) -> Result<Ratio, DiceError> {
        self.mean.ok_or(DiceError::TooManyOutcomes)
    }

    /// The mean from the counts (used for keep groups, whose totals are small).
    fn mean_from_counts(&self) -> Option<Ratio> {
        let mut above_min: u128 = 0;
        for (i, &c) in self.counts.iter().enumerate() {
            above_min = (i as u128).checked_mul(c)?.checked_add(above_min)?;
        }
        let above = Ratio::new(i128::try_from(above_min).ok()?, self.total as i128)?;
        above.checked_add(Ratio::new(i128::from(self.min), 1)?)
    }

    fn shift(&mut self, by: i64) {
        self.min += by;
        self.mean = self
            .mean
            .and_then(|m| m.checked_add(Ratio::new(i128::from(by), 1)?));
    }

    /// Adds a die uniform on `lo..=hi` (a sliding-window sum over the current counts).
    fn add_uniform(&mut self, lo: i64, hi: i64) -> Result<(), DiceError> {
        let width = (hi - lo + 1) as usize;
        let mut out = vec![0u128; self.counts.len() + width - 1];
        let mut window: u128 = 0;
        for (i, slot) in out.iter_mut().enumerate() {
            if let Some(&c) = self.counts.get(i) {
                window = window.checked_add(c).ok_or(DiceError::TooManyOutcomes)?;
            }
            if i >= width
                && let Some(&c) = self.counts.get(i - width)
            {
                window -= c;
            }
            *slot = window;
        }
        self.min += lo;
        self.mean = self
            .mean
            .and_then(|m| m.checked_add(Ratio::new(i128::from(lo) + i128::from(hi), 2)?));
        self.counts = out;
        self.total = self
            .total
            .checked_mul(width as u128)
            .ok_or(DiceError::TooManyOutcomes)?;
        Ok(())
    }

    /// Convolution with another independent distribution.
    fn add(&mut self, other: &Distribution) -> Result<(), DiceError> {
        let mut out = vec![0u128; self.counts.len() + other.counts.len() - 1];
        for (i, &a) in self.counts.iter().enumerate() {
            if a == 0 {
                continue;
            }
            for (j, &b) in other.counts.iter().enumerate() {
                out[i + j] = a
                    .checked_mul(b)
                    .and_then(|p| p.checked_add(out[i + j]))
                    .ok_or(DiceError::TooManyOutcomes)?;
            }
        }
        self.min += other.min;
        self.mean = self
            .mean
            .zip(other.mean)
            .and_then(|(a, b)| a.checked_add(b));
        self.counts = out;
        self.total = self
            .total
            .checked_mul(other.total)
            .ok_or(DiceError::TooManyOutcomes)?;
        Ok(())
    }

    fn negate(&mut self) {
        self.min = -self.max();
        self.counts.reverse();
        self.mean = self.mean.map(|m| Ratio {
            numer: -m.numer,
            denom: m.denom,
        });
    }
}

/// An upper bound on the steps [`keep_distribution`] takes.
fn keep_work(count: u32, sides: u32, keep: Keep) -> u128 {
    let width = u128::from(keep.count()) * u128::from(sides) + 1;
    u128::from(sides) * (u128::from(count) + 1).pow(2) * width
}

/// Counts `count` dice of `sides` sides keeping the highest or lowest few.
fn keep_distribution(count: u32, sides: u32, keep: Keep) -> Result<Distribution, DiceError> {
    let n = count as usize;
    let k = keep.count() as usize;
    let s = sides as usize;
    let width = k * s + 1; // kept sums 0..=k*s
    // binom[a][b] = C(a, b), None when it overflows (only ever needed when the total fits).
    let mut binom = vec![vec![Some(0u128); n + 1]; n + 1];
    for a in 0..=n {
        binom[a][0] = Some(1);
        for b in 1..=a {
            binom[a][b] = match (binom[a - 1][b - 1], binom[a - 1][b]) {
                (Some(x), Some(y)) => x.checked_add(y),
                _ => None,
            };
        }
    }
    // dp[placed][kept_sum]: arrangements of `placed` dice among the faces seen so far.
    let mut dp = vec![vec![0u128; width]; n + 1];
    dp[0][0] = 1;
    let faces: Vec<usize> = match keep {
        Keep::Highest(_) => (1..=s).rev().collect(),
        Keep::Lowest(_) => (1..=s).collect(),
    };
    for v in faces {
        let mut next = vec![vec![0u128; width]; n + 1];
        for placed in 0..=n {
            for (sum, &ways) in dp[placed].iter().enumerate() {
                if ways == 0 {
                    continue;
                }
                for j in 0..=(n - placed) {
                    let newly_kept = (placed + j).min(k) - placed.min(k);
                    let new_sum = sum + v * newly_kept;
                    let c = binom[placed + j][j].ok_or(DiceError::TooManyOutcomes)?;
                    let slot = &mut next[placed + j][new_sum];
                    *slot = ways
                        .checked_mul(c)
                        .and_then(|x| x.checked_add(*slot))
                        .ok_or(DiceError::TooManyOutcomes)?;
                }
            }
        }
        dp = next;
    }
    let counts = dp.swap_remove(n).split_off(k);
    let total = counts
        .iter()
        .try_fold(0u128, |acc, &c| acc.checked_add(c))
        .ok_or(DiceError::TooManyOutcomes)?;
    let mut d = Distribution {
        min: k as i64,
        counts,
        total,
        mean: None,
    };
    // Trim the impossible top (sums above k*s cannot happen; keep the vector tight).
    while d.counts.len() > 1 && d.counts.last() == Some(&0) {
        d.counts.pop();
    }
    d.mean = d.mean_from_counts();
    Ok(d)
}

/// The exact distribution of a numeric expression's total.
///
/// # Errors
/// [`DiceError::NotNumeric`] for named dice, [`DiceError::TooManyOutcomes`] when the outcome count
/// reaches 2^127, [`DiceError::TooComplex`] when a computation would exceed [`WORK_BUDGET`].
pub fn distribution(expr: &DiceExpr) -> Result<Distribution, DiceError> {
    if expr.is_named() {
        return Err(DiceError::NotNumeric);
    }
    // Check the outcome count first: it also bounds every length and count below.
    let mut total: u128 = 1;
    for term in expr.terms() {
        if let Part::Dice(g) = &term.part {
            for _ in 0..g.count {
                total = total
                    .checked_mul(u128::from(g.die.sides()))
                    .filter(|&t| t <= MAX_OUTCOMES)
                    .ok_or(DiceError::TooManyOutcomes)?;
            }
        }
    }
    let mut dist = Distribution::point(0);
    let mut work: u128 = 0;
    for term in expr.terms() {
        match &term.part {
            Part::Constant(c) => dist.shift(if term.negative { -c } else { *c }),
            Part::Dice(g) => {
                let sides = i64::from(g.die.sides());
                debug_assert!(matches!(g.die, Die::Numeric(_)));
                match g.keep {
                    None => {
                        for _ in 0..g.count {
                            work += dist.counts.len() as u128 + sides as u128;
                            if work > WORK_BUDGET {
                                return Err(DiceError::TooComplex { work });
                            }
                            if term.negative {
                                dist.add_uniform(-sides, -1)?;
                            } else {
                                dist.add_uniform(1, sides)?;
                            }
                        }
                    }
                    Some(keep) => {
                        work += keep_work(g.count, g.die.sides(), keep);
                        if work > WORK_BUDGET {
                            return Err(DiceError::TooComplex { work });
                        }
                        let mut group = keep_distribution(g.count, g.die.sides(), keep)?;
                        if term.negative {
                            group.negate();
                        }
                        work += dist.counts.len() as u128 * group.counts.len() as u128;
                        if work > WORK_BUDGET {
                            return Err(DiceError::TooComplex { work });
                        }
                        dist.add(&group)?;
                    }
                }
            }
        }
    }
    Ok(dist)
}
