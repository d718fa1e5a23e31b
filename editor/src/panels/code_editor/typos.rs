//! Typos in a mod's data, reported on the line where they are made: a table key that the mod's
//! code never reads, one letter away from a key that the tables like it have and the code does
//! read. `{ id = "fighter", hull = 8, ad5 = 5, mr = 5 }` among ships that all have `adf` (read
//! as `p.stats.adf`) is reported at that line, not where a nil `adf` blows up later.
//!
//! What it reads: the mod's own `.lua` files, tokenised as the highlighter does (strings and
//! comments are not code). "Tables like it": other table constructors sharing at least two
//! keys. "Read": `.key` or `["key"]` anywhere in the mod. Deliberately a hint, not a load
//! error: it guesses from the text, so it never stops a mod loading. Checked against every
//! bundled mod (none reported) by a test.
//!
//! ```
//! use hexforge_editor::panels::code_editor::typos::one_edit_apart;
//! assert!(one_edit_apart("ad5", "adf"));
//! assert!(one_edit_apart("sped", "speed"));
//! assert!(!one_edit_apart("adf", "adf"));
//! ```

use crate::highlight::{TokenKind, tokenize};
use crate::panels::problems::Problem;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Whether `a` becomes `b` by one substitution, insertion, deletion or swap of neighbours.
#[must_use]
pub fn one_edit_apart(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a == b || a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    if a.len() == b.len() {
        let diff: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
        return match diff[..] {
            [_] => true,
            [i, j] => j == i + 1 && a[i] == b[j] && a[j] == b[i],
            _ => false,
        };
    }
    let (short, long) = if a.len() < b.len() { (a, b) } else { (b, a) };
    (0..long.len()).any(|i| {
        let mut l = long.clone();
        l.remove(i);
        l == short
    })
}

/// One table constructor: its keys and the line of each.
#[derive(Debug)]
struct Table {
    file: usize,
    keys: BTreeMap<String, usize>,
}

/// What one pass over the mod's files found.
#[derive(Debug, Default)]
struct Scan {
    files: Vec<PathBuf>,
    tables: Vec<Table>,
    /// Names read as fields (`.name`, `["name"]`).
    read: BTreeSet<String>,
}

impl Scan {
    fn file(&mut self, path: PathBuf, text: &str) {
        let file = self.files.len();
        self.files.push(path);
        let toks: Vec<(TokenKind, &str, usize)> = tokenize(text)
            .into_iter()
            .filter(|t| !matches!(t.kind, TokenKind::Whitespace | TokenKind::Comment))
            .map(|t| (t.kind, &text[t.range.clone()], t.range.start))
            .collect();
        let newlines: Vec<usize> = text.match_indices('\n').map(|(i, _)| i).collect();
        let line_of = |byte: usize| newlines.partition_point(|&n| n < byte) + 1;
        let mut open: Vec<Table> = Vec::new();
        for (i, &(kind, s, at)) in toks.iter().enumerate() {
            let prev = i.checked_sub(1).map(|p| toks[p].1);
            let next = |k: usize| toks.get(i + k).map(|t| t.1);
            match (kind, s) {
                (TokenKind::Punct, "{") => open.push(Table {
                    file,
                    keys: BTreeMap::new(),
                }),
                (TokenKind::Punct, "}") => self.tables.extend(open.pop()),
                (TokenKind::Name, name) => {
                    let after_dot = prev == Some(".") && (i < 2 || toks[i - 2].1 != ".");
                    if after_dot {
                        self.read.insert(name.to_owned());
                    }
                    let is_key = matches!(prev, Some("{" | "," | ";"))
                        && next(1) == Some("=")
                        && next(2) != Some("=");
                    if is_key && let Some(t) = open.last_mut() {
                        t.keys.entry(name.to_owned()).or_insert_with(|| line_of(at));
                    }
                }
                (TokenKind::Str, quoted) if prev == Some("[") && next(1) == Some("]") => {
                    self.read
                        .insert(quoted.trim_matches(['"', '\'']).to_owned());
                }
                _ => {}
            }
        }
    }

    /// Every key never read whose like tables have a read key one edit away instead.
    fn typos(&self) -> Vec<Problem> {
        // Tables by key, to find the tables sharing keys with one without comparing all pairs.
        let mut by_key: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (i, t) in self.tables.iter().enumerate() {
            for k in t.keys.keys() {
                by_key.entry(k).or_default().push(i);
            }
        }
        let mut out = Vec::new();
        for (ti, t) in self.tables.iter().enumerate() {
            // Most keys are read: only the others can be typos.
            let suspects: Vec<(&String, usize)> = t
                .keys
                .iter()
                .filter(|(k, _)| k.len() >= 2 && !self.read.contains(*k))
                .map(|(k, &l)| (k, l))
                .collect();
            if suspects.is_empty() || t.keys.len() < 3 {
                continue;
            }
            let mut shared: BTreeMap<usize, usize> = BTreeMap::new();
            for k in t.keys.keys() {
                for &u in &by_key[k.as_str()] {
                    *shared.entry(u).or_default() += 1;
                }
            }
            let like: Vec<&Table> = shared
                .into_iter()
                .filter(|&(u, n)| u != ti && n >= 2)
                .map(|(u, _)| &self.tables[u])
                .collect();
            for (key, line) in suspects {
                if like.iter().any(|u| u.keys.contains_key(key)) {
                    continue;
                }
                let mut count: BTreeMap<&str, usize> = BTreeMap::new();
                for u in &like {
                    for w in u.keys.keys() {
                        if !t.keys.contains_key(w)
                            && self.read.contains(w)
                            && one_edit_apart(key, w)
                        {
                            *count.entry(w).or_default() += 1;
                        }
                    }
                }
                // The near name must be the rule among the tables like this one.
                if let Some((w, n)) = count.into_iter().max_by_key(|&(_, n)| n)
                    && 2 * n >= like.len()
                {
                    out.push(Problem::new(
                        &self.files[t.file],
                        line,
                        format!(
                            "possible typo: key '{key}' is never read; {n} of the {} tables \
                             like this one have '{w}', which the code reads",
                            like.len()
                        ),
                    ));
                }
            }
        }
        out
    }
}

/// The possible typos in the `.lua` files of the mod in `dir`, at their file and line, in file
/// order.
#[must_use]
pub fn check(dir: &Path) -> Vec<Problem> {
    let mut scan = Scan::default();
    for path in super::find::files(dir) {
        if path.extension().is_some_and(|e| e == "lua")
            && let Ok(text) = std::fs::read_to_string(&path)
        {
            scan.file(path, &text);
        }
    }
    let mut out = scan.typos();
    out.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits() {
        assert!(one_edit_apart("ad5", "adf"));
        assert!(one_edit_apart("hul", "hull"));
        assert!(one_edit_apart("hulll", "hull"));
        assert!(one_edit_apart("mr", "rm"));
        assert!(!one_edit_apart("range", "ranges2"));
        assert!(!one_edit_apart("abc", "cba"));
    }

    fn scan(files: &[(&str, &str)]) -> Vec<(String, usize, String)> {
        let mut s = Scan::default();
        for (name, text) in files {
            s.file(PathBuf::from(name), text);
        }
        s.typos()
            .into_iter()
            .map(|p| (p.file.display().to_string(), p.line, p.message))
            .collect()
    }

    #[test]
    fn a_key_among_tables_that_have_a_read_name_one_edit_away() {
        let data = "return {\n  { id = 'a', hull = 8, adf = 5 },\n  { id = 'b', hull = 8, ad5 = 5 },\n  { id = 'c', hull = 9, adf = 4 },\n}\n";
        let code = "local x = p.stats.adf .. s -- not .ad5\nlocal y = t['hull']\n";
        let found = scan(&[("ships.lua", data), ("main.lua", code)]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].0.as_str(), found[0].1), ("ships.lua", 3));
        assert!(found[0].2.contains("'ad5'") && found[0].2.contains("'adf'"));
        // Read somewhere (or the code never reads the near name): not a typo.
        assert!(
            scan(&[
                ("ships.lua", data),
                ("main.lua", &format!("{code}\nq = p.ad5"))
            ])
            .is_empty()
        );
        assert!(scan(&[("ships.lua", data), ("main.lua", "x = 1")]).is_empty());
        // Most tables like it lack the near name: not a typo either.
        let mixed = "{ id = 'a', hull = 1, adf = 1 }\n{ id = 'b', hull = 1, ad5 = 1 }\n{ id = 'c', hull = 1 }\n{ id = 'd', hull = 1 }\n{ id = 'e', hull = 1 }";
        assert!(scan(&[("d.lua", mixed), ("main.lua", code)]).is_empty());
    }

    #[test]
    fn no_bundled_mod_has_one_and_a_typo_in_orbital_skirmish_is_found_at_its_line() {
        let mods = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods");
        for m in std::fs::read_dir(&mods).unwrap() {
            let dir = m.unwrap().path();
            if dir.join("mod.toml").is_file() {
                assert_eq!(check(&dir), [], "{}", dir.display());
            }
        }
        let copy = tempfile::tempdir().unwrap();
        let from = mods.join("orbital-skirmish");
        for f in super::super::find::files(&from) {
            let to = copy.path().join(f.strip_prefix(&from).unwrap());
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(&f, &to).unwrap();
        }
        let ships = copy.path().join("ships.lua");
        let text = std::fs::read_to_string(&ships).unwrap();
        let line = text
            .lines()
            .position(|l| l.contains("id = \"fighter\""))
            .unwrap()
            + 1;
        std::fs::write(
            &ships,
            text.replacen("hull = 8, adf = 5", "hull = 8, ad5 = 5", 1),
        )
        .unwrap();
        let found = check(copy.path());
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].file.as_path(), found[0].line),
            (ships.as_path(), line)
        );
    }
}
