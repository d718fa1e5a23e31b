//! Loading a rule set: manifest + dependencies in order + entry files in one sandbox +
//! validation of the declarations.
//!
//! Steps: discover the mods folder, resolve the dependency order of the requested mod (base
//! before variant), build one [`Sandbox`], install the `game` object, run each mod's entry file,
//! then read and validate the declarations. Problems from every step are collected and returned
//! together; nothing starts if there is any.
//!
//! This module runs no game and keeps no state besides the VM it builds.
//!
//! ```no_run
//! use hexforge_script::loader::{LoadOptions, load_mods};
//! let loaded = load_mods(std::path::Path::new("mods"), "orbital-skirmish", &LoadOptions::default());
//! match loaded {
//!     Ok(l) => println!("{} actions", l.decls.actions.len()),
//!     Err(errs) => errs.iter().for_each(|e| eprintln!("{e}")),
//! }
//! ```

use crate::decl::{ModDecls, install_game, read_decls};
use crate::error::{ModError, ScriptError};
use crate::manifest::{Manifest, ModSet, discover_with};
use crate::sandbox::{Limits, RequirePaths, Sandbox};
use mlua::RegistryKey;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// Options for [`load_mods`].
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// VM limits.
    pub limits: Limits,
    /// The engine's shared `scripts/` folder (for `require("movement")`).
    pub scripts_dir: Option<PathBuf>,
    /// Further mods folders searched for dependencies the mods folder itself lacks (the
    /// bundled and user mods folders), see [`crate::manifest::discover_with`].
    pub extra_roots: Vec<PathBuf>,
}

/// One mod of a loaded rule set (what a save file locks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadedMod {
    /// Id.
    pub id: String,
    /// Version.
    pub version: semver::Version,
    /// SHA-256 (hex) over the mod's files, sorted by relative path.
    pub content_hash: String,
    /// Folder.
    pub dir: PathBuf,
    /// Display prefix, e.g. `mods/demo`.
    pub rel_dir: String,
}

/// A loaded, validated rule set: its VM, its declarations and their callbacks.
pub struct LoadedMods {
    /// The VM all mods of the set run in.
    pub sandbox: Sandbox,
    /// The validated declarations.
    pub decls: ModDecls,
    /// Registry keys indexed by [`crate::decl::CallbackId`].
    pub callbacks: Vec<RegistryKey>,
    /// Mods in load order (dependencies first, the requested mod last).
    pub mods: Vec<LoadedMod>,
    /// The scanned mods folder.
    pub mods_root: PathBuf,
    /// What the game state may hold (`write_kib` and `state_mib` in mod.toml, the largest
    /// request among the set's mods, clamped to the host caps).
    pub state_limits: hexforge_game::StateLimits,
}

impl std::fmt::Debug for LoadedMods {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoadedMods")
            .field("mods", &self.mods)
            .field("decls", &self.decls)
            .finish_non_exhaustive()
    }
}

fn script_to_mod_error(e: &ScriptError) -> ModError {
    ModError::at(e.file.clone(), e.line, None, e.message.clone())
}

/// SHA-256 over a folder's files (relative path and bytes, sorted), hex encoded. Hidden files
/// and folders inside it (names starting with `.`) are not part of the mod; the folder itself
/// may be hidden (a staging or kept-version folder).
#[must_use]
pub fn content_hash(dir: &Path) -> String {
    let mut h = Sha256::new();
    let walker = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'));
    for entry in walker
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
    {
        let rel = entry
            .path()
            .strip_prefix(dir)
            .unwrap_or(entry.path())
            .to_string_lossy()
            .replace('\\', "/");
        h.update(rel.as_bytes());
        h.update([0]);
        if let Ok(bytes) = std::fs::read(entry.path()) {
            h.update((bytes.len() as u64).to_le_bytes());
            h.update(&bytes);
        }
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Loads `root_id` and its dependencies from `mods_root`.
///
/// # Errors
/// Every problem found: manifests, dependencies, Lua errors in entry files, invalid
/// declarations.
pub fn load_mods(
    mods_root: &Path,
    root_id: &str,
    opts: &LoadOptions,
) -> Result<LoadedMods, Vec<ModError>> {
    let (set, discovery_errs) = discover_with(mods_root, &opts.extra_roots);
    load_from_set(&set, mods_root, root_id, opts).map_err(|mut errs| {
        if errs
            .iter()
            .any(|e| e.message.contains("not installed") || e.message.contains("no mod with id"))
        {
            errs.extend(discovery_errs);
        }
        errs
    })
}

/// Loads `root_id` from an already discovered [`ModSet`].
///
/// # Errors
/// As [`load_mods`].
pub fn load_from_set(
    set: &ModSet,
    mods_root: &Path,
    root_id: &str,
    opts: &LoadOptions,
) -> Result<LoadedMods, Vec<ModError>> {
    let order = set.resolve(root_id)?;
    // A mod may ask for more memory than the default (`memory_mib` in mod.toml); the rule set's
    // VM gets the largest request among its mods, and `Sandbox::new` clamps it to the host cap.
    let mut limits = opts.limits;
    let asked = order
        .iter()
        .filter_map(|id| set.mods.get(id)?.manifest.memory_mib)
        .max();
    if let Some(mib) = asked {
        limits.memory = limits.memory.max((mib as usize) << 20);
    }
    let sandbox = Sandbox::new(limits).map_err(|e| vec![script_to_mod_error(&e)])?;
    let most = |f: fn(&Manifest) -> Option<u32>| {
        order
            .iter()
            .filter_map(|id| f(&set.mods.get(id)?.manifest))
            .max()
    };
    let state_limits = hexforge_game::StateLimits::asked(
        most(|m| m.write_kib).map(|k| (k as usize) << 10),
        most(|m| m.state_mib).map(|m| (m as usize) << 20),
    );
    let mut paths = RequirePaths {
        scripts: opts.scripts_dir.as_ref().map(|d| {
            (
                d.clone(),
                d.file_name()
                    .map_or_else(|| "scripts".into(), |n| n.to_string_lossy().to_string()),
            )
        }),
        ..RequirePaths::default()
    };
    let mods: Vec<LoadedMod> = order
        .iter()
        .map(|id| {
            let m = &set.mods[id];
            LoadedMod {
                id: id.clone(),
                version: m.manifest.version.clone(),
                content_hash: content_hash(&m.dir),
                dir: m.dir.clone(),
                rel_dir: m.rel_dir.clone(),
            }
        })
        .collect();
    for m in &mods {
        paths
            .mods
            .insert(m.id.clone(), (m.dir.clone(), m.rel_dir.clone()));
    }
    paths.search_order = mods.iter().rev().map(|m| m.id.clone()).collect();
    sandbox.set_require_paths(paths);
    let (game, problems, sources) = sandbox
        .guarded(install_game)
        .map_err(|e| vec![script_to_mod_error(&e)])?;
    let mut errs = Vec::new();
    for m in &mods {
        let entry = &set.mods[&m.id].manifest.entry;
        let rel = format!("{}/{entry}", m.rel_dir);
        if let Err(e) = sandbox.exec_file(&m.dir.join(entry), &rel) {
            errs.push(script_to_mod_error(&e));
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let (decls, callbacks) = sandbox
        .guarded(|lua| Ok(read_decls(lua, &game, &problems, &sources)))
        .map_err(|e| vec![script_to_mod_error(&e)])??;
    // `tables.*` over the declared tables, for callbacks, tests and `hexforge eval`.
    let declared = decls
        .tables
        .iter()
        .filter_map(|(id, t)| Some((id.clone(), t.table.clone()?)))
        .collect();
    sandbox
        .guarded(|lua| crate::api::tables::install(lua, declared))
        .map_err(|e| vec![script_to_mod_error(&e)])?;
    Ok(LoadedMods {
        sandbox,
        decls,
        callbacks,
        mods,
        mods_root: mods_root.to_path_buf(),
        state_limits,
    })
}

#[cfg(test)]
mod tests {
    use super::{LoadOptions, content_hash, load_mods};
    use hexforge_game::StateLimits;

    #[test]
    fn state_limits_are_the_largest_request_of_the_set_clamped_to_the_host_caps() {
        let tmp = tempfile::tempdir().unwrap();
        let manifest = |id: &str, extra: &str| {
            format!("id = \"{id}\"\nname = \"{id}\"\nversion = \"0.1.0\"\nengine = \"*\"\n{extra}")
        };
        for (id, extra) in [
            ("base", "write_kib = 2048\n"),
            (
                "variant",
                "extends = \"base\"\nstate_mib = 4096\nwrite_kib = 8\n",
            ),
            ("plain", ""),
        ] {
            let dir = tmp.path().join(id);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("mod.toml"), manifest(id, extra)).unwrap();
            std::fs::write(dir.join("main.lua"), "").unwrap();
        }
        let limits = |id| {
            load_mods(tmp.path(), id, &LoadOptions::default())
                .unwrap()
                .state_limits
        };
        let v = limits("variant");
        assert_eq!(v.per_action, 2048 << 10, "the base's larger request");
        assert_eq!(v.total, StateLimits::HOST_TOTAL, "clamped");
        assert_eq!(limits("plain"), StateLimits::default());
    }

    #[test]
    fn the_content_hash_skips_hidden_entries_but_not_a_hidden_mod_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let plain = tmp.path().join("m");
        let hidden = tmp.path().join(".stage").join("m");
        for dir in [&plain, &hidden] {
            std::fs::create_dir_all(dir.join(".git")).unwrap();
            std::fs::write(dir.join("main.lua"), "return 1").unwrap();
            std::fs::write(dir.join(".git").join("HEAD"), "x").unwrap();
        }
        let empty = content_hash(&tmp.path().join("nothing-here"));
        assert_ne!(content_hash(&plain), empty);
        // Same files, so the same hash, wherever the folder lives.
        assert_eq!(content_hash(&plain), content_hash(&hidden));
        let dot = tmp.path().join(".versions");
        std::fs::create_dir_all(&dot).unwrap();
        std::fs::write(dot.join("main.lua"), "return 1").unwrap();
        assert_eq!(content_hash(&dot), content_hash(&plain));
        // A hidden file inside does not count.
        std::fs::write(plain.join(".notes"), "scratch").unwrap();
        assert_eq!(content_hash(&plain), content_hash(&hidden));
    }
}
