//! The state's dice roller: a stand-in until `hexforge_core::dice::DiceRoller` is merged.
//!
//! All randomness in a game goes through the roller stored in [`crate::GameState::dice`]; every
//! roll is recorded as a [`Roll`] and drained into the action's [`crate::LogEntry`]. The roller
//! is plain serialisable data (seed + position), so cloning the state clones the dice and a
//! failed action's rolls vanish with the discarded clone.
//!
//! This module deliberately does not parse dice notation or compute odds (that is the core's
//! job); it only produces uniform integers in `1..=sides`.
//!
//! ```
//! use hexforge_game::{DiceRoller, DiceSource};
//! let mut a = DiceRoller::new(42);
//! let mut b = DiceRoller::new(42);
//! assert_eq!(a.roll_die(6, "hit"), b.roll_die(6, "hit"));
//! assert_eq!(a.drain_rolls().len(), 1);
//! ```

use serde::{Deserialize, Serialize};

/// One recorded die roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    /// What the roll was for (free text from the rules, e.g. `"to hit"`).
    pub label: String,
    /// Number of faces.
    pub sides: u32,
    /// The face rolled, `1..=sides`.
    pub value: u32,
}

/// The interface the game crate needs from a dice roller. The real core roller implements this
/// (or the lead swaps [`DiceRoller`] for it in this one place).
pub trait DiceSource {
    /// Rolls one die with `sides` faces (`0` is treated as `1`), returning `1..=sides`, and
    /// records the roll.
    fn roll_die(&mut self, sides: u32, label: &str) -> u32;
    /// Takes the rolls recorded since the last drain, oldest first.
    fn drain_rolls(&mut self) -> Vec<Roll>;
}

// TODO(lead): replace with hexforge_core::dice::DiceRoller when merged.
/// Placeholder seeded roller: SplitMix64 over `(seed, position)`.
///
/// Counter-based so that the state is just two integers and a roll never depends on anything
/// but the seed and how many rolls came before.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceRoller {
    /// The game seed.
    pub seed: u64,
    /// How many numbers have been drawn so far.
    pub position: u64,
    /// Rolls made since the last [`DiceSource::drain_rolls`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending: Vec<Roll>,
}

impl DiceRoller {
    /// A fresh roller for a seed.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        DiceRoller {
            seed,
            position: 0,
            pending: Vec::new(),
        }
    }

    fn next_u64(&mut self) -> u64 {
        // SplitMix64 finaliser applied to seed + position * golden gamma.
        let mut z = self.seed.wrapping_add(
            self.position
                .wrapping_add(1)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        self.position = self.position.wrapping_add(1);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl DiceSource for DiceRoller {
    fn roll_die(&mut self, sides: u32, label: &str) -> u32 {
        let sides = sides.max(1);
        // Widening multiply maps 64 random bits onto 1..=sides (bias below 2^-32).
        let value = ((u128::from(self.next_u64()) * u128::from(sides)) >> 64) as u32 + 1;
        self.pending.push(Roll {
            label: label.to_owned(),
            sides,
            value,
        });
        value
    }

    fn drain_rolls(&mut self) -> Vec<Roll> {
        std::mem::take(&mut self.pending)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolls_are_in_range_and_cover_all_faces() {
        let mut d = DiceRoller::new(7);
        let mut seen = [false; 6];
        for _ in 0..600 {
            let v = d.roll_die(6, "t");
            assert!((1..=6).contains(&v));
            seen[(v - 1) as usize] = true;
        }
        assert!(seen.iter().all(|s| *s));
        assert_eq!(d.drain_rolls().len(), 600);
        assert!(d.drain_rolls().is_empty());
    }

    #[test]
    fn different_seeds_differ_and_zero_sides_is_one() {
        let mut a = DiceRoller::new(1);
        let mut b = DiceRoller::new(2);
        let ra: Vec<u32> = (0..20).map(|_| a.roll_die(100, "")).collect();
        let rb: Vec<u32> = (0..20).map(|_| b.roll_die(100, "")).collect();
        assert_ne!(ra, rb);
        assert_eq!(a.roll_die(0, ""), 1);
    }
}
