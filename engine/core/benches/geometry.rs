//! Geometry benchmarks: hexforge against `hexx` 0.25 on the same work, one criterion group per
//! operation ("distance", "neighbour", "ring_r10", "range_r10", "pixel_to_hex") with functions
//! "hexforge" and "hexx". Compare the two within one run (the machine is shared and noisy).
//!
//! ```text
//! cargo bench -p hexforge-core --bench geometry -- --warm-up-time 1 --measurement-time 3
//! ```
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use hexforge_core::hex::layout::{Layout, Orientation};
use hexforge_core::hex::shapes::{range, ring};
use hexforge_core::hex::{Direction, Hex, Turn};
use std::hint::black_box;

fn distance(c: &mut Criterion) {
    let mut g = c.benchmark_group("distance");
    let (a, b) = (Hex::new(3, -7), Hex::new(-12, 5));
    g.bench_function("hexforge", |bench| {
        bench.iter(|| black_box(a).distance(black_box(b)));
    });
    let (a, b) = (hexx::Hex::new(3, -7), hexx::Hex::new(-12, 5));
    g.bench_function("hexx", |bench| {
        bench.iter(|| black_box(a).distance_to(black_box(b)));
    });
    g.finish();
}

fn neighbour(c: &mut Criterion) {
    let mut g = c.benchmark_group("neighbour");
    let h = Hex::new(3, -7);
    g.bench_function("hexforge", |bench| {
        bench.iter(|| black_box(h).neighbor(black_box(Direction::SW)));
    });
    let h = hexx::Hex::new(3, -7);
    g.bench_function("hexx", |bench| {
        bench.iter(|| black_box(h).neighbor(black_box(hexx::EdgeDirection::FLAT_SOUTH_WEST)));
    });
    g.finish();
}

fn ring_r10(c: &mut Criterion) {
    let mut g = c.benchmark_group("ring_r10");
    g.bench_function("hexforge", |bench| {
        bench.iter(|| {
            ring(
                black_box(Hex::new(2, 2)),
                black_box(10),
                Direction::N,
                Turn::Clockwise,
            )
            .collect::<Vec<Hex>>()
        });
    });
    g.bench_function("hexx", |bench| {
        bench.iter(|| {
            black_box(hexx::Hex::new(2, 2))
                .ring(black_box(10))
                .collect::<Vec<_>>()
        });
    });
    g.finish();
}

fn range_r10(c: &mut Criterion) {
    let mut g = c.benchmark_group("range_r10");
    g.bench_function("hexforge", |bench| {
        bench.iter(|| range(black_box(Hex::new(2, 2)), black_box(10)).collect::<Vec<Hex>>());
    });
    g.bench_function("hexx", |bench| {
        bench.iter(|| {
            black_box(hexx::Hex::new(2, 2))
                .range(black_box(10))
                .collect::<Vec<_>>()
        });
    });
    g.finish();
}

fn pixel_to_hex(c: &mut Criterion) {
    let mut g = c.benchmark_group("pixel_to_hex");
    let layout = Layout {
        orientation: Orientation::Flat,
        size: 24.0,
        origin: (400.0, 300.0),
    };
    g.bench_function("hexforge", |bench| {
        bench.iter(|| layout.pixel_to_hex(black_box((517.25, 133.5))));
    });
    let mut hl = hexx::HexLayout::flat();
    hl.scale = hexx::Vec2::splat(24.0);
    hl.origin = hexx::Vec2::new(400.0, 300.0);
    g.bench_function("hexx", |bench| {
        bench.iter(|| hl.world_pos_to_hex(black_box(hexx::Vec2::new(517.25, 133.5))));
    });
    g.finish();
}

criterion_group!(
    benches,
    distance,
    neighbour,
    ring_r10,
    range_r10,
    pixel_to_hex
);
criterion_main!(benches);
