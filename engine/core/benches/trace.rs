//! Benchmarks of the exact line trace beside `hexx`'s sampled `line_to` (the speed baseline).
//!
//! Each iteration traces the same five length-20 lines (four general directions and one
//! diagonal that runs along hexsides) and collects the result into a `Vec`, so the two figures
//! compare like with like; divide by five for the time per line.
//!
//! Run: `cargo bench -p hexforge-core --bench trace -- --warm-up-time 1 --measurement-time 3`.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use hexforge_core::hex::Hex;
use hexforge_core::hex::trace::{trace, trace_iter};
use std::hint::black_box;

/// Ends of length-20 lines from the origin (hex distance 20 each).
const ENDS: [(i32, i32); 5] = [(20, -7), (13, 7), (-11, -9), (5, 15), (20, -10)];

fn bench_trace(c: &mut Criterion) {
    for (q, r) in ENDS {
        assert_eq!(Hex::ORIGIN.distance(Hex::new(q, r)), 20);
    }
    let mut group = c.benchmark_group("line_len20_x5");
    group.bench_function("hexforge_trace", |bch| {
        bch.iter(|| {
            for (q, r) in ENDS {
                black_box(trace(black_box(Hex::ORIGIN), black_box(Hex::new(q, r))));
            }
        });
    });
    group.bench_function("hexforge_trace_iter_into_vec", |bch| {
        bch.iter(|| {
            for (q, r) in ENDS {
                let mut v = Vec::with_capacity(64);
                v.extend(trace_iter(
                    black_box(Hex::ORIGIN),
                    black_box(Hex::new(q, r)),
                ));
                black_box(v);
            }
        });
    });
    group.bench_function("hexx_line_to_vec", |bch| {
        bch.iter(|| {
            for (q, r) in ENDS {
                let v: Vec<hexx::Hex> = black_box(hexx::Hex::ZERO)
                    .line_to(black_box(hexx::hex(q, r)))
                    .collect();
                black_box(v);
            }
        });
    });
    group.finish();
}

criterion_group!(benches, bench_trace);
criterion_main!(benches);
