//! Fuzzing the archive reader and the manifest parser with proptest: random bytes, mutated
//! valid archives (compressed and raw), structured hostile tars and mutated manifests. They
//! must never panic; every failure is a value. The interesting inputs are kept as files in
//! `tests/corpus/` and replayed by `the_corpus_replays` (`bad-*` must be rejected, `ok-*`
//! accepted, `manifest-*` parsed without a panic). Regenerate with
//! `cargo test -p hexforge-pack --test fuzz -- --ignored write_corpus`.

mod common;

use common::*;
use hexforge_pack::archive::{Limits, check_name, read_pack};
use hexforge_script::Manifest;
use proptest::prelude::*;
use std::path::{Path, PathBuf};

fn small() -> Limits {
    Limits {
        max_entry: 64 * 1024,
        max_total: 256 * 1024,
        max_entries: 64,
        ratio_floor: 16 * 1024,
        ..Limits::default()
    }
}

/// Reading must give a value; an accepted archive holds only safe names.
fn read_is_total(bytes: &[u8]) {
    if let Ok(p) = read_pack(bytes, &small()) {
        for name in p.files.keys() {
            assert!(check_name(name, &Limits::default()).is_ok(), "{name}");
        }
    }
}

const NAME_PARTS: &[&str] = &[
    "demo",
    "..",
    ".",
    "",
    "/",
    "main.lua",
    "mod.toml",
    ".hidden",
    "a\u{0}b",
    "C:",
    "x\\y",
    "MAIN.lua",
    "scenarios",
    "ü",
    "con",
    "a b ",
    "*",
];

fn hostile_name() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(NAME_PARTS), 1..5).prop_map(|p| p.join("/"))
}

fn hostile_entry() -> impl Strategy<Value = Raw> {
    (
        hostile_name(),
        prop::sample::select(&b"0125346gxLK7"[..]),
        prop::collection::vec(any::<u8>(), 0..600),
        prop::option::of(0u64..5000),
    )
        .prop_map(|(name, kind, data, size)| Raw {
            name: name.into_bytes(),
            kind,
            data,
            link: b"../../etc/passwd".to_vec(),
            size,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        read_is_total(&bytes);
        let mut gz = vec![0x1f, 0x8b];
        gz.extend(&bytes);
        read_is_total(&gz);
    }

    #[test]
    fn mutated_archives_never_panic(flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)) {
        let mut bytes = archive(&valid_entries(&[("scenarios/a.toml", b"name = \"a\"")]));
        for (i, b) in &flips {
            let at = i.index(bytes.len());
            bytes[at] ^= b | 1;
        }
        read_is_total(&bytes);
    }

    #[test]
    fn mutated_tars_never_panic(flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)) {
        let mut raw = tar_bytes(&valid_entries(&[("scenarios/a.toml", b"name = \"a\"")]));
        for (i, b) in &flips {
            let at = i.index(raw.len());
            raw[at] ^= b | 1;
        }
        read_is_total(&gzip(&raw));
    }

    #[test]
    fn structured_hostile_tars_never_panic(extra in prop::collection::vec(hostile_entry(), 0..6), keep_valid in any::<bool>()) {
        let mut entries = if keep_valid { valid_entries(&[]) } else { Vec::new() };
        entries.extend(extra);
        read_is_total(&archive(&entries));
    }

    #[test]
    fn the_manifest_parser_never_panics(text in "\\PC{0,300}") {
        let _ = Manifest::parse(&text, "m/mod.toml");
    }

    #[test]
    fn mutated_manifests_never_panic(cut in 0usize..200, insert in "[\\[\\]{}=\"'\\n#a-z0-9.<>^~*, ]{0,20}") {
        let base = "id = \"demo\"\nname = \"Demo\"\nversion = \"1.0.0\"\nengine = \">=0.1\"\nextends = \"base\"\n[dependencies]\nbase = \"^1\"\nx = { version = \"*\", optional = true }\n";
        let at = base.char_indices().map(|(i, _)| i).nth(cut.min(base.len() - 1)).unwrap_or(0);
        let text = format!("{}{insert}{}", &base[..at], &base[at..]);
        if let Err(errs) = Manifest::parse(&text, "m/mod.toml") {
            prop_assert!(!errs.is_empty());
        }
    }
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

#[test]
fn the_corpus_replays() {
    let mut seen = 0;
    let mut entries: Vec<_> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        seen += 1;
        if name.starts_with("manifest-") {
            let _ = Manifest::parse(&String::from_utf8_lossy(&bytes), "m/mod.toml");
        } else if name.starts_with("ok-") {
            assert!(
                read_pack(&bytes, &Limits::default()).is_ok(),
                "{name} must be accepted"
            );
        } else if name.starts_with("bad-") {
            let e = read_pack(&bytes, &Limits::default());
            assert!(e.is_err(), "{name} must be rejected");
        }
    }
    assert!(seen >= 20, "corpus has only {seen} files");
}

/// Writes the corpus (run by hand; the files are committed).
#[test]
#[ignore = "writes tests/corpus; run by hand"]
fn write_corpus() {
    let dir = corpus_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let put = |name: &str, bytes: &[u8]| std::fs::write(dir.join(name), bytes).unwrap();
    put("ok-minimal.hexpack", &archive(&valid_entries(&[])));
    put(
        "ok-nested.hexpack",
        &archive(&valid_entries(&[
            ("scenarios/a.toml", b"name = \"a\""),
            ("a.lua", b""),
            ("a/b.lua", b""),
        ])),
    );
    let with = |e: Raw| {
        let mut v = valid_entries(&[]);
        v.push(e);
        archive(&v)
    };
    put("bad-absolute.hexpack", &with(file("/etc/evil", b"x")));
    put("bad-dotdot.hexpack", &with(file("demo/../../evil", b"x")));
    put("bad-symlink.hexpack", &with(entry("demo/l", b'2')));
    put("bad-hardlink.hexpack", &with(entry("demo/l", b'1')));
    put("bad-chardev.hexpack", &with(entry("demo/d", b'3')));
    put("bad-fifo.hexpack", &with(entry("demo/f", b'6')));
    put(
        "bad-duplicate.hexpack",
        &with(file("demo/main.lua", b"again")),
    );
    put(
        "bad-case-duplicate.hexpack",
        &with(file("demo/Main.lua", b"again")),
    );
    put("bad-hidden.hexpack", &with(file("demo/.git", b"x")));
    put(
        "bad-control-char.hexpack",
        &with(file("demo/a\u{7}.lua", b"x")),
    );
    let mut nonutf = file("x", b"x");
    nonutf.name = b"demo/\xc3\x28.lua".to_vec();
    put("bad-non-utf8.hexpack", &with(nonutf));
    let mut lying = file("demo/lie.lua", &[b'y'; 2048]);
    lying.size = Some(7);
    put("bad-lying-size.hexpack", &with(lying));
    put(
        "bad-bomb.hexpack",
        &archive(&valid_entries(&[("bomb.lua", &vec![0u8; 8 << 20])])),
    );
    let mut e = valid_entries(&[]);
    let main = e.iter().position(|r| r.name == b"demo/main.lua").unwrap();
    e[main].data = b"-- altered".to_vec();
    put("bad-hash.hexpack", &archive(&e));
    put("bad-no-index.hexpack", &archive(&valid_entries(&[])[1..]));
    put("bad-outside.hexpack", &with(file("other/x", b"x")));
    put("bad-not-gzip.hexpack", b"PK\x03\x04");
    put("bad-truncated.hexpack", &archive(&valid_entries(&[]))[..40]);
    put("bad-raw-tar.hexpack", &tar_bytes(&valid_entries(&[])));
    put("manifest-ok.toml", MANIFEST.as_bytes());
    put("manifest-deps.toml", b"id = \"x\"\nname = \"x\"\nversion = \"1.0.0\"\nengine = \"*\"\n[dependencies]\na = { version = \"^1\", optional = true, incompatible = true }\nb = 3\n");
    put("manifest-garbage.toml", b"\xff\xfe[[[=\"\n\0id=");
    put(
        "manifest-huge-version.toml",
        b"id = \"x\"\nname = \"x\"\nversion = \"99999999999999999999999.0.0\"\nengine = \"*\"\n",
    );
}
