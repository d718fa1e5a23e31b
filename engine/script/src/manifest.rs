//! `mod.toml` manifests, mod discovery and dependency resolution.
//!
//! A mod is a folder `mods/<id>/` with a `mod.toml`:
//!
//! ```toml
//! id = "demo-variant"          # lowercase letters, digits and '-'
//! name = "Demo variant"
//! version = "1.2.0"            # semver
//! engine = ">=0.1, <2"         # semver requirement on the Hexforge version
//! authors = ["Ann"]
//! license = "MIT"
//! description = "Faster frigates."
//! entry = "main.lua"           # default
//! extends = "demo"             # a base mod loaded first, in the same VM
//!
//! [dependencies]
//! demo = "^1"
//! extras = { version = "^0.3", optional = true }
//! old-demo = { version = "*", incompatible = true }
//! ```
//!
//! Errors carry `file:line:col` taken from the TOML spans and say what to change. Resolution
//! orders the mods of a rule set so every mod comes after what it depends on (base before
//! variant) and reports cycles, missing and mismatched dependencies all at once.
//!
//! This module reads files but runs no Lua.
//!
//! ```
//! use hexforge_script::manifest::Manifest;
//! let m = Manifest::parse("id = \"demo\"\nname = \"Demo\"\nversion = \"1.0.0\"\nengine = \"*\"\n", "mods/demo/mod.toml").unwrap();
//! assert_eq!(m.entry, "main.lua");
//! ```

use crate::error::ModError;
use semver::{Version, VersionReq};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The Hexforge version that `engine` requirements are matched against.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// A parsed, checked manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    /// Mod id (lowercase letters, digits, '-').
    pub id: String,
    /// Display name.
    pub name: String,
    /// The mod's version.
    pub version: Version,
    /// Which Hexforge versions it works with.
    pub engine: VersionReq,
    /// Authors.
    pub authors: Vec<String>,
    /// License expression.
    pub license: Option<String>,
    /// One-paragraph description.
    pub description: Option<String>,
    /// Entry file relative to the mod folder (default `main.lua`).
    pub entry: String,
    /// Dependencies by id.
    pub dependencies: BTreeMap<String, Dependency>,
    /// The base mod this one is a variant of (implicitly a required dependency).
    pub extends: Option<String>,
    /// Memory its rule set's VM may use, in MiB (default 64; the host caps it at 512). A rule
    /// set gets the largest request among its mods.
    pub memory_mib: Option<u32>,
    /// What one action may add to the game state, in KiB as saved (default 1024; the host caps
    /// it at 16384). A rule set gets the largest request among its mods.
    pub write_kib: Option<u32>,
    /// What the whole game state (with its log) may hold, in MiB as saved (default 64; the host
    /// caps it at 1024). A rule set gets the largest request among its mods.
    pub state_mib: Option<u32>,
}

/// One entry of `[dependencies]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dependency {
    /// Accepted versions.
    pub version: VersionReq,
    /// Load it if present, do not fail if absent.
    pub optional: bool,
    /// The mod must NOT be part of the same rule set.
    pub incompatible: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    id: Spanned<String>,
    name: String,
    version: Spanned<String>,
    engine: Spanned<String>,
    #[serde(default)]
    authors: Vec<String>,
    license: Option<String>,
    description: Option<String>,
    entry: Option<Spanned<String>>,
    #[serde(default)]
    dependencies: BTreeMap<String, Spanned<RawDep>>,
    extends: Option<Spanned<String>>,
    memory_mib: Option<u32>,
    write_kib: Option<u32>,
    state_mib: Option<u32>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawDep {
    Req(String),
    Full {
        version: String,
        #[serde(default)]
        optional: bool,
        #[serde(default)]
        incompatible: bool,
    },
}

/// True for a valid mod or content id: non-empty, lowercase ASCII letters, digits and '-',
/// starting with a letter.
#[must_use]
pub fn is_valid_mod_id(id: &str) -> bool {
    id.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// 1-based (line, column) of a byte offset.
#[must_use]
pub fn line_col(text: &str, offset: usize) -> (u32, u32) {
    let offset = offset.min(text.len());
    let before = &text.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
    let col_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    (line, (offset - col_start) as u32 + 1)
}

impl Manifest {
    /// Parses and checks a manifest; `file` is the relative path used in errors.
    ///
    /// # Errors
    /// Every problem found, each as `file:line:col: message`.
    pub fn parse(text: &str, file: &str) -> Result<Manifest, Vec<ModError>> {
        let at = |span: std::ops::Range<usize>, msg: String| {
            let (l, c) = line_col(text, span.start);
            ModError::at(file, l, Some(c), msg)
        };
        let raw: RawManifest = match toml::from_str(text) {
            Ok(r) => r,
            Err(e) => {
                let msg = format!(
                    "{} (mod.toml needs id, name, version, engine; optional: authors, license, description, entry, extends, memory_mib, write_kib, state_mib, [dependencies])",
                    e.message().trim()
                );
                return Err(vec![match e.span() {
                    Some(s) => at(s, msg),
                    None => ModError::at(file, 0, None, msg),
                }]);
            }
        };
        let mut errs = Vec::new();
        if !is_valid_mod_id(raw.id.get_ref()) {
            errs.push(at(
                raw.id.span(),
                format!("id {:?}: use lowercase letters, digits and '-', starting with a letter (e.g. \"my-mod\")", raw.id.get_ref()),
            ));
        }
        let version = Version::parse(raw.version.get_ref()).unwrap_or_else(|e| {
            errs.push(at(
                raw.version.span(),
                format!(
                    "version {:?}: {e}; write a semver version like \"1.0.0\"",
                    raw.version.get_ref()
                ),
            ));
            Version::new(0, 0, 0)
        });
        let engine = VersionReq::parse(raw.engine.get_ref()).unwrap_or_else(|e| {
            errs.push(at(
                raw.engine.span(),
                format!(
                    "engine {:?}: {e}; write a semver requirement like \">=0.1\"",
                    raw.engine.get_ref()
                ),
            ));
            VersionReq::STAR
        });
        if let Ok(v) = Version::parse(ENGINE_VERSION)
            && !engine.matches(&v)
            && errs.is_empty()
        {
            errs.push(at(
                raw.engine.span(),
                format!("this mod requires Hexforge {engine} but this is Hexforge {ENGINE_VERSION}; widen `engine` if the mod works with it"),
            ));
        }
        let entry = match &raw.entry {
            Some(e) => {
                let p = e.get_ref();
                if !is_safe_relative(p) || !p.ends_with(".lua") {
                    errs.push(at(e.span(), format!("entry {p:?}: must be a .lua file inside the mod folder (no '..', no absolute path)")));
                }
                p.clone()
            }
            None => "main.lua".to_string(),
        };
        let mut dependencies = BTreeMap::new();
        for (id, dep) in raw.dependencies {
            let span = dep.span();
            let (req, optional, incompatible) = match dep.into_inner() {
                RawDep::Req(r) => (r, false, false),
                RawDep::Full {
                    version,
                    optional,
                    incompatible,
                } => (version, optional, incompatible),
            };
            if !is_valid_mod_id(&id) {
                errs.push(at(
                    span.clone(),
                    format!("dependency {id:?}: not a valid mod id"),
                ));
            }
            if optional && incompatible {
                errs.push(at(
                    span.clone(),
                    format!(
                        "dependency {id:?}: cannot be both optional and incompatible; pick one"
                    ),
                ));
            }
            match VersionReq::parse(&req) {
                Ok(version) => {
                    dependencies.insert(
                        id,
                        Dependency {
                            version,
                            optional,
                            incompatible,
                        },
                    );
                }
                Err(e) => errs.push(at(
                    span,
                    format!(
                        "dependency {id:?}: version {req:?}: {e}; write a requirement like \"^1.0\""
                    ),
                )),
            }
        }
        let extends = raw.extends.as_ref().map(|e| {
            if !is_valid_mod_id(e.get_ref()) {
                errs.push(at(
                    e.span(),
                    format!("extends {:?}: not a valid mod id", e.get_ref()),
                ));
            }
            e.get_ref().clone()
        });
        if let Some(base) = &extends
            && let Some(d) = dependencies.get(base)
            && (d.incompatible || d.optional)
        {
            errs.push(ModError::at(
                file,
                0,
                None,
                format!("extends {base:?} but lists it as optional/incompatible in [dependencies]"),
            ));
        }
        if !errs.is_empty() {
            return Err(errs);
        }
        Ok(Manifest {
            id: raw.id.into_inner(),
            name: raw.name,
            version,
            engine,
            authors: raw.authors,
            license: raw.license,
            description: raw.description,
            entry,
            dependencies,
            extends,
            memory_mib: raw.memory_mib,
            write_kib: raw.write_kib,
            state_mib: raw.state_mib,
        })
    }

    /// Dependencies including the implicit one on `extends` (any version unless listed).
    #[must_use]
    pub fn all_dependencies(&self) -> BTreeMap<String, Dependency> {
        let mut deps = self.dependencies.clone();
        if let Some(base) = &self.extends {
            deps.entry(base.clone()).or_insert(Dependency {
                version: VersionReq::STAR,
                optional: false,
                incompatible: false,
            });
        }
        deps
    }
}

/// True for a relative path with no `..`, no root and no backslashes.
#[must_use]
pub fn is_safe_relative(p: &str) -> bool {
    !p.is_empty()
        && !p.starts_with('/')
        && !p.contains('\\')
        && !p.contains(':')
        && p.split('/')
            .all(|seg| !seg.is_empty() && seg != ".." && seg != ".")
}

/// A mod found on disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModInfo {
    /// Its manifest.
    pub manifest: Manifest,
    /// Absolute (or as given) folder path.
    pub dir: PathBuf,
    /// Folder path relative to the parent of the mods root, e.g. `mods/demo` (used in chunk names).
    pub rel_dir: String,
}

/// All mods under a folder, by id.
#[derive(Clone, Debug, Default)]
pub struct ModSet {
    /// Mods by id.
    pub mods: BTreeMap<String, ModInfo>,
    /// The parent of the scanned folder: chunk names are relative to it.
    pub root: PathBuf,
}

/// Scans `mods_root` for `<folder>/mod.toml` (one level deep, sorted) and parses them all.
///
/// Folders whose name starts with `.` are skipped: the user mods folder keeps older versions
/// under `.versions/` and stages installs in dot-folders, and neither is a mod to load.
///
/// Returns the valid mods and every problem (bad manifests, duplicate ids, folder name that
/// differs from the id) of `mods_root`.
#[must_use]
pub fn discover(mods_root: &Path) -> (ModSet, Vec<ModError>) {
    discover_with(mods_root, &[])
}

/// [`discover`], then the mods found only in `extra_roots` (in order): e.g. the bundled `mods/`
/// and the user mods folder, so a pack installed in the user folder finds the bundled base it
/// extends, and a new mod in a work folder finds its base. Mods of `mods_root` win over extra
/// ones with the same id, and problems in extra folders are not reported (they are not the mod
/// being loaded).
#[must_use]
pub fn discover_with(mods_root: &Path, extra_roots: &[PathBuf]) -> (ModSet, Vec<ModError>) {
    let root = mods_root
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let mut set = ModSet {
        mods: BTreeMap::new(),
        root,
    };
    let mut errs = Vec::new();
    scan(mods_root, &mut set.mods, &mut errs);
    let here = mods_root.canonicalize().ok();
    for extra in extra_roots {
        if extra.canonicalize().ok() == here {
            continue;
        }
        let mut found = BTreeMap::new();
        scan(extra, &mut found, &mut Vec::new());
        for (id, info) in found {
            set.mods.entry(id).or_insert(info);
        }
    }
    (set, errs)
}

/// Adds every valid mod of one mods folder to `mods` (ids already present are kept).
fn scan(mods_root: &Path, mods: &mut BTreeMap<String, ModInfo>, errs: &mut Vec<ModError>) {
    let base = mods_root
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "mods".into());
    let walker = walkdir::WalkDir::new(mods_root)
        .min_depth(2)
        .max_depth(2)
        .sort_by_file_name();
    for entry in walker.into_iter().filter_map(Result::ok) {
        if entry.file_name() != "mod.toml" {
            continue;
        }
        let Some(dir) = entry.path().parent() else {
            continue;
        };
        let folder = dir
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        // Why not walkdir's filter_entry: it is not applied to entries above min_depth.
        if folder.starts_with('.') {
            continue;
        }
        let rel_dir = format!("{base}/{folder}");
        let file = format!("{rel_dir}/mod.toml");
        let text = match std::fs::read_to_string(entry.path()) {
            Ok(t) => t,
            Err(e) => {
                errs.push(ModError::at(file, 0, None, format!("cannot read: {e}")));
                continue;
            }
        };
        match Manifest::parse(&text, &file) {
            Ok(manifest) => {
                if manifest.id != folder {
                    errs.push(ModError::at(
                        &file,
                        1,
                        None,
                        format!(
                            "id {:?} differs from its folder name {folder:?}; rename one",
                            manifest.id
                        ),
                    ));
                    continue;
                }
                mods.entry(manifest.id.clone()).or_insert(ModInfo {
                    manifest,
                    dir: dir.to_path_buf(),
                    rel_dir,
                });
            }
            Err(e) => errs.extend(e),
        }
    }
}

impl ModSet {
    /// The load order for `root_id`: its required and present optional dependencies (and
    /// `extends` base) first, depth-first, ties by id; `root_id` last.
    ///
    /// # Errors
    /// Every missing or mismatched dependency, incompatibility and cycle.
    pub fn resolve(&self, root_id: &str) -> Result<Vec<String>, Vec<ModError>> {
        let mut errs = Vec::new();
        let mut order = Vec::new();
        let mut done = BTreeSet::new();
        let mut stack = Vec::new();
        if !self.mods.contains_key(root_id) {
            return Err(vec![ModError::at(
                "",
                0,
                None,
                format!("no mod with id {root_id:?} (known: {})", self.known()),
            )]);
        }
        self.visit(root_id, &mut stack, &mut done, &mut order, &mut errs);
        // Incompatibilities are checked against the whole rule set.
        let loaded: BTreeSet<&String> = order.iter().collect();
        for id in &order {
            let m = &self.mods[id];
            for (dep, d) in &m.manifest.dependencies {
                if d.incompatible && loaded.contains(dep) {
                    errs.push(ModError::at(
                        format!("{}/mod.toml", m.rel_dir),
                        0,
                        None,
                        format!("{id} is incompatible with {dep}, which is also loaded"),
                    ));
                }
            }
        }
        if errs.is_empty() {
            Ok(order)
        } else {
            Err(errs)
        }
    }

    fn known(&self) -> String {
        self.mods.keys().cloned().collect::<Vec<_>>().join(", ")
    }

    fn visit(
        &self,
        id: &str,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        order: &mut Vec<String>,
        errs: &mut Vec<ModError>,
    ) {
        if done.contains(id) {
            return;
        }
        if let Some(pos) = stack.iter().position(|s| s == id) {
            let mut cycle = stack[pos..].to_vec();
            cycle.push(id.to_string());
            let file = format!("{}/mod.toml", self.mods[id].rel_dir);
            errs.push(ModError::at(
                file,
                0,
                None,
                format!(
                    "dependency cycle: {}; break it by removing one dependency",
                    cycle.join(" -> ")
                ),
            ));
            return;
        }
        let info = &self.mods[id];
        let file = format!("{}/mod.toml", info.rel_dir);
        stack.push(id.to_string());
        for (dep, d) in info.manifest.all_dependencies() {
            if d.incompatible {
                continue;
            }
            match self.mods.get(&dep) {
                None if d.optional => {}
                None => errs.push(ModError::at(
                    &file,
                    0,
                    None,
                    format!(
                        "{id} needs mod {dep:?} ({}), which is not installed",
                        d.version
                    ),
                )),
                Some(m) if !d.version.matches(&m.manifest.version) => errs.push(ModError::at(
                    &file,
                    0,
                    None,
                    format!(
                        "{id} needs {dep} {} but {} is installed; update one of them",
                        d.version, m.manifest.version
                    ),
                )),
                Some(_) => self.visit(&dep, stack, done, order, errs),
            }
        }
        stack.pop();
        done.insert(id.to_string());
        order.push(id.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OK: &str = "id = \"demo\"\nname = \"Demo\"\nversion = \"1.0.0\"\nengine = \">=0.1\"\n";

    #[test]
    fn parses_minimal_and_defaults() {
        let m = Manifest::parse(OK, "mods/demo/mod.toml").unwrap();
        assert_eq!(m.id, "demo");
        assert_eq!(m.version, Version::new(1, 0, 0));
        assert_eq!(m.entry, "main.lua");
        assert!(m.dependencies.is_empty());
    }

    #[test]
    fn parses_dependency_markers() {
        let t = format!(
            "{OK}extends = \"base\"\n[dependencies]\nx = \"^1\"\ny = {{ version = \"^2\", optional = true }}\nz = {{ version = \"*\", incompatible = true }}\n"
        );
        let m = Manifest::parse(&t, "m.toml").unwrap();
        assert!(!m.dependencies["x"].optional);
        assert!(m.dependencies["y"].optional);
        assert!(m.dependencies["z"].incompatible);
        assert!(m.all_dependencies().contains_key("base"));
    }

    #[test]
    fn reports_every_problem_with_line_and_column() {
        let t = "id = \"Bad_Id\"\nname = \"x\"\nversion = \"one\"\nengine = \"~~\"\nentry = \"../evil.lua\"\n";
        let errs = Manifest::parse(t, "mods/x/mod.toml").unwrap_err();
        let text: Vec<String> = errs.iter().map(ToString::to_string).collect();
        assert_eq!(errs.len(), 4, "{text:?}");
        assert!(
            text[0].starts_with("mods/x/mod.toml:1:6: id \"Bad_Id\""),
            "{}",
            text[0]
        );
        assert!(
            text[1].starts_with("mods/x/mod.toml:3:11: version"),
            "{}",
            text[1]
        );
        assert!(
            text[2].starts_with("mods/x/mod.toml:4:10: engine"),
            "{}",
            text[2]
        );
        assert!(text[3].contains("entry"), "{}", text[3]);
    }

    #[test]
    fn unknown_field_and_missing_field_are_located() {
        let errs = Manifest::parse(&format!("{OK}colour = 3\n"), "m.toml").unwrap_err();
        assert_eq!(errs[0].line, 5, "{}", errs[0]);
        assert!(errs[0].message.contains("colour"), "{}", errs[0]);
        let errs = Manifest::parse("id = \"a\"\n", "m.toml").unwrap_err();
        assert!(
            errs[0].message.contains("name") || errs[0].message.contains("missing"),
            "{}",
            errs[0]
        );
    }

    #[test]
    fn engine_requirement_must_match_this_engine() {
        let t = OK.replace(">=0.1", ">=99");
        let errs = Manifest::parse(&t, "m.toml").unwrap_err();
        assert!(errs[0].message.contains("requires Hexforge"), "{}", errs[0]);
    }

    fn set(mods: &[(&str, &str)]) -> ModSet {
        let mut s = ModSet::default();
        for (id, extra) in mods {
            let t = format!(
                "id = \"{id}\"\nname = \"n\"\nversion = \"1.0.0\"\nengine = \"*\"\n{extra}"
            );
            let manifest = Manifest::parse(&t, "m.toml").unwrap();
            s.mods.insert(
                id.to_string(),
                ModInfo {
                    manifest,
                    dir: PathBuf::new(),
                    rel_dir: format!("mods/{id}"),
                },
            );
        }
        s
    }

    #[test]
    fn resolves_base_before_variant() {
        let s = set(&[
            ("base", ""),
            ("lib", ""),
            (
                "var",
                "extends = \"base\"\n[dependencies]\nlib = \"^1\"\nopt = { version = \"*\", optional = true }\n",
            ),
        ]);
        assert_eq!(s.resolve("var").unwrap(), vec!["base", "lib", "var"]);
    }

    #[test]
    fn reports_cycles_missing_mismatch_and_incompatible() {
        let s = set(&[
            ("a", "[dependencies]\nb = \"*\"\n"),
            ("b", "[dependencies]\na = \"*\"\n"),
        ]);
        let e = s.resolve("a").unwrap_err();
        assert!(e[0].message.contains("a -> b -> a"), "{}", e[0]);
        let s = set(&[("a", "[dependencies]\nm = \"*\"\nb = \"^2\"\n"), ("b", "")]);
        let e = s.resolve("a").unwrap_err();
        assert_eq!(e.len(), 2, "{e:?}");
        let s = set(&[
            (
                "a",
                "[dependencies]\nb = \"*\"\nc = { version = \"*\", incompatible = true }\n",
            ),
            ("b", "[dependencies]\nc = \"*\"\n"),
            ("c", ""),
        ]);
        let e = s.resolve("a").unwrap_err();
        assert!(e[0].message.contains("incompatible"), "{}", e[0]);
    }

    #[test]
    fn discovery_skips_dot_folders() {
        let tmp = tempfile::tempdir().unwrap();
        let mods = tmp.path().join("mods");
        for dir in ["demo", ".versions", ".staging-1"] {
            std::fs::create_dir_all(mods.join(dir)).unwrap();
            std::fs::write(mods.join(dir).join("mod.toml"), OK).unwrap();
        }
        std::fs::create_dir_all(mods.join(".versions/demo@0.9.0")).unwrap();
        std::fs::write(mods.join(".versions/demo@0.9.0/mod.toml"), OK).unwrap();
        let (set, errs) = discover(&mods);
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(set.mods.keys().collect::<Vec<_>>(), vec!["demo"]);
        assert_eq!(set.mods["demo"].dir, mods.join("demo"));
    }

    #[test]
    fn safe_relative_paths() {
        assert!(is_safe_relative("rules/move.lua"));
        for bad in [
            "../x.lua",
            "/etc/passwd",
            "a/../b",
            "a\\b",
            "",
            "c:/x",
            "./a",
        ] {
            assert!(!is_safe_relative(bad), "{bad}");
        }
    }
}
