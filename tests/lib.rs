//! Workspace integration tests live in `tests/tests/`; this library holds what they share:
//! finding the bundled mods and running a check over every one of them.
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
