//! Boards drawn as they declare (#28 item 4): an offset-row board is drawn pointy-top, as the
//! rectangle it is, unless the player forces the other way; "As declared" gives it back.

mod common;

use common::{
    HEX_BOARD_GAMES, bundled_mods, click_hex, find_piece, harness, open_bundled as playing,
};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hexforge_core::hex::layout::Orientation;
use hexforge_editor::app::EditorApp;
use hexforge_editor::command::Command;

/// The bounding box of the board's hex centres on screen: (width, height).
fn drawn_span(h: &Harness<'_, EditorApp>) -> (f32, f32) {
    let layout = h.state().board_layout.expect("a hex board");
    let board = h.state().scene.board.shape.clone().unwrap();
    let (mut lo, mut hi) = ((f32::MAX, f32::MAX), (f32::MIN, f32::MIN));
    for hex in board.hexes() {
        let (x, y) = layout.hex_to_pixel(hex);
        lo = (lo.0.min(x), lo.1.min(y));
        hi = (hi.0.max(x), hi.1.max(y));
    }
    (hi.0 - lo.0, hi.1 - lo.1)
}

#[test]
fn an_offset_row_board_is_drawn_pointy_top_unless_forced() {
    let mut app = EditorApp::new(Default::default(), bundled_mods());
    app.apply(Command::OpenMod(bundled_mods().join("squadron-command")));
    let mut h = harness(app);
    h.run();
    assert_eq!(h.state().scene.orientation, Some(Orientation::Pointy));
    let layout = h.state().board_layout.expect("a hex board");
    assert_eq!(layout.orientation, Orientation::Pointy);
    // Pointy-top offset rows: the first column's hexes lie on (nearly) one vertical line, so
    // the board is a rectangle, not a parallelogram.
    let board = h.state().scene.board.shape.clone().unwrap();
    let first_col: Vec<f32> = board
        .hexes()
        .into_iter()
        .filter(|&x| board.offset(x).is_some_and(|o| o.col == 1))
        .map(|x| layout.hex_to_pixel(x).0)
        .collect();
    let spread = first_col.iter().copied().fold(f32::MIN, f32::max)
        - first_col.iter().copied().fold(f32::MAX, f32::min);
    assert!(spread <= layout.size * 1.8, "column 1 leans by {spread}");
    let (w, _) = drawn_span(&h);
    assert!(spread < w / 5.0);

    // Forcing flat-top overrides the board; "As declared" gives its own back.
    h.get_by_label("Flat-top").click();
    h.run();
    assert_eq!(
        h.state().board_layout.unwrap().orientation,
        Orientation::Flat
    );
    h.get_by_label("As declared").click();
    h.run();
    assert_eq!(
        h.state().board_layout.unwrap().orientation,
        Orientation::Pointy
    );
}

/// In each hex-board game: select a piece that may move (or be placed), point at and click a
/// hex of the board that none of its actions names (and no piece stands on): the board gives
/// the mod's own reason under the pointer, the click the same in the status line, and the piece
/// stays selected.
#[test]
fn an_illegal_click_says_the_mods_reason_and_keeps_the_selection() {
    for m in HEX_BOARD_GAMES {
        let mut h = playing(m);
        // A piece with a hex to go to (on the board, or waiting to be placed on it).
        let found = find_piece(&mut h, 200, |h, _| !h.state().choices.by_hex.is_empty());
        let piece = found.unwrap_or_else(|| panic!("{m}: no piece with a move"));
        h.run();
        let board = h.state().scene.board.shape.clone().unwrap();
        let occupied: Vec<_> = h
            .state()
            .scene
            .pieces
            .iter()
            .flat_map(|p| {
                let scene = &h.state().scene;
                let offs = scene.footprints.get(&p.kind).map_or(&[][..], Vec::as_slice);
                p.hexes(offs)
            })
            .collect();
        let target = board
            .hexes()
            .into_iter()
            .filter(|x| board.kind(*x).is_some_and(|k| k.is_enterable()))
            .filter(|x| !h.state().choices.by_hex.contains_key(x) && !occupied.contains(x))
            .max_by_key(|x| {
                let s = h.state().open.as_ref().unwrap();
                match s.game.state().pieces[&piece].pos {
                    hexforge_game::Position::Hex(from) => from.distance(*x),
                    _ => 0,
                }
            })
            .unwrap();
        click_hex(&mut h, target);
        let status = h.state().status.clone();
        assert!(status.starts_with("not allowed: "), "{m}: {status}");
        assert!(status.len() > "not allowed: x: ".len(), "{m}: {status}");
        assert_eq!(h.state().selected_piece, Some(piece), "{m}: selection kept");
        // The pointer rested on the hex before the click: the board already gave the reason.
        let shown = Some((target, status.clone()));
        assert_eq!(h.state().hover_why, shown, "{m}");
        assert_eq!(h.state().scene.why_not, shown, "{m}");
    }
}

/// A click the listing does not offer but the rules allow is played: a planetoid-colonies ship
/// in hyperspace may come out at any clear hex, though bots are offered a grid of exits.
#[test]
fn a_legal_click_the_listing_leaves_out_is_played() {
    let mut h = playing("planetoid-colonies");
    let found = find_piece(&mut h, 600, |h, _| {
        h.state()
            .choices
            .actions
            .iter()
            .any(|a| a.id == "hyperspace_out")
    });
    let piece = found.expect("a ship in hyperspace within 600 moves");
    h.run();
    let listed = h.state().choices.by_hex.clone();
    let open = |x: &hexforge_core::hex::Hex| {
        let s = h.state().open.as_ref().unwrap();
        s.game
            .state()
            .pieces
            .values()
            .all(|p| p.pos != hexforge_game::Position::Hex(*x))
    };
    // Hexes next to listed exits (the exits lie on a grid three hexes apart): not listed. Some
    // are closed (asteroids, the corridor); the first open one is played.
    let targets: Vec<_> = listed
        .keys()
        .flat_map(|x| {
            hexforge_core::hex::Direction::ALL
                .iter()
                .map(move |&d| x.step(d, 1))
        })
        .filter(|x| !listed.contains_key(x) && open(x))
        .collect();
    let before = h.state().open.as_ref().unwrap().game.state().log.len();
    let mut refused = 0;
    for target in targets {
        click_hex(&mut h, target);
        let status = h.state().status.clone();
        if status.starts_with("not allowed: ") {
            refused += 1;
            continue;
        }
        let s = h.state().open.as_ref().unwrap();
        if s.game.state().log.len() > before {
            assert!(
                matches!(s.game.state().pieces[&piece].pos, hexforge_game::Position::Hex(x) if x == target)
            );
        } else {
            // Several facings come out there: the play panel asks which.
            assert!(
                status.starts_with("pick a facing") || status.starts_with("several"),
                "{status}"
            );
            assert!(!h.state().pending.is_empty());
        }
        return;
    }
    panic!("no open hex beside an exit ({refused} refused)");
}

/// Labels (#28 item 2): a shot is listed by its action's label, and its hit chance (or dice) is
/// drawn by the target on the map, before the roll (tutorial, orbital-skirmish,
/// planetoid-colonies, squadron-command, solar-flare's beams; hyperjump-galaxy's battles are
/// in map_play.rs).
#[test]
fn shots_are_named_by_their_labels_and_their_chances_drawn_by_the_targets() {
    for (m, action) in [
        ("tutorial", "fire"),
        ("orbital-skirmish", "fire"),
        ("planetoid-colonies", "fire"),
        ("squadron-command", "battle"),
        ("solar-flare", "aim"),
    ] {
        let mut h = playing(m);
        let found = find_piece(&mut h, 2000, |h, _| {
            h.state().choices.actions.iter().any(|a| a.id == action)
        });
        found.unwrap_or_else(|| panic!("{m}: no shot in 2000 moves"));
        h.run();
        let labels = &h.state().choices.labels;
        let (i, _) = h
            .state()
            .choices
            .actions
            .iter()
            .enumerate()
            .find(|(_, a)| a.id == action)
            .unwrap();
        let label = labels[i].clone().unwrap_or_else(|| panic!("{m}: no label"));
        // A chance ("45%") or the dice rolled ("3 dice", "1 die").
        assert!(
            label.text.contains('%') || label.text.contains(" dice") || label.text.contains(" die"),
            "{m}: {label:?}"
        );
        assert!(!label.short.is_empty(), "{m}: {label:?}");
        // The play panel lists it by its label; the map draws the chance by the target.
        h.get_by_label(&label.text);
        let notes = &h.state().scene.notes;
        assert!(notes.values().any(|n| *n == label.short), "{m}: {notes:?}");
    }
}
