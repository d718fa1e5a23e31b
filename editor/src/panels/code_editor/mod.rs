//! The code editor panel: the mod's files in tabs, edited with Lua highlighting, a gutter with
//! one number per line and the problems of the file marked on their lines, completion of the
//! Lua API, find in the file and across the mod, and atomic saves.
//!
//! Where the pieces are: [`text`] (positions, find in one file), [`files`] (atomic saves, the
//! unsaved text of files not shown), `tabs` (the tab row, the questions before unsaved text is
//! dropped), [`gutter`] (numbers and problem markers from the laid-out text), [`api`] and
//! [`completion`] (the Lua API read from `scripts/types`, the popup), [`find`] (find across the
//! mod). This file holds the state and draws the panel.
//!
//! Saving writes to a temporary file in the same folder and renames it over the original, so a
//! crash or a watcher never sees half a file; the panel then emits [`Command::Saved`], which is
//! where the hot reload hooks in. Switching files keeps unsaved text (a dot marks the tab);
//! closing a tab or the window with unsaved text asks first.
//!
//! **What it deliberately does not do:** run or check Lua. Problems come from outside (the
//! problems panel's list); this panel only shows them on their lines.
//!
//! ```
//! use hexforge_editor::panels::code_editor::find_next;
//! let text = "local a = 1\nlocal b = a";
//! assert_eq!(find_next(text, "local", 0), Some(0..5));
//! assert_eq!(find_next(text, "local", 1), Some(12..17));
//! assert_eq!(find_next(text, "local", 13), Some(0..5)); // wraps around
//! ```

pub mod api;
pub mod completion;
pub mod files;
pub mod find;
pub mod gutter;
mod tabs;
pub mod text;
pub mod typos;

pub use files::{FileError, atomic_write};
pub use text::{find_next, line_of, line_start};

use crate::command::Command;
use crate::highlight;
use crate::panels::problems::Problem;
use completion::Completion;
use egui::text::{CCursor, CCursorRange};
use egui::{Key, Modifiers};
use files::{Buffer, Stamp, Unsaved, stamp};
use find::ModSearch;
use hexforge_script::paths;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use tabs::Ask;
use text::{byte_index, char_index};

/// The text area's id (fixed, so the panel knows when it has the keyboard).
const TEXT_ID: &str = "hexforge_code_text";

/// A field to give the keyboard to on the next frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Focus {
    Find,
    FindInMod,
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
    /// A line to bring into view once the text is laid out.
    scroll_to: Option<usize>,
    /// The last error (open, save), shown in the toolbar.
    pub error: Option<String>,
    /// The files open in tabs, in the order they were opened.
    pub tabs: Vec<PathBuf>,
    /// The unsaved text of the files not shown.
    pub unsaved: Unsaved,
    /// The cursor's line in each file left (by canonical path), to come back to it.
    lines: BTreeMap<PathBuf, usize>,
    /// The open file's size and time on disk when read or saved: an outside change is noticed.
    disk: Stamp,
    /// The completion popup.
    pub completion: Completion,
    /// Find across the mod.
    pub mod_search: ModSearch,
    /// Where the gutter drew each line number and problem marker last frame.
    pub gutter: gutter::Drawn,
    asking: Option<Ask>,
    /// The window close was agreed to (unsaved text saved or dropped).
    may_close: bool,
    focus: Option<Focus>,
}

impl CodeEditor {
    /// Opens a file (or shows it again, with its unsaved text), putting the cursor at the start
    /// of 1-based `line` if given, else where it was left. The file shown before keeps its
    /// unsaved text.
    ///
    /// # Errors
    /// [`FileError::Open`] if the file cannot be read as UTF-8 text (the editor keeps its file).
    pub fn open(&mut self, path: &Path, line: Option<usize>) -> Result<(), FileError> {
        if self.is_current(path) {
            self.add_tab(path);
            if let Some(l) = line {
                self.goto_line(l);
            }
            return Ok(());
        }
        let from_disk = match self.unsaved.get(path) {
            Some(_) => None,
            None => Some(
                std::fs::read_to_string(path).map_err(|source| FileError::Open {
                    path: path.to_path_buf(),
                    source,
                })?,
            ),
        };
        self.keep_current();
        let (text, saved) = match self.unsaved.take(path) {
            Some(b) => (b.text, b.saved),
            None => {
                let t = from_disk.unwrap_or_default();
                (t.clone(), t)
            }
        };
        self.path = Some(path.to_path_buf());
        self.text = text;
        self.saved_text = saved;
        self.disk = stamp(path);
        self.error = None;
        self.completion.close();
        self.add_tab(path);
        let left_at = self.lines.get(&paths::canonical(path)).copied();
        self.goto_line(line.or(left_at).unwrap_or(1));
        Ok(())
    }

    fn is_current(&self, path: &Path) -> bool {
        // The names first: this runs for every tab every frame, and canonicalising costs a
        // syscall per path.
        self.path.as_deref().is_some_and(|p| {
            p == path
                || (p.file_name() == path.file_name()
                    && paths::canonical(p) == paths::canonical(path))
        })
    }

    fn add_tab(&mut self, path: &Path) {
        let c = paths::canonical(path);
        if !self.tabs.iter().any(|t| paths::canonical(t) == c) {
            self.tabs.push(path.to_path_buf());
        }
    }

    /// Puts the file shown away: its unsaved text kept, its cursor line remembered.
    fn keep_current(&mut self) {
        let line = self.cursor_line();
        if let Some(path) = self.path.take() {
            self.lines.insert(paths::canonical(&path), line);
            self.unsaved.keep(Buffer {
                path,
                text: std::mem::take(&mut self.text),
                saved: std::mem::take(&mut self.saved_text),
            });
        }
    }

    /// Puts the cursor at the start of 1-based `line` and scrolls to it.
    pub fn goto_line(&mut self, line: usize) {
        let at = line_start(&self.text, line);
        self.set_selection(at..at);
        self.scroll_to = Some(line);
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

    /// Whether the text shown differs from the file as last opened or saved.
    #[must_use]
    pub fn is_dirty(&self) -> bool {
        self.path.is_some() && self.text != self.saved_text
    }

    /// Whether `path` has unsaved text (shown or not).
    #[must_use]
    pub fn is_unsaved(&self, path: &Path) -> bool {
        if self.is_current(path) {
            self.is_dirty()
        } else {
            self.unsaved.get(path).is_some()
        }
    }

    /// Every file with unsaved text, the one shown first.
    #[must_use]
    pub fn unsaved_files(&self) -> Vec<PathBuf> {
        let shown = self.path.iter().filter(|_| self.is_dirty()).cloned();
        shown
            .chain(self.unsaved.iter().map(|b| b.path.clone()))
            .collect()
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
                self.scroll_to = Some(line_of(&self.text, r.start));
                self.set_selection(r);
                true
            }
            None => false,
        }
    }

    /// Saves the file shown atomically.
    ///
    /// # Errors
    /// [`FileError::NoFile`] with no file open, [`FileError::Save`] if writing fails.
    pub fn save(&mut self) -> Result<PathBuf, FileError> {
        let path = self.path.clone().ok_or(FileError::NoFile)?;
        atomic_write(&path, &self.text)?;
        self.saved_text.clone_from(&self.text);
        self.disk = stamp(&path);
        Ok(path)
    }

    /// The file shown changed on disk (another program saved it): read it again if it has no
    /// unsaved text, else say so once.
    fn check_disk(&mut self) {
        let Some(path) = self.path.clone() else {
            return;
        };
        let now = stamp(&path);
        if now == self.disk || now.is_none() {
            return;
        }
        self.disk = now;
        if self.is_dirty() {
            self.error = Some("changed on disk by another program: saving overwrites it".into());
            return;
        }
        if let Ok(t) = std::fs::read_to_string(&path) {
            let line = self.cursor_line();
            self.saved_text.clone_from(&t);
            self.text = t;
            let at = line_start(&self.text, line);
            self.set_selection(at..at);
        }
    }

    /// The folder searched by find-in-mod: the open mod, else the mod holding the file shown.
    fn mod_root(&self, mod_dir: Option<&Path>) -> Option<PathBuf> {
        mod_dir.map(Path::to_path_buf).or_else(|| {
            self.path.as_deref().and_then(|p| {
                p.ancestors()
                    .skip(1)
                    .find(|d| d.join("mod.toml").is_file())
                    .map(Path::to_path_buf)
            })
        })
    }

    /// Runs find-in-mod over `root` (unsaved text as it is here).
    pub fn find_in_mod(&mut self, root: &Path) {
        let query = self.mod_search.query.clone();
        let shown = self.path.as_deref().map(paths::canonical);
        let text_of = |p: &Path| {
            let c = paths::canonical(p);
            if shown.as_ref() == Some(&c) {
                return Some(self.text.clone());
            }
            self.unsaved.get(p).map(|b| b.text.clone())
        };
        let hits = find::search(root, &query, &text_of);
        self.mod_search.results = Some((query, hits));
    }

    /// Opens a find-in-mod hit with its match selected.
    fn open_hit(&mut self, hit: &find::Hit) {
        match self.open(&hit.path, Some(hit.line)) {
            Ok(()) => {
                let at = line_start(&self.text, hit.line);
                let r = at + hit.columns.start..at + hit.columns.end;
                if self.text.get(r.clone()).is_some() {
                    self.set_selection(r);
                }
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    /// The toolbar: the file's name, Save, find in the file, find across the mod.
    fn toolbar(&mut self, ui: &mut egui::Ui, root: Option<&Path>) -> (bool, Option<egui::Id>) {
        let mut save = false;
        let mut name_label = None;
        let focus = self.focus.take();
        ui.horizontal_wrapped(|ui| {
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
            save = ui
                .add_enabled(self.path.is_some(), egui::Button::new("Save"))
                .on_hover_text("Ctrl+S")
                .clicked();
            ui.separator();
            let field = |ui: &mut egui::Ui, text: &mut String, hint: &str, name: &str, focused| {
                let r = ui
                    .add(
                        egui::TextEdit::singleline(text)
                            .id_salt(name)
                            .hint_text(hint)
                            .desired_width(190.0),
                    )
                    .accessible_name(name);
                if focused {
                    r.request_focus();
                }
                // Enter in the field runs it.
                r.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter))
            };
            let find = Some(Focus::Find) == focus;
            let enter = field(ui, &mut self.search, "find (Ctrl+F)", "Find", find);
            if ui.button("Find next").clicked() || enter {
                self.error = (!self.find_next()).then(|| format!("not found: {}", self.search));
            }
            ui.separator();
            let query = &mut self.mod_search.query;
            let in_mod = Some(Focus::FindInMod) == focus;
            let hint = "find in mod (Ctrl+Shift+F)";
            let enter = field(ui, query, hint, "Text to find in the mod", in_mod);
            let button = ui.add_enabled(root.is_some(), egui::Button::new("Find in mod"));
            if let Some(root) = root
                && (button.clicked() || enter)
            {
                self.find_in_mod(root);
            }
            ui.label(format!("line {}", self.cursor_line()));
            if let Some(e) = &self.error {
                ui.colored_label(ui.visuals().warn_fg_color, e);
            }
        });
        (save, name_label)
    }

    /// Draws the editor; returns the commands (a [`Command::Saved`] after a save). `problems`
    /// are marked on their lines in the file shown; `mod_dir` is the folder find-in-mod
    /// searches (else the mod holding the file shown).
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        problems: &[Problem],
        mod_dir: Option<&Path>,
    ) -> Vec<Command> {
        let mut cmds = Vec::new();
        let (save_key, find_key, find_mod_key) = ui.input_mut(|i| {
            let save = i.consume_key(Modifiers::COMMAND, Key::S);
            // Ctrl+Shift+F first: Ctrl+F would match it too.
            let in_mod = i.consume_key(Modifiers::COMMAND | Modifiers::SHIFT, Key::F);
            let find = i.consume_key(Modifiers::COMMAND, Key::F);
            (save, find, in_mod)
        });
        if find_mod_key {
            self.focus = Some(Focus::FindInMod);
        } else if find_key {
            let sel = self.selected_text();
            if !sel.is_empty() && !sel.contains('\n') {
                self.search = sel.to_owned();
            }
            self.focus = Some(Focus::Find);
        }
        self.check_disk();
        self.tabs_row(ui);
        let root = self.mod_root(mod_dir);
        let (save, name_label) = self.toolbar(ui, root.as_deref());
        if (save || save_key) && self.path.is_some() {
            match self.save() {
                Ok(path) => {
                    self.error = None;
                    cmds.push(Command::Saved(path));
                }
                Err(e) => self.error = Some(e.to_string()),
            }
        }
        ui.separator();
        if let Some(root) = &root
            && let Some(hit) = find::show_results(ui, &mut self.mod_search, root)
        {
            self.open_hit(&hit);
        }
        let Some(path) = self.path.clone() else {
            ui.weak("Open a file from the mod browser or the problems list.");
            return cmds;
        };
        let marks = gutter::problems_by_line(problems, &path);
        self.text_area(ui, &marks, name_label);
        cmds
    }

    /// The gutter and the text, with the completion popup.
    fn text_area(
        &mut self,
        ui: &mut egui::Ui,
        marks: &BTreeMap<usize, String>,
        name_label: Option<egui::Id>,
    ) {
        let font = egui::FontId::monospace(13.0);
        let text_id = egui::Id::unique(TEXT_ID);
        if ui.memory(|m| m.has_focus(text_id))
            && let Some(c) = self.completion.keys(ui, &mut self.text)
        {
            self.set_selection(c..c);
        }
        let lines = self.text.lines().count().max(1) + usize::from(self.text.ends_with('\n'));
        let gutter_width = gutter::width(ui, &font, lines);
        egui::ScrollArea::both()
            .id_salt("code_scroll")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                ui.horizontal_top(|ui| {
                    let left = ui.cursor().min.x;
                    ui.add_space(gutter_width);
                    let hl_font = font.clone();
                    let mut layouter = |ui: &egui::Ui, buf: &dyn egui::TextBuffer, wrap: f32| {
                        let mut job = highlight::layout_job(buf.as_str(), hl_font.clone());
                        job.wrap.max_width = wrap;
                        ui.fonts_mut(|f| f.layout_job(job))
                    };
                    let mut output = egui::TextEdit::multiline(&mut self.text)
                        .id(text_id)
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
                    let rows = gutter::logical_lines(&output.galley);
                    self.gutter = gutter::paint(
                        ui,
                        (left, gutter_width),
                        output.galley_pos,
                        &rows,
                        marks,
                        &font,
                    );
                    if let Some(line) = self.scroll_to.take()
                        && let Some(l) = rows.iter().find(|l| l.line == line)
                    {
                        let r = l.first.translate(output.galley_pos.to_vec2());
                        ui.scroll_to_rect(r, Some(egui::Align::Center));
                    }
                    let changed = output.response.response.changed();
                    if let Some(r) = self.pending.take() {
                        let (a, b) = (
                            char_index(&self.text, r.start),
                            char_index(&self.text, r.end),
                        );
                        output.state.cursor.set_char_range(Some(CCursorRange::two(
                            CCursor::new(a),
                            CCursor::new(b),
                        )));
                        output.state.clone().store(ui.ctx(), output.response.id);
                        output.response.request_focus();
                    } else if let Some(cr) = output.cursor_range {
                        let (a, b) = (cr.primary.index.0, cr.secondary.index.0);
                        let (a, b) = (a.min(b), a.max(b));
                        self.selection = Some(byte_index(&self.text, a)..byte_index(&self.text, b));
                    }
                    let cursor = self.selection.as_ref().map(|r| r.end);
                    match cursor {
                        Some(c) if changed => {
                            self.completion.update(api::Api::bundled(), &self.text, c);
                        }
                        Some(c) if c == self.completion.end() => {}
                        _ => self.completion.close(),
                    }
                    if self.completion.is_open() {
                        // Esc is the popup's while it is open, not a reason to leave the text.
                        let filter = egui::EventFilter {
                            tab: true,
                            horizontal_arrows: true,
                            vertical_arrows: true,
                            escape: true,
                        };
                        ui.memory_mut(|m| m.set_focus_lock_filter(text_id, filter));
                    }
                    let clicked = self.completion.show(
                        ui.ctx(),
                        &output.galley,
                        output.galley_pos,
                        &self.text,
                    );
                    if let Some(i) = clicked
                        && let Some(c) = self.completion.accept(i, &mut self.text)
                    {
                        self.set_selection(c..c);
                    }
                });
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_find_edit_and_save_atomically() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rules.lua");
        std::fs::write(&path, "-- one\nlocal x = 1\nlocal y = 2\n").unwrap();
        let mut ed = CodeEditor::default();
        ed.open(&path, Some(3)).unwrap();
        assert_eq!(ed.cursor_line(), 3);
        ed.search = "local".into();
        assert!(ed.find_next()); // from the start of line 3: the "local" there
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

    #[test]
    fn unsaved_text_survives_switching_files_and_saves_from_the_background() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.lua");
        let b = dir.path().join("b.lua");
        std::fs::write(&a, "local a = 1\n").unwrap();
        std::fs::write(&b, "local b = 2\n").unwrap();
        let mut ed = CodeEditor::default();
        ed.open(&a, None).unwrap();
        ed.text.push_str("-- edited a\n");
        ed.open(&b, None).unwrap();
        assert_eq!(ed.text, "local b = 2\n");
        assert!(!ed.is_dirty());
        assert!(ed.is_unsaved(&a));
        assert_eq!(ed.unsaved_files(), std::slice::from_ref(&a));
        // Back to a (named another way): the edit is there, still unsaved.
        ed.open(&dir.path().join(".").join("a.lua"), None).unwrap();
        assert!(ed.text.ends_with("-- edited a\n"));
        assert!(ed.is_dirty());
        ed.open(&b, None).unwrap();
        // Saving a file not shown writes its unsaved text.
        assert_eq!(ed.save_file(&a).unwrap(), Some(a.clone()));
        assert!(
            std::fs::read_to_string(&a)
                .unwrap()
                .ends_with("-- edited a\n")
        );
        assert!(ed.unsaved_files().is_empty());
        assert_eq!(ed.tabs, [a.clone(), b.clone()]);
        // Closing a tab drops its unsaved text.
        ed.text.push('x');
        ed.close_tab(&b);
        assert_eq!(ed.path.as_deref(), Some(a.as_path()));
        assert!(ed.unsaved_files().is_empty());
    }
}
