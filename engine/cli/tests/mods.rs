//! End to end on the real mods: the tutorial, its variant and the turn-structure fixtures,
//! through the built binary and through the library (for the 200-game determinism check).
//!

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn hexforge(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hexforge"))
        .args(args)
        .current_dir(dir)
        .env("HEXFORGE_MODS_DIR", dir.join("no-user-mods"))
        .output()
        .expect("the binary runs")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

const FIXTURES: [&str; 5] = [
    "turns-orbital",
    "turns-squadron",
    "turns-planetoid",
    "turns-hyperjump",
    "turns-flare",
];

#[test]
fn the_tutorial_checks_and_its_lua_tests_pass() {
    let o = hexforge(&["check", "tutorial"], &root());
    assert!(o.status.success(), "{}{}", out(&o), err(&o));
    assert!(out(&o).contains("ok"));

    let o = hexforge(&["test", "tutorial"], &root());
    assert!(o.status.success(), "{}{}", out(&o), err(&o));
    assert!(out(&o).contains("12 passed, 0 failed"), "{}", out(&o));

    // The variant's own tests run against the base plus its edits.
    let o = hexforge(&["test", "tutorial-variant"], &root());
    assert!(o.status.success(), "{}{}", out(&o), err(&o));
    assert!(out(&o).contains("4 passed, 0 failed"), "{}", out(&o));
}

#[test]
fn the_tutorial_and_its_variant_play() {
    let o = hexforge(&["play", "mods/tutorial", "--bots", "random"], &root());
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        out(&o).contains("wins") || out(&o).contains("draw"),
        "{}",
        out(&o)
    );

    let o = hexforge(
        &["play", "tutorial-variant", "--games", "5", "--json"],
        &root(),
    );
    assert!(o.status.success(), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["games"], 5);
}

#[test]
fn a_saved_game_replays_to_its_hash_and_a_changed_mod_is_caught() {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(
        &root().join("mods/tutorial"),
        &tmp.path().join("mods/tutorial"),
    );
    let o = hexforge(
        &["play", "tutorial", "--seed", "4", "--save", "g.hexsave"],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", err(&o));
    let o = hexforge(&["replay", "g.hexsave"], tmp.path());
    assert!(o.status.success(), "{}{}", out(&o), err(&o));
    assert!(out(&o).contains("same state as saved"));

    // Change a rule: the replay reaches another state (or fails), and says so with exit 1.
    let main = tmp.path().join("mods/tutorial/main.lua");
    let text = std::fs::read_to_string(&main).unwrap();
    std::fs::write(
        &main,
        text.replace("hull = 3, speed = 2", "hull = 9, speed = 2"),
    )
    .unwrap();
    let o = hexforge(&["replay", "g.hexsave"], tmp.path());
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    assert!(err(&o).contains("changed since the save"), "{}", err(&o));
}

#[test]
fn replaying_hostile_saves_gives_clear_errors_under_the_real_rules() {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(
        &root().join("mods/tutorial"),
        &tmp.path().join("mods/tutorial"),
    );
    let o = hexforge(
        &["play", "tutorial", "--seed", "4", "--save", "g.hexsave"],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", err(&o));
    let text = std::fs::read(tmp.path().join("g.hexsave")).unwrap();
    // What the load estimates it builds stays within its budget (16 times the size cap).
    let cost = hexforge_game::record::load_cost(&text, u64::MAX).unwrap();
    assert!(
        cost < 16 * text.len() as u64,
        "{cost} for {} bytes",
        text.len()
    );
    let good: serde_json::Value = serde_json::from_slice(&text).unwrap();
    let far = serde_json::json!({ "q": i32::MIN, "r": i32::MAX });
    let long = "s".repeat(100_000);
    let cases: Vec<(&str, serde_json::Value, &str)> = vec![
        (
            "/record/actions/0/side",
            "green".into(),
            "action 0 (`move` by green) failed on replay",
        ),
        (
            "/record/actions/0/id",
            "teleport".into(),
            "action 0 (`teleport` by blue) failed on replay",
        ),
        (
            "/record/actions/0/params/to",
            far,
            "action 0 (`move` by blue) failed on replay",
        ),
        (
            "/record/actions/0/params/piece",
            u64::MAX.into(),
            "action 0 (`move` by blue) failed",
        ),
        (
            "/record/actions/0/params",
            serde_json::json!([[[[[[1]]]]]]),
            "action 0 (`move` by blue)",
        ),
        (
            "/record/actions/0/side",
            long.into(),
            "… (100000 bytes in all)",
        ),
        (
            "/record/format_version",
            2.into(),
            "record format version 2 is not supported",
        ),
        (
            "/record/scenario",
            "nowhere".into(),
            "the game could not start",
        ),
    ];
    for (at, value, says) in cases {
        let mut v = good.clone();
        *v.pointer_mut(at).unwrap() = value;
        std::fs::write(tmp.path().join("h.hexsave"), v.to_string()).unwrap();
        let o = hexforge(&["replay", "h.hexsave"], tmp.path());
        let e = err(&o);
        assert_eq!(o.status.code(), Some(1), "{at}: {e:.500}");
        assert!(
            e.starts_with("error: h.hexsave does not replay: "),
            "{at}: {e:.500}"
        );
        assert!(e.contains(says), "{at}: {e:.500}");
        assert!(e.len() < 2000, "{at}: {} bytes: {e:.500}", e.len());
    }
    // A save cut short says so, and the seed must fit.
    std::fs::write(tmp.path().join("h.hexsave"), &text[..text.len() / 2]).unwrap();
    let e = err(&hexforge(&["replay", "h.hexsave"], tmp.path()));
    assert!(e.contains("the file ends too early"), "{e}");
    let mut v = good;
    v["record"]["seed"] = serde_json::json!(1e30);
    std::fs::write(tmp.path().join("h.hexsave"), v.to_string()).unwrap();
    let e = err(&hexforge(&["replay", "h.hexsave"], tmp.path()));
    assert!(
        e.starts_with("error: h.hexsave: damaged save: invalid type: floating point"),
        "{e}"
    );
}

#[test]
fn a_broken_mod_reports_every_problem_with_file_and_line_and_exits_1() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("mods/tutorial");
    copy_dir(&root().join("mods/tutorial"), &dir);
    let main = dir.join("main.lua");
    let mut text = std::fs::read_to_string(&main).unwrap();
    let line = text.lines().count() + 1;
    text.push_str("game.action { id = \"jump\", phases = { \"nowhere\" } }\n");
    std::fs::write(&main, text).unwrap();
    let o = hexforge(&["check", "tutorial"], tmp.path());
    assert_eq!(o.status.code(), Some(1));
    let all = out(&o) + &err(&o);
    // Both problems of the bad declaration are reported, at its line.
    assert!(
        all.contains(&format!(
            "mods/tutorial/main.lua:{line}: action jump: phase \"nowhere\""
        )),
        "{all}"
    );
    assert!(
        all.contains(&format!(
            "mods/tutorial/main.lua:{line}: action jump: apply"
        )),
        "{all}"
    );
    assert!(!all.contains("panicked"), "{all}");
}

#[test]
fn eval_prints_json_and_reports_lua_errors_with_the_users_line() {
    let o = hexforge(&["eval", "return hex.neighbor({q=0,r=0}, 0)"], &root());
    assert!(o.status.success(), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v, serde_json::json!({"q": 0, "r": -1}));

    let o = hexforge(
        &["eval", "return {1, 2, {ok = true, s = 'a\"b'}}, 'ignored'"],
        &root(),
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v, serde_json::json!([1, 2, {"ok": true, "s": "a\"b"}]));

    let o = hexforge(&["eval", "local x = 1\nerror('nope')"], &root());
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(err(&o).trim(), "error: eval:2: nope");

    let o = hexforge(&["eval", "while true do end"], &root());
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("instruction budget"), "{}", err(&o));
}

#[test]
fn check_accepts_the_shipped_mods_and_reports_broken_files_with_their_lines() {
    for m in ["mods/tutorial", "mods/tutorial-variant"]
        .into_iter()
        .map(String::from)
        .chain(FIXTURES.iter().map(|f| format!("tests/fixtures/{f}")))
    {
        let o = hexforge(&["check", &m], &root());
        assert!(o.status.success(), "{m}: {}{}", out(&o), err(&o));
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("mods/tutorial");
    copy_dir(&root().join("mods/tutorial"), &dir);
    copy_dir(
        &root().join("mods/tutorial-variant"),
        &tmp.path().join("mods/tutorial-variant"),
    );
    std::fs::write(dir.join("tests/broken.lua"), "return {\n  x = = 1,\n}\n").unwrap();
    let manifest = std::fs::read_to_string(dir.join("mod.toml")).unwrap();
    std::fs::write(
        dir.join("mod.toml"),
        manifest.replace("version = \"0.1.0\"", "version = \"one\""),
    )
    .unwrap();
    let o = hexforge(&["check", "tutorial"], tmp.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(
        out(&o).contains("mods/tutorial/mod.toml:5:11: version"),
        "{}",
        out(&o)
    );

    std::fs::write(dir.join("mod.toml"), manifest).unwrap();
    // The variant sees its base's broken file too: the base is part of its rule set.
    for m in ["tutorial", "tutorial-variant"] {
        let o = hexforge(&["check", m], tmp.path());
        assert_eq!(o.status.code(), Some(1), "{m}");
        assert!(
            out(&o).contains("mods/tutorial/tests/broken.lua:2: unexpected symbol near '='"),
            "{}",
            out(&o)
        );
        assert!(out(&o).contains(": 1 problem"), "{}", out(&o));
    }
}

#[test]
fn eval_in_a_mods_vm_sees_its_declarations() {
    let o = hexforge(
        &[
            "eval",
            "--mod",
            "tutorial",
            "return game.piece_types.scout.stats.speed",
        ],
        &root(),
    );
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(out(&o).trim(), "3");

    // The variant's edits are applied on top of its base.
    let code = "return { game.piece_types.scout.stats.speed, game.tables.to_hit.cells[2][3] }";
    let o = hexforge(&["eval", "--mod", "tutorial-variant", code], &root());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v, serde_json::json!([4, 4]));
}

#[test]
fn two_hundred_bot_games_of_each_mod_replay_to_equal_hashes() {
    use hexforge_game::play::{PlayOptions, play_bot_game};
    let mut dirs = vec![
        root().join("mods/tutorial"),
        root().join("mods/tutorial-variant"),
    ];
    dirs.extend(
        FIXTURES
            .iter()
            .map(|f| root().join("tests/fixtures").join(f)),
    );
    for dir in dirs {
        let loaded = hexforge::runtime::load(&dir).unwrap();
        // Replays run in a second, separately loaded VM: nothing may hide in the first one.
        let fresh = hexforge::runtime::load(&dir).unwrap();
        let games = if dir.ends_with("tutorial") { 200 } else { 20 };
        for seed in 0..games {
            let state = hexforge_game::GameState::new(
                loaded.locks.clone(),
                &loaded.scenarios[0],
                serde_json::Value::Null,
                seed,
            );
            let (game, report) = play_bot_game(loaded.rules(), state, &PlayOptions::default())
                .unwrap_or_else(|e| panic!("{}: seed {seed}: {e}", dir.display()));
            let again = hexforge_game::replay(&game.record(), fresh.rules()).unwrap();
            assert_eq!(
                hexforge_game::state_hash(again.state()),
                report.state_hash,
                "{} seed {seed}",
                dir.display()
            );
        }
    }
}

#[test]
fn test_runs_returned_and_registered_tests_and_counts_failures() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("mods/mini");
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    std::fs::write(
        dir.join("mod.toml"),
        "id = \"mini\"\nname = \"Mini\"\nversion = \"0.1.0\"\nengine = \"*\"\n",
    )
    .unwrap();
    std::fs::write(dir.join("main.lua"), "answer = 42\n").unwrap();
    std::fs::write(
        dir.join("util.lua"),
        "return { double = function(x) return 2 * x end }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("tests/a.lua"),
        "local u = require('mini.util')\nreturn {\n  doubles = function() assert(u.double(2) == 4) end,\n  \
         sees_main = function() assert(answer == 42, 'main.lua ran first') end,\n  \
         fails = function() error('expected failure') end,\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("tests/b.lua"),
        "test('registered', function() end)\ntest('loops', function() while true do end end)\n\
         test('bad eq', function(t)\n  t:eq({1, {2}}, {1, {3}})\nend)\n",
    )
    .unwrap();
    let o = hexforge(&["test", "mini"], tmp.path());
    assert_eq!(o.status.code(), Some(1), "{}{}", out(&o), err(&o));
    let text = out(&o);
    assert!(text.contains("3 passed, 3 failed"), "{text}");
    // A failing assertion names the test file and line, and both values.
    assert!(
        text.contains("mods/mini/tests/b.lua:4: expected {1=1, 2={1=3}}, got {1=1, 2={1=2}}"),
        "{text}"
    );
    assert!(
        text.contains("ok   mods/mini/tests/a.lua: doubles"),
        "{text}"
    );
    assert!(text.contains("FAIL mods/mini/tests/a.lua: fails"), "{text}");
    assert!(
        text.contains("mods/mini/tests/a.lua:5: expected failure"),
        "{text}"
    );
    assert!(text.contains("FAIL mods/mini/tests/b.lua: loops"), "{text}");
    assert!(text.contains("instruction budget"), "{text}");

    // Fix the failures: exit 0.
    std::fs::write(
        dir.join("tests/b.lua"),
        "test('registered', function() end)\n",
    )
    .unwrap();
    let a = std::fs::read_to_string(dir.join("tests/a.lua")).unwrap();
    std::fs::write(
        dir.join("tests/a.lua"),
        a.replace("error('expected failure')", ""),
    )
    .unwrap();
    let o = hexforge(&["test", "mini"], tmp.path());
    assert!(o.status.success(), "{}{}", out(&o), err(&o));
    assert!(out(&o).contains("4 passed, 0 failed"), "{}", out(&o));
}

#[test]
fn watch_reloads_on_every_change_and_reports_problems() {
    use std::io::BufRead;
    use std::sync::mpsc;
    use std::time::Duration;

    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("mods/tutorial");
    copy_dir(&root().join("mods/tutorial"), &dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_hexforge"))
        .args(["watch", "tutorial"])
        .current_dir(tmp.path())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    // Waits for a line containing `want`, failing after a few seconds instead of hanging.
    let wait_for = |want: &str| -> String {
        loop {
            match rx.recv_timeout(Duration::from_secs(10)) {
                Ok(line) if line.contains(want) => return line,
                Ok(_) => {}
                Err(e) => panic!("no line with {want:?}: {e}"),
            }
        }
    };
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        wait_for("watching");
        wait_for("loaded in");
        wait_for("game kept for comparison: scenario picket, seed 1");
        let main = dir.join("main.lua");
        let good = std::fs::read_to_string(&main).unwrap();
        std::fs::write(&main, format!("{good}\ngame.action {{ id = \"x\" }}\n")).unwrap();
        wait_for("not reloaded; the previous rules stay");
        let problem = wait_for("main.lua:");
        assert!(problem.contains("action x"), "{problem}");
        std::fs::write(&main, &good).unwrap();
        wait_for("reloaded in");
        wait_for("the kept game replays the same");
        // Frigates that can no longer move 2 hexes: the kept game now goes differently.
        let slower = good.replace("hull = 3, speed = 2", "hull = 3, speed = 1");
        assert_ne!(slower, good);
        std::fs::write(&main, slower).unwrap();
        wait_for("reloaded in");
        let diff = wait_for("the kept game now differs at");
        assert!(diff.contains("too far: speed 1"), "{diff}");
    }));
    // Stop the watcher this test started (by its own handle).
    let _ = child.kill();
    let _ = child.wait();
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}

#[test]
fn eval_in_a_scenario_asks_the_map_and_the_tables() {
    // The hyperjump document's worked example on the bundled map: four stars through two systems
    // and a navigation star; and the table's exact odds in column 0, from the engine core.
    let o = hexforge(
        &[
            "eval",
            "--mod",
            "hyperjump-galaxy",
            "--scenario",
            "frontier",
            "return { ctx:graph_distance('galaxy', 'vessa', 'umbral'), ctx:graph_route('galaxy', 'vessa', 'umbral') }",
        ],
        &root(),
    );
    assert!(o.status.success(), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(
        v,
        serde_json::json!([4, ["vessa", "korrin", "dathe", "lumen", "umbral"]])
    );

    let o = hexforge(
        &[
            "eval",
            "--mod",
            "hyperjump-galaxy",
            "local r = {} for _, o in ipairs(tables.odds('hyperjump', '2d6', 0)) do r[#r+1] = o.result .. ' ' .. o.numer .. '/' .. o.denom end return r",
        ],
        &root(),
    );
    assert!(o.status.success(), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v, serde_json::json!(["safe 5/6", "drift1 1/6"]));
}
