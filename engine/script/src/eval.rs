//! Running a snippet against a game: a read-only `ctx` over a state, as global `ctx`, for
//! `hexforge eval --mod <mod> --scenario <id>` (ask the map for a route, a piece for its values).
//!
//! Deliberately read-only: a snippet inspects a game, it never changes one (actions do).
//!
//! ```no_run
//! # fn demo(rules: &hexforge_script::LuaRules, state: &hexforge_game::GameState) {
//! let sandbox = &rules.loaded().sandbox;
//! let d: i64 = hexforge_script::eval::with_read_ctx(rules, state, || {
//!     sandbox.eval("return ctx:graph_distance('galaxy', 'vessa', 'umbral')", "=eval")
//! }).unwrap();
//! # }
//! ```

use crate::error::ScriptError;
use crate::rules::{Access, LuaRules};
use hexforge_game::GameState;
use mlua::Value;

/// Runs `f` (which runs Lua in `rules`' sandbox, e.g. with `Sandbox::eval`) with the global `ctx`
/// set to a read-only ctx over `state`; `ctx` is removed (and its methods stop working) when `f`
/// returns.
///
/// # Errors
/// `f`'s error, or a failure setting up the ctx.
pub fn with_read_ctx<T>(
    rules: &LuaRules,
    state: &GameState,
    f: impl FnOnce() -> Result<T, ScriptError>,
) -> Result<T, ScriptError> {
    let mut out = None;
    rules.loaded().sandbox.guarded(|lua| {
        rules.with_ctx(lua, Access::Read(state), |lua, ctx| {
            lua.globals().raw_set("ctx", ctx)?;
            out = Some(f());
            lua.globals().raw_set("ctx", Value::Nil)
        })
    })?;
    out.unwrap_or_else(|| Err(ScriptError::other("the snippet did not run")))
}
