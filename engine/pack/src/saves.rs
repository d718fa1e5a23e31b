//! Which saved games use which mod versions: a small index in the user mods folder.
//!
//! `hexforge play --save` registers each save it writes that uses an installed mod; `list`,
//! `remove` and installing a newer version ask [`SaveIndex::users`] which saves still use a
//! version before it may go. The index only remembers paths: the mods a save uses are read
//! from the save file itself when asked, so a save overwritten by a newer game, or deleted,
//! stops holding on to old versions by itself.
//!
//! The index is `.saves.json` in the user mods folder (a hidden file: mod discovery skips it):
//! `{"format": "hexforge-saves", "version": 1, "saves": ["/abs/path/game.hexsave", ...]}`,
//! written atomically.
//!
//! ```
//! use hexforge_pack::SaveIndex;
//! let dir = tempfile::tempdir().unwrap();
//! let index = SaveIndex::open(dir.path()).unwrap();
//! assert!(index.users("orbital-skirmish", "0.1.0").is_empty());
//! ```

use crate::error::{StoreError, io};
use hexforge_game::ModLock;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The index file's name inside the user mods folder.
pub const INDEX_FILE: &str = ".saves.json";
const FORMAT: &str = "hexforge-saves";

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct IndexFile {
    format: String,
    version: u32,
    saves: Vec<PathBuf>,
}

/// The registered saves of one user mods folder.
#[derive(Clone, Debug)]
pub struct SaveIndex {
    file: PathBuf,
    saves: Vec<PathBuf>,
}

/// A registered save that still exists, with the mods it uses.
#[derive(Clone, Debug, PartialEq)]
pub struct SaveUse {
    /// The save file.
    pub path: PathBuf,
    /// Its mods (from the file as it is now).
    pub mods: Vec<ModLock>,
}

impl SaveIndex {
    /// Opens the index of `mods_root` (empty when there is none yet).
    ///
    /// # Errors
    /// An unreadable or damaged index.
    pub fn open(mods_root: &Path) -> Result<SaveIndex, StoreError> {
        let file = mods_root.join(INDEX_FILE);
        let saves = match std::fs::read(&file) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(io(&file)(e)),
            Ok(bytes) => {
                let parsed: IndexFile =
                    serde_json::from_slice(&bytes).map_err(|e| StoreError::BadIndex {
                        path: file.clone(),
                        why: e.to_string(),
                    })?;
                if parsed.format != FORMAT || parsed.version != 1 {
                    return Err(StoreError::BadIndex {
                        path: file,
                        why: format!("format {:?} version {}", parsed.format, parsed.version),
                    });
                }
                parsed.saves
            }
        };
        Ok(SaveIndex { file, saves })
    }

    /// Adds a save (by absolute path; registering it again changes nothing) and forgets saves
    /// that no longer exist. Call [`SaveIndex::write`] to keep the change.
    pub fn register(&mut self, save: &Path) {
        let path = std::path::absolute(save).unwrap_or_else(|_| save.to_owned());
        self.saves.retain(|p| p.is_file());
        if !self.saves.contains(&path) {
            self.saves.push(path);
        }
        self.saves.sort();
    }

    /// Every registered save that still exists and reads as a save, with its mods.
    #[must_use]
    pub fn live(&self) -> Vec<SaveUse> {
        self.saves
            .iter()
            .filter_map(|p| {
                let file = hexforge_game::record::load(p).ok()?;
                Some(SaveUse {
                    path: p.clone(),
                    mods: file.record.mods,
                })
            })
            .collect()
    }

    /// The saves that use mod `id` at `version`.
    #[must_use]
    pub fn users(&self, id: &str, version: &str) -> Vec<PathBuf> {
        self.live()
            .into_iter()
            .filter(|s| s.mods.iter().any(|m| m.id == id && m.version == version))
            .map(|s| s.path)
            .collect()
    }

    /// Writes the index atomically (creating the folder if needed).
    ///
    /// # Errors
    /// I/O errors with the path.
    pub fn write(&self) -> Result<(), StoreError> {
        let dir = self.file.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let body = IndexFile {
            format: FORMAT.into(),
            version: 1,
            saves: self.saves.clone(),
        };
        let text = serde_json::to_string_pretty(&body).map_err(|e| StoreError::BadIndex {
            path: self.file.clone(),
            why: e.to_string(),
        })?;
        let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io(dir))?;
        tmp.write_all(text.as_bytes()).map_err(io(&self.file))?;
        tmp.persist(&self.file)
            .map_err(|e| io(&self.file)(e.error))?;
        Ok(())
    }
}
