//! Property tests of the hex geometry, and differential tests against `hexx` 0.25 where hexx is
//! exact (distance, rings as sets, ranges as sets).
//!
//! # Mapping to hexx
//! hexx's `Hex { x, y }` is axial like ours: `x = q`, `y = r`, and its six neighbour offsets are
//! the same six axial vectors, so coordinates map one to one. Its direction *names* agree with
//! ours (`EdgeDirection::FLAT_NORTH` is `(0, -1)`, our `N`) but its *indices* differ: hexx index
//! `k` is our direction `(k + 2) mod 6` (hexx 0 = `(1, 0)` = our `SE`). hexx calls its index
//! order counter-clockwise because it draws with y up; on our y-down screen the same order is
//! clockwise, and its `EdgeDirection::clockwise()` agrees with our clockwise. Rings: hexx's
//! `custom_ring(range, k, clockwise = false)` is exactly our `ring(c, range, k + 2, Clockwise)`
//! (its `clockwise = true` flag walks counter-clockwise), and its plain `ring` starts at our `SE`
//! and walks clockwise; the property tests compare rings and ranges as sets, and
//! `hexx_ring_order_maps_onto_ours` pins the order mapping.

use hexforge_core::hex::arc::{ArcPosition, arc_position};
use hexforge_core::hex::shapes::{orbit_step, range, range_count, ring, spiral};
use hexforge_core::hex::{Direction, Hex, Turn};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// Coordinates small enough that sums and rotations cannot overflow.
fn coord() -> impl Strategy<Value = i32> {
    -100_000i32..100_000
}

fn hex() -> impl Strategy<Value = Hex> {
    (coord(), coord()).prop_map(|(q, r)| Hex::new(q, r))
}

fn direction() -> impl Strategy<Value = Direction> {
    (0i32..6).prop_map(Direction::from_index)
}

fn turn() -> impl Strategy<Value = Turn> {
    prop_oneof![Just(Turn::Clockwise), Just(Turn::CounterClockwise)]
}

fn to_hexx(h: Hex) -> hexx::Hex {
    hexx::Hex::new(h.q, h.r)
}

fn from_hexx(h: hexx::Hex) -> Hex {
    Hex::new(h.x, h.y)
}

proptest! {
    #[test]
    fn distance_is_symmetric_and_zero_only_on_itself(a in hex(), b in hex()) {
        prop_assert_eq!(a.distance(b), b.distance(a));
        prop_assert_eq!(a.distance(b) == 0, a == b);
        prop_assert!(a.distance(b) >= 0);
    }

    #[test]
    fn distance_is_translation_invariant(a in hex(), b in hex(), t in hex()) {
        prop_assert_eq!((a + t).distance(b + t), a.distance(b));
    }

    #[test]
    fn distance_is_rotation_invariant(a in hex(), b in hex(), c in hex(), steps in 0i32..6, t in turn()) {
        let (ra, rb) = (a.rotate_around(c, t, steps), b.rotate_around(c, t, steps));
        prop_assert_eq!(ra.distance(rb), a.distance(b));
        prop_assert_eq!(ra.distance(c), a.distance(c));
    }

    #[test]
    fn triangle_inequality(a in hex(), b in hex(), c in hex()) {
        prop_assert!(a.distance(c) <= a.distance(b) + b.distance(c));
    }

    #[test]
    fn distance_agrees_with_hexx(a in hex(), b in hex()) {
        prop_assert_eq!(a.distance(b), to_hexx(a).distance_to(to_hexx(b)));
    }

    #[test]
    fn ring_sizes_and_membership(c in hex(), radius in 0i32..25, start in direction(), t in turn()) {
        let r: Vec<Hex> = ring(c, radius, start, t).collect();
        prop_assert_eq!(r.len(), if radius == 0 { 1 } else { 6 * radius as usize });
        prop_assert!(r.iter().all(|h| c.distance(*h) == radius));
        let set: BTreeSet<Hex> = r.iter().copied().collect();
        prop_assert_eq!(set.len(), r.len());
        prop_assert_eq!(r[0], c.step(start, radius));
    }

    #[test]
    fn ring_set_does_not_depend_on_start_or_turn(c in hex(), radius in 0i32..25, start in direction(), t in turn()) {
        let a: BTreeSet<Hex> = ring(c, radius, start, t).collect();
        let b: BTreeSet<Hex> = ring(c, radius, Direction::N, Turn::Clockwise).collect();
        prop_assert_eq!(a, b);
    }

    #[test]
    fn rings_agree_with_hexx_as_sets(c in hex(), radius in 0u32..25, start in direction(), t in turn()) {
        let ours: BTreeSet<Hex> = ring(c, radius as i32, start, t).collect();
        let theirs: BTreeSet<Hex> = to_hexx(c).ring(radius).map(from_hexx).collect();
        prop_assert_eq!(ours, theirs);
    }

    #[test]
    fn range_is_the_union_of_rings(c in hex(), radius in 0i32..15) {
        let v: Vec<Hex> = range(c, radius).collect();
        prop_assert_eq!(v.len() as u64, range_count(radius));
        let as_set: BTreeSet<Hex> = v.iter().copied().collect();
        prop_assert_eq!(as_set.len(), v.len());
        let union: BTreeSet<Hex> = (0..=radius).flat_map(|k| ring(c, k, Direction::N, Turn::Clockwise)).collect();
        prop_assert_eq!(&as_set, &union);
        let spiral_set: BTreeSet<Hex> = spiral(c, radius, Direction::SW, Turn::CounterClockwise).collect();
        prop_assert_eq!(&as_set, &spiral_set);
    }

    #[test]
    fn ranges_agree_with_hexx_as_sets(c in hex(), radius in 0u32..15) {
        let ours: BTreeSet<Hex> = range(c, radius as i32).collect();
        let theirs: BTreeSet<Hex> = to_hexx(c).range(radius).map(from_hexx).collect();
        prop_assert_eq!(ours, theirs);
    }

    #[test]
    fn orbit_stays_at_distance_and_is_reversible(c in hex(), v in (-30i32..30, -30i32..30), t in turn()) {
        let h = c + Hex::new(v.0, v.1);
        let next = orbit_step(c, h, t);
        prop_assert_eq!(c.distance(next), c.distance(h));
        prop_assert_eq!(orbit_step(c, next, t.reverse()), h);
        if h != c {
            prop_assert_eq!(h.distance(next), 1);
        }
    }

    #[test]
    fn arcs_are_translation_and_rotation_invariant(
        o in hex(), v in (-40i32..40, -40i32..40), side in direction(), t in hex(), steps in 0i32..6,
    ) {
        let target = o + Hex::new(v.0, v.1);
        let p = arc_position(o, side, target);
        prop_assert_eq!(arc_position(o + t, side, target + t), p);
        let rotated = target.rotate_around(o, Turn::Clockwise, steps);
        prop_assert_eq!(arc_position(o, side.rotate(Turn::Clockwise, steps), rotated), p);
        // Mirror across the line of the arc's own centre: for side N, reflect_q mirrors N onto N.
        if side == Direction::N {
            let mirrored = o + (target - o).reflect_q();
            prop_assert_eq!(arc_position(o, Direction::N, mirrored), p);
        }
    }

    #[test]
    fn every_hex_but_the_origin_is_in_one_arc_or_on_the_edge_of_two(o in hex(), v in (-40i32..40, -40i32..40)) {
        let target = o + Hex::new(v.0, v.1);
        let pos: Vec<ArcPosition> = Direction::ALL.iter().map(|s| arc_position(o, *s, target)).collect();
        let inside = pos.iter().filter(|p| **p == ArcPosition::Inside).count();
        let boundary = pos.iter().filter(|p| **p == ArcPosition::Boundary).count();
        if target == o {
            prop_assert_eq!((inside, boundary), (0, 0));
        } else {
            prop_assert!((inside, boundary) == (1, 0) || (inside, boundary) == (0, 2));
        }
    }
}

#[test]
fn distance_agrees_with_hexx_on_every_pair_in_a_patch() {
    let hexes: Vec<Hex> = range(Hex::new(3, -2), 6).collect();
    for a in &hexes {
        for b in &hexes {
            assert_eq!(a.distance(*b), to_hexx(*a).distance_to(to_hexx(*b)));
        }
    }
}

#[test]
fn direction_mapping_to_hexx() {
    // hexx index k is our direction k + 2; the names agree.
    for k in 0u8..6 {
        let ours = Direction::from_index(i32::from(k) + 2);
        let theirs = hexx::EdgeDirection::ALL_DIRECTIONS[k as usize];
        assert_eq!(to_hexx(Hex::unit(ours)), theirs.into_hex());
    }
    assert_eq!(
        to_hexx(Hex::unit(Direction::N)),
        hexx::EdgeDirection::FLAT_NORTH.into_hex()
    );
    assert_eq!(
        to_hexx(Hex::unit(Direction::NE)),
        hexx::EdgeDirection::FLAT_NORTH_EAST.into_hex()
    );
    assert_eq!(
        to_hexx(Hex::unit(Direction::SE)),
        hexx::EdgeDirection::FLAT_SOUTH_EAST.into_hex()
    );
    assert_eq!(
        to_hexx(Hex::unit(Direction::S)),
        hexx::EdgeDirection::FLAT_SOUTH.into_hex()
    );
    assert_eq!(
        to_hexx(Hex::unit(Direction::SW)),
        hexx::EdgeDirection::FLAT_SOUTH_WEST.into_hex()
    );
    assert_eq!(
        to_hexx(Hex::unit(Direction::NW)),
        hexx::EdgeDirection::FLAT_NORTH_WEST.into_hex()
    );
}

#[test]
fn hexx_ring_order_maps_onto_ours() {
    // hexx's `custom_ring(range, k, clockwise = false)` is exactly our ring from direction k + 2
    // walking clockwise (its `clockwise` flag walks the other way from its own `clockwise()`).
    for radius in [1u32, 3, 7] {
        for k in 0..6u8 {
            let start = Direction::from_index(i32::from(k) + 2);
            let dir = hexx::EdgeDirection::ALL_DIRECTIONS[k as usize];
            let c = Hex::new(-4, 9);
            for (flag, turn) in [(false, Turn::Clockwise), (true, Turn::CounterClockwise)] {
                let theirs: Vec<Hex> = to_hexx(c)
                    .custom_ring(radius, dir, flag)
                    .map(from_hexx)
                    .collect();
                let ours: Vec<Hex> = ring(c, radius as i32, start, turn).collect();
                assert_eq!(
                    ours, theirs,
                    "radius {radius}, hexx direction {k}, flag {flag}"
                );
            }
        }
    }
    // hexx's plain `ring` starts at our SE and walks clockwise on our (y-down) screen.
    let theirs: Vec<Hex> = hexx::Hex::ZERO.ring(2).map(from_hexx).collect();
    let ours: Vec<Hex> = ring(Hex::ORIGIN, 2, Direction::SE, Turn::Clockwise).collect();
    assert_eq!(ours, theirs);
}
