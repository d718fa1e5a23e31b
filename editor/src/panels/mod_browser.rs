//! The mod browser panel: the mods under the bundled `mods/` folder and a user mods folder, with
//! their scenarios and files.
//!
//! A mod is a folder holding a `mod.toml`. [`scan_mods`] lists them (sorted by folder path, so
//! the list is stable); [`read_manifest`] reads the id, name and version with a minimal parse.
//! **It deliberately does not validate manifests or resolve dependencies**: that is
//! `hexforge_script::manifest`'s job, which this crate cannot depend on yet.
//!
//! ```
//! use hexforge_editor::panels::mod_browser::parse_manifest;
//! let m = parse_manifest("id = \"demo\"\nname = \"Demo\"\nversion = \"0.1.0\"\n[dependencies]\nid = \"x\"");
//! assert_eq!((m.id.as_str(), m.name.as_str(), m.version.as_str()), ("demo", "Demo", "0.1.0"));
//! ```

use crate::command::Command;
use std::path::{Path, PathBuf};

/// What the browser shows of a mod manifest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ManifestInfo {
    /// The mod id (empty if missing).
    pub id: String,
    /// The display name (empty if missing).
    pub name: String,
    /// The version string (empty if missing).
    pub version: String,
}

/// A mod found on disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModEntry {
    /// The mod folder.
    pub dir: PathBuf,
    /// From its `mod.toml` (the id falls back to the folder name).
    pub manifest: ManifestInfo,
    /// Scenario files (under `scenarios/`), relative to the mod folder, sorted.
    pub scenarios: Vec<PathBuf>,
    /// Every file of the mod, relative to the mod folder, sorted.
    pub files: Vec<PathBuf>,
}

/// Minimal `mod.toml` parse: top-level `key = "value"` lines for `id`, `name` and `version`;
/// anything after the first `[table]` header is ignored. Never fails.
// TODO(lead): use hexforge_script::manifest
#[must_use]
pub fn parse_manifest(text: &str) -> ManifestInfo {
    let mut m = ManifestInfo::default();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            break;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let value = value.trim();
        // Strip a trailing comment only outside the quotes.
        let value = match value.strip_prefix('"') {
            Some(rest) => rest.split('"').next().unwrap_or(""),
            None => value.split('#').next().unwrap_or("").trim(),
        };
        let slot = match key.trim() {
            "id" => &mut m.id,
            "name" => &mut m.name,
            "version" => &mut m.version,
            _ => continue,
        };
        *slot = value.to_owned();
    }
    m
}

/// Reads a mod folder's `mod.toml` (missing or unreadable gives empty fields).
#[must_use]
pub fn read_manifest(dir: &Path) -> ManifestInfo {
    let text = std::fs::read_to_string(dir.join("mod.toml")).unwrap_or_default();
    let mut m = parse_manifest(&text);
    if m.id.is_empty() {
        m.id = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
    }
    m
}

/// The files of a mod folder, relative to it, sorted; hidden files and folders are skipped.
#[must_use]
pub fn mod_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'))
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| e.path().strip_prefix(dir).ok().map(Path::to_path_buf))
        .collect();
    files.sort();
    files
}

/// Every mod directly under each root (folders with a `mod.toml`), sorted by folder path.
/// Missing roots are skipped.
#[must_use]
pub fn scan_mods(roots: &[PathBuf]) -> Vec<ModEntry> {
    let mut out = Vec::new();
    for root in roots {
        let Ok(rd) = std::fs::read_dir(root) else {
            continue;
        };
        let mut dirs: Vec<PathBuf> = rd
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.join("mod.toml").is_file())
            .collect();
        dirs.sort();
        for dir in dirs {
            let files = mod_files(&dir);
            let scenarios = files
                .iter()
                .filter(|f| f.starts_with("scenarios"))
                .cloned()
                .collect();
            out.push(ModEntry {
                manifest: read_manifest(&dir),
                dir,
                scenarios,
                files,
            });
        }
    }
    out
}

/// Draws the mod list; returns the commands the user asked for.
pub fn show(ui: &mut egui::Ui, mods: &[ModEntry], current: Option<&Path>) -> Vec<Command> {
    let mut cmds = Vec::new();
    ui.horizontal(|ui| {
        ui.heading("Mods");
        if ui.small_button("Rescan").clicked() {
            cmds.push(Command::RescanMods);
        }
    });
    if mods.is_empty() {
        ui.weak("No mods found (a mod is a folder with a mod.toml).");
    }
    egui::ScrollArea::vertical()
        .id_salt("mod_browser")
        .show(ui, |ui| {
            for m in mods {
                let selected = current == Some(m.dir.as_path());
                let title = format!("{} {}", m.manifest.id, m.manifest.version);
                if ui.selectable_label(selected, title).clicked() {
                    cmds.push(Command::OpenMod(m.dir.clone()));
                }
                if !m.manifest.name.is_empty() {
                    ui.weak(&m.manifest.name);
                }
                egui::CollapsingHeader::new("Scenarios")
                    .id_salt(("scen", &m.dir))
                    .default_open(selected)
                    .show(ui, |ui| {
                        if m.scenarios.is_empty() {
                            ui.weak("none");
                        }
                        for s in &m.scenarios {
                            ui.label(s.display().to_string());
                        }
                    });
                egui::CollapsingHeader::new("Files")
                    .id_salt(("files", &m.dir))
                    .default_open(selected)
                    .show(ui, |ui| {
                        for f in &m.files {
                            if ui.link(f.display().to_string()).clicked() {
                                cmds.push(Command::OpenFile {
                                    path: m.dir.join(f),
                                    line: None,
                                });
                            }
                        }
                    });
                ui.separator();
            }
        });
    cmds
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_parse_tolerates_comments_tables_and_garbage() {
        let m = parse_manifest(
            "# a mod\n id = \"sq\" # trailing\nname=\"Squadron # Command\"\nversion = 1.2\n\
             junk line\n[dependencies]\nname = \"other\"\n",
        );
        assert_eq!(m.id, "sq");
        assert_eq!(m.name, "Squadron # Command");
        assert_eq!(m.version, "1.2");
        assert_eq!(parse_manifest(""), ManifestInfo::default());
    }

    #[test]
    fn scan_finds_mods_scenarios_and_files_sorted() {
        let root = tempfile::tempdir().unwrap();
        let b = root.path().join("beta");
        std::fs::create_dir_all(b.join("scenarios")).unwrap();
        std::fs::write(b.join("mod.toml"), "name = \"Beta\"\nversion = \"2.0.0\"").unwrap();
        std::fs::write(b.join("rules.lua"), "-- rules").unwrap();
        std::fs::write(b.join("scenarios/duel.toml"), "").unwrap();
        std::fs::write(b.join(".hidden"), "").unwrap();
        let a = root.path().join("alpha");
        std::fs::create_dir_all(&a).unwrap();
        std::fs::write(a.join("mod.toml"), "id = \"alpha\"").unwrap();
        // Not a mod: no manifest.
        std::fs::create_dir_all(root.path().join("notes")).unwrap();

        let mods = scan_mods(&[root.path().to_path_buf(), root.path().join("missing")]);
        let ids: Vec<&str> = mods.iter().map(|m| m.manifest.id.as_str()).collect();
        assert_eq!(ids, ["alpha", "beta"]); // beta's id falls back to its folder name
        assert_eq!(mods[1].manifest.version, "2.0.0");
        assert_eq!(mods[1].scenarios, [PathBuf::from("scenarios/duel.toml")]);
        assert_eq!(
            mods[1].files,
            [
                PathBuf::from("mod.toml"),
                PathBuf::from("rules.lua"),
                PathBuf::from("scenarios/duel.toml")
            ]
        );
    }
}
