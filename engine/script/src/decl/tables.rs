//! Rule tables: [`TableDecl`], the reader of `game.table` declarations, and the build of the
//! core table (`hexforge_core::table::Table`) each declaration carries.

use super::ModDecls;
use super::reader::{Reader, check_id, entries};
use crate::error::SourceLoc;
use hexforge_core::table::{Axis, Cell, Key, OutOfRange, Table as CoreTable};
use mlua::{Table, Value};
use serde_json::Value as Json;

/// Table lookup policies for rows / columns.
pub const POLICIES: &[&str] = &["clamp", "error", "shift_roll"];

/// A rule table.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TableDecl {
    /// Id.
    pub id: String,
    /// Row headings.
    pub rows: Vec<Json>,
    /// Column headings.
    pub columns: Vec<Json>,
    /// `cells[row][column]`, rectangular.
    pub cells: Vec<Vec<Json>>,
    /// Row policy: clamp or error.
    pub row_policy: String,
    /// Column policy: clamp, error or shift_roll.
    pub column_policy: String,
    /// The dice that roll this table's rows (`"2d6"`, `"1d10+1"`, `"3d[battle]"`), when the
    /// table is rolled on; the editor shows each cell's exact odds for it. `None` for tables
    /// looked up by a count or a name.
    pub roll: Option<String>,
    /// The core table built from this declaration (what `ctx:lookup` consults); always present
    /// once [`read_decls`](super::read_decls) succeeded.
    #[serde(skip)]
    pub table: Option<CoreTable>,
    /// Where it was declared.
    pub source: SourceLoc,
}

/// Reads `game.tables`.
pub(super) fn read_tables(r: &mut Reader<'_>, game: &Table, sources: &Table, d: &mut ModDecls) {
    for (id, t, loc) in entries(r, game, sources, "tables") {
        check_id(r, &loc, "table", &id, &t);
        let what = format!("table {id}");
        let rows = r.list(
            t.raw_get("rows").unwrap_or(Value::Nil),
            &loc,
            &format!("{what}: rows"),
        );
        let columns = r.list(
            t.raw_get("columns").unwrap_or(Value::Nil),
            &loc,
            &format!("{what}: columns"),
        );
        let raw_cells = r.list(
            t.raw_get("cells").unwrap_or(Value::Nil),
            &loc,
            &format!("{what}: cells"),
        );
        if rows.is_empty() || columns.is_empty() {
            r.err(&loc, format!("{what}: needs non-empty rows and columns"));
        }
        if raw_cells.len() != rows.len() {
            r.err(
                &loc,
                format!(
                    "{what}: {} rows of cells for {} row headings; give one list of cells per row",
                    raw_cells.len(),
                    rows.len()
                ),
            );
        }
        let mut cells = Vec::new();
        for (i, row) in raw_cells.into_iter().enumerate() {
            match row {
                Json::Array(c) => {
                    if c.len() != columns.len() {
                        r.err(&loc, format!("{what}: row {} has {} cells but there are {} columns (tables must be rectangular)", i + 1, c.len(), columns.len()));
                    }
                    cells.push(c);
                }
                _ => r.err(
                    &loc,
                    format!("{what}: cells[{}] must be a list of cells", i + 1),
                ),
            }
        }
        let mut policy = |key: &str, allowed: &[&str]| -> String {
            let p: String = t
                .raw_get::<Option<String>>(key)
                .ok()
                .flatten()
                .unwrap_or_else(|| "error".into());
            if !allowed.contains(&p.as_str()) {
                r.err(
                    &loc,
                    format!("{what}: {key} {p:?} is not one of {}", allowed.join(", ")),
                );
            }
            p
        };
        let row_policy = policy("row_policy", &POLICIES[..2]);
        let column_policy = policy("column_policy", POLICIES);
        let roll = match t.raw_get::<Value>("roll") {
            Ok(Value::Nil) => None,
            Ok(Value::String(s)) => {
                let text = s.to_string_lossy();
                if let Err(e) = hexforge_core::dice::DiceExpr::parse(text.trim()) {
                    r.err(
                        &loc,
                        format!(
                            "{what}: roll {text:?} is not dice notation ({e}); write e.g. \"2d6\""
                        ),
                    );
                }
                Some(text.trim().to_owned())
            }
            _ => {
                r.err(
                    &loc,
                    format!("{what}: roll must be dice notation text such as \"2d6\""),
                );
                None
            }
        };
        let table = if r
            .errs
            .iter()
            .any(|e| e.message.starts_with(&format!("{what}:")))
        {
            None
        } else {
            match build_table(&id, &rows, &columns, &cells, &row_policy, &column_policy) {
                Ok(t) => Some(t),
                Err(m) => {
                    r.err(&loc, format!("{what}: {m}"));
                    None
                }
            }
        };
        d.tables.insert(
            id.clone(),
            TableDecl {
                id,
                rows,
                columns,
                cells,
                row_policy,
                column_policy,
                roll,
                table,
                source: loc,
            },
        );
    }
}

/// Builds the core table of a declaration, with the core's checks (sorted, non-overlapping
/// numeric keys, no mixed names and numbers, shift_roll only with numeric rows, ...).
fn build_table(
    id: &str,
    rows: &[Json],
    columns: &[Json],
    cells: &[Vec<Json>],
    row_policy: &str,
    column_policy: &str,
) -> Result<CoreTable, String> {
    fn policy(p: &str) -> OutOfRange {
        match p {
            "clamp" => OutOfRange::Clamp,
            "shift_roll" => OutOfRange::ShiftRoll,
            _ => OutOfRange::Error,
        }
    }
    let axis = |name: &str, heads: &[Json], p: &str| -> Result<Axis, String> {
        let mut keys = Vec::new();
        for (i, h) in heads.iter().enumerate() {
            let text = match h {
                Json::String(s) => s.clone(),
                Json::Number(n) if n.is_i64() => n.to_string(),
                other => {
                    return Err(format!(
                        "{name}[{}]: a heading is a string or an integer, got {other}",
                        i + 1
                    ));
                }
            };
            let key: Key = text
                .parse()
                .map_err(|e| format!("{name}[{}]: {e}", i + 1))?;
            keys.push(key);
        }
        Ok(Axis::new(name, keys, policy(p)))
    };
    let mut grid = Vec::with_capacity(cells.len());
    for (i, row) in cells.iter().enumerate() {
        let mut out = Vec::with_capacity(row.len());
        for (j, c) in row.iter().enumerate() {
            out.push(match c {
                Json::String(s) => Cell::Id(s.clone()),
                Json::Number(n) if n.is_i64() => Cell::Value(n.as_i64().unwrap_or(0)),
                other => {
                    return Err(format!(
                        "cells[{}][{}]: a cell is a string or an integer, got {other}",
                        i + 1,
                        j + 1
                    ));
                }
            });
        }
        grid.push(out);
    }
    CoreTable::new(
        id,
        axis("rows", rows, row_policy)?,
        axis("columns", columns, column_policy)?,
        grid,
    )
    .map_err(|e| e.to_string())
}
