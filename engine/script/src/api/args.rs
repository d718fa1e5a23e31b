//! Argument parsing for API functions with messages that name the function and argument.
//!
//! This module only converts values; it knows no namespace.
//!
//! ```
//! use hexforge_script::api::args::COORD_LIMIT;
//! assert!(COORD_LIMIT > 10_000);
//! ```

use hexforge_core::hex::{Direction, Hex, Turn};
use mlua::{Lua, MultiValue, Table, Value};

/// Largest accepted absolute hex coordinate (keeps all integer arithmetic far from overflow).
pub const COORD_LIMIT: i64 = 1 << 24;

/// The arguments of one API call, with the function's full name for messages.
pub struct Args<'a> {
    /// e.g. `hex.distance`.
    pub fname: &'a str,
    /// The raw arguments.
    pub values: Vec<Value>,
    /// The VM the call came from (kept keys, faster hex reads, see [`hex_from_value_in`]).
    lua: &'a Lua,
}

impl<'a> Args<'a> {
    /// The value of field `key` of `t`: raw (`raw`) or through metamethods, with the key kept in
    /// the VM when the call came from one (see [`crate::raw::RawReader::key`]).
    ///
    /// # Errors
    /// Out of memory, or an error raised by an `__index` metamethod.
    pub fn field(&self, t: &Table, key: &'static str, raw: bool) -> mlua::Result<Value> {
        let kept = match self.lua.app_data_ref::<crate::raw::RawReader>() {
            Some(r) => Some(r.key(self.lua, key)?),
            None => None,
        };
        match (kept, raw) {
            (Some(k), true) => t.raw_get(k),
            (Some(k), false) => t.get(k),
            (None, true) => t.raw_get(key),
            (None, false) => t.get(key),
        }
    }

    /// Wraps a call's arguments, with the VM they came from.
    #[must_use]
    pub fn in_vm(lua: &'a Lua, fname: &'a str, values: MultiValue) -> Self {
        Args {
            fname,
            values: values.into_vec(),
            lua,
        }
    }

    /// The VM the call came from.
    #[must_use]
    pub fn lua(&self) -> &'a Lua {
        self.lua
    }

    /// Argument `i` (nil when missing).
    #[must_use]
    pub fn get(&self, i: usize) -> &Value {
        self.values.get(i).unwrap_or(&Value::Nil)
    }

    /// An error naming the function and argument.
    #[must_use]
    pub fn err(&self, i: usize, msg: &str) -> mlua::Error {
        if self.fname.is_empty() {
            // A ctx method: the ctx wrapper names it (`ctx:<name>: argument N: ...`).
            return mlua::Error::runtime(format!("argument {}: {msg}", i + 1));
        }
        mlua::Error::runtime(format!("{}: argument {}: {msg}", self.fname, i + 1))
    }

    /// Argument `i` as an integer (a float with an integral value is accepted).
    ///
    /// # Errors
    /// If it is not an integer.
    pub fn int(&self, i: usize) -> mlua::Result<i64> {
        match self.get(i) {
            Value::Integer(n) => Ok(*n),
            Value::Number(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Ok(*f as i64),
            v => Err(self.err(i, &format!("expected an integer, got {}", v.type_name()))),
        }
    }

    /// Argument `i` as an integer in `lo..=hi`.
    ///
    /// # Errors
    /// If it is not an integer in range.
    pub fn int_in(&self, i: usize, lo: i64, hi: i64) -> mlua::Result<i64> {
        let n = self.int(i)?;
        if (lo..=hi).contains(&n) {
            Ok(n)
        } else {
            Err(self.err(i, &format!("expected {lo}..{hi}, got {n}")))
        }
    }

    /// Argument `i` as a hex `{q=, r=}`.
    ///
    /// # Errors
    /// If it is not a table with integer `q` and `r` within [`COORD_LIMIT`].
    pub fn hex(&self, i: usize) -> mlua::Result<Hex> {
        hex_from_value_in(self.lua, self.get(i)).map_err(|m| self.err(i, &m))
    }

    /// A value that should be a hex (a list item, a field), read as [`Args::hex`] reads one.
    ///
    /// # Errors
    /// A message (without function name) when the value is not a hex.
    pub fn hex_of(&self, v: &Value) -> Result<Hex, String> {
        hex_from_value_in(self.lua, v)
    }

    /// Argument `i` as a direction `0..=5`.
    ///
    /// # Errors
    /// If it is not an integer 0..5.
    pub fn dir(&self, i: usize) -> mlua::Result<Direction> {
        dir_from_value(self.get(i)).map_err(|m| self.err(i, &m))
    }

    /// Argument `i` as a turn: `"cw"`/`"clockwise"` or `"ccw"`/`"counterclockwise"`.
    ///
    /// # Errors
    /// For anything else.
    pub fn turn(&self, i: usize) -> mlua::Result<Turn> {
        match self.get(i) {
            Value::String(s) => match &*s.to_string_lossy() {
                "cw" | "clockwise" => Ok(Turn::Clockwise),
                "ccw" | "counterclockwise" | "counter_clockwise" => Ok(Turn::CounterClockwise),
                other => Err(self.err(i, &format!("expected \"cw\" or \"ccw\", got {other:?}"))),
            },
            v => Err(self.err(
                i,
                &format!("expected \"cw\" or \"ccw\", got {}", v.type_name()),
            )),
        }
    }

    /// Argument `i` as a string.
    ///
    /// # Errors
    /// If it is not a string.
    pub fn string(&self, i: usize) -> mlua::Result<String> {
        match self.get(i) {
            Value::String(s) => Ok(s.to_string_lossy()),
            v => Err(self.err(i, &format!("expected a string, got {}", v.type_name()))),
        }
    }
}

/// Reads a direction: an integer `0..=5` or a name `"N"`, `"NE"`, ... (any case).
///
/// # Errors
/// A message when the value is not a direction.
pub fn dir_from_value(v: &Value) -> Result<Direction, String> {
    match v {
        Value::Integer(n) if (0..6).contains(n) => Ok(Direction::from_index(*n as i32)),
        Value::Number(f) if f.fract() == 0.0 && (0.0..6.0).contains(f) => {
            Ok(Direction::from_index(*f as i32))
        }
        Value::String(s) => Direction::from_name(&s.to_string_lossy()).ok_or_else(|| {
            format!(
                "expected a direction 0..5 or N, NE, SE, S, SW, NW; got {:?}",
                s.to_string_lossy()
            )
        }),
        other => Err(format!(
            "expected a direction 0..5 or N, NE, SE, S, SW, NW; got {}",
            match other {
                Value::Integer(n) => n.to_string(),
                Value::Number(f) => f.to_string(),
                o => o.type_name().to_string(),
            }
        )),
    }
}

/// Reads a hex table, with a message saying what is wrong.
///
/// # Errors
/// A message (without function name) when the value is not a hex.
pub fn hex_from_value(v: &Value) -> Result<Hex, String> {
    read_hex(v, |t, k| t.raw_get::<Value>(k))
}

/// [`hex_from_value`], reading `q` and `r` with keys kept in the VM when it has them. Why:
/// under a memory limit every `&str` key is created by a protected call (~1k instructions),
/// and hexes are read by nearly every API call.
///
/// # Errors
/// As [`hex_from_value`].
pub fn hex_from_value_in(lua: &Lua, v: &Value) -> Result<Hex, String> {
    match lua.app_data_ref::<crate::raw::RawReader>() {
        Some(keys) => {
            let (q, r) = keys.hex_keys();
            read_hex(v, |t, k| t.raw_get::<Value>(if k == "q" { q } else { r }))
        }
        None => hex_from_value(v),
    }
}

fn read_hex(
    v: &Value,
    get: impl Fn(&Table, &'static str) -> mlua::Result<Value>,
) -> Result<Hex, String> {
    let Value::Table(t) = v else {
        return Err(format!("expected a hex {{q=, r=}}, got {}", v.type_name()));
    };
    let coord = |k: &'static str| -> Result<i32, String> {
        let n = match get(t, k).map_err(|e| e.to_string())? {
            Value::Integer(n) => n,
            Value::Number(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => f as i64,
            other => {
                return Err(format!(
                    "expected a hex {{q=, r=}} with integer {k}, got {k} = {}",
                    other.type_name()
                ));
            }
        };
        if n.abs() > COORD_LIMIT {
            return Err(format!(
                "hex coordinate {k} = {n} is out of range (max {COORD_LIMIT})"
            ));
        }
        Ok(n as i32)
    };
    Ok(Hex::new(coord("q")?, coord("r")?))
}

/// A hex as a new `{q=, r=}` table.
///
/// # Errors
/// Out of memory.
pub fn hex_to_table(lua: &Lua, h: Hex) -> mlua::Result<Table> {
    if let Some(b) = lua.app_data_ref::<HexBuilder>() {
        return b.one.call((h.q, h.r));
    }
    let t = lua.create_table_with_capacity(0, 2)?;
    t.raw_set("q", h.q)?;
    t.raw_set("r", h.r)?;
    Ok(t)
}

/// A list of hexes as a Lua sequence.
///
/// # Errors
/// Out of memory.
pub fn hexes_to_table(lua: &Lua, hs: impl IntoIterator<Item = Hex>) -> mlua::Result<Table> {
    let hs: Vec<Hex> = hs.into_iter().collect();
    if let Some(b) = lua.app_data_ref::<HexBuilder>()
        && hs.len() <= MAX_HEXES_PER_CALL
    {
        let flat = hs
            .iter()
            .flat_map(|h| [Value::Integer(h.q.into()), Value::Integer(h.r.into())]);
        return b.many.call(MultiValue::from_iter(flat));
    }
    let t = lua.create_table()?;
    for (i, h) in hs.into_iter().enumerate() {
        t.raw_set(i + 1, hex_to_table(lua, h)?)?;
    }
    Ok(t)
}

/// Most hexes [`hexes_to_table`] builds in one call (a call's arguments live on the Lua stack).
const MAX_HEXES_PER_CALL: usize = 2000;

/// Builds hex tables in Lua: one call instead of a protected call per table and field (under a
/// memory limit every table and string mlua makes from Rust is a protected call). Compiled
/// with an empty environment; registered by [`register_hex_builder`].
pub struct HexBuilder {
    one: mlua::Function,
    many: mlua::Function,
}

/// Compiles the [`HexBuilder`] into the VM's app data.
///
/// # Errors
/// Out of memory.
pub fn register_hex_builder(lua: &Lua) -> mlua::Result<()> {
    let (one, many): (mlua::Function, mlua::Function) = lua
        .load(
            "local function one(q, r) return { q = q, r = r } end
             local function many(...)
               local a, out = { ... }, {}
               for i = 1, #a, 2 do out[#out + 1] = { q = a[i], r = a[i + 1] } end
               return out
             end
             return one, many",
        )
        .set_name("=hexforge hexes")
        .set_environment(lua.create_table()?)
        .eval()?;
    lua.set_app_data(HexBuilder { one, many });
    Ok(())
}

/// Adds `name` to namespace table `t` as a function of its raw arguments; `ns.name` is used in
/// error messages.
///
/// # Errors
/// Out of memory.
pub fn add<F>(lua: &Lua, t: &Table, ns: &'static str, name: &'static str, f: F) -> mlua::Result<()>
where
    F: Fn(&Lua, &Args<'_>) -> mlua::Result<MultiValue> + 'static,
{
    let fname: &'static str = Box::leak(format!("{ns}.{name}").into_boxed_str());
    let func = lua
        .create_function(move |lua, values: MultiValue| f(lua, &Args::in_vm(lua, fname, values)))?;
    t.raw_set(name, func)
}
