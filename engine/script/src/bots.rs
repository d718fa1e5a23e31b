//! Named bots written in Lua: `game.bots.<name> = function(ctx, side, legal) return i end`
//! (docs/API.md, `game.bots`).
//!
//! A bot sees a read-only `ctx` and the list of legal action tables of its side and returns the
//! 1-based index of the one to take. Bots are playtesting aids, not rules: they are looked up when
//! a game asks for them, never validated at load time, and a failing bot fails only the game that
//! used it (with `file:line: message`). The built-in `random` bot lives in the CLI, in Rust.
//!
//! ```no_run
//! # use hexforge_script::{bots, LuaRules};
//! # fn demo(rules: &LuaRules, state: &hexforge_game::GameState, legal: &[hexforge_game::Action]) {
//! let names = bots::bot_names(rules);
//! let pick = bots::choose(rules, state, "greedy", &"blue".into(), legal).unwrap();
//! # }
//! ```

use crate::rules::{Access, LuaRules};
use hexforge_game::rules::RulesError;
use hexforge_game::{Action, GameState, SideId};
use mlua::{Function, Lua, Table, Value};
use serde_json::Value as Json;

/// `game.<field>` as the VM holds it now (`Nil` without a `game` table): what is looked up at play
/// time rather than declared, `game.bots` and `game.evaluate`.
pub(crate) fn game_field(lua: &Lua, field: &str) -> mlua::Result<Value> {
    match lua.globals().raw_get::<Value>("game")? {
        Value::Table(game) => game.raw_get(field),
        _ => Ok(Value::Nil),
    }
}

/// [`game_field`] when it is a table (`game.bots`, `game.piece_types`, `game.actions`).
pub(crate) fn game_table(lua: &Lua, field: &str) -> mlua::Result<Option<Table>> {
    Ok(match game_field(lua, field)? {
        Value::Table(t) => Some(t),
        _ => None,
    })
}

/// A guarded VM call whose Lua code answers a readable refusal as `Err(String)`: both kinds of
/// failure as one [`RulesError`].
pub(crate) fn flatten<T>(
    answer: Result<Result<T, String>, impl std::fmt::Display>,
) -> Result<T, RulesError> {
    match answer {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(msg)) => Err(RulesError::new(msg)),
        Err(e) => Err(RulesError::new(e.to_string())),
    }
}

/// The names of the bots the rule set defines, sorted.
#[must_use]
pub fn bot_names(rules: &LuaRules) -> Vec<String> {
    let found = rules.loaded().sandbox.guarded(|lua| {
        let mut names = Vec::new();
        if let Some(t) = game_table(lua, "bots")? {
            for pair in t.pairs::<Value, Value>() {
                let (k, v) = pair?;
                if let (Value::String(k), Value::Function(_)) = (k, v) {
                    names.push(k.to_string_lossy());
                }
            }
        }
        names.sort();
        Ok(names)
    });
    found.unwrap_or_default()
}

/// Asks bot `bot` which of `legal` (the legal actions of `side`) to take: a 0-based index.
///
/// # Errors
/// No such bot (the message lists the ones there are), the bot failed, or it returned something
/// other than an index into `legal`.
pub fn choose(
    rules: &LuaRules,
    state: &GameState,
    bot: &str,
    side: &SideId,
    legal: &[Action],
) -> Result<usize, RulesError> {
    let n = legal.len();
    let picked = rules.loaded().sandbox.guarded(|lua| {
        let f = match game_table(lua, "bots")?
            .map(|t| t.raw_get::<Value>(bot))
            .transpose()?
        {
            Some(Value::Function(f)) => f,
            _ => return Ok(Err(format!("this mod has no bot named {bot:?}"))),
        };
        let list = lua.create_table()?;
        for a in legal {
            list.raw_push(action_table(lua, a)?)?;
        }
        rules.with_ctx(lua, Access::Read(state), |_, ctx| {
            let v: Value = Function::call(&f, (ctx, side.as_str(), list))?;
            Ok(match v {
                Value::Integer(i) if i >= 1 && (i as usize) <= n => Ok(i as usize - 1),
                Value::Number(x) if x.fract() == 0.0 && x >= 1.0 && (x as usize) <= n => {
                    Ok(x as usize - 1)
                }
                other => Err(format!(
                    "bot {bot:?} must return an index from 1 to {n}, got {}",
                    lua_show(&other)
                )),
            })
        })
    });
    match picked {
        Ok(Ok(i)) => Ok(i),
        Ok(Err(msg)) if msg.starts_with("this mod has no bot") => {
            let names = bot_names(rules);
            Err(RulesError::new(format!(
                "{msg}; it has: random (built in){}",
                names.iter().map(|n| format!(", {n}")).collect::<String>()
            )))
        }
        Ok(Err(msg)) => Err(RulesError::new(msg)),
        Err(e) => Err(RulesError::new(format!("bot {bot:?}: {e}"))),
    }
}

/// Where Lua function `f` is defined, as `file:line` (chunks are named by the mods' relative
/// paths): for messages about what a play-time function returned.
pub(crate) fn defined_at(f: &Function) -> String {
    let info = f.info();
    let file = info
        .source
        .as_deref()
        .map_or("?", |s| s.strip_prefix('@').unwrap_or(s))
        .to_owned();
    format!("{file}:{}", info.line_defined.unwrap_or(0))
}

/// A Lua value as a message shows it: `nil`, `2`, `"text"`, `table`.
pub(crate) fn lua_show(v: &Value) -> String {
    match v {
        Value::Nil => "nil".into(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(i) => i.to_string(),
        Value::Number(x) => x.to_string(),
        Value::String(s) => format!("{:?}", s.to_string_lossy()),
        other => other.type_name().to_string(),
    }
}

/// An action as the Lua table mods see: `{ id =, side =, ...params }`.
pub(crate) fn action_table(lua: &Lua, a: &Action) -> mlua::Result<Value> {
    let mut map = match &a.params {
        Json::Object(m) => m.clone(),
        _ => serde_json::Map::new(),
    };
    map.insert("id".into(), Json::String(a.id.clone()));
    map.insert("side".into(), Json::String(a.side.as_str().to_owned()));
    crate::api::plain::json_to_lua(lua, &Json::Object(map))
}
