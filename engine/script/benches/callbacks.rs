//! The cost of Lua callbacks in a whole game: a random-bot game of `mods/orbital-skirmish`
//! scenario `duel` (every callback builds a `ctx`, most read piece snapshots; seeds 1..=20 in turn) and one `check`
//! call. Run with `cargo bench -p hexforge-script --bench callbacks`; the goal is 100 games per
//! second (10 ms per game) in release.
//!
//! The mod is loaded once outside the timed loop; each game is a pure function of its seed (a
//! splitmix64 chooser picks a waiting side, then one of its legal actions), like the CLI's
//! `hexforge play`.
#![allow(missing_docs)]

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use hexforge_game::{Action, Game, GameState, PerformError};
use hexforge_script::loader::{LoadOptions, load_mods};
use hexforge_script::rules::LuaRules;
use std::path::Path;

/// A tiny seeded chooser (splitmix64); the bench does not depend on the CLI crate.
struct Chooser(u64);

impl Chooser {
    fn pick(&mut self, n: usize) -> Option<usize> {
        if n == 0 {
            return None;
        }
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Some((z % n as u64) as usize)
    }
}

fn rules() -> LuaRules {
    let mods = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../mods");
    let loaded = load_mods(&mods, "orbital-skirmish", &LoadOptions::default()).expect("mod loads");
    LuaRules::new(loaded).expect("rules")
}

fn start(rules: &LuaRules, seed: u64) -> GameState {
    GameState::new(rules.mod_locks(), "duel", serde_json::json!({}), seed)
}

/// Plays one game to its end (or 5000 moves); returns the number of actions performed.
fn play(rules: &LuaRules, seed: u64) -> usize {
    let mut game = Game::new(rules, start(rules, seed)).expect("game starts");
    let mut pick = Chooser(seed);
    let mut done = 0;
    for _ in 0..5000 {
        if game.state().outcome.is_some() {
            break;
        }
        let waiting = game.waiting();
        let Some(side) = pick.pick(waiting.len()).map(|i| &waiting[i]) else {
            break;
        };
        let actions = game.legal_actions(side).expect("legal actions");
        let Some(i) = pick.pick(actions.len()) else {
            break;
        };
        match game.perform(&actions[i]) {
            Ok(_) => done += 1,
            Err(PerformError::Illegal(_)) => {}
            Err(e) => panic!("seed {seed}: {e}"),
        }
    }
    done
}

fn bench(c: &mut Criterion) {
    let rules = rules();
    // Seeds cycle through 1..=20 so that runs before and after a change average the same games.
    let mut seed = 0;
    c.bench_function("orbital-skirmish duel, one random-bot game", |b| {
        b.iter(|| {
            seed = seed % 20 + 1;
            play(&rules, seed)
        });
    });

    // One check: the first listed action of the first waiting side, on the starting state.
    let game = Game::new(&rules, start(&rules, 1)).expect("game starts");
    let side = game.waiting()[0].clone();
    let action: Action = game.legal_actions(&side).expect("legal")[0].clone();
    c.bench_function("orbital-skirmish duel, one check", |b| {
        b.iter_batched(
            || (),
            |()| game.check(&action).expect("check runs"),
            BatchSize::SmallInput,
        );
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = bench
}
criterion_main!(benches);
