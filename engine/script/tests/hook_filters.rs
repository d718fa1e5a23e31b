//! `game.on(event, { phases = ... } | { actions = ... }, fn)`: the engine calls a filtered hook
//! only for those phases or actions (no ctx, no Lua otherwise), and a filter that names what the
//! event never carries, or what the mod never declared, is a load error at the `game.on` line.

mod common;

use hexforge_game::{Action, Game, GameState, SideId};
use hexforge_script::LuaRules;
use serde_json::{Value, json};

const SCENARIO: &str = r#"name = "Hooks"
[board]
shape = "hexagon"
radius = 2
[[sides]]
id = "blue"
"#;

/// Two phases, an action `a`, and `note(ctx, word)`, which appends a word to the global `seen`
/// (hooks may write).
macro_rules! noting {
    () => {
        r#"game.turns { order = "fixed", phases = { { id = "move" }, { id = "fire" } } }
game.action { id = "a", apply = function() end }
local function note(ctx, word)
  local seen = ctx:global("seen") or {}
  seen[#seen + 1] = word
  ctx:set_global("seen", seen)
end
"#
    };
}

/// Each hook notes a word.
const MAIN: &str = concat!(
    noting!(),
    r#"game.action { id = "b", apply = function() end }
game.on("phase_end", { phases = { "move" } }, function(ctx, ev) note(ctx, "end-" .. ev.phase) end)
game.on("phase_start", function(ctx, ev) note(ctx, "start-" .. ev.phase) end)
game.on("phase_start", { phases = { "fire" } }, function(ctx, ev) note(ctx, "fire!") end)
game.on("after_action", { actions = { "a", "end_phase" } }, function(ctx, ev) note(ctx, "after-" .. ev.action) end)
"#
);

fn load(main: &str) -> (tempfile::TempDir, Result<LuaRules, Vec<String>>) {
    common::load("hooks", main, SCENARIO)
}

fn act(game: &mut Game<LuaRules>, id: &str) {
    game.perform(&Action::new(id, SideId::new("blue"), json!({})))
        .unwrap_or_else(|e| panic!("{id}: {e}"));
}

#[test]
fn filtered_hooks_run_only_for_their_phases_and_actions() {
    let (_d, rules) = load(MAIN);
    let rules = rules.unwrap();
    let state = GameState::new(rules.mod_locks(), "hooks", Value::Null, 1);
    let mut game = Game::new(rules, state).unwrap();
    act(&mut game, "a");
    act(&mut game, "b");
    act(&mut game, "end_phase"); // move ends, fire starts
    act(&mut game, "a");
    act(&mut game, "end_phase"); // fire ends (not hooked), round 2's move starts
    assert_eq!(
        game.state().globals["seen"],
        json!([
            "start-move",
            "after-a",
            "after-end_phase",
            "end-move",
            "start-fire",
            "fire!",
            "after-a",
            "after-end_phase",
            "start-move"
        ])
    );
}

#[test]
fn filters_that_cannot_match_are_load_errors_at_their_line() {
    let (_d, rules) = load(
        r#"game.turns { order = "fixed", phases = { { id = "move" } } }
game.action { id = "a", apply = function() end }
game.on("round_start", { phases = { "move" } }, function() end)
game.on("phase_end", { phases = { "fire" } }, function() end)
game.on("after_action", { actions = { "shoot" } }, function() end)
game.on("phase_start", { actions = { "a" } }, function() end)
game.on("phase_start", "move", function() end)
"#,
    );
    let Err(errs) = rules else {
        panic!("expected load errors")
    };
    for want in [
        "mods/hooks/main.lua:3: game.on(\"round_start\"): a phases filter applies only to phase_start and phase_end",
        "mods/hooks/main.lua:4: game.on(\"phase_end\"): phase \"fire\" is not declared in game.turns (phases: move)",
        "mods/hooks/main.lua:5: game.on(\"after_action\"): action \"shoot\" is not declared (actions: a)",
        "mods/hooks/main.lua:6: game.on(\"phase_start\"): an actions filter applies only to after_action",
        "mods/hooks/main.lua:7: game.on(event, filter, fn): the filter must be a table such as { phases = { \"move\" } }",
    ] {
        assert!(
            errs.iter().any(|e| e == want),
            "missing {want:?} in {errs:#?}"
        );
    }
}

#[test]
fn a_variant_sees_filtered_hooks_as_tables_and_may_edit_them() {
    let main = format!(
        "{MAIN}\ngame.hooks.phase_end[1].phases = {{ \"fire\" }}\n\
         assert(type(game.hooks.phase_end[1].fn) == \"function\")\n"
    );
    let (_d, rules) = load(&main);
    let rules = rules.unwrap();
    let state = GameState::new(rules.mod_locks(), "hooks", Value::Null, 1);
    let mut game = Game::new(rules, state).unwrap();
    act(&mut game, "end_phase");
    act(&mut game, "end_phase");
    let seen = &game.state().globals["seen"];
    assert!(
        seen.as_array().unwrap().iter().any(|w| w == "end-fire"),
        "{seen}"
    );
    assert!(
        !seen.as_array().unwrap().iter().any(|w| w == "end-move"),
        "{seen}"
    );
}

/// Events repeat (every phase start, every action of a side): the engine keeps them as
/// templates. A hook may still change its event table, and that change reaches no other hook
/// and no later event.
#[test]
fn a_hook_that_changes_its_event_changes_no_other_hooks_event() {
    let main = concat!(
        noting!(),
        r#"game.on("after_action", function(ctx, ev)
  note(ctx, ev.action .. "/" .. tostring(ev.side) .. "/" .. tostring(ev.extra))
  ev.action, ev.side, ev.extra = "changed", nil, "x"
end)
game.on("after_action", function(ctx, ev) note(ctx, "second saw " .. ev.action) end)
"#
    );
    let (_d, rules) = load(main);
    let rules = rules.unwrap();
    let state = GameState::new(rules.mod_locks(), "hooks", Value::Null, 1);
    let mut game = Game::new(rules, state).unwrap();
    act(&mut game, "a");
    act(&mut game, "a");
    assert_eq!(
        game.state().globals["seen"],
        json!(["a/blue/nil", "second saw a", "a/blue/nil", "second saw a"])
    );
}
