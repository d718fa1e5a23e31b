//! The logs panel: the game's event log (actions performed, the messages the rules emitted, the
//! outcome) and its dice log (every roll with its label, expression, faces and total), newest
//! last, with a filter box and auto-scroll to the end.
//!
//! **Drawing stays cheap for long games.** Rows are derived once into a [`LogsPanel`] cache and
//! extended incrementally while the log only grows (the common case: one new entry per action);
//! an undo or a new game (the log shrank, or its last entry changed) rebuilds it. The filter's
//! matches are cached the same way. Each frame draws only the visible rows
//! (`ScrollArea::show_rows`), so a 10,000-entry log costs what a 30-entry one does.
//!
//! **What it deliberately does not do:** change the game, or read anything but the log (and the
//! outcome). A row whose action names a hex (`to`, `hex`, `at`, ... given as `{q, r}`) can be
//! clicked to select that hex ([`Command::SelectHex`]); that is its only command.
//!
//! ```
//! use hexforge_editor::panels::logs::{LogsPanel, event_rows};
//! use hexforge_game::{Action, LogEntry};
//! let entry = LogEntry {
//!     index: 1,
//!     action: Some(Action::new("move", "blue", serde_json::json!({ "piece": 3, "to": { "q": 1, "r": 0 } }))),
//!     rolls: vec![],
//!     events: vec!["frigate 3 moves to (1, 0)".into()],
//! };
//! let rows = event_rows(&entry);
//! assert_eq!(rows[0].text, "#1 blue: move piece=3 to=(1, 0)");
//! assert_eq!(rows[1].text, "    frigate 3 moves to (1, 0)");
//!
//! let mut panel = LogsPanel::default();
//! panel.sync(&[entry]);
//! assert_eq!(panel.row_count(), 2);
//! ```

use crate::command::Command;
use hexforge_core::dice::Roll;
use hexforge_core::hex::Hex;
use hexforge_game::{Action, GameState, LogEntry, Value};

/// Which log the panel shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogTab {
    /// Actions, rule messages and the outcome.
    #[default]
    Events,
    /// Every dice roll.
    Dice,
}

/// What a row shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// An accepted action (or the game start).
    Action,
    /// A text line the rules emitted while applying the action above it.
    Message,
    /// One dice roll.
    Roll,
}

/// One derived row of a log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogRow {
    /// The log entry it comes from.
    pub entry: u32,
    /// What it is.
    pub kind: RowKind,
    /// The text drawn.
    pub text: String,
    /// The text lowercased, for the case-insensitive filter (derived once, not per frame).
    lower: String,
    /// A hex the row's action names, clickable.
    pub hex: Option<Hex>,
}

impl LogRow {
    fn new(entry: u32, kind: RowKind, text: String, hex: Option<Hex>) -> Self {
        LogRow {
            entry,
            kind,
            lower: text.to_lowercase(),
            text,
            hex,
        }
    }

    /// Whether the row matches a filter (case-insensitive substring; empty matches all).
    #[must_use]
    pub fn matches(&self, filter: &str) -> bool {
        filter.is_empty() || self.lower.contains(&filter.to_lowercase())
    }
}

/// A JSON value in a few characters: `{q, r}` objects as `(q, r)`, strings bare, others compact.
#[must_use]
pub fn short_value(v: &Value) -> String {
    if let Some(h) = value_hex(v) {
        return h.to_string();
    }
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "nil".into(),
        other => other.to_string(),
    }
}

/// A hex given as a JSON `{ "q": .., "r": .. }` object (and nothing else).
#[must_use]
pub fn value_hex(v: &Value) -> Option<Hex> {
    let o = v.as_object()?;
    if o.len() != 2 {
        return None;
    }
    let q = i32::try_from(o.get("q")?.as_i64()?).ok()?;
    let r = i32::try_from(o.get("r")?.as_i64()?).ok()?;
    Some(Hex::new(q, r))
}

/// An action in words: `blue: move piece=3 to=(1, 0)` (parameters in key order).
#[must_use]
pub fn describe_action(a: &Action) -> String {
    let mut s = format!("{}: {}", a.side, a.id);
    match &a.params {
        Value::Null => {}
        Value::Object(map) => {
            for (k, v) in map {
                s.push_str(&format!(" {k}={}", short_value(v)));
            }
        }
        other => s.push_str(&format!(" {}", short_value(other))),
    }
    s
}

/// The first hex an action's parameters name (in key order), if any.
#[must_use]
pub fn action_hex(a: &Action) -> Option<Hex> {
    a.params.as_object()?.values().find_map(value_hex)
}

/// A roll in words: `hyperjump 2d6: 3 + 5 = 8`; named dice show their faces
/// (`damage 1d[damage]: hull`); dice dropped by keep-highest/lowest appear in brackets.
#[must_use]
pub fn format_roll(r: &Roll) -> String {
    let named = r.dice.iter().any(|d| d.face.is_some());
    let mut faces = String::new();
    for (i, d) in r.dice.iter().enumerate() {
        if i > 0 {
            faces.push_str(if named { ", " } else { " + " });
        }
        let face = match &d.face {
            Some(f) => f.clone(),
            None if d.negative => format!("-{}", d.value),
            None => d.value.to_string(),
        };
        if d.kept {
            faces.push_str(&face);
        } else {
            faces.push_str(&format!("[{face}]"));
        }
    }
    let label = if r.label.is_empty() { "roll" } else { &r.label };
    if named {
        format!("{label} {}: {faces}", r.expr)
    } else {
        format!("{label} {}: {faces} = {}", r.expr, r.total)
    }
}

/// The event-log rows of one entry: the action (or the game start), then its messages indented.
#[must_use]
pub fn event_rows(e: &LogEntry) -> Vec<LogRow> {
    let mut rows = Vec::with_capacity(1 + e.events.len());
    let (text, hex) = match &e.action {
        Some(a) => (
            format!("#{} {}", e.index, describe_action(a)),
            action_hex(a),
        ),
        None => (format!("#{} game start", e.index), None),
    };
    rows.push(LogRow::new(e.index, RowKind::Action, text, hex));
    for line in &e.events {
        rows.push(LogRow::new(
            e.index,
            RowKind::Message,
            format!("    {line}"),
            None,
        ));
    }
    rows
}

/// The dice-log rows of one entry: one per roll, prefixed with the entry's index.
#[must_use]
pub fn dice_rows(e: &LogEntry) -> Vec<LogRow> {
    e.rolls
        .iter()
        .map(|r| {
            LogRow::new(
                e.index,
                RowKind::Roll,
                format!("#{} {}", e.index, format_roll(r)),
                None,
            )
        })
        .collect()
}

/// Indices of the rows matching a filter, kept up to date incrementally.
#[derive(Clone, Debug, Default)]
struct Matches {
    filter: String,
    /// How many rows have been checked.
    checked: usize,
    idx: Vec<u32>,
}

impl Matches {
    fn sync(&mut self, rows: &[LogRow], filter: &str) {
        if self.filter != filter || self.checked > rows.len() {
            self.filter = filter.to_owned();
            self.checked = 0;
            self.idx.clear();
        }
        let lower = filter.to_lowercase();
        for (i, r) in rows.iter().enumerate().skip(self.checked) {
            if lower.is_empty() || r.lower.contains(&lower) {
                self.idx.push(i as u32);
            }
        }
        self.checked = rows.len();
    }
}

/// The logs panel's state: the tab, the filter, follow-the-end, and the derived-row caches.
#[derive(Clone, Debug)]
pub struct LogsPanel {
    /// The log shown.
    pub tab: LogTab,
    /// Case-insensitive substring filter.
    pub filter: String,
    /// Keep the view at the newest row while the log grows.
    pub follow: bool,
    /// Entries the caches were derived from.
    synced: usize,
    /// The last entry seen, to notice an undo followed by a different action (same length).
    last: Option<LogEntry>,
    events: Vec<LogRow>,
    dice: Vec<LogRow>,
    event_matches: Matches,
    dice_matches: Matches,
    /// How many times the rows were rebuilt from scratch (for tests of the cache).
    rebuilds: u64,
}

impl Default for LogsPanel {
    fn default() -> Self {
        LogsPanel {
            tab: LogTab::Events,
            filter: String::new(),
            follow: true,
            synced: 0,
            last: None,
            events: Vec::new(),
            dice: Vec::new(),
            event_matches: Matches::default(),
            dice_matches: Matches::default(),
            rebuilds: 0,
        }
    }
}

impl LogsPanel {
    /// Brings the derived rows up to date with `log`: appends the new entries when the log only
    /// grew, rebuilds everything when it shrank or its last known entry changed (undo, new
    /// game). Cheap when nothing changed (one entry compared).
    pub fn sync(&mut self, log: &[LogEntry]) {
        let grew = log.len() >= self.synced
            && (self.synced == 0 || log.get(self.synced - 1) == self.last.as_ref());
        if !grew {
            self.events.clear();
            self.dice.clear();
            self.synced = 0;
            self.event_matches = Matches::default();
            self.dice_matches = Matches::default();
            self.rebuilds += 1;
        }
        for e in &log[self.synced..] {
            self.events.extend(event_rows(e));
            self.dice.extend(dice_rows(e));
        }
        if self.synced != log.len() {
            self.synced = log.len();
            self.last = log.last().cloned();
        }
        self.event_matches.sync(&self.events, &self.filter);
        self.dice_matches.sync(&self.dice, &self.filter);
    }

    fn rows(&self, tab: LogTab) -> (&[LogRow], &[u32]) {
        match tab {
            LogTab::Events => (&self.events, &self.event_matches.idx),
            LogTab::Dice => (&self.dice, &self.dice_matches.idx),
        }
    }

    /// Rows of the current tab (before filtering).
    #[must_use]
    pub fn row_count(&self) -> usize {
        self.rows(self.tab).0.len()
    }

    /// The rows of the current tab that match the filter, as of the last [`LogsPanel::sync`].
    pub fn visible(&self) -> impl Iterator<Item = &LogRow> + '_ {
        let (rows, idx) = self.rows(self.tab);
        idx.iter().filter_map(|&i| rows.get(i as usize))
    }

    /// How many times the caches were rebuilt from scratch (not counting appends).
    #[must_use]
    pub fn rebuilds(&self) -> u64 {
        self.rebuilds
    }
}

/// Draws the logs of `state` (its log and outcome). Click a row that names a hex to select it.
pub fn show(ui: &mut egui::Ui, panel: &mut LogsPanel, state: &GameState) -> Vec<Command> {
    let mut cmds = Vec::new();
    panel.sync(&state.log);
    ui.horizontal(|ui| {
        ui.strong("Log");
        ui.selectable_value(&mut panel.tab, LogTab::Events, "Events");
        ui.selectable_value(&mut panel.tab, LogTab::Dice, "Dice");
        ui.checkbox(&mut panel.follow, "Follow");
    });
    ui.horizontal(|ui| {
        ui.label("Filter");
        let edit = egui::TextEdit::singleline(&mut panel.filter)
            .hint_text("text to find")
            .desired_width(160.0);
        ui.add(edit);
        if !panel.filter.is_empty() && ui.small_button("Clear").clicked() {
            panel.filter.clear();
        }
    });
    // The filter may have changed above: update the matches (a no-op otherwise).
    panel.sync(&state.log);
    let (rows, idx) = panel.rows(panel.tab);
    ui.weak(format!("{} of {} rows", idx.len(), rows.len()));
    if let Some(o) = &state.outcome {
        let winners: Vec<&str> = o.winners.iter().map(|s| s.as_str()).collect();
        let who = if winners.is_empty() {
            "draw".to_owned()
        } else {
            format!("{} won", winners.join(", "))
        };
        ui.colored_label(
            ui.visuals().warn_fg_color,
            format!("Game over: {who} ({})", o.reason),
        );
    }
    ui.separator();
    let row_height =
        ui.text_style_height(&egui::TextStyle::Monospace) + ui.spacing().item_spacing.y;
    let salt = match panel.tab {
        LogTab::Events => "log-events",
        LogTab::Dice => "log-dice",
    };
    egui::ScrollArea::vertical()
        .id_salt(salt)
        .auto_shrink([false, false])
        .stick_to_bottom(panel.follow)
        // Only the rows in view are laid out: a 10,000-row log costs what a screenful does.
        .show_rows(ui, row_height, idx.len(), |ui, range| {
            for &i in &idx[range] {
                let Some(row) = rows.get(i as usize) else {
                    continue;
                };
                let mut text = egui::RichText::new(&row.text).monospace();
                if row.kind == RowKind::Action {
                    text = text.strong();
                }
                match row.hex {
                    Some(h) => {
                        if ui.link(text).on_hover_text(format!("select {h}")).clicked() {
                            cmds.push(Command::SelectHex(h));
                        }
                    }
                    None => {
                        ui.label(text);
                    }
                }
            }
        });
    cmds
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexforge_core::dice::{DiceExpr, DiceRoller};
    use serde_json::json;

    fn entry(index: u32, id: &str, events: &[&str], rolls: Vec<Roll>) -> LogEntry {
        LogEntry {
            index,
            action: Some(Action::new(id, "red", json!({ "piece": index }))),
            rolls,
            events: events.iter().map(|s| (*s).to_owned()).collect(),
        }
    }

    #[test]
    fn rolls_read_as_label_expression_faces_and_total() {
        let mut d = DiceRoller::new(3);
        let r = d.roll(&"2d6".parse::<DiceExpr>().unwrap(), "hyperjump");
        let faces: Vec<String> = r.dice.iter().map(|x| x.value.to_string()).collect();
        assert_eq!(
            format_roll(&r),
            format!("hyperjump 2d6: {} = {}", faces.join(" + "), r.total)
        );
        // Keep-highest: the dropped die is bracketed.
        let k = d.roll(&"3d6kh2".parse::<DiceExpr>().unwrap(), "best two");
        let text = format_roll(&k);
        assert_eq!(text.matches('[').count(), 1, "{text}");
        assert!(text.ends_with(&format!("= {}", k.total)), "{text}");
    }

    #[test]
    fn named_faces_show_without_a_total() {
        let r = Roll {
            label: "damage".into(),
            expr: "2d[damage]".into(),
            dice: vec![
                hexforge_core::dice::DieResult {
                    sides: 6,
                    value: 2,
                    face: Some("hull".into()),
                    kept: true,
                    negative: false,
                },
                hexforge_core::dice::DieResult {
                    sides: 6,
                    value: 6,
                    face: Some("critical".into()),
                    kept: true,
                    negative: false,
                },
            ],
            total: 2,
        };
        assert_eq!(format_roll(&r), "damage 2d[damage]: hull, critical");
    }

    #[test]
    fn actions_read_with_their_params_and_hexes() {
        let a = Action::new(
            "move",
            "blue",
            json!({ "piece": 3, "to": { "q": -1, "r": 2 }, "mode": "fast" }),
        );
        assert_eq!(
            describe_action(&a),
            "blue: move mode=fast piece=3 to=(-1, 2)"
        );
        assert_eq!(action_hex(&a), Some(Hex::new(-1, 2)));
        let e = Action::end_phase("red".into());
        assert_eq!(describe_action(&e), "red: end_phase");
        assert_eq!(action_hex(&e), None);
        // Not a hex: an extra key.
        assert_eq!(value_hex(&json!({ "q": 1, "r": 2, "s": -3 })), None);
    }

    #[test]
    fn the_filter_is_case_insensitive_and_follows_appends() {
        let mut log = vec![
            LogEntry {
                index: 0,
                action: None,
                rolls: vec![],
                events: vec![],
            },
            entry(1, "move", &["Frigate moves"], vec![]),
        ];
        let mut p = LogsPanel {
            filter: "FRIGATE".into(),
            ..LogsPanel::default()
        };
        p.sync(&log);
        let shown: Vec<&str> = p.visible().map(|r| r.text.as_str()).collect();
        assert_eq!(shown, vec!["    Frigate moves"]);
        log.push(entry(2, "fire", &["frigate fires", "cruiser hit"], vec![]));
        p.sync(&log);
        assert_eq!(p.visible().count(), 2);
        assert_eq!(p.rebuilds(), 0, "appending must not rebuild");
        p.filter.clear();
        p.sync(&log);
        assert_eq!(p.visible().count(), p.row_count());
        assert_eq!(p.row_count(), 1 + 2 + 3);
    }

    #[test]
    fn an_undo_then_another_action_rebuilds() {
        let mut log = vec![entry(0, "move", &[], vec![]), entry(1, "move", &[], vec![])];
        let mut p = LogsPanel::default();
        p.sync(&log);
        assert_eq!(p.rebuilds(), 0);
        // Same length, different last entry.
        log[1] = entry(1, "fire", &["boom"], vec![]);
        p.sync(&log);
        assert_eq!(p.rebuilds(), 1);
        assert!(p.visible().any(|r| r.text.contains("fire")));
        assert!(!p.visible().any(|r| r.text.contains("red: move piece=1")));
        // Shorter: rebuild too.
        log.pop();
        p.sync(&log);
        assert_eq!(p.rebuilds(), 2);
        assert_eq!(p.row_count(), 1);
        // Nothing changed: no rebuild.
        p.sync(&log);
        assert_eq!(p.rebuilds(), 2);
    }

    #[test]
    fn dice_rows_name_their_entry() {
        let mut d = DiceRoller::new(1);
        let r = d.roll(&"d6".parse::<DiceExpr>().unwrap(), "to hit");
        let prefix = format!("#7 to hit {}: ", r.expr);
        let rows = dice_rows(&entry(7, "fire", &[], vec![r.clone(), r]));
        assert_eq!(rows.len(), 2);
        assert!(rows[0].text.starts_with(&prefix), "{}", rows[0].text);
        let mut p = LogsPanel {
            tab: LogTab::Dice,
            ..LogsPanel::default()
        };
        p.sync(&[entry(7, "fire", &["x"], vec![])]);
        assert_eq!(p.row_count(), 0);
    }
}
