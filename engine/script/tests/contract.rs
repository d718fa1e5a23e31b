//! The runtime against the Lua API contract (docs/API.md): one test per gap closed, each with a
//! small mod written on the spot.

use hexforge_game::rules::Rules;
use hexforge_game::{Action, Game, GameState, SideId};
use hexforge_script::LuaRules;
use hexforge_script::loader::{LoadOptions, load_mods};
use serde_json::{Value as Json, json};
use std::path::Path;

fn write(root: &Path, files: &[(&str, &str)]) {
    for (p, text) in files {
        let p = root.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

fn manifest(id: &str, extra: &str) -> String {
    format!("id = \"{id}\"\nname = \"{id}\"\nversion = \"0.1.0\"\nengine = \"*\"\n{extra}")
}

const SCENARIO: &str = r#"name = "s"
[board]
shape = "hexagon"
radius = 3
[[sides]]
id = "blue"
[[sides]]
id = "red"
[[pieces]]
type = "ship"
owner = "blue"
hex = { q = 0, r = 0 }
facing = "N"
"#;

/// Turns + a ship type; mods append their own declarations.
const BASE: &str = r#"game.piece_type { id = "ship", values = { placed = false } }
game.turns { order = "fixed", phases = { { id = "move" }, { id = "fire" } }, turn_limit = 3 }
"#;

/// Loads a mod `m` (plus any other files) from a temp folder.
fn load(files: &[(&str, &str)], root: &str) -> (tempfile::TempDir, Result<LuaRules, String>) {
    let dir = tempfile::tempdir().unwrap();
    let mods = dir.path().join("mods");
    write(&mods, files);
    let r = load_mods(&mods, root, &LoadOptions::default())
        .map_err(|e| {
            e.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        })
        .and_then(|l| {
            LuaRules::new(l).map_err(|e| {
                e.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("\n")
            })
        });
    (dir, r)
}

/// One mod `m` with `main` after [`BASE`] and scenario `s`.
fn one(main: &str) -> (tempfile::TempDir, LuaRules) {
    let main = format!("{BASE}{main}");
    let (d, r) = load(
        &[
            ("m/mod.toml", &manifest("m", "")),
            ("m/main.lua", &main),
            ("m/scenarios/s.toml", SCENARIO),
        ],
        "m",
    );
    (d, r.unwrap_or_else(|e| panic!("{e}")))
}

fn game(rules: LuaRules) -> Game<LuaRules> {
    let state = GameState::new(rules.mod_locks(), "s", json!({}), 5);
    Game::new(rules, state).unwrap_or_else(|e| panic!("{e}"))
}

fn blue() -> SideId {
    SideId::new("blue")
}

/// Runs `code` as the apply of a test action and returns the global `out`.
fn run(g: &mut Game<LuaRules>, id: &str) -> Json {
    g.perform(&Action::new(id, "blue", json!({})))
        .unwrap_or_else(|e| panic!("{e}"));
    g.state().globals.get("out").cloned().unwrap_or(Json::Null)
}

#[test]
fn end_phase_may_be_refused_by_a_check_only_declaration() {
    let (_d, r) = one(r#"game.action { id = "place", phases = { "move" },
  choices = function(ctx, side) return { {} } end,
  apply = function(ctx, a) ctx:set(1, "placed", true) end }
game.action { id = "end_phase", phases = { "move" }, check = function(ctx, a)
  if a.side == "blue" and not ctx:piece(1).values.placed then return false, "place your ship first" end
  return true
end }
"#);
    let mut g = game(r);
    let legal = g.legal_actions(&blue()).unwrap();
    assert!(!legal.iter().any(Action::is_end_phase), "{legal:?}");
    let e = g.perform(&Action::end_phase(blue())).unwrap_err();
    assert!(e.to_string().contains("place your ship first"), "{e}");
    g.perform(&Action::new("place", "blue", json!({}))).unwrap();
    assert!(
        g.legal_actions(&blue())
            .unwrap()
            .iter()
            .any(Action::is_end_phase)
    );
    g.perform(&Action::end_phase(blue())).unwrap();
    // Outside the phases it lists, the check does not run.
    assert_eq!(g.state().phase_id(g.rules().turn_structure()), Some("fire"));
    g.perform(&Action::end_phase(blue())).unwrap();
}

#[test]
fn actions_without_apply_are_errors_except_end_phase() {
    let (_d, r) = load(
        &[
            ("m/mod.toml", &manifest("m", "")),
            (
                "m/main.lua",
                &format!(
                    "{BASE}game.action {{ id = \"fly\", check = function() return true end }}\n"
                ),
            ),
        ],
        "m",
    );
    let e = r.unwrap_err();
    assert!(
        e.contains("mods/m/main.lua:3: action fly: apply: missing"),
        "{e}"
    );
}

#[test]
fn terrain_info_turn_limit_field_and_turn_limit_hook() {
    let (_d, r) = one(
        r##"game.terrain { id = "planet", name = "Planet", color = "#8a6", blocks_movement = true, gravity = 2 }
game.action { id = "probe", apply = function(ctx, a)
  local t = ctx:terrain_info("planet")
  ctx:set_global("out", { t.name, t.color, t.blocks_movement, t.gravity, ctx:terrain_info("nope") == nil, ctx.turn_limit })
end }
game.on("turn_limit", function(ctx, ev) ctx:set_global("limit_event", ev.event) end)
"##,
    );
    assert_eq!(r.decls().terrains["planet"].data["color"], json!("#8a6"));
    let mut g = game(r);
    assert_eq!(
        run(&mut g, "probe"),
        json!(["Planet", "#8a6", true, 2, true, 3])
    );
    while g.state().outcome.is_none() {
        let side = g.waiting()[0].clone();
        g.perform(&Action::end_phase(side)).unwrap();
    }
    assert_eq!(g.state().globals["limit_event"], json!("turn_limit"));
    assert_eq!(g.state().clock.round, 3);
}

/// The scenario `short` ends after round 1; `s` keeps the declared 3.
fn two_scenarios() -> (tempfile::TempDir, LuaRules) {
    let main = format!(
        "{BASE}{}",
        r#"game.action { id = "probe", apply = function(ctx, a) ctx:set_global("out", ctx.turn_limit) end }
"#
    );
    let short = format!("turn_limit = 1\n{SCENARIO}");
    let (d, r) = load(
        &[
            ("m/mod.toml", &manifest("m", "")),
            ("m/main.lua", &main),
            ("m/scenarios/s.toml", SCENARIO),
            ("m/scenarios/short.toml", &short),
        ],
        "m",
    );
    (d, r.unwrap_or_else(|e| panic!("{e}")))
}

fn play_out(g: &mut Game<LuaRules>) {
    while g.state().outcome.is_none() {
        let side = g.waiting()[0].clone();
        g.perform(&Action::end_phase(side)).unwrap();
    }
}

#[test]
fn a_scenario_turn_limit_overrides_the_declared_one_for_that_game_only() {
    let (_d, r) = two_scenarios();
    let state = GameState::new(r.mod_locks(), "short", json!({}), 5);
    let mut g = Game::new(r, state).unwrap();
    assert_eq!(run(&mut g, "probe"), json!(1));
    play_out(&mut g);
    assert_eq!(g.state().clock.round, 1);
    let record = g.record();
    let hash = hexforge_game::state_hash(g.state());

    let (_d2, r2) = two_scenarios();
    let state = GameState::new(r2.mod_locks(), "s", json!({}), 5);
    let mut other = Game::new(r2, state).unwrap();
    assert_eq!(run(&mut other, "probe"), json!(3));
    play_out(&mut other);
    assert_eq!(other.state().clock.round, 3);

    let (_d3, r3) = two_scenarios();
    let again = hexforge_game::replay(&record, r3).unwrap();
    assert_eq!(hexforge_game::state_hash(again.state()), hash);
}

/// The hyperjump table of docs/API.md: rows clamp, columns shift the roll past the last column.
const TABLES: &str = r#"game.table { id = "hyperjump", rows = { "<=2", "3-4", "5-11", "12+" },
  columns = { "<=-1", "0", "1", "2" }, row_policy = "clamp", column_policy = "shift_roll",
  cells = { { "a1", "a2", "a3", "a4" }, { "b1", "b2", "b3", "b4" }, { "c1", "c2", "c3", "c4" }, { "d1", "d2", "d3", 4 } } }
game.table { id = "strict", rows = { 1, 2 }, columns = { "near", "far" }, cells = { { 1, 2 }, { 3, 4 } } }
game.action { id = "probe", apply = function(ctx, a)
  local out = {}
  local function add(...) out[#out + 1] = { ... } end
  add(ctx:lookup("hyperjump", 3, 0))        -- b2, 0
  add(ctx:lookup("hyperjump", 3, 0, 1))     -- b3, 0 (shifted one column right)
  add(ctx:lookup("hyperjump", 4, 2, 1))     -- one step past the last column: row 4+1 -> c4, 1
  add(ctx:lookup("hyperjump", 10, 5))       -- 3 steps past: 13 -> row 12+, last column: 4, 3
  add(ctx:lookup("hyperjump", -5, -9))      -- rows clamp, columns clamp below: a1, 0
  add(ctx:lookup("strict", "2", "far"))
  local function try(...) local ok, e = pcall(ctx.lookup, ctx, ...) add(ok, tostring(e)) end
  try("strict", 3, "far")
  try("strict", 1, "middle")
  ctx:set_global("out", out)
end }
"#;

#[test]
fn lookup_honours_shift_clamp_shift_roll_and_error_policies() {
    let (_d, r) = one(TABLES);
    let mut g = game(r);
    let out = run(&mut g, "probe");
    let a = out.as_array().unwrap();
    assert_eq!(a[0], json!(["b2", 0]));
    assert_eq!(a[1], json!(["b3", 0]));
    assert_eq!(a[2], json!(["c4", 1]));
    assert_eq!(a[3], json!([4, 3]));
    assert_eq!(a[4], json!(["a1", 0]));
    assert_eq!(a[5], json!([4, 0]));
    assert_eq!(a[6][0], json!(false));
    let e = a[6][1].as_str().unwrap();
    assert!(
        e.contains("ctx:lookup: table strict: 3 is beyond the rows keys"),
        "{e}"
    );
    let e = a[7][1].as_str().unwrap();
    assert!(e.contains("no columns named 'middle'"), "{e}");
}

#[test]
fn table_declarations_get_the_core_checks_with_file_and_line() {
    let (_d, r) = load(
        &[
            ("m/mod.toml", &manifest("m", "")),
            (
                "m/main.lua",
                &format!(
                    "{BASE}game.table {{ id = \"bad\", rows = {{ \"1-4\", \"3-6\" }}, columns = {{ \"a\" }}, cells = {{ {{ 1 }}, {{ 2 }} }} }}\n\
                     game.table {{ id = \"shift\", rows = {{ \"x\", \"y\" }}, columns = {{ 1 }}, column_policy = \"shift_roll\", cells = {{ {{ 1 }}, {{ 2 }} }} }}\n"
                ),
            ),
        ],
        "m",
    );
    let e = r.unwrap_err();
    assert!(
        e.contains("mods/m/main.lua:3: table bad: invalid table: rows axis: key '3-6' overlaps"),
        "{e}"
    );
    assert!(
        e.contains("mods/m/main.lua:4: table shift: invalid table: shift: ShiftRoll columns need numeric rows"),
        "{e}"
    );
}

#[test]
fn require_prefers_the_calling_mod_then_its_base_then_scripts_and_shares_modules() {
    let dir = tempfile::tempdir().unwrap();
    let mods = dir.path().join("mods");
    let scripts = dir.path().join("scripts");
    write(
        &mods,
        &[
            ("b/mod.toml", &manifest("b", "")),
            (
                "b/main.lua",
                &format!(
                    "{BASE}B_UTIL = require(\"util\").who\nB_SHARED = require(\"shared\")\nB_LIB = require(\"lib\").who\n"
                ),
            ),
            ("b/util.lua", "return { who = \"b\" }"),
            (
                "b/shared.lua",
                "COUNT = (COUNT or 0) + 1 return { n = COUNT }",
            ),
            (
                "v/mod.toml",
                &manifest("v", "extends = \"b\"\n[dependencies]\nb = \"*\"\n"),
            ),
            (
                "v/main.lua",
                "V_UTIL = require(\"util\").who\nV_BASE_UTIL = require(\"b.util\").who\nV_SHARED = require(\"shared\")\n",
            ),
            ("v/util.lua", "return { who = \"v\" }"),
        ],
    );
    write(&scripts, &[("lib.lua", "return { who = \"scripts\" }")]);
    let opts = LoadOptions {
        scripts_dir: Some(scripts),
        ..LoadOptions::default()
    };
    let l = load_mods(&mods, "v", &opts).unwrap_or_else(|e| panic!("{e:?}"));
    let got: (String, String, String, String, bool, i64) = l
        .sandbox
        .eval(
            "return B_UTIL, V_UTIL, V_BASE_UTIL, B_LIB, B_SHARED == V_SHARED, COUNT",
            "=t",
        )
        .unwrap();
    assert_eq!(
        got,
        (
            "b".into(),
            "v".into(),
            "b".into(),
            "scripts".into(),
            true,
            1
        )
    );
}

#[test]
fn roll_named_logs_face_names_and_pools_use_the_core_limits() {
    let (_d, r) = one(
        r#"game.dice { id = "battle", faces = { "fighter", "strike", "capital", "wild", "star", "alert" } }
game.action { id = "probe", apply = function(ctx, a)
  local faces = ctx:roll_named("battle", 3, "attack")
  local big = ctx:pool(2, 10000, "big")
  local function err(f, ...) local ok, e = pcall(f, ctx, ...) return tostring(e) end
  ctx:set_global("out", { faces, #big, err(ctx.pool, 1, 10001), err(ctx.pool, 1001, 6),
    err(ctx.roll_named, "nope", 1), err(ctx.roll_named, "battle", 0) })
end }
"#,
    );
    let mut g = game(r);
    let out = run(&mut g, "probe");
    let faces: Vec<&str> = out[0]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert_eq!(faces.len(), 3);
    let rolls = &g.state().log.last().unwrap().rolls;
    assert_eq!(rolls[0].label, "attack");
    assert_eq!(rolls[0].expr, "3d[battle]");
    let logged: Vec<&str> = rolls[0]
        .dice
        .iter()
        .map(|d| d.face.as_deref().unwrap())
        .collect();
    assert_eq!(logged, faces);
    assert_eq!(out[1], json!(2));
    let msg = |i: usize| out[i].as_str().unwrap().to_string();
    assert!(
        msg(2).contains("number of sides 10001 is outside 1..=10000"),
        "{}",
        msg(2)
    );
    assert!(
        msg(3).contains("dice count 1001 is outside 1..=1000"),
        "{}",
        msg(3)
    );
    assert!(
        msg(4).contains("no dice with named faces \"nope\""),
        "{}",
        msg(4)
    );
    assert!(msg(5).contains("dice count 0 is outside"), "{}", msg(5));
}

#[test]
fn an_asked_side_answers_in_the_middle_of_the_phase_and_nobody_ends_it_meanwhile() {
    // Blue attacks in its move phase; red answers (how many interceptors) before blue goes on.
    let (_d, r) = one(r#"game.action { id = "attack", phases = { "move" },
  choices = function(ctx, side)
    if ctx:global("pending") then return {} end
    return { {} }
  end,
  apply = function(ctx, a)
    ctx:set_global("pending", true)
    ctx:set_global("acting_in_apply", ctx.acting)
    ctx:ask("red")
  end }
game.action { id = "answer", phases = { "move" }, params = { n = "integer" }, answer = true,
  choices = function(ctx, side)
    if not ctx:global("pending") or side ~= "red" then return {} end
    return { { n = 0 }, { n = 2 } }
  end,
  check = function(ctx, a)
    if not ctx:global("pending") then return false, "nothing to answer" end
    return true
  end,
  apply = function(ctx, a)
    ctx:set_global("pending", nil)
    ctx:set_global("answer", a.n)
    ctx:set_global("acting_when_answering", ctx.acting)
    ctx:answered()
  end }
game.action { id = "bad_ask", phases = { "move" }, apply = function(ctx, a) ctx:ask("green") end }
"#);
    let red = SideId::new("red");
    let mut g = game(r);
    assert_eq!(g.waiting(), vec![blue()]);
    // Asking a side that is not in the game is the mod's error, and changes nothing.
    let before = g.state().clone();
    let e = g
        .perform(&Action::new("bad_ask", "blue", json!({})))
        .unwrap_err();
    assert!(e.to_string().contains("no side \"green\""), "{e}");
    assert_eq!(g.state(), &before);

    g.perform(&Action::new("attack", "blue", json!({})))
        .unwrap();
    assert_eq!(g.state().globals["acting_in_apply"], json!(["blue"]));
    assert_eq!(g.waiting(), vec![red.clone()]);
    assert_eq!(g.state().clock.asked, Some(red.clone()));
    // Blue waits, and nobody may end the phase (not listed, refused with a reason).
    assert!(g.legal_actions(&blue()).unwrap().is_empty());
    let e = g.perform(&Action::end_phase(blue())).unwrap_err();
    assert!(e.to_string().contains("blue cannot act now"), "{e}");
    let e = g.perform(&Action::end_phase(red.clone())).unwrap_err();
    assert!(e.to_string().contains("red must answer first"), "{e}");
    // Only answers are listed and legal while a side is asked.
    let listed = g.legal_actions(&red).unwrap();
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert!(listed.iter().all(|a| a.id == "answer"), "{listed:?}");
    let e = g
        .perform(&Action::new("attack", "red", json!({})))
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("red must answer first: attack waits"),
        "{e}"
    );
    // The asked side answers; the phase's own side acts again, still in the same phase.
    g.perform(&Action::new("answer", "red", json!({ "n": 2 })))
        .unwrap();
    assert_eq!(g.state().globals["answer"], json!(2));
    assert_eq!(g.state().globals["acting_when_answering"], json!(["red"]));
    assert_eq!(g.state().clock.asked, None);
    assert_eq!(g.waiting(), vec![blue()]);
    assert_eq!(g.state().phase_id(g.rules().turn_structure()), Some("move"));
    assert!(g.legal_actions(&red).unwrap().is_empty());
    let e = g
        .perform(&Action::new("answer", "blue", json!({ "n": 0 })))
        .unwrap_err();
    assert!(e.to_string().contains("none is asked now"), "{e}");
    g.perform(&Action::end_phase(blue())).unwrap();
    assert_eq!(g.state().phase_id(g.rules().turn_structure()), Some("fire"));
    // The clock's new field is left out of saves that never used it.
    let saved = serde_json::to_string(&g.state().clock).unwrap();
    assert!(!saved.contains("asked"), "{saved}");
}

#[test]
fn ctx_distances_walks_the_games_board_round_blocked_hexes() {
    // The board is the hexagon of radius 3; the wall is every hex with q = 1 but (1,2), so the
    // way east is round the south end of it.
    let (_d, r) = one(r#"game.action { id = "measure", apply = function(ctx, a)
  local wall = {}
  for r = -3, 1 do wall[#wall + 1] = { q = 1, r = r } end
  local d = ctx:distances({ { q = 0, r = 0 } }, 10, { blocked = wall })
  local far = search.distances({ { q = 0, r = 0 } }, 10, { blocked = wall })
  ctx:set_global("out", {
    wall = d:at({ q = 1, r = 0 }), east = d:at({ q = 2, r = 0 }), off = d:at({ q = 4, r = 0 }),
    n = #d, plane_off = far:at({ q = 4, r = 0 }), truncated = d:truncated(),
  })
  local ok, e = pcall(function() return ctx:distances({ 3 }, 2) end)
  ctx:log(tostring(e))
end }
"#);
    let mut g = game(r);
    let out = run(&mut g, "measure");
    assert_eq!(out["wall"], json!(1), "{out}");
    // (0,0) -> (0,1) -> (0,2) -> the gap (1,2) -> (2,1) -> (2,0): round the south end.
    assert_eq!(out["east"], json!(5), "{out}");
    assert_eq!(out["off"], Json::Null, "off the board: {out}");
    assert_eq!(
        out["n"],
        json!(37),
        "every hex of the board is in reach: {out}"
    );
    // Without a board: round the same end, (1,2) at 3, then 3 more.
    assert_eq!(
        out["plane_off"],
        json!(6),
        "search.distances has no board: {out}"
    );
    assert_eq!(out["truncated"], json!(false));
    let log = serde_json::to_string(&g.state().log).unwrap();
    assert!(log.contains("ctx:distances: argument 1: item 1"), "{log}");
}

#[test]
fn the_rules_roll_the_play_order_when_they_say_and_the_next_round_starts_with_it() {
    let main = r#"game.turns { order = "rolled", die = "1d6", phases = { { id = "move" } }, turn_limit = 5 }
game.piece_type { id = "ship", values = {} }
game.action { id = "ready", apply = function(ctx, a)
  ctx:set_global("rolled", ctx:roll_order())
end }
game.action { id = "again", apply = function(ctx, a) ctx:roll_order() end }
"#;
    let (_d, r) = load(
        &[
            ("m/mod.toml", &manifest("m", "")),
            ("m/main.lua", main),
            ("m/scenarios/s.toml", SCENARIO),
        ],
        "m",
    );
    let mut g = game(r.unwrap_or_else(|e| panic!("{e}")));
    let first = g.state().clock.order.clone();
    let side = g.waiting()[0].clone();
    g.perform(&Action::new("ready", side.as_str(), json!({})))
        .unwrap();
    let rolled: Vec<String> = serde_json::from_value(g.state().globals["rolled"].clone()).unwrap();
    // The current round goes on as it was; the roll is logged and kept for the next round.
    assert_eq!(g.state().clock.order, first);
    assert_eq!(g.state().clock.next_order.as_ref(), Some(&rolled));
    let log = serde_json::to_string(&g.state().log).unwrap();
    assert!(log.contains("play order"), "{log}");
    while g.state().clock.round == 1 {
        let s = g.waiting()[0].clone();
        g.perform(&Action::end_phase(s)).unwrap();
    }
    assert_eq!(g.state().clock.order, rolled);
    assert_eq!(g.state().clock.next_order, None);
    // Round 3 keeps it (every_round is false).
    while g.state().clock.round == 2 {
        let s = g.waiting()[0].clone();
        g.perform(&Action::end_phase(s)).unwrap();
    }
    assert_eq!(g.state().clock.order, rolled);
}

#[test]
fn roll_order_needs_a_rolled_order() {
    let (_d, r) = one(
        r#"game.action { id = "again", apply = function(ctx, a) ctx:roll_order() end }
"#,
    );
    let mut g = game(r);
    let e = g
        .perform(&Action::new("again", "blue", json!({})))
        .unwrap_err();
    assert!(e.to_string().contains("the order is fixed"), "{e}");
}

#[test]
fn with_a_hook_order_the_rules_name_the_die_and_seating_order_holds_until_they_roll() {
    let main = r#"game.turns { order = "hook", phases = { { id = "move" } }, turn_limit = 5 }
game.piece_type { id = "ship", values = {} }
game.action { id = "ready", apply = function(ctx, a) ctx:roll_order(6) end }
game.action { id = "no_die", apply = function(ctx, a) ctx:roll_order() end }
"#;
    let (_d, r) = load(
        &[
            ("m/mod.toml", &manifest("m", "")),
            ("m/main.lua", main),
            ("m/scenarios/s.toml", SCENARIO),
        ],
        "m",
    );
    let mut g = game(r.unwrap_or_else(|e| panic!("{e}")));
    assert_eq!(g.state().clock.order, ["blue", "red"]);
    let e = g
        .perform(&Action::new("no_die", "blue", json!({})))
        .unwrap_err();
    assert!(e.to_string().contains("name the die"), "{e}");
    g.perform(&Action::new("ready", "blue", json!({}))).unwrap();
    let rolled = g.state().clock.next_order.clone().unwrap();
    while g.state().clock.round == 1 {
        let s = g.waiting()[0].clone();
        g.perform(&Action::end_phase(s)).unwrap();
    }
    assert_eq!(g.state().clock.order, rolled);
}
