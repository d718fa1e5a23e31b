//! The built binary: exit codes and messages for bad arguments, missing files and mods.

use std::path::Path;
use std::process::{Command, Output};

fn hexforge(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hexforge"))
        .args(args)
        .current_dir(dir)
        .env("HEXFORGE_MODS_DIR", dir.join("user-mods"))
        .output()
        .expect("the binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn every_command_has_help_with_an_example() {
    let tmp = tempfile::tempdir().unwrap();
    for cmd in [
        "check",
        "test",
        "play",
        "compare",
        "stats",
        "stats merge",
        "replay",
        "eval",
        "watch",
    ] {
        let mut args: Vec<&str> = cmd.split(' ').collect();
        args.push("--help");
        let o = hexforge(&args, tmp.path());
        assert_eq!(o.status.code(), Some(0), "{cmd}");
        let text = stdout(&o);
        assert!(
            text.contains("Example"),
            "{cmd} help has no example:\n{text}"
        );
    }
    let o = hexforge(&["--help"], tmp.path());
    assert!(stdout(&o).contains("play"));
}

#[test]
fn bad_arguments_exit_2_with_usage() {
    let tmp = tempfile::tempdir().unwrap();
    for args in [
        &["play"][..],
        &["frobnicate"],
        &["play", "tutorial", "--seed", "minus-one"],
        &["play", "tutorial", "--games", "0"],
        &["play", "tutorial", "--bots", "blue=,red"],
        &["play", "tutorial", "--games", "8", "--shard", "0/4"],
        &["play", "tutorial", "--games", "8", "--shard", "5/4"],
        &["compare", "tutorial"],
        &["stats", "merge"],
        &[],
    ] {
        let o = hexforge(args, tmp.path());
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains("Usage") || err.contains("try '--help'"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn an_unknown_mod_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    for cmd in ["check", "test", "play", "watch"] {
        let o = hexforge(&[cmd, "no-such-mod"], tmp.path());
        assert_eq!(o.status.code(), Some(1), "{cmd}");
        let err = stderr(&o);
        assert!(
            err.starts_with("error: no mod `no-such-mod`"),
            "{cmd}: {err}"
        );
        assert!(err.contains("user-mods"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_folder_without_a_manifest_is_not_a_mod() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("empty")).unwrap();
    let o = hexforge(&["check", "empty"], tmp.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("empty: not a mod folder (no mod.toml in it)"));
}

#[test]
fn replay_of_a_missing_or_foreign_file_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let o = hexforge(&["replay", "nothing.hexsave"], tmp.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error: nothing.hexsave: "),
        "{}",
        stderr(&o)
    );

    std::fs::write(tmp.path().join("notes.txt"), "hello").unwrap();
    let o = hexforge(&["replay", "notes.txt"], tmp.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not a save file"), "{}", stderr(&o));

    std::fs::write(
        tmp.path().join("future.hexsave"),
        r#"{"format":"hexforge-save","version":99}"#,
    )
    .unwrap();
    let o = hexforge(&["replay", "future.hexsave"], tmp.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("save version 99 is not supported"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn replay_needs_a_mod_to_replay_with() {
    let tmp = tempfile::tempdir().unwrap();
    let save = r#"{"format":"hexforge-save","version":1,"state_hash":"00",
        "record":{"format_version":1,"mods":[],"scenario":"x","seed":1,"actions":[]}}"#;
    std::fs::write(tmp.path().join("g.hexsave"), save).unwrap();
    let o = hexforge(&["replay", "g.hexsave"], tmp.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("the save names no mod; pass --mod"),
        "{}",
        stderr(&o)
    );

    let o = hexforge(&["replay", "g.hexsave", "--mod", "elsewhere"], tmp.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no mod `elsewhere`"), "{}", stderr(&o));

    let damaged = r#"{"format":"hexforge-save","version":1,"record":{"seed":"x"}}"#;
    std::fs::write(tmp.path().join("d.hexsave"), damaged).unwrap();
    let o = hexforge(&["replay", "d.hexsave"], tmp.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("damaged save"), "{}", stderr(&o));
}

#[test]
fn test_filter_runs_only_the_matching_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let o = hexforge(
        &["test", "mods/tutorial", "--filter", "undo restores"],
        &root,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("ok   mods/tutorial/tests/game.lua: undo restores the exact state"),
        "{text}"
    );
    assert!(text.contains("1 passed, 0 failed"), "{text}");
    let o = hexforge(
        &["test", "mods/tutorial", "--filter", "no such test"],
        &root,
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains("no test's `file: name` contains"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn compare_names_both_mods_when_one_lacks_the_scenario() {
    let tmp = tempfile::tempdir().unwrap();
    let mods = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../mods");
    let (a, b) = (mods.join("tutorial"), mods.join("orbital-skirmish"));
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let o = hexforge(&["compare", a, b, "--games", "2"], tmp.path());
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("cannot compare {a} and {b} on scenario `picket`")),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "{a} has it, {b} has no scenario `picket` (it has: duel"
        )),
        "{err}"
    );
}
