//! A sharded sweep run through GNU parallel, as docs/MODDING.md shows it, must merge into the
//! report of the unsharded run: for `play` and for `compare`, text and JSON. Only the time per
//! game may differ. Needs the `parallel` binary (CI installs it in `.ci/run`); without it the
//! test fails and says so instead of skipping.

use std::path::Path;
use std::process::{Command, Output};

const GAMES: &str = "20";
const SHARDS: usize = 3;

fn hexforge() -> &'static str {
    env!("CARGO_BIN_EXE_hexforge")
}

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn ok(what: &str, o: Output) -> String {
    assert!(
        o.status.success(),
        "{what} failed: {}\n{}",
        String::from_utf8_lossy(&o.stderr),
        String::from_utf8_lossy(&o.stdout)
    );
    String::from_utf8(o.stdout).unwrap()
}

fn run(args: &[&str]) -> String {
    let o = Command::new(hexforge())
        .args(args)
        .current_dir(root())
        .output()
        .expect("the binary runs");
    ok(&format!("hexforge {}", args.join(" ")), o)
}

/// The text without the one line that differs between runs of the same games.
fn without_time(text: &str) -> String {
    text.lines()
        .filter(|l| !l.contains("ms per game"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The JSON with every `ms_per_game` emptied.
fn without_ms(text: &str) -> serde_json::Value {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(map) => {
                map.remove("ms_per_game");
                map.values_mut().for_each(strip);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    strip(&mut v);
    v
}

/// Runs `hexforge <sweep> --shard {}/SHARDS --jsonl DIR/part{}.jsonl` for every shard through
/// GNU parallel (two jobs at a time) and returns the part files.
fn parallel_sweep(dir: &Path, sweep: &[&str]) -> Vec<String> {
    let found = Command::new("parallel").arg("--version").output();
    assert!(
        found.is_ok_and(|o| o.status.success()),
        "GNU parallel is not installed: this test runs a sweep through it \
         (`apt-get install parallel`; .ci/run installs it)"
    );
    let parts = format!("{}/part{{}}.jsonl", dir.display());
    let mut args = vec!["--halt", "now,fail=1", "-j", "2", hexforge()];
    args.extend_from_slice(sweep);
    args.extend(["--shard", "{}/3", "--jsonl", &parts, ":::", "1", "2", "3"]);
    let o = Command::new("parallel")
        .args(&args)
        .current_dir(root())
        .output()
        .expect("parallel runs");
    ok("parallel", o);
    (1..=SHARDS)
        .map(|k| format!("{}/part{k}.jsonl", dir.display()))
        .collect()
}

fn merged_equals_unsharded(sweep: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    let parts = parallel_sweep(tmp.path(), sweep);
    let lines: usize = parts
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap().lines().count())
        .sum();
    let per_game = if sweep[0] == "compare" { 2 } else { 1 };
    assert_eq!(lines, 20 * per_game, "every game once, over all shards");

    let merge = |json: bool| {
        let mut args = vec!["stats", "merge"];
        args.extend(parts.iter().map(String::as_str));
        if json {
            args.push("--json");
        }
        run(&args)
    };
    let whole = run(sweep);
    let merged = merge(false);
    assert!(whole.lines().count() > 8, "{whole}");
    assert_eq!(without_time(&merged), without_time(&whole));

    let mut json = sweep.to_vec();
    json.push("--json");
    assert_eq!(without_ms(&merge(true)), without_ms(&run(&json)));
}

#[test]
fn a_sharded_play_sweep_through_gnu_parallel_merges_into_the_unsharded_report() {
    merged_equals_unsharded(&[
        "play",
        "mods/tutorial",
        "--games",
        GAMES,
        "--seed",
        "5",
        "--bots",
        "blue=greedy",
    ]);
}

#[test]
fn a_sharded_compare_sweep_through_gnu_parallel_merges_into_the_unsharded_report() {
    merged_equals_unsharded(&[
        "compare",
        "mods/tutorial",
        "tutorial-variant",
        "--games",
        GAMES,
        "--bots",
        "random",
    ]);
}

#[test]
fn a_shard_merged_twice_is_refused_and_a_missing_one_is_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let part = |k: &str| {
        let path = tmp.path().join(format!("p{k}.jsonl"));
        run(&[
            "play",
            "mods/tutorial",
            "--games",
            "6",
            "--shard",
            &format!("{k}/2"),
            "--jsonl",
            path.to_str().unwrap(),
        ]);
        path.display().to_string()
    };
    let (one, two) = (part("1"), part("2"));
    let o = Command::new(hexforge())
        .args(["stats", "merge", &one, &two, &one])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("is a shard merged twice?"), "{err}");

    let o = Command::new(hexforge())
        .args(["stats", "merge", &one])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.success() && err.contains("3 of 6 games missing (seeds 4..=6)"),
        "{err}"
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.starts_with("3 games of tutorial"), "{text}");
}
