//! A ctx method's arguments and results, read and pushed on the Lua stack itself; and plain
//! data (JSON) built into new Lua tables in one protected call ([`json_table`]).
//!
//! Why: a mod calls ctx methods hundreds of times per game action, and through mlua's generic
//! conversion every call cost about 3,000 instructions before its body did anything (argument
//! lists, a registry reference per table or string argument, owned copies of strings). [`Args`]
//! remembers where the arguments sit on the calling Lua stack and reads each one in the form the
//! body asks for: numbers and strings in place, the ctx by its address, and only a table a body
//! wants as an mlua [`Value`] gets a reference. [`Ret`] pushes one or two results without a list.
//!
//! Why this is sound (the `unsafe` below relies on all of it):
//! - an [`Args`] is made by mlua's callback wrapper from the arguments it was called with
//!   ([`FromLuaMulti::from_stack_multi`]) and handed to the method's body, which uses it only
//!   during that call: the arguments stay in their stack slots until the method returns (mlua
//!   pushes the results above them, and every mlua operation in between restores the stack height
//!   it found). The stack may be reallocated while it grows, so only indices are kept, never
//!   pointers into it;
//! - reading an argument never raises a Lua error and never allocates in Lua: `lua_type`,
//!   `lua_toboolean`, `lua_tointegerx`, `lua_tonumberx`, `lua_topointer`, `lua_getmetatable`,
//!   `lua_next` with the keys it gave, and `lua_tolstring` only on values that already are
//!   strings (so nothing is converted); the bytes are copied out at once. A string's bytes
//!   cannot move while it sits in an argument slot or on the stack;
//! - a table or other reference argument becomes a [`Value`] through mlua's own [`RawLua::pop`],
//!   after `lua_checkstack` (which reports failure instead of raising) and `lua_pushvalue` onto the
//!   state mlua is running (the same one, within a callback);
//! - results are pushed with [`RawLua::push_value`] after `lua_checkstack`, as mlua's own
//!   conversion does;
//! - [`json_table`] builds inside `exec_raw`'s protected call: an out-of-memory error raised
//!   there unwinds only past frames of the walk, which own nothing (borrowed JSON, integers).

#![allow(unsafe_code)]

use crate::layout::{PRESIZED, RowCell, after_table, is_hex};
use mlua::state::RawLua;
use mlua::{FromLuaMulti, IntoLuaMulti, Lua, MultiValue, Value, ffi};
use serde_json::Value as Json;
use std::os::raw::c_int;

/// The arguments of one ctx method call, where they sit on the Lua stack: `self` (the ctx) and
/// the rest, numbered from 0 after `self` as the method bodies count them.
pub(crate) struct Args {
    l: *mut ffi::lua_State,
    /// The absolute index of `self`.
    base: c_int,
    /// How many values were passed, `self` included.
    n: c_int,
}

impl FromLuaMulti for Args {
    fn from_lua_multi(_: MultiValue, _: &Lua) -> mlua::Result<Self> {
        // Only mlua's callback wrapper makes Args (from the stack); nothing converts a list.
        Err(mlua::Error::runtime(
            "ctx method arguments are read from the Lua stack only",
        ))
    }

    unsafe fn from_stack_multi(nvals: c_int, lua: &RawLua) -> mlua::Result<Self> {
        let l = lua.state();
        // SAFETY: called by mlua with the callback's arguments as the top `nvals` values.
        let top = unsafe { ffi::lua_gettop(l) };
        Ok(Args {
            l,
            base: top - nvals + 1,
            n: nvals,
        })
    }
}

impl Args {
    /// The absolute index of argument `i` (0 = the first after `self`), if it was passed.
    fn slot(&self, i: usize) -> Option<c_int> {
        let i = c_int::try_from(i).ok()?.checked_add(1)?;
        (i < self.n).then_some(self.base + i)
    }

    /// The Lua type of the value at `slot` (`LUA_TNONE` when not passed).
    fn kind_at(&self, slot: Option<c_int>) -> c_int {
        match slot {
            // SAFETY: a valid index of a live argument (module header).
            Some(at) => unsafe { ffi::lua_type(self.l, at) },
            None => ffi::LUA_TNONE,
        }
    }

    /// The address of `self` when it is a table (how sessions know their ctx, see
    /// [`crate::rules::session`]).
    pub(crate) fn this_address(&self) -> Option<usize> {
        let at = (self.n >= 1).then_some(self.base);
        if self.kind_at(at) != ffi::LUA_TTABLE {
            return None;
        }
        // SAFETY: a table in a live argument slot.
        Some(unsafe { ffi::lua_topointer(self.l, self.base) } as usize)
    }

    /// `self` as a value (for the messages of a wrong call).
    pub(crate) fn this(&self, lua: &Lua) -> mlua::Result<Value> {
        self.value_at(lua, (self.n >= 1).then_some(self.base))
    }

    /// Argument `i` as a value (nil when not passed). Numbers, booleans and nil are read in
    /// place; strings, tables and the rest get a reference.
    pub(crate) fn get(&self, lua: &Lua, i: usize) -> mlua::Result<Value> {
        self.value_at(lua, self.slot(i))
    }

    fn value_at(&self, lua: &Lua, slot: Option<c_int>) -> mlua::Result<Value> {
        let (Some(at), kind) = (slot, self.kind_at(slot)) else {
            return Ok(Value::Nil);
        };
        // SAFETY (whole block): `at` is a live argument slot (module header).
        unsafe {
            match kind {
                ffi::LUA_TNIL | ffi::LUA_TNONE => Ok(Value::Nil),
                ffi::LUA_TBOOLEAN => Ok(Value::Boolean(ffi::lua_toboolean(self.l, at) != 0)),
                ffi::LUA_TNUMBER if ffi::lua_isinteger(self.l, at) != 0 => Ok(Value::Integer(
                    ffi::lua_tointegerx(self.l, at, std::ptr::null_mut()),
                )),
                ffi::LUA_TNUMBER => Ok(Value::Number(ffi::lua_tonumberx(
                    self.l,
                    at,
                    std::ptr::null_mut(),
                ))),
                _ => lua.exec_raw_lua(|raw| {
                    let to = raw.state();
                    if ffi::lua_checkstack(to, 2) == 0 || ffi::lua_checkstack(self.l, 1) == 0 {
                        return Err(mlua::Error::StackError);
                    }
                    ffi::lua_pushvalue(self.l, at);
                    if to != self.l {
                        ffi::lua_xmove(self.l, to, 1);
                    }
                    raw.pop::<Value>()
                }),
            }
        }
    }

    /// Argument `i` when it is a string (nothing else is converted to one), as mlua's
    /// `to_string_lossy` gives it.
    pub(crate) fn string(&self, i: usize) -> Option<String> {
        let at = self.slot(i)?;
        // SAFETY: a live argument slot: nothing is converted, and the bytes are copied before
        // any other Lua call.
        let bytes = unsafe { crate::raw::bytes_at(self.l, at) }?;
        Some(String::from_utf8_lossy(bytes).into_owned())
    }

    /// Argument `i` as hex coordinates `(q, r)` when it is a small table without a metatable whose
    /// `q` and `r` are integers (`None`: anything else, for the general reading and its errors).
    /// Why: nearly every method call passes a hex, and a reference to its table cost more than
    /// the rest of the call. The table is walked with `lua_next` (only keys it gave back, so it
    /// raises nothing; no string is made and no collection step can run).
    pub(crate) fn hex_coords(&self, i: usize) -> Option<(i64, i64)> {
        let at = self.slot(i)?;
        // SAFETY: a live argument slot of the running thread.
        unsafe { hex_coords_at(self.l, at) }
    }

    /// The Lua type name of argument `i` (`"nil"` when not passed), for messages.
    pub(crate) fn type_name(&self, i: usize) -> &'static str {
        match self.kind_at(self.slot(i)) {
            ffi::LUA_TNIL | ffi::LUA_TNONE => "nil",
            ffi::LUA_TBOOLEAN => "boolean",
            ffi::LUA_TNUMBER => "number",
            ffi::LUA_TSTRING => "string",
            ffi::LUA_TTABLE => "table",
            ffi::LUA_TFUNCTION => "function",
            ffi::LUA_TUSERDATA | ffi::LUA_TLIGHTUSERDATA => "userdata",
            ffi::LUA_TTHREAD => "thread",
            _ => "other",
        }
    }

    /// Argument `i` as JSON when it is plain data that [`crate::raw`] reads directly (`None`:
    /// left to the serde path, which gives the errors).
    pub(crate) fn json(&self, i: usize) -> Option<Json> {
        match self.slot(i) {
            // SAFETY: a live argument slot; the walk raises no error and restores the stack.
            Some(at) => unsafe { crate::raw::json_at(self.l, at) },
            None => Some(Json::Null),
        }
    }

    /// Visits the fields of argument `i` when it is a plain record (see
    /// [`crate::raw::record_at`]); `None` when it is not one or `visit` said so.
    pub(crate) fn record(
        &self,
        i: usize,
        visit: impl FnMut(&str, crate::raw::Field<'_>) -> Option<()>,
    ) -> Option<()> {
        let at = self.slot(i)?;
        // SAFETY: a live argument slot of the running thread; the reader raises nothing and
        // restores the stack.
        unsafe { crate::raw::record_at(self.l, at, visit) }
    }

    /// The arguments after `self` as a list (for the few methods that take many).
    pub(crate) fn to_multi(&self, lua: &Lua) -> mlua::Result<MultiValue> {
        let count = usize::try_from(self.n.max(1) - 1).unwrap_or(0);
        let mut out = MultiValue::with_capacity(count);
        for i in 0..count {
            out.push_back(self.get(lua, i)?);
        }
        Ok(out)
    }
}

/// The hex coordinates `(q, r)` of the value at absolute index `at` when it is a small table
/// without a metatable whose `q` and `r` are integers (see [`Args::hex_coords`]).
///
/// # Safety
/// `at` must be a valid absolute index of `l`, the thread running now.
pub(crate) unsafe fn hex_coords_at(l: *mut ffi::lua_State, at: c_int) -> Option<(i64, i64)> {
    /// More entries than this: not worth walking here (the general reading takes it).
    const MAX_ENTRIES: usize = 8;
    // SAFETY: a valid index (the caller's guarantee); `lua_next` runs only on a table and only
    // ever gets back the key it gave (`lua_tolstring` on a string key converts nothing); the
    // stack height is restored on every path.
    unsafe {
        if ffi::lua_type(l, at) != ffi::LUA_TTABLE || ffi::lua_checkstack(l, 3) == 0 {
            return None;
        }
        let top = ffi::lua_gettop(l);
        if ffi::lua_getmetatable(l, at) != 0 {
            ffi::lua_settop(l, top);
            return None;
        }
        let (mut q, mut r, mut seen) = (None, None, 0);
        ffi::lua_pushnil(l);
        while ffi::lua_next(l, at) != 0 {
            seen += 1;
            if seen > MAX_ENTRIES {
                ffi::lua_settop(l, top);
                return None;
            }
            if let Some(key) = crate::raw::bytes_at(l, -2)
                && (key == b"q" || key == b"r")
            {
                if ffi::lua_isinteger(l, -1) == 0 {
                    ffi::lua_settop(l, top);
                    return None;
                }
                let v = ffi::lua_tointegerx(l, -1, std::ptr::null_mut());
                if key == b"q" {
                    q = Some(v);
                } else {
                    r = Some(v);
                }
            }
            // Pop the value, keep the key for the next step.
            ffi::lua_settop(l, -2);
        }
        ffi::lua_settop(l, top);
        Some((q?, r?))
    }
}

/// A ctx method's results: one or two values (pushed without a list), or any number.
pub(crate) enum Ret {
    One(Value),
    Two(Value, Value),
    Many(MultiValue),
}

impl IntoLuaMulti for Ret {
    fn into_lua_multi(self, _: &Lua) -> mlua::Result<MultiValue> {
        Ok(match self {
            Ret::One(v) => MultiValue::from_iter([v]),
            Ret::Two(a, b) => MultiValue::from_iter([a, b]),
            Ret::Many(m) => m,
        })
    }

    unsafe fn push_into_stack_multi(self, lua: &RawLua) -> mlua::Result<c_int> {
        let n = match &self {
            Ret::One(_) => 1,
            Ret::Two(..) => 2,
            Ret::Many(m) => m.len(),
        };
        let count = c_int::try_from(n).map_err(|_| mlua::Error::StackError)?;
        // SAFETY: mlua's callback wrapper pushes results onto the callback's state, as here.
        unsafe {
            if ffi::lua_checkstack(lua.state(), count + 2) == 0 {
                return Err(mlua::Error::StackError);
            }
            match &self {
                Ret::One(v) => lua.push_value(v)?,
                Ret::Two(a, b) => {
                    lua.push_value(a)?;
                    lua.push_value(b)?;
                }
                Ret::Many(m) => {
                    for v in m {
                        lua.push_value(v)?;
                    }
                }
            }
        }
        Ok(count)
    }
}

/// A JSON array or object as a new Lua table (what [`crate::api::plain::json_to_lua`] makes),
/// built in one protected call through the C API. Why: through mlua every nested table and
/// every string was a protected call of its own (about a thousand instructions each), and an
/// action's params (a move with its path: seven tables) are made into Lua for every apply.
///
/// The tables are made exactly as mlua's `create_table_from` makes them (sized for the
/// non-null members, then filled in order with `rawset`), so they have the same layout and
/// `pairs` visits their keys in the same order.
///
/// # Errors
/// Out of memory, or nesting too deep for the Lua stack (both raised inside the protected
/// call; the walk holds nothing that needs dropping, so no Rust frame is skipped unsafely).
pub(crate) fn json_table(lua: &Lua, v: &Json) -> mlua::Result<mlua::Table> {
    // SAFETY: `exec_raw` runs the closure in a protected call and takes the one value it leaves
    // on the stack; `push_json` only calls the C API, and an error raised there unwinds to that
    // call past frames that own nothing.
    unsafe { lua.exec_raw::<mlua::Table>((), |l| push_json(l, v)) }
}

/// Pushes `v` as Lua (see [`json_table`]).
///
/// # Safety
/// Inside a protected call on the running thread.
unsafe fn push_json(l: *mut ffi::lua_State, v: &Json) {
    // SAFETY: see `json_table`; `luaL_checkstack` raises (into the protected call) when the
    // stack cannot grow.
    unsafe {
        ffi::luaL_checkstack(l, 4, std::ptr::null());
        match v {
            Json::Null => ffi::lua_pushnil(l),
            Json::Bool(b) => ffi::lua_pushboolean(l, c_int::from(*b)),
            Json::Number(n) => match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => ffi::lua_pushinteger(l, i),
                // As mlua converts a u64 past i64: a float.
                (None, Some(u)) => ffi::lua_pushnumber(l, u as f64),
                (None, None) => ffi::lua_pushnumber(l, n.as_f64().unwrap_or(f64::NAN)),
            },
            Json::String(s) => {
                ffi::lua_pushlstring(l, s.as_ptr().cast(), s.len());
            }
            Json::Array(a) => {
                let n = a.iter().filter(|x| !x.is_null()).count();
                ffi::lua_createtable(l, 0, c_int::try_from(n).unwrap_or(c_int::MAX));
                for (i, x) in a.iter().enumerate() {
                    if x.is_null() {
                        continue;
                    }
                    ffi::lua_pushinteger(l, ffi::lua_Integer::try_from(i + 1).unwrap_or(0));
                    push_json(l, x);
                    ffi::lua_rawset(l, -3);
                }
            }
            Json::Object(m) => {
                let n = m.values().filter(|x| !x.is_null()).count();
                ffi::lua_createtable(l, 0, c_int::try_from(n).unwrap_or(c_int::MAX));
                for (k, x) in m {
                    if x.is_null() {
                        continue;
                    }
                    ffi::lua_pushlstring(l, k.as_ptr().cast(), k.len());
                    push_json(l, x);
                    ffi::lua_rawset(l, -3);
                }
            }
        }
    }
}

unsafe extern "C-unwind" {
    /// Hexforge's Lua patch (`vendor/lua-src/PATCHES.md`): pushes a writable copy of the table at
    /// `idx` with the very same layout, without a metatable; `deep` copies nested tables too.
    /// Raises (out of memory, nesting) like any allocating API function.
    fn lua_hexforge_clone(l: *mut ffi::lua_State, idx: c_int, deep: c_int);
    /// Hexforge's Lua patch: marks the table at `idx` and every table reachable through its
    /// values read-only (stopping at tables already frozen). Allocates nothing.
    fn lua_hexforge_freeze(l: *mut ffi::lua_State, idx: c_int);
}

/// A new ctx table: a shallow copy of `template` (every field in place, from one `memcpy` of its
/// slots) and `mt` as its metatable. Its `acting` and `options` are the template's, frozen and
/// shared by every ctx (no callback changes them: an own copy of each for every ctx cost about
/// 1,000 instructions). One protected call through the C API. Why: built by a Lua function
/// called through mlua, a ctx cost about 9,000 instructions, most of them passing its nine
/// fields as arguments (and strings made for them); the fields only change when the clock
/// does, so they are set once in the template (`rules::open_ctx`).
///
/// # Errors
/// Out of memory (raised inside the protected call).
pub(crate) fn ctx_from_template(
    lua: &Lua,
    template: &mlua::Table,
    mt: &mlua::Table,
) -> mlua::Result<mlua::Table> {
    // SAFETY: `exec_raw` pushes the template (1) and the metatable (2), runs the closure
    // in a protected call and takes the one value left on the stack. The closure only calls the
    // C API on those absolute slots and the table it pushed (checked first); an error raised
    // inside (`lua_hexforge_clone` allocates) unwinds to that call past a
    // frame that owns nothing. The new table has no metatable while it gets one.
    unsafe {
        lua.exec_raw::<mlua::Table>((template, mt), |l| {
            ffi::luaL_checkstack(l, 2, std::ptr::null());
            lua_hexforge_clone(l, 1, 0); // 3: the ctx
            ffi::lua_pushvalue(l, 2);
            ffi::lua_setmetatable(l, 3);
            ffi::lua_copy(l, 3, 1);
            ffi::lua_settop(l, 1);
        })
    }
}

/// A changed template: a shallow copy of `args[0]` (a frozen table) with the pairs
/// `key, value` that follow it set, frozen again, in one protected call through the C API.
/// Only values of existing keys change, so the copy keeps the layout of the old table (the one a
/// fresh build of the same shape gives; see [`crate::api::plain::Templates`]). Why not the Lua
/// helper it replaces: its call went through mlua and packed the pairs into a new table first,
/// about 4,900 instructions a patch against about 1,500 here.
///
/// # Errors
/// Out of memory (raised inside the protected call).
pub(crate) fn patched(lua: &Lua, args: MultiValue) -> mlua::Result<mlua::Table> {
    // SAFETY: `exec_raw` pushes the arguments (slots 1..=n), runs the closure in a protected
    // call and takes the one value left. The closure only calls the C API on those slots and
    // the copy it pushed; `lua_hexforge_clone` may raise (out of memory) into that call past a
    // frame that owns nothing. Setting keys with `lua_rawset` on the fresh copy (no metatable,
    // not frozen) raises only for a nil or NaN key, which the callers never pass.
    unsafe {
        lua.exec_raw::<mlua::Table>(args, |l| {
            let n = ffi::lua_gettop(l);
            ffi::luaL_checkstack(l, 3, std::ptr::null());
            lua_hexforge_clone(l, 1, 0);
            let t = n + 1;
            set_pairs(l, t, 2, n);
            lua_hexforge_freeze(l, t);
            ffi::lua_copy(l, t, 1);
            ffi::lua_settop(l, 1);
        })
    }
}

/// Sets on the table at `t` the pairs `key, value` in slots `from..=last` (`from`, `from + 2`,
/// ... are keys).
///
/// # Safety
/// `t` is a fresh table without a metatable and not frozen; the slots hold no nil or NaN key.
/// `lua_rawset` may raise out of memory: the caller's frame must own nothing.
unsafe fn set_pairs(l: *mut ffi::lua_State, t: c_int, from: c_int, last: c_int) {
    let mut i = from;
    while i < last {
        // SAFETY: the caller's guarantee; two slots free (the callers checked the stack).
        unsafe {
            ffi::lua_pushvalue(l, i);
            ffi::lua_pushvalue(l, i + 1);
            ffi::lua_rawset(l, t);
        }
        i += 2;
    }
}

/// The frozen template of a [`flat`](crate::layout::flat) value, built from the JSON in one protected call through
/// the C API, with the layout [`crate::api::plain::Templates`]' builder gives it: presized as
/// the Lua constructor of the same fields (an array part of the length, or a hash part for
/// every field, up to [`PRESIZED`]), plain fields set first, then hexes,
/// each in the value's order. Why: the general builder passes every key and value as an mlua
/// value (a reference each) and builds through a template call; a path of a few hexes cost
/// about 7,800 instructions that way.
///
/// # Errors
/// Out of memory (raised inside the protected call).
pub(crate) fn flat_template(lua: &Lua, j: &Json) -> mlua::Result<mlua::Table> {
    // One field: its key (set by `key`) and its value.
    unsafe fn set(l: *mut ffi::lua_State, x: &Json) {
        // SAFETY (whole fn): the caller pushed the key above the table at -2 after this push
        // and checked the stack; the fresh table has no metatable, so `lua_rawset` only stores.
        unsafe {
            match x {
                Json::Bool(b) => ffi::lua_pushboolean(l, c_int::from(*b)),
                Json::Number(n) => match n.as_i64() {
                    Some(i) => ffi::lua_pushinteger(l, i),
                    None => ffi::lua_pushnumber(l, n.as_f64().unwrap_or(f64::NAN)),
                },
                Json::String(s) => {
                    ffi::lua_pushlstring(l, s.as_ptr().cast(), s.len());
                }
                Json::Object(m) => {
                    let coord = |k: &str| m.get(k).and_then(Json::as_i64).unwrap_or(0);
                    ffi::lua_createtable(l, 0, 2);
                    ffi::lua_pushinteger(l, coord("q"));
                    ffi::lua_setfield(l, -2, c"q".as_ptr());
                    ffi::lua_pushinteger(l, coord("r"));
                    ffi::lua_setfield(l, -2, c"r".as_ptr());
                }
                Json::Null | Json::Array(_) => ffi::lua_pushnil(l),
            }
            ffi::lua_rawset(l, -3);
        }
    }
    let hex = |x: &Json| matches!(x, Json::Object(m) if is_hex(m));
    let count = match j {
        Json::Array(a) => a.iter().filter(|x| !x.is_null()).count(),
        Json::Object(m) => m.values().filter(|x| !x.is_null()).count(),
        _ => 0,
    };
    let arr = j.as_array().map_or(0, Vec::len);
    let (narr, nhash) = match arr {
        0 if count <= PRESIZED => (0, count),
        n if n > 0 && n <= PRESIZED => (n, 0),
        _ => (0, 0),
    };
    // SAFETY: `exec_raw` runs the closure in a protected call and takes the one value it
    // leaves. The closure pushes at most four values above the table (checked first) and owns
    // nothing (it borrows `j`; map and slice iterators have no destructor), so an out-of-memory
    // error raised by the C API unwinds past it to that call. Keys are integers from 1 or
    // strings, never nil or NaN; nulls are skipped, so `set` never stores a nil.
    unsafe {
        lua.exec_raw::<mlua::Table>((), |l| {
            ffi::luaL_checkstack(l, 5, std::ptr::null());
            ffi::lua_createtable(l, narr as c_int, nhash as c_int);
            // Plain fields first, then hexes (as the general builder orders them).
            for hexes in [false, true] {
                match j {
                    Json::Array(a) => {
                        for (i, x) in a.iter().enumerate() {
                            if !x.is_null() && hex(x) == hexes {
                                ffi::lua_pushinteger(l, i as i64 + 1);
                                set(l, x);
                            }
                        }
                    }
                    Json::Object(m) => {
                        for (k, x) in m {
                            if !x.is_null() && hex(x) == hexes {
                                ffi::lua_pushlstring(l, k.as_ptr().cast(), k.len());
                                set(l, x);
                            }
                        }
                    }
                    _ => {}
                }
            }
            lua_hexforge_freeze(l, -1);
        })
    }
}

/// A deep writable copy of the frozen table `t` with the same layout (`lua_hexforge_clone`), in
/// one protected call through the C API (a call of the C `clone` function through mlua cost a
/// third more).
///
/// # Errors
/// Out of memory (raised inside the protected call).
pub(crate) fn clone(lua: &Lua, t: &mlua::Table) -> mlua::Result<mlua::Table> {
    // SAFETY: `exec_raw` pushes `t` (slot 1), runs the closure in a protected call and takes
    // the one value left; `lua_hexforge_clone` may raise (out of memory) into that call past a
    // frame that owns nothing.
    unsafe {
        lua.exec_raw::<mlua::Table>(t, |l| {
            lua_hexforge_clone(l, 1, 1);
            ffi::lua_replace(l, 1);
        })
    }
}

/// A fresh sequence of `items` (none of them nil; with `copies`, all tables, each replaced by
/// a deep writable copy), laid out as Lua's `{ ... }` lays it out (an array part of exactly
/// their number), in one protected call through the C API.
///
/// # Errors
/// Out of memory (raised inside the protected call).
pub(crate) fn sequence(lua: &Lua, items: Vec<Value>, copies: bool) -> mlua::Result<mlua::Table> {
    // SAFETY: `exec_raw` pushes the items (slots 1..=n), runs the closure in a protected call
    // and takes the one value left. `lua_createtable` and the copies may raise (out of memory)
    // into that call past a frame that owns nothing; `lua_rawseti` into the new table's
    // presized array part does not allocate. The callers pass tables only when `copies`.
    unsafe {
        lua.exec_raw::<mlua::Table>(MultiValue::from_vec(items), |l| {
            let n = ffi::lua_gettop(l);
            ffi::luaL_checkstack(l, 2, std::ptr::null());
            ffi::lua_createtable(l, n, 0);
            let t = n + 1;
            for i in 1..=n {
                if copies {
                    lua_hexforge_clone(l, i, 1);
                } else {
                    ffi::lua_pushvalue(l, i);
                }
                ffi::lua_rawseti(l, t, ffi::lua_Integer::from(i));
            }
            ffi::lua_rotate(l, 1, 1);
            ffi::lua_settop(l, 1);
        })
    }
}

/// Pushes a new `{ q = <slot qr>, r = <slot qr + 1> }`, laid out as that Lua constructor lays it
/// out (hash part of two, `q` set first).
///
/// # Safety
/// Inside a protected call, with two free stack slots (it may raise out of memory); `qr` and
/// `qr + 1` are valid absolute indices.
unsafe fn push_hex(l: *mut ffi::lua_State, qr: c_int) {
    // SAFETY: the caller's guarantee; the new table has no metatable, so `lua_setfield` only
    // stores.
    unsafe {
        ffi::lua_createtable(l, 0, 2);
        ffi::lua_pushvalue(l, qr);
        ffi::lua_setfield(l, -2, c"q".as_ptr());
        ffi::lua_pushvalue(l, qr + 1);
        ffi::lua_setfield(l, -2, c"r".as_ptr());
    }
}

/// Appends `n` rows to `out` (a new list when `None`) and returns the list: slots `1..=kinds.len()`
/// of `args` are the field keys, then come each row's values in field order (one per field,
/// two for [`RowCell::Hex`]). A row table is presized for every field, as the presized Lua
/// constructor made it (`presized`: the hash size, 0 for a growing table), and its fields are
/// set in order, so its layout (and the order `pairs` visits it) is the one the Lua builder
/// gave. With `freeze`, every row (and every new table in it) is frozen; the list stays fresh.
///
/// # Errors
/// Out of memory (raised inside the protected call).
pub(crate) fn rows(
    lua: &Lua,
    out: Option<&mlua::Table>,
    kinds: &[RowCell],
    presized: usize,
    n: usize,
    args: Vec<Value>,
    freeze: bool,
) -> mlua::Result<mlua::Table> {
    let all = after_table(out, args);
    let nf = c_int::try_from(kinds.len()).unwrap_or(c_int::MAX);
    let presized = c_int::try_from(presized).unwrap_or(0);
    // SAFETY: `exec_raw` pushes `out` (slot 1), the keys (2..=nf + 1) and the values, runs the
    // closure in a protected call and takes the one value left. The closure reads only those
    // slots (the caller passes every key and exactly the values `kinds` and `n` call for) and
    // what it pushed; `lua_createtable` and `lua_rawset` on fresh tables may raise (out of
    // memory) into that call past a frame that owns nothing.
    unsafe {
        lua.exec_raw::<mlua::Table>(MultiValue::from_vec(all), |l| {
            ffi::luaL_checkstack(l, 6, std::ptr::null());
            if ffi::lua_type(l, 1) != ffi::LUA_TTABLE {
                ffi::lua_createtable(l, 0, 0);
                ffi::lua_replace(l, 1);
            }
            let base = ffi::lua_rawlen(l, 1) as ffi::lua_Integer;
            let mut j = nf + 2;
            for i in 1..=n as ffi::lua_Integer {
                ffi::lua_createtable(l, 0, presized);
                let t = ffi::lua_gettop(l);
                for (f, kind) in kinds.iter().enumerate() {
                    let key = 2 + f as c_int;
                    match kind {
                        RowCell::Plain => {
                            if ffi::lua_type(l, j) != ffi::LUA_TNIL {
                                ffi::lua_pushvalue(l, key);
                                ffi::lua_pushvalue(l, j);
                                ffi::lua_rawset(l, t);
                            }
                            j += 1;
                        }
                        RowCell::Hex => {
                            if ffi::lua_toboolean(l, j + 1) != 0 {
                                ffi::lua_pushvalue(l, key);
                                push_hex(l, j);
                                ffi::lua_rawset(l, t);
                            } else if ffi::lua_toboolean(l, j) != 0 {
                                ffi::lua_pushvalue(l, key);
                                ffi::lua_pushvalue(l, j);
                                ffi::lua_rawset(l, t);
                            }
                            j += 2;
                        }
                        RowCell::Copy => {
                            if ffi::lua_toboolean(l, j) != 0 {
                                ffi::lua_pushvalue(l, key);
                                lua_hexforge_clone(l, j, 1);
                                ffi::lua_rawset(l, t);
                            }
                            j += 1;
                        }
                    }
                }
                if freeze {
                    lua_hexforge_freeze(l, t);
                }
                ffi::lua_rawseti(l, 1, base + i);
            }
            ffi::lua_settop(l, 1);
        })
    }
}

/// The fields of a template in one call: `plain` key/value pairs, `hexes` key/q/r triples
/// (each `{ q =, r = }`, a new table) and `subs` key/template pairs, set in that order (see
/// [`template`]).
pub(crate) struct TemplateCells {
    pub(crate) plain: usize,
    pub(crate) hexes: usize,
    pub(crate) subs: usize,
}

/// Sets fields on a template table in one protected call through the C API: a new table sized
/// `narr` array and `nhash` hash slots when `into` is `None`, else `into` (a table an earlier
/// call of the same build started). `args` holds the fields `cells` counts, in order: plain
/// pairs, then hexes, then nested templates; each is set with `lua_rawset` in that order. With
/// `freeze`, the table and the new tables in it are frozen (the last call of a build).
///
/// Why this lays a table out as the Lua constructors it replaces did: `lua_createtable(narr,
/// nhash)` sizes the parts as a constructor `{ ... }` with that many positional and keyed items
/// does (the hash part rounded up to a power of two either way), and `lua_rawset` inserts a
/// missing key through the same `luaH_newkey` as the constructor's own stores, in the same order.
/// So `pairs` visits the keys in the same order as before (a test compares the two).
///
/// # Errors
/// Out of memory (raised inside the protected call).
pub(crate) fn template(
    lua: &Lua,
    into: Option<&mlua::Table>,
    (narr, nhash): (usize, usize),
    cells: &TemplateCells,
    args: Vec<Value>,
    freeze: bool,
) -> mlua::Result<mlua::Table> {
    let all = after_table(into, args);
    let narr = c_int::try_from(narr).unwrap_or(0);
    let nhash = c_int::try_from(nhash).unwrap_or(0);
    // SAFETY: `exec_raw` pushes `into` (slot 1) and the fields (2 on), runs the closure in a
    // protected call and takes the one value left. The closure reads only those slots (the
    // caller passes exactly the values `cells` counts) and what it pushed; `lua_createtable`,
    // `lua_setfield` and `lua_rawset` on tables without metatables that are not frozen yet may
    // raise only out of memory (keys are strings or integers, never nil or NaN), into that call
    // past a frame that owns nothing.
    unsafe {
        lua.exec_raw::<mlua::Table>(MultiValue::from_vec(all), |l| {
            ffi::luaL_checkstack(l, 4, std::ptr::null());
            if ffi::lua_type(l, 1) != ffi::LUA_TTABLE {
                ffi::lua_createtable(l, narr, nhash);
                ffi::lua_replace(l, 1);
            }
            let mut j: c_int = 2;
            for _ in 0..cells.plain {
                ffi::lua_pushvalue(l, j);
                ffi::lua_pushvalue(l, j + 1);
                ffi::lua_rawset(l, 1);
                j += 2;
            }
            for _ in 0..cells.hexes {
                ffi::lua_pushvalue(l, j);
                push_hex(l, j + 1);
                ffi::lua_rawset(l, 1);
                j += 3;
            }
            for _ in 0..cells.subs {
                ffi::lua_pushvalue(l, j);
                ffi::lua_pushvalue(l, j + 1);
                ffi::lua_rawset(l, 1);
                j += 2;
            }
            if freeze {
                lua_hexforge_freeze(l, 1);
            }
            ffi::lua_settop(l, 1);
        })
    }
}

/// An action's table as callbacks get it (see [`crate::api::plain::Templates::action`]): its
/// params as [`json_table`] makes them (a new empty table for params that are not an array or
/// object) with `id` and then `side` set, as the Lua helper this replaces set them, so the
/// table has the same layout. One protected call.
///
/// # Errors
/// Out of memory (raised inside the protected call).
pub(crate) fn action_table(
    lua: &Lua,
    params: &Json,
    id: &str,
    side: &str,
) -> mlua::Result<mlua::Table> {
    // SAFETY: `exec_raw` runs the closure in a protected call and takes the one value it
    // leaves; `push_json` and the setters only call the C API, and an error raised there
    // (out of memory) unwinds to that call past frames that own nothing but borrows.
    unsafe {
        lua.exec_raw::<mlua::Table>((), |l| {
            ffi::luaL_checkstack(l, 3, std::ptr::null());
            match params {
                Json::Object(_) | Json::Array(_) => push_json(l, params),
                _ => ffi::lua_createtable(l, 0, 0),
            }
            ffi::lua_pushlstring(l, id.as_ptr().cast(), id.len());
            ffi::lua_setfield(l, -2, c"id".as_ptr());
            ffi::lua_pushlstring(l, side.as_ptr().cast(), side.len());
            ffi::lua_setfield(l, -2, c"side".as_ptr());
        })
    }
}
