//! Playing in the editor, driven as a person would with egui_kittest: open a mod, select a piece,
//! perform a move by clicking a highlighted hex, undo it; break a file and save (the problem is
//! listed, the game goes on), fix it and save (reloaded); let bots play to the end; trace a line
//! of attack; and the persisted state round-trips through eframe's storage.

mod common;

use common::{
    all_sides_random, bundled_mods, click_hex, copied_mod, find_choice, harness, open_bundled,
    screen_of,
};
use eframe::Storage as _;
use egui::{Modifiers, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hexforge_core::hex::Hex;
use hexforge_editor::app::{EditorApp, Persisted, RulesStatus};
use hexforge_editor::command::{BottomTab, Command};
use hexforge_editor::session::ReplayStatus;
use hexforge_game::{PieceId, Position};
use hexforge_script::LuaRules;
use hexforge_script::loader::{LoadOptions, load_mods};
use hexforge_script::watch::{Progress, ReplayReport, replay_report};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A copy of `mods/tutorial` in a fresh mods folder (so a test may edit its files).
fn copied_tutorial() -> (tempfile::TempDir, PathBuf) {
    copied_mod("tutorial")
}

fn piece_at(app: &EditorApp, id: PieceId) -> Hex {
    let s = app.open.as_ref().unwrap();
    match s.game.state().pieces[&id].pos {
        Position::Hex(h) => h,
        ref other => panic!("{other:?}"),
    }
}

/// Opens the tutorial by clicking it in the mod browser.
fn open_tutorial(h: &mut Harness<'_, EditorApp>) {
    h.run();
    h.get_by_label("tutorial 0.1.0").click();
    h.run();
    assert_eq!(
        h.state().rules,
        RulesStatus::Ready,
        "{:?}",
        h.state().problems
    );
}

#[test]
fn click_a_piece_then_a_highlighted_hex_moves_it_and_undo_takes_it_back() {
    let mut h = harness(EditorApp::new(Persisted::default(), bundled_mods()));
    open_tutorial(&mut h);
    // The header says where the game is.
    h.get_by_label("Round 1");
    h.get_by_label("to act: blue");
    // Blue's frigate starts at (0, 3).
    let frigate = PieceId(1);
    let start = piece_at(h.state(), frigate);
    assert_eq!(start, Hex::new(0, 3));
    click_hex(&mut h, start);
    assert_eq!(h.state().selected_piece, Some(frigate));
    h.get_by_label_contains("Selected: #1 frigate");
    h.get_by_label_contains("move (");
    // Every destination of its moves is highlighted; none is the start hex.
    let highlight = h.state().scene.highlight.clone();
    assert!(!highlight.is_empty());
    assert!(!highlight.contains(&start));
    assert!(h.state().scene.selected.contains(&start));
    // Hovering a destination draws the path there from the piece.
    let to = Hex::new(0, 1);
    assert!(highlight.contains(&to), "{highlight:?}");
    h.hover_at(screen_of(&h, to));
    h.run();
    let path = h.state().scene.path.clone();
    assert_eq!(path.first(), Some(&start));
    assert_eq!(path.last(), Some(&to));
    // Clicking it performs the move.
    click_hex(&mut h, to);
    assert_eq!(piece_at(h.state(), frigate), to, "{}", h.state().status);
    assert_eq!(h.state().open.as_ref().unwrap().status().actions, 1);
    // The frigate has moved: it has no moves left, so nothing is highlighted.
    assert!(h.state().scene.highlight.is_empty());
    // Undo, as a person would: the button.
    h.get_by_label("Undo").click();
    h.run();
    assert_eq!(piece_at(h.state(), frigate), start);
    assert_eq!(h.state().open.as_ref().unwrap().status().actions, 0);
    // And redo.
    h.get_by_label("Redo").click();
    h.run();
    assert_eq!(piece_at(h.state(), frigate), to);
}

#[test]
fn an_illegal_action_shows_its_reason_and_changes_nothing() {
    let mut h = harness(EditorApp::new(Persisted::default(), bundled_mods()));
    open_tutorial(&mut h);
    let far = hexforge_game::Action::new(
        "move",
        "blue",
        serde_json::json!({ "piece": 1, "to": { "q": 0, "r": -3 } }),
    );
    h.state_mut().apply(Command::Perform(far));
    h.run();
    let app = h.state();
    assert!(app.status.starts_with("illegal: too far"), "{}", app.status);
    assert_eq!(piece_at(app, PieceId(1)), Hex::new(0, 3));
    assert!(
        h.query_all_by_label_contains("illegal: too far")
            .next()
            .is_some()
    );
}

#[test]
fn a_syntax_error_on_save_is_a_problem_the_game_goes_on_and_the_fix_reloads() {
    let (root, dir) = copied_tutorial();
    let mut h = harness(EditorApp::new(
        Persisted::default(),
        root.path().join("mods"),
    ));
    open_tutorial(&mut h);
    // Play one move first: it must survive both saves.
    let mv = h.state().open.as_ref().unwrap().legal[0].clone();
    h.state_mut().apply(Command::Perform(mv));
    h.run();
    let before = h.state().open.as_ref().unwrap().game.state().clone();
    // Break main.lua in the code editor and save.
    let main = dir.join("main.lua");
    h.state_mut().apply(Command::OpenFile {
        path: main.clone(),
        line: None,
    });
    h.run();
    let good = h.state().editor.text.clone();
    h.state_mut().editor.text = good.replacen("local MAX_RANGE = 3", "local MAX_RANGE = = 3", 1);
    h.get_by_label("Save").click();
    h.run();
    let app = h.state();
    assert!(
        matches!(app.rules, RulesStatus::ReloadFailed(n) if n >= 1),
        "{:?}",
        app.rules
    );
    let p = &app.problems[0];
    assert_eq!(p.file, main);
    let line = good
        .lines()
        .position(|l| l.contains("local MAX_RANGE = 3"))
        .unwrap()
        + 1;
    assert_eq!(p.line, line);
    h.get_by_label(&p.to_string());
    assert!(
        h.query_all_by_label_contains("failed — old rules still running")
            .next()
            .is_some()
    );
    // The game goes on under the old rules.
    let s = h.state().open.as_ref().unwrap();
    assert_eq!(s.game.state(), &before);
    assert!(!s.legal.is_empty());
    // Fix it and save: reloaded, problems gone, the game still the same.
    h.state_mut().editor.text = good;
    h.get_by_label("Save").click();
    h.run();
    let app = h.state();
    assert!(
        matches!(app.rules, RulesStatus::Reloaded(_)),
        "{:?}",
        app.rules
    );
    assert!(app.problems.is_empty(), "{:?}", app.problems);
    assert_eq!(app.open.as_ref().unwrap().game.state(), &before);
    h.get_by_label_contains("rules: reloaded in");
    // The replay under the new rules found no difference, and the status line says so.
    let r = app.last_reload.as_ref().unwrap();
    let rep = r.replay.report().unwrap();
    assert_eq!((rep.compared, rep.first_difference.is_none()), (1, true));
    h.get_by_label("replay: all 1 actions the same");
}

#[test]
fn a_rule_change_saved_elsewhere_is_picked_up_by_the_watcher_and_replayed() {
    let (root, dir) = copied_tutorial();
    let mut h = harness(EditorApp::new(
        Persisted::default(),
        root.path().join("mods"),
    ));
    open_tutorial(&mut h);
    if h.state().watcher.is_none() {
        eprintln!("no file watcher on this machine: skipped");
        return;
    }
    let mv = h.state().open.as_ref().unwrap().legal[0].clone();
    h.state_mut().apply(Command::Perform(mv));
    h.run();
    // Another editor changes the log line of a move: the replay's state differs at action 1.
    let main = dir.join("main.lua");
    let text = std::fs::read_to_string(&main).unwrap();
    let changed = text.replacen("%s %d moves to", "%s %d flies to", 1);
    assert_ne!(text, changed);
    std::fs::write(&main, changed).unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while !matches!(h.state().rules, RulesStatus::Reloaded(_))
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
    }
    let app = h.state();
    assert!(
        matches!(app.rules, RulesStatus::Reloaded(_)),
        "{:?}",
        app.rules
    );
    let rep = app.last_reload.as_ref().unwrap().replay.report().unwrap();
    let d = rep.first_difference.as_ref().expect("the log line changed");
    assert_eq!(d.index, Some(0));
    // The reload report tab says which action changed.
    h.get_by_label("Reload report").click();
    h.run();
    assert!(
        h.query_all_by_label_contains("action 1").next().is_some(),
        "the report names the first changed action"
    );
}

#[test]
fn the_bottom_tabs_show_the_game_log_and_the_tables_with_odds() {
    let mut h = open_bundled("hyperjump-galaxy");
    for _ in 0..5 {
        h.state_mut().apply(Command::BotStep);
    }
    h.get_by_label("Log").click();
    h.run();
    assert_eq!(h.state().persisted.bottom, BottomTab::Log);
    h.get_by_label("Events");
    h.get_by_label("Dice");
    h.get_by_label("Tables").click();
    h.run();
    // The jump table declares its roll: the panel shows it as the dice that roll the rows.
    h.get_by_label_contains("rows rolled with");
    assert_eq!(
        h.state().tables.exprs.get("hyperjump").map(String::as_str),
        Some("2d6")
    );
    assert!(
        h.query_all_by_label_contains("%").next().is_some(),
        "cells show their odds"
    );
    h.get_by_label("Problems").click();
    h.run();
    assert_eq!(h.state().persisted.bottom, BottomTab::Problems);
}

#[test]
fn bots_play_a_game_to_the_end_through_the_ui() {
    let mut h = harness(EditorApp::new(Persisted::default(), bundled_mods()));
    open_tutorial(&mut h);
    // Every side is played by hand at first: the bots do not move it.
    h.get_by_label("Step").click();
    h.run();
    assert_eq!(h.state().open.as_ref().unwrap().status().actions, 0);
    assert!(
        h.query_all_by_label_contains("your move: ")
            .next()
            .is_some()
    );
    all_sides_random(&mut h);
    // One step first: one action.
    h.get_by_label("Step").click();
    h.run();
    assert_eq!(h.state().open.as_ref().unwrap().status().actions, 1);
    // The last action is marked on the map.
    assert!(!h.state().scene.last.is_empty());
    // Watchable by default: one move, then a pause, whatever the frames do.
    assert_eq!(
        h.state().persisted.pace_ms,
        hexforge_editor::app::DEFAULT_PACE_MS
    );
    h.state_mut().apply(Command::SetPace(60_000));
    h.get_by_label("Play to end").click();
    for _ in 0..20 {
        h.step();
    }
    assert_eq!(h.state().run.as_ref().map(|r| r.steps), Some(1));
    assert_eq!(h.state().open.as_ref().unwrap().status().actions, 2);
    h.get_by_label("Cancel").click();
    h.step();
    h.step();
    assert!(h.state().run.is_none());
    // As fast as it goes.
    h.state_mut().apply(Command::SetPace(0));
    h.get_by_label("Play to end").click();
    // Frames go on while the bots play, a slice each; the Cancel button is there meanwhile.
    h.step();
    h.step();
    let mut frames = 0;
    while h.state().run.is_some() && frames < 10_000 {
        h.step();
        frames += 1;
    }
    assert!(h.state().run.is_none(), "the bots never finished");
    let s = h.state().open.as_ref().unwrap().status();
    assert!(s.outcome.is_some(), "{}", h.state().status);
    h.run();
    h.get_by_label_contains("Game over: ");
    assert!(
        h.query_all_by_label_contains("bots played")
            .next()
            .is_some()
    );
}

#[test]
fn cancel_stops_the_bots() {
    let mut h = open_bundled("solar-flare");
    h.get_by_label("Play to end").click();
    h.step();
    h.step();
    assert!(h.state().run.is_some());
    h.get_by_label_contains("bots playing:");
    h.get_by_label("Cancel").click();
    h.step();
    h.step();
    assert!(h.state().run.is_none());
    assert!(
        h.query_all_by_label_contains("bots stopped after")
            .next()
            .is_some()
    );
}

#[test]
fn hovering_a_target_traces_the_line_of_attack() {
    let mut h = harness(EditorApp::new(Persisted::default(), bundled_mods()));
    open_tutorial(&mut h);
    all_sides_random(&mut h);
    // Let bots play until some piece may fire at a target.
    let mut found = None;
    for _ in 0..400 {
        let s = h.state().open.as_ref().unwrap();
        if let Some(a) = s.legal.iter().find(|a| a.id == "fire") {
            found = Some(a.clone());
            break;
        }
        h.state_mut().apply(Command::BotStep);
        if h.state().play.status.outcome.is_some() {
            break;
        }
    }
    let fire = found.expect("a fire action comes up within 400 bot moves");
    let shooter = PieceId(fire.params["piece"].as_u64().unwrap() as u32);
    let target = PieceId(fire.params["target"].as_u64().unwrap() as u32);
    h.state_mut().apply(Command::SelectPiece(Some(shooter)));
    h.run();
    let (from, to) = (piece_at(h.state(), shooter), piece_at(h.state(), target));
    assert!(h.state().scene.targets.contains(&to));
    h.hover_at(screen_of(&h, to));
    h.run();
    assert_eq!(h.state().scene.lines, vec![(from, to)]);
    // Clicking the target fires (one fire action per target here).
    click_hex(&mut h, to);
    let log = &h.state().open.as_ref().unwrap().game.state().log;
    assert_eq!(
        log.last()
            .and_then(|e| e.action.as_ref())
            .map(|a| a.id.as_str()),
        Some("fire")
    );
}

/// An in-memory eframe storage.
#[derive(Default)]
struct MemStorage(BTreeMap<String, String>);

impl eframe::Storage for MemStorage {
    fn get_string(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }
    fn set_string(&mut self, key: &str, value: String) {
        self.0.insert(key.to_owned(), value);
    }
    fn remove_string(&mut self, key: &str) {
        self.0.remove(key);
    }
    fn flush(&mut self) {}
}

#[test]
fn the_persisted_state_round_trips_and_reopens_the_last_mod() {
    let mut app = EditorApp::new(Persisted::default(), bundled_mods());
    app.apply(Command::OpenMod(bundled_mods().join("tutorial")));
    app.apply(Command::SetOrientation(
        hexforge_core::hex::layout::Orientation::Pointy,
    ));
    app.persisted.show_inspector = false;
    app.persisted.camera.zoom = 2.5;
    let mut storage = MemStorage::default();
    eframe::set_value(&mut storage, eframe::APP_KEY, &app.persisted);
    let back: Persisted = eframe::get_value(&storage, eframe::APP_KEY).unwrap();
    assert_eq!(back, app.persisted);
    // A new run restores the last mod.
    let mut again = EditorApp::new(back, bundled_mods());
    let cmds = again.restore_commands();
    assert_eq!(
        cmds,
        vec![Command::OpenMod(bundled_mods().join("tutorial"))]
    );
    for c in cmds {
        again.apply(c);
    }
    assert_eq!(again.open.as_ref().unwrap().scenario, "picket");
    // Old storage without the newer fields still loads (serde defaults).
    storage.set_string(eframe::APP_KEY, "(last_mod: None)".into());
    let old: Persisted = eframe::get_value(&storage, eframe::APP_KEY).unwrap();
    assert!(old.show_play);
}

#[test]
fn a_save_reloads_the_mod_whether_the_mod_and_the_file_are_named_relative_or_absolute() {
    // Integration tests run in the editor's folder: `../mods` is the bundled mods folder.
    let relative = PathBuf::from("../mods");
    let absolute = bundled_mods().canonicalize().unwrap();
    for (mods, saved) in [
        (&relative, absolute.join("tutorial/main.lua")),
        (&absolute, relative.join("tutorial/main.lua")),
    ] {
        let mut app = EditorApp::new(Persisted::default(), mods.clone());
        app.apply(Command::OpenMod(mods.join("tutorial")));
        assert_eq!(app.rules, RulesStatus::Ready, "{:?}", app.problems);
        app.apply(Command::Saved(saved.clone()));
        assert!(
            matches!(app.rules, RulesStatus::Reloaded(_)),
            "opened from {}, saved {}: {:?}",
            mods.display(),
            saved.display(),
            app.rules
        );
    }
}

#[test]
fn a_lua_error_while_playing_is_a_problem_and_the_game_goes_on() {
    let (root, dir) = copied_tutorial();
    let main = dir.join("main.lua");
    let text = std::fs::read_to_string(&main).unwrap();
    let line = text
        .lines()
        .position(|l| l.trim() == "ctx:move(p.id, a.to)")
        .unwrap()
        + 1;
    let broken = text.replacen(
        "    ctx:move(p.id, a.to)\n",
        "    error(\"the engine room is on fire\")\n",
        1,
    );
    std::fs::write(&main, broken).unwrap();
    let mut h = harness(EditorApp::new(
        Persisted::default(),
        root.path().join("mods"),
    ));
    open_tutorial(&mut h);
    let frigate = PieceId(1);
    click_hex(&mut h, Hex::new(0, 3));
    assert_eq!(h.state().selected_piece, Some(frigate));
    click_hex(&mut h, Hex::new(0, 1));
    let app = h.state();
    let p = app.problems.first().expect("the error is listed");
    assert_eq!((p.file.clone(), p.line), (main, line), "{p}");
    assert!(p.message.contains("the engine room is on fire"), "{p}");
    // Nothing changed and the game goes on: blue may still act.
    assert_eq!(piece_at(app, frigate), Hex::new(0, 3));
    assert!(!app.open.as_ref().unwrap().legal.is_empty());
    assert!(
        h.query_all_by_label_contains("the engine room is on fire")
            .count()
            >= 2
    );
}

#[test]
fn several_actions_ending_on_one_hex_are_offered_to_pick() {
    let mut h = open_bundled("orbital-skirmish");
    // Step bots until some piece has two actions naming the same hex (a move ending there
    // with different facings, say), then click that piece and that hex.
    let found = find_choice(&mut h, 300, |c| {
        c.by_hex
            .iter()
            .find(|(_, v)| v.len() >= 2)
            .map(|(hex, _)| *hex)
    });
    let (piece, hex) = found.expect("two actions end on one hex within 300 bot moves");
    h.state_mut().apply(Command::SelectPiece(Some(piece)));
    h.run();
    let before = h.state().open.as_ref().unwrap().status().actions;
    click_hex(&mut h, hex);
    let n = h.state().pending.len();
    assert!(n >= 2, "{}", h.state().status);
    assert_eq!(h.state().open.as_ref().unwrap().status().actions, before);
    h.get_by_label("Choose one:");
    // Pick the first offered.
    let first = h.state().play.pending[0].0.clone();
    h.get_all_by_label(&first).next().unwrap().click();
    h.run();
    assert_eq!(
        h.state().open.as_ref().unwrap().status().actions,
        before + 1,
        "{}",
        h.state().status
    );
    assert!(h.state().pending.is_empty());
}

/// Issue #4: a movement choice comes with the path the engine's search found, and hovering its
/// destination draws that path (not a straight line).
#[test]
fn hovering_a_move_destination_draws_the_listed_path() {
    let mut h = open_bundled("orbital-skirmish");
    let path_of = |a: &hexforge_game::Action| -> Option<Vec<Hex>> {
        let list = a.params.get("path")?.as_array()?;
        list.iter()
            .map(|h| Some(Hex::new(h["q"].as_i64()? as i32, h["r"].as_i64()? as i32)))
            .collect()
    };
    // Step bots until a ship may move at least two hexes with a turn on the way.
    let found = find_choice(&mut h, 300, |c| {
        c.by_hex.iter().find_map(|(hex, idx)| {
            let a = c.actions.get(*idx.first()?)?;
            let path = path_of(a)?;
            let straight = path.len() >= 3 && path.windows(3).all(|w| w[1] - w[0] == w[2] - w[1]);
            (a.id == "move" && path.len() >= 3 && !straight).then_some((*hex, path))
        })
    });
    let (piece, (hex, path)) = found.expect("a turning move comes up within 300 bot moves");
    h.state_mut().apply(Command::SelectPiece(Some(piece)));
    h.run();
    assert_eq!(path.first(), Some(&piece_at(h.state(), piece)));
    assert_eq!(path.last(), Some(&hex));
    h.hover_at(screen_of(&h, hex));
    h.run();
    assert_eq!(h.state().scene.path, path);
}

/// The rules of the mod in `dir` as they are on disk now.
fn rules_of(dir: &Path) -> LuaRules {
    let root = dir.parent().unwrap();
    let id = dir.file_name().unwrap().to_str().unwrap();
    LuaRules::new(load_mods(root, id, &LoadOptions::default()).unwrap()).unwrap()
}

/// Opens a copy of orbital-skirmish, lets random bots take ~200 steps, then changes a rule
/// (a log line at the start of the game's last round) and saves: returns the harness just after the save, the mod
/// folder and the report the one-shot replay (the CLI's `watch`) gives for the same change.
fn long_game_then_a_rule_change() -> (Harness<'static, EditorApp>, tempfile::TempDir, ReplayReport)
{
    let (root, dir) = copied_mod("orbital-skirmish");
    let mut h = harness(EditorApp::new(
        Persisted::default(),
        root.path().join("mods"),
    ));
    h.run();
    h.state_mut().apply(Command::OpenMod(dir.clone()));
    h.run();
    // The fleet battle: four ships a side last long enough for 200 random steps.
    h.state_mut().apply(Command::NewGame {
        scenario: "fleet".into(),
        seed: 1,
    });
    h.run();
    assert!(h.state().open.is_some(), "{:?}", h.state().problems);
    all_sides_random(&mut h);
    for _ in 0..200 {
        h.state_mut().apply(Command::BotStep);
    }
    let record = h.state().open.as_ref().unwrap().game.record();
    assert!(
        record.actions.len() >= 100,
        "{} actions, outcome {:?}, waiting {:?}",
        record.actions.len(),
        h.state().open.as_ref().unwrap().game.state().outcome,
        h.state().open.as_ref().unwrap().game.waiting()
    );
    let old = rules_of(&dir);
    // The change shows only from the game's last round on: the replay differs late.
    let round = h.state().open.as_ref().unwrap().status().round;
    assert!(round >= 3, "round {round}");
    let main = dir.join("main.lua");
    let text = std::fs::read_to_string(&main).unwrap();
    let hook = "game.on(\"phase_start\", { phases = { \"move\" } }, function(ctx)\n";
    let changed = text.replacen(
        hook,
        &format!("{hook}  if ctx.round == {round} then ctx:log(\"the last round\") end\n"),
        1,
    );
    assert_ne!(text, changed);
    std::fs::write(&main, changed).unwrap();
    let expected = replay_report(&old, &rules_of(&dir), &record).unwrap();
    let index = expected.first_difference.as_ref().and_then(|d| d.index);
    assert!(index.is_some_and(|i| i >= 20), "{expected:?}");
    h.state_mut().apply(Command::Saved(main));
    (h, root, expected)
}

#[test]
fn the_replay_after_a_reload_runs_over_several_frames_and_ends_with_the_one_shot_report() {
    let (mut h, _root, expected) = long_game_then_a_rule_change();
    // The light says "reloaded" at once; the replay has only started.
    assert!(
        matches!(h.state().rules, RulesStatus::Reloaded(_)),
        "{:?}",
        h.state().rules
    );
    let replay =
        |h: &Harness<'_, EditorApp>| h.state().last_reload.as_ref().unwrap().replay.clone();
    let ReplayStatus::Running(first) = replay(&h) else {
        panic!("{:?}", replay(&h));
    };
    assert_eq!(first.done, 0);
    h.step();
    h.get_by_label_contains("rules: reloaded in");
    assert!(
        h.query_all_by_label_contains("replaying under the new rules: ")
            .next()
            .is_some(),
        "the status line shows the progress"
    );
    let mut seen = vec![first.done];
    let mut frames = 1;
    while let ReplayStatus::Running(p) = replay(&h) {
        assert!(p.done >= *seen.last().unwrap(), "progress never goes back");
        assert!(frames < 10_000, "the replay never finished");
        seen.push(p.done);
        h.step();
        frames += 1;
    }
    seen.dedup();
    assert!(
        seen.len() >= 3,
        "the replay ran in several slices: {seen:?}"
    );
    assert_eq!(replay(&h), ReplayStatus::Done(expected.clone()));
    assert!(!h.state().replaying());
    h.run();
    // The Reload report tab names the action that changed.
    let i = expected
        .first_difference
        .as_ref()
        .and_then(|d| d.index)
        .unwrap();
    h.get_by_label("Reload report").click();
    h.run();
    assert!(
        h.query_all_by_label_contains(&format!("action {}", i + 1))
            .next()
            .is_some()
    );
}

#[test]
fn cancel_stops_the_replay_and_a_new_reload_replaces_a_running_one() {
    let (mut h, _root, _) = long_game_then_a_rule_change();
    h.step();
    h.get_by_label("Cancel replay").click();
    h.step();
    let ReplayStatus::Cancelled { after, total } =
        h.state().last_reload.as_ref().unwrap().replay.clone()
    else {
        panic!("{:?}", h.state().last_reload);
    };
    assert!(after < total, "{after}/{total}");
    assert!(!h.state().replaying());
    h.run();
    assert!(
        h.query_all_by_label_contains(&format!("replay cancelled after {after} actions"))
            .next()
            .is_some()
    );
    h.get_by_label("Reload report").click();
    h.run();
    h.get_by_label_contains("(of ");
    // Save again: a new replay starts; a third save while it runs replaces it.
    let main = h.state().open.as_ref().unwrap().dir.join("main.lua");
    h.state_mut().apply(Command::Saved(main.clone()));
    h.step();
    let r1 = h.state().last_reload.as_ref().unwrap().replay.clone();
    assert!(r1.is_running(), "{r1:?}");
    h.state_mut().apply(Command::Saved(main));
    let r2 = h.state().last_reload.as_ref().unwrap().replay.clone();
    assert_eq!(
        r2,
        ReplayStatus::Running(Progress {
            done: 0,
            total,
            finished: false
        })
    );
    h.step();
    assert!(h.state().replaying());
    // The status line and the Reload report tab both show the progress; the tab's Cancel stops it.
    assert_eq!(
        h.query_all_by_label_contains("replaying under the new rules: ")
            .count(),
        2
    );
    h.get_by_label("Cancel").click();
    h.step();
    let r3 = &h.state().last_reload.as_ref().unwrap().replay;
    assert!(matches!(r3, ReplayStatus::Cancelled { .. }), "{r3:?}");
}

#[test]
fn keyboard_shortcuts_undo_redo_end_the_phase_and_show_their_list() {
    let mut h = harness(EditorApp::new(Persisted::default(), bundled_mods()));
    open_tutorial(&mut h);
    all_sides_random(&mut h);
    let actions =
        |h: &Harness<'_, EditorApp>| h.state().open.as_ref().unwrap().game.record().actions.len();
    h.state_mut().apply(Command::BotStep);
    h.run();
    assert_eq!(actions(&h), 1);
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(actions(&h), 0, "Ctrl+Z undoes");
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::Y);
    h.run();
    assert_eq!(actions(&h), 1, "Ctrl+Y redoes");
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::Z);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, egui::Key::Z);
    h.run();
    assert_eq!(actions(&h), 1, "Ctrl+Shift+Z redoes too");
    // E ends the phase; B is one bot move.
    let phase = |h: &Harness<'_, EditorApp>| h.state().play.status.phase.clone();
    let before = phase(&h);
    h.key_press(egui::Key::E);
    h.run();
    assert_ne!(phase(&h), before, "E ends the phase");
    let n = actions(&h);
    h.key_press(egui::Key::B);
    h.run();
    assert!(actions(&h) > n, "B makes a bot move");
    // F1 lists the shortcuts.
    h.key_press(egui::Key::F1);
    h.run();
    assert!(h.state().help_open);
    h.get_by_label("undo the last action");
    // On the code tab the keys are the code editor's: the game is not undone.
    h.state_mut()
        .apply(Command::SelectTab(hexforge_editor::command::Tab::Code));
    h.run();
    let n = actions(&h);
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(actions(&h), n);
}

#[test]
fn the_board_draws_terrain_in_the_colour_its_mod_declares() {
    let h = open_bundled("orbital-skirmish");
    let planet = h.state().scene.terrain_colors.get("planet").copied();
    assert_eq!(planet, Some(egui::Color32::from_rgb(0xa0, 0x78, 0x50)));
    assert_ne!(
        planet,
        Some(hexforge_editor::colors::owner_color("blue")),
        "a planet is not drawn in Blue's colour"
    );
}

#[test]
fn a_click_that_would_end_a_running_game_asks_first() {
    let mut h = harness(EditorApp::new(Persisted::default(), bundled_mods()));
    open_tutorial(&mut h);
    // No action yet: a demo opens at once.
    assert!(!h.state().game_in_progress());
    all_sides_random(&mut h);
    h.state_mut().apply(Command::BotStep);
    h.run();
    assert!(h.state().game_in_progress());
    // The always-visible demo button no longer drops the game: it asks.
    h.get_by_label("Hexagon").click();
    h.run();
    assert!(h.state().open.is_some(), "the game is still open");
    h.get_by_label("End the running game?");
    h.get_by_label("Keep playing").click();
    h.run();
    assert!(h.state().open.is_some());
    assert!(h.state().pending_end.is_none());
    // Asked again and answered yes: the demo replaces the game.
    h.get_by_label("Hexagon").click();
    h.run();
    h.get_by_label("End it").click();
    h.run();
    assert!(h.state().open.is_none(), "the demo replaced the game");
}

#[test]
fn panels_can_be_hidden_to_give_the_board_the_window() {
    let mut h = Harness::builder()
        .with_size(vec2(1280.0, 720.0))
        .with_max_steps(64)
        .build_ui_state(
            |ui, app: &mut EditorApp| app.show(ui),
            EditorApp::new(Persisted::default(), bundled_mods()),
        );
    open_tutorial(&mut h);
    let board_width = |h: &Harness<'_, EditorApp>| {
        // The hexagon board's drawn width, from the layout of the last frame.
        let layout = h.state().board_layout.expect("a hex board is shown");
        let (x0, _) = layout.hex_to_pixel(Hex::new(-6, 3));
        let (x1, _) = layout.hex_to_pixel(Hex::new(6, -3));
        (x1 - x0).abs()
    };
    let before = board_width(&h);
    for name in ["mods", "inspector", "bottom"] {
        h.get_by_label(name).click();
        h.run();
    }
    assert!(!h.state().persisted.show_browser);
    assert!(!h.state().persisted.show_inspector);
    assert!(!h.state().persisted.show_problems);
    assert!(h.state().persisted.show_play);
    let after = board_width(&h);
    assert!(after > before * 1.3, "the board grew: {before} -> {after}");
    // And back.
    h.get_by_label("mods").click();
    h.run();
    assert!(h.state().persisted.show_browser);
}
