//! What the instruction budget counts, with Lua's VM patched so that the count hook no longer
//! traces every instruction (`vendor/lua-src/PATCHES.md`): every instruction of each straight
//! run of code, counted when the run ends (at a jump, a call or a return), plus one per call.
//! Every way Lua code can keep running is stopped, straight code is counted too, and the count
//! is the same on every run.

use hexforge_script::{Limits, Sandbox, ScriptErrorKind};

/// A sandbox whose calls may run `instructions` instructions.
fn sandbox(instructions: u64) -> Sandbox {
    Sandbox::new(Limits {
        memory: 32 << 20,
        instructions,
    })
    .expect("sandbox")
}

fn is_budget(sb: &Sandbox, src: &str) -> bool {
    match sb.exec(src, "=steps") {
        Ok(()) => false,
        Err(e) => {
            assert_eq!(e.kind, ScriptErrorKind::Budget, "{src}: {e}");
            true
        }
    }
}

/// Every shape of endless Lua code is stopped, however few instructions each turn takes.
#[test]
fn every_kind_of_endless_code_is_stopped() {
    let sb = sandbox(100_000);
    for src in [
        "while true do end",
        "repeat until false",
        "::top:: goto top",
        "for i = 1, math.maxinteger do end",
        "for i = 1.0, math.huge do end",
        "for _ in function() return 1 end do end",
        // A C iterator that never ends: only the loop's own jump is Lua.
        "local t = setmetatable({}, { __index = function() return 1 end }) for _ in ipairs(t) do end",
        "local function f() return f() end f()",
        "local function f(n) if n > 0 then return f(n - 1) end return f(100) end f(100)",
        "local n = 0 while true do n = n + 1 if n < 0 then break end end",
        "local co = coroutine.wrap(function() while true do coroutine.yield() end end) while true do co() end",
        "while true do pcall(function() while true do end end) end",
        "local s = string.rep('a', 100) while true do s:gsub('a', function() end) end",
        "table.sort({ 3, 2, 1, 5, 4 }, function() while true do end end)",
    ] {
        assert!(is_budget(&sb, src), "not stopped: {src}");
        // The VM is still usable afterwards.
        assert_eq!(sb.eval::<i64>("return 40 + 2", "=ok").unwrap(), 42, "{src}");
    }
}

/// A loop turn costs its instructions: `n = n + 1` counts three (the addition, the metamethod
/// fallback it jumps over, the loop's jump), so 100,000 instructions run 30,000 turns and stop
/// 40,000; a heavier body stops sooner.
#[test]
fn a_loop_turn_costs_its_instructions() {
    let sb = sandbox(100_000);
    let run =
        |n: u32, body: &str| is_budget(&sb, &format!("local n = 0 for i = 1, {n} do {body} end"));
    assert!(!run(30_000, "n = n + 1"));
    assert!(run(40_000, "n = n + 1"));
    let heavy = "local a = 1 + n local b = a * 3 local c = b - a local d = { a, b, c } n = #d";
    assert!(!run(2_000, heavy));
    assert!(run(45_000, heavy));
}

/// Straight code is counted as well, when its run ends: a long function without a loop, called
/// a few times, is stopped by the instructions of its body (a run that ends by returning from
/// the engine's own call is the one thing not stopped: it cannot repeat).
#[test]
fn straight_code_counts() {
    let sb = sandbox(100_000);
    // 2,000 statements on an upvalue: about 8,000 instructions a call.
    let body: String = (0..2_000).map(|_| "x = x + 1 ".to_owned()).collect();
    let f = format!("local x = 0 local function f() {body} end ");
    assert!(!is_budget(&sb, &format!("{f} for i = 1, 10 do f() end")));
    assert!(is_budget(&sb, &format!("{f} for i = 1, 30 do f() end")));
}

/// The same code on the same state takes the same count every time: the point where the
/// budget stops it is the same on every run. (The state matters because the work of growing
/// a big table is charged too: the first run below creates the global `n`, which grows `_G`,
/// so `n` is created first.)
#[test]
fn the_budget_stops_code_at_the_same_place_every_run() {
    let sb = sandbox(5_000);
    sb.exec("n = 0", "=init").unwrap();
    let src = "n = 0 while true do n = n + 1 end";
    let mut seen = Vec::new();
    for _ in 0..3 {
        assert!(is_budget(&sb, src));
        seen.push(sb.eval::<i64>("return n", "=n").unwrap());
    }
    assert!(seen[0] > 500, "{seen:?}");
    assert!(seen.iter().all(|&n| n == seen[0]), "{seen:?}");
}
