//! `label` on an action (docs/API.md 2.7): a string or `{ text, short }` per choice, for the
//! editor; absent is `None`; a bad answer names the label's file and line.

mod common;

use hexforge_game::Action;
use hexforge_script::labels::{Label, labels};
use serde_json::json;

const SCENARIO: &str = "[[sides]]\nid = \"a\"\n";

fn main(label: &str) -> String {
    format!(
        r#"game.turns {{ order = "fixed", phases = {{ {{ id = "go" }} }} }}
game.action {{ id = "shout", phases = {{ "go" }}, params = {{ n = "integer" }},
  check = function() return true end, apply = function() end,
  label = {label} }}
game.action {{ id = "quiet", phases = {{ "go" }}, check = function() return true end, apply = function() end }}
"#
    )
}

fn ask(label: &str) -> Result<Vec<Option<Label>>, String> {
    let (_dir, game) = common::game("l", &main(label), SCENARIO, json!({}));
    let actions = [
        Action::new("shout", "a", json!({ "n": 3 })),
        Action::new("quiet", "a", json!({})),
    ];
    labels(game.rules(), game.state(), &actions).map_err(|e| e.to_string())
}

#[test]
fn labels_are_read_per_choice_and_absent_ones_are_none() {
    let got = ask(r#"function(ctx, a) return { text = "shout " .. a.n, short = a.n .. "!" } end"#)
        .unwrap();
    assert_eq!(
        got,
        vec![
            Some(Label {
                text: "shout 3".into(),
                short: "3!".into()
            }),
            None
        ]
    );
    let got = ask(r#"function(ctx, a) return "just words" end"#).unwrap();
    assert_eq!(got[0].as_ref().unwrap().short, "");
}

#[test]
fn a_bad_label_names_its_file_and_line() {
    let err = ask("function(ctx, a) return 42 end").unwrap_err();
    assert!(err.contains("mods/l/main.lua:4:"), "{err}");
    assert!(err.contains("label of action shout"), "{err}");
    let err =
        ask(r#"function(ctx, a) return { text = "x", short = "far too long for the map" } end"#)
            .unwrap_err();
    assert!(err.contains("short is longer than 12 characters"), "{err}");
}
