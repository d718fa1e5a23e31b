//! Dice and table benchmarks: parsing, rolling, pools, exact odds and lookups.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use hexforge_core::dice::{DiceExpr, DiceRoller, distribution};
use hexforge_core::table::{Axis, Cell, OutOfRange, Table};
use std::hint::black_box;

fn hyperjump_like() -> Table {
    let cols = Axis::parse(
        "diff",
        &["<=-1", "0", "1", "2", "3", "4", "5"],
        OutOfRange::ShiftRoll,
    )
    .unwrap();
    let rows = Axis::parse(
        "2d6",
        &["2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12+"],
        OutOfRange::Error,
    )
    .unwrap();
    let cells = (0..11)
        .map(|r| (0..7).map(|c| Cell::Value(r * 7 + c)).collect())
        .collect();
    Table::new("bench", rows, cols, cells).unwrap()
}

fn benches(c: &mut Criterion) {
    c.bench_function("parse 3d10+4", |b| {
        b.iter(|| DiceExpr::parse(black_box("3d10+4")).unwrap())
    });
    let two_d6 = DiceExpr::parse("2d6").unwrap();
    let mut dice = DiceRoller::new(42);
    c.bench_function("roll 2d6 (logged)", |b| {
        b.iter(|| {
            let roll = dice.roll(black_box(&two_d6), "bench");
            dice.take_rolls();
            roll.total
        })
    });
    let pool = DiceExpr::pool(10, 6).unwrap();
    c.bench_function("roll pool 10d6 (logged)", |b| {
        b.iter(|| {
            let roll = dice.roll(black_box(&pool), "bench");
            dice.take_rolls();
            roll.total
        })
    });
    let ten_d10 = DiceExpr::parse("10d10").unwrap();
    c.bench_function("distribution 10d10", |b| {
        b.iter(|| distribution(black_box(&ten_d10)).unwrap())
    });
    let keep = DiceExpr::parse("4d6kh3").unwrap();
    c.bench_function("distribution 4d6kh3", |b| {
        b.iter(|| distribution(black_box(&keep)).unwrap())
    });
    let table = hyperjump_like();
    c.bench_function("table lookup (shift-roll column)", |b| {
        b.iter(|| {
            table
                .lookup(black_box(9i64), black_box(7i64))
                .unwrap()
                .clone()
        })
    });
}

criterion_group!(dice_benches, benches);
criterion_main!(dice_benches);
