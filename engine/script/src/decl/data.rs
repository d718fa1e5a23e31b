//! Declarations kept as free data: boards ([`BoardDecl`]) and terrain types ([`TerrainDecl`]),
//! with their readers.

use super::ModDecls;
use super::reader::{Reader, check_id, entries};
use crate::error::SourceLoc;
use mlua::{Table, Value};
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// A board declaration (kept as data until the core board types land).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BoardDecl {
    /// Id.
    pub id: String,
    /// All fields as data.
    pub data: BTreeMap<String, Json>,
    /// Where it was declared.
    pub source: SourceLoc,
}

/// A terrain type (name/colour for the editor, other fields free data).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TerrainDecl {
    /// Id.
    pub id: String,
    /// All fields as data.
    pub data: BTreeMap<String, Json>,
    /// Where it was declared.
    pub source: SourceLoc,
}

/// Reads `game.boards`.
pub(super) fn read_boards(r: &mut Reader<'_>, game: &Table, sources: &Table, d: &mut ModDecls) {
    for (id, t, loc) in entries(r, game, sources, "boards") {
        check_id(r, &loc, "board", &id, &t);
        let data = r.map(Value::Table(t), &loc, &format!("board {id}"));
        d.boards.insert(
            id.clone(),
            BoardDecl {
                id,
                data,
                source: loc,
            },
        );
    }
}

/// Reads `game.terrains`.
pub(super) fn read_terrains(r: &mut Reader<'_>, game: &Table, sources: &Table, d: &mut ModDecls) {
    for (id, t, loc) in entries(r, game, sources, "terrains") {
        check_id(r, &loc, "terrain", &id, &t);
        let data = r.map(Value::Table(t), &loc, &format!("terrain {id}"));
        d.terrains.insert(
            id.clone(),
            TerrainDecl {
                id,
                data,
                source: loc,
            },
        );
    }
}
