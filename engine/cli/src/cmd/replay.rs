//! `hexforge replay <FILE>`: replay a save and check it reaches the saved state.
//!
//! Without `--mod`, the save's lock picks the mod versions: for each mod it names, the bundled
//! or installed version when it is the one the save was made with, else a kept older version
//! (`.versions/<id>@<version>` in the user mods folder). When a version is not available any
//! more, the mod's migration (`game.migrations[id]`) turns the save into one the installed
//! version replays; without one, it says plainly which version the save was made with and
//! which is installed.

use crate::cli::ReplayArgs;
use crate::runtime;
use anyhow::{Context, bail};
use hexforge_game::record::{SaveFile, compare_locks, load};
use hexforge_game::{ModLock, ReplayError, Rules, replay, state_hash};
use hexforge_pack::ModStore;
use hexforge_script::manifest::Manifest;
use hexforge_script::migrate::migrate_record;
use hexforge_script::paths;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Runs `replay`: exit 0 when the replayed state hash equals the saved one (or the save was
/// migrated and replays), 1 when it differs.
///
/// # Errors
/// An unreadable or foreign save, a missing mod or version, or an action that fails on replay.
pub fn run(args: &ReplayArgs, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let file = load(&args.file)?;
    let same = match &args.module {
        Some(m) => replay_with(&file, &paths::resolve(m)?, out),
        None => replay_by_lock(&file, out),
    }
    .map_err(|e| {
        // A replay failure is the save's: name it (mod loading errors name their own files).
        if e.is::<ReplayError>() {
            e.context(format!("{} does not replay", args.file.display()))
        } else {
            e
        }
    })?;
    Ok(if same {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn replay_with(file: &SaveFile, dir: &Path, out: &mut dyn Write) -> anyhow::Result<bool> {
    let loaded = runtime::load(dir)?;
    for m in compare_locks(&file.record.mods, &loaded.locks) {
        eprintln!("warning: {m}");
    }
    check_save(file, loaded.rules(), out)
}

/// Where one locked mod can be found.
enum Found {
    /// The version the save names, in this folder (`true` when it is a kept older version).
    Exact(PathBuf, bool),
    /// Only another version (this one) is installed.
    Other(String),
    /// Not available at all.
    Missing,
}

fn version_of(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("mod.toml")).ok()?;
    Manifest::parse(&text, "mod.toml")
        .ok()
        .map(|m| m.version.to_string())
}

fn locate(lock: &ModLock, store: Option<&ModStore>) -> Found {
    let mut other = None;
    for dir in paths::search_dirs() {
        let d = dir.join(&lock.id);
        match version_of(&d) {
            Some(v) if v == lock.version => return Found::Exact(d, false),
            Some(v) if other.is_none() => other = Some((d, v)),
            _ => {}
        }
    }
    if let Some(kept) = store.and_then(|s| s.find(&lock.id, &lock.version)) {
        return Found::Exact(kept.dir, kept.kept);
    }
    match other {
        Some((_, v)) => Found::Other(v),
        None => Found::Missing,
    }
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}

fn replay_by_lock(file: &SaveFile, out: &mut dyn Write) -> anyhow::Result<bool> {
    let main = file
        .record
        .mods
        .last()
        .context("the save names no mod; pass --mod <MOD>")?;
    let store = paths::user_mods_dir().map(ModStore::new);
    let mut exact = Vec::new();
    let mut uses_kept = false;
    let mut differ = Vec::new();
    for lock in &file.record.mods {
        match locate(lock, store.as_ref()) {
            Found::Exact(dir, kept) => {
                uses_kept |= kept;
                exact.push((lock, dir, kept));
            }
            Found::Other(installed) => differ.push((lock.clone(), installed)),
            Found::Missing => bail!(
                "this save was made with {} {}, which is not installed (install it, or a version with a migration)",
                lock.id,
                lock.version
            ),
        }
    }
    if differ.is_empty() && !uses_kept {
        return replay_with(file, &paths::resolve(&main.id)?, out);
    }
    if differ.is_empty() {
        // Every version the save names exists, some only as kept copies: load exactly those,
        // from a private folder, so the installed newer versions do not shadow them.
        let tmp = tempfile::tempdir()?;
        let root = tmp.path().join("mods");
        for (lock, dir, kept) in &exact {
            copy_dir(dir, &root.join(&lock.id)).with_context(|| format!("{}", dir.display()))?;
            if *kept {
                writeln!(
                    out,
                    "using the kept {} {} (the version the save was made with)",
                    lock.id, lock.version
                )?;
            }
        }
        return replay_with(file, &root.join(&main.id), out);
    }
    // Some version is gone: load the installed ones and migrate the save to them.
    let dir = paths::resolve(&main.id)?;
    let loaded = runtime::load(&dir)?;
    let mut record = file.record.clone();
    for (lock, installed) in &differ {
        record = migrate_record(
            loaded.lua.loaded(),
            &record,
            &lock.id,
            &lock.version,
            installed,
        )
        .map_err(|e| {
            anyhow::anyhow!(
                "this save was made with {id} {from}, but {id} {installed} is installed and {from} is not kept.\n{e}",
                id = lock.id,
                from = lock.version
            )
        })?;
        writeln!(
            out,
            "migrated the save from {} {} to {installed}",
            lock.id, lock.version
        )?;
    }
    record.mods = loaded.locks.clone();
    let game = replay(&record, loaded.rules())?;
    writeln!(out, "{}", state_hash(game.state()))?;
    writeln!(
        out,
        "replayed {} actions under the installed versions (not compared with the saved state: the rules changed)",
        record.actions.len()
    )?;
    Ok(true)
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
