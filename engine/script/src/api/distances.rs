//! `search.distances(sources, max, env)` and `ctx:distances`: step distances from a group of
//! hexes round hexes that end a path, for ranges counted along a crooked path of hexes
//! (`hexforge_core::search::distances`).
//!
//! The walk stays in Rust and so does its answer: a `distances` object whose `at(h)` gives the
//! distance of one hex (or nil). A mod asks about a few hexes of the hundreds a walk reaches,
//! so no table of them is built.
//!
//! ```
//! use hexforge_script::{Limits, Sandbox};
//! let sb = Sandbox::new(Limits::default()).unwrap();
//! let d: i64 = sb.eval(
//!     "local d = search.distances({ { q = 0, r = 0 } }, 5, { blocked = { { q = 1, r = 0 } } })
//!      return d:at({ q = 2, r = 0 })",
//!     "=doc",
//! ).unwrap();
//! assert_eq!(d, 3); // round the blocked hex
//! ```

use super::args::{Args, hex_from_value_in};
use super::kinds::HexKinds;
use hexforge_core::hex::Hex;
use hexforge_core::search::{self, Distances, Limits};
use mlua::{Function, IntoLuaMulti, Lua, MetaMethod, MultiValue, Table, UserData, Value};

/// The most steps a walk may go (a board is far smaller).
const MAX_STEPS: i64 = 1000;

/// A finished walk, handed to Lua.
struct LuaDistances(Distances);

impl UserData for LuaDistances {
    fn add_methods<M: mlua::UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("at", |lua, this, h: Value| {
            let h = hex_from_value_in(lua, &h)
                .map_err(|m| mlua::Error::runtime(format!("distances:at: {m}")))?;
            Ok(this.0.get(h))
        });
        methods.add_method("truncated", |_, this, ()| Ok(this.0.is_truncated()));
        methods.add_meta_method(MetaMethod::Len, |_, this, ()| Ok(this.0.len()));
        methods.add_meta_method(MetaMethod::ToString, |_, this, ()| {
            Ok(format!("distances ({} hexes in reach)", this.0.len()))
        });
    }
}

/// `search.distances(sources, max, env)`; with `board`, the game's board stands in for a
/// missing `env.on_board` (`ctx:distances`).
///
/// # Errors
/// A bad argument (named), or an error raised in a callback.
pub(super) fn distances(
    lua: &Lua,
    a: &Args<'_>,
    classify: &Function,
    board: Option<&dyn Fn(Hex) -> bool>,
) -> mlua::Result<MultiValue> {
    let sources = match a.get(0) {
        Value::Table(t) => hex_list(a, 0, t)?,
        v => {
            return Err(a.err(
                0,
                &format!("expected a list of hexes, got {}", v.type_name()),
            ));
        }
    };
    let max = a.int_in(1, 0, MAX_STEPS)? as u32;
    let env = match a.get(2) {
        Value::Nil => None,
        Value::Table(t) => Some(t.clone()),
        v => return Err(a.err(2, &format!("expected a table, got {}", v.type_name()))),
    };
    let kinds = HexKinds::read(a, 2, env.as_ref(), board, classify)?;
    let d = search::distances(&sources, max, |x| kinds.kind(x), Limits::default());
    kinds.finish()?;
    lua.create_userdata(LuaDistances(d))?.into_lua_multi(lua)
}

fn hex_list(a: &Args<'_>, i: usize, t: &Table) -> mlua::Result<Vec<Hex>> {
    let mut out = Vec::new();
    for (n, v) in t.sequence_values::<Value>().enumerate() {
        let h = a
            .hex_of(&v?)
            .map_err(|m| a.err(i, &format!("item {}: {m}", n + 1)))?;
        out.push(h);
    }
    Ok(out)
}

/// `ctx:distances(sources, max, env)`: `search.distances` on the game's board (answered in
/// Rust: no Lua call per hex) unless `env.on_board` is given.
///
/// # Errors
/// As `search.distances`; messages are prefixed by the ctx wrapper.
pub(crate) fn ctx_distances(
    lua: &Lua,
    args: MultiValue,
    on_board: &dyn Fn(Hex) -> bool,
) -> mlua::Result<MultiValue> {
    let Some(classify) = lua
        .app_data_ref::<super::search::ListingHelpers>()
        .map(|h| h.classify.clone())
    else {
        return Err(mlua::Error::runtime(
            "ctx:distances: the search namespace is missing",
        ));
    };
    let a = Args::in_vm(lua, "", args);
    distances(lua, &a, &classify, Some(on_board))
}
