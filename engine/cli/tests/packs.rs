//! Packs end to end through the binary (issue #10): a solar-flare variant and an
//! orbital-skirmish scenario pack made with `new`, edited, packed, installed into a temporary
//! user folder and played by bots; hostile archives rejected with the folder untouched;
//! installing a newer version keeps the older one while a save uses it; remove refuses while
//! a save uses a version; replay picks the save's version, or explains why it cannot.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs the binary from the repository root (bundled mods in ./mods) with a temporary user
/// mods folder.
fn hexforge(args: &[&str], user: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hexforge"))
        .args(args)
        .current_dir(root())
        .env("HEXFORGE_MODS_DIR", user)
        .output()
        .expect("the binary runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn ok(args: &[&str], user: &Path) -> String {
    let o = hexforge(args, user);
    assert!(
        o.status.success(),
        "hexforge {args:?} failed:\n{}",
        text(&o)
    );
    text(&o)
}

fn fails(args: &[&str], user: &Path) -> String {
    let o = hexforge(args, user);
    assert!(
        !o.status.success(),
        "hexforge {args:?} should fail:\n{}",
        text(&o)
    );
    text(&o)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn copy_example(id: &str, to: &Path, files: &[&str]) {
    for f in files {
        let target = to.join(f);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(root().join("examples/packs").join(id).join(f), target).unwrap();
    }
}

fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            if p.is_dir() {
                out.push((rel, vec![]));
                stack.push(p);
            } else {
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn a_solar_flare_variant_is_made_packed_installed_and_played() {
    let tmp = tempfile::tempdir().unwrap();
    let user = tmp.path().join("user/mods");
    let work = tmp.path().join("work");
    let o = ok(
        &[
            "new",
            "flare-overcharge",
            "--extends",
            "solar-flare",
            "--in",
            s(&work),
        ],
        &user,
    );
    assert!(
        o.contains("created flare-overcharge (a variant of solar-flare 0.1.0)"),
        "{o}"
    );
    let dir = work.join("flare-overcharge");
    // The template as made: loads, passes its one test.
    assert!(ok(&["test", s(&dir)], &user).contains("1 passed, 0 failed"));
    // The edit: one rule changed in Lua, with its test (the files of examples/packs/).
    copy_example(
        "flare-overcharge",
        &dir,
        &["mod.toml", "main.lua", "tests/overcharge.lua"],
    );
    assert!(ok(&["test", s(&dir)], &user).contains("2 passed, 0 failed"));
    let archive = tmp.path().join("flare.hexpack");
    let o = ok(&["pack", s(&dir), "-o", s(&archive)], &user);
    assert!(o.contains("check ok, 2 tests passed"), "{o}");
    assert!(o.contains("packed flare-overcharge 1.0.0"), "{o}");
    std::fs::remove_dir_all(&work).unwrap();
    let o = ok(&["install", s(&archive)], &user);
    assert!(o.contains("installed flare-overcharge 1.0.0"), "{o}");
    assert!(ok(&["list"], &user).contains("flare-overcharge 1.0.0"));
    // Installed in the user folder, found by id, its base found among the bundled mods.
    let o = ok(
        &[
            "play",
            "flare-overcharge",
            "--scenario",
            "skirmish",
            "--seed",
            "2",
        ],
        &user,
    );
    assert!(
        o.contains("flare-overcharge (scenario skirmish, seed 2):"),
        "{o}"
    );
    assert!(o.contains("wins") || o.contains("draw"), "{o}");
}

#[test]
fn an_orbital_scenario_pack_is_made_packed_installed_and_both_scenarios_play() {
    let tmp = tempfile::tempdir().unwrap();
    let user = tmp.path().join("user/mods");
    let work = tmp.path().join("work");
    ok(
        &[
            "new",
            "orbital-belt-pack",
            "--extends",
            "orbital-skirmish",
            "--in",
            s(&work),
        ],
        &user,
    );
    let dir = work.join("orbital-belt-pack");
    copy_example(
        "orbital-belt-pack",
        &dir,
        &[
            "mod.toml",
            "main.lua",
            "scenarios/belt-crossing.toml",
            "scenarios/belt-ambush.toml",
            "tests/scenarios.lua",
        ],
    );
    let archive = tmp.path().join("belt.hexpack");
    assert!(ok(&["pack", s(&dir), "-o", s(&archive)], &user).contains("check ok, 3 tests passed"));
    ok(&["install", s(&archive)], &user);
    for scenario in ["belt-crossing", "belt-ambush"] {
        let o = ok(
            &["play", "orbital-belt-pack", "--scenario", scenario],
            &user,
        );
        assert!(o.contains(&format!("(scenario {scenario}, seed 1)")), "{o}");
        assert!(o.contains("wins") || o.contains("draw"), "{o}");
    }
}

#[test]
fn a_new_game_from_the_template_tests_and_plays_to_the_end() {
    let tmp = tempfile::tempdir().unwrap();
    let user = tmp.path().join("user/mods");
    ok(&["new", "my-game", "--in", s(tmp.path())], &user);
    let dir = tmp.path().join("my-game");
    assert!(ok(&["test", s(&dir)], &user).contains("1 passed, 0 failed"));
    let o = ok(&["play", s(&dir), "--games", "3"], &user);
    assert!(o.contains("3 games of my-game"), "{o}");
    // The editor set-up: a language-server config pointing at definitions written beside it.
    let config = std::fs::read_to_string(dir.join(".luarc.json")).unwrap();
    assert!(
        config.contains(r#""workspace.library": ["../.hexforge-types"]"#),
        "{config}"
    );
    assert!(
        config.contains(r#""runtime.version": "Lua 5.4""#),
        "{config}"
    );
    let types = std::fs::read_to_string(tmp.path().join(".hexforge-types/hexforge.d.lua")).unwrap();
    assert!(types.contains("function CtxReader:piece("), "{types}");
    assert!(
        tmp.path()
            .join(".hexforge-types/hexforge-test.d.lua")
            .is_file()
    );
    let e = fails(&["new", "my-game", "--in", s(tmp.path())], &user);
    assert!(e.contains("already exists"), "{e}");
    let e = fails(&["new", "My_Game"], &user);
    assert!(e.contains("is not a mod id"), "{e}");
}

#[test]
fn pack_refuses_a_mod_whose_tests_fail() {
    let tmp = tempfile::tempdir().unwrap();
    let user = tmp.path().join("user/mods");
    ok(&["new", "broken", "--in", s(tmp.path())], &user);
    let dir = tmp.path().join("broken");
    std::fs::write(
        dir.join("tests/bad.lua"),
        "test(\"fails\", function(t) t:eq(1, 2) end)\n",
    )
    .unwrap();
    let e = fails(
        &["pack", s(&dir), "-o", s(&tmp.path().join("x.hexpack"))],
        &user,
    );
    assert!(e.contains("not packed: 1 of 2 tests failed"), "{e}");
    assert!(!tmp.path().join("x.hexpack").exists());
}

/// A small mod `demo` at `version` in `work`, packed; returns the archive.
fn demo_pack(tmp: &Path, user: &Path, version: &str, body: &str) -> PathBuf {
    let work = tmp.join(format!("src-{version}"));
    ok(&["new", "demo", "--in", s(&work)], user);
    let manifest = work.join("demo/mod.toml");
    let t = std::fs::read_to_string(&manifest)
        .unwrap()
        .replace("0.1.0", version);
    std::fs::write(&manifest, t).unwrap();
    let main = work.join("demo/main.lua");
    let t = std::fs::read_to_string(&main).unwrap();
    std::fs::write(&main, format!("{t}\n{body}\n")).unwrap();
    let archive = tmp.join(format!("demo-{version}.hexpack"));
    ok(&["pack", s(&work.join("demo")), "-o", s(&archive)], user);
    archive
}

#[test]
fn install_newer_keeps_older_while_a_save_uses_it_and_replay_uses_it() {
    let tmp = tempfile::tempdir().unwrap();
    let user = tmp.path().join("user/mods");
    let v1 = demo_pack(tmp.path(), &user, "0.1.0", "");
    ok(&["install", s(&v1)], &user);
    let save = tmp.path().join("game.hexsave");
    ok(&["play", "demo", "--seed", "4", "--save", s(&save)], &user);
    // 0.2.0 changes a rule: a hit now needs 6.
    let v2 = demo_pack(tmp.path(), &user, "0.2.0", "-- 0.2.0: harder to hit\n");
    let o = ok(&["install", s(&v2)], &user);
    assert!(o.contains("installed demo 0.2.0"), "{o}");
    assert!(o.contains("kept demo 0.1.0: 1 saved game(s) use it"), "{o}");
    assert!(user.join(".versions/demo@0.1.0/mod.toml").is_file());
    let o = ok(&["list"], &user);
    assert!(o.contains("demo 0.2.0"), "{o}");
    assert!(o.contains("kept older versions (for saved games):"), "{o}");
    assert!(o.contains(s(&save)), "{o}");
    // The save replays with the version it was made with.
    let o = ok(&["replay", s(&save)], &user);
    assert!(o.contains("using the kept demo 0.1.0"), "{o}");
    assert!(o.contains("same state as saved"), "{o}");
    // Once the save is gone, the next install prunes the old version.
    std::fs::remove_file(&save).unwrap();
    let v3 = demo_pack(tmp.path(), &user, "0.3.0", "");
    let o = ok(&["install", s(&v3)], &user);
    assert!(
        o.contains("removed demo 0.1.0: no saved game uses it"),
        "{o}"
    );
}

/// A temp folder whose user mods folder has `demo` 0.1.0 installed (packed and installed with
/// the commands) and a game of it saved as `g.hexsave`: (temp folder, user mods, save).
fn demo_installed_and_saved() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let user = tmp.path().join("user/mods");
    ok(
        &["install", s(&demo_pack(tmp.path(), &user, "0.1.0", ""))],
        &user,
    );
    let save = tmp.path().join("g.hexsave");
    ok(&["play", "demo", "--save", s(&save)], &user);
    (tmp, user, save)
}

#[test]
fn remove_refuses_while_a_save_uses_it_and_explains() {
    let (_tmp, user, save) = demo_installed_and_saved();
    let e = fails(&["remove", "demo"], &user);
    assert!(e.contains("demo 0.1.0 is used by 1 saved game"), "{e}");
    assert!(e.contains(s(&save)), "{e}");
    assert!(e.contains("--force"), "{e}");
    assert!(user.join("demo/mod.toml").is_file());
    assert!(ok(&["remove", "demo", "--force"], &user).contains("removed demo 0.1.0"));
    assert!(!user.join("demo").exists());
    let e = fails(&["remove", "demo"], &user);
    assert!(e.contains("demo is not installed"), "{e}");
}

#[test]
fn a_save_whose_version_is_gone_says_which_version_it_was_made_with() {
    let (tmp, user, save) = demo_installed_and_saved();
    ok(
        &["install", s(&demo_pack(tmp.path(), &user, "0.2.0", ""))],
        &user,
    );
    ok(&["remove", "demo", "--version", "0.1.0", "--force"], &user);
    let e = fails(&["replay", s(&save)], &user);
    assert!(
        e.contains(
            "this save was made with demo 0.1.0, but demo 0.2.0 is installed and 0.1.0 is not kept"
        ),
        "{e}"
    );
    assert!(
        e.contains("demo declares no migration (game.migrations[\"demo\"])"),
        "{e}"
    );
}

#[test]
fn a_migration_turns_an_old_save_into_one_the_new_version_replays() {
    let (tmp, user, save) = demo_installed_and_saved();
    // 0.2.0 renames the action `fire` to `shoot` and migrates old saves.
    let migration = r#"
game.actions.shoot = game.actions.fire
game.actions.shoot.id = "shoot"
game.actions.fire = nil
game.migrations = { demo = function(from, save)
  if from ~= "0.1.0" then return nil, "only saves from 0.1.0 can be migrated" end
  for _, a in ipairs(save.actions) do
    if a.id == "fire" then a.id = "shoot" end
  end
  return save
end }
"#;
    ok(
        &[
            "install",
            s(&demo_pack(tmp.path(), &user, "0.2.0", migration)),
        ],
        &user,
    );
    ok(&["remove", "demo", "--version", "0.1.0", "--force"], &user);
    let o = ok(&["replay", s(&save)], &user);
    assert!(
        o.contains("migrated the save from demo 0.1.0 to 0.2.0"),
        "{o}"
    );
    assert!(o.contains("under the installed versions"), "{o}");
}

#[test]
fn hostile_archives_are_rejected_with_the_reason_and_the_folder_untouched() {
    let tmp = tempfile::tempdir().unwrap();
    let user = tmp.path().join("user/mods");
    ok(
        &["install", s(&demo_pack(tmp.path(), &user, "0.1.0", ""))],
        &user,
    );
    let before = snapshot(tmp.path().join("user").as_path());
    let corpus = root().join("engine/pack/tests/corpus");
    for (file, reason) in [
        ("bad-absolute.hexpack", "unsafe path (absolute path)"),
        ("bad-dotdot.hexpack", "'..' leaves the mod folder"),
        ("bad-symlink.hexpack", "is a symbolic link"),
        ("bad-hardlink.hexpack", "is a hard link"),
        ("bad-chardev.hexpack", "is a character device"),
        ("bad-fifo.hexpack", "is a fifo"),
        ("bad-duplicate.hexpack", "appears twice"),
        ("bad-bomb.hexpack", "compression bomb"),
        ("bad-hash.hexpack", "content hash mismatch"),
        ("bad-non-utf8.hexpack", "not UTF-8"),
        ("bad-hidden.hexpack", "hidden name"),
        ("bad-not-gzip.hexpack", "not a .hexpack archive"),
    ] {
        let e = fails(&["install", s(&corpus.join(file))], &user);
        assert!(e.contains("rejected"), "{file}: {e}");
        assert!(e.contains(reason), "{file}: {e}");
    }
    // A pack whose dependency does not match is explained in plain words.
    let work = tmp.path().join("needy");
    ok(
        &["new", "needy", "--extends", "tutorial", "--in", s(&work)],
        &user,
    );
    let m = work.join("needy/mod.toml");
    let t = std::fs::read_to_string(&m)
        .unwrap()
        .replace("tutorial = \"^0.1.0\"", "tutorial = \">=0.2\"");
    std::fs::write(&m, t).unwrap();
    let archive = tmp.path().join("needy.hexpack");
    // `pack` checks the mod first and refuses a dependency that does not match.
    fails(&["pack", s(&work.join("needy")), "-o", s(&archive)], &user);
    assert_eq!(snapshot(tmp.path().join("user").as_path()), before);
}
