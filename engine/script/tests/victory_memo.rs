//! Victory's answer is reused while nothing it read through its ctx has changed, and asked again
//! as soon as anything it read has: a piece field it listed, a side, a global, a ctx field. A
//! read the engine cannot ask again (a board query) means it is asked every time. Counted with
//! a Lua global the victory callback bumps (a test-only breach of the read-only contract: the
//! count is exactly what the memo saves).

mod common;

use hexforge_game::{GameState, PieceId, Position, Rules};
use hexforge_script::LuaRules;
use serde_json::{Value, json};
use std::sync::Arc;

const SCENARIO: &str = r#"name = "Memo"
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
values = { hull = 3 }
[[pieces]]
type = "ship"
owner = "red"
hex = { q = 1, r = 0 }
values = { hull = 3 }
"#;

/// A rule set whose victory is `body` (a function of `ctx` returning an outcome or nil), counting
/// its calls in `CALLS`.
fn rules(body: &str) -> (tempfile::TempDir, LuaRules, GameState) {
    let main = format!(
        "game.piece_type {{ id = \"ship\", values = {{ hull = 3 }} }}\n\
         game.turns {{ order = \"fixed\", phases = {{ {{ id = \"move\" }}, {{ id = \"fire\" }} }} }}\n\
         CALLS = 0\n\
         local function body(ctx)\n{body}\nend\n\
         game.victory(function(ctx) CALLS = CALLS + 1 return body(ctx) end)\n"
    );
    let (dir, rules) = common::load("memo", &main, SCENARIO);
    let rules = rules.unwrap_or_else(|e| panic!("{e:#?}"));
    let mut state = GameState::new(rules.mod_locks(), "memo", json!({ "goal": 1 }), 1);
    rules.setup(&mut state).unwrap();
    (dir, rules, state)
}

fn calls(rules: &LuaRules) -> i64 {
    rules.loaded().sandbox.lua().globals().get("CALLS").unwrap()
}

fn set_value(state: &mut GameState, id: u32, key: &str, v: Value) {
    let p = state.pieces.get_mut(&PieceId(id)).unwrap();
    Arc::make_mut(&mut p.values).insert(key.to_owned(), v);
}

/// Asks victory and returns (winner ids, calls so far).
fn ask(rules: &LuaRules, state: &GameState) -> (Option<Vec<String>>, i64) {
    let o = rules.outcome(state).unwrap();
    (
        o.map(|o| o.winners.iter().map(|w| w.as_str().to_owned()).collect()),
        calls(rules),
    )
}

const LAST_STANDING: &str = r#"
  local count, left = {}, {}
  for _, p in ipairs(ctx:pieces { fields = { "owner", "hex" } }) do
    if p.hex then count[p.owner] = (count[p.owner] or 0) + 1 end
  end
  for _, s in ipairs(ctx:sides()) do if count[s.id] then left[#left + 1] = s.id end end
  if #left == 1 then return { winners = left, reason = "last" } end
  return nil
"#;

#[test]
fn light_reads_are_asked_again_only_when_a_listed_field_changes() {
    let (_d, rules, mut state) = rules(LAST_STANDING);
    assert_eq!(ask(&rules, &state), (None, 1));
    // Values, other globals and the clock are not what it read: no call.
    set_value(&mut state, 1, "hull", json!(1));
    std::sync::Arc::make_mut(&mut state.globals).insert("weather".into(), json!("storm"));
    state.clock.round += 1;
    assert_eq!(ask(&rules, &state), (None, 1));
    // Moving a ship is (its hex was listed): called again, same answer.
    state.pieces.get_mut(&PieceId(1)).unwrap().pos = Position::Hex((0, 1).into());
    assert_eq!(ask(&rules, &state), (None, 2));
    // A ship leaves the map: red is the last side with a ship on it.
    state.pieces.get_mut(&PieceId(1)).unwrap().pos = Position::Box("lost".into());
    assert_eq!(ask(&rules, &state), (Some(vec!["red".into()]), 3));
    assert_eq!(ask(&rules, &state), (Some(vec!["red".into()]), 3));
    // A destroyed piece, a new side value: asked again.
    state.pieces.remove(&PieceId(2));
    assert_eq!(ask(&rules, &state), (None, 4));
    state.sides_mut()[0].values.insert("score".into(), json!(1));
    assert_eq!(ask(&rules, &state), (None, 5));
}

#[test]
fn ctx_fields_globals_and_whole_snapshots_are_tracked_as_read() {
    let (_d, rules, mut state) = rules(
        r#"
  local p = ctx:piece(1)
  if ctx.phase == "fire" and p.values.hull <= (ctx:global("limit") or 0) then
    return { winners = { "red" }, reason = "hull" }
  end
  if ctx.options.goal == 2 then return { winners = { "blue" }, reason = "goal" } end
  return nil
"#,
    );
    // As if the game had started: round 1, phase "move".
    state.clock.round = 1;
    assert_eq!(ask(&rules, &state), (None, 1));
    // The round was not read; the other piece was not read.
    state.clock.round += 1;
    set_value(&mut state, 2, "hull", json!(0));
    assert_eq!(ask(&rules, &state), (None, 1));
    // The phase was read (ctx.phase), and so was piece 1's snapshot.
    state.clock.phase_index = 1;
    assert_eq!(ask(&rules, &state), (None, 2));
    set_value(&mut state, 1, "hull", json!(0));
    std::sync::Arc::make_mut(&mut state.globals).insert("limit".into(), json!(0));
    // Piece 1 and the global changed: asked again, and now red wins.
    assert_eq!(ask(&rules, &state), (Some(vec!["red".into()]), 3));
    state.clock.phase_index = 0;
    assert_eq!(ask(&rules, &state), (None, 4));
    state.options = json!({ "goal": 2 }).into();
    assert_eq!(ask(&rules, &state), (Some(vec!["blue".into()]), 5));
}

#[test]
fn victory_s_ctx_serves_its_fields_once_each_notes_nil_ones_and_keeps_its_methods() {
    let (_d, rules, mut state) = rules(
        r#"
  -- Read twice: the second read is the field stored in the ctx.
  assert(ctx.phase == ctx.phase and rawget(ctx, "phase") == ctx.phase)
  -- Not read yet: nothing stored.
  assert(rawget(ctx, "round") == nil)
  -- The acting list (read-only, as in every ctx); methods still there.
  assert(type(ctx.acting) == "table" and ctx:piece(1).values.hull == 3)
  assert(not pcall(function() ctx.acting[1] = "changed" end))
  if ctx.label == nil then return nil end
  return { winners = { "blue" }, reason = "label" }
"#,
    );
    state.clock.round = 1;
    assert_eq!(ask(&rules, &state), (None, 1));
    // Unread: the round.
    state.clock.round += 1;
    assert_eq!(ask(&rules, &state), (None, 1));
    // A field read while nil is read all the same.
    state.clock.label = Some("x".into());
    assert_eq!(ask(&rules, &state), (Some(vec!["blue".into()]), 2));
    state.clock.label = None;
    assert_eq!(ask(&rules, &state), (None, 3));
}

#[test]
fn a_read_that_cannot_be_asked_again_calls_victory_every_time() {
    let (_d, rules, state) = rules(
        r#"
  if #ctx:board_hexes() == 0 then return { winners = {}, reason = "no board" } end
  return nil
"#,
    );
    assert_eq!(ask(&rules, &state), (None, 1));
    assert_eq!(ask(&rules, &state), (None, 2));
    assert_eq!(ask(&rules, &state), (None, 3));
}

#[test]
fn off_victory_is_called_every_time_and_answers_the_same() {
    let (_d, rules, mut state) = rules(LAST_STANDING);
    rules.remember_victory(false);
    assert_eq!(ask(&rules, &state), (None, 1));
    assert_eq!(ask(&rules, &state), (None, 2));
    state.pieces.remove(&PieceId(2));
    assert_eq!(ask(&rules, &state), (Some(vec!["blue".into()]), 3));
    rules.remember_victory(true);
    assert_eq!(ask(&rules, &state), (Some(vec!["blue".into()]), 4));
    assert_eq!(ask(&rules, &state), (Some(vec!["blue".into()]), 4));
}

#[test]
fn an_erroring_victory_is_not_remembered() {
    let (_d, rules, mut state) = rules(
        r#"
  if ctx:global("boom") then error("boom") end
  return nil
"#,
    );
    std::sync::Arc::make_mut(&mut state.globals).insert("boom".into(), json!(true));
    assert!(rules.outcome(&state).is_err());
    assert!(rules.outcome(&state).is_err());
    assert_eq!(calls(&rules), 2);
    std::sync::Arc::make_mut(&mut state.globals).remove("boom");
    assert_eq!(ask(&rules, &state), (None, 3));
    assert_eq!(ask(&rules, &state), (None, 3));
}
