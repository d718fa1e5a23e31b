//! The exact line trace: every hex a centre-to-centre line of fire or sight passes through, in
//! order, with the places where it only grazes a corner or runs exactly along a hexside.
//!
//! [`trace`] follows the segment from the centre of `a` to the centre of `b` and reports a
//! [`Trace`], an ordered list of [`TraceStep`]s:
//! - [`TraceStep::Cross`]: the segment passes through the hex's interior (`a` first, `b` last);
//! - [`TraceStep::Vertex`]: the segment passes exactly through a corner and only touches one of
//!   the three hexes meeting there (it crosses the other two);
//! - [`TraceStep::Tie`]: the segment runs exactly along the hexside between two hexes, crossing
//!   neither. This happens only on the six "diagonal" lines (for example from `(0, 0)` towards
//!   `(1, -2)`); the rules decide who gets the tie ([`blocked_unless_avoidable`],
//!   [`resolve_ties`]).
//!
//! Each hex appears at most once in a trace, in at most one kind of step.
//!
//! **What this module deliberately does not do:** it knows nothing about terrain, boards or line
//! of sight rules beyond the two generic helpers, and it never uses floating point. Unlike
//! sampling a few points along the line and rounding them (as `hexx`'s `line_to` does), it never
//! misses a hex the line clips and never picks a side of a hexside silently.
//!
//! ```
//! use hexforge_core::hex::Hex;
//! use hexforge_core::hex::trace::{trace, TraceStep};
//!
//! // The line from (0, 0) to (3, 1) passes beside the corner where (1, 0), (1, 1) and (2, 0)
//! // meet and crosses all three (sampling with `hexx`'s `line_to` misses (2, 0)).
//! let t = trace(Hex::new(0, 0), Hex::new(3, 1));
//! let crossed: Vec<Hex> = t.hexes_crossed().collect();
//! assert_eq!(
//!     crossed,
//!     [Hex::new(0, 0), Hex::new(1, 0), Hex::new(1, 1), Hex::new(2, 0), Hex::new(2, 1), Hex::new(3, 1)]
//! );
//!
//! // A diagonal line runs along a hexside: a tie between the hexes on either side.
//! let t = trace(Hex::new(0, 0), Hex::new(1, -2));
//! assert_eq!(
//!     t.steps(),
//!     [
//!         TraceStep::Cross(Hex::new(0, 0)),
//!         TraceStep::Tie { left: Hex::new(0, -1), right: Hex::new(1, -1) },
//!         TraceStep::Cross(Hex::new(1, -2)),
//!     ]
//! );
//! ```
//!
//! # The integer geometry
//! Hex centres are the axial points `(q, r)`. The corners of a hex are the centroids of the three
//! hexes meeting there, so in axial coordinates they sit at thirds: corner `i` (between hexside
//! `i` and `i + 1`, see [`super::direction`]) is `(v_i + v_{i+1}) / 3` from the centre, where `v_i`
//! is the axial vector of direction `i`. Scaling axial coordinates by 3 makes every centre *and*
//! corner an integer point: centres at `(3q, 3r)`, corners at the centre plus
//!
//! | corner | between sides | offset |
//! |-------:|---------------|--------|
//! | 0 | N, NE  | `( 1, -2)` |
//! | 1 | NE, SE | `( 2, -1)` |
//! | 2 | SE, S  | `( 1,  1)` |
//! | 3 | S, SW  | `(-1,  2)` |
//! | 4 | SW, NW | `(-2,  1)` |
//! | 5 | NW, N  | `(-1, -1)` |
//!
//! Axial coordinates are an affine image of the screen (with y pointing down) with positive
//! determinant, so incidence ("is this corner on the line") and orientation ("is it to the
//! right") are the same in both. The sign of the cross product `cross(u, w) = u.q * w.r - u.r *
//! w.q` tells on which side of the line through `A` with direction `D` a point `P` lies:
//! `cross(D, P - A) > 0` means to the right (clockwise) as seen looking along `D`, `< 0` to the
//! left, `0` on the line.
//!
//! # The walk
//! The trace walks hex to hex. In the current hex the signs of the six corners decide where the
//! line leaves it: through the interior of hexside `i` (corner `i - 1` left of the line, corner
//! `i` right of it, going clockwise) into neighbour `i`, or exactly through corner `i`. At a
//! corner three hexes meet and the direction of the line relative to the corner's outward ray
//! (which is also the hexside between the two far hexes) decides between entering one of them or
//! running along the hexside between them. The corner values change by a per-trace constant per
//! step, so each step is a couple of integer comparisons and additions: no division, no
//! rounding, no brute force.

use super::{Direction, Hex};
use serde::{Deserialize, Serialize};
use std::ops::{Add, Sub};

/// One step of a [`Trace`], in order from the start hex to the end hex.
///
/// Serialised with a `kind` tag: `{"kind": "cross", "q": 1, "r": 0}`,
/// `{"kind": "vertex", "touched": {"q": .., "r": ..}}`,
/// `{"kind": "tie", "left": {..}, "right": {..}}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TraceStep {
    /// The segment passes through the interior of this hex.
    Cross(Hex),
    /// The segment passes exactly through a corner. Of the three hexes meeting there it crosses
    /// two (the steps before and after) and only touches this one.
    ///
    /// Why one hex and not a list: three hexsides meet at every corner at 120 degrees, so a
    /// straight line through a corner either crosses two of the hexes and touches the third, or
    /// arrives along a hexside (a [`TraceStep::Tie`]) and enters the third, touching none.
    Vertex {
        /// The hex touched only at this corner.
        touched: Hex,
    },
    /// The segment runs exactly along the hexside shared by `left` and `right` and crosses
    /// neither interior. Sides are as seen looking from the start towards the end.
    Tie {
        /// The hex on the left of the line.
        left: Hex,
        /// The hex on the right of the line.
        right: Hex,
    },
}

/// A side of a line, as seen looking from its start towards its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// Counter-clockwise of the direction of travel.
    Left,
    /// Clockwise of the direction of travel.
    Right,
}

/// The exact trace of the segment between two hex centres. Built by [`trace`].
///
/// Serialised as `{"from": hex, "to": hex, "steps": [step, ..]}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Trace {
    from: Hex,
    to: Hex,
    steps: Vec<TraceStep>,
}

impl Trace {
    /// The start hex (the first step crosses it).
    #[must_use]
    pub fn from(&self) -> Hex {
        self.from
    }

    /// The end hex (the last step crosses it).
    #[must_use]
    pub fn to(&self) -> Hex {
        self.to
    }

    /// All steps in order. The first is `Cross(from)`, the last `Cross(to)` (one step only when
    /// `from == to`).
    #[must_use]
    pub fn steps(&self) -> &[TraceStep] {
        &self.steps
    }

    /// The steps, by value.
    #[must_use]
    pub fn into_steps(self) -> Vec<TraceStep> {
        self.steps
    }

    /// The hexes whose interior the segment crosses, in order, `from` and `to` included.
    pub fn hexes_crossed(&self) -> impl Iterator<Item = Hex> + '_ {
        self.steps.iter().filter_map(|s| match *s {
            TraceStep::Cross(h) => Some(h),
            _ => None,
        })
    }

    /// The hexsides the segment runs along, in order, as `(left, right)` pairs.
    pub fn ties(&self) -> impl Iterator<Item = (Hex, Hex)> + '_ {
        self.steps.iter().filter_map(|s| match *s {
            TraceStep::Tie { left, right } => Some((left, right)),
            _ => None,
        })
    }

    /// The hexes the segment only touches at a corner, in order.
    pub fn vertices(&self) -> impl Iterator<Item = Hex> + '_ {
        self.steps.iter().filter_map(|s| match *s {
            TraceStep::Vertex { touched } => Some(touched),
            _ => None,
        })
    }

    /// Whether the segment runs along at least one hexside.
    #[must_use]
    pub fn has_ties(&self) -> bool {
        self.ties().next().is_some()
    }
}

impl<'a> IntoIterator for &'a Trace {
    type Item = &'a TraceStep;
    type IntoIter = std::slice::Iter<'a, TraceStep>;
    fn into_iter(self) -> Self::IntoIter {
        self.steps.iter()
    }
}

/// The exact trace of the segment from the centre of `a` to the centre of `b`, in order.
///
/// `trace(a, a)` is the single step `Cross(a)`. The result is symmetric (`trace(b, a)` is the
/// reverse of `trace(a, b)` with the two sides of each tie swapped) and invariant under
/// translation and rotation by sixth-turns. See the module docs for the method.
///
/// Hexes the walk would visit beyond the `i32` coordinate range (only possible for endpoints
/// within one step of `i32::MIN`/`i32::MAX`) wrap around; the length of a trace is about twice
/// the distance between the ends, so memory is the practical limit.
#[must_use]
pub fn trace(a: Hex, b: Hex) -> Trace {
    let iter = trace_iter(a, b);
    let mut steps = Vec::with_capacity(iter.capacity_hint());
    steps.extend(iter);
    Trace {
        from: a,
        to: b,
        steps,
    }
}

/// The same steps as [`trace`], produced lazily one at a time without allocating.
#[must_use]
pub fn trace_iter(a: Hex, b: Hex) -> TraceIter {
    let d = (
        i64::from(b.q) - i64::from(a.q),
        i64::from(b.r) - i64::from(a.r),
    );
    // Why two widths: the corner values are about 6 * |d|^2, which fits i64 for any board a game
    // could use; only coordinates near the i32 limits need i128.
    const SMALL: i64 = 1 << 29;
    let walk = if d.0.abs() <= SMALL && d.1.abs() <= SMALL {
        Walk::Small(Walker::new(d))
    } else {
        Walk::Big(Walker::new(d))
    };
    let distance = (d.0.abs() + d.1.abs() + (d.0 + d.1).abs()) / 2;
    TraceIter {
        current: a,
        offset: (0, 0),
        goal: d,
        pending: None,
        started: false,
        done: false,
        // A line of length n crosses at most 2n + 1 hexes and has fewer corner or tie steps than
        // that; the budget only guards against an endless loop should the walk ever go wrong.
        budget: distance.saturating_mul(4).saturating_add(4),
        walk,
    }
}

/// Lazy iterator over the steps of a trace. Built by [`trace_iter`].
#[derive(Clone, Debug)]
pub struct TraceIter {
    current: Hex,
    offset: (i64, i64),
    goal: (i64, i64),
    pending: Option<TraceStep>,
    started: bool,
    done: bool,
    budget: i64,
    walk: Walk,
}

#[derive(Clone, Debug)]
enum Walk {
    Small(Walker<i64>),
    Big(Walker<i128>),
}

/// Where the segment leaves the current hex.
#[derive(Clone, Copy, Debug)]
enum Exit {
    /// Through the interior of hexside `i`.
    Side(usize),
    /// Exactly through corner `i` (between hexsides `i` and `i + 1`).
    Corner(usize),
}

/// Integer types wide enough for the corner values.
trait Acc: Copy + Ord + Add<Output = Self> + Sub<Output = Self> + From<i64> + std::fmt::Debug {}
impl Acc for i64 {}
impl Acc for i128 {}

/// The per-trace constants and the running corner value of the current hex.
///
/// With `d = b - a` and the current hex at offset `o` from `a`, corner `i` lies on the right of
/// the line iff `3 * cross(d, o) + k_i > 0`, where `k_i = cross(d, corner_i)`. The walk keeps
/// `x = -3 * cross(d, o)`: corner `i` is right of the line iff `k_i > x`, on it iff `k_i == x`.
#[derive(Clone, Debug)]
struct Walker<N> {
    /// `x` for the current hex.
    x: N,
    /// How `x` changes on a step in direction `j`: `x -= step[j]`, `step[j] = 3 * cross(d, v_j)`.
    step: [N; 6],
    /// The rising run of corner values around the hexagon: the line leaves through side
    /// `side[j]` for the first `j` with `x < threshold[j]` (through its end corner when equal).
    threshold: [N; 3],
    side: [u8; 3],
    /// Sign of `k_i`: which way the line turns from corner `i`'s outward ray (0 = along it).
    corner_sign: [i8; 6],
}

/// Corner offsets in axial coordinates scaled by 3 (see the module docs).
const CORNERS: [(i64, i64); 6] = [(1, -2), (2, -1), (1, 1), (-1, 2), (-2, 1), (-1, -1)];

fn cross(u: (i64, i64), w: (i64, i64)) -> i128 {
    i128::from(u.0) * i128::from(w.1) - i128::from(u.1) * i128::from(w.0)
}

impl<N: Acc> Walker<N> {
    fn new(d: (i64, i64)) -> Self {
        // Every per-trace constant is a cross product of d (|d| < 2^33, from i32 ends) with a
        // small vector, so it fits i64 exactly; the fallback is unreachable but keeps this free
        // of panics. Only the running value `x` needs the wider type for huge d.
        let to_n = |v: i128| -> N {
            N::from(i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX }))
        };
        let k: [i128; 6] = CORNERS.map(|c| cross(d, c));
        let step: [N; 6] = Direction::VECTORS.map(|(dq, dr)| {
            let c = to_n(cross(d, (i64::from(dq), i64::from(dr))));
            c + c + c
        });
        // Start the rising run just after a minimum whose successor is larger.
        let min = k.iter().copied().min().unwrap_or(0);
        let m = (0..6)
            .find(|&i| k[i] == min && k[(i + 1) % 6] > min)
            .unwrap_or(0);
        let mut threshold = [N::from(0); 3];
        let mut side = [0u8; 3];
        let mut len = 0;
        let mut prev = k[m];
        for n in 1..=3 {
            let i = (m + n) % 6;
            if k[i] <= prev {
                break;
            }
            threshold[len] = to_n(k[i]);
            side[len] = i as u8;
            len += 1;
            prev = k[i];
        }
        // A degenerate (diagonal) direction has a run of two; repeat the last entry. It is never
        // reached because x stays strictly below the maximum while the line is inside a hex.
        for j in len.max(1)..3 {
            threshold[j] = threshold[j - 1];
            side[j] = side[j - 1];
        }
        let corner_sign = k.map(|v| v.signum() as i8);
        Walker {
            x: N::from(0),
            step,
            threshold,
            side,
            corner_sign,
        }
    }

    #[inline]
    fn exit(&self) -> Exit {
        let x = self.x;
        let [t0, t1, _] = self.threshold;
        if x < t0 {
            Exit::Side(self.side[0] as usize)
        } else if x == t0 {
            Exit::Corner(self.side[0] as usize)
        } else if x < t1 {
            Exit::Side(self.side[1] as usize)
        } else if x == t1 {
            Exit::Corner(self.side[1] as usize)
        } else {
            Exit::Side(self.side[2] as usize)
        }
    }

    #[inline]
    fn advance(&mut self, dir: usize) {
        self.x = self.x - self.step[dir];
    }
}

impl Walk {
    #[inline]
    fn exit(&self) -> Exit {
        match self {
            Walk::Small(w) => w.exit(),
            Walk::Big(w) => w.exit(),
        }
    }

    #[inline]
    fn advance(&mut self, dir: usize) {
        match self {
            Walk::Small(w) => w.advance(dir),
            Walk::Big(w) => w.advance(dir),
        }
    }

    #[inline]
    fn corner_sign(&self, i: usize) -> i8 {
        match self {
            Walk::Small(w) => w.corner_sign[i],
            Walk::Big(w) => w.corner_sign[i],
        }
    }
}

impl TraceIter {
    fn capacity_hint(&self) -> usize {
        usize::try_from(self.budget / 2).unwrap_or(0).min(1 << 16)
    }

    /// Moves the current hex one step in direction `i`.
    #[inline]
    fn go(&mut self, i: usize) -> Hex {
        let (dq, dr) = Direction::VECTORS[i];
        self.walk.advance(i);
        self.offset = (self.offset.0 + i64::from(dq), self.offset.1 + i64::from(dr));
        // Wrapping: see `trace` (only hexes beyond the i32 range are affected).
        self.current = Hex::new(
            self.current.q.wrapping_add(dq),
            self.current.r.wrapping_add(dr),
        );
        self.current
    }

    #[inline]
    fn neighbor(&self, i: usize) -> Hex {
        let (dq, dr) = Direction::VECTORS[i % 6];
        Hex::new(
            self.current.q.wrapping_add(dq),
            self.current.r.wrapping_add(dr),
        )
    }
}

impl Iterator for TraceIter {
    type Item = TraceStep;

    #[inline]
    fn next(&mut self) -> Option<TraceStep> {
        if let Some(step) = self.pending.take() {
            return Some(step);
        }
        if !self.started {
            self.started = true;
            self.done = self.offset == self.goal;
            return Some(TraceStep::Cross(self.current));
        }
        if self.done {
            return None;
        }
        self.budget -= 1;
        if self.budget < 0 {
            self.done = true;
            return None;
        }
        let step = match self.walk.exit() {
            Exit::Side(i) => TraceStep::Cross(self.go(i)),
            Exit::Corner(i) => {
                let j = (i + 1) % 6;
                let (left, right) = (self.neighbor(i), self.neighbor(j));
                match self.walk.corner_sign(i) {
                    // Along the corner's outward ray: the hexside between the two far hexes,
                    // then into the hex beyond its far end.
                    0 => {
                        self.go(i);
                        let beyond = self.go(j);
                        self.pending = Some(TraceStep::Cross(beyond));
                        TraceStep::Tie { left, right }
                    }
                    // The line turns right of the ray: it enters neighbour i + 1.
                    s if s < 0 => {
                        self.pending = Some(TraceStep::Cross(self.go(j)));
                        TraceStep::Vertex { touched: left }
                    }
                    _ => {
                        self.pending = Some(TraceStep::Cross(self.go(i)));
                        TraceStep::Vertex { touched: right }
                    }
                }
            }
        };
        if self.offset == self.goal {
            self.done = true;
        }
        Some(step)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.done && self.started {
            return (
                usize::from(self.pending.is_some()),
                Some(usize::from(self.pending.is_some())),
            );
        }
        // Every remaining step moves at most one hex closer (a tie and the hex after it: two
        // steps, two hexes), and each loop round yields at most two steps.
        let (q, r) = (self.goal.0 - self.offset.0, self.goal.1 - self.offset.1);
        let remaining = (q.abs() + r.abs() + (q + r).abs()) / 2;
        let extra = usize::from(self.pending.is_some()) + usize::from(!self.started);
        let low = usize::try_from(remaining)
            .unwrap_or(usize::MAX)
            .saturating_add(extra);
        let high = usize::try_from(self.budget.max(0))
            .ok()
            .and_then(|b| b.checked_mul(2))
            .and_then(|b| b.checked_add(extra));
        (low, high)
    }
}

impl std::iter::FusedIterator for TraceIter {}

/// Document 000's planet rule: is the line blocked by a blocker that it cannot avoid?
///
/// "A planet blocks fire only if the shortest path from attacker to target must be traced
/// through the planet's hex." So: a blocker whose interior the line crosses blocks; at a tie the
/// line may pass on either side, so it is blocked only if *both* hexes block; a hex touched only
/// at a corner never blocks. The two end hexes (shooter and target) are **excluded**; use
/// [`blocked_unless_avoidable_with_ends`] to include them.
///
/// ```
/// use hexforge_core::hex::Hex;
/// use hexforge_core::hex::trace::{blocked_unless_avoidable, trace};
///
/// let t = trace(Hex::new(0, 0), Hex::new(1, -2)); // a tie between (0,-1) and (1,-1)
/// assert!(!blocked_unless_avoidable(&t, |h| h == Hex::new(0, -1)));
/// assert!(blocked_unless_avoidable(&t, |h| h == Hex::new(0, -1) || h == Hex::new(1, -1)));
/// ```
#[must_use]
pub fn blocked_unless_avoidable(trace: &Trace, is_blocker: impl Fn(Hex) -> bool) -> bool {
    let steps = trace.steps();
    // The first and last steps are always Cross(from) and Cross(to).
    let inner = if steps.len() >= 2 {
        &steps[1..steps.len() - 1]
    } else {
        &[]
    };
    blocked_in(inner, is_blocker)
}

/// Like [`blocked_unless_avoidable`], but the two end hexes count too (a blocker in the
/// shooter's or the target's own hex blocks).
#[must_use]
pub fn blocked_unless_avoidable_with_ends(trace: &Trace, is_blocker: impl Fn(Hex) -> bool) -> bool {
    blocked_in(trace.steps(), is_blocker)
}

fn blocked_in(steps: &[TraceStep], is_blocker: impl Fn(Hex) -> bool) -> bool {
    steps.iter().any(|s| match *s {
        TraceStep::Cross(h) => is_blocker(h),
        TraceStep::Tie { left, right } => is_blocker(left) && is_blocker(right),
        TraceStep::Vertex { .. } => false,
    })
}

/// The ordered hexes crossed once each tie is resolved to one side by `choose(left, right)`
/// (Solar Flare: the attacker chooses). Corner touches are left out; `from` and `to` are
/// included.
///
/// ```
/// use hexforge_core::hex::Hex;
/// use hexforge_core::hex::trace::{resolve_ties, trace, Side};
///
/// let t = trace(Hex::new(0, 0), Hex::new(2, -4));
/// let path = resolve_ties(&t, |_left, right| if right == Hex::new(1, -1) { Side::Right } else { Side::Left });
/// assert_eq!(
///     path,
///     [Hex::new(0, 0), Hex::new(1, -1), Hex::new(1, -2), Hex::new(1, -3), Hex::new(2, -4)]
/// );
/// ```
#[must_use]
pub fn resolve_ties(trace: &Trace, mut choose: impl FnMut(Hex, Hex) -> Side) -> Vec<Hex> {
    trace
        .steps()
        .iter()
        .filter_map(|s| match *s {
            TraceStep::Cross(h) => Some(h),
            TraceStep::Tie { left, right } => Some(match choose(left, right) {
                Side::Left => left,
                Side::Right => right,
            }),
            TraceStep::Vertex { .. } => None,
        })
        .collect()
}

/// [`resolve_ties`] with every tie resolved to the left.
#[must_use]
pub fn all_left(trace: &Trace) -> Vec<Hex> {
    resolve_ties(trace, |_, _| Side::Left)
}

/// [`resolve_ties`] with every tie resolved to the right.
#[must_use]
pub fn all_right(trace: &Trace) -> Vec<Hex> {
    resolve_ties(trace, |_, _| Side::Right)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_hex_and_neighbour() {
        let a = Hex::new(2, -3);
        assert_eq!(trace(a, a).steps(), [TraceStep::Cross(a)]);
        for d in Direction::ALL {
            let b = a.neighbor(d);
            assert_eq!(
                trace(a, b).steps(),
                [TraceStep::Cross(a), TraceStep::Cross(b)]
            );
        }
    }

    #[test]
    fn far_coordinates_use_the_wide_walker_and_agree() {
        let near = trace(Hex::new(0, 0), Hex::new(7, -3));
        let shift = Hex::new(i32::MAX - 20, i32::MIN + 20);
        let far = trace(shift, shift + Hex::new(7, -3));
        let moved: Vec<TraceStep> = near
            .steps()
            .iter()
            .map(|s| match *s {
                TraceStep::Cross(h) => TraceStep::Cross(h + shift),
                TraceStep::Vertex { touched } => TraceStep::Vertex {
                    touched: touched + shift,
                },
                TraceStep::Tie { left, right } => TraceStep::Tie {
                    left: left + shift,
                    right: right + shift,
                },
            })
            .collect();
        assert_eq!(far.steps(), moved);
        // Ends at opposite corners of the coordinate range: no panic, ends where it should.
        let huge = trace_iter(Hex::new(i32::MIN, i32::MAX), Hex::new(i32::MAX, i32::MIN));
        assert!(matches!(huge.walk, Walk::Big(_)));
        let first: Vec<TraceStep> =
            trace_iter(Hex::new(i32::MIN, i32::MAX), Hex::new(i32::MAX, i32::MIN))
                .take(3)
                .collect();
        assert_eq!(first[0], TraceStep::Cross(Hex::new(i32::MIN, i32::MAX)));
    }

    #[test]
    fn serde_shape() {
        let t = trace(Hex::new(0, 0), Hex::new(1, -2));
        let json = serde_json::to_string(&t).unwrap();
        assert_eq!(
            json,
            r#"{"from":{"q":0,"r":0},"to":{"q":1,"r":-2},"steps":[{"kind":"cross","q":0,"r":0},{"kind":"tie","left":{"q":0,"r":-1},"right":{"q":1,"r":-1}},{"kind":"cross","q":1,"r":-2}]}"#
        );
        let v = TraceStep::Vertex {
            touched: Hex::new(1, 2),
        };
        let s = serde_json::to_string(&v).unwrap();
        assert_eq!(s, r#"{"kind":"vertex","touched":{"q":1,"r":2}}"#);
        assert_eq!(serde_json::from_str::<TraceStep>(&s).unwrap(), v);
    }
}
