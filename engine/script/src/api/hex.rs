//! The `hex` namespace: axial hex coordinates (`{q=, r=}` tables) and their geometry.
//!
//! Bound from `hexforge_core::hex`: `new`, `distance`, `length`, `neighbor`, `neighbors`,
//! `step`, `direction_to`, `straight_line_to`, `rotate_around`/`rotate`, `reflect_q`, `add`,
//! `sub`, `scale`, `equals`/`eq`, `key`; shapes `ring`, `spiral`, `range`, `orbit_step`, `row`;
//! the exact line `trace`, `hexes_crossed`, `blocked_unless_avoidable`, `resolve_ties` (these
//! two call back into Lua; an error there is the caller's error); arcs `arc_position`,
//! `arc_hexes`; hexsides `entry_hexside`, `relative_entry`. Sizes are capped so no call can
//! allocate without bound on the Rust side (outside the VM's memory limit).
//!
//! No game state is touched: every function is pure.
//!
//! ```
//! use hexforge_script::{Limits, Sandbox};
//! let sb = Sandbox::new(Limits::default()).unwrap();
//! let n: i64 = sb.eval("return #hex.range({q=0,r=0}, 2)", "=doc").unwrap();
//! assert_eq!(n, 19);
//! ```

use super::args::{COORD_LIMIT, add, hex_from_value, hex_to_table, hexes_to_table};
use hexforge_core::hex::{Direction, Hex, Turn, arc, hexside, shapes};
use mlua::{Function, IntoLuaMulti, Lua, LuaSerdeExt, Table, Value};
use std::cell::RefCell;

/// Largest radius accepted by `hex.ring`.
pub const MAX_RING_RADIUS: i64 = 2000;
/// Largest radius accepted by `hex.range` (3 * 200^2 hexes at most).
pub const MAX_RANGE_RADIUS: i64 = 200;

/// Largest distance accepted by `hex.trace` and friends, and by `hex.row`.
pub const MAX_TRACE: i32 = 10_000;

fn opt_dir(a: &super::args::Args<'_>, i: usize) -> mlua::Result<Direction> {
    if a.values.get(i).is_none_or(Value::is_nil) {
        Ok(Direction::N)
    } else {
        a.dir(i)
    }
}

fn opt_turn(a: &super::args::Args<'_>, i: usize) -> mlua::Result<Turn> {
    if a.values.get(i).is_none_or(Value::is_nil) {
        Ok(Turn::Clockwise)
    } else {
        a.turn(i)
    }
}

fn trace_of(a: &super::args::Args<'_>, i: usize) -> mlua::Result<shapes_trace::Trace> {
    // A trace is given either as two hexes or as a table from hex.trace (its from/to are used).
    let (from, to) = match a.values.get(i) {
        Some(Value::Table(t)) if t.contains_key("from").unwrap_or(false) => {
            let f = hex_from_value(&t.raw_get("from")?).map_err(|m| a.err(i, &m))?;
            let to = hex_from_value(&t.raw_get("to")?).map_err(|m| a.err(i, &m))?;
            (f, to)
        }
        _ => (a.hex(i)?, a.hex(i + 1)?),
    };
    if from.distance(to) > MAX_TRACE {
        return Err(a.err(i, &format!("trace longer than {MAX_TRACE} hexes")));
    }
    Ok(shapes_trace::trace(from, to))
}

mod shapes_trace {
    pub use hexforge_core::hex::trace::{
        Side, Trace, blocked_unless_avoidable, resolve_ties, trace,
    };
}

fn call_bool(lua: &Lua, f: &Function, h: Hex, failure: &RefCell<Option<mlua::Error>>) -> bool {
    if failure.borrow().is_some() {
        return false;
    }
    match hex_to_table(lua, h).and_then(|t| f.call::<bool>(t)) {
        Ok(b) => b,
        Err(e) => {
            *failure.borrow_mut() = Some(e);
            false
        }
    }
}

/// Builds the `hex` table.
///
/// # Errors
/// Out of memory.
pub fn register(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    const NS: &str = "hex";
    add(lua, &t, NS, "new", |lua, a| {
        let q = a.int_in(0, -COORD_LIMIT, COORD_LIMIT)?;
        let r = a.int_in(1, -COORD_LIMIT, COORD_LIMIT)?;
        hex_to_table(lua, Hex::new(q as i32, r as i32))?.into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "distance", |lua, a| {
        a.hex(0)?.distance(a.hex(1)?).into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "length", |lua, a| {
        a.hex(0)?.length().into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "neighbor", |lua, a| {
        hex_to_table(lua, a.hex(0)?.neighbor(a.dir(1)?))?.into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "neighbors", |lua, a| {
        hexes_to_table(lua, a.hex(0)?.neighbors())?.into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "step", |lua, a| {
        let k = a.int_in(2, -COORD_LIMIT, COORD_LIMIT)? as i32;
        hex_to_table(lua, a.hex(0)?.step(a.dir(1)?, k))?.into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "direction_to", |lua, a| {
        a.hex(0)?
            .direction_to(a.hex(1)?)
            .map(|d| i64::from(d.index()))
            .into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "straight_line_to", |lua, a| {
        match a.hex(0)?.straight_line_to(a.hex(1)?) {
            Some((d, n)) => (i64::from(d.index()), n).into_lua_multi(lua),
            None => Value::Nil.into_lua_multi(lua),
        }
    })?;
    add(lua, &t, NS, "rotate_around", |lua, a| {
        let steps = a.int(3)?.rem_euclid(6) as i32;
        hex_to_table(lua, a.hex(0)?.rotate_around(a.hex(1)?, a.turn(2)?, steps))?
            .into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "reflect_q", |lua, a| {
        hex_to_table(lua, a.hex(0)?.reflect_q())?.into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "add", |lua, a| {
        hex_to_table(lua, a.hex(0)? + a.hex(1)?)?.into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "sub", |lua, a| {
        hex_to_table(lua, a.hex(0)? - a.hex(1)?)?.into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "scale", |lua, a| {
        let h = a.hex(0)?;
        let k = a.int_in(1, -64, 64)? as i32;
        hex_to_table(lua, Hex::new(h.q * k, h.r * k))?.into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "equals", |lua, a| {
        (a.hex(0)? == a.hex(1)?).into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "eq", |lua, a| {
        (a.hex(0)? == a.hex(1)?).into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "rotate", |lua, a| {
        let steps = a.int(3)?.rem_euclid(6) as i32;
        hex_to_table(lua, a.hex(0)?.rotate_around(a.hex(1)?, a.turn(2)?, steps))?
            .into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "key", |lua, a| {
        let h = a.hex(0)?;
        format!("{},{}", h.q, h.r).into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "ring", |lua, a| {
        let r = a.int_in(1, 0, MAX_RING_RADIUS)? as i32;
        hexes_to_table(
            lua,
            shapes::ring(a.hex(0)?, r, opt_dir(a, 2)?, opt_turn(a, 3)?),
        )?
        .into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "spiral", |lua, a| {
        let r = a.int_in(1, 0, MAX_RANGE_RADIUS)? as i32;
        hexes_to_table(
            lua,
            shapes::spiral(a.hex(0)?, r, opt_dir(a, 2)?, opt_turn(a, 3)?),
        )?
        .into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "range", |lua, a| {
        let r = a.int_in(1, 0, MAX_RANGE_RADIUS)? as i32;
        hexes_to_table(lua, shapes::range(a.hex(0)?, r))?.into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "orbit_step", |lua, a| {
        hex_to_table(
            lua,
            shapes::orbit_step(a.hex(0)?, a.hex(1)?, opt_turn(a, 2)?),
        )?
        .into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "row", |lua, a| {
        let k = a.int_in(2, 0, i64::from(MAX_TRACE))? as i32;
        hexes_to_table(lua, shapes::row(a.hex(0)?, a.dir(1)?, k))?.into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "trace", |lua, a| {
        let tr = trace_of(a, 0)?;
        lua.to_value_with(
            &tr,
            mlua::serde::SerializeOptions::new().set_array_metatable(false),
        )?
        .into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "hexes_crossed", |lua, a| {
        hexes_to_table(lua, trace_of(a, 0)?.hexes_crossed())?.into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "blocked_unless_avoidable", |lua, a| {
        let two_hexes = !matches!(a.values.first(), Some(Value::Table(t)) if t.contains_key("from").unwrap_or(false));
        let fi = if two_hexes { 2 } else { 1 };
        let tr = trace_of(a, 0)?;
        let Some(Value::Function(f)) = a.values.get(fi).cloned() else {
            return Err(a.err(
                fi,
                "expected a function(hex) -> boolean saying whether a hex blocks",
            ));
        };
        let failure: RefCell<Option<mlua::Error>> = RefCell::new(None);
        let blocked =
            shapes_trace::blocked_unless_avoidable(&tr, |h| call_bool(lua, &f, h, &failure));
        match failure.into_inner() {
            Some(e) => Err(e),
            None => blocked.into_lua_multi(lua),
        }
    })?;
    add(lua, &t, NS, "resolve_ties", |lua, a| {
        let two_hexes = !matches!(a.values.first(), Some(Value::Table(t)) if t.contains_key("from").unwrap_or(false));
        let fi = if two_hexes { 2 } else { 1 };
        let tr = trace_of(a, 0)?;
        let Some(Value::Function(f)) = a.values.get(fi).cloned() else {
            return Err(a.err(
                fi,
                "expected a function(left, right) -> \"left\" | \"right\"",
            ));
        };
        let failure: RefCell<Option<mlua::Error>> = RefCell::new(None);
        let hexes = shapes_trace::resolve_ties(&tr, |l, r| {
            let pick = (|| -> mlua::Result<shapes_trace::Side> {
                let v: String = f.call((hex_to_table(lua, l)?, hex_to_table(lua, r)?))?;
                match v.as_str() {
                    "left" => Ok(shapes_trace::Side::Left),
                    "right" => Ok(shapes_trace::Side::Right),
                    other => Err(mlua::Error::runtime(format!(
                        "resolve_ties: the chooser returned {other:?}, expected \"left\" or \"right\""
                    ))),
                }
            })();
            pick.unwrap_or_else(|e| {
                failure.borrow_mut().get_or_insert(e);
                shapes_trace::Side::Left
            })
        });
        match failure.into_inner() {
            Some(e) => Err(e),
            None => hexes_to_table(lua, hexes)?.into_lua_multi(lua),
        }
    })?;
    add(lua, &t, NS, "arc_position", |lua, a| {
        let p = arc::arc_position(a.hex(0)?, a.dir(1)?, a.hex(2)?);
        lua.to_value(&p)?.into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "relative_side", |lua, a| {
        // Any integer section works: it counts hexsides clockwise from the front, modulo 6.
        let section = a.int(1)?.rem_euclid(6) as u8;
        i64::from(arc::relative_side(a.dir(0)?, section).index()).into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "arc_hexes", |lua, a| {
        let r = a.int_in(2, 0, MAX_RANGE_RADIUS)? as i32;
        let out = lua.create_table()?;
        for (i, (h, p)) in arc::arc_hexes(a.hex(0)?, a.dir(1)?, r)
            .into_iter()
            .enumerate()
        {
            let e = lua.create_table()?;
            e.raw_set("hex", hex_to_table(lua, h)?)?;
            e.raw_set("position", lua.to_value(&p)?)?;
            out.raw_set(i + 1, e)?;
        }
        out.into_lua_multi(lua)
    })?;
    add(
        lua,
        &t,
        NS,
        "entry_hexside",
        |lua, a| match hexside::entry_hexside(a.hex(0)?, a.hex(1)?) {
            Some(e) => lua
                .to_value_with(
                    &e,
                    mlua::serde::SerializeOptions::new().set_array_metatable(false),
                )?
                .into_lua_multi(lua),
            None => Value::Nil.into_lua_multi(lua),
        },
    )?;
    add(
        lua,
        &t,
        NS,
        "relative_entry",
        |lua, a| match hexside::relative_entry(a.hex(0)?, a.hex(1)?, a.dir(2)?) {
            Some(e) => lua
                .to_value_with(
                    &e,
                    mlua::serde::SerializeOptions::new().set_array_metatable(false),
                )?
                .into_lua_multi(lua),
            None => Value::Nil.into_lua_multi(lua),
        },
    )?;
    Ok(t)
}

#[cfg(test)]
mod tests {
    use crate::{Limits, Sandbox};

    #[test]
    fn core_shapes_trace_and_entry_through_lua() {
        let sb = Sandbox::new(Limits::default()).unwrap();
        let check = |src: &str| {
            sb.eval::<bool>(src, "=t")
                .unwrap_or_else(|e| panic!("{src}: {e}"))
        };
        assert!(check(
            "return #hex.ring({q=0,r=0}, 3) == 18 and #hex.range({q=1,r=1}, 3) == 37"
        ));
        assert!(check(
            "local r = hex.ring({q=0,r=0}, 1) return r[1].q == 0 and r[1].r == -1 and r[2].q == 1 and r[2].r == -1"
        ));
        assert!(check(
            "local s = hex.spiral({q=0,r=0}, 1) return #s == 7 and s[1].q == 0 and s[1].r == 0"
        ));
        assert!(check(
            "local t = hex.trace({q=0,r=0}, {q=3,r=0}) return #t.steps == 4 and t.steps[1].kind == 'cross'"
        ));
        assert!(check(
            "return #hex.hexes_crossed(hex.trace({q=0,r=0}, {q=0,r=2})) == 3"
        ));
        assert!(check(
            "return hex.blocked_unless_avoidable({q=0,r=0}, {q=0,r=3}, function(h) return h.r == -1 or h.r == 1 end)"
        ));
        assert!(check(
            "return not hex.blocked_unless_avoidable({q=0,r=0}, {q=0,r=3}, function(h) return h.q == 5 end)"
        ));
        assert!(check(
            "local e = hex.entry_hexside({q=0,r=-3}, {q=0,r=0}) return e.side == 0"
        ));
        assert!(check(
            "return hex.arc_position({q=0,r=0}, 0, {q=0,r=-2}) == 'inside'"
        ));
        assert!(check(
            "return hex.relative_side(direction.SE, 0) == direction.SE and hex.relative_side('SE', 1) == direction.S and hex.relative_side(0, 5) == direction.NW and hex.relative_side(0, -1) == direction.NW"
        ));
        assert!(check(
            "local o = hex.orbit_step({q=0,r=0}, {q=0,r=-1}, 'cw') return o.q == 1 and o.r == -1"
        ));
        let e = sb.exec("hex.blocked_unless_avoidable({q=0,r=0}, {q=0,r=3}, function(h) error('inside the blocker') end)", "@mods/x/t.lua").unwrap_err();
        assert!(e.to_string().contains("inside the blocker"), "{e}");
        let e = sb
            .exec("hex.trace({q=0,r=0}, {q=20000,r=0})", "@mods/x/t.lua")
            .unwrap_err();
        assert!(e.to_string().contains("trace longer"), "{e}");
    }
}
