//! Seeded dice, dice notation, custom-faced dice and exact odds.
//!
//! - [`DiceExpr`]: parsed notation (`2d6`, `3d10+4`, `d%`, `4d6kh3`, `2d10+1d6-1`, `3d[battle]`);
//!   `Display` gives canonical notation back.
//! - [`DiceSet`]: registry of dice whose faces are names (a battle die), used when parsing.
//! - [`DiceRoller`]: the game's only randomness. Seeded, serialisable plain data, and it records
//!   every [`Roll`] until the game log drains them with [`DiceRoller::take_rolls`].
//! - [`distribution`]: exact odds of a numeric expression, as counts and [`Ratio`]s.
//!
//! **Limits** keep every input cheap and panic-free: at most [`MAX_DICE`] dice in an expression,
//! 1 to [`MAX_SIDES`] sides, constants up to [`MAX_CONSTANT`], at most [`MAX_TERMS`] terms.
//!
//! This module deliberately knows nothing of game rules, tables ([`crate::table`]) or Lua, and
//! has no unseeded or unlogged randomness.
//!
//! ```
//! use hexforge_core::dice::{DiceExpr, DiceRoller, Ratio, distribution};
//!
//! let expr: DiceExpr = "2d6".parse().unwrap();
//! let mut dice = DiceRoller::new(42);
//! let roll = dice.roll(&expr, "hyperjump");
//! assert!((2..=12).contains(&roll.total));
//! assert_eq!(dice.take_rolls(), vec![roll]);
//!
//! let odds = distribution(&expr).unwrap();
//! assert_eq!(odds.probability(7), Ratio::new(1, 6).unwrap());
//! assert_eq!(odds.at_least(10), Ratio::new(6, 36).unwrap());
//! ```

mod dist;
mod error;
mod expr;
mod parse;
mod roller;
mod set;

pub use dist::{Distribution, MAX_OUTCOMES, Ratio, WORK_BUDGET, distribution};
pub use error::DiceError;
pub use expr::{DiceExpr, DiceGroup, Die, Keep, NamedDie, Part, Term};
pub use roller::{DiceRoller, DieResult, Roll};
pub use set::DiceSet;

/// Most dice one expression may roll.
pub const MAX_DICE: u32 = 1000;
/// Most sides a die may have.
pub const MAX_SIDES: u32 = 10_000;
/// Largest constant in an expression.
pub const MAX_CONSTANT: i64 = 1_000_000_000;
/// Most terms in an expression.
pub const MAX_TERMS: usize = 64;
