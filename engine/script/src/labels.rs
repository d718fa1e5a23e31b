//! How the editor names a choice: the `label` an action declares (docs/API.md 2.7), such as
//! "laser cannon -> frigate #2, range 3: 45%", with an optional short form drawn on the map by
//! the target or hex ("45%").
//!
//! ```lua
//! game.action { id = "fire", params = { piece = "piece", target = "piece" }, ...,
//!   label = function(ctx, a)
//!     return { text = "laser -> #" .. a.target .. ": 45%", short = "45%" }   -- or just a string
//!   end }
//! ```
//!
//! Looked up when the editor lists a piece's choices, never during play: a label cannot change
//! a game, and a broken one is reported with `file:line` while the choice keeps its plain
//! description.

use crate::bots::{action_table, defined_at, flatten, game_table};
use crate::rules::{Access, LuaRules};
use hexforge_game::{Action, GameState, RulesError};
use mlua::{Function, Lua, Table, Value};

/// The longest label text, and the longest short form (characters).
pub const MAX_TEXT: usize = 120;
/// The longest short form drawn on the map.
pub const MAX_SHORT: usize = 12;

/// A choice's label.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Label {
    /// What the play panel shows for the choice.
    pub text: String,
    /// What the map shows by its target or hex (may be empty).
    pub short: String,
}

/// The label of each of `actions` whose action declares one (`None` for the others), in order.
///
/// # Errors
/// The first broken label: `file:line: label of action fire: ...`.
pub fn labels(
    rules: &LuaRules,
    state: &GameState,
    actions: &[Action],
) -> Result<Vec<Option<Label>>, RulesError> {
    let answer = rules.loaded().sandbox.guarded(|lua| {
        let Some(decls) = game_table(lua, "actions")? else {
            return Ok(Ok(vec![None; actions.len()]));
        };
        rules.with_ctx(lua, Access::Read(state), |lua, ctx| {
            let mut out = Vec::with_capacity(actions.len());
            for a in actions {
                let f = match decls.raw_get::<Value>(a.id.as_str())? {
                    Value::Table(t) => match t.raw_get::<Value>("label")? {
                        Value::Function(f) => f,
                        _ => {
                            out.push(None);
                            continue;
                        }
                    },
                    _ => {
                        out.push(None);
                        continue;
                    }
                };
                match call(lua, &ctx, &f, a) {
                    Ok(l) => out.push(l),
                    Err(why) => return Ok(Err(format!("label of action {}: {why}", a.id))),
                }
            }
            Ok(Ok(out))
        })
    });
    flatten(answer)
}

fn text(v: Value, what: &str, max: usize) -> Result<String, String> {
    let s = match v {
        Value::String(s) => s.to_string_lossy(),
        Value::Nil => String::new(),
        other => {
            return Err(format!(
                "{what} must be a string, not a {}",
                other.type_name()
            ));
        }
    };
    if s.chars().count() > max {
        return Err(format!(
            "{what} is longer than {max} characters: shorten it"
        ));
    }
    Ok(s)
}

fn call(lua: &Lua, ctx: &Table, f: &Function, a: &Action) -> Result<Option<Label>, String> {
    let at = defined_at(f);
    let table = action_table(lua, a).map_err(|e| e.to_string())?;
    let v: Value = f.call((ctx.clone(), table)).map_err(|e| e.to_string())?;
    let label = match v {
        Value::Nil => return Ok(None),
        Value::String(_) => Label {
            text: text(v, "the label", MAX_TEXT).map_err(|e| format!("{at}: {e}"))?,
            short: String::new(),
        },
        Value::Table(t) => {
            let get = |k: &str| t.raw_get::<Value>(k).map_err(|e| e.to_string());
            Label {
                text: text(get("text")?, "text", MAX_TEXT).map_err(|e| format!("{at}: {e}"))?,
                short: text(get("short")?, "short", MAX_SHORT).map_err(|e| format!("{at}: {e}"))?,
            }
        }
        other => {
            return Err(format!(
                "{at}: must return a string or {{ text =, short = }}, not a {}",
                other.type_name()
            ));
        }
    };
    Ok((!label.text.is_empty()).then_some(label))
}
