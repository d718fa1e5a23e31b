//! The live game: load a mod with `hexforge-script`, start one of its scenarios and keep the
//! [`Game`] running (its Lua VM included) so the editor can play it, undo it, let bots play it
//! and hot-reload its rules.
//!
//! This is the editor's one boundary with the Lua runtime. It loads exactly as the CLI does
//! (`load_mods` from the mod's canonical mods root with the engine's shared `scripts/` folder,
//! both found by `hexforge_script::paths`, then `LuaRules::new`, then `Game::new`, which runs
//! the scenario's setup), so what the editor shows is what `hexforge play` would start with.
//! Without a display, [`play_series`] plays `hexforge play`'s games headless. The UI thread owns the [`Session`]; every call here
//! runs Lua under the mod's time budget, so a runaway script returns an error instead of hanging.
//!
//! It also reads the legal actions of the selected piece ([`piece_choices`]): which hexes a move
//! may end on, which pieces it may target. That reading is generic: it uses only the param kinds
//! each action declares (`piece`, `hex`, `path`, `direction`), never an action's name.
//!
//! **What it deliberately does not do:** draw, or decide when to reload (the app polls the file
//! watcher). Problems come back as [`Problem`]s whose file is a path the code editor can open.
//!
//! ```no_run
//! use hexforge_editor::session::Session;
//! let mut s = Session::open(std::path::Path::new("mods/tutorial"), None, 1).unwrap();
//! let legal = s.legal.clone();
//! s.perform(&legal[0]).unwrap();
//! assert!(s.undo());
//! ```

use crate::board_view::BoardScene;
use crate::panels::problems::Problem;
use hexforge_core::board::HexKind;
use hexforge_core::hex::layout::Orientation;
use hexforge_core::hex::{Direction, Hex};
use hexforge_game::mcts::SearchJob;
use hexforge_game::play::{self, BotSpec, Bots, GameSetup, Searchers, SeriesError, SeriesOptions};
use hexforge_game::{
    Action, Game, GameState, Illegal, Outcome, PerformError, PieceId, Position, Rules, RulesError,
    SideId,
};
use hexforge_script::ModError;
use hexforge_script::decl::ModDecls;
use hexforge_script::loader::{LoadOptions, load_mods};
use hexforge_script::paths;
use hexforge_script::rules::LuaRules;
use hexforge_script::scenario::scenario_ids;
use hexforge_script::watch::{Budget, Progress, ReloadReport, ReplayJob, ReplayReport, reload};
use serde_json::Value as Json;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

mod actions;
mod bots;
mod scene;

pub use actions::*;
pub use scene::*;

/// The random bot: the one `hexforge play --bots random` uses, so a seed gives the same
/// picks in the editor and in the terminal.
pub use hexforge_game::bot::RandomBot;

/// The seed a game opened in the editor starts with unless the user picks another.
pub const EDITOR_SEED: u64 = 1;

/// The built-in bot's name (the same as the CLI's).
pub const RANDOM: &str = "random";

/// How many undo steps the editor keeps (a bot game of thousands of actions would otherwise
/// keep a state copy per action). They are bounded by memory as well: `Game` keeps undo states
/// only while they hold 256 MiB together, counted as saved (`Game::set_undo_memory`), so a mod
/// with big state values keeps fewer steps.
pub const UNDO_LIMIT: usize = 1000;

/// The folder `ModError` file names are relative to: the mods root's parent.
fn error_base(root: &Path) -> PathBuf {
    root.parent().map(Path::to_path_buf).unwrap_or_default()
}

/// A problem from a [`ModError`]: its file made openable from here; the column, when known,
/// leads the message (the problems list shows `file:line: message`).
#[must_use]
pub fn problem_from_error(base: &Path, e: &ModError) -> Problem {
    if e.file.is_empty() {
        return Problem::new("", 0, e.message.clone());
    }
    let message = match e.col {
        Some(c) => format!("{c}: {}", e.message),
        None => e.message.clone(),
    };
    Problem::new(base.join(&e.file), e.line as usize, message)
}

/// A problem from a runtime error's text: the first `path:line:` in it (a Lua traceback names
/// the chunk as `mods/x/file.lua:12:`) gives the place; otherwise the mod folder, line 0.
#[must_use]
pub fn problem_from_text(base: &Path, fallback: &Path, text: &str) -> Problem {
    for (i, _) in text.match_indices(':') {
        let before = &text[..i];
        let start = before
            .rfind(|c: char| c.is_whitespace() || c == '[' || c == '"' || c == '(')
            .map_or(0, |s| s + 1);
        let file = &before[start..];
        if !(file.ends_with(".lua") || file.ends_with(".toml")) {
            continue;
        }
        let rest = &text[i + 1..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if let Ok(line) = digits.parse::<usize>()
            && rest[digits.len()..].starts_with(':')
        {
            return Problem::new(base.join(file), line, text.trim().to_owned());
        }
    }
    Problem::new(fallback, 0, text.trim().to_owned())
}

/// What one bot step did.
#[derive(Clone, Debug, PartialEq)]
pub enum BotStep {
    /// The action was performed.
    Acted(Action),
    /// The rules refused the bot's pick when applying it (the state is unchanged).
    Refused(Action, Illegal),
    /// The game is over.
    Over,
    /// A side must act but has no legal action, or nobody may act and the game is not over.
    Stuck(String),
    /// Only sides played by hand may act now (the player's move).
    Human(Vec<SideId>),
    /// A search bot is still thinking (call again to go on).
    Thinking {
        /// For this side.
        side: SideId,
        /// Simulations so far.
        iterations: u64,
        /// Since it started.
        elapsed: std::time::Duration,
    },
}

/// Why a session call failed: a fault in the rules (a Lua error) or a broken turn structure.
/// The game is unchanged and goes on.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SessionError {
    /// The rules failed.
    #[error("rules error: {0}")]
    Rules(#[from] RulesError),
    /// An action failed with a fault (not an illegal action).
    #[error("{0}")]
    Perform(PerformError),
}

/// A successful hot reload: what it found about the running game.
#[derive(Clone, Debug, PartialEq)]
pub struct Reloaded {
    /// Pieces whose type the new rules no longer declare.
    pub report: ReloadReport,
    /// The game's actions replayed under the old and new rules: how far, or the first that
    /// differs.
    pub replay: ReplayStatus,
}

/// Where the replay after a hot reload is. The replay runs in slices
/// ([`Session::replay_step`]) so the window never freezes on a long game.
#[derive(Clone, Debug, PartialEq)]
pub enum ReplayStatus {
    /// Still replaying: this many of the game's actions compared so far.
    Running(Progress),
    /// Finished: the report (the same as `hexforge watch` prints).
    Done(ReplayReport),
    /// Cancelled by the user after this many of `total` actions.
    Cancelled {
        /// Actions compared before the cancel.
        after: usize,
        /// Actions in the game.
        total: usize,
    },
}

impl ReplayStatus {
    /// The report, when finished.
    #[must_use]
    pub fn report(&self) -> Option<&ReplayReport> {
        match self {
            ReplayStatus::Done(r) => Some(r),
            _ => None,
        }
    }

    /// Whether the replay is still running.
    #[must_use]
    pub fn is_running(&self) -> bool {
        matches!(self, ReplayStatus::Running(_))
    }

    fn of(job: &ReplayJob) -> ReplayStatus {
        match job.report() {
            Some(r) => ReplayStatus::Done(r.clone()),
            None => ReplayStatus::Running(job.progress()),
        }
    }
}

/// Round, phase, who acts and the outcome: the play panel's header.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameStatus {
    /// The round (0 before the clock starts).
    pub round: u32,
    /// The phase id.
    pub phase: String,
    /// Sides that may act now.
    pub waiting: Vec<SideId>,
    /// All sides, in seating order.
    pub sides: Vec<SideId>,
    /// Set when the game is over.
    pub outcome: Option<Outcome>,
    /// Accepted actions so far.
    pub actions: usize,
    /// Whether undo / redo are possible.
    pub can_undo: bool,
    /// Whether redo is possible.
    pub can_redo: bool,
}

/// A mod opened and one of its scenarios running.
pub struct Session {
    /// The mod folder.
    pub dir: PathBuf,
    /// The mods root it was loaded from.
    pub mods_root: PathBuf,
    /// The mod id (folder name).
    pub mod_id: String,
    /// Folder problems' file names are relative to.
    pub base: PathBuf,
    /// The options it was loaded with (used again on reload).
    pub opts: LoadOptions,
    /// The folders of every mod of the set (the mod and its bases): what to watch.
    pub mod_dirs: Vec<PathBuf>,
    /// Its scenario ids, sorted.
    pub scenarios: Vec<String>,
    /// The scenario running.
    pub scenario: String,
    /// The game's seed.
    pub seed: u64,
    /// The game, rules included.
    pub game: Game<LuaRules>,
    /// The mod's bots (`game.bots`), sorted.
    pub bot_names: Vec<String>,
    /// The legal actions of every waiting side now (refreshed after every change).
    pub legal: Vec<Action>,
    random: RandomBot,
    /// The search bots of the sides that play `mcts`.
    searchers: Searchers,
    /// A search bot's decision under way, with the log length it started at (a change to the
    /// game drops it).
    thinking: Option<(Box<SearchJob>, usize)>,
    /// The replay of the last hot reload while it runs (it owns the old rules).
    replay: Option<ReplayJob>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("dir", &self.dir)
            .field("scenario", &self.scenario)
            .field("seed", &self.seed)
            .field("round", &self.game.state().clock.round)
            .finish_non_exhaustive()
    }
}

/// A mod's rules loaded as the editor loads them, with what a session keeps of the loading.
struct LoadedRules {
    rules: LuaRules,
    root: PathBuf,
    id: String,
    base: PathBuf,
    opts: LoadOptions,
    mod_dirs: Vec<PathBuf>,
}

/// Why a mod did not load: it could not be read, or every problem found.
enum LoadFailure {
    /// The mod folder cannot be read.
    Folder(std::io::Error),
    /// Problems in its manifests, Lua or declarations; their files are relative to `base`.
    Mod {
        /// The folder problems' file names are relative to.
        base: PathBuf,
        /// Every problem.
        errors: Vec<ModError>,
    },
}

/// Loads the rules of the mod in `dir` exactly as the CLI does (`load_mods` from the canonical
/// mods root with the shared `scripts/` folder of [`paths::scripts_dir`], dependencies also
/// looked for in `extra_roots`, then `LuaRules::new`).
fn load_lua(dir: &Path, extra_roots: Vec<PathBuf>) -> Result<LoadedRules, LoadFailure> {
    let (root, id) = paths::root_and_id(dir).map_err(LoadFailure::Folder)?;
    let base = error_base(&root);
    let opts = LoadOptions {
        scripts_dir: paths::scripts_dir(Some(&root)),
        extra_roots,
        ..LoadOptions::default()
    };
    let failed = |errors| LoadFailure::Mod {
        base: base.clone(),
        errors,
    };
    let loaded = load_mods(&root, &id, &opts).map_err(failed)?;
    let mod_dirs: Vec<PathBuf> = loaded.mods.iter().map(|m| m.dir.clone()).collect();
    let rules = LuaRules::new(loaded).map_err(failed)?;
    Ok(LoadedRules {
        rules,
        root,
        id,
        base,
        opts,
        mod_dirs,
    })
}

/// [`load_lua`] with every problem at its file and line (files under the canonical mods root).
fn load_rules(dir: &Path, extra_roots: Vec<PathBuf>) -> Result<LoadedRules, Vec<Problem>> {
    load_lua(dir, extra_roots).map_err(|failure| match failure {
        LoadFailure::Folder(e) => vec![Problem::new(dir, 0, e.to_string())],
        LoadFailure::Mod { base, errors } => errors
            .iter()
            .map(|e| problem_from_error(&base, e))
            .collect(),
    })
}

/// A mod's rules loaded for bot games (the headless `play`, the balance lab).
pub struct PlayRules {
    /// The rules.
    pub rules: LuaRules,
    /// The mod id.
    pub id: String,
    /// Its scenario ids, sorted.
    pub scenarios: Vec<String>,
}

impl PlayRules {
    /// The setup of bot games of `scenario` with `bots`, once the bots are known to exist
    /// (`random`, `mcts`, or the mod's); `dir` names the mod in the error.
    ///
    /// # Errors
    /// A bot the mod does not have.
    pub fn setup(&self, dir: &Path, scenario: &str, bots: &BotSpec) -> Result<GameSetup, String> {
        bots.check(&hexforge_script::bots::bot_names(&self.rules))
            .map_err(|e| format!("{}: {e}", dir.display()))?;
        Ok(GameSetup {
            title: self.id.clone(),
            mods: self.rules.mod_locks(),
            scenario: scenario.to_owned(),
            options: Json::Null,
        })
    }
}

/// Loads the mod in `dir` for bot games, as a session loads it; the error is what `hexforge
/// play` would print after `error: ` (every problem, one a line).
///
/// # Errors
/// The folder cannot be read, or the mod has problems.
pub fn load_rules_for_play(dir: &Path, extra_roots: Vec<PathBuf>) -> Result<PlayRules, String> {
    let loaded = load_lua(dir, extra_roots).map_err(|failure| match failure {
        LoadFailure::Folder(e) => format!("{}: {e}", dir.display()),
        LoadFailure::Mod { errors, .. } => errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n"),
    })?;
    Ok(PlayRules {
        scenarios: scenario_ids(&loaded.mod_dirs),
        rules: loaded.rules,
        id: loaded.id,
    })
}

/// Plays a series of bot games of the mod in `dir` headless, as `hexforge play <dir>` does (the
/// same loading, its first scenario, the same bots and seeds, the same loop and output from
/// `hexforge_game::play`), writing to `out`; `after_game` runs after each game (a progress
/// bar). Mods it depends on are also looked for in `extra_roots`, as `hexforge play` looks in
/// the bundled and user mods folders.
///
/// # Errors
/// What `hexforge play` would print after `error: `. A reader that left (a broken pipe) is not
/// an error.
pub fn play_series(
    dir: &Path,
    extra_roots: Vec<PathBuf>,
    opts: &SeriesOptions,
    out: &mut dyn std::io::Write,
    after_game: impl FnMut(),
) -> Result<(), String> {
    let loaded = load_rules_for_play(dir, extra_roots)?;
    let rules = &loaded.rules;
    let scenario = loaded
        .scenarios
        .first()
        .cloned()
        .ok_or_else(|| format!("{}: the mod has no scenario", dir.display()))?;
    let setup = loaded.setup(dir, &scenario, &opts.bots)?;
    let bots = Bots {
        spec: Some(&opts.bots),
    };
    let played = play::play_series(|| rules, &setup, opts, bots, out, after_game)
        .and_then(|series| play::write_series(&setup, opts, &series, out));
    match played {
        Ok(()) => Ok(()),
        Err(SeriesError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(error_chain(&e)),
    }
}

/// An error and its causes, `: `-separated (as the CLI prints them).
pub(crate) fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(&format!(": {c}"));
        cause = c.source();
    }
    text
}

/// Whether the mod in `dir` loads: its manifests, dependencies (also looked for in
/// `extra_roots`), Lua files and declarations, exactly as [`Session::open`] loads them, without
/// starting a game. The mod browser shows the answer next to each mod.
///
/// # Errors
/// Every problem found, each at its file and line.
pub fn check_mod(dir: &Path, extra_roots: &[PathBuf]) -> Result<(), Vec<Problem>> {
    load_rules(dir, extra_roots.to_vec()).map(|_| ())
}

impl Session {
    /// Loads the mod in `dir` and starts `scenario` (default: the first by file name).
    ///
    /// # Errors
    /// Every problem found, each at its file and line (manifest, Lua, declarations, setup).
    pub fn open(dir: &Path, scenario: Option<&str>, seed: u64) -> Result<Session, Vec<Problem>> {
        Session::open_with(dir, scenario, seed, Vec::new())
    }

    /// [`Session::open`], also looking for the mod's dependencies in `extra_roots` (the bundled
    /// and user mods folders: an installed variant finds the bundled base it extends).
    ///
    /// # Errors
    /// As [`Session::open`].
    pub fn open_with(
        dir: &Path,
        scenario: Option<&str>,
        seed: u64,
        extra_roots: Vec<PathBuf>,
    ) -> Result<Session, Vec<Problem>> {
        Session::open_game(dir, scenario, Json::Null, seed, extra_roots)
    }

    /// [`Session::open_with`] with scenario options (`ctx.options`), as a save records them.
    ///
    /// # Errors
    /// As [`Session::open_with`].
    pub fn open_game(
        dir: &Path,
        scenario: Option<&str>,
        options: Json,
        seed: u64,
        extra_roots: Vec<PathBuf>,
    ) -> Result<Session, Vec<Problem>> {
        let LoadedRules {
            rules,
            root,
            id,
            base,
            opts,
            mod_dirs,
        } = load_rules(dir, extra_roots)?;
        let scenarios = scenario_ids(&mod_dirs);
        let scenario = match scenario {
            Some(s) => s.to_owned(),
            None => scenarios.first().cloned().ok_or_else(|| {
                vec![Problem::new(
                    dir.join("scenarios"),
                    0,
                    "no scenarios: add a scenarios/<name>.toml to start a game",
                )]
            })?,
        };
        let state = GameState::new(rules.mod_locks(), &scenario, options, seed);
        let bot_names = hexforge_script::bots::bot_names(&rules);
        let mut game = Game::new(rules, state)
            .map_err(|e| vec![problem_from_text(&base, dir, &e.to_string())])?;
        game.set_undo_limit(UNDO_LIMIT);
        let mut s = Session {
            dir: dir.to_path_buf(),
            mods_root: root,
            mod_id: id,
            base,
            opts,
            mod_dirs,
            scenarios,
            scenario,
            seed,
            game,
            bot_names,
            legal: Vec::new(),
            random: RandomBot::for_game(seed),
            searchers: Searchers::new(seed),
            thinking: None,
            replay: None,
        };
        s.refresh_legal().map_err(|e| vec![s.problem(&e)])?;
        Ok(s)
    }

    /// A problem for an error of this session's rules (placed at the file and line the error
    /// names, else at the mod folder).
    #[must_use]
    pub fn problem(&self, e: &dyn std::fmt::Display) -> Problem {
        problem_from_text(&self.base, &self.dir, &e.to_string())
    }

    /// The declarations of the running rules.
    #[must_use]
    pub fn decls(&self) -> &ModDecls {
        self.game.rules().decls()
    }

    /// The board scene of the game now.
    #[must_use]
    pub fn scene(&self) -> BoardScene {
        scene_of(
            self.game.rules(),
            self.game.state(),
            format!("{} / {}", self.mod_id, self.scenario),
        )
    }

    /// Round, phase, who acts, outcome.
    #[must_use]
    pub fn status(&self) -> GameStatus {
        let st = self.game.state();
        GameStatus {
            round: st.clock.round,
            phase: st
                .phase_id(self.game.rules().turn_structure())
                .unwrap_or("-")
                .to_owned(),
            waiting: self.game.waiting(),
            sides: st.sides.iter().map(|s| s.id.clone()).collect(),
            outcome: st.outcome.clone(),
            actions: st.log.len().saturating_sub(1),
            can_undo: self.game.can_undo(),
            can_redo: self.game.can_redo(),
        }
    }

    /// Lists the legal actions of every waiting side again (after any change).
    ///
    /// # Errors
    /// A fault in the rules; the list is then empty.
    pub fn refresh_legal(&mut self) -> Result<(), RulesError> {
        self.legal.clear();
        for side in self.game.waiting() {
            let actions = self.game.legal_actions(&side)?;
            self.legal.extend(actions);
        }
        Ok(())
    }

    /// Performs an action. `Ok(Err(illegal))` when the rules refuse it (with their reason).
    ///
    /// # Errors
    /// A fault in the rules or the turn engine; the game is unchanged.
    pub fn perform(&mut self, action: &Action) -> Result<Result<(), Illegal>, SessionError> {
        let r = match self.game.perform(action) {
            Ok(_) => Ok(()),
            Err(PerformError::Illegal(ill)) => Err(ill),
            Err(e) => return Err(SessionError::Perform(e)),
        };
        self.refresh_legal()?;
        Ok(r)
    }

    /// Ends the current phase for every waiting side (one `end_phase` each).
    ///
    /// # Errors
    /// As [`Session::perform`].
    pub fn end_phase(&mut self) -> Result<Result<(), Illegal>, SessionError> {
        let waiting = self.game.waiting();
        if waiting.is_empty() {
            return Ok(Err(Illegal::new("nobody may act now")));
        }
        for side in waiting {
            if let Err(ill) = self.perform(&Action::end_phase(side))? {
                return Ok(Err(ill));
            }
        }
        Ok(Ok(()))
    }

    /// Ends phases until the round changes or the game ends (at most 1000 phases).
    ///
    /// # Errors
    /// As [`Session::perform`].
    pub fn end_turn(&mut self) -> Result<Result<(), Illegal>, SessionError> {
        let round = self.game.state().clock.round;
        for _ in 0..1000 {
            if self.game.state().outcome.is_some() || self.game.state().clock.round != round {
                return Ok(Ok(()));
            }
            if let Err(ill) = self.end_phase()? {
                return Ok(Err(ill));
            }
        }
        Ok(Err(Illegal::new("the round did not end after 1000 phases")))
    }

    /// Undoes the last action; false if there is none.
    pub fn undo(&mut self) -> bool {
        let done = self.game.undo();
        // Listing can only fail if it failed before this action too; keep the old list then.
        let _ = self.refresh_legal();
        done
    }

    /// Redoes the last undone action; false if there is none.
    pub fn redo(&mut self) -> bool {
        let done = self.game.redo();
        let _ = self.refresh_legal();
        done
    }

    /// Hot reload: builds the rules again from the files in a fresh VM; on success swaps them in
    /// (the game, its log and history are kept) and starts replaying the game's actions under
    /// old and new rules to find the first that differs. The replay runs in slices
    /// ([`Session::replay_step`]); a replay still running from an earlier reload is dropped.
    /// On failure the old rules keep running.
    ///
    /// # Errors
    /// Every load problem, at its file and line.
    pub fn reload(&mut self) -> Result<Reloaded, Vec<Problem>> {
        let (rules, report) = reload(&self.mods_root, &self.mod_id, &self.opts, self.game.state())
            .map_err(|errs| {
                errs.iter()
                    .map(|e| problem_from_error(&self.base, e))
                    .collect::<Vec<_>>()
            })?;
        self.bot_names = hexforge_script::bots::bot_names(&rules);
        // Why drop the running job first: it holds the rules from two reloads ago.
        self.replay = None;
        let old = self.game.set_rules(rules);
        let job = ReplayJob::new(old, self.game.rules(), self.game.record());
        let replay = ReplayStatus::of(&job);
        if replay.is_running() {
            self.replay = Some(job);
        }
        self.refresh_legal().map_err(|e| vec![self.problem(&e)])?;
        Ok(Reloaded { report, replay })
    }

    /// Runs a slice of the reload's replay; `None` when none is running. The job is dropped
    /// once it has its report.
    pub fn replay_step(&mut self, budget: Budget) -> Option<ReplayStatus> {
        let job = self.replay.as_mut()?;
        job.step(self.game.rules(), budget);
        let status = ReplayStatus::of(job);
        if !status.is_running() {
            self.replay = None;
        }
        Some(status)
    }

    /// Runs the rest of the reload's replay at once (headless use and tests).
    pub fn finish_replay(&mut self) -> Option<ReplayReport> {
        let job = self.replay.take()?;
        Some(job.finish(self.game.rules()))
    }

    /// Cancels the reload's replay; `None` when none is running.
    pub fn cancel_replay(&mut self) -> Option<ReplayStatus> {
        let p = self.replay.take()?.progress();
        Some(ReplayStatus::Cancelled {
            after: p.done,
            total: p.total,
        })
    }

    /// Whether a reload's replay is running.
    #[must_use]
    pub fn replaying(&self) -> bool {
        self.replay.is_some()
    }
}

/// The bot-choice name meaning "a person plays this side".
pub const HUMAN: &str = "human";

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_traceback_gives_its_first_file_and_line() {
        let p = problem_from_text(
            Path::new("/r"),
            Path::new("/r/mods/x"),
            "rules error: mods/x/main.lua:7: boom\nstack traceback: [C]: in ?",
        );
        assert_eq!(p.file, PathBuf::from("/r/mods/x/main.lua"));
        assert_eq!(p.line, 7);
        let none = problem_from_text(Path::new("/r"), Path::new("/r/mods/x"), "no place: 3");
        assert_eq!((none.file, none.line), (PathBuf::from("/r/mods/x"), 0));
    }

    #[test]
    fn problems_are_relative_to_the_mods_roots_parent() {
        assert_eq!(error_base(Path::new("/r/mods")), PathBuf::from("/r"));
        assert_eq!(error_base(Path::new("mods")), PathBuf::from(""));
    }

    #[test]
    fn param_values_parse_as_hexes_pieces_and_paths() {
        assert_eq!(hex_of(&json!({"q": 2, "r": -1})), Some(Hex::new(2, -1)));
        assert_eq!(hex_of(&json!([3, 4])), Some(Hex::new(3, 4)));
        assert_eq!(hex_of(&json!("x")), None);
        assert_eq!(piece_of(&json!(7)), Some(PieceId(7)));
        assert_eq!(piece_of(&json!(-1)), None);
        assert_eq!(
            path_of(&json!([{"q": 0, "r": 0}, {"q": 1, "r": 0}])),
            Some(vec![Hex::new(0, 0), Hex::new(1, 0)])
        );
        assert_eq!(path_of(&json!([{"q": 0}])), None);
        assert_eq!(direction_name(&json!(2)).as_deref(), Some("SE"));
        assert_eq!(direction_name(&json!(9)), None);
    }

    #[test]
    fn terrain_blocks_when_declared_so() {
        let d = |k: &str, v: Json| BTreeMap::from([(k.to_owned(), v)]);
        assert!(terrain_blocks(&d("blocks_movement", json!(true))));
        assert!(terrain_blocks(&d("blocks_fire", json!("unless_avoidable"))));
        assert!(terrain_blocks(&d("enterable", json!(false))));
        assert!(!terrain_blocks(&d("blocks_movement", json!(false))));
        assert!(!terrain_blocks(&d("color", json!("#fff"))));
    }
}
