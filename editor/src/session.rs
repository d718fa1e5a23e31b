//! Opening a mod: load its rule set with `hexforge_script`, start one of its scenarios and turn
//! the started game into a [`BoardScene`] for the board view.
//!
//! This is the editor's one boundary with the Lua runtime. It loads exactly as the CLI does
//! (`load_mods` with the engine's shared `scripts/` folder beside the mods root, then
//! `LuaRules::new`, then `Game::new`, which runs the scenario's setup), so what the editor shows
//! is what `hexforge play` would start with.
//!
//! **What it deliberately does not do:** keep a game running or play moves. The started game's
//! state is copied into the scene and the VM is dropped; reopening is cheap (a few ms).
//! Problems come back as [`Problem`]s whose file is a path the code editor can open.
//!
//! ```no_run
//! use hexforge_editor::session::open_mod;
//! let opened = open_mod(std::path::Path::new("mods/hyperjump-galaxy"), None).unwrap();
//! assert_eq!(opened.scenario, "frontier");
//! assert!(opened.scene.graph.is_some());
//! ```

use crate::board_view::BoardScene;
use crate::panels::problems::Problem;
use hexforge_game::{Game, GameState};
use hexforge_script::ModError;
use hexforge_script::loader::{LoadOptions, load_mods};
use hexforge_script::rules::LuaRules;
use hexforge_script::scenario::scenario_ids;
use std::path::{Path, PathBuf};

/// The seed every game opened in the editor starts with (so two opens show the same board).
pub const EDITOR_SEED: u64 = 1;

/// A mod opened and one of its scenarios started.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenedMod {
    /// The mod folder.
    pub dir: PathBuf,
    /// Its scenario ids (file stems of `scenarios/*.toml` of it and its base), sorted.
    pub scenarios: Vec<String>,
    /// The scenario started.
    pub scenario: String,
    /// The started game's board and pieces.
    pub scene: BoardScene,
}

/// The mods root (parent folder) and the mod id (folder name) of a mod folder.
fn root_and_id(dir: &Path) -> (PathBuf, String) {
    // Keep the path as given when it names a folder (problems then read `mods/x/main.lua`);
    // canonicalize only paths like `.` or `mods/x/..` that have no plain last component.
    let dir = match dir.file_name() {
        Some(_) => dir.to_path_buf(),
        None => dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf()),
    };
    let id = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let root = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    (root, id)
}

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

/// The scene of a started game: board, pieces, and the declared footprints of its piece types.
/// A board without a hex grid shows its first graph map (in id order).
#[must_use]
pub fn scene_of(rules: &LuaRules, state: &GameState, title: String) -> BoardScene {
    let graph = if state.board.shape.is_none() {
        state.board.graphs.keys().next().cloned()
    } else {
        None
    };
    BoardScene {
        title,
        board: state.board.clone(),
        graph,
        pieces: state.pieces.values().cloned().collect(),
        footprints: rules
            .decls()
            .piece_types
            .iter()
            .filter(|(_, t)| !t.footprint.is_empty())
            .map(|(k, t)| (k.clone(), t.footprint.clone()))
            .collect(),
        ..BoardScene::default()
    }
}

/// Loads the mod in `dir` and starts `scenario` (default: the first by file name) with seed
/// [`EDITOR_SEED`].
///
/// # Errors
/// Every problem found, each at its file and line (manifest, Lua, declarations, setup).
pub fn open_mod(dir: &Path, scenario: Option<&str>) -> Result<OpenedMod, Vec<Problem>> {
    let (root, id) = root_and_id(dir);
    let base = error_base(&root);
    let to_problems = |errs: Vec<ModError>| -> Vec<Problem> {
        errs.iter().map(|e| problem_from_error(&base, e)).collect()
    };
    let scripts = base.join("scripts");
    let opts = LoadOptions {
        scripts_dir: scripts.is_dir().then_some(scripts),
        ..LoadOptions::default()
    };
    let loaded = load_mods(&root, &id, &opts).map_err(to_problems)?;
    let dirs: Vec<PathBuf> = loaded.mods.iter().map(|m| m.dir.clone()).collect();
    let scenarios = scenario_ids(&dirs);
    let rules = LuaRules::new(loaded).map_err(to_problems)?;
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
    let state = GameState::new(
        rules.mod_locks(),
        &scenario,
        serde_json::Value::Null,
        EDITOR_SEED,
    );
    let game = Game::new(&rules, state)
        .map_err(|e| vec![problem_from_text(&base, dir, &e.to_string())])?;
    let scene = scene_of(&rules, game.state(), format!("{id} / {scenario}"));
    Ok(OpenedMod {
        dir: dir.to_path_buf(),
        scenarios,
        scenario,
        scene,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn a_plain_mod_path_keeps_its_relative_root() {
        let (root, id) = root_and_id(Path::new("mods/demo"));
        assert_eq!((root, id.as_str()), (PathBuf::from("mods"), "demo"));
        assert_eq!(error_base(Path::new("mods")), PathBuf::from(""));
    }
}
