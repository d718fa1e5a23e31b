//! `game.evaluate(ctx, side)` through `LuaRules` (the mod's heuristic for the search bot) and
//! the search bot from Lua tests (`g:bot("mcts", side, options)`).

mod common;

use hexforge_game::{Rules, SideId};
use hexforge_script::loader::LoadOptions;
use hexforge_script::testing::run_tests;
use serde_json::json;

const MAIN: &str = r#"game.piece_type { id = "ship", stats = { hull = 2 }, values = { damage = 0 } }
game.turns { order = "fixed", phases = { { id = "fire" } }, turn_limit = 6 }
game.action {
  id = "fire",
  phases = { "fire" },
  params = { target = "piece" },
  choices = function(ctx, side)
    local out = {}
    for _, p in ipairs(ctx:pieces {}) do
      if p.owner ~= side then out[#out + 1] = { target = p.id } end
    end
    return out
  end,
  check = function(ctx, a) return ctx:piece(a.target) ~= nil end,
  apply = function(ctx, a)
    if ctx:roll("d6", "hit") >= 3 then ctx:destroy(a.target) end
  end,
}
game.victory(function(ctx)
  for _, side in ipairs { "blue", "red" } do
    if #ctx:pieces { owner = side } == 0 then
      return { winners = { side == "blue" and "red" or "blue" }, reason = side .. " is gone" }
    end
  end
end)

local function ships(ctx, side) return #ctx:pieces { owner = side } end
game.evaluate = function(ctx, side)
  local mode = ctx.options.mode
  if mode == "big" then return 2 end
  if mode == "text" then return "good" end
  if mode == "boom" then error("no evaluation here") end
  if mode == "write" then ctx:set(1, "damage", 1) end
  local other = side == "blue" and "red" or "blue"
  return ships(ctx, side) / (ships(ctx, side) + ships(ctx, other))
end
"#;

const SCENARIO: &str = r#"sides = [{ id = "blue" }, { id = "red" }]
pieces = [
  { type = "ship", owner = "blue", hex = { q = 0, r = 1 } },
  { type = "ship", owner = "blue", hex = { q = 1, r = 1 } },
  { type = "ship", owner = "red", hex = { q = 0, r = -1 } },
]
board = { shape = "hexagon", radius = 3 }
"#;

fn eval(mode: &str, side: &str) -> Result<Option<f64>, String> {
    let (_dir, game) = common::game("ev", MAIN, SCENARIO, json!({ "mode": mode }));
    game.rules()
        .evaluate(game.state(), &SideId::new(side))
        .map_err(|e| e.to_string())
}

#[test]
fn evaluate_answers_the_mods_number_for_each_side() {
    assert_eq!(eval("share", "blue"), Ok(Some(2.0 / 3.0)));
    assert_eq!(eval("share", "red"), Ok(Some(1.0 / 3.0)));
}

#[test]
fn a_bad_answer_or_an_error_in_evaluate_names_the_file_and_line() {
    // `game.evaluate = function` is on line 28 of main.lua.
    let err = eval("big", "blue").unwrap_err();
    assert!(
        err.contains("mods/ev/main.lua:28: game.evaluate must return a number from 0 to 1 for side blue, got 2"),
        "{err}"
    );
    let err = eval("text", "red").unwrap_err();
    assert!(
        err.contains("main.lua:28:") && err.contains("got \"good\""),
        "{err}"
    );
    let err = eval("boom", "blue").unwrap_err();
    assert!(
        err.contains("mods/ev/main.lua:32: no evaluation here"),
        "{err}"
    );
    // The ctx is read-only, as victory's is.
    let err = eval("write", "blue").unwrap_err();
    assert!(err.contains("mods/ev/main.lua:33:"), "{err}");
}

#[test]
fn without_game_evaluate_the_rules_have_no_heuristic() {
    let main = MAIN.replace("game.evaluate = function", "local _unused = function");
    let (_dir, game) = common::game("ev", &main, SCENARIO, json!({}));
    let got = game.rules().evaluate(game.state(), &SideId::new("blue"));
    assert_eq!(got, Ok(None));
}

const TESTS: &str = r#"
test("the search bot answers from Lua tests", function(t)
  local g = t:game { scenario = "ev", seed = 2 }
  local a = assert(g:bot("mcts", "blue", { iters = 30, horizon = 4 }))
  t:eq(a.id, "fire")
  t:eq(a.side, "blue")
  -- Same seed and budget, same choice; red cannot act now.
  t:eq(g:bot("mcts", "blue", { iters = 30, horizon = 4, seed = 5 }),
       g:bot("mcts", "blue", { iters = 30, horizon = 4, seed = 5 }))
  t:eq(g:bot("mcts", "red", { iters = 5 }), nil)
end)

test("bad search options", function(t)
  local g = t:game { scenario = "ev" }
  g:bot("mcts", "blue", { iters = 0 })
end)

test("an unknown search option", function(t)
  local g = t:game { scenario = "ev" }
  g:bot("mcts", "blue", { depth = 3 })
end)
"#;

#[test]
fn lua_tests_ask_the_search_bot_and_bad_options_fail_the_test() {
    let dir = tempfile::tempdir().unwrap();
    let mods = dir.path().join("mods");
    common::write(
        &mods,
        &[
            (
                "ev/mod.toml",
                "id = \"ev\"\nname = \"ev\"\nversion = \"0.1.0\"\nengine = \"*\"\n",
            ),
            ("ev/main.lua", MAIN),
            ("ev/scenarios/ev.toml", SCENARIO),
            ("ev/tests/bots.lua", TESTS),
        ],
    );
    let results =
        run_tests(&mods, "ev", &LoadOptions::default(), "").unwrap_or_else(|e| panic!("{e:?}"));
    let failures: std::collections::BTreeMap<&str, Option<&str>> = results
        .iter()
        .map(|r| (r.name.as_str(), r.failure.as_deref()))
        .collect();
    assert_eq!(failures.len(), 3, "{results:?}");
    let failure = |name: &str| failures[name];
    assert_eq!(failure("the search bot answers from Lua tests"), None);
    let bad = failure("bad search options").expect("iters = 0 fails");
    assert!(bad.contains("`iters=0` must be a whole number"), "{bad}");
    let unknown = failure("an unknown search option").expect("depth fails");
    assert!(unknown.contains("unknown option `depth`"), "{unknown}");
}
