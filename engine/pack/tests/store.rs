//! Installing, listing and removing: failures leave the folder byte-for-byte as it was, newer
//! versions keep older ones while saves use them, and removal refuses while a save uses a
//! version.

mod common;

use common::*;
use hexforge_game::record::{SaveFile, save};
use hexforge_game::{GameRecord, ModLock};
use hexforge_pack::archive::{Limits, read_pack, write_pack};
use hexforge_pack::{ModStore, SaveIndex, StoreError};
use std::path::{Path, PathBuf};

fn pack_of(dir: &Path) -> hexforge_pack::Pack {
    let (bytes, _) = write_pack(dir, &Limits::default()).unwrap();
    read_pack(&bytes, &Limits::default()).unwrap()
}

/// A save file that uses `id` at `version`, registered in the store's index.
fn save_using(root: &Path, at: &Path, id: &str, version: &str) -> PathBuf {
    let file = SaveFile {
        format: "hexforge-save".into(),
        version: 1,
        record: GameRecord {
            format_version: 1,
            mods: vec![ModLock {
                id: id.into(),
                version: version.into(),
                content_hash: "h".into(),
            }],
            scenario: "s".into(),
            options: serde_json::Value::Null,
            seed: 1,
            actions: vec![],
        },
        state_hash: "x".into(),
    };
    save(at, &file).unwrap();
    let mut index = SaveIndex::open(root).unwrap();
    index.register(at);
    index.write().unwrap();
    at.to_owned()
}

#[test]
fn install_puts_the_mod_in_place_with_the_archives_hash() {
    let src = tempfile::tempdir().unwrap();
    let user = tempfile::tempdir().unwrap();
    let store = ModStore::new(user.path().join("mods"));
    let pack = pack_of(&mod_dir(
        src.path(),
        "demo",
        "1.0.0",
        "",
        &[("main.lua", "-- x")],
    ));
    let saves = SaveIndex::open(store.root()).unwrap();
    let r = store.install(&pack, &[], &saves).unwrap();
    assert_eq!(r.dir, store.root().join("demo"));
    assert_eq!(
        hexforge_script::loader::content_hash(&r.dir),
        pack.index.content_hash
    );
    assert_eq!(store.active().len(), 1);
    // Again: nothing changes.
    assert!(store.install(&pack, &[], &saves).unwrap().unchanged);
    // No staging folder is left behind.
    let left: Vec<_> = std::fs::read_dir(user.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, vec![std::ffi::OsString::from("mods")]);
}

#[test]
fn a_failed_install_leaves_the_installed_mods_byte_for_byte_untouched() {
    let src = tempfile::tempdir().unwrap();
    let user = tempfile::tempdir().unwrap();
    let store = ModStore::new(user.path().join("mods"));
    let saves = SaveIndex::open(store.root()).unwrap();
    store
        .install(
            &pack_of(&mod_dir(
                src.path(),
                "base",
                "0.1.0",
                "",
                &[("main.lua", "-- b")],
            )),
            &[],
            &saves,
        )
        .unwrap();
    store
        .install(
            &pack_of(&mod_dir(
                src.path(),
                "demo",
                "1.0.0",
                "",
                &[("main.lua", "-- 1")],
            )),
            &[],
            &saves,
        )
        .unwrap();
    let before = snapshot(user.path());

    // A dependency conflict, explained in plain words.
    let needy = tempfile::tempdir().unwrap();
    let p = pack_of(&mod_dir(
        needy.path(),
        "belt",
        "1.0.0",
        "[dependencies]\nbase = \">=0.2\"\n",
        &[],
    ));
    let e = store.install(&p, &[], &saves).unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot install:\n  belt 1.0.0 needs base >=0.2, but 0.1.0 is installed"
    );
    // The same version with other files.
    let other = tempfile::tempdir().unwrap();
    let p = pack_of(&mod_dir(
        other.path(),
        "demo",
        "1.0.0",
        "",
        &[("main.lua", "-- changed")],
    ));
    assert!(matches!(
        store.install(&p, &[], &saves),
        Err(StoreError::DifferentBuild { .. })
    ));
    // An older version.
    let old = tempfile::tempdir().unwrap();
    let p = pack_of(&mod_dir(old.path(), "demo", "0.9.0", "", &[]));
    let e = store.install(&p, &[], &saves).unwrap_err().to_string();
    assert!(
        e.contains("demo 0.9.0 is older than the installed 1.0.0"),
        "{e}"
    );
    // An I/O failure while extracting: a file too long for the file system.
    let long = tempfile::tempdir().unwrap();
    let name = format!("{}.lua", "x".repeat(230));
    let p = pack_of(&mod_dir(
        long.path(),
        "demo",
        "2.0.0",
        "",
        &[(name.as_str(), "")],
    ));
    let mut p2 = p.clone();
    p2.files
        .insert(format!("{}/y.lua", "z".repeat(300)), vec![]);
    assert!(store.install(&p2, &[], &saves).is_err());

    assert_eq!(snapshot(user.path()), before, "the user folder changed");
}

#[test]
fn installing_a_newer_version_keeps_the_older_one_while_a_save_uses_it() {
    let src = tempfile::tempdir().unwrap();
    let user = tempfile::tempdir().unwrap();
    let store = ModStore::new(user.path().join("mods"));
    let v1 = pack_of(&mod_dir(
        src.path(),
        "demo",
        "1.0.0",
        "",
        &[("main.lua", "-- 1")],
    ));
    store
        .install(&v1, &[], &SaveIndex::open(store.root()).unwrap())
        .unwrap();
    let game = save_using(
        store.root(),
        &user.path().join("game.hexsave"),
        "demo",
        "1.0.0",
    );

    let src2 = tempfile::tempdir().unwrap();
    let v2 = pack_of(&mod_dir(
        src2.path(),
        "demo",
        "1.1.0",
        "",
        &[("main.lua", "-- 2")],
    ));
    let saves = SaveIndex::open(store.root()).unwrap();
    let r = store.install(&v2, &[], &saves).unwrap();
    assert_eq!(r.replaced, Some(semver::Version::new(1, 0, 0)));
    assert_eq!(r.kept, vec![("demo 1.0.0".to_string(), vec![game.clone()])]);
    assert!(r.pruned.is_empty());
    let kept = store.kept();
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].dir, store.root().join(".versions/demo@1.0.0"));
    assert_eq!(
        hexforge_script::loader::content_hash(&kept[0].dir),
        v1.index.content_hash
    );
    // Discovery sees only the new version.
    let (set, errs) = hexforge_script::discover(store.root());
    assert!(errs.is_empty());
    assert_eq!(set.mods["demo"].manifest.version.to_string(), "1.1.0");
    // Once the save is gone, the next install or remove prunes the old version.
    std::fs::remove_file(&game).unwrap();
    assert_eq!(store.prune(&saves).unwrap(), vec!["demo 1.0.0"]);
    assert!(store.kept().is_empty());
}

#[test]
fn a_newer_version_no_save_uses_replaces_the_old_one() {
    let src = tempfile::tempdir().unwrap();
    let user = tempfile::tempdir().unwrap();
    let store = ModStore::new(user.path().join("mods"));
    let saves = SaveIndex::open(store.root()).unwrap();
    store
        .install(
            &pack_of(&mod_dir(src.path(), "demo", "1.0.0", "", &[])),
            &[],
            &saves,
        )
        .unwrap();
    let src2 = tempfile::tempdir().unwrap();
    let r = store
        .install(
            &pack_of(&mod_dir(src2.path(), "demo", "2.0.0", "", &[])),
            &[],
            &saves,
        )
        .unwrap();
    assert_eq!(r.pruned, vec!["demo 1.0.0"]);
    assert!(store.kept().is_empty());
}

#[test]
fn remove_refuses_while_a_save_uses_the_version_unless_forced() {
    let src = tempfile::tempdir().unwrap();
    let user = tempfile::tempdir().unwrap();
    let store = ModStore::new(user.path().join("mods"));
    store
        .install(
            &pack_of(&mod_dir(src.path(), "demo", "1.0.0", "", &[])),
            &[],
            &SaveIndex::open(store.root()).unwrap(),
        )
        .unwrap();
    let game = save_using(
        store.root(),
        &user.path().join("g.hexsave"),
        "demo",
        "1.0.0",
    );
    let saves = SaveIndex::open(store.root()).unwrap();
    let e = store
        .remove("demo", None, false, &saves)
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("demo 1.0.0 is used by 1 saved game:"), "{e}");
    assert!(e.contains(&game.display().to_string()), "{e}");
    assert!(e.contains("--force"), "{e}");
    assert_eq!(store.active().len(), 1);
    let r = store.remove("demo", None, true, &saves).unwrap();
    assert_eq!(r.removed, vec!["demo 1.0.0"]);
    assert!(store.active().is_empty());
    let e = store
        .remove("demo", None, false, &saves)
        .unwrap_err()
        .to_string();
    assert!(e.contains("demo is not installed"), "{e}");
}

#[test]
fn removing_the_installed_version_restores_the_newest_kept_one() {
    let user = tempfile::tempdir().unwrap();
    let store = ModStore::new(user.path().join("mods"));
    for (v, body) in [("1.0.0", "-- 1"), ("1.1.0", "-- 2")] {
        let src = tempfile::tempdir().unwrap();
        let p = pack_of(&mod_dir(src.path(), "demo", v, "", &[("main.lua", body)]));
        save_using(
            store.root(),
            &user.path().join(format!("{v}.hexsave")),
            "demo",
            v,
        );
        store
            .install(&p, &[], &SaveIndex::open(store.root()).unwrap())
            .unwrap();
    }
    let saves = SaveIndex::open(store.root()).unwrap();
    let r = store
        .remove("demo", Some(&semver::Version::new(1, 1, 0)), true, &saves)
        .unwrap();
    assert_eq!(r.restored.as_deref(), Some("demo 1.0.0"));
    assert_eq!(store.active()[0].manifest.version.to_string(), "1.0.0");
    assert!(store.kept().is_empty());
}

#[test]
fn remove_refuses_while_installed_mods_need_it_unless_forced() {
    let user = tempfile::tempdir().unwrap();
    let store = ModStore::new(user.path().join("mods"));
    let saves = SaveIndex::open(store.root()).unwrap();
    let install = |id: &str, manifest: &str| {
        let src = tempfile::tempdir().unwrap();
        store
            .install(
                &pack_of(&mod_dir(src.path(), id, "1.0.0", manifest, &[])),
                &[],
                &saves,
            )
            .unwrap();
    };
    install("base", "");
    install("belt", "[dependencies]\nbase = \">=1.0\"\n");
    install(
        "extra",
        "[dependencies]\nbase = { version = \">=1.0\", optional = true }\n",
    );
    let before = snapshot(user.path());
    let e = store
        .remove("base", None, false, &saves)
        .unwrap_err()
        .to_string();
    // Only the required dependency counts; the optional one would still load.
    assert_eq!(
        e,
        "base 1.0.0 is needed by 1 installed mod:\n  belt 1.0.0\nremove that mod first, or pass \
         --force to remove base 1.0.0 anyway (what needs it will not load until it is installed \
         again)"
    );
    assert_eq!(
        snapshot(user.path()),
        before,
        "a refused removal changes nothing"
    );
    let r = store.remove("base", None, true, &saves).unwrap();
    assert_eq!(r.removed, vec!["base 1.0.0"]);
    assert_eq!(r.dependents, vec!["belt 1.0.0"]);
    // With nothing left that needs it, a mod is removed without --force.
    store.remove("belt", None, false, &saves).unwrap();
    store.remove("extra", None, false, &saves).unwrap();
    assert!(store.active().is_empty());
}
