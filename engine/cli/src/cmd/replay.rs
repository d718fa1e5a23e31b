//! `hexforge replay <FILE>`: replay a save and check it reaches the saved state.

use crate::cli::ReplayArgs;
use crate::{modpath, runtime};
use anyhow::Context;
use hexforge_game::record::{SaveFile, load};
use hexforge_game::{Rules, replay, state_hash};
use std::io::Write;
use std::process::ExitCode;

/// Runs `replay`: exit 0 when the replayed state hash equals the saved one, 1 when it differs.
///
/// # Errors
/// An unreadable or foreign save, a missing mod, or an action that fails on replay.
pub fn run(args: &ReplayArgs, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let file = load(&args.file)?;
    let module = match &args.module {
        Some(m) => m.clone(),
        None => file
            .record
            .mods
            .first()
            .map(|m| m.id.clone())
            .context("the save names no mod; pass --mod <MOD>")?,
    };
    let dir = modpath::resolve(&module)?;
    let loaded = runtime::load(&dir)?;
    for saved in &file.record.mods {
        match loaded.locks.iter().find(|l| l.id == saved.id) {
            Some(now) if now.content_hash != saved.content_hash => eprintln!(
                "warning: mod `{}` changed since the save ({} -> {})",
                saved.id, saved.version, now.version
            ),
            Some(_) => {}
            None => eprintln!("warning: mod `{}` is not loaded", saved.id),
        }
    }
    let same = check_save(&file, loaded.rules(), out)?;
    Ok(if same {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Replays a save under `rules`, prints the resulting state hash and whether it matches the
/// saved one; returns whether it does.
///
/// # Errors
/// An action that fails on replay, or an I/O error.
pub fn check_save<R: Rules>(
    file: &SaveFile,
    rules: R,
    out: &mut dyn Write,
) -> anyhow::Result<bool> {
    let game = replay(&file.record, rules)?;
    let found = state_hash(game.state());
    writeln!(out, "{found}")?;
    let same = found == file.state_hash;
    if same {
        writeln!(
            out,
            "replayed {} actions: same state as saved",
            file.record.actions.len()
        )?;
    } else {
        writeln!(
            out,
            "replayed {} actions: DIFFERENT state (saved {})",
            file.record.actions.len(),
            file.state_hash
        )?;
    }
    Ok(same)
}
