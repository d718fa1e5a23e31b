//! Why an archive was rejected ([`PackError`]) or an install, list or remove failed
//! ([`StoreError`]). Every message names the entry or mod concerned and what to do.
//!
//! This module only defines errors; it does not print them.
//!
//! ```
//! use hexforge_pack::PackError;
//! let e = PackError::UnsafePath { path: "../evil.lua".into(), why: "'..' leaves the mod folder" };
//! assert!(e.to_string().contains("../evil.lua"));
//! ```

use std::path::PathBuf;

/// Why an archive could not be written or was rejected on reading.
#[derive(Debug, thiserror::Error)]
pub enum PackError {
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The bytes are not a gzip'd tar (or the stream is damaged).
    #[error("not a .hexpack archive: {0}")]
    NotAPack(String),
    /// A size cap was exceeded.
    #[error("{what} is over the limit of {limit} bytes")]
    TooLarge {
        /// What was too large (an entry name, "the archive", "the unpacked content").
        what: String,
        /// The cap.
        limit: u64,
    },
    /// More entries than allowed.
    #[error("more than {limit} entries in the archive")]
    TooManyEntries {
        /// The cap.
        limit: usize,
    },
    /// The archive inflates too much for its size (a compression bomb).
    #[error(
        "the archive unpacks to more than {limit} times its size (a compression bomb?): {unpacked} bytes from {packed}"
    )]
    CompressionRatio {
        /// The cap on unpacked / packed.
        limit: u64,
        /// Bytes unpacked when the cap was hit.
        unpacked: u64,
        /// The archive's size.
        packed: u64,
    },
    /// An entry's path would escape the mod folder.
    #[error("entry {path:?}: unsafe path ({why})")]
    UnsafePath {
        /// The entry's name as found.
        path: String,
        /// Why it is unsafe.
        why: &'static str,
    },
    /// An entry's name is not one a mod file may have.
    #[error("entry {path:?}: {why}")]
    OddName {
        /// The entry's name (lossy if not UTF-8).
        path: String,
        /// What is odd about it.
        why: &'static str,
    },
    /// A symbolic or hard link.
    #[error("entry {path:?} is a {kind}; a pack carries plain files only (copy the target in)")]
    Link {
        /// The entry.
        path: String,
        /// "symbolic link" or "hard link".
        kind: &'static str,
    },
    /// A device, fifo or other special entry.
    #[error("entry {path:?} is a {kind}; a pack carries plain files and folders only")]
    SpecialFile {
        /// The entry.
        path: String,
        /// What it is.
        kind: String,
    },
    /// The same path twice (or twice up to letter case, or as a file and a folder).
    #[error("entry {path:?} appears twice{how}")]
    Duplicate {
        /// The entry.
        path: String,
        /// How (empty, " (up to letter case)", " (as a file and a folder)").
        how: &'static str,
    },
    /// No `hexpack.json` index entry, or a damaged one.
    #[error("the archive's index (hexpack.json) {0}")]
    BadIndex(String),
    /// A file outside the `<id>/` folder the index names.
    #[error("entry {path:?} is outside the mod folder {id:?}/")]
    OutsideMod {
        /// The entry.
        path: String,
        /// The pack's mod id.
        id: String,
    },
    /// The mod's `mod.toml` is missing or does not parse (its `file:line` messages).
    #[error("the mod's manifest is not valid:\n{}", .0.join("\n"))]
    Manifest(Vec<String>),
    /// The index and the manifest disagree.
    #[error("the index and mod.toml disagree: {0}")]
    IndexMismatch(String),
    /// The files do not hash to the index's content hash.
    #[error(
        "content hash mismatch: the index says {expected}, the files hash to {found} (damaged or altered archive)"
    )]
    HashMismatch {
        /// The hash in the index.
        expected: String,
        /// The hash of the files.
        found: String,
    },
    /// Packing: the mod folder holds a link or special file.
    #[error("{}: {why}", path.display())]
    Source {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
}

/// Why an install, list or remove failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A file operation failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The pack's dependencies do not match the installed mods (each line in plain words).
    #[error("cannot install:\n  {}", .0.join("\n  "))]
    Conflict(Vec<String>),
    /// The same version with different files is installed.
    #[error(
        "{id} {version} is already installed with different files; give the new pack a new version number"
    )]
    DifferentBuild {
        /// The mod.
        id: String,
        /// The version.
        version: String,
    },
    /// A newer version is installed.
    #[error(
        "{id} {version} is older than the installed {installed}; remove {installed} first (hexforge remove {id} --version {installed}) to go back"
    )]
    Older {
        /// The mod.
        id: String,
        /// The pack's version.
        version: String,
        /// The installed version.
        installed: String,
    },
    /// Nothing to remove.
    #[error("{0}")]
    NotInstalled(String),
    /// Saved games use the version(s) to remove.
    #[error(
        "{what} is used by {} saved game{}:\n  {}\nfinish or delete those saves, or pass --force to remove it anyway",
        saves.len(), if saves.len() == 1 { "" } else { "s" },
        saves.iter().map(|s| s.display().to_string()).collect::<Vec<_>>().join("\n  ")
    )]
    InUse {
        /// What would be removed, e.g. "orbital-skirmish 0.1.0".
        what: String,
        /// The saves that use it.
        saves: Vec<PathBuf>,
    },
    /// Other installed mods depend on the mod to remove, and no version of it would be left.
    #[error(
        "{what} is needed by {} installed mod{}:\n  {}\nremove {} first, or pass --force to remove {what} anyway (what needs it will not load until it is installed again)",
        dependents.len(),
        if dependents.len() == 1 { "" } else { "s" },
        dependents.join("\n  "),
        if dependents.len() == 1 { "that mod" } else { "those mods" }
    )]
    Needed {
        /// What would be removed, e.g. "base 1.0.0".
        what: String,
        /// The installed mods that depend on it (`id version`).
        dependents: Vec<String>,
    },
    /// The saves index is damaged.
    #[error("{}: damaged saves index ({why}); delete it to start a new one", path.display())]
    BadIndex {
        /// The index file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// A check of the extracted files failed (should not happen after a verified read).
    #[error("the extracted files do not match the verified archive: {0}")]
    Extracted(String),
}

/// Shorthand for an I/O error on a path.
pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> StoreError {
    let path = path.into();
    move |source| StoreError::Io { path, source }
}
