//! The parsed form of dice notation: [`DiceExpr`] and its parts.
//!
//! An expression is a signed sum of terms; a term is a constant or a group of identical dice,
//! optionally keeping only the highest or lowest few. Values are only built through the parser or
//! the checked constructors, so every `DiceExpr` respects the limits in [`super`] (dice count,
//! sides, constants, terms): rolling one can never exhaust memory or overflow.
//!
//! This module does not roll ([`super::DiceRoller`]) or compute odds ([`super::distribution`]).
//!
//! ```
//! use hexforge_core::dice::DiceExpr;
//!
//! let e: DiceExpr = "2d10 + 1d6 + 3".parse().unwrap();
//! assert_eq!(e.to_string(), "2d10+d6+3");
//! assert_eq!(DiceExpr::pool(10, 6).unwrap().to_string(), "10d6");
//! ```

use super::{DiceError, MAX_DICE, MAX_SIDES};
use std::fmt;
use std::str::FromStr;

/// Which dice of a group count towards the total.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Keep {
    /// Keep the `n` highest dice (`kh n`).
    Highest(u32),
    /// Keep the `n` lowest dice (`kl n`).
    Lowest(u32),
}

impl Keep {
    /// How many dice are kept.
    #[must_use]
    pub const fn count(self) -> u32 {
        match self {
            Keep::Highest(n) | Keep::Lowest(n) => n,
        }
    }
}

/// A custom die whose faces are names (a battle die: fighter, strike, capital, ...).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NamedDie {
    pub(super) name: String,
    pub(super) faces: Vec<String>,
}

impl NamedDie {
    /// The die's registered name (`battle` in `3d[battle]`).
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The face names, face 1 first.
    #[must_use]
    pub fn faces(&self) -> &[String] {
        &self.faces
    }
}

/// The kind of die in a group.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Die {
    /// A die numbered `1..=sides`.
    Numeric(u32),
    /// A die with named faces, resolved from a [`super::DiceSet`] when parsed.
    Named(NamedDie),
}

impl Die {
    /// Number of faces.
    #[must_use]
    pub fn sides(&self) -> u32 {
        match self {
            Die::Numeric(s) => *s,
            // Bounded by MAX_SIDES when the set registered it.
            Die::Named(n) => n.faces.len() as u32,
        }
    }
}

/// A group of identical dice, like `4d6kh3` or `3d[battle]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DiceGroup {
    pub(super) count: u32,
    pub(super) die: Die,
    pub(super) keep: Option<Keep>,
}

impl DiceGroup {
    /// How many dice are rolled.
    #[must_use]
    pub fn count(&self) -> u32 {
        self.count
    }
    /// The kind of die.
    #[must_use]
    pub fn die(&self) -> &Die {
        &self.die
    }
    /// Which dice count, if not all.
    #[must_use]
    pub fn keep(&self) -> Option<Keep> {
        self.keep
    }
}

/// One part of a sum.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// A group of dice.
    Dice(DiceGroup),
    /// A non-negative constant (the term's sign carries subtraction).
    Constant(i64),
}

/// A signed term of an expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Term {
    /// `true` when the term is subtracted.
    pub negative: bool,
    /// What the term is.
    pub part: Part,
}

/// A parsed dice expression: a signed sum of dice groups and constants.
///
/// Notation (case-insensitive for `d`, `k`, `h`, `l`; spaces allowed around terms and signs,
/// not inside a term):
/// - `NdS`: N dice of S sides; N defaults to 1 (`d6`). `d%` means `d100`.
/// - `NdSkhK` / `NdSklK`: keep the K highest / lowest of the N dice.
/// - `Nd[name]`: N custom dice with named faces, looked up in a [`super::DiceSet`]
///   ([`super::DiceSet::parse`]). Named dice must be the whole expression.
/// - Integer constants; terms joined by `+` and `-`; an optional leading sign.
///
/// `Display` prints canonical notation: no spaces, count omitted when 1, `d%` as `d100`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DiceExpr {
    pub(super) terms: Vec<Term>,
}

impl DiceExpr {
    /// Parses notation that uses only numeric dice. For named dice use [`super::DiceSet::parse`].
    ///
    /// # Errors
    /// A [`DiceError`] naming the byte position and what was expected, or the limit broken.
    pub fn parse(text: &str) -> Result<Self, DiceError> {
        super::parse::parse(text, None)
    }

    /// A pool of `count` dice with `sides` sides (`NdS`), for rolls that compare each die.
    ///
    /// # Errors
    /// [`DiceError::DiceCount`] or [`DiceError::Sides`] when outside the limits.
    pub fn pool(count: u32, sides: u32) -> Result<Self, DiceError> {
        check_count(0, u64::from(count))?;
        check_sides(0, u64::from(sides))?;
        Ok(DiceExpr {
            terms: vec![Term {
                negative: false,
                part: Part::Dice(DiceGroup {
                    count,
                    die: Die::Numeric(sides),
                    keep: None,
                }),
            }],
        })
    }

    /// The terms, in written order.
    #[must_use]
    pub fn terms(&self) -> &[Term] {
        &self.terms
    }

    /// `true` when the expression rolls named-face dice (and so has no numeric distribution).
    #[must_use]
    pub fn is_named(&self) -> bool {
        self.terms
            .iter()
            .any(|t| matches!(&t.part, Part::Dice(g) if matches!(g.die, Die::Named(_))))
    }

    /// Total number of dice rolled.
    #[must_use]
    pub fn dice_count(&self) -> u32 {
        self.terms
            .iter()
            .map(|t| match &t.part {
                Part::Dice(g) => g.count,
                Part::Constant(_) => 0,
            })
            .sum()
    }
}

pub(super) fn check_count(pos: usize, count: u64) -> Result<u32, DiceError> {
    if (1..=u64::from(MAX_DICE)).contains(&count) {
        Ok(count as u32)
    } else {
        Err(DiceError::DiceCount {
            pos,
            count,
            max: MAX_DICE,
        })
    }
}

pub(super) fn check_sides(pos: usize, sides: u64) -> Result<u32, DiceError> {
    if (1..=u64::from(MAX_SIDES)).contains(&sides) {
        Ok(sides as u32)
    } else {
        Err(DiceError::Sides {
            pos,
            sides,
            max: MAX_SIDES,
        })
    }
}

impl FromStr for DiceExpr {
    type Err = DiceError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DiceExpr::parse(s)
    }
}

impl fmt::Display for DiceGroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count != 1 {
            write!(f, "{}", self.count)?;
        }
        match &self.die {
            Die::Numeric(s) => write!(f, "d{s}")?,
            Die::Named(n) => write!(f, "d[{}]", n.name)?,
        }
        match self.keep {
            Some(Keep::Highest(k)) => write!(f, "kh{k}"),
            Some(Keep::Lowest(k)) => write!(f, "kl{k}"),
            None => Ok(()),
        }
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.terms.iter().enumerate() {
            if t.negative {
                f.write_str("-")?;
            } else if i > 0 {
                f.write_str("+")?;
            }
            match &t.part {
                Part::Dice(g) => write!(f, "{g}")?,
                Part::Constant(c) => write!(f, "{c}")?,
            }
        }
        Ok(())
    }
}
