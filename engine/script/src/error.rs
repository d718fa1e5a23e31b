//! Errors of the Lua runtime, all displayed as `file:line: message`.
//!
//! Two families:
//! - [`ModError`]: a problem found while *loading* a mod (manifest, dependency resolution,
//!   declaration validation). Loading collects every one of them before giving up, so an author
//!   sees the whole list at once.
//! - [`ScriptError`]: a Lua error at run time (syntax, runtime, memory, instruction budget),
//!   converted at the mlua boundary so no `mlua::Error` leaks into the rest of the engine.
//!
//! This module deliberately does not print or log anything; callers decide how to show errors.
//!
//! ```
//! use hexforge_script::ModError;
//! let e = ModError::at("mods/demo/mod.toml", 3, Some(11), "version: expected semver like 1.2.0");
//! assert_eq!(e.to_string(), "mods/demo/mod.toml:3:11: version: expected semver like 1.2.0");
//! ```

use std::fmt;

/// A problem found while loading a mod, with the place to fix it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct ModError {
    /// Path relative to the mods root's parent, e.g. `mods/demo/main.lua` (empty if unknown).
    pub file: String,
    /// 1-based line (0 if unknown).
    pub line: u32,
    /// 1-based column, when known (TOML files).
    pub col: Option<u32>,
    /// What is wrong and what to change.
    pub message: String,
}

impl ModError {
    /// An error at a file position.
    #[must_use]
    pub fn at(
        file: impl Into<String>,
        line: u32,
        col: Option<u32>,
        message: impl Into<String>,
    ) -> Self {
        ModError {
            file: file.into(),
            line,
            col,
            message: message.into(),
        }
    }

    /// An error at a `file:line` location string as recorded by declarations.
    #[must_use]
    pub fn at_loc(loc: &SourceLoc, message: impl Into<String>) -> Self {
        ModError {
            file: loc.file.clone(),
            line: loc.line,
            col: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for ModError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.file.is_empty(), self.line, self.col) {
            (true, _, _) => write!(f, "{}", self.message),
            (false, 0, _) => write!(f, "{}: {}", self.file, self.message),
            (false, l, None) => write!(f, "{}:{l}: {}", self.file, self.message),
            (false, l, Some(c)) => write!(f, "{}:{l}:{c}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for ModError {}

/// A list of [`ModError`]s, displayed one per line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct ModErrors(pub Vec<ModError>);

impl fmt::Display for ModErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

/// A source location `file:line` recorded for a declaration.
#[derive(
    Clone,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct SourceLoc {
    /// Relative file path as in the chunk name, e.g. `mods/demo/main.lua`.
    pub file: String,
    /// 1-based line (0 if unknown).
    pub line: u32,
}

impl SourceLoc {
    /// Parses `"file:line"`; anything else becomes a location with line 0.
    #[must_use]
    pub fn parse(s: &str) -> Self {
        match s.rsplit_once(':') {
            Some((file, line)) if line.parse::<u32>().is_ok() => SourceLoc {
                file: file.to_string(),
                line: line.parse().unwrap_or(0),
            },
            _ => SourceLoc {
                file: s.to_string(),
                line: 0,
            },
        }
    }
}

impl fmt::Display for SourceLoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// What kind of Lua failure a [`ScriptError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ScriptErrorKind {
    /// The chunk does not parse.
    Syntax,
    /// A runtime error raised by Lua code or an engine function.
    Runtime,
    /// The VM hit its memory limit.
    Memory,
    /// The call used up its instruction budget (an endless loop, usually).
    Budget,
    /// Anything else (conversion errors, host problems).
    Other,
}

/// A Lua error converted at the boundary; `Display` is `file:line: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
pub struct ScriptError {
    /// What failed.
    pub kind: ScriptErrorKind,
    /// Relative file (chunk name without `@`), empty if unknown.
    pub file: String,
    /// 1-based line, 0 if unknown.
    pub line: u32,
    /// The message without the `file:line:` prefix.
    pub message: String,
    /// The Lua traceback, when one was captured.
    pub traceback: Option<String>,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.file.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        }
    }
}

/// Marker message used by the instruction-budget hook (see [`crate::sandbox`]).
pub(crate) const BUDGET_MARKER: &str = "instruction budget exhausted";

impl ScriptError {
    /// A plain error without location.
    #[must_use]
    pub fn other(message: impl Into<String>) -> Self {
        ScriptError {
            kind: ScriptErrorKind::Other,
            file: String::new(),
            line: 0,
            message: message.into(),
            traceback: None,
        }
    }

    /// Converts an mlua error, splitting `file:line: message` and the traceback.
    #[must_use]
    pub fn from_lua(err: &mlua::Error) -> Self {
        let (kind, text, mut traceback) = flatten(err);
        let (text, tb2) = split_traceback(&text);
        if traceback.is_none() {
            traceback = tb2;
        }
        let kind = if text.contains(BUDGET_MARKER) {
            ScriptErrorKind::Budget
        } else {
            kind
        };
        let (file, line, message) = split_location(&text);
        ScriptError {
            kind,
            file,
            line,
            message,
            traceback,
        }
    }
}

impl From<mlua::Error> for ScriptError {
    fn from(e: mlua::Error) -> Self {
        ScriptError::from_lua(&e)
    }
}

/// Walks nested callback/context errors down to the root message.
fn flatten(err: &mlua::Error) -> (ScriptErrorKind, String, Option<String>) {
    match err {
        mlua::Error::SyntaxError { message, .. } => {
            (ScriptErrorKind::Syntax, message.clone(), None)
        }
        mlua::Error::RuntimeError(m) => (ScriptErrorKind::Runtime, m.clone(), None),
        mlua::Error::MemoryError(m) => (
            ScriptErrorKind::Memory,
            format!("out of memory (the mod's memory limit was reached): {m}"),
            None,
        ),
        mlua::Error::CallbackError { traceback, cause } => {
            let (k, m, t) = flatten(cause);
            (k, m, t.or_else(|| Some(traceback.clone())))
        }
        mlua::Error::WithContext { context, cause } => {
            let (k, m, t) = flatten(cause);
            (k, format!("{context}: {m}"), t)
        }
        mlua::Error::ExternalError(e) => (ScriptErrorKind::Runtime, e.to_string(), None),
        other => (ScriptErrorKind::Other, other.to_string(), None),
    }
}

fn split_traceback(text: &str) -> (String, Option<String>) {
    match text.find("\nstack traceback:") {
        Some(i) => (text[..i].to_string(), Some(text[i + 1..].to_string())),
        None => (text.to_string(), None),
    }
}

/// Splits `path:123: rest` into its parts; a message without that prefix keeps file empty.
fn split_location(text: &str) -> (String, u32, String) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(off) = text[i..].find(':') {
        let c = i + off;
        let digits = bytes[c + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits > 0
            && bytes.get(c + 1 + digits) == Some(&b':')
            && c > 0
            && !text[..c].contains('\n')
        {
            let line = text[c + 1..c + 1 + digits].parse().unwrap_or(0);
            let rest = text[c + 2 + digits..].trim_start().to_string();
            return (text[..c].to_string(), line, rest);
        }
        i = c + 1;
    }
    (String::new(), 0, text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_location() {
        let (f, l, m) = split_location("mods/demo/rules.lua:4: attempt to index a nil value");
        assert_eq!(
            (f.as_str(), l, m.as_str()),
            ("mods/demo/rules.lua", 4, "attempt to index a nil value")
        );
        let (f, l, m) = split_location("no location here: at all");
        assert_eq!(
            (f.as_str(), l, m.as_str()),
            ("", 0, "no location here: at all")
        );
    }

    #[test]
    fn mod_error_display_variants() {
        assert_eq!(
            ModError::at("a.lua", 3, None, "x").to_string(),
            "a.lua:3: x"
        );
        assert_eq!(ModError::at("", 0, None, "x").to_string(), "x");
        assert_eq!(
            ModError::at("m.toml", 0, None, "x").to_string(),
            "m.toml: x"
        );
        assert_eq!(
            SourceLoc::parse("mods/a/main.lua:12"),
            SourceLoc {
                file: "mods/a/main.lua".into(),
                line: 12
            }
        );
    }
}
