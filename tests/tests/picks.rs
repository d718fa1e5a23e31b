//! The random bot's lazy path (`Game::pick_legal_action`, one Lua listing that converts only the
//! picked choice) against the full listing (`Game::legal_actions`), at every step of real games
//! in every scenario of every bundled mod: the same length, the same action at each index tried.
//!
//! Adding a mod under `mods/` adds it here; nothing to register.

use hexforge::runtime;
use hexforge_tests::{Lcg, each_scenario_game, for_every_mod};
use std::path::Path;

/// Every problem of one mod's games (empty: all picks matched).
fn problems_of(dir: &Path) -> Vec<String> {
    let loaded = match runtime::load(dir) {
        Ok(l) => l,
        Err(e) => return vec![format!("does not load: {e:#}")],
    };
    each_scenario_game(&loaded, 5, |scenario, game| {
        let mut problems = Vec::new();
        // A small LCG picks the actions: the same games on every run.
        let mut lcg = Lcg(0x2545_f491_4f6c_dd1d);
        for step in 0..200 {
            if game.state().outcome.is_some() {
                break;
            }
            // Every waiting side (some phases let several act), and one that cannot act now.
            let mut sides = game.waiting();
            for s in game.state().sides.iter() {
                if !sides.contains(&s.id) {
                    sides.push(s.id.clone());
                }
            }
            let mut next = None;
            for side in &sides {
                let Ok(all) = game.legal_actions(side) else {
                    problems.push(format!("{scenario} step {step}: the listing failed"));
                    return problems;
                };
                let n = all.len();
                let mut tries = vec![0, n / 2, n.saturating_sub(1)];
                tries.dedup();
                for i in tries {
                    let mut seen = Vec::new();
                    let got = game.pick_legal_action(side, &mut |len| {
                        seen.push(len);
                        i
                    });
                    let want_seen = if n == 0 { vec![] } else { vec![n] };
                    match got {
                        Ok(got) if seen == want_seen && got.as_ref() == all.get(i) => {}
                        Ok(got) => {
                            problems.push(format!(
                                "{scenario} step {step} {side} pick {i}: pick saw {seen:?} for \
                                 {n} listed, gave {got:?} for {:?}",
                                all.get(i)
                            ));
                            return problems;
                        }
                        Err(e) => {
                            problems.push(format!("{scenario} step {step} pick {i}: {e}"));
                            return problems;
                        }
                    }
                }
                if next.is_none() && n > 0 {
                    next = Some(all[lcg.below(n)].clone());
                }
            }
            let Some(action) = next else { break };
            // A refused action leaves the state as it was; the LCG then picks another.
            if let Err(hexforge_game::PerformError::Rules(e)) = game.perform(&action) {
                problems.push(format!("{scenario} step {step}: {e}"));
                break;
            }
        }
        problems
    })
}

#[test]
fn picked_actions_equal_the_full_listing_at_every_step_of_every_mod() {
    for_every_mod("picks that differ from the listing", problems_of);
}
