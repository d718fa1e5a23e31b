//! `ctx:set(id, { "comps", 2, "charge" }, v)`: a write into one item of a piece's value, so a
//! mod that changes one component of a long list converts that item, not the whole list. An
//! equal value changes nothing (the values stay shared with the state before); a position one
//! past the end appends; every other miss is a refusal that names the path and the mod's line.
//! The same sharing holds for globals (`ctx:set_global`).

mod common;

use hexforge_game::{Action, Game, PerformError, SideId};
use hexforge_script::LuaRules;
use serde_json::{Value, json};
use std::sync::Arc;

const SCENARIO: &str = r#"name = "Paths"
[board]
shape = "hexagon"
radius = 2
[[sides]]
id = "blue"
[[pieces]]
type = "ship"
owner = "blue"
hex = { q = 0, r = 0 }
"#;

/// `set` writes `a.v` at `a.path` on ship 1 (a path list, or a plain key).
const MAIN: &str = r#"game.piece_type { id = "ship", values = {
  hull = 4,
  comps = { { kind = "beam", charge = 0 }, { kind = "shield", charge = 1 } },
  meta = { note = "x", tags = { "a" } } } }
game.turns { order = "fixed", phases = { { id = "main" } } }
game.action { id = "set", params = { path = "any", v = "any" },
  apply = function(ctx, a) ctx:set(1, a.path, a.v) end }
game.action { id = "global", params = { v = "any" },
  apply = function(ctx, a) ctx:set_global("g", a.v) end }
"#;

fn game() -> (tempfile::TempDir, Game<LuaRules>) {
    common::game("paths", MAIN, SCENARIO, Value::Null)
}

fn set(g: &mut Game<LuaRules>, path: Value, v: Value) -> Result<(), String> {
    let a = Action::new("set", SideId::new("blue"), json!({ "path": path, "v": v }));
    g.perform(&a).map(|_| ()).map_err(|e| match e {
        PerformError::Illegal(i) => i.reason,
        other => other.to_string(),
    })
}

fn values(g: &Game<LuaRules>) -> Arc<std::collections::BTreeMap<String, Value>> {
    Arc::clone(&g.state().pieces.values().next().unwrap().values)
}

#[test]
fn a_path_sets_one_item_and_appends_one_past_the_end() {
    let (_d, mut g) = game();
    set(&mut g, json!(["comps", 2, "charge"]), json!(3)).unwrap();
    set(&mut g, json!(["meta", "tags", 2]), json!("b")).unwrap();
    set(
        &mut g,
        json!(["comps", 3]),
        json!({ "kind": "battery", "charge": 2 }),
    )
    .unwrap();
    set(&mut g, json!(["meta", "note"]), Value::Null).unwrap();
    set(&mut g, json!("hull"), json!(2)).unwrap();
    let v = values(&g);
    assert_eq!(
        v["comps"],
        json!([
            { "kind": "beam", "charge": 0 },
            { "kind": "shield", "charge": 3 },
            { "kind": "battery", "charge": 2 }
        ])
    );
    assert_eq!(v["meta"], json!({ "tags": ["a", "b"] }));
    assert_eq!(v["hull"], json!(2));
}

#[test]
fn an_equal_value_keeps_the_values_shared() {
    let (_d, mut g) = game();
    let before = values(&g);
    set(&mut g, json!(["comps", 1, "charge"]), json!(0)).unwrap();
    set(&mut g, json!(["meta", "missing"]), Value::Null).unwrap();
    assert!(Arc::ptr_eq(&before, &values(&g)), "nothing was copied");
    set(&mut g, json!(["comps", 1, "charge"]), json!(1)).unwrap();
    assert!(!Arc::ptr_eq(&before, &values(&g)));
}

#[test]
fn paths_that_miss_are_refused_with_the_path_and_the_line() {
    let (_d, mut g) = game();
    let before = g.state().clone();
    for (path, v, want) in [
        (
            json!(["comps", 5]),
            json!(1),
            "comps[5] is past the end of the list (2 items; 3 appends)",
        ),
        (
            json!(["comps", 4, "charge"]),
            json!(1),
            "comps[4] is past the end of the list (2 items)",
        ),
        (
            json!(["hull", 1]),
            json!(1),
            "hull is a number, not a list ([1] cannot go into it)",
        ),
        (
            json!(["comps", "x"]),
            json!(1),
            "comps is a list, not a table with string keys (.x cannot go into it)",
        ),
        (
            json!(["meta", "nope", "x"]),
            json!(1),
            "meta.nope is not there",
        ),
        (
            json!(["cargo", 1]),
            json!(1),
            "the piece has no value \"cargo\" to set cargo[1] in",
        ),
        (
            json!(["comps", 1]),
            Value::Null,
            "a list item cannot be removed (comps[1]); set the whole list",
        ),
        (json!(["comps", 0]), json!(1), "step 2 is 0"),
        (json!([1, "comps"]), json!(1), "step 1 is 1"),
    ] {
        let e = set(&mut g, path.clone(), v).unwrap_err();
        assert!(
            e.contains("mods/paths/main.lua:7") && e.contains("ctx:set: ") && e.contains(want),
            "{path}: {e}"
        );
    }
    assert_eq!(g.state(), &before, "every refusal left the state as it was");
}

#[test]
fn an_equal_global_keeps_the_globals_shared() {
    let (_d, mut g) = game();
    let global = |g: &mut Game<LuaRules>, v: Value| {
        g.perform(&Action::new(
            "global",
            SideId::new("blue"),
            json!({ "v": v }),
        ))
        .unwrap();
        Arc::clone(&g.state().globals)
    };
    let first = global(&mut g, json!([1, 2]));
    assert!(
        Arc::ptr_eq(&first, &global(&mut g, json!([1, 2]))),
        "nothing was copied"
    );
    let changed = global(&mut g, json!([1, 3]));
    assert!(!Arc::ptr_eq(&first, &changed));
    assert_eq!(changed["g"], json!([1, 3]));
}
