//! Hot reload, end to end: from a mod file being written to the new rules being ready to swap
//! in (notify event, debounce, fresh VM, every Lua file loaded, declarations checked, the
//! running game's pieces checked against the new types). Run with
//! `cargo bench -p hexforge-script --bench reload`; the goal is a median of at most 30 ms for the
//! largest bundled mod.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use hexforge_game::GameState;
use hexforge_script::loader::LoadOptions;
use hexforge_script::watch::{ModWatcher, reload};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The debounce the CLI's `watch` and the editor use.
const DEBOUNCE: Duration = Duration::from_millis(20);

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The bundled mod with the most Lua, by lines.
fn largest_mod() -> String {
    let mut best = (0, String::new());
    for entry in std::fs::read_dir(workspace().join("mods"))
        .unwrap()
        .flatten()
    {
        let lines: usize = walk(&entry.path())
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "lua"))
            .map(|p| {
                std::fs::read_to_string(p)
                    .unwrap_or_default()
                    .lines()
                    .count()
            })
            .sum();
        if lines > best.0 {
            best = (lines, entry.file_name().to_string_lossy().into_owned());
        }
    }
    best.1
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

fn copy_tree(from: &Path, to: &Path) {
    for p in walk(from) {
        let dest = to.join(p.strip_prefix(from).unwrap());
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(&p, &dest).unwrap();
    }
}

fn bench(c: &mut Criterion) {
    let id = largest_mod();
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("mods");
    copy_tree(&workspace().join("mods"), &root);
    let opts = LoadOptions {
        scripts_dir: Some(workspace().join("scripts")),
        ..LoadOptions::default()
    };
    let state = GameState::new(Vec::new(), "", serde_json::Value::Null, 1);
    let main = root.join(&id).join("main.lua");
    let original = std::fs::read_to_string(&main).unwrap();
    let mut watcher = ModWatcher::new(DEBOUNCE).unwrap();
    watcher.watch(&root.join(&id)).unwrap();
    let mut edit = 0u64;

    let mut group = c.benchmark_group("hot reload");
    group.sample_size(30);
    group.bench_function(format!("write -> new rules ready ({id})"), |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                edit += 1;
                let start = Instant::now();
                // A save as an editor does it: the whole file rewritten with a change.
                std::fs::write(&main, format!("{original}\n-- edit {edit}\n")).unwrap();
                let changed = watcher.wait(Duration::from_secs(5));
                assert!(!changed.is_empty(), "the watcher saw no change");
                let (rules, _report) = reload(&root, &id, &opts, &state).expect("the mod reloads");
                total += start.elapsed();
                drop(rules);
            }
            total
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
