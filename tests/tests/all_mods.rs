//! Every bundled mod, as a player would meet it: it loads and checks, its own Lua tests pass, and
//! random bots play every one of its scenarios to the end (a game that does not finish is a
//! failure), each game replaying to the same state hash.
//!
//! Adding a mod under `mods/` adds it here; nothing to register. Mods run in parallel (one VM
//! per thread) and every failure is collected before the test fails, so one broken mod does not
//! hide another.

use hexforge::runtime;
use hexforge_game::GameState;
use hexforge_game::play::{PlayOptions, play_bot_game};
use hexforge_tests::for_every_mod;

/// Seeds played per scenario (the CLI's `--games` covers more; this is the always-on floor).
const SEEDS: u64 = 2;

#[test]
fn every_mod_loads_and_passes_its_own_lua_tests() {
    for_every_mod("mods whose Lua tests fail", |dir| {
        let results = match runtime::run_tests(dir, "") {
            Ok(r) => r,
            Err(e) => return vec![format!("does not load: {e:#}")],
        };
        let mut problems: Vec<String> = results
            .iter()
            .filter_map(|r| r.failure.as_ref().map(|f| format!("{}: {f}", r.name)))
            .collect();
        if results.is_empty() {
            problems.push("has no Lua tests (add tests/*.lua)".into());
        }
        problems
    });
}

#[test]
fn random_bots_finish_every_scenario_of_every_mod_and_replays_match() {
    for_every_mod("games that failed", |dir| {
        let loaded = match runtime::load(dir) {
            Ok(l) => l,
            Err(e) => return vec![format!("does not load: {e:#}")],
        };
        let mut problems = Vec::new();
        if loaded.scenarios.is_empty() {
            problems.push("has no scenario".into());
        }
        for scenario in &loaded.scenarios {
            for seed in 1..=SEEDS {
                let state = GameState::new(
                    loaded.locks.clone(),
                    scenario,
                    serde_json::Value::Null,
                    seed,
                );
                match play_bot_game(loaded.rules(), state, &PlayOptions::default()) {
                    Ok((game, report)) => {
                        match hexforge_game::replay(&game.record(), loaded.rules()) {
                            Ok(again)
                                if hexforge_game::state_hash(again.state())
                                    == report.state_hash => {}
                            Ok(_) => problems.push(format!(
                                "{scenario} seed {seed}: replay reached a different state"
                            )),
                            Err(e) => {
                                problems.push(format!("{scenario} seed {seed}: replay failed: {e}"))
                            }
                        }
                    }
                    Err(e) => problems.push(format!("{scenario} seed {seed}: {e}")),
                }
            }
        }
        problems
    });
}

/// `Game::legal_actions` asks the rules for the choices and `end_phase` in one Lua call
/// (`Rules::legal_actions_and_end`); it must list exactly what the two separate calls list, in
/// the same order, at every step of real games (mods with and without an `end_phase` check).
#[test]
fn one_call_listings_equal_choices_plus_the_end_phase_check() {
    use hexforge_game::{Action, Game, Rules};
    for_every_mod("listings that differ", |dir| {
        let loaded = match runtime::load(dir) {
            Ok(l) => l,
            Err(e) => return vec![format!("does not load: {e:#}")],
        };
        let mut problems = Vec::new();
        for scenario in &loaded.scenarios {
            let state = GameState::new(loaded.locks.clone(), scenario, serde_json::Value::Null, 3);
            let Ok(mut game) = Game::new(loaded.rules(), state) else {
                problems.push(format!("{scenario}: setup failed"));
                continue;
            };
            // A small LCG picks the actions: the same games on every run.
            let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
            for step in 0..300 {
                // A side that may act now (`Game::legal_actions` lists nothing for the others).
                let clock = &game.state().clock;
                let Some(side) = clock.acting.iter().find(|s| clock.may_act(s)).cloned() else {
                    break;
                };
                if game.state().outcome.is_some() {
                    break;
                }
                let one = game.legal_actions(&side);
                let rules = loaded.rules();
                let two = rules.legal_actions(game.state(), &side).and_then(|mut v| {
                    let end = Action::end_phase(side.clone());
                    if rules.check(game.state(), &end)?.is_ok() {
                        v.push(end);
                    }
                    Ok(v)
                });
                let (Ok(one), Ok(two)) = (one, two) else {
                    problems.push(format!("{scenario} step {step}: a listing failed"));
                    break;
                };
                if one != two {
                    problems.push(format!(
                        "{scenario} step {step}: one call listed {} actions, two calls {}",
                        one.len(),
                        two.len()
                    ));
                    break;
                }
                if one.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let pick = &one[(seed >> 33) as usize % one.len()];
                if game.perform(pick).is_err() {
                    break;
                }
            }
        }
        problems
    });
}
