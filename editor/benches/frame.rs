//! Frame time of the editor, headless through egui_kittest (CPU only: layout, board drawing and
//! the app's per-frame work; no GPU). Goals from issue #6: at most 8 ms per frame for a
//! solar-flare game in progress, 16 ms for a 10,000-hex board with 200 pieces.
//!
//! Each iteration is one frame (`Harness::step`) with the pointer over the board, so the hover
//! overlays (path or line of attack) are computed and drawn every frame.
//!
//! Run: `cargo bench -p hexforge-editor --bench frame`.

// criterion's macros generate undocumented functions.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use egui::{Pos2, vec2};
use egui_kittest::Harness;
use hexforge_core::board::Board;
use hexforge_core::hex::{Direction, Hex};
use hexforge_editor::app::{EditorApp, Persisted};
use hexforge_editor::board_view::BoardScene;
use hexforge_editor::command::Command;
use hexforge_game::{BoardState, Piece, PieceId, Position, SideId};
use std::path::{Path, PathBuf};

fn harness(app: EditorApp) -> Harness<'static, EditorApp> {
    Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut EditorApp| app.show(ui), app)
}

fn bundled_mods() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods")
}

/// A solar-flare game some bot moves in, a piece selected, the pointer on one of its choices.
fn solar_flare_in_progress() -> Harness<'static, EditorApp> {
    let mut app = EditorApp::new(Persisted::default(), bundled_mods());
    app.apply(Command::OpenMod(bundled_mods().join("solar-flare")));
    assert!(app.open.is_some(), "{:?}", app.problems);
    for side in app
        .open
        .as_ref()
        .map(|s| s.status().sides)
        .unwrap_or_default()
    {
        app.apply(Command::SetBot {
            side: side.as_str().to_owned(),
            bot: "random".into(),
        });
    }
    for _ in 0..40 {
        app.apply(Command::BotStep);
    }
    let mut h = harness(app);
    h.run_steps(3);
    // Select the first piece that can act, and hover one of its highlighted hexes (or its own).
    if let Some((id, _)) = h.state().play.pieces.first().cloned() {
        h.state_mut().apply(Command::SelectPiece(Some(id)));
    }
    h.run_steps(2);
    let target = h
        .state()
        .scene
        .highlight
        .iter()
        .next()
        .copied()
        .or_else(|| h.state().scene.selected.iter().next().copied());
    if let (Some(hex), Some(layout)) = (target, h.state().board_layout) {
        let (x, y) = layout.hex_to_pixel(hex);
        h.hover_at(Pos2::new(x, y));
    }
    h.run_steps(2);
    h
}

/// A 100 x 100 offset board (10,000 hexes) with 200 pieces, some terrain, and a line traced.
fn big_board() -> Harness<'static, EditorApp> {
    let mut app = EditorApp::new(Persisted::default(), std::env::temp_dir().join("no-mods"));
    let board = Board::offset_rect(100, 100).expect("a 100 x 100 board");
    let hexes: Vec<Hex> = board.hexes();
    let mut state = BoardState {
        shape: Some(board),
        ..BoardState::default()
    };
    for h in hexes.iter().step_by(37) {
        state.terrain.insert(*h, vec!["asteroids".into()]);
    }
    let pieces: Vec<Piece> = (0..200u32)
        .map(|i| Piece {
            id: PieceId(i + 1),
            kind: if i % 3 == 0 { "cruiser" } else { "frigate" }.into(),
            owner: SideId::new(if i % 2 == 0 { "blue" } else { "red" }),
            pos: Position::Hex(hexes[(i as usize * 49) % hexes.len()]),
            facing: Some(Direction::ALL[(i % 6) as usize]),
            values: Default::default(),
        })
        .collect();
    app.scene = BoardScene {
        title: "10,000 hexes, 200 pieces".into(),
        board: state,
        pieces,
        highlight: hexes.iter().take(300).copied().collect(),
        lines: vec![(hexes[0], hexes[hexes.len() - 1])],
        ..BoardScene::default()
    };
    app.scene
        .footprints
        .insert("cruiser".into(), vec![Hex::new(0, 0), Hex::new(0, 1)]);
    let mut h = harness(app);
    h.run_steps(2);
    h.hover_at(Pos2::new(700.0, 400.0));
    h.run_steps(2);
    h
}

fn frames(c: &mut Criterion) {
    let mut g = c.benchmark_group("frame");
    g.sample_size(30);
    let mut h = solar_flare_in_progress();
    g.bench_function("solar_flare_in_progress", |b| b.iter(|| h.step()));
    let mut h = big_board();
    g.bench_function("board_10000_hexes_200_pieces", |b| b.iter(|| h.step()));
    g.finish();
}

criterion_group!(benches, frames);
criterion_main!(benches);
