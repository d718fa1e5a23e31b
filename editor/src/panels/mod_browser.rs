//! The mod browser panel: the mods under the bundled `mods/` folder and a user mods folder, with
//! their scenarios and files.
//!
//! A mod is a folder holding a `mod.toml`. [`scan_mods`] lists them (sorted by folder path, so
//! the list is stable); [`read_manifest`] reads the id, name and version with
//! `hexforge_script::manifest`. Clicking a mod opens it on its first scenario; clicking a
//! scenario opens that one. Whether each mod loads ([`ModEntry::loads`]) is filled in by the
//! app through `session::check_mod` (this panel never runs Lua); the open mod's problems are in
//! the problems list.
//!
//! ```
//! use hexforge_editor::panels::mod_browser::read_manifest;
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("mod.toml"),
//!     "id = \"demo\"\nname = \"Demo\"\nversion = \"0.1.0\"\nengine = \">=0.1\"\n").unwrap();
//! let m = read_manifest(dir.path());
//! assert_eq!((m.id.as_str(), m.name.as_str(), m.version.as_str()), ("demo", "Demo", "0.1.0"));
//! ```

use crate::command::Command;
use hexforge_script::manifest::Manifest;
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
    /// The first manifest problem, as `file:line:col: message` (none: the manifest is valid).
    pub problem: Option<String>,
    /// The base mod a variant `extends`, by id.
    pub extends: Option<String>,
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
    /// Each scenario's `name` and `description` (the file's stem and nothing when it has none),
    /// in the order of `scenarios`.
    pub scenario_titles: Vec<(String, String)>,
    /// Every file of the mod, relative to the mod folder, sorted.
    pub files: Vec<PathBuf>,
    /// Whether the mod loads (rules, dependencies, declarations): `None` until checked, else
    /// `Ok` or the number of problems and the first one (`file:line: message`).
    pub loads: Option<Result<(), (usize, String)>>,
}

/// Reads a mod folder's `mod.toml` with `hexforge_script`'s own parser
/// ([`hexforge_script::manifest::Manifest::parse`]), so the browser and the loader agree on what
/// a valid manifest is. A missing or invalid manifest still lists the mod (under its folder
/// name) with the first problem in [`ManifestInfo::problem`].
#[must_use]
pub fn read_manifest(dir: &Path) -> ManifestInfo {
    let folder = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let file = format!("{folder}/mod.toml");
    let text = match std::fs::read_to_string(dir.join("mod.toml")) {
        Ok(t) => t,
        Err(e) => {
            return ManifestInfo {
                id: folder,
                problem: Some(format!("{file}: {e}")),
                ..ManifestInfo::default()
            };
        }
    };
    match Manifest::parse(&text, &file) {
        Ok(m) => ManifestInfo {
            id: m.id,
            name: m.name,
            version: m.version.to_string(),
            problem: None,
            extends: m.extends,
        },
        Err(errors) => ManifestInfo {
            id: folder,
            problem: errors.first().map(ToString::to_string),
            ..ManifestInfo::default()
        },
    }
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

/// A scenario's `name` and `description` as its file gives them; the file's stem and an empty
/// description when it has none or does not parse (loading it reports why).
fn scenario_title(dir: &Path, file: &Path) -> (String, String) {
    let stem = file
        .file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let text = std::fs::read_to_string(dir.join(file)).unwrap_or_default();
    let table: toml::Table = toml::from_str(&text).unwrap_or_default();
    let field = |k: &str| {
        table
            .get(k)
            .and_then(toml::Value::as_str)
            .map(str::to_owned)
    };
    (
        field("name")
            .filter(|n| !n.trim().is_empty())
            .unwrap_or(stem),
        field("description").unwrap_or_default(),
    )
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
            let scenarios: Vec<PathBuf> = files
                .iter()
                .filter(|f| f.starts_with("scenarios"))
                .cloned()
                .collect();
            let scenario_titles = scenarios.iter().map(|s| scenario_title(&dir, s)).collect();
            out.push(ModEntry {
                manifest: read_manifest(&dir),
                dir,
                scenarios,
                scenario_titles,
                files,
                loads: None,
            });
        }
    }
    out
}

/// Draws the mod list; returns the commands the user asked for.
/// `current` is the open (or last) mod folder and `scenario` the scenario running in it.
pub fn show(
    ui: &mut egui::Ui,
    mods: &[ModEntry],
    current: Option<&Path>,
    scenario: Option<&str>,
) -> Vec<Command> {
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
                let title = format!("{} {}", m.manifest.id, m.manifest.version)
                    .trim_end()
                    .to_owned();
                ui.horizontal(|ui| {
                    if ui.selectable_label(selected, title).clicked() {
                        cmds.push(Command::OpenMod(m.dir.clone()));
                    }
                    if matches!(m.loads, Some(Ok(()))) {
                        ui.weak("loads");
                    }
                });
                if !m.manifest.name.is_empty() {
                    ui.weak(&m.manifest.name);
                }
                if let Some(problem) = &m.manifest.problem {
                    ui.colored_label(ui.visuals().warn_fg_color, problem);
                }
                if let Some(Err((n, first))) = &m.loads {
                    let more = if *n > 1 {
                        format!(" (+{} more)", n - 1)
                    } else {
                        String::new()
                    };
                    ui.colored_label(
                        ui.visuals().error_fg_color,
                        format!("does not load: {first}{more}"),
                    );
                }
                // The open mod lists its scenarios in full (one click starts one); the others keep
                // them folded.
                if selected {
                    ui.indent(("scen", &m.dir), |ui| {
                        ui.label("Scenarios");
                        scenario_list(ui, m, scenario, &mut cmds);
                    });
                } else {
                    egui::CollapsingHeader::new("Scenarios")
                        .id_salt(("scen", &m.dir))
                        .show(ui, |ui| scenario_list(ui, m, None, &mut cmds));
                }
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

/// The scenarios of one mod; `running` is the one started (if this mod is open).
fn scenario_list(ui: &mut egui::Ui, m: &ModEntry, running: Option<&str>, cmds: &mut Vec<Command>) {
    if m.scenarios.is_empty() {
        ui.weak("none");
    }
    for (i, s) in m.scenarios.iter().enumerate() {
        let id = s
            .file_stem()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (name, description) = m.scenario_titles.get(i).cloned().unwrap_or_default();
        let hover = if description.is_empty() {
            s.display().to_string()
        } else {
            format!("{description}\n({})", s.display())
        };
        if ui
            .selectable_label(running == Some(id.as_str()), name)
            .on_hover_text(hover)
            .clicked()
        {
            cmds.push(Command::OpenScenario {
                dir: m.dir.clone(),
                scenario: id,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invalid_manifest_lists_the_mod_with_its_problem() {
        let root = tempfile::tempdir().unwrap();
        let d = root.path().join("bad-mod");
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("mod.toml"), "id = \"bad-mod\"\nname = 3\n").unwrap();
        let m = read_manifest(&d);
        assert_eq!(m.id, "bad-mod");
        let problem = m.problem.unwrap();
        assert!(problem.starts_with("bad-mod/mod.toml:"), "{problem}");
        let missing = read_manifest(&root.path().join("nothing"));
        assert_eq!(missing.id, "nothing");
        assert!(missing.problem.is_some());
    }

    #[test]
    fn scan_finds_mods_scenarios_and_files_sorted() {
        let root = tempfile::tempdir().unwrap();
        let b = root.path().join("beta");
        std::fs::create_dir_all(b.join("scenarios")).unwrap();
        std::fs::write(
            b.join("mod.toml"),
            "id = \"beta\"\nname = \"Beta\"\nversion = \"2.0.0\"\nengine = \">=0.1\"",
        )
        .unwrap();
        std::fs::write(b.join("rules.lua"), "-- rules").unwrap();
        std::fs::write(b.join("scenarios/duel.toml"), "").unwrap();
        std::fs::write(
            b.join("scenarios/raid.toml"),
            "name = \"Night raid\"\ndescription = \"Two scouts slip past a picket.\"\n",
        )
        .unwrap();
        std::fs::write(b.join(".hidden"), "").unwrap();
        let a = root.path().join("alpha");
        std::fs::create_dir_all(&a).unwrap();
        // Invalid (no name, version, engine): listed under its folder name.
        std::fs::write(a.join("mod.toml"), "id = \"alpha\"").unwrap();
        // Not a mod: no manifest.
        std::fs::create_dir_all(root.path().join("notes")).unwrap();

        let mods = scan_mods(&[root.path().to_path_buf(), root.path().join("missing")]);
        let ids: Vec<&str> = mods.iter().map(|m| m.manifest.id.as_str()).collect();
        assert_eq!(ids, ["alpha", "beta"]);
        assert!(mods[0].manifest.problem.is_some());
        assert_eq!(mods[1].manifest.version, "2.0.0");
        assert_eq!(
            mods[1].scenarios,
            [
                PathBuf::from("scenarios/duel.toml"),
                PathBuf::from("scenarios/raid.toml")
            ]
        );
        // Listed by name, with the description; a file without a name by its stem.
        assert_eq!(
            mods[1].scenario_titles,
            [
                ("duel".to_owned(), String::new()),
                (
                    "Night raid".to_owned(),
                    "Two scouts slip past a picket.".to_owned()
                )
            ]
        );
        assert_eq!(
            mods[1].files,
            [
                PathBuf::from("mod.toml"),
                PathBuf::from("rules.lua"),
                PathBuf::from("scenarios/duel.toml"),
                PathBuf::from("scenarios/raid.toml")
            ]
        );
    }
}
