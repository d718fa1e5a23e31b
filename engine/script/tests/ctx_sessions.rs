//! A ctx works only during the callback it was passed to (`hexforge_script::live`): a kept ctx
//! errors with a message that says so, a method called with a dot says to use a colon, a write
//! through a read-only ctx names where writes belong, and a write through a kept writable ctx
//! while the engine is reading the same state for a nested check is refused as busy. Every
//! refusal is a readable illegal-action reason or rules error, never a crash; a coroutine that
//! outlives its callback gets the same error, and a check run inside a listing reads the same state.

mod common;

use hexforge_game::{Action, Game, PerformError, SideId};
use hexforge_script::LuaRules;
use serde_json::{Value, json};

const SCENARIO: &str = r#"name = "Sessions"
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

/// `keep` stores its ctx in an upvalue; `use_kept` calls a method on it later; `dot` calls a
/// method with a dot; `peek` writes in its check; `nested` asks ctx:legal about `sneaky`, whose
/// check writes through the kept writable ctx of `nested` itself.
const MAIN: &str = r#"game.piece_type { id = "ship", values = { hull = 3 } }
game.turns { order = "fixed", phases = { { id = "main" } } }
local KEPT
game.action { id = "keep", apply = function(ctx) KEPT = ctx end }
game.action { id = "use_kept", apply = function(ctx) return KEPT:global("x") end }
game.action { id = "dot", apply = function(ctx) return ctx.global("x") end }
game.action { id = "peek", check = function(ctx, a) ctx:set(1, "hull", 0) return true end,
  apply = function() end }
game.action { id = "sneaky", check = function(ctx, a) KEPT:set(1, "hull", 0) return true end,
  apply = function() end }
game.action { id = "co_make", apply = function(ctx)
  CO = coroutine.create(function(c) coroutine.yield() return c:global("x") end)
  coroutine.resume(CO, ctx)
end }
game.action { id = "co_resume", apply = function(ctx)
  local ok, err = coroutine.resume(CO)
  ctx:set_global("co", tostring(ok) .. " " .. tostring(err))
end }
game.action { id = "plain", check = function(ctx, a) return ctx:global("closed") ~= true end,
  apply = function() end }
game.action { id = "asks", choices = function(ctx, side)
    -- A check run from inside a listing: a read-only session inside another.
    if ctx:legal { id = "plain", side = side } then return { {} } end
    return {}
  end, apply = function() end }
game.action { id = "nested", apply = function(ctx, a)
  KEPT = ctx
  local ok, why = ctx:legal { id = "sneaky", side = a.side }
  ctx:set_global("why", why or "allowed")
  ctx:set(1, "hull", 2)
end }
"#;

fn game() -> (tempfile::TempDir, Game<LuaRules>) {
    common::game("sessions", MAIN, SCENARIO, Value::Null)
}

/// The line of `MAIN` that contains `text` (from 1).
fn line_of(text: &str) -> usize {
    MAIN.lines()
        .position(|l| l.contains(text))
        .expect("in MAIN")
        + 1
}

fn act(id: &str) -> Action {
    Action::new(id, SideId::new("blue"), json!({}))
}

fn message(e: PerformError) -> String {
    match e {
        PerformError::Illegal(i) => i.reason,
        other => other.to_string(),
    }
}

#[test]
fn a_kept_ctx_errors_once_its_callback_has_returned() {
    let (_d, mut g) = game();
    g.perform(&act("keep")).unwrap();
    let before = g.state().clone();
    let e = message(g.perform(&act("use_kept")).unwrap_err());
    assert!(
        e.contains(&format!(
            "mods/sessions/main.lua:{}",
            line_of("id = \"use_kept\"")
        )) && e.contains("ctx:global: this ctx's callback has returned"),
        "{e}"
    );
    assert_eq!(g.state(), &before, "nothing changed");
}

#[test]
fn a_method_called_with_a_dot_says_to_use_a_colon() {
    let (_d, mut g) = game();
    let e = message(g.perform(&act("dot")).unwrap_err());
    assert!(
        e.contains("ctx:global: call it on a ctx with a colon (ctx:global(...))"),
        "{e}"
    );
}

#[test]
fn writes_in_a_check_name_where_writes_belong() {
    let (_d, mut g) = game();
    let e = message(g.perform(&act("peek")).unwrap_err());
    assert!(
        e.contains(&format!(
            "mods/sessions/main.lua:{}",
            line_of("id = \"peek\"")
        )) && e.contains("ctx:set changes the game: only allowed in apply, setup and hooks"),
        "{e}"
    );
    assert_eq!(
        g.state().pieces.values().next().unwrap().values["hull"],
        json!(3)
    );
}

#[test]
fn a_write_through_a_kept_ctx_during_a_nested_check_is_refused_as_busy() {
    let (_d, mut g) = game();
    let before = g.state().clone();
    // ctx:legal turns an erroring check into an error of the asking callback: the whole action
    // is refused, with the line and the reason, and nothing changes.
    let e = message(g.perform(&act("nested")).unwrap_err());
    let line = line_of("local ok, why = ctx:legal");
    assert!(
        e.contains(&format!("mods/sessions/main.lua:{line}")) && e.contains("ctx:set: ctx is busy"),
        "{e}"
    );
    assert_eq!(g.state(), &before);
}

#[test]
fn a_coroutine_resumed_after_its_callback_returned_gets_an_error_not_the_state() {
    let (_d, mut g) = game();
    g.perform(&act("co_make")).unwrap();
    g.perform(&act("co_resume")).unwrap();
    let co = g.state().globals["co"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        co.starts_with("false ") && co.contains("ctx:global: this ctx's callback has returned"),
        "{co}"
    );
}

#[test]
fn a_check_inside_a_listing_reads_the_same_state() {
    let (_d, g) = game();
    let listed = g.legal_actions(&SideId::new("blue")).unwrap();
    assert!(listed.iter().any(|a| a.id == "asks"), "{listed:?}");
}
