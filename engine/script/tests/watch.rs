//! Hot reload: the shared watcher sees edits and files in new folders; reload swaps only a
//! rule set that loads; replay_report names the first action whose outcome changed.

use hexforge_game::{Action, Game, GameState};
use hexforge_script::LuaRules;
use hexforge_script::loader::{LoadOptions, load_mods};
use hexforge_script::watch::{ModWatcher, reload, replay_report};
use serde_json::json;
use std::path::Path;
use std::time::Duration;

const MAIN: &str = r#"game.piece_type { id = "scout", stats = { mr = MR } }
game.piece_type { id = "tug" }
game.turns { phases = { { id = "move" } } }
game.action { id = "move", params = { piece = "piece", to = "hex" },
  check = function(ctx, a)
    if hex.distance(ctx:piece(a.piece).hex, a.to) > MR then return false, "too far" end
    return true
  end,
  apply = function(ctx, a) ctx:move(a.piece, a.to) end }
"#;

const SCENARIO: &str = "[board]\nshape = \"hexagon\"\nradius = 5\n[[sides]]\nid = \"blue\"\n[[pieces]]\ntype = \"scout\"\nowner = \"blue\"\nhex = { q = 0, r = 0 }\n[[pieces]]\ntype = \"tug\"\nowner = \"blue\"\nhex = { q = 1, r = 0 }\n";

fn setup(dir: &Path, mr: u32) {
    let m = dir.join("mods/demo");
    std::fs::create_dir_all(m.join("scenarios")).unwrap();
    std::fs::write(
        m.join("mod.toml"),
        "id = \"demo\"\nname = \"Demo\"\nversion = \"1.0.0\"\nengine = \"*\"\n",
    )
    .unwrap();
    std::fs::write(m.join("main.lua"), MAIN.replace("MR", &mr.to_string())).unwrap();
    std::fs::write(m.join("scenarios/s.toml"), SCENARIO).unwrap();
}

fn mv(q: i32, r: i32) -> Action {
    Action::new(
        "move",
        "blue",
        json!({ "piece": 1, "to": { "q": q, "r": r } }),
    )
}

#[test]
fn a_folder_named_through_dotdot_reports_edits_canonical_and_reads_as_nothing() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), 3);
    let mods = dir.path().join("mods");
    // `mods/demo/../demo`: another spelling of the mod folder, as `../mods` is from `editor/`.
    let spelled = mods.join("demo").join("..").join("demo");
    let canonical = mods.join("demo").canonicalize().unwrap();
    let mut w = ModWatcher::new(Duration::from_millis(20)).unwrap();
    w.watch(&spelled).unwrap();
    // Reading every file (loading the mod) is not a change.
    for f in std::fs::read_dir(&canonical).unwrap() {
        let _ = std::fs::read(f.unwrap().path());
    }
    assert_eq!(
        w.wait(Duration::from_millis(300)),
        Vec::<std::path::PathBuf>::new()
    );
    std::fs::write(spelled.join("main.lua"), "-- edited").unwrap();
    let mut seen = Vec::new();
    for _ in 0..50 {
        seen.extend(w.wait(Duration::from_millis(100)));
        if !seen.is_empty() {
            break;
        }
    }
    assert_eq!(seen, [canonical.join("main.lua")]);
}

#[test]
fn watcher_sees_edits_and_files_in_new_folders() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), 3);
    let mods = dir.path().join("mods");
    let mut w = ModWatcher::new(Duration::from_millis(20)).unwrap();
    w.watch(&mods).unwrap();
    w.watch(&mods).unwrap(); // no-op
    std::fs::write(mods.join("demo/main.lua"), "-- edited").unwrap();
    let mut seen = Vec::new();
    for _ in 0..50 {
        seen.extend(w.wait(Duration::from_millis(100)));
        if seen.iter().any(|p| p.ends_with("demo/main.lua")) {
            break;
        }
    }
    assert!(
        seen.iter().any(|p| p.ends_with("demo/main.lua")),
        "{seen:?}"
    );
    std::fs::create_dir_all(mods.join("demo/rules")).unwrap();
    std::fs::write(mods.join("demo/rules/fire.lua"), "return {}").unwrap();
    let mut seen = Vec::new();
    for _ in 0..50 {
        seen.extend(w.wait(Duration::from_millis(100)));
        if seen.iter().any(|p| p.ends_with("rules/fire.lua")) {
            break;
        }
    }
    assert!(
        seen.iter().any(|p| p.ends_with("rules/fire.lua")),
        "{seen:?}"
    );
}

#[test]
fn reload_keeps_the_game_reports_orphans_errors_and_the_first_changed_action() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), 3);
    let mods = dir.path().join("mods");
    let opts = LoadOptions::default();
    let rules = LuaRules::new(load_mods(&mods, "demo", &opts).unwrap()).unwrap();
    let state = GameState::new(rules.mod_locks(), "s", json!({}), 1);
    let mut game = Game::new(rules, state).unwrap();
    game.perform(&mv(0, 1)).unwrap();
    game.perform(&mv(0, -2)).unwrap(); // 3 hexes: fine with MR 3
    game.perform(&mv(1, -2)).unwrap();
    let record = game.record();

    // A broken edit: the old rules stay, the errors name the file and line.
    std::fs::write(
        mods.join("demo/main.lua"),
        "game.piece_type { id = \"scout\" }\nlocal x = = 2\n",
    )
    .unwrap();
    let errs = reload(&mods, "demo", &opts, game.state()).unwrap_err();
    assert!(
        errs[0].to_string().starts_with("mods/demo/main.lua:2:"),
        "{errs:?}"
    );

    // A good edit: MR 2 and no more tugs. The state is kept; the tug is reported.
    std::fs::write(
        mods.join("demo/main.lua"),
        MAIN.replace("MR", "2")
            .replace("game.piece_type { id = \"tug\" }\n", ""),
    )
    .unwrap();
    let (new_rules, report) = reload(&mods, "demo", &opts, game.state()).unwrap();
    assert_eq!(report.orphaned_pieces, vec![(2, "tug".to_string())]);
    let report = replay_report(game.rules(), &new_rules, &record).unwrap();
    let d = report.first_difference.expect("a difference");
    // The tug's type is gone but the scenario still places it, so setup itself differs.
    assert_eq!(d.index, None, "{d:?}");
    assert!(d.new.contains("no piece type \"tug\""), "{d:?}");

    // Keep the tug, only change MR: the first action that now moves 3 hexes differs.
    std::fs::write(mods.join("demo/main.lua"), MAIN.replace("MR", "2")).unwrap();
    let (new_rules, report) = reload(&mods, "demo", &opts, game.state()).unwrap();
    assert!(report.orphaned_pieces.is_empty());
    let report = replay_report(game.rules(), &new_rules, &record).unwrap();
    let d = report.first_difference.expect("a difference");
    assert_eq!(d.index, Some(1), "{d:?}");
    assert!(
        d.old.starts_with("accepted") && d.new.contains("too far"),
        "{d:?}"
    );
    let before = hexforge_game::record::state_hash(game.state());
    let _old = game.set_rules(new_rules);
    assert_eq!(
        hexforge_game::record::state_hash(game.state()),
        before,
        "swapping rules keeps the state"
    );
    assert_eq!(
        replay_report(game.rules(), game.rules(), &record)
            .unwrap()
            .first_difference,
        None
    );
}

#[test]
fn reading_the_mod_is_not_a_change_but_writing_it_is() {
    // inotify reports reads too; loading the mod (as every reload does) must not look like an
    // edit, or `hexforge watch` and the editor reload forever.
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), 3);
    let mods = dir.path().join("mods");
    let mut w = ModWatcher::new(Duration::from_millis(20)).unwrap();
    w.watch(&mods).unwrap();
    for _ in 0..3 {
        load_mods(&mods, "demo", &LoadOptions::default()).unwrap();
        assert_eq!(
            w.wait(Duration::from_millis(150)),
            Vec::<std::path::PathBuf>::new()
        );
    }
    std::fs::write(mods.join("demo/main.lua"), MAIN.replace("MR", "4")).unwrap();
    let seen = w.wait(Duration::from_secs(5));
    assert!(
        seen.iter().any(|p| p.ends_with("demo/main.lua")),
        "{seen:?}"
    );
}
