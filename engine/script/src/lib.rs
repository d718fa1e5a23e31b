//! # hexforge-script
//!
//! The Lua side of Hexforge: mod manifests, sandboxed Lua 5.4 VMs, the declaration stage
//! (`game.piece_type { .. }`), the Lua API over the core (`hex`, `direction`, ...), rules backed
//! by Lua callbacks, scenarios and hot reload.
//!
//! **Invariants.** Game state never lives in the Lua VM: Lua holds ids (handles) and changes
//! state only through engine calls. Every Lua error is converted at the boundary into a
//! [`ScriptError`] (`file:line: message`); loading reports every problem at once as
//! [`ModError`]s. Only this crate depends on mlua.
//!
//! Modules, along the data path: [`manifest`] (mod.toml, discovery, dependency order) ->
//! [`sandbox`] (the VM) -> [`decl`] (the `game` object, [`ModDecls`]) -> [`loader`] (a rule set in
//! one VM) -> [`rules`] ([`LuaRules`], the `ctx` API) with [`scenario`] -> [`watch`] (hot
//! reload, replay comparison). [`api`] holds the pure Lua namespaces (`hex`, `direction`, `dice`);
//! `scripts/types/hexforge.d.lua` documents all of it for editors and is checked by tests.
//!
//! ```
//! use hexforge_script::{Limits, Sandbox};
//! let sb = Sandbox::new(Limits::default()).unwrap();
//! let n: i64 = sb.eval("return hex.distance({q=0,r=0}, {q=2,r=1})", "=example").unwrap();
//! assert_eq!(n, 3);
//! ```

pub mod api;
pub mod bots;
pub mod counters;
pub mod decl;
pub mod error;
pub mod eval;
mod ffi;
pub mod labels;
mod layout;
pub mod loader;
pub mod manifest;
pub mod migrate;
pub mod paths;
pub mod profile;
pub mod raw;
pub mod rules;
pub mod sandbox;
pub mod scenario;
mod stack;
pub mod testing;
pub mod watch;

pub use decl::ModDecls;
pub use error::{ModError, ModErrors, ScriptError, ScriptErrorKind, SourceLoc};
pub use loader::{LoadedMods, load_mods};
pub use manifest::{Manifest, ModSet, discover};
pub use rules::LuaRules;
pub use sandbox::{Limits, Sandbox};
