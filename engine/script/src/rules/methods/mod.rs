//! The ctx methods, one file per subject, all registered by [`build_methods`] into the one
//! methods table every ctx's metatable serves. `read!` methods work in every callback; `write!`
//! methods only where the engine handed a `&mut GameState` (apply, setup, hooks). Both find the
//! state through the ctx (`crate::rules::session`) and name the mod's line in every error.

use super::*;

/// Registers a method that reads the state, in every callback:
/// `read!(methods, lua, "name", |lua, rules, state, args[, shared]| body)`, `shared` telling
/// whether the callback gets shared read-only tables (check, choices, victory) or fresh copies.
macro_rules! read {
    ($methods:ident, $outer:ident, $name:literal, |$lua:ident, $rules:ident, $s:ident, $args:ident $(, $shared:ident)?| $body:expr) => {
        $methods.raw_set(
            $name,
            $outer.create_function(move |$lua, on_stack: Args| {
                // Lent to the body: nothing keeps the arguments past the call.
                let $args = &on_stack;
                // Refusals (returned, busy, not a ctx) name the mod's line.
                let r = crate::rules::session::with_state($lua, $args, $name, |$rules, $s, writable| {
                    // Read-only callbacks get shared read-only tables, writable ones fresh
                    // copies.
                    $(let $shared = !writable;)?
                    let _ = writable;
                    // Victory's answer is remembered only when every read can be asked
                    // again (crate::rules::memo); the others say so here.
                    if !REMEMBERED_READS.contains(&$name) {
                        $rules.recorder.untracked();
                    }
                    // The closure lets a body use `?`.
                    #[allow(clippy::redundant_closure_call)]
                    let r: mlua::Result<Ret> = (|| $body)();
                    body_error($lua, $name, r)
                });
                refusal($lua, r)
            })?,
        )?;
    };
}

/// Registers a method that changes the state, refused outside apply, setup and hooks:
/// `write!(methods, lua, "name", |lua, rules, state, args| body)`.
macro_rules! write {
    ($methods:ident, $outer:ident, $name:literal, |$lua:ident, $rules:ident, $s:ident, $args:ident| $body:expr) => {
        $methods.raw_set(
            $name,
            $outer.create_function(move |$lua, on_stack: Args| {
                // Lent to the body: nothing keeps the arguments past the call.
                let $args = &on_stack;
                // Refusals (read-only ctx, busy, returned) name the mod's line.
                let r = crate::rules::session::with_state_mut($lua, $args, $name, |$rules, $s| {
                    let _ = $rules; // not every method needs the rules
                    // The closure lets a body use `?`.
                    #[allow(clippy::redundant_closure_call)]
                    let r: mlua::Result<Ret> = (|| $body)();
                    body_error($lua, $name, r)
                });
                refusal($lua, r)
            })?,
        )?;
    };
}

mod board;
mod dice;
mod pieces;
mod write;

/// Builds the table of every ctx method, once per [`LuaRules`]: plain functions that find the
/// state through their `self` (see [`crate::rules::session`]).
pub(super) fn build_methods(lua: &Lua) -> mlua::Result<Table> {
    let methods = lua.create_table()?;
    pieces::register(lua, &methods)?;
    board::register(lua, &methods)?;
    write::register(lua, &methods)?;
    dice::register(lua, &methods)?;
    Ok(methods)
}

fn piece_id(lua: &Lua, args: &Args, i: usize, s: &GameState) -> mlua::Result<PieceId> {
    let id = match args.get(lua, i)? {
        Value::Integer(n) if (0..=i64::from(u32::MAX)).contains(&n) => PieceId(n as u32),
        Value::Number(f) if f.fract() == 0.0 && f >= 0.0 && f <= f64::from(u32::MAX) => {
            PieceId(f as u32)
        }
        other => {
            return Err(mlua::Error::runtime(format!(
                "argument {}: expected a piece id (integer), got {}",
                i + 1,
                other.type_name()
            )));
        }
    };
    if s.pieces.contains_key(&id) {
        Ok(id)
    } else {
        Err(mlua::Error::runtime(format!("no piece with id {}", id.0)))
    }
}

fn string(args: &Args, i: usize) -> mlua::Result<String> {
    args.string(i).ok_or_else(|| {
        mlua::Error::runtime(format!(
            "argument {}: expected a string, got {}",
            i + 1,
            args.type_name(i)
        ))
    })
}

fn hex(lua: &Lua, args: &Args, i: usize) -> mlua::Result<Hex> {
    // The usual `{ q =, r = }` of integers in range, read in place; anything else (and
    // every error) goes the general way.
    if let Some((q, r)) = args.hex_coords(i)
        && q.abs() <= COORD_LIMIT
        && r.abs() <= COORD_LIMIT
    {
        return Ok(Hex::new(q as i32, r as i32));
    }
    hex_from_value_in(lua, &args.get(lua, i)?)
        .map_err(|m| mlua::Error::runtime(format!("argument {}: {m}", i + 1)))
}

fn one(lua: &Lua, v: impl mlua::IntoLua) -> mlua::Result<Ret> {
    Ok(Ret::One(v.into_lua(lua)?))
}

/// Argument `i` as JSON: read off the stack when plain, else through serde (its errors).
fn json(lua: &Lua, args: &Args, i: usize, what: &str) -> mlua::Result<Json> {
    match args.json(i) {
        Some(j) => Ok(j),
        None => from_lua(lua, args.get(lua, i)?, &what),
    }
}

fn shown(v: &Value) -> String {
    match v {
        Value::Integer(n) => n.to_string(),
        Value::Number(f) => f.to_string(),
        o => o.type_name().to_string(),
    }
}

/// A dice count within the core's limit (1..=MAX_DICE).
fn count(lua: &Lua, args: &Args, i: usize) -> mlua::Result<u32> {
    match args.get(lua, i)? {
        Value::Integer(n) if (1..=i64::from(MAX_DICE)).contains(&n) => Ok(n as u32),
        other => Err(mlua::Error::runtime(format!(
            "argument {}: dice count {} is outside 1..={MAX_DICE}",
            i + 1,
            shown(&other)
        ))),
    }
}

fn label(args: &Args, i: usize) -> String {
    args.string(i).unwrap_or_default()
}

/// `ctx:set(id, key, v)` on the piece: `v` as `key`'s value, or no `key` when `v` is null.
/// Setting what is already there changes nothing (and keeps the values shared with the state
/// before the action, see `Piece::values`).
pub(crate) fn set_value(p: &mut Piece, key: &str, v: Json) {
    if v.is_null() {
        if p.values.contains_key(key) {
            Arc::make_mut(&mut p.values).remove(key);
        }
    } else if p.values.get(key) != Some(&v) {
        Arc::make_mut(&mut p.values).insert(key.to_owned(), v);
    }
}

/// One step of a path into a piece's values (`ctx:set(id, { "comps", 3, "charge" }, v)`).
#[derive(Debug)]
pub(super) enum PathStep {
    /// An object key.
    Key(String),
    /// A list position, from 1 as in Lua.
    Index(usize),
}

/// A path's steps, in bytes as saved (for [`LuaRules::charge`]).
fn path_bytes(path: &[PathStep]) -> usize {
    let step = |p: &PathStep| match p {
        PathStep::Key(k) => k.len() + 4,
        PathStep::Index(_) => 8,
    };
    path.iter().map(step).sum()
}

/// Reads a path `{ key, step, ... }`: a value key first, then list positions (integers from 1)
/// or table keys (strings).
pub(super) fn value_path(t: &Table) -> mlua::Result<Vec<PathStep>> {
    let mut path = Vec::new();
    for (i, v) in t.clone().sequence_values::<Value>().enumerate() {
        let step = match v? {
            Value::String(s) => PathStep::Key(s.to_str()?.to_owned()),
            Value::Integer(n) if i > 0 && n >= 1 => PathStep::Index(n as usize),
            other => {
                return Err(mlua::Error::runtime(format!(
                    "key: a path starts with a value's name and goes on with list positions \
                     (integers from 1) or table keys (strings); step {} is {}",
                    i + 1,
                    match other {
                        Value::Integer(n) => n.to_string(),
                        o => o.type_name().to_owned(),
                    }
                )));
            }
        };
        path.push(step);
    }
    if path.is_empty() {
        return Err(mlua::Error::runtime(
            "key: an empty path; give a value's name or { name, position, ... }",
        ));
    }
    Ok(path)
}

/// Sets (or with `null`, removes from a table) the value at `path` inside `values`. Only what
/// changes is copied: an equal value leaves `values` shared. A position one past the end of a
/// list appends; anything else that is not there is an error that names the path.
pub(super) fn set_path(
    values: &mut Arc<BTreeMap<String, Json>>,
    path: &[PathStep],
    v: Json,
) -> mlua::Result<()> {
    let shown = |upto: usize| {
        path[..upto]
            .iter()
            .enumerate()
            .map(|(i, s)| match (i, s) {
                (0, PathStep::Key(k)) => k.clone(),
                _ => s.to_string(),
            })
            .collect::<String>()
    };
    let Some((PathStep::Key(first), rest)) = path.split_first() else {
        return Err(mlua::Error::runtime(
            "key: a path starts with a value's name",
        ));
    };
    let Some((last, middle)) = rest.split_last() else {
        return Err(mlua::Error::runtime(
            "key: a path of one name is just that name",
        ));
    };
    // Unchanged: nothing to copy.
    let mut cur = values.get(first);
    for step in rest {
        cur = match (cur, step) {
            (Some(Json::Array(a)), PathStep::Index(i)) => a.get(i - 1),
            (Some(Json::Object(m)), PathStep::Key(k)) => m.get(k),
            _ => None,
        };
    }
    if cur == Some(&v) || (cur.is_none() && v.is_null()) {
        return Ok(());
    }
    let values = Arc::make_mut(values);
    let Some(mut cur) = values.get_mut(first) else {
        return Err(mlua::Error::runtime(format!(
            "key: the piece has no value {first:?} to set {} in",
            shown(path.len())
        )));
    };
    for (n, step) in middle.iter().enumerate() {
        let at = n + 2;
        cur = match (cur, step) {
            (Json::Array(a), PathStep::Index(i)) => {
                let len = a.len();
                a.get_mut(i - 1).ok_or_else(|| {
                    mlua::Error::runtime(format!(
                        "key: {} is past the end of the list ({len} items)",
                        shown(at)
                    ))
                })?
            }
            (Json::Object(m), PathStep::Key(k)) => m
                .get_mut(k)
                .ok_or_else(|| mlua::Error::runtime(format!("key: {} is not there", shown(at))))?,
            (other, _) => return Err(not_a_container(&shown(at - 1), other, step)),
        };
    }
    match (cur, last) {
        (Json::Array(a), PathStep::Index(i)) => {
            if v.is_null() {
                return Err(mlua::Error::runtime(format!(
                    "value: a list item cannot be removed ({}); set the whole list",
                    shown(path.len())
                )));
            }
            match i.checked_sub(1) {
                Some(j) if j < a.len() => a[j] = v,
                Some(j) if j == a.len() => a.push(v),
                _ => {
                    return Err(mlua::Error::runtime(format!(
                        "key: {} is past the end of the list ({} items; {} appends)",
                        shown(path.len()),
                        a.len(),
                        a.len() + 1
                    )));
                }
            }
        }
        (Json::Object(m), PathStep::Key(k)) => {
            if v.is_null() {
                m.remove(k);
            } else {
                m.insert(k.clone(), v);
            }
        }
        (other, step) => return Err(not_a_container(&shown(path.len() - 1), other, step)),
    }
    Ok(())
}

pub(super) fn not_a_container(at: &str, v: &Json, step: &PathStep) -> mlua::Error {
    let (want, is) = match step {
        PathStep::Index(_) => ("a list", v),
        PathStep::Key(_) => ("a table with string keys", v),
    };
    let kind = match is {
        Json::Null => "nothing",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "a list",
        Json::Object(_) => "a table",
    };
    mlua::Error::runtime(format!(
        "key: {at} is {kind}, not {want} ({step} cannot go into it)"
    ))
}

/// A method body's error as the mod sees it: `file:line: ctx:<name>: <message>`.
pub(super) fn body_error(lua: &Lua, name: &str, r: mlua::Result<Ret>) -> mlua::Result<Ret> {
    r.map_err(|e| {
        located(
            lua,
            format!("ctx:{name}: {}", crate::ScriptError::from_lua(&e).message),
        )
    })
}

/// A method's result: the body's (already located), or the session's refusal (a returned,
/// busy or read-only ctx, or not a ctx at all) located at the mod's line.
pub(super) fn refusal(lua: &Lua, r: mlua::Result<mlua::Result<Ret>>) -> mlua::Result<Ret> {
    match r {
        Ok(r) => r,
        Err(e) => Err(located(lua, crate::ScriptError::from_lua(&e).message)),
    }
}

/// The read methods whose answers [`crate::rules::memo`] can check again (they note a [`Read`]), and
/// those that read no state (declarations only). Any other read makes victory's answer not
/// remembered.
pub(super) const REMEMBERED_READS: &[&str] = &[
    "sides",
    "side",
    "piece",
    "pieces",
    "exists",
    "global",
    "type",
    "lookup",
    "terrain_info",
];

/// A `ctx:pieces` filter table read field by field (see [`plain_filter`] for the usual case):
/// `owner`, `type` and `location` as strings (anything else is no filter), `at` a hex, `fields`
/// a list of field names.
pub(super) fn piece_filter(lua: &Lua, filter: Option<&Table>) -> mlua::Result<ParsedFilter> {
    let owner: Option<String> = filter.and_then(|f| f.raw_get("owner").ok().flatten());
    let kind: Option<String> = filter.and_then(|f| f.raw_get("type").ok().flatten());
    let location: Option<String> = filter.and_then(|f| f.raw_get("location").ok().flatten());
    let at = match filter.map(|f| f.raw_get::<Value>("at")) {
        Some(Ok(v)) if !v.is_nil() => {
            Some(hex_from_value_in(lua, &v).map_err(mlua::Error::runtime)?)
        }
        _ => None,
    };
    let fields = match filter {
        Some(f) => light_fields(f.raw_get("fields")?)?,
        None => None,
    };
    let shared = match filter {
        Some(f) => shared_option(f.raw_get("shared")?)?,
        None => false,
    };
    let query = PieceQuery {
        owner,
        kind,
        location,
        at,
        fields: fields.as_ref().map(|f| f.iter().map(|(_, l)| *l).collect()),
    };
    Ok((query, fields, shared))
}

/// `shared` of a `ctx:pieces` filter or of `ctx:piece`'s options: `true` asks for the shared,
/// read-only snapshots even where the callback may write (they are what read-only callbacks
/// always get).
pub(super) fn shared_option(v: Value) -> mlua::Result<bool> {
    match v {
        Value::Nil => Ok(false),
        Value::Boolean(b) => Ok(b),
        other => Err(mlua::Error::runtime(format!(
            "shared: expected true or false, got {}",
            other.type_name()
        ))),
    }
}

/// The usual `ctx:pieces` filter, read straight off the Lua stack (`Args::record`): a table
/// without items whose only keys are `owner`, `type`, `location` (strings), `fields` (a list of
/// known field names, each kept once) and `shared` (a boolean). `None` for anything else (then
/// [`piece_filter`] reads it, with its conversions and error messages). Why: reading five keys
/// and a list through mlua was six protected calls per `ctx:pieces`, and reading the table as
/// JSON first made a map of owned strings to throw away.
pub(super) fn plain_filter(args: &Args) -> Option<ParsedFilter> {
    let (mut owner, mut kind, mut location) = (None, None, None);
    let (mut fields, mut shared) = (None, false);
    args.record(0, |key, v| {
        use crate::raw::Field;
        match (key, v) {
            ("owner", Field::Str(x)) => owner = Some(x.to_owned()),
            ("type", Field::Str(x)) => kind = Some(x.to_owned()),
            ("location", Field::Str(x)) => location = Some(x.to_owned()),
            ("shared", Field::Bool(b)) => shared = b,
            ("fields", Field::Strings(names)) => {
                let mut out: Vec<(String, Light)> = Vec::with_capacity(names.len());
                for n in names {
                    let (name, light) = LIGHT.iter().find(|(x, _)| *x == n)?;
                    if !out.iter().any(|(_, l)| l == light) {
                        out.push(((*name).to_string(), *light));
                    }
                }
                fields = Some(out);
            }
            _ => return None,
        }
        Some(())
    })?;
    let query = PieceQuery {
        owner,
        kind,
        location,
        at: None,
        fields: fields
            .as_ref()
            .map(|f: &LightFields| f.iter().map(|(_, l)| *l).collect()),
    };
    Some((query, fields, shared))
}

/// A parsed `ctx:pieces` filter: which pieces, the light fields asked for, and `shared`.
pub(super) type ParsedFilter = (PieceQuery, Option<LightFields>, bool);

/// Looks a cell up in a declared table through the core table built at load time: `row` and
/// `column` are numbers (rolls, ranges) or names; `shift` moves columns (the column policy decides
/// what happens past the ends). Returns the cell and the roll modifier a `shift_roll` column added.
pub(super) fn lookup_cell(
    rules: &LuaRules,
    table: &str,
    row: &Value,
    col: &Value,
    shift: i64,
) -> Result<(Json, i64), String> {
    let t = rules
        .loaded
        .decls
        .tables
        .get(table)
        .and_then(|d| d.table.as_ref())
        .ok_or_else(|| format!("no table {table:?}"))?;
    // The same probing as `tables.lookup`: integers (or integer strings) by value, else names.
    let rp = crate::api::tables::Key::read(row, "row")?;
    let cp = crate::api::tables::Key::read(col, "column")?;
    let at = t
        .locate(rp.probe(), cp.probe(), shift)
        .map_err(|e| format!("table {table}: {e}"))?;
    let cell = match t.cell(at.row, at.column) {
        Some(Cell::Value(v)) => Json::from(*v),
        Some(Cell::Id(s)) => Json::String(s.clone()),
        None => {
            return Err(format!(
                "table {table}: no cell at {}, {}",
                at.row, at.column
            ));
        }
    };
    Ok((cell, at.roll_modifier))
}

pub(super) fn footprint(rules: &LuaRules, state: &GameState, id: PieceId) -> Vec<Hex> {
    state
        .pieces
        .get(&id)
        .map_or_else(Vec::new, |p| rules.footprint_of(p))
}

pub(super) fn parse_position(v: &Value) -> Result<Position, String> {
    if let Ok(h) = hex_from_value(v) {
        return Ok(Position::Hex(h));
    }
    let Value::Table(t) = v else {
        return Err("expected a hex, { location =, slot = } or { box = }".into());
    };
    if let Ok(Some(b)) = t.raw_get::<Option<String>>("box") {
        return Ok(Position::Box(b));
    }
    if let Ok(Some(location)) = t.raw_get::<Option<String>>("location") {
        let slot = t.raw_get::<Option<String>>("slot").ok().flatten();
        return Ok(Position::Node { location, slot });
    }
    Err("expected a hex, { location =, slot = } or { box = }".into())
}
