//! Plain text positions: find in one file, lines and byte offsets, and the char indices egui's
//! cursors count in. No UI here.
//!
//! ```
//! use hexforge_editor::panels::code_editor::find_next;
//! let text = "local a = 1\nlocal b = a";
//! assert_eq!(find_next(text, "local", 0), Some(0..5));
//! assert_eq!(find_next(text, "local", 1), Some(12..17));
//! assert_eq!(find_next(text, "local", 13), Some(0..5)); // wraps around
//! ```

use std::ops::Range;

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

/// The char index (egui's cursor unit) of a byte offset.
#[must_use]
pub fn char_index(text: &str, byte: usize) -> usize {
    let mut byte = byte.min(text.len());
    while !text.is_char_boundary(byte) {
        byte -= 1;
    }
    text[..byte].chars().count()
}

/// The byte offset of a char index.
#[must_use]
pub fn byte_index(text: &str, chars: usize) -> usize {
    text.char_indices()
        .nth(chars)
        .map_or(text.len(), |(i, _)| i)
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
        let e = "é!";
        assert_eq!((char_index(e, 1), char_index(e, 2)), (0, 1));
        assert_eq!((byte_index(e, 1), byte_index(e, 9)), (2, 3));
    }
}
