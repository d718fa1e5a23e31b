//! Beam arcs: the 60-degree fire arc "across" one hexside of the firing hex.
//!
//! Solar Flare: "Beam weapons have a 60 degree arc of fire across the hexagon face relating to the
//! section it is installed in." The arc across hexside `i` is the cone between the two rays that
//! start at the centre of the firing hex and pass through the two ends of hexside `i` (vertex
//! `i - 1` and vertex `i`, see [`super::direction`]). Each ray passes exactly through the centres
//! of the *diagonal* hexes `k * (dir[i-1] + dir[i])` and `k * (dir[i] + dir[i+1])`, and runs
//! along the hexsides between them. For hexside `N` these are `k * (-1, -1)` and `k * (1, -2)`:
//!
//! ```text
//!        (-1,-1)   (0,-2)   (1,-2)        range 2: 3 hexes (two on the boundary rays)
//!             \     (0,-1)    /           range 1: 1 hex, N
//!              \      |      /
//!                  origin
//! ```
//!
//! A target is [`ArcPosition::Inside`] when its centre is strictly inside the cone,
//! [`ArcPosition::Boundary`] when its centre lies exactly on one of the two rays (such a hex is in
//! two adjacent arcs; the rules of the mod decide what that means) and
//! [`ArcPosition::Outside`] otherwise. **The firing hex itself is `Outside` every arc**: a line of
//! attack from a hex centre to the same centre has no direction.
//!
//! Membership is decided exactly with integer cross products. The map from axial `(q, r)` to
//! screen pixels is linear, so the side of a ray a point is on can be computed in axial
//! coordinates (the `sqrt(3)` of the pixel basis cancels); the vertex rays have the integer
//! direction vectors `dir[i] + dir[i+1]` (the vertex itself is a third of that).
//!
//! **This module does not trace the line of attack** (blocking by planets, ships, nebulae is the
//! line trace's job, `super::trace`) and knows nothing of ship sections beyond [`relative_side`].
//!
//! ```
//! use hexforge_core::hex::arc::{arc_hexes, arc_position, relative_side, ArcPosition};
//! use hexforge_core::hex::{Direction, Hex};
//!
//! let ship = Hex::new(3, 3);
//! // A beam in the front section of a ship facing SE fires across the SE hexside.
//! let side = relative_side(Direction::SE, 0);
//! assert_eq!(arc_position(ship, side, ship + Hex::new(3, 0)), ArcPosition::Inside);
//! assert_eq!(arc_position(ship, side, ship + Hex::new(2, -1)), ArcPosition::Boundary);
//! assert_eq!(arc_position(ship, side, ship + Hex::new(0, 2)), ArcPosition::Outside);
//! // Within range 2: one hex at range 1, three at range 2.
//! assert_eq!(arc_hexes(ship, side, 2).len(), 4);
//! ```

use super::{Direction, Hex, Turn};
use serde::{Deserialize, Serialize};

/// Where a target hex lies relative to a fire arc.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArcPosition {
    /// The target's centre is strictly inside the arc.
    Inside,
    /// The target's centre lies exactly on one of the arc's two boundary rays (it is also on the
    /// boundary of the neighbouring arc).
    Boundary,
    /// The target's centre is outside the arc, or the target is the firing hex itself.
    Outside,
}

impl ArcPosition {
    /// `true` for [`ArcPosition::Inside`] and [`ArcPosition::Boundary`].
    #[must_use]
    pub const fn is_in_arc(self) -> bool {
        matches!(self, ArcPosition::Inside | ArcPosition::Boundary)
    }
}

/// The direction (in axial coordinates) of the ray from a hex centre through vertex `i`, i.e.
/// three times the vertex offset: `dir[i] + dir[i+1]`. It is also the offset of the nearest hex
/// whose centre lies on that ray.
#[must_use]
pub const fn vertex_ray(vertex: Direction) -> Hex {
    let (aq, ar) = vertex.vector();
    let (bq, br) = vertex.right().vector();
    Hex::new(aq + bq, ar + br)
}

/// 2-D cross product of axial vectors, widened so any `i32` input is exact.
#[inline]
const fn cross(a: Hex, b: (i64, i64)) -> i64 {
    a.q as i64 * b.1 - a.r as i64 * b.0
}

/// Where `target` lies relative to the arc across hexside `side` of `origin`.
///
/// Exact for every pair of hexes (the arithmetic is widened to `i64`). The firing hex itself is
/// [`ArcPosition::Outside`].
///
/// ```
/// use hexforge_core::hex::arc::{arc_position, ArcPosition};
/// use hexforge_core::hex::{Direction, Hex};
///
/// let o = Hex::ORIGIN;
/// assert_eq!(arc_position(o, Direction::N, Hex::new(0, -5)), ArcPosition::Inside);
/// assert_eq!(arc_position(o, Direction::N, Hex::new(2, -4)), ArcPosition::Boundary);
/// assert_eq!(arc_position(o, Direction::N, Hex::new(3, -4)), ArcPosition::Outside);
/// assert_eq!(arc_position(o, Direction::N, o), ArcPosition::Outside);
/// ```
#[must_use]
pub fn arc_position(origin: Hex, side: Direction, target: Hex) -> ArcPosition {
    // Translate with wrapping-free i64 arithmetic: hexes may be anywhere in i32.
    let t = (
        i64::from(target.q) - i64::from(origin.q),
        i64::from(target.r) - i64::from(origin.r),
    );
    if t == (0, 0) {
        return ArcPosition::Outside;
    }
    // The counter-clockwise edge of the arc passes through vertex side-1, the clockwise edge
    // through vertex side. In axial coordinates (q right-ish, r down) clockwise on screen is a
    // positive cross product, as for N (0,-1) x NE (1,-1) = 0*(-1) - (-1)*1 = 1.
    let a = vertex_ray(side.left());
    let b = vertex_ray(side);
    // a x t > 0: t is clockwise of ray a; t x b > 0 (i.e. b x t < 0): t is counter-clockwise of b.
    let from_a = cross(a, t);
    let to_b = -cross(b, t);
    // The cone is 60 degrees, so the two conditions together also exclude the opposite cone.
    match (from_a.signum(), to_b.signum()) {
        (1, 1) => ArcPosition::Inside,
        (0, 1) | (1, 0) => ArcPosition::Boundary,
        _ => ArcPosition::Outside,
    }
}

/// Every hex within `max_range` of `origin` that is inside or on the boundary of the arc across
/// `side`, with its position, ordered by range and then clockwise across the arc. The firing hex
/// is not included. At each range `d` there are `d + 1` hexes when `d` is even (the two ends on
/// the boundary) and `d` when `d` is odd (all inside), so the list has about `max_range^2 / 2`
/// entries: bound `max_range` by the weapon's range. A negative or zero range gives nothing.
///
/// ```
/// use hexforge_core::hex::arc::{arc_hexes, ArcPosition};
/// use hexforge_core::hex::{Direction, Hex};
///
/// let arc = arc_hexes(Hex::ORIGIN, Direction::N, 2);
/// assert_eq!(arc, [
///     (Hex::new(0, -1), ArcPosition::Inside),
///     (Hex::new(-1, -1), ArcPosition::Boundary),
///     (Hex::new(0, -2), ArcPosition::Inside),
///     (Hex::new(1, -2), ArcPosition::Boundary),
/// ]);
/// ```
#[must_use]
pub fn arc_hexes(origin: Hex, side: Direction, max_range: i32) -> Vec<(Hex, ArcPosition)> {
    let mut out = Vec::new();
    for d in 1..=max_range {
        // On ring d the arc is the run of hexes centred on the corner hex d*dir[side]: up to d/2
        // hexes back along the counter-clockwise edge, the corner, and up to d/2 forward.
        let half = d / 2;
        let corner = origin.step(side, d);
        let back = side.rotate(Turn::CounterClockwise, 2);
        let fwd = side.rotate(Turn::Clockwise, 2);
        for k in (1..=half).rev() {
            let h = corner.step(back, k);
            out.push((h, arc_position(origin, side, h)));
        }
        out.push((corner, ArcPosition::Inside));
        for k in 1..=half {
            let h = corner.step(fwd, k);
            out.push((h, arc_position(origin, side, h)));
        }
    }
    out
}

/// The absolute hexside of ship section `section`, numbered relative to the ship's `facing`:
/// section 0 is the front (the hexside the ship faces), then clockwise; sections wrap modulo 6.
///
/// ```
/// use hexforge_core::hex::arc::relative_side;
/// use hexforge_core::hex::Direction;
///
/// assert_eq!(relative_side(Direction::SE, 0), Direction::SE); // front
/// assert_eq!(relative_side(Direction::SE, 1), Direction::S); // front right
/// assert_eq!(relative_side(Direction::SE, 3), Direction::NW); // rear
/// assert_eq!(relative_side(Direction::N, 5), Direction::NW); // front left
/// ```
#[must_use]
pub const fn relative_side(facing: Direction, section: u8) -> Direction {
    facing.rotate(Turn::Clockwise, (section % 6) as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::shapes::{range, ring};

    #[test]
    fn vertex_rays_are_the_diagonal_hexes() {
        let rays: Vec<Hex> = Direction::ALL.into_iter().map(vertex_ray).collect();
        assert_eq!(
            rays,
            [
                Hex::new(1, -2),
                Hex::new(2, -1),
                Hex::new(1, 1),
                Hex::new(-1, 2),
                Hex::new(-2, 1),
                Hex::new(-1, -1)
            ]
        );
    }

    #[test]
    fn counts_per_range_for_every_side() {
        // Worked by hand for side N: range 1 {N}; range 2 {(-1,-1)B, (0,-2), (1,-2)B};
        // range 3 {(-1,-2), (0,-3), (1,-3)}; range 4: 5 with two boundary; ...
        let expected = [(1, 0), (1, 2), (3, 0), (3, 2), (5, 0), (5, 2)];
        for side in Direction::ALL {
            let origin = Hex::new(-3, 8);
            for (i, &(inside, boundary)) in expected.iter().enumerate() {
                let d = i as i32 + 1;
                let at_d: Vec<ArcPosition> = ring(origin, d, Direction::N, Turn::Clockwise)
                    .map(|h| arc_position(origin, side, h))
                    .collect();
                let n_in = at_d.iter().filter(|p| **p == ArcPosition::Inside).count();
                let n_b = at_d.iter().filter(|p| **p == ArcPosition::Boundary).count();
                assert_eq!((n_in, n_b), (inside, boundary), "side {side} range {d}");
            }
        }
    }

    #[test]
    fn side_n_at_range_three_worked_example() {
        let o = Hex::ORIGIN;
        let inside: Vec<Hex> = ring(o, 3, Direction::N, Turn::Clockwise)
            .filter(|h| arc_position(o, Direction::N, *h).is_in_arc())
            .collect();
        let mut sorted = inside.clone();
        sorted.sort();
        assert_eq!(sorted, [Hex::new(-1, -2), Hex::new(0, -3), Hex::new(1, -3)]);
    }

    #[test]
    fn boundary_hexes_are_exactly_the_diagonal_ones() {
        let o = Hex::new(2, -5);
        for side in Direction::ALL {
            let a = vertex_ray(side.left());
            let b = vertex_ray(side);
            for h in range(o, 12) {
                let v = h - o;
                let on_diagonal = (1..=6).any(|k| v == a * k || v == b * k);
                assert_eq!(
                    arc_position(o, side, h) == ArcPosition::Boundary,
                    on_diagonal,
                    "{side} {v}"
                );
            }
        }
    }

    #[test]
    fn arcs_rotate_into_each_other() {
        let o = Hex::new(1, 1);
        for side in Direction::ALL {
            for h in range(o, 9) {
                let rotated = h.rotate_around(o, Turn::Clockwise, 1);
                assert_eq!(
                    arc_position(o, side, h),
                    arc_position(o, side.right(), rotated)
                );
            }
        }
    }

    #[test]
    fn six_arcs_cover_every_hex_once_with_shared_boundaries() {
        let o = Hex::new(-6, 2);
        for h in range(o, 10).filter(|h| *h != o) {
            let pos: Vec<ArcPosition> = Direction::ALL
                .iter()
                .map(|s| arc_position(o, *s, h))
                .collect();
            let inside = pos.iter().filter(|p| **p == ArcPosition::Inside).count();
            let boundary = pos.iter().filter(|p| **p == ArcPosition::Boundary).count();
            assert!(
                (inside, boundary) == (1, 0) || (inside, boundary) == (0, 2),
                "{h}: {pos:?}"
            );
            if boundary == 2 {
                // The two arcs sharing a boundary are adjacent sides.
                let sides: Vec<usize> = (0..6)
                    .filter(|i| pos[*i] == ArcPosition::Boundary)
                    .collect();
                assert!(sides[1] - sides[0] == 1 || (sides[0], sides[1]) == (0, 5));
            }
        }
        for side in Direction::ALL {
            assert_eq!(arc_position(o, side, o), ArcPosition::Outside);
        }
    }

    #[test]
    fn arc_hexes_match_a_brute_force_scan() {
        let o = Hex::new(4, -1);
        for side in Direction::ALL {
            let mut listed = arc_hexes(o, side, 8);
            let mut scanned: Vec<(Hex, ArcPosition)> = range(o, 8)
                .map(|h| (h, arc_position(o, side, h)))
                .filter(|(_, p)| p.is_in_arc())
                .collect();
            listed.sort();
            scanned.sort();
            assert_eq!(listed, scanned);
        }
        assert!(arc_hexes(o, Direction::N, 0).is_empty());
        assert!(arc_hexes(o, Direction::N, -4).is_empty());
    }

    #[test]
    fn far_away_hexes_do_not_overflow() {
        let o = Hex::new(i32::MAX - 1, i32::MIN + 1);
        let t = Hex::new(i32::MIN + 1, i32::MAX - 1);
        // Just must not panic; the answer is whatever the exact geometry says.
        let _ = arc_position(o, Direction::SW, t);
        assert_eq!(
            arc_position(Hex::ORIGIN, Direction::N, Hex::new(0, i32::MIN)),
            ArcPosition::Inside
        );
    }

    #[test]
    fn sections_wrap() {
        assert_eq!(relative_side(Direction::NW, 6), Direction::NW);
        assert_eq!(
            relative_side(Direction::NW, 255),
            relative_side(Direction::NW, 255 % 6)
        );
        for f in Direction::ALL {
            for s in 0..6u8 {
                assert_eq!(relative_side(f, s).index(), (f.index() + s) % 6);
            }
        }
    }
}
