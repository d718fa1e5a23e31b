//! Whole random-bot games in-process: `mods/orbital-skirmish` scenario `duel` and
//! `mods/solar-flare` scenario `skirmish`, one loaded rule set each, a fresh game per iteration,
//! seeds 1..=20 in turn (the same games before and after a change). Also orbital-skirmish's own
//! movement choices for a ship at speed 12 with MR 5 through `LuaRules` (what the editor and the
//! bots pay to list every end position and facing).
//!
//! Run: `cargo bench -p hexforge-script --bench games`; issue #4's goal is at least 100 duels
//! per second (10 ms a game) on one core and "instant" (well under 16 ms) for the listing,
//! issue #5's at least 20 solar-flare games a second (50 ms).
//!
//! Profiling without criterion's timing loop: `HEXFORGE_BENCH_GAMES=20` plays seeds 1..=20 once
//! each, printing each final state hash, and exits (for `valgrind --tool=callgrind` or
//! `perf record`), e.g.
//! `HEXFORGE_BENCH_GAMES=20 valgrind --tool=callgrind target/release/deps/games-<hash> --bench`.
//! `HEXFORGE_BENCH_SOLAR=N` plays solar-flare seeds 1..=N the same way.
//! `HEXFORGE_BENCH_CHOICES=N` lists the speed-12 choices N times, `HEXFORGE_BENCH_VICTORY=N`
//! runs the victory callback N times on one state.
//!
//! The bot mirrors the CLI's `hexforge play` (a seeded splitmix64 picks a waiting side, then
//! one of its legal actions; no undo snapshots kept) but does not depend on the CLI crate.
#![allow(missing_docs)]

/// The allocator the `hexforge` binary uses, so these numbers match `hexforge play`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use criterion::{Criterion, criterion_group, criterion_main};
use hexforge_game::{Game, GameState, PerformError, Rules, SideId};
use hexforge_script::loader::{LoadOptions, load_mods};
use hexforge_script::rules::LuaRules;
use std::hint::black_box;
use std::path::Path;

/// A tiny seeded chooser (splitmix64).
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
    rules_of("orbital-skirmish")
}

fn rules_of(id: &str) -> LuaRules {
    let mods = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../mods");
    let loaded = load_mods(&mods, id, &LoadOptions::default()).expect("mod loads");
    LuaRules::new(loaded).expect("rules")
}

/// One solar-flare skirmish as `hexforge play --bots random` plays it: a waiting side, then one
/// of its legal actions picked lazily (`Game::pick_legal_action`, as the CLI's random bot does);
/// returns the number of actions performed.
fn play_solar(rules: &LuaRules, seed: u64) -> usize {
    let state = GameState::new(rules.mod_locks(), "skirmish", serde_json::json!({}), seed);
    play_to_end(rules, state, seed, Lister::Lazy).0
}

/// How a bot game's random player gets its action.
#[derive(Clone, Copy)]
enum Lister {
    /// The whole listing, then an index (`Game::legal_actions`).
    Full,
    /// One picked action (`Game::pick_legal_action`, the CLI's random bot).
    Lazy,
}

/// Plays `state` to its end (or 5000 moves) with a seeded random player; returns the number of
/// actions performed and the final state.
fn play_to_end(
    rules: &LuaRules,
    state: GameState,
    seed: u64,
    lister: Lister,
) -> (usize, GameState) {
    let mut game = Game::new(rules, state).expect("game starts");
    game.set_undo_limit(0);
    let mut pick = Chooser(seed);
    let mut done = 0;
    for _ in 0..5000 {
        if game.state().outcome.is_some() {
            break;
        }
        let waiting = game.waiting();
        let Some(side) = pick.pick(waiting.len()).map(|i| waiting[i].clone()) else {
            break;
        };
        let action = match lister {
            Lister::Full => {
                let actions = game.legal_actions(&side).expect("legal actions");
                pick.pick(actions.len()).map(|i| actions[i].clone())
            }
            Lister::Lazy => game
                .pick_legal_action(&side, &mut |n| pick.pick(n).unwrap_or(0))
                .expect("legal actions"),
        };
        let Some(action) = action else { break };
        match game.perform(&action) {
            Ok(_) => done += 1,
            Err(PerformError::Illegal(_)) => {}
            Err(e) => panic!("seed {seed}: {e}"),
        }
    }
    (done, game.into_state())
}

fn start(rules: &LuaRules, seed: u64) -> GameState {
    GameState::new(rules.mod_locks(), "duel", serde_json::json!({}), seed)
}

/// Plays one game to its end (or 5000 moves); returns the number of actions performed.
fn play(rules: &LuaRules, seed: u64) -> usize {
    play_to_end(rules, start(rules, seed), seed, Lister::Full).0
}

/// Plays one game; returns the number of actions performed and the final state's hash.
fn play_game(rules: &LuaRules, seed: u64) -> (usize, String) {
    let (done, state) = play_to_end(rules, start(rules, seed), seed, Lister::Full);
    (done, hexforge_game::state_hash(&state))
}

/// The duel's starting state with blue's frigate turned into a ship about to move at speed 12
/// with MR 5 (a fighter's MR; speed chosen, not moved yet), in the open middle of the map.
fn speed12_state(rules: &LuaRules) -> GameState {
    let mut game = Game::new(rules, start(rules, 1)).expect("game starts");
    game.edit(|s| {
        let blue = s
            .pieces
            .values_mut()
            .find(|p| p.owner.as_str() == "blue")
            .expect("a blue ship");
        blue.kind = "fighter".into();
        blue.pos = hexforge_game::Position::Hex(hexforge_core::hex::Hex::new(-3, 7));
        for (k, v) in [
            ("speed", serde_json::json!(12)),
            ("new_speed", serde_json::json!(12)),
            ("moved", serde_json::json!(false)),
        ] {
            std::sync::Arc::make_mut(&mut blue.values).insert(k.into(), v);
        }
    });
    game.into_state()
}

fn bench(c: &mut Criterion) {
    let rules = rules();
    if let Some(n) = std::env::var("HEXFORGE_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        let mut actions = 0;
        for seed in 1..=n {
            let (done, hash) = play_game(&rules, seed);
            actions += done;
            println!("seed {seed}: {done} actions, state {hash}");
        }
        println!("{n} games, {actions} actions");
        std::process::exit(0);
    }
    if let Some(n) = std::env::var("HEXFORGE_BENCH_SOLAR")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        let solar = rules_of("solar-flare");
        let mut actions = 0;
        for seed in 1..=n {
            let done = play_solar(&solar, seed);
            actions += done;
            println!("solar-flare seed {seed}: {done} actions");
        }
        println!("{n} solar-flare games, {actions} actions");
        std::process::exit(0);
    }
    if let Some(n) = std::env::var("HEXFORGE_BENCH_CHOICES")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        let state = speed12_state(&rules);
        for _ in 0..n {
            black_box(
                rules
                    .legal_actions(&state, &SideId::new("blue"))
                    .expect("choices"),
            );
        }
        std::process::exit(0);
    }
    if let Some(n) = std::env::var("HEXFORGE_BENCH_VICTORY")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        let state = speed12_state(&rules);
        for _ in 0..n {
            black_box(rules.outcome(&state).expect("victory"));
        }
        std::process::exit(0);
    }
    // Seeds cycle through 1..=20 so that runs before and after a change average the same games.
    let mut seed = 0;
    c.bench_function("orbital-skirmish duel, one random-bot game", |b| {
        b.iter(|| {
            seed = seed % 20 + 1;
            play(&rules, seed)
        });
    });

    // Issue #5's goal: at least 20 of these a second (50 ms a game).
    let solar = rules_of("solar-flare");
    let mut seed = 0;
    c.bench_function("solar-flare skirmish, one random-bot game", |b| {
        b.iter(|| {
            seed = seed % 20 + 1;
            play_solar(&solar, seed)
        });
    });

    let state = speed12_state(&rules);
    let blue = SideId::new("blue");
    let moves = rules.legal_actions(&state, &blue).expect("choices");
    let n = moves.iter().filter(|a| a.id == "move").count();
    println!("speed 12, MR 5 through LuaRules: {n} move choices");
    assert!(n > 100, "expected many end positions, got {n}");
    c.bench_function(
        "orbital-skirmish move choices, speed 12 MR 5 (LuaRules)",
        |b| {
            b.iter(|| black_box(rules.legal_actions(&state, &blue).expect("choices")));
        },
    );

    // One check: the first listed action of the first waiting side, on the starting state (the
    // cost of one callback with its ctx and snapshots).
    let game = hexforge_game::Game::new(&rules, start(&rules, 1)).expect("game starts");
    let side = game.waiting()[0].clone();
    let action = game.legal_actions(&side).expect("legal")[0].clone();
    c.bench_function("orbital-skirmish duel, one check", |b| {
        b.iter(|| black_box(game.check(&action).expect("check runs")));
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
