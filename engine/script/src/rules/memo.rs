//! Remembering the victory callback's answer while nothing it read has changed.
//!
//! The engine asks `game.victory` after every action, and most actions change nothing a victory
//! condition looks at (a ship's charge, a crew's round, the next phase of the same turn). A
//! read-only callback is a function of what it reads through its `ctx` (that is the contract
//! that makes hot reload and replays work: no state lives in the VM), so while the engine
//! records those reads, it can tell later whether the same call would read the same things.
//!
//! While victory runs, every read method of its ctx notes a [`Read`]: the question (which pieces,
//! which side, which global, which ctx field) and what the state answered. Before the next call,
//! [`Memo::holds`] asks each question again of the new state, in Rust, and compares: all equal
//! means the callback would get exactly the same answers, so its result is returned without a
//! call. A read method that is not tracked here (board queries, `ctx:legal`) marks the call
//! untracked and nothing is remembered.
//!
//! Fields of the ctx (`ctx.round`, `ctx.phase`, `ctx.options`, ...) are plain table fields in
//! other callbacks; the victory ctx serves them through `__index` once each (see
//! `rules::tracked_mt`), which notes the names read ([`note_field`]), so that
//! reading `ctx.options` alone does not make every phase change a reason to call again.
//!
//! Deliberately narrow: only victory is remembered (it runs after every action, returns plain
//! data and cannot write). Listings and checks return values Lua code goes on using.

use super::{Light, LuaRules};
use hexforge_core::hex::Hex;
use hexforge_game::{GameState, Outcome, Piece, PieceId, Position, SideState};
use serde_json::Value as Json;
use std::cell::{Cell, RefCell};

/// The ctx fields a tracked ctx serves through `__index` (every field `make_ctx` sets).
pub(crate) const CTX_FIELDS: [&str; 9] = [
    "round",
    "segment",
    "phase",
    "label",
    "turn_limit",
    "active",
    "acting",
    "scenario",
    "options",
];

thread_local! {
    /// The ctx fields read by tracked ctxs since [`reset_fields`], one bit each (see
    /// `rules::tracked_mt`). Per thread, not per call: a victory ctx kept by a
    /// mod and read later marks its field in whatever victory call runs then, which only makes
    /// that call's memo check one more field.
    static FIELDS_READ: std::cell::Cell<u16> = const { std::cell::Cell::new(0) };
}

/// Notes that field `i` of [`CTX_FIELDS`] was read through a tracked ctx.
pub(crate) fn note_field(i: usize) {
    let _ = FIELDS_READ.try_with(|f| f.set(f.get() | (1 << i)));
}

/// Forgets the fields read (before a victory call).
pub(crate) fn reset_fields() {
    let _ = FIELDS_READ.try_with(|f| f.set(0));
}

/// The fields of [`CTX_FIELDS`] read through tracked ctxs since [`reset_fields`].
pub(crate) fn fields_read() -> impl Iterator<Item = &'static str> {
    let bits = FIELDS_READ
        .try_with(std::cell::Cell::get)
        .unwrap_or(u16::MAX);
    CTX_FIELDS
        .into_iter()
        .enumerate()
        .filter(move |(i, _)| bits & (1 << i) != 0)
        .map(|(_, n)| n)
}

/// The `ctx:pieces` filter, as Rust can ask it again.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PieceQuery {
    pub owner: Option<String>,
    pub kind: Option<String>,
    pub location: Option<String>,
    pub at: Option<Hex>,
    /// `fields`: light rows with only these; `None` for whole snapshots.
    pub fields: Option<Vec<Light>>,
}

impl PieceQuery {
    /// Whether `p` passes the filter (`footprint` gives the hexes a piece covers).
    pub fn matches(&self, p: &Piece, footprint: impl Fn(&Piece) -> Vec<Hex>) -> bool {
        !(self.owner.as_ref().is_some_and(|o| p.owner.as_str() != o)
            || self.kind.as_ref().is_some_and(|k| &p.kind != k)
            || self.at.is_some_and(|h| !footprint(p).contains(&h))
            || self.location.as_ref().is_some_and(
                |l| !matches!(&p.pos, Position::Node { location, .. } if location == l),
            ))
    }

    /// Whether a callback reading `a` through this query would see what it saw in `b`.
    fn same(&self, a: &Piece, b: &Piece) -> bool {
        let Some(fields) = &self.fields else {
            return a == b;
        };
        a.id == b.id
            && fields.iter().all(|f| match f {
                Light::Id => true,
                Light::Type | Light::Stats => a.kind == b.kind,
                Light::Owner => a.owner == b.owner,
                Light::Hex | Light::Position => a.pos == b.pos,
                Light::Facing => a.facing == b.facing,
                // Shared until changed: equal pointers compare in no time.
                Light::Values => a.values == b.values,
            })
    }
}

/// One question a callback asked through its ctx, with the state's answer.
#[derive(Debug)]
pub(crate) enum Read {
    /// `ctx.<name>` and its value.
    Field(&'static str, Json),
    /// `ctx:sides()`.
    Sides(std::sync::Arc<Vec<SideState>>),
    /// `ctx:side(id)`.
    Side(String, Option<SideState>),
    /// `ctx:piece(id)`.
    Piece(PieceId, Option<Piece>),
    /// `ctx:exists(id)`.
    Exists(PieceId, bool),
    /// `ctx:pieces(filter)` and the pieces it matched, in order (clones share their values).
    Pieces(PieceQuery, Vec<Piece>),
    /// `ctx:global(key)`.
    Global(String, Option<Json>),
}

impl Read {
    /// Whether asking again of `s` gives the same answer.
    fn holds(&self, rules: &LuaRules, s: &GameState) -> bool {
        match self {
            Read::Field(name, v) => *field_json(rules, s, name) == *v,
            Read::Sides(v) => std::sync::Arc::ptr_eq(&s.sides, v) || s.sides == *v,
            Read::Side(id, v) => s.sides.iter().find(|x| x.id.as_str() == id) == v.as_ref(),
            Read::Piece(id, v) => s.pieces.get(id) == v.as_ref(),
            Read::Exists(id, v) => s.pieces.contains_key(id) == *v,
            Read::Pieces(q, seen) => {
                let mut now = s
                    .pieces
                    .values()
                    .filter(|p| q.matches(p, |p| rules.footprint_of(p)));
                seen.iter()
                    .all(|a| now.next().is_some_and(|b| q.same(a, b)))
                    && now.next().is_none()
            }
            Read::Global(k, v) => s.globals.get(k) == v.as_ref(),
        }
    }
}

/// The value of ctx field `name` for state `s` (as `make_ctx` sets it, as JSON). The options
/// are lent, not copied: victory's memo compares them after every action.
pub(crate) fn field_json<'s>(
    rules: &LuaRules,
    s: &'s GameState,
    name: &str,
) -> std::borrow::Cow<'s, Json> {
    use std::borrow::Cow;
    let turns = hexforge_game::Rules::turn_structure(rules);
    let text = |x: Option<&str>| x.map_or(Json::Null, |x| Json::String(x.to_owned()));
    Cow::Owned(match name {
        "round" => Json::from(s.clock.round),
        "segment" => Json::from(s.clock.segment),
        "phase" => text(s.phase_id(turns)),
        "label" => text(s.clock.label.as_deref()),
        "turn_limit" => s.effective_turn_limit(turns).map_or(Json::Null, Json::from),
        "active" => text(
            s.clock
                .turn_index
                .and_then(|i| s.clock.order.get(i as usize))
                .map(String::as_str),
        ),
        "acting" => Json::from(
            s.clock
                .acting
                .iter()
                .map(|x| x.as_str().to_owned())
                .collect::<Vec<_>>(),
        ),
        "scenario" => Json::String(s.scenario.clone()),
        "options" => return Cow::Borrowed(&*s.options),
        _ => Json::Null,
    })
}

/// The reads of the running tracked call (none outside one).
#[derive(Debug, Default)]
pub(crate) struct Recorder {
    reads: RefCell<Option<Vec<Read>>>,
    /// A read that cannot be asked again happened.
    untracked: Cell<bool>,
}

impl Recorder {
    /// Starts recording (a fresh list).
    pub fn start(&self) {
        *self.reads.borrow_mut() = Some(Vec::new());
        self.untracked.set(false);
    }

    /// Stops recording: the reads, or `None` when one could not be tracked.
    pub fn stop(&self) -> Option<Vec<Read>> {
        let reads = self.reads.borrow_mut().take();
        if self.untracked.replace(false) {
            return None;
        }
        reads
    }

    /// Notes a read (built only while recording).
    pub fn note(&self, read: impl FnOnce() -> Read) {
        if let Some(r) = self.reads.borrow_mut().as_mut() {
            r.push(read());
        }
    }

    /// Notes a read that cannot be asked again: nothing of this call is remembered.
    pub fn untracked(&self) {
        if self.reads.borrow().is_some() {
            self.untracked.set(true);
        }
    }
}

/// The last victory answer and every read it was made from.
#[derive(Debug)]
pub(crate) struct Memo {
    pub reads: Vec<Read>,
    pub result: Option<Outcome>,
}

impl Memo {
    /// Whether every read gives the same answer in `s` (so victory would answer the same).
    pub fn holds(&self, rules: &LuaRules, s: &GameState) -> bool {
        self.reads.iter().all(|r| r.holds(rules, s))
    }
}
