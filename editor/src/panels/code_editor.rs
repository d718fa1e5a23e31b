//! The code editor panel: one mod file in a text editor with Lua highlighting, line numbers,
//! find-next and an atomic save.
//!
//! Saving writes to a temporary file in the same folder and renames it over the original, so a
//! crash or a watcher never sees half a file; the panel then emits [`Command::Saved`], which is
//! where the hot reload will hook in.
//!
//! **What it deliberately does not do:** run, check or complete Lua. Problems come from outside
//! (the problems panel); this panel only jumps to a line when asked.
//!
//! ```
//! use hexforge_editor::panels::code_editor::find_next;
//! let text = "local a = 1\nlocal b = a";
//! assert_eq!(find_next(text, "local", 0), Some(0..5));
//! assert_eq!(find_next(text, "local", 1), Some(12..17));
//! assert_eq!(find_next(text, "local", 13), Some(0..5)); // wraps around
//! ```

use crate::command::Command;
use crate::highlight;
use egui::text::{CCursor, CCursorRange};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Why a file could not be opened or saved.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// Reading failed.
    #[error("cannot open {path}: {source}")]
    Open {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Writing failed (the original file is untouched).
    #[error("cannot save {path}: {source}")]
    Save {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// There is no file open.
    #[error("no file is open")]
    NoFile,
}

/// The next occurrence of `query` in `text` at or after byte `from` (wrapping to the start), as a
/// byte range. `None` for an empty query or no match.
#[must_use]
pub fn find_next(text: &str, query: &str, from: usize) -> Option<Range<usize>> {
    if query.is_empty() {
        return None;
    }
    let from = (from.min(text.len())..=text.len())
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(text.len());
    let at = text[from..]
        .find(query)
        .map(|i| i + from)
        .or_else(|| text.find(query))?;
    Some(at..at + query.len())
}

/// The byte offset of the start of 1-based `line` (the end of the text past the last line).
#[must_use]
pub fn line_start(text: &str, line: usize) -> usize {
    if line <= 1 {
        return 0;
    }
    text.match_indices('\n')
        .nth(line - 2)
        .map_or(text.len(), |(i, _)| i + 1)
}

/// The 1-based line of a byte offset.
#[must_use]
pub fn line_of(text: &str, byte: usize) -> usize {
    text.as_bytes()[..byte.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

fn char_index(text: &str, byte: usize) -> usize {
    text[..byte.min(text.len())].chars().count()
}

fn byte_index(text: &str, chars: usize) -> usize {
    text.char_indices()
        .nth(chars)
        .map_or(text.len(), |(i, _)| i)
}

/// Writes `contents` to `path` atomically (temporary file in the same folder, then rename).
///
/// # Errors
/// [`FileError::Save`] if the temporary file cannot be written or renamed.
pub fn atomic_write(path: &Path, contents: &str) -> Result<(), FileError> {
    use std::io::Write as _;
    let err = |source| FileError::Save {
        path: path.to_path_buf(),
        source,
    };
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(err)?;
    tmp.write_all(contents.as_bytes()).map_err(err)?;
    tmp.as_file().sync_all().map_err(err)?;
    tmp.persist(path).map_err(|e| err(e.error))?;
    Ok(())
}

/// The code editor's state.
#[derive(Debug, Default)]
pub struct CodeEditor {
    /// The open file.
    pub path: Option<PathBuf>,
    /// The text being edited.
    pub text: String,
    saved_text: String,
    /// The search box.
    pub search: String,
    /// The selected byte range (set by find and go-to-line, and by the user's cursor).
    pub selection: Option<Range<usize>>,
    /// A selection to hand to the text widget on the next frame.
    pending: Option<Range<usize>>,
    /// The last error (open, save), shown in the toolbar.
    pub error: Option<String>,
}

impl CodeEditor {
    /// Opens a file, putting the cursor at the start of 1-based `line` if given.
    ///
    /// # Errors
    /// [`FileError::Open`] if the file cannot be read as UTF-8 text (the editor keeps its file).
    pub fn open(&mut self, path: &Path, line: Option<usize>) -> Result<(), FileError> {
        let text = std::fs::read_to_string(path).map_err(|source| FileError::Open {
            path: path.to_path_buf(),
            source,
        })?;
        self.path = Some(path.to_path_buf());
        self.saved_text.clone_from(&text);
        self.text = text;
        self.error = None;
        self.goto_line(line.unwrap_or(1));
        Ok(())
    }

    /// Puts the cursor at the start of 1-based `line` and scrolls to it.
    pub fn goto_line(&mut self, line: usize) {
        let at = line_start(&self.text, line);
        self.set_selection(at..at);
    }

    fn set_selection(&mut self, r: Range<usize>) {
        self.selection = Some(r.clone());
        self.pending = Some(r);
    }

    /// The 1-based line of the cursor (the start of the selection).
    #[must_use]
    pub fn cursor_line(&self) -> usize {
        line_of(&self.text, self.selection.as_ref().map_or(0, |r| r.start))
    }

    /// The selected text.
    #[must_use]
    pub fn selected_text(&self) -> &str {
        self.selection
            .as_ref()
            .and_then(|r| self.text.get(r.clone()))
            .unwrap_or("")
    }

    /// Whether the text differs from the file as last opened or saved.
    #[must_use]
    pub fn is_dirty(&self) -> bool {
        self.path.is_some() && self.text != self.saved_text
    }

    /// Selects the next match of the search text after the selection (wrapping). Returns whether
    /// there was a match.
    pub fn find_next(&mut self) -> bool {
        let from = self
            .selection
            .as_ref()
            .map_or(0, |r| if r.is_empty() { r.start } else { r.start + 1 });
        match find_next(&self.text, &self.search, from) {
            Some(r) => {
                self.set_selection(r);
                true
            }
            None => false,
        }
    }

    /// Saves the file atomically.
    ///
    /// # Errors
    /// [`FileError::NoFile`] with no file open, [`FileError::Save`] if writing fails.
    pub fn save(&mut self) -> Result<PathBuf, FileError> {
        let path = self.path.clone().ok_or(FileError::NoFile)?;
        atomic_write(&path, &self.text)?;
        self.saved_text.clone_from(&self.text);
        Ok(path)
    }

    /// Draws the editor; returns the commands (a [`Command::Saved`] after a save).
    pub fn show(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        let mut cmds = Vec::new();
        let mut save = ui.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::S));
        let mut name_label = None;
        ui.horizontal(|ui| {
            let name = self
                .path
                .as_ref()
                .map_or_else(|| "no file open".to_owned(), |p| p.display().to_string());
            name_label = Some(
                ui.monospace(if self.is_dirty() {
                    format!("{name} *")
                } else {
                    name
                })
                .id,
            );
            save |= ui
                .add_enabled(self.path.is_some(), egui::Button::new("Save"))
                .clicked();
            ui.separator();
            let search = ui
                .add(
                    egui::TextEdit::singleline(&mut self.search)
                        .id_salt("code_search")
                        .hint_text("find")
                        .desired_width(140.0),
                )
                .accessible_name("Find");
            let enter = search.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui.button("Find next").clicked() || enter {
                if !self.find_next() {
                    self.error = Some(format!("not found: {}", self.search));
                } else {
                    self.error = None;
                }
            }
            ui.label(format!("line {}", self.cursor_line()));
            if let Some(e) = &self.error {
                ui.colored_label(ui.visuals().warn_fg_color, e);
            }
        });
        if save && self.path.is_some() {
            match self.save() {
                Ok(path) => {
                    self.error = None;
                    cmds.push(Command::Saved(path));
                }
                Err(e) => self.error = Some(e.to_string()),
            }
        }
        ui.separator();
        if self.path.is_none() {
            ui.weak("Open a file from the mod browser or the problems list.");
            return cmds;
        }

        let font = egui::FontId::monospace(13.0);
        let row_height = ui.fonts_mut(|f| f.row_height(&font));
        let lines = self.text.lines().count().max(1) + usize::from(self.text.ends_with('\n'));
        let mut scroll = egui::ScrollArea::both()
            .id_salt("code_scroll")
            .auto_shrink([false, false]);
        if let Some(r) = &self.pending {
            // Bring the target line into view, a few lines from the top.
            let line = line_of(&self.text, r.start);
            scroll = scroll.vertical_scroll_offset((line.saturating_sub(4)) as f32 * row_height);
        }
        scroll.show(ui, |ui| {
            ui.horizontal_top(|ui| {
                let numbers: String = (1..=lines).map(|n| format!("{n:>4}\n")).collect();
                ui.add(
                    egui::Label::new(
                        egui::RichText::new(numbers)
                            .font(font.clone())
                            .color(ui.visuals().weak_text_color()),
                    )
                    .selectable(false),
                );
                let hl_font = font.clone();
                let mut layouter = |ui: &egui::Ui, buf: &dyn egui::TextBuffer, wrap: f32| {
                    let mut job = highlight::layout_job(buf.as_str(), hl_font.clone());
                    job.wrap.max_width = wrap;
                    ui.fonts_mut(|f| f.layout_job(job))
                };
                let mut output = egui::TextEdit::multiline(&mut self.text)
                    .id_salt("code_text")
                    .code_editor()
                    .font(font.clone())
                    .desired_width(f32::INFINITY)
                    .desired_rows(lines)
                    .lock_focus(true)
                    .layouter(&mut layouter)
                    .show(ui);
                // The file name label names the text area for screen readers (and tests).
                if let Some(id) = name_label {
                    let _ = output.response.response.clone().labelled_by(id);
                }
                if let Some(r) = self.pending.take() {
                    let (a, b) = (
                        char_index(&self.text, r.start),
                        char_index(&self.text, r.end),
                    );
                    output
                        .state
                        .cursor
                        .set_char_range(Some(CCursorRange::two(CCursor::new(a), CCursor::new(b))));
                    output.state.clone().store(ui.ctx(), output.response.id);
                    output.response.request_focus();
                } else if let Some(cr) = output.cursor_range {
                    let (a, b) = (cr.primary.index.0, cr.secondary.index.0);
                    let (a, b) = (a.min(b), a.max(b));
                    self.selection = Some(byte_index(&self.text, a)..byte_index(&self.text, b));
                }
            });
        });
        cmds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_next_wraps_and_respects_char_boundaries() {
        let t = "é local é local";
        assert_eq!(find_next(t, "local", 0), Some(3..8));
        assert_eq!(find_next(t, "local", 4), Some(12..17));
        assert_eq!(find_next(t, "local", 13), Some(3..8));
        // A start inside a multibyte char moves to the next boundary.
        assert_eq!(find_next(t, "é", 1), Some(9..11));
        assert_eq!(find_next(t, "", 0), None);
        assert_eq!(find_next(t, "zzz", 0), None);
        assert_eq!(find_next(t, "local", 999), Some(3..8));
    }

    #[test]
    fn lines_and_offsets() {
        let t = "a\nbc\n\nd";
        assert_eq!(line_start(t, 1), 0);
        assert_eq!(line_start(t, 2), 2);
        assert_eq!(line_start(t, 4), 6);
        assert_eq!(line_start(t, 99), t.len());
        assert_eq!(line_of(t, 0), 1);
        assert_eq!(line_of(t, 3), 2);
        assert_eq!(line_of(t, 6), 4);
    }

    #[test]
    fn open_find_edit_and_save_atomically() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rules.lua");
        std::fs::write(&path, "-- one\nlocal x = 1\nlocal y = 2\n").unwrap();
        let mut ed = CodeEditor::default();
        ed.open(&path, Some(3)).unwrap();
        assert_eq!(ed.cursor_line(), 3);
        ed.search = "local".into();
        assert!(ed.find_next()); // wraps to the first "local" on line 2? no: from line 3 start
        assert_eq!(ed.cursor_line(), 3);
        assert!(ed.find_next());
        assert_eq!(ed.cursor_line(), 2);
        assert_eq!(ed.selected_text(), "local");
        assert!(!ed.is_dirty());
        ed.text.push_str("return x\n");
        assert!(ed.is_dirty());
        assert_eq!(ed.save().unwrap(), path);
        assert!(!ed.is_dirty());
        assert!(
            std::fs::read_to_string(&path)
                .unwrap()
                .ends_with("return x\n")
        );
        // No stray temporary files left beside it.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        // A missing file is an error and keeps the current file.
        assert!(ed.open(&dir.path().join("nope.lua"), None).is_err());
        assert_eq!(ed.path.as_deref(), Some(path.as_path()));
    }
}
