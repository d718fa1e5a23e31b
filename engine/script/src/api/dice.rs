//! The `dice` namespace: dice notation and exact odds (no rolling: rolls go through
//! `ctx:roll` so they are seeded and logged).
//!
//! Bound from `hexforge_core::dice`: `parse` (canonical notation), `distribution` (every
//! total with its count and probability), `at_least`, `at_most`, `mean`. Probabilities cross as
//! floats for display and bots; the core keeps them exact.
//!
//! ```
//! use hexforge_script::{Limits, Sandbox};
//! let sb = Sandbox::new(Limits::default()).unwrap();
//! let p: f64 = sb.eval("return dice.at_least('2d6', 7)", "=doc").unwrap();
//! assert!((p - 21.0 / 36.0).abs() < 1e-12);
//! ```

use super::args::{Args, add};
use hexforge_core::dice::{DiceExpr, Distribution, distribution};
use mlua::{IntoLuaMulti, Lua, Table};

fn dist(a: &Args<'_>) -> mlua::Result<Distribution> {
    let text = a.string(0)?;
    let expr = DiceExpr::parse(&text).map_err(|e| a.err(0, &format!("{text:?}: {e}")))?;
    distribution(&expr).map_err(|e| a.err(0, &format!("{text:?}: {e}")))
}

/// Builds the `dice` table.
///
/// # Errors
/// Out of memory.
pub fn register(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    const NS: &str = "dice";
    add(lua, &t, NS, "parse", |lua, a| {
        let text = a.string(0)?;
        let expr = DiceExpr::parse(&text).map_err(|e| a.err(0, &format!("{text:?}: {e}")))?;
        expr.to_string().into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "distribution", |lua, a| {
        let d = dist(a)?;
        let out = lua.create_table()?;
        let total = d.total() as f64;
        for (i, (value, count)) in d.iter().enumerate() {
            let e = lua.create_table()?;
            e.raw_set("value", value)?;
            e.raw_set("count", count as f64)?;
            e.raw_set("p", count as f64 / total)?;
            out.raw_set(i + 1, e)?;
        }
        out.into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "at_least", |lua, a| {
        let v = a.int(1)?;
        dist(a)?.at_least(v).to_f64().into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "at_most", |lua, a| {
        let v = a.int(1)?;
        dist(a)?.at_most(v).to_f64().into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "mean", |lua, a| {
        let m = dist(a)?.mean().map_err(|e| a.err(0, &e.to_string()))?;
        m.to_f64().into_lua_multi(lua)
    })?;
    Ok(t)
}
