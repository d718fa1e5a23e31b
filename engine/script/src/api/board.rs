//! The `board` namespace: even-r offset coordinates (`col`, `row`) <-> axial hexes, for boards
//! printed as rows of hexes (scenario authors and editors count that way).
//!
//! Bound from `hexforge_core::board::OffsetCoord`: `to_offset(hex)` -> `col, row` and
//! `from_offset(col, row)` -> hex. Even rows are shoved half a hex right (see the core module).
//!
//! No game state: which hexes are on a game's board is `ctx:on_board`.
//!
//! ```
//! use hexforge_script::{Limits, Sandbox};
//! let sb = Sandbox::new(Limits::default()).unwrap();
//! let (col, row): (i64, i64) = sb.eval("return board.to_offset({q=2, r=1})", "=doc").unwrap();
//! assert_eq!((col, row), (3, 1));
//! ```

use super::args::{COORD_LIMIT, add, hex_to_table};
use hexforge_core::board::OffsetCoord;
use hexforge_core::hex::Hex;
use mlua::{IntoLuaMulti, Lua, Table};

/// Builds the `board` table.
///
/// # Errors
/// Out of memory.
pub fn register(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    const NS: &str = "board";
    add(lua, &t, NS, "to_offset", |lua, a| {
        let c = OffsetCoord::from_hex(a.hex(0)?);
        (i64::from(c.col), i64::from(c.row)).into_lua_multi(lua)
    })?;
    add(lua, &t, NS, "from_offset", |lua, a| {
        // Half the coordinate limit: the conversion shifts q by up to row / 2.
        let col = a.int_in(0, -COORD_LIMIT / 2, COORD_LIMIT / 2)? as i32;
        let row = a.int_in(1, -COORD_LIMIT / 2, COORD_LIMIT / 2)? as i32;
        let h: Hex = OffsetCoord { col, row }.to_hex();
        hex_to_table(lua, h)?.into_lua_multi(lua)
    })?;
    Ok(t)
}

#[cfg(test)]
mod tests {
    use crate::{Limits, Sandbox};

    #[test]
    fn offset_round_trips_including_negative_rows() {
        let sb = Sandbox::new(Limits::default()).unwrap();
        let ok: bool = sb
            .eval(
                "for r = -5, 5 do for c = -5, 5 do
                   local h = board.from_offset(c, r)
                   local c2, r2 = board.to_offset(h)
                   if c2 ~= c or r2 ~= r or h.r ~= r then return false end
                 end end
                 local h = board.from_offset(3, 1)
                 return h.q == 2 and h.r == 1",
                "=t",
            )
            .unwrap();
        assert!(ok);
        assert!(sb.eval::<()>("board.from_offset('x', 1)", "=t").is_err());
    }
}
