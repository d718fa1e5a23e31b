//! `.hexpack` archives: writing one from a mod folder, and reading one as hostile input.
//!
//! Format: a gzip'd tar (ustar headers, GNU long names when needed) whose first entry is
//! `hexpack.json`:
//!
//! ```json
//! {"format": "hexpack", "version": 1, "id": "my-pack", "mod_version": "1.0.0",
//!  "content_hash": "<sha-256 hex>", "files": 7}
//! ```
//!
//! followed by the mod's files under `<id>/` (sorted, mode 0644, mtime 0, owner 0, so the same
//! folder always packs to the same bytes). The content hash is [`crate::hash::content_hash`] of
//! the files: the loader's hash of the folder once installed, so saved games lock the very
//! bytes the archive carried.
//!
//! Reading ([`read_pack`]) happens entirely in memory and rejects, before anything touches the
//! disk: bytes that are not gzip/tar; an archive, entry or unpacked total over its cap, too many
//! entries, or a compression ratio over its cap (bytes are counted as they come out of the
//! decompressor; header sizes are never trusted); absolute paths and `..`; symbolic and hard
//! links; devices, fifos and other special entries; duplicate entries (also up to letter case,
//! and a path used as both file and folder); non-UTF-8, hidden (`.x`), control-character and
//! other odd names; a missing or damaged index; files outside `<id>/`; a `mod.toml` that does
//! not parse (its `file:line` messages); an index that disagrees with the manifest; and a
//! content hash mismatch.
//!
//! This module does not install anything (see [`crate::store`]).
//!
//! ```
//! use hexforge_pack::archive::{Limits, read_pack, write_pack};
//! let dir = tempfile::tempdir().unwrap();
//! let m = dir.path().join("demo");
//! std::fs::create_dir(&m).unwrap();
//! std::fs::write(m.join("mod.toml"), "id = \"demo\"\nname = \"Demo\"\nversion = \"1.0.0\"\nengine = \"*\"\n").unwrap();
//! std::fs::write(m.join("main.lua"), "-- rules").unwrap();
//! let (bytes, index) = write_pack(&m, &Limits::default()).unwrap();
//! let pack = read_pack(&bytes, &Limits::default()).unwrap();
//! assert_eq!(pack.index, index);
//! assert_eq!(pack.files.len(), 2);
//! ```

use crate::error::PackError;
use crate::hash::{content_hash, walk_order};
use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use hexforge_script::manifest::Manifest;
use serde::{Deserialize, Serialize};
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Write};
use std::path::Path;
use std::rc::Rc;

/// The index entry's name.
pub const INDEX: &str = "hexpack.json";
/// The index's `format` field.
pub const FORMAT: &str = "hexpack";
/// The index version written and read.
pub const VERSION: u32 = 1;
/// The archive file extension.
pub const EXTENSION: &str = "hexpack";

/// Caps applied when reading (and writing) an archive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest archive file, in bytes.
    pub max_archive: u64,
    /// Largest single file, in bytes (unpacked).
    pub max_entry: u64,
    /// Largest unpacked total (files plus tar headers), in bytes.
    pub max_total: u64,
    /// Most entries (files and folders).
    pub max_entries: usize,
    /// Largest unpacked / packed ratio ...
    pub max_ratio: u64,
    /// ... checked once this many bytes are unpacked (tiny archives of tar padding compress
    /// far better than any real content, so a floor avoids rejecting them).
    pub ratio_floor: u64,
    /// Longest entry path, in bytes.
    pub max_path: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_archive: 64 << 20,
            max_entry: 16 << 20,
            max_total: 128 << 20,
            max_entries: 4096,
            max_ratio: 100,
            ratio_floor: 1 << 20,
            max_path: 240,
        }
    }
}

/// The index entry of an archive.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PackIndex {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`VERSION`].
    pub version: u32,
    /// The mod's id (its folder in the archive).
    pub id: String,
    /// The mod's version.
    pub mod_version: String,
    /// [`content_hash`] of the files.
    pub content_hash: String,
    /// How many files.
    pub files: usize,
}

/// A verified archive, in memory.
#[derive(Clone, Debug)]
pub struct Pack {
    /// Its index.
    pub index: PackIndex,
    /// The parsed, checked manifest.
    pub manifest: Manifest,
    /// The files, by path relative to the mod folder.
    pub files: BTreeMap<String, Vec<u8>>,
}

impl Pack {
    /// Total bytes of the files.
    #[must_use]
    pub fn size(&self) -> u64 {
        self.files.values().map(|f| f.len() as u64).sum()
    }
}

/// Checks one entry name (without a trailing `/`) and says what is wrong with it.
///
/// # Errors
/// [`PackError::UnsafePath`] for absolute paths and `..`, [`PackError::OddName`] for the rest.
pub fn check_name(name: &str, limits: &Limits) -> Result<(), PackError> {
    let odd = |why| {
        Err(PackError::OddName {
            path: name.to_owned(),
            why,
        })
    };
    if name.is_empty() {
        return odd("empty name");
    }
    if name.starts_with('/') {
        return Err(PackError::UnsafePath {
            path: name.to_owned(),
            why: "absolute path",
        });
    }
    if name.len() > 1 && name.as_bytes()[1] == b':' || name.contains('\\') {
        return Err(PackError::UnsafePath {
            path: name.to_owned(),
            why: "a drive letter or backslash",
        });
    }
    if name.split('/').any(|c| c == "..") {
        return Err(PackError::UnsafePath {
            path: name.to_owned(),
            why: "'..' leaves the mod folder",
        });
    }
    if name.len() > limits.max_path {
        return odd("name too long");
    }
    if name.chars().any(|c| c.is_control()) {
        return odd("control character in the name");
    }
    if name
        .chars()
        .any(|c| matches!(c, ':' | '*' | '?' | '"' | '<' | '>' | '|'))
    {
        return odd("a character file systems reject (: * ? \" < > |)");
    }
    for comp in name.split('/') {
        if comp.is_empty() || comp == "." {
            return odd("empty or '.' path component");
        }
        if comp.starts_with('.') {
            return odd("hidden name (starting with '.'): not part of a mod's content");
        }
        if comp.ends_with(' ') || comp.ends_with('.') {
            return odd("a name ending in a space or '.'");
        }
    }
    Ok(())
}

/// Reads a mod folder: every file except hidden ones (as the loader's hash does), refusing
/// links and special files (a pack carries everything it needs).
fn read_folder(dir: &Path, limits: &Limits) -> Result<BTreeMap<String, Vec<u8>>, PackError> {
    let mut files = BTreeMap::new();
    let mut total = 0u64;
    let walker = walkdir::WalkDir::new(dir)
        .min_depth(1)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| !e.file_name().to_string_lossy().starts_with('.'));
    for entry in walker {
        let entry = entry.map_err(|e| PackError::Source {
            path: dir.to_owned(),
            why: e.to_string(),
        })?;
        let path = entry.path();
        let ft = entry.file_type();
        if ft.is_dir() {
            continue;
        }
        if !ft.is_file() {
            return Err(PackError::Source {
                path: path.to_owned(),
                why: "links and special files cannot be packed; copy the file itself into the mod"
                    .into(),
            });
        }
        let rel = path
            .strip_prefix(dir)
            .unwrap_or(path)
            .to_str()
            .ok_or_else(|| PackError::Source {
                path: path.to_owned(),
                why: "the name is not UTF-8".into(),
            })?
            .replace('\\', "/");
        check_name(&rel, limits)?;
        let bytes = std::fs::read(path).map_err(|source| PackError::Io {
            path: path.to_owned(),
            source,
        })?;
        if bytes.len() as u64 > limits.max_entry {
            return Err(PackError::TooLarge {
                what: rel,
                limit: limits.max_entry,
            });
        }
        total += bytes.len() as u64;
        if total > limits.max_total {
            return Err(PackError::TooLarge {
                what: "the mod".into(),
                limit: limits.max_total,
            });
        }
        files.insert(rel, bytes);
    }
    Ok(files)
}

/// Parses `mod.toml` from the files; `file` is its display path.
fn parse_manifest(files: &BTreeMap<String, Vec<u8>>, shown: &str) -> Result<Manifest, PackError> {
    let bytes = files.get("mod.toml").ok_or_else(|| {
        PackError::Manifest(vec![format!("{shown}: missing (every mod has one)")])
    })?;
    let text = std::str::from_utf8(bytes)
        .map_err(|_| PackError::Manifest(vec![format!("{shown}: not UTF-8 text")]))?;
    Manifest::parse(text, shown)
        .map_err(|errs| PackError::Manifest(errs.iter().map(ToString::to_string).collect()))
}

/// Packs a mod folder into archive bytes. Same folder, same bytes.
///
/// # Errors
/// An unreadable folder, a bad manifest, a link or special file, a name or size over the
/// limits.
pub fn write_pack(dir: &Path, limits: &Limits) -> Result<(Vec<u8>, PackIndex), PackError> {
    let files = read_folder(dir, limits)?;
    let folder = dir
        .file_name()
        .map_or_else(|| "mod".into(), |n| n.to_string_lossy().into_owned());
    let manifest = parse_manifest(&files, &format!("{folder}/mod.toml"))?;
    let index = PackIndex {
        format: FORMAT.into(),
        version: VERSION,
        id: manifest.id.clone(),
        mod_version: manifest.version.to_string(),
        content_hash: content_hash(&files),
        files: files.len(),
    };
    let json = serde_json::to_vec_pretty(&index).map_err(|e| PackError::BadIndex(e.to_string()))?;
    let io = |source| PackError::Io {
        path: dir.to_owned(),
        source,
    };
    let mut tar = tar::Builder::new(GzEncoder::new(Vec::new(), Compression::best()));
    tar.mode(tar::HeaderMode::Deterministic);
    let mut add = |name: &str, bytes: &[u8]| {
        let mut h = tar::Header::new_ustar();
        h.set_entry_type(tar::EntryType::Regular);
        h.set_mode(0o644);
        h.set_mtime(0);
        h.set_uid(0);
        h.set_gid(0);
        h.set_size(bytes.len() as u64);
        tar.append_data(&mut h, name, bytes)
    };
    add(INDEX, &json).map_err(io)?;
    for name in walk_order(&files) {
        add(&format!("{}/{name}", manifest.id), &files[name]).map_err(io)?;
    }
    let gz = tar.into_inner().map_err(io)?;
    let bytes = gz.finish().map_err(io)?;
    if bytes.len() as u64 > limits.max_archive {
        return Err(PackError::TooLarge {
            what: "the archive".into(),
            limit: limits.max_archive,
        });
    }
    Ok((bytes, index))
}

/// Which cap the decompressing reader hit.
#[derive(Clone, Copy, Debug)]
enum Hit {
    Total,
    Ratio,
}

/// Counts bytes as they leave the decompressor and stops the stream at a cap.
struct Counting<R> {
    inner: R,
    count: Rc<Cell<u64>>,
    hit: Rc<Cell<Option<Hit>>>,
    max_total: u64,
    max_unpacked_by_ratio: u64,
    ratio_floor: u64,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let c = self.count.get() + n as u64;
        self.count.set(c);
        let hit = if c > self.max_total {
            Some(Hit::Total)
        } else if c > self.ratio_floor && c > self.max_unpacked_by_ratio {
            Some(Hit::Ratio)
        } else {
            None
        };
        if let Some(h) = hit {
            self.hit.set(Some(h));
            return Err(std::io::Error::other("unpack limit reached"));
        }
        Ok(n)
    }
}

/// Reads and verifies an archive held in memory. Nothing is written anywhere.
///
/// # Errors
/// The first reason to reject it (see the module documentation for the list).
pub fn read_pack(bytes: &[u8], limits: &Limits) -> Result<Pack, PackError> {
    let packed = bytes.len() as u64;
    if packed > limits.max_archive {
        return Err(PackError::TooLarge {
            what: "the archive".into(),
            limit: limits.max_archive,
        });
    }
    if bytes.len() < 2 || bytes[..2] != [0x1f, 0x8b] {
        return Err(PackError::NotAPack("not gzip data".into()));
    }
    let count = Rc::new(Cell::new(0u64));
    let hit = Rc::new(Cell::new(None));
    let reader = Counting {
        inner: GzDecoder::new(bytes),
        count: Rc::clone(&count),
        hit: Rc::clone(&hit),
        max_total: limits.max_total,
        max_unpacked_by_ratio: packed.saturating_mul(limits.max_ratio),
        ratio_floor: limits.ratio_floor,
    };
    // A cap hit surfaces as an I/O error from tar; report the cap, not the symptom.
    let cap = |e: std::io::Error| match hit.get() {
        Some(Hit::Total) => PackError::TooLarge {
            what: "the unpacked content".into(),
            limit: limits.max_total,
        },
        Some(Hit::Ratio) => PackError::CompressionRatio {
            limit: limits.max_ratio,
            unpacked: count.get(),
            packed,
        },
        None => PackError::NotAPack(e.to_string()),
    };
    let mut archive = tar::Archive::new(reader);
    let mut raw: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut dirs: BTreeSet<String> = BTreeSet::new();
    let mut folded: BTreeSet<String> = BTreeSet::new();
    let mut entries = 0usize;
    let mut total = 0u64;
    for entry in archive.entries().map_err(cap)? {
        let mut entry = entry.map_err(cap)?;
        entries += 1;
        if entries > limits.max_entries {
            return Err(PackError::TooManyEntries {
                limit: limits.max_entries,
            });
        }
        let path_bytes = entry.path_bytes().into_owned();
        let lossy = String::from_utf8_lossy(&path_bytes).into_owned();
        let Ok(name) = String::from_utf8(path_bytes) else {
            return Err(PackError::OddName {
                path: lossy,
                why: "the name is not UTF-8",
            });
        };
        let kind = entry.header().entry_type();
        let is_dir = kind.is_dir();
        let name = if is_dir {
            name.strip_suffix('/').unwrap_or(&name).to_owned()
        } else {
            name
        };
        check_name(&name, limits)?;
        match kind {
            tar::EntryType::Regular | tar::EntryType::Continuous | tar::EntryType::Directory => {}
            tar::EntryType::Symlink => {
                return Err(PackError::Link {
                    path: name,
                    kind: "symbolic link",
                });
            }
            tar::EntryType::Link => {
                return Err(PackError::Link {
                    path: name,
                    kind: "hard link",
                });
            }
            tar::EntryType::Char => return Err(special(name, "character device")),
            tar::EntryType::Block => return Err(special(name, "block device")),
            tar::EntryType::Fifo => return Err(special(name, "fifo")),
            other => return Err(special(name, &format!("tar entry of type {other:?}"))),
        }
        let key = name.to_lowercase();
        if raw.contains_key(&name) || dirs.contains(&name) {
            let how = if raw.contains_key(&name) == is_dir {
                " (as a file and a folder)"
            } else {
                ""
            };
            return Err(PackError::Duplicate { path: name, how });
        }
        if !folded.insert(key) {
            return Err(PackError::Duplicate {
                path: name,
                how: " (up to letter case)",
            });
        }
        // A file whose parent was a file before (or the reverse) is a file/folder clash.
        let mut parent = name.as_str();
        while let Some((p, _)) = parent.rsplit_once('/') {
            if raw.contains_key(p) {
                return Err(PackError::Duplicate {
                    path: p.to_owned(),
                    how: " (as a file and a folder)",
                });
            }
            parent = p;
        }
        if is_dir {
            dirs.insert(name);
            continue;
        }
        if entry.size() > limits.max_entry {
            return Err(PackError::TooLarge {
                what: name,
                limit: limits.max_entry,
            });
        }
        let mut data = Vec::new();
        (&mut entry)
            .take(limits.max_entry + 1)
            .read_to_end(&mut data)
            .map_err(cap)?;
        if data.len() as u64 > limits.max_entry {
            return Err(PackError::TooLarge {
                what: name,
                limit: limits.max_entry,
            });
        }
        total += data.len() as u64;
        if total > limits.max_total {
            return Err(PackError::TooLarge {
                what: "the unpacked content".into(),
                limit: limits.max_total,
            });
        }
        raw.insert(name, data);
    }
    verify(raw, &dirs)
}

fn special(path: String, kind: &str) -> PackError {
    PackError::SpecialFile {
        path,
        kind: kind.to_owned(),
    }
}

/// Checks the index, the layout, the manifest and the hash of the read entries.
fn verify(mut raw: BTreeMap<String, Vec<u8>>, dirs: &BTreeSet<String>) -> Result<Pack, PackError> {
    let index_bytes = raw
        .remove(INDEX)
        .ok_or_else(|| PackError::BadIndex("is missing".into()))?;
    let index: PackIndex = serde_json::from_slice(&index_bytes)
        .map_err(|e| PackError::BadIndex(format!("is not valid: {e}")))?;
    if index.format != FORMAT || index.version != VERSION {
        return Err(PackError::BadIndex(format!(
            "says format {:?} version {}; this Hexforge reads {FORMAT:?} version {VERSION}",
            index.format, index.version
        )));
    }
    if !hexforge_script::manifest::is_valid_mod_id(&index.id) {
        return Err(PackError::BadIndex(format!(
            "names mod id {:?}, which is not a valid id",
            index.id
        )));
    }
    let prefix = format!("{}/", index.id);
    let mut files = BTreeMap::new();
    for (name, bytes) in raw {
        match name.strip_prefix(&prefix) {
            Some(rel) => {
                files.insert(rel.to_owned(), bytes);
            }
            None => {
                return Err(PackError::OutsideMod {
                    path: name,
                    id: index.id,
                });
            }
        }
    }
    if let Some(d) = dirs
        .iter()
        .find(|d| **d != index.id && !d.starts_with(&prefix))
    {
        return Err(PackError::OutsideMod {
            path: d.clone(),
            id: index.id,
        });
    }
    let manifest = parse_manifest(&files, &format!("{}/mod.toml", index.id))?;
    if manifest.id != index.id {
        return Err(PackError::IndexMismatch(format!(
            "the index names {:?} but mod.toml says id = {:?}",
            index.id, manifest.id
        )));
    }
    if manifest.version.to_string() != index.mod_version {
        return Err(PackError::IndexMismatch(format!(
            "the index says version {} but mod.toml says {}",
            index.mod_version, manifest.version
        )));
    }
    if files.len() != index.files {
        return Err(PackError::IndexMismatch(format!(
            "the index lists {} files but the archive holds {}",
            index.files,
            files.len()
        )));
    }
    let found = content_hash(&files);
    if found != index.content_hash {
        return Err(PackError::HashMismatch {
            expected: index.content_hash,
            found,
        });
    }
    Ok(Pack {
        index,
        manifest,
        files,
    })
}

/// Reads an archive file (refusing one over the archive cap before reading it) and verifies
/// it with [`read_pack`].
///
/// # Errors
/// An unreadable file or any rejection.
pub fn read_pack_file(path: &Path, limits: &Limits) -> Result<Pack, PackError> {
    let io = |source| PackError::Io {
        path: path.to_owned(),
        source,
    };
    let len = std::fs::metadata(path).map_err(io)?.len();
    if len > limits.max_archive {
        return Err(PackError::TooLarge {
            what: "the archive".into(),
            limit: limits.max_archive,
        });
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(io)?
        .take(limits.max_archive + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    read_pack(&bytes, limits)
}

/// Writes archive bytes atomically (a temporary file beside `path`, then renamed).
///
/// # Errors
/// I/O errors with the path.
pub fn save_pack(path: &Path, bytes: &[u8]) -> Result<(), PackError> {
    let io = |source| PackError::Io {
        path: path.to_owned(),
        source,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io)?;
    tmp.write_all(bytes).map_err(io)?;
    tmp.as_file().sync_all().map_err(io)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}
