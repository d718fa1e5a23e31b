//! Fuzzing save loading and replay, the way `hexforge replay` does them ([`record::load`],
//! then replay and the hash check, [`record::resume`]): a few thousand seeded mutations of a
//! small corpus of valid saves, made by bot games of the test rules (truncations, flipped
//! bytes, splices, duplicated chunks, huge numbers, deep nesting, long strings), and of their
//! JSON (unknown actions and sides, hostile parameters, absurd seeds and versions, huge action
//! lists). Each is written to a file and loaded; nothing may panic, and every failure is an
//! error whose message names the file (loading) or is short and non-empty (replaying).
//! Deterministic (the common LCG), and quick in a debug build.
//!
//! The interesting inputs are kept as files in `tests/save_corpus/` and replayed by
//! `the_corpus_replays` (`ok-*` must load and replay, `bad-*` must be refused by one of the
//! two). Regenerate with `cargo test -p hexforge-game --test save_fuzz -- --ignored write_corpus`.

mod common;

use common::{Fake, Lcg, bot_game, new_game};
use hexforge_game::record::{self, MAX_SAVE_BYTES, SaveError, SaveFile, SaveLimits};
use hexforge_game::{GameRecord, ReplayError, replay};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// Valid saves, as `record::save` writes them (pretty, even indices) and compact (odd).
fn corpus() -> Vec<Vec<u8>> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.hexsave");
    let mut out = Vec::new();
    for (seed, steps) in [(1u64, 0usize), (2, 6), (3, 30), (4, 120)] {
        let mut g = new_game(seed, Fake::new());
        bot_game(&mut g, &mut Lcg(seed), steps);
        let file = SaveFile::of(&g);
        record::save(&path, &file).unwrap();
        out.push(std::fs::read(&path).unwrap());
        out.push(serde_json::to_vec(&file).unwrap());
    }
    out
}

/// What happened to one input.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    /// `load` refused it.
    Refused,
    /// It loaded, and replay or the hash check refused it.
    Failed,
    /// It loaded and replayed to the saved state.
    Replayed,
}

/// Loads `path` as the CLI does, and replays what loads; checks that every failure is an
/// error with a message a player can act on.
fn load_and_replay(path: &Path) -> Outcome {
    let file = match record::load(path) {
        Ok(f) => f,
        Err(e) => {
            let msg = e.to_string();
            assert!(
                msg.starts_with(&format!("{}: ", path.display())),
                "a load error names the file: {msg:.300}"
            );
            assert!(msg.len() > path.as_os_str().len() + 10, "{msg}");
            assert!(msg.len() < 1000, "a load error is short: {msg:.300}…");
            return Outcome::Refused;
        }
    };
    match record::resume(&file, Fake::new()) {
        Ok(_) => Outcome::Replayed,
        Err(e) => {
            let msg = e.to_string();
            assert!(!msg.is_empty());
            assert!(msg.len() < 2000, "a replay error is short: {msg:.300}…");
            Outcome::Failed
        }
    }
}

/// The numbers the mutations put in place of others.
const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1.5",
    "-0",
    "1e999",
    "-1e308",
    "2147483647",
    "-2147483648",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775809",
    "99999999999999999999999999999999999999999999",
];

fn pick<'a, T>(rng: &mut Lcg, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len())]
}

/// One byte-level change to a save's text.
fn mutate_bytes(rng: &mut Lcg, bytes: &mut Vec<u8>, corpus: &[Vec<u8>]) {
    let at = |rng: &mut Lcg, bytes: &Vec<u8>| rng.below(bytes.len() + 1);
    match rng.below(9) {
        // Truncate.
        0 => {
            let n = at(rng, bytes);
            bytes.truncate(n);
        }
        // Flip a few bytes.
        1 => {
            for _ in 0..=rng.below(8) {
                if !bytes.is_empty() {
                    let i = rng.below(bytes.len());
                    bytes[i] ^= (rng.below(255) + 1) as u8;
                }
            }
        }
        // Splice in a piece of another save.
        2 => {
            let other = pick(rng, corpus);
            let a = rng.below(other.len());
            let b = (a + rng.below(400)).min(other.len());
            let i = at(rng, bytes);
            bytes.splice(i..i, other[a..b].iter().copied());
        }
        // Duplicate a chunk, up to a few hundred times.
        3 => {
            let a = rng.below(bytes.len().max(1));
            let b = (a + 1 + rng.below(200)).min(bytes.len());
            let chunk = bytes[a.min(b)..b].to_vec();
            let times = *pick(rng, &[1, 2, 10, 300]);
            bytes.splice(b..b, chunk.repeat(times));
        }
        // A number becomes a huge, negative or fractional one.
        4 => {
            let digits: Vec<usize> = (0..bytes.len())
                .filter(|&i| {
                    bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_digit())
                })
                .collect();
            if !digits.is_empty() {
                let start = *pick(rng, &digits);
                let end = (start..bytes.len())
                    .find(|&i| !bytes[i].is_ascii_digit())
                    .unwrap_or(bytes.len());
                let n = pick(rng, NUMBERS).as_bytes();
                bytes.splice(start..end, n.iter().copied());
            }
        }
        // Deep nesting, closed or not.
        5 => {
            let depth = *pick(rng, &[1, 100, 127, 128, 129, 1000, 100_000]);
            let i = at(rng, bytes);
            let mut deep = "[".repeat(depth);
            if rng.below(2) == 0 {
                deep.push_str(&"]".repeat(depth));
                deep.push(',');
            }
            bytes.splice(i..i, deep.into_bytes());
        }
        // A string becomes very long (plain, escapes, or invalid UTF-8).
        6 => {
            let quotes: Vec<usize> = (0..bytes.len()).filter(|&i| bytes[i] == b'"').collect();
            if quotes.len() >= 2 {
                let q = rng.below(quotes.len() - 1);
                let (a, b) = (quotes[q] + 1, quotes[q + 1]);
                let len = *pick(rng, &[300, 70_000, 1 << 20]);
                let long: Vec<u8> = match rng.below(3) {
                    0 => b"x".repeat(len),
                    1 => b"\\u00e9\\n".repeat(len / 8),
                    _ => b"\xff\xc3".repeat(len / 2),
                };
                bytes.splice(a..b, long);
            }
        }
        // Delete a range.
        7 => {
            let a = rng.below(bytes.len().max(1)).min(bytes.len());
            let b = (a + rng.below(100)).min(bytes.len());
            bytes.drain(a..b);
        }
        // Insert a random byte or a stray token.
        _ => {
            let i = at(rng, bytes);
            let t = *pick(
                rng,
                &[
                    &b"\0"[..],
                    b"{",
                    b"}",
                    b"]",
                    b",",
                    b":",
                    b"\"",
                    b"nul",
                    b"\xef\xbb\xbf",
                ],
            );
            bytes.splice(i..i, t.iter().copied());
        }
    }
}

/// Hostile action parameters.
fn hostile_params(rng: &mut Lcg) -> Value {
    match rng.below(9) {
        0 => Value::Null,
        1 => json!([]),
        2 => json!("x".repeat(10_000)),
        3 => json!({ "piece": u64::MAX, "to": { "q": i32::MIN, "r": i32::MAX } }),
        4 => json!({ "piece": 1, "to": { "q": i32::MAX, "r": 0 } }),
        5 => json!({ "piece": 4, "to": { "q": -2147483648_i64, "r": -2147483648_i64 } }),
        6 => json!({ "piece": -1, "to": 3 }),
        7 => json!({ "piece": 1.5, "to": { "q": 1e300, "r": null } }),
        _ => {
            let mut v = json!(1);
            for _ in 0..100 {
                v = json!([v]);
            }
            json!({ "piece": v })
        }
    }
}

/// One change to a save's JSON (the result usually still loads, so replay is what is tested).
fn mutate_json(rng: &mut Lcg, save: &mut Value) {
    let long = || "ü".repeat(5_000);
    let n = save["record"]["actions"].as_array().map_or(0, Vec::len);
    let i = rng.below(n.max(1));
    let rec = &mut save["record"];
    match rng.below(12) {
        0 => {
            rec["format_version"] = json!(*pick(rng, &[0u64, 2, 99, u64::from(u32::MAX), 1 << 32]))
        }
        1 => {
            rec["seed"] = pick(
                rng,
                &[json!(0), json!(u64::MAX), json!(-1), json!(1.5), json!("7")],
            )
            .clone()
        }
        2 if n > 0 => {
            rec["actions"][i]["side"] = json!(pick(rng, &["nobody", "", "red", "blue", "ü"]));
        }
        3 if n > 0 => rec["actions"][i]["side"] = json!(long()),
        4 if n > 0 => {
            rec["actions"][i]["id"] = json!(pick(rng, &["fly", "", "end_phase", "move", "MOVE"]));
        }
        5 if n > 0 => rec["actions"][i]["id"] = json!(long()),
        6 if n > 0 => rec["actions"][i]["params"] = hostile_params(rng),
        // Huge action lists: the same actions many times over, or thousands of end_phase.
        7 => {
            let actions = rec["actions"].as_array().cloned().unwrap_or_default();
            let more = if actions.is_empty() || rng.below(2) == 0 {
                (0..5_000)
                    .map(|k| json!({ "id": "end_phase", "side": (["blue", "red"][k % 2]) }))
                    .collect()
            } else {
                actions
                    .iter()
                    .cycle()
                    .take(1000 + actions.len())
                    .cloned()
                    .collect()
            };
            rec["actions"] = Value::Array(more);
        }
        8 if n > 1 => {
            let a = rec["actions"].as_array_mut().unwrap();
            let j = rng.below(a.len());
            if rng.below(2) == 0 {
                a.swap(i, j);
            } else {
                a.remove(i);
            }
        }
        9 => {
            let lock =
                json!({ "id": long(), "version": "99999999999999999999.0.0", "content_hash": "" });
            if let Some(m) = rec["mods"].as_array_mut() {
                m.push(lock);
            }
            rec["options"] = json!({ "size": u64::MAX, "nested": [[[[[[[[[[{}]]]]]]]]]] });
        }
        10 => {
            save["state_hash"] = pick(
                rng,
                &[json!(""), json!("0".repeat(64)), json!(long()), json!(7)],
            )
            .clone();
        }
        _ => {
            let key = *pick(
                rng,
                &[
                    "format_version",
                    "mods",
                    "scenario",
                    "seed",
                    "actions",
                    "options",
                ],
            );
            if let Some(o) = rec.as_object_mut() {
                o.remove(key);
            }
        }
    }
}

#[test]
fn thousands_of_mutated_saves_are_refused_or_replayed_without_a_panic() {
    let started = std::time::Instant::now();
    let corpus = corpus();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mutated.hexsave");
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    let mut tally = |what: &str, o: Outcome| *seen.entry(format!("{what} {o:?}")).or_default() += 1;
    let mut rng = Lcg(0x5a7e_f11e);
    for round in 0..2500 {
        let mut bytes = corpus[round % corpus.len()].clone();
        for _ in 0..=rng.below(3) {
            mutate_bytes(&mut rng, &mut bytes, &corpus);
        }
        std::fs::write(&path, &bytes).unwrap();
        tally("bytes", load_and_replay(&path));
    }
    for round in 0..1000 {
        let mut save: Value = serde_json::from_slice(&corpus[round % corpus.len()]).unwrap();
        for _ in 0..=rng.below(3) {
            mutate_json(&mut rng, &mut save);
        }
        let bytes = if rng.below(2) == 0 {
            serde_json::to_vec_pretty(&save).unwrap()
        } else {
            serde_json::to_vec(&save).unwrap()
        };
        std::fs::write(&path, &bytes).unwrap();
        tally("json", load_and_replay(&path));
    }
    eprintln!("{seen:?} in {:?}", started.elapsed());
    // Every kind of ending was reached: the mutations test loading and replay both.
    for (key, least) in [
        ("bytes Refused", 1000),
        ("bytes Failed", 50),
        ("json Refused", 100),
        ("json Failed", 100),
        ("json Replayed", 5),
    ] {
        assert!(
            seen.get(key).copied().unwrap_or(0) >= least,
            "{key}: {seen:?}"
        );
    }
}

#[test]
fn every_truncation_of_a_valid_save_is_a_clear_error() {
    let save = &corpus()[2];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.hexsave");
    for n in 0..save.len() - 1 {
        std::fs::write(&path, &save[..n]).unwrap();
        assert_eq!(load_and_replay(&path), Outcome::Refused, "cut at {n}");
    }
    std::fs::write(&path, &save[..save.len() / 2]).unwrap();
    let e = record::load(&path).unwrap_err().to_string();
    assert!(
        e.contains("not a save file (not JSON: EOF while parsing"),
        "{e}"
    );
    assert!(
        e.ends_with("; the file ends too early: was it cut short when copied or saved?)"),
        "{e}"
    );
}

#[test]
fn an_empty_file_is_not_a_save() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.hexsave");
    std::fs::write(&path, "").unwrap();
    let e = record::load(&path).unwrap_err();
    assert!(matches!(e, SaveError::NotJson { .. }), "{e}");
    assert!(
        e.to_string()
            .ends_with("empty.hexsave: not a save file (the file is empty)"),
        "{e}"
    );
}

#[test]
fn a_file_over_the_cap_is_refused_before_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.hexsave");
    let save = &corpus()[4];
    std::fs::write(&path, save).unwrap();
    let limits = SaveLimits {
        bytes: 1000,
        ..SaveLimits::default()
    };
    let e = record::load_with(&path, &limits).unwrap_err();
    assert!(
        matches!(e, SaveError::TooBig { size: Some(n), cap: 1000, .. } if n == save.len() as u64),
        "{e}"
    );
    let text = e.to_string();
    assert!(
        text.starts_with(&format!("{}: the file (", path.display())),
        "{text}"
    );
    assert!(
        text.ends_with("KiB) is too big to be a save (the most this engine reads is 1000 B)"),
        "{text}"
    );
    // Under the default cap it loads.
    assert!(record::load(&path).is_ok());
    assert_eq!(MAX_SAVE_BYTES, 256 << 20);
    // A folder is not a save.
    let e = record::load(dir.path()).unwrap_err();
    assert!(
        e.to_string().ends_with("is a folder, not a save file"),
        "{e}"
    );
}

/// A file with no size (a device) is read only up to the cap; before, `load` read it to the
/// end (forever, for /dev/zero).
#[cfg(unix)]
#[test]
fn an_endless_file_is_read_only_up_to_the_cap() {
    let zero = Path::new("/dev/zero");
    if !zero.exists() {
        return;
    }
    let limits = SaveLimits {
        bytes: 4096,
        ..SaveLimits::default()
    };
    let e = record::load_with(zero, &limits).unwrap_err();
    assert!(matches!(e, SaveError::TooBig { size: None, .. }), "{e}");
    assert_eq!(
        e.to_string(),
        "/dev/zero: the file is too big to be a save (the most this engine reads is 4.0 KiB)"
    );
}

#[test]
fn what_would_take_too_much_memory_is_refused_before_it_is_built() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("objects.hexsave");
    // 7 bytes of text, a 640-byte B-tree node in memory: a 90-fold blow-up.
    let objects = format!("[{}{{}}]", r#"{"":0},"#.repeat(50_000));
    std::fs::write(&path, &objects).unwrap();
    let cost = record::load_cost(objects.as_bytes(), u64::MAX).unwrap();
    assert!(cost > 80 * objects.len() as u64, "{cost}");
    let limits = SaveLimits {
        memory: 1 << 20,
        ..SaveLimits::default()
    };
    let e = record::load_with(&path, &limits).unwrap_err();
    assert!(
        matches!(
            e,
            SaveError::TooBigInMemory {
                limit: 0x10_0000,
                ..
            }
        ),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("not a save file (loading it would take more than 1.0 MiB of memory"),
        "{e}"
    );
    // Saves as this engine writes them (pretty-printed) are estimated under 16 times their
    // size, so one at the size cap still loads; compact ones (other tools) under 40 times.
    assert_eq!(record::MAX_LOAD_MEMORY, 16 * MAX_SAVE_BYTES);
    for (i, save) in corpus().iter().enumerate() {
        let cost = record::load_cost(save, u64::MAX).unwrap();
        let most = if i % 2 == 0 { 16 } else { 40 };
        assert!(
            cost < most * save.len() as u64,
            "{cost} for {} bytes",
            save.len()
        );
    }
}

#[test]
fn deep_nesting_is_refused_without_overflowing_the_stack() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deep.hexsave");
    for text in [
        "[".repeat(100_000),
        format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)),
        format!(
            r#"{{"format":"hexforge-save","version":1,"record":{{"options":{}1{}}}}}"#,
            "[".repeat(100_000),
            "]".repeat(100_000)
        ),
    ] {
        std::fs::write(&path, text).unwrap();
        let e = record::load(&path).unwrap_err();
        assert!(matches!(e, SaveError::NotJson { .. }), "{e}");
        assert!(e.to_string().contains("recursion limit exceeded"), "{e}");
    }
}

#[test]
fn wrong_versions_say_which_version_this_engine_reads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v.hexsave");
    let good: Value = serde_json::from_slice(&corpus()[2]).unwrap();

    let mut v = good.clone();
    v["version"] = json!(2);
    std::fs::write(&path, v.to_string()).unwrap();
    let e = record::load(&path).unwrap_err().to_string();
    assert!(
        e.ends_with("save version 2 is not supported (this engine reads version 1)"),
        "{e}"
    );

    let mut v = good.clone();
    v["record"]["format_version"] = json!(2);
    std::fs::write(&path, v.to_string()).unwrap();
    let file = record::load(&path).unwrap();
    let e = record::resume(&file, Fake::new()).err().unwrap();
    assert!(
        matches!(
            e,
            SaveError::Replay(ReplayError::UnsupportedVersion { found: 2 })
        ),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        "the save does not replay: record format version 2 is not supported (this engine reads 1)"
    );

    // A version that does not fit is a damaged save, not a crash.
    let mut v = good;
    v["record"]["format_version"] = json!(1u64 << 40);
    std::fs::write(&path, v.to_string()).unwrap();
    let e = record::load(&path).unwrap_err();
    assert!(matches!(e, SaveError::Malformed { .. }), "{e}");
}

#[test]
fn hostile_strings_are_shortened_in_replay_errors() {
    let mut g = new_game(5, Fake::new());
    bot_game(&mut g, &mut Lcg(5), 4);
    let mut rec: GameRecord = g.record();
    rec.actions[1].side = "x".repeat(1 << 20).into();
    let e = replay(&rec, Fake::new()).err().unwrap();
    assert!(matches!(&e, ReplayError::Action { index: 1, side, .. } if side.len() == 1 << 20));
    let text = e.to_string();
    assert!(text.len() < 1000, "{}", text.len());
    assert!(text.contains("… (1048576 bytes in all)"), "{text}");
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/save_corpus")
}

#[test]
fn the_corpus_replays() {
    let mut entries: Vec<_> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    let mut seen = 0;
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        seen += 1;
        if name.starts_with("ok-") {
            // Replay only: the saved hash follows the state's serialisation, which may change.
            let file = record::load(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
            replay(&file.record, Fake::new()).unwrap_or_else(|e| panic!("{name}: {e}"));
        } else if name.starts_with("bad-") {
            let outcome = load_and_replay(&path);
            assert_ne!(outcome, Outcome::Replayed, "{name} must be refused");
        }
    }
    assert!(seen >= 15, "corpus has only {seen} files");
}

/// Writes the corpus (run by hand; the files are committed).
#[test]
#[ignore = "writes tests/save_corpus; run by hand"]
fn write_corpus() {
    let dir = corpus_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let put = |name: &str, bytes: &[u8]| std::fs::write(dir.join(name), bytes).unwrap();
    let saves = corpus();
    put("ok-start.hexsave", &saves[0]);
    put("ok-game.hexsave", &saves[4]);
    put("ok-compact.hexsave", &saves[5]);
    let good: Value = serde_json::from_slice(&saves[4]).unwrap();
    let with = |f: &dyn Fn(&mut Value)| {
        let mut v = good.clone();
        f(&mut v);
        serde_json::to_vec_pretty(&v).unwrap()
    };
    put("bad-empty.hexsave", b"");
    put("bad-truncated.hexsave", &saves[4][..saves[4].len() / 3]);
    put(
        "bad-not-json.hexsave",
        b"\xff\xfe{\"format\": \"hexforge-save\"",
    );
    put("bad-array.hexsave", b"[1, 2, 3]");
    put("bad-deep.hexsave", "[".repeat(10_000).as_bytes());
    put(
        "bad-no-format.hexsave",
        &with(&|v| v["format"] = json!(["hexforge-save"])),
    );
    put(
        "bad-save-version.hexsave",
        &with(&|v| v["version"] = json!(2)),
    );
    put(
        "bad-format-version.hexsave",
        &with(&|v| v["record"]["format_version"] = json!(2)),
    );
    put(
        "bad-negative-seed.hexsave",
        &with(&|v| v["record"]["seed"] = json!(-1)),
    );
    put(
        "bad-huge-seed.hexsave",
        &with(&|v| v["record"]["seed"] = json!(1e30)),
    );
    put(
        "bad-duplicate-record.hexsave",
        format!(
            "{{\"format\":\"hexforge-save\",\"version\":1,\"record\":{0},\"record\":{0},\"state_hash\":\"\"}}",
            good["record"]
        )
        .as_bytes(),
    );
    put(
        "bad-unknown-side.hexsave",
        &with(&|v| v["record"]["actions"][0]["side"] = json!("green")),
    );
    put(
        "bad-unknown-action.hexsave",
        &with(&|v| v["record"]["actions"][0]["id"] = json!("teleport")),
    );
    // These overflowed the test rules' hex arithmetic (a panic) before they bounded coordinates.
    put(
        "bad-huge-coordinates.hexsave",
        &with(&|v| {
            v["record"]["actions"][0]["params"]["to"] = json!({ "q": i32::MIN, "r": i32::MAX })
        }),
    );
    put(
        "bad-long-side.hexsave",
        &with(&|v| v["record"]["actions"][0]["side"] = json!("s".repeat(10_000))),
    );
    put(
        "bad-after-the-end.hexsave",
        &with(&|v| {
            let more: Vec<Value> = (0..500)
                .map(|k| json!({ "id": "end_phase", "side": (["blue", "red"][k % 2]) }))
                .collect();
            v["record"]["actions"] = Value::Array(more);
        }),
    );
    put(
        "bad-hash.hexsave",
        &with(&|v| v["state_hash"] = json!("0".repeat(64))),
    );
}
