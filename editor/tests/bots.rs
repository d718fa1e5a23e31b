//! The search bot in the editor (#30): chosen in the bot menu like any bot, it thinks over
//! several frames with a progress line (the window keeps drawing) and then moves; its move is
//! the one `hexforge play` would make for the same game, seed and budget.

mod common;

use common::open_bundled;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use hexforge_editor::command::Command;
use hexforge_game::mcts::{MctsBot, MctsOptions};

#[test]
fn a_search_bot_thinks_over_frames_with_a_progress_line_then_moves() {
    let mut h = open_bundled("tutorial");
    let side = h.state().open.as_ref().unwrap().game.waiting()[0].clone();
    let bot = "mcts:iters=400";
    h.state_mut().apply(Command::SetBot {
        side: side.to_string(),
        bot: bot.into(),
    });
    // What the search decides for this position, run at once outside the editor.
    let expected = {
        let s = h.state().open.as_ref().unwrap();
        let options: MctsOptions = "iters=400".parse().unwrap();
        MctsBot::for_game(options, s.seed, &side)
            .choose(&s.game, &side)
            .unwrap()
            .expect("a move")
    };
    let before = h.state().open.as_ref().unwrap().game.state().log.len();
    h.get_by_label("Step").click();
    // One frame at a time (`run` would go on until the bot is done).
    h.step();
    h.step();
    assert!(h.state().run.is_some(), "{}", h.state().status);
    let line = h.state().play.progress.clone().unwrap_or_default();
    assert!(line.contains("thinking for"), "{line}");
    h.get_by_label_contains("thinking for");
    // Frames go by while it thinks; then it moves, once.
    let mut frames = 1;
    while h.state().run.is_some() {
        h.step();
        frames += 1;
        assert!(frames < 2000, "still thinking after {frames} frames");
    }
    assert!(frames > 2, "thought in {frames} frames");
    let log = &h.state().open.as_ref().unwrap().game.state().log;
    assert_eq!(log.len(), before + 1);
    assert_eq!(log.last().unwrap().action.as_ref(), Some(&expected));
    assert!(h.state().play.progress.is_none());
}

#[test]
fn the_bot_menu_offers_the_search_bot_plain_and_guided_by_the_mods_bot() {
    let mut h = open_bundled("tutorial");
    h.get_by_label("Bots").click();
    h.run();
    let side = h.state().open.as_ref().unwrap().status().sides[0].clone();
    // The tutorial's own bot is `greedy`: the menu offers the search guided by it too.
    for pick in ["mcts", "mcts:guide=greedy"] {
        // The side's drop-down, named by the side (random at first: open_bundled set every
        // side so).
        h.get_all_by_label(side.as_str())
            .find(|n| n.accesskit_node().role() == egui::accesskit::Role::ComboBox)
            .expect("a drop-down for the side")
            .click();
        h.run();
        h.get_by_label(pick).click();
        h.run();
        assert_eq!(h.state().bots[side.as_str()], pick);
    }
}
