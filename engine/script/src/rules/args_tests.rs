//! Reading ctx method arguments and piece filters off the Lua stack (`methods/mod.rs`: the
//! argument readers, `plain_filter`), on the test rule set of `tests.rs`: the same meaning and
//! the same errors as reading them through JSON.

use super::tests::{run, setup};
use super::*;

#[test]
fn method_arguments_read_off_the_stack_keep_their_meaning_and_errors() {
    let (_d, rules, mut state) = setup();
    let ok = r#"local ctx = ...
assert(ctx:on_board({ q = 0, r = 3 }) == true and ctx:on_board({ q = 9, r = 9 }) == false)
-- Integral floats, a shared snapshot's (frozen) hex, a hex with extra fields.
assert(ctx:on_board({ q = 0.0, r = 3.0 }) == true)
assert(ctx:on_board(ctx:piece(1).hex) == true)
assert(ctx:on_board({ q = 0, r = 3, note = "x" }) == true)
-- Strings are read in place; anything else is no string.
assert(ctx:global("nothing") == nil)
local v, shift = ctx:lookup("odds", 1, "b")
assert(v == 20 and shift == 0, tostring(v))
-- Missing and extra arguments are nil and ignored, as for any Lua function.
assert(ctx:piece() == nil and ctx:piece(1, nil, "extra").id == 1)
assert(ctx:exists(1) and not ctx:exists(1.5) and not ctx:exists("1"))
"#;
    run(&rules, &state, ok).unwrap();
    // Named like a mod file, so errors carry its line.
    let err = |code: &str, state: &GameState| {
        rules
            .loaded
            .sandbox
            .guarded(|lua| {
                rules.with_ctx(lua, Access::Read(state), |lua, ctx| {
                    lua.load(format!("local ctx = ...\n{code}"))
                        .set_name("@mods/t/main.lua")
                        .call::<()>(ctx)
                })
            })
            .unwrap_err()
    };
    for (code, want) in [
        (
            "ctx:global(5)",
            "ctx:global: argument 1: expected a string, got number",
        ),
        (
            "ctx:global()",
            "ctx:global: argument 1: expected a string, got nil",
        ),
        (
            "ctx:on_board({ q = 1, r = 'x' })",
            "argument 1: expected a hex {q=, r=} with integer r, got r = string",
        ),
        (
            "ctx:on_board({ q = 1.5, r = 0 })",
            "with integer q, got q = number",
        ),
        (
            "ctx:on_board({ q = 1 << 30, r = 0 })",
            "hex coordinate q = 1073741824 is out of range",
        ),
        (
            "ctx:on_board(7)",
            "argument 1: expected a hex {q=, r=}, got integer",
        ),
        (
            "ctx.global('x')",
            "ctx:global: call it on a ctx with a colon",
        ),
        (
            "ctx.global({}, 'x')",
            "ctx:global: call it on a ctx with a colon",
        ),
        (
            "ctx:set(1, 'x', 2)",
            "only allowed in apply, setup and hooks",
        ),
    ] {
        let e = err(code, &state);
        assert!(e.message.contains(want), "{code}: {}", e.message);
        assert_eq!((e.file.as_str(), e.line), ("mods/t/main.lua", 2), "{code}");
    }
    // A kept ctx refuses once its callback has returned.
    let kept = r#"local ctx = ...
KEPT = ctx"#;
    run(&rules, &state, kept).unwrap();
    let e = run(&rules, &state, "local ctx = ...\nKEPT:global('x')")
        .unwrap_err()
        .message;
    assert!(e.contains("this ctx's callback has returned"), "{e}");
    // Writes: plain values read off the stack, the rest through serde and its errors.
    let write = |code: &str, state: &mut GameState| {
        rules.loaded.sandbox.guarded(|lua| {
            rules.with_ctx(lua, Access::Write(state), |lua, ctx| {
                lua.load(code).set_name("=test").call::<()>(ctx)
            })
        })
    };
    write(
        r#"local ctx = ...
ctx:set(1, "rec", { guns = { 3 }, crew = { a = 2 }, name = "x", f = 1.5, on = true })
ctx:set(1, { "rec", "crew", "b" }, 4)
ctx:set_global("g", { 1, 2 })
ctx:set_side("blue", "score", 3)"#,
        &mut state,
    )
    .unwrap();
    let p = &state.pieces[&PieceId(1)];
    assert_eq!(
        p.values["rec"],
        serde_json::json!({ "guns": [3], "crew": { "a": 2, "b": 4 }, "name": "x", "f": 1.5, "on": true })
    );
    assert_eq!(state.globals["g"], serde_json::json!([1, 2]));
    let e = write(
        "local ctx = ...\nctx:set(1, 'x', { f = print })",
        &mut state,
    )
    .unwrap_err()
    .message;
    assert!(
        e.contains("ctx:set: value: values must be plain data"),
        "{e}"
    );
}

/// The usual filter as it was read before `Args::record`: from the table's JSON reading.
fn plain_filter_by_json(f: &Json) -> Option<ParsedFilter> {
    let Json::Object(m) = f else {
        return None;
    };
    let text = |k: &str| -> Option<Option<String>> {
        match m.get(k) {
            None => Some(None),
            Some(Json::String(s)) => Some(Some(s.clone())),
            Some(_) => None,
        }
    };
    let fields = match m.get("fields") {
        None => None,
        Some(Json::Array(names)) => {
            let mut out: Vec<(String, Light)> = Vec::new();
            for n in names {
                let (name, light) = LIGHT.iter().find(|(x, _)| Some(*x) == n.as_str())?;
                if !out.iter().any(|(_, l)| l == light) {
                    out.push(((*name).to_string(), *light));
                }
            }
            Some(out)
        }
        Some(_) => return None,
    };
    let shared = match m.get("shared") {
        None => false,
        Some(Json::Bool(b)) => *b,
        Some(_) => return None,
    };
    if m.keys().any(|k| {
        !matches!(
            k.as_str(),
            "owner" | "type" | "location" | "fields" | "shared"
        )
    }) {
        return None;
    }
    let query = PieceQuery {
        owner: text("owner")?,
        kind: text("type")?,
        location: text("location")?,
        at: None,
        fields: fields.as_ref().map(|f| f.iter().map(|(_, l)| *l).collect()),
    };
    Some((query, fields, shared))
}

#[test]
fn filters_read_off_the_stack_are_what_their_json_reading_gave() {
    let (_d, rules, _state) = setup();
    let cases = [
        "{}",
        "{ owner = 'blue' }",
        "{ owner = 'blue', type = 'ship', location = 'board', shared = false }",
        "{ fields = { 'id', 'hex', 'id' }, shared = true }",
        "{ fields = { 'values', 'stats', 'owner', 'type', 'position', 'facing' } }",
        "{ fields = { 'id', 'nope' } }",
        "{ fields = {} }",
        "{ fields = setmetatable({ 'id' }, {}) }",
        "{ fields = { 'id', 5 } }",
        "{ fields = { 'id', nil, 'hex' } }",
        "{ fields = { [1] = 'id', x = 1 } }",
        "{ fields = 'id' }",
        "{ shared = 1 }",
        "{ owner = 5 }",
        "{ owner = { 'blue' } }",
        "{ owner = '\\255' }",
        "{ ['\\255'] = 1 }",
        "{ at = { q = 1, r = 2 } }",
        "{ 1, 2 }",
        "{ owner = 'blue', [1] = 'x' }",
        "{ [true] = 1 }",
        "{ owner = 'blue', extra = function() end }",
        "setmetatable({ owner = 'blue' }, {})",
        "nil",
        "'blue'",
    ];
    rules
        .loaded
        .sandbox
        .guarded(|lua| {
            let compare = lua.create_function(|_, args: Args| {
                let by_json = (args.type_name(0) == "table")
                    .then(|| args.json(0))
                    .flatten()
                    .and_then(|f| plain_filter_by_json(&f));
                Ok(format!("{:?} / {:?}", plain_filter(&args), by_json))
            })?;
            for case in cases {
                let f: Value = lua.load(format!("return {case}")).eval()?;
                let both: String = compare.call((Value::Nil, f))?;
                let (new, old) = both.split_once(" / ").unwrap();
                assert_eq!(new, old, "{case}");
            }
            // Both ways read the usual filters, not only refuse them.
            let f: Value = lua
                .load("return { owner = 'blue', fields = { 'id' } }")
                .eval()?;
            let both: String = compare.call((Value::Nil, f))?;
            assert!(both.starts_with("Some("), "{both}");
            Ok(())
        })
        .unwrap();
}
