//! A hand-written Lua 5.4 syntax highlighter: a tokeniser and a [`LayoutJob`] builder.
//!
//! [`tokenize`] splits Lua source into [`Token`]s (keywords, strings including long brackets
//! `[[..]]` / `[==[..]==]`, comments including long comments, numbers including hex and
//! exponents, names, and everything else as punctuation or whitespace). [`layout_job`] colours
//! them for a [`egui::TextEdit`] layouter.
//!
//! **What it deliberately does not do:** parse. It never fails: unterminated strings and comments
//! run to the end of the line (short strings) or the end of the text (long brackets), which is
//! what an editor wants while the user is typing. It knows nothing of the Hexforge Lua API.
//!
//! ```
//! use hexforge_editor::highlight::{tokenize, TokenKind};
//! let src = "local x = 10 -- ten";
//! let kinds: Vec<TokenKind> = tokenize(src)
//!     .into_iter()
//!     .filter(|t| t.kind != TokenKind::Whitespace)
//!     .map(|t| t.kind)
//!     .collect();
//! assert_eq!(
//!     kinds,
//!     [TokenKind::Keyword, TokenKind::Name, TokenKind::Punct, TokenKind::Number, TokenKind::Comment]
//! );
//! ```

use egui::text::{LayoutJob, TextFormat};
use egui::{Color32, FontId};
use std::ops::Range;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// A reserved word (`local`, `function`, `end`, ...), including `true`, `false`, `nil`.
    Keyword,
    /// A short string (`"..."` or `'...'`) or a long string (`[[...]]`, `[==[...]==]`).
    Str,
    /// A line comment (`-- ...`) or a long comment (`--[[ ... ]]`).
    Comment,
    /// A numeric literal (`10`, `3.5e-2`, `0xFF`, `0x1p4`).
    Number,
    /// An identifier that is not a keyword.
    Name,
    /// Operators and punctuation.
    Punct,
    /// Spaces, tabs and newlines.
    Whitespace,
}

/// A token: its kind and its byte range in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub kind: TokenKind,
    /// Byte range in the source text (always on `char` boundaries).
    pub range: Range<usize>,
}

/// The Lua 5.4 reserved words.
pub const KEYWORDS: [&str; 22] = [
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
    "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
];

/// If a long bracket opens at `i` (`[`, any number of `=`, `[`), its level (number of `=`).
fn long_bracket_level(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) != Some(&b'[') {
        return None;
    }
    let mut j = i + 1;
    while b.get(j) == Some(&b'=') {
        j += 1;
    }
    (b.get(j) == Some(&b'[')).then_some(j - i - 1)
}

/// The end (exclusive) of a long bracket of `level` whose content starts at `from`; the end of
/// the text if it is never closed.
fn long_bracket_end(b: &[u8], from: usize, level: usize) -> usize {
    let mut i = from;
    while i < b.len() {
        if b[i] == b']' {
            let mut j = i + 1;
            while j < b.len() && b[j] == b'=' {
                j += 1;
            }
            if j - i - 1 == level && b.get(j) == Some(&b']') {
                return j + 1;
            }
        }
        i += 1;
    }
    b.len()
}

/// Tokenises Lua source. The tokens cover the whole text, in order, without gaps.
#[must_use]
pub fn tokenize(src: &str) -> Vec<Token> {
    // Why bytes: every token boundary is at an ASCII byte (or the end), so byte ranges are always
    // char boundaries even with UTF-8 inside strings, comments or (invalid) names.
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let c = b[i];
        let kind = if c.is_ascii_whitespace() {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            TokenKind::Whitespace
        } else if c == b'-' && b.get(i + 1) == Some(&b'-') {
            if let Some(level) = long_bracket_level(b, i + 2) {
                i = long_bracket_end(b, i + 2 + level + 2, level);
            } else {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            TokenKind::Comment
        } else if let Some(level) = long_bracket_level(b, i) {
            i = long_bracket_end(b, i + level + 2, level);
            TokenKind::Str
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                // A backslash escapes the next byte (including a quote or a newline).
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            if i < b.len() && b[i] == c {
                i += 1; // the closing quote (an unterminated string stops before the newline)
            }
            TokenKind::Str
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let hex = c == b'0' && matches!(b.get(i + 1), Some(b'x' | b'X'));
            if hex {
                i += 2;
            }
            let exp: &[u8] = if hex { b"pP" } else { b"eE" };
            while i < b.len() {
                let d = b[i];
                if exp.contains(&d) && matches!(b.get(i + 1), Some(b'+' | b'-')) {
                    i += 2;
                } else if d.is_ascii_alphanumeric() || d == b'.' {
                    i += 1;
                } else {
                    break;
                }
            }
            TokenKind::Number
        } else if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
                i += 1;
            }
            if KEYWORDS.contains(&&src[start..i]) {
                TokenKind::Keyword
            } else {
                TokenKind::Name
            }
        } else {
            i += 1;
            TokenKind::Punct
        };
        let end = i.min(b.len());
        // Guard against ever splitting a UTF-8 sequence (e.g. a backslash before a multibyte char).
        let end = (end..=b.len())
            .find(|&e| src.is_char_boundary(e))
            .unwrap_or(b.len());
        i = end;
        out.push(Token {
            kind,
            range: start..end,
        });
    }
    out
}

/// The colour of a token kind (dark theme).
#[must_use]
pub fn color(kind: TokenKind) -> Color32 {
    match kind {
        TokenKind::Keyword => Color32::from_rgb(0xc6, 0x78, 0xdd),
        TokenKind::Str => Color32::from_rgb(0x98, 0xc3, 0x79),
        TokenKind::Comment => Color32::from_rgb(0x7f, 0x84, 0x8e),
        TokenKind::Number => Color32::from_rgb(0xd1, 0x9a, 0x66),
        TokenKind::Name => Color32::from_rgb(0xdc, 0xdf, 0xe4),
        TokenKind::Punct => Color32::from_rgb(0x56, 0xb6, 0xc2),
        TokenKind::Whitespace => Color32::TRANSPARENT,
    }
}

/// A coloured layout of Lua source in `font` (one section per token).
#[must_use]
pub fn layout_job(src: &str, font: FontId) -> LayoutJob {
    let mut job = LayoutJob::default();
    for t in tokenize(src) {
        let format = TextFormat {
            font_id: font.clone(),
            color: color(t.kind),
            italics: t.kind == TokenKind::Comment,
            ..TextFormat::default()
        };
        job.append(&src[t.range], 0.0, format);
    }
    job
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The non-whitespace tokens as (kind, text).
    fn toks(src: &str) -> Vec<(TokenKind, &str)> {
        tokenize(src)
            .into_iter()
            .filter(|t| t.kind != TokenKind::Whitespace)
            .map(|t| (t.kind, &src[t.range]))
            .collect()
    }

    use TokenKind::*;

    #[test]
    fn keywords_names_and_punctuation() {
        assert_eq!(
            toks("local function f(a) return a ~= nil end"),
            [
                (Keyword, "local"),
                (Keyword, "function"),
                (Name, "f"),
                (Punct, "("),
                (Name, "a"),
                (Punct, ")"),
                (Keyword, "return"),
                (Name, "a"),
                (Punct, "~"),
                (Punct, "="),
                (Keyword, "nil"),
                (Keyword, "end"),
            ]
        );
        // A keyword inside a longer name is a name.
        assert_eq!(toks("endx local_"), [(Name, "endx"), (Name, "local_")]);
    }

    #[test]
    fn strings_short_and_long() {
        assert_eq!(
            toks(r#"x = "a \" b" .. 'c'"#),
            [
                (Name, "x"),
                (Punct, "="),
                (Str, r#""a \" b""#),
                (Punct, "."),
                (Punct, "."),
                (Str, "'c'"),
            ]
        );
        let src = "s = [==[ a ]] still ]==] t";
        assert_eq!(
            toks(src),
            [
                (Name, "s"),
                (Punct, "="),
                (Str, "[==[ a ]] still ]==]"),
                (Name, "t")
            ]
        );
        // Multi-line long string.
        assert_eq!(toks("[[a\nb]]"), [(Str, "[[a\nb]]")]);
        // An unterminated short string stops at the end of the line.
        assert_eq!(toks("'abc\nx"), [(Str, "'abc"), (Name, "x")]);
        // Indexing with [ is punctuation, not a long string.
        assert_eq!(
            toks("t[1]"),
            [(Name, "t"), (Punct, "["), (Number, "1"), (Punct, "]")]
        );
    }

    #[test]
    fn comments_line_and_long() {
        assert_eq!(
            toks("a -- note \"x\"\nb"),
            [(Name, "a"), (Comment, "-- note \"x\""), (Name, "b")]
        );
        assert_eq!(
            toks("--[[ multi\nline ]] c"),
            [(Comment, "--[[ multi\nline ]]"), (Name, "c")]
        );
        assert_eq!(
            toks("--[=[ x ]] ]=]y"),
            [(Comment, "--[=[ x ]] ]=]"), (Name, "y")]
        );
        // An unterminated long comment runs to the end.
        assert_eq!(toks("--[[ open"), [(Comment, "--[[ open")]);
        // Minus is not a comment.
        assert_eq!(toks("a-b"), [(Name, "a"), (Punct, "-"), (Name, "b")]);
    }

    #[test]
    fn numbers() {
        assert_eq!(
            toks("1 3.5 .5 1e10 2.5E-3 0xFF 0x1p+4 7"),
            [
                (Number, "1"),
                (Number, "3.5"),
                (Number, ".5"),
                (Number, "1e10"),
                (Number, "2.5E-3"),
                (Number, "0xFF"),
                (Number, "0x1p+4"),
                (Number, "7"),
            ]
        );
        // A name with digits is a name.
        assert_eq!(toks("x2"), [(Name, "x2")]);
    }

    #[test]
    fn tokens_cover_the_text_and_never_split_chars() {
        for src in [
            "",
            "é = 'ü\\",
            "\"\\é\"",
            "--[==[",
            "[=",
            "0x",
            "a.b:c(\"d\")",
        ] {
            let ts = tokenize(src);
            let mut at = 0;
            for t in &ts {
                assert_eq!(t.range.start, at, "{src:?}");
                assert!(t.range.end > t.range.start);
                at = t.range.end;
            }
            assert_eq!(at, src.len(), "{src:?}");
        }
    }

    #[test]
    fn layout_job_keeps_the_text() {
        let src = "local s = [[x]] -- c\n";
        let job = layout_job(src, FontId::monospace(12.0));
        assert_eq!(job.text, src);
        assert!(job.sections.len() >= 7);
    }
}
