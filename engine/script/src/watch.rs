//! Hot reload: watch mod folders, rebuild the rule set on change, keep the game.
//!
//! - [`ModWatcher`]: one notify watcher (inotify allows few instances: share it) with a ~20 ms
//!   debouncer over any number of folders. Changed paths are collected; a new folder is walked
//!   because files written right after their folder was created are often missed.
//! - [`reload`]: builds a fresh VM and loads the rule set again; on success the caller swaps the
//!   rules in (the state is kept) and gets a list of pieces whose type no longer exists; on
//!   failure the caller keeps the old rules and shows the errors.
//! - [`replay_report`]: replays a game record under old and new rules side by side and names the
//!   first action whose outcome (accepted / refused / resulting state) differs. [`ReplayJob`] does
//!   the same in slices ([`ReplayJob::step`] with a [`Budget`]) so a UI can show progress and
//!   cancel (drop the job); `replay_report` is that job run to its end, so both report the same.
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
use hexforge_game::rules::{Rules, RulesError};
use hexforge_game::{Action, Game, GameState, Outcome};
use notify_debouncer_mini::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_mini::{DebounceEventResult, Debouncer, new_debouncer};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
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
    /// Size and modification time of every file last seen. Why: inotify also reports reads
    /// (loading the mod opens its files), and the debouncer cannot tell them from writes; a path
    /// counts as changed only when its size or mtime moved (a `stat`, which makes no event).
    seen: RefCell<BTreeMap<PathBuf, Option<Stamp>>>,
}

/// What identifies a file's contents without reading it.
type Stamp = (u64, std::time::SystemTime);

fn stamp(path: &Path) -> Option<Stamp> {
    let m = std::fs::metadata(path).ok()?;
    Some((m.len(), m.modified().ok()?))
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
            seen: RefCell::new(BTreeMap::new()),
        })
    }

    /// Adds a folder (recursively); watching the same folder twice, however it is named, is a
    /// no-op. Changed paths are reported canonical whatever the spelling given here.
    ///
    /// # Errors
    /// When the folder cannot be watched.
    pub fn watch(&mut self, dir: &Path) -> Result<(), WatchError> {
        // Why canonical: notify names events by the watched path joined to the working folder
        // (`/repo/editor/../mods/x/a.lua` for `../mods/x`), and the files' stamps are kept by
        // path; two spellings of one file made every read look like a change (a reload on
        // opening) and one spelling's stamps never matched the other's events.
        let dir = &canonical(dir);
        if self.roots.iter().any(|r| r == dir) {
            return Ok(());
        }
        self.debouncer
            .watcher()
            .watch(dir, RecursiveMode::Recursive)?;
        self.roots.push(dir.clone());
        let mut seen = self.seen.borrow_mut();
        for f in walkdir::WalkDir::new(dir)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|f| f.file_type().is_file())
        {
            seen.insert(f.path().to_path_buf(), stamp(f.path()));
        }
        Ok(())
    }

    /// Changed files since the last call, sorted, without waiting.
    pub fn poll(&self) -> Vec<PathBuf> {
        let mut out = BTreeSet::new();
        while let Ok(ev) = self.rx.try_recv() {
            collect(ev, &mut out);
        }
        self.changed(out)
    }

    /// Waits up to `timeout` for the first batch of real changes (reads do not count), then
    /// returns everything pending; empty when nothing changed in time.
    pub fn wait(&self, timeout: Duration) -> Vec<PathBuf> {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let mut out = BTreeSet::new();
            match self.rx.recv_timeout(left) {
                Ok(ev) => collect(ev, &mut out),
                Err(_) => return Vec::new(),
            }
            while let Ok(ev) = self.rx.try_recv() {
                collect(ev, &mut out);
            }
            let changed = self.changed(out);
            if !changed.is_empty() {
                return changed;
            }
        }
    }

    /// Keeps the paths whose size or mtime differ from the last time they were seen.
    fn changed(&self, candidates: BTreeSet<PathBuf>) -> Vec<PathBuf> {
        let mut seen = self.seen.borrow_mut();
        candidates
            .into_iter()
            .filter(|p| {
                let now = stamp(p);
                seen.insert(p.clone(), now) != Some(now)
            })
            .collect()
    }
}

/// `path` canonical; a path that no longer exists (a temporary file renamed away) has its
/// folder made canonical and keeps its name.
fn canonical(path: &Path) -> PathBuf {
    if let Ok(p) = path.canonicalize() {
        return p;
    }
    match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) => dir
            .canonicalize()
            .map_or_else(|_| path.to_path_buf(), |d| d.join(name)),
        _ => path.to_path_buf(),
    }
}

fn collect(ev: DebounceEventResult, out: &mut BTreeSet<PathBuf>) {
    let Ok(events) = ev else { return };
    for e in events {
        if e.path.is_dir() {
            // Why: a file written right after its folder was created may have no event of its own.
            for f in walkdir::WalkDir::new(canonical(&e.path))
                .into_iter()
                .filter_map(Result::ok)
                .filter(|f| f.file_type().is_file())
            {
                out.insert(f.path().to_path_buf());
            }
        } else {
            out.insert(canonical(&e.path));
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

/// How much work one [`ReplayJob::step`] may do. Either way a step compares at least one
/// action (so every step makes progress).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Stop once this much wall time has passed (checked after each action). Why a clock here:
    /// it only decides where a slice ends, never what the report says.
    Time(Duration),
    /// Compare at most this many actions.
    Actions(usize),
}

/// How far a [`ReplayJob`] is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Actions compared so far.
    pub done: usize,
    /// Actions in the record.
    pub total: usize,
    /// Whether the job has its report (all compared, or a difference found).
    pub finished: bool,
}

/// [`replay_report`] in slices, for a UI that must not freeze: create it after a reload, call
/// [`ReplayJob::step`] once per frame with the new rules, read [`ReplayJob::report`] when
/// [`Progress::finished`]. Dropping it cancels it.
///
/// It owns the old rules (`O`, by value in the editor; a reference in [`replay_report`]) and a
/// copy of the record, and borrows nothing between steps: the new rules are passed to every
/// step, so the job can sit beside the game that owns them.
///
/// Why it replays the old rules instead of reading the game's own history: a game's history may
/// have been made under several rule versions (one per earlier reload), its undo snapshots are
/// limited and carry no log, and the report must equal the CLI's one-shot report exactly.
pub struct ReplayJob<O: Rules = LuaRules> {
    record: GameRecord,
    /// The game under the old rules (`None` once finished).
    old: Option<Game<O>>,
    /// The state of the game under the new rules (a game is rebuilt around it in each step).
    new_state: Option<GameState>,
    /// The next action to compare.
    next: usize,
    report: Option<ReplayReport>,
}

impl<O: Rules> std::fmt::Debug for ReplayJob<O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReplayJob")
            .field("progress", &self.progress())
            .field("report", &self.report)
            .finish_non_exhaustive()
    }
}

fn start_state(record: &GameRecord) -> GameState {
    GameState::new(
        record.mods.clone(),
        &record.scenario,
        record.options.clone(),
        record.seed,
    )
}

impl<O: Rules> ReplayJob<O> {
    /// Starts a replay of `record`: sets the game up under both rule sets and compares the
    /// setups (a difference there finishes the job at once).
    #[must_use]
    pub fn new(old: O, new: &LuaRules, record: GameRecord) -> ReplayJob<O> {
        let mut job = ReplayJob {
            old: None,
            new_state: None,
            next: 0,
            report: None,
            record,
        };
        let (g_old, g_new) = (
            Game::new(old, start_state(&job.record)),
            Game::new(new, start_state(&job.record)),
        );
        let (mut g_old, g_new) = match (g_old, g_new) {
            (Ok(a), Ok(b)) => (a, b),
            (a, b) => {
                let d = |g: Result<(), &hexforge_game::game::PerformError>| match g {
                    Ok(()) => "set up".to_string(),
                    Err(e) => format!("setup failed: {e}"),
                };
                job.finish_with(
                    0,
                    None,
                    d(a.as_ref().map(|_| ())),
                    d(b.as_ref().map(|_| ())),
                );
                return job;
            }
        };
        let (ho, hn) = (state_hash(g_old.state()), state_hash(g_new.state()));
        if ho != hn {
            job.finish_with(
                0,
                None,
                format!("setup state {}", &ho[..12]),
                format!("setup state {}", &hn[..12]),
            );
            return job;
        }
        // Why no undo: a replay never undoes, and each kept step would be a state copy.
        g_old.set_undo_limit(0);
        job.old = Some(g_old);
        job.new_state = Some(g_new.into_state());
        job.finish_if_done();
        job
    }

    fn finish_with(&mut self, compared: usize, index: Option<usize>, old: String, new: String) {
        let action = index.and_then(|i| self.record.actions.get(i).cloned());
        self.report = Some(ReplayReport {
            compared,
            first_difference: Some(Difference {
                index,
                action,
                old,
                new,
            }),
        });
        self.old = None;
        self.new_state = None;
    }

    fn finish_if_done(&mut self) {
        if self.report.is_none() && self.next >= self.record.actions.len() {
            self.report = Some(ReplayReport {
                compared: self.record.actions.len(),
                first_difference: None,
            });
            self.old = None;
            self.new_state = None;
        }
    }

    /// How far it is.
    #[must_use]
    pub fn progress(&self) -> Progress {
        Progress {
            done: self.report.as_ref().map_or(self.next, |r| r.compared),
            total: self.record.actions.len(),
            finished: self.report.is_some(),
        }
    }

    /// The report, once finished.
    #[must_use]
    pub fn report(&self) -> Option<&ReplayReport> {
        self.report.as_ref()
    }

    /// Compares the next actions under both rule sets within `budget`. `new` must be the rule
    /// set the job was created with (the editor keeps both in one session).
    pub fn step(&mut self, new: &LuaRules, budget: Budget) -> Progress {
        let (Some(g_old), Some(state)) = (self.old.as_mut(), self.new_state.take()) else {
            return self.progress();
        };
        // Why a game per step: a `Game` owns its rules, and the new rules are only lent for this
        // call. The setup it runs is thrown away: `edit` swaps the running state back in.
        let mut g_new = match Game::new(new, start_state(&self.record)) {
            Ok(g) => g,
            Err(e) => {
                let i = self.next;
                self.finish_with(i, Some(i), "set up".into(), format!("setup failed: {e}"));
                return self.progress();
            }
        };
        g_new.set_undo_limit(0);
        g_new.edit(|s| *s = state);
        let t = std::time::Instant::now();
        let mut n = 0usize;
        let mut diff = None;
        while let Some(a) = self.record.actions.get(self.next) {
            let within = match budget {
                Budget::Time(d) => n == 0 || t.elapsed() < d,
                Budget::Actions(k) => n < k.max(1),
            };
            if !within {
                break;
            }
            let ro = g_old.perform(a);
            let rn = g_new.perform(a);
            let (so, sn) = (describe(&ro, g_old.state()), describe(&rn, g_new.state()));
            self.next += 1;
            n += 1;
            if so != sn {
                diff = Some((so, sn));
                break;
            }
        }
        if let Some((so, sn)) = diff {
            let i = self.next - 1;
            self.finish_with(self.next, Some(i), so, sn);
        } else {
            self.new_state = Some(g_new.into_state());
            self.finish_if_done();
        }
        self.progress()
    }

    /// Runs the rest at once and returns the report.
    #[must_use]
    pub fn finish(mut self, new: &LuaRules) -> ReplayReport {
        loop {
            if let Some(r) = self.report.take() {
                return r;
            }
            self.step(new, Budget::Actions(usize::MAX));
        }
    }
}

/// Replays `record` under `old` and `new` rules and reports the first differing action: a
/// [`ReplayJob`] run to its end at once.
///
/// # Errors
/// Never for rule faults (they are differences); only kept for future use.
pub fn replay_report(
    old: &LuaRules,
    new: &LuaRules,
    record: &GameRecord,
) -> Result<ReplayReport, RulesError> {
    Ok(ReplayJob::new(old, new, record.clone()).finish(new))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexforge_game::SideId;

    /// A copy of the bundled tutorial with `edit` applied to its `main.lua`.
    fn tutorial(edit: impl Fn(&str) -> String) -> (tempfile::TempDir, LuaRules) {
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../mods/tutorial");
        let root = tempfile::tempdir().unwrap();
        let to = root.path().join("tutorial");
        for e in walkdir::WalkDir::new(&from)
            .into_iter()
            .filter_map(Result::ok)
        {
            let dest = to.join(e.path().strip_prefix(&from).unwrap());
            if e.file_type().is_dir() {
                std::fs::create_dir_all(&dest).unwrap();
            } else {
                std::fs::copy(e.path(), &dest).unwrap();
            }
        }
        let main = to.join("main.lua");
        let text = std::fs::read_to_string(&main).unwrap();
        let changed = edit(&text);
        std::fs::write(&main, changed).unwrap();
        let rules =
            LuaRules::new(load_mods(root.path(), "tutorial", &LoadOptions::default()).unwrap())
                .unwrap();
        (root, rules)
    }

    /// A tutorial game of `n` actions: each time the first waiting side takes its
    /// (`step` * 7 mod len)-th legal action, so moves and attacks mix deterministically.
    fn played(rules: &LuaRules, n: usize) -> GameRecord {
        let state = GameState::new(rules.mod_locks(), "picket", serde_json::Value::Null, 3);
        let mut g = Game::new(rules, state).unwrap();
        for step in 0..n {
            let Some(side) = g.waiting().first().cloned() else {
                break;
            };
            let legal = g.legal_actions(&SideId::new(side.as_str())).unwrap();
            let a = legal[(step * 7) % legal.len()].clone();
            g.perform(&a).unwrap();
        }
        g.record()
    }

    #[test]
    fn the_sliced_job_reports_exactly_what_the_one_shot_replay_reports() {
        let (_a, old) = tutorial(str::to_owned);
        let record = played(&old, 60);
        assert!(record.actions.len() >= 30, "{}", record.actions.len());
        let edits: [(&str, &str); 3] = [
            ("local MAX_RANGE = 3", "local MAX_RANGE = 3"),
            ("%s %d moves to", "%s %d flies to"),
            ("local MAX_RANGE = 3", "local MAX_RANGE = 1"),
        ];
        let mut differing = 0;
        for (from, to) in edits {
            let (_b, new) = tutorial(|t| t.replacen(from, to, 1));
            let one_shot = replay_report(&old, &new, &record).unwrap();
            // Three actions a slice: the job needs many steps and reports progress on the way.
            let mut job = ReplayJob::new(&old, &new, record.clone());
            let mut steps = 0;
            let mut last = job.progress();
            assert_eq!((last.done, last.total), (0, record.actions.len()));
            while !last.finished {
                let p = job.step(&new, Budget::Actions(3));
                assert!(
                    p.done > last.done && p.done <= last.done + 3,
                    "{p:?} after {last:?}"
                );
                last = p;
                steps += 1;
            }
            assert_eq!(job.report(), Some(&one_shot), "{from} -> {to}");
            assert_eq!(last.done, one_shot.compared);
            if one_shot.first_difference.is_some() {
                differing += 1;
            } else {
                assert_eq!(one_shot.compared, record.actions.len());
            }
            if one_shot.compared > 3 {
                assert!(steps > 1);
            }
            // A step after the end changes nothing; a time budget gives the same report.
            assert_eq!(job.step(&new, Budget::Actions(3)), last);
            let timed = ReplayJob::new(&old, &new, record.clone());
            assert_eq!(timed.finish(&new), one_shot);
        }
        assert_eq!(differing, 2, "the log line and the range change both show");
    }

    #[test]
    fn a_setup_difference_finishes_the_job_at_once() {
        let (_a, old) = tutorial(str::to_owned);
        let record = played(&old, 5);
        let (_b, new) = tutorial(|t| t.replacen("Picket line:", "Picket:", 1));
        let job = ReplayJob::new(&old, &new, record.clone());
        let one_shot = replay_report(&old, &new, &record).unwrap();
        assert_eq!(job.report(), Some(&one_shot));
        let d = one_shot
            .first_difference
            .as_ref()
            .expect("the setup log changed");
        assert_eq!((d.index, job.progress().done), (None, 0));
        assert!(job.progress().finished);
        assert!(d.old.starts_with("setup state"), "{d:?}");
    }
}
