//! `tables`: the rule set's declared tables as pure functions (no game state), so odds and
//! lookups work anywhere, including `hexforge eval --mod <mod>`:
//!
//! ```lua
//! local cell, roll_modifier = tables.lookup("hyperjump", 7, "2")   -- row, column
//! for _, o in ipairs(tables.odds("hyperjump", "2d6", "2")) do      -- exact odds per result
//!   print(o.result, o.numer .. "/" .. o.denom, o.p)
//! end
//! ```
//!
//! Unlike the fixed namespaces of [`super::NAMESPACES`], this one depends on the rule set: the
//! loader installs it once the declarations are read, with the core tables built from them.
//! Rows and columns are probed as numbers when they read as integers (`7`, `"7"`), else as names.

use hexforge_core::dice::DiceExpr;
use hexforge_core::table::{Cell, Probe, Table as CoreTable};
use mlua::{Lua, MultiValue, Table, Value};
use std::collections::BTreeMap;
use std::rc::Rc;

/// A row or column probe read from Lua: an integer, or a name.
pub(crate) enum Key {
    /// A number (`7` or `"7"`).
    Value(i64),
    /// A heading name.
    Name(String),
}

impl Key {
    pub(crate) fn read(v: &Value, what: &str) -> Result<Key, String> {
        match v {
            Value::Integer(n) => Ok(Key::Value(*n)),
            Value::Number(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Ok(Key::Value(*f as i64)),
            Value::String(s) => {
                let text = s.to_string_lossy();
                Ok(text
                    .trim()
                    .parse::<i64>()
                    .map_or_else(|_| Key::Name(text), Key::Value))
            }
            other => Err(format!(
                "{what}: expected a number or a name, got {}",
                other.type_name()
            )),
        }
    }

    pub(crate) fn probe(&self) -> Probe<'_> {
        match self {
            Key::Value(v) => Probe::Value(*v),
            Key::Name(n) => Probe::Name(n),
        }
    }
}

fn cell_value(lua: &Lua, cell: &Cell) -> mlua::Result<Value> {
    Ok(match cell {
        Cell::Value(v) => Value::Integer(*v),
        Cell::Id(s) => Value::String(lua.create_string(s)?),
    })
}

fn arg(args: &MultiValue, i: usize) -> Value {
    args.get(i).cloned().unwrap_or(Value::Nil)
}

/// Installs the global `tables` for a rule set's declared tables.
///
/// # Errors
/// A Lua allocation failure.
pub fn install(lua: &Lua, declared: BTreeMap<String, CoreTable>) -> mlua::Result<()> {
    let declared = Rc::new(declared);
    let ns = lua.create_table()?;
    let fail = |f: &str, msg: String| mlua::Error::runtime(format!("tables.{f}: {msg}"));

    let t = Rc::clone(&declared);
    ns.raw_set(
        "lookup",
        lua.create_function(move |lua, args: MultiValue| {
            let id = match arg(&args, 0) {
                Value::String(s) => s.to_string_lossy(),
                _ => return Err(fail("lookup", "argument 1: a table id".into())),
            };
            let table = t
                .get(&id)
                .ok_or_else(|| fail("lookup", format!("no table {id:?}")))?;
            let row = Key::read(&arg(&args, 1), "row").map_err(|e| fail("lookup", e))?;
            let col = Key::read(&arg(&args, 2), "column").map_err(|e| fail("lookup", e))?;
            let shift = match arg(&args, 3) {
                Value::Nil => 0,
                Value::Integer(n) => n,
                _ => return Err(fail("lookup", "argument 4 (shift): an integer".into())),
            };
            let at = table
                .locate(row.probe(), col.probe(), shift)
                .map_err(|e| fail("lookup", format!("table {id}: {e}")))?;
            let cell = table
                .cell(at.row, at.column)
                .ok_or_else(|| fail("lookup", format!("table {id}: no cell")))?;
            Ok(MultiValue::from_iter([
                cell_value(lua, cell)?,
                Value::Integer(at.roll_modifier),
            ]))
        })?,
    )?;

    let t = Rc::clone(&declared);
    ns.raw_set(
        "odds",
        lua.create_function(move |lua, args: MultiValue| {
            let id = match arg(&args, 0) {
                Value::String(s) => s.to_string_lossy(),
                _ => return Err(fail("odds", "argument 1: a table id".into())),
            };
            let table = t
                .get(&id)
                .ok_or_else(|| fail("odds", format!("no table {id:?}")))?;
            let dice = match arg(&args, 1) {
                Value::String(s) => DiceExpr::parse(&s.to_string_lossy())
                    .map_err(|e| fail("odds", format!("argument 2: {e}")))?,
                _ => {
                    return Err(fail(
                        "odds",
                        "argument 2: dice notation such as \"2d6\"".into(),
                    ));
                }
            };
            let col = Key::read(&arg(&args, 2), "column").map_err(|e| fail("odds", e))?;
            let shift = match arg(&args, 3) {
                Value::Nil => 0,
                Value::Integer(n) => n,
                _ => return Err(fail("odds", "argument 4 (shift): an integer".into())),
            };
            let odds = table
                .outcome_distribution(&dice, col.probe(), shift)
                .map_err(|e| fail("odds", format!("table {id}: {e}")))?;
            let list: Table = lua.create_table()?;
            for (cell, p) in odds {
                let o = lua.create_table()?;
                o.raw_set("result", cell_value(lua, &cell)?)?;
                o.raw_set("numer", p.numer() as i64)?;
                o.raw_set("denom", p.denom() as i64)?;
                o.raw_set("p", p.to_f64())?;
                list.raw_push(o)?;
            }
            Ok(MultiValue::from_iter([Value::Table(list)]))
        })?,
    )?;

    let t = Rc::clone(&declared);
    ns.raw_set(
        "ids",
        lua.create_function(move |_, ()| Ok(t.keys().cloned().collect::<Vec<_>>()))?,
    )?;
    lua.globals().raw_set("tables", ns)
}
