//! The engine reuses a victory answer while nothing the callback read has changed
//! (`hexforge_script::memo`). Here every bundled mod is held to it: at every step of real games
//! in every scenario, the remembered answer equals a fresh call of the mod's victory (a second
//! copy of the rules with remembering off), so no mod reads its way around the tracking.
//!
//! Adding a mod under `mods/` adds it here; nothing to register.

use hexforge::runtime;
use hexforge_game::{Game, GameState, Rules};
use hexforge_tests::for_every_mod;
use std::path::Path;

/// Every step where the remembered and the fresh answers differ (empty: none).
fn problems_of(dir: &Path) -> Vec<String> {
    let (loaded, fresh) = match (runtime::load(dir), runtime::load(dir)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return vec![format!("does not load: {e:#}")],
    };
    fresh.rules().remember_victory(false);
    let mut problems = Vec::new();
    for scenario in &loaded.scenarios {
        for seed in [3_u64] {
            let state = GameState::new(
                loaded.locks.clone(),
                scenario,
                serde_json::Value::Null,
                seed,
            );
            let Ok(mut game) = Game::new(loaded.rules(), state) else {
                problems.push(format!("{scenario}: setup failed"));
                continue;
            };
            // A small LCG picks the actions: the same games on every run.
            let mut lcg = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            for step in 0..400 {
                // The same state asked of both (the game's own settling left the memo here).
                let mut bare = game.state().clone();
                let over = bare.outcome.take().is_some();
                let remembered = loaded.rules().outcome(&bare).map_err(|e| e.to_string());
                let asked = fresh.rules().outcome(&bare).map_err(|e| e.to_string());
                if remembered != asked {
                    problems.push(format!(
                        "{scenario} seed {seed} step {step}: remembered {remembered:?}, a fresh \
                         call says {asked:?}"
                    ));
                    break;
                }
                if over {
                    break;
                }
                let Some(side) = game.waiting().into_iter().next() else {
                    break;
                };
                let picked = game.pick_legal_action(&side, &mut |n| {
                    lcg = lcg
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    ((lcg >> 33) % n as u64) as usize
                });
                match picked {
                    Ok(Some(a)) => {
                        if let Err(e) = game.perform(&a) {
                            problems.push(format!("{scenario} seed {seed} step {step}: {e}"));
                            break;
                        }
                    }
                    Ok(None) => break,
                    Err(e) => {
                        problems.push(format!("{scenario} seed {seed} step {step}: {e}"));
                        break;
                    }
                }
            }
        }
    }
    problems
}

#[test]
fn remembered_victory_answers_equal_fresh_calls_in_every_mod() {
    for_every_mod(
        "remembered victory answers that a fresh call contradicts",
        problems_of,
    );
}
