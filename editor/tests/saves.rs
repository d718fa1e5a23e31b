//! Games you keep (#28 item 5): save the running game from the play panel in the command
//! line's format, load it back (after asking, since it ends the running game), and a save made
//! before the rules changed loads up to the first action the new rules refuse, saying which.
//! And the first screen of a first run is a real game, not a demo board.

mod common;

use common::{bundled_mods, copied_mod, harness};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hexforge_editor::app::{EditorApp, Persisted};
use hexforge_editor::command::Command;
use hexforge_editor::saves;
use hexforge_game::record::load;

fn play_a_little(h: &mut Harness<'_, EditorApp>, steps: usize) {
    let sides = h.state().open.as_ref().unwrap().status().sides;
    for side in sides {
        h.state_mut().apply(Command::SetBot {
            side: side.as_str().to_owned(),
            bot: "random".into(),
        });
    }
    for _ in 0..steps {
        h.state_mut().apply(Command::BotStep);
    }
    h.run();
}

#[test]
fn a_game_saved_from_the_play_panel_loads_back_to_the_same_state() {
    let (tmp, dir) = copied_mod("tutorial");
    let mut app = EditorApp::new(Persisted::default(), dir.parent().unwrap().to_path_buf());
    app.apply(Command::OpenMod(dir.clone()));
    let mut h = harness(app);
    h.run();
    play_a_little(&mut h, 12);
    let log = h.state().open.as_ref().unwrap().game.state().log.clone();
    assert!(log.len() > 5);
    h.get_by_label("Saved games").click();
    h.run();
    h.get_by_label("Save game").click();
    h.run();
    let status = h.state().status.clone();
    assert!(status.starts_with("game saved to "), "{status}");
    let saved = saves::saves_of(h.state().open.as_ref().unwrap());
    assert_eq!(saved.len(), 1, "{saved:?}");
    assert!(saved[0].starts_with(tmp.path().join("saves")), "{saved:?}");
    // The command line's format: the file loads as a save of this game.
    let file = load(&saved[0]).unwrap();
    assert_eq!(
        file.record.scenario,
        h.state().open.as_ref().unwrap().scenario
    );

    // Play on, then load the save: the editor asks first, then the game is the saved one.
    play_a_little(&mut h, 5);
    let name = saved[0].file_name().unwrap().to_string_lossy().into_owned();
    h.get_by_label(&format!("Load {name}")).click();
    h.run();
    h.get_by_label("End it").click();
    h.run();
    let s = h.state().open.as_ref().unwrap();
    assert_eq!(s.game.state().log, log);
    assert!(
        h.state().status.starts_with("loaded "),
        "{}",
        h.state().status
    );
    assert!(
        !h.state().status.contains(';'),
        "no notes: {}",
        h.state().status
    );
    // The game goes on from there: it can be undone (the replay is its history).
    assert!(s.game.can_undo());
}

#[test]
fn a_save_from_before_a_rule_change_loads_up_to_the_refused_action() {
    let (_tmp, dir) = copied_mod("tutorial");
    let s = hexforge_editor::session::Session::open(&dir, None, 4).unwrap();
    let mut s = s;
    // Moves by hand (the first legal move each time) so the save holds some.
    for _ in 0..6 {
        let Some(a) = s.legal.iter().find(|a| a.id == "move").cloned() else {
            break;
        };
        s.perform(&a).unwrap().unwrap();
    }
    let path = saves::default_path(&s);
    saves::save_game(&s, &path).unwrap();
    let moves = s.game.state().log.len();
    // Scouts and frigates now move at most 0: every saved move is refused.
    let main = dir.join("main.lua");
    let text = std::fs::read_to_string(&main).unwrap();
    let slower = text
        .replace(
            "stats = { hull = 3, speed = 2, guns = 2 }",
            "stats = { hull = 3, speed = 0, guns = 2 }",
        )
        .replace(
            "stats = { hull = 1, speed = 3, guns = 1 }",
            "stats = { hull = 1, speed = 0, guns = 1 }",
        );
    assert_ne!(text, slower);
    std::fs::write(&main, slower).unwrap();
    let loaded = saves::load_game(&dir, &path, Vec::new()).unwrap();
    let notes = loaded.notes.join("\n");
    assert!(
        notes.contains("tutorial 0.1.0 changed since the save"),
        "{notes}"
    );
    assert!(notes.contains("is refused now"), "{notes}");
    assert!(loaded.session.game.state().log.len() < moves);
}

#[test]
fn a_file_that_is_not_a_save_is_a_problem_naming_it() {
    let (tmp, dir) = copied_mod("tutorial");
    let bad = tmp.path().join("saves/not-a-save.json");
    std::fs::create_dir_all(bad.parent().unwrap()).unwrap();
    std::fs::write(&bad, "{ \"hello\": 1 }").unwrap();
    let err = saves::load_game(&dir, &bad, Vec::new()).unwrap_err();
    assert!(err[0].to_string().contains("not-a-save.json"), "{:?}", err);
}

#[test]
fn a_first_run_opens_a_real_game() {
    let app = EditorApp::new(Persisted::default(), bundled_mods());
    let cmds = app.restore_commands();
    assert_eq!(
        cmds,
        vec![Command::OpenMod(bundled_mods().join("orbital-skirmish"))]
    );
}

/// After a reload whose rules refuse an action the game already played, the reload report
/// offers to replay the game up to it; the game then goes on from there under the new rules.
#[test]
fn a_reload_that_refuses_a_played_action_offers_to_replay_up_to_it() {
    let (_tmp, dir) = copied_mod("tutorial");
    let mut app = EditorApp::new(Persisted::default(), dir.parent().unwrap().to_path_buf());
    app.apply(Command::OpenMod(dir.clone()));
    // By hand: a frigate moves, then a scout.
    for kind in ["frigate", "scout"] {
        let s = app.open.as_mut().unwrap();
        let state = s.game.state();
        let a = s
            .legal
            .iter()
            .find(|a| {
                a.id == "move"
                    && a.params["piece"]
                        .as_u64()
                        .and_then(|id| state.pieces.get(&hexforge_game::PieceId(id as u32)))
                        .is_some_and(|p| p.kind == kind)
            })
            .cloned()
            .unwrap_or_else(|| panic!("a {kind} move"));
        s.perform(&a).unwrap().unwrap();
    }
    let played = app.open.as_ref().unwrap().game.state().log.len() - 1;
    assert_eq!(played, 2);
    // Scouts cannot move now: the second action is refused under the new rules.
    let main = dir.join("main.lua");
    let text = std::fs::read_to_string(&main).unwrap();
    let frozen = text.replace(
        "stats = { hull = 1, speed = 3, guns = 1 }",
        "stats = { hull = 1, speed = 0, guns = 1 }",
    );
    assert_ne!(text, frozen);
    std::fs::write(&main, frozen).unwrap();
    app.apply(Command::Saved(main));
    app.apply(Command::SelectBottomTab(
        hexforge_editor::command::BottomTab::Reload,
    ));
    let mut h = harness(app);
    for _ in 0..200 {
        h.step();
        if h.state()
            .last_reload
            .as_ref()
            .is_some_and(|r| !r.replay.is_running())
        {
            break;
        }
    }
    h.run();
    h.get_by_label("Replay the first 1 action under the new rules")
        .click();
    h.run();
    let s = h.state().open.as_ref().unwrap();
    assert_eq!(
        s.game.state().log.len(),
        2,
        "the start and the frigate's move"
    );
    assert!(
        h.state()
            .status
            .starts_with("replayed the first 1 action under"),
        "{}",
        h.state().status
    );
}
