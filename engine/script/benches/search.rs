//! The search bot's simulations per second, per bundled mod: one `mcts` decision (`iters=20`,
//! the default horizon of 10 actions, scored by the mod's `game.evaluate`) from a position 30
//! random actions into a game, through `LuaRules` as `hexforge play --bots mcts` runs it.
//! Criterion's throughput is simulations per second. Where the mod has a `greedy` bot, also the
//! same decision guided by it (`guide=greedy`: the bot plays the playouts).
//!
//! Run: `cargo bench -p hexforge-script --bench search` (one mod: add its name as a filter,
//! `-- solar-flare`). Figures: docs/PERFORMANCE.md, "The search bot".
#![allow(missing_docs)]

/// The allocator the `hexforge` binary uses, so these numbers match `hexforge play`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hexforge_game::mcts::{MctsBot, MctsOptions};
use hexforge_game::{Game, GameState, PerformError, SideId};
use hexforge_script::loader::{LoadOptions, load_mods};
use hexforge_script::rules::LuaRules;
use std::hint::black_box;
use std::path::Path;

/// Simulations per decision.
const ITERATIONS: u32 = 20;

/// (mod, scenario) of every bundled game (the variants search their base's rules).
const GAMES: &[(&str, &str)] = &[
    ("tutorial", "picket"),
    ("orbital-skirmish", "duel"),
    ("squadron-command", "skirmish"),
    ("hyperjump-galaxy", "frontier"),
    ("solar-flare", "skirmish"),
    ("planetoid-colonies", "standard"),
];

fn rules_of(id: &str) -> LuaRules {
    let mods = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../mods");
    let loaded = load_mods(&mods, id, &LoadOptions::default()).expect("mod loads");
    LuaRules::new(loaded).expect("rules")
}

/// A position 30 random actions into the game with seed 1, and a side there with at least
/// two legal actions (a few more random actions until there is one).
fn position(rules: &LuaRules, scenario: &str) -> (GameState, SideId) {
    let state = GameState::new(rules.mod_locks(), scenario, serde_json::json!({}), 1);
    let mut game = Game::new(rules, state).expect("game starts");
    game.set_undo_limit(0);
    let mut stream = 1u64;
    let mut pick = move |n: usize| {
        stream = stream
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from((stream >> 33) % n.max(1) as u64).unwrap_or(0)
    };
    for step in 0..1000 {
        assert!(game.state().outcome.is_none(), "{scenario}: the game ended");
        let waiting = game.waiting();
        let side = waiting[pick(waiting.len())].clone();
        if step >= 30 && game.legal_actions(&side).expect("legal").len() >= 2 {
            return (game.into_state(), side);
        }
        let Some(action) = game.pick_legal_action(&side, &mut pick).expect("legal") else {
            continue;
        };
        match game.perform(&action) {
            Ok(_) | Err(PerformError::Illegal(_)) => {}
            Err(e) => panic!("{scenario}: {e}"),
        }
    }
    panic!("{scenario}: no position with a choice");
}

fn bench(c: &mut Criterion) {
    let plain: MctsOptions = format!("iters={ITERATIONS}").parse().expect("options");
    let guided: MctsOptions = format!("iters={ITERATIONS}:guide=greedy")
        .parse()
        .expect("options");
    let mut group = c.benchmark_group("mcts");
    group.throughput(Throughput::Elements(u64::from(ITERATIONS)));
    for (id, scenario) in GAMES {
        let rules = rules_of(id);
        let (state, side) = position(&rules, scenario);
        let has_greedy = hexforge_script::bots::bot_names(&rules).contains(&"greedy".to_owned());
        let mut runs = vec![("", &plain)];
        if has_greedy {
            runs.push((", guide=greedy", &guided));
        }
        for (label, options) in runs {
            let mut seed = 0;
            let name = format!("{id} {scenario}, {ITERATIONS} simulations{label}");
            group.bench_function(name, |b| {
                b.iter(|| {
                    seed += 1;
                    let mut bot = MctsBot::new(options.clone(), seed);
                    black_box(bot.search(&rules, &state, &side).expect("search"))
                });
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
