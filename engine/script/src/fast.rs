//! The most called ctx methods served straight off the Lua stack, without mlua.
//!
//! Why: a duel's actions call `ctx:set` about three times each, and `ctx:on_board` and `ctx:log`
//! often. Through mlua every call paid for its callback wrapper (a failure slot reserved, a
//! panic guard, the state swapped), for finding the ctx's session in the VM's app data, for
//! reading the piece id as a `Value` and the key into a `String`, and for pushing the result:
//! about 2,000 instructions before a piece's value was set.
//!
//! Each method here is a C function with one upvalue: the method as mlua builds it
//! (`rules::build_methods`), called the *general way*. The C function serves the usual call
//! itself: `self` an open ctx that may do what the method does, and every argument of the
//! usual kind (an integer piece id of a piece that exists, a UTF-8 string key, a value that
//! [`crate::raw`] reads as JSON, a `{ q =, r = }` of integers). Anything else (an error to
//! report, a float id, a path of keys, a ctx that has returned, a busy or read-only one) goes
//! the general way with the same arguments, so every error and every unusual reading stays
//! exactly what it was. The fast and the general way share the code that changes the state.
//!
//! Why this is sound (the `unsafe` below relies on all of it):
//! - the served part ([`Fast`]) uses only the thread it was called on (its own arguments, read
//!   with calls that raise no error: `lua_type`, `lua_topointer`, `lua_isinteger`,
//!   `lua_tointegerx`, `lua_tolstring` on strings, `lua_next` with its own keys) and pushes at
//!   most one value that allocates nothing (`nil`, a boolean); a C function has `LUA_MINSTACK`
//!   free slots. So it works on any thread, a mod's coroutines included, and never needs mlua's
//!   idea of the running thread;
//! - it runs inside `catch_unwind`, and a panic becomes a plain flag: nothing unwinds into Lua;
//! - the general way and the panic's error are raised from frames that own nothing any more
//!   (everything the served part made is dropped when it returns), so Lua's `longjmp` skips no
//!   destructor;
//! - the state is reached through [`crate::live`]'s sessions with the same borrow rules as the
//!   general way.

#![allow(unsafe_code)]

use crate::live;
use hexforge_game::PieceId;
use mlua::{Function, Lua, ffi};
use std::os::raw::c_int;

/// A served part: `Some(results pushed)` when it served the call, `None` to go the general way.
type Fast = fn(*mut ffi::lua_State) -> Option<c_int>;

/// `general` (the method `name` as mlua builds it) as the function the ctx metatable serves: a C
/// function serving the usual calls itself for the methods this module knows, else `general`
/// unchanged.
///
/// # Errors
/// Out of memory.
pub(crate) fn wrap(lua: &Lua, name: &str, general: Function) -> mlua::Result<Function> {
    let c: ffi::lua_CFunction = match name {
        "set" => set,
        "log" => log,
        "on_board" => on_board,
        _ => return Ok(general),
    };
    // SAFETY: `exec_raw` pushes `general` and runs the closure in a protected call;
    // `lua_pushcclosure` pops it as the upvalue and pushes the closure (it allocates: an error
    // is raised into that protected call, past a closure that owns nothing).
    unsafe { lua.exec_raw::<Function>(general, |l| ffi::lua_pushcclosure(l, c, 1)) }
}

unsafe extern "C-unwind" fn set(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: called by Lua as a C function with its upvalue (module header).
    unsafe { serve(l, serve_set) }
}

unsafe extern "C-unwind" fn log(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as `set`.
    unsafe { serve(l, serve_log) }
}

unsafe extern "C-unwind" fn on_board(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as `set`.
    unsafe { serve(l, serve_on_board) }
}

#[cfg(test)]
thread_local! {
    /// How many calls the served parts served on this thread (tests check the fast way runs).
    pub(crate) static SERVED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// What the served part did, as plain data (nothing left to drop).
#[derive(Clone, Copy)]
enum Served {
    Done(c_int),
    General,
    Panicked,
}

/// Runs `fast`; when it did not serve the call, the general way does.
///
/// # Safety
/// Called from a C function Lua called, whose upvalue 1 is the general method.
unsafe fn serve(l: *mut ffi::lua_State, fast: Fast) -> c_int {
    let served = match std::panic::catch_unwind(|| fast(l)) {
        Ok(Some(n)) => Served::Done(n),
        Ok(None) => Served::General,
        Err(payload) => {
            drop(payload);
            Served::Panicked
        }
    };
    // SAFETY (whole block): this frame owns nothing now (`served` is plain data), so a Lua error
    // raised below skips no destructor; the stack has the arguments as Lua passed them (a
    // served part that declined pushed nothing) and LUA_MINSTACK free slots.
    unsafe {
        match served {
            Served::Done(n) => {
                #[cfg(test)]
                SERVED.with(|c| c.set(c.get() + 1));
                n
            }
            Served::General => {
                let n = ffi::lua_gettop(l);
                ffi::lua_pushvalue(l, ffi::lua_upvalueindex(1));
                ffi::lua_rotate(l, 1, 1);
                ffi::lua_callk(l, n, ffi::LUA_MULTRET, 0, None);
                ffi::lua_gettop(l)
            }
            Served::Panicked => {
                ffi::lua_pushstring(
                    l,
                    c"internal error in a ctx method (a bug in Hexforge)".as_ptr(),
                );
                ffi::lua_error(l)
            }
        }
    }
}

/// The address of the ctx table `self` (index 1), if it is a table.
fn this(l: *mut ffi::lua_State) -> Option<usize> {
    // SAFETY: index 1 is valid or none in a C function; neither call raises.
    unsafe { (ffi::lua_type(l, 1) == ffi::LUA_TTABLE).then(|| ffi::lua_topointer(l, 1) as usize) }
}

/// The integer at `at` as a piece id, if it is one.
fn piece_id(l: *mut ffi::lua_State, at: c_int) -> Option<PieceId> {
    // SAFETY: neither call raises; `lua_tointegerx` reads an integer in place.
    unsafe {
        if ffi::lua_isinteger(l, at) == 0 {
            return None;
        }
        u32::try_from(ffi::lua_tointegerx(l, at, std::ptr::null_mut()))
            .ok()
            .map(PieceId)
    }
}

/// The bytes of the string at `at`, if it is a string (see [`crate::raw::bytes_at`]).
///
/// The slice lives as long as the argument stays in its slot: for the served part's whole run.
fn bytes<'a>(l: *mut ffi::lua_State, at: c_int) -> Option<&'a [u8]> {
    // SAFETY: an argument slot (or none); a string there does not move or get collected while
    // the served part runs (it allocates nothing in Lua).
    unsafe { crate::raw::bytes_at(l, at) }
}

/// Pushes nil as the one result (as the general way returns it).
fn nil(l: *mut ffi::lua_State) -> Option<c_int> {
    // SAFETY: a C function has free slots; pushing nil allocates nothing.
    unsafe { ffi::lua_pushnil(l) };
    Some(1)
}

/// `ctx:set(id, key, v)`: an integer id of a piece, a UTF-8 key, a value read as JSON.
fn serve_set(l: *mut ffi::lua_State) -> Option<c_int> {
    let ctx = this(l)?;
    let id = piece_id(l, 2)?;
    let key = std::str::from_utf8(bytes(l, 3)?).ok()?;
    // SAFETY: index 4 is valid when passed (`json_at` raises nothing and restores the stack).
    let v = if unsafe { ffi::lua_gettop(l) } >= 4 {
        unsafe { crate::raw::json_at(l, 4) }?
    } else {
        serde_json::Value::Null
    };
    live::try_with_state_mut(ctx, |rules, s| {
        let p = s.pieces.get_mut(&id)?;
        crate::rules::set_value(rules, p, key, v);
        Some(())
    })??;
    nil(l)
}

/// `ctx:log(text)`: the text when it is a string, else an empty line (as the general way).
fn serve_log(l: *mut ffi::lua_State) -> Option<c_int> {
    let ctx = this(l)?;
    let text = bytes(l, 2).map_or_else(String::new, |b| String::from_utf8_lossy(b).into_owned());
    live::try_with_state_mut(ctx, |_, s| s.emit(text))?;
    nil(l)
}

/// `ctx:on_board(hex)`: a `{ q =, r = }` of integers within the coordinate limit.
fn serve_on_board(l: *mut ffi::lua_State) -> Option<c_int> {
    use crate::api::args::COORD_LIMIT;
    let ctx = this(l)?;
    // SAFETY: index 2 is valid or none (`hex_coords_at` checks the type first).
    let (q, r) = unsafe { crate::stack::hex_coords_at(l, 2) }?;
    if q.abs() > COORD_LIMIT || r.abs() > COORD_LIMIT {
        return None;
    }
    let h = hexforge_core::hex::Hex::new(q as i32, r as i32);
    let inside = live::try_with_state(ctx, |rules, s, _| {
        // Not a read victory's memo can ask again (as the general way says).
        rules.recorder.untracked();
        s.board.shape.as_ref().is_none_or(|b| b.contains(h))
    })?;
    // SAFETY: a C function has free slots; a boolean allocates nothing.
    unsafe { ffi::lua_pushboolean(l, c_int::from(inside)) };
    Some(1)
}
