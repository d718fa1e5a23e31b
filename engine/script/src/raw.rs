//! Plain Lua data read straight off the Lua stack into JSON: the one Lua -> JSON conversion
//! ([`from_lua`], with serde only for what the walk leaves), and records read in place. Safe
//! code over `crate::ffi::Stack`.
//!
//! Why it exists: every legal action a mod lists crosses into Rust as a small table (`{ piece =
//! 3, to = { q = 1, r = 2 } }`), and a listing holds hundreds of them. Read through mlua's safe
//! API each field costs a registry reference for every string and table (created, moved between
//! threads, dropped), which made converting choices a tenth of a whole game. Here one call walks
//! the whole value on the stack mlua runs on, without a protected call, since reading raises
//! nothing.
//!
//! What it gives is exactly mlua's serde conversion for plain data, `None` where it leaves a
//! value to serde: functions, userdata, a non-string key in an object, a string that is not
//! UTF-8, a table with a metatable, nesting deeper than 64 (shared snapshots are frozen plain
//! tables and read like any other). [`from_lua`] then takes the serde path, so every error
//! message is serde's.
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

use crate::ffi::{Stack, kind, read};
use mlua::{Lua, LuaString, Table, Value};
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
    /// as JSON or `None` (see [`to_json`]). A list with a foreign metatable is read raw.
    ///
    /// # Errors
    /// Only if the Lua stack cannot grow (out of memory).
    pub fn list_to_json(&self, lua: &Lua, t: &Table) -> mlua::Result<Vec<Option<Json>>> {
        read(lua, &Value::Table(t.clone()), |s, at| {
            s.table(at, false, |s, t| {
                let mut out = Vec::new();
                while s.geti(t, out.len() as i64 + 1)? != kind::NIL {
                    let top = s.top();
                    out.push(walk(s, top));
                    s.pop_to(top - 1);
                }
                Some(out)
            })?
        })?
        .ok_or(mlua::Error::StackError)
    }

    /// How many items [`RawReader::list_to_json`] reads from `t` (`t[1], t[2], ...` up to the
    /// first nil), without reading them (a random bot counts every listed action but converts
    /// only the one it picks), and the positions (from 0) of the items that are userdata (a
    /// `choices` result may hold choice lists, [`crate::api::choices`]).
    ///
    /// # Errors
    /// Only if the Lua stack cannot grow (out of memory).
    pub fn sequence_items(&self, lua: &Lua, t: &Table) -> mlua::Result<(usize, Vec<usize>)> {
        read(lua, &Value::Table(t.clone()), |s, at| {
            s.table(at, false, |s, t| {
                let (mut n, mut userdata) = (0, Vec::new());
                let top = s.top();
                loop {
                    let kind = s.geti(t, i64::try_from(n + 1).unwrap_or(i64::MAX))?;
                    s.pop_to(top);
                    match kind {
                        kind::NIL => return Some((n, userdata)),
                        kind::USERDATA => userdata.push(n),
                        _ => {}
                    }
                    n += 1;
                }
            })?
        })?
        .ok_or(mlua::Error::StackError)
    }
}

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
    read(lua, v, walk)
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

/// The value at `at` as JSON (`None`: left to serde), see [`to_json`].
pub(crate) fn walk(s: &mut Stack<'_>, at: c_int) -> Option<Json> {
    walk_at(s, at, 0)
}

fn walk_at(s: &mut Stack<'_>, at: c_int, depth: usize) -> Option<Json> {
    match s.kind(at) {
        kind::NIL => Some(Json::Null),
        kind::BOOLEAN => Some(Json::Bool(s.truthy(at))),
        kind::NUMBER => Some(match s.integer(at) {
            Some(i) => Json::from(i),
            None => Json::from(s.float(at)?),
        }),
        kind::STRING => str_at(s, at).map(|x| Json::String(x.to_owned())),
        kind::TABLE if depth < MAX_DEPTH => {
            let top = s.top();
            let out = s.table(at, true, |s, t| table(s, t, depth)).flatten();
            s.pop_to(top);
            out
        }
        _ => None,
    }
}

/// A plain table: an array when its border is above 0, else an object with string keys.
fn table(s: &mut Stack<'_>, t: crate::ffi::Table<'_>, depth: usize) -> Option<Json> {
    let len = s.len(t);
    if len > 0 {
        let mut out = Vec::with_capacity(len.min(1 << 16));
        for i in 1..=len {
            s.geti(t, i as i64)?;
            let top = s.top();
            let x = walk_at(s, top, depth + 1);
            s.pop_to(top - 1);
            out.push(x?);
        }
        return Some(Json::Array(out));
    }
    let mut out = serde_json::Map::new();
    s.pairs(t, |s, k, v| {
        if s.kind(k) != kind::STRING {
            return None;
        }
        let key = str_at(s, k)?.to_owned();
        out.insert(key, walk_at(s, v, depth + 1)?);
        Some(())
    })?;
    Some(Json::Object(out))
}

/// The string at `at` when it is UTF-8, borrowed from Lua.
fn str_at<'a>(s: &'a Stack<'_>, at: c_int) -> Option<&'a str> {
    std::str::from_utf8(s.bytes(at)?).ok()
}

/// One field of a record read by [`record`]: its value when it is a string, a boolean or a
/// list of strings, else `Other`. The strings are the Lua strings' own bytes (UTF-8 checked),
/// valid during the visit.
pub(crate) enum Field<'a> {
    Str(&'a str),
    Bool(bool),
    /// A table without a metatable and with a border from 1 to 32, whose items `1..=border` are
    /// all UTF-8 strings.
    Strings(Vec<&'a str>),
    Other,
}

/// Visits every field of the record at `at` (a table without a metatable, no items, string keys
/// in UTF-8), in `lua_next` order, stopping at the first `None` from `visit`. `None` when `at` is
/// no such record or `visit` said so. Why: a filter such as `{ owner = ctx.active, fields = {
/// "id", "hex" }, shared = true }` read as JSON first made a map with a `String` per key and
/// value; here nothing is copied that the caller does not keep.
pub(crate) fn record(
    s: &mut Stack<'_>,
    at: c_int,
    mut visit: impl FnMut(&str, Field<'_>) -> Option<()>,
) -> Option<()> {
    s.table(at, true, |s, t| {
        if s.len(t) > 0 {
            return None;
        }
        s.pairs(t, |s, k, v| {
            if s.kind(k) != kind::STRING {
                return None;
            }
            // A list's items are pushed, so they stay while the visit borrows them.
            let items = match s.kind(v) {
                kind::TABLE => push_strings(s, v),
                _ => None,
            };
            let key = str_at(s, k)?;
            let field = match s.kind(v) {
                kind::STRING => str_at(s, v).map_or(Field::Other, Field::Str),
                kind::BOOLEAN => Field::Bool(s.truthy(v)),
                kind::TABLE => items
                    .and_then(|r| r.map(|i| str_at(s, i)).collect::<Option<Vec<_>>>())
                    .map_or(Field::Other, Field::Strings),
                _ => Field::Other,
            };
            visit(key, field)
        })
    })?
}

/// Pushes the items `1..=border` of the list at `at` when it has no metatable, a border from 1
/// to 32 and only strings there; gives their slots.
fn push_strings(s: &mut Stack<'_>, at: c_int) -> Option<std::ops::RangeInclusive<c_int>> {
    s.table(at, true, |s, t| {
        let len = s.len(t);
        if len == 0 || len > 32 {
            return None;
        }
        let from = s.top() + 1;
        for i in 1..=len {
            if s.geti(t, i as i64)? != kind::STRING {
                return None;
            }
        }
        Some(from..=s.top())
    })?
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
    fn the_stack_handle_reads_only_what_is_there_and_pops_nothing_it_was_lent() {
        let sb = Sandbox::new(Limits::default()).unwrap();
        sb.guarded(|lua| {
            let v: Value = lua.load("return { 'a', 'b', x = 1 }").eval()?;
            let other: Value = lua.load("return { 1 }").eval()?;
            crate::ffi::read(lua, &v, |s, at| {
                // Indices outside the stack read as nothing.
                assert_eq!(s.kind(0), kind::NONE);
                assert_eq!(s.kind(at + 1), kind::NONE);
                assert_eq!(s.integer(-1), None);
                // The lent value stays whatever is popped.
                s.pop_to(0);
                assert_eq!((s.top(), s.kind(at)), (at, kind::TABLE));
                s.table(at, true, |s, t| {
                    assert_eq!(s.len(t), 2);
                    assert_eq!(s.geti(t, 2), Some(kind::STRING));
                    assert_eq!(str_at(s, s.top()), Some("b"));
                    // A table token works only on the stack of the table it was made for: here
                    // a second read on the same thread sees it (its slot is pinned below).
                    crate::ffi::read(lua, &other, |s2, _| assert_eq!(s2.len(t), 2)).unwrap();
                    let mut n = 0;
                    s.pairs(t, |_, _, _| {
                        n += 1;
                        Some(())
                    });
                    assert_eq!(n, 3);
                })
                .unwrap();
                assert_eq!(s.top(), at + 1, "geti's value stays until popped");
            })?;
            Ok(())
        })
        .unwrap();
    }

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
