//! The `hex` namespace: axial hex coordinates (`{q=, r=}` tables) and their geometry.
//!
//! Bound from `hexforge_core::hex::Hex`: `new`, `distance`, `length`, `neighbor`, `neighbors`,
//! `step`, `direction_to`, `straight_line_to`, `rotate_around`, `reflect_q`, `add`, `sub`,
//! `scale`, `equals`, `key`, `ring`, `range`. `ring` and `range` are written here over
//! `Hex::step` until the core's shapes module lands (same order: clockwise from the N corner).
//!
//! No game state is touched: every function is pure.
//!
//! ```
//! use hexforge_script::{Limits, Sandbox};
//! let sb = Sandbox::new(Limits::default()).unwrap();
//! let n: i64 = sb.eval("return #hex.range({q=0,r=0}, 2)", "=doc").unwrap();
//! assert_eq!(n, 19);
//! ```

use super::args::{COORD_LIMIT, add, hex_to_table, hexes_to_table};
use hexforge_core::hex::{Direction, Hex};
use mlua::{IntoLuaMulti, Lua, Table, Value};

/// Largest radius accepted by `hex.ring`.
pub const MAX_RING_RADIUS: i64 = 2000;
/// Largest radius accepted by `hex.range` (3 * 200^2 hexes at most).
pub const MAX_RANGE_RADIUS: i64 = 200;

/// The hexes at exactly `radius` from `center`, clockwise from the N corner.
#[must_use]
pub fn ring(center: Hex, radius: i32) -> Vec<Hex> {
    if radius <= 0 {
        return vec![center];
    }
    let mut out = Vec::with_capacity(6 * radius as usize);
    let mut h = center.step(Direction::N, radius);
    for i in 0..6 {
        let d = Direction::from_index(i + 2);
        for _ in 0..radius {
            out.push(h);
            h = h.neighbor(d);
        }
    }
    out
}

/// The hexes within `radius` of `center`, ring by ring from the centre.
#[must_use]
pub fn range(center: Hex, radius: i32) -> Vec<Hex> {
    (0..=radius.max(0)).flat_map(|r| ring(center, r)).collect()
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
    add(lua, &t, NS, "key", |lua, a| {
        let h = a.hex(0)?;
        format!("{},{}", h.q, h.r).into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "ring", |lua, a| {
        let r = a.int_in(1, 0, MAX_RING_RADIUS)? as i32;
        hexes_to_table(lua, ring(a.hex(0)?, r))?.into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "range", |lua, a| {
        let r = a.int_in(1, 0, MAX_RANGE_RADIUS)? as i32;
        hexes_to_table(lua, range(a.hex(0)?, r))?.into_lua_multi(lua)
    })?;
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_sizes_and_distances() {
        let c = Hex::new(2, -1);
        for r in 0..5 {
            let ring = ring(c, r);
            assert_eq!(ring.len(), if r == 0 { 1 } else { 6 * r as usize });
            assert!(ring.iter().all(|h| h.distance(c) == r));
        }
        assert_eq!(
            ring(Hex::ORIGIN, 1)[0],
            Hex::new(0, -1),
            "starts at the N neighbour"
        );
        assert_eq!(
            ring(Hex::ORIGIN, 1)[1],
            Hex::new(1, -1),
            "then clockwise to NE"
        );
        assert_eq!(range(Hex::ORIGIN, 3).len(), 37);
    }
}
