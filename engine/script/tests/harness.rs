//! The Lua test harness (`hexforge test`): `t:game` plays real games of the mod, every `g:`
//! method reaches the engine, and failures name the test file and line. Also covers the graph
//! route methods of `ctx` (through `g:`, which forwards ctx's read methods).

use hexforge_script::loader::LoadOptions;
use hexforge_script::testing::{TestResult, run_tests};
use std::path::Path;

fn write(root: &Path, files: &[(&str, &str)]) {
    for (rel, text) in files {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

const MAIN: &str = r#"
game.piece_type { id = "ship", stats = { speed = 1 }, values = { jumps = 0 } }
game.turns { order = "fixed", phases = { { id = "move" } } }
game.action {
  id = "jump",
  phases = { "move" },
  choices = function(ctx, side)
    local out = {}
    for _, p in ipairs(ctx:pieces { owner = side }) do
      out[#out + 1] = { piece = p.id, to = "c" }
    end
    return out
  end,
  check = function(ctx, a)
    local p = ctx:piece(a.piece)
    if not p or p.owner ~= a.side then return false, "not your ship" end
    local d = ctx:graph_distance("map", p.position.location, a.to)
    if not d then return false, "no route to " .. tostring(a.to) end
    if d > 2 then return false, "too far: " .. d .. " stars" end
    return true
  end,
  apply = function(ctx, a)
    ctx:place(a.piece, { location = a.to })
    ctx:set(a.piece, "jumps", ctx:piece(a.piece).values.jumps + 1)
    ctx:roll("d6", "jump roll")
  end,
}
game.bots.last = function(ctx, side, legal) return #legal end
"#;

const SCENARIO: &str = r#"
name = "Three stars"
[[sides]]
id = "blue"
[[sides]]
id = "red"
[[pieces]]
type = "ship"
owner = "blue"
position = { location = "a" }
[graph.map]
nodes = [ { id = "a", kind = "system" }, { id = "b", kind = "system" }, { id = "c", kind = "star" },
          { id = "d", kind = "system" }, { id = "far", kind = "system" }, { id = "lost", kind = "system" } ]
routes = [ { a = "a", b = "b" }, { a = "b", b = "c" }, { a = "a", b = "d" }, { a = "d", b = "c" },
           { a = "c", b = "far" } ]
"#;

const TESTS: &str = r#"
test("routes and distances on the star map", function(t)
  local g = t:game { scenario = "three" }
  t:eq(g:graph_route("map", "a", "c"), { "a", "b", "c" }) -- a-b-c and a-d-c tie: alphabetical
  t:eq(g:graph_distance("map", "a", "far"), 3)
  t:eq(g:graph_distance("map", "a", "a"), 0)
  t:eq(g:graph_route("map", "a", "lost"), nil)
end)

test("act, try, check, undo and rolls", function(t)
  local g = t:game { scenario = "three", seed = 3 }
  local ok, why = g:check { id = "jump", side = "blue", piece = 1, to = "far" }
  t:falsy(ok)
  t:matches(why, "too far: 3 stars")
  local before = g:state_hash()
  t:ok(g:check { id = "jump", side = "blue", piece = 1, to = "c" })
  t:eq(g:state_hash(), before) -- check performs nothing
  g:act { id = "jump", side = "blue", piece = 1, to = "c" }
  t:eq(g:piece(1).position.location, "c")
  t:eq(g:rolls()[1].label, "jump roll")
  t:ok(g:undo())
  t:eq(g:state_hash(), before)
end)

test("edit, legal and bots", function(t)
  local g = t:game { scenario = "three" }
  g:edit(function(ctx) ctx:set(1, "jumps", 5) end)
  t:eq(g:piece(1).values.jumps, 5)
  local legal = g:legal("blue")
  t:eq(legal[1].id, "jump")
  t:eq(g:bot("last", "blue").id, legal[#legal].id)
  t:eq(g:clock().phase, "move")
end)

test("a failing assertion names this file and line", function(t)
  t:eq(1, 2)
end)

test("an illegal act fails the test with the reason", function(t)
  local g = t:game { scenario = "three" }
  g:act { id = "jump", side = "blue", piece = 1, to = "lost" }
end)
"#;

fn results() -> Vec<TestResult> {
    let tmp = tempfile::tempdir().unwrap();
    let mods = tmp.path().join("mods");
    write(
        &mods,
        &[
            (
                "stars/mod.toml",
                "id = \"stars\"\nname = \"Stars\"\nversion = \"0.1.0\"\nengine = \"*\"\n",
            ),
            ("stars/main.lua", MAIN),
            ("stars/scenarios/three.toml", SCENARIO),
            ("stars/tests/game.lua", TESTS),
            (
                "stars/tests/_helper.lua",
                "return { not_a_test = function() error('helpers are not run') end }",
            ),
        ],
    );
    run_tests(&mods, "stars", &LoadOptions::default(), "").unwrap_or_else(|e| panic!("{e:?}"))
}

#[test]
fn games_in_lua_tests_reach_the_engine_and_failures_name_file_and_line() {
    let results = results();
    let failure = |name: &str| {
        results
            .iter()
            .find(|r| r.name == name)
            .unwrap_or_else(|| panic!("no test {name:?} in {results:?}"))
            .failure
            .clone()
    };
    assert_eq!(results.len(), 5, "{results:?}");
    assert_eq!(failure("routes and distances on the star map"), None);
    assert_eq!(failure("act, try, check, undo and rolls"), None);
    assert_eq!(failure("edit, legal and bots"), None);
    let f = failure("a failing assertion names this file and line").unwrap();
    assert!(f.starts_with("mods/stars/tests/game.lua:"), "{f}");
    assert!(f.contains("expected 2, got 1"), "{f}");
    let f = failure("an illegal act fails the test with the reason").unwrap();
    assert!(f.contains("illegal action jump: no route to lost"), "{f}");
    assert!(
        results
            .iter()
            .all(|r| r.file == "mods/stars/tests/game.lua")
    );
}
