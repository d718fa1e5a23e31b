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
}

impl<'a> Args<'a> {
    /// Wraps a call's arguments.
    #[must_use]
    pub fn new(fname: &'a str, values: MultiValue) -> Self {
        Args {
            fname,
            values: values.into_vec(),
        }
    }

    fn get(&self, i: usize) -> &Value {
        self.values.get(i).unwrap_or(&Value::Nil)
    }

    /// An error naming the function and argument.
    #[must_use]
    pub fn err(&self, i: usize, msg: &str) -> mlua::Error {
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
        hex_from_value(self.get(i)).map_err(|m| self.err(i, &m))
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
    let Value::Table(t) = v else {
        return Err(format!("expected a hex {{q=, r=}}, got {}", v.type_name()));
    };
    // A snapshot's hex in check or choices is a read-only view.
    let t = &crate::api::plain::real_table(t);
    let coord = |k: &str| -> Result<i32, String> {
        let n = match t.raw_get::<Value>(k).map_err(|e| e.to_string())? {
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
    let t = lua.create_table()?;
    for (i, h) in hs.into_iter().enumerate() {
        t.raw_set(i + 1, hex_to_table(lua, h)?)?;
    }
    Ok(t)
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
    let func =
        lua.create_function(move |lua, values: MultiValue| f(lua, &Args::new(fname, values)))?;
    t.raw_set(name, func)
}
