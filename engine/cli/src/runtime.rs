//! The one place the CLI talks to the Lua runtime (`hexforge-script`).
//!
//! Every command reaches mods through these functions, so following a change in the script
//! crate's API means editing this file only. Until `LuaRules` lands in this build, loading a mod
//! reports that clearly instead of pretending; the commands and the game loop are already generic
//! over [`Rules`] and tested with Rust rules.
//!
//! ```no_run
//! let loaded = hexforge::runtime::load(std::path::Path::new("mods/tutorial")).unwrap();
//! let rules = loaded.rules().unwrap();
//! ```

use anyhow::Result;
use hexforge_game::{
    Action, GameState, Illegal, ModLock, Outcome, Rules, RulesError, SideId, TurnStructure,
    turn::HookEvent,
};
use std::path::{Path, PathBuf};

/// Stand-in for the Lua-backed rules until the runtime lands: every call reports that the
/// runtime is missing (and [`load`] never returns a mod, so none is ever made).
#[derive(Debug)]
pub struct PendingRules {
    turns: TurnStructure,
}

fn missing() -> RulesError {
    RulesError::new("the Lua runtime is not in this build yet")
}

impl Rules for PendingRules {
    fn turn_structure(&self) -> &TurnStructure {
        &self.turns
    }
    fn setup(&self, _: &mut GameState) -> Result<(), RulesError> {
        Err(missing())
    }
    fn legal_actions(&self, _: &GameState, _: &SideId) -> Result<Vec<Action>, RulesError> {
        Err(missing())
    }
    fn check(&self, _: &GameState, _: &Action) -> Result<Result<(), Illegal>, RulesError> {
        Err(missing())
    }
    fn apply(&self, _: &mut GameState, _: &Action) -> Result<Result<(), Illegal>, RulesError> {
        Err(missing())
    }
    fn hook(&self, _: &mut GameState, _: &HookEvent) -> Result<(), RulesError> {
        Err(missing())
    }
    fn outcome(&self, _: &GameState) -> Result<Option<Outcome>, RulesError> {
        Err(missing())
    }
}

/// A mod loaded and checked, ready to start games.
#[derive(Debug)]
pub struct LoadedMod {
    /// The mod folder.
    pub dir: PathBuf,
    /// Its display name.
    pub name: String,
    /// The mods it runs on (itself, its base and dependencies), with content hashes.
    pub locks: Vec<ModLock>,
    /// Its scenario ids, in file-name order.
    pub scenarios: Vec<String>,
}

impl LoadedMod {
    /// Fresh rules for one game.
    ///
    /// # Errors
    /// A fault building the rules.
    pub fn rules(&self) -> Result<PendingRules> {
        Err(not_landed("starting a game"))
    }
}

fn not_landed(what: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "{what} needs the Lua runtime (hexforge-script `LuaRules`), which is not in this build yet"
    )
}

/// Loads a mod (and its base and dependencies) and checks it.
///
/// # Errors
/// Every problem found, one `file:line: message` per line.
pub fn load(dir: &Path) -> Result<LoadedMod> {
    let _ = dir;
    Err(not_landed("loading a mod"))
}

/// Every problem in a mod as `file:line: message` lines (empty = the mod is fine).
///
/// # Errors
/// Only when the check itself cannot run (not for problems in the mod).
pub fn check(dir: &Path) -> Result<Vec<String>> {
    let _ = dir;
    Err(not_landed("checking a mod"))
}

/// The result of one Lua test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestResult {
    /// `file: name`.
    pub name: String,
    /// `None` = passed; else the failure as `file:line: message`.
    pub failure: Option<String>,
}

/// Runs a mod's `tests/*.lua`.
///
/// # Errors
/// When the mod does not load.
pub fn run_tests(dir: &Path) -> Result<Vec<TestResult>> {
    let _ = dir;
    Err(not_landed("running Lua tests"))
}

/// Runs a Lua chunk in a mod's VM (or a bare sandbox) and returns its result as JSON.
///
/// # Errors
/// A Lua error (`file:line: message`) or a mod that does not load.
pub fn eval(dir: Option<&Path>, code: &str) -> Result<serde_json::Value> {
    let _ = (dir, code);
    Err(not_landed("eval"))
}

/// Watches a mod and reloads it on every change, printing each result; returns when the
/// watcher stops.
///
/// # Errors
/// When the mod cannot be watched.
pub fn watch(dir: &Path, out: &mut dyn std::io::Write) -> Result<()> {
    let _ = (dir, out);
    Err(not_landed("watch"))
}
