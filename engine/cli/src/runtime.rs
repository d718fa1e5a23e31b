//! The one place the CLI talks to the Lua runtime (`hexforge-script`).
//!
//! Every command reaches mods through these functions, so following a change in the script
//! crate's API means editing this file only: loading a rule set (`load_mods` + `LuaRules`),
//! checking it (every problem, plus every Lua file compiled), running its Lua tests, evaluating
//! snippets, and hot reload (`ModWatcher`, `reload`, a `ReplayJob` the next change cancels).
//!
//! ```no_run
//! let loaded = hexforge::runtime::load(std::path::Path::new("mods/tutorial")).unwrap();
//! let rules = loaded.rules(); // borrowable by any number of games
//! ```

use anyhow::{Context, Result};
use hexforge_game::ModLock;
use hexforge_game::play::{PlayOptions, play_bot_game};
use hexforge_game::{Game, GameState};
use hexforge_script::ModError;
use hexforge_script::loader::{LoadOptions, LoadedMods, load_mods};
use hexforge_script::manifest::{ModInfo, ModSet, discover_with};
use hexforge_script::paths;
use hexforge_script::rules::LuaRules;
use hexforge_script::sandbox::RequirePaths;
pub use hexforge_script::scenario::scenario_ids;
use hexforge_script::watch::{Budget, ModWatcher, ReplayJob, ReplayReport, reload};
use hexforge_script::{Limits, Sandbox};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A mod loaded and checked, ready to start games.
#[derive(Debug)]
pub struct LoadedMod {
    /// The rules (one VM; every game borrows them: `Rules` is implemented for `&R`).
    pub lua: LuaRules,
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
    /// The rules for one more game. Games may share them: the state never lives in the VM.
    #[must_use]
    pub fn rules(&self) -> &LuaRules {
        &self.lua
    }
}

fn problems_error(errors: &[ModError]) -> anyhow::Error {
    anyhow::anyhow!(
        "{}",
        errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    )
}

/// The mods root (canonical parent folder) and id (folder name) of a mod folder
/// ([`paths::root_and_id`]).
fn root_and_id(dir: &Path) -> Result<(PathBuf, String)> {
    paths::root_and_id(dir).with_context(|| format!("{}", dir.display()))
}

/// Loads the rule set of a mod folder into one VM with its declarations validated.
///
/// # Errors
/// Every problem, one `file:line: message` per line.
pub fn load_vm(dir: &Path) -> Result<LoadedMods> {
    let (root, id) = root_and_id(dir)?;
    load_mods(&root, &id, &load_options(&root)).map_err(|errors| problems_error(&errors))
}

/// How the mods of `mods_root` load: the shared `scripts/` folder ([`paths::scripts_dir`]).
fn load_options(mods_root: &Path) -> LoadOptions {
    LoadOptions {
        scripts_dir: paths::scripts_dir(Some(mods_root)),
        // A mod finds its dependencies in the bundled and user mods folders whichever folder it
        // is in: an installed variant finds the bundled base it extends, a new mod in a work
        // folder finds its base.
        extra_roots: paths::search_dirs(),
        ..LoadOptions::default()
    }
}

/// Loads a mod (and its base and dependencies) and checks it.
///
/// # Errors
/// Every problem found, one `file:line: message` per line.
pub fn load(dir: &Path) -> Result<LoadedMod> {
    let vm = load_vm(dir)?;
    let dirs: Vec<PathBuf> = vm.mods.iter().map(|m| m.dir.clone()).collect();
    let name = vm.mods.last().map(|m| m.id.clone()).unwrap_or_default();
    let lua = LuaRules::new(vm).map_err(|errors| problems_error(&errors))?;
    Ok(LoadedMod {
        dir: dir.to_owned(),
        name,
        locks: lua.mod_locks(),
        scenarios: scenario_ids(&dirs),
        lua,
    })
}

/// A mod with the rest of its rule set (base and dependencies, in load order).
#[derive(Debug)]
pub struct RuleSet {
    /// Every mod found beside it, by id.
    pub set: ModSet,
    /// Load order: dependencies and base first, the mod itself last.
    pub order: Vec<String>,
}

impl RuleSet {
    /// The mods in load order.
    pub fn mods(&self) -> impl Iterator<Item = &ModInfo> {
        self.order.iter().filter_map(|id| self.set.mods.get(id))
    }

    /// The mod itself (last in load order).
    #[must_use]
    pub fn main(&self) -> Option<&ModInfo> {
        self.order.last().and_then(|id| self.set.mods.get(id))
    }
}

/// Reads the manifests beside `dir` (its parent folder is the mods root) and orders the mod's
/// rule set. Problems in other mods of the folder that this one does not use are not reported.
///
/// # Errors
/// Every manifest and dependency problem, as `file:line: message` lines.
pub fn rule_set(dir: &Path) -> std::result::Result<RuleSet, Vec<String>> {
    let (root, folder) =
        paths::root_and_id(dir).map_err(|e| vec![format!("{}: {e}", dir.display())])?;
    let (set, errors) = discover_with(&root, &paths::search_dirs());
    let base = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let own_prefix = format!("{base}/{folder}/");
    let mut problems: Vec<String> = errors
        .iter()
        .filter(|e| e.file.starts_with(&own_prefix))
        .map(ToString::to_string)
        .collect();
    if !problems.is_empty() {
        return Err(problems);
    }
    match set.resolve(&folder) {
        Ok(order) => Ok(RuleSet { set, order }),
        Err(errors) => {
            problems.extend(errors.iter().map(ToString::to_string));
            Err(problems)
        }
    }
}

/// Every `.lua` file under `dir`, sorted, as (path, path relative to `dir` with `/`).
fn lua_files(dir: &Path) -> Vec<(PathBuf, String)> {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<(PathBuf, String)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<_> = entries.filter_map(std::result::Result::ok).collect();
        entries.sort_by_key(std::fs::DirEntry::file_name);
        for e in entries {
            let name = e.file_name().to_string_lossy().into_owned();
            let path = e.path();
            let rel = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            if path.is_dir() {
                walk(&path, &rel, out);
            } else if name.ends_with(".lua") {
                out.push((path, rel));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, "", &mut out);
    out
}

/// Compiles (without running) every Lua file of the rule set; one problem per file that does
/// not parse.
fn syntax_problems(rules: &RuleSet) -> Result<Vec<String>> {
    let sb = Sandbox::new(Limits::default())?;
    let mut problems = Vec::new();
    for m in rules.mods() {
        for (path, rel) in lua_files(&m.dir) {
            let shown = format!("{}/{rel}", m.rel_dir);
            let src = match std::fs::read_to_string(&path) {
                Ok(s) => s,
                Err(e) => {
                    problems.push(format!("{shown}: cannot read: {e}"));
                    continue;
                }
            };
            let name = format!("@{shown}");
            if let Err(e) = sb.guarded(|lua| lua.load(src.as_str()).set_name(name).into_function())
            {
                problems.push(e.to_string());
            }
        }
    }
    Ok(problems)
}

/// Every problem in a mod as `file:line: message` lines (empty = the mod is fine): manifests,
/// dependencies, and Lua files that do not compile.
///
/// # Errors
/// Only when the check itself cannot run (not for problems in the mod).
pub fn check(dir: &Path) -> Result<Vec<String>> {
    let rules = match rule_set(dir) {
        Ok(r) => r,
        Err(problems) => return Ok(problems),
    };
    let mut problems: Vec<String> = match load(dir) {
        Ok(_) => Vec::new(),
        Err(e) => e.to_string().lines().map(str::to_owned).collect(),
    };
    // Files the load did not run (tests, unused modules) are at least compiled.
    for p in syntax_problems(&rules)? {
        if !problems.contains(&p) {
            problems.push(p);
        }
    }
    Ok(problems)
}

/// `require` paths for a rule set: its mods by id, and the shared `scripts/` when present
/// ([`paths::scripts_dir`]; without a mod, `./scripts`).
fn require_paths(rules: Option<&RuleSet>) -> RequirePaths {
    let root = rules
        .and_then(RuleSet::main)
        .and_then(|m| m.dir.parent().map(Path::to_path_buf));
    let mut paths = RequirePaths {
        scripts: paths::scripts_dir(root.as_deref()).map(|d| (d, "scripts".to_owned())),
        ..RequirePaths::default()
    };
    if let Some(rules) = rules {
        for m in rules.mods() {
            paths
                .mods
                .insert(m.manifest.id.clone(), (m.dir.clone(), m.rel_dir.clone()));
        }
    }
    paths
}

/// Lua that encodes a value as JSON text (see the file for the rules).
const TO_JSON: &str = include_str!("lua/to_json.lua");

/// Runs a Lua chunk in a sandbox (after the mod's entry files, with `--mod`) and returns its
/// first result as JSON: tables with keys `1..n` become arrays, hexes `{"q":..,"r":..}`.
///
/// # Errors
/// A Lua error (`file:line: message`) or a mod that does not load.
pub fn eval(dir: Option<&Path>, code: &str) -> Result<serde_json::Value> {
    eval_in(dir, None, code)
}

/// Like [`eval`], in a started game of `scenario` (seed `seed`) whose read-only `ctx` the snippet
/// sees as the global `ctx`.
///
/// # Errors
/// As [`eval`], plus a scenario that does not start.
pub fn eval_in_game(
    dir: &Path,
    scenario: &str,
    seed: u64,
    code: &str,
) -> Result<serde_json::Value> {
    eval_in(Some(dir), Some((scenario, seed)), code)
}

fn eval_in(dir: Option<&Path>, game: Option<(&str, u64)>, code: &str) -> Result<serde_json::Value> {
    if let (Some(dir), Some((scenario, seed))) = (dir, game) {
        let loaded = load(dir)?;
        if !loaded.scenarios.iter().any(|s| s == scenario) {
            anyhow::bail!(
                "{}: no scenario `{scenario}` (it has: {})",
                dir.display(),
                loaded.scenarios.join(", ")
            );
        }
        let state = GameState::new(
            loaded.locks.clone(),
            scenario,
            serde_json::Value::Null,
            seed,
        );
        let started = Game::new(&loaded.lua, state)
            .map_err(|e| anyhow::anyhow!("scenario {scenario} does not start: {e}"))?;
        let sb = &loaded.lua.loaded().sandbox;
        let text = hexforge_script::eval::with_read_ctx(&loaded.lua, started.state(), || {
            run_snippet(sb, code)
        })?;
        return serde_json::from_str(&text).context("eval produced invalid JSON");
    }
    let sb = match dir {
        Some(d) => load_vm(d)?.sandbox,
        None => {
            let sb = Sandbox::new(Limits::default())?;
            sb.set_require_paths(require_paths(None));
            sb
        }
    };
    let text = run_snippet(&sb, code)?;
    serde_json::from_str(&text).context("eval produced invalid JSON")
}

/// Runs a snippet and returns its result encoded as JSON text.
fn run_snippet(
    sb: &Sandbox,
    code: &str,
) -> std::result::Result<String, hexforge_script::ScriptError> {
    // The encoder goes in first, as a global of this throwaway VM; the snippet then runs as the
    // body of a function on the chunk's first line, so its line numbers are the user's own.
    sb.exec(
        &format!("__hexforge_to_json = (function() {TO_JSON}\nend)()"),
        "=to_json",
    )?;
    let wrapped = format!("return __hexforge_to_json((function(...) {code}\n end)(...))");
    sb.eval(&wrapped, "=eval")
}

/// The result of one Lua test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestResult {
    /// `file: name`.
    pub name: String,
    /// `None` = passed; else the failure as `file:line: message`.
    pub failure: Option<String>,
}

/// Runs a mod's `tests/*.lua` with the script crate's harness (`t:game { .. }` plays real
/// games of the mod): each file in a freshly loaded rule set, each test with its own budget. A
/// file that fails to load counts as one failed test.
///
/// # Errors
/// When the mod does not load.
pub fn run_tests(dir: &Path, filter: &str) -> Result<Vec<TestResult>> {
    let (root, id) = root_and_id(dir)?;
    let results = hexforge_script::testing::run_tests(&root, &id, &load_options(&root), filter)
        .map_err(|errors| problems_error(&errors))?;
    Ok(results
        .into_iter()
        .map(|r| TestResult {
            name: if r.name == r.file {
                r.file
            } else {
                format!("{}: {}", r.file, r.name)
            },
            failure: r.failure,
        })
        .collect())
}

/// Starts the game `watch` keeps: the first scenario, seed 1, played by the random bots to its
/// end (its record is what each reload is compared on).
fn watch_game(loaded: LoadedMod, out: &mut dyn std::io::Write) -> Result<Game<LuaRules>> {
    let scenario = loaded.scenarios.first().cloned().unwrap_or_default();
    let state = GameState::new(loaded.locks.clone(), &scenario, serde_json::Value::Null, 1);
    let (game, report) = play_bot_game(loaded.lua, state, &PlayOptions::default())?;
    writeln!(
        out,
        "game kept for comparison: scenario {scenario}, seed 1, {} actions: {}",
        report.actions,
        report.result_line()
    )?;
    Ok(game)
}

/// Reloads after a change: swaps the rules into the kept game if the mod loads (reporting
/// orphaned pieces and the first action of the game that now goes differently), else keeps the
/// old rules and prints every problem. The comparison runs in slices and stops as soon as
/// `changed_again` says the mod changed once more: then the new rules are kept, and the answer
/// is `true` (reload again at once, without waiting for the comparison).
fn on_change(
    dir: &Path,
    game: &mut Option<Game<LuaRules>>,
    changed_again: &mut dyn FnMut() -> bool,
    out: &mut dyn std::io::Write,
) -> Result<bool> {
    let start = std::time::Instant::now();
    let Some(g) = game.as_mut() else {
        // No game yet (the first load failed): try from scratch.
        match load(dir) {
            Ok(loaded) => {
                writeln!(out, "reloaded in {} ms", start.elapsed().as_millis())?;
                *game = Some(watch_game(loaded, out)?);
            }
            Err(e) => writeln!(out, "not reloaded:\n{e}")?,
        }
        return Ok(false);
    };
    let (root, id) = root_and_id(dir)?;
    let (new, report) = match reload(&root, &id, &load_options(&root), g.state()) {
        Ok(r) => r,
        Err(errors) => {
            writeln!(out, "not reloaded; the previous rules stay:")?;
            for e in errors {
                writeln!(out, "{e}")?;
            }
            return Ok(false);
        }
    };
    writeln!(out, "reloaded in {} ms", start.elapsed().as_millis())?;
    for (piece, kind) in &report.orphaned_pieces {
        writeln!(out, "  piece {piece}: type {kind} no longer exists")?;
    }
    let compared = compare_kept(g, &new, changed_again, out);
    g.set_rules(new);
    match compared? {
        Some(r) => match r.first_difference {
            None => writeln!(
                out,
                "  the kept game replays the same ({} actions)",
                r.compared
            )?,
            Some(d) => {
                let at = match (&d.index, &d.action) {
                    (Some(i), Some(a)) => format!("action {i} (`{}` by {})", a.id, a.side),
                    _ => "the game start".to_owned(),
                };
                writeln!(
                    out,
                    "  the kept game now differs at {at}: was {}, now {}",
                    d.old, d.new
                )?;
            }
        },
        None => {
            writeln!(out, "  comparison stopped: the mod changed again")?;
            return Ok(true);
        }
    }
    Ok(false)
}

/// Replays the kept game under its rules and `new` side by side, a slice at a time, saying how
/// far it is every second; `None` when `changed_again` stopped it first.
fn compare_kept(
    g: &Game<LuaRules>,
    new: &LuaRules,
    changed_again: &mut dyn FnMut() -> bool,
    out: &mut dyn std::io::Write,
) -> Result<Option<ReplayReport>> {
    let mut job = ReplayJob::new(g.rules(), new, g.record());
    let mut shown = std::time::Instant::now();
    loop {
        if changed_again() {
            return Ok(None);
        }
        let p = job.step(new, Budget::Time(Duration::from_millis(20)));
        if p.finished {
            return Ok(Some(job.finish(new)));
        }
        if shown.elapsed() >= Duration::from_secs(1) {
            writeln!(
                out,
                "  comparing the kept game: {} of {} actions",
                p.done, p.total
            )?;
            out.flush()?;
            shown = std::time::Instant::now();
        }
    }
}

/// Watches a mod (and the rest of its rule set) and reloads it on every change, printing
/// "reloaded in N ms" or every problem; runs until interrupted. A bot game is kept across
/// reloads, and each reload says where that game would now go differently.
///
/// # Errors
/// When the mod cannot be found or watched, or the output cannot be written.
pub fn watch(dir: &Path, out: &mut dyn std::io::Write) -> Result<()> {
    let dirs: Vec<PathBuf> = match rule_set(dir) {
        Ok(rules) => rules.mods().map(|m| m.dir.clone()).collect(),
        Err(_) => vec![dir.to_owned()],
    };
    let mut watcher = ModWatcher::new(Duration::from_millis(20))?;
    for d in &dirs {
        watcher.watch(d)?;
    }
    let shown: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    writeln!(out, "watching {} (Ctrl-C to stop)", shown.join(", "))?;
    let start = std::time::Instant::now();
    let mut game = match load(dir) {
        Ok(loaded) => {
            writeln!(out, "loaded in {} ms", start.elapsed().as_millis())?;
            Some(watch_game(loaded, out)?)
        }
        Err(e) => {
            writeln!(out, "not loaded:\n{e}")?;
            None
        }
    };
    out.flush()?;
    let mut again = false;
    loop {
        if !again && watcher.wait(Duration::from_secs(3600)).is_empty() {
            continue;
        }
        again = on_change(dir, &mut game, &mut || !watcher.poll().is_empty(), out)?;
        out.flush()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_during_the_comparison_stops_it_and_keeps_the_new_rules() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../mods/tutorial");
        let dir = dir.canonicalize().unwrap();
        let mut out = Vec::new();
        let mut game = Some(watch_game(load(&dir).unwrap(), &mut out).unwrap());
        let again = on_change(&dir, &mut game, &mut || true, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(again, "{text}");
        assert!(text.contains("reloaded in"), "{text}");
        assert!(
            text.contains("comparison stopped: the mod changed again"),
            "{text}"
        );
        // Left alone, the next comparison runs to its end.
        let mut out = Vec::new();
        assert!(!on_change(&dir, &mut game, &mut || false, &mut out).unwrap());
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("the kept game replays the same"), "{text}");
    }
}
