//! The `direction` namespace: the six directions as integers `0..=5` clockwise from N.
//!
//! Constants `direction.N, NE, SE, S, SW, NW`; functions `name`, `from_name`, `rotate`,
//! `opposite`, `left`, `right`, `vector`, `turns_to`, bound from
//! `hexforge_core::hex::Direction`. Hexside `i` of a hex faces neighbour `i`.
//!
//! Pure functions only.
//!
//! ```
//! use hexforge_script::{Limits, Sandbox};
//! let sb = Sandbox::new(Limits::default()).unwrap();
//! let s: String = sb.eval("return direction.name(direction.rotate(direction.N, 'cw', 2))", "=doc").unwrap();
//! assert_eq!(s, "SE");
//! ```

use super::args::add;
use hexforge_core::hex::{Direction, Turn};
use mlua::{IntoLuaMulti, Lua, Table, Value};

fn turn_name(t: Turn) -> &'static str {
    match t {
        Turn::Clockwise => "cw",
        Turn::CounterClockwise => "ccw",
    }
}

/// Builds the `direction` table.
///
/// # Errors
/// Out of memory.
pub fn register(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    for d in Direction::ALL {
        t.raw_set(d.name(), i64::from(d.index()))?;
    }
    const NS: &str = "direction";
    let idx = |d: Direction| i64::from(d.index());
    add(lua, &t, NS, "name", |lua, a| {
        a.dir(0)?.name().into_lua_multi(lua)
    })?;
    add(
        lua,
        &t,
        NS,
        "from_name",
        move |lua, a| match Direction::from_name(&a.string(0)?) {
            Some(d) => idx(d).into_lua_multi(lua),
            None => Value::Nil.into_lua_multi(lua),
        },
    )?;
    add(lua, &t, NS, "rotate", move |lua, a| {
        let steps = a.int(2)?.rem_euclid(6) as i32;
        idx(a.dir(0)?.rotate(a.turn(1)?, steps)).into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "opposite", move |lua, a| {
        idx(a.dir(0)?.opposite()).into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "left", move |lua, a| {
        idx(a.dir(0)?.left()).into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "right", move |lua, a| {
        idx(a.dir(0)?.right()).into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "vector", |lua, a| {
        a.dir(0)?.vector().into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "turns_to", |lua, a| {
        let (n, turn) = a.dir(0)?.turns_to(a.dir(1)?);
        (i64::from(n), turn_name(turn)).into_lua_multi(lua)
    })?;
    Ok(t)
}
