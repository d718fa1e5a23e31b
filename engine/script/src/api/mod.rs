//! The Lua API over the core, one file per namespace, all wired in [`register_all`].
//!
//! Conventions (checked by the definition-file test against `scripts/types/hexforge.d.lua`):
//! - namespaces are global tables with snake_case names: `hex`, `direction`, `dice`, `board`,
//!   `search`;
//! - hexes cross as `{q = .., r = ..}` tables, directions as integers `0..=5` (N, NE, SE, S, SW,
//!   NW clockwise), turns as `"cw"` / `"ccw"`;
//! - every error names the API function and the argument (`hex.distance: argument 2: ...`).
//!
//! This module holds only pure functions of their arguments (and of the Lua callbacks given to
//! `search`): no game state, no files.
//! Adding a namespace is one file with a `register` function plus one line in [`NAMESPACES`].
//!
//! ```
//! use hexforge_script::{Limits, Sandbox};
//! let sb = Sandbox::new(Limits::default()).unwrap();
//! let d: i64 = sb.eval("return direction.opposite(direction.N)", "=doc").unwrap();
//! assert_eq!(d, 3);
//! ```

pub mod args;
pub mod board;
pub mod choices;
pub mod dice;
pub mod direction;
pub(crate) mod distances;
pub mod hex;
mod kinds;
pub mod plain;
pub mod search;
pub mod tables;

use mlua::{Lua, Table};

/// A namespace registration function: builds the table to store as a global.
pub type Register = fn(&Lua) -> mlua::Result<Table>;

/// Every engine namespace, by global name.
pub const NAMESPACES: &[(&str, Register)] = &[
    ("hex", hex::register),
    ("direction", direction::register),
    ("dice", dice::register),
    ("board", board::register),
    ("search", search::register),
];

/// Registers every namespace in [`NAMESPACES`] as a global table.
///
/// # Errors
/// If Lua runs out of memory.
pub fn register_all(lua: &Lua) -> mlua::Result<()> {
    let g = lua.globals();
    for (name, register) in NAMESPACES {
        g.raw_set(*name, register(lua)?)?;
    }
    // Engine helpers every VM has: hex tables built in Lua, values read off the stack.
    lua.set_app_data(crate::raw::RawReader::new(lua)?);
    args::register_hex_builder(lua)
}
