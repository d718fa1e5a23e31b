//! Pixel layouts: where hexes, corners and hexsides are drawn on screen, and which hex is under
//! a pixel.
//!
//! **Floating point, for drawing only.** Nothing in the rules may depend on these functions;
//! every rule question is answered by the integer geometry elsewhere in [`crate::hex`].
//!
//! Screen coordinates have `x` to the right and `y` **downwards**. Two orientations draw the same
//! grid with the same numbering (see [`super::direction`]):
//!
//! - [`Orientation::Flat`] (flat-top): `N` is straight up; hexes have flat tops.
//! - [`Orientation::Pointy`] (pointy-top): the flat-top picture turned 30 degrees
//!   counter-clockwise; `N` points to the upper left, `SE` straight right.
//!
//! Corner `i` of a hex is vertex `i`, between hexside `i` and hexside `i + 1`.
//!
//! ```
//! use hexforge_core::hex::layout::{Layout, Orientation};
//! use hexforge_core::hex::{Direction, Hex};
//!
//! let layout = Layout { orientation: Orientation::Flat, size: 10.0, origin: (100.0, 100.0) };
//! let (x, y) = layout.hex_to_pixel(Hex::new(0, -1));
//! assert!((x - 100.0).abs() < 1e-4 && y < 100.0); // N is up
//! assert_eq!(layout.pixel_to_hex((x + 3.0, y - 2.0)), Hex::new(0, -1));
//! let [c0, ..] = layout.corners(Hex::ORIGIN);
//! assert!((c0.0 - 105.0).abs() < 1e-4); // vertex 0: right end of the N hexside
//! ```
//!
//! Internally the arithmetic is done in `f64` so that boards far from the origin still round to
//! the right hex; the public values are `f32` because that is what drawing libraries take.

use super::{Direction, Hex};
use serde::{Deserialize, Serialize};

/// How the hex grid is turned on screen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Orientation {
    /// Flat-top hexes; `N` is straight up. The default.
    #[default]
    Flat,
    /// Pointy-top hexes; the flat-top picture turned 30 degrees counter-clockwise (`N` is upper
    /// left).
    Pointy,
}

const SQRT3: f64 = 1.732_050_807_568_877_2;

impl Orientation {
    /// Forward matrix: fractional axial `(q, r)` to unit-size pixels (`x`, `y` down).
    const fn forward(self) -> [f64; 4] {
        match self {
            // x = 3/2 q, y = sqrt3 (r + q/2)
            Orientation::Flat => [1.5, 0.0, SQRT3 / 2.0, SQRT3],
            // The flat matrix turned 30 degrees counter-clockwise: x = sqrt3 (q + r/2), y = 3/2 r
            Orientation::Pointy => [SQRT3, SQRT3 / 2.0, 0.0, 1.5],
        }
    }

    /// Inverse matrix: unit-size pixels to fractional axial `(q, r)`.
    const fn inverse(self) -> [f64; 4] {
        match self {
            Orientation::Flat => [2.0 / 3.0, 0.0, -1.0 / 3.0, SQRT3 / 3.0],
            Orientation::Pointy => [SQRT3 / 3.0, -1.0 / 3.0, 0.0, 2.0 / 3.0],
        }
    }
}

/// A pixel layout: orientation, hex size and where hex `(0, 0)` is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Layout {
    /// Flat-top or pointy-top.
    pub orientation: Orientation,
    /// Distance from a hex centre to each of its corners, in pixels.
    pub size: f32,
    /// Pixel position of the centre of hex `(0, 0)`.
    pub origin: (f32, f32),
}

impl Default for Layout {
    fn default() -> Self {
        Layout {
            orientation: Orientation::Flat,
            size: 1.0,
            origin: (0.0, 0.0),
        }
    }
}

impl Layout {
    /// Pixel position of fractional axial coordinates.
    #[inline]
    fn axial_to_pixel(&self, q: f64, r: f64) -> (f32, f32) {
        let [a, b, c, d] = self.orientation.forward();
        let s = f64::from(self.size);
        let x = (a * q + b * r) * s + f64::from(self.origin.0);
        let y = (c * q + d * r) * s + f64::from(self.origin.1);
        (x as f32, y as f32)
    }

    /// Pixel position of the centre of `hex`.
    #[must_use]
    #[inline]
    pub fn hex_to_pixel(&self, hex: Hex) -> (f32, f32) {
        self.axial_to_pixel(f64::from(hex.q), f64::from(hex.r))
    }

    /// Fractional axial coordinates `(q, r)` of a pixel.
    ///
    /// A zero or non-finite `size` gives non-finite values (which [`Layout::pixel_to_hex`] maps
    /// to some hex rather than panicking).
    #[must_use]
    #[inline]
    pub fn pixel_to_fractional(&self, pixel: (f32, f32)) -> (f64, f64) {
        let [a, b, c, d] = self.orientation.inverse();
        // One division instead of two (this is on the mouse-move path).
        let inv = 1.0 / f64::from(self.size);
        let x = (f64::from(pixel.0) - f64::from(self.origin.0)) * inv;
        let y = (f64::from(pixel.1) - f64::from(self.origin.1)) * inv;
        (a * x + b * y, c * x + d * y)
    }

    /// The hex under a pixel.
    ///
    /// Cube rounding: the fractional cube coordinates are each rounded half up, then the one with
    /// the largest rounding error is recomputed from the other two; on an exact tie between two
    /// errors, `r` is recomputed in preference to `s`, and `q` only when its error is strictly
    /// the largest. An exact tie between two hexes is thus always resolved to the same side of
    /// the same kind of hexside, wherever on the board. Pixels are `f32` and hex corners are
    /// irrational in pixels, so for a point within rounding error of a hexside or corner the
    /// rounding decides; any of the touching hexes may come back. Non-finite input never panics
    /// (coordinates saturate).
    #[must_use]
    #[inline]
    pub fn pixel_to_hex(&self, pixel: (f32, f32)) -> Hex {
        let (q, r) = self.pixel_to_fractional(pixel);
        cube_round(q, r)
    }

    /// The six corners of `hex`; corner `i` is vertex `i` (between hexside `i` and `i + 1`).
    ///
    /// ```
    /// use hexforge_core::hex::layout::{Layout, Orientation};
    /// use hexforge_core::hex::{Direction, Hex};
    ///
    /// let layout = Layout { orientation: Orientation::Pointy, size: 2.0, origin: (0.0, 0.0) };
    /// let h = Hex::new(3, -1);
    /// let n = h.neighbor(Direction::SE);
    /// // Vertex i of a hex is vertex i + 2 of its neighbour in direction i.
    /// let (a, b) = (layout.corners(h)[2], layout.corners(n)[4]);
    /// assert!((a.0 - b.0).abs() < 1e-4 && (a.1 - b.1).abs() < 1e-4);
    /// ```
    #[must_use]
    pub fn corners(&self, hex: Hex) -> [(f32, f32); 6] {
        Direction::ALL.map(|d| {
            // Vertex d is a third of the way towards the diagonal hex dir[d] + dir[d+1].
            let (aq, ar) = d.vector();
            let (bq, br) = d.right().vector();
            self.axial_to_pixel(
                f64::from(hex.q) + f64::from(aq + bq) / 3.0,
                f64::from(hex.r) + f64::from(ar + br) / 3.0,
            )
        })
    }

    /// The midpoint of hexside `side` of `hex` (halfway to the neighbour's centre).
    #[must_use]
    pub fn hexside_midpoint(&self, hex: Hex, side: Direction) -> (f32, f32) {
        let (dq, dr) = side.vector();
        self.axial_to_pixel(
            f64::from(hex.q) + f64::from(dq) / 2.0,
            f64::from(hex.r) + f64::from(dr) / 2.0,
        )
    }
}

/// Rounds fractional axial coordinates to the hex containing them (see
/// [`Layout::pixel_to_hex`] for the tie rule).
#[inline]
fn cube_round(q: f64, r: f64) -> Hex {
    let s = -q - r;
    // Half up (floor(x + 0.5)) rather than half away from zero, so ties do not flip at 0.
    let (mut rq, mut rr, rs) = (round_half_up(q), round_half_up(r), round_half_up(s));
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    // Otherwise s has the largest error and is the one implied by q and r: nothing to do.
    // `as` saturates (and maps NaN to 0), which is what we want for a drawing helper.
    Hex::new(rq as i32, rr as i32)
}

/// `floor(x + 0.5)` without a libm call (the baseline x86-64 target has no rounding
/// instruction, and `f64::floor` is then a function call). Exact for `|x| < 2^52`; beyond that
/// (or for NaN) the result saturates, which [`cube_round`] tolerates.
#[inline]
fn round_half_up(x: f64) -> f64 {
    let y = x + 0.5;
    let t = y as i64 as f64;
    if t > y { t - 1.0 } else { t }
}

/// The screen angle of direction `d` in radians, measured **clockwise from straight up**, in
/// `[0, 2*pi)`: the rotation to apply to a counter drawn facing up so that it faces `d`.
///
/// Flat-top: `d.index() * 60` degrees. Pointy-top: 30 degrees less (`N` is at 330 degrees).
/// The direction itself on screen (y down) is `(sin a, -cos a)`.
///
/// ```
/// use hexforge_core::hex::layout::{direction_angle, Orientation};
/// use hexforge_core::hex::Direction;
///
/// let a = direction_angle(Orientation::Flat, Direction::S);
/// assert!((a - std::f32::consts::PI).abs() < 1e-6);
/// let p = direction_angle(Orientation::Pointy, Direction::SE);
/// assert!((p - std::f32::consts::FRAC_PI_2).abs() < 1e-6); // SE is straight right
/// ```
#[must_use]
pub fn direction_angle(orientation: Orientation, d: Direction) -> f32 {
    let degrees = match orientation {
        Orientation::Flat => 60 * i32::from(d.index()),
        Orientation::Pointy => (60 * i32::from(d.index()) + 330) % 360,
    };
    (f64::from(degrees).to_radians()) as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::shapes::range;

    const BOTH: [Orientation; 2] = [Orientation::Flat, Orientation::Pointy];

    fn layouts() -> Vec<Layout> {
        let mut v = Vec::new();
        for orientation in BOTH {
            v.push(Layout {
                orientation,
                size: 1.0,
                origin: (0.0, 0.0),
            });
            v.push(Layout {
                orientation,
                size: 37.5,
                origin: (-120.25, 640.0),
            });
        }
        v
    }

    fn close(a: (f32, f32), b: (f32, f32), eps: f32) -> bool {
        (a.0 - b.0).abs() <= eps && (a.1 - b.1).abs() <= eps
    }

    #[test]
    fn round_trip_over_a_range() {
        for l in layouts() {
            for h in range(Hex::new(5, -9), 12) {
                assert_eq!(l.pixel_to_hex(l.hex_to_pixel(h)), h, "{l:?}");
            }
        }
    }

    #[test]
    fn flat_and_pointy_directions_on_screen() {
        let flat = Layout::default();
        let pointy = Layout {
            orientation: Orientation::Pointy,
            ..Layout::default()
        };
        let n = flat.hex_to_pixel(Hex::unit(Direction::N));
        assert!(
            close(n, (0.0, -(SQRT3 as f32)), 1e-6),
            "flat N is straight up"
        );
        let se = flat.hex_to_pixel(Hex::unit(Direction::SE));
        assert!(se.0 > 0.0 && se.1 > 0.0);
        let n = pointy.hex_to_pixel(Hex::unit(Direction::N));
        assert!(n.0 < 0.0 && n.1 < 0.0, "pointy N is upper left");
        let se = pointy.hex_to_pixel(Hex::unit(Direction::SE));
        assert!(
            close(se, (SQRT3 as f32, 0.0), 1e-6),
            "pointy SE is straight right"
        );
        // Flat corners: vertex 0 is the right end of the flat top; vertex 1 the rightmost point.
        let c = flat.corners(Hex::ORIGIN);
        assert!(close(c[0], (0.5, -(SQRT3 as f32) / 2.0), 1e-6));
        assert!(close(c[1], (1.0, 0.0), 1e-6));
        assert!(close(c[4], (-1.0, 0.0), 1e-6));
        // Pointy: vertex 0 (between N and NE) is the top point.
        let c = pointy.corners(Hex::ORIGIN);
        assert!(close(c[0], (0.0, -1.0), 1e-6));
    }

    #[test]
    fn corners_are_at_size_and_shared_with_neighbours() {
        for l in layouts() {
            let eps = 1e-3 * l.size.max(1.0);
            for h in range(Hex::new(-2, 3), 3) {
                let c = l.corners(h);
                let centre = l.hex_to_pixel(h);
                for d in Direction::ALL {
                    let i = d.index() as usize;
                    let dist = ((c[i].0 - centre.0).powi(2) + (c[i].1 - centre.1).powi(2)).sqrt();
                    assert!((dist - l.size).abs() < eps);
                    // Vertex i touches neighbours i (as its vertex i+2) and i+1 (as its vertex i+4).
                    let n1 = l.corners(h.neighbor(d));
                    let n2 = l.corners(h.neighbor(d.right()));
                    assert!(close(c[i], n1[(i + 2) % 6], eps));
                    assert!(close(c[i], n2[(i + 4) % 6], eps));
                    // The hexside midpoint is the midpoint of its two end vertices.
                    let m = l.hexside_midpoint(h, d);
                    let prev = c[(i + 5) % 6];
                    assert!(close(
                        m,
                        ((prev.0 + c[i].0) / 2.0, (prev.1 + c[i].1) / 2.0),
                        eps
                    ));
                }
            }
        }
    }

    #[test]
    fn points_near_corners_fall_in_one_of_the_three_touching_hexes() {
        for l in layouts() {
            for h in range(Hex::new(4, 4), 2) {
                let centre = l.hex_to_pixel(h);
                let c = l.corners(h);
                for d in Direction::ALL {
                    let i = d.index() as usize;
                    let touching = [h, h.neighbor(d), h.neighbor(d.right())];
                    // The corner itself and points nudged a little in 8 directions.
                    let nudge = 0.01 * l.size;
                    for (dx, dy) in [
                        (0.0, 0.0),
                        (1.0, 0.0),
                        (-1.0, 0.0),
                        (0.0, 1.0),
                        (0.0, -1.0),
                        (0.7, 0.7),
                        (-0.7, 0.7),
                        (0.7, -0.7),
                        (-0.7, -0.7),
                    ] {
                        let p = (c[i].0 + dx * nudge, c[i].1 + dy * nudge);
                        assert!(touching.contains(&l.pixel_to_hex(p)), "{l:?} {h} {d} {p:?}");
                    }
                    // Just inside the hex, towards its centre, is the hex itself.
                    let inside = (
                        c[i].0 + (centre.0 - c[i].0) * 0.02,
                        c[i].1 + (centre.1 - c[i].1) * 0.02,
                    );
                    assert_eq!(l.pixel_to_hex(inside), h);
                }
            }
        }
    }

    #[test]
    fn exact_ties_are_broken_the_same_way_everywhere() {
        // Hexside midpoints in fractional axial coordinates (exact in f64): the hex chosen,
        // relative to the hex the tie belongs to, must not depend on where it is. (Corners are
        // thirds, not exact in binary, so they are not exact ties.)
        let ties = [
            (0.5, 0.0),
            (0.0, 0.5),
            (0.5, -0.5),
            (-0.5, 0.0),
            (0.0, -0.5),
            (-0.5, 0.5),
        ];
        for (fq, fr) in ties {
            let base = cube_round(fq, fr);
            assert!(Hex::ORIGIN.distance(base) <= 1);
            for h in range(Hex::ORIGIN, 6) {
                let got = cube_round(f64::from(h.q) + fq, f64::from(h.r) + fr);
                assert_eq!(got - h, base, "tie ({fq}, {fr}) at {h}");
            }
        }
        // The documented choice for the SE hexside midpoint: the SE neighbour wins.
        assert_eq!(cube_round(0.5, 0.0), Hex::new(1, 0));
        assert_eq!(cube_round(-0.5, 0.0), Hex::new(0, 0));
    }

    #[test]
    fn direction_angles_point_at_neighbours() {
        for l in layouts() {
            let centre = l.hex_to_pixel(Hex::ORIGIN);
            for d in Direction::ALL {
                let a = direction_angle(l.orientation, d);
                assert!((0.0..std::f32::consts::TAU).contains(&a));
                let (nx, ny) = l.hex_to_pixel(Hex::unit(d));
                let (vx, vy) = (nx - centre.0, ny - centre.1);
                let len = (vx * vx + vy * vy).sqrt();
                assert!(
                    close((vx / len, vy / len), (a.sin(), -a.cos()), 1e-5),
                    "{d}"
                );
            }
        }
    }

    #[test]
    fn round_half_up_is_floor_of_x_plus_a_half() {
        for x in [
            -2.5,
            -2.0,
            -1.5,
            -1.2,
            -0.5,
            -0.49,
            0.0,
            0.49,
            0.5,
            1.5,
            2.7,
            -1e15 - 0.5,
            1e15 + 0.5,
        ] {
            assert_eq!(round_half_up(x), (x + 0.5).floor(), "{x}");
        }
    }

    #[test]
    fn degenerate_input_does_not_panic() {
        let zero = Layout {
            size: 0.0,
            ..Layout::default()
        };
        let _ = zero.pixel_to_hex((1.0, 1.0));
        let l = Layout::default();
        let _ = l.pixel_to_hex((f32::NAN, f32::INFINITY));
        let _ = l.pixel_to_hex((f32::MAX, -f32::MAX));
    }
}
