//! Benchmarks for the game engine's per-action costs: performing an action (clone, apply, swap,
//! log) and undoing one (no replay). Run with `cargo bench -p hexforge-game`.
#![allow(missing_docs)]

#[path = "../tests/common/mod.rs"]
mod common;

use common::{Fake, new_game};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use hexforge_game::{Action, Game};

/// A game that has already run `n` engine actions (so the log and history are realistic).
fn game_after(n: usize) -> Game<Fake> {
    let mut fake = Fake::new();
    fake.turns.turn_limit = None;
    let mut g = new_game(1, fake);
    for _ in 0..n {
        let side = g.waiting()[0].clone();
        g.perform(&Action::end_phase(side)).unwrap();
    }
    g
}

fn bench(c: &mut Criterion) {
    c.bench_function("perform end_phase (after 1000 actions)", |b| {
        b.iter_batched_ref(
            || game_after(1000),
            |g| {
                let side = g.waiting()[0].clone();
                g.perform(&Action::end_phase(side)).unwrap();
            },
            BatchSize::LargeInput,
        );
    });
    c.bench_function("undo one action (after 1000 actions)", |b| {
        b.iter_batched_ref(
            || game_after(1000),
            |g| assert!(g.undo()),
            BatchSize::LargeInput,
        );
    });
    c.bench_function("undo then redo 1000 actions", |b| {
        b.iter_batched_ref(
            || game_after(1000),
            |g| {
                while g.undo() {}
                while g.redo() {}
            },
            BatchSize::LargeInput,
        );
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
