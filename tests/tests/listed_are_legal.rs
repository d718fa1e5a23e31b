//! The rules' contract between listing and checking: every action a mod lists as a legal choice
//! passes that mod's `check` on the same state. The engine relies on it (an action picked from
//! the listing of the current state is not checked again, see `Game::perform`), so every bundled
//! mod is held to it here, at every step of real games in every scenario.
//!
//! Adding a mod under `mods/` adds it here; nothing to register.

use hexforge::runtime;
use hexforge_game::Rules;
use hexforge_tests::{Lcg, each_scenario_game, for_every_mod};
use std::path::Path;

/// Every listed action that its check refused (empty: none).
fn problems_of(dir: &Path) -> Vec<String> {
    let loaded = match runtime::load(dir) {
        Ok(l) => l,
        Err(e) => return vec![format!("does not load: {e:#}")],
    };
    each_scenario_game(&loaded, 11, |scenario, game| {
        let mut problems = Vec::new();
        let mut lcg = Lcg(0x5851_f42d_4c95_7f2d);
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
            let a = &all[lcg.below(all.len())];
            if let Err(e) = game.perform(a) {
                problems.push(format!("{scenario} step {step}: {} failed: {e}", a.id));
                break;
            }
            if game.state().outcome.is_some() {
                break;
            }
        }
        problems
    })
}

#[test]
fn every_listed_action_passes_its_check_in_every_mod() {
    for_every_mod("listed actions that their own check refuses", problems_of);
}
