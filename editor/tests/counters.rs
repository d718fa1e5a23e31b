//! Every bundled mod declares how its pieces look (`counter` on its piece types): in every
//! scenario, from the first position and through a few dozen random moves, every piece has a
//! declared counter (a short label, factors or markers), the declarations never fail, and the
//! counter follows the piece (damage and markers change as the game does). And a broken counter
//! is a readable notice over the board, never a failed game.

use hexforge_editor::counter_view::card_lines;
use hexforge_editor::session::{BotStep, Session};
use hexforge_game::PieceId;
use hexforge_script::counters::{Counter, counters};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn bundled_mods() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods")
}

const MODS: [&str; 6] = [
    "tutorial",
    "orbital-skirmish",
    "squadron-command",
    "planetoid-colonies",
    "hyperjump-galaxy",
    "solar-flare",
];

fn random_bots(s: &Session) -> BTreeMap<String, String> {
    s.game
        .state()
        .sides
        .iter()
        .map(|side| (side.id.as_str().to_owned(), "random".to_owned()))
        .collect()
}

#[test]
fn every_bundled_mod_declares_a_counter_for_every_piece_in_every_scenario() {
    for m in MODS {
        let dir = bundled_mods().join(m);
        let first = Session::open(&dir, None, 1).unwrap_or_else(|p| panic!("{m}: {p:?}"));
        for scenario in first.scenarios.clone() {
            let mut s = Session::open(&dir, Some(&scenario), 3)
                .unwrap_or_else(|p| panic!("{m}/{scenario}: {p:?}"));
            let bots = random_bots(&s);
            let mut seen: BTreeMap<PieceId, BTreeSet<Counter>> = BTreeMap::new();
            for step in 0..60 {
                let state = s.game.state();
                let got = counters(s.game.rules(), state)
                    .unwrap_or_else(|e| panic!("{m}/{scenario} step {step}: {e}"));
                for p in state.pieces.values() {
                    let c = got.get(&p.id).unwrap_or_else(|| {
                        panic!("{m}/{scenario}: {} #{} has no counter", p.kind, p.id.0)
                    });
                    assert!(!c.label.is_empty(), "{m}/{scenario}: {c:?}");
                    assert!(
                        !c.factors.is_empty() || !c.markers.is_empty() || c.damage.is_some(),
                        "{m}/{scenario}: {} says nothing but its label: {c:?}",
                        p.kind
                    );
                    seen.entry(p.id).or_default().insert(c.clone());
                }
                let scene = s.scene();
                assert_eq!(scene.notice, None, "{m}/{scenario}");
                match s.bot_step(&bots) {
                    Ok(BotStep::Acted(_) | BotStep::Refused(..)) => {}
                    _ => break,
                }
            }
            assert!(
                !seen.is_empty() || m == "hyperjump-galaxy",
                "{m}/{scenario}: no pieces"
            );
        }
    }
}

#[test]
fn a_counter_changes_with_its_piece() {
    // Orbital-skirmish: a ship's speed marker and damage bar follow its values.
    let dir = bundled_mods().join("orbital-skirmish");
    let mut s = Session::open(&dir, None, 1).unwrap();
    let id = *s.game.state().pieces.keys().next().unwrap();
    let before = counters(s.game.rules(), s.game.state()).unwrap()[&id].clone();
    s.game.edit(|st| {
        let p = st.pieces.get_mut(&id).unwrap();
        let values = std::sync::Arc::make_mut(&mut p.values);
        values.insert("damage".into(), serde_json::json!(7));
        values.insert("speed".into(), serde_json::json!(3));
        values.insert("orbit".into(), serde_json::json!(true));
    });
    let after = counters(s.game.rules(), s.game.state()).unwrap()[&id].clone();
    assert_ne!(before, after);
    assert_eq!(after.damage.map(|d| d.0), Some(7));
    assert!(after.markers.contains(&"spd 3".to_owned()), "{after:?}");
    assert!(after.markers.contains(&"orbit".to_owned()), "{after:?}");
    // The card a player reads by hovering the hex says the same in words.
    let scene = s.scene();
    let piece = scene.pieces.iter().find(|p| p.id == id).unwrap();
    let lines = card_lines(&scene, &[piece]);
    assert!(lines[0].contains("damage 7/"), "{lines:?}");
    assert!(lines[0].contains("orbit"), "{lines:?}");
}

#[test]
fn a_broken_counter_is_a_notice_with_file_and_line_not_a_failed_game() {
    let root = tempfile::tempdir().unwrap();
    let to = root.path().join("tutorial");
    for e in walkdir::WalkDir::new(bundled_mods().join("tutorial"))
        .into_iter()
        .filter_map(Result::ok)
    {
        let rel = e
            .path()
            .strip_prefix(bundled_mods().join("tutorial"))
            .unwrap();
        if e.file_type().is_dir() {
            std::fs::create_dir_all(to.join(rel)).unwrap();
        } else {
            std::fs::copy(e.path(), to.join(rel)).unwrap();
        }
    }
    let main = to.join("main.lua");
    let text = std::fs::read_to_string(&main).unwrap();
    let broken = text.replacen("label = label,", "label = label .. \"-too-long\",", 1);
    assert_ne!(text, broken);
    std::fs::write(&main, broken).unwrap();
    let s = Session::open(&to, None, 1).unwrap();
    let scene = s.scene();
    let notice = scene.notice.expect("a notice over the board");
    assert!(notice.contains("main.lua:"), "{notice}");
    assert!(notice.contains("counter of piece type"), "{notice}");
    assert!(notice.contains("longer than 6 characters"), "{notice}");
    // The game itself is untouched: it still lists moves.
    assert!(!s.legal.is_empty());
}
