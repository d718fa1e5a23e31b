//! Find across the mod: every line of the mod's text files that contains the query, listed as
//! `file:line: text`; a click opens the file at the line with the match selected. Unsaved text
//! is searched as it is in the editor, not as it is on disk.
//!
//! The query is matched as typed, ignoring case when it has no capital letter ("smart case").

use std::ops::Range;
use std::path::{Path, PathBuf};

/// File kinds searched.
const EXTENSIONS: &[&str] = &["lua", "toml", "md", "json", "txt"];

/// At most this many hits are listed.
pub const MAX_HITS: usize = 1000;

/// One matching line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The file.
    pub path: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// The line's text (trimmed for the list).
    pub text: String,
    /// The match, bytes within the line.
    pub columns: Range<usize>,
}

/// The files of a mod folder that are searched, sorted (hidden folders and files skipped).
#[must_use]
pub fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'))
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter(|e| {
            e.path()
                .extension()
                .is_some_and(|x| EXTENSIONS.iter().any(|k| x.eq_ignore_ascii_case(k)))
        })
        .map(walkdir::DirEntry::into_path)
        .collect();
    out.sort();
    out
}

/// Where `query` is in `line`, ignoring case when the query has no capital letter.
fn find_in(line: &str, query: &str) -> Option<Range<usize>> {
    if query.chars().any(char::is_uppercase) {
        return line.find(query).map(|i| i..i + query.len());
    }
    // ASCII lowering keeps byte offsets; other letters are matched as typed.
    let lower = line.to_ascii_lowercase();
    let q = query.to_ascii_lowercase();
    lower.find(&q).map(|i| i..i + q.len())
}

/// Every line of the files under `dir` containing `query`; `text_of` gives a file's text as
/// the editor has it (unsaved text), `None` to read the file.
#[must_use]
pub fn search(dir: &Path, query: &str, text_of: &dyn Fn(&Path) -> Option<String>) -> Vec<Hit> {
    let mut hits = Vec::new();
    if query.is_empty() {
        return hits;
    }
    for path in files(dir) {
        let Some(text) = text_of(&path).or_else(|| std::fs::read_to_string(&path).ok()) else {
            continue;
        };
        for (i, line) in text.lines().enumerate() {
            if let Some(columns) = find_in(line, query) {
                hits.push(Hit {
                    path: path.clone(),
                    line: i + 1,
                    text: line.trim().chars().take(160).collect(),
                    columns,
                });
                if hits.len() >= MAX_HITS {
                    return hits;
                }
            }
        }
    }
    hits
}

/// The find-in-mod box's state and its last results.
#[derive(Clone, Debug, Default)]
pub struct ModSearch {
    /// The query being typed.
    pub query: String,
    /// The results of the last search and its query (`None`: no results shown).
    pub results: Option<(String, Vec<Hit>)>,
}

/// Draws the results of the last search; returns the clicked hit. `root` shortens the paths.
pub fn show_results(ui: &mut egui::Ui, search: &mut ModSearch, root: &Path) -> Option<Hit> {
    let (query, hits) = search.results.as_ref()?;
    let mut clicked = None;
    let mut close = false;
    ui.horizontal(|ui| {
        let files = {
            let mut f: Vec<&Path> = hits.iter().map(|h| h.path.as_path()).collect();
            f.dedup();
            f.len()
        };
        ui.strong(format!(
            "{} match{} of \"{query}\" in {files} file{}",
            hits.len(),
            if hits.len() == 1 { "" } else { "es" },
            if files == 1 { "" } else { "s" },
        ));
        if hits.len() >= MAX_HITS {
            ui.weak("(first ones only)");
        }
        close = ui.small_button("Close results").clicked();
    });
    egui::ScrollArea::vertical()
        .id_salt("find_in_mod")
        .max_height(150.0)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
            for h in hits {
                let name = h.path.strip_prefix(root).unwrap_or(&h.path);
                let label = format!("{}:{}: {}", name.display(), h.line, h.text);
                if ui.link(egui::RichText::new(label).monospace()).clicked() {
                    clicked = Some(h.clone());
                }
            }
        });
    ui.separator();
    if close {
        search.results = None;
    }
    clicked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_lines_in_every_text_file_with_unsaved_text_first() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("tests")).unwrap();
        std::fs::create_dir_all(d.join(".git")).unwrap();
        std::fs::write(d.join("main.lua"), "local a = 1\nlocal Speed = 2\n").unwrap();
        std::fs::write(d.join("tests/t.lua"), "-- speed test\n").unwrap();
        std::fs::write(d.join(".git/x.lua"), "speed\n").unwrap();
        std::fs::write(d.join("img.png"), "speed").unwrap();
        let none = |_: &Path| None;
        let hits = search(d, "speed", &none);
        let found: Vec<(String, usize)> = hits
            .iter()
            .map(|h| {
                (
                    h.path.strip_prefix(d).unwrap().display().to_string(),
                    h.line,
                )
            })
            .collect();
        assert_eq!(found, [("main.lua".into(), 2), ("tests/t.lua".into(), 1)]);
        assert_eq!(hits[0].columns, 6..11);
        // A capital letter makes the search exact.
        assert_eq!(search(d, "Speed", &none).len(), 1);
        // Unsaved text is searched instead of the file.
        let main = d.join("main.lua");
        let edited = |p: &Path| (p == main).then(|| "speed\nspeed\nspeed\n".to_owned());
        assert_eq!(search(d, "speed", &edited).len(), 4);
        assert!(search(d, "", &none).is_empty());
    }
}
