//! Completion of the Lua API: after `ctx:`, `game.`, `hex.` (and the other receivers
//! [`Api::members`] knows) a small popup lists the members that start with what is typed;
//! Up/Down choose, Tab or Enter insert, Esc closes, a click inserts.
//!
//! ```
//! use hexforge_editor::panels::code_editor::completion::context;
//! let text = "function f(ctx)\n  ctx:ro";
//! let c = context(text, text.len()).unwrap();
//! assert_eq!((c.receiver, c.sep, &text[c.start..]), ("ctx", ':', "ro"));
//! assert!(context("-- ctx:ro", 9).is_none()); // not in a comment
//! ```

use super::api::{Api, Member, is_ident};
use super::text::char_index;
use egui::text::CCursor;
use egui::{Key, Modifiers};

/// At most this many members are listed.
const MAX_SHOWN: usize = 12;

/// What the text before the cursor asks to complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Context<'a> {
    /// The name before the separator (`ctx`).
    pub receiver: &'a str,
    /// `.` or `:`.
    pub sep: char,
    /// Byte offset where the typed part of the member's name starts.
    pub start: usize,
}

/// The completion context at byte `cursor`: `receiver` `.`/`:` and the name typed so far.
/// `None` in a comment or a string, or when no receiver comes before.
#[must_use]
pub fn context(text: &str, cursor: usize) -> Option<Context<'_>> {
    let before = text.get(..cursor)?;
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    if line.contains("--") || line.matches(['"', '\'']).count() % 2 == 1 {
        return None;
    }
    let start = before.trim_end_matches(is_ident).len();
    let sep = before[..start].chars().next_back()?;
    if sep != '.' && sep != ':' {
        return None;
    }
    let head = &before[..start - 1];
    let receiver = &head[head.trim_end_matches(is_ident).len()..];
    let first = receiver.chars().next()?;
    if first.is_ascii_digit() {
        return None;
    }
    Some(Context {
        receiver,
        sep,
        start,
    })
}

/// The popup's state.
#[derive(Clone, Debug, Default)]
pub struct Completion {
    /// The members offered, filtered by what is typed.
    pub items: Vec<Member>,
    /// The highlighted one.
    pub selected: usize,
    /// Byte range of the typed part of the name (replaced on accept).
    start: usize,
    end: usize,
}

/// What a key did to the popup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Accept,
    Close,
}

impl Completion {
    /// Whether the popup is shown.
    #[must_use]
    pub fn is_open(&self) -> bool {
        !self.items.is_empty()
    }

    /// Closes the popup.
    pub fn close(&mut self) {
        self.items.clear();
    }

    /// Offers the members that complete the text before byte `cursor`, or closes.
    pub fn update(&mut self, api: &Api, text: &str, cursor: usize) {
        self.close();
        let Some(c) = context(text, cursor) else {
            return;
        };
        let typed = &text[c.start..cursor];
        self.items = api
            .members(c.receiver, c.sep)
            .into_iter()
            .filter(|m| m.name.starts_with(typed))
            .cloned()
            .collect();
        self.selected = 0;
        self.start = c.start;
        self.end = cursor;
    }

    /// Where the typed name ends (the cursor when the popup opened or was last updated).
    #[must_use]
    pub fn end(&self) -> usize {
        self.end
    }

    /// Handles the popup's keys before the text editor sees them; returns the new cursor byte
    /// if a member was inserted into `text`.
    pub fn keys(&mut self, ui: &egui::Ui, text: &mut String) -> Option<usize> {
        if !self.is_open() {
            return None;
        }
        let n = self.items.len();
        let step = ui.input_mut(|i| {
            if i.consume_key(Modifiers::NONE, Key::ArrowDown) {
                self.selected = (self.selected + 1) % n;
            }
            if i.consume_key(Modifiers::NONE, Key::ArrowUp) {
                self.selected = (self.selected + n - 1) % n;
            }
            if i.consume_key(Modifiers::NONE, Key::Tab)
                || i.consume_key(Modifiers::NONE, Key::Enter)
            {
                Some(Step::Accept)
            } else if i.consume_key(Modifiers::NONE, Key::Escape) {
                Some(Step::Close)
            } else {
                None
            }
        });
        match step? {
            Step::Accept => self.accept(self.selected, text),
            Step::Close => {
                self.close();
                None
            }
        }
    }

    /// Inserts member `i` over the typed name; returns the cursor byte after it.
    pub fn accept(&mut self, i: usize, text: &mut String) -> Option<usize> {
        let name = self.items.get(i)?.name.clone();
        let range = self.start..self.end.min(text.len());
        if !text.is_char_boundary(range.start) || !text.is_char_boundary(range.end) {
            self.close();
            return None;
        }
        text.replace_range(range.clone(), &name);
        self.close();
        Some(range.start + name.len())
    }

    /// Draws the popup under the cursor of a galley drawn at `galley_pos`; returns the index
    /// of a clicked member.
    pub fn show(
        &self,
        ctx: &egui::Context,
        galley: &egui::Galley,
        galley_pos: egui::Pos2,
        text: &str,
    ) -> Option<usize> {
        if !self.is_open() {
            return None;
        }
        let at = galley.pos_from_cursor(CCursor::new(char_index(text, self.end)));
        let pos = galley_pos + at.left_bottom().to_vec2();
        let mut clicked = None;
        // Keep the highlighted member in the window of those shown.
        let first = self.selected.saturating_sub(MAX_SHOWN - 1);
        egui::Area::new(egui::Id::unique("code_completion"))
            .order(egui::Order::Foreground)
            .fixed_pos(pos)
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.set_max_width(420.0);
                    for (i, m) in self.items.iter().enumerate().skip(first).take(MAX_SHOWN) {
                        let label = egui::RichText::new(&m.detail).monospace();
                        if ui.selectable_label(i == self.selected, label).clicked() {
                            clicked = Some(i);
                        }
                    }
                    if self.items.len() > MAX_SHOWN {
                        ui.weak(format!("{} in all", self.items.len()));
                    }
                    if let Some(m) = self.items.get(self.selected)
                        && !m.doc.is_empty()
                    {
                        ui.separator();
                        ui.add(egui::Label::new(egui::RichText::new(&m.doc).weak()).wrap());
                    }
                    ui.weak("Tab or Enter inserts, Esc closes");
                });
            });
        clicked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contexts() {
        fn c(t: &str) -> Option<(&str, char, &str)> {
            context(t, t.len()).map(|c| (c.receiver, c.sep, &t[c.start..]))
        }
        assert_eq!(c("ctx:"), Some(("ctx", ':', "")));
        assert_eq!(c("  x = game.pie"), Some(("game", '.', "pie")));
        assert_eq!(c("a.b.ctx:set"), Some(("ctx", ':', "set")));
        assert_eq!(c("x = 1.5"), None);
        assert_eq!(c("a .. b"), None);
        assert_eq!(c("ctx"), None);
        assert_eq!(c("s = 'ctx:"), None);
        assert_eq!(c("f(\"a\", ctx:r"), Some(("ctx", ':', "r")));
    }

    #[test]
    fn update_filters_and_accept_replaces_the_typed_name() {
        let api = Api::bundled();
        let mut c = Completion::default();
        let mut text = String::from("ctx:roll_d x");
        c.update(api, &text, 10);
        assert_eq!(c.items.len(), 1, "{:?}", c.items);
        assert_eq!(c.items[0].name, "roll_detail");
        assert_eq!(c.accept(0, &mut text), Some(15));
        assert_eq!(text, "ctx:roll_detail x");
        assert!(!c.is_open());
        c.update(api, "ctx:zzz", 7);
        assert!(!c.is_open());
    }
}
