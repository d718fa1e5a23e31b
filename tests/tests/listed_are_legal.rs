//! The rules' contract between listing and checking: every action a mod lists as a legal choice
//! passes that mod's `check` on the same state. The engine relies on it (an action picked from
//! the listing of the current state is not checked again, see `Game::perform`), so every bundled
//! mod is held to it here, at every step of real games in every scenario.
//!
//! Adding a mod under `mods/` adds it here; nothing to register.

use hexforge::runtime;
use hexforge_game::{Game, GameState, Rules};
use hexforge_tests::for_every_mod;
use std::path::Path;

/// Every listed action that its check refused (empty: none).
fn problems_of(dir: &Path) -> Vec<String> {
    let loaded = match runtime::load(dir) {
        Ok(l) => l,
        Err(e) => return vec![format!("does not load: {e:#}")],
    };
    let mut problems = Vec::new();
    for scenario in &loaded.scenarios {
        let state = GameState::new(loaded.locks.clone(), scenario, serde_json::Value::Null, 11);
        let Ok(mut game) = Game::new(loaded.rules(), state) else {
            problems.push(format!("{scenario}: setup failed"));
            continue;
        };
        let mut lcg: u64 = 0x5851_f42d_4c95_7f2d;
        for step in 0..250 {
            let Some(side) = game.waiting().into_iter().next() else {
                break;
            };
            let all = match game.legal_actions(&side) {
                Ok(all) => all,
                Err(e) => {
                    problems.push(format!("{scenario} step {step}: listing failed: {e}"));
                    break;
                }
            };
            for a in &all {
                match loaded.rules().check(game.state(), a) {
                    Ok(Ok(())) => {}
                    Ok(Err(ill)) => problems.push(format!(
                        "{scenario} step {step}: listed {} {} but its check says: {}",
                        a.id, a.params, ill.reason
                    )),
                    Err(e) => problems.push(format!(
                        "{scenario} step {step}: listed {} {} but its check failed: {e}",
                        a.id, a.params
                    )),
                }
            }
            if all.is_empty() || !problems.is_empty() {
                break;
            }
            lcg = lcg
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let a = &all[(lcg >> 33) as usize % all.len()];
            if let Err(e) = game.perform(a) {
                problems.push(format!("{scenario} step {step}: {} failed: {e}", a.id));
                break;
            }
            if game.state().outcome.is_some() {
                break;
            }
        }
    }
    problems
}

#[test]
fn every_listed_action_passes_its_check_in_every_mod() {
    for_every_mod("listed actions that their own check refuses", problems_of);
}
