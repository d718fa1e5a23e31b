//! Workspace integration tests live in `tests/tests/`; this library holds what they share:
//! finding the bundled mods, running a check over every one of them, and starting a game of each
//! scenario with a seeded random player (`each_scenario_game`, `Lcg`).
//!
//! ```no_run
//! hexforge_tests::for_every_mod("mods that fail", |dir| {
//!     if dir.join("README.md").is_file() { Vec::new() } else { vec!["no README".into()] }
//! });
//! ```

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The workspace's root folder.
#[must_use]
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is inside the workspace")
        .to_owned()
}

/// The bundled mods (folders under `mods/` with a `mod.toml`), sorted by folder name.
///
/// # Panics
/// When `mods/` cannot be read.
#[must_use]
pub fn bundled_mods() -> Vec<PathBuf> {
    let mut mods: Vec<PathBuf> = std::fs::read_dir(workspace_root().join("mods"))
        .expect("the mods/ folder")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("mod.toml").is_file())
        .collect();
    mods.sort();
    mods
}

/// Runs `f` on every bundled mod, two at a time (one VM per thread), with the workspace root
/// as working directory (the runtime finds the shared `scripts/` folder from it), and fails
/// listing every mod's problems under `what`, so one broken mod does not hide another.
///
/// # Panics
/// When fewer than two mods are found, or any mod has problems.
pub fn for_every_mod(what: &str, f: impl Fn(&Path) -> Vec<String> + Sync) {
    std::env::set_current_dir(workspace_root()).expect("the workspace root");
    let mods = bundled_mods();
    assert!(mods.len() >= 2, "expected the bundled mods under mods/");
    let failures = Mutex::new(Vec::new());
    let next = Mutex::new(mods.iter());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let Some(dir) = next.lock().unwrap().next() else {
                        break;
                    };
                    for problem in f(dir) {
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("{}: {problem}", dir.display()));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{what}:\n{}", failures.join("\n"));
}

/// A small seeded generator (an LCG) for the tests' random players: the same picks on every run.
pub struct Lcg(pub u64);

impl Lcg {
    /// The next pick below `n` (which must not be 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as usize % n
    }
}

/// Runs `f(scenario, game)` on a fresh game of every scenario of `loaded` (no options, `seed`)
/// and gathers the problems it reports; a scenario whose setup fails is a problem itself.
pub fn each_scenario_game(
    loaded: &hexforge::runtime::LoadedMod,
    seed: u64,
    mut f: impl FnMut(&str, &mut hexforge_game::Game<&hexforge_script::LuaRules>) -> Vec<String>,
) -> Vec<String> {
    let mut problems = Vec::new();
    for scenario in &loaded.scenarios {
        let state = hexforge_game::GameState::new(
            loaded.locks.clone(),
            scenario,
            serde_json::Value::Null,
            seed,
        );
        match hexforge_game::Game::new(loaded.rules(), state) {
            Ok(mut game) => problems.extend(f(scenario, &mut game)),
            Err(e) => problems.push(format!("{scenario}: setup failed: {e}")),
        }
    }
    problems
}
