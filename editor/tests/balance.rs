//! The balance tab (#30 item 4 in the editor): a variant is compared against its base on the
//! same seeds, on a thread of its own (the game being played is not touched, the window keeps
//! drawing), and the report is `hexforge compare`'s.

mod common;

use common::open_bundled;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hexforge_editor::app::EditorApp;
use hexforge_editor::command::{BottomTab, Command};
use std::time::{Duration, Instant};

/// Frames until the comparison ends (at most a minute).
fn wait(h: &mut Harness<'_, EditorApp>) {
    let start = Instant::now();
    while h.state().balance.job.as_ref().is_some_and(|j| j.running()) {
        assert!(start.elapsed() < Duration::from_secs(60), "still comparing");
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
    h.run();
}

#[test]
fn a_variant_is_compared_against_its_base_without_touching_the_game() {
    let mut h = open_bundled("tutorial-variant");
    h.state_mut().apply(Command::BotStep);
    let log = h.state().open.as_ref().unwrap().game.state().log.clone();
    h.state_mut()
        .apply(Command::SelectBottomTab(BottomTab::Balance));
    h.state_mut().balance.form.games = 6;
    h.run();
    // Rule set B is the base the variant extends.
    h.get_by_label("Compare").click();
    h.step();
    assert!(h.state().balance.job.is_some());
    wait(&mut h);
    let job = h.state().balance.job.as_ref().unwrap();
    assert_eq!(job.done, [6, 6]);
    let (text, comparison) = job.result.clone().unwrap().expect("a report");
    assert_eq!(comparison.rule_sets[0].rules, "tutorial-variant");
    assert_eq!(comparison.rule_sets[1].rules, "tutorial");
    assert!(comparison.rule_sets.iter().all(|r| r.summary.games == 6));
    assert!(text.contains("Fisher"), "{text}");
    h.get_by_label_contains("hexforge compare");
    assert_eq!(
        h.state().open.as_ref().unwrap().game.state().log,
        log,
        "the game being played is untouched"
    );
}

#[test]
fn a_rule_set_without_the_scenario_is_named_with_what_it_has() {
    let mut h = open_bundled("tutorial");
    let other = common::bundled_mods().join("orbital-skirmish");
    h.state_mut()
        .apply(Command::SelectBottomTab(BottomTab::Balance));
    h.state_mut().balance.form.other = Some(other);
    h.state_mut().balance.form.games = 2;
    h.run();
    h.get_by_label("Compare").click();
    h.step();
    wait(&mut h);
    let job = h.state().balance.job.as_ref().unwrap();
    let err = job.result.clone().unwrap().unwrap_err();
    assert!(
        err.contains("has no scenario `picket`") && err.contains("duel"),
        "{err}"
    );
    h.get_by_label_contains("has no scenario");
}

#[test]
fn only_rule_sets_of_the_same_game_are_offered() {
    // No other bundled mod is a rule set of hyperjump-galaxy or solar-flare (solar-flare shares
    // scenario names with other games, not scenarios).
    for m in ["hyperjump-galaxy", "solar-flare"] {
        let mut h = open_bundled(m);
        h.state_mut()
            .apply(Command::SelectBottomTab(BottomTab::Balance));
        h.run();
        h.get_by_label_contains("No other rule set of this game");
        assert!(h.query_by_label("Compare").is_none(), "{m}");
    }
    // A base mod is offered its variants.
    let mut h = open_bundled("orbital-skirmish");
    h.state_mut()
        .apply(Command::SelectBottomTab(BottomTab::Balance));
    h.run();
    h.get_by_label("Compare");
}
