//! Declarations: loading base + variant in one VM, in-place edits, file:line on every problem.

use hexforge_script::loader::{LoadOptions, load_mods};
use hexforge_script::sandbox::Limits;
use mlua::Value;
use std::path::Path;

fn write(root: &Path, files: &[(&str, &str)]) {
    for (p, text) in files {
        let p = root.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

fn manifest(id: &str, extra: &str) -> String {
    format!("id = \"{id}\"\nname = \"{id}\"\nversion = \"1.0.0\"\nengine = \"*\"\n{extra}")
}

const BASE: &str = r#"local util = require("base.util")
game.piece_type { id = "frigate", stats = { hull = 40, adf = 3, mr = 3 }, values = { speed = 0 } }
game.piece_type { id = "station", stats = { hull = 99 }, footprint = { {q=0,r=0}, {q=0,r=-1} } }
game.table { id = "hit", rows = { 1, 2 }, columns = { "near", "far" }, cells = { { "hit", "miss" }, { "hit", "hit" } } }
game.dice { id = "battle", faces = { "fighter", "strike", "capital", "wild", "star", "alert" } }
game.dice { id = "d6", notation = "1d6" }
game.turns { order = "fixed", phases = { { id = "move" }, { id = "defensive_fire", actor = "others" }, { id = "offensive_fire" } } }
game.action { id = "move", phases = { "move" }, params = { piece = "piece", to = "hex" },
  check = function(ctx, a) return true end, apply = function(ctx, a) end }
game.setup(function(ctx) end)
game.victory(function(ctx) return nil end)
game.on("round_start", function(ctx) end)
game.terrain { id = "planet", name = "Planet", color = "green", blocks_movement = true }
game.action { id = "end_phase", check = function(ctx, a) return true end }
assert(util.answer == 42)
"#;

const VARIANT: &str = r#"game.piece_types.frigate.stats.mr = 4
game.tables.hit.cells[2][2] = "miss"
game.actions.move.check = function(ctx, a) return "variant says no" end
game.piece_type { id = "scout", stats = { hull = 10 } }
"#;

#[test]
fn base_and_variant_load_in_order_and_edit_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let mods = dir.path().join("mods");
    write(
        &mods,
        &[
            ("base/mod.toml", &manifest("base", "")),
            ("base/main.lua", BASE),
            ("base/util.lua", "return { answer = 42 }"),
            ("fast/mod.toml", &manifest("fast", "extends = \"base\"\n")),
            ("fast/main.lua", VARIANT),
        ],
    );
    let l = load_mods(&mods, "fast", &LoadOptions::default()).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(
        l.mods.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(),
        vec!["base", "fast"]
    );
    assert_eq!(l.mods[0].content_hash.len(), 64);
    let d = &l.decls;
    assert_eq!(d.piece_types["frigate"].stats["mr"], serde_json::json!(4));
    assert_eq!(
        d.piece_types["frigate"].source.to_string(),
        "mods/base/main.lua:2"
    );
    assert_eq!(
        d.piece_types["scout"].source.to_string(),
        "mods/fast/main.lua:4"
    );
    assert_eq!(d.piece_types["station"].footprint.len(), 2);
    assert_eq!(d.tables["hit"].cells[1][1], serde_json::json!("miss"));
    assert_eq!(d.dice["battle"].faces.len(), 6);
    let turns = d.turns.as_ref().unwrap();
    assert_eq!(
        turns
            .phases
            .iter()
            .map(|p| p.actor.as_str())
            .collect::<Vec<_>>(),
        vec!["active", "others", "active"]
    );
    assert_eq!(d.actions["move"].params["to"], "hex");
    assert!(d.actions["move"].check.is_some());
    assert_eq!(d.hooks["round_start"].len(), 1);
    assert_eq!(
        d.terrains["planet"].data["blocks_movement"],
        serde_json::json!(true)
    );
    assert!(d.actions["end_phase"].apply.is_none());
    assert_eq!(d.tables["hit"].row_policy, "error");
    assert!(d.setup.is_some() && d.victory.is_some());
    // The variant's check replaced the base one.
    let check: mlua::Function = l
        .sandbox
        .lua()
        .registry_value(&l.callbacks[d.actions["move"].check.unwrap().0 as usize])
        .unwrap();
    let r: String = l
        .sandbox
        .guarded(|_| check.call((mlua::Value::Nil, mlua::Value::Nil)))
        .unwrap();
    assert_eq!(r, "variant says no");
}

#[test]
fn every_problem_is_reported_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let mods = dir.path().join("mods");
    let bad = r#"game.piece_type { id = "frigate" }
game.piece_type { id = "frigate" }
game.table { id = "t", rows = { 1, 2 }, columns = { "a", "b" }, cells = { { 1, 2 }, { 3 } } }
game.dice { id = "x", notation = "2q6" }
game.turns { order = "sideways", phases = { { id = "move", actor = "nobody" } } }
game.action { id = "fire", phases = { "fire" }, params = { target = "spaceship" }, apply = 3 }
game.on("tea_time", function() end)
game.piece_type { id = "Bad Id", stats = { f = function() end } }
game.setup("not a function")
"#;
    write(
        &mods,
        &[
            ("bad/mod.toml", &manifest("bad", "")),
            ("bad/main.lua", bad),
        ],
    );
    let errs = load_mods(&mods, "bad", &LoadOptions::default()).unwrap_err();
    let text: Vec<String> = errs.iter().map(ToString::to_string).collect();
    let expect = [
        (
            "mods/bad/main.lua:2: game.piece_type: duplicate id \"frigate\" (first declared at mods/bad/main.lua:1)",
            2,
        ),
        (
            "mods/bad/main.lua:3: table t: row 2 has 1 cells but there are 2 columns",
            3,
        ),
        (
            "mods/bad/main.lua:4: dice x: notation \"2q6\" does not parse",
            4,
        ),
        ("mods/bad/main.lua:5: game.turns: order \"sideways\"", 5),
        (
            "mods/bad/main.lua:5: game.turns: phase move: actor \"nobody\"",
            5,
        ),
        (
            "mods/bad/main.lua:6: action fire: phase \"fire\" is not declared",
            6,
        ),
        (
            "mods/bad/main.lua:6: action fire: param target: kind \"spaceship\"",
            6,
        ),
        (
            "mods/bad/main.lua:6: action fire: apply: expected a function, got integer",
            6,
        ),
        (
            "mods/bad/main.lua:7: game.on: unknown event \"tea_time\"",
            7,
        ),
        ("mods/bad/main.lua:8: piece type id \"Bad Id\"", 8),
        (
            "mods/bad/main.lua:8: piece type Bad Id: stats: must be plain data",
            8,
        ),
        (
            "mods/bad/main.lua:9: game.setup: expected a function, got string",
            9,
        ),
    ];
    for (prefix, _) in expect {
        assert!(
            text.iter().any(|t| t.starts_with(prefix)),
            "missing {prefix:?} in\n{}",
            text.join("\n")
        );
    }
    assert_eq!(text.len(), expect.len(), "{}", text.join("\n"));
}

#[test]
fn lua_errors_in_entry_files_and_budget_are_reported_per_mod() {
    let dir = tempfile::tempdir().unwrap();
    let mods = dir.path().join("mods");
    write(
        &mods,
        &[
            ("a/mod.toml", &manifest("a", "")),
            ("a/main.lua", "\n\nlocal x = nil\nreturn x.y\n"),
            ("b/mod.toml", &manifest("b", "[dependencies]\na = \"^1\"\n")),
            ("b/main.lua", "while true do end"),
        ],
    );
    let opts = LoadOptions {
        limits: Limits {
            instructions: 100_000,
            ..Limits::default()
        },
        ..LoadOptions::default()
    };
    let errs = load_mods(&mods, "b", &opts).unwrap_err();
    let text: Vec<String> = errs.iter().map(ToString::to_string).collect();
    assert_eq!(text.len(), 2, "{text:?}");
    assert!(
        text[0].starts_with("mods/a/main.lua:4: attempt to index a nil value"),
        "{}",
        text[0]
    );
    assert!(
        text[1].starts_with("mods/b/main.lua:1: instruction budget exhausted"),
        "{}",
        text[1]
    );
}

#[test]
fn missing_dependency_and_bad_manifest_are_reported_together() {
    let dir = tempfile::tempdir().unwrap();
    let mods = dir.path().join("mods");
    write(
        &mods,
        &[
            ("v/mod.toml", &manifest("v", "extends = \"base\"\n")),
            ("v/main.lua", ""),
            ("base/mod.toml", "id = \"base\"\nversion = \"x\"\n"),
        ],
    );
    let errs = load_mods(&mods, "v", &LoadOptions::default()).unwrap_err();
    let text: Vec<String> = errs.iter().map(ToString::to_string).collect();
    assert!(
        text.iter().any(|t| t.contains("needs mod \"base\"")),
        "{text:?}"
    );
    assert!(
        text.iter().any(|t| t.starts_with("mods/base/mod.toml:")),
        "{text:?}"
    );
}

#[test]
fn a_rolled_play_order_takes_one_die_and_may_roll_once() {
    use hexforge_game::{Game, GameState};
    use hexforge_script::LuaRules;
    let turns = |extra: &str| {
        format!(
            "game.turns {{ order = \"rolled\", {extra} phases = {{ {{ id = \"act\" }} }} }}\n\
             game.action {{ id = \"act\", check = function() return true end, apply = function() end }}\n"
        )
    };
    // Two dice cannot order play by "the highest single roll": refused with file and line.
    let dir = tempfile::tempdir().unwrap();
    let mods = dir.path().join("mods");
    write(
        &mods,
        &[
            ("m/mod.toml", &manifest("m", "")),
            ("m/main.lua", &turns("die = \"2d6\",")),
        ],
    );
    let errs = load_mods(&mods, "m", &LoadOptions::default()).unwrap_err();
    let text: Vec<String> = errs.iter().map(ToString::to_string).collect();
    assert!(
        text.iter()
            .any(|e| e.starts_with("mods/m/main.lua:1:") && e.contains("must be one die")),
        "{text:?}"
    );

    // every_round = false: the order rolled at the start holds for the whole game.
    let count_order_rolls = |extra: &str| {
        let dir = tempfile::tempdir().unwrap();
        let mods = dir.path().join("mods");
        let scenario = "[[sides]]\nid = \"a\"\n[[sides]]\nid = \"b\"\n[[sides]]\nid = \"c\"\n";
        write(
            &mods,
            &[
                ("m/mod.toml", &manifest("m", "")),
                ("m/main.lua", &turns(&format!("die = \"d10\", {extra}"))),
                ("m/scenarios/s.toml", scenario),
            ],
        );
        let rules = LuaRules::new(load_mods(&mods, "m", &LoadOptions::default()).unwrap()).unwrap();
        let mut g = Game::new(
            &rules,
            GameState::new(rules.mod_locks(), "s", serde_json::json!({}), 9),
        )
        .unwrap();
        for _ in 0..12 {
            let side = g.waiting()[0].clone();
            g.perform(&hexforge_game::Action::end_phase(side)).unwrap();
        }
        assert!(g.state().clock.round >= 4, "{}", g.state().clock.round);
        g.state()
            .log
            .iter()
            .flat_map(|e| &e.rolls)
            .filter(|r| r.label.starts_with("play order"))
            .count()
    };
    let once = count_order_rolls("every_round = false,");
    let every = count_order_rolls("");
    assert!(once >= 3, "the order is rolled at the start: {once}");
    assert!(every > once, "rolled every round: {every} vs once: {once}");
}

#[test]
fn a_mod_may_ask_for_more_memory_up_to_the_host_cap() {
    use hexforge_script::sandbox::{DEFAULT_MEMORY, HOST_MEMORY_CAP};
    let memory_of = |extra: &str| {
        let dir = tempfile::tempdir().unwrap();
        let mods = dir.path().join("mods");
        write(
            &mods,
            &[
                ("m/mod.toml", &manifest("m", extra)),
                ("m/main.lua", "-- nothing to declare\n"),
            ],
        );
        load_mods(&mods, "m", &LoadOptions::default())
            .unwrap_or_else(|e| panic!("{e:?}"))
            .sandbox
            .limits()
            .memory
    };
    assert_eq!(memory_of(""), DEFAULT_MEMORY);
    assert_eq!(memory_of("memory_mib = 128\n"), 128 << 20);
    assert_eq!(memory_of("memory_mib = 100000\n"), HOST_MEMORY_CAP);
    // Asking for less than the default does not shrink the VM below what the host gives.
    assert_eq!(memory_of("memory_mib = 8\n"), DEFAULT_MEMORY);
}

#[test]
fn declared_tables_answer_lookups_and_exact_odds_from_lua() {
    // A 2d6 table with a shift-roll column axis: the core's exact odds and lookups, from Lua.
    let dir = tempfile::tempdir().unwrap();
    let mods = dir.path().join("mods");
    let main = r#"game.table { id = "jump", rows = { "2-6", "7-9", "10+" }, columns = { "0", "1" },
  row_policy = "clamp", column_policy = "shift_roll",
  cells = { { "safe", "safe" }, { "safe", "drift" }, { "drift", "lost" } } }
"#;
    write(
        &mods,
        &[("m/mod.toml", &manifest("m", "")), ("m/main.lua", main)],
    );
    let loaded = load_mods(&mods, "m", &LoadOptions::default()).unwrap_or_else(|e| panic!("{e:?}"));
    let odds: String = loaded
        .sandbox
        .eval(
            r#"local out = {}
               for _, o in ipairs(tables.odds("jump", "2d6", 0)) do
                 out[#out + 1] = o.result .. " " .. o.numer .. "/" .. o.denom
               end
               return table.concat(out, ", ")"#,
            "=t",
        )
        .unwrap();
    // 2-6: 15/36 + 7-9: 15/36 = safe 30/36 = 5/6; 10+: 6/36 = 1/6.
    assert_eq!(odds, "safe 5/6, drift 1/6");
    let (cell, modifier): (String, i64) = loaded
        .sandbox
        .eval("return tables.lookup('jump', 8, 3)", "=t")
        .unwrap();
    // Column 3 is two past the last: the last column, and +2 on the roll (8 -> 10: "lost").
    assert_eq!((cell.as_str(), modifier), ("lost", 2));
    let err = loaded
        .sandbox
        .eval::<Value>("return tables.odds('nope', '2d6', 0)", "=t")
        .unwrap_err();
    assert!(
        err.to_string().contains("tables.odds: no table \"nope\""),
        "{err}"
    );
}

#[test]
fn a_table_may_name_the_dice_that_roll_its_rows() {
    let dir = tempfile::tempdir().unwrap();
    let mods = dir.path().join("mods");
    let good = r#"game.table { id = "jump", rows = { "2-6", "7+" }, columns = { "0" },
  cells = { { "safe" }, { "lost" } }, roll = " 2d6 " }
game.table { id = "guns", rows = { "1", "2" }, columns = { "0" }, cells = { { 4 }, { 3 } } }
game.turns { order = "fixed", phases = { { id = "move" } } }
"#;
    let bad = "game.table { id = \"t\", rows = { \"1\" }, columns = { \"0\" }, cells = { { 1 } },\n  roll = \"2q6\" }\n\
               game.table { id = \"u\", rows = { \"1\" }, columns = { \"0\" }, cells = { { 1 } }, roll = 6 }\n";
    write(
        &mods,
        &[
            ("good/mod.toml", &manifest("good", "")),
            ("good/main.lua", good),
            ("bad/mod.toml", &manifest("bad", "")),
            ("bad/main.lua", bad),
        ],
    );
    let loaded =
        load_mods(&mods, "good", &LoadOptions::default()).unwrap_or_else(|e| panic!("{e:?}"));
    let rules = hexforge_script::rules::LuaRules::new(loaded).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(rules.decls().tables["jump"].roll.as_deref(), Some("2d6"));
    assert_eq!(rules.decls().tables["guns"].roll, None);
    let errs = load_mods(&mods, "bad", &LoadOptions::default()).unwrap_err();
    let text: Vec<String> = errs.iter().map(ToString::to_string).collect();
    assert!(
        text.iter().any(|e| e.starts_with("mods/bad/main.lua:1:")
            && e.contains("roll \"2q6\" is not dice notation")),
        "{text:?}"
    );
    assert!(
        text.iter().any(|e| e.starts_with("mods/bad/main.lua:3:")
            && e.contains("roll must be dice notation text")),
        "{text:?}"
    );
}
