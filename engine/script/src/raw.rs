//! Plain Lua data read straight off the Lua stack into JSON: the one Lua -> JSON conversion
//! ([`from_lua`], with serde only for what the walk leaves). With `crate::stack` (a ctx method's
//! arguments and results, tables built in C), `crate::sandbox` (the listing's budget refill) and
//! `crate::rules::session`, the only places in Hexforge that use the Lua C API or raw pointers
//! themselves.
//!
//! Why it exists: every legal action a mod lists crosses into Rust as a small table (`{ piece =
//! 3, to = { q = 1, r = 2 } }`), and a listing holds hundreds of them. Read through mlua's safe
//! API each field costs a registry reference for every string and table (created, moved between
//! threads, dropped), which made converting choices a tenth of a whole game. Here one call walks
//! the whole value with `lua_next` / `lua_rawgeti`, on the stack mlua runs on and without a
//! protected call, since nothing it does can raise.
//!
//! What it gives is exactly mlua's serde conversion for plain data, `None` where it leaves a
//! value to serde: functions, userdata, a non-string key in an object, a string that is not
//! UTF-8, a table with a metatable, nesting deeper than 64 (shared snapshots are frozen plain
//! tables and read like any other). [`from_lua`] then takes the serde path, so every error
//! message is serde's.
//!
//! Why this is sound (the `unsafe` below relies on all of it):
//! - nothing here allocates in Lua or can raise a Lua error: reading a table with `lua_rawgeti`,
//!   `lua_rawget` and `lua_next` (with the key `lua_next` itself gave), `lua_getmetatable`,
//!   `lua_rawlen`, and `lua_tolstring` on values that already are strings; stack
//!   space is reserved with `lua_checkstack`, which reports failure instead of raising. So no
//!   `longjmp` can cross the Rust frames (with their `Vec`s and `String`s) of the walk;
//! - only `lua_checkstack` may allocate (growing the stack; on failure it returns 0, and an
//!   emergency collection runs no finalizers); every value read is anchored on the stack, and
//!   the bytes behind `lua_tolstring`'s pointer are copied out before the next Lua call;
//! - every index used is absolute and every function restores the stack height it found.
//!
//! It also hands out the patched VM's `copy` and `freeze` ([`frozen_tables`]), two C functions
//! of `vendor/lua-src`.
//!
//! Deliberately not here: writing into Lua (that can run out of memory and raise), or any other
//! use of the C API.
//!
//! ```
//! use hexforge_script::{Limits, Sandbox};
//! let sb = Sandbox::new(Limits::default()).unwrap();
//! sb.guarded(|lua| {
//!     let v: mlua::Value = lua.load("return { at = { q = 1, r = -2 }, n = 3 }").eval()?;
//!     let j = hexforge_script::raw::to_json(lua, &v)?;
//!     assert_eq!(j, Some(serde_json::json!({ "at": { "q": 1, "r": -2 }, "n": 3 })));
//!     Ok(())
//! })
//! .unwrap();
//! ```
#![allow(unsafe_code)]

use mlua::{Lua, LuaString, Table, Value, ffi};
use serde_json::Value as Json;
use std::os::raw::c_int;

/// Deepest nesting walked; deeper values (and cycles) are left to serde.
const MAX_DEPTH: usize = 64;

/// Reads plain Lua values as JSON in one call (one per VM: it keeps the strings the
/// walk compares against).
#[derive(Debug, Clone)]
pub struct RawReader {
    q: LuaString,
    r: LuaString,
    /// Other keys the engine reads by name (option and environment fields), made on first use
    /// and kept, by the address and length of their `'static` text (two literals at one address
    /// with one length hold the same bytes). Never iterated.
    keys: std::cell::RefCell<rustc_hash::FxHashMap<(usize, usize), LuaString>>,
}

impl RawReader {
    /// Makes the reader's strings in `lua`.
    ///
    /// # Errors
    /// Out of memory.
    pub fn new(lua: &Lua) -> mlua::Result<RawReader> {
        Ok(RawReader {
            q: lua.create_string("q")?,
            r: lua.create_string("r")?,
            keys: std::cell::RefCell::default(),
        })
    }

    /// `key` as a Lua string kept in the VM (made on first use). Why: under a memory limit a
    /// `&str` key is created by a protected call (about 1,000 instructions) every time it is
    /// used; the movement listing reads a dozen option fields by name per call.
    ///
    /// # Errors
    /// Out of memory (making the string the first time).
    pub fn key(&self, lua: &Lua, key: &'static str) -> mlua::Result<LuaString> {
        let at = (key.as_ptr() as usize, key.len());
        if let Some(s) = self.keys.borrow().get(&at) {
            return Ok(s.clone());
        }
        let s = lua.create_string(key)?;
        self.keys.borrow_mut().insert(at, s.clone());
        Ok(s)
    }

    /// The keys `"q"` and `"r"`, kept in the VM so reading a hex creates no string.
    #[must_use]
    pub fn hex_keys(&self) -> (&LuaString, &LuaString) {
        (&self.q, &self.r)
    }

    /// The items `t[1], t[2], ...` up to the first nil (as `sequence_values` visits them), each
    /// as JSON or `None` (see [`to_json`]).
    ///
    /// # Errors
    /// Only if the Lua stack cannot grow (out of memory).
    pub fn list_to_json(&self, lua: &Lua, t: &Table) -> mlua::Result<Vec<Option<Json>>> {
        // SAFETY: see the module header; `at` is the list.
        unsafe {
            read(lua, &Value::Table(t.clone()), |l, at| {
                let mut out = Vec::new();
                // A list with a foreign metatable is read raw, as `sequence_values` reads it.
                let list = real_index(l, at).unwrap_or(at);
                let mut i: ffi::lua_Integer = 1;
                loop {
                    ffi::lua_rawgeti(l, list, i);
                    let top = ffi::lua_gettop(l);
                    if ffi::lua_type(l, top) == ffi::LUA_TNIL {
                        break;
                    }
                    out.push(walk(l, top, 0));
                    ffi::lua_settop(l, top - 1);
                    i += 1;
                }
                out
            })
        }
    }

    /// How many items [`RawReader::list_to_json`] reads from `t` (`t[1], t[2], ...` up to the
    /// first nil), without reading them (a random bot counts every listed action but converts
    /// only the one it picks), and the positions (from 0) of the items that are userdata (a
    /// `choices` result may hold choice lists, [`crate::api::choices`]).
    ///
    /// # Errors
    /// Only if the Lua stack cannot grow (out of memory).
    pub fn sequence_items(&self, lua: &Lua, t: &Table) -> mlua::Result<(usize, Vec<usize>)> {
        // SAFETY: see the module header; `at` is the list.
        unsafe {
            read(lua, &Value::Table(t.clone()), |l, at| {
                let (mut n, mut userdata) = (0, Vec::new());
                let list = real_index(l, at).unwrap_or(at);
                let top = ffi::lua_gettop(l);
                loop {
                    let next = ffi::lua_Integer::try_from(n + 1).unwrap_or(ffi::lua_Integer::MAX);
                    let kind = ffi::lua_rawgeti(l, list, next);
                    ffi::lua_settop(l, top);
                    if kind == ffi::LUA_TNIL {
                        break;
                    }
                    if kind == ffi::LUA_TUSERDATA {
                        userdata.push(n);
                    }
                    n += 1;
                }
                (n, userdata)
            })
        }
    }
}

/// Runs `f` on `v` pushed on the stack of the thread mlua runs (`f` gets its absolute index),
/// then restores the stack height. No protected call: everything in this module raises
/// nothing (module header), and pushing a value mlua holds only moves a reference. Why: a
/// protected call through `exec_raw` cost about 1,000 instructions, more than reading a
/// listing's result.
///
/// # Errors
/// Only if the Lua stack cannot grow.
///
/// # Safety
/// `f` must keep to this module's rules: raw reads only, nothing that raises, and it leaves
/// A Lua value as JSON exactly as mlua's serde conversion (default options) gives it, or `None`
/// when it holds anything the walk leaves to serde (so errors keep serde's messages): nil is
/// null; integers stay integers; floats are floats (NaN and infinities become null); a table
/// with a border `n > 0` (`#t`, raw) is the array of `t[1..=n]` (holes are null, other keys
/// ignored); any other table is an object, which needs string keys. Left to serde: a table
/// with a foreign metatable, a non-string key in an object, a string that is not UTF-8,
/// functions, userdata, threads, nesting deeper than 64. Frozen tables read like any other.
///
/// # Errors
/// Only if the Lua stack cannot grow (out of memory).
pub fn to_json(lua: &Lua, v: &Value) -> mlua::Result<Option<Json>> {
    // SAFETY: see the module header; `at` is `v`.
    unsafe { read(lua, v, |l, at| walk(l, at, 0)) }
}

/// The one conversion of a Lua value to plain data: [`to_json`], and serde for whatever it
/// leaves (so every refusal is serde's message), prefixed with `what`.
///
/// # Errors
/// A value that is not plain data.
pub fn from_lua(lua: &Lua, v: Value, what: &dyn std::fmt::Display) -> mlua::Result<Json> {
    if let Some(j) = to_json(lua, &v)? {
        return Ok(j);
    }
    mlua::LuaSerdeExt::from_value::<Json>(lua, v).map_err(|e| {
        mlua::Error::runtime(format!(
            "{what}: values must be plain data (nil, booleans, numbers, strings, tables of \
             them): {e}"
        ))
    })
}

/// the stack at or above the height it got.
unsafe fn read<R>(
    lua: &Lua,
    v: &Value,
    f: impl FnOnce(*mut ffi::lua_State, c_int) -> R,
) -> mlua::Result<R> {
    // SAFETY: `lua_checkstack` reports failure instead of raising; `push_value` then has the
    // slot it needs (a reference is copied, nothing allocated); the height is restored.
    unsafe {
        lua.exec_raw_lua(|raw| {
            let l = raw.state();
            if ffi::lua_checkstack(l, 2) == 0 {
                return Err(mlua::Error::StackError);
            }
            // Restores the height however `f` ends (a panic unwinds through here).
            struct Height(*mut ffi::lua_State, c_int);
            impl Drop for Height {
                fn drop(&mut self) {
                    // SAFETY: the height this thread had before the push.
                    unsafe { ffi::lua_settop(self.0, self.1) };
                }
            }
            let height = Height(l, ffi::lua_gettop(l));
            raw.push_value(v)?;
            Ok(f(l, height.1 + 1))
        })
    }
}

unsafe extern "C-unwind" {
    /// `freeze(t)`: Hexforge's Lua patch (`vendor/lua-src/PATCHES.md`), marks `t` and its
    /// nested tables read-only and returns `t`.
    fn hexforge_freeze_f(l: *mut ffi::lua_State) -> c_int;
    /// `copy(t)`: Hexforge's Lua patch, a shallow writable copy of `t` with the same layout
    /// (nested tables shared).
    fn hexforge_copy_f(l: *mut ffi::lua_State) -> c_int;
}

/// The patched VM's `copy(t)` and `freeze(t)` as Lua functions (for the engine's own Lua: see
/// [`crate::api::plain::Templates`]; never put in a mod's environment).
///
/// # Errors
/// Out of memory.
pub fn frozen_tables(lua: &Lua) -> mlua::Result<(mlua::Function, mlua::Function)> {
    // SAFETY: all are ordinary `lua_CFunction`s of the vendored Lua (lbaselib.c): they check
    // their argument with `luaL_checktype` and raise Lua errors the usual way, inside Lua's own
    // protected call machinery (no Rust frame is crossed by a `longjmp`).
    unsafe {
        Ok((
            lua.create_c_function(hexforge_copy_f)?,
            lua.create_c_function(hexforge_freeze_f)?,
        ))
    }
}

/// The value at absolute index `idx` of `l` as JSON (`None`: left to serde), for a value that
/// already sits on the stack (a ctx method's argument, see [`crate::stack`]).
///
/// # Safety
/// `idx` must be a valid absolute index of `l`, on the thread running now.
pub(crate) unsafe fn json_at(l: *mut ffi::lua_State, idx: c_int) -> Option<Json> {
    // SAFETY: the caller's guarantee; `walk` raises no error and restores the stack height.
    unsafe { walk(l, idx, 0) }
}

/// The value at absolute index `idx` as JSON (`None`: left to serde).
unsafe fn walk(l: *mut ffi::lua_State, idx: c_int, depth: usize) -> Option<Json> {
    // SAFETY (whole function): `idx` is a valid absolute index; see the module header.
    unsafe {
        match ffi::lua_type(l, idx) {
            ffi::LUA_TNIL => Some(Json::Null),
            ffi::LUA_TBOOLEAN => Some(Json::Bool(ffi::lua_toboolean(l, idx) != 0)),
            ffi::LUA_TNUMBER => Some(if ffi::lua_isinteger(l, idx) != 0 {
                Json::from(ffi::lua_tointegerx(l, idx, std::ptr::null_mut()))
            } else {
                Json::from(ffi::lua_tonumberx(l, idx, std::ptr::null_mut()))
            }),
            ffi::LUA_TSTRING => string(l, idx).map(Json::String),
            ffi::LUA_TTABLE => {
                if depth >= MAX_DEPTH || ffi::lua_checkstack(l, 8) == 0 {
                    return None;
                }
                let top = ffi::lua_gettop(l);
                let out = real_index(l, idx).and_then(|t| table(l, t, depth));
                ffi::lua_settop(l, top);
                out
            }
            _ => None,
        }
    }
}

/// The string at `idx` (which must be a string, so nothing is converted) if it is UTF-8.
unsafe fn string(l: *mut ffi::lua_State, idx: c_int) -> Option<String> {
    // SAFETY: a string value, copied at once (see `str_at`).
    unsafe { str_at(l, idx).map(str::to_owned) }
}

/// One field of a record read by [`record_at`]: its value when it is a string, a boolean or a
/// list of strings, else `Other`. The strings are the Lua strings' own bytes (UTF-8 checked),
/// valid during the visit.
pub(crate) enum Field<'a> {
    Str(&'a str),
    Bool(bool),
    /// A table without a metatable and with a border above 0, whose items `1..=border` are
    /// all UTF-8 strings.
    Strings(Vec<&'a str>),
    Other,
}

/// Visits every field of the record at absolute index `at` (a table without a metatable, no
/// items, string keys in UTF-8), in `lua_next` order, stopping at the first `None` from
/// `visit`. `None` when `at` is no such record or `visit` said so. Why: a filter such as
/// `{ owner = ctx.active, fields = { "id", "hex" }, shared = true }` read as JSON first made a
/// map with a `String` per key and value; here nothing is copied that the caller does not keep.
///
/// # Safety
/// `at` must be a valid absolute index of `l`, on the thread running now.
pub(crate) unsafe fn record_at(
    l: *mut ffi::lua_State,
    at: c_int,
    mut visit: impl FnMut(&str, Field<'_>) -> Option<()>,
) -> Option<()> {
    // SAFETY (whole function): see the module header; the strings read stay anchored (keys and
    // values on the stack, list items in their list) and no collection can run.
    unsafe {
        if ffi::lua_type(l, at) != ffi::LUA_TTABLE || ffi::lua_checkstack(l, 4) == 0 {
            return None;
        }
        let top = ffi::lua_gettop(l);
        let out = (|| {
            let t = real_index(l, at)?;
            if ffi::lua_rawlen(l, t) > 0 {
                return None;
            }
            ffi::lua_pushnil(l);
            while ffi::lua_next(l, t) != 0 {
                let v = ffi::lua_gettop(l);
                if ffi::lua_type(l, v - 1) != ffi::LUA_TSTRING {
                    return None;
                }
                let key = str_at(l, v - 1)?;
                let field = match ffi::lua_type(l, v) {
                    ffi::LUA_TSTRING => str_at(l, v).map_or(Field::Other, Field::Str),
                    ffi::LUA_TBOOLEAN => Field::Bool(ffi::lua_toboolean(l, v) != 0),
                    ffi::LUA_TTABLE => strings_at(l, v).map_or(Field::Other, Field::Strings),
                    _ => Field::Other,
                };
                visit(key, field)?;
                ffi::lua_settop(l, v - 1);
            }
            Some(())
        })();
        ffi::lua_settop(l, top);
        out
    }
}

/// The bytes of the string at `idx`, if it is a string (numbers are not converted), borrowed
/// from Lua: the one place Hexforge reads a Lua string's bytes.
///
/// # Safety
/// `idx` must be an acceptable index of `l`; the string must stay anchored (on the stack or in
/// an anchored table) while the slice is used, and no collection may run meanwhile.
pub(crate) unsafe fn bytes_at<'a>(l: *mut ffi::lua_State, idx: c_int) -> Option<&'a [u8]> {
    // SAFETY: `lua_tolstring` on a string converts nothing and raises nothing; the caller keeps
    // the string where it is.
    unsafe {
        if ffi::lua_type(l, idx) != ffi::LUA_TSTRING {
            return None;
        }
        let mut len = 0usize;
        let p = ffi::lua_tolstring(l, idx, &mut len);
        (!p.is_null()).then(|| std::slice::from_raw_parts(p.cast::<u8>(), len))
    }
}

/// The string at `idx` if it is one in UTF-8, borrowed from Lua (see [`bytes_at`]).
unsafe fn str_at<'a>(l: *mut ffi::lua_State, idx: c_int) -> Option<&'a str> {
    // SAFETY: the caller's guarantees (its strings stay anchored, see `record_at`).
    unsafe { std::str::from_utf8(bytes_at(l, idx)?).ok() }
}

/// The items `1..=border` of the list at `idx` when it has no metatable, a border above 0 and
/// only UTF-8 strings there (see [`Field::Strings`]).
unsafe fn strings_at<'a>(l: *mut ffi::lua_State, idx: c_int) -> Option<Vec<&'a str>> {
    // SAFETY: `idx` is a table; the items stay anchored in it; the height is restored.
    unsafe {
        let top = ffi::lua_gettop(l);
        let out = (|| {
            let t = real_index(l, idx)?;
            let len = ffi::lua_rawlen(l, t);
            if len == 0 {
                return None;
            }
            let mut out = Vec::with_capacity(len.min(16));
            for i in 1..=len {
                let kind = ffi::lua_rawgeti(l, t, ffi::lua_Integer::try_from(i).ok()?);
                let item = (kind == ffi::LUA_TSTRING).then(|| str_at(l, -1)).flatten();
                ffi::lua_settop(l, -2);
                out.push(item?);
            }
            Some(out)
        })();
        ffi::lua_settop(l, top);
        out
    }
}

/// The absolute index of the table to read for the table at `idx`: itself when it has no
/// metatable, `None` otherwise. May leave values pushed; callers restore the stack height.
unsafe fn real_index(l: *mut ffi::lua_State, idx: c_int) -> Option<c_int> {
    // SAFETY: `idx` is a valid index; `lua_getmetatable` pushes at most one value.
    unsafe { (ffi::lua_getmetatable(l, idx) == 0).then_some(idx) }
}

/// The plain table at absolute index `t`: an array when its border is above 0, else an object
/// with string keys.
unsafe fn table(l: *mut ffi::lua_State, t: c_int, depth: usize) -> Option<Json> {
    // SAFETY: `t` is a table; `lua_next` only ever gets back the key it gave.
    unsafe {
        let len = ffi::lua_rawlen(l, t);
        if len > 0 {
            let mut out = Vec::with_capacity(len.min(1 << 16));
            for i in 1..=len {
                ffi::lua_rawgeti(l, t, i as ffi::lua_Integer);
                let top = ffi::lua_gettop(l);
                let x = walk(l, top, depth + 1);
                ffi::lua_settop(l, top - 1);
                out.push(x?);
            }
            return Some(Json::Array(out));
        }
        let mut out = serde_json::Map::new();
        ffi::lua_pushnil(l);
        while ffi::lua_next(l, t) != 0 {
            let top = ffi::lua_gettop(l);
            if ffi::lua_type(l, top - 1) != ffi::LUA_TSTRING {
                return None;
            }
            let k = string(l, top - 1)?;
            let x = walk(l, top, depth + 1)?;
            ffi::lua_settop(l, top - 1);
            out.insert(k, x);
        }
        Some(Json::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::plain::Templates;
    use crate::{Limits, Sandbox};
    use mlua::LuaSerdeExt;

    /// Values chosen to hit every branch: arrays with holes, empty tables, floats, NaN, deep
    /// nesting, non-string keys, functions, non-UTF-8 strings, foreign metatables.
    const CASES: &[&str] = &[
        "return nil",
        "return true",
        "return 3",
        "return 2.5",
        "return 0/0",
        "return 1/0",
        "return 'text'",
        "return '\\255'",
        "return {}",
        "return { 1, 2, 3 }",
        "return { 1, nil, 3 }",
        "return { [1] = 'a', [2] = 'b', x = 'ignored' }",
        "return { q = 1, r = -2, name = 'x', list = { { a = 1 }, { b = { c = false } } } }",
        "return { [true] = 1 }",
        "return { 1.5, -0.0, 2^63 }",
        "return { f = function() end }",
        "return setmetatable({}, {})",
        "local t = {} for i = 1, 70 do t = { t } end return t",
        "return { ['\\255'] = 1 }",
    ];

    #[test]
    fn kept_keys_are_the_strings_they_name_and_are_made_once() {
        let sb = Sandbox::new(Limits::default()).unwrap();
        sb.guarded(|lua| {
            let r = RawReader::new(lua)?;
            let long: &'static str = "speedy";
            // A literal that is a prefix of another may share its address: the length tells.
            let short: &'static str = &long[..5];
            let a = r.key(lua, long)?;
            let b = r.key(lua, short)?;
            assert_eq!(a.to_str()?, "speedy");
            assert_eq!(b.to_str()?, "speed");
            assert_eq!(r.keys.borrow().len(), 2);
            assert_eq!(r.key(lua, long)?.to_str()?, "speedy");
            assert_eq!(r.keys.borrow().len(), 2, "kept, not made again");
            Ok(())
        })
        .unwrap();
    }

    #[test]
    fn reads_plain_values_as_serde_does_and_leaves_the_rest_to_it() {
        let sb = Sandbox::new(Limits::default()).unwrap();
        sb.guarded(|lua| {
            // Left to serde: a non-string key, a function, a foreign metatable, nesting past 64,
            // a key that is not UTF-8 (and a string that is not, read by serde as bytes).
            let left = [
                "return '\\255'",
                "return { [true] = 1 }",
                "return { f = function() end }",
                "return setmetatable({}, {})",
                "local t = {} for i = 1, 70 do t = { t } end return t",
                "return { ['\\255'] = 1 }",
            ];
            for src in CASES {
                let v: Value = lua.load(*src).eval()?;
                let ours = to_json(lua, &v)?;
                if left.contains(src) {
                    assert_eq!(ours, None, "{src}");
                } else {
                    assert_eq!(ours, Some(lua.from_value::<Json>(v)?), "{src}");
                }
            }
            Ok(())
        })
        .unwrap();
    }

    #[test]
    fn lists_stop_at_the_first_nil_and_mark_what_serde_must_read() {
        let sb = Sandbox::new(Limits::default()).unwrap();
        sb.guarded(|lua| {
            let raw = RawReader::new(lua)?;
            let t: Table = lua
                .load("return { { a = 1 }, { f = print }, 'x', nil, { b = 2 } }")
                .eval()?;
            let got = raw.list_to_json(lua, &t)?;
            assert_eq!(
                got,
                vec![
                    Some(serde_json::json!({ "a": 1 })),
                    None,
                    Some(serde_json::json!("x"))
                ]
            );
            Ok(())
        })
        .unwrap();
    }

    #[test]
    fn sequence_lengths_count_what_lists_read() {
        let sb = Sandbox::new(Limits::default()).unwrap();
        sb.guarded(|lua| {
            let raw = RawReader::new(lua)?;
            let tpl = Templates::new(lua)?;
            for src in [
                "return {}",
                "return { x = 1 }",
                "return { 1, 2, 3 }",
                "return { { a = 1 }, { f = print }, 'x', nil, { b = 2 } }",
                "return { nil, 2 }",
                "return setmetatable({ 1, 2 }, { __index = function() return 0 end })",
                "local t = {} for i = 1, 300 do t[i] = { i = i } end return t",
            ] {
                let t: Table = lua.load(src).eval()?;
                let n = raw.sequence_items(lua, &t)?.0;
                assert_eq!(n, raw.list_to_json(lua, &t)?.len(), "{src}");
                assert_eq!(n, t.sequence_values::<Value>().count(), "{src}");
            }
            let view = tpl.share(&tpl.freeze_json(lua, &serde_json::json!([1, 2, 3, 4]))?)?;
            assert_eq!(raw.sequence_items(lua, &view)?.0, 4);
            Ok(())
        })
        .unwrap();
    }

    #[test]
    fn shared_snapshots_read_as_plain_tables() {
        let sb = Sandbox::new(Limits::default()).unwrap();
        sb.guarded(|lua| {
            let raw = RawReader::new(lua)?;
            let tpl = Templates::new(lua)?;
            let j = serde_json::json!({ "hull": 4, "at": { "q": 1, "r": 2 }, "w": [{ "n": 1 }, { "n": 2 }] });
            let view = tpl.share(&tpl.freeze_json(lua, &j)?)?;
            assert_eq!(to_json(lua, &Value::Table(view.clone()))?, Some(j.clone()));
            let list = lua.create_sequence_from([view.clone(), view])?;
            assert_eq!(raw.list_to_json(lua, &list)?, vec![Some(j.clone()), Some(j)]);
            Ok(())
        })
        .unwrap();
    }
}
