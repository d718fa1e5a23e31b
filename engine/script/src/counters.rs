//! How the editor draws each piece: the `counter` a piece type declares (docs/API.md 2.1a).
//!
//! ```lua
//! game.piece_type { id = "frigate", stats = { hull = 40 },
//!   counter = function(ctx, p)
//!     return { label = "FF", factors = "4-3", damage = { p.values.damage, 40 },
//!              markers = { p.values.speed .. " spd" } }
//!   end }
//! ```
//!
//! `counter` is a table (the same for every piece of the type) or a function of a read-only
//! `ctx` and the piece snapshot. Like `game.bots`, it is looked up when the editor asks, never
//! during play: a counter cannot change a game, and a broken one fails only the drawing (with
//! `file:line` and what to fix), never the game. A type without one is drawn with
//! [`Counter::fallback`].
//!
//! **What it deliberately does not do:** decide anything about the rules. Damage is a pair of
//! integers the editor turns into a bar; nothing here reads or writes the state.

use crate::bots::{defined_at, flatten, game_table};
use crate::rules::{Access, LuaRules};
use hexforge_game::{GameState, Piece, PieceId, RulesError};
use mlua::{Function, Table, Value};
use std::collections::BTreeMap;

/// The longest label drawn (characters); longer ones are an error that names the piece type.
pub const MAX_LABEL: usize = 6;
/// At most this many status markers per counter.
pub const MAX_MARKERS: usize = 8;
/// The longest factor line and marker (characters).
pub const MAX_TEXT: usize = 16;

/// What a counter shows: like a printed counter sheet.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Counter {
    /// A short label or symbol in the middle ("FF", "CA", "⚓"): at most [`MAX_LABEL`] chars.
    pub label: String,
    /// The factor line along the bottom ("4-3", "hull 40"); empty for none.
    pub factors: String,
    /// Status markers ("orbit", "alert", "3 spd", "no ammo"), drawn as tags by the counter.
    pub markers: Vec<String>,
    /// Damage taken out of what the piece can take, `(taken, of)` with `of > 0`: a bar.
    pub damage: Option<(u32, u32)>,
}

impl Counter {
    /// The counter of a piece whose type declares none: the type's first letters.
    #[must_use]
    pub fn fallback(kind: &str) -> Counter {
        Counter {
            label: kind.chars().take(4).collect(),
            ..Counter::default()
        }
    }
}

/// The counters of every piece of `state` whose type declares one, by piece id.
///
/// # Errors
/// The first broken counter: `file:line: counter of piece type frigate: label must be ...`.
pub fn counters(
    rules: &LuaRules,
    state: &GameState,
) -> Result<BTreeMap<PieceId, Counter>, RulesError> {
    let answer = rules.loaded().sandbox.guarded(|lua| {
        let mut out = BTreeMap::new();
        let Some(types) = game_table(lua, "piece_types")? else {
            return Ok(Ok(out));
        };
        rules.with_ctx(lua, Access::Read(state), |_, ctx| {
            for piece in state.pieces.values() {
                let Value::Table(t) = types.raw_get::<Value>(piece.kind.as_str())? else {
                    continue;
                };
                let read = match t.raw_get::<Value>("counter")? {
                    Value::Nil => continue,
                    Value::Table(c) => read_counter(&c).map_err(|e| (e, None)),
                    Value::Function(f) => call(&ctx, &f, piece),
                    other => Err((
                        format!("must be a table or a function, not a {}", other.type_name()),
                        None,
                    )),
                };
                match read {
                    Ok(c) => {
                        out.insert(piece.id, c);
                    }
                    Err((why, at)) => {
                        let at = at.map(|a| format!("{a}: ")).unwrap_or_default();
                        return Ok(Err(format!(
                            "{at}counter of piece type {} (piece #{}): {why}",
                            piece.kind, piece.id.0
                        )));
                    }
                }
            }
            Ok(Ok(out))
        })
    });
    flatten(answer)
}

/// Calls a counter function with the ctx and the piece's snapshot; an error names the
/// function's `file:line`.
fn call(ctx: &Table, f: &Function, piece: &Piece) -> Result<Counter, (String, Option<String>)> {
    let at = defined_at(f);
    let snapshot = ctx
        .get::<Function>("piece")
        .and_then(|m| m.call::<Value>((ctx.clone(), piece.id.0)))
        .map_err(|e| (e.to_string(), Some(at.clone())))?;
    match f.call::<Value>((ctx.clone(), snapshot)) {
        Ok(Value::Table(t)) => read_counter(&t).map_err(|e| (e, Some(at))),
        Ok(other) => Err((
            format!(
                "must return a table {{ label = ... }}, got {}",
                other.type_name()
            ),
            Some(at),
        )),
        Err(e) => Err((e.to_string(), None)),
    }
}

fn text(v: Value, what: &str, max: usize) -> Result<String, String> {
    let s = match v {
        Value::String(s) => s.to_string_lossy(),
        Value::Integer(i) => i.to_string(),
        other => {
            return Err(format!(
                "{what} must be a string, not a {}",
                other.type_name()
            ));
        }
    };
    if s.chars().count() > max {
        return Err(format!(
            "{what} {s:?} is longer than {max} characters: shorten it"
        ));
    }
    Ok(s)
}

fn whole(v: Value, what: &str) -> Result<u32, String> {
    match v {
        Value::Integer(i) => u32::try_from(i).map_err(|_| format!("{what} must be 0 or more")),
        Value::Number(x) if x.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&x) =>
        {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            Ok(x as u32)
        }
        other => Err(format!(
            "{what} must be a whole number, not {}",
            show(&other)
        )),
    }
}

fn show(v: &Value) -> String {
    match v {
        Value::Nil => "nil".into(),
        Value::Integer(i) => i.to_string(),
        Value::Number(x) => x.to_string(),
        Value::String(s) => format!("{:?}", s.to_string_lossy()),
        other => format!("a {}", other.type_name()),
    }
}

/// Reads and checks a counter table.
fn read_counter(t: &Table) -> Result<Counter, String> {
    let mut c = Counter::default();
    for pair in t.pairs::<Value, Value>() {
        let (k, v) = pair.map_err(|e| e.to_string())?;
        let key = match &k {
            Value::String(s) => s.to_string_lossy(),
            other => return Err(format!("unexpected key {}", show(other))),
        };
        match key.as_str() {
            "label" => c.label = text(v, "label", MAX_LABEL)?,
            "factors" => c.factors = text(v, "factors", MAX_TEXT)?,
            "markers" => {
                let Value::Table(list) = v else {
                    return Err(format!(
                        "markers must be a list of strings, not {}",
                        show(&v)
                    ));
                };
                for (i, m) in list.sequence_values::<Value>().enumerate() {
                    let m = m.map_err(|e| e.to_string())?;
                    if i >= MAX_MARKERS {
                        return Err(format!("at most {MAX_MARKERS} markers"));
                    }
                    c.markers
                        .push(text(m, &format!("markers[{}]", i + 1), MAX_TEXT)?);
                }
            }
            "damage" => {
                let Value::Table(pair) = v else {
                    return Err(format!(
                        "damage must be {{ taken, of }}, such as {{ 12, 40 }}, not {}",
                        show(&v)
                    ));
                };
                let taken = whole(pair.raw_get(1).map_err(|e| e.to_string())?, "damage[1]")?;
                let of = whole(pair.raw_get(2).map_err(|e| e.to_string())?, "damage[2]")?;
                if of == 0 {
                    return Err("damage[2] (what the piece can take) must be above 0".into());
                }
                c.damage = Some((taken.min(of), of));
            }
            other => {
                return Err(format!(
                    "unknown field `{other}` (a counter has label, factors, markers, damage)"
                ));
            }
        }
    }
    if c.label.is_empty() {
        return Err("label is missing: give a short label such as \"FF\"".into());
    }
    Ok(c)
}
