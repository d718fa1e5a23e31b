//! Games you keep: the running game saved in the command line's save format (what `hexforge
//! play --save` writes and `hexforge replay` checks), and a saved game loaded back by replaying
//! its actions under the rules as they are now.
//!
//! A save made before the rules were edited still loads: the actions are replayed until one is
//! refused, the game stops there (nothing is lost that the new rules allow), and the notes say
//! which action and why, and whether the replay reached the saved state.
//!
//! **What it deliberately does not do:** migrate saves between mod versions (that is `hexforge
//! replay`'s job) or pick files in a dialog: saves go to a `saves/` folder beside the mods
//! folder, named after the mod, scenario, seed and round, and the play panel lists them.
//!
//! ```no_run
//! use hexforge_editor::saves;
//! use hexforge_editor::session::Session;
//! let s = Session::open(std::path::Path::new("mods/tutorial"), None, 1).unwrap();
//! let path = saves::default_path(&s);
//! saves::save_game(&s, &path).unwrap();
//! let loaded = saves::load_game(&s.dir, &path, Vec::new()).unwrap();
//! assert!(loaded.notes.is_empty());
//! ```

use crate::panels::problems::Problem;
use crate::session::Session;
use hexforge_game::record::{SaveFile, compare_locks, load, save, state_hash};
use hexforge_game::{Action, PerformError};
use std::path::{Path, PathBuf};

/// The folder saves go to: `saves/` beside the mods folder the session was loaded from.
#[must_use]
pub fn saves_dir(s: &Session) -> PathBuf {
    s.mods_root
        .parent()
        .map_or_else(|| PathBuf::from("saves"), |p| p.join("saves"))
}

/// Where the running game is saved by default: `<saves>/<mod>-<scenario>-seed<N>-round<R>.json`.
#[must_use]
pub fn default_path(s: &Session) -> PathBuf {
    saves_dir(s).join(format!(
        "{}-{}-seed{}-round{}.json",
        s.mod_id,
        s.scenario,
        s.seed,
        s.game.state().clock.round
    ))
}

/// The saves of `s`'s mod in its saves folder, newest first.
#[must_use]
pub fn saves_of(s: &Session) -> Vec<PathBuf> {
    let prefix = format!("{}-", s.mod_id);
    let Ok(entries) = std::fs::read_dir(saves_dir(s)) else {
        return Vec::new();
    };
    let mut found: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "json")
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with(&prefix))
        })
        .map(|p| {
            let t = std::fs::metadata(&p)
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            (t, p)
        })
        .collect();
    found.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    found.into_iter().map(|(_, p)| p).collect()
}

/// Saves the running game to `path` (its folder is made when missing).
///
/// # Errors
/// The folder or the file cannot be written: the message names the file.
pub fn save_game(s: &Session, path: &Path) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    }
    save(path, &SaveFile::of(&s.game)).map_err(|e| format!("{}: {e}", path.display()))
}

/// Performs `actions` in order on `s`'s game until one is refused or fails: what went wrong, as
/// a note ("replayed 41 of 50 actions: action 42 (`fire` by blue) is refused now: ..."), or
/// nothing when all of them were played. The legal actions are listed again once at the end.
pub fn replay_actions(s: &mut Session, actions: &[Action]) -> Option<String> {
    let total = actions.len();
    let mut note = None;
    for (i, a) in actions.iter().enumerate() {
        let why = match s.game.perform(a) {
            Ok(_) => continue,
            Err(PerformError::Illegal(ill)) => format!("is refused now: {}", ill.reason),
            Err(e) => format!("failed: {e}"),
        };
        note = Some(format!(
            "replayed {i} of {total} actions: action {} (`{}` by {}) {why}",
            i + 1,
            a.id,
            a.side
        ));
        break;
    }
    if let Err(e) = s.refresh_legal() {
        note.get_or_insert_with(|| format!("listing the legal actions failed: {e}"));
    }
    note
}

/// A saved game, loaded: the session, and what the player should know about it.
#[derive(Debug)]
pub struct LoadedGame {
    /// The game, replayed.
    pub session: Session,
    /// Differences from the save: other mod versions, an action the rules now refuse, another
    /// final state. Empty when the save replayed exactly.
    pub notes: Vec<String>,
}

/// Loads the save at `path` into a new session of the mod in `dir`: its scenario, options and
/// seed, then its actions one by one.
///
/// # Errors
/// The file is not a save (the problem names it), or the mod does not load or start.
pub fn load_game(
    dir: &Path,
    path: &Path,
    extra_roots: Vec<PathBuf>,
) -> Result<LoadedGame, Vec<Problem>> {
    let file = load(path).map_err(|e| vec![Problem::new(path.to_path_buf(), 0, e.to_string())])?;
    let record = &file.record;
    let mut s = Session::open_game(
        dir,
        Some(&record.scenario),
        record.options.clone(),
        record.seed,
        extra_roots,
    )?;
    let mut notes: Vec<String> = compare_locks(&record.mods, &s.game.state().mods)
        .iter()
        .map(ToString::to_string)
        .collect();
    notes.extend(replay_actions(&mut s, &record.actions));
    if notes.is_empty() && state_hash(s.game.state()) != file.state_hash {
        notes.push("the replay reached another state than the save's (the rules changed)".into());
    }
    Ok(LoadedGame { session: s, notes })
}
