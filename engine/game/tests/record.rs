//! Replays, state hashes and save files.

mod common;

use common::{Fail, Fake, Lcg, bot_game, new_game};
use hexforge_game::record::{self, SaveError, SaveFile};
use hexforge_game::{Action, GameRecord, PerformError, ReplayError, replay, state_hash};

#[test]
fn two_hundred_bot_games_replay_to_the_same_hash() {
    for seed in 0..200u64 {
        let mut g = new_game(seed, Fake::new());
        // Bots also undo and redo: the record keeps only the surviving actions.
        bot_game(&mut g, &mut Lcg(seed.wrapping_mul(31)), 400);
        let rec = g.record();
        let again = replay(&rec, Fake::new()).unwrap();
        assert_eq!(
            state_hash(again.state()),
            state_hash(g.state()),
            "seed {seed}"
        );
        assert_eq!(again.state(), g.state(), "seed {seed}");
    }
}

#[test]
fn different_seeds_give_different_games() {
    let play = |seed| {
        let mut g = new_game(seed, Fake::new());
        bot_game(&mut g, &mut Lcg(1), 200);
        state_hash(g.state())
    };
    assert_ne!(play(1), play(2));
}

#[test]
fn canonical_json_sorts_keys_and_hash_sees_every_change() {
    let v = serde_json::json!({ "b": 1, "a": { "d": [1, {"z": 0, "y": 2}], "c": null } });
    assert_eq!(
        record::canonical_json(&v).unwrap(),
        r#"{"a":{"c":null,"d":[1,{"y":2,"z":0}]},"b":1}"#
    );
    let g = new_game(1, Fake::new());
    let mut s = g.state().clone();
    let h = state_hash(&s);
    std::sync::Arc::make_mut(&mut s.globals).insert("x".into(), serde_json::json!(1));
    assert_ne!(state_hash(&s), h);
}

#[test]
fn replay_reports_the_failing_action() {
    let mut g = new_game(4, Fake::new());
    bot_game(&mut g, &mut Lcg(4), 10);
    let mut rec = g.record();
    rec.actions.insert(2, Action::end_phase("nobody".into()));
    match replay(&rec, Fake::new()) {
        Err(ReplayError::Action {
            index: 2,
            error: PerformError::Illegal(_),
            ..
        }) => {}
        other => panic!("{:?}", other.err()),
    }
    rec.format_version = 99;
    let err = replay(&rec, Fake::new()).err().unwrap();
    assert!(
        err.to_string().contains("version 99 is not supported"),
        "{err}"
    );
}

#[test]
fn hook_faults_roll_back_whole_phase_changes() {
    // Reach round 2 of blue's turn start via red's end_phase, with a failing turn hook.
    let mut g = new_game(8, Fake::new());
    g.perform(&Action::end_phase("blue".into())).unwrap();
    let before = g.state().clone();
    g.set_rules(Fake::failing(Fail::TurnHook));
    assert!(matches!(
        g.perform(&Action::end_phase("red".into())),
        Err(PerformError::Rules(_))
    ));
    assert_eq!(g.state(), &before);
    g.set_rules(Fake::failing(Fail::AfterHook));
    assert!(matches!(
        g.perform(&Action::end_phase("red".into())),
        Err(PerformError::Rules(_))
    ));
    assert_eq!(g.state(), &before);
}

#[test]
fn save_and_resume_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.json");
    let mut g = new_game(21, Fake::new());
    bot_game(&mut g, &mut Lcg(21), 80);
    record::save(&path, &SaveFile::of(&g)).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(r#""format": "hexforge-save""#));
    let loaded = record::load(&path).unwrap();
    let back = record::resume(&loaded, Fake::new()).unwrap();
    assert_eq!(back.state(), g.state());
    // Overwriting leaves exactly one file (the temporary file was renamed).
    record::save(&path, &SaveFile::of(&back)).unwrap();
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn bad_save_files_give_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let g = new_game(3, Fake::new());
    let good = serde_json::to_value(SaveFile::of(&g)).unwrap();

    let e = record::load(&dir.path().join("missing.json")).unwrap_err();
    assert!(matches!(e, SaveError::Io { .. }), "{e}");
    let e = record::load(&write("a", "{ not json")).unwrap_err();
    assert!(e.to_string().contains("not a save file (not JSON"), "{e}");
    let e = record::load(&write("b", r#"{"format":"other","version":1}"#)).unwrap_err();
    assert!(matches!(e, SaveError::NotASave { .. }), "{e}");
    let mut v2 = good.clone();
    v2["version"] = serde_json::json!(2);
    let e = record::load(&write("c", &v2.to_string())).unwrap_err();
    assert!(
        e.to_string().contains("save version 2 is not supported"),
        "{e}"
    );
    let mut broken = good.clone();
    broken["record"]["seed"] = serde_json::json!("many");
    let e = record::load(&write("d", &broken.to_string())).unwrap_err();
    assert!(matches!(e, SaveError::Malformed { .. }), "{e}");
    let mut tampered: SaveFile = serde_json::from_value(good).unwrap();
    tampered.state_hash = "0".repeat(64);
    let e = record::resume(&tampered, Fake::new()).err().unwrap();
    assert!(matches!(e, SaveError::HashMismatch { .. }), "{e}");
    let rec: GameRecord = tampered.record.clone();
    assert_eq!(rec.seed, 3);
}
