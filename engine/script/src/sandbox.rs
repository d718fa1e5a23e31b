//! The sandboxed Lua VM: safe libraries only, a memory limit, an instruction budget per call
//! that `pcall` cannot swallow, and a `require` confined to the mods and `scripts/`.
//!
//! What a mod sees: the base library without `dofile`, `loadfile`, `collectgarbage` and `warn`;
//! a text-only `load`; `string` without `dump`; `table`, `math` (with `math.random` and
//! `math.randomseed` replaced by errors pointing at `ctx:roll` / `dice`), `utf8`, `coroutine`;
//! a `print` captured by the host; `require` (the calling file's mod first, then the mods it
//! builds on, then `scripts/`; modules cached per VM by the file they resolve to); and the engine
//! namespaces from [`crate::api`].
//! There is no `io`, `os`, `debug` or `package`.
//!
//! **How the budget counts:** Lua's count hook traced every VM instruction once it was set (~15%
//! of a game's time). The VM in `vendor/lua-src` carries a small patch
//! (`vendor/lua-src/PATCHES.md`): it counts the instructions of each straight run of code when
//! the run ends (at a jump, a call or a return), plus one per call, and calls the hook once per
//! step counted as before. Same total, same determinism, no per-instruction tracing.
//!
//! **The budget counts work, not only instructions:** one instruction or one library call can
//! do far more than one step (`string.rep("", 1e15)`, a backtracking pattern, comparing two
//! 10 MB strings). Another patch of the VM charges such work to the same count, in the C
//! libraries at once (the hook fires inside the call) and in the VM's internals at the next
//! function start or loop jump; `load` and `print` charge theirs here (`charge`). A stop
//! inside a C function names the line of the Lua code that called it. `print` keeps lines of
//! at most `MAX_LINE_BYTES` (4,096): its output lives in the host, outside the memory limit.
//!
//! **Why the budget re-arms:** a count hook that raises an error can be caught by `pcall` and
//! the script goes on looping. Once the budget is spent the hook is re-armed to fire on *every*
//! instruction counted, so every call or jump after the `pcall` errors again until control is
//! back in Rust. The hook is global (not per thread) so coroutines created by the script are
//! counted too. Between calls the budget stays exhausted, so stray Lua code (a `__gc`
//! finaliser) can run at most to its first call or jump outside a call.
//!
//! This module knows nothing about games, declarations or files beyond `require`.
//!
//! ```
//! use hexforge_script::{Limits, Sandbox, ScriptErrorKind};
//! let sb = Sandbox::new(Limits { instructions: 100_000, ..Limits::default() }).unwrap();
//! let err = sb.exec("while true do pcall(function() while true do end end) end", "@mods/x/main.lua").unwrap_err();
//! assert_eq!(err.kind, ScriptErrorKind::Budget);
//! assert_eq!(sb.eval::<i64>("return 1 + 1", "=ok").unwrap(), 2); // still usable
//! ```

use crate::error::{BUDGET_MARKER, ScriptError};
use crate::manifest::is_safe_relative;
use mlua::chunk::ChunkMode;
use mlua::debug::Debug;
use mlua::{FromLuaMulti, HookTriggers, Lua, LuaOptions, StdLib, Table, Value, VmState};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Default memory limit of a rule set's VM.
pub const DEFAULT_MEMORY: usize = 64 << 20;
/// The most memory a mod may ask for.
pub const HOST_MEMORY_CAP: usize = 512 << 20;
/// Default instruction budget for one call from the engine into Lua.
pub const DEFAULT_INSTRUCTIONS: u64 = 20_000_000;
/// Most lines of `print` output kept (older lines are dropped).
const MAX_OUTPUT_LINES: usize = 10_000;
/// Longest line of `print` output kept (bytes; the rest is counted, not kept).
const MAX_LINE_BYTES: usize = 4096;
/// Hook granularity while budget remains (instructions between hook calls).
const HOOK_STEP: u64 = 1000;
/// Registry key of the base functions as they were before any mod ran (see [`PRISTINE`]).
pub(crate) const PRISTINE_KEY: &str = "hexforge.pristine";
/// The base functions kept under [`PRISTINE_KEY`].
pub(crate) const PRISTINE: [&str; 5] = ["setmetatable", "error", "next", "type", "select"];

/// Resource limits of one VM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Memory limit in bytes (capped at [`HOST_MEMORY_CAP`]).
    pub memory: usize,
    /// Instruction budget per call from the engine into Lua.
    pub instructions: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory: DEFAULT_MEMORY,
            instructions: DEFAULT_INSTRUCTIONS,
        }
    }
}

#[derive(Debug)]
struct Budget {
    limit: Cell<u64>,
    step: Cell<u64>,
    remaining: Cell<i64>,
    exhausted: Cell<bool>,
    rearmed: Cell<bool>,
    depth: Cell<u32>,
    /// Whether a profile was on at the last [`Sandbox::fill`] (see there).
    profiling: Cell<bool>,
}

/// Before each function of [`Sandbox::each_refilled`]: inside the outermost call, the whole
/// budget again (as [`Sandbox::fill`]) and the hook's count started again unless a profile is on;
/// stop once the budget ran out (re-armed).
impl crate::ffi::EachCall for Budget {
    fn before(&self) -> crate::ffi::Before {
        use crate::ffi::Before;
        if self.depth.get() != 1 {
            return Before::Call;
        }
        if self.rearmed.get() {
            return Before::Stop;
        }
        self.remaining.set(self.limit.get() as i64);
        self.exhausted.set(false);
        if self.profiling.get() {
            Before::Call
        } else {
            Before::RestartCount
        }
    }
}

impl Budget {
    /// Takes `steps` from what is left of this call's budget. False once it is used up (and
    /// from then on, until the next call refills it).
    fn spend(&self, steps: u64) -> bool {
        if self.exhausted.get() {
            return false;
        }
        let left = self
            .remaining
            .get()
            .saturating_sub(i64::try_from(steps).unwrap_or(i64::MAX));
        self.remaining.set(left);
        if left > 0 {
            return true;
        }
        self.exhausted.set(true);
        false
    }
}

/// Where `require` may look.
#[derive(Clone, Debug, Default)]
pub struct RequirePaths {
    /// The engine's shared `scripts/` folder and its display prefix (e.g. `scripts`).
    pub scripts: Option<(PathBuf, String)>,
    /// Mods of the rule set by id: folder and display prefix (e.g. `mods/demo`).
    pub mods: BTreeMap<String, (PathBuf, String)>,
    /// Mod ids searched for a bare module name, in order (the variant before its base).
    pub search_order: Vec<String>,
}

#[derive(Default)]
struct RequireState {
    paths: RequirePaths,
    loading: BTreeSet<String>,
}

/// A sandboxed Lua 5.4 VM.
pub struct Sandbox {
    lua: Lua,
    budget: Rc<Budget>,
    /// See [`Sandbox::each_refilled`].
    each: mlua::Function,
    limits: Limits,
    output: Rc<RefCell<VecDeque<String>>>,
    require: Rc<RefCell<RequireState>>,
}

impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sandbox")
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

const LOADED_KEY: &str = "hexforge.loaded";

/// Lua-side guards. Why: Lua runs `__gc` finalisers with hooks disabled, so a looping finaliser
/// could never be stopped: finalisers are refused. And when the budget error is raised from the
/// hook, an `xpcall` message handler would run with hooks disabled too: `xpcall` is rebuilt on
/// `pcall` so its handler runs after unwinding, under the budget.
const GUARDS: &str = r#"
local pcall, rawget, setmetatable, type, error, pack, unpack = pcall, rawget, setmetatable, type, error, table.pack, table.unpack
function _G.setmetatable(t, mt)
  if type(mt) == "table" and (rawget(mt, "__gc") ~= nil or rawget(mt, "__close") ~= nil) then
    error("setmetatable: __gc and __close metamethods are not allowed in Hexforge mods", 2)
  end
  return setmetatable(t, mt)
end
function _G.xpcall(f, handler, ...)
  local r = pack(pcall(f, ...))
  if r[1] then return unpack(r, 1, r.n) end
  return false, handler(r[2])
end
"#;

impl Sandbox {
    /// A fresh VM with the safe libraries, limits and the engine API registered.
    ///
    /// # Errors
    /// If the VM cannot be set up (out of memory).
    pub fn new(limits: Limits) -> Result<Sandbox, ScriptError> {
        let limits = Limits {
            memory: limits.memory.clamp(1 << 20, HOST_MEMORY_CAP),
            instructions: limits.instructions.max(1),
        };
        let lua = Lua::new_with(
            StdLib::COROUTINE | StdLib::TABLE | StdLib::STRING | StdLib::UTF8 | StdLib::MATH,
            LuaOptions::new(),
        )?;
        let budget = Rc::new(Budget {
            limit: Cell::new(limits.instructions),
            step: Cell::new(HOOK_STEP.min(limits.instructions)),
            remaining: Cell::new(0),
            exhausted: Cell::new(true),
            rearmed: Cell::new(false),
            depth: Cell::new(0),
            profiling: Cell::new(false),
        });
        let each = crate::ffi::each_function(&lua, &budget)?;
        let sb = Sandbox {
            lua,
            budget,
            each,
            limits,
            output: Rc::default(),
            require: Rc::default(),
        };
        sb.strip_globals()?;
        crate::api::register_all(&sb.lua)?;
        sb.lua.set_app_data(sb.budget.clone());
        sb.lua.set_global_hook(
            HookTriggers::new().every_nth_instruction(sb.budget.step.get() as u32),
            budget_hook,
        )?;
        sb.lua.set_memory_limit(limits.memory)?;
        // Why generational: a game's garbage is young (snapshot copies, ctx and action tables,
        // the mod's scratch tables) and what lives on is old (templates, declarations, code).
        // Measured: 10 duels take 1.5% fewer instructions than with the incremental collector.
        sb.lua.gc_set_mode(mlua::state::GcMode::Generational(
            mlua::state::GcGenParams::default(),
        ));
        Ok(sb)
    }

    fn strip_globals(&self) -> mlua::Result<()> {
        let lua = &self.lua;
        let g = lua.globals();
        // The engine's own Lua helpers (`api::plain`) need a few base functions that a mod can
        // replace in the globals: keep the originals where no mod can reach them.
        let pristine = lua.create_table()?;
        for name in PRISTINE {
            pristine.raw_set(name, g.raw_get::<Value>(name)?)?;
        }
        lua.set_named_registry_value(PRISTINE_KEY, pristine)?;
        // Lock the string metatable so `getmetatable("").__index` cannot be swapped.
        lua.load("getmetatable('').__metatable = false")
            .set_name("=sandbox")
            .exec()?;
        for name in [
            "dofile",
            "loadfile",
            "collectgarbage",
            "warn",
            "load",
            "require",
            "print",
        ] {
            g.raw_set(name, Value::Nil)?;
        }
        let string: Table = g.raw_get("string")?;
        string.raw_set("dump", Value::Nil)?;
        let math: Table = g.raw_get("math")?;
        for name in ["random", "randomseed"] {
            let msg = format!(
                "math.{name} is disabled in Hexforge mods: use ctx:roll(\"2d6\", \"why\") or the dice namespace so rolls are seeded, logged and replayable"
            );
            math.raw_set(
                name,
                lua.create_function(move |_, ()| -> mlua::Result<()> {
                    Err(mlua::Error::runtime(msg.clone()))
                })?,
            )?;
        }
        g.raw_set("load", lua.create_function(safe_load)?)?;
        let out = self.output.clone();
        g.raw_set(
            "print",
            lua.create_function(move |lua, args: mlua::Variadic<Value>| {
                let line = print_line(&args);
                charge(lua, line.len() as u64 / 64)?;
                let mut out = out.borrow_mut();
                if out.len() >= MAX_OUTPUT_LINES {
                    out.pop_front();
                }
                out.push_back(line);
                Ok(())
            })?,
        )?;
        lua.load(GUARDS).set_name("=sandbox").exec()?;
        lua.set_named_registry_value(LOADED_KEY, lua.create_table()?)?;
        let state = self.require.clone();
        g.raw_set(
            "require",
            lua.create_function(move |lua, name: String| require(lua, &state, &name))?,
        )?;
        Ok(())
    }

    /// The limits in force.
    #[must_use]
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The underlying VM (for engine code in this crate; mods never get it).
    #[must_use]
    pub fn lua(&self) -> &Lua {
        &self.lua
    }

    /// Sets where `require` looks.
    pub fn set_require_paths(&self, paths: RequirePaths) {
        self.require.borrow_mut().paths = paths;
    }

    /// Lines printed by Lua since the last call, oldest first.
    pub fn take_output(&self) -> Vec<String> {
        std::mem::take(&mut *self.output.borrow_mut()).into()
    }

    /// Changes the instruction budget of each outermost call (the test runner gives a test,
    /// which may play whole games, more than one rules callback gets).
    pub fn set_instruction_limit(&self, instructions: u64) {
        // The hook's step stays as installed: it is the interval the hook counts in.
        self.budget
            .limit
            .set(instructions.max(self.budget.step.get()));
    }

    /// Runs `f` with a fresh instruction budget; every Lua error becomes a [`ScriptError`].
    /// Nested calls share the outer budget.
    ///
    /// # Errors
    /// The converted Lua error.
    pub fn guarded<R>(&self, f: impl FnOnce(&Lua) -> mlua::Result<R>) -> Result<R, ScriptError> {
        let b = &self.budget;
        let outer = b.depth.get() == 0;
        if outer {
            self.fill()?;
        }
        b.depth.set(b.depth.get() + 1);
        let r = f(&self.lua);
        b.depth.set(b.depth.get() - 1);
        if outer {
            b.exhausted.set(true);
        }
        r.map_err(|e| ScriptError::from_lua(&e))
    }

    /// Gives the running outermost call a fresh instruction budget, as if it had just started.
    /// For engine calls that run several independent callbacks in one guarded call (a listing
    /// of every action's choices shares one ctx): each callback still gets the whole budget.
    /// Outside a guarded call it does nothing.
    ///
    /// # Errors
    /// Re-installing the hook failed (out of memory).
    pub fn refill(&self) -> mlua::Result<()> {
        if self.budget.depth.get() != 1 {
            return Ok(());
        }
        self.fill()
    }

    /// `each(a, b, f1, ..., fn)`: calls `f1(a, b)`, ..., `fn(a, b)` in turn, each with the whole
    /// budget as [`Sandbox::refill`] gives it, and returns the first result of each; errors
    /// propagate. Why: a listing calls every action's `choices` with the same ctx, and each call
    /// through mlua (arguments pushed, a protected call, the hook installed again) cost about
    /// 1,000 instructions more than a call made from C. A C function; called through mlua, in
    /// a guarded call.
    ///
    /// It may stop early: when a budget was exhausted and its hook re-armed (a mod's `pcall`
    /// caught the budget error), only mlua can install the hook again; `each` then returns the
    /// results so far, fewer than the functions, and the caller refills and goes on with the
    /// rest.
    pub(crate) fn each_refilled(&self) -> &mlua::Function {
        &self.each
    }

    /// The whole budget again, and the hook back at its normal step (re-armed or not).
    /// Why installed anew every time: the hook's count carries over from whatever ran before,
    /// so without it a call's budget would end up to a step early or late depending on earlier
    /// calls; installing resets the count, and every call gets exactly `limit` instructions.
    ///
    /// Except while a profile is on ([`crate::profile`]): then the count must run on across
    /// calls, or a callback shorter than one step would never be sampled and every call would
    /// drop its remainder (a profile biased toward long callbacks). The hook is then reinstalled
    /// only when it was re-armed (to fire at every instruction) after an exhausted budget, and
    /// a call's budget is approximate: it may stop up to one step (1000 instructions) early.
    fn fill(&self) -> mlua::Result<()> {
        let b = &self.budget;
        b.profiling.set(crate::profile::is_enabled(&self.lua));
        let reinstall = b.rearmed.get() || !b.profiling.get();
        b.remaining.set(b.limit.get() as i64);
        b.exhausted.set(false);
        b.rearmed.set(false);
        if !reinstall {
            return Ok(());
        }
        self.lua.set_global_hook(
            HookTriggers::new().every_nth_instruction(b.step.get() as u32),
            budget_hook,
        )
    }

    /// Runs a text chunk named `name` (use `@path/relative.lua` for files).
    ///
    /// # Errors
    /// Syntax, runtime, memory or budget errors.
    pub fn exec(&self, src: &str, name: &str) -> Result<(), ScriptError> {
        self.guarded(|lua| load_text(lua, src.as_bytes(), name)?.call(()))
    }

    /// Evaluates a text chunk and converts its results.
    ///
    /// # Errors
    /// As [`Sandbox::exec`], plus conversion errors.
    pub fn eval<R: FromLuaMulti>(&self, src: &str, name: &str) -> Result<R, ScriptError> {
        self.guarded(|lua| load_text(lua, src.as_bytes(), name)?.call(()))
    }

    /// Reads and runs a Lua file; `rel` is its display path (`mods/demo/main.lua`).
    ///
    /// # Errors
    /// An unreadable file or any Lua error.
    pub fn exec_file(&self, path: &Path, rel: &str) -> Result<(), ScriptError> {
        let src = std::fs::read_to_string(path).map_err(|e| ScriptError {
            kind: crate::ScriptErrorKind::Other,
            file: rel.to_string(),
            line: 0,
            message: format!("cannot read: {e}"),
            traceback: None,
        })?;
        self.exec(&src, &format!("@{rel}"))
    }

    /// Memory currently used by the VM, in bytes.
    #[must_use]
    pub fn used_memory(&self) -> usize {
        self.lua.used_memory()
    }
}

fn budget_hook(lua: &Lua, debug: &Debug<'_>) -> mlua::Result<VmState> {
    let Some(b) = lua.app_data_ref::<Rc<Budget>>().map(|b| Rc::clone(&b)) else {
        return Ok(VmState::Continue);
    };
    if b.spend(b.step.get()) {
        // `hexforge play --profile`: one sample per hook step (a no-op when it is off).
        crate::profile::sample(lua, b.step.get());
        return Ok(VmState::Continue);
    }
    Err(budget_error(lua, &b, Some(debug))?)
}

/// The budget error, raised again at every step from now on (see the module docs: `pcall`
/// cannot swallow it), at the line of the nearest Lua function: `debug`'s when the hook fired
/// in Lua code, the caller's when the budget ran out inside a C or Rust function.
fn budget_error(lua: &Lua, b: &Budget, debug: Option<&Debug<'_>>) -> mlua::Result<mlua::Error> {
    if !b.rearmed.get() {
        b.rearmed.set(true);
        lua.set_global_hook(HookTriggers::new().every_nth_instruction(1), budget_hook)?;
    }
    let lua_line = |d: &Debug<'_>| {
        let src = d.source();
        (src.what != "C").then(|| {
            let file = src.short_src.as_deref().unwrap_or("?").to_string();
            (file, d.current_line().unwrap_or(0))
        })
    };
    // Work a C or Rust function does for a mod (a pattern match, `string.rep`, `load`) is
    // charged as it goes (vendor/lua-src/PATCHES.md, `charge` below), so the budget can run
    // out inside one.
    let (file, line) = debug
        .and_then(lua_line)
        .or_else(|| (0..64).find_map(|level| lua.inspect_stack(level, lua_line).flatten()))
        .unwrap_or_else(|| ("?".to_string(), 0));
    Ok(mlua::Error::runtime(format!(
        "{file}:{line}: {BUDGET_MARKER}: more than {} Lua instructions, or their worth of work in library calls, in one engine call (an endless loop?)",
        b.limit.get()
    )))
}

/// Charges `steps` of work a Rust function did for a mod to the running call's budget, as the
/// VM charges the work of its C functions (vendor/lua-src/PATCHES.md). When that uses the
/// budget up: the budget error.
fn charge(lua: &Lua, steps: u64) -> mlua::Result<()> {
    let Some(b) = lua.app_data_ref::<Rc<Budget>>().map(|b| Rc::clone(&b)) else {
        return Ok(());
    };
    if b.spend(steps) {
        return Ok(());
    }
    Err(budget_error(lua, &b, None)?)
}

/// `load` for mods: text chunks given as strings only, never binary, never a reader function.
fn safe_load(
    lua: &Lua,
    (chunk, name, _mode, env): (Value, Option<String>, Option<String>, Option<Table>),
) -> mlua::Result<(Value, Option<String>)> {
    let Value::String(s) = chunk else {
        return Ok((
            Value::Nil,
            Some("load: only source strings are allowed in Hexforge mods".into()),
        ));
    };
    let bytes = s.as_bytes();
    // Checking and compiling a chunk is work in proportion to its length.
    charge(lua, bytes.len() as u64 / 16)?;
    if bytes.first() == Some(&0x1b) {
        return Ok((
            Value::Nil,
            Some("load: binary chunks are not allowed".into()),
        ));
    }
    let name = format!(
        "=(load{})",
        name.map(|n| format!(
            " {}",
            n.chars()
                .filter(|c| !c.is_control())
                .take(40)
                .collect::<String>()
        ))
        .unwrap_or_default()
    );
    if let Err(m) = check_source(&bytes) {
        return Ok((Value::Nil, Some(format!("(load):{m}"))));
    }
    let mut c = lua.load(&*bytes).set_name(name).set_mode(ChunkMode::Text);
    if let Some(env) = env {
        c = c.set_environment(env);
    }
    match c.into_function() {
        Ok(f) => Ok((Value::Function(f), None)),
        Err(e) => Ok((Value::Nil, Some(ScriptError::from_lua(&e).to_string()))),
    }
}

/// Why: Lua runs a `<close>` handler with hooks disabled when the error that unwinds it came
/// from the budget hook, so a looping handler could never be stopped. To-be-closed variables
/// are refused at load time (a text check: `<close>` inside a string is refused too).
fn check_source(src: &[u8]) -> Result<(), String> {
    let mut i = 0;
    while let Some(off) = src[i..].iter().position(|&b| b == b'<') {
        let start = i + off + 1;
        let rest = &src[start..];
        let ws = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
        if rest[ws..].starts_with(b"close") {
            let after = &rest[ws + 5..];
            let ws2 = after.iter().take_while(|b| b.is_ascii_whitespace()).count();
            if after.get(ws2) == Some(&b'>') {
                let line = src[..start].iter().filter(|&&b| b == b'\n').count() + 1;
                return Err(format!(
                    "{line}: to-be-closed variables (<close>) are not supported in Hexforge mods"
                ));
            }
        }
        i = start;
    }
    Ok(())
}

/// Loads a text chunk after the source checks.
pub(crate) fn load_text(lua: &Lua, src: &[u8], name: &str) -> mlua::Result<mlua::Function> {
    check_source(src).map_err(|m| mlua::Error::SyntaxError {
        message: format!("{}:{m}", name.trim_start_matches(['@', '='])),
        incomplete_input: false,
    })?;
    lua.load(src)
        .set_name(name)
        .set_mode(ChunkMode::Text)
        .into_function()
}

/// One line of `print` output: the values separated by tabs, cut at [`MAX_LINE_BYTES`] with
/// a note of how much was left out. Why cut: the output is kept in the host, outside the
/// mod's memory limit, and a long string is only read as far as it is kept.
fn print_line(args: &[Value]) -> String {
    let mut line: Vec<u8> = Vec::new();
    let mut left_out = 0usize;
    let mut keep = |bytes: &[u8]| {
        let n = bytes.len().min(MAX_LINE_BYTES - line.len());
        line.extend_from_slice(&bytes[..n]);
        left_out += bytes.len() - n;
    };
    for (i, v) in args.iter().enumerate() {
        if i > 0 {
            keep(b"\t");
        }
        match v {
            Value::String(s) => keep(&s.as_bytes()),
            other => keep(display_value(other).as_bytes()),
        }
    }
    let mut line = String::from_utf8_lossy(&line).into_owned();
    if left_out > 0 {
        line.push_str(&format!(" ... ({left_out} more bytes not shown)"));
    }
    line
}

fn display_value(v: &Value) -> String {
    match v {
        Value::Nil => "nil".into(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(i) => i.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.to_string_lossy(),
        other => format!("<{}>", other.type_name()),
    }
}

fn valid_module_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 200
        && name.split('.').all(|seg| {
            !seg.is_empty()
                && seg
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        })
}

fn require(lua: &Lua, state: &Rc<RefCell<RequireState>>, name: &str) -> mlua::Result<Value> {
    if !valid_module_name(name) {
        return Err(mlua::Error::runtime(format!(
            "require({name:?}): module names are dotted words like \"movement\" (scripts/movement.lua) or \"mymod.util\" (mods/mymod/util.lua); paths and '..' are not allowed"
        )));
    }
    let caller = crate::decl::caller_location(lua).file;
    let (path, rel, base) = {
        let st = state.borrow();
        let segs: Vec<&str> = name.split('.').collect();
        let rest = segs.join("/");
        let in_mod = |id: &str, rest: &str| {
            st.paths.mods.get(id).map(|(dir, rel_dir)| {
                (
                    dir.join(format!("{rest}.lua")),
                    format!("{rel_dir}/{rest}.lua"),
                    dir.clone(),
                )
            })
        };
        // "<mod id>.<file>" names that mod. A bare name searches the calling file's own mod
        // first, then the mods it builds on (loaded before it: its base and dependencies), then
        // the engine's scripts folder ("hexforge.movement" -> scripts/hexforge/movement.lua).
        // Why the caller's mod first: a base mod's `require("util")` must get the base's util.lua
        // even when its variant ships a util.lua of its own.
        let named = if segs.len() > 1 && st.paths.mods.contains_key(segs[0]) {
            in_mod(segs[0], &segs[1..].join("/"))
        } else {
            None
        };
        let order = &st.paths.search_order;
        let own = order.iter().position(|id| {
            st.paths
                .mods
                .get(id)
                .is_some_and(|(_, rel_dir)| caller.starts_with(&format!("{rel_dir}/")))
        });
        let candidates = match own {
            Some(i) => &order[i..],
            None => &order[..],
        };
        let found = named.or_else(|| {
            candidates
                .iter()
                .filter_map(|id| in_mod(id, &rest))
                .find(|c| c.0.is_file())
        });
        match found {
            Some(c) => c,
            None => match &st.paths.scripts {
                Some((dir, rel_dir)) => (
                    dir.join(format!("{rest}.lua")),
                    format!("{rel_dir}/{rest}.lua"),
                    dir.clone(),
                ),
                None => {
                    return Err(mlua::Error::runtime(format!(
                        "require({name:?}): no such module in the mods of this rule set"
                    )));
                }
            },
        }
    };
    // Modules are cached per VM by the file they resolve to: a base and its variant that
    // require the same file share one module table.
    let loaded: Table = lua.named_registry_value(LOADED_KEY)?;
    let cached: Value = loaded.raw_get(rel.as_str())?;
    if !cached.is_nil() {
        return Ok(cached);
    }
    if state.borrow().loading.contains(&rel) {
        return Err(mlua::Error::runtime(format!(
            "require({name:?}): require cycle ({rel} requires itself through others)"
        )));
    }
    debug_assert!(is_safe_relative(&rel));
    // Why canonicalise: a symlink inside a mod must not lead outside the allowed folders.
    let inside = match (path.canonicalize(), base.canonicalize()) {
        (Ok(p), Ok(b)) => p.starts_with(b),
        _ => false,
    };
    if !inside {
        return Err(mlua::Error::runtime(format!(
            "require({name:?}): no such module (looked for {rel})"
        )));
    }
    let src = std::fs::read_to_string(&path)
        .map_err(|e| mlua::Error::runtime(format!("require({name:?}): cannot read {rel}: {e}")))?;
    state.borrow_mut().loading.insert(rel.clone());
    let result =
        load_text(lua, src.as_bytes(), &format!("@{rel}")).and_then(|f| f.call::<Value>(name));
    state.borrow_mut().loading.remove(&rel);
    let value = match result? {
        Value::Nil => Value::Boolean(true),
        v => v,
    };
    loaded.raw_set(rel.as_str(), value.clone())?;
    Ok(value)
}
