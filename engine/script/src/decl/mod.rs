//! Declarations: the `game` object mods use in their entry files, and [`ModDecls`], the typed,
//! validated result Rust reads back.
//!
//! ```lua
//! game.piece_type { id = "frigate", stats = { hull = 40, adf = 3, mr = 3 }, values = { speed = 0 } }
//! game.table { id = "hit", rows = { 1, 2 }, columns = { "a", "b" }, cells = { { 1, 2 }, { 3, 4 } } }
//! game.dice { id = "battle", faces = { "fighter", "strike", "capital", "wild", "star", "alert" } }
//! game.turns { order = "fixed", phases = { { id = "move" }, { id = "fire", actor = "others" } } }
//! game.action { id = "move", phases = { "move" }, params = { piece = "piece", to = "hex" },
//!   check = function(ctx, a) return true end, apply = function(ctx, a) end }
//! game.setup(function(ctx) end)
//! game.victory(function(ctx) end)
//! game.on("round_start", function(ctx) end)
//! ```
//!
//! Each declaration records `file:line` of the declaring call. A variant mod runs after its base
//! in the same VM and edits declarations in place (`game.piece_types.frigate.stats.mr = 4`).
//! [`read_decls`] then validates everything and reports **every** problem at once.
//!
//! Callbacks stay in the VM: Rust keeps [`CallbackId`]s (indices into the loader's registry
//! keys), never Lua values, so `ModDecls` is plain data.
//!
//! This module does not run callbacks and does not know game state.
//!
//! One file per kind of declaration, each holding its type and its reader: `pieces` (piece
//! types), `tables`, `dice`, `data` (boards and terrains), `turns`, `actions` and `hooks`
//! (setup, victory and `game.on`). `game` installs the `game` object; `reader` holds the helpers
//! every reader shares. [`read_decls`] calls the readers in order.

mod actions;
mod data;
mod dice;
mod game;
mod hooks;
mod pieces;
mod reader;
mod tables;
mod turns;

pub use actions::{ActionDecl, PARAM_KINDS};
pub use data::{BoardDecl, TerrainDecl};
pub use dice::{DiceDecl, single_die_sides, valid_notation};
pub use game::{GAME_CHUNK, GAME_LUA, caller_location, install_game};
pub use hooks::{HOOK_EVENTS, HookDecl};
pub use pieces::PieceTypeDecl;
pub use tables::{POLICIES, TableDecl};
pub use turns::{ACTORS, ORDERS, PhaseDecl, SCOPES, TurnsDecl};

use crate::error::{ModError, SourceLoc};
use mlua::{Lua, RegistryKey, Table};
use reader::Reader;
use std::collections::BTreeMap;

/// Index of a Lua callback kept in the VM registry by the loader.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct CallbackId(pub u32);

/// Everything a rule set declared, validated.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct ModDecls {
    /// Piece types by id.
    pub piece_types: BTreeMap<String, PieceTypeDecl>,
    /// Tables by id.
    pub tables: BTreeMap<String, TableDecl>,
    /// Dice by id.
    pub dice: BTreeMap<String, DiceDecl>,
    /// Boards by id.
    pub boards: BTreeMap<String, BoardDecl>,
    /// Terrain types by id.
    pub terrains: BTreeMap<String, TerrainDecl>,
    /// The turn structure.
    pub turns: Option<TurnsDecl>,
    /// Actions by id.
    pub actions: BTreeMap<String, ActionDecl>,
    /// Setup callback.
    pub setup: Option<CallbackId>,
    /// Victory callback.
    pub victory: Option<CallbackId>,
    /// Hooks by event, in declaration order.
    pub hooks: BTreeMap<String, Vec<HookDecl>>,
}

/// Reads the declaration table after every entry file ran, validating everything.
///
/// Returns the declarations and the registry keys of their callbacks, or every problem.
///
/// # Errors
/// All problems, each `file:line: message`.
pub fn read_decls(
    lua: &Lua,
    game: &Table,
    problems: &Table,
    sources: &Table,
) -> Result<(ModDecls, Vec<RegistryKey>), Vec<ModError>> {
    let mut r = Reader::new(lua);
    for p in problems.sequence_values::<Table>().flatten() {
        let loc: String = p.raw_get(1).unwrap_or_default();
        let msg: String = p.raw_get(2).unwrap_or_default();
        r.err(&SourceLoc::parse(&loc), msg);
    }
    let mut d = ModDecls::default();
    // Order matters: later readers check names against earlier ones (turns -> dice, actions ->
    // turns, hooks -> turns and actions), and callbacks are numbered in reading order.
    pieces::read_piece_types(&mut r, game, sources, &mut d);
    tables::read_tables(&mut r, game, sources, &mut d);
    dice::read_dice(&mut r, game, sources, &mut d);
    data::read_boards(&mut r, game, sources, &mut d);
    data::read_terrains(&mut r, game, sources, &mut d);
    turns::read_turns(&mut r, game, sources, &mut d);
    actions::read_actions(&mut r, game, sources, &mut d);
    hooks::read_setup_victory(&mut r, game, sources, &mut d);
    hooks::read_hooks(&mut r, game, sources, &mut d);

    if r.errs.is_empty() {
        Ok((d, r.callbacks))
    } else {
        r.errs.sort();
        r.errs.dedup();
        Err(r.errs)
    }
}
