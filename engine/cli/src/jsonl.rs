//! `--jsonl FILE` (or `-` for stdout): one JSON line per finished game, written and flushed
//! as the game ends, so a sweep that is stopped keeps every game it finished.
//!
//! The line's shape is `hexforge_game::sweep::GameLine`, read back by `hexforge stats merge`.
//! This file only opens the destination and writes; it decides nothing about what a line holds.

use anyhow::{Context, Result};
use hexforge_game::sweep::GameLine;
use std::io::Write;
use std::path::Path;

/// Where the lines go.
pub struct Jsonl<'a> {
    out: Box<dyn Write + 'a>,
}

impl<'a> Jsonl<'a> {
    /// Whether `path` is `-`: the lines take stdout, and the report goes to stderr.
    #[must_use]
    pub fn is_stdout(path: &Path) -> bool {
        path.as_os_str() == "-"
    }

    /// Lines into `out` (the command's stdout, for `--jsonl -`).
    pub fn to(out: &'a mut dyn Write) -> Self {
        Jsonl { out: Box::new(out) }
    }

    /// Lines into a new (or emptied) file.
    ///
    /// # Errors
    /// The file cannot be created.
    pub fn create(path: &Path) -> Result<Self> {
        let file = std::fs::File::create(path)
            .with_context(|| format!("--jsonl {}: cannot create it", path.display()))?;
        Ok(Jsonl {
            out: Box::new(std::io::BufWriter::new(file)),
        })
    }

    /// Writes one line and flushes it.
    ///
    /// # Errors
    /// Writing failed.
    pub fn write(&mut self, line: &GameLine) -> std::io::Result<()> {
        serde_json::to_writer(&mut self.out, line)?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }
}
