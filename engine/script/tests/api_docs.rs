//! docs/API.md cannot fall behind the code: every name a mod can use, enumerated from the
//! running engine (the registered namespaces, the `game` object, the methods and fields of a
//! real `ctx`, the test harness, the declaration keywords and the sandbox limits), must appear
//! in the reference.

use hexforge_game::{Game, GameState, SideId};
use hexforge_script::api::NAMESPACES;
use hexforge_script::decl::{
    ACTORS, HOOK_EVENTS, ORDERS, PARAM_KINDS, POLICIES, SCOPES, install_game,
};
use hexforge_script::loader::{LoadOptions, load_mods};
use hexforge_script::sandbox::{DEFAULT_INSTRUCTIONS, DEFAULT_MEMORY, HOST_MEMORY_CAP};
use hexforge_script::testing::TEST_INSTRUCTIONS;
use hexforge_script::{Limits, LuaRules, Sandbox};
use std::collections::BTreeSet;
use std::path::Path;

fn api_md() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/API.md");
    std::fs::read_to_string(path).expect("docs/API.md")
}

/// Every name in `wanted` that `doc` does not contain.
fn missing<'a>(doc: &str, wanted: impl IntoIterator<Item = &'a String>) -> Vec<&'a String> {
    wanted
        .into_iter()
        .filter(|w| !doc.contains(w.as_str()))
        .collect()
}

fn assert_documented(what: &str, wanted: &BTreeSet<String>, min: usize) {
    assert!(
        wanted.len() >= min,
        "{what}: enumerated only {} names: {wanted:?}",
        wanted.len()
    );
    let doc = api_md();
    let gone = missing(&doc, wanted);
    assert!(gone.is_empty(), "{what}: not in docs/API.md: {gone:?}");
}

fn keys(t: &mlua::Table) -> Vec<String> {
    t.pairs::<String, mlua::Value>()
        .map(|p| p.unwrap().0)
        .collect()
}

#[test]
fn every_namespace_function_is_documented() {
    let sb = Sandbox::new(Limits::default()).unwrap();
    let mut wanted = BTreeSet::new();
    for (ns, _) in NAMESPACES {
        let t: mlua::Table = sb.lua().globals().get(*ns).unwrap();
        for k in keys(&t) {
            wanted.insert(format!("{ns}.{k}"));
        }
    }
    // `tables` depends on the rule set, so it is installed by the loader, not in NAMESPACES.
    hexforge_script::api::tables::install(sb.lua(), Default::default()).unwrap();
    let t: mlua::Table = sb.lua().globals().get("tables").unwrap();
    for k in keys(&t) {
        wanted.insert(format!("tables.{k}"));
    }
    // hex (30) + direction (14) + dice (5) + board (2) + search (4) + tables (3): more than 40.
    assert_documented("namespaces", &wanted, 40);
}

#[test]
fn every_game_declaration_and_collection_is_documented() {
    let sb = Sandbox::new(Limits::default()).unwrap();
    let (game, _, _) = sb.guarded(install_game).unwrap();
    let wanted: BTreeSet<String> = keys(&game)
        .into_iter()
        .map(|k| format!("game.{k}"))
        .collect();
    // Why `game.hooks`, `game.turn` are included: variants edit them, so they are API too.
    assert_documented("game", &wanted, 13);
}

#[test]
fn declaration_keywords_are_documented() {
    let mut wanted = BTreeSet::new();
    for list in [HOOK_EVENTS, PARAM_KINDS, ACTORS, ORDERS, SCOPES, POLICIES] {
        for w in list {
            wanted.insert(format!("`{w}`"));
        }
    }
    assert_documented("keywords", &wanted, 25);
}

/// A one-side mod whose only action's `choices` records the keys of the `ctx` it is given
/// (fields on the table, methods behind its metatable) in a global.
const PROBE_MAIN: &str = r#"
game.turns { order = "fixed", phases = { { id = "move" } }, time_track = { "a" }, turn_limit = 3 }
game.action { id = "probe", phases = { "move" },
  choices = function(ctx, side)
    local keys = {}
    for k in pairs(ctx) do keys[#keys + 1] = "ctx." .. k end
    for k in pairs(getmetatable(ctx).__index) do keys[#keys + 1] = "ctx:" .. k end
    CTX_KEYS = keys
    return {}
  end,
  apply = function(ctx, a) end }
"#;

#[test]
fn every_ctx_field_and_method_is_documented() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for (p, text) in [
        (
            "probe/mod.toml",
            "id = \"probe\"\nname = \"Probe\"\nversion = \"0.1.0\"\nengine = \"*\"\n",
        ),
        ("probe/main.lua", PROBE_MAIN),
        (
            "probe/scenarios/one.toml",
            "[board]\nshape = \"hexagon\"\nradius = 1\n[[sides]]\nid = \"blue\"\n",
        ),
    ] {
        let p = root.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let loaded = load_mods(Path::new(root), "probe", &LoadOptions::default()).unwrap();
    let rules = LuaRules::new(loaded).unwrap();
    let state = GameState::new(rules.mod_locks(), "one", serde_json::json!({}), 1);
    let game = Game::new(&rules, state).unwrap();
    game.legal_actions(&SideId::new("blue")).unwrap();
    let found: Vec<String> = rules
        .loaded()
        .sandbox
        .lua()
        .globals()
        .get("CTX_KEYS")
        .unwrap();
    let wanted: BTreeSet<String> = found.into_iter().collect();
    // Every field is non-nil here (a phase, an active side, a label, a turn limit), so all nine
    // fields are present, with 16 read methods and 15 write methods.
    assert!(
        wanted.contains("ctx.label") && wanted.contains("ctx.active"),
        "{wanted:?}"
    );
    assert_documented("ctx", &wanted, 40);
}

#[test]
fn the_test_harness_is_documented() {
    let src = include_str!("../src/lua/testing.lua");
    let mut wanted = BTreeSet::new();
    for line in src.lines() {
        for (prefix, shown) in [("function T:", "t:"), ("function G:", "g:")] {
            if let Some(rest) = line.strip_prefix(prefix)
                && let Some((name, _)) = rest.split_once('(')
            {
                wanted.insert(format!("{shown}{name}"));
            }
        }
    }
    wanted.insert("test(".to_string());
    assert_documented("test harness", &wanted, 20);
}

#[test]
fn sandbox_limits_are_documented_with_their_values() {
    let mib = |b: usize| format!("{} MiB", b >> 20);
    let grouped = |n: u64| {
        let s = n.to_string();
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i).is_multiple_of(3) {
                out.push('_');
            }
            out.push(c);
        }
        out
    };
    let wanted: BTreeSet<String> = [
        mib(DEFAULT_MEMORY),
        mib(HOST_MEMORY_CAP),
        grouped(DEFAULT_INSTRUCTIONS),
        grouped(TEST_INSTRUCTIONS),
    ]
    .into_iter()
    .collect();
    assert_eq!(grouped(20_000_000), "20_000_000");
    assert_documented("limits", &wanted, 4);
}
