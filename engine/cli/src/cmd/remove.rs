//! `hexforge remove <id> [--version v] [--force]`: remove an installed mod.
//!
//! Refuses while a registered saved game uses a version to remove (naming the saves), or while
//! other installed mods need the mod and no version of it would be left (naming them), unless
//! `--force`. Removing the installed version brings back the newest kept one, if any.

use crate::cli::RemoveArgs;
use anyhow::Context;
use hexforge_pack::{ModStore, SaveIndex};
use hexforge_script::paths;
use std::io::Write;
use std::process::ExitCode;

/// Runs `remove`.
///
/// # Errors
/// Not installed, used by saves or needed by installed mods (without `--force`), a bad
/// version, or an I/O error.
pub fn run(args: &RemoveArgs, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let version = args
        .version
        .as_deref()
        .map(semver::Version::parse)
        .transpose()
        .context("--version: write a version like 1.0.0")?;
    let root = paths::require_user_mods_dir()?;
    let store = ModStore::new(&root);
    let saves = SaveIndex::open(&root)?;
    let r = store.remove(&args.id, version.as_ref(), args.force, &saves)?;
    for what in &r.removed {
        writeln!(out, "removed {what}")?;
    }
    if let Some(back) = &r.restored {
        writeln!(
            out,
            "{back} (kept for saved games) is the installed version again"
        )?;
    }
    for d in &r.dependents {
        writeln!(
            out,
            "warning: {d} depends on {} and will not load until it is installed again",
            args.id
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
