//! What a hex is to a search (`HexKind`: off the board, blocked, open), read from a search's
//! `env` table: `on_board(h)` and `blocked(h)` callbacks, `blocked` as a list of hexes
//! (answered in Rust), and the game's board standing in for a missing `on_board` (the `ctx:`
//! forms). Shared by `search.move_listing` and `search.distances`.
//!
//! A callback's error is kept, the search goes on answering without Lua (its result is thrown
//! away) and [`HexKinds::finish`] re-raises the error.

use super::args::Args;
use hexforge_core::hex::Hex;
use hexforge_core::search::HexKind;
use mlua::{Function, Table, Value};
use rustc_hash::FxHashSet as HashSet;
use std::cell::RefCell;

/// The kinds of hexes for one search call.
pub(super) struct HexKinds<'b> {
    board: Option<&'b dyn Fn(Hex) -> bool>,
    on_board: Option<Function>,
    blocked: Option<Function>,
    blocked_set: Option<HashSet<Hex>>,
    classify: Function,
    failed: RefCell<Option<mlua::Error>>,
}

impl<'b> HexKinds<'b> {
    /// Reads `on_board` and `blocked` from `env` (argument `i`); `board` (the game's board)
    /// stands in for a missing `on_board`. `classify` is the Lua helper that asks both
    /// callbacks of one hex in one call (`H.classify` of the listing helpers).
    pub(super) fn read(
        a: &Args<'_>,
        i: usize,
        env: Option<&Table>,
        board: Option<&'b dyn Fn(Hex) -> bool>,
        classify: &Function,
    ) -> mlua::Result<Self> {
        let on_board = opt_fn(a, i, env, "on_board")?;
        let (blocked, blocked_set) = blocked_arg(a, i, env)?;
        Ok(HexKinds {
            board: board.filter(|_| on_board.is_none()),
            on_board,
            blocked,
            blocked_set,
            classify: classify.clone(),
            failed: RefCell::new(None),
        })
    }

    /// What `x` is. After a callback failed, answers without Lua.
    pub(super) fn kind(&self, x: Hex) -> HexKind {
        if self.board.is_some_and(|b| !b(x)) {
            return HexKind::OffBoard;
        }
        // A list of blocked hexes is answered here, after `on_board` (as the function would be).
        let in_set = self.blocked_set.as_ref().is_some_and(|s| s.contains(&x));
        if (self.on_board.is_none() && self.blocked.is_none()) || self.failed() {
            return if in_set {
                HexKind::Blocked
            } else {
                HexKind::Open
            };
        }
        match self
            .classify
            .call::<i64>((self.on_board.clone(), self.blocked.clone(), x.q, x.r))
        {
            Ok(0) => HexKind::OffBoard,
            Ok(2) => HexKind::Blocked,
            Ok(_) if in_set => HexKind::Blocked,
            Ok(_) => HexKind::Open,
            Err(e) => {
                self.fail(e);
                HexKind::Open
            }
        }
    }

    /// Whether a callback of this search has failed.
    pub(super) fn failed(&self) -> bool {
        self.failed.borrow().is_some()
    }

    /// Keeps the first error of this search's callbacks.
    pub(super) fn fail(&self, e: mlua::Error) {
        let mut f = self.failed.borrow_mut();
        if f.is_none() {
            *f = Some(e);
        }
    }

    /// The first callback error, if any: the search's result must then be thrown away.
    pub(super) fn finish(self) -> mlua::Result<()> {
        self.failed.into_inner().map_or(Ok(()), Err)
    }
}

pub(super) fn opt_fn(
    a: &Args<'_>,
    i: usize,
    t: Option<&Table>,
    key: &'static str,
) -> mlua::Result<Option<Function>> {
    let Some(t) = t else { return Ok(None) };
    // Not raw: a mod's env may inherit its fields through `__index` (a forced-crash copy).
    match a.field(t, key, false)? {
        Value::Nil => Ok(None),
        Value::Function(f) => Ok(Some(f)),
        v => Err(a.err(
            i,
            &format!("{key}: expected a function, got {}", v.type_name()),
        )),
    }
}

/// `env.blocked`: a function of a hex, or a list of the blocked hexes (answered in Rust: no Lua
/// call per hex).
fn blocked_arg(
    a: &Args<'_>,
    i: usize,
    env: Option<&Table>,
) -> mlua::Result<(Option<Function>, Option<HashSet<Hex>>)> {
    let Some(t) = env else {
        return Ok((None, None));
    };
    // Not raw, as `opt_fn`.
    match a.field(t, "blocked", false)? {
        Value::Nil => Ok((None, None)),
        Value::Function(f) => Ok((Some(f), None)),
        Value::Table(list) => {
            let mut set = HashSet::default();
            for (n, v) in list.sequence_values::<Value>().enumerate() {
                let h = a
                    .hex_of(&v?)
                    .map_err(|m| a.err(i, &format!("blocked: item {}: {m}", n + 1)))?;
                set.insert(h);
            }
            Ok((None, Some(set)))
        }
        v => Err(a.err(
            i,
            &format!(
                "blocked: expected a function or a list of hexes, got {}",
                v.type_name()
            ),
        )),
    }
}
