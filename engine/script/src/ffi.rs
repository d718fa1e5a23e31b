//! The one module of the script crate that uses the Lua C API (the ctx sessions in
//! `rules::session` keep their own pointers). Everything else reaches Lua through mlua or through
//! the safe pieces here:
//! - [`Stack`]: a handle for reading plain values straight off a Lua stack without raising,
//!   allocating in Lua or making registry references ([`read`], [`Args::with_stack`]);
//! - [`Args`] and [`Ret`]: a ctx method's arguments where they sit on the stack, and its results;
//! - the builders: new Lua tables laid out exactly as the Lua constructors they replaced, each in
//!   one protected call ([`json_table`], [`template`], [`rows`], ...);
//! - the patched VM's `copy`/`freeze` ([`frozen_tables`]) and the budget's [`each_function`].
//!
//! Why this is sound:
//! - **Reading raises nothing.** [`Stack`] only calls `lua_type`, `lua_toboolean`,
//!   `lua_isinteger`, `lua_tointegerx`, `lua_tonumberx`, `lua_topointer`, `lua_rawlen`,
//!   `lua_rawgeti` and `lua_next` on tables it has checked, `lua_getmetatable`, `lua_pushvalue`,
//!   `lua_settop`, and `lua_tolstring` on strings only (nothing is converted). Stack space comes
//!   from `lua_checkstack`, which reports failure instead of raising. So no `longjmp` crosses the
//!   Rust frames of a walk, whatever they own.
//! - **Indices are checked.** A `Stack` knows its exact height (only it changes the stack while
//!   it is lent out: mlua operations in between restore the height they found) and a floor below
//!   which it pops nothing. Every index is checked against the height; a [`Table`] token is made
//!   only for a checked table, pins its slot above the floor, and cannot leave the closure it was
//!   lent to (its lifetime is higher-ranked); `lua_next` gets back only the key it gave, which
//!   nothing can pop or replace. Each `Stack` has its own brand, so two cannot be swapped.
//! - **Borrowed strings stay.** [`Stack::bytes`] borrows the handle: nothing can pop the string
//!   while the slice lives, and a value on the stack is reachable, so no collection frees it (Lua
//!   strings never move).
//! - **[`Args`]** is made only by mlua's callback wrapper, from the values it was called with,
//!   which stay in their slots until the callback returns. The `read!`/`write!` macros lend it to
//!   a method's body by reference; nothing keeps it past the call.
//! - **Builders** run inside `exec_raw`'s protected call and may raise (out of memory): their
//!   frames own nothing that needs dropping (borrowed JSON, integers, iterators over slices and
//!   maps), every slot they use was pushed by `exec_raw` or by themselves after a
//!   `luaL_checkstack`, and every table they write is fresh (no metatable, not frozen), so
//!   `lua_rawset` with string or integer keys only stores.

#![allow(unsafe_code)]

use crate::layout::{PRESIZED, RowCell, TemplateCells, after_table, is_hex};
use mlua::state::RawLua;
use mlua::{FromLuaMulti, IntoLuaMulti, Lua, MultiValue, Value, ffi};
use serde_json::Value as Json;
use std::marker::PhantomData;
use std::os::raw::c_int;
use std::rc::Rc;

/// A Lua value's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// No value: an index above the stack, an argument not passed.
    None,
    Nil,
    Boolean,
    Number,
    String,
    Table,
    Function,
    Userdata,
    Thread,
}

fn kind(l: *mut ffi::lua_State, at: c_int) -> Kind {
    // SAFETY: every caller passes an index it checked against the stack's height.
    match unsafe { ffi::lua_type(l, at) } {
        ffi::LUA_TNIL => Kind::Nil,
        ffi::LUA_TBOOLEAN => Kind::Boolean,
        ffi::LUA_TNUMBER => Kind::Number,
        ffi::LUA_TSTRING => Kind::String,
        ffi::LUA_TTABLE => Kind::Table,
        ffi::LUA_TFUNCTION => Kind::Function,
        ffi::LUA_TUSERDATA | ffi::LUA_TLIGHTUSERDATA => Kind::Userdata,
        ffi::LUA_TTHREAD => Kind::Thread,
        _ => Kind::None,
    }
}

// The readers below take an index their callers checked (a live argument slot, or one under a
// `Stack`'s height); none converts a value or raises.

fn truthy(l: *mut ffi::lua_State, at: c_int) -> bool {
    // SAFETY: a checked index (above).
    unsafe { ffi::lua_toboolean(l, at) != 0 }
}

fn integer(l: *mut ffi::lua_State, at: c_int) -> Option<i64> {
    // SAFETY: a checked index; an integer converts to itself.
    unsafe {
        (ffi::lua_isinteger(l, at) != 0).then(|| ffi::lua_tointegerx(l, at, std::ptr::null_mut()))
    }
}

fn float(l: *mut ffi::lua_State, at: c_int) -> Option<f64> {
    // SAFETY: a number at a checked index.
    (kind(l, at) == Kind::Number)
        .then(|| unsafe { ffi::lua_tonumberx(l, at, std::ptr::null_mut()) })
}

/// The bytes of the string at `at`; the caller ties the slice to a borrow during which the
/// string stays in its slot (module header).
fn bytes<'a>(l: *mut ffi::lua_State, at: c_int) -> Option<&'a [u8]> {
    if kind(l, at) != Kind::String {
        return None;
    }
    let mut len = 0usize;
    // SAFETY: a string, so nothing is converted or raised.
    unsafe {
        let p = ffi::lua_tolstring(l, at, &mut len);
        (!p.is_null()).then(|| std::slice::from_raw_parts(p.cast::<u8>(), len))
    }
}

fn address(l: *mut ffi::lua_State, at: c_int) -> Option<usize> {
    // SAFETY: a table at a checked index.
    (kind(l, at) == Kind::Table).then(|| unsafe { ffi::lua_topointer(l, at) } as usize)
}

/// A Lua stack lent out for reading (see the module header). Indices are absolute.
pub(crate) struct Stack<'s> {
    l: *mut ffi::lua_State,
    /// The height, exactly.
    top: c_int,
    /// Slots at or below it are never popped.
    floor: c_int,
    /// Slots up to here are reserved by `lua_checkstack`.
    reserved: c_int,
    _brand: PhantomData<fn(&'s ()) -> &'s ()>,
}

/// A table on a [`Stack`] checked by [`Stack::table`], pinned while the token lives.
#[derive(Clone, Copy)]
pub(crate) struct Table<'t> {
    l: *mut ffi::lua_State,
    at: c_int,
    _brand: PhantomData<fn(&'t ()) -> &'t ()>,
}

impl Stack<'_> {
    /// Runs `f` on the stack of `l` as it is now, and restores its height after.
    ///
    /// # Safety
    /// `l` is the running thread, and nothing else changes its stack while `f` runs except
    /// operations that restore the height they found.
    unsafe fn lend<R>(l: *mut ffi::lua_State, f: impl for<'s> FnOnce(&mut Stack<'s>) -> R) -> R {
        /// Restores the height however `f` ends (a panic unwinds through here).
        struct Height(*mut ffi::lua_State, c_int);
        impl Drop for Height {
            fn drop(&mut self) {
                // SAFETY: the height the thread had, which it has not gone below.
                unsafe { ffi::lua_settop(self.0, self.1) };
            }
        }
        // SAFETY: the caller's guarantee.
        let top = unsafe { ffi::lua_gettop(l) };
        let _height = Height(l, top);
        f(&mut Stack {
            l,
            top,
            floor: top,
            reserved: top,
            _brand: PhantomData,
        })
    }

    /// The height: the index of the value on top.
    pub(crate) fn top(&self) -> c_int {
        self.top
    }

    fn has(&self, at: c_int) -> bool {
        at > 0 && at <= self.top
    }

    /// Room for `n` more values; false when the stack cannot grow.
    fn reserve(&mut self, n: c_int) -> bool {
        if self.top + n <= self.reserved {
            return true;
        }
        // SAFETY: reports failure instead of raising.
        let ok = unsafe { ffi::lua_checkstack(self.l, n + 4) } != 0;
        if ok {
            self.reserved = self.top + n + 4;
        }
        ok
    }

    /// The type of the value at `at` ([`Kind::None`] above the top).
    pub(crate) fn kind(&self, at: c_int) -> Kind {
        if self.has(at) {
            kind(self.l, at)
        } else {
            Kind::None
        }
    }

    /// The value at `at` as a condition (false for nil, false and nothing).
    pub(crate) fn truthy(&self, at: c_int) -> bool {
        self.has(at) && truthy(self.l, at)
    }

    /// The value at `at` when it is an integer (not a float or a string).
    pub(crate) fn integer(&self, at: c_int) -> Option<i64> {
        self.has(at).then(|| integer(self.l, at)).flatten()
    }

    /// The value at `at` when it is a number, as a float.
    pub(crate) fn float(&self, at: c_int) -> Option<f64> {
        self.has(at).then(|| float(self.l, at)).flatten()
    }

    /// The bytes of the string at `at` (numbers are not converted), borrowed from Lua: nothing
    /// pops the string while `self` is borrowed.
    pub(crate) fn bytes(&self, at: c_int) -> Option<&[u8]> {
        self.has(at).then(|| bytes(self.l, at)).flatten()
    }

    /// The string at `at` when it is UTF-8.
    pub(crate) fn str(&self, at: c_int) -> Option<&str> {
        std::str::from_utf8(self.bytes(at)?).ok()
    }

    /// Pops down to `height`, but never below the floor.
    pub(crate) fn pop_to(&mut self, height: c_int) {
        let height = height.max(self.floor);
        if height < self.top {
            // SAFETY: only values above the floor go; the height stays exact.
            unsafe { ffi::lua_settop(self.l, height) };
            self.top = height;
        }
    }

    /// Runs `f` with the table at `at`, read raw (its metatable ignored); `None` when `at` is no
    /// table. `plain`: only a table without a metatable.
    pub(crate) fn table<R>(
        &mut self,
        at: c_int,
        plain: bool,
        f: impl for<'t> FnOnce(&mut Self, Table<'t>) -> R,
    ) -> Option<R> {
        if self.kind(at) != Kind::Table {
            return None;
        }
        if plain {
            if !self.reserve(1) {
                return None;
            }
            // SAFETY: a table at a checked index, one slot free; the metatable is popped again.
            if unsafe { ffi::lua_getmetatable(self.l, at) } != 0 {
                unsafe { ffi::lua_settop(self.l, self.top) };
                return None;
            }
        }
        let floor = self.floor;
        self.floor = floor.max(at);
        let r = f(
            self,
            Table {
                l: self.l,
                at,
                _brand: PhantomData,
            },
        );
        self.floor = floor;
        Some(r)
    }

    fn mine(&self, t: Table<'_>) -> bool {
        t.l == self.l
    }

    /// The raw length (`#`) of `t`.
    pub(crate) fn len(&self, t: Table<'_>) -> usize {
        // SAFETY: a pinned table of this stack.
        if self.mine(t) {
            unsafe { ffi::lua_rawlen(self.l, t.at) }
        } else {
            0
        }
    }

    /// Pushes `t[i]` (raw) and gives its type; `None` when the stack cannot grow.
    pub(crate) fn geti(&mut self, t: Table<'_>, i: i64) -> Option<Kind> {
        if !self.mine(t) || !self.reserve(1) {
            return None;
        }
        // SAFETY: a pinned table of this stack, one slot reserved; a raw read raises nothing.
        unsafe { ffi::lua_rawgeti(self.l, t.at, i) };
        self.top += 1;
        Some(kind(self.l, self.top))
    }

    /// Calls `f(stack, key, value)` for every field of `t` in `lua_next` order, the key and the
    /// value pushed, popped after; stops at the first `None` (and gives it).
    pub(crate) fn pairs(
        &mut self,
        t: Table<'_>,
        mut f: impl FnMut(&mut Self, c_int, c_int) -> Option<()>,
    ) -> Option<()> {
        if !self.mine(t) || !self.reserve(2) {
            return None;
        }
        let (base, floor) = (self.top, self.floor);
        // SAFETY: a pinned table of this stack, two slots reserved; `lua_next` only ever gets
        // the key it gave, pinned above the floor while `f` runs.
        unsafe { ffi::lua_pushnil(self.l) };
        self.top = base + 1;
        let mut out = Some(());
        // SAFETY: as above.
        while unsafe { ffi::lua_next(self.l, t.at) } != 0 {
            self.top = base + 2;
            self.floor = base + 1;
            out = f(self, base + 1, base + 2);
            self.floor = floor;
            self.pop_to(base + 1);
            if out.is_none() || !self.reserve(1) {
                out = None;
                self.pop_to(base);
                return out;
            }
        }
        // `lua_next` popped the key at the end.
        self.top = base;
        out
    }
}

/// Runs `f` on `v` pushed on the stack of the thread mlua runs (`f` gets its index), then
/// restores the height. No protected call: reading raises nothing.
///
/// # Errors
/// Only if the Lua stack cannot grow.
pub(crate) fn read<R>(
    lua: &Lua,
    v: &Value,
    f: impl for<'s> FnOnce(&mut Stack<'s>, c_int) -> R,
) -> mlua::Result<R> {
    lua.exec_raw_lua(|raw| {
        let l = raw.state();
        // SAFETY: `l` is the thread mlua runs; `push_value` needs two free slots (checked) and
        // only copies a reference; mlua leaves the stack as `lend` lends it.
        unsafe {
            if ffi::lua_checkstack(l, 2) == 0 {
                return Err(mlua::Error::StackError);
            }
            Stack::lend(l, |s| {
                raw.push_value(v)?;
                s.top += 1;
                s.floor = s.top;
                s.reserved = s.top;
                Ok(f(s, s.top))
            })
        }
    })
}

/// The arguments of one ctx method call, where they sit on the Lua stack: `self` (the ctx) and
/// the rest, numbered from 0 after `self` as the method bodies count them.
pub(crate) struct Args {
    l: *mut ffi::lua_State,
    /// The index of `self`.
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
    /// How many arguments follow `self`.
    pub(crate) fn count(&self) -> usize {
        usize::try_from(self.n - 1).unwrap_or(0)
    }

    /// The index of argument `i` (`None`: `self`), if it was passed.
    pub(crate) fn slot(&self, i: Option<usize>) -> Option<c_int> {
        let i = match i {
            None => 0,
            Some(i) => c_int::try_from(i).ok()?.checked_add(1)?,
        };
        (i < self.n).then_some(self.base + i)
    }

    /// The type of argument `i` (`None`: `self`; [`Kind::None`] when not passed).
    pub(crate) fn kind(&self, i: Option<usize>) -> Kind {
        // Arguments sit in live slots for the whole call (module header).
        self.slot(i).map_or(Kind::None, |at| kind(self.l, at))
    }

    /// Argument `i` (`None`: `self`) as a value, nil when not passed. Numbers, booleans and nil
    /// are read in place; strings, tables and the rest become a reference.
    pub(crate) fn value(&self, lua: &Lua, i: Option<usize>) -> mlua::Result<Value> {
        let Some(at) = self.slot(i) else {
            return Ok(Value::Nil);
        };
        match kind(self.l, at) {
            Kind::Nil | Kind::None => Ok(Value::Nil),
            Kind::Boolean => Ok(Value::Boolean(truthy(self.l, at))),
            Kind::Number => Ok(match integer(self.l, at) {
                Some(i) => Value::Integer(i),
                None => Value::Number(float(self.l, at).unwrap_or(f64::NAN)),
            }),
            // SAFETY: `lua_checkstack` reports failure; the copy moves to mlua's state (the same
            // one within a callback), where `pop` takes it as mlua's own conversion does.
            _ => lua.exec_raw_lua(|raw| unsafe {
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

    /// The bytes of argument `i` when it is a string (nothing is converted to one).
    pub(crate) fn bytes(&self, i: usize) -> Option<&[u8]> {
        self.slot(Some(i)).and_then(|at| bytes(self.l, at))
    }

    /// The address of `self` when it is a table (how sessions know their ctx).
    pub(crate) fn this_address(&self) -> Option<usize> {
        self.slot(None).and_then(|at| address(self.l, at))
    }

    /// Runs `f` on the callback's stack, where the arguments are ([`Args::slot`]).
    pub(crate) fn with_stack<R>(&self, f: impl for<'s> FnOnce(&mut Stack<'s>) -> R) -> R {
        // SAFETY: the callback's thread, running (module header).
        unsafe { Stack::lend(self.l, f) }
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
        // SAFETY: mlua's callback wrapper pushes results onto the callback's state, as here,
        // with room checked first as its own conversion does.
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

// The builders. Each runs in one protected call (`exec_raw`, which pushes its arguments in
// slots 1.. and takes the one value left) and lays tables out as the Lua constructor or mlua
// call it replaced did: the same sizes and the same insertion order, so `pairs` visits keys in
// the same order and games stay the same. Through mlua each nested table or string was a
// protected call of its own (about 1,000 instructions).

unsafe extern "C-unwind" {
    /// Hexforge's Lua patch (`vendor/lua-src/PATCHES.md`): pushes a writable copy of the table at
    /// `idx` with the same layout and no metatable (`deep`: nested tables copied too). Raises
    /// out of memory.
    fn lua_hexforge_clone(l: *mut ffi::lua_State, idx: c_int, deep: c_int);
    /// Hexforge's Lua patch: marks the table at `idx` and the tables reachable from it read-only
    /// (stopping at frozen ones). Allocates nothing.
    fn lua_hexforge_freeze(l: *mut ffi::lua_State, idx: c_int);
    /// `freeze(t)` as a Lua function (the same patch).
    fn hexforge_freeze_f(l: *mut ffi::lua_State) -> c_int;
    /// `copy(t)` as a Lua function: a shallow writable copy with the same layout.
    fn hexforge_copy_f(l: *mut ffi::lua_State) -> c_int;
}

/// The patched VM's `copy(t)` and `freeze(t)` as Lua functions, for the engine's own Lua
/// ([`crate::api::plain::Templates`]), never a mod's environment.
///
/// # Errors
/// Out of memory.
pub(crate) fn frozen_tables(lua: &Lua) -> mlua::Result<(mlua::Function, mlua::Function)> {
    // SAFETY: ordinary `lua_CFunction`s of the vendored Lua: they check their argument and raise
    // the usual way, inside Lua's own call machinery.
    unsafe {
        Ok((
            lua.create_c_function(hexforge_copy_f)?,
            lua.create_c_function(hexforge_freeze_f)?,
        ))
    }
}

/// Builds in one protected call (see above).
///
/// # Safety
/// `f` keeps to the builders' rules (module header): it owns nothing that needs dropping, uses
/// only the slots `args` filled and those it pushed after checking the stack, writes only fresh
/// tables, and leaves the table to give in slot 1 (or alone on the stack).
unsafe fn build(
    lua: &Lua,
    args: impl IntoLuaMulti,
    f: impl FnOnce(*mut ffi::lua_State),
) -> mlua::Result<mlua::Table> {
    // SAFETY: the caller's guarantee.
    unsafe { lua.exec_raw::<mlua::Table>(args, f) }
}

/// Sets `t[key] = value` from the slots `key` and `value` (two free slots needed).
unsafe fn set(l: *mut ffi::lua_State, t: c_int, key: c_int, value: c_int) {
    // SAFETY: the builders' rules: a fresh table, valid slots, no nil or NaN key.
    unsafe {
        ffi::lua_pushvalue(l, key);
        ffi::lua_pushvalue(l, value);
        ffi::lua_rawset(l, t);
    }
}

/// Sets on `t` the pairs `key, value` in the slots `from..=last`.
unsafe fn set_pairs(l: *mut ffi::lua_State, t: c_int, from: c_int, last: c_int) {
    let mut i = from;
    while i < last {
        // SAFETY: the caller's guarantee.
        unsafe { set(l, t, i, i + 1) };
        i += 2;
    }
}

/// Pushes a new `{ q = <slot qr>, r = <slot qr + 1> }`, laid out as that constructor does.
unsafe fn push_hex(l: *mut ffi::lua_State, qr: c_int) {
    // SAFETY: the builders' rules (two free slots).
    unsafe {
        ffi::lua_createtable(l, 0, 2);
        ffi::lua_pushvalue(l, qr);
        ffi::lua_setfield(l, -2, c"q".as_ptr());
        ffi::lua_pushvalue(l, qr + 1);
        ffi::lua_setfield(l, -2, c"r".as_ptr());
    }
}

/// A JSON array or object as a new Lua table, laid out as mlua's `create_table_from` does (sized
/// for the non-null members, filled in order with `rawset`).
///
/// # Errors
/// Out of memory, or nesting too deep for the Lua stack.
pub(crate) fn json_table(lua: &Lua, v: &Json) -> mlua::Result<mlua::Table> {
    // SAFETY: `push_json` keeps to the builders' rules.
    unsafe { build(lua, (), |l| push_json(l, v)) }
}

/// An action's table as callbacks get it: its params as [`json_table`] makes them (an empty
/// table for params that are not an array or object), then `id` and `side` set.
///
/// # Errors
/// Out of memory.
pub(crate) fn action_table(
    lua: &Lua,
    params: &Json,
    id: &str,
    side: &str,
) -> mlua::Result<mlua::Table> {
    // SAFETY: the builders' rules; three slots checked.
    unsafe {
        build(lua, (), |l| {
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

/// Pushes `v` as Lua (see [`json_table`]).
unsafe fn push_json(l: *mut ffi::lua_State, v: &Json) {
    // SAFETY: the builders' rules; `luaL_checkstack` raises into the protected call.
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
                for (i, x) in a.iter().enumerate().filter(|(_, x)| !x.is_null()) {
                    ffi::lua_pushinteger(l, ffi::lua_Integer::try_from(i + 1).unwrap_or(0));
                    push_json(l, x);
                    ffi::lua_rawset(l, -3);
                }
            }
            Json::Object(m) => {
                let n = m.values().filter(|x| !x.is_null()).count();
                ffi::lua_createtable(l, 0, c_int::try_from(n).unwrap_or(c_int::MAX));
                for (k, x) in m.iter().filter(|(_, x)| !x.is_null()) {
                    ffi::lua_pushlstring(l, k.as_ptr().cast(), k.len());
                    push_json(l, x);
                    ffi::lua_rawset(l, -3);
                }
            }
        }
    }
}

/// A new ctx table: a shallow copy of `template` (one `memcpy` of its slots) with `mt` as its
/// metatable; its frozen `acting` and `options` are shared by every ctx.
///
/// # Errors
/// Out of memory.
pub(crate) fn ctx_from_template(
    lua: &Lua,
    template: &mlua::Table,
    mt: &mlua::Table,
) -> mlua::Result<mlua::Table> {
    // SAFETY: the builders' rules: slots 1 (template) and 2 (metatable); the copy (3) is fresh.
    unsafe {
        build(lua, (template, mt), |l| {
            ffi::luaL_checkstack(l, 2, std::ptr::null());
            lua_hexforge_clone(l, 1, 0);
            ffi::lua_pushvalue(l, 2);
            ffi::lua_setmetatable(l, 3);
            ffi::lua_copy(l, 3, 1);
            ffi::lua_settop(l, 1);
        })
    }
}

/// A changed template: a shallow copy of `args[0]` (a frozen table) with the `key, value` pairs
/// that follow set, frozen again. Only existing keys change, so the layout stays the one a fresh
/// build of the same shape gives.
///
/// # Errors
/// Out of memory.
pub(crate) fn patched(lua: &Lua, args: MultiValue) -> mlua::Result<mlua::Table> {
    // SAFETY: the builders' rules: slots 1..=n; the copy (n + 1) is fresh; the callers pass
    // string keys.
    unsafe {
        build(lua, args, |l| {
            let n = ffi::lua_gettop(l);
            ffi::luaL_checkstack(l, 3, std::ptr::null());
            lua_hexforge_clone(l, 1, 0);
            set_pairs(l, n + 1, 2, n);
            lua_hexforge_freeze(l, n + 1);
            ffi::lua_copy(l, n + 1, 1);
            ffi::lua_settop(l, 1);
        })
    }
}

/// A deep writable copy of the frozen table `t`, with the same layout.
///
/// # Errors
/// Out of memory.
pub(crate) fn clone(lua: &Lua, t: &mlua::Table) -> mlua::Result<mlua::Table> {
    // SAFETY: the builders' rules: slot 1 is `t`.
    unsafe {
        build(lua, t, |l| {
            lua_hexforge_clone(l, 1, 1);
            ffi::lua_replace(l, 1);
        })
    }
}

/// A fresh sequence of `items` (none nil; with `copies`, all tables, each replaced by a deep
/// writable copy), laid out as `{ ... }` does (an array part of exactly their number).
///
/// # Errors
/// Out of memory.
pub(crate) fn sequence(lua: &Lua, items: Vec<Value>, copies: bool) -> mlua::Result<mlua::Table> {
    // SAFETY: the builders' rules: slots 1..=n; `lua_rawseti` into the presized array part of
    // the fresh list only stores.
    unsafe {
        build(lua, MultiValue::from_vec(items), |l| {
            let n = ffi::lua_gettop(l);
            ffi::luaL_checkstack(l, 2, std::ptr::null());
            ffi::lua_createtable(l, n, 0);
            for i in 1..=n {
                if copies {
                    lua_hexforge_clone(l, i, 1);
                } else {
                    ffi::lua_pushvalue(l, i);
                }
                ffi::lua_rawseti(l, n + 1, ffi::lua_Integer::from(i));
            }
            ffi::lua_rotate(l, 1, 1);
            ffi::lua_settop(l, 1);
        })
    }
}

/// The frozen template of a [`flat`](crate::layout::flat) value, laid out as the general
/// builder does: presized as the constructor of the same fields (an array part of the length,
/// or a hash part for every field, up to [`PRESIZED`]), plain fields first, then hexes.
///
/// # Errors
/// Out of memory.
pub(crate) fn flat_template(lua: &Lua, j: &Json) -> mlua::Result<mlua::Table> {
    /// Pushes `x` and sets it under the key pushed before it, on the table below the key.
    unsafe fn set_value(l: *mut ffi::lua_State, x: &Json) {
        // SAFETY: the builders' rules; four slots were checked.
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
    let (narr, nhash) = match j.as_array().map_or(0, Vec::len) {
        0 if count <= PRESIZED => (0, count),
        n if n > 0 && n <= PRESIZED => (n, 0),
        _ => (0, 0),
    };
    // SAFETY: the builders' rules: keys are integers from 1 or strings; nulls are skipped.
    unsafe {
        build(lua, (), |l| {
            ffi::luaL_checkstack(l, 5, std::ptr::null());
            ffi::lua_createtable(l, narr as c_int, nhash as c_int);
            for hexes in [false, true] {
                match j {
                    Json::Array(a) => {
                        for (i, x) in a.iter().enumerate() {
                            if !x.is_null() && hex(x) == hexes {
                                ffi::lua_pushinteger(l, i as i64 + 1);
                                set_value(l, x);
                            }
                        }
                    }
                    Json::Object(m) => {
                        for (k, x) in m {
                            if !x.is_null() && hex(x) == hexes {
                                ffi::lua_pushlstring(l, k.as_ptr().cast(), k.len());
                                set_value(l, x);
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

/// Appends `n` rows to `out` (a new list when `None`) and gives the list. In `args`, slots
/// `1..=kinds.len()` are the field keys, then come each row's values in field order (one per
/// field, two for [`RowCell::Hex`]). A row is presized with `presized` hash slots (0: a growing
/// table) and its fields set in order, as the Lua builder it replaced did. With `freeze`, every
/// row (and each new table in it) is frozen; the list stays writable.
///
/// # Errors
/// Out of memory.
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
    // SAFETY: the builders' rules: slot 1 is `out`, 2..=nf + 1 the keys, then the values that
    // `kinds` and `n` call for (the callers pass exactly those).
    unsafe {
        build(lua, MultiValue::from_vec(all), |l| {
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
                        RowCell::Plain if ffi::lua_type(l, j) != ffi::LUA_TNIL => set(l, t, key, j),
                        RowCell::Hex if ffi::lua_toboolean(l, j + 1) != 0 => {
                            ffi::lua_pushvalue(l, key);
                            push_hex(l, j);
                            ffi::lua_rawset(l, t);
                        }
                        RowCell::Hex if ffi::lua_toboolean(l, j) != 0 => set(l, t, key, j),
                        RowCell::Copy if ffi::lua_toboolean(l, j) != 0 => {
                            ffi::lua_pushvalue(l, key);
                            lua_hexforge_clone(l, j, 1);
                            ffi::lua_rawset(l, t);
                        }
                        _ => {}
                    }
                    j += kind.width() as c_int;
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

/// Sets fields on a template in one call: on a new table sized `narr` array and `nhash` hash
/// slots when `into` is `None`, else on `into` (started by an earlier call of the same build).
/// `args` holds what `cells` counts, set in this order with `rawset` (as the constructors it
/// replaced inserted them): plain pairs, hexes (key, q, r), nested templates. With `freeze`
/// (the last call of a build), the table and the new tables in it are frozen.
///
/// # Errors
/// Out of memory.
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
    let plain = c_int::try_from(cells.plain).unwrap_or(0);
    let subs = c_int::try_from(cells.subs).unwrap_or(0);
    // SAFETY: the builders' rules: slot 1 is `into`, then exactly the values `cells` counts;
    // the table is not frozen before the last call.
    unsafe {
        build(lua, MultiValue::from_vec(all), |l| {
            ffi::luaL_checkstack(l, 4, std::ptr::null());
            if ffi::lua_type(l, 1) != ffi::LUA_TTABLE {
                ffi::lua_createtable(l, narr, nhash);
                ffi::lua_replace(l, 1);
            }
            set_pairs(l, 1, 2, 1 + 2 * plain);
            let mut j = 2 + 2 * plain;
            for _ in 0..cells.hexes {
                ffi::lua_pushvalue(l, j);
                push_hex(l, j + 1);
                ffi::lua_rawset(l, 1);
                j += 3;
            }
            set_pairs(l, 1, j, j + 2 * subs - 1);
            if freeze {
                lua_hexforge_freeze(l, 1);
            }
            ffi::lua_settop(l, 1);
        })
    }
}

/// What [`each_function`]'s function does before each call.
pub(crate) enum Before {
    Stop,
    Call,
    /// Start the hook's instruction count again (installing the same hook anew), then call.
    RestartCount,
}

/// Asked before each call of [`each_function`]'s function (the sandbox's budget).
pub(crate) trait EachCall: 'static {
    fn before(&self) -> Before;
}

/// Keeps the guards of [`each_function`]s alive as long as the VM (its app data).
struct Kept<G>(Vec<Rc<G>>);

/// `each(a, b, f1, f2, ...)`, a C function: calls `f1(a, b)`, `f2(a, b)`, ... in turn (one
/// result each), asking `guard` before each call, and returns the results so far. Why: a
/// listing calls one function per piece, and each call through mlua was a protected call.
///
/// # Errors
/// Out of memory.
pub(crate) fn each_function<G: EachCall>(lua: &Lua, guard: &Rc<G>) -> mlua::Result<mlua::Function> {
    let at = Rc::as_ptr(guard) as *mut std::ffi::c_void;
    match lua.app_data_mut::<Kept<G>>() {
        Some(mut kept) => kept.0.push(Rc::clone(guard)),
        None => drop(lua.set_app_data(Kept(vec![Rc::clone(guard)]))),
    }
    // SAFETY: the builders' rules; the closure's upvalue points to a guard the VM keeps alive.
    unsafe {
        lua.exec_raw::<mlua::Function>((), |l| {
            ffi::lua_pushlightuserdata(l, at);
            ffi::lua_pushcclosure(l, each_call::<G>, 1);
        })
    }
}

/// See [`each_function`].
unsafe extern "C-unwind" fn each_call<G: EachCall>(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: the upvalue points to a live `G` (kept by the VM). The frame owns nothing that
    // needs dropping once `before` has returned, so an error raised by a called function or by
    // `luaL_checkstack` unwinds past it safely. Each call leaves one result above the arguments.
    unsafe {
        let g = &*(ffi::lua_touserdata(l, ffi::lua_upvalueindex(1)) as *const G);
        let n = ffi::lua_gettop(l) - 2;
        let mut done = 0;
        while done < n {
            // A panic must not unwind into Lua's C frames.
            let before = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| g.before()));
            match before.unwrap_or(Before::Stop) {
                Before::Stop => break,
                Before::Call => {}
                Before::RestartCount => ffi::lua_sethook(
                    l,
                    ffi::lua_gethook(l),
                    ffi::lua_gethookmask(l),
                    ffi::lua_gethookcount(l),
                ),
            }
            ffi::luaL_checkstack(l, 3, std::ptr::null());
            ffi::lua_pushvalue(l, 3 + done);
            ffi::lua_pushvalue(l, 1);
            ffi::lua_pushvalue(l, 2);
            ffi::lua_callk(l, 2, 1, 0, None);
            done += 1;
        }
        done
    }
}
