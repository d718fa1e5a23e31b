//! A deterministic sampling profiler for mod authors: which of *their* Lua functions cost the
//! time (`hexforge play <mod> --profile`).
//!
//! The sandbox already runs a count hook for the time budget ([`crate::sandbox`]); while a
//! profile is on, every time that hook fires (every 1000 Lua VM instructions) it records the
//! function that is running and every Lua function on the stack below it. The count runs on
//! across engine calls while a profile is on, so a callback shorter than 1000 instructions that
//! runs thousands of times is sampled as often as one long call of the same total (the price:
//! with a profile on, a call's instruction budget may end up to 1000 instructions early). A function's *self* samples are the samples
//! taken while it was the running function; its *inclusive* samples are those taken while it was
//! anywhere on the stack (counted once per sample even when it recurses).
//!
//! **Why instructions, not time:** counting VM instructions gives the same profile on every run,
//! on a busy machine as on an idle one, so two profiles can be compared line by line. (The count
//! is taken where a straight run of code ends, so a sample lands at the end of the run.)
//!
//! Deliberately absent: anything outside Lua. Time spent in engine functions a mod calls
//! (`ctx:pieces`, `hex.*`, converting snapshots) executes no Lua instruction, so it is not
//! sampled; use a native profiler (`perf`) for that share. Functions are identified by where they
//! are defined (`file:line`), named by the first name Lua reports for them.
//!
//! ```
//! use hexforge_script::{Limits, Sandbox, profile};
//! let sb = Sandbox::new(Limits::default()).unwrap();
//! profile::enable(sb.lua());
//! sb.exec(
//!     "local function hot() local n = 0 for i = 1, 100000 do n = n + i end return n end\n\
//!      local function cold() return 1 end\n\
//!      for _ = 1, 5 do hot() cold() end",
//!     "@mods/demo/main.lua",
//! ).unwrap();
//! let p = profile::disable(sb.lua()).unwrap();
//! assert_eq!(p.functions[0].name, "hot");
//! assert_eq!(p.functions[0].line, 1);
//! ```

use mlua::Lua;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::rc::Rc;

/// Deepest stack level walked for one sample (deeper frames are not counted inclusively).
const MAX_DEPTH: usize = 256;

/// One Lua function in a [`Profile`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionProfile {
    /// The file that defines it, as Lua shows it (`mods/demo/main.lua`).
    pub file: String,
    /// The line where its definition starts (0 for a file's main chunk).
    pub line: u32,
    /// The first name Lua reported for it (`hot`, `R.ships` shows as `ships`), or `?`.
    pub name: String,
    /// Samples taken while it was the running function.
    pub self_samples: u64,
    /// Samples taken while it was on the stack (running or calling).
    pub incl_samples: u64,
}

/// The result of a profile: every sampled function, most self samples first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    /// Lua instructions between two samples.
    pub interval: u64,
    /// Samples taken.
    pub samples: u64,
    /// Sampled functions, by self samples (then inclusive samples, file, line), largest first.
    pub functions: Vec<FunctionProfile>,
}

impl Profile {
    /// The top `n` functions by self samples and the top `n` by inclusive samples, as text:
    /// one `file:line name  self%  incl%` line per function.
    #[must_use]
    pub fn render(&self, n: usize) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Lua profile: {} samples, one every {} Lua instructions (~{} instructions); time in engine (Rust) calls is not sampled",
            self.samples,
            self.interval,
            self.samples.saturating_mul(self.interval)
        );
        if self.samples == 0 {
            return out;
        }
        // The engine's own Lua helpers (snapshot copier, listing helpers) run under the same
        // budget and sampler; their chunks are named "hexforge ...".
        let engine: u64 = self
            .functions
            .iter()
            .filter(|f| f.file.starts_with("hexforge "))
            .map(|f| f.self_samples)
            .sum();
        let _ = writeln!(
            out,
            "the mod's own Lua: {:.1}% of the samples; the engine's Lua helpers (chunks named \"hexforge ...\"): {:.1}%",
            (self.samples - engine.min(self.samples)) as f64 * 100.0 / self.samples as f64,
            engine as f64 * 100.0 / self.samples as f64
        );
        let width = self
            .functions
            .iter()
            .take(n)
            .map(|f| f.file.len() + f.name.len() + 8)
            .max()
            .unwrap_or(20);
        let pct = |x: u64| x as f64 * 100.0 / self.samples as f64;
        let line = |out: &mut String, f: &FunctionProfile| {
            let label = format!("{}:{} {}", f.file, f.line, f.name);
            let _ = writeln!(
                out,
                "  {label:width$}  {:5.1}%  {:5.1}%",
                pct(f.self_samples),
                pct(f.incl_samples)
            );
        };
        let _ = writeln!(
            out,
            "top {n} by self samples:   {:width$}  self%   incl%",
            ""
        );
        for f in self.functions.iter().take(n) {
            line(&mut out, f);
        }
        let mut incl: Vec<&FunctionProfile> = self.functions.iter().collect();
        incl.sort_by(|a, b| {
            b.incl_samples
                .cmp(&a.incl_samples)
                .then_with(|| (&a.file, a.line).cmp(&(&b.file, b.line)))
        });
        let _ = writeln!(
            out,
            "top {n} by inclusive samples:{:width$}self%   incl%",
            ""
        );
        for f in incl.into_iter().take(n) {
            line(&mut out, f);
        }
        out
    }
}

#[derive(Debug, Default)]
struct Counts {
    name: String,
    self_samples: u64,
    incl_samples: u64,
}

/// The collected samples (behind the handle kept in the VM's app data).
#[derive(Debug, Default)]
struct Data {
    interval: u64,
    samples: u64,
    // Why a BTreeMap keyed by definition site: results must not depend on hash order.
    funcs: BTreeMap<(String, u32), Counts>,
}

#[derive(Clone, Debug, Default)]
struct Handle(Rc<RefCell<Data>>);

/// Starts (or restarts, dropping earlier samples) profiling every Lua call in this VM.
pub fn enable(lua: &Lua) {
    lua.set_app_data(Handle::default());
}

/// Whether a profile is being collected in this VM.
#[must_use]
pub fn is_enabled(lua: &Lua) -> bool {
    lua.app_data_ref::<Handle>().is_some()
}

/// The profile so far (profiling goes on); `None` when profiling is off.
#[must_use]
pub fn snapshot(lua: &Lua) -> Option<Profile> {
    let h = lua.app_data_ref::<Handle>()?.clone();
    let d = h.0.borrow();
    Some(report(&d))
}

/// Stops profiling and returns the profile; `None` when profiling was off.
pub fn disable(lua: &Lua) -> Option<Profile> {
    let h = lua.remove_app_data::<Handle>()?;
    let d = h.0.borrow();
    Some(report(&d))
}

fn report(d: &Data) -> Profile {
    let mut functions: Vec<FunctionProfile> = d
        .funcs
        .iter()
        .map(|((file, line), c)| FunctionProfile {
            file: file.clone(),
            line: *line,
            name: c.name.clone(),
            self_samples: c.self_samples,
            incl_samples: c.incl_samples,
        })
        .collect();
    functions.sort_by(|a, b| {
        b.self_samples
            .cmp(&a.self_samples)
            .then_with(|| b.incl_samples.cmp(&a.incl_samples))
            .then_with(|| (&a.file, a.line).cmp(&(&b.file, b.line)))
    });
    Profile {
        interval: d.interval,
        samples: d.samples,
        functions,
    }
}

/// Records one sample of the running Lua stack; called by the sandbox's instruction hook every
/// `interval` instructions. Does nothing when profiling is off.
pub(crate) fn sample(lua: &Lua, interval: u64) {
    let Some(h) = lua.app_data_ref::<Handle>().map(|h| h.clone()) else {
        return;
    };
    let mut stack: Vec<((String, u32), String)> = Vec::new();
    for level in 0..MAX_DEPTH {
        let Some(frame) = lua.inspect_stack(level, |d| {
            let src = d.source();
            if src.what == "C" {
                return None;
            }
            let file = src.short_src.as_deref().unwrap_or("?").to_string();
            let line = src.line_defined.unwrap_or(0) as u32;
            let name = if src.what == "main" {
                "(main chunk)".to_string()
            } else {
                d.names()
                    .name
                    .as_deref()
                    .map_or_else(|| "?".to_string(), str::to_string)
            };
            Some(((file, line), name))
        }) else {
            break;
        };
        if let Some(f) = frame {
            stack.push(f);
        }
    }
    let mut d = h.0.borrow_mut();
    d.interval = interval;
    d.samples += 1;
    for (i, (key, name)) in stack.iter().enumerate() {
        // A recursive function counts once per sample inclusively.
        if stack[..i].iter().any(|(k, _)| k == key) {
            continue;
        }
        let c = d.funcs.entry(key.clone()).or_default();
        if c.name.is_empty() || c.name == "?" {
            c.name.clone_from(name);
        }
        c.incl_samples += 1;
        if i == 0 {
            c.self_samples += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Limits, Sandbox};

    const DEFAULT_MEMORY_FOR_TESTS: usize = 16 << 20;

    const HOT: &str = "\
local function hot(n)
  local s = 0
  for i = 1, n do s = s + i % 7 end
  return s
end
local function warm(n) local s = 0 for i = 1, n do s = s + i end return s end
local function caller() return hot(200000) + warm(20000) end
function run() for _ = 1, 3 do caller() end end
";

    fn profiled(src: &str) -> Profile {
        let sb = Sandbox::new(Limits::default()).unwrap();
        sb.exec(src, "@mods/demo/main.lua").unwrap();
        enable(sb.lua());
        sb.exec("run()", "=call").unwrap();
        disable(sb.lua()).unwrap()
    }

    #[test]
    fn the_hot_function_is_on_top_by_self_samples() {
        let p = profiled(HOT);
        assert!(p.samples > 100, "{p:?}");
        assert_eq!(p.interval, 1000);
        let top = &p.functions[0];
        assert_eq!(
            (top.file.as_str(), top.line, top.name.as_str()),
            ("mods/demo/main.lua", 1, "hot")
        );
        assert!(top.self_samples * 10 > p.samples * 8, "{p:?}");
        let warm = p.functions.iter().find(|f| f.name == "warm").unwrap();
        assert!(warm.self_samples < top.self_samples / 4);
    }

    #[test]
    fn callers_get_inclusive_samples_only() {
        let p = profiled(HOT);
        let caller = p.functions.iter().find(|f| f.name == "caller").unwrap();
        let hot = p.functions.iter().find(|f| f.name == "hot").unwrap();
        assert!(caller.self_samples <= 1);
        assert!(caller.incl_samples >= hot.incl_samples);
        let run = p.functions.iter().find(|f| f.name == "run").unwrap();
        assert!(run.incl_samples * 100 >= p.samples * 99, "{p:?}");
        assert!(p.render(5).contains("mods/demo/main.lua:1 hot"));
    }

    #[test]
    fn recursion_counts_once_inclusively() {
        let p = profiled(
            "local function fib(n) if n < 2 then return n end return fib(n-1) + fib(n-2) end\nfunction run() return fib(24) end",
        );
        let fib = p.functions.iter().find(|f| f.name == "fib").unwrap();
        assert!(fib.incl_samples <= p.samples);
        assert!(fib.self_samples * 10 > p.samples * 9);
    }

    /// Samples from `calls` outermost engine calls of `name` (each its own guarded call).
    fn profiled_calls(name: &str, calls: usize) -> Profile {
        let sb = Sandbox::new(Limits::default()).unwrap();
        sb.exec(
            "function short() local s = 0 for i = 1, 100 do s = s + i end return s end\n\
             function long() for _ = 1, 2000 do short() end end",
            "@mods/demo/main.lua",
        )
        .unwrap();
        let f: mlua::Function = sb.lua().globals().get(name).unwrap();
        enable(sb.lua());
        for _ in 0..calls {
            sb.guarded(|_| f.call::<()>(())).unwrap();
        }
        disable(sb.lua()).unwrap()
    }

    #[test]
    fn short_calls_are_sampled_like_one_long_call() {
        let long = profiled_calls("long", 1);
        let many = profiled_calls("short", 2000);
        // The callback really is shorter than one sampling interval...
        assert!(long.samples > 100 && long.samples < 2000, "{long:?}");
        // ...and yet 2000 separate calls of it are sampled about as often as one call doing the
        // same work (the long call also runs its loop: a few percent more).
        assert!(
            many.samples * 100 >= long.samples * 90 && many.samples <= long.samples,
            "{} short-call samples against {} in one long call",
            many.samples,
            long.samples
        );
        // Called straight from Rust, `short` has no name Lua can report: find it by its line.
        let short = many.functions.iter().find(|f| f.line == 1).unwrap();
        assert_eq!(short.self_samples, many.samples, "{many:?}");
    }

    #[test]
    fn the_budget_is_still_exact_without_a_profile() {
        let sb = Sandbox::new(Limits {
            memory: DEFAULT_MEMORY_FOR_TESTS,
            instructions: 5000,
        })
        .unwrap();
        sb.exec(
            "function spin(n) local s = 0 for i = 1, n do s = s + i end return s end",
            "@m.lua",
        )
        .unwrap();
        let f: mlua::Function = sb.lua().globals().get("spin").unwrap();
        let fits = |n: i64| sb.guarded(|_| f.call::<i64>(n)).is_ok();
        // The most loop turns one call may run, found on a fresh VM.
        let (mut lo, mut hi) = (1, 100_000);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if fits(mid) { lo = mid } else { hi = mid }
        }
        // After calls that leave every possible remainder in the hook's count, the same
        // limit holds to the loop turn: each call gets exactly the whole budget.
        for short in 1..40 {
            assert!(fits(short * 37));
            assert!(fits(lo), "after spin({})", short * 37);
            assert!(!fits(lo + 1), "after spin({})", short * 37);
        }
        // With a profile on, the budget is approximate but still per call and still stops.
        enable(sb.lua());
        for short in 1..40 {
            assert!(fits(short * 37));
            assert!(fits(lo / 2));
            assert!(!fits(lo + 1));
        }
        assert!(disable(sb.lua()).unwrap().samples > 0);
        assert!(fits(lo) && !fits(lo + 1));
    }

    #[test]
    fn same_code_same_profile() {
        assert_eq!(profiled(HOT), profiled(HOT));
    }

    #[test]
    fn off_means_no_samples_and_no_report() {
        let sb = Sandbox::new(Limits::default()).unwrap();
        sb.exec(HOT, "@mods/demo/main.lua").unwrap();
        assert!(!is_enabled(sb.lua()));
        sb.exec("run()", "=call").unwrap();
        assert!(disable(sb.lua()).is_none());
        assert!(snapshot(sb.lua()).is_none());
        enable(sb.lua());
        assert_eq!(snapshot(sb.lua()).unwrap().samples, 0);
    }
}
