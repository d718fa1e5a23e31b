//! # hexforge-pack
//!
//! Scenario packs and rule variants as one file: a `.hexpack` archive (a gzip'd tar holding an
//! index entry `hexpack.json` and the mod folder under `<id>/`), read as hostile input and
//! verified, then installed into the user mods folder with older versions kept while saved
//! games use them.
//!
//! Modules along the data path: [`hash`] (the content hash, identical to the loader's
//! `content_hash` of the installed folder) -> [`archive`] (write, read and verify archives
//! under [`Limits`]) -> [`deps`] (dependencies against the installed mods, explained in plain
//! words) -> [`saves`] (which saved games use which mod versions) -> [`store`] (install, list,
//! remove, keep and prune versions).
//!
//! **Invariants.** Nothing is written to the mods folder before an archive passed every check:
//! reading happens in memory under size, count and ratio caps; install extracts into a
//! temporary folder beside the mods folder and renames into place last, so on any failure the
//! installed mods are byte-for-byte untouched. No panics on any archive: every rejection is a
//! [`PackError`] value with a message a user can act on. This crate runs no Lua.
//!
//! ```
//! use hexforge_pack::archive::{Limits, read_pack};
//! // Any bytes at all give a value, never a panic.
//! let err = read_pack(b"not an archive", &Limits::default()).unwrap_err();
//! assert!(err.to_string().contains("not a .hexpack"));
//! ```

pub mod archive;
pub mod deps;
pub mod error;
pub mod hash;
pub mod saves;
pub mod store;

pub use archive::{Limits, Pack, PackIndex, read_pack, write_pack};
pub use error::{PackError, StoreError};
pub use saves::SaveIndex;
pub use store::{InstallReport, InstalledMod, ModStore, RemoveReport};
