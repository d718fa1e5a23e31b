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
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
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
    #[error("the game could not start: {}", shortened(&.0.to_string()))]
    Start(PerformError),
    /// An action was refused or failed. The message shortens the id, the side and the error
    /// (a hostile save may hold megabytes of them); the fields hold them whole.
    #[error(
        "action {index} (`{}` by {}) failed on replay: {}",
        shortened(id),
        shortened(side),
        shortened(&error.to_string())
    )]
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

/// `text` whole when short, else its start and how long it is: error messages quote what a
/// save holds, and a hostile save may hold megabytes in one string.
fn shortened(text: &str) -> std::borrow::Cow<'_, str> {
    const KEEP: usize = 200;
    if text.len() <= KEEP {
        return text.into();
    }
    let mut end = KEEP;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes in all)", &text[..end], text.len()).into()
}

/// What is wrong with a file that is not JSON, for the player: a cut-short file says so.
fn json_problem(e: &serde_json::Error) -> String {
    if e.is_eof() && e.line() == 1 && e.column() == 0 {
        return "the file is empty".to_owned();
    }
    let cut = if e.is_eof() {
        "; the file ends too early: was it cut short when copied or saved?"
    } else {
        ""
    };
    format!("not JSON: {}{cut}", shortened(&e.to_string()))
}

/// `n` bytes as people read them: `512 B`, `4.0 KiB`, `1.5 MiB`, `2.0 GiB`.
fn bytes_shown(n: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let mut v = n as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
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

/// Why saving or loading failed. Each message is whole (the file, then what is wrong with it),
/// so no variant has an error `source`: shown as a chain (anyhow's `{:#}`), the cause would be
/// printed twice, the second time at full length.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// Reading or writing the file failed.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        error: std::io::Error,
    },
    /// The path is a folder.
    #[error("{}: is a folder, not a save file", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// The file is bigger than a save can be ([`MAX_SAVE_BYTES`]).
    #[error(
        "{}: {} is too big to be a save (the most this engine reads is {})",
        path.display(),
        size.map_or_else(|| "the file".to_owned(), |n| format!("the file ({})", bytes_shown(n))),
        bytes_shown(*cap)
    )]
    TooBig {
        /// The file.
        path: PathBuf,
        /// Its size, when the file system knows it (a device or a pipe has none).
        size: Option<u64>,
        /// The most [`load_with`] reads.
        cap: u64,
    },
    /// The record would take more memory than a save may ([`MAX_LOAD_MEMORY`]).
    #[error(
        "{}: not a save file (loading it would take more than {} of memory, the most a save may take)",
        path.display(),
        bytes_shown(*limit)
    )]
    TooBigInMemory {
        /// The file.
        path: PathBuf,
        /// The most memory a save may take, as estimated ([`load_cost`]).
        limit: u64,
    },
    /// The file is not JSON.
    #[error("{}: not a save file ({})", path.display(), json_problem(error))]
    NotJson {
        /// The file.
        path: PathBuf,
        /// The parse error.
        error: serde_json::Error,
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
    #[error("{}: damaged save: {}", path.display(), shortened(&error.to_string()))]
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: serde_json::Error,
    },
    /// The save could not be serialised.
    #[error("could not serialise the save: {0}")]
    Serialise(serde_json::Error),
    /// Replaying the save failed.
    #[error("the save does not replay: {0}")]
    Replay(ReplayError),
    /// The replay ended in a different state than the one saved.
    #[error(
        "the save replays to a different state (saved {}, got {found}): the mod or engine changed",
        shortened(expected)
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
    let io = |error| SaveError::Io {
        path: path.to_owned(),
        error,
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

/// The largest save file [`load`] reads: 256 MiB.
///
/// Why: a save is untrusted input (downloaded, shared, edited by hand), and loading reads it
/// whole and then builds the record in memory. A save holds only the record (the actions and
/// their parameters, never the state): a tutorial game of 76 actions saves to 10 KiB, and even
/// a game that fills the default state budget (64 MiB with its log, as compact JSON) with
/// actions alone saves pretty-printed below this. The size is checked before the file is
/// read, and reading stops past it, so a huge or endless file (a device, a pipe) is refused
/// without holding more than this.
pub const MAX_SAVE_BYTES: u64 = 256 << 20;

/// The most memory loading a save may build, as [`load_with`] estimates it before building
/// anything ([`load_cost`]): 4 GiB, sixteen bytes for each byte of [`MAX_SAVE_BYTES`].
///
/// Why: JSON is compact and the record is not. In memory each value takes a 32-byte slot, and
/// each object in the actions' parameters a B-tree node of some 600 bytes, so `[{"":0},..]`
/// builds 90 bytes for each byte of text: a file under the size cap alone could still ask for
/// over 20 GiB. The estimate errs high for saves (it counts every object as a B-tree, the
/// actions too): saves this engine writes (pretty-printed) come to about 14 times their size,
/// so they pass up to the size cap; compact JSON comes to about 34 times, so a compact save
/// passes up to some 120 MiB.
pub const MAX_LOAD_MEMORY: u64 = 16 * MAX_SAVE_BYTES;

/// What [`load_with`] accepts; [`load`] uses [`SaveLimits::default`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SaveLimits {
    /// The largest file, in bytes ([`MAX_SAVE_BYTES`]).
    pub bytes: u64,
    /// The most memory the record may take, as estimated ([`MAX_LOAD_MEMORY`]).
    pub memory: u64,
}

impl Default for SaveLimits {
    fn default() -> Self {
        SaveLimits {
            bytes: MAX_SAVE_BYTES,
            memory: MAX_LOAD_MEMORY,
        }
    }
}

/// Reads a save file, checking its size, format and version.
///
/// # Errors
/// Unreadable or too big a file, not JSON, not a save, unsupported version, or damaged body.
pub fn load(path: &Path) -> Result<SaveFile, SaveError> {
    load_with(path, &SaveLimits::default())
}

/// [`load`] with other limits (tests use small ones).
///
/// Never panics, and holds at most `limits.bytes` of text plus the record it describes (at most
/// `limits.memory`, as estimated): the text is read only up to the cap, then parsed three
/// times, each bounded: once to check the syntax and estimate the memory the record takes
/// ([`load_cost`]: serde_json refuses nesting deeper than 128, and the estimate builds
/// nothing), once for the `format` and `version` fields alone (everything else is skipped
/// unbuilt), and once into the [`SaveFile`]. Nothing is sized from a count the file states.
///
/// # Errors
/// As [`load`].
pub fn load_with(path: &Path, limits: &SaveLimits) -> Result<SaveFile, SaveError> {
    let bytes = read_capped(path, limits.bytes)?;
    let cost = load_cost(&bytes, limits.memory).map_err(|error| SaveError::NotJson {
        path: path.into(),
        error,
    })?;
    if cost > limits.memory {
        return Err(SaveError::TooBigInMemory {
            path: path.into(),
            limit: limits.memory,
        });
    }
    let header: Header =
        serde_json::from_slice(&bytes).map_err(|_| SaveError::NotASave { path: path.into() })?;
    if header.format.as_deref() != Some(SAVE_FORMAT) {
        return Err(SaveError::NotASave { path: path.into() });
    }
    let version = header.version.unwrap_or(0);
    if version != u64::from(SAVE_VERSION) {
        return Err(SaveError::UnsupportedVersion {
            path: path.into(),
            found: version,
        });
    }
    serde_json::from_slice(&bytes).map_err(|error| SaveError::Malformed {
        path: path.into(),
        error,
    })
}

/// The file's bytes, refusing it (before reading, when its size is known) if it holds more
/// than `cap`. Reading stops after `cap + 1` bytes whatever the file claims, so a file that
/// grows or has no size (a device, a pipe) is refused too.
fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, SaveError> {
    use std::io::Read;
    let io = |error| SaveError::Io {
        path: path.into(),
        error,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if meta.is_dir() {
        return Err(SaveError::NotAFile { path: path.into() });
    }
    if meta.len() > cap {
        return Err(SaveError::TooBig {
            path: path.into(),
            size: Some(meta.len()),
            cap,
        });
    }
    // The claimed size may be wrong (0 for a device): it only sizes the first allocation.
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > cap {
        return Err(SaveError::TooBig {
            path: path.into(),
            size: None,
            cap,
        });
    }
    Ok(bytes)
}

/// The memory loading `text` would build, estimated high without building anything, and its
/// syntax checked: 48 bytes for each value and object key (its slot, with room to grow), each
/// string's and key's length, 640 more for each non-empty object (a B-tree node) and 128 for
/// each non-empty array (its first buffer). Stops early once the estimate passes `limit`
/// (then it returns an estimate above `limit`, not the whole).
///
/// # Errors
/// A syntax error, or nesting deeper than serde_json's limit (128).
pub fn load_cost(text: &[u8], limit: u64) -> Result<u64, serde_json::Error> {
    let spent = std::cell::Cell::new(0);
    let mut de = serde_json::Deserializer::from_slice(text);
    let checked = Cost {
        spent: &spent,
        limit,
    }
    .deserialize(&mut de)
    .and_then(|()| de.end());
    if spent.get() > limit {
        return Ok(spent.get());
    }
    checked.map(|()| spent.get())
}

/// [`load_cost`]'s walk: a [`DeserializeSeed`] over `deserialize_any` that builds nothing.
/// Its recursion follows the document's nesting, which serde_json caps at 128.
struct Cost<'a> {
    spent: &'a std::cell::Cell<u64>,
    limit: u64,
}

impl Cost<'_> {
    /// A value's slot.
    const SLOT: u64 = 48;
    /// A non-empty object's first B-tree node.
    const NODE: u64 = 640;
    /// A non-empty array's first buffer.
    const BUFFER: u64 = 128;

    fn again(&self) -> Self {
        Cost {
            spent: self.spent,
            limit: self.limit,
        }
    }

    fn add<E: serde::de::Error>(&self, bytes: u64) -> Result<(), E> {
        self.spent.set(self.spent.get().saturating_add(bytes));
        if self.spent.get() > self.limit {
            Err(E::custom("the save takes too much memory"))
        } else {
            Ok(())
        }
    }
}

impl<'de> DeserializeSeed<'de> for Cost<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Cost<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<(), E> {
        self.add(Self::SLOT)
    }
    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<(), E> {
        self.add(Self::SLOT)
    }
    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<(), E> {
        self.add(Self::SLOT)
    }
    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<(), E> {
        self.add(Self::SLOT)
    }
    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<(), E> {
        self.add(Self::SLOT + s.len() as u64)
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        self.add(Self::SLOT)
    }
    fn visit_none<E: serde::de::Error>(self) -> Result<(), E> {
        self.add(Self::SLOT)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.add(Self::SLOT)?;
        let mut first = true;
        while seq.next_element_seed(self.again())?.is_some() {
            if std::mem::take(&mut first) {
                self.add(Self::BUFFER)?;
            }
        }
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.add(Self::SLOT)?;
        let mut first = true;
        while map.next_key_seed(self.again())?.is_some() {
            if std::mem::take(&mut first) {
                self.add(Self::NODE)?;
            }
            map.next_value_seed(self.again())?;
        }
        Ok(())
    }
}

/// The two fields [`load_with`] checks before the body. Reading it builds nothing else: other
/// fields, and `format` or `version` of the wrong type, are skipped unbuilt; a repeated field
/// counts once (the last).
#[derive(Default)]
struct Header {
    format: Option<String>,
    version: Option<u64>,
}

impl<'de> Deserialize<'de> for Header {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Fields;
        impl<'de> Visitor<'de> for Fields {
            type Value = Header;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Header, A::Error> {
                let mut header = Header::default();
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "format" => header.format = map.next_value::<Scalar>()?.string,
                        "version" => header.version = map.next_value::<Scalar>()?.number,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(header)
            }
        }
        d.deserialize_map(Fields)
    }
}

/// A header field: a short string or an unsigned integer, anything else skipped unbuilt.
#[derive(Default)]
struct Scalar {
    string: Option<String>,
    number: Option<u64>,
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Any;
        impl<'de> Visitor<'de> for Any {
            type Value = Scalar;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Scalar, E> {
                // A long string is never the format: it is not copied.
                Ok(Scalar {
                    string: Some(if s.len() <= 64 { s } else { "" }.to_owned()),
                    number: None,
                })
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Scalar, E> {
                Ok(Scalar {
                    string: None,
                    number: Some(n),
                })
            }
            fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<Scalar, E> {
                Ok(Scalar::default())
            }
            fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<Scalar, E> {
                Ok(Scalar::default())
            }
            fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<Scalar, E> {
                Ok(Scalar::default())
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<Scalar, E> {
                Ok(Scalar::default())
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Scalar, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Scalar::default())
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Scalar, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Scalar::default())
            }
        }
        d.deserialize_any(Any)
    }
}

/// Replays a save under `rules` and checks the result against the saved hash.
///
/// # Errors
/// A replay failure or a hash mismatch.
pub fn resume<R: Rules>(file: &SaveFile, rules: R) -> Result<Game<R>, SaveError> {
    let game = replay(&file.record, rules).map_err(SaveError::Replay)?;
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
