//! Movement search benchmarks: A* beside hexx's `a_star` on the same map, the 000 speed-7 /
//! MR-3 movement preview, and issue #4's speed-12 / MR-5 listing of every end position and
//! facing with its path; the same as `move_listing` (orbital-skirmish's movement choices:
//! ends, exits off the radius-20 map and crashes into its blocked hexes, each with its plan).
//!
//! Run: `cargo bench -p hexforge-core --bench search -- --warm-up-time 1 --measurement-time 3`.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use hexforge_core::hex::{Direction, Hex};
use hexforge_core::search::{
    FacingRules, HexKind, Limits, ListingRules, cheapest_path, end_positions, facing_moves,
    hexes_of, move_listing,
};
use std::hint::black_box;

const R: i32 = 20;

/// A radius-20 hexagon with about 10% of hexes blocked by a fixed LCG pattern (no rand).
struct Map {
    blocked: Vec<bool>,
}

impl Map {
    fn new() -> Self {
        let side = (2 * R + 1) as usize;
        let mut x: u64 = 0x5eed;
        let mut blocked = vec![false; side * side];
        for b in &mut blocked {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            *b = (x >> 33).is_multiple_of(10);
        }
        let mut m = Map { blocked };
        for keep in [Hex::new(-R, 0), Hex::new(R, 0), Hex::ORIGIN] {
            let i = m.index(keep.q, keep.r).unwrap();
            m.blocked[i] = false;
        }
        m
    }

    fn index(&self, q: i32, r: i32) -> Option<usize> {
        let s = -q - r;
        if q.abs() > R || r.abs() > R || s.abs() > R {
            return None;
        }
        Some(((q + R) * (2 * R + 1) + (r + R)) as usize)
    }

    fn open(&self, q: i32, r: i32) -> bool {
        self.index(q, r).is_some_and(|i| !self.blocked[i])
    }
}

fn bench(c: &mut Criterion) {
    let map = Map::new();
    let (start, goal) = (Hex::new(-R, 0), Hex::new(R, 0));
    let ours = || {
        cheapest_path(
            start,
            goal,
            1,
            |_, to| map.open(to.q, to.r).then_some(1),
            Limits::default(),
        )
    };
    let theirs = || {
        hexx::algorithms::a_star(
            hexx::Hex::new(start.q, start.r),
            hexx::Hex::new(goal.q, goal.r),
            |_, to| map.open(to.x, to.y).then_some(1),
        )
    };
    // Same map, same answer length.
    let (a, b) = (ours().expect("path"), theirs().expect("path"));
    assert_eq!(a.hexes.len(), b.len());
    println!("path cost {} over {} hexes", a.cost, a.hexes.len());

    let mut g = c.benchmark_group("cheapest_path_r20_10pct");
    g.bench_function("hexforge", |bch| bch.iter(|| black_box(ours())));
    g.bench_function("hexx_a_star", |bch| bch.iter(|| black_box(theirs())));
    g.finish();

    let rules = FacingRules::new(7, 3);
    let preview = || {
        let reach = facing_moves(
            Hex::ORIGIN,
            Direction::N,
            &rules,
            |h| map.open(h.q, h.r),
            Limits::default(),
        );
        end_positions(&reach, &rules)
    };
    println!("speed 7 MR 3: {} end positions", preview().len());
    c.bench_function("facing_moves_speed7_mr3", |bch| {
        bch.iter(|| black_box(preview()))
    });

    // Issue #4: every movement choice of a ship with speed 12 and MR 5 -- all end positions and
    // facings, each with its path (the hexes it passes), as the editor and bots list them.
    let rules12 = FacingRules::new(12, 5);
    let choices12 = || {
        let reach = facing_moves(
            Hex::ORIGIN,
            Direction::N,
            &rules12,
            |h| map.open(h.q, h.r),
            Limits::default(),
        );
        end_positions(&reach, &rules12)
            .into_values()
            .map(|end| (end, hexes_of(&reach.path_to(&end))))
            .collect::<Vec<_>>()
    };
    let listed = choices12();
    assert!(!listed.is_empty() && listed.iter().all(|(_, path)| path.len() > 1));
    println!("speed 12 MR 5: {} end positions with paths", listed.len());
    c.bench_function("facing_moves_speed12_mr5_with_paths", |bch| {
        bch.iter(|| black_box(choices12()))
    });

    // The same ship through `move_listing`, each move's plan written out as the script layer
    // does (the plans are what a mod offers as choices).
    let listing12 = || {
        let l = move_listing(
            Hex::ORIGIN,
            &[Direction::N],
            &ListingRules::new(rules12),
            |h| match map.index(h.q, h.r) {
                None => HexKind::OffBoard,
                Some(i) if map.blocked[i] => HexKind::Blocked,
                Some(_) => HexKind::Open,
            },
            |_, _, _| None::<hexforge_core::search::Pull>,
            Limits::default(),
        );
        let plans: usize = l
            .ends
            .iter()
            .chain(&l.exits)
            .chain(&l.crashes)
            .map(|m| l.plan(m).len())
            .sum();
        (l, plans)
    };
    let (l, plans) = listing12();
    assert_eq!(l.ends.len(), listed.len());
    println!(
        "move_listing speed 12 MR 5: {} ends, {} exits, {} crashes, {plans} plan letters",
        l.ends.len(),
        l.exits.len(),
        l.crashes.len()
    );
    c.bench_function("move_listing_speed12_mr5_with_plans", |bch| {
        bch.iter(|| black_box(listing12()))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
