//! `hexforge new <id> [--extends <mod>] [--in <folder>]`: start a mod from a template.
//!
//! A new game (`templates/mod/`) or a variant of an existing mod (`templates/variant/`); either
//! one loads, passes its one test and plays to the end with the random bots as made. The
//! templates are embedded in the binary; `{{id}}`, `{{base}}`, `{{base_version}}` and
//! `{{scenario}}` are filled in. An existing folder is never overwritten.

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
    let (template, vars, what) = match &args.extends {
        None => (
            MOD_TEMPLATE,
            vec![("id", args.id.clone())],
            "a new game".to_owned(),
        ),
        Some(base) => {
            let base_dir = paths::resolve(base)?;
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
    writeln!(out, "created {} ({what}) in {}", args.id, dir.display())?;
    let shown = dir.display();
    writeln!(
        out,
        "next:\n  hexforge test {shown}\n  hexforge play {shown}\n  hexforge watch {shown}   (edit with hot reload)\n  hexforge pack {shown}"
    )?;
    Ok(ExitCode::SUCCESS)
}
