//! `[board] orientation` in a scenario: "flat" or "pointy", read back for the editor, and any
//! other word refused with the scenario file named.

mod common;

use hexforge_core::hex::layout::Orientation;
use hexforge_game::{Game, GameState};
use hexforge_script::scenario::declared_orientation;

const MAIN: &str = r#"game.turns { order = "fixed", phases = { { id = "go" } } }"#;

fn scenario(orientation: Option<&str>) -> String {
    let line = orientation.map_or(String::new(), |o| format!("orientation = \"{o}\"\n"));
    format!(
        "[board]\nshape = \"offset_rect\"\nwidth = 4\nheight = 3\n{line}[[sides]]\nid = \"a\"\n"
    )
}

#[test]
fn a_declared_orientation_is_read_back_and_absent_is_none() {
    for (word, want) in [
        (Some("pointy"), Some(Orientation::Pointy)),
        (Some("flat"), Some(Orientation::Flat)),
        (None, None),
    ] {
        let (_dir, rules) = common::load("o", MAIN, &scenario(word));
        let rules = rules.unwrap();
        assert_eq!(declared_orientation(&rules, "o"), want, "{word:?}");
    }
}

#[test]
fn an_unknown_orientation_is_refused_naming_the_scenario() {
    let (_dir, rules) = common::load("o", MAIN, &scenario(Some("diagonal")));
    let rules = rules.unwrap();
    let state = GameState::new(rules.mod_locks(), "o", serde_json::Value::Null, 1);
    let err = Game::new(rules, state).err().expect("refused").to_string();
    assert!(err.contains("scenarios/o.toml"), "{err}");
    assert!(
        err.contains("board orientation \"diagonal\" is not \"flat\" or \"pointy\""),
        "{err}"
    );
}
