//! Finding a mod from a command-line argument: a path to a mod folder, or a mod id looked up in
//! `./mods` and then in the user mods folder.
//!
//! This module only finds folders; it deliberately does not read manifests (that is the script
//! crate's job), so it accepts any folder holding a `mod.toml`.
//!
//! ```no_run
//! let dir = hexforge::modpath::resolve("tutorial").unwrap(); // ./mods/tutorial
//! let same = hexforge::modpath::resolve("mods/tutorial").unwrap();
//! assert_eq!(dir.canonicalize().unwrap(), same.canonicalize().unwrap());
//! ```

use std::path::{Path, PathBuf};

/// The manifest file every mod folder holds.
pub const MANIFEST: &str = "mod.toml";
/// Environment variable naming the user mods folder (overrides the default).
pub const USER_MODS_ENV: &str = "HEXFORGE_MODS_DIR";

/// Why a mod could not be found.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModNotFound {
    /// The argument names a folder that has no manifest.
    #[error("{}: not a mod folder (no {MANIFEST} in it)", .0.display())]
    NoManifest(PathBuf),
    /// Neither a folder nor a known mod id.
    #[error("no mod `{arg}`: not a folder, and not found in {}", searched_list(.searched))]
    Unknown {
        /// The argument.
        arg: String,
        /// The folders searched for an id.
        searched: Vec<PathBuf>,
    },
}

fn searched_list(dirs: &[PathBuf]) -> String {
    dirs.iter()
        .map(|d| d.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The user mods folder: `$HEXFORGE_MODS_DIR`, else `$XDG_DATA_HOME/hexforge/mods`, else
/// `~/.local/share/hexforge/mods`. `None` when none of these can be formed.
#[must_use]
pub fn user_mods_dir() -> Option<PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    var(USER_MODS_ENV)
        .or_else(|| var("XDG_DATA_HOME").map(|d| d.join("hexforge").join("mods")))
        .or_else(|| var("HOME").map(|h| h.join(".local/share/hexforge/mods")))
}

/// The folders searched for a mod id, in order: `./mods`, then the user mods folder.
#[must_use]
pub fn search_dirs() -> Vec<PathBuf> {
    let mut dirs = vec![bundled_dir()];
    dirs.extend(user_mods_dir());
    dirs
}

/// The folder of mods bundled with Hexforge (`./mods`).
#[must_use]
pub fn bundled_dir() -> PathBuf {
    PathBuf::from(BUNDLED)
}

const BUNDLED: &str = "mods";

/// The user mods folder, or an error saying how to name one.
///
/// # Errors
/// When neither `$HEXFORGE_MODS_DIR`, `$XDG_DATA_HOME` nor `$HOME` is set.
pub fn require_user_mods_dir() -> Result<PathBuf, NoUserFolder> {
    user_mods_dir().ok_or(NoUserFolder)
}

/// No user mods folder can be formed.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("no user mods folder: set {USER_MODS_ENV} (or XDG_DATA_HOME or HOME)")]
pub struct NoUserFolder;

/// Finds the mod folder for `arg` (a path or an id), searching `search_dirs()` for ids. (Its
/// dependencies are searched for in the same folders when it loads: `runtime`'s load options.)
///
/// # Errors
/// [`ModNotFound`] naming what was tried.
pub fn resolve(arg: &str) -> Result<PathBuf, ModNotFound> {
    resolve_in(arg, &search_dirs())
}

/// [`resolve`] with explicit folders to search for ids.
///
/// # Errors
/// [`ModNotFound`] naming what was tried.
pub fn resolve_in(arg: &str, dirs: &[PathBuf]) -> Result<PathBuf, ModNotFound> {
    let path = Path::new(arg);
    if path.is_dir() {
        return if path.join(MANIFEST).is_file() {
            Ok(path.to_owned())
        } else {
            Err(ModNotFound::NoManifest(path.to_owned()))
        };
    }
    // Only a plain name can be an id: "../x" or "a/b" that is not a folder is just missing.
    let is_id = !arg.is_empty() && path.components().count() == 1 && !arg.starts_with('.');
    if is_id {
        for dir in dirs {
            let candidate = dir.join(arg);
            if candidate.join(MANIFEST).is_file() {
                return Ok(candidate);
            }
        }
    }
    Err(ModNotFound::Unknown {
        arg: arg.to_owned(),
        searched: if is_id { dirs.to_vec() } else { Vec::new() },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn make_mod(root: &Path, id: &str) -> PathBuf {
        let dir = root.join(id);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(MANIFEST), "id = \"x\"\n").unwrap();
        dir
    }

    #[test]
    fn a_folder_with_a_manifest_is_taken_as_is() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = make_mod(tmp.path(), "duel");
        assert_eq!(resolve_in(dir.to_str().unwrap(), &[]), Ok(dir));
    }

    #[test]
    fn a_folder_without_a_manifest_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let err = resolve_in(tmp.path().to_str().unwrap(), &[]).unwrap_err();
        assert!(matches!(err, ModNotFound::NoManifest(_)));
        assert!(err.to_string().contains("no mod.toml"));
    }

    #[test]
    fn an_id_is_found_in_the_first_folder_that_has_it() {
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        let in_b = make_mod(b.path(), "duel");
        let dirs = vec![a.path().to_owned(), b.path().to_owned()];
        assert_eq!(resolve_in("duel", &dirs), Ok(in_b));
        let in_a = make_mod(a.path(), "duel");
        assert_eq!(resolve_in("duel", &dirs), Ok(in_a));
    }

    #[test]
    fn an_unknown_id_names_the_folders_searched() {
        let a = tempfile::tempdir().unwrap();
        let err = resolve_in("nosuchmod", &[a.path().to_owned()]).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("no mod `nosuchmod`"), "{text}");
        assert!(text.contains(&a.path().display().to_string()), "{text}");
    }

    #[test]
    fn a_missing_path_is_not_searched_as_an_id() {
        let a = tempfile::tempdir().unwrap();
        make_mod(a.path(), "duel");
        let err = resolve_in("./duel", &[a.path().to_owned()]).unwrap_err();
        assert_eq!(
            err,
            ModNotFound::Unknown {
                arg: "./duel".into(),
                searched: vec![]
            }
        );
    }
}
