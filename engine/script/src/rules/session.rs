//! Which game state a `ctx` method acts on: the *sessions* of the callbacks running right now.
//!
//! Every callback gets a fresh `ctx` table; its methods are plain functions shared by every call
//! (`rules::build_methods`) and find their state through `self`. Opening a [`Session`] for a ctx
//! records, in this thread's list of open sessions, the ctx table's address with a pointer to the
//! state (and to the rules) it may see and whether it may write; dropping the session removes the
//! record. The list is per thread, not per VM: a live ctx table's address is unique in the
//! process, whichever VM it belongs to. A method
//! looks its `self` up among the open sessions: found, it borrows the state; not found, the ctx
//! belongs to a callback that has returned (or `self` is not a ctx at all) and the method
//! errors. Sessions nest (`ctx:legal` runs a check inside another callback; a test's `g:edit`).
//!
//! Why not mlua's `scope`: scoped handles were two userdata, a metatable and a destructor list
//! per callback, and three metatable reads per method call; with tens of thousands of callbacks
//! a game that was a tenth of the time. Here a session is one small record and a method call one
//! short search.
//!
//! ## Why the pointers are sound
//! - A [`Session`] holds the borrow it was opened with (`&'a GameState` or `&'a mut GameState`,
//!   and `&'a LuaRules`, as its lifetime) for as long as its record exists: the record is
//!   removed in `Drop`, and the constructor is the only place records are made. The pointers
//!   are made from those references at their last use. So a pointer found in a record points
//!   at live data that nothing else touches except through this module while the session lives
//!   (a writable session holds the only `&mut`).
//! - Each record has a borrow flag like `RefCell`'s: [`with_state`] takes a shared borrow, and
//!   [`with_state_mut`] an exclusive one only when there is no other, so no `&mut GameState` is
//!   ever made while a `&GameState` from the same session is alive (a re-entrant write through
//!   a kept outer ctx during a nested callback is refused as "busy").
//! - A nested session over the same state (a check run by `ctx:legal` from a method that holds
//!   a shared borrow) is read-only; a writable session is only opened with a `&mut GameState`
//!   the caller owns exclusively.
//! - A ctx is found by its table's address. A table that is still referenced keeps its address,
//!   so a kept ctx of a finished callback can never match a newer session's ctx; a collected
//!   one no longer exists to be asked. An open session keeps its ctx referenced (the callback's
//!   arguments), so no two open sessions, of one VM or of two, share an address.

#![allow(unsafe_code)]

use super::{Access, LuaRules};
use crate::stack::Args;
use hexforge_game::GameState;
use mlua::{Lua, Table, Value};
use std::cell::{Cell, RefCell};
use std::marker::PhantomData;
use std::ptr::NonNull;
use std::rc::Rc;

/// One open session.
struct Record {
    /// The ctx table's address.
    ctx: usize,
    state: NonNull<GameState>,
    rules: NonNull<LuaRules>,
    writable: bool,
    /// Shared borrows (> 0) or one exclusive borrow (-1) of the state, as in `RefCell`.
    borrow: Cell<isize>,
}

thread_local! {
    /// The open sessions of this thread, innermost last.
    static OPEN: RefCell<Vec<Rc<Record>>> = const { RefCell::new(Vec::new()) };
}

/// An open session: while it lives, `ctx`'s methods act on the state it was opened with.
pub(crate) struct Session<'a> {
    record: Rc<Record>,
    /// The borrows the record points into, held for the session's lifetime: the state (as the
    /// caller's `Access` lent it, possibly exclusively) and the rules. Why not the references
    /// themselves: the record's pointers are the only way to the state while the session lives.
    _borrows: PhantomData<(&'a mut GameState, &'a LuaRules)>,
}

impl<'a> Session<'a> {
    /// Opens a session for `ctx` over `access` (read-only or writable) and `rules`.
    pub fn open(ctx: &Table, access: Access<'a>, rules: &'a LuaRules) -> Self {
        // The writable pointer is made from the `&mut` itself, its last use: from here on the
        // state is reached only through the record.
        let (state, writable) = match access {
            Access::Read(s) => (NonNull::from(s), false),
            Access::Write(s) => (NonNull::from(s), true),
        };
        let record = Rc::new(Record {
            ctx: ctx.to_pointer() as usize,
            state,
            rules: NonNull::from(rules),
            writable,
            borrow: Cell::new(0),
        });
        OPEN.with(|open| open.borrow_mut().push(Rc::clone(&record)));
        Session {
            record,
            _borrows: PhantomData,
        }
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        // The innermost record is this one; searching keeps an out-of-order drop harmless.
        // (`try_with`: during thread teardown the list may already be gone, and with it the
        // record.)
        let _ = OPEN.try_with(|open| {
            let mut open = open.borrow_mut();
            if let Some(i) = open.iter().rposition(|r| Rc::ptr_eq(r, &self.record)) {
                open.remove(i);
            }
        });
    }
}

/// The open session of the ctx `this` (a method's `self`), or the error a method reports.
fn find(lua: &Lua, this: &Args, name: &str) -> mlua::Result<Rc<Record>> {
    let Some(at) = this.this_address() else {
        return Err(colon(name));
    };
    if let Some(r) = record(at) {
        return Ok(r);
    }
    // A ctx has a metatable whose __index serves the methods; anything else was called wrongly.
    let is_ctx = match this.this(lua)? {
        Value::Table(t) => t
            .metatable()
            .is_some_and(|mt| !matches!(mt.raw_get::<Value>("__index"), Ok(Value::Nil) | Err(_))),
        _ => false,
    };
    if is_ctx {
        Err(mlua::Error::runtime(format!(
            "ctx:{name}: this ctx's callback has returned (a ctx works only during the call it \
             was passed to; do not keep it in a table or upvalue)"
        )))
    } else {
        Err(colon(name))
    }
}

fn colon(name: &str) -> mlua::Error {
    mlua::Error::runtime(format!(
        "ctx:{name}: call it on a ctx with a colon (ctx:{name}(...))"
    ))
}

fn busy(name: &str) -> mlua::Error {
    mlua::Error::runtime(format!("ctx:{name}: ctx is busy"))
}

/// The open session of the ctx table at address `ctx`, innermost first.
fn record(ctx: usize) -> Option<Rc<Record>> {
    OPEN.with(|open| open.borrow().iter().rev().find(|r| r.ctx == ctx).cloned())
}

/// Why a session refused a borrow.
enum Refused {
    ReadOnly,
    Busy,
}

/// Runs `f` with the rules and the state of `r`, read-only (see [`with_state`]).
fn read<R>(r: &Record, f: impl FnOnce(&LuaRules, &GameState, bool) -> R) -> Result<R, Refused> {
    let n = r.borrow.get();
    if n < 0 {
        return Err(Refused::Busy);
    }
    r.borrow.set(n + 1);
    // Restores the flag however `f` ends (a panic unwinds through here).
    struct Release<'r>(&'r Cell<isize>);
    impl Drop for Release<'_> {
        fn drop(&mut self) {
            self.0.set(self.0.get() - 1);
        }
    }
    let _release = Release(&r.borrow);
    // SAFETY: the record exists, so its session (which holds these borrows) is alive, and the
    // flag shows no exclusive borrow of the state (see the module header).
    let (rules, state) = unsafe { (r.rules.as_ref(), r.state.as_ref()) };
    Ok(f(rules, state, r.writable))
}

/// Runs `f` with the rules and the state of `r`, writable (see [`with_state_mut`]).
fn write<R>(r: &Record, f: impl FnOnce(&LuaRules, &mut GameState) -> R) -> Result<R, Refused> {
    if !r.writable {
        return Err(Refused::ReadOnly);
    }
    if r.borrow.get() != 0 {
        return Err(Refused::Busy);
    }
    r.borrow.set(-1);
    struct Release<'r>(&'r Cell<isize>);
    impl Drop for Release<'_> {
        fn drop(&mut self) {
            self.0.set(0);
        }
    }
    let _release = Release(&r.borrow);
    let mut state = r.state;
    // SAFETY: the record exists, so its session is alive and was opened with the caller's only
    // `&mut GameState`; the flag was 0, so no other borrow of it is alive (module header).
    let (rules, state) = unsafe { (r.rules.as_ref(), state.as_mut()) };
    Ok(f(rules, state))
}

/// Runs `f` with the rules and the state behind the ctx `this`, read-only, and whether that
/// ctx may write (read methods give writable callbacks fresh copies, others shared tables).
pub(crate) fn with_state<R>(
    lua: &Lua,
    this: &Args,
    name: &str,
    f: impl FnOnce(&LuaRules, &GameState, bool) -> R,
) -> mlua::Result<R> {
    read(&*find(lua, this, name)?, f).map_err(|_| busy(name))
}

/// Runs `f` with the rules and the state behind the writable ctx `this`.
pub(crate) fn with_state_mut<R>(
    lua: &Lua,
    this: &Args,
    name: &str,
    f: impl FnOnce(&LuaRules, &mut GameState) -> R,
) -> mlua::Result<R> {
    write(&*find(lua, this, name)?, f).map_err(|e| match e {
        Refused::ReadOnly => mlua::Error::runtime(format!(
            "ctx:{name} changes the game: only allowed in apply, setup and hooks (not in check, \
             choices or victory)"
        )),
        Refused::Busy => busy(name),
    })
}
