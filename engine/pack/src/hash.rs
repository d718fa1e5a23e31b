//! The content hash of a mod's files, computed in memory.
//!
//! SHA-256 over every file as (relative path, a zero byte, the length as 8 little-endian bytes,
//! the bytes), in the order the loader walks a folder (component by component, each folder's
//! names sorted): exactly `hexforge_script::loader::content_hash` of the folder the files are
//! installed into. So the hash in an archive's index is the hash a saved game's lock records.
//!
//! This module does not read files; callers hand it the bytes.
//!
//! ```
//! use std::collections::BTreeMap;
//! let mut files = BTreeMap::new();
//! files.insert("mod.toml".to_string(), b"id = \"x\"".to_vec());
//! assert_eq!(hexforge_pack::hash::content_hash(&files).len(), 64);
//! ```

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// The walk order of a relative path: its components, compared one by one.
///
/// Why not plain string order: `a.lua` sorts before `a/x.lua` as strings ('.' < '/'), but the
/// loader visits the folder `a` (a name that is a prefix of `a.lua`) first.
#[must_use]
pub fn walk_key(path: &str) -> Vec<&str> {
    path.split('/').collect()
}

/// The files' paths in walk order.
#[must_use]
pub fn walk_order(files: &BTreeMap<String, Vec<u8>>) -> Vec<&String> {
    let mut names: Vec<&String> = files.keys().collect();
    names.sort_by(|a, b| walk_key(a).cmp(&walk_key(b)));
    names
}

/// SHA-256 (lower-case hex) of the files, keyed by path relative to the mod folder (`/`
/// separated).
#[must_use]
pub fn content_hash(files: &BTreeMap<String, Vec<u8>>) -> String {
    let mut h = Sha256::new();
    for name in walk_order(files) {
        let bytes = &files[name];
        h.update(name.as_bytes());
        h.update([0]);
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_come_before_longer_names_with_the_same_prefix() {
        let mut files = BTreeMap::new();
        for n in ["a.lua", "a/x.lua", "b", "a/b/c.lua"] {
            files.insert(n.to_string(), vec![]);
        }
        let order: Vec<&str> = walk_order(&files).into_iter().map(String::as_str).collect();
        assert_eq!(order, ["a/b/c.lua", "a/x.lua", "a.lua", "b"]);
    }

    #[test]
    fn equals_the_loaders_hash_of_the_same_folder() {
        let tmp = tempfile_dir();
        let mut files = BTreeMap::new();
        for (n, body) in [
            ("mod.toml", "id"),
            ("a.lua", "x"),
            ("a/x.lua", "y"),
            ("s/t.toml", ""),
        ] {
            let p = tmp.join(n);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, body).unwrap();
            files.insert(n.to_string(), body.as_bytes().to_vec());
        }
        assert_eq!(
            content_hash(&files),
            hexforge_script::loader::content_hash(&tmp)
        );
        std::fs::remove_dir_all(tmp.parent().unwrap()).unwrap();
    }

    /// A plain-named folder inside a temporary one (the loader skips hidden names, and
    /// temporary folders are named `.tmpXXXX`).
    fn tempfile_dir() -> std::path::PathBuf {
        tempfile::tempdir().unwrap().keep().join("demo")
    }
}
