//! Where mods are on disk: the bundled and user mods folders, a mod argument resolved to its
//! folder, a mod folder split into its mods root and id, and the engine's shared `scripts/`
//! folder. The CLI and the editor both find mods through this module, so they agree.
//!
//! The rules:
//! - The bundled mods folder is `./mods`; the user mods folder is `$HEXFORGE_MODS_DIR`, else
//!   `$XDG_DATA_HOME/hexforge/mods`, else `~/.local/share/hexforge/mods`.
//! - A mod folder is loaded from its canonical path: its mods root is the canonical parent
//!   folder and its id the folder name ([`root_and_id`]). So `mods/tutorial` given relative
//!   and the same folder given absolute load the same mods, with the same folders.
//! - `scripts/` is the folder beside that mods root (the repository's `mods/` and `scripts/`
//!   are siblings), else `./scripts` in the working folder ([`scripts_dir`]).
//!
//! This module only finds folders; it deliberately does not read manifests (that is
//! [`crate::manifest`]'s job), so it accepts any folder holding a `mod.toml`.
//!
//! ```no_run
//! use hexforge_script::paths;
//! let dir = paths::resolve("tutorial").unwrap(); // ./mods/tutorial
//! let same = paths::resolve("mods/tutorial").unwrap();
//! assert_eq!(paths::root_and_id(&dir).unwrap(), paths::root_and_id(&same).unwrap());
//! ```

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The manifest file every mod folder holds.
pub const MANIFEST: &str = "mod.toml";
/// Environment variable naming the user mods folder (overrides the default).
pub const USER_MODS_ENV: &str = "HEXFORGE_MODS_DIR";
/// The bundled mods folder, relative to the working folder.
const BUNDLED: &str = "mods";
/// The engine's shared Lua folder's name.
const SCRIPTS: &str = "scripts";

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
    user_mods_dir_from(|k| std::env::var_os(k))
}

/// [`user_mods_dir`] over any environment (tests pass a map). Empty variables count as unset.
#[must_use]
pub fn user_mods_dir_from(var: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let var = |k: &str| var(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    var(USER_MODS_ENV)
        .or_else(|| var("XDG_DATA_HOME").map(|d| d.join("hexforge").join("mods")))
        .or_else(|| var("HOME").map(|h| h.join(".local/share/hexforge/mods")))
}

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

/// The folder of mods bundled with Hexforge (`./mods`).
#[must_use]
pub fn bundled_dir() -> PathBuf {
    PathBuf::from(BUNDLED)
}

/// The folders searched for a mod id (and for the dependencies of a mod being loaded), in
/// order: `./mods`, then the user mods folder.
#[must_use]
pub fn search_dirs() -> Vec<PathBuf> {
    let mut dirs = vec![bundled_dir()];
    dirs.extend(user_mods_dir());
    dirs
}

/// Finds the mod folder for `arg` (a path or an id), searching [`search_dirs`] for ids.
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

/// The mods root (the canonical parent folder) and the id (folder name) of a mod folder.
///
/// Why canonical: a mod opened as `mods/x` and as `/repo/mods/x` (or `mods/x/../x`) must load
/// with the same folders, so that files saved, watched and compared under either spelling are
/// recognised as the mod's.
///
/// # Errors
/// The folder does not exist (or cannot be read).
pub fn root_and_id(dir: &Path) -> std::io::Result<(PathBuf, String)> {
    let dir = dir.canonicalize()?;
    let id = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let root = dir.parent().unwrap_or(&dir).to_owned();
    Ok((root, id))
}

/// The engine's shared `scripts/` folder for mods loaded from `mods_root` (canonical): the
/// `scripts/` beside that mods root, else `./scripts` in the working folder; `None` when
/// neither exists. Without a mods root (a bare sandbox), only `./scripts`.
///
/// Why both: the repository's `mods/` and `scripts/` are siblings, so a bundled mod finds them
/// from any working folder and under any spelling of its path; a mod elsewhere (a work folder,
/// the user mods folder) finds them when run from the repository root.
#[must_use]
pub fn scripts_dir(mods_root: Option<&Path>) -> Option<PathBuf> {
    let beside = mods_root
        .and_then(|r| r.canonicalize().ok())
        .and_then(|r| r.parent().map(|p| p.join(SCRIPTS)));
    beside
        .into_iter()
        .chain([PathBuf::from(SCRIPTS)])
        .find(|d| d.is_dir())
        .map(|d| canonical(&d))
}

/// `path` canonicalised, or as given when it cannot be (it does not exist): for comparing
/// paths that may be spelled relative or absolute.
#[must_use]
pub fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn make_mod(root: &Path, id: &str) -> PathBuf {
        let dir = root.join(id);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(MANIFEST), "id = \"x\"\n").unwrap();
        dir
    }

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> {
        let map: BTreeMap<String, OsString> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), OsString::from(v)))
            .collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn the_user_mods_folder_comes_from_the_variable_then_xdg_then_home() {
        let all = [
            (USER_MODS_ENV, "/m"),
            ("XDG_DATA_HOME", "/x"),
            ("HOME", "/h"),
        ];
        assert_eq!(user_mods_dir_from(env(&all)), Some(PathBuf::from("/m")));
        assert_eq!(
            user_mods_dir_from(env(&all[1..])),
            Some(PathBuf::from("/x/hexforge/mods"))
        );
        assert_eq!(
            user_mods_dir_from(env(&all[2..])),
            Some(PathBuf::from("/h/.local/share/hexforge/mods"))
        );
        assert_eq!(user_mods_dir_from(env(&[])), None);
    }

    #[test]
    fn an_empty_variable_counts_as_unset() {
        assert_eq!(
            user_mods_dir_from(env(&[(USER_MODS_ENV, ""), ("HOME", "/h")])),
            Some(PathBuf::from("/h/.local/share/hexforge/mods"))
        );
        assert_eq!(
            user_mods_dir_from(env(&[(USER_MODS_ENV, ""), ("XDG_DATA_HOME", "")])),
            None
        );
    }

    #[test]
    fn the_old_editor_variable_is_not_read() {
        assert_eq!(user_mods_dir_from(env(&[("HEXFORGE_MODS", "/m")])), None);
    }

    #[test]
    fn root_and_id_of_a_nested_mod_is_its_canonical_parent_and_folder_name() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = make_mod(&tmp.path().join("a/b/mods"), "duel");
        let root = tmp.path().canonicalize().unwrap().join("a/b/mods");
        assert_eq!(root_and_id(&dir).unwrap(), (root.clone(), "duel".into()));
        // `..` and `.` spellings of the same folder give the same answer.
        let odd = tmp.path().join("a/b/../b/mods/./duel/../duel");
        assert_eq!(root_and_id(&odd).unwrap(), (root, "duel".into()));
        assert!(root_and_id(&tmp.path().join("a/b/mods/missing")).is_err());
    }

    #[test]
    fn root_and_id_is_the_same_for_relative_and_absolute_paths() {
        // Relative paths are resolved from the working folder; the crate's own folder holds
        // `src/`, which stands in for a mod folder here.
        let relative = Path::new("src");
        let absolute = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        if relative.is_dir() {
            assert_eq!(
                root_and_id(relative).unwrap(),
                root_and_id(&absolute).unwrap()
            );
        }
        let (root, id) = root_and_id(&absolute).unwrap();
        assert!(root.is_absolute());
        assert_eq!(id, "src");
    }

    #[test]
    fn scripts_are_found_beside_the_mods_root_under_any_spelling() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("repo");
        make_mod(&repo.join("mods"), "duel");
        std::fs::create_dir_all(repo.join("scripts")).unwrap();
        let want = repo.join("scripts").canonicalize().unwrap();
        assert_eq!(scripts_dir(Some(&repo.join("mods"))), Some(want.clone()));
        let odd = repo.join("mods/duel/..");
        assert_eq!(scripts_dir(Some(&odd)), Some(want.clone()));
        let (root, _) = root_and_id(&repo.join("mods/duel")).unwrap();
        assert_eq!(scripts_dir(Some(&root)), Some(want));
    }

    #[test]
    fn without_scripts_beside_the_root_the_working_folder_is_used() {
        let tmp = tempfile::tempdir().unwrap();
        let elsewhere = tmp.path().join("work/mods");
        make_mod(&elsewhere, "duel");
        // The tests run in the crate's folder, which has no `scripts/`: nothing is found.
        let here = Path::new(SCRIPTS)
            .is_dir()
            .then(|| canonical(Path::new(SCRIPTS)));
        assert_eq!(scripts_dir(Some(&elsewhere)), here);
        assert_eq!(scripts_dir(None), here);
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
