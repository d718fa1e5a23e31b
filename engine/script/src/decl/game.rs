//! The `game` object in the VM: its Lua source ([`GAME_LUA`]), [`install_game`] that makes it
//! the `game` global, and [`caller_location`], the `file:line` each declaration records.

use crate::error::SourceLoc;
use mlua::{Lua, Table};

/// The Lua source of the `game` object.
pub const GAME_LUA: &str = include_str!("../../lua/game.lua");
/// Chunk name of [`GAME_LUA`] (a `=` name: never reported as a declaration site).
pub const GAME_CHUNK: &str = "=hexforge/game.lua";

/// Installs the `game` global and returns the handles Rust reads back later.
///
/// # Errors
/// Out of memory.
pub fn install_game(lua: &Lua) -> mlua::Result<(Table, Table, Table)> {
    let where_fn = lua.create_function(|lua, ()| Ok(caller_location(lua).to_string()))?;
    let (game, problems, sources): (Table, Table, Table) = lua
        .load(GAME_LUA)
        .set_name(GAME_CHUNK)
        .set_mode(mlua::chunk::ChunkMode::Text)
        .call(where_fn)?;
    lua.globals().raw_set("game", &game)?;
    Ok((game, problems, sources))
}

/// The innermost Lua frame that belongs to a real file (`@...` chunk name).
#[must_use]
pub fn caller_location(lua: &Lua) -> SourceLoc {
    for level in 1..64 {
        let found = lua.inspect_stack(level, |d| {
            let src = d.source();
            let name = src.source.as_deref().unwrap_or("");
            name.strip_prefix('@').map(|file| SourceLoc {
                file: file.to_string(),
                line: d.current_line().unwrap_or(0) as u32,
            })
        });
        match found {
            None => break,
            Some(Some(loc)) => return loc,
            Some(None) => {}
        }
    }
    SourceLoc::default()
}
