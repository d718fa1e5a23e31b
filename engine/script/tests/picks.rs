//! `LuaRules::pick_legal` (the random bot's path): it counts every choice but converts only the
//! picked one, and must answer exactly what indexing the full listing answers, with the same
//! conversion and the same error for a choice that is not plain data.

use hexforge_game::{Action, Game, GameState, RulesError, SideId};
use hexforge_script::LuaRules;
use hexforge_script::loader::{LoadOptions, load_mods};
use serde_json::{Value, json};
use std::path::Path;

/// Actions are listed in id order: `a` (2 choices), `bad` (3 with `options.bad`, the second a
/// function value; the list stops at its nil), `c` (the side id as a bare string), then the
/// engine's `end_phase` unless `options.locked`. `options.empty` lists no choices at all.
const MAIN: &str = r#"game.turns { order = "fixed", phases = { { id = "main" } } }
game.action { id = "a", choices = function(ctx, side)
    if ctx.options.empty then return {} end
    return { { n = 1 }, { n = 2, id = "a", side = "elsewhere", at = { q = 1, r = -1 } } }
  end, apply = function() end }
game.action { id = "bad", choices = function(ctx, side)
    if not ctx.options.bad then return nil end
    return { { ok = 1 }, { f = function() end }, { ok = 3 }, nil, { after = 1 } }
  end, apply = function() end }
game.action { id = "c", choices = function(ctx, side)
    if ctx.options.empty then return {} end
    return { side }
  end, apply = function() end }
-- With `options.lists`: `m` lists choice lists among plain choices (one of them empty), `n` the
-- same choices built as tables from move_listing, `o` a bare choice list.
game.action { id = "m", choices = function(ctx, side)
    if not ctx.options.lists then return {} end
    local one = search.move_choices({ q = 0, r = 0 }, 0, { speed = 1, max_turns = 1 }, nil, { piece = 1 })
    local _, none = search.move_choices({ q = 0, r = 0 }, 0, { speed = 1 }, nil, { piece = 9 })
    local two = search.move_choices({ q = 0, r = 0 }, { 0, 3 }, { speed = 2 }, nil, { piece = 2 })
    return { { n = 0 }, one, { n = 1 }, none, two, { n = 2 } }
  end, apply = function() end }
game.action { id = "n", choices = function(ctx, side)
    if not ctx.options.lists then return {} end
    local out = { { n = 0 } }
    for _, m in ipairs(search.move_listing({ q = 0, r = 0 }, 0, { speed = 1, max_turns = 1 })) do
      out[#out + 1] = { piece = 1, plan = m.plan, to = m.to, facing = m.facing }
    end
    out[#out + 1] = { n = 1 }
    for _, m in ipairs(search.move_listing({ q = 0, r = 0 }, { 0, 3 }, { speed = 2 })) do
      out[#out + 1] = { piece = 2, plan = m.plan, to = m.to, facing = m.facing, start_facing = m.start_facing }
    end
    out[#out + 1] = { n = 2 }
    return out
  end, apply = function() end }
game.action { id = "o", choices = function(ctx, side)
    if not ctx.options.lists then return {} end
    return (search.move_choices({ q = 0, r = 0 }, 5, { speed = 1, max_turns = 1 }, nil, { piece = 3 }))
  end, apply = function() end }
-- `q`: `m`'s choices through game.expand_choices (plain tables, as a variant filtering them
-- would read them); `r` the bare list of `o` the same way.
game.action { id = "q", choices = function(ctx, side)
    if not ctx.options.lists then return {} end
    local out = game.expand_choices(game.actions.m.choices(ctx, side))
    for _, c in ipairs(out) do assert(type(c) == "table") end
    return out
  end, apply = function() end }
game.action { id = "r", choices = function(ctx, side)
    if not ctx.options.lists then return {} end
    return game.expand_choices(game.actions.o.choices(ctx, side))
  end, apply = function() end }
game.action { id = "end_phase", check = function(ctx, a)
    if ctx.options.locked then return false, "locked" end
    return true
  end }
"#;

const SCENARIO: &str = r#"name = "Picks"
[board]
shape = "hexagon"
radius = 2
[[sides]]
id = "blue"
[[sides]]
id = "red"
"#;

fn write(root: &Path, files: &[(&str, &str)]) {
    for (p, text) in files {
        let p = root.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

fn game(options: Value) -> (tempfile::TempDir, Game<LuaRules>) {
    let dir = tempfile::tempdir().unwrap();
    let mods = dir.path().join("mods");
    write(
        &mods,
        &[
            (
                "picks/mod.toml",
                "id = \"picks\"\nname = \"Picks\"\nversion = \"0.1.0\"\nengine = \"*\"\n",
            ),
            ("picks/main.lua", MAIN),
            ("picks/scenarios/picks.toml", SCENARIO),
        ],
    );
    let loaded =
        load_mods(&mods, "picks", &LoadOptions::default()).unwrap_or_else(|e| panic!("{e:?}"));
    let rules = LuaRules::new(loaded).unwrap();
    let state = GameState::new(rules.mod_locks(), "picks", options, 1);
    (dir, Game::new(rules, state).unwrap())
}

/// `pick_legal_action` answering `i`, with the lengths `pick` was called with.
fn pick(g: &Game<LuaRules>, i: usize) -> (Result<Option<Action>, RulesError>, Vec<usize>) {
    let mut seen = Vec::new();
    let got = g.pick_legal_action(&SideId::new("blue"), &mut |n| {
        seen.push(n);
        i
    });
    (got, seen)
}

#[test]
fn every_pick_equals_the_listed_action_at_its_index() {
    let (_d, g) = game(json!({}));
    let all = g.legal_actions(&SideId::new("blue")).unwrap();
    let blue = || SideId::new("blue");
    assert_eq!(
        all,
        vec![
            Action::new("a", blue(), json!({ "n": 1 })),
            Action::new("a", blue(), json!({ "n": 2, "at": { "q": 1, "r": -1 } })),
            Action::new("c", blue(), json!("blue")),
            Action::end_phase(blue()),
        ]
    );
    for (i, want) in all.iter().enumerate() {
        let (got, seen) = pick(&g, i);
        assert_eq!(seen, vec![all.len()], "pick {i}");
        assert_eq!(got.unwrap().as_ref(), Some(want), "pick {i}");
    }
}

#[test]
fn nothing_to_pick_calls_no_pick() {
    let (_d, g) = game(json!({ "empty": true, "locked": true }));
    assert_eq!(g.legal_actions(&SideId::new("blue")).unwrap(), vec![]);
    let (got, seen) = pick(&g, 0);
    assert_eq!(got.unwrap(), None);
    assert_eq!(seen, Vec::<usize>::new());

    // Only end_phase (no choices, no declared check refusing it): one to pick from.
    let (_d, g) = game(json!({ "empty": true }));
    let (got, seen) = pick(&g, 0);
    assert_eq!(got.unwrap(), Some(Action::end_phase(SideId::new("blue"))));
    assert_eq!(seen, vec![1]);
}

#[test]
fn a_choice_that_is_not_plain_data_fails_when_picked_naming_the_action() {
    let (_d, g) = game(json!({ "bad": true, "locked": true }));
    let listing = g.legal_actions(&SideId::new("blue")).unwrap_err();
    assert!(
        listing.message.contains("action bad: choices") && listing.message.contains("plain data"),
        "{listing}"
    );
    // a, a, bad (ok), bad (function), bad (ok), c: the nil ends `bad`'s list.
    let (got, seen) = pick(&g, 3);
    assert_eq!(seen, vec![6]);
    assert_eq!(
        got.unwrap_err(),
        listing,
        "the same conversion, the same error"
    );
    // The other choices convert as they would in a listing of good values.
    let blue = || SideId::new("blue");
    for (i, want) in [
        (2, Action::new("bad", blue(), json!({ "ok": 1 }))),
        (4, Action::new("bad", blue(), json!({ "ok": 3 }))),
        (5, Action::new("c", blue(), json!("blue"))),
    ] {
        assert_eq!(pick(&g, i).0.unwrap(), Some(want), "pick {i}");
    }
}

#[test]
fn an_index_past_the_end_is_an_error_and_the_rules_stay_usable() {
    let (_d, g) = game(json!({}));
    let (got, seen) = pick(&g, 4);
    assert_eq!(seen, vec![4]);
    assert_eq!(got.unwrap_err(), RulesError::pick_out_of_range(4, 4));
    // Also where only end_phase is listed (the listing's early return).
    let (_d2, g2) = game(json!({ "empty": true }));
    assert_eq!(
        pick(&g2, 1).0.unwrap_err(),
        RulesError::pick_out_of_range(1, 1)
    );
    assert_eq!(pick(&g, 0).0.unwrap().unwrap().id, "a");
}

#[test]
fn choice_lists_count_and_convert_in_their_place_in_listings_and_picks() {
    let (_d, g) = game(json!({ "lists": true }));
    let all = g.legal_actions(&SideId::new("blue")).unwrap();
    let params = |id: &str| -> Vec<Value> {
        all.iter()
            .filter(|a| a.id == id)
            .map(|a| a.params.clone())
            .collect()
    };
    // The lists expand where they stand, into exactly the tables a mod would have built.
    let (m, n) = (params("m"), params("n"));
    assert!(m.len() > 6, "{m:?}");
    assert_eq!(m, n);
    assert_eq!(m[0], json!({ "n": 0 }));
    assert_eq!(m[m.len() - 1], json!({ "n": 2 }));
    assert!(m.contains(&json!({ "n": 1 })));
    // game.expand_choices gives the same choices as plain tables.
    assert_eq!(params("q"), m);
    assert_eq!(params("r"), params("o"));
    // A bare choice list is a list of its choices.
    let o = params("o");
    assert_eq!(o.len(), 3);
    assert_eq!(
        o[0],
        // Ends are sorted by q, r, facing: turning right in the hex entered comes first.
        json!({ "piece": 3, "plan": "FR", "to": { "q": -1, "r": 0 }, "facing": 0 })
    );
    for (i, want) in all.iter().enumerate() {
        let (got, seen) = pick(&g, i);
        assert_eq!(seen, vec![all.len()], "pick {i}");
        assert_eq!(got.unwrap().as_ref(), Some(want), "pick {i}");
    }
    assert_eq!(
        pick(&g, all.len()).0.unwrap_err(),
        RulesError::pick_out_of_range(all.len(), all.len())
    );
}
