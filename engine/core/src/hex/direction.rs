//! The six directions and facings, with one numbering used everywhere (Rust, Lua, editor).
//!
//! Directions are numbered `0..6` **clockwise** as seen on screen (y grows downwards), starting
//! from "up" in the flat-top layout. Their names are those of the flat-top layout, the default
//! way boards are drawn. The pointy-top layout draws the same grid turned 30 degrees
//! counter-clockwise: the numbering, the axial vectors and "clockwise" stay exactly the same,
//! only the picture turns (`N` is then drawn towards the upper left).
//!
//! ```text
//!         flat-top                        pointy-top
//!
//!          0 N                         0 N     1 NE
//!      5 NW    1 NE                        \   /
//!          hex                      5 NW -- hex -- 2 SE
//!      4 SW    2 SE                        /   \
//!          3 S                         4 SW    3 S
//! ```
//!
//! | index | name | axial `(dq, dr)` |
//! |------:|------|------------------|
//! | 0 | `N`  | `( 0, -1)` |
//! | 1 | `NE` | `(+1, -1)` |
//! | 2 | `SE` | `(+1,  0)` |
//! | 3 | `S`  | `( 0, +1)` |
//! | 4 | `SW` | `(-1, +1)` |
//! | 5 | `NW` | `(-1,  0)` |
//!
//! A *facing* is a direction. Hexside `i` of a hex is the side shared with its neighbour in
//! direction `i`; vertex `i` is the corner between hexside `i` and hexside `i + 1` (clockwise).

use serde::{Deserialize, Serialize};

/// One of the six hex directions, numbered clockwise from `N` (see the module docs).
///
/// Serialised as its index `0..=5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
#[repr(u8)]
pub enum Direction {
    /// 0: up. Axial `(0, -1)`.
    N = 0,
    /// 1: upper right. Axial `(+1, -1)`.
    NE = 1,
    /// 2: lower right. Axial `(+1, 0)`.
    SE = 2,
    /// 3: down. Axial `(0, +1)`.
    S = 3,
    /// 4: lower left. Axial `(-1, +1)`.
    SW = 4,
    /// 5: upper left. Axial `(-1, 0)`.
    NW = 5,
}

/// Which way to turn or walk around a centre: clockwise or counter-clockwise (as seen on screen).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Turn {
    /// Clockwise: direction indices increase.
    Clockwise,
    /// Counter-clockwise: direction indices decrease.
    CounterClockwise,
}

impl Turn {
    /// The other way round.
    #[must_use]
    pub const fn reverse(self) -> Self {
        match self {
            Turn::Clockwise => Turn::CounterClockwise,
            Turn::CounterClockwise => Turn::Clockwise,
        }
    }

    /// `+1` for clockwise, `-1` for counter-clockwise.
    #[must_use]
    pub const fn sign(self) -> i32 {
        match self {
            Turn::Clockwise => 1,
            Turn::CounterClockwise => -1,
        }
    }
}

impl Direction {
    /// All six directions in index order (clockwise from `N`).
    pub const ALL: [Direction; 6] = [
        Direction::N,
        Direction::NE,
        Direction::SE,
        Direction::S,
        Direction::SW,
        Direction::NW,
    ];

    /// Axial offsets `(dq, dr)` indexed by direction.
    pub const VECTORS: [(i32, i32); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];

    /// The direction with index `i mod 6` (negative indices wrap too).
    #[must_use]
    pub const fn from_index(i: i32) -> Self {
        Self::ALL[i.rem_euclid(6) as usize]
    }

    /// The index `0..=5`.
    #[must_use]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// Short name: `"N"`, `"NE"`, `"SE"`, `"S"`, `"SW"`, `"NW"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Direction::N => "N",
            Direction::NE => "NE",
            Direction::SE => "SE",
            Direction::S => "S",
            Direction::SW => "SW",
            Direction::NW => "NW",
        }
    }

    /// Parses a short name (case-insensitive) as returned by [`Direction::name`].
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(name))
    }

    /// The axial offset `(dq, dr)` of one step in this direction.
    #[must_use]
    pub const fn vector(self) -> (i32, i32) {
        Self::VECTORS[self as usize]
    }

    /// Turns by `steps` hexsides (60 degrees each) the given way.
    #[must_use]
    pub const fn rotate(self, turn: Turn, steps: i32) -> Self {
        Self::from_index(self as i32 + turn.sign() * steps)
    }

    /// One hexside clockwise (a right turn).
    #[must_use]
    pub const fn right(self) -> Self {
        self.rotate(Turn::Clockwise, 1)
    }

    /// One hexside counter-clockwise (a left turn).
    #[must_use]
    pub const fn left(self) -> Self {
        self.rotate(Turn::CounterClockwise, 1)
    }

    /// The opposite direction.
    #[must_use]
    pub const fn opposite(self) -> Self {
        Self::from_index(self as i32 + 3)
    }

    /// Clockwise steps from `self` to `other`, in `0..=5`.
    #[must_use]
    pub const fn steps_clockwise_to(self, other: Direction) -> u8 {
        ((other as i32 - self as i32).rem_euclid(6)) as u8
    }

    /// The smallest number of hexside turns between two facings (`0..=3`), and which way.
    /// A half turn (3) is reported as clockwise.
    #[must_use]
    pub const fn turns_to(self, other: Direction) -> (u8, Turn) {
        let cw = self.steps_clockwise_to(other);
        if cw <= 3 {
            (cw, Turn::Clockwise)
        } else {
            (6 - cw, Turn::CounterClockwise)
        }
    }
}

impl From<Direction> for u8 {
    fn from(d: Direction) -> u8 {
        d as u8
    }
}

impl TryFrom<u8> for Direction {
    type Error = String;
    fn try_from(v: u8) -> Result<Self, Self::Error> {
        if v < 6 {
            Ok(Self::ALL[v as usize])
        } else {
            Err(format!("a direction is 0..=5, got {v}"))
        }
    }
}

impl std::fmt::Display for Direction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_wraps_both_ways() {
        assert_eq!(Direction::N.left(), Direction::NW);
        assert_eq!(Direction::NW.right(), Direction::N);
        assert_eq!(Direction::N.rotate(Turn::Clockwise, 7), Direction::NE);
        assert_eq!(
            Direction::N.rotate(Turn::CounterClockwise, 8),
            Direction::SW
        );
        for d in Direction::ALL {
            assert_eq!(d.opposite().opposite(), d);
            assert_eq!(d.right().left(), d);
        }
    }

    #[test]
    fn opposites_cancel() {
        for d in Direction::ALL {
            let (a, b) = d.vector();
            let (c, e) = d.opposite().vector();
            assert_eq!((a + c, b + e), (0, 0));
        }
    }

    #[test]
    fn turns_between_facings() {
        assert_eq!(Direction::N.turns_to(Direction::SE), (2, Turn::Clockwise));
        assert_eq!(
            Direction::N.turns_to(Direction::SW),
            (2, Turn::CounterClockwise)
        );
        assert_eq!(Direction::N.turns_to(Direction::S), (3, Turn::Clockwise));
        assert_eq!(Direction::S.turns_to(Direction::S), (0, Turn::Clockwise));
    }

    #[test]
    fn names_round_trip_and_serde_is_an_index() {
        for d in Direction::ALL {
            assert_eq!(Direction::from_name(d.name()), Some(d));
            assert_eq!(Direction::from_name(&d.name().to_lowercase()), Some(d));
        }
        assert_eq!(serde_json::to_string(&Direction::SW).unwrap(), "4");
        assert_eq!(
            serde_json::from_str::<Direction>("1").unwrap(),
            Direction::NE
        );
        assert!(serde_json::from_str::<Direction>("6").is_err());
    }
}
