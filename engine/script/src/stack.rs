//! A ctx method's arguments, read where they sit on the calling Lua stack ([`Args`], made by
//! [`crate::ffi`]), and its results ([`Ret`]).
//!
//! Why: a mod calls ctx methods hundreds of times per game action, and through mlua's generic
//! conversion every call cost about 3,000 instructions before its body did anything (argument
//! lists, a registry reference per table or string argument, owned copies of strings). Here each
//! argument is read in the form the body asks for: numbers and strings in place, the ctx by its
//! address, a hex or a filter walked in place, and only a table a body wants as an mlua
//! [`Value`] gets a reference.

use crate::ffi::{Stack, kind};
use crate::raw::Field;
use mlua::{Lua, MultiValue, Value};
use serde_json::Value as Json;

pub(crate) use crate::ffi::{Args, Ret};

impl Args {
    /// `self` as a value (for the messages of a wrong call).
    pub(crate) fn this(&self, lua: &Lua) -> mlua::Result<Value> {
        self.value(lua, None)
    }

    /// Argument `i` as a value (nil when not passed). Numbers, booleans and nil are read in
    /// place; strings, tables and the rest get a reference.
    pub(crate) fn get(&self, lua: &Lua, i: usize) -> mlua::Result<Value> {
        self.value(lua, Some(i))
    }

    /// Argument `i` as hex coordinates `(q, r)` when it is a small table without a metatable whose
    /// `q` and `r` are integers (`None`: anything else, for the general reading and its errors).
    /// Why: nearly every method call passes a hex, and a reference to its table cost more than
    /// the rest of the call.
    pub(crate) fn hex_coords(&self, i: usize) -> Option<(i64, i64)> {
        let at = self.slot(Some(i))?;
        self.with_stack(|s| hex_coords(s, at))
    }

    /// The Lua type name of argument `i` (`"nil"` when not passed), for messages.
    pub(crate) fn type_name(&self, i: usize) -> &'static str {
        match self.kind(Some(i)) {
            kind::NIL | kind::NONE => "nil",
            kind::BOOLEAN => "boolean",
            kind::NUMBER => "number",
            kind::STRING => "string",
            kind::TABLE => "table",
            kind::FUNCTION => "function",
            kind::USERDATA | kind::LIGHTUSERDATA => "userdata",
            kind::THREAD => "thread",
            _ => "other",
        }
    }

    /// Argument `i` as JSON when it is plain data that [`crate::raw`] reads directly (`None`:
    /// left to the serde path, which gives the errors).
    pub(crate) fn json(&self, i: usize) -> Option<Json> {
        match self.slot(Some(i)) {
            Some(at) => self.with_stack(|s| crate::raw::walk(s, at)),
            None => Some(Json::Null),
        }
    }

    /// Visits the fields of argument `i` when it is a plain record (see [`crate::raw::record`]);
    /// `None` when it is not one or `visit` said so.
    pub(crate) fn record(
        &self,
        i: usize,
        visit: impl FnMut(&str, Field<'_>) -> Option<()>,
    ) -> Option<()> {
        let at = self.slot(Some(i))?;
        self.with_stack(|s| crate::raw::record(s, at, visit))
    }

    /// The arguments after `self` as a list (for the few methods that take many).
    pub(crate) fn to_multi(&self, lua: &Lua) -> mlua::Result<MultiValue> {
        let mut out = MultiValue::with_capacity(self.count());
        for i in 0..self.count() {
            out.push_back(self.get(lua, i)?);
        }
        Ok(out)
    }
}

/// The hex coordinates `(q, r)` of the value at `at` when it is a table without a metatable of at
/// most eight fields, whose `q` and `r` are integers (see [`Args::hex_coords`]).
fn hex_coords(s: &mut Stack<'_>, at: std::os::raw::c_int) -> Option<(i64, i64)> {
    /// More fields than this: not worth walking here (the general reading takes it).
    const MAX_ENTRIES: usize = 8;
    s.table(at, true, |s, t| {
        let (mut q, mut r, mut seen) = (None, None, 0);
        s.pairs(t, |s, k, v| {
            seen += 1;
            if seen > MAX_ENTRIES {
                return None;
            }
            match s.bytes(k) {
                Some(b"q") => q = Some(s.integer(v)?),
                Some(b"r") => r = Some(s.integer(v)?),
                _ => {}
            }
            Some(())
        })?;
        Some((q?, r?))
    })?
}
