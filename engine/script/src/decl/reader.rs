//! The reading toolkit every declaration reader shares: [`Reader`] (collects every problem,
//! converts Lua values to plain data, keeps callbacks in the registry as [`CallbackId`]s) and
//! the helpers that walk a declaration collection ([`entries`], [`loc_of`], [`check_id`]).

use super::CallbackId;
use crate::error::{ModError, SourceLoc};
use crate::manifest::is_valid_mod_id;
use mlua::{Function, Lua, LuaSerdeExt, RegistryKey, Table, Value};
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// Reads declarations and collects every problem on the way.
pub(super) struct Reader<'a> {
    lua: &'a Lua,
    /// Every problem found so far.
    pub(super) errs: Vec<ModError>,
    /// Registry keys of the callbacks kept, indexed by [`CallbackId`].
    pub(super) callbacks: Vec<RegistryKey>,
}

impl<'a> Reader<'a> {
    /// A reader with no problems and no callbacks yet.
    pub(super) fn new(lua: &'a Lua) -> Self {
        Reader {
            lua,
            errs: Vec::new(),
            callbacks: Vec::new(),
        }
    }

    pub(super) fn err(&mut self, loc: &SourceLoc, msg: String) {
        self.errs.push(ModError::at_loc(loc, msg));
    }

    pub(super) fn callback(
        &mut self,
        v: Value,
        loc: &SourceLoc,
        what: &str,
        required: bool,
    ) -> Option<CallbackId> {
        match v {
            Value::Function(f) => self.keep(f, loc, what),
            Value::Nil if !required => None,
            Value::Nil => {
                self.err(loc, format!("{what}: missing; give a function"));
                None
            }
            other => {
                self.err(
                    loc,
                    format!("{what}: expected a function, got {}", other.type_name()),
                );
                None
            }
        }
    }

    fn keep(&mut self, f: Function, loc: &SourceLoc, what: &str) -> Option<CallbackId> {
        match self.lua.create_registry_value(f) {
            Ok(k) => {
                self.callbacks.push(k);
                Some(CallbackId(self.callbacks.len() as u32 - 1))
            }
            Err(e) => {
                self.err(loc, format!("{what}: {e}"));
                None
            }
        }
    }

    pub(super) fn json(&mut self, v: Value, loc: &SourceLoc, what: &str) -> Json {
        if v.is_nil() {
            return Json::Null;
        }
        match self.lua.from_value::<Json>(v) {
            Ok(j) => j,
            Err(e) => {
                self.err(
                    loc,
                    format!("{what}: must be plain data (numbers, strings, booleans, tables): {e}"),
                );
                Json::Null
            }
        }
    }

    pub(super) fn map(&mut self, v: Value, loc: &SourceLoc, what: &str) -> BTreeMap<String, Json> {
        match self.json(v, loc, what) {
            Json::Null => BTreeMap::new(),
            Json::Object(m) => m.into_iter().collect(),
            Json::Array(a) if a.is_empty() => BTreeMap::new(),
            _ => {
                self.err(loc, format!("{what}: expected a table of name = value"));
                BTreeMap::new()
            }
        }
    }

    pub(super) fn list(&mut self, v: Value, loc: &SourceLoc, what: &str) -> Vec<Json> {
        match self.json(v, loc, what) {
            Json::Null => Vec::new(),
            Json::Array(a) => a,
            Json::Object(m) if m.is_empty() => Vec::new(),
            _ => {
                self.err(loc, format!("{what}: expected a list {{ ... }}"));
                Vec::new()
            }
        }
    }

    pub(super) fn strings(&mut self, v: Value, loc: &SourceLoc, what: &str) -> Vec<String> {
        let list = self.list(v, loc, what);
        let mut out = Vec::new();
        for (i, j) in list.into_iter().enumerate() {
            match j {
                Json::String(s) => out.push(s),
                other => self.err(
                    loc,
                    format!("{what}[{}]: expected a string, got {other}", i + 1),
                ),
            }
        }
        out
    }
}

/// Where declaration `id` of collection `kind` was declared (default when unknown).
pub(super) fn loc_of(sources: &Table, kind: &str, id: &str) -> SourceLoc {
    sources
        .raw_get::<Option<Table>>(kind)
        .ok()
        .flatten()
        .and_then(|t| t.raw_get::<Option<String>>(id).ok().flatten())
        .map(|s| SourceLoc::parse(&s))
        .unwrap_or_default()
}

/// Entries of a declaration collection sorted by id; non-table entries are reported.
pub(super) fn entries(
    r: &mut Reader<'_>,
    game: &Table,
    sources: &Table,
    plural: &str,
) -> Vec<(String, Table, SourceLoc)> {
    let mut out = Vec::new();
    let Ok(Some(coll)) = game.raw_get::<Option<Table>>(plural) else {
        return out;
    };
    for pair in coll.pairs::<Value, Value>() {
        let Ok((k, v)) = pair else { continue };
        let id = match &k {
            Value::String(s) => s.to_string_lossy(),
            other => {
                r.err(
                    &SourceLoc::default(),
                    format!(
                        "game.{plural}: keys must be ids (strings), found a {}",
                        other.type_name()
                    ),
                );
                continue;
            }
        };
        let loc = loc_of(sources, plural, &id);
        match v {
            Value::Table(t) => out.push((id, t, loc)),
            other => r.err(
                &loc,
                format!(
                    "game.{plural}.{id}: expected a table, got {}",
                    other.type_name()
                ),
            ),
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Reports an id that is not a valid id, or that differs from the entry's own `id` field.
pub(super) fn check_id(r: &mut Reader<'_>, loc: &SourceLoc, what: &str, id: &str, t: &Table) {
    if !is_valid_mod_id(&id.replace('_', "-")) {
        r.err(loc, format!("{what} id {id:?}: use lowercase letters, digits, '_' and '-', starting with a letter"));
    }
    if let Ok(Some(inner)) = t.raw_get::<Option<String>>("id")
        && inner != id
    {
        r.err(
            loc,
            format!("{what} stored under {id:?} but its id field says {inner:?}; make them equal"),
        );
    }
}
