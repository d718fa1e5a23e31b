//! `hexforge list`: the installed mods, the kept older versions and the saved games that use
//! them; and [`register_save`], which `play --save` calls so those saves are known.
//!
//! Bundled mods (`./mods`) are not listed: they are not installed and cannot be removed.

use hexforge_game::record::load;
use hexforge_pack::{InstalledMod, ModStore, SaveIndex};
use hexforge_script::paths;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Runs `list`.
///
/// # Errors
/// No user mods folder, a damaged saves index, or an I/O error.
pub fn run(out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let root = paths::require_user_mods_dir()?;
    let store = ModStore::new(&root);
    let saves = SaveIndex::open(&root)?;
    let active = store.active();
    let kept = store.kept();
    writeln!(out, "user mods folder: {}", root.display())?;
    if active.is_empty() && kept.is_empty() {
        writeln!(out, "nothing installed (hexforge install <archive>)")?;
        return Ok(ExitCode::SUCCESS);
    }
    let line = |m: &InstalledMod, out: &mut dyn Write| -> anyhow::Result<()> {
        let users = saves.users(&m.manifest.id, &m.manifest.version.to_string());
        let used = match users.len() {
            0 => String::new(),
            1 => "  (used by 1 save)".to_owned(),
            n => format!("  (used by {n} saves)"),
        };
        writeln!(
            out,
            "  {} {}  {}{used}",
            m.manifest.id, m.manifest.version, m.manifest.name
        )?;
        for u in users {
            writeln!(out, "      {}", u.display())?;
        }
        Ok(())
    };
    writeln!(out, "installed:")?;
    for m in &active {
        line(m, out)?;
    }
    if !kept.is_empty() {
        writeln!(out, "kept older versions (for saved games):")?;
        for m in &kept {
            line(m, out)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Registers a save in the user mods folder's saves index when it uses an installed (or
/// kept) mod version; returns whether it did. Saves of bundled mods only are not registered.
///
/// # Errors
/// An unreadable save or index, or an I/O error writing the index.
pub fn register_save(path: &Path) -> anyhow::Result<bool> {
    let Some(root) = paths::user_mods_dir() else {
        return Ok(false);
    };
    let file = load(path)?;
    let store = ModStore::new(&root);
    let uses_installed = file
        .record
        .mods
        .iter()
        .any(|m| store.find(&m.id, &m.version).is_some());
    if !uses_installed {
        return Ok(false);
    }
    let mut saves = SaveIndex::open(&root)?;
    saves.register(path);
    saves.write()?;
    Ok(true)
}
