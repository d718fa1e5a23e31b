use super::*;
use crate::loader::{LoadOptions, load_mods};

const MAIN: &str = r#"game.piece_type { id = "ship", stats = { mr = 2, arcs = { "F", "A" } },
  values = { hull = 3, spot = { q = 1, r = 2 }, rec = { guns = { 1, 2 }, crew = { a = 1 } } } }
game.piece_type { id = "buoy" }
game.table { id = "odds", rows = { 1, 2 }, columns = { "a", "b" }, cells = { { 10, 20 }, { 30, 40 } } }
game.turns { order = "fixed", phases = { { id = "move" } } }
"#;

const SCENARIO: &str = r#"[board]
shape = "hexagon"
radius = 4
[[sides]]
id = "blue"
[[sides]]
id = "red"
[[pieces]]
type = "ship"
owner = "blue"
hex = { q = 0, r = 3 }
facing = "N"
values = { hull = 5 }
[[pieces]]
type = "ship"
owner = "red"
box = "reserve"
[[pieces]]
type = "buoy"
owner = "red"
position = { location = "sol", slot = "orbit" }
[[pieces]]
type = "buoy"
owner = "blue"
position = { location = "sol" }
[[pieces]]
type = "buoy"
owner = "blue"
hex = { q = -1, r = 1 }
"#;

/// A loaded rule set and a set-up state (the temp dir must outlive them).
pub(super) fn setup() -> (tempfile::TempDir, LuaRules, GameState) {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("mods/t");
    std::fs::create_dir_all(m.join("scenarios")).unwrap();
    std::fs::write(
        m.join("mod.toml"),
        "id = \"t\"\nname = \"T\"\nversion = \"0.1.0\"\nengine = \"*\"\n",
    )
    .unwrap();
    std::fs::write(m.join("main.lua"), MAIN).unwrap();
    std::fs::write(m.join("scenarios/s.toml"), SCENARIO).unwrap();
    let loaded = load_mods(&dir.path().join("mods"), "t", &LoadOptions::default())
        .unwrap_or_else(|e| panic!("{e:?}"));
    let rules = LuaRules::new(loaded).unwrap();
    let mut state = GameState::new(rules.mod_locks(), "s", Json::Null, 1);
    rules.setup(&mut state).unwrap();
    (dir, rules, state)
}

/// Runs `code` with a read-only ctx as `...`.
pub(super) fn run(
    rules: &LuaRules,
    state: &GameState,
    code: &str,
) -> Result<(), crate::ScriptError> {
    rules.loaded.sandbox.guarded(|lua| {
        rules.with_ctx(lua, Access::Read(state), |lua, ctx| {
            lua.load(code).set_name("=test").call::<()>(ctx)
        })
    })
}

pub(crate) const SAME: &str = r"
local function same(a, b)
  if type(a) ~= type(b) or math.type(a) ~= math.type(b) then return false end
  if type(a) ~= 'table' then return a == b end
  for k, v in pairs(a) do if not same(v, b[k]) then return false end end
  for k in pairs(b) do if a[k] == nil then return false end end
  return true
end
";

#[test]
fn light_reads_equal_the_listed_fields_of_whole_snapshots() {
    let (_d, rules, state) = setup();
    assert_eq!(state.pieces.len(), 5);
    let code = format!(
        "{SAME}
local ctx = ...
local all = ctx:pieces()
assert(#all == 5)
local lists = {{ {{ 'id' }}, {{ 'id', 'owner', 'type', 'hex', 'facing' }}, {{ 'position' }},
  {{ 'values', 'stats' }}, {{ 'stats', 'facing', 'values', 'position', 'hex', 'owner', 'type', 'id' }},
  {{}}, {{ 'hex', 'hex', 'id' }} }}
for n, f in ipairs(lists) do
  for _, filter in ipairs({{ {{}}, {{ owner = 'blue' }}, {{ type = 'buoy' }}, {{ at = {{ q = 0, r = 3 }} }} }}) do
local whole = ctx:pieces(filter)
filter.fields = f
local light = ctx:pieces(filter)
assert(#light == #whole, 'count ' .. n)
for i, p in ipairs(whole) do
  local want = {{}}
  for _, k in ipairs(f) do want[k] = p[k] end
  assert(same(light[i], want), 'list ' .. n .. ' piece ' .. i)
end
  end
end
-- Rows are read-only like whole snapshots (values and stats are the very same tables); the
-- list is fresh.
local a = ctx:pieces {{ fields = {{ 'values', 'stats', 'hex' }} }}
assert(not pcall(function() a[1].hex.q = 7 end) and not pcall(function() a[1].extra = true end))
assert(not pcall(function() a[1].values.rec.guns[1] = 99 end))
assert(not pcall(function() a[1].stats.arcs[1] = 'X' end))
a[#a + 1] = 'mine'
local b = ctx:pieces {{ fields = {{ 'values', 'stats', 'hex' }} }}
assert(b[1].values.rec.guns[1] == 1 and b[1].stats.arcs[1] == 'F' and b[1].hex.q == 0)
assert(b[1].extra == nil and b[#b] ~= 'mine')
assert(a[1].values == b[1].values and a[2].stats == b[2].stats)
"
    );
    run(&rules, &state, &code).unwrap();
}

#[test]
fn setting_an_unchanged_value_keeps_the_values_shared_with_the_earlier_state() {
    let (_d, rules, state) = setup();
    let mut s = state.clone();
    let write = |s: &mut GameState, code: &str| {
        rules
            .loaded
            .sandbox
            .guarded(|lua| {
                rules.with_ctx(lua, Access::Write(s), |lua, ctx| {
                    lua.load(code).set_name("=test").call::<()>(ctx)
                })
            })
            .unwrap();
    };
    let before = |s: &GameState| Arc::clone(&s.pieces[&PieceId(1)].values);
    write(
        &mut s,
        "local ctx = ... ctx:set(1, 'hull', 5) ctx:set(1, 'gone', nil)",
    );
    assert!(
        Arc::ptr_eq(&before(&state), &before(&s)),
        "no change, no copy"
    );
    write(&mut s, "local ctx = ... ctx:set(1, 'hull', 4)");
    assert!(!Arc::ptr_eq(&before(&state), &before(&s)));
    assert_eq!(s.pieces[&PieceId(1)].values["hull"], serde_json::json!(4));
    assert_eq!(
        state.pieces[&PieceId(1)].values["hull"],
        serde_json::json!(5)
    );
}

#[test]
fn writable_callbacks_get_the_shared_snapshots_when_they_ask() {
    let (_d, rules, state) = setup();
    let mut s = state.clone();
    let code = format!(
        "{SAME}
local ctx = ...
-- Asked for: the read-only snapshots, the same tables on every read, equal to the copies.
local a, b = ctx:piece(1, {{ shared = true }}), ctx:piece(1, {{ shared = true }})
local copy = ctx:piece(1)
assert(a == b and a ~= copy and same(a, copy), 'shared piece')
assert(not pcall(function() a.values.hull = 1 end), 'shared snapshots refuse writes')
copy.values.hull = 1 -- a private copy takes writes
local all = ctx:pieces {{ shared = true }}
local copies = ctx:pieces {{}}
assert(#all == #copies and all[1] == a and all[1] ~= copies[1] and same(all[1], copies[1]))
local light = ctx:pieces {{ fields = {{ 'id', 'values' }}, shared = true }}
assert(light[1].values == a.values)
assert(ctx:pieces {{ fields = {{ 'id', 'values' }} }}[1].values ~= a.values)
-- A shared snapshot shows the piece as it was read; a new read shows ctx:set's change.
ctx:set(1, 'hull', 3)
assert(a.values.hull ~= 3 and ctx:piece(1, {{ shared = true }}).values.hull == 3)
for _, bad in ipairs({{ function() ctx:piece(1, {{ shared = 'yes' }}) end,
                   function() ctx:pieces {{ shared = 1 }} end }}) do
  local ok, err = pcall(bad)
  assert(not ok and tostring(err):find('shared: expected true or false'), tostring(err))
end
"
    );
    rules
        .loaded
        .sandbox
        .guarded(|lua| {
            rules.with_ctx(lua, Access::Write(&mut s), |lua, ctx| {
                lua.load(&code).set_name("=test").call::<()>(ctx)
            })
        })
        .unwrap();
    assert_eq!(s.pieces[&PieceId(1)].values["hull"], serde_json::json!(3));
}

#[test]
fn read_only_callbacks_share_snapshots_that_refuse_writes_and_read_like_tables() {
    let (_d, rules, state) = setup();
    let code = r"
local ctx = ...
local p, q = ctx:piece(1), ctx:piece(1)
assert(p == q, 'the same table while the piece is unchanged')
assert(p.values == ctx:pieces()[1].values)
local ok, err = pcall(function() p.values.rec.guns[1] = 99 end)
assert(not ok and err:find('read%-only snapshot') and err:find('^test:6:'), err)
assert(not pcall(function() p.hex.q = 1 end))
assert(not pcall(function() p.newfield = 1 end))
assert(not pcall(function() table.insert(p.values.rec.guns, 5) end))
assert(not pcall(function() table.move({ 7 }, 1, 1, 1, p.values.rec.guns) end))
ok, err = pcall(function() rawset(p, 'id', 2) end)
assert(not ok and err:find('^test:12:'), err)
assert(not pcall(function() rawset(p.values.rec.guns, 1, 2) end))
assert(not pcall(function() setmetatable(p, {}) end))
assert(not pcall(function() setmetatable(p.values, { __index = { x = 1 } }) end))
assert(getmetatable(p) == nil and p.values.x == nil)
-- Nothing above changed it.
assert(p.id == 1 and p.hex.q ~= 1 and p.newfield == nil and p.values.rec.guns[1] == 1)
-- Reading works as on a plain table: #, ipairs, pairs, next, rawget, table functions,
-- conversions to Rust.
assert(#p.values.rec.guns == 2 and p.values.rec.guns[1] == 1)
assert(next(p) ~= nil and rawget(p, 'id') == 1 and rawlen(p.values.rec.guns) == 2)
-- Light rows too: frozen rows sharing the snapshot's values, in a fresh list.
local r1, r2 = ctx:pieces { fields = { 'id', 'hex', 'values' } }, ctx:pieces { fields = { 'id', 'hex', 'values' } }
assert(r1 ~= r2 and r1[1].values == r2[1].values and r1[1].values == p.values)
assert(not pcall(function() r1[1].id = 5 end) and not pcall(function() r1[1].hex.q = 5 end))
r1[#r1 + 1] = 'mine'
assert(ctx:pieces { fields = { 'hex', 'id' } }[1] ~= r1[1], 'another field list, another row')
local n = 0
for _ in ipairs(p.values.rec.guns) do n = n + 1 end
assert(n == 2)
local keys = {}
for k in pairs(p) do keys[#keys + 1] = k end
table.sort(keys)
assert(table.concat(keys, ',') == 'facing,hex,id,owner,position,stats,type,values', table.concat(keys, ','))
assert(table.concat(p.stats.arcs, '') == 'FA')
assert(hex.distance(p.hex, { q = 0, r = 0 }) == 3)
assert(#ctx:pieces { at = p.hex } >= 1)
";
    run(&rules, &state, code).unwrap();
    // A writable ctx gets fresh copies that the mod may change (and write back).
    let mut s = state.clone();
    rules
        .loaded
        .sandbox
        .guarded(|lua| {
            rules.with_ctx(lua, Access::Write(&mut s), |lua, ctx| {
                lua.load(
                    r"
local ctx = ...
local p = ctx:piece(1)
assert(getmetatable(p) == nil)
p.values.rec.guns[1] = 99
assert(ctx:piece(1).values.rec.guns[1] == 1)
ctx:set(1, 'rec', p.values.rec)
assert(ctx:piece(1).values.rec.guns[1] == 99)
",
                )
                .set_name("=test")
                .call::<()>(ctx)
            })
        })
        .unwrap();
}

#[test]
fn bad_field_lists_are_errors_that_name_the_field() {
    let (_d, rules, state) = setup();
    let e = run(
        &rules,
        &state,
        "local ctx = ...; ctx:pieces { fields = { 'id', 'hull' } }",
    )
    .unwrap_err()
    .message;
    assert!(
        e.contains("ctx:pieces: fields: unknown field \"hull\""),
        "{e}"
    );
    let e = run(
        &rules,
        &state,
        "local ctx = ...; ctx:pieces { fields = { 3 } }",
    )
    .unwrap_err()
    .message;
    assert!(e.contains("unknown field integer"), "{e}");
    let e = run(
        &rules,
        &state,
        "local ctx = ...; ctx:pieces { fields = 'id' }",
    )
    .unwrap_err()
    .message;
    assert!(e.contains("fields: expected a list of field names"), "{e}");
}

/// What a method call reads off the Lua stack (crate::stack, over crate::ffi) means what mlua's
/// conversion made of it: every kind of argument, the errors, and one or two results.
#[test]
fn ctx_templates_serve_only_their_own_fields() {
    let (_d, rules, state) = setup();
    // Every field, the ids in `acting` and the order `pairs` visits them in.
    let listing = |state: &GameState| -> String {
        rules
            .loaded
            .sandbox
            .guarded(|lua| {
                rules.with_ctx(lua, Access::Read(state), |lua, ctx| {
                    lua.load(
                        r#"local ctx = ...
local out = {}
for k, v in pairs(ctx) do
  if type(v) == "table" then
local items = {}
for i, x in pairs(v) do items[#items + 1] = tostring(i) .. "=" .. tostring(x) end
v = "{" .. table.concat(items, ",") .. "}"
  end
  out[#out + 1] = k .. "=" .. tostring(v)
end
return table.concat(out, " ")"#,
                    )
                    .call::<String>(ctx)
                })
            })
            .unwrap()
    };
    let mut a = state.clone();
    a.clock.round = 3;
    a.clock.acting = vec![SideId::new("red")];
    let mut b = a.clone();
    b.options = serde_json::json!({ "hard": true }).into();
    b.clock.acting = vec![SideId::new("blue"), SideId::new("red")];
    let mut c = a.clone();
    c.clock.round = 4;
    let first_a = listing(&a);
    let first_b = listing(&b);
    assert_ne!(first_a, first_b);
    assert!(first_b.contains("acting={1=blue,2=red}"), "{first_b}");
    listing(&c);
    // Back at a position seen before: a template for the very same fields, and the same
    // one again while they stay the same.
    assert_eq!(listing(&b), first_b);
    assert_eq!(listing(&b), first_b);
    assert_eq!(listing(&a), first_a);
    // And what is kept is what a ctx made from scratch shows.
    *rules.ctx_template.borrow_mut() = None;
    assert_eq!(listing(&a), first_a);
    assert_eq!(listing(&b), first_b);
}

#[test]
fn snapshots_follow_every_change_of_a_piece() {
    let (_d, rules, mut state) = setup();
    let read = "local ctx = ...; local p = ctx:piece(1); local l = ctx:pieces { fields = { 'values', 'hex' } }[1]
      assert(p.values.hull == %H and p.values.rec.guns[2] == %G and p.values.rec.crew.a == 1 and p.hex.q == %Q)
      assert(l.values.hull == %H and l.values.rec.guns[2] == %G and l.hex.q == %Q)";
    let check = |state: &GameState, h: i64, g: i64, q: i64| {
        let code = read
            .replace("%H", &h.to_string())
            .replace("%G", &g.to_string())
            .replace("%Q", &q.to_string());
        run(&rules, state, &code).unwrap();
    };
    check(&state, 5, 2, 0);
    let p = state.pieces.get_mut(&PieceId(1)).unwrap();
    p.pos = Position::Hex(Hex::new(1, 2));
    check(&state, 5, 2, 1);
    let p = state.pieces.get_mut(&PieceId(1)).unwrap();
    Arc::make_mut(&mut p.values).insert("hull".into(), serde_json::json!(4));
    check(&state, 4, 2, 1);
    let p = state.pieces.get_mut(&PieceId(1)).unwrap();
    Arc::make_mut(&mut p.values).insert(
        "rec".into(),
        serde_json::json!({"guns": [1, 7], "crew": {"a": 1}}),
    );
    check(&state, 4, 7, 1);
}

#[test]
fn snapshots_rebuilt_after_changes_equal_fresh_builds() {
    let (_d, rules, mut state) = setup();
    // Every piece's snapshot as text, in `pairs` order (so a layout that differs from a
    // fresh build's in the same VM shows), after checking that a rebuilt snapshot (which
    // reuses the unchanged parts of the old one) still refuses writes.
    let dump = r"local ctx = ...
      local function dump(v)
        if type(v) ~= 'table' then return tostring(v) .. ':' .. (math.type(v) or type(v)) end
        local out = {}
        for k, x in pairs(v) do out[#out + 1] = tostring(k) .. '=' .. dump(x) end
        return '{' .. table.concat(out, ',') .. '}'
      end
      local out = {}
      for _, p in ipairs(ctx:pieces {}) do
        assert(not pcall(function() p.values.hull = 0 end), 'a snapshot took a write')
        out[#out + 1] = dump(p)
      end
      return table.concat(out, '\n')";
    let read = |r: &LuaRules, state: &GameState| -> String {
        r.loaded
            .sandbox
            .guarded(|lua| {
                r.with_ctx(lua, Access::Read(state), |lua, ctx| {
                    lua.load(dump).set_name("=dump").call::<String>(ctx)
                })
            })
            .unwrap()
    };
    let write = |state: &mut GameState, code: &str| -> Result<(), crate::ScriptError> {
        rules.loaded.sandbox.guarded(|lua| {
            rules.with_ctx(lua, Access::Write(state), |lua, ctx| {
                lua.load(code).set_name("=write").call::<()>(ctx)
            })
        })
    };
    read(&rules, &state);
    let steps = [
        // A number; a nested table of the same shape.
        "local ctx = ...; ctx:set(1, 'hull', 4)",
        "local ctx = ...; ctx:set(1, 'rec', { guns = { 1, 7 }, crew = { a = 1 } })",
        // One key set three times, another changing length; the general way (a float id).
        "local ctx = ...; ctx:set(1, 'hull', 4); ctx:set(1, 'hull', 9); ctx:set(1.0, 'hull', 8)
         ctx:set(1, 'rec', { guns = { 1, 7, 8 }, crew = { a = 2 } })",
        // Unchanged: nothing to note.
        "local ctx = ...; ctx:set(1, 'hull', 8)",
        // Path sets (noted as their first key) before and after plain sets.
        "local ctx = ...; ctx:set(1, { 'rec', 'crew', 'a' }, 5); ctx:set(1, 'hull', 1)",
        "local ctx = ...; ctx:set(1, 'hull', 2); ctx:set(1, { 'rec', 'guns', 1 }, 3)",
        // An unchanged path set, then a path that fails half way: not trusted.
        "local ctx = ...; ctx:set(1, { 'rec', 'guns', 1 }, 3)",
        "local ctx = ...; ctx:set(1, 'hull', 4); pcall(ctx.set, ctx, 1, { 'rec', 'crew', 'a', 'b' }, 1)",
        // A key added, then removed; a value changing kind and back.
        "local ctx = ...; ctx:set(1, 'extra', true)",
        "local ctx = ...; ctx:set(1, 'extra', nil); ctx:set(1, 'hull', 6)",
        "local ctx = ...; ctx:set(1, 'hull', { 1, 2 })",
        "local ctx = ...; ctx:set(1, 'hull', 3)",
        // Moved and changed; then a hex value changed.
        "local ctx = ...; ctx:move(1, { q = 1, r = 2 }); ctx:set(1, 'hull', 5)",
        "local ctx = ...; ctx:set(1, 'spot', { q = 2, r = 2 }); ctx:set(5, 'hull', 1)",
        "local ctx = ...; ctx:set(1, 'spot', { q = 3, r = 2 }); ctx:set(1, 'name', 'Kestrel')",
        "local ctx = ...; ctx:set(1, 'name', 'Osprey'); ctx:set(5, 'hull', 2)",
        // Moved and turned alone, a facing-less piece moved; off the map and back.
        "local ctx = ...; ctx:move(1, { q = 2, r = 1 }, 'S'); ctx:move(5, { q = 0, r = 0 })",
        "local ctx = ...; ctx:place(1, { box = 'reserve' }); ctx:set(1, 'hull', 7)",
        "local ctx = ...; ctx:move(1, { q = -1, r = 2 }); ctx:set(1, 'hull', 8)",
    ];
    for (i, code) in steps.iter().enumerate() {
        // A failed action first: its sets are noted, then its state is thrown away.
        let mut failed = state.clone();
        let _ = write(
            &mut failed,
            "local ctx = ...; ctx:set(1, 'hull', 50); ctx:set(5, 'x', 1)",
        );
        assert!(write(&mut failed, "error('refused')").is_err());
        drop(failed);
        write(&mut state, code).unwrap_or_else(|e| panic!("step {i}: {e}"));
        let patched = read(&rules, &state);
        // Built afresh in the same VM, then the cache as it was for the next step.
        let kept = std::mem::take(&mut *rules.snapshots.borrow_mut());
        assert_eq!(patched, read(&rules, &state), "step {i}: {code}");
        *rules.snapshots.borrow_mut() = kept;
    }
}

#[test]
fn ctx_options_and_acting_are_shared_and_read_only_in_writable_ctxs_too() {
    let (_d, rules, mut state) = setup();
    state.options = serde_json::json!({ "level": 2, "sides": ["blue"] }).into();
    let code = r"local ctx = ...
      LAST = LAST or {}
      local same = LAST.options == ctx.options and LAST.acting == ctx.acting
      LAST.options, LAST.acting = ctx.options, ctx.acting
      local ok1, e1 = pcall(function() ctx.options.level = 3 end)
      local ok2, e2 = pcall(function() ctx.options.sides[1] = 'red' end)
      local ok3, e3 = pcall(function() ctx.acting[1] = 'red' end)
      assert(not ok1 and not ok2 and not ok3, 'a write went through')
      for _, e in ipairs { e1, e2, e3 } do
        assert(tostring(e):find('read%-only'), tostring(e))
      end
      assert(ctx.options.level == 2 and ctx.options.sides[1] == 'blue')
      return same";
    let mut run_writable = || -> bool {
        rules
            .loaded
            .sandbox
            .guarded(|lua| {
                rules.with_ctx(lua, Access::Write(&mut state), |lua, ctx| {
                    lua.load(code).set_name("=w").call(ctx)
                })
            })
            .unwrap()
    };
    assert!(!run_writable());
    // The next ctx of the same clock shares the very same tables.
    assert!(run_writable());
}

#[test]
fn light_rows_follow_every_change_and_refuse_writes_when_read_only() {
    let (_d, rules, mut state) = setup();
    let read = r"local ctx = ...
      local a = ctx:pieces { fields = { 'id', 'hex' } }[1]
      local b = ctx:pieces { fields = { 'id', 'values' } }[1]
      local refused = not pcall(function() b.values.hull = 0 end)
        and not pcall(function() a.id = 0 end)
      return refused, a.hex.q, b.values.hull";
    let look = |state: &GameState| -> (bool, i64, i64) {
        rules
            .loaded
            .sandbox
            .guarded(|lua| {
                rules.with_ctx(lua, Access::Read(state), |lua, ctx| {
                    lua.load(read).set_name("=look").call(ctx)
                })
            })
            .unwrap()
    };
    let write = |state: &mut GameState, code: &str| {
        rules
            .loaded
            .sandbox
            .guarded(|lua| {
                rules.with_ctx(lua, Access::Write(state), |lua, ctx| {
                    lua.load(code).set_name("=write").call::<()>(ctx)
                })
            })
            .unwrap();
    };
    assert_eq!(look(&state), (true, 0, 5));
    write(&mut state, "local ctx = ...; ctx:set(1, 'hull', 4)");
    assert_eq!(look(&state), (true, 0, 4));
    write(&mut state, "local ctx = ...; ctx:move(1, { q = 1, r = 2 })");
    assert_eq!(look(&state), (true, 1, 4));
    write(
        &mut state,
        "local ctx = ...; ctx:move(1, { q = 2, r = 1 }, 'S'); ctx:set(1, 'hull', 3)",
    );
    assert_eq!(look(&state), (true, 2, 3));
}

#[test]
fn exists_is_true_for_pieces_only() {
    let (_d, rules, mut state) = setup();
    let code = "local ctx = ...
assert(ctx:exists(1) and ctx:exists(5) and ctx:exists(1.0))
assert(ctx:exists(6) == false and ctx:exists(0) == false and ctx:exists(-1) == false)
assert(ctx:exists(1.5) == false and ctx:exists('1') == false and ctx:exists() == false)";
    run(&rules, &state, code).unwrap();
    state.pieces.remove(&PieceId(1));
    run(&rules, &state, "assert((...):exists(1) == false)").unwrap();
}

#[test]
fn choices_convert_as_serde_did_and_unusual_values_keep_serde_errors() {
    let (_d, rules, _state) = setup();
    rules
        .loaded
        .sandbox
        .guarded(|lua| {
            let samples: Vec<Value> = lua
                .load(
                    "return { piece = 1, to = { q = -1, r = 2 } }, { 1, 2.5, 4.0, 'x', true },
                     {}, { 1, nil, 3 }, { 1, 2, extra = 'ignored' }, { a = { b = { c = {} } } },
                     0/0, 1/0, math.maxinteger, 'é', { [1] = 'a', [2] = 'b' }",
                )
                .eval::<MultiValue>()?
                .into_iter()
                .collect();
            for v in samples {
                let serde: Json = lua.from_value(v.clone()).unwrap();
                assert_eq!(
                    crate::raw::to_json(lua, &v).unwrap(),
                    Some(serde.clone()),
                    "{serde}"
                );
                assert_eq!(from_lua(lua, v, &"x").unwrap(), serde);
            }
            let odd: Vec<Value> = lua
                .load(
                    "local cyc = {}; cyc.self = cyc
                     return { [2] = 'b' }, { f = print }, setmetatable({}, {}), cyc,
                            { [true] = 1 }, '\\xff'",
                )
                .eval::<MultiValue>()?
                .into_iter()
                .collect();
            for v in odd {
                assert_eq!(crate::raw::to_json(lua, &v).unwrap(), None);
                let serde = lua.from_value::<Json>(v.clone()).map_err(|e| e.to_string());
                let ours = from_lua(lua, v, &"x").map_err(|e| e.to_string());
                match (serde, ours) {
                    (Ok(a), Ok(b)) => assert_eq!(a, b),
                    (Err(a), Err(b)) => assert!(b.contains(&a), "{b} / {a}"),
                    (a, b) => panic!("{a:?} vs {b:?}"),
                }
            }
            Ok(())
        })
        .unwrap();
}
