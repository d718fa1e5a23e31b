//! `hexforge new <id> [--extends <mod>] [--in <folder>]`: start a mod from a template.
//!
//! A new game (`templates/mod/`) or a variant of an existing mod (`templates/variant/`); either
//! one loads, passes its one test and plays to the end with the random bots as made. The
//! templates are embedded in the binary; `{{id}}`, `{{base}}`, `{{base_version}}` and
//! `{{scenario}}` are filled in. An existing folder is never overwritten.
//!
//! Each new mod gets a `.luarc.json` for the Lua language server of the author's editor (LuaLS,
//! EmmyLua: completion of `ctx:` and `game.*`, warnings on typos). It points at the engine's
//! definition files: the repository's `scripts/types` when the mod is made in its `mods/`
//! folder, otherwise a copy written once to `.hexforge-types/` next to the mod (shared by the
//! mods made in that folder, refreshed by each `hexforge new`). A variant's config also lists its
//! base mod's folder, so `require` of the base's modules resolves.

use crate::cli::NewArgs;
use crate::runtime;
use anyhow::{Context, bail};
use hexforge_script::manifest::is_valid_mod_id;
use hexforge_script::paths;
use std::io::Write;
use std::process::ExitCode;

/// The template of a new game: (path in the mod, text).
pub const MOD_TEMPLATE: &[(&str, &str)] = &[
    ("mod.toml", include_str!("../../templates/mod/mod.toml")),
    ("main.lua", include_str!("../../templates/mod/main.lua")),
    (
        "scenarios/first.toml",
        include_str!("../../templates/mod/scenarios/first.toml"),
    ),
    (
        "tests/first.lua",
        include_str!("../../templates/mod/tests/first.lua"),
    ),
    ("README.md", include_str!("../../templates/mod/README.md")),
];

/// The template of a variant: (path in the mod, text).
pub const VARIANT_TEMPLATE: &[(&str, &str)] = &[
    ("mod.toml", include_str!("../../templates/variant/mod.toml")),
    ("main.lua", include_str!("../../templates/variant/main.lua")),
    (
        "tests/variant.lua",
        include_str!("../../templates/variant/tests/variant.lua"),
    ),
    (
        "README.md",
        include_str!("../../templates/variant/README.md"),
    ),
];

/// The engine's Lua definition files (`scripts/types`), for mods made outside the repository.
pub const TYPES: &[(&str, &str)] = &[
    (
        "hexforge.d.lua",
        include_str!("../../../../scripts/types/hexforge.d.lua"),
    ),
    (
        "hexforge-test.d.lua",
        include_str!("../../../../scripts/types/hexforge-test.d.lua"),
    ),
];

/// The `.luarc.json` of a new mod: Lua 5.4, `require` from the mod's folder, and the library
/// folders (paths as written, relative to the mod or absolute).
#[must_use]
pub fn luarc(library: &[String]) -> String {
    let libs: Vec<String> = library
        .iter()
        .map(|l| serde_json::Value::String(l.clone()).to_string())
        .collect();
    format!(
        "{{\n  \"$schema\": \"https://raw.githubusercontent.com/LuaLS/vscode-lua/master/setting/schema.json\",\n  \"runtime.version\": \"Lua 5.4\",\n  \"runtime.path\": [\"?.lua\", \"?/init.lua\"],\n  \"workspace.library\": [{}]\n}}\n",
        libs.join(", ")
    )
}

/// Where the definitions are for a mod made in `parent`: the repository's `scripts/types` when
/// `parent` is a repository's `mods/` folder (as written in `.luarc.json`, relative to the mod),
/// else `.hexforge-types` in `parent`, written now.
fn types_for(parent: &std::path::Path) -> anyhow::Result<String> {
    if parent.join("../scripts/types/hexforge.d.lua").is_file() {
        return Ok("../../scripts/types".to_owned());
    }
    let dir = parent.join(".hexforge-types");
    std::fs::create_dir_all(&dir).with_context(|| format!("{}", dir.display()))?;
    for (name, text) in TYPES {
        let path = dir.join(name);
        std::fs::write(&path, text).with_context(|| format!("{}", path.display()))?;
    }
    Ok("../.hexforge-types".to_owned())
}

/// The path of `to` as seen from the folder `from` (both as given: made absolute first), for a
/// config that keeps working when the folders move together.
fn relative(from: &std::path::Path, to: &std::path::Path) -> String {
    let abs = |p: &std::path::Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let (from, to) = (abs(from), abs(to));
    let common = from
        .components()
        .zip(to.components())
        .take_while(|(a, b)| a == b)
        .count();
    if common == 0 {
        return to.display().to_string();
    }
    let ups = from.components().count() - common;
    let mut out: Vec<String> = vec!["..".to_owned(); ups];
    out.extend(
        to.components()
            .skip(common)
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    if out.is_empty() {
        ".".to_owned()
    } else {
        out.join("/")
    }
}

/// Fills `{{key}}` placeholders.
#[must_use]
pub fn fill(text: &str, vars: &[(&str, &str)]) -> String {
    vars.iter().fold(text.to_owned(), |t, (k, v)| {
        t.replace(&format!("{{{{{k}}}}}"), v)
    })
}

/// Runs `new`.
///
/// # Errors
/// An invalid id, an existing folder, a base mod that cannot be found or does not load, or an
/// I/O error.
pub fn run(args: &NewArgs, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    if !is_valid_mod_id(&args.id) {
        bail!(
            "{:?} is not a mod id: use lowercase letters, digits and '-', starting with a letter (e.g. \"my-variant\")",
            args.id
        );
    }
    let dir = args.parent.join(&args.id);
    if dir.exists() {
        bail!(
            "{} already exists; pick another id or folder",
            dir.display()
        );
    }
    let mut library = vec![types_for(&args.parent)?];
    let (template, vars, what) = match &args.extends {
        None => (
            MOD_TEMPLATE,
            vec![("id", args.id.clone())],
            "a new game".to_owned(),
        ),
        Some(base) => {
            let base_dir = paths::resolve(base)?;
            library.push(relative(&dir, &base_dir));
            let loaded = runtime::load(&base_dir)
                .with_context(|| format!("{base}: the base mod does not load"))?;
            let base_lock = loaded
                .locks
                .last()
                .context("the base mod has no manifest")?
                .clone();
            let scenario = loaded
                .scenarios
                .first()
                .cloned()
                .with_context(|| format!("{base}: the base mod has no scenario to play"))?;
            (
                VARIANT_TEMPLATE,
                vec![
                    ("id", args.id.clone()),
                    ("base", base_lock.id.clone()),
                    ("base_version", base_lock.version.clone()),
                    ("scenario", scenario),
                ],
                format!("a variant of {} {}", base_lock.id, base_lock.version),
            )
        }
    };
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    for (rel, text) in template {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).with_context(|| format!("{}", parent.display()))?;
        }
        std::fs::write(&path, fill(text, &vars)).with_context(|| format!("{}", path.display()))?;
    }
    let config = dir.join(".luarc.json");
    std::fs::write(&config, luarc(&library)).with_context(|| format!("{}", config.display()))?;
    writeln!(out, "created {} ({what}) in {}", args.id, dir.display())?;
    let shown = dir.display();
    writeln!(
        out,
        "next:\n  hexforge test {shown}\n  hexforge play {shown}\n  hexforge watch {shown}   (edit with hot reload)\n  hexforge pack {shown}\n(.luarc.json sets up the Lua language server of your editor: docs/MODDING.md, \"Set up your editor\")"
    )?;
    Ok(ExitCode::SUCCESS)
}
