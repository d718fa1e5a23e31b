//! A list of choices of one kind (a piece's moves, every deployment) as the play panel shows
//! it: a short list is a button per choice; a long one is never hundreds of buttons but a
//! narrowing picker, one drop-down per param that tells the choices apart ("facing: any, N (12),
//! NE (9), ..."), and the buttons once few are left. Params with too many values to list (a
//! hex among 300, a path) are narrowed by clicking the map instead, which the picker says.
//!
//! **What it deliberately does not do:** read the rules: it sees the listed words and each
//! action's params as plain values, and keeps what was picked per list in a [`Narrowing`] the
//! play form owns (a pick that no longer matches any choice counts as "any").
//!
//! ```
//! use hexforge_editor::panels::choice_list::varying;
//! use hexforge_game::{Action, SideId};
//! let a = |f: u8, to: i32| Action {
//!     side: SideId::new("blue"),
//!     id: "move".into(),
//!     params: serde_json::json!({ "piece": 1, "facing": f, "to": [to, 0] }),
//! };
//! let acts = [a(0, 1), a(1, 1), a(0, 2)];
//! let v = varying(acts.iter());
//! assert_eq!(v.keys().collect::<Vec<_>>(), ["facing", "to"]);
//! assert_eq!(v["facing"], [("0".to_owned(), 2), ("1".to_owned(), 1)]);
//! ```

use super::play::Listed;
use crate::command::Command;
use crate::session::hex_of;
use hexforge_game::Action;
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// Lists up to this long are shown whole, a button per choice.
pub const SHORT: usize = 24;

/// Params with more distinct values than this get no drop-down (narrow them on the map).
pub const MAX_VALUES: usize = 40;

/// What was picked in each long list: list id -> param -> value (as [`value_text`] words it).
pub type Narrowing = BTreeMap<String, BTreeMap<String, String>>;

/// A param value in words: a hex as `(q, r)`, a string as itself, anything else as JSON (cut
/// to 40 characters).
#[must_use]
pub fn value_text(v: &Json) -> String {
    if let Some(h) = hex_of(v) {
        return format!("({}, {})", h.q, h.r);
    }
    let text = match v {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    };
    if text.chars().count() > 40 {
        text.chars().take(39).collect::<String>() + "…"
    } else {
        text
    }
}

/// The params whose values differ among `acts`, each with its values in words and how many
/// choices have each, in value order.
#[must_use]
pub fn varying<'a>(
    acts: impl Iterator<Item = &'a Action>,
) -> BTreeMap<String, Vec<(String, usize)>> {
    let mut seen: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    let mut n = 0;
    for a in acts {
        n += 1;
        if let Json::Object(m) = &a.params {
            for (k, v) in m {
                *seen
                    .entry(k.clone())
                    .or_default()
                    .entry(value_text(v))
                    .or_default() += 1;
            }
        }
    }
    seen.into_iter()
        .filter(|(_, vals)| vals.len() > 1 || vals.values().sum::<usize>() < n)
        .map(|(k, vals)| (k, vals.into_iter().collect()))
        .collect()
}

/// Whether `a` matches every pick of `picks` (a param it lacks does not match).
fn matches(a: &Action, picks: &BTreeMap<String, String>) -> bool {
    picks
        .iter()
        .all(|(k, want)| a.params.get(k).is_some_and(|v| value_text(v) == *want))
}

fn buttons(ui: &mut egui::Ui, list: &[&Listed], cmds: &mut Vec<Command>) {
    for (text, a) in list {
        let text = if text.is_empty() { a.id.as_str() } else { text };
        if ui.button(text).clicked() {
            cmds.push(Command::Perform(a.clone()));
        }
    }
}

/// Draws list `id`: buttons when short, else the narrowing picker and the buttons left.
pub fn show(
    ui: &mut egui::Ui,
    id: &str,
    list: &[Listed],
    narrowing: &mut Narrowing,
    cmds: &mut Vec<Command>,
) {
    if list.len() <= SHORT {
        return buttons(ui, &list.iter().collect::<Vec<_>>(), cmds);
    }
    let vary = varying(list.iter().map(|(_, a)| a));
    let picks = narrowing.entry(id.to_owned()).or_default();
    // A pick no choice has any more (the game moved on) is dropped, not a dead end.
    picks.retain(|k, v| {
        vary.get(k)
            .is_some_and(|vals| vals.iter().any(|(x, _)| x == v))
    });
    let mut too_many = Vec::new();
    for (param, values) in &vary {
        if values.len() > MAX_VALUES {
            too_many.push(param.as_str());
            continue;
        }
        // Counts among the choices the other picks leave.
        let others: BTreeMap<String, String> = picks
            .iter()
            .filter(|(k, _)| *k != param)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for (_, a) in list.iter().filter(|(_, a)| matches(a, &others)) {
            if let Some(v) = a.params.get(param) {
                let text = value_text(v);
                if let Some((known, _)) = values.iter().find(|(x, _)| *x == text) {
                    *counts.entry(known.as_str()).or_default() += 1;
                }
            }
        }
        let now = picks.get(param).cloned();
        egui::ComboBox::new(("narrow", id, param), param)
            .selected_text(now.as_deref().unwrap_or("any"))
            .show_ui(ui, |ui| {
                if ui.selectable_label(now.is_none(), "any").clicked() {
                    picks.remove(param);
                }
                for (value, n) in &counts {
                    let on = now.as_deref() == Some(*value);
                    if ui.selectable_label(on, format!("{value} ({n})")).clicked() {
                        picks.insert(param.clone(), (*value).to_owned());
                    }
                }
            });
    }
    let left: Vec<&Listed> = list.iter().filter(|(_, a)| matches(a, picks)).collect();
    if left.len() <= SHORT {
        return buttons(ui, &left, cmds);
    }
    let hint = if too_many.is_empty() {
        String::new()
    } else {
        format!(" ({} too: click the map)", too_many.join(", "))
    };
    ui.weak(format!("{} choices: narrow them down{hint}", left.len()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexforge_game::SideId;

    fn act(kind: &str, q: i32) -> Action {
        Action {
            side: SideId::new("a"),
            id: "place".into(),
            params: serde_json::json!({ "kind": kind, "at": { "q": q, "r": 0 } }),
        }
    }

    #[test]
    fn picks_narrow_and_a_stale_pick_matches_nothing_it_should_not() {
        let acts: Vec<Action> = (0..30)
            .flat_map(|q| [act("dust", q), act("rock", q)])
            .collect();
        let v = varying(acts.iter());
        assert_eq!(
            v["kind"],
            [("dust".to_owned(), 30), ("rock".to_owned(), 30)]
        );
        assert_eq!(v["at"].len(), 30);
        assert_eq!(v["at"][0].0, "(0, 0)");
        let picks: BTreeMap<String, String> = [("kind".to_owned(), "rock".to_owned())].into();
        assert_eq!(acts.iter().filter(|a| matches(a, &picks)).count(), 30);
        let picks: BTreeMap<String, String> = [
            ("kind".to_owned(), "rock".to_owned()),
            ("at".to_owned(), "(3, 0)".to_owned()),
        ]
        .into();
        let left: Vec<&Action> = acts.iter().filter(|a| matches(a, &picks)).collect();
        assert_eq!(left, [&act("rock", 3)]);
    }

    #[test]
    fn a_param_only_some_choices_have_varies() {
        let mut a = act("dust", 0);
        a.params["extra"] = Json::from(1);
        let v = varying([a, act("dust", 0)].iter());
        assert!(v.contains_key("extra") && !v.contains_key("kind"), "{v:?}");
    }
}
