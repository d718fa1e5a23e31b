//! How the engine lays out the Lua tables it builds (safe code shared by `ffi`, which builds
//! them through the C API, and `api::plain`, which decides what to build): which values are
//! built in one call, how large a table is presized, and the cells of a light row.

use mlua::Value;
use serde_json::Value as Json;

/// Largest table (fields of one kind) built presized; larger ones grow as usual.
pub(crate) const PRESIZED: usize = 24;

/// How [`crate::api::plain::Templates::rows`] builds one field of a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowCell {
    /// One value, set as it is (nil: no field).
    Plain = 1,
    /// Two values: `q, r` gives `{ q =, r = }`; `table, false` gives the table; `false, false`
    /// no field.
    Hex = 2,
    /// One template, copied fresh (false: no field).
    Copy = 3,
}

impl RowCell {
    /// Values per row.
    pub(crate) fn width(self) -> usize {
        if self == RowCell::Hex { 2 } else { 1 }
    }
}

/// `{ q = <integer>, r = <integer> }` and nothing else.
pub(crate) fn is_hex(m: &serde_json::Map<String, Json>) -> bool {
    m.len() == 2
        && m.get("q").and_then(Json::as_i64).is_some()
        && m.get("r").and_then(Json::as_i64).is_some()
}

/// Whether `j` is an array or an object whose items are all plain (null, booleans, numbers,
/// strings) or hexes: a template `ffi::json_table` builds in one call (a path, a map of
/// counts).
pub(crate) fn flat(j: &Json) -> bool {
    let plain_or_hex = |x: &Json| match x {
        Json::Array(_) => false,
        Json::Object(m) => is_hex(m),
        _ => true,
    };
    match j {
        Json::Array(a) => a.iter().all(plain_or_hex),
        Json::Object(m) => m.values().all(plain_or_hex),
        _ => false,
    }
}

/// `table` (false when `None`) followed by `args`: the arguments of a build that goes on in the
/// table an earlier call started, or starts a new one.
pub(crate) fn after_table(table: Option<&mlua::Table>, args: Vec<Value>) -> Vec<Value> {
    let mut all = Vec::with_capacity(args.len() + 1);
    all.push(table.map_or(Value::Boolean(false), |t| Value::Table(t.clone())));
    all.extend(args);
    all
}

/// The fields of a template in one call of `ffi::template`: `plain` key/value pairs, `hexes`
/// key/q/r triples (each `{ q =, r = }`, a new table) and `subs` key/template pairs, set in that
/// order.
pub(crate) struct TemplateCells {
    pub(crate) plain: usize,
    pub(crate) hexes: usize,
    pub(crate) subs: usize,
}

/// How `ffi::json_table` presizes the template of a [`flat`] value: as the Lua constructor of
/// the same fields (an array part of the length, or a hash part for every field), up to
/// [`PRESIZED`]; larger ones grow as usual.
pub(crate) fn flat_sizes(j: &Json) -> (std::os::raw::c_int, std::os::raw::c_int) {
    let count = members(j);
    let (narr, nhash) = match j.as_array().map_or(0, Vec::len) {
        0 if count <= PRESIZED => (0, count),
        n if n > 0 && n <= PRESIZED => (n, 0),
        _ => (0, 0),
    };
    // Both at most PRESIZED.
    (narr as std::os::raw::c_int, nhash as std::os::raw::c_int)
}

/// The members of an array or object that are not null (0 for anything else).
pub(crate) fn members(j: &Json) -> usize {
    match j {
        Json::Array(a) => a.iter().filter(|x| !x.is_null()).count(),
        Json::Object(m) => m.values().filter(|x| !x.is_null()).count(),
        _ => 0,
    }
}
