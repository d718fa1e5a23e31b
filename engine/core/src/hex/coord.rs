//! Axial hex coordinates.
//!
//! A [`Hex`] is `(q, r)` in axial coordinates; the implied third cube coordinate is
//! `s = -q - r`. Axial coordinates make neighbours, distance and rotation a few integer
//! additions, and every rule question in the engine is answered in exact integers.
//!
//! ```
//! use hexforge_core::hex::{Direction, Hex};
//!
//! let a = Hex::new(0, 0);
//! let b = a.neighbor(Direction::SE).neighbor(Direction::SE).neighbor(Direction::S);
//! assert_eq!(b, Hex::new(2, 1));
//! assert_eq!(a.distance(b), 3);
//! assert_eq!(a.direction_to(a.neighbor(Direction::NW)), Some(Direction::NW));
//! ```

use super::{Direction, Turn};
use serde::{Deserialize, Serialize};
use std::ops::{Add, Mul, Neg, Sub};

/// A hex in axial coordinates. Serialised as `{"q": .., "r": ..}`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Hex {
    /// Column axis (towards `SE`).
    pub q: i32,
    /// Row axis (towards `S`).
    pub r: i32,
}

impl Hex {
    /// The origin `(0, 0)`.
    pub const ORIGIN: Hex = Hex { q: 0, r: 0 };

    /// A hex from axial coordinates.
    #[must_use]
    pub const fn new(q: i32, r: i32) -> Self {
        Hex { q, r }
    }

    /// The third cube coordinate, `-q - r`.
    #[must_use]
    #[inline]
    pub const fn s(self) -> i32 {
        -self.q - self.r
    }

    /// The unit step in a direction, as a hex offset.
    #[must_use]
    #[inline]
    pub const fn unit(d: Direction) -> Self {
        let (q, r) = d.vector();
        Hex { q, r }
    }

    /// Distance from the origin in hex steps.
    #[must_use]
    #[inline]
    pub const fn length(self) -> i32 {
        (self.q.abs() + self.r.abs() + self.s().abs()) / 2
    }

    /// Distance in hex steps (the number of moves between the two hexes).
    #[must_use]
    #[inline]
    pub const fn distance(self, other: Hex) -> i32 {
        Hex::new(self.q - other.q, self.r - other.r).length()
    }

    /// The adjacent hex in direction `d`.
    #[must_use]
    #[inline]
    pub const fn neighbor(self, d: Direction) -> Self {
        let (dq, dr) = d.vector();
        Hex::new(self.q + dq, self.r + dr)
    }

    /// The hex `k` steps away in direction `d` (k may be 0 or negative).
    #[must_use]
    #[inline]
    pub const fn step(self, d: Direction, k: i32) -> Self {
        let (dq, dr) = d.vector();
        Hex::new(self.q + dq * k, self.r + dr * k)
    }

    /// The six neighbours, in direction order.
    #[must_use]
    pub fn neighbors(self) -> [Hex; 6] {
        Direction::ALL.map(|d| self.neighbor(d))
    }

    /// The direction from `self` to `other` if they are adjacent.
    #[must_use]
    pub fn direction_to(self, other: Hex) -> Option<Direction> {
        let delta = other - self;
        Direction::ALL.into_iter().find(|&d| Hex::unit(d) == delta)
    }

    /// If `other` lies on one of the six straight lines from `self`, the direction and the number
    /// of steps. `None` for `self` itself and for hexes off those lines.
    #[must_use]
    pub fn straight_line_to(self, other: Hex) -> Option<(Direction, i32)> {
        let delta = other - self;
        let n = delta.length();
        if n == 0 {
            return None;
        }
        Direction::ALL
            .into_iter()
            .find(|&d| Hex::unit(d) * n == delta)
            .map(|d| (d, n))
    }

    /// Rotates this hex about `center` by `steps` sixth-turns the given way.
    #[must_use]
    pub const fn rotate_around(self, center: Hex, turn: Turn, steps: i32) -> Self {
        let mut v = Hex::new(self.q - center.q, self.r - center.r);
        let n = (steps * turn.sign()).rem_euclid(6);
        let mut i = 0;
        while i < n {
            // One clockwise sixth-turn in cube coordinates: (q, r, s) -> (-r, -s, -q).
            v = Hex::new(-v.r, -v.s());
            i += 1;
        }
        Hex::new(center.q + v.q, center.r + v.r)
    }

    /// Mirror image across the line through the origin along `N`/`S` (q axis flipped):
    /// `(q, r, s) -> (-q, -s, -r)`.
    #[must_use]
    pub const fn reflect_q(self) -> Self {
        Hex::new(-self.q, -self.s())
    }
}

impl Add for Hex {
    type Output = Hex;
    fn add(self, o: Hex) -> Hex {
        Hex::new(self.q + o.q, self.r + o.r)
    }
}

impl Sub for Hex {
    type Output = Hex;
    fn sub(self, o: Hex) -> Hex {
        Hex::new(self.q - o.q, self.r - o.r)
    }
}

impl Neg for Hex {
    type Output = Hex;
    fn neg(self) -> Hex {
        Hex::new(-self.q, -self.r)
    }
}

impl Mul<i32> for Hex {
    type Output = Hex;
    fn mul(self, k: i32) -> Hex {
        Hex::new(self.q * k, self.r * k)
    }
}

impl From<(i32, i32)> for Hex {
    fn from((q, r): (i32, i32)) -> Self {
        Hex::new(q, r)
    }
}

impl std::fmt::Display for Hex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.q, self.r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_are_at_distance_one_and_know_their_direction() {
        let h = Hex::new(3, -7);
        for d in Direction::ALL {
            let n = h.neighbor(d);
            assert_eq!(h.distance(n), 1);
            assert_eq!(h.direction_to(n), Some(d));
            assert_eq!(n.direction_to(h), Some(d.opposite()));
        }
        assert_eq!(h.direction_to(h), None);
        assert_eq!(h.direction_to(h.step(Direction::N, 2)), None);
    }

    #[test]
    fn rotation_by_one_step_moves_a_unit_vector_to_the_next_direction() {
        for d in Direction::ALL {
            let rotated = Hex::unit(d).rotate_around(Hex::ORIGIN, Turn::Clockwise, 1);
            assert_eq!(rotated, Hex::unit(d.right()));
            let back = Hex::unit(d).rotate_around(Hex::ORIGIN, Turn::CounterClockwise, 1);
            assert_eq!(back, Hex::unit(d.left()));
        }
        let c = Hex::new(5, 5);
        let p = Hex::new(7, 4);
        assert_eq!(p.rotate_around(c, Turn::Clockwise, 6), p);
        assert_eq!(
            p.rotate_around(c, Turn::Clockwise, 2),
            p.rotate_around(c, Turn::CounterClockwise, 4)
        );
    }

    #[test]
    fn straight_lines() {
        let a = Hex::new(1, 1);
        assert_eq!(
            a.straight_line_to(a.step(Direction::SW, 4)),
            Some((Direction::SW, 4))
        );
        assert_eq!(a.straight_line_to(Hex::new(3, 2)), None);
        assert_eq!(a.straight_line_to(a), None);
    }

    #[test]
    fn serde_shape_is_q_r() {
        assert_eq!(
            serde_json::to_string(&Hex::new(2, -1)).unwrap(),
            r#"{"q":2,"r":-1}"#
        );
    }
}
