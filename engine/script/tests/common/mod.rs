//! What the rule-set tests share: a one-mod folder written to a temporary directory, loaded,
//! and a game started on it.
#![allow(dead_code)] // each test file uses its part

use hexforge_game::{Game, GameState};
use hexforge_script::LuaRules;
use hexforge_script::loader::{LoadOptions, load_mods};
use serde_json::Value;
use std::path::Path;

/// Writes `files` (relative path, text) under `root`, making folders as needed.
pub fn write(root: &Path, files: &[(&str, &str)]) {
    for (p, text) in files {
        let p = root.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

/// Mod `id` with `main.lua` and one scenario named after it, loaded as rules; the load errors
/// (`file:line: message`) otherwise. The directory must outlive the rules.
pub fn load(
    id: &str,
    main: &str,
    scenario: &str,
) -> (tempfile::TempDir, Result<LuaRules, Vec<String>>) {
    let dir = tempfile::tempdir().unwrap();
    let mods = dir.path().join("mods");
    let manifest = format!("id = \"{id}\"\nname = \"{id}\"\nversion = \"0.1.0\"\nengine = \"*\"\n");
    write(
        &mods,
        &[
            (&format!("{id}/mod.toml"), &manifest),
            (&format!("{id}/main.lua"), main),
            (&format!("{id}/scenarios/{id}.toml"), scenario),
        ],
    );
    let errors = |e: Vec<hexforge_script::ModError>| e.iter().map(ToString::to_string).collect();
    let rules = load_mods(&mods, id, &LoadOptions::default())
        .map_err(errors)
        .and_then(|l| LuaRules::new(l).map_err(errors));
    (dir, rules)
}

/// [`load`], which must succeed, and a game started on the mod's scenario with `options`.
pub fn game(
    id: &str,
    main: &str,
    scenario: &str,
    options: Value,
) -> (tempfile::TempDir, Game<LuaRules>) {
    let (dir, rules) = load(id, main, scenario);
    let rules = rules.unwrap_or_else(|e| panic!("{e:#?}"));
    let state = GameState::new(rules.mod_locks(), id, options, 1);
    (dir, Game::new(rules, state).unwrap())
}
