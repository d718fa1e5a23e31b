//! Save migrations: a mod turns a game saved with an older version of it into one its current
//! version can replay.
//!
//! A save holds the game's record (scenario, options, seed, actions), so that is the state a
//! migration sees. A mod declares, in its entry file:
//!
//! ```lua
//! game.migrations = game.migrations or {}
//! game.migrations["my-mod"] = function(from, save)
//!   -- from: the version the save was made with ("0.1.0"); save: plain data
//!   -- { mod, from, to, scenario, options, seed, actions = { { id, side, params }, ... } }
//!   if from == "0.1.0" then
//!     for _, a in ipairs(save.actions) do
//!       if a.id == "burn" then a.id = "thrust" end
//!     end
//!     return save
//!   end
//!   return nil, "saves from " .. from .. " cannot be migrated"
//! end
//! ```
//!
//! Keyed by mod id so a variant and its base, sharing one VM, each migrate their own saves.
//! The function runs in the rule set's sandbox with the usual instruction and memory budgets;
//! it gets plain data and returns plain data (or `nil, reason` to refuse). The engine then
//! replays the returned record under the current rules.
//!
//! This module does not decide when to migrate (the CLI does, from the save's locks).
//!
//! ```no_run
//! use hexforge_script::migrate::migrate_record;
//! # fn f(loaded: &hexforge_script::LoadedMods, record: &hexforge_game::GameRecord) {
//! let new = migrate_record(loaded, record, "orbital-skirmish", "0.1.0", "0.2.0");
//! # }
//! ```

use crate::error::ScriptError;
use crate::loader::LoadedMods;
use hexforge_game::{Action, GameRecord, Value};
use mlua::LuaSerdeExt;
use serde::{Deserialize, Serialize};

/// Why a save could not be migrated.
#[derive(Debug, thiserror::Error)]
pub enum MigrateError {
    /// The mod declares no migration function.
    #[error(
        "{id} declares no migration (game.migrations[\"{id}\"]), so a save made with {id} {from} cannot be loaded with {id} {to}"
    )]
    NoMigration {
        /// The mod.
        id: String,
        /// The save's version.
        from: String,
        /// The installed version.
        to: String,
    },
    /// The migration returned `nil, reason`.
    #[error("{id}'s migration from {from} to {to} refused: {reason}")]
    Refused {
        /// The mod.
        id: String,
        /// The save's version.
        from: String,
        /// The installed version.
        to: String,
        /// Its reason.
        reason: String,
    },
    /// The migration errored or returned something that is not a save.
    #[error("{id}'s migration from {from} failed: {error}")]
    Failed {
        /// The mod.
        id: String,
        /// The save's version.
        from: String,
        /// The Lua error (`file:line: message`) or what was wrong with the result.
        error: String,
    },
}

/// The plain data a migration sees and returns.
#[derive(Serialize, Deserialize)]
struct SaveData {
    #[serde(default, skip_deserializing)]
    r#mod: String,
    #[serde(default, skip_deserializing)]
    from: String,
    #[serde(default, skip_deserializing)]
    to: String,
    scenario: String,
    #[serde(default)]
    options: Value,
    seed: u64,
    #[serde(default)]
    actions: Vec<Action>,
}

/// True when the rule set declares a migration for mod `id`.
#[must_use]
pub fn has_migration(loaded: &LoadedMods, id: &str) -> bool {
    loaded
        .sandbox
        .guarded(|lua| {
            let game: mlua::Table = lua.globals().raw_get("game")?;
            let Ok(migs) = game.raw_get::<mlua::Table>("migrations") else {
                return Ok(false);
            };
            Ok(matches!(
                migs.raw_get::<mlua::Value>(id)?,
                mlua::Value::Function(_)
            ))
        })
        .unwrap_or(false)
}

/// Runs mod `id`'s migration on a record saved with version `from`, for version `to`. The
/// returned record keeps the original's mods list (the caller replaces the locks).
///
/// # Errors
/// No migration, a refusal, a Lua error or a result that is not a save.
pub fn migrate_record(
    loaded: &LoadedMods,
    record: &GameRecord,
    id: &str,
    from: &str,
    to: &str,
) -> Result<GameRecord, MigrateError> {
    if !has_migration(loaded, id) {
        return Err(MigrateError::NoMigration {
            id: id.into(),
            from: from.into(),
            to: to.into(),
        });
    }
    let data = SaveData {
        r#mod: id.into(),
        from: from.into(),
        to: to.into(),
        scenario: record.scenario.clone(),
        options: record.options.clone(),
        seed: record.seed,
        actions: record.actions.clone(),
    };
    let failed = |error: String| MigrateError::Failed {
        id: id.into(),
        from: from.into(),
        error,
    };
    let result: Result<(mlua::Value, Option<String>), ScriptError> =
        loaded.sandbox.guarded(|lua| {
            let game: mlua::Table = lua.globals().raw_get("game")?;
            let migs: mlua::Table = game.raw_get("migrations")?;
            let f: mlua::Function = migs.raw_get(id)?;
            let arg = lua.to_value(&data)?;
            f.call((from, arg))
        });
    let (value, reason) = result.map_err(|e| failed(e.to_string()))?;
    if matches!(value, mlua::Value::Nil) {
        return Err(MigrateError::Refused {
            id: id.into(),
            from: from.into(),
            to: to.into(),
            reason: reason.unwrap_or_else(|| "no reason given".into()),
        });
    }
    let back: SaveData = loaded
        .sandbox
        .lua()
        .from_value(value)
        .map_err(|e| failed(format!("it returned something that is not a save: {e}")))?;
    Ok(GameRecord {
        format_version: record.format_version,
        mods: record.mods.clone(),
        scenario: back.scenario,
        options: back.options,
        seed: back.seed,
        actions: back.actions,
    })
}
