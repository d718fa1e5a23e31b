//! Files on disk: atomic saves, the unsaved text of files not shown, and the questions asked
//! before unsaved text would be thrown away (closing a tab, closing the window).
//!
//! Unsaved text is kept per file (by canonical path, so `mods/x/a.lua` and `/repo/mods/x/a.lua`
//! are one file) for as long as the editor runs: switching files or opening another mod loses
//! nothing, so only closing a tab or the window asks.

use hexforge_script::paths;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

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

/// What identifies a file's contents on disk without reading it.
pub type Stamp = Option<(u64, SystemTime)>;

/// The size and modification time of `path`.
#[must_use]
pub fn stamp(path: &Path) -> Stamp {
    let m = std::fs::metadata(path).ok()?;
    Some((m.len(), m.modified().ok()?))
}

/// One file's text that differs from the file.
#[derive(Clone, Debug)]
pub struct Buffer {
    /// The file as it was opened.
    pub path: PathBuf,
    /// The text being edited.
    pub text: String,
    /// The file's text when opened or last saved.
    pub saved: String,
}

/// The unsaved text of every file not shown, by canonical path.
#[derive(Clone, Debug, Default)]
pub struct Unsaved(BTreeMap<PathBuf, Buffer>);

impl Unsaved {
    /// Keeps `buffer` if its text differs from the file's, else forgets the file.
    pub fn keep(&mut self, buffer: Buffer) {
        let key = paths::canonical(&buffer.path);
        if buffer.text == buffer.saved {
            self.0.remove(&key);
        } else {
            self.0.insert(key, buffer);
        }
    }

    /// Takes the unsaved text of `path` out, if any.
    pub fn take(&mut self, path: &Path) -> Option<Buffer> {
        self.0.remove(&paths::canonical(path))
    }

    /// The unsaved text of `path`, if any.
    #[must_use]
    pub fn get(&self, path: &Path) -> Option<&Buffer> {
        if self.0.is_empty() {
            return None;
        }
        self.0.get(&paths::canonical(path))
    }

    /// Every kept buffer.
    pub fn iter(&self) -> impl Iterator<Item = &Buffer> {
        self.0.values()
    }

    /// Forgets every kept buffer.
    pub fn clear(&mut self) {
        self.0.clear();
    }
}

/// The answer to "unsaved changes: save them?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Save, then go on.
    Save,
    /// Go on and drop the changes.
    Discard,
    /// Do nothing.
    Cancel,
}

/// Asks what to do with the unsaved changes of `files` before `what` (a window title such as
/// "Close the editor?"); `None` while unanswered.
pub fn ask(ctx: &egui::Context, title: &str, files: &[PathBuf]) -> Option<Answer> {
    let mut answer = None;
    egui::Window::new(title)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            ui.label("These files have unsaved changes:");
            for f in files {
                ui.monospace(format!("• {}", f.display()));
            }
            ui.horizontal(|ui| {
                if ui.button("Save and close").clicked() {
                    answer = Some(Answer::Save);
                }
                if ui.button("Close without saving").clicked() {
                    answer = Some(Answer::Discard);
                }
                if ui.button("Cancel").clicked() {
                    answer = Some(Answer::Cancel);
                }
            });
        });
    answer
}
