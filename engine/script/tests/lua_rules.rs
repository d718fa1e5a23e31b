//! LuaRules end to end: a small mod with a scenario played through the game crate's `Game`.

use hexforge_game::game::PerformError;
use hexforge_game::{Action, Game, GameState, Position, SideId};
use hexforge_script::LuaRules;
use hexforge_script::loader::{LoadOptions, load_mods};
use hexforge_script::sandbox::Limits;
use serde_json::json;
use std::path::Path;

fn write(root: &Path, files: &[(&str, &str)]) {
    for (p, text) in files {
        let p = root.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

const MAIN: &str = r#"game.piece_type { id = "frigate", stats = { mr = 2 }, values = { hull = 3, moved = false } }
game.table { id = "hit", rows = { "1-3", "4+" }, columns = { "near", "far" }, cells = { { "miss", "miss" }, { "hit", "miss" } } }
game.turns { order = "fixed", phases = { { id = "move" }, { id = "fire" } }, turn_limit = 5 }
game.action { id = "move", phases = { "move" }, params = { piece = "piece", to = "hex" },
  choices = function(ctx, side)
    local out = {}
    for _, p in ipairs(ctx:pieces { owner = side }) do
      for _, h in ipairs(hex.neighbors(p.hex)) do
        if ctx:on_board(h) then out[#out + 1] = { piece = p.id, to = h } end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local p = ctx:piece(a.piece)
    if not p then return false, "no such piece" end
    if p.owner ~= a.side then return false, "not your piece" end
    if p.values.moved then return false, "already moved" end
    if hex.distance(p.hex, a.to) > p.stats.mr then return false, "too far (MR " .. p.stats.mr .. ")" end
    return true
  end,
  apply = function(ctx, a)
    ctx:move(a.piece, a.to, "S")
    ctx:set(a.piece, "moved", true)
    ctx:log("moved " .. a.piece)
    if a.explode then error("boom after moving") end
  end }
game.action { id = "fire", phases = { "fire" }, params = { piece = "piece", target = "piece" },
  check = function(ctx, a) ctx:set(a.piece, "hull", 0) return true end,
  apply = function(ctx, a)
    local d = ctx:roll_detail("2d6", "detail")
    assert(#d.dice == 2 and d.total == d.dice[1].value + d.dice[2].value)
    assert(ctx:hex_kind({ q = 0, r = 0 }) == "full" and ctx:hex_kind({ q = 9, r = 0 }) == nil)
    local r = ctx:roll("1d6", "to hit")
    local result = ctx:lookup("hit", r, "near")
    ctx:log("rolled " .. r .. ": " .. result)
    if result == "hit" then ctx:destroy(a.target) end
  end }
game.action { id = "spin", apply = function(ctx, a) while true do end end }
game.action { id = "names", apply = function(ctx, a)
  local t = {}
  for k in pairs(getmetatable(ctx).__index) do t[#t + 1] = k end
  table.sort(t)
  ctx:set_global("names", t)
end }
game.setup(function(ctx)
  ctx:set_global("setup_ran", true)
  ctx:set_side("red", "tokens", 2)
end)
game.on("round_start", function(ctx, ev) ctx:set_global("round", ev.round) end)
game.on("turn_start", function(ctx, ev)
  for _, p in ipairs(ctx:pieces()) do ctx:set(p.id, "moved", false) end
end)
game.victory(function(ctx)
  for _, s in ipairs(ctx:sides()) do
    if #ctx:pieces { owner = s.id } == 0 then
      return { winners = { s.id == "blue" and "red" or "blue" }, reason = s.id .. " has no ships" }
    end
  end
  return nil
end)
"#;

const DUEL: &str = r#"name = "Duel"
[board]
shape = "hexagon"
radius = 4
[[terrain]]
hex = { q = 0, r = 0 }
ids = ["planet"]
[[sides]]
id = "blue"
[[sides]]
id = "red"
[[pieces]]
type = "frigate"
owner = "blue"
hex = { q = 0, r = 3 }
facing = "N"
values = { hull = 5 }
[[pieces]]
type = "frigate"
owner = "red"
hex = { q = 0, r = -3 }
facing = 3
[options]
house_rule = true
"#;

fn rules(instructions: u64) -> (tempfile::TempDir, LuaRules) {
    rules_of(MAIN, instructions)
}

fn rules_of(main: &str, instructions: u64) -> (tempfile::TempDir, LuaRules) {
    let dir = tempfile::tempdir().unwrap();
    let mods = dir.path().join("mods");
    write(
        &mods,
        &[
            (
                "duel/mod.toml",
                "id = \"duel\"\nname = \"Duel\"\nversion = \"0.1.0\"\nengine = \"*\"\n",
            ),
            ("duel/main.lua", main),
            ("duel/scenarios/duel.toml", DUEL),
        ],
    );
    let opts = LoadOptions {
        limits: Limits {
            instructions,
            ..Limits::default()
        },
        ..LoadOptions::default()
    };
    let loaded = load_mods(&mods, "duel", &opts).unwrap_or_else(|e| panic!("{e:?}"));
    (dir, LuaRules::new(loaded).unwrap())
}

fn game() -> (tempfile::TempDir, Game<LuaRules>) {
    let (dir, r) = rules(1_000_000);
    let state = GameState::new(r.mod_locks(), "duel", json!({}), 7);
    (dir, Game::new(r, state).unwrap())
}

fn mv(piece: u32, q: i32, r: i32) -> Action {
    Action::new(
        "move",
        "blue",
        json!({ "piece": piece, "to": { "q": q, "r": r } }),
    )
}

#[test]
fn scenario_and_setup_fill_the_state() {
    let (_d, g) = game();
    let s = g.state();
    assert_eq!(
        s.sides.iter().map(|x| x.id.as_str()).collect::<Vec<_>>(),
        vec!["blue", "red"]
    );
    assert_eq!(s.pieces.len(), 2);
    let blue = s
        .pieces
        .values()
        .find(|p| p.owner.as_str() == "blue")
        .unwrap();
    assert_eq!(
        blue.values["hull"],
        json!(5),
        "scenario value over the type default"
    );
    assert_eq!(blue.values["moved"], json!(false));
    assert_eq!(s.globals["setup_ran"], json!(true));
    assert_eq!(s.globals["round"], json!(1), "round_start hook ran");
    assert_eq!(s.sides[1].values["tokens"], json!(2));
    assert_eq!(s.options["house_rule"], json!(true));
    assert_eq!(
        s.board.terrain_at(hexforge_core::hex::Hex::new(0, 0), None),
        vec!["planet"]
    );
}

#[test]
fn a_scenario_edited_between_games_is_read_again() {
    let (dir, r) = rules(1_000_000);
    // One rule set, several games (as `hexforge play --games` and the editor play them).
    let blue_hull = |r: &LuaRules| {
        let state = GameState::new(r.mod_locks(), "duel", json!({}), 7);
        let g = Game::new(r, state).unwrap();
        g.state()
            .pieces
            .values()
            .find(|p| p.owner.as_str() == "blue")
            .map(|p| p.values["hull"].clone())
    };
    assert_eq!(blue_hull(&r), Some(json!(5)));
    assert_eq!(blue_hull(&r), Some(json!(5)));
    // The parsed file is kept only while its text is the same.
    let path = dir.path().join("mods/duel/scenarios/duel.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("hull = 5"));
    std::fs::write(&path, text.replacen("hull = 5", "hull = 9", 1)).unwrap();
    assert_eq!(blue_hull(&r), Some(json!(9)));
}

#[test]
fn legal_check_apply_and_illegal_values() {
    let (_d, mut g) = game();
    let blue_id = g
        .state()
        .pieces
        .values()
        .find(|p| p.owner.as_str() == "blue")
        .unwrap()
        .id
        .0;
    let legal = g.legal_actions(&SideId::new("blue")).unwrap();
    assert!(legal.iter().any(|a| a.id == "move"), "{legal:?}");
    assert!(
        legal
            .iter()
            .filter(|a| a.id == "move")
            .all(|a| a.param("piece") == Some(&json!(blue_id))),
        "{legal:?}"
    );
    let far = g.perform(&mv(blue_id, 0, -2)).unwrap_err();
    assert!(
        matches!(&far, PerformError::Illegal(i) if i.reason.contains("too far")),
        "{far:?}"
    );
    g.perform(&mv(blue_id, 0, 2)).unwrap();
    let p = &g.state().pieces[&hexforge_game::PieceId(blue_id)];
    assert_eq!(p.pos, Position::Hex(hexforge_core::hex::Hex::new(0, 2)));
    assert_eq!(p.facing.map(|f| f.index()), Some(3));
    assert!(
        g.state()
            .log
            .last()
            .unwrap()
            .events
            .iter()
            .any(|e| e == &format!("moved {blue_id}"))
    );
    let again = g.perform(&mv(blue_id, 0, 1)).unwrap_err();
    assert!(
        matches!(&again, PerformError::Illegal(i) if i.reason == "already moved"),
        "{again:?}"
    );
}

#[test]
fn a_lua_error_in_apply_leaves_the_state_untouched() {
    let (_d, mut g) = game();
    let blue_id = g
        .state()
        .pieces
        .values()
        .find(|p| p.owner.as_str() == "blue")
        .unwrap()
        .id
        .0;
    let before = hexforge_game::record::state_hash(g.state());
    let a = Action::new(
        "move",
        "blue",
        json!({ "piece": blue_id, "to": { "q": 0, "r": 2 }, "explode": true }),
    );
    let e = g.perform(&a).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("mods/duel/main.lua:26: boom after moving"),
        "{text}"
    );
    assert_eq!(hexforge_game::record::state_hash(g.state()), before);
}

#[test]
fn writes_are_refused_outside_apply_and_budget_errors_name_the_line() {
    let (_d, mut g) = game();
    // Move to the fire phase: blue ends "move".
    g.perform(&Action::end_phase(SideId::new("blue"))).unwrap();
    let fire = Action::new("fire", "blue", json!({ "piece": 0, "target": 1 }));
    let e = g.perform(&fire).unwrap_err().to_string();
    assert!(
        e.contains("ctx:set changes the game: only allowed in apply"),
        "{e}"
    );
    assert!(e.contains("mods/duel/main.lua:29"), "{e}");
    let e = g
        .perform(&Action::new("spin", "blue", json!({})))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("mods/duel/main.lua:39: instruction budget exhausted"),
        "{e}"
    );
    // The VM is still fine.
    assert!(g.legal_actions(&SideId::new("blue")).is_ok());
}

#[test]
fn same_seed_same_actions_same_state() {
    let play = || {
        let (_d, mut g) = game();
        let blue = g
            .state()
            .pieces
            .values()
            .find(|p| p.owner.as_str() == "blue")
            .unwrap()
            .id
            .0;
        g.perform(&mv(blue, 0, 2)).unwrap();
        hexforge_game::record::state_hash(g.state())
    };
    assert_eq!(play(), play());
}

#[test]
fn every_ctx_method_is_in_the_definition_file_and_back() {
    let (_d, mut g) = game();
    g.perform(&Action::new("names", "blue", json!({}))).unwrap();
    let registered: std::collections::BTreeSet<String> = g.state().globals["names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let defs = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scripts/types/hexforge.d.lua"
    ))
    .unwrap();
    // Reads are declared on CtxReader (shared with a test's game handle), writes on Ctx.
    let declared: std::collections::BTreeSet<String> = defs
        .lines()
        .filter_map(|l| {
            l.strip_prefix("function Ctx:")
                .or_else(|| l.strip_prefix("function CtxReader:"))
        })
        .filter_map(|l| l.split_once('(').map(|(n, _)| n.to_string()))
        .collect();
    assert_eq!(registered, declared);
}

#[test]
fn fire_rolls_are_logged_and_looked_up() {
    let (_d, mut g) = game();
    g.perform(&Action::end_phase(SideId::new("blue"))).unwrap();
    // The fire check deliberately writes (to test the refusal), so call apply directly on a
    // scratch copy of the state, as the engine's transaction would.
    let mut s = g.state().clone();
    let a = Action::new("fire", "blue", json!({ "piece": 1, "target": 2 }));
    use hexforge_game::rules::Rules;
    g.rules().apply(&mut s, &a).unwrap().unwrap();
    let rolls = s.dice.pending_rolls();
    assert_eq!(
        rolls.iter().map(|r| r.label.as_str()).collect::<Vec<_>>(),
        vec!["detail", "to hit"]
    );
    assert!(
        s.events.iter().any(|e| e.starts_with("rolled ")),
        "{:?}",
        s.events
    );
}

/// A listing calls every action's `choices` in one engine call, and each still gets the whole
/// instruction budget: three that each run about 60% of it list fine, one that runs past it
/// alone is stopped at its line, and the stop leaves the VM usable.
#[test]
fn each_choices_of_a_listing_gets_the_whole_budget() {
    let main = |third: &str| {
        format!(
            r#"game.turns {{ order = "fixed", phases = {{ {{ id = "move" }} }} }}
game.piece_type {{ id = "frigate" }}
local function work(turns) local n = 0 for i = 1, turns do n = n + 1 end return n end
game.action {{ id = "a", choices = function() work(20000) return {{ {{}} }} end, apply = function() end }}
game.action {{ id = "b", choices = function() work(20000) return {{ {{}} }} end, apply = function() end }}
game.action {{ id = "c", choices = function() work({third}) return {{ {{}} }} end, apply = function() end }}
"#
        )
    };
    // About three counted instructions per loop turn: 20,000 turns are ~60% of 100,000.
    let (_d, r) = rules_of(&main("20000"), 100_000);
    let state = GameState::new(r.mod_locks(), "duel", json!({}), 7);
    let g = Game::new(r, state).unwrap();
    let listed = g.legal_actions(&SideId::new("blue")).unwrap();
    let ids: Vec<&str> = listed.iter().map(|a| a.id.as_str()).collect();
    assert_eq!(ids, ["a", "b", "c", "end_phase"]);
    let (_d, r) = rules_of(&main("40000"), 100_000);
    let state = GameState::new(r.mod_locks(), "duel", json!({}), 7);
    let g = Game::new(r, state).unwrap();
    let e = g
        .legal_actions(&SideId::new("blue"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("mods/duel/main.lua:3: instruction budget exhausted"),
        "{e}"
    );
    // Stopped again the same way: the VM still runs every call with its whole budget.
    let again = g
        .legal_actions(&SideId::new("blue"))
        .unwrap_err()
        .to_string();
    assert_eq!(again, e);
    // A choices that swallows the budget error (a tail-called pcall returns before the re-armed
    // hook can stop it) lists nothing, and the next choices still gets the whole budget.
    let main = r#"game.turns { order = "fixed", phases = { { id = "move" } } }
game.piece_type { id = "frigate" }
local function work(turns) local n = 0 for i = 1, turns do n = n + 1 end return n end
game.action { id = "a", choices = function() return pcall(function() while true do end end) end, apply = function() end }
game.action { id = "b", choices = function() work(20000) return { {} } end, apply = function() end }
game.action { id = "c", choices = function() work(20000) return { {} } end, apply = function() end }
"#;
    let (_d, r) = rules_of(main, 100_000);
    let state = GameState::new(r.mod_locks(), "duel", json!({}), 7);
    let g = Game::new(r, state).unwrap();
    let listed = g.legal_actions(&SideId::new("blue")).unwrap();
    let ids: Vec<&str> = listed.iter().map(|a| a.id.as_str()).collect();
    assert_eq!(ids, ["b", "c", "end_phase"]);
}
