//! Boards drawn as they declare (#28 item 4): an offset-row board is drawn pointy-top, as the
//! rectangle it is, unless the player forces the other way; "As declared" gives it back.

use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hexforge_core::hex::layout::Orientation;
use hexforge_editor::app::EditorApp;
use hexforge_editor::command::Command;
use std::path::{Path, PathBuf};

fn bundled_mods() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods")
}

fn harness(app: EditorApp) -> Harness<'static, EditorApp> {
    Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut EditorApp| app.show(ui), app)
}

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
