//! The state's dice: the core's seeded [`DiceRoller`], plus the small interface the turn engine
//! and Rust test rules use.
//!
//! All randomness in a game goes through the roller stored in [`crate::GameState::dice`]; every
//! roll is recorded as a [`Roll`] and drained into the action's [`crate::LogEntry`]. The roller
//! is plain serialisable data (seed + stream position), so cloning the state clones the dice and
//! a failed action's rolls vanish with the discarded clone.
//!
//! This module deliberately adds no randomness of its own: notation, pools and odds are the
//! core's (`hexforge_core::dice`).
//!
//! ```
//! use hexforge_game::{DiceRoller, DiceSource};
//! let mut a = DiceRoller::new(42);
//! let mut b = DiceRoller::new(42);
//! assert_eq!(a.roll_die(6, "hit"), b.roll_die(6, "hit"));
//! assert_eq!(a.drain_rolls().len(), 1);
//! ```

pub use hexforge_core::dice::{DiceRoller, Roll};

/// What the turn engine needs from a dice roller: one labelled die at a time, and the log.
pub trait DiceSource {
    /// Rolls one die with `sides` faces (`0` is treated as `1`), returning `1..=sides`, and
    /// records the roll.
    fn roll_die(&mut self, sides: u32, label: &str) -> u32;
    /// Takes the rolls recorded since the last drain, oldest first.
    fn drain_rolls(&mut self) -> Vec<Roll>;
}

impl DiceSource for DiceRoller {
    fn roll_die(&mut self, sides: u32, label: &str) -> u32 {
        let sides = sides.clamp(1, hexforge_core::dice::MAX_SIDES);
        match self.pool(1, sides, label) {
            Ok(roll) => roll.total as u32,
            // Unreachable: one die with sides clamped into the core's limits is always valid.
            Err(_) => 1,
        }
    }

    fn drain_rolls(&mut self) -> Vec<Roll> {
        self.take_rolls()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolls_are_in_range_cover_all_faces_and_are_logged() {
        let mut d = DiceRoller::new(7);
        let mut seen = [false; 6];
        for _ in 0..600 {
            let v = d.roll_die(6, "t");
            assert!((1..=6).contains(&v));
            seen[(v - 1) as usize] = true;
        }
        assert!(seen.iter().all(|s| *s));
        let rolls = d.drain_rolls();
        assert_eq!(rolls.len(), 600);
        assert_eq!(rolls[0].label, "t");
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
