//! The user mods folder as a store of installed packs: install, list, remove, and keeping
//! older versions while saved games use them.
//!
//! Layout: the installed (active) version of a mod is `<root>/<id>/`, which mod discovery
//! loads; older versions that saved games still use are kept in
//! `<root>/.versions/<id>@<version>/`, which discovery skips (a dot-folder). Installing a newer
//! version moves the active one there; [`ModStore::prune`] (run after every install and
//! remove) deletes kept versions no registered save uses.
//!
//! Install order, so a failure never changes the installed mods: verify the archive in memory
//! ([`crate::archive::read_pack`]), explain dependency conflicts ([`crate::deps`]), extract into
//! a temporary folder beside `<root>` (in its parent, so the final rename stays on one file
//! system), re-hash what landed on disk, then rename: the old version into `.versions/`, the
//! new one into place (undoing the first rename if the second fails).
//!
//! This module does not read archives from disk or print anything.
//!
//! ```
//! use hexforge_pack::ModStore;
//! let dir = tempfile::tempdir().unwrap();
//! let store = ModStore::new(dir.path().join("mods"));
//! assert!(store.active().is_empty());
//! ```

use crate::archive::Pack;
use crate::deps::explain;
use crate::error::{StoreError, io};
use crate::saves::SaveIndex;
use hexforge_script::Manifest;
use hexforge_script::loader::content_hash;
use semver::Version;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The folder of kept older versions, inside the mods folder.
pub const VERSIONS_DIR: &str = ".versions";

/// One installed version of a mod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstalledMod {
    /// Its manifest.
    pub manifest: Manifest,
    /// Its folder.
    pub dir: PathBuf,
    /// True for a kept older version (in `.versions/`).
    pub kept: bool,
}

impl InstalledMod {
    /// `id version`, e.g. `orbital-skirmish 0.1.0`.
    #[must_use]
    pub fn label(&self) -> String {
        format!("{} {}", self.manifest.id, self.manifest.version)
    }
}

/// What an install did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstallReport {
    /// The mod installed.
    pub id: String,
    /// Its version.
    pub version: Version,
    /// Where it is now.
    pub dir: PathBuf,
    /// True when this exact build was already installed (nothing changed).
    pub unchanged: bool,
    /// The version it replaced, if any.
    pub replaced: Option<Version>,
    /// Older versions kept because saves use them: (`id version`, the saves).
    pub kept: Vec<(String, Vec<PathBuf>)>,
    /// Kept versions deleted because no save uses them any more (`id version`).
    pub pruned: Vec<String>,
}

/// What a remove did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoveReport {
    /// The versions removed (`id version`).
    pub removed: Vec<String>,
    /// A kept version that became the installed one, if any.
    pub restored: Option<String>,
    /// Installed mods that depend on the removed mod (they will not load until it is back).
    pub dependents: Vec<String>,
}

/// The user mods folder.
#[derive(Clone, Debug)]
pub struct ModStore {
    root: PathBuf,
}

fn read_manifest(dir: &Path, shown: &str) -> Option<Manifest> {
    let text = std::fs::read_to_string(dir.join("mod.toml")).ok()?;
    Manifest::parse(&text, shown).ok()
}

impl ModStore {
    /// The store at `root` (it need not exist yet).
    #[must_use]
    pub fn new(root: impl Into<PathBuf>) -> ModStore {
        ModStore { root: root.into() }
    }

    /// The mods folder.
    #[must_use]
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The installed versions, sorted by id (what discovery loads).
    #[must_use]
    pub fn active(&self) -> Vec<InstalledMod> {
        let (set, _) = hexforge_script::manifest::discover(&self.root);
        set.mods
            .into_values()
            .filter(|m| m.dir.starts_with(&self.root))
            .map(|m| InstalledMod {
                manifest: m.manifest,
                dir: m.dir,
                kept: false,
            })
            .collect()
    }

    /// The kept older versions, sorted by id then version.
    #[must_use]
    pub fn kept(&self) -> Vec<InstalledMod> {
        let Ok(entries) = std::fs::read_dir(self.root.join(VERSIONS_DIR)) else {
            return Vec::new();
        };
        let mut out: Vec<InstalledMod> = entries
            .filter_map(Result::ok)
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let m = read_manifest(&e.path(), &format!("{VERSIONS_DIR}/{name}/mod.toml"))?;
                (name == format!("{}@{}", m.id, m.version)).then(|| InstalledMod {
                    manifest: m,
                    dir: e.path(),
                    kept: true,
                })
            })
            .collect();
        out.sort_by(|a, b| {
            (&a.manifest.id, &a.manifest.version).cmp(&(&b.manifest.id, &b.manifest.version))
        });
        out
    }

    /// The folder of `id` at exactly `version`, installed or kept.
    #[must_use]
    pub fn find(&self, id: &str, version: &str) -> Option<InstalledMod> {
        self.active()
            .into_iter()
            .chain(self.kept())
            .find(|m| m.manifest.id == id && m.manifest.version.to_string() == version)
    }

    /// Installs a verified pack. `others` are further mods folders (e.g. the bundled `mods/`)
    /// whose mods count as installed for dependencies.
    ///
    /// # Errors
    /// Dependency conflicts (in plain words), a different build of the same version, an older
    /// version than the installed one, or an I/O error (the installed mods are then unchanged).
    pub fn install(
        &self,
        pack: &Pack,
        others: &[PathBuf],
        saves: &SaveIndex,
    ) -> Result<InstallReport, StoreError> {
        let m = &pack.manifest;
        let current = self.active().into_iter().find(|a| a.manifest.id == m.id);
        let mut report = InstallReport {
            id: m.id.clone(),
            version: m.version.clone(),
            dir: self.root.join(&m.id),
            unchanged: false,
            replaced: None,
            kept: Vec::new(),
            pruned: Vec::new(),
        };
        if let Some(cur) = &current {
            if cur.manifest.version == m.version {
                if content_hash(&cur.dir) == pack.index.content_hash {
                    report.unchanged = true;
                    return Ok(report);
                }
                return Err(StoreError::DifferentBuild {
                    id: m.id.clone(),
                    version: m.version.to_string(),
                });
            }
            if cur.manifest.version > m.version {
                return Err(StoreError::Older {
                    id: m.id.clone(),
                    version: m.version.to_string(),
                    installed: cur.manifest.version.to_string(),
                });
            }
        }
        let mut available: BTreeMap<String, Manifest> = BTreeMap::new();
        for root in std::iter::once(&self.root).chain(others) {
            let (set, _) = hexforge_script::manifest::discover(root);
            for (id, info) in set.mods {
                available.entry(id).or_insert(info.manifest);
            }
        }
        let conflicts = explain(m, &available);
        if !conflicts.is_empty() {
            return Err(StoreError::Conflict(conflicts));
        }
        std::fs::create_dir_all(&self.root).map_err(io(&self.root))?;
        let stage = self.staging()?;
        let new_dir = stage.path().join(&m.id);
        for (rel, bytes) in &pack.files {
            let path = new_dir.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(io(parent))?;
            }
            std::fs::write(&path, bytes).map_err(io(&path))?;
        }
        let landed = content_hash(&new_dir);
        if landed != pack.index.content_hash {
            return Err(StoreError::Extracted(format!(
                "hash {landed}, expected {}",
                pack.index.content_hash
            )));
        }
        let target = self.root.join(&m.id);
        let mut moved_old: Option<PathBuf> = None;
        if let Some(cur) = &current {
            let versions = self.root.join(VERSIONS_DIR);
            std::fs::create_dir_all(&versions).map_err(io(&versions))?;
            let keep = versions.join(format!("{}@{}", m.id, cur.manifest.version));
            if keep.exists() {
                remove_tree(&keep)?;
            }
            std::fs::rename(&target, &keep).map_err(io(&target))?;
            moved_old = Some(keep);
            report.replaced = Some(cur.manifest.version.clone());
        }
        if let Err(e) = std::fs::rename(&new_dir, &target) {
            if let Some(old) = &moved_old {
                // Put the old version back: the folder must look as before.
                let _ = std::fs::rename(old, &target);
            }
            return Err(io(&target)(e));
        }
        if let Some(old) = &report.replaced {
            let users = saves.users(&m.id, &old.to_string());
            if !users.is_empty() {
                report.kept.push((format!("{} {old}", m.id), users));
            }
        }
        report.pruned = self.prune(saves)?;
        Ok(report)
    }

    /// A temporary folder beside the mods folder (removed when dropped).
    fn staging(&self) -> Result<tempfile::TempDir, StoreError> {
        let parent = match self.root.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
            _ => self.root.clone(),
        };
        tempfile::Builder::new()
            .prefix(".hexforge-install-")
            .tempdir_in(&parent)
            .map_err(io(parent))
    }

    /// Deletes kept versions that no registered save uses; returns them (`id version`).
    ///
    /// # Errors
    /// An I/O error deleting one.
    pub fn prune(&self, saves: &SaveIndex) -> Result<Vec<String>, StoreError> {
        let mut gone = Vec::new();
        for k in self.kept() {
            if saves
                .users(&k.manifest.id, &k.manifest.version.to_string())
                .is_empty()
            {
                remove_tree(&k.dir)?;
                gone.push(k.label());
            }
        }
        Ok(gone)
    }

    /// Removes `id` (every version, or only `version`). Refuses while a registered save uses a
    /// version to remove, or while other installed mods need it and no version of it would be
    /// left, unless `force`. Removing the installed version makes the newest kept one (if any)
    /// the installed one.
    ///
    /// # Errors
    /// Nothing to remove, saves or installed mods that need it, or an I/O error.
    pub fn remove(
        &self,
        id: &str,
        version: Option<&Version>,
        force: bool,
        saves: &SaveIndex,
    ) -> Result<RemoveReport, StoreError> {
        let all: Vec<InstalledMod> = self
            .active()
            .into_iter()
            .chain(self.kept())
            .filter(|m| m.manifest.id == id)
            .collect();
        if all.is_empty() {
            return Err(StoreError::NotInstalled(format!(
                "{id} is not installed in {} (bundled mods cannot be removed; `hexforge list` shows what is installed)",
                self.root.display()
            )));
        }
        let doomed: Vec<&InstalledMod> = match version {
            None => all.iter().collect(),
            Some(v) => {
                let hit: Vec<&InstalledMod> =
                    all.iter().filter(|m| &m.manifest.version == v).collect();
                if hit.is_empty() {
                    let have: Vec<String> =
                        all.iter().map(|m| m.manifest.version.to_string()).collect();
                    return Err(StoreError::NotInstalled(format!(
                        "{id} {v} is not installed (installed versions: {})",
                        have.join(", ")
                    )));
                }
                hit
            }
        };
        let what = || {
            doomed
                .iter()
                .map(|m| m.label())
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !force {
            let mut users = Vec::new();
            for m in &doomed {
                users.extend(saves.users(id, &m.manifest.version.to_string()));
            }
            if !users.is_empty() {
                users.sort();
                users.dedup();
                return Err(StoreError::InUse {
                    what: what(),
                    saves: users,
                });
            }
        }
        // Removing every version of a mod that other installed mods need breaks them: refused
        // (naming them) unless forced; forced, the report lists them.
        let none_left = all.len() == doomed.len();
        if !force && none_left {
            let dependents = self.dependents_of(id);
            if !dependents.is_empty() {
                return Err(StoreError::Needed {
                    what: what(),
                    dependents,
                });
            }
        }
        let mut report = RemoveReport {
            removed: Vec::new(),
            restored: None,
            dependents: Vec::new(),
        };
        let mut active_removed = false;
        for m in &doomed {
            remove_tree(&m.dir)?;
            active_removed |= !m.kept;
            report.removed.push(m.label());
        }
        if active_removed
            && let Some(newest) = self.kept().into_iter().rfind(|k| k.manifest.id == id)
        {
            let target = self.root.join(id);
            std::fs::rename(&newest.dir, &target).map_err(io(&target))?;
            report.restored = Some(newest.label());
        }
        if self.find_any(id).is_none() {
            report.dependents = self.dependents_of(id);
        }
        Ok(report)
    }

    /// The installed mods (other than `id` itself) that need `id` (a dependency that is neither
    /// optional nor a declared incompatibility), as `id version`.
    fn dependents_of(&self, id: &str) -> Vec<String> {
        self.active()
            .into_iter()
            .filter(|m| {
                m.manifest.id != id
                    && m.manifest
                        .all_dependencies()
                        .get(id)
                        .is_some_and(|d| !d.optional && !d.incompatible)
            })
            .map(|m| m.label())
            .collect()
    }

    fn find_any(&self, id: &str) -> Option<InstalledMod> {
        self.active().into_iter().find(|m| m.manifest.id == id)
    }
}

/// Deletes a folder by first renaming it to a hidden name (so a half-deleted folder is never
/// taken for a mod), then removing it.
fn remove_tree(dir: &Path) -> Result<(), StoreError> {
    let parent = dir.parent().unwrap_or(Path::new("."));
    let name = dir
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let trash = parent.join(format!(".removing-{name}"));
    if trash.exists() {
        std::fs::remove_dir_all(&trash).map_err(io(&trash))?;
    }
    std::fs::rename(dir, &trash).map_err(io(dir))?;
    std::fs::remove_dir_all(&trash).map_err(io(&trash))
}
