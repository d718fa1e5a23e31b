//! The one module of the script crate that uses the Lua C API (the ctx sessions in
//! `rules::session` keep their own pointers); the rest of the crate uses mlua and the safe
//! pieces here: [`Stack`] (reading plain values off a Lua stack, [`read`]), [`Args`] and [`Ret`]
//! (a ctx method's arguments and results), the table builders ([`json_table`], [`copy`],
//! [`rows`], [`template`], ...), [`frozen_tables`] and the budget's [`each_function`].
//!
//! Why this is sound:
//! - **Reading raises nothing.** [`Stack`] calls only `lua_type`, `lua_toboolean`,
//!   `lua_isinteger`, `lua_tointegerx`, `lua_tonumberx`, `lua_topointer`, `lua_getmetatable`,
//!   `lua_pushvalue`, `lua_settop`, `lua_rawlen`, `lua_rawgeti` and `lua_next` on checked
//!   tables, and `lua_tolstring` on strings only; stack space comes from `lua_checkstack`, which
//!   reports failure. So no `longjmp` crosses a walk's Rust frames, whatever they own.
//! - **Indices are checked.** A `Stack` knows its exact height (while it is lent out, mlua's
//!   operations restore the height they found) and a floor it never pops below. Every index is
//!   checked against the height; a [`Table`] token is made only for a checked table, pins its
//!   slot above the floor and cannot leave the closure it was lent to (a higher-ranked
//!   lifetime); `lua_next` gets back only its own key, which nothing can pop or replace. Each
//!   `Stack` has its own brand, so two cannot be swapped.
//! - **Borrowed strings stay.** [`Stack::bytes`] borrows the handle, so nothing pops the string
//!   while the slice lives; a value on the stack is reachable, and Lua strings never move.
//! - **[`Args`]** is made only by mlua's callback wrapper from the values it was called with,
//!   which stay in their slots until the callback returns; `read!`/`write!` lend it to a
//!   method's body by reference, so nothing keeps it past the call.
//! - **Builders** run in `exec_raw`'s protected call and may raise (out of memory): their frames
//!   own nothing that needs dropping (borrowed JSON, integers, iterators), every slot they use
//!   was pushed by `exec_raw` or by them after a `luaL_checkstack`, and every table they write
//!   is fresh (no metatable, not frozen), so `lua_rawset` with string or integer keys only stores.

#![allow(unsafe_code)]

use crate::layout::{RowCell, TemplateCells, after_table, flat_sizes, is_hex, members};
use mlua::state::RawLua;
use mlua::{FromLuaMulti, IntoLuaMulti, Lua, MultiValue, Value, ffi};
use serde_json::Value as Json;
use std::marker::PhantomData;
use std::os::raw::c_int;
use std::rc::Rc;

/// A Lua value's type, as `lua_type` gives it ([`kind::NONE`]: no value there).
pub(crate) type Kind = c_int;

/// The values of [`Kind`].
pub(crate) mod kind {
    pub(crate) use mlua::ffi::{
        LUA_TBOOLEAN as BOOLEAN, LUA_TFUNCTION as FUNCTION, LUA_TLIGHTUSERDATA as LIGHTUSERDATA,
        LUA_TNIL as NIL, LUA_TNONE as NONE, LUA_TNUMBER as NUMBER, LUA_TSTRING as STRING,
        LUA_TTABLE as TABLE, LUA_TTHREAD as THREAD, LUA_TUSERDATA as USERDATA,
    };
}

/// A Lua stack lent out for reading (see the module header): its exact height `top`, the
/// `floor` at or below which nothing is popped, the slots `reserved` by `lua_checkstack`.
/// Indices are absolute.
pub(crate) struct Stack<'s> {
    l: *mut ffi::lua_State,
    top: c_int,
    floor: c_int,
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
        f(&mut Stack::new(l, top))
    }

    /// A handle on `l` with `top` values, none of which it pops.
    fn new(l: *mut ffi::lua_State, top: c_int) -> Self {
        let (floor, reserved, _brand) = (top, top, PhantomData);
        Stack {
            l,
            top,
            floor,
            reserved,
            _brand,
        }
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
        if self.top + n > self.reserved {
            // SAFETY: reports failure instead of raising.
            if unsafe { ffi::lua_checkstack(self.l, n + 4) } == 0 {
                return false;
            }
            self.reserved = self.top + n + 4;
        }
        true
    }

    /// The type of the value at `at` ([`kind::NONE`] above the top).
    pub(crate) fn kind(&self, at: c_int) -> Kind {
        // SAFETY: a checked index.
        if self.has(at) {
            unsafe { ffi::lua_type(self.l, at) }
        } else {
            kind::NONE
        }
    }

    /// The value at `at` as a condition (false for nil, false and nothing).
    pub(crate) fn truthy(&self, at: c_int) -> bool {
        // SAFETY: a checked index.
        self.has(at) && unsafe { ffi::lua_toboolean(self.l, at) } != 0
    }

    /// The value at `at` when it is an integer (not a float or a string).
    pub(crate) fn integer(&self, at: c_int) -> Option<i64> {
        // SAFETY: a checked index; an integer converts to itself.
        (self.has(at) && unsafe { ffi::lua_isinteger(self.l, at) } != 0)
            .then(|| unsafe { ffi::lua_tointegerx(self.l, at, std::ptr::null_mut()) })
    }

    /// The value at `at` when it is a number, as a float.
    pub(crate) fn float(&self, at: c_int) -> Option<f64> {
        // SAFETY: a number at a checked index.
        (self.kind(at) == kind::NUMBER)
            .then(|| unsafe { ffi::lua_tonumberx(self.l, at, std::ptr::null_mut()) })
    }

    /// The bytes of the string at `at` (numbers are not converted), borrowed from Lua: nothing
    /// pops the string while `self` is borrowed.
    pub(crate) fn bytes(&self, at: c_int) -> Option<&[u8]> {
        if self.kind(at) != kind::STRING {
            return None;
        }
        let mut len = 0usize;
        // SAFETY: a string at a checked index; it stays while `self` is borrowed.
        unsafe {
            let p = ffi::lua_tolstring(self.l, at, &mut len);
            (!p.is_null()).then(|| std::slice::from_raw_parts(p.cast::<u8>(), len))
        }
    }

    /// The address of the table at `at`.
    fn address(&self, at: c_int) -> Option<usize> {
        // SAFETY: a table at a checked index.
        (self.kind(at) == kind::TABLE).then(|| unsafe { ffi::lua_topointer(self.l, at) } as usize)
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
        if self.kind(at) != kind::TABLE {
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
        let (l, _brand) = (self.l, PhantomData);
        let r = f(self, Table { l, at, _brand });
        self.floor = floor;
        Some(r)
    }

    /// The raw length (`#`) of `t`.
    pub(crate) fn len(&self, t: Table<'_>) -> usize {
        if t.l != self.l {
            return 0;
        }
        // SAFETY: a pinned table of this stack.
        unsafe { ffi::lua_rawlen(self.l, t.at) }
    }

    /// Pushes `t[i]` (raw) and gives its type; `None` when the stack cannot grow.
    pub(crate) fn geti(&mut self, t: Table<'_>, i: i64) -> Option<Kind> {
        if t.l != self.l || !self.reserve(1) {
            return None;
        }
        // SAFETY: a pinned table of this stack, one slot reserved; a raw read raises nothing.
        unsafe { ffi::lua_rawgeti(self.l, t.at, i) };
        self.top += 1;
        Some(self.kind(self.top))
    }

    /// Calls `f(stack, key, value)` for every field of `t` in `lua_next` order, the key and the
    /// value pushed, popped after; stops at the first `None` (and gives it).
    pub(crate) fn pairs(
        &mut self,
        t: Table<'_>,
        mut f: impl FnMut(&mut Self, c_int, c_int) -> Option<()>,
    ) -> Option<()> {
        if t.l != self.l || !self.reserve(2) {
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

/// Runs `f` on `v` pushed on the stack of the thread mlua runs (`f` gets its index), without a
/// protected call (reading raises nothing). Errors only if the stack cannot grow.
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
/// `base` is the index of `self`, `n` the number of values passed with it.
pub(crate) struct Args {
    l: *mut ffi::lua_State,
    base: c_int,
    n: c_int,
}

impl FromLuaMulti for Args {
    fn from_lua_multi(_: MultiValue, _: &Lua) -> mlua::Result<Self> {
        // Only mlua's callback wrapper makes Args (from the stack); nothing converts a list.
        Err(mlua::Error::runtime("ctx arguments are read off the stack"))
    }

    unsafe fn from_stack_multi(nvals: c_int, lua: &RawLua) -> mlua::Result<Self> {
        let l = lua.state();
        // SAFETY: called by mlua with the callback's arguments as the top `nvals` values.
        let top = unsafe { ffi::lua_gettop(l) };
        let (base, n) = (top - nvals + 1, nvals);
        Ok(Args { l, base, n })
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

    /// The arguments for reading in place: they sit in live slots for the whole call, and
    /// nothing is above them between mlua's operations (module header). Never lent mutably.
    fn view(&self) -> Stack<'_> {
        Stack::new(self.l, self.base + self.n - 1)
    }

    /// The type of argument `i` (`None`: `self`; [`kind::NONE`] when not passed).
    pub(crate) fn kind(&self, i: Option<usize>) -> Kind {
        self.slot(i).map_or(kind::NONE, |at| self.view().kind(at))
    }

    /// Argument `i` (`None`: `self`) as a value, nil when not passed. Numbers, booleans and nil
    /// are read in place; strings, tables and the rest become a reference.
    pub(crate) fn value(&self, lua: &Lua, i: Option<usize>) -> mlua::Result<Value> {
        let (Some(at), s) = (self.slot(i), self.view()) else {
            return Ok(Value::Nil);
        };
        match s.kind(at) {
            kind::NIL | kind::NONE => Ok(Value::Nil),
            kind::BOOLEAN => Ok(Value::Boolean(s.truthy(at))),
            kind::NUMBER => Ok(match s.integer(at) {
                Some(i) => Value::Integer(i),
                None => Value::Number(s.float(at).unwrap_or(f64::NAN)),
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

    /// Argument `i` when it is a string (nothing else is converted to one), as mlua's
    /// `to_string_lossy` gives it.
    pub(crate) fn string(&self, i: usize) -> Option<String> {
        let view = self.view();
        Some(String::from_utf8_lossy(view.bytes(self.slot(Some(i))?)?).into_owned())
    }

    /// The address of `self` when it is a table (how sessions know their ctx).
    pub(crate) fn this_address(&self) -> Option<usize> {
        self.view().address(self.slot(None)?)
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
    fn into_lua_multi(self, lua: &Lua) -> mlua::Result<MultiValue> {
        match self {
            Ret::One(v) => v.into_lua_multi(lua),
            Ret::Two(a, b) => (a, b).into_lua_multi(lua),
            Ret::Many(m) => Ok(m),
        }
    }

    unsafe fn push_into_stack_multi(self, lua: &RawLua) -> mlua::Result<c_int> {
        // SAFETY: mlua's own pushes, called as mlua calls this one.
        unsafe {
            match self {
                Ret::One(v) => v.push_into_stack_multi(lua),
                Ret::Two(a, b) => (a, b).push_into_stack_multi(lua),
                Ret::Many(m) => m.push_into_stack_multi(lua),
            }
        }
    }
}

// The builders. Each runs in one protected call (`exec_raw` pushes its arguments in slots 1..
// and takes the one value left) and lays tables out as the Lua constructor or mlua call it
// replaced did: the same sizes, the same insertion order, so `pairs` visits keys in the same
// order and games stay the same. Through mlua each nested table or string was a protected call
// of its own (about 1,000 instructions). All raise only out of memory.

// Hexforge's Lua patch (`vendor/lua-src/PATCHES.md`): `clone` pushes a writable copy of the
// table at `idx` with the same layout and no metatable (`deep`: nested tables too); `freeze`
// marks it and the tables reachable from it read-only; `freeze(t)` and `copy(t)` (shallow) are
// the same as Lua functions.
unsafe extern "C-unwind" {
    fn lua_hexforge_clone(l: *mut ffi::lua_State, idx: c_int, deep: c_int);
    fn lua_hexforge_freeze(l: *mut ffi::lua_State, idx: c_int);
    fn hexforge_freeze_f(l: *mut ffi::lua_State) -> c_int;
    fn hexforge_copy_f(l: *mut ffi::lua_State) -> c_int;
}

/// The patched VM's `copy(t)` and `freeze(t)`, for the engine's own Lua (never a mod's).
pub(crate) fn frozen_tables(lua: &Lua) -> mlua::Result<(mlua::Function, mlua::Function)> {
    // SAFETY: ordinary `lua_CFunction`s of the vendored Lua, raising the usual way.
    unsafe {
        let copy = lua.create_c_function(hexforge_copy_f)?;
        Ok((copy, lua.create_c_function(hexforge_freeze_f)?))
    }
}

/// Sets `t[<slot key>] = <slot value>` (two free slots).
unsafe fn set(l: *mut ffi::lua_State, t: c_int, key: c_int, value: c_int) {
    // SAFETY: the builders' rules: a fresh table, valid slots, string or integer keys.
    unsafe {
        ffi::lua_pushvalue(l, key);
        ffi::lua_pushvalue(l, value);
        ffi::lua_rawset(l, t);
    }
}

/// Sets on the table `t` the pairs `key, value` in the slots `from..=last`.
unsafe fn set_pairs(l: *mut ffi::lua_State, t: c_int, from: c_int, last: c_int) {
    for i in (from..last).step_by(2) {
        // SAFETY: the caller's guarantee.
        unsafe { set(l, t, i, i + 1) };
    }
}

/// Pushes the key in slot `key`, then a new `{ q = <slot qr>, r = <slot qr + 1> }`, and sets it
/// on `t` (three free slots).
unsafe fn set_hex(l: *mut ffi::lua_State, t: c_int, key: c_int, qr: c_int) {
    // SAFETY: the builders' rules.
    unsafe {
        ffi::lua_pushvalue(l, key);
        ffi::lua_createtable(l, 0, 2);
        ffi::lua_pushvalue(l, qr);
        ffi::lua_setfield(l, -2, c"q".as_ptr());
        ffi::lua_pushvalue(l, qr + 1);
        ffi::lua_setfield(l, -2, c"r".as_ptr());
        ffi::lua_rawset(l, t);
    }
}

/// What [`json_table`] builds.
#[derive(Clone, Copy)]
pub(crate) enum JsonAs<'a> {
    /// A new table, laid out as mlua's `create_table_from` does (sized for the non-null members).
    Table,
    /// An action's table for callbacks: its params (or an empty table), `id` and `side` set.
    Action { id: &'a str, side: &'a str },
    /// The frozen template of a [`flat`](crate::layout::flat) value, laid out as the general
    /// builder does ([`flat_sizes`]), plain fields first, then hexes.
    Flat,
}

/// A JSON array or object as a new Lua table, built as `how` says. Errors: out of memory, or
/// nesting too deep for the Lua stack.
pub(crate) fn json_table(lua: &Lua, v: &Json, how: JsonAs<'_>) -> mlua::Result<mlua::Table> {
    let hex = |x: &Json| matches!(x, Json::Object(m) if is_hex(m));
    // SAFETY: the builders' rules; `push_json` checks the stack. Keys are integers from 1 or
    // strings; a hex is `{ q, r }`, with `q` set first (map keys are sorted).
    unsafe {
        lua.exec_raw::<mlua::Table>((), |l| match how {
            JsonAs::Table => push_json(l, v),
            JsonAs::Action { id, side } => {
                match v {
                    Json::Object(_) | Json::Array(_) => push_json(l, v),
                    _ => ffi::lua_createtable(l, 0, 0),
                }
                ffi::lua_pushlstring(l, id.as_ptr().cast(), id.len());
                ffi::lua_setfield(l, -2, c"id".as_ptr());
                ffi::lua_pushlstring(l, side.as_ptr().cast(), side.len());
                ffi::lua_setfield(l, -2, c"side".as_ptr());
            }
            JsonAs::Flat => {
                let (narr, nhash) = flat_sizes(v);
                ffi::lua_createtable(l, narr, nhash);
                for hexes in [false, true] {
                    set_members(l, v, |x| !x.is_null() && hex(x) == hexes);
                }
                lua_hexforge_freeze(l, -1);
            }
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
            Json::Array(_) | Json::Object(_) => {
                let n = c_int::try_from(members(v)).unwrap_or(c_int::MAX);
                ffi::lua_createtable(l, 0, n);
                set_members(l, v, |x| !x.is_null());
            }
        }
    }
}

/// Sets on the table on top the members of the array or object `j` that `keep` keeps, in order.
unsafe fn set_members(l: *mut ffi::lua_State, j: &Json, keep: impl Fn(&Json) -> bool) {
    // SAFETY: the builders' rules; `push_json` checks the stack.
    unsafe {
        match j {
            Json::Array(a) => {
                for (i, x) in a.iter().enumerate().filter(|(_, x)| keep(x)) {
                    ffi::lua_pushinteger(l, i as i64 + 1);
                    push_json(l, x);
                    ffi::lua_rawset(l, -3);
                }
            }
            Json::Object(m) => {
                for (k, x) in m.iter().filter(|(_, x)| keep(x)) {
                    ffi::lua_pushlstring(l, k.as_ptr().cast(), k.len());
                    push_json(l, x);
                    ffi::lua_rawset(l, -3);
                }
            }
            _ => {}
        }
    }
}

/// What [`copy`] makes of the copy of its first argument.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum CopyAs {
    /// A deep writable copy (of a frozen template).
    Deep,
    /// A new ctx: a shallow copy of the template with the second argument as its metatable.
    Ctx,
    /// A changed template: a shallow copy with the `key, value` pairs that follow set (existing
    /// keys only, so the layout stays the one a fresh build gives), frozen again.
    Patched,
}

/// A copy of the table `args[0]` with the same layout, made into what `how` says.
pub(crate) fn copy(lua: &Lua, args: impl IntoLuaMulti, how: CopyAs) -> mlua::Result<mlua::Table> {
    // SAFETY: the builders' rules: slots 1..=n (string keys for `Patched`); the copy (n + 1)
    // is fresh.
    unsafe {
        lua.exec_raw::<mlua::Table>(args, |l| {
            let n = ffi::lua_gettop(l);
            ffi::luaL_checkstack(l, 3, std::ptr::null());
            lua_hexforge_clone(l, 1, c_int::from(how == CopyAs::Deep));
            match how {
                CopyAs::Deep => {}
                CopyAs::Ctx => {
                    ffi::lua_pushvalue(l, 2);
                    ffi::lua_setmetatable(l, n + 1);
                }
                CopyAs::Patched => {
                    set_pairs(l, n + 1, 2, n);
                    lua_hexforge_freeze(l, n + 1);
                }
            }
            ffi::lua_copy(l, n + 1, 1);
            ffi::lua_settop(l, 1);
        })
    }
}

/// A fresh sequence of `items` (none nil; with `copies`, all tables, each replaced by a deep
/// writable copy), laid out as `{ ... }` does (an array part of exactly their number).
pub(crate) fn sequence(lua: &Lua, items: Vec<Value>, copies: bool) -> mlua::Result<mlua::Table> {
    // SAFETY: the builders' rules: slots 1..=n; `lua_rawseti` into the presized array part of
    // the fresh list only stores.
    unsafe {
        lua.exec_raw::<mlua::Table>(MultiValue::from_vec(items), |l| {
            let n = ffi::lua_gettop(l);
            ffi::luaL_checkstack(l, 2, std::ptr::null());
            ffi::lua_createtable(l, n, 0);
            for i in 1..=n {
                match copies {
                    true => lua_hexforge_clone(l, i, 1),
                    false => ffi::lua_pushvalue(l, i),
                }
                ffi::lua_rawseti(l, n + 1, ffi::lua_Integer::from(i));
            }
            ffi::lua_rotate(l, 1, 1);
            ffi::lua_settop(l, 1);
        })
    }
}

/// Puts a new table sized `narr` and `nhash` in slot 1 unless a table is there (a build that
/// goes on in the table an earlier call started).
unsafe fn table_in_slot_1(l: *mut ffi::lua_State, narr: c_int, nhash: c_int) {
    // SAFETY: the builders' rules (slot 1 was pushed by `exec_raw`).
    unsafe {
        if ffi::lua_type(l, 1) != ffi::LUA_TTABLE {
            ffi::lua_createtable(l, narr, nhash);
            ffi::lua_replace(l, 1);
        }
    }
}

/// Appends `n` rows to `out` (a new list when `None`) and gives the list. `args`: the field keys,
/// then each row's values in field order (two for [`RowCell::Hex`]). A row gets `presized` hash
/// slots (0: a growing table) and its fields in order, as the Lua builder it replaced did. With
/// `freeze`, every row (and each new table in it) is frozen; the list stays writable.
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
        lua.exec_raw::<mlua::Table>(MultiValue::from_vec(all), |l| {
            ffi::luaL_checkstack(l, 6, std::ptr::null());
            table_in_slot_1(l, 0, 0);
            let base = ffi::lua_rawlen(l, 1) as ffi::lua_Integer;
            let mut j = nf + 2;
            for i in 1..=n as ffi::lua_Integer {
                ffi::lua_createtable(l, 0, presized);
                let t = ffi::lua_gettop(l);
                for (f, kind) in kinds.iter().enumerate() {
                    let key = 2 + f as c_int;
                    let yes = |at| ffi::lua_toboolean(l, at) != 0;
                    match kind {
                        RowCell::Plain if ffi::lua_type(l, j) != ffi::LUA_TNIL => set(l, t, key, j),
                        RowCell::Hex if yes(j + 1) => set_hex(l, t, key, j),
                        RowCell::Hex if yes(j) => set(l, t, key, j),
                        RowCell::Copy if yes(j) => {
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

/// Sets fields on a template: a new table sized `narr` and `nhash` when `into` is `None`, else
/// `into` (started by an earlier call). `args` holds what `cells` counts, set in this order (as
/// the constructors it replaced did): plain pairs, hexes (key, q, r), nested templates. With
/// `freeze` (the last call of a build), the table and the new tables in it are frozen.
pub(crate) fn template(
    lua: &Lua,
    into: Option<&mlua::Table>,
    (narr, nhash): (usize, usize),
    cells: &TemplateCells,
    args: Vec<Value>,
    freeze: bool,
) -> mlua::Result<mlua::Table> {
    let all = after_table(into, args);
    let int = |n: usize| c_int::try_from(n).unwrap_or(0);
    let (plain, hexes, subs) = (int(cells.plain), int(cells.hexes), int(cells.subs));
    // SAFETY: the builders' rules: slot 1 is `into`, then exactly the values `cells` counts;
    // the table is not frozen before the last call.
    unsafe {
        lua.exec_raw::<mlua::Table>(MultiValue::from_vec(all), |l| {
            ffi::luaL_checkstack(l, 4, std::ptr::null());
            table_in_slot_1(l, int(narr), int(nhash));
            set_pairs(l, 1, 2, 1 + 2 * plain);
            let first_hex = 2 + 2 * plain;
            for j in (first_hex..first_hex + 3 * hexes).step_by(3) {
                set_hex(l, 1, j, j + 1);
            }
            let first_sub = first_hex + 3 * hexes;
            set_pairs(l, 1, first_sub, first_sub + 2 * subs - 1);
            if freeze {
                lua_hexforge_freeze(l, 1);
            }
            ffi::lua_settop(l, 1);
        })
    }
}

/// What [`each_function`]'s function does before each call (`RestartCount`: start the hook's
/// instruction count again, installing the same hook anew, then call).
pub(crate) enum Before {
    Stop,
    Call,
    RestartCount,
}

/// Asked before each call of [`each_function`]'s function (the sandbox's budget).
pub(crate) trait EachCall: 'static {
    fn before(&self) -> Before;
}

/// Keeps the guard of [`each_function`] alive as long as the VM (its app data).
#[allow(dead_code, reason = "only kept")]
struct Kept<G>(Rc<G>);

/// `each(a, b, f1, f2, ...)`, a C function: calls `f1(a, b)`, `f2(a, b)`, ... in turn (one
/// result each), asking `guard` before each call, and returns the results so far. Why: a
/// listing calls one function per piece; through mlua each was a protected call.
pub(crate) fn each_function<G: EachCall>(lua: &Lua, guard: &Rc<G>) -> mlua::Result<mlua::Function> {
    if lua.app_data_ref::<Kept<G>>().is_some() {
        return Err(mlua::Error::runtime("one each-function per VM"));
    }
    lua.set_app_data(Kept(Rc::clone(guard)));
    let at = Rc::as_ptr(guard) as *mut std::ffi::c_void;
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
