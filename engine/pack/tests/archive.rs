//! Reading archives: a round trip, and one test per kind of hostile archive, each checking the
//! message a user reads.

mod common;

use common::*;
use hexforge_pack::archive::{Limits, read_pack, write_pack};
use hexforge_pack::{PackError, hash};

fn reject(bytes: &[u8]) -> PackError {
    read_pack(bytes, &Limits::default()).expect_err("the archive must be rejected")
}

fn reject_entries(entries: &[Raw]) -> String {
    reject(&archive(entries)).to_string()
}

#[test]
fn a_hand_built_valid_archive_reads() {
    let p = read_pack(
        &archive(&valid_entries(&[("scenarios/a.toml", b"x")])),
        &Limits::default(),
    )
    .unwrap();
    assert_eq!(p.manifest.id, "demo");
    assert_eq!(p.files.len(), 3);
}

#[test]
fn writing_is_deterministic_and_reads_back_with_the_loaders_hash() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = mod_dir(
        tmp.path(),
        "demo",
        "1.2.0",
        "",
        &[
            ("main.lua", "-- x"),
            ("scenarios/s.toml", "name = 1"),
            (".git/config", "hidden"),
        ],
    );
    let (a, index) = write_pack(&dir, &Limits::default()).unwrap();
    let (b, _) = write_pack(&dir, &Limits::default()).unwrap();
    assert_eq!(a, b, "same folder, same bytes");
    assert_eq!(
        index.content_hash,
        hexforge_script::loader::content_hash(&dir)
    );
    let p = read_pack(&a, &Limits::default()).unwrap();
    assert_eq!(p.index, index);
    assert!(
        !p.files.contains_key(".git/config"),
        "hidden files are not packed"
    );
    assert_eq!(index.mod_version, "1.2.0");
}

#[test]
fn packing_refuses_a_symlink_in_the_mod_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = mod_dir(tmp.path(), "demo", "1.0.0", "", &[]);
    std::os::unix::fs::symlink("/etc/passwd", dir.join("passwd")).unwrap();
    let e = write_pack(&dir, &Limits::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("links and special files cannot be packed"),
        "{e}"
    );
}

#[test]
fn rejects_bytes_that_are_not_gzip() {
    assert!(
        reject(b"PK\x03\x04zip")
            .to_string()
            .contains("not a .hexpack archive: not gzip")
    );
    assert!(reject(&[]).to_string().contains("not gzip"));
}

#[test]
fn rejects_a_damaged_stream() {
    let mut bytes = archive(&valid_entries(&[]));
    bytes.truncate(bytes.len() / 2);
    assert!(
        reject(&bytes)
            .to_string()
            .contains("not a .hexpack archive"),
        "{}",
        reject(&bytes)
    );
}

#[test]
fn rejects_absolute_paths() {
    let mut e = valid_entries(&[]);
    e.push(file("/etc/cron.d/evil", b"x"));
    assert_eq!(
        reject_entries(&e),
        "entry \"/etc/cron.d/evil\": unsafe path (absolute path)"
    );
}

#[test]
fn rejects_dot_dot() {
    let mut e = valid_entries(&[]);
    e.push(file("demo/../../evil.lua", b"x"));
    assert!(reject_entries(&e).contains("unsafe path ('..' leaves the mod folder)"));
}

#[test]
fn rejects_symlinks() {
    let mut e = valid_entries(&[]);
    e.push(entry("demo/passwd", b'2'));
    assert!(reject_entries(&e).contains("is a symbolic link; a pack carries plain files only"));
}

#[test]
fn rejects_hardlinks() {
    let mut e = valid_entries(&[]);
    e.push(entry("demo/passwd", b'1'));
    assert!(reject_entries(&e).contains("is a hard link"));
}

#[test]
fn rejects_device_and_fifo_entries() {
    for (kind, word) in [
        (b'3', "character device"),
        (b'4', "block device"),
        (b'6', "fifo"),
    ] {
        let mut e = valid_entries(&[]);
        e.push(entry("demo/dev", kind));
        let msg = reject_entries(&e);
        assert!(msg.contains(word), "{msg}");
    }
}

#[test]
fn rejects_duplicate_entries() {
    let mut e = valid_entries(&[]);
    e.push(file("demo/main.lua", b"-- second copy"));
    assert_eq!(reject_entries(&e), "entry \"demo/main.lua\" appears twice");
    let mut e = valid_entries(&[]);
    e.push(file("demo/MAIN.lua", b"x"));
    assert!(reject_entries(&e).contains("(up to letter case)"));
    let mut e = valid_entries(&[]);
    e.push(file("demo/main.lua/x.lua", b"x"));
    assert!(reject_entries(&e).contains("(as a file and a folder)"));
}

#[test]
fn rejects_an_oversized_entry_without_trusting_its_header() {
    let limits = Limits {
        max_entry: 1000,
        ..Limits::default()
    };
    let e = valid_entries(&[("big.lua", &[b'x'; 1001])]);
    let msg = read_pack(&archive(&e), &limits).unwrap_err().to_string();
    assert_eq!(msg, "demo/big.lua is over the limit of 1000 bytes");
    // A header that claims a small size cannot smuggle more: the data past it is read as the
    // next header, which is garbage.
    let mut e = valid_entries(&[]);
    let mut lying = file("demo/lie.lua", &[b'y'; 4096]);
    lying.size = Some(10);
    e.push(lying);
    assert!(read_pack(&archive(&e), &limits).is_err());
}

#[test]
fn rejects_an_oversized_total() {
    let limits = Limits {
        max_total: 8 * 1024,
        ..Limits::default()
    };
    let e = valid_entries(&[
        ("a.lua", &[b'a'; 3000]),
        ("b.lua", &[b'b'; 3000]),
        ("c.lua", &[b'c'; 3000]),
    ]);
    let msg = read_pack(&archive(&e), &limits).unwrap_err().to_string();
    assert!(
        msg.contains("the unpacked content is over the limit of 8192 bytes"),
        "{msg}"
    );
}

#[test]
fn rejects_a_compression_bomb_by_counting_unpacked_bytes() {
    // 64 MiB of zeros in one entry gzip to about 64 KiB: a ratio near 1000.
    let limits = Limits {
        max_entry: 1 << 30,
        max_total: 1 << 30,
        ..Limits::default()
    };
    let e = valid_entries(&[("bomb.lua", &vec![0u8; 64 << 20])]);
    let bytes = archive(&e);
    let msg = read_pack(&bytes, &limits).unwrap_err().to_string();
    assert!(msg.contains("(a compression bomb?)"), "{msg}");
    assert!(msg.contains("more than 100 times its size"), "{msg}");
}

#[test]
fn rejects_too_many_entries() {
    let limits = Limits {
        max_entries: 10,
        ..Limits::default()
    };
    let names: Vec<String> = (0..20).map(|i| format!("f{i}.lua")).collect();
    let extra: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b"x"[..])).collect();
    let msg = read_pack(&archive(&valid_entries(&extra)), &limits)
        .unwrap_err()
        .to_string();
    assert_eq!(msg, "more than 10 entries in the archive");
}

#[test]
fn rejects_a_manifest_that_does_not_parse_with_its_file_and_line() {
    let bad = "id = \"demo\"\nname = \"Demo\"\nversion = \"one\"\nengine = \"*\"\n";
    let mut files = std::collections::BTreeMap::new();
    files.insert("mod.toml".to_string(), bad.as_bytes().to_vec());
    let index = format!(
        "{{\"format\":\"hexpack\",\"version\":1,\"id\":\"demo\",\"mod_version\":\"1.0.0\",\"content_hash\":\"{}\",\"files\":1}}",
        hash::content_hash(&files)
    );
    let msg = reject_entries(&[
        file("hexpack.json", index.as_bytes()),
        file("demo/mod.toml", bad.as_bytes()),
    ]);
    assert!(
        msg.starts_with("the mod's manifest is not valid:\ndemo/mod.toml:3:11: version \"one\""),
        "{msg}"
    );
    let msg = reject_entries(&[file("hexpack.json", index.as_bytes())]);
    assert!(msg.contains("demo/mod.toml: missing"), "{msg}");
}

#[test]
fn rejects_a_hash_mismatch() {
    let mut e = valid_entries(&[]);
    let main = e.iter().position(|r| r.name == b"demo/main.lua").unwrap();
    e[main].data = b"-- altered after packing".to_vec();
    let msg = reject_entries(&e);
    assert!(
        msg.starts_with("content hash mismatch: the index says"),
        "{msg}"
    );
}

#[test]
fn rejects_non_utf8_names() {
    let mut e = valid_entries(&[]);
    let mut bad = file("x", b"x");
    bad.name = b"demo/\xff\xfe.lua".to_vec();
    e.push(bad);
    assert!(reject_entries(&e).contains("the name is not UTF-8"));
}

#[test]
fn rejects_odd_names() {
    for (name, why) in [
        ("demo/.hidden.lua", "hidden name"),
        ("demo/a\u{1}b.lua", "control character"),
        ("demo/what?.lua", "a character file systems reject"),
        ("demo//x.lua", "empty or '.' path component"),
        ("demo/./x.lua", "empty or '.' path component"),
        ("demo/trailing. ", "ending in a space"),
        ("C:/x.lua", "drive letter"),
        ("demo\\x.lua", "backslash"),
    ] {
        let mut e = valid_entries(&[]);
        e.push(file(name, b"x"));
        let msg = reject_entries(&e);
        assert!(msg.contains(why), "{name}: {msg}");
    }
}

#[test]
fn rejects_a_missing_or_damaged_index_and_files_outside_the_mod() {
    let e: Vec<Raw> = valid_entries(&[]).into_iter().skip(1).collect();
    assert_eq!(
        reject_entries(&e),
        "the archive's index (hexpack.json) is missing"
    );
    let mut e = valid_entries(&[]);
    e[0].data = b"{\"format\":\"zip\"}".to_vec();
    assert!(reject_entries(&e).contains("is not valid"));
    let mut e = valid_entries(&[]);
    e.push(file("other/x.lua", b"x"));
    assert_eq!(
        reject_entries(&e),
        "entry \"other/x.lua\" is outside the mod folder \"demo\"/"
    );
}

#[test]
fn rejects_an_index_that_disagrees_with_the_manifest() {
    let mut e = valid_entries(&[]);
    let text = String::from_utf8(e[0].data.clone())
        .unwrap()
        .replace("\"1.0.0\"", "\"9.0.0\"");
    e[0].data = text.into_bytes();
    assert!(reject_entries(&e).contains("the index says version 9.0.0 but mod.toml says 1.0.0"));
}
