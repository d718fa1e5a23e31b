//! Rings, spirals, filled ranges, orbit steps and straight rows of hexes.
//!
//! Every shape here is a deterministic sequence of [`Hex`]es with a documented start and order,
//! so that mods, replays and the editor all see the same hexes in the same order:
//!
//! - [`ring`]: the `6 * radius` hexes at exactly `radius`, from a chosen corner, walking a chosen
//!   way round.
//! - [`spiral`]: the centre, then ring 1, ring 2, ... (nearest first).
//! - [`range`]: every hex within `radius`, in ascending [`Hex`] order (fast; for "all hexes in
//!   range" questions where the order does not matter to the rules). [`range_count`] counts them.
//! - [`orbit_step`]: the next hex round a centre at the same distance (orbits around planets).
//! - [`row`]: `k` hexes in a straight line from a start (hyperspace corridors, straight moves).
//!
//! **This module deliberately knows nothing of boards or terrain**: shapes are unbounded and
//! clipping them to a map is the caller's job (see `crate::board`).
//!
//! Radii and lengths are `i32` like coordinates; a negative radius or length gives an empty shape.
//! The arithmetic is plain `i32`, as in [`Hex`]: shapes whose hexes would leave the `i32` range
//! overflow, so keep boards well inside it (the script layer should bound coordinates and radii),
//! and remember a range of radius `R` holds `3R(R+1)+1` hexes.
//!
//! ```
//! use hexforge_core::hex::shapes::{orbit_step, range, range_count, ring};
//! use hexforge_core::hex::{Direction, Hex, Turn};
//!
//! let planet = Hex::new(2, 3);
//! // The ring of radius 1 starting north of the planet, clockwise: N, NE, SE, S, SW, NW.
//! let ring1: Vec<Hex> = ring(planet, 1, Direction::N, Turn::Clockwise).collect();
//! assert_eq!(ring1, planet.neighbors().to_vec());
//!
//! // A ship in orbit moves one hex clockwise each turn.
//! let ship = planet.neighbor(Direction::N);
//! assert_eq!(orbit_step(planet, ship, Turn::Clockwise), planet.neighbor(Direction::NE));
//!
//! assert_eq!(range(planet, 2).count(), 19);
//! assert_eq!(range_count(2), 19);
//! ```

use super::{Direction, Hex, Turn};

/// The hexes at exactly `radius` from `center`, walking once round.
///
/// The walk starts at the corner hex `center.step(start, radius)` and goes `turn` round the
/// centre (clockwise: from the `N` corner towards the `NE` corner), ending next to where it
/// started. It yields `6 * radius` hexes; radius 0 yields just `center`; a negative radius yields
/// nothing.
///
/// ```
/// use hexforge_core::hex::shapes::ring;
/// use hexforge_core::hex::{Direction, Hex, Turn};
///
/// let r: Vec<Hex> = ring(Hex::ORIGIN, 2, Direction::N, Turn::CounterClockwise).take(3).collect();
/// // From the N corner (0,-2) towards the NW corner (-2,0).
/// assert_eq!(r, [Hex::new(0, -2), Hex::new(-1, -1), Hex::new(-2, 0)]);
/// ```
#[must_use]
pub fn ring(center: Hex, radius: i32, start: Direction, turn: Turn) -> Ring {
    Ring::new(center, radius, start, turn)
}

/// Iterator over one ring of hexes; see [`ring`].
#[derive(Clone, Debug)]
pub struct Ring {
    /// The next hex to yield.
    current: Hex,
    /// The six edge walks, in the order they are taken.
    walks: [(i32, i32); 6],
    /// Index into `walks` of the current edge.
    edge: usize,
    /// Side length (the radius).
    radius: i32,
    /// Hexes already walked along the current edge.
    along: i32,
    /// Hexes still to yield.
    remaining: usize,
}

impl Ring {
    fn new(center: Hex, radius: i32, start: Direction, turn: Turn) -> Self {
        let remaining = match radius {
            r if r < 0 => 0,
            0 => 1,
            r => 6 * r as usize,
        };
        // Walking clockwise from the corner in direction `start`, the first edge runs in direction
        // `start + 2` (e.g. from the N corner towards the NE corner is a SE walk), and each
        // corner turns one more step clockwise; counter-clockwise mirrors this (`start - 2`, ...).
        let first = start.rotate(turn, 2);
        Ring {
            current: center.step(start, radius.max(0)),
            walks: [0, 1, 2, 3, 4, 5].map(|i| first.rotate(turn, i).vector()),
            edge: 0,
            radius,
            along: 0,
            remaining,
        }
    }
}

impl Iterator for Ring {
    type Item = Hex;

    #[inline]
    fn next(&mut self) -> Option<Hex> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let out = self.current;
        // `edge` is at most 5 here: it reaches 6 only after the last hex has been taken.
        let (dq, dr) = self.walks[self.edge % 6];
        self.current = Hex::new(out.q + dq, out.r + dr);
        self.along += 1;
        if self.along == self.radius {
            self.along = 0;
            self.edge += 1;
        }
        Some(out)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for Ring {}
impl std::iter::FusedIterator for Ring {}

/// The centre, then the rings of radius 1, 2, ..., `radius`, each walked as [`ring`] walks it
/// (from the `start` corner, going `turn`). Yields [`range_count`]`(radius)` hexes, nearest
/// first.
///
/// ```
/// use hexforge_core::hex::shapes::spiral;
/// use hexforge_core::hex::{Direction, Hex, Turn};
///
/// let s: Vec<Hex> = spiral(Hex::ORIGIN, 2, Direction::S, Turn::Clockwise).collect();
/// assert_eq!(s.len(), 19);
/// assert_eq!(s[0], Hex::ORIGIN);
/// assert_eq!(s[1], Hex::new(0, 1)); // ring 1 starts at the S neighbour
/// assert_eq!(s[7], Hex::new(0, 2)); // ring 2 starts at the S corner
/// ```
pub fn spiral(
    center: Hex,
    radius: i32,
    start: Direction,
    turn: Turn,
) -> impl Iterator<Item = Hex> + Clone {
    (0..=radius).flat_map(move |k| ring(center, k, start, turn))
}

/// Number of hexes within `radius` (inclusive) of a hex: `3 * radius * (radius + 1) + 1`.
/// Zero for a negative radius.
#[must_use]
pub const fn range_count(radius: i32) -> u64 {
    if radius < 0 {
        0
    } else {
        let r = radius as u64;
        3 * r * (r + 1) + 1
    }
}

/// Every hex within `radius` of `center` (the filled hexagon), in ascending [`Hex`] order:
/// by `q`, then by `r`. Translating the centre keeps this order, so the output is sorted and
/// can be binary-searched. Negative radius: nothing.
///
/// ```
/// use hexforge_core::hex::shapes::range;
/// use hexforge_core::hex::Hex;
///
/// let hexes: Vec<Hex> = range(Hex::new(10, 10), 1).collect();
/// assert_eq!(hexes, [
///     Hex::new(9, 10), Hex::new(9, 11),
///     Hex::new(10, 9), Hex::new(10, 10), Hex::new(10, 11),
///     Hex::new(11, 9), Hex::new(11, 10),
/// ]);
/// assert!(hexes.windows(2).all(|w| w[0] < w[1]));
/// ```
#[must_use]
pub fn range(center: Hex, radius: i32) -> Range {
    Range::new(center, radius)
}

/// Iterator over a filled hexagon of hexes; see [`range`].
#[derive(Clone, Debug)]
pub struct Range {
    center: Hex,
    radius: i32,
    /// Current column, relative to the centre.
    q: i32,
    /// Next row in the current column, relative to the centre.
    r: i32,
    /// Last row in the current column (inclusive).
    r_end: i32,
    remaining: usize,
}

impl Range {
    fn new(center: Hex, radius: i32) -> Self {
        let radius_ok = radius.max(0);
        // Column q = -radius runs r = 0..=radius.
        Range {
            center,
            radius,
            q: -radius_ok,
            r: 0,
            r_end: radius_ok,
            remaining: usize::try_from(range_count(radius)).unwrap_or(usize::MAX),
        }
    }
}

impl Iterator for Range {
    type Item = Hex;

    #[inline]
    fn next(&mut self) -> Option<Hex> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        if self.r > self.r_end {
            // Next column: r from max(-R, -q-R) to min(R, -q+R).
            self.q += 1;
            self.r = (-self.radius).max(-self.q - self.radius);
            self.r_end = self.radius.min(self.radius - self.q);
        }
        let out = Hex::new(self.center.q + self.q, self.center.r + self.r);
        self.r += 1;
        Some(out)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for Range {}
impl std::iter::FusedIterator for Range {}

/// The next hex round `center` at the same distance, one step `turn`-wise: the move of a ship in
/// orbit. Repeating it walks the whole ring (`6 * radius` steps) back to the start, in the same
/// order as [`ring`]. At radius 0 (`hex == center`) the hex itself is returned.
///
/// ```
/// use hexforge_core::hex::shapes::orbit_step;
/// use hexforge_core::hex::{Hex, Turn};
///
/// let sun = Hex::ORIGIN;
/// // At radius 2, from the NE corner clockwise is one step S along the ring.
/// assert_eq!(orbit_step(sun, Hex::new(2, -2), Turn::Clockwise), Hex::new(2, -1));
/// assert_eq!(orbit_step(sun, Hex::new(2, -1), Turn::CounterClockwise), Hex::new(2, -2));
/// assert_eq!(orbit_step(sun, sun, Turn::Clockwise), sun);
/// ```
#[must_use]
pub fn orbit_step(center: Hex, hex: Hex, turn: Turn) -> Hex {
    let v = hex - center;
    let d = v.length();
    if d == 0 {
        return hex;
    }
    let sign = turn.sign();
    // The ring is six edges; the edge that starts at corner d*dir[i] (inclusive) and walks
    // dir[i + 2*sign] for d steps (end corner exclusive). Exactly one edge holds v.
    for i in 0..6 {
        let corner = Hex::unit(Direction::from_index(i)) * d;
        let walk = Hex::unit(Direction::from_index(i + 2 * sign));
        let along = v - corner;
        let k = along.length();
        if k < d && walk * k == along {
            return hex + walk;
        }
    }
    // Unreachable for any hex at distance d >= 1 (the six edges cover the ring); returning the
    // hex unchanged keeps this total without a panic.
    hex
}

/// The `k` hexes in a straight line from `from`, not including `from`: `from + dir`,
/// `from + 2*dir`, ..., `from + k*dir`. Nothing for `k <= 0`.
///
/// ```
/// use hexforge_core::hex::shapes::row;
/// use hexforge_core::hex::{Direction, Hex};
///
/// let corridor: Vec<Hex> = row(Hex::ORIGIN, Direction::SE, 3).collect();
/// assert_eq!(corridor, [Hex::new(1, 0), Hex::new(2, 0), Hex::new(3, 0)]);
/// ```
pub fn row(from: Hex, dir: Direction, k: i32) -> impl ExactSizeIterator<Item = Hex> + Clone {
    // `1..=k` is not ExactSizeIterator for i32, `0..k` is.
    (0..k.max(0)).map(move |i| from.step(dir, i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn ship_next_to_a_planet_orbits_clockwise_through_all_six_neighbours() {
        let planet = Hex::new(-4, 7);
        let start = planet.neighbor(Direction::SW);
        let mut at = start;
        let mut visited = Vec::new();
        for _ in 0..6 {
            at = orbit_step(planet, at, Turn::Clockwise);
            visited.push(at);
        }
        assert_eq!(at, start);
        let expected: Vec<Hex> = [Direction::NW, Direction::N, Direction::NE, Direction::SE]
            .into_iter()
            .chain([Direction::S, Direction::SW])
            .map(|d| planet.neighbor(d))
            .collect();
        assert_eq!(visited, expected);
    }

    #[test]
    fn orbit_at_radius_three_takes_eighteen_steps() {
        let planet = Hex::new(3, -1);
        for turn in [Turn::Clockwise, Turn::CounterClockwise] {
            let start = planet + Hex::new(1, -3);
            let mut at = start;
            let mut seen = BTreeSet::new();
            for step in 1..=18 {
                at = orbit_step(planet, at, turn);
                assert_eq!(planet.distance(at), 3);
                seen.insert(at);
                assert_eq!(
                    at == start,
                    step == 18,
                    "back at the start only after 18 steps"
                );
            }
            assert_eq!(seen.len(), 18);
        }
    }

    #[test]
    fn orbit_step_follows_ring_order_and_reverses() {
        let c = Hex::new(1, 2);
        for radius in 1..6 {
            for start in Direction::ALL {
                for turn in [Turn::Clockwise, Turn::CounterClockwise] {
                    let r: Vec<Hex> = ring(c, radius, start, turn).collect();
                    for i in 0..r.len() {
                        let next = r[(i + 1) % r.len()];
                        assert_eq!(orbit_step(c, r[i], turn), next);
                        assert_eq!(orbit_step(c, next, turn.reverse()), r[i]);
                    }
                }
            }
        }
    }

    #[test]
    fn ring_radius_one_clockwise_is_neighbour_order() {
        for start in Direction::ALL {
            let r: Vec<Hex> = ring(Hex::ORIGIN, 1, start, Turn::Clockwise).collect();
            let expected: Vec<Hex> = (0..6)
                .map(|i| Hex::unit(start.rotate(Turn::Clockwise, i)))
                .collect();
            assert_eq!(r, expected);
            let r: Vec<Hex> = ring(Hex::ORIGIN, 1, start, Turn::CounterClockwise).collect();
            let expected: Vec<Hex> = (0..6)
                .map(|i| Hex::unit(start.rotate(Turn::CounterClockwise, i)))
                .collect();
            assert_eq!(r, expected);
        }
    }

    #[test]
    fn ring_walks_adjacent_hexes_and_closes() {
        let c = Hex::new(-2, 5);
        for radius in 1..8 {
            for start in Direction::ALL {
                for turn in [Turn::Clockwise, Turn::CounterClockwise] {
                    let r: Vec<Hex> = ring(c, radius, start, turn).collect();
                    assert_eq!(r.len(), 6 * radius as usize);
                    assert_eq!(r[0], c.step(start, radius));
                    assert!(r.iter().all(|h| c.distance(*h) == radius));
                    let set: BTreeSet<Hex> = r.iter().copied().collect();
                    assert_eq!(set.len(), r.len());
                    for i in 0..r.len() {
                        assert_eq!(r[i].distance(r[(i + 1) % r.len()]), 1);
                    }
                }
            }
        }
    }

    #[test]
    fn ring_corner_cases() {
        let c = Hex::new(4, 4);
        assert_eq!(
            ring(c, 0, Direction::S, Turn::Clockwise).collect::<Vec<_>>(),
            [c]
        );
        assert_eq!(ring(c, -1, Direction::S, Turn::Clockwise).count(), 0);
        assert_eq!(ring(c, 5, Direction::S, Turn::Clockwise).len(), 30);
        assert_eq!(range(c, -3).count(), 0);
        assert_eq!(range_count(-3), 0);
        assert_eq!(range(c, 0).collect::<Vec<_>>(), [c]);
        assert_eq!(spiral(c, -1, Direction::N, Turn::Clockwise).count(), 0);
        assert_eq!(row(c, Direction::N, 0).count(), 0);
        assert_eq!(row(c, Direction::N, -2).count(), 0);
    }

    #[test]
    fn range_is_sorted_complete_and_exact_sized() {
        let c = Hex::new(7, -3);
        for radius in 0..9 {
            let it = range(c, radius);
            assert_eq!(it.len() as u64, range_count(radius));
            let v: Vec<Hex> = it.collect();
            assert_eq!(v.len() as u64, range_count(radius));
            assert!(v.windows(2).all(|w| w[0] < w[1]));
            assert!(v.iter().all(|h| c.distance(*h) <= radius));
        }
        assert_eq!(range_count(10), 331);
    }

    #[test]
    fn spiral_is_centre_then_rings() {
        let c = Hex::new(0, 3);
        let s: Vec<Hex> = spiral(c, 3, Direction::NE, Turn::CounterClockwise).collect();
        let mut expected = vec![c];
        for k in 1..=3 {
            expected.extend(ring(c, k, Direction::NE, Turn::CounterClockwise));
        }
        assert_eq!(s, expected);
        assert_eq!(s.len() as u64, range_count(3));
    }

    #[test]
    fn row_excludes_start_and_ends_k_away() {
        let from = Hex::new(2, 2);
        let v: Vec<Hex> = row(from, Direction::NW, 4).collect();
        assert_eq!(v.len(), 4);
        assert_eq!(v[0], from.neighbor(Direction::NW));
        assert_eq!(v[3], from.step(Direction::NW, 4));
        assert!(!v.contains(&from));
    }
}
