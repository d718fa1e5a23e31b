//! The open files as tabs (a dot marks unsaved text), saving a file that is not shown, and
//! the questions asked before unsaved text is dropped: closing a tab, closing the window.

use super::CodeEditor;
use super::FileError;
use super::files::{self, Answer, atomic_write};
use crate::command::Command;
use hexforge_script::paths;
use std::path::{Path, PathBuf};

/// A question about unsaved text waiting for its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Ask {
    /// Closing this file's tab.
    CloseTab(PathBuf),
    /// Closing the editor window.
    CloseWindow,
}

impl CodeEditor {
    /// Saves `path`'s unsaved text (shown or not); `Ok(None)` when it has none.
    ///
    /// # Errors
    /// [`FileError::Save`] if writing fails (the text stays unsaved).
    pub fn save_file(&mut self, path: &Path) -> Result<Option<PathBuf>, FileError> {
        if self.is_current(path) {
            return if self.is_dirty() {
                self.save().map(Some)
            } else {
                Ok(None)
            };
        }
        let Some(b) = self.unsaved.take(path) else {
            return Ok(None);
        };
        if let Err(e) = atomic_write(&b.path, &b.text) {
            self.unsaved.keep(b);
            return Err(e);
        }
        Ok(Some(b.path))
    }

    /// Closes a tab, dropping its unsaved text; the last tab left is shown if it was the file
    /// shown.
    pub fn close_tab(&mut self, path: &Path) {
        let c = paths::canonical(path);
        self.tabs.retain(|t| paths::canonical(t) != c);
        let _ = self.unsaved.take(path);
        if self.is_current(path) {
            self.path = None;
            self.text.clear();
            self.saved_text.clear();
            self.selection = None;
            self.completion.close();
            if let Some(next) = self.tabs.last().cloned()
                && let Err(e) = self.open(&next, None)
            {
                self.error = Some(e.to_string());
            }
        }
    }

    /// The questions asked before unsaved text is dropped: closing the window (asked here, on
    /// any tab) or a tab. Call every frame; returns [`Command::Saved`] for files saved by the
    /// answer.
    pub fn ask_before_discarding(&mut self, ctx: &egui::Context) -> Vec<Command> {
        let mut cmds = Vec::new();
        if ctx.input(|i| i.viewport().close_requested())
            && !self.may_close
            && !self.unsaved_files().is_empty()
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.asking = Some(Ask::CloseWindow);
        }
        let Some(ask) = self.asking.clone() else {
            return cmds;
        };
        let (title, files) = match &ask {
            Ask::CloseTab(p) => ("Close this file?", vec![p.clone()]),
            Ask::CloseWindow => ("Close the editor?", self.unsaved_files()),
        };
        let Some(answer) = files::ask(ctx, title, &files) else {
            return cmds;
        };
        self.asking = None;
        if answer == Answer::Cancel {
            return cmds;
        }
        if answer == Answer::Save {
            for f in &files {
                match self.save_file(f) {
                    Ok(saved) => cmds.extend(saved.map(Command::Saved)),
                    Err(e) => {
                        // Not saved: nothing is closed.
                        self.error = Some(e.to_string());
                        return cmds;
                    }
                }
            }
        }
        match ask {
            Ask::CloseTab(p) => self.close_tab(&p),
            Ask::CloseWindow => {
                self.may_close = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
        cmds
    }

    /// The open files as tabs: a dot marks unsaved text, × closes (asking first if unsaved).
    pub(super) fn tabs_row(&mut self, ui: &mut egui::Ui) {
        if self.tabs.is_empty() {
            return;
        }
        let mut show = None;
        let mut close = None;
        ui.horizontal_wrapped(|ui| {
            for t in &self.tabs {
                let name = t
                    .file_name()
                    .map_or_else(|| t.display().to_string(), |n| n.to_string_lossy().into());
                let label = if self.is_unsaved(t) {
                    format!("• {name}")
                } else {
                    name
                };
                let current = self.is_current(t);
                if ui
                    .selectable_label(current, label)
                    .on_hover_text(t.display().to_string())
                    .clicked()
                    && !current
                {
                    show = Some(t.clone());
                }
                if ui
                    .small_button("×")
                    .on_hover_text(format!("close {}", t.display()))
                    .clicked()
                {
                    close = Some(t.clone());
                }
                ui.add_space(6.0);
            }
        });
        if let Some(t) = show
            && let Err(e) = self.open(&t, None)
        {
            self.error = Some(e.to_string());
        }
        if let Some(t) = close {
            if self.is_unsaved(&t) {
                self.asking = Some(Ask::CloseTab(t));
            } else {
                self.close_tab(&t);
            }
        }
    }
}
