//! The engine reuses a victory answer while nothing the callback read has changed
//! (`hexforge_script::memo`). Here every bundled mod is held to it: at every step of real games
//! in every scenario, the remembered answer equals a fresh call of the mod's victory (a second
//! copy of the rules with remembering off), so no mod reads its way around the tracking.
//!
//! Adding a mod under `mods/` adds it here; nothing to register.

use hexforge::runtime;
use hexforge_game::Rules;
use hexforge_tests::{Lcg, each_scenario_game, for_every_mod};
use std::path::Path;

/// Every step where the remembered and the fresh answers differ (empty: none).
fn problems_of(dir: &Path) -> Vec<String> {
    let (loaded, fresh) = match (runtime::load(dir), runtime::load(dir)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return vec![format!("does not load: {e:#}")],
    };
    fresh.rules().remember_victory(false);
    const SEED: u64 = 3;
    each_scenario_game(&loaded, SEED, |scenario, game| {
        let mut lcg = Lcg(SEED.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        for step in 0..400 {
            // The same state asked of both (the game's own settling left the memo here).
            let mut bare = game.state().clone();
            let over = bare.outcome.take().is_some();
            let remembered = loaded.rules().outcome(&bare).map_err(|e| e.to_string());
            let asked = fresh.rules().outcome(&bare).map_err(|e| e.to_string());
            if remembered != asked {
                return vec![format!(
                    "{scenario} step {step}: remembered {remembered:?}, a fresh call says \
                     {asked:?}"
                )];
            }
            if over {
                break;
            }
            let Some(side) = game.waiting().into_iter().next() else {
                break;
            };
            match game.pick_legal_action(&side, &mut |n| lcg.below(n)) {
                Ok(Some(a)) => {
                    if let Err(e) = game.perform(&a) {
                        return vec![format!("{scenario} step {step}: {e}")];
                    }
                }
                Ok(None) => break,
                Err(e) => return vec![format!("{scenario} step {step}: {e}")],
            }
        }
        Vec::new()
    })
}

#[test]
fn remembered_victory_answers_equal_fresh_calls_in_every_mod() {
    for_every_mod(
        "remembered victory answers that a fresh call contradicts",
        problems_of,
    );
}
