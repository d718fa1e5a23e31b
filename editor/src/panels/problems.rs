//! The problems panel: `file:line: message` entries; clicking one opens the file at that line.
//!
//! Problems come from outside (mod loading and hot reload will fill them; tests feed fake ones).
//! **This panel deliberately does not produce problems** and does not dedupe or sort them: it
//! shows the list it is given, in order.
//!
//! ```
//! use hexforge_editor::panels::problems::Problem;
//! let p = Problem::new("mods/demo/rules.lua", 4, "attempt to index a nil value");
//! assert_eq!(p.to_string(), "mods/demo/rules.lua:4: attempt to index a nil value");
//! ```

use crate::command::Command;
use std::fmt;
use std::path::PathBuf;

/// One problem: where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The file, as the reporter names it (relative to the working folder or absolute).
    pub file: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl Problem {
    /// A problem at `file:line`.
    #[must_use]
    pub fn new(file: impl Into<PathBuf>, line: usize, message: impl Into<String>) -> Self {
        Problem {
            file: file.into(),
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file.display(), self.line, self.message)
    }
}

/// Draws the list; a click on an entry asks to open its file at its line.
pub fn show(ui: &mut egui::Ui, problems: &[Problem]) -> Vec<Command> {
    let mut cmds = Vec::new();
    ui.horizontal(|ui| {
        ui.strong("Problems");
        ui.weak(format!("({})", problems.len()));
    });
    egui::ScrollArea::vertical()
        .id_salt("problems")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if problems.is_empty() {
                ui.weak("No problems.");
            }
            for p in problems {
                let text = egui::RichText::new(p.to_string())
                    .monospace()
                    .color(ui.visuals().warn_fg_color);
                if ui.link(text).clicked() {
                    cmds.push(Command::OpenFile {
                        path: p.file.clone(),
                        line: Some(p.line),
                    });
                }
            }
        });
    cmds
}
