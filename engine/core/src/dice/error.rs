//! The one error type of the dice module.
//!
//! Every failure is a value: bad notation names the byte position and what was expected; limits
//! name the limit; exact odds that would not fit in 128-bit integers say so instead of rounding.

use thiserror::Error;

/// Everything that can go wrong when parsing, building or analysing dice expressions.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DiceError {
    /// The notation is malformed: at byte `pos` the parser expected `expected`.
    #[error("expected {expected} at {pos}")]
    Syntax {
        /// Byte offset in the input.
        pos: usize,
        /// What would have been valid there, in words.
        expected: &'static str,
    },
    /// A dice count outside `1..=MAX_DICE`, or the whole expression rolls more than `MAX_DICE`.
    #[error("dice count {count} at {pos} is outside 1..={max}")]
    DiceCount {
        /// Byte offset of the count.
        pos: usize,
        /// The count given (or the running total for the whole expression).
        count: u64,
        /// The limit.
        max: u32,
    },
    /// A number of sides outside `1..=MAX_SIDES`.
    #[error("number of sides {sides} at {pos} is outside 1..={max}")]
    Sides {
        /// Byte offset of the number.
        pos: usize,
        /// The number given.
        sides: u64,
        /// The limit.
        max: u32,
    },
    /// A keep count of zero or larger than the number of dice in its term.
    #[error("keep count {keep} at {pos} must be between 1 and the {count} dice rolled")]
    Keep {
        /// Byte offset of the keep count.
        pos: usize,
        /// The keep count given.
        keep: u64,
        /// The number of dice in the term.
        count: u32,
    },
    /// A constant larger than `MAX_CONSTANT`.
    #[error("constant at {pos} is larger than {max}")]
    Constant {
        /// Byte offset of the constant.
        pos: usize,
        /// The limit.
        max: i64,
    },
    /// More than `MAX_TERMS` terms.
    #[error("more than {max} terms at {pos}")]
    TooManyTerms {
        /// Byte offset of the first term beyond the limit.
        pos: usize,
        /// The limit.
        max: usize,
    },
    /// `d[name]` names a die that the [`DiceSet`](super::DiceSet) used for parsing does not know.
    #[error("unknown die '{name}' at {pos}")]
    UnknownDie {
        /// Byte offset of the name.
        pos: usize,
        /// The name given.
        name: String,
    },
    /// Named-face dice must be the whole expression (`3d[battle]`): they have no numeric total
    /// to add, subtract or keep.
    #[error("named dice at {pos} cannot be combined with other terms, signs or keep")]
    NamedDiceMixed {
        /// Byte offset of the offending term or suffix.
        pos: usize,
    },
    /// A custom die definition is unusable (no faces, too many faces, bad or duplicate name).
    #[error("invalid die definition '{name}': {reason}")]
    InvalidDie {
        /// The die's name.
        name: String,
        /// Why it was rejected.
        reason: &'static str,
    },
    /// Odds were asked for an expression of named dice, which has no numeric value.
    #[error("named dice have no numeric distribution")]
    NotNumeric,
    /// The exact outcome count would not fit in the 127-bit range the exact arithmetic uses.
    #[error("too many outcomes to count exactly")]
    TooManyOutcomes,
    /// Computing the exact distribution would take more than the work budget allows.
    #[error("exact distribution too expensive to compute (about {work} steps)")]
    TooComplex {
        /// Estimated number of steps.
        work: u128,
    },
}
