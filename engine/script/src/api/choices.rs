//! Choice lists: many legal actions kept in Rust, for a mod's `choices` to return as they are.
//!
//! Why they exist: a movement listing offers every end position and facing of a ship, often
//! hundreds of moves. Made as Lua tables, each move was a decoded record, then the mod's own
//! choice table, then garbage, and a random bot needed one of them; that was a sixth of an
//! orbital-skirmish game. A choice list keeps the engine's search result instead and makes the
//! action params of one choice on demand: as JSON when the engine lists or picks actions, as a
//! fresh Lua table when a mod reads `list[i]`.
//!
//! In Lua a choice list reads like a list that cannot be changed: `#list`, `list[i]` (a fresh
//! table each time), `ipairs(list)`. A `choices` callback may return it as one item of its list;
//! the engine expands it there, in order (see [`crate::rules`]).
//!
//! `ctx:move_choices(start, facings, rules, env, params)` and `search.move_choices` (the
//! `search` namespace) make them: the moves of `search.move_listing`, each choice `params` plus
//! `plan`, `to`, `facing`, `start_facing` when more than one start facing was offered, and `path`
//! with `rules.paths`.

use hexforge_core::hex::Hex;
use hexforge_core::search::{ListedMove, MoveListing};
use mlua::{Lua, MetaMethod, UserData, UserDataMethods, Value};
use serde_json::{Map, Value as Json};
use std::rc::Rc;

/// The fields a move choice sets itself; `params` may not give them.
pub const MOVE_FIELDS: [&str; 5] = ["plan", "to", "facing", "start_facing", "path"];

/// Which of a listing's three lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveList {
    /// Moves that end on the map.
    Ends,
    /// Moves off the map (and crashes, when the rules crash).
    Exits,
    /// Moves into a blocked hex (legal only when nothing else is).
    Crashes,
}

/// Action params made on demand from an engine result (see the module docs).
#[derive(Clone, Debug)]
pub struct ChoiceList {
    /// The params every choice carries (a JSON object).
    base: Map<String, Json>,
    /// The search the moves come from, shared by the three lists of one listing.
    listing: Rc<MoveListing>,
    which: MoveList,
    /// Whether each choice names its start facing (more than one was offered).
    start_facing: bool,
    /// Whether each choice carries its path.
    paths: bool,
}

impl ChoiceList {
    /// One of `listing`'s lists as choices: `base` plus each move's fields.
    #[must_use]
    pub fn moves(
        base: Map<String, Json>,
        listing: Rc<MoveListing>,
        which: MoveList,
        start_facing: bool,
        paths: bool,
    ) -> ChoiceList {
        ChoiceList {
            base,
            listing,
            which,
            start_facing,
            paths,
        }
    }

    fn list(&self) -> &[ListedMove] {
        match self.which {
            MoveList::Ends => &self.listing.ends,
            MoveList::Exits => &self.listing.exits,
            MoveList::Crashes => &self.listing.crashes,
        }
    }

    /// How many choices.
    #[must_use]
    pub fn len(&self) -> usize {
        self.list().len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.list().is_empty()
    }

    /// The params of choice `i` (from 0), as the engine would read them from the Lua table
    /// `list[i + 1]`; `None` past the end.
    #[must_use]
    pub fn params(&self, i: usize) -> Option<Json> {
        let m = self.list().get(i)?;
        let mut out = self.base.clone();
        let mut plan = Vec::new();
        self.listing.write_plan(m, &mut plan);
        // Plans are letters F, L, R: always UTF-8.
        let plan = String::from_utf8_lossy(&plan).into_owned();
        out.insert("plan".into(), Json::String(plan));
        out.insert("to".into(), hex_json(m.to));
        out.insert("facing".into(), Json::from(m.facing.index()));
        if self.start_facing {
            out.insert("start_facing".into(), Json::from(m.start_facing.index()));
        }
        if self.paths {
            let path = self.listing.path(m).into_iter().map(hex_json).collect();
            out.insert("path".into(), Json::Array(path));
        }
        Some(Json::Object(out))
    }

    /// Every choice's params, in order.
    #[must_use]
    pub fn all_params(&self) -> Vec<Json> {
        (0..self.len()).filter_map(|i| self.params(i)).collect()
    }
}

fn hex_json(h: Hex) -> Json {
    let mut m = Map::new();
    m.insert("q".into(), Json::from(h.q));
    m.insert("r".into(), Json::from(h.r));
    Json::Object(m)
}

impl UserData for ChoiceList {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method(MetaMethod::Len, |_, this, ()| Ok(this.len()));
        methods.add_meta_method(MetaMethod::Index, |lua, this, k: Value| {
            let i = match k {
                Value::Integer(i) => i,
                Value::Number(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => f as i64,
                _ => return Ok(Value::Nil),
            };
            let Some(p) = usize::try_from(i)
                .ok()
                .and_then(|i| i.checked_sub(1))
                .and_then(|i| this.params(i))
            else {
                return Ok(Value::Nil);
            };
            super::plain::json_to_lua(lua, &p)
        });
        methods.add_meta_method(MetaMethod::NewIndex, |_, _, (_k, _v): (Value, Value)| {
            Err::<(), _>(mlua::Error::runtime(
                "a choice list cannot be changed (copy the choices into a table first)",
            ))
        });
        methods.add_meta_method(MetaMethod::ToString, |_, this, ()| {
            Ok(format!("choice list ({} choices)", this.len()))
        });
    }
}

/// The params every choice of a list carries: `nil` (none) or a table of plain values with
/// string keys, none of them a field the list sets itself (`reserved`).
///
/// # Errors
/// A message for the mod author (the caller adds the function and argument).
pub fn base_params(lua: &Lua, v: &Value, reserved: &[&str]) -> Result<Map<String, Json>, String> {
    let t = match v {
        Value::Nil => return Ok(Map::new()),
        Value::Table(t) => t,
        other => {
            return Err(format!(
                "expected a table of the params every choice carries, got {}",
                other.type_name()
            ));
        }
    };
    let mut out = Map::new();
    for pair in t.pairs::<Value, Value>() {
        let (k, v) = pair.map_err(|e| e.to_string())?;
        let Value::String(k) = k else {
            return Err(format!(
                "params: keys must be strings, got {}",
                k.type_name()
            ));
        };
        let k = k.to_string_lossy();
        if reserved.contains(&k.as_str()) {
            return Err(format!(
                "params: {k:?} is set by each move (params may not give {})",
                reserved.join(", ")
            ));
        }
        let Some(j) = crate::raw::to_json(lua, &v).ok().flatten() else {
            return Err(format!(
                "params: {k} must be plain data (numbers, strings, booleans, tables), got {}",
                v.type_name()
            ));
        };
        out.insert(k, j);
    }
    Ok(out)
}
