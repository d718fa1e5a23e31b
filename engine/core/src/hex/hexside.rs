//! Hit location: through which hexside (or exactly through which corner) a line from the centre
//! of one hex enters another.
//!
//! Solar Flare picks the ship section hit from the side of the target the shot comes through;
//! [`relative_entry`] numbers those sides from the target's facing (0 = front, clockwise), so a
//! mod maps the number straight to a section.
//!
//! **What this module deliberately does not do:** it does not know about sections, shields or
//! facing rules, and it uses no floating point. The result is exact: a line that arrives exactly
//! through a corner is reported as [`Entry::Vertex`], never silently given to one side.
//!
//! ```
//! use hexforge_core::hex::{Direction, Hex};
//! use hexforge_core::hex::hexside::{entry_hexside, relative_entry, Entry, RelativeEntry};
//!
//! let target = Hex::new(0, 0);
//! // A shot from straight above enters through the target's N side.
//! assert_eq!(entry_hexside(Hex::new(0, -4), target), Some(Entry::Side(Direction::N)));
//! // From (3, 1) it comes through the SE side (the line clips (2, 0) on the way, see `trace`).
//! assert_eq!(entry_hexside(Hex::new(3, 1), target), Some(Entry::Side(Direction::SE)));
//! // From a diagonal it arrives exactly through the corner between N and NE.
//! assert_eq!(entry_hexside(Hex::new(1, -2), target), Some(Entry::Vertex(Direction::N, Direction::NE)));
//! // Relative to a target facing SE, its N side is number 4 (counting clockwise from the front).
//! assert_eq!(relative_entry(Hex::new(0, -4), target, Direction::SE), Some(RelativeEntry::Side(4)));
//! // A line has no entry side into its own hex.
//! assert_eq!(entry_hexside(target, target), None);
//! ```
//!
//! # Method
//! The segment enters `target` where the ray from the target's centre towards `from` leaves it.
//! With `d = from - target` and corner `i` at offset `c_i` (axial scaled by 3, see
//! [`super::trace`]), corner `i` is right of the ray iff `cross(d, c_i) > 0`. Going clockwise
//! round the hexagon, the ray leaves through side `i` when corner `i - 1` is left of it and corner
//! `i` right, or exactly through corner `i` when that corner is on it.

use super::{Direction, Hex};
use serde::{Deserialize, Serialize};

/// Where a line enters a hex, in absolute directions of that hex.
///
/// Serialised as `{"side": 2}` or `{"vertex": [0, 1]}` (direction indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Entry {
    /// Through the interior of this hexside.
    Side(Direction),
    /// Exactly through the corner between these two hexsides, the second clockwise from the
    /// first (a tie: the line runs along the hexside between the two neighbours on those sides).
    Vertex(Direction, Direction),
}

/// Where a line enters a hex, in hexside numbers relative to the hex's facing: `0` is the front
/// (the side the hex faces), numbered clockwise `0..=5`.
///
/// Serialised as `{"side": 0}` or `{"vertex": [5, 0]}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RelativeEntry {
    /// Through the interior of this side (`0` = front).
    Side(u8),
    /// Exactly through the corner between these two sides, the second clockwise from the first
    /// (so the front-left corner is `(5, 0)`).
    Vertex(u8, u8),
}

impl Entry {
    /// The same entry numbered relative to `facing` (0 = the side `facing` points through).
    #[must_use]
    pub const fn relative_to(self, facing: Direction) -> RelativeEntry {
        match self {
            Entry::Side(s) => RelativeEntry::Side(facing.steps_clockwise_to(s)),
            Entry::Vertex(a, b) => {
                RelativeEntry::Vertex(facing.steps_clockwise_to(a), facing.steps_clockwise_to(b))
            }
        }
    }

    /// Whether the line enters through (the interior or an end corner of) hexside `side`.
    #[must_use]
    pub fn touches_side(self, side: Direction) -> bool {
        match self {
            Entry::Side(s) => s == side,
            Entry::Vertex(a, b) => a == side || b == side,
        }
    }
}

/// Corner offsets in axial coordinates scaled by 3; corner `i` is between hexsides `i` and `i+1`.
const CORNERS: [(i64, i64); 6] = [(1, -2), (2, -1), (1, 1), (-1, 2), (-2, 1), (-1, -1)];

/// The hexside of `target` through which the segment from the centre of `from` to the centre
/// of `target` enters it (absolute directions). `None` when `from == target`: a line inside one
/// hex enters through no side.
#[must_use]
pub fn entry_hexside(from: Hex, target: Hex) -> Option<Entry> {
    let d = (
        i64::from(from.q) - i64::from(target.q),
        i64::from(from.r) - i64::from(target.r),
    );
    if d == (0, 0) {
        return None;
    }
    // |d| < 2^33 and the corners are tiny, so these products fit i64 exactly.
    let k = CORNERS.map(|(cq, cr)| d.0 * cr - d.1 * cq);
    (0..6).find_map(|i| {
        let before = k[(i + 5) % 6];
        if before >= 0 {
            None
        } else if k[i] > 0 {
            Some(Entry::Side(Direction::from_index(i as i32)))
        } else if k[i] == 0 {
            Some(Entry::Vertex(
                Direction::from_index(i as i32),
                Direction::from_index(i as i32 + 1),
            ))
        } else {
            None
        }
    })
}

/// [`entry_hexside`] numbered relative to the target's facing: `0` is the front, clockwise.
/// `None` when `from == target`.
#[must_use]
pub fn relative_entry(from: Hex, target: Hex, target_facing: Direction) -> Option<RelativeEntry> {
    entry_hexside(from, target).map(|e| e.relative_to(target_facing))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_enter_through_the_shared_side() {
        let t = Hex::new(-2, 5);
        for d in Direction::ALL {
            assert_eq!(entry_hexside(t.neighbor(d), t), Some(Entry::Side(d)));
            assert_eq!(entry_hexside(t.step(d, 7), t), Some(Entry::Side(d)));
        }
    }

    #[test]
    fn diagonals_enter_through_corners() {
        let t = Hex::new(0, 0);
        for d in Direction::ALL {
            let diag = t.neighbor(d).neighbor(d.right());
            assert_eq!(entry_hexside(diag, t), Some(Entry::Vertex(d, d.right())));
        }
    }

    #[test]
    fn relative_numbering_counts_clockwise_from_the_front() {
        let t = Hex::new(0, 0);
        assert_eq!(
            relative_entry(Hex::new(0, -3), t, Direction::N),
            Some(RelativeEntry::Side(0))
        );
        assert_eq!(
            relative_entry(Hex::new(0, 3), t, Direction::N),
            Some(RelativeEntry::Side(3))
        );
        assert_eq!(
            relative_entry(Hex::new(3, 0), t, Direction::SE),
            Some(RelativeEntry::Side(0))
        );
        assert_eq!(
            relative_entry(Hex::new(0, -3), t, Direction::SE),
            Some(RelativeEntry::Side(4))
        );
        // The corner between NW and N, seen from a target facing N, is the front-left corner.
        assert_eq!(
            relative_entry(Hex::new(-1, -1), t, Direction::N),
            Some(RelativeEntry::Vertex(5, 0))
        );
        assert_eq!(relative_entry(t, t, Direction::N), None);
    }

    #[test]
    fn extreme_coordinates_do_not_overflow() {
        let e = entry_hexside(Hex::new(i32::MIN, i32::MAX), Hex::new(i32::MAX, i32::MIN));
        assert!(e.is_some());
        assert_eq!(
            entry_hexside(Hex::new(i32::MAX, 0), Hex::new(i32::MIN, 0)),
            Some(Entry::Side(Direction::SE))
        );
    }

    #[test]
    fn serde_shape() {
        assert_eq!(
            serde_json::to_string(&Entry::Side(Direction::SE)).unwrap(),
            r#"{"side":2}"#
        );
        assert_eq!(
            serde_json::to_string(&RelativeEntry::Vertex(5, 0)).unwrap(),
            r#"{"vertex":[5,0]}"#
        );
    }
}
