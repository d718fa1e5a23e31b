//! The search bot (`--bots mcts`) on every bundled mod: in every scenario, at the start and
//! after random play, a few simulations scored by the mod's `game.evaluate` give a legal action
//! (which proves every mod declares an evaluate that answers from 0 to 1 in every scenario);
//! and a whole game with the bot on one side finishes and replays to its hash.

use hexforge::runtime;
use hexforge_game::mcts::MctsBot;
use hexforge_game::play::{BotSpec, Bots, PlayOptions, play_game_with};
use hexforge_game::{GameState, PerformError};
use hexforge_tests::{Lcg, each_scenario_game, for_every_mod};

/// Random actions played before the second search of each scenario.
const RANDOM_ACTIONS: usize = 40;

#[test]
fn the_search_bot_chooses_a_legal_action_scored_by_evaluate_in_every_scenario() {
    for_every_mod("searches that failed", |dir| {
        let loaded = match runtime::load(dir) {
            Ok(l) => l,
            Err(e) => return vec![format!("does not load: {e:#}")],
        };
        each_scenario_game(&loaded, 1, |scenario, game| {
            let mut problems = Vec::new();
            let mut lcg = Lcg(7);
            let mut searched = 0;
            for step in 0..=RANDOM_ACTIONS * 4 {
                if game.state().outcome.is_some() || searched == 2 {
                    break;
                }
                let waiting = game.waiting();
                let side = waiting[lcg.below(waiting.len())].clone();
                let legal = match game.legal_actions(&side) {
                    Ok(l) => l,
                    Err(e) => return vec![format!("{scenario}: listing: {e}")],
                };
                if (step == 0 || step >= RANDOM_ACTIONS) && legal.len() >= 2 {
                    searched += 1;
                    let mut bot = MctsBot::new("iters=3:horizon=3".parse().unwrap(), 1);
                    match bot.search(game.rules(), game.state(), &side) {
                        Ok(s) if s.choice.as_ref().is_some_and(|c| legal.contains(c)) => {
                            if s.stats.evaluations == 0 && s.stats.finished < s.stats.iterations {
                                problems.push(format!(
                                    "{scenario} step {step}: no game.evaluate was asked"
                                ));
                            }
                        }
                        Ok(s) => problems.push(format!(
                            "{scenario} step {step}: not a legal choice: {:?}",
                            s.choice
                        )),
                        Err(e) => problems.push(format!("{scenario} step {step}: {e}")),
                    }
                }
                if legal.is_empty() {
                    continue;
                }
                let action = legal[lcg.below(legal.len())].clone();
                match game.perform(&action) {
                    Ok(_) | Err(PerformError::Illegal(_)) => {}
                    Err(e) => return vec![format!("{scenario} step {step}: {e}")],
                }
            }
            if searched == 0 {
                problems.push(format!(
                    "{scenario}: no position with a choice was searched"
                ));
            }
            problems
        })
    });
}

#[test]
fn a_game_with_the_search_bot_on_one_side_finishes_and_replays() {
    // The tutorial is short; a tiny budget keeps it fast in a debug build.
    std::env::set_current_dir(hexforge_tests::workspace_root()).unwrap();
    let loaded = runtime::load(std::path::Path::new("mods/tutorial")).expect("loads");
    let spec: BotSpec = "blue=mcts:iters=4:horizon=4".parse().unwrap();
    let bots = Bots { spec: Some(&spec) };
    let state = GameState::new(loaded.locks.clone(), "picket", serde_json::Value::Null, 3);
    let (game, report) = play_game_with(loaded.rules(), state, &PlayOptions::default(), bots)
        .expect("the game finishes");
    let again = hexforge_game::replay(&game.record(), loaded.rules()).expect("replays");
    assert_eq!(hexforge_game::state_hash(again.state()), report.state_hash);
    // The same seed and budget play the same game again.
    let state = GameState::new(loaded.locks.clone(), "picket", serde_json::Value::Null, 3);
    let (_, second) = play_game_with(loaded.rules(), state, &PlayOptions::default(), bots)
        .expect("the game finishes");
    assert_eq!(second, report);
}
