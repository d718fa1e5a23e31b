//! `hexforge install <archive>`: verify a `.hexpack` and install it into the user mods folder.
//!
//! The archive is read and checked in memory first (hostile archives are rejected with the
//! reason), then its dependencies are matched against the installed and bundled mods (conflicts
//! are explained in plain words), then it is installed; an older version that saved games use
//! is kept. On any failure the installed mods are unchanged.

use crate::cli::InstallArgs;
use anyhow::Context;
use hexforge_pack::archive::{Limits, read_pack_file};
use hexforge_pack::{ModStore, SaveIndex};
use hexforge_script::paths;
use std::io::Write;
use std::process::ExitCode;

/// Runs `install`.
///
/// # Errors
/// A rejected archive, a dependency conflict, no user mods folder, or an I/O error.
pub fn run(args: &InstallArgs, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let pack = read_pack_file(&args.archive, &Limits::default())
        .with_context(|| format!("{}: rejected", args.archive.display()))?;
    let root = paths::require_user_mods_dir()?;
    let store = ModStore::new(&root);
    let saves = SaveIndex::open(&root)?;
    let bundled = paths::bundled_dir();
    let others: Vec<_> = bundled.is_dir().then_some(bundled).into_iter().collect();
    let r = store
        .install(&pack, &others, &saves)
        .with_context(|| format!("{}: not installed", args.archive.display()))?;
    if r.unchanged {
        writeln!(
            out,
            "{} {} is already installed ({})",
            r.id,
            r.version,
            r.dir.display()
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "installed {} {} ({} files) into {}",
        r.id,
        r.version,
        pack.files.len(),
        r.dir.display()
    )?;
    if let Some(old) = &r.replaced {
        writeln!(out, "  replaces {} {old}", r.id)?;
    }
    for (what, users) in &r.kept {
        writeln!(out, "  kept {what}: {} saved game(s) use it", users.len())?;
    }
    for what in &r.pruned {
        writeln!(out, "  removed {what}: no saved game uses it")?;
    }
    Ok(ExitCode::SUCCESS)
}
