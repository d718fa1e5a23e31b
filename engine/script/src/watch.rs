//! Hot reload: watch mod folders, rebuild the rule set on change, keep the game.
//!
//! - [`ModWatcher`]: one notify watcher (inotify allows few instances: share it) with a ~20 ms
//!   debouncer over any number of folders. Changed paths are collected; a new folder is walked
//!   because files written right after their folder was created are often missed.
//! - [`reload`]: builds a fresh VM and loads the rule set again; on success the caller swaps the
//!   rules in (the state is kept) and gets a list of pieces whose type no longer exists; on
//!   failure the caller keeps the old rules and shows the errors.
//! - [`replay_report`]: replays a game record under old and new rules side by side and names the
//!   first action whose outcome (accepted / refused / resulting state) differs.
//!
//! Deliberately not here: deciding when to reload (the editor or CLI polls the watcher) and any
//! UI.
//!
//! ```no_run
//! use hexforge_script::watch::ModWatcher;
//! let mut w = ModWatcher::new(std::time::Duration::from_millis(20)).unwrap();
//! w.watch(std::path::Path::new("mods/demo")).unwrap();
//! let changed = w.wait(std::time::Duration::from_secs(1));
//! ```

use crate::error::ModError;
use crate::loader::{LoadOptions, load_mods};
use crate::rules::LuaRules;
use hexforge_game::record::{GameRecord, state_hash};
use hexforge_game::rules::RulesError;
use hexforge_game::{Action, Game, GameState, Outcome};
use notify_debouncer_mini::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_mini::{DebounceEventResult, Debouncer, new_debouncer};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// Errors of the watcher itself.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    /// notify failed (e.g. too many inotify instances, folder missing).
    #[error("file watcher: {0}")]
    Notify(#[from] notify_debouncer_mini::notify::Error),
}

/// One debounced watcher over several folders.
pub struct ModWatcher {
    debouncer: Debouncer<RecommendedWatcher>,
    rx: Receiver<DebounceEventResult>,
    roots: Vec<PathBuf>,
}

impl std::fmt::Debug for ModWatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModWatcher")
            .field("roots", &self.roots)
            .finish_non_exhaustive()
    }
}

impl ModWatcher {
    /// A watcher with the given debounce time (20 ms is a good default).
    ///
    /// # Errors
    /// When the OS watcher cannot be created.
    pub fn new(debounce: Duration) -> Result<ModWatcher, WatchError> {
        let (tx, rx) = channel();
        let debouncer = new_debouncer(debounce, tx)?;
        Ok(ModWatcher {
            debouncer,
            rx,
            roots: Vec::new(),
        })
    }

    /// Adds a folder (recursively); watching the same folder twice is a no-op.
    ///
    /// # Errors
    /// When the folder cannot be watched.
    pub fn watch(&mut self, dir: &Path) -> Result<(), WatchError> {
        if self.roots.iter().any(|r| r == dir) {
            return Ok(());
        }
        self.debouncer
            .watcher()
            .watch(dir, RecursiveMode::Recursive)?;
        self.roots.push(dir.to_path_buf());
        Ok(())
    }

    /// Changed files since the last call, sorted, without waiting.
    pub fn poll(&self) -> Vec<PathBuf> {
        let mut out = BTreeSet::new();
        while let Ok(ev) = self.rx.try_recv() {
            collect(ev, &mut out);
        }
        out.into_iter().collect()
    }

    /// Waits up to `timeout` for the first batch of changes, then returns everything pending.
    pub fn wait(&self, timeout: Duration) -> Vec<PathBuf> {
        let mut out = BTreeSet::new();
        if let Ok(ev) = self.rx.recv_timeout(timeout) {
            collect(ev, &mut out);
        }
        while let Ok(ev) = self.rx.try_recv() {
            collect(ev, &mut out);
        }
        out.into_iter().collect()
    }
}

fn collect(ev: DebounceEventResult, out: &mut BTreeSet<PathBuf>) {
    let Ok(events) = ev else { return };
    for e in events {
        if e.path.is_dir() {
            // Why: a file written right after its folder was created may have no event of its own.
            for f in walkdir::WalkDir::new(&e.path)
                .into_iter()
                .filter_map(Result::ok)
                .filter(|f| f.file_type().is_file())
            {
                out.insert(f.path().to_path_buf());
            }
        } else {
            out.insert(e.path);
        }
    }
}

/// What a successful reload found about the running game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReloadReport {
    /// Pieces (id, type) whose type the new rules no longer declare.
    pub orphaned_pieces: Vec<(u32, String)>,
}

/// Loads the rule set again in a fresh VM and checks it against the running game's state.
///
/// # Errors
/// Every load problem; the caller keeps its old rules.
pub fn reload(
    mods_root: &Path,
    root_id: &str,
    opts: &LoadOptions,
    state: &GameState,
) -> Result<(LuaRules, ReloadReport), Vec<ModError>> {
    let rules = LuaRules::new(load_mods(mods_root, root_id, opts)?)?;
    let orphaned_pieces = state
        .pieces
        .values()
        .filter(|p| !rules.decls().piece_types.contains_key(&p.kind))
        .map(|p| (p.id.0, p.kind.clone()))
        .collect();
    Ok((rules, ReloadReport { orphaned_pieces }))
}

/// The first action whose outcome differs between two rule sets.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// Index into the record's actions (0-based); `None` when the setup already differs.
    pub index: Option<usize>,
    /// The action.
    pub action: Option<Action>,
    /// What happened under the old rules.
    pub old: String,
    /// What happens under the new rules.
    pub new: String,
}

/// Result of [`replay_report`].
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayReport {
    /// Actions replayed under both rule sets before stopping.
    pub compared: usize,
    /// The first difference, if any.
    pub first_difference: Option<Difference>,
}

fn describe(
    r: &Result<Option<Outcome>, hexforge_game::game::PerformError>,
    state: &GameState,
) -> String {
    match r {
        Ok(_) => format!("accepted, state {}", &state_hash(state)[..12]),
        Err(e) => format!("refused: {e}"),
    }
}

/// Replays `record` under `old` and `new` rules and reports the first differing action.
///
/// # Errors
/// Never for rule faults (they are differences); only kept for future use.
pub fn replay_report(
    old: &LuaRules,
    new: &LuaRules,
    record: &GameRecord,
) -> Result<ReplayReport, RulesError> {
    let start = |_: &LuaRules| {
        GameState::new(
            record.mods.clone(),
            &record.scenario,
            record.options.clone(),
            record.seed,
        )
    };
    let (g_old, g_new) = (Game::new(old, start(old)), Game::new(new, start(new)));
    let (mut g_old, mut g_new) = match (g_old, g_new) {
        (Ok(a), Ok(b)) => (a, b),
        (a, b) => {
            let d = |g: &Result<Game<&LuaRules>, _>| match g {
                Ok(_) => "set up".to_string(),
                Err(e) => format!("setup failed: {e}"),
            };
            return Ok(ReplayReport {
                compared: 0,
                first_difference: Some(Difference {
                    index: None,
                    action: None,
                    old: d(&a),
                    new: d(&b),
                }),
            });
        }
    };
    if state_hash(g_old.state()) != state_hash(g_new.state()) {
        return Ok(ReplayReport {
            compared: 0,
            first_difference: Some(Difference {
                index: None,
                action: None,
                old: format!("setup state {}", &state_hash(g_old.state())[..12]),
                new: format!("setup state {}", &state_hash(g_new.state())[..12]),
            }),
        });
    }
    for (i, a) in record.actions.iter().enumerate() {
        let ro = g_old.perform(a);
        let rn = g_new.perform(a);
        let (so, sn) = (describe(&ro, g_old.state()), describe(&rn, g_new.state()));
        if so != sn {
            return Ok(ReplayReport {
                compared: i + 1,
                first_difference: Some(Difference {
                    index: Some(i),
                    action: Some(a.clone()),
                    old: so,
                    new: sn,
                }),
            });
        }
    }
    Ok(ReplayReport {
        compared: record.actions.len(),
        first_difference: None,
    })
}
