//! What the instruction budget counts: *steps*, i.e. calls of Lua functions and jumps (every
//! loop turn), with Lua's VM patched so that the count hook no longer traces every instruction
//! (`vendor/lua-src/PATCHES.md`). Every way Lua code can keep running must take steps; straight
//! code between two steps is free; the count is the same on every run.

use hexforge_script::{Limits, Sandbox, ScriptErrorKind};

/// A sandbox whose calls may take `steps` steps.
fn sandbox(steps: u64) -> Sandbox {
    Sandbox::new(Limits {
        memory: 32 << 20,
        instructions: steps,
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

/// One loop turn is one step: a budget of N steps runs a loop of a little under N turns and
/// stops one of a little over N, whatever the loop body does between its jumps.
#[test]
fn a_loop_turn_is_one_step() {
    let sb = sandbox(10_000);
    for body in [
        "",
        "local a = 1 + 2 local b = a * 3 local c = b - a local d = { a, b, c }",
    ] {
        let run = |n: u32| is_budget(&sb, &format!("for i = 1, {n} do {body} end"));
        assert!(!run(9_000), "9000 turns of {body:?} should fit 10000 steps");
        assert!(
            run(11_000),
            "11000 turns of {body:?} should not fit 10000 steps"
        );
    }
}

/// A call is a step; straight code between steps is not counted.
#[test]
fn calls_count_and_straight_code_does_not() {
    let sb = sandbox(1_000);
    // 2,000 statements without a call or a jump: far more instructions than the budget, no step.
    let straight: String = std::iter::once("local x = 0 ".to_owned())
        .chain((0..2_000).map(|_| "x = x + 1 ".to_owned()))
        .chain(std::iter::once("assert(x == 2000)".to_owned()))
        .collect();
    assert!(!is_budget(&sb, &straight));
    // 2,000 calls of a Lua function, unrolled: 2,000 steps.
    let calls: String = std::iter::once("local function f() end ".to_owned())
        .chain((0..2_000).map(|_| "f() ".to_owned()))
        .collect();
    assert!(is_budget(&sb, &calls));
}

/// The same code takes the same steps every time: the point where the budget stops it is the
/// same on every run.
#[test]
fn the_budget_stops_code_at_the_same_place_every_run() {
    let sb = sandbox(5_000);
    let src = "n = 0 while true do n = n + 1 end";
    let mut seen = Vec::new();
    for _ in 0..3 {
        assert!(is_budget(&sb, src));
        seen.push(sb.eval::<i64>("return n", "=n").unwrap());
    }
    assert!(seen[0] > 1_000, "{seen:?}");
    assert!(seen.iter().all(|&n| n == seen[0]), "{seen:?}");
}
