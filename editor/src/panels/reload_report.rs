//! The reload report panel: after a hot reload, what replaying the game under the new rules
//! found ([`ReplayReport`]): "replayed N actions under the new rules: same result", or the first
//! action whose outcome changed, with what differed (legality: accepted one way, refused the
//! other; or the resulting state; or the reason of a refusal).
//!
//! While the replay runs (in slices, see `Session::replay_step`) it shows "replaying under the
//! new rules: N/M" with a Cancel button ([`show_status`]); after a cancel, how far it got.
//!
//! **What it deliberately does not do:** replay anything (the app runs the session's replay
//! job) or keep reports. Its commands: when the changed action names a hex, a link selects it
//! ([`Command::SelectHex`]); while replaying, Cancel ([`Command::CancelReplay`]).
//!
//! ```
//! use hexforge_editor::panels::reload_report::summary;
//! use hexforge_script::watch::ReplayReport;
//! let same = ReplayReport { compared: 12, first_difference: None };
//! assert_eq!(summary(&same), "Replayed 12 actions under the new rules: same result.");
//! ```

use crate::command::Command;
use crate::panels::logs::{action_hex, describe_action};
use crate::session::{Reloaded, ReplayStatus};
use hexforge_script::watch::{Difference, ReplayReport};
use std::collections::BTreeSet;

/// What kind of change the first difference is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    /// The setup already differs (or failed under one rule set).
    Setup,
    /// Accepted under one rule set, refused under the other.
    Legality,
    /// Accepted by both, but the resulting states differ.
    State,
    /// Refused by both, for different reasons.
    Reason,
}

fn accepted(outcome: &str) -> bool {
    outcome.starts_with("accepted")
}

/// Classifies a difference from its two outcome texts.
#[must_use]
pub fn change_kind(d: &Difference) -> ChangeKind {
    match (d.index, accepted(&d.old), accepted(&d.new)) {
        (None, ..) => ChangeKind::Setup,
        (Some(_), true, true) => ChangeKind::State,
        (Some(_), false, false) => ChangeKind::Reason,
        _ => ChangeKind::Legality,
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "action" } else { "actions" }
}

/// The one-line summary: `Replayed 12 actions under the new rules: same result.` or where and
/// how the first difference arose.
#[must_use]
pub fn summary(report: &ReplayReport) -> String {
    let Some(d) = &report.first_difference else {
        return format!(
            "Replayed {} {} under the new rules: same result.",
            report.compared,
            plural(report.compared)
        );
    };
    match (change_kind(d), d.index) {
        (ChangeKind::Setup, _) | (_, None) => {
            "The game's setup differs under the new rules; no action was replayed.".into()
        }
        (kind, Some(i)) => {
            let what = match kind {
                ChangeKind::Legality if accepted(&d.old) => "is now refused",
                ChangeKind::Legality => "is now accepted",
                ChangeKind::State => "now leads to a different state",
                _ => "is refused for another reason",
            };
            format!(
                "Replayed {} {}: action {} {what}.",
                report.compared,
                plural(report.compared),
                i + 1
            )
        }
    }
}

/// The details of a difference as (label, text) lines: the action, and what happened under the
/// old and the new rules.
#[must_use]
pub fn detail_lines(d: &Difference) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    match (&d.index, &d.action) {
        (Some(i), Some(a)) => out.push(("action", format!("{} (#{})", describe_action(a), i + 1))),
        (Some(i), None) => out.push(("action", format!("#{}", i + 1))),
        (None, _) => out.push(("action", "none: the setup".to_owned())),
    }
    out.push(("old rules", d.old.clone()));
    out.push(("new rules", d.new.clone()));
    out
}

/// Draws a report; `None` draws a hint that no reload has been replayed yet.
pub fn show(ui: &mut egui::Ui, report: Option<&ReplayReport>) -> Vec<Command> {
    let mut cmds = Vec::new();
    ui.strong("Reload report");
    let Some(report) = report else {
        ui.weak("Save a file of the running mod: the game is replayed under the new rules.");
        return cmds;
    };
    match &report.first_difference {
        None => {
            ui.label(summary(report));
        }
        Some(d) => {
            ui.colored_label(ui.visuals().warn_fg_color, summary(report));
            egui::Grid::new("reload-report")
                .num_columns(2)
                .spacing([12.0, 4.0])
                .show(ui, |ui| {
                    for (label, text) in detail_lines(d) {
                        ui.weak(label);
                        ui.label(egui::RichText::new(text).monospace());
                        ui.end_row();
                    }
                });
            if let Some(h) = d.action.as_ref().and_then(action_hex)
                && ui.link(format!("show {h} on the board")).clicked()
            {
                cmds.push(Command::SelectHex(h));
            }
            // The game went on past an action the new rules refuse: offer to go back to it.
            if let Some(i) = d.index
                && change_kind(d) == ChangeKind::Legality
                && accepted(&d.old)
                && ui
                    .button(format!(
                        "Replay the first {i} {} under the new rules",
                        plural(i)
                    ))
                    .on_hover_text("start the game again and replay it up to the refused action")
                    .clicked()
            {
                cmds.push(Command::ReplayUpTo(i));
            }
        }
    }
    cmds
}

/// Draws a replay that is running (progress bar and Cancel) or was cancelled; a finished one
/// is drawn by [`show`].
pub fn show_status(ui: &mut egui::Ui, status: &ReplayStatus) -> Vec<Command> {
    if let ReplayStatus::Done(r) = status {
        return show(ui, Some(r));
    }
    let mut cmds = Vec::new();
    ui.strong("Reload report");
    match status {
        ReplayStatus::Running(p) => {
            ui.horizontal(|ui| {
                ui.label(format!(
                    "replaying under the new rules: {}/{}",
                    p.done, p.total
                ));
                if ui.button("Cancel").clicked() {
                    cmds.push(Command::CancelReplay);
                }
            });
            // Why a guard: a game of no actions has nothing to divide by.
            #[allow(clippy::cast_precision_loss)]
            let frac = if p.total == 0 {
                1.0
            } else {
                p.done as f32 / p.total as f32
            };
            ui.add(egui::ProgressBar::new(frac).desired_width(240.0));
        }
        ReplayStatus::Cancelled { after, total } => {
            ui.label(format!(
                "replay cancelled after {after} actions (of {total}); save again to replay"
            ));
        }
        ReplayStatus::Done(_) => {}
    }
    cmds
}

/// One line about a reload: orphaned pieces and the replay's first difference.
#[must_use]
pub fn reload_summary(r: &Reloaded) -> String {
    let replay = match &r.replay {
        ReplayStatus::Running(p) => {
            format!("replaying under the new rules: {}/{}", p.done, p.total)
        }
        ReplayStatus::Cancelled { after, .. } => format!("replay cancelled after {after} actions"),
        ReplayStatus::Done(rep) => match &rep.first_difference {
            None => format!("replay: all {} actions the same", rep.compared),
            Some(d) => match (&d.index, &d.action) {
                (Some(i), Some(a)) => format!(
                    "replay: action {} ({} by {}) differs: was {}, now {}",
                    i + 1,
                    a.id,
                    a.side,
                    d.old,
                    d.new
                ),
                _ => format!("replay: the setup differs: was {}, now {}", d.old, d.new),
            },
        },
    };
    if r.report.orphaned_pieces.is_empty() {
        replay
    } else {
        let kinds: BTreeSet<&str> = r
            .report
            .orphaned_pieces
            .iter()
            .map(|(_, k)| k.as_str())
            .collect();
        format!(
            "{replay}; {} piece(s) of undeclared types ({})",
            r.report.orphaned_pieces.len(),
            kinds.into_iter().collect::<Vec<_>>().join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexforge_game::Action;
    use serde_json::json;

    fn diff(index: Option<usize>, old: &str, new: &str) -> Difference {
        Difference {
            index,
            action: index.map(|_| {
                Action::new(
                    "move",
                    "blue",
                    json!({ "piece": 2, "to": { "q": 0, "r": 1 } }),
                )
            }),
            old: old.into(),
            new: new.into(),
        }
    }

    fn report(d: Difference) -> ReplayReport {
        ReplayReport {
            compared: d.index.map_or(0, |i| i + 1),
            first_difference: Some(d),
        }
    }

    #[test]
    fn each_kind_of_change_reads_as_such() {
        let refused = diff(
            Some(4),
            "accepted, state 0123456789ab",
            "refused: illegal: too far",
        );
        assert_eq!(change_kind(&refused), ChangeKind::Legality);
        assert_eq!(
            summary(&report(refused.clone())),
            "Replayed 5 actions: action 5 is now refused."
        );
        let state = diff(Some(0), "accepted, state aaaa", "accepted, state bbbb");
        assert_eq!(change_kind(&state), ChangeKind::State);
        assert_eq!(
            summary(&report(state)),
            "Replayed 1 action: action 1 now leads to a different state."
        );
        let allowed = diff(Some(2), "refused: illegal: no", "accepted, state cc");
        assert!(summary(&report(allowed)).ends_with("action 3 is now accepted."));
        let reason = diff(Some(2), "refused: illegal: a", "refused: illegal: b");
        assert_eq!(change_kind(&reason), ChangeKind::Reason);
        let setup = diff(None, "setup state 1", "setup state 2");
        assert_eq!(change_kind(&setup), ChangeKind::Setup);
        assert!(summary(&report(setup)).contains("setup differs"));
    }

    #[test]
    fn details_name_the_action_and_both_outcomes() {
        let d = diff(Some(4), "accepted, state x", "refused: illegal: too far");
        let lines = detail_lines(&d);
        assert_eq!(
            lines[0],
            ("action", "blue: move piece=2 to=(0, 1) (#5)".to_owned())
        );
        assert_eq!(
            lines[2],
            ("new rules", "refused: illegal: too far".to_owned())
        );
        assert_eq!(
            summary(&ReplayReport {
                compared: 1,
                first_difference: None
            }),
            "Replayed 1 action under the new rules: same result."
        );
    }
}
