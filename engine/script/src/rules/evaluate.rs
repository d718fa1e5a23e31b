//! `game.evaluate(ctx, side)`: the mod's heuristic that search bots score their cut-short
//! simulations with ([`hexforge_game::Rules::evaluate`], docs/API.md section 2.10b).
//!
//! Looked up when a search asks, like `game.bots` (plain assignment, not a declaration): a mod
//! without one answers `None` and the simulations play to the end. The function gets a
//! read-only ctx and the side, and returns how good the state looks for that side, from 0
//! (lost) to 1 (won). An error in it, or an answer that is not such a number, fails the search
//! (and the bot's game) with the file and line.

use super::{Access, LuaRules, open_ctx, rerr};
use crate::bots::{defined_at, game_field, lua_show};
use hexforge_game::{GameState, RulesError, SideId};
use mlua::{Function, Lua, Value};

/// `game.evaluate` when the rule set defines it as a function.
fn evaluate_fn(lua: &Lua) -> mlua::Result<Option<Function>> {
    match game_field(lua, "evaluate")? {
        Value::Function(f) => Ok(Some(f)),
        _ => Ok(None),
    }
}

impl LuaRules {
    /// Calls `game.evaluate(ctx, side)` with a read-only ctx over `state`.
    pub(crate) fn run_evaluate(
        &self,
        state: &GameState,
        side: &SideId,
    ) -> Result<Option<f64>, RulesError> {
        let answer = self
            .loaded()
            .sandbox
            .guarded(|lua| {
                let Some(f) = evaluate_fn(lua)? else {
                    return Ok(Ok(None));
                };
                let (ctx, _session) = open_ctx(lua, Access::Read(state), self, false)?;
                let value: Value = f.call((ctx, side.as_str()))?;
                #[allow(clippy::cast_precision_loss)]
                let x = match value {
                    Value::Integer(i) => Some(i as f64),
                    Value::Number(x) => Some(x),
                    _ => None,
                };
                Ok(match x {
                    Some(x) if (0.0..=1.0).contains(&x) => Ok(Some(x)),
                    _ => Err(format!(
                        "{}: game.evaluate must return a number from 0 to 1 for side {side}, got {}",
                        defined_at(&f),
                        lua_show(&value)
                    )),
                })
            })
            .map_err(rerr)?;
        answer.map_err(RulesError::new)
    }
}
