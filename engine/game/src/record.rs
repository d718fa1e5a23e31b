//! Game records, replay, state hashes and save files.
//!
//! A [`GameRecord`] is everything needed to rebuild a game: the mods (with content hashes), the
//! scenario, its options, the seed and the actions. [`replay`] rebuilds the state byte for byte;
//! [`state_hash`] is the SHA-256 of the state's canonical JSON (object keys sorted, no
//! whitespace), so two states are equal exactly when their hashes are.
//!
//! A save file is versioned JSON `{"format": "hexforge-save", "version": 1, "record": ..,
//! "state_hash": ..}` written atomically (a temporary file in the same folder, then renamed over
//! the target), so a crash never leaves a half-written save. Loading checks the format and
//! version and says clearly what is wrong. This module deliberately does not store the state
//! itself: a save is replayed, and the hash proves the replay matches.
//!
//! ```
//! use hexforge_game::{GameState, record::state_hash};
//! let a = GameState::new(vec![], "duel", serde_json::Value::Null, 1);
//! assert_eq!(state_hash(&a), state_hash(&a.clone()));
//! assert_eq!(state_hash(&a).len(), 64);
//! ```

use crate::action::Action;
use crate::game::{Game, PerformError};
use crate::ids::Value;
use crate::rules::Rules;
use crate::state::{GameState, ModLock};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The record format version written by this engine.
pub const FORMAT_VERSION: u32 = 1;
/// The `format` field of a save file.
pub const SAVE_FORMAT: &str = "hexforge-save";
/// The save-file version written and read by this engine.
pub const SAVE_VERSION: u32 = 1;

/// Everything needed to replay a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Record format version ([`FORMAT_VERSION`]).
    pub format_version: u32,
    /// The mods, with versions and content hashes.
    pub mods: Vec<ModLock>,
    /// The scenario id.
    pub scenario: String,
    /// Scenario options.
    #[serde(default)]
    pub options: Value,
    /// The seed.
    pub seed: u64,
    /// The accepted actions, in order.
    pub actions: Vec<Action>,
}

/// Why a replay failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// The record's format version is not one this engine reads.
    #[error("record format version {found} is not supported (this engine reads {FORMAT_VERSION})")]
    UnsupportedVersion {
        /// The version found.
        found: u32,
    },
    /// The game could not start.
    #[error("the game could not start: {0}")]
    Start(PerformError),
    /// An action was refused or failed.
    #[error("action {index} (`{id}` by {side}) failed on replay: {error}")]
    Action {
        /// Its index in the record's actions.
        index: usize,
        /// The action id.
        id: String,
        /// Who did it.
        side: String,
        /// What went wrong.
        error: PerformError,
    },
}

/// Replays a record under `rules`, returning the game (its state equals the original's).
///
/// # Errors
/// An unsupported record version, or the first action that fails.
pub fn replay<R: Rules>(record: &GameRecord, rules: R) -> Result<Game<R>, ReplayError> {
    if record.format_version != FORMAT_VERSION {
        return Err(ReplayError::UnsupportedVersion {
            found: record.format_version,
        });
    }
    let state = GameState::new(
        record.mods.clone(),
        &record.scenario,
        record.options.clone(),
        record.seed,
    );
    let mut game = Game::new(rules, state).map_err(ReplayError::Start)?;
    for (index, action) in record.actions.iter().enumerate() {
        game.perform(action).map_err(|error| ReplayError::Action {
            index,
            id: action.id.clone(),
            side: action.side.to_string(),
            error,
        })?;
    }
    Ok(game)
}

/// Canonical JSON of any serialisable value: object keys sorted, no whitespace.
///
/// Why not plain `serde_json::to_string`: if any crate in the build turns on serde_json's
/// `preserve_order`, mod values would keep insertion order; sorting here makes the bytes
/// independent of that.
///
/// # Errors
/// If the value cannot be represented as JSON (e.g. a map with non-string keys).
pub fn canonical_json<T: Serialize>(value: &T) -> Result<String, serde_json::Error> {
    fn write(v: &Value, out: &mut String) {
        match v {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                out.push('{');
                for (i, k) in keys.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&Value::String(k.clone()).to_string());
                    out.push(':');
                    write(&map[k], out);
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(item, out);
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let v = serde_json::to_value(value)?;
    let mut out = String::new();
    write(&v, &mut out);
    Ok(out)
}

/// SHA-256 (lower-case hex) of the state's canonical JSON.
///
/// The state's types always serialise (string or integer map keys, no floats outside JSON
/// values), so this cannot fail in practice; if it ever did, the hash is taken over the error
/// text, which cannot equal any real state's JSON.
#[must_use]
pub fn state_hash(state: &GameState) -> String {
    let text = canonical_json(state).unwrap_or_else(|e| format!("unserialisable state: {e}"));
    let digest = Sha256::digest(text.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// A save file's contents.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SaveFile {
    /// Always [`SAVE_FORMAT`].
    pub format: String,
    /// [`SAVE_VERSION`].
    pub version: u32,
    /// The game record.
    pub record: GameRecord,
    /// [`state_hash`] of the state the record leads to.
    pub state_hash: String,
}

impl SaveFile {
    /// A save of a game.
    #[must_use]
    pub fn of<R: Rules>(game: &Game<R>) -> Self {
        SaveFile {
            format: SAVE_FORMAT.to_owned(),
            version: SAVE_VERSION,
            record: game.record(),
            state_hash: state_hash(game.state()),
        }
    }
}

/// Why saving or loading failed.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// Reading or writing the file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not JSON.
    #[error("{}: not a save file (not JSON: {source})", path.display())]
    NotJson {
        /// The file.
        path: PathBuf,
        /// The parse error.
        source: serde_json::Error,
    },
    /// The JSON is not a Hexforge save.
    #[error("{}: not a save file (expected \"format\": \"{SAVE_FORMAT}\")", path.display())]
    NotASave {
        /// The file.
        path: PathBuf,
    },
    /// The save's version is not one this engine reads.
    #[error("{}: save version {found} is not supported (this engine reads version {SAVE_VERSION})", path.display())]
    UnsupportedVersion {
        /// The file.
        path: PathBuf,
        /// The version found (0 if missing or not a number).
        found: u64,
    },
    /// The save has the right format and version but a broken body.
    #[error("{}: damaged save: {source}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: serde_json::Error,
    },
    /// The save could not be serialised.
    #[error("could not serialise the save: {0}")]
    Serialise(serde_json::Error),
    /// Replaying the save failed.
    #[error("the save does not replay: {0}")]
    Replay(#[from] ReplayError),
    /// The replay ended in a different state than the one saved.
    #[error(
        "the save replays to a different state (saved {expected}, got {found}): the mod or engine changed"
    )]
    HashMismatch {
        /// The hash in the file.
        expected: String,
        /// The hash of the replayed state.
        found: String,
    },
}

/// Writes a save atomically: a temporary file in the same folder, flushed and synced, then
/// renamed over `path`.
///
/// # Errors
/// I/O errors (with the path), or serialisation failure.
pub fn save(path: &Path, file: &SaveFile) -> Result<(), SaveError> {
    let text = serde_json::to_string_pretty(file).map_err(SaveError::Serialise)?;
    let io = |source| SaveError::Io {
        path: path.to_owned(),
        source,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io)?;
    tmp.write_all(text.as_bytes()).map_err(io)?;
    tmp.write_all(b"\n").map_err(io)?;
    tmp.as_file().sync_all().map_err(io)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

/// Reads a save file, checking its format and version.
///
/// # Errors
/// Unreadable file, not JSON, not a save, unsupported version, or damaged body.
pub fn load(path: &Path) -> Result<SaveFile, SaveError> {
    let text = std::fs::read_to_string(path).map_err(|source| SaveError::Io {
        path: path.into(),
        source,
    })?;
    let value: Value = serde_json::from_str(&text).map_err(|source| SaveError::NotJson {
        path: path.into(),
        source,
    })?;
    if value.get("format").and_then(Value::as_str) != Some(SAVE_FORMAT) {
        return Err(SaveError::NotASave { path: path.into() });
    }
    let version = value.get("version").and_then(Value::as_u64).unwrap_or(0);
    if version != u64::from(SAVE_VERSION) {
        return Err(SaveError::UnsupportedVersion {
            path: path.into(),
            found: version,
        });
    }
    serde_json::from_value(value).map_err(|source| SaveError::Malformed {
        path: path.into(),
        source,
    })
}

/// Replays a save under `rules` and checks the result against the saved hash.
///
/// # Errors
/// A replay failure or a hash mismatch.
pub fn resume<R: Rules>(file: &SaveFile, rules: R) -> Result<Game<R>, SaveError> {
    let game = replay(&file.record, rules)?;
    let found = state_hash(game.state());
    if found != file.state_hash {
        return Err(SaveError::HashMismatch {
            expected: file.state_hash.clone(),
            found,
        });
    }
    Ok(game)
}

/// How a saved game's mods differ from the mods it is loaded with.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LockMismatch {
    /// The save used a mod that is not loaded now.
    #[error("the save was made with {id} {version}, which is not loaded")]
    Missing {
        /// The mod.
        id: String,
        /// The save's version.
        version: String,
    },
    /// Another version is loaded.
    #[error("the save was made with {id} {saved}, but {id} {loaded} is loaded")]
    Version {
        /// The mod.
        id: String,
        /// The save's version.
        saved: String,
        /// The loaded version.
        loaded: String,
    },
    /// The same version with other files is loaded.
    #[error("{id} {version} changed since the save (its files hash differently)")]
    Changed {
        /// The mod.
        id: String,
        /// The version.
        version: String,
    },
}

/// Every way the saved locks differ from the loaded ones (empty = the same mods, byte for
/// byte), in the save's order.
#[must_use]
pub fn compare_locks(saved: &[ModLock], loaded: &[ModLock]) -> Vec<LockMismatch> {
    saved
        .iter()
        .filter_map(|s| match loaded.iter().find(|l| l.id == s.id) {
            None => Some(LockMismatch::Missing {
                id: s.id.clone(),
                version: s.version.clone(),
            }),
            Some(l) if l.version != s.version => Some(LockMismatch::Version {
                id: s.id.clone(),
                saved: s.version.clone(),
                loaded: l.version.clone(),
            }),
            Some(l) if l.content_hash != s.content_hash => Some(LockMismatch::Changed {
                id: s.id.clone(),
                version: s.version.clone(),
            }),
            Some(_) => None,
        })
        .collect()
}

#[cfg(test)]
mod lock_tests {
    use super::*;

    fn lock(id: &str, v: &str, h: &str) -> ModLock {
        ModLock {
            id: id.into(),
            version: v.into(),
            content_hash: h.into(),
        }
    }

    #[test]
    fn lock_differences_say_which_version_the_save_was_made_with() {
        let saved = [
            lock("a", "0.1.0", "x"),
            lock("b", "1.0.0", "y"),
            lock("c", "2.0.0", "z"),
            lock("d", "1.0.0", "w"),
        ];
        let loaded = [
            lock("a", "0.1.0", "x"),
            lock("b", "1.1.0", "y"),
            lock("c", "2.0.0", "changed"),
        ];
        let text: Vec<String> = compare_locks(&saved, &loaded)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            text,
            [
                "the save was made with b 1.0.0, but b 1.1.0 is loaded",
                "c 2.0.0 changed since the save (its files hash differently)",
                "the save was made with d 1.0.0, which is not loaded",
            ]
        );
    }
}
