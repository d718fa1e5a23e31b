//! [`DiceRoller`]: the seeded, logged source of every random number in a game.
//!
//! The roller is plain data: a `u64` seed, the number of 32-bit words drawn so far, and the rolls
//! made since the game log last drained them. That is what it serialises to, so it can live in
//! the game state, be saved to JSON and be cloned for undo; restoring it resumes the exact stream.
//!
//! It deliberately has no convenience "random float" or unlogged draw: every number a rule uses
//! comes from a [`Roll`] that the log can show.
//!
//! ```
//! use hexforge_core::dice::{DiceExpr, DiceRoller};
//!
//! let mut dice = DiceRoller::new(42);
//! let expr: DiceExpr = "3d10+4".parse().unwrap();
//! let roll = dice.roll(&expr, "torpedo damage");
//! assert!((7..=34).contains(&roll.total));
//!
//! // Saving and restoring continues the same sequence.
//! let saved = serde_json::to_string(&dice).unwrap();
//! let mut restored: DiceRoller = serde_json::from_str(&saved).unwrap();
//! assert_eq!(dice.roll(&expr, "a").total, restored.roll(&expr, "a").total);
//! assert_eq!(dice.take_rolls().len(), 2);
//! ```

use super::expr::{Die, Keep, Part};
use super::{DiceError, DiceExpr};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};

/// One die of a roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieResult {
    /// Number of sides of the die.
    pub sides: u32,
    /// The face rolled, `1..=sides` (for named dice, the face's position, 1-based).
    pub value: u32,
    /// The face's name, for named dice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face: Option<String>,
    /// Whether the die counts (false when dropped by keep-highest/lowest).
    pub kept: bool,
    /// Whether the die's group is subtracted from the total.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub negative: bool,
}

/// A recorded roll: what was rolled, why, each die, and the total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    /// Why the roll was made ("hyperjump", "laser to-hit").
    pub label: String,
    /// The expression, in canonical notation.
    pub expr: String,
    /// Every die in expression order, in the order rolled, kept or dropped.
    pub dice: Vec<DieResult>,
    /// Sum of kept dice (subtracted groups negative) and constants. For named dice, which have
    /// no numeric value, the total is the number of dice rolled.
    pub total: i64,
}

impl Roll {
    /// The values of the kept dice, in roll order (a pool's faces).
    #[must_use]
    pub fn kept_values(&self) -> Vec<u32> {
        self.dice
            .iter()
            .filter(|d| d.kept)
            .map(|d| d.value)
            .collect()
    }

    /// How many kept dice show the named face.
    #[must_use]
    pub fn count_face(&self, face: &str) -> usize {
        self.dice
            .iter()
            .filter(|d| d.kept && d.face.as_deref() == Some(face))
            .count()
    }
}

/// The serialised form of a [`DiceRoller`].
#[derive(Serialize, Deserialize)]
struct RollerState {
    seed: u64,
    words: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pending: Vec<Roll>,
}

/// A deterministic dice roller: same seed, same rolls, on every platform and version.
///
/// Built on ChaCha8 (`rand_chacha`): its output is fixed by a published algorithm rather than by
/// a library's choice of "standard" generator, it passes every statistical test suite, and its
/// stream position can be set directly, which is what makes the small saved state possible.
/// ChaCha8 rather than ChaCha20 because the extra rounds buy only cryptographic margin, which a
/// game whose seed sits in the save file does not need, at about twice the cost.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(from = "RollerState", into = "RollerState")]
pub struct DiceRoller {
    seed: u64,
    rng: ChaCha8Rng,
    pending: Vec<Roll>,
}

impl PartialEq for DiceRoller {
    fn eq(&self, other: &Self) -> bool {
        self.seed == other.seed
            && self.rng.get_word_pos() == other.rng.get_word_pos()
            && self.pending == other.pending
    }
}
impl Eq for DiceRoller {}

impl From<RollerState> for DiceRoller {
    fn from(s: RollerState) -> Self {
        let mut roller = DiceRoller::new(s.seed);
        roller.rng.set_word_pos(u128::from(s.words));
        roller.pending = s.pending;
        roller
    }
}

impl From<DiceRoller> for RollerState {
    fn from(r: DiceRoller) -> Self {
        RollerState {
            seed: r.seed,
            words: r.words_used(),
            pending: r.pending,
        }
    }
}

impl DiceRoller {
    /// A roller at the start of the stream for `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        // The key is the seed, little-endian, zero-padded to 32 bytes. Doing this ourselves
        // instead of `seed_from_u64` pins the mapping in this file, so no dependency upgrade can
        // change which games a seed produces.
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        DiceRoller {
            seed,
            rng: ChaCha8Rng::from_seed(key),
            pending: Vec::new(),
        }
    }

    /// The seed this roller was built from.
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// How many 32-bit words of the stream have been used.
    #[must_use]
    pub fn words_used(&self) -> u64 {
        u64::try_from(self.rng.get_word_pos()).unwrap_or(u64::MAX)
    }

    /// One die of `sides` faces (1 when `sides` is 0), drawn exactly as [`DiceRoller::pool`]`(1,
    /// sides, ..)` draws it (the same words of the stream) but **not recorded**: for bots and
    /// tools that need a choice from a seeded stream of their own, never for a game's rules,
    /// whose every roll is logged. Why: a recorded roll builds a [`Roll`] with its label, dice
    /// and expression only to be thrown away; a random bot draws twice per action.
    pub fn unrecorded_die(&mut self, sides: u32) -> u32 {
        self.uniform(sides)
    }

    /// A uniform integer in `1..=sides` without modulo bias (Lemire's multiply-and-reject:
    /// a 32-bit draw times `sides`, rejecting the few low products that would favour some faces).
    fn uniform(&mut self, sides: u32) -> u32 {
        let sides = sides.max(1);
        let threshold = sides.wrapping_neg() % sides; // 2^32 mod sides
        loop {
            let product = u64::from(self.rng.next_u32()) * u64::from(sides);
            if (product as u32) >= threshold {
                return (product >> 32) as u32 + 1;
            }
        }
    }

    /// Rolls an expression, records the roll (see [`DiceRoller::take_rolls`]) and returns it.
    pub fn roll(&mut self, expr: &DiceExpr, label: &str) -> Roll {
        let mut dice = Vec::with_capacity(expr.dice_count() as usize);
        let mut total: i64 = 0;
        for term in &expr.terms {
            let sign = if term.negative { -1 } else { 1 };
            match &term.part {
                Part::Constant(c) => total += sign * c,
                Part::Dice(group) => {
                    let start = dice.len();
                    let sides = group.die.sides();
                    for _ in 0..group.count {
                        let value = self.uniform(sides);
                        let face = match &group.die {
                            Die::Named(n) => n.faces.get(value as usize - 1).cloned(),
                            Die::Numeric(_) => None,
                        };
                        dice.push(DieResult {
                            sides,
                            value,
                            face,
                            kept: true,
                            negative: term.negative,
                        });
                    }
                    let rolled = &mut dice[start..];
                    if let Some(keep) = group.keep {
                        mark_kept(rolled, keep);
                    }
                    if matches!(group.die, Die::Named(_)) {
                        total += i64::from(group.count);
                    } else {
                        let sum: i64 = rolled
                            .iter()
                            .filter(|d| d.kept)
                            .map(|d| i64::from(d.value))
                            .sum();
                        total += sign * sum;
                    }
                }
            }
        }
        let roll = Roll {
            label: label.to_owned(),
            expr: expr.to_string(),
            dice,
            total,
        };
        self.pending.push(roll.clone());
        roll
    }

    /// Rolls a pool of `count` dice of `sides` sides (`NdS`) and records it; read each die from
    /// [`Roll::dice`] or [`Roll::kept_values`].
    ///
    /// # Errors
    /// [`DiceError::DiceCount`] or [`DiceError::Sides`] outside the limits.
    pub fn pool(&mut self, count: u32, sides: u32, label: &str) -> Result<Roll, DiceError> {
        Ok(self.roll(&DiceExpr::pool(count, sides)?, label))
    }

    /// The rolls made since the last [`DiceRoller::take_rolls`], oldest first.
    #[must_use]
    pub fn pending_rolls(&self) -> &[Roll] {
        &self.pending
    }

    /// Drains the recorded rolls (the game log calls this after each action).
    pub fn take_rolls(&mut self) -> Vec<Roll> {
        std::mem::take(&mut self.pending)
    }
}

/// Marks which dice are kept. Ties go to the die rolled first, so the choice is deterministic.
fn mark_kept(dice: &mut [DieResult], keep: Keep) {
    let mut order: Vec<usize> = (0..dice.len()).collect();
    match keep {
        Keep::Highest(_) => order.sort_by_key(|&i| (std::cmp::Reverse(dice[i].value), i)),
        Keep::Lowest(_) => order.sort_by_key(|&i| (dice[i].value, i)),
    }
    for (rank, &i) in order.iter().enumerate() {
        dice[i].kept = rank < keep.count() as usize;
    }
}
