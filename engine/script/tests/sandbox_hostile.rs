//! Hostile snippets against the sandbox: none may escape, hang or crash, and the VM must stay
//! usable after each. Each row says how the snippet must fail (or that it is harmless).

mod common;

use hexforge_game::{Action, SideId, state_hash};
use hexforge_script::{Limits, Sandbox, ScriptErrorKind};
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy)]
enum Expect {
    /// Stopped by the instruction budget.
    Budget,
    /// Stopped by the memory limit (or the budget, whichever comes first).
    MemoryOrBudget,
    /// Any error whose text contains this.
    ErrContains(&'static str),
    /// Any error at all.
    AnyErr,
    /// Runs and returns the string "safe".
    Safe,
}
use Expect::*;

const CASES: &[(&str, &str, Expect)] = &[
    ("busy loop", "while true do end", Budget),
    (
        "pcall swallowing",
        "while true do pcall(function() while true do end end) end",
        Budget,
    ),
    (
        "nested pcall",
        "local function f() while true do end end while true do pcall(pcall, pcall, f) end",
        Budget,
    ),
    (
        "xpcall looping handler",
        "xpcall(function() while true do end end, function() while true do end end)",
        Budget,
    ),
    (
        "coroutine loop",
        "coroutine.wrap(function() while true do end end)()",
        Budget,
    ),
    (
        "resume swallowing",
        "while true do coroutine.resume(coroutine.create(function() while true do end end)) end",
        Budget,
    ),
    (
        "yield ping-pong",
        "local co = coroutine.wrap(function() while true do coroutine.yield() end end) while true do co() end",
        Budget,
    ),
    (
        "tail-call loop",
        "local function f() return f() end return f()",
        Budget,
    ),
    (
        "deep recursion",
        "local function f(n) return 1 + f(n + 1) end return f(1)",
        AnyErr,
    ),
    (
        "__index recursion",
        "local t = setmetatable({}, {__index = function(t, k) return t[k] end}) return t.x",
        AnyErr,
    ),
    (
        "string.rep huge",
        "local s = string.rep('x', 1 << 40)",
        AnyErr,
    ),
    (
        "string.rep bomb",
        "local s = string.rep('x', 1 << 30)",
        MemoryOrBudget,
    ),
    (
        "string.rep sep bomb",
        "local s = string.rep('x', 1e8, ',')",
        MemoryOrBudget,
    ),
    (
        "doubling bomb",
        "local s = 'x' while true do s = s .. s end",
        MemoryOrBudget,
    ),
    (
        "table bomb",
        "local t = {} for i = 1, 1e9 do t[i] = {i} end",
        MemoryOrBudget,
    ),
    (
        "memory errors swallowed in a loop",
        "while true do pcall(string.rep, 'x', 1 << 30) end",
        Budget,
    ),
    (
        "unpack bomb",
        "return select('#', table.unpack({}, 1, 1e8))",
        AnyErr,
    ),
    (
        "string.dump",
        "return load(string.dump(function() end))",
        ErrContains("dump"),
    ),
    (
        "binary chunk",
        "local f, e = load('\\27LuaT\\0\\25\\147') assert(f == nil) error(e)",
        ErrContains("binary"),
    ),
    (
        "load with reader function",
        "local f, e = load(function() return nil end) assert(f == nil) error(e)",
        ErrContains("only source strings"),
    ),
    ("loaded chunk loops", "load('while true do end')()", Budget),
    (
        "parser nesting",
        "local f, e = load('return ' .. string.rep('(', 100000)) assert(f == nil) error(e)",
        AnyErr,
    ),
    ("string metatable", "getmetatable('').__index = {}", AnyErr),
    (
        "string metatable via setmetatable",
        "setmetatable('', {})",
        AnyErr,
    ),
    ("os", "os.execute('echo pwned')", ErrContains("os")),
    ("io", "io.open('/etc/passwd')", ErrContains("io")),
    ("debug", "debug.getinfo(1)", ErrContains("debug")),
    (
        "package",
        "package.loadlib('libc.so.6', 'system')",
        ErrContains("package"),
    ),
    ("dofile", "dofile('/etc/passwd')", ErrContains("dofile")),
    (
        "loadfile",
        "loadfile('/etc/passwd')",
        ErrContains("loadfile"),
    ),
    (
        "collectgarbage",
        "collectgarbage('stop')",
        ErrContains("collectgarbage"),
    ),
    (
        "require parent",
        "require('../x')",
        ErrContains("not allowed"),
    ),
    (
        "require absolute",
        "require('/etc/passwd')",
        ErrContains("not allowed"),
    ),
    ("require os", "require('os')", AnyErr),
    (
        "math.random",
        "return math.random(6)",
        ErrContains("ctx:roll"),
    ),
    (
        "math.randomseed",
        "math.randomseed(1)",
        ErrContains("ctx:roll"),
    ),
    (
        "error __tostring errors",
        "error(setmetatable({}, {__tostring = function() error('boom') end}))",
        AnyErr,
    ),
    (
        "error __tostring loops",
        "error(setmetatable({}, {__tostring = function() while true do end end}))",
        AnyErr,
    ),
    (
        "error __tostring returns table",
        "error(setmetatable({}, {__tostring = function() return {} end}))",
        AnyErr,
    ),
    (
        "error __index errors",
        "error(setmetatable({}, {__index = function() error('x') end, __tostring = function(e) return e.msg end}))",
        AnyErr,
    ),
    (
        "error __gc loops",
        "error(setmetatable({}, {__gc = function() while true do end end}))",
        ErrContains("__gc"),
    ),
    (
        "late __gc",
        "local mt = {} local t = setmetatable({}, mt) mt.__gc = function() while true do end end t = nil return 'safe'",
        Safe,
    ),
    (
        "xpcall erroring handler",
        "xpcall(function() error('x') end, function() while true do end end)",
        Budget,
    ),
    (
        "looping __close",
        "do local x <close> = setmetatable({}, {__close = function() while true do end end}) while true do end end",
        ErrContains("mods/evil/main.lua:1: to-be-closed"),
    ),
    (
        "late __close",
        "local mt = {} local o = setmetatable({}, mt) mt.__close = function() while true do end end local f = load('local x <' .. 'close> = ... while true do end') assert(f == nil) return 'safe'",
        Safe,
    ),
    (
        "__close metamethod",
        "setmetatable({}, {__close = print})",
        ErrContains("__close"),
    ),
    (
        "format bomb",
        "return string.format('%099999999d', 1)",
        AnyErr,
    ),
    ("_ENV nil", "_ENV = nil return x", AnyErr),
    (
        "local _ENV",
        "local _ENV = {} return os == nil and 'safe' or 'leak'",
        Safe,
    ),
    (
        "hex bad args",
        "return hex.distance(1, 2)",
        ErrContains("hex.distance: argument 1"),
    ),
    (
        "hex huge coordinate",
        "return hex.distance({q = math.maxinteger, r = 0}, {q = 0, r = 0})",
        ErrContains("out of range"),
    ),
    (
        "hex huge ring",
        "return hex.ring({q = 0, r = 0}, 1e9)",
        ErrContains("hex.ring: argument 2"),
    ),
    (
        "hex float coordinate",
        "return hex.new(0.5, 1)",
        ErrContains("hex.new"),
    ),
    (
        "direction extreme rotate",
        "return direction.rotate(0, 'cw', math.mininteger) and 'safe'",
        Safe,
    ),
    (
        "direction bad",
        "return direction.opposite(7)",
        ErrContains("direction.opposite"),
    ),
    (
        "_G __index loops",
        "setmetatable(_G, {__index = function() while true do end end}) return undefined_global",
        Budget,
    ),
    (
        "_G __newindex errors",
        "setmetatable(_G, {__newindex = function() error('no') end}) new_global = 1",
        AnyErr,
    ),
    // One instruction or one library call can do far more work than one step: these take
    // few instructions (each would finish under the budget uncharged, after seconds or
    // hours) and must be stopped by the work they are charged (vendor/lua-src/PATCHES.md).
    (
        "string.rep of nothing",
        "return string.rep('', 1e15)",
        Budget,
    ),
    (
        "table.move of nothing",
        "table.move({}, 1, 1 << 40, 1) return 'safe'",
        Budget,
    ),
    (
        "pattern backtracking",
        "return string.find(string.rep('a', 3000), '.-.-.-.-b')",
        Budget,
    ),
    (
        "plain find, worst case",
        "local s = string.rep('aaaaaaaaaa', 1e4) return string.find(s, string.rep('aaaaa', 1e4) .. 'b', 1, true)",
        Budget,
    ),
    (
        "long string equality",
        "local a, b = string.rep('xy', 1e5), string.rep('xy', 1e5) \
         local n = 0 for i = 1, 30000 do if a == b then n = n + 1 end end return 'safe'",
        Budget,
    ),
    (
        "long string order",
        "local a, b = string.rep('xy', 1e5), string.rep('xy', 1e5) \
         local n = 0 for i = 1, 30000 do if a <= b then n = n + 1 end end return 'safe'",
        Budget,
    ),
    (
        "long string keys",
        "local a, b = string.rep('xy', 1e5), string.rep('xy', 1e5) \
         local t, n = {[a] = 1}, 0 for i = 1, 30000 do n = n + t[b] end return 'safe'",
        Budget,
    ),
    (
        "big copies in a loop",
        "local s = string.rep('xxxxxxxxxx', 2e4) for i = 1, 30000 do local u = s:upper() end return 'safe'",
        Budget,
    ),
    (
        "inserts at the front",
        "local t = table.pack(string.byte(string.rep('xxxxxxxxxx', 5e3), 1, -1)) \
         for i = 1, 3000 do table.insert(t, 1, i) end return 'safe'",
        Budget,
    ),
    (
        "unpack in a loop",
        "local t = table.pack(string.byte(string.rep('xxxxxxxxxx', 5e3), 1, -1)) \
         for i = 1, 30000 do local n = select('#', table.unpack(t)) end return 'safe'",
        Budget,
    ),
    (
        "varargs in a loop",
        "local function f(...) for i = 1, 30000 do local n = select('#', ...) end return 'safe' end \
         return f(string.byte(string.rep('xxxxxxxxxx', 5e3), 1, -1))",
        Budget,
    ),
    (
        "next over a sparse array",
        "local t = table.pack(string.byte(string.rep('xxxxxxxxxx', 5e3), 1, -1)) \
         table.move({}, 1, t.n - 1, 1, t) \
         for i = 1, 30000 do local k = next(t) end return 'safe'",
        Budget,
    ),
    (
        "tonumber of a long string",
        "local s = string.rep('1111111111', 1e4) for i = 1, 30000 do local n = tonumber(s) end return 'safe'",
        Budget,
    ),
    (
        "utf8.len of a long string",
        "local s = string.rep('\\x80\\x80\\x80\\x80\\x80', 2e4) \
         for i = 1, 30000 do local n = utf8.len(s, 1, -1, true) end return 'safe'",
        Budget,
    ),
    (
        "load in a loop",
        "local s = string.rep('-- a comment line\\n', 5e3) for i = 1, 30000 do load(s) end return 'safe'",
        Budget,
    ),
    (
        "print in a loop",
        "local s = string.rep('xxxxxxxxxx', 1e4) for i = 1, 30000 do print(s) end return 'safe'",
        Budget,
    ),
    (
        "_G locked metatable",
        "setmetatable(_G, {__metatable = 'locked'}) return 'safe'",
        Safe,
    ),
];

fn sandbox() -> Sandbox {
    Sandbox::new(Limits {
        memory: 32 << 20,
        instructions: 300_000,
    })
    .expect("sandbox")
}

#[test]
fn hostile_snippets_neither_escape_nor_hang_nor_crash() {
    assert!(CASES.len() >= 30);
    let sb = sandbox();
    for (name, src, expect) in CASES {
        eprintln!("case: {name}");
        let start = Instant::now();
        let res = sb.eval::<String>(src, "@mods/evil/main.lua");
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{name}: took {:?}",
            start.elapsed()
        );
        match (expect, &res) {
            (Budget, Err(e)) => {
                assert_eq!(e.kind, ScriptErrorKind::Budget, "{name}: {e}");
                assert!(e.to_string().contains("instruction budget"), "{name}: {e}");
            }
            (MemoryOrBudget, Err(e)) => {
                assert!(
                    matches!(e.kind, ScriptErrorKind::Memory | ScriptErrorKind::Budget),
                    "{name}: {e:?}"
                );
            }
            (ErrContains(s), Err(e)) => assert!(e.to_string().contains(s), "{name}: {e}"),
            (AnyErr, Err(_)) => {}
            (Safe, Ok(v)) => assert_eq!(v, "safe", "{name}"),
            (_, other) => panic!("{name}: expected {expect:?}, got {other:?}"),
        }
        // The VM is still usable, with a fresh budget, and finalisers cannot hang it.
        let d: i64 = sb
            .eval(
                "return hex.distance({q = 0, r = 0}, {q = 2, r = 1})",
                "=check",
            )
            .unwrap_or_else(|e| panic!("after {name}: {e}"));
        assert_eq!(d, 3, "after {name}");
        sb.lua().gc_collect().ok();
        let n: i64 = sb
            .eval(
                "local n = 0 for i = 1, 1000 do n = n + i end return n",
                "=check",
            )
            .unwrap();
        assert_eq!(n, 500_500, "after {name}");
    }
}

#[test]
fn errors_name_file_and_line() {
    let sb = sandbox();
    let e = sb
        .exec(
            "local unit = nil\nlocal x = 1\nreturn unit.hull",
            "@mods/demo/rules.lua",
        )
        .unwrap_err();
    assert_eq!((e.file.as_str(), e.line), ("mods/demo/rules.lua", 3), "{e}");
    assert!(
        e.to_string()
            .starts_with("mods/demo/rules.lua:3: attempt to index a nil value (local 'unit')"),
        "{e}"
    );
    // A budget stop names the line running; inside a library function (`string.rep`) or an
    // engine one (`load`), the line of the Lua code that called it.
    let stops = [
        ("\n\nwhile true do end", "mods/demo/loop.lua", 3),
        (
            "local x = 1\nreturn string.rep('', 1e15)",
            "mods/demo/rep.lua",
            2,
        ),
        (
            "\nlocal s = string.rep('x', 5e4)\nfor i = 1, 1e6 do load(s) end",
            "mods/demo/load.lua",
            3,
        ),
    ];
    for (src, file, line) in stops {
        let e = sb.exec(src, &format!("@{file}")).unwrap_err();
        assert_eq!(e.kind, ScriptErrorKind::Budget, "{e}");
        assert_eq!((e.file.as_str(), e.line), (file, line), "{e}");
    }
    let e = sb
        .exec("local x = = 1", "@mods/demo/syntax.lua")
        .unwrap_err();
    assert_eq!(e.kind, ScriptErrorKind::Syntax);
    assert_eq!(
        (e.file.as_str(), e.line),
        ("mods/demo/syntax.lua", 1),
        "{e}"
    );
    let e = sb
        .exec("hex.distance({q=0,r=0}, 'x')", "@mods/demo/api.lua")
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("hex.distance: argument 2: expected a hex"),
        "{e}"
    );
    assert!(e.traceback.is_some(), "{e:?}");
}

#[test]
fn budget_is_per_call_and_normal_work_fits() {
    let sb = Sandbox::new(Limits {
        memory: 32 << 20,
        instructions: 100_000,
    })
    .unwrap();
    for _ in 0..5 {
        let n: i64 = sb
            .eval(
                "local n = 0 for i = 1, 20000 do n = n + 1 end return n",
                "=ok",
            )
            .unwrap();
        assert_eq!(n, 20_000);
    }
    assert_eq!(
        sb.eval::<i64>(
            "local n = 0 for i = 1, 200000 do n = n + 1 end return n",
            "=big"
        )
        .unwrap_err()
        .kind,
        ScriptErrorKind::Budget
    );
}

#[test]
fn memory_limit_is_capped_by_the_host() {
    let sb = Sandbox::new(Limits {
        memory: usize::MAX,
        instructions: 1000,
    })
    .unwrap();
    assert_eq!(
        sb.limits().memory,
        hexforge_script::sandbox::HOST_MEMORY_CAP
    );
}

#[test]
fn print_is_captured_and_text_load_works() {
    let sb = sandbox();
    sb.exec(
        "print('a', 1, nil, true) local f = load('return 40 + 2') print(f())",
        "=p",
    )
    .unwrap();
    assert_eq!(
        sb.take_output(),
        vec!["a\t1\tnil\ttrue".to_string(), "42".to_string()]
    );
    // Output is kept in the host, outside the mod's memory limit: long lines are cut.
    sb.exec("print('ab', string.rep('x', 5000), 12345)", "=p")
        .unwrap();
    let out = sb.take_output();
    assert_eq!(out.len(), 1);
    let expected = format!("ab\t{} ... (913 more bytes not shown)", "x".repeat(4093));
    assert_eq!(out[0], expected);
}

#[test]
fn require_is_confined_and_cached() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    let m = dir.path().join("mods/demo");
    std::fs::create_dir_all(&scripts).unwrap();
    std::fs::create_dir_all(&m).unwrap();
    std::fs::write(
        scripts.join("movement.lua"),
        "count = (count or 0) + 1\nreturn { speed = 3 }",
    )
    .unwrap();
    std::fs::write(m.join("util.lua"), "return { name = ... }").unwrap();
    std::fs::write(m.join("bad.lua"), "\nlocal x = nil + 1").unwrap();
    let sb = sandbox();
    let mut paths = hexforge_script::sandbox::RequirePaths {
        scripts: Some((scripts, "scripts".into())),
        ..Default::default()
    };
    paths.mods.insert("demo".into(), (m, "mods/demo".into()));
    sb.set_require_paths(paths);
    let v: i64 = sb
        .eval(
            "return require('movement').speed + #require('demo.util').name",
            "=r",
        )
        .unwrap();
    assert_eq!(v, 3 + "demo.util".len() as i64);
    assert_eq!(
        sb.eval::<i64>("require('movement') return count", "=r")
            .unwrap(),
        1,
        "cached"
    );
    let e = sb.exec("require('demo.bad')", "=r").unwrap_err();
    assert!(e.to_string().contains("mods/demo/bad.lua:2:"), "{e}");
    let e = sb.exec("require('demo.missing')", "=r").unwrap_err();
    assert!(e.to_string().contains("no such module"), "{e}");
    let e = sb.exec("require('other.util')", "=r").unwrap_err();
    assert!(e.to_string().contains("no such module"), "{e}");
}

/// `refill` gives each of several callbacks run in one guarded call (a listing) the whole
/// budget; without it they share one. Nested guarded calls are not refilled (they share the
/// outer budget by design), and runaway code is still stopped.
#[test]
fn refill_gives_each_callback_of_one_call_the_whole_budget() {
    let sb = Sandbox::new(Limits {
        memory: 32 << 20,
        instructions: 100_000,
    })
    .unwrap();
    // About 60% of the budget each (three counted instructions per loop turn).
    let work = "local n = 0 for i = 1, 20000 do n = n + 1 end return n";
    let run_twice = |refill: bool| {
        sb.guarded(|lua| {
            let f: mlua::Function = lua.load(work).set_name("=work").into_function()?;
            for _ in 0..2 {
                if refill {
                    sb.refill()?;
                }
                f.call::<i64>(())?;
            }
            Ok(())
        })
    };
    assert!(run_twice(true).is_ok());
    assert_eq!(run_twice(false).unwrap_err().kind, ScriptErrorKind::Budget);
    let nested = sb.guarded(|lua| {
        sb.guarded(|_| {
            sb.refill()?;
            lua.load("while true do end").exec()
        })
        .map_err(|e| mlua::Error::runtime(e.message))
    });
    assert_eq!(nested.unwrap_err().kind, ScriptErrorKind::Budget);
}

/// The VM keeps freed small blocks for reuse (the small-block cache of
/// `vendor/lua-src/PATCHES.md`); they still count against the memory limit, so when an
/// allocation would pass the limit the VM collects and gives them back before it gives up. Here
/// ~1.5 MB of small tables become garbage, then one allocation needs nearly all the limit: it
/// only fits once the collected tables' blocks have left the cache.
#[test]
fn memory_kept_for_reuse_is_given_back_before_the_limit_refuses() {
    let limit = 4 << 20;
    let sb = Sandbox::new(Limits {
        memory: limit,
        instructions: 50_000_000,
    })
    .unwrap();
    for round in 0..3 {
        sb.lua().gc_collect().unwrap();
        let base = sb.used_memory();
        // string.rep holds its buffer and the result at once: two blocks of `n`.
        let n = (limit - base - (100 << 10)) / 2;
        let got: i64 = sb
            .eval(
                &format!(
                    "local t = {{}}
                     for i = 1, 20000 do t[i] = {{ i }} end
                     t = nil
                     return #string.rep('x', {n})"
                ),
                "=reuse",
            )
            .unwrap_or_else(|e| panic!("round {round}: {e}"));
        assert_eq!(got, n as i64);
    }
}

/// Hostile writes into the game state, each from an action's apply (`a.n` picks the case): the
/// state lives outside the VM's memory limit, so the rules charge every write against the
/// action's budget. Each must end its action with an error (the state budget's, at the mod's
/// line, where one is named), leave the state exactly as it was, and leave the game playable.
const WRITE_CASES: &[(&str, &str, Option<&str>)] = &[
    (
        "log bomb",
        r#"ctx:log(string.rep("x", 4 << 20))"#,
        Some("ctx:log: state budget"),
    ),
    (
        "many log lines",
        r#"for i = 1, 1e6 do ctx:log("line " .. i) end"#,
        Some("ctx:log: state budget"),
    ),
    (
        "value bomb: one long string",
        r#"ctx:set(1, "v", string.rep("x", 4 << 20))"#,
        Some("ctx:set: state budget"),
    ),
    (
        "value bomb: one big table",
        r#"local t = {} for i = 1, 300000 do t[i] = i end ctx:set(1, "v", t)"#,
        Some("ctx:set: state budget"),
    ),
    (
        "value bomb: many keys",
        r#"local t = {} for i = 1, 200000 do t["k" .. i] = true end ctx:set(1, "v", t)"#,
        Some("ctx:set: state budget"),
    ),
    (
        "value bomb: deep nesting",
        r#"local t = {} for i = 1, 100000 do t = { t } end ctx:set(1, "v", t)"#,
        None,
    ),
    (
        "many small writes",
        r#"for i = 1, 1e6 do ctx:set(1, "k" .. i, i) end"#,
        Some("ctx:set: state budget"),
    ),
    (
        "many globals",
        r#"for i = 1, 1e6 do ctx:set_global("g" .. i, i) end"#,
        Some("ctx:set_global: state budget"),
    ),
    (
        "many side values",
        r#"for i = 1, 1e6 do ctx:set_side("blue", "s" .. i, i) end"#,
        Some("ctx:set_side: state budget"),
    ),
    (
        "many pieces",
        r#"for i = 1, 1e6 do ctx:create { type = "ship", owner = "blue", hex = { q = 0, r = 0 } } end"#,
        Some("ctx:create: state budget"),
    ),
    (
        "many rolls",
        r#"for i = 1, 1e6 do ctx:roll("1d6", "again") end"#,
        Some("ctx:roll: state budget"),
    ),
];

#[test]
fn hostile_writes_end_their_action_and_leave_the_state_as_it_was() {
    let cases: String = WRITE_CASES
        .iter()
        .enumerate()
        .map(|(i, (_, src, _))| format!("  [{}] = function(ctx) {src} end,\n", i + 1))
        .collect();
    let main = format!(
        r#"game.piece_type {{ id = "ship" }}
game.turns {{ order = "fixed", phases = {{ {{ id = "main" }} }} }}
local cases = {{
{cases}}}
game.action {{ id = "write", params = {{ n = "number" }},
  apply = function(ctx, a) cases[a.n](ctx) end }}
game.action {{ id = "calm", apply = function(ctx) ctx:set(1, "calm", true) end }}
"#
    );
    let scenario = "name = \"Writes\"\n[board]\nshape = \"hexagon\"\nradius = 2\n[[sides]]\n\
                    id = \"blue\"\n[[pieces]]\ntype = \"ship\"\nowner = \"blue\"\n\
                    hex = { q = 0, r = 0 }\n";
    let (_dir, mut g) = common::game("writes", &main, scenario, serde_json::Value::Null);
    let blue = SideId::new("blue");
    for (i, (name, _, want)) in WRITE_CASES.iter().enumerate() {
        eprintln!("case: {name}");
        let before = state_hash(g.state());
        let start = Instant::now();
        let write = Action::new("write", blue.clone(), serde_json::json!({ "n": i + 1 }));
        let e = g.perform(&write).expect_err(name).to_string();
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{name}: took {:?}",
            start.elapsed()
        );
        if let Some(want) = want {
            assert!(e.contains(want), "{name}: {e}");
            assert!(
                e.contains("writes/main.lua:"),
                "{name}: the mod's line: {e}"
            );
            assert!(e.contains("write_kib"), "{name}: how to raise it: {e}");
        }
        assert_eq!(state_hash(g.state()), before, "{name}: the state changed");
        g.perform(&Action::new("calm", blue.clone(), serde_json::Value::Null))
            .unwrap_or_else(|e| panic!("after {name}: {e}"));
    }
}

/// Many actions that each stay within their budget still cannot grow the state without bound:
/// the action that would pass the rule set's total is refused, and the state stays as it was.
#[test]
fn small_writes_that_add_up_stop_at_the_total_budget() {
    let dir = tempfile::tempdir().unwrap();
    let mods = dir.path().join("mods");
    common::write(
        &mods,
        &[
            (
                "grow/mod.toml",
                "id = \"grow\"\nname = \"grow\"\nversion = \"0.1.0\"\nengine = \"*\"\nstate_mib = 1\n",
            ),
            (
                "grow/main.lua",
                r#"game.turns { order = "fixed", phases = { { id = "main" } } }
game.action { id = "grow", apply = function(ctx) ctx:log(string.rep("x", 300 * 1024)) end }
"#,
            ),
            (
                "grow/scenarios/grow.toml",
                "name = \"Grow\"\n[board]\nshape = \"hexagon\"\nradius = 1\n[[sides]]\nid = \"blue\"\n",
            ),
        ],
    );
    let loaded = hexforge_script::loader::load_mods(&mods, "grow", &Default::default()).unwrap();
    let rules = hexforge_script::LuaRules::new(loaded).unwrap();
    let state =
        hexforge_game::GameState::new(rules.mod_locks(), "grow", serde_json::Value::Null, 1);
    let mut g = hexforge_game::Game::new(rules, state).unwrap();
    let grow = Action::new("grow", SideId::new("blue"), serde_json::Value::Null);
    let mut done = 0;
    let e = loop {
        let before = state_hash(g.state());
        match g.perform(&grow) {
            Ok(_) => done += 1,
            Err(e) => {
                assert_eq!(state_hash(g.state()), before);
                break e.to_string();
            }
        }
        assert!(done < 10, "never stopped");
    };
    assert_eq!(
        done, 3,
        "three lines of 300 KiB fit in 1 MiB, not four: {e}"
    );
    assert!(e.contains("state budget") && e.contains("state_mib"), "{e}");
}
