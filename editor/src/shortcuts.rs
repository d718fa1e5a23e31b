//! Keyboard shortcuts: the keys a player reaches for at the table (undo, redo, end the phase, a
//! bot move, deselect) and the help that lists them, as [`Command`]s.
//!
//! Game keys act only on the board tab and only while no text field has the keyboard: on the
//! code tab Ctrl+Z and Ctrl+S belong to the code editor (its own undo and save). F1 opens the
//! list on any tab.
//!
//! ```
//! use hexforge_editor::shortcuts::SHORTCUTS;
//! assert!(SHORTCUTS.iter().any(|(keys, _)| *keys == "Ctrl+Z"));
//! ```

use crate::command::Command;
use egui::{Key, KeyboardShortcut, Modifiers};

/// Every shortcut with what it does, in the order the help shows them.
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("Ctrl+Z", "undo the last action"),
    ("Ctrl+Y or Ctrl+Shift+Z", "redo"),
    ("E", "end the phase"),
    ("B", "one move by the bots"),
    ("Esc", "deselect the piece"),
    ("Ctrl+S", "save the file (code tab)"),
    ("Ctrl+F", "find in the file (code tab; Enter: next)"),
    ("Ctrl+Shift+F", "find across the mod (code tab)"),
    ("Tab or Enter", "insert the completion (Esc closes it)"),
    ("F1", "show or hide this list"),
];

/// The commands the keys pressed this frame ask for (consuming those keys). `board`: the board
/// tab is shown.
pub fn commands(ctx: &egui::Context, board: bool) -> Vec<Command> {
    let mut out = Vec::new();
    if ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::F1)) {
        out.push(Command::ToggleHelp);
    }
    if !board || ctx.egui_wants_keyboard_input() {
        return out;
    }
    let shortcut = |m, k| KeyboardShortcut::new(m, k);
    ctx.input_mut(|i| {
        // Redo first: Ctrl+Shift+Z would also match Ctrl+Z.
        if i.consume_shortcut(&shortcut(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z))
            || i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::Y))
        {
            out.push(Command::Redo);
        } else if i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::Z)) {
            out.push(Command::Undo);
        }
        if i.consume_key(Modifiers::NONE, Key::E) {
            out.push(Command::EndPhase);
        }
        if i.consume_key(Modifiers::NONE, Key::B) {
            out.push(Command::BotStep);
        }
        if i.consume_key(Modifiers::NONE, Key::Escape) {
            out.push(Command::SelectPiece(None));
        }
    });
    out
}

/// The help window listing [`SHORTCUTS`]; `open` is cleared when the window is closed.
pub fn help(ctx: &egui::Context, open: &mut bool) {
    egui::Window::new("Keyboard shortcuts")
        .open(open)
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            egui::Grid::new("shortcuts").striped(true).show(ui, |ui| {
                for (keys, what) in SHORTCUTS {
                    ui.strong(*keys);
                    ui.label(*what);
                    ui.end_row();
                }
            });
        });
}
