//! What the editor's kittests share: a harness the size of a small laptop screen, the bundled
//! mods (or a copy a test may edit), a game open with random bots on every side, the search
//! for a piece whose choices a test needs, and clicks on the board where a person would click.
#![allow(dead_code)] // Each test file uses some of these.

use egui::{Event, Modifiers, PointerButton, Pos2, vec2};
use egui_kittest::Harness;
use hexforge_core::hex::Hex;
use hexforge_editor::app::{EditorApp, Persisted};
use hexforge_editor::command::Command;
use hexforge_editor::session::PieceChoices;
use hexforge_game::PieceId;
use std::path::{Path, PathBuf};

/// The bundled games played on hex boards (hyperjump-galaxy is a star map).
pub const HEX_BOARD_GAMES: [&str; 5] = [
    "tutorial",
    "orbital-skirmish",
    "squadron-command",
    "planetoid-colonies",
    "solar-flare",
];

/// A harness running the whole editor in a 1280x800 window.
pub fn harness(app: EditorApp) -> Harness<'static, EditorApp> {
    Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut EditorApp| app.show(ui), app)
}

/// The bundled mods folder.
pub fn bundled_mods() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods")
}

/// A copy of a bundled mod in `<tmp>/mods/<name>` (so a test may edit its files; its saves go
/// to `<tmp>/saves`).
pub fn copied_mod(name: &str) -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let from = bundled_mods().join(name);
    let to = root.path().join("mods").join(name);
    for e in walkdir::WalkDir::new(&from)
        .into_iter()
        .filter_map(Result::ok)
    {
        let dest = to.join(e.path().strip_prefix(&from).unwrap());
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
        }
    }
    (root, to)
}

/// Lets the random bot play every side of the open game.
pub fn all_sides_random(h: &mut Harness<'_, EditorApp>) {
    let sides = h.state().open.as_ref().unwrap().status().sides;
    for side in sides {
        h.state_mut().apply(Command::SetBot {
            side: side.as_str().to_owned(),
            bot: "random".into(),
        });
    }
}

/// A harness with the bundled mod `name` open and every side played by the random bot.
pub fn open_bundled(name: &str) -> Harness<'static, EditorApp> {
    let mut h = harness(EditorApp::new(Persisted::default(), bundled_mods()));
    h.run();
    h.state_mut()
        .apply(Command::OpenMod(bundled_mods().join(name)));
    h.run();
    assert!(h.state().open.is_some(), "{:?}", h.state().problems);
    all_sides_random(&mut h);
    h
}

/// Steps the bots (at most `steps` moves, stopping when the game ends) until selecting some
/// piece that can act satisfies `pick`: that piece, selected.
pub fn find_piece(
    h: &mut Harness<'_, EditorApp>,
    steps: usize,
    pick: impl Fn(&mut Harness<'_, EditorApp>, PieceId) -> bool,
) -> Option<PieceId> {
    for _ in 0..steps {
        let pieces: Vec<_> = h.state().play.pieces.iter().map(|(p, _)| *p).collect();
        for p in pieces {
            h.state_mut().apply(Command::SelectPiece(Some(p)));
            if pick(h, p) {
                return Some(p);
            }
        }
        if h.state().play.status.outcome.is_some() {
            return None;
        }
        h.state_mut().apply(Command::BotStep);
    }
    None
}

/// [`find_piece`] for a test that needs something out of the piece's choices: that piece and
/// what `pick` found.
pub fn find_choice<T>(
    h: &mut Harness<'_, EditorApp>,
    steps: usize,
    pick: impl Fn(&PieceChoices) -> Option<T>,
) -> Option<(PieceId, T)> {
    let found = std::cell::RefCell::new(None);
    let p = find_piece(h, steps, |h, _| {
        *found.borrow_mut() = pick(&h.state().choices);
        found.borrow().is_some()
    })?;
    found.into_inner().map(|x| (p, x))
}

/// Screen position of a hex's centre, from the layout the board view used last frame.
pub fn screen_of(h: &Harness<'_, EditorApp>, hex: Hex) -> Pos2 {
    let layout = h.state().board_layout.expect("a hex board is shown");
    let (x, y) = layout.hex_to_pixel(hex);
    Pos2::new(x, y)
}

/// A left click at `pos`, after the pointer rests there a frame.
pub fn click_at(h: &mut Harness<'_, EditorApp>, pos: Pos2) {
    h.hover_at(pos);
    h.run();
    for pressed in [true, false] {
        h.event(Event::PointerButton {
            pos,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::default(),
        });
    }
    h.run();
}

/// A click on a hex's centre.
pub fn click_hex(h: &mut Harness<'_, EditorApp>, hex: Hex) {
    let pos = screen_of(h, hex);
    click_at(h, pos);
}
