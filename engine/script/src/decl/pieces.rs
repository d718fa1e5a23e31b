//! Piece types: [`PieceTypeDecl`] and the reader of `game.piece_type` declarations.

use super::ModDecls;
use super::reader::{Reader, check_id, entries};
use crate::error::SourceLoc;
use hexforge_core::hex::Hex;
use mlua::{Table, Value};
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// A piece type.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PieceTypeDecl {
    /// Id.
    pub id: String,
    /// Fixed statistics (hull, adf, ...).
    pub stats: BTreeMap<String, Json>,
    /// Initial per-piece values (mutable in play).
    pub values: BTreeMap<String, Json>,
    /// Footprint offsets from the anchor with facing N (empty = the anchor hex only).
    pub footprint: Vec<Hex>,
    /// Every other field, as data.
    pub extra: BTreeMap<String, Json>,
    /// Where it was declared.
    pub source: SourceLoc,
}

/// Reads `game.piece_types`.
pub(super) fn read_piece_types(
    r: &mut Reader<'_>,
    game: &Table,
    sources: &Table,
    d: &mut ModDecls,
) {
    for (id, t, loc) in entries(r, game, sources, "piece_types") {
        check_id(r, &loc, "piece type", &id, &t);
        let mut extra = BTreeMap::new();
        for pair in t.pairs::<String, Value>().flatten() {
            // `counter` may be a function: the editor reads it from the VM (crate::counters).
            if !["id", "stats", "values", "footprint", "counter"].contains(&pair.0.as_str()) {
                let j = r.json(pair.1, &loc, &format!("piece type {id}: {}", pair.0));
                extra.insert(pair.0, j);
            }
        }
        let stats = r.map(
            t.raw_get("stats").unwrap_or(Value::Nil),
            &loc,
            &format!("piece type {id}: stats"),
        );
        let values = r.map(
            t.raw_get("values").unwrap_or(Value::Nil),
            &loc,
            &format!("piece type {id}: values"),
        );
        let mut footprint = Vec::new();
        for (i, j) in r
            .list(
                t.raw_get("footprint").unwrap_or(Value::Nil),
                &loc,
                &format!("piece type {id}: footprint"),
            )
            .into_iter()
            .enumerate()
        {
            match serde_json::from_value::<Hex>(j) {
                Ok(h) if h.q.abs() < 64 && h.r.abs() < 64 => footprint.push(h),
                _ => r.err(
                    &loc,
                    format!(
                        "piece type {id}: footprint[{}]: expected a small offset {{q=, r=}}",
                        i + 1
                    ),
                ),
            }
        }
        d.piece_types.insert(
            id.clone(),
            PieceTypeDecl {
                id,
                stats,
                values,
                footprint,
                extra,
                source: loc,
            },
        );
    }
}
