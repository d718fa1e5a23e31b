//! The balance tab: the open mod against another rule set (its base first, for a variant) on
//! the same seeds with the same bots, as `hexforge compare` plays them; while it runs a
//! progress line and Cancel, then the report (each side's win rate with its 95% interval, the
//! first mover, lengths, endings, and which differences are significant) with its win rates
//! drawn as bars with error bars, and the command line that plays the same and draws the
//! chart for a forum post.
//!
//! **What it deliberately does not do:** play or count: it returns a [`Command::Compare`] with
//! the form's [`CompareSpec`] and draws the [`CompareJob`] the app runs
//! ([`crate::balance`]).

use crate::balance::{CompareJob, CompareSpec};
use crate::command::Command;
use egui::{Color32, Stroke, pos2, vec2};
use hexforge_game::balance::Comparison;
use hexforge_game::play::BotSpec;
use std::path::PathBuf;

/// The form: what to compare against, where, how many games, who plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BalanceForm {
    /// The other rule set (none: the open mod's base, else the first other mod).
    pub other: Option<PathBuf>,
    /// The scenario (empty: the open mod's first).
    pub scenario: String,
    /// Games per rule set.
    pub games: u64,
    /// Who plays, as `--bots` takes it.
    pub bots: String,
}

impl Default for BalanceForm {
    fn default() -> Self {
        BalanceForm {
            other: None,
            scenario: String::new(),
            games: 40,
            bots: "random".into(),
        }
    }
}

/// What the tab shows, prepared by the app.
pub struct BalanceView<'a> {
    /// The open mod's folder.
    pub open: &'a PathBuf,
    /// Its scenarios.
    pub scenarios: &'a [String],
    /// Rule sets to compare it with, by name and folder: its base first.
    pub others: &'a [(String, PathBuf)],
    /// Mods' folders to look for dependencies in.
    pub roots: Vec<PathBuf>,
    /// The comparison running or done.
    pub job: Option<&'a CompareJob>,
}

/// The tab's state: the form and the comparison running or done.
#[derive(Debug, Default)]
pub struct BalanceTab {
    /// The form.
    pub form: BalanceForm,
    /// The last comparison started.
    pub job: Option<CompareJob>,
}

/// The rule sets' colours in the bars: A, B (as the command line's chart).
const COLOURS: [Color32; 2] = [
    Color32::from_rgb(52, 101, 164),
    Color32::from_rgb(230, 126, 34),
];

/// Draws the tab; returns what the user asked for.
pub fn show(ui: &mut egui::Ui, view: &BalanceView<'_>, form: &mut BalanceForm) -> Vec<Command> {
    let mut cmds = Vec::new();
    let Some((_, default_other)) = view.others.first() else {
        ui.weak(
            "No other rule set of this game: make a variant (hexforge new my-variant \
             --extends <this mod>), change a rule, and compare them here.",
        );
        return cmds;
    };
    let other = form.other.clone().unwrap_or_else(|| default_other.clone());
    let scenario = if view.scenarios.contains(&form.scenario) {
        form.scenario.clone()
    } else {
        view.scenarios.first().cloned().unwrap_or_default()
    };
    let running = view.job.is_some_and(CompareJob::running);
    ui.horizontal_wrapped(|ui| {
        ui.label(format!(
            "Compare {} against",
            view.open.file_name().unwrap_or_default().to_string_lossy()
        ));
        let name_of = |p: &PathBuf| {
            view.others
                .iter()
                .find(|(_, d)| d == p)
                .map_or_else(|| p.display().to_string(), |(n, _)| n.clone())
        };
        egui::ComboBox::new("balance_other", "rule set B")
            .selected_text(name_of(&other))
            .show_ui(ui, |ui| {
                for (name, dir) in view.others {
                    if ui.selectable_label(*dir == other, name).clicked() {
                        form.other = Some(dir.clone());
                    }
                }
            });
        egui::ComboBox::new("balance_scenario", "scenario")
            .selected_text(scenario.as_str())
            .show_ui(ui, |ui| {
                for s in view.scenarios {
                    if ui.selectable_label(*s == scenario, s).clicked() {
                        form.scenario.clone_from(s);
                    }
                }
            });
        ui.add(egui::DragValue::new(&mut form.games).range(1..=10_000))
            .on_hover_text("games per rule set");
        ui.label("games, bots");
        ui.add(egui::TextEdit::singleline(&mut form.bots).desired_width(160.0))
            .on_hover_text(
                "as --bots takes them: random, greedy, mcts:iters=50, blue=greedy,red=random",
            );
    });
    let bots: Result<BotSpec, String> = form.bots.parse();
    ui.horizontal(|ui| {
        ui.add_enabled_ui(!running && bots.is_ok() && !scenario.is_empty(), |ui| {
            if ui.button("Compare").clicked()
                && let Ok(bots) = &bots
            {
                cmds.push(Command::Compare(CompareSpec {
                    mods: [view.open.clone(), other.clone()],
                    extra_roots: view.roots.clone(),
                    scenario: scenario.clone(),
                    games: form.games,
                    seed: 1,
                    bots: bots.clone(),
                }));
            }
        });
        if let Err(e) = &bots {
            ui.colored_label(ui.visuals().warn_fg_color, e);
        }
        if let Some(job) = view.job.filter(|_| running) {
            ui.spinner();
            ui.label(job.progress());
            if ui.button("Cancel").clicked() {
                cmds.push(Command::CancelCompare);
            }
        }
    });
    let Some(job) = view.job else {
        ui.weak("Both rule sets play the same seeds with the same bots, on a thread of their own: the game here is not touched.");
        return cmds;
    };
    match &job.result {
        None => {}
        Some(Err(e)) => {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        Some(Ok((text, comparison))) => {
            ui.horizontal(|ui| {
                if ui.small_button("Copy report").clicked() {
                    ui.ctx().copy_text(text.clone());
                }
                if ui.small_button("Copy command").clicked() {
                    ui.ctx().copy_text(job.spec.command_line());
                }
                ui.weak(format!(
                    "same on the command line: {}",
                    job.spec.command_line()
                ));
            });
            ui.horizontal_top(|ui| {
                bars(ui, comparison);
                egui::ScrollArea::both()
                    .id_salt("balance_report")
                    .show(ui, |ui| {
                        ui.monospace(text);
                    });
            });
        }
    }
    cmds
}

/// Each side's win rate (and draws) in A and B, side by side, with 95% intervals as whiskers.
fn bars(ui: &mut egui::Ui, c: &Comparison) {
    // Per outcome: (rate, interval low, interval high) in A and in B.
    type Bar = (f64, f64, f64);
    let mut rows: Vec<(String, [Bar; 2])> = Vec::new();
    for side in hexforge_game::balance::sides(&c.rule_sets) {
        let of = |i: usize| {
            let r = &c.rule_sets[i];
            let games = r.summary.games.max(1) as f64;
            let wins = r.summary.wins.get(&side).copied().unwrap_or(0) as f64;
            let iv = r.win_intervals.get(&side);
            (
                wins / games,
                iv.map_or(0.0, |i| i.low),
                iv.map_or(1.0, |i| i.high),
            )
        };
        rows.push((format!("{side} wins"), [of(0), of(1)]));
    }
    let draws = |i: usize| {
        let r = &c.rule_sets[i];
        let games = r.summary.games.max(1) as f64;
        let iv = r.draw_interval;
        (r.summary.draws as f64 / games, iv.low, iv.high)
    };
    rows.push(("draws".into(), [draws(0), draws(1)]));
    let (w, row_h) = (260.0, 34.0);
    let (rect, _) = ui.allocate_exact_size(
        vec2(w, row_h * rows.len() as f32 + 30.0),
        egui::Sense::hover(),
    );
    let p = ui.painter_at(rect);
    let x0 = rect.left() + 80.0;
    let span = rect.right() - 10.0 - x0;
    let x = |f: f64| x0 + span * f.clamp(0.0, 1.0) as f32;
    for (i, (name, sets)) in rows.iter().enumerate() {
        let y = rect.top() + row_h * i as f32 + 6.0;
        p.text(
            pos2(rect.left(), y + 10.0),
            egui::Align2::LEFT_CENTER,
            name,
            egui::FontId::proportional(11.0),
            ui.visuals().text_color(),
        );
        for (k, (rate, low, high)) in sets.iter().enumerate() {
            let top = y + k as f32 * 11.0;
            let bar = egui::Rect::from_min_max(pos2(x0, top), pos2(x(*rate), top + 9.0));
            p.rect_filled(bar, 1.0, COLOURS[k]);
            let mid = top + 4.5;
            let whisker = Stroke::new(1.0, ui.visuals().strong_text_color());
            p.line_segment([pos2(x(*low), mid), pos2(x(*high), mid)], whisker);
            for end in [*low, *high] {
                p.line_segment([pos2(x(end), mid - 3.0), pos2(x(end), mid + 3.0)], whisker);
            }
        }
    }
    let bottom = rect.bottom() - 20.0;
    for (k, name) in ["A", "B"].iter().enumerate() {
        let at = pos2(x0, bottom + k as f32 * 13.0);
        p.rect_filled(
            egui::Rect::from_center_size(at, vec2(8.0, 8.0)),
            1.0,
            COLOURS[k],
        );
        p.text(
            at + vec2(8.0, 0.0),
            egui::Align2::LEFT_CENTER,
            format!("{name}: {}", c.rule_sets[k].rules),
            egui::FontId::proportional(10.0),
            ui.visuals().text_color(),
        );
    }
}
