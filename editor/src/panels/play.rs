//! The play panel: where the game is (round, phase, who acts, the outcome), the turn buttons
//! (end phase, end turn, undo, redo), a new game (scenario and seed), who plays each side (a
//! person or a bot) with "step" and "play to end", and the legal actions of the selected piece,
//! grouped by action id, each a button that performs it (a long group is a narrowing picker:
//! [`super::choice_list`]).
//!
//! **What it deliberately does not do:** read the rules or change the game. It draws a
//! [`PlayView`] the app prepared (actions already described in words) and returns
//! [`Command`]s; the seed and scenario fields it edits are a form ([`PlayForm`]) that only a
//! "New game" click turns into a command.
//!
//! ```
//! use hexforge_editor::panels::play::{PlayForm, PlayView};
//! let view = PlayView::default();
//! let form = PlayForm { scenario: "picket".into(), seed: "1".into(), ..PlayForm::default() };
//! assert!(view.groups.is_empty() && form.seed_value() == Some(1));
//! ```

use super::choice_list::{self, Narrowing};
use crate::command::Command;
use crate::session::{GameStatus, HUMAN, RANDOM};
use hexforge_game::{Action, PieceId};
use std::collections::BTreeMap;

/// One action as listed: its words and the action itself.
pub type Listed = (String, Action);

/// Everything the panel shows, prepared by the app.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayView {
    /// Round, phase, who acts, outcome, undo/redo availability.
    pub status: GameStatus,
    /// The scenarios of the open mod.
    pub scenarios: Vec<String>,
    /// The mod's own bots.
    pub bot_names: Vec<String>,
    /// Who plays each side (`human`, `random` or a mod bot); sides absent are human.
    pub bots: BTreeMap<String, String>,
    /// Pieces that have a legal action now, with a label (`#3 frigate (blue)`).
    pub pieces: Vec<(PieceId, String)>,
    /// The selected piece and its label.
    pub selected: Option<(PieceId, String)>,
    /// The selected piece's legal actions by action id.
    pub groups: Vec<(String, Vec<Listed>)>,
    /// Legal actions that name no piece (end phase, deployments, ...).
    pub free: Vec<Listed>,
    /// Several actions end on the clicked hex or target: pick one.
    pub pending: Vec<Listed>,
    /// The last message (an illegal action's reason, a bot's result).
    pub message: String,
    /// The bots' progress while they play to the end.
    pub progress: Option<String>,
    /// Milliseconds between bot moves in "Play to end" (0: as fast as possible).
    pub pace_ms: u32,
    /// Where "Save game" writes by default (mod, scenario, seed, round).
    pub save_path: String,
    /// The open mod's saves, newest first.
    pub saves: Vec<std::path::PathBuf>,
}

/// The search bot as the bot menu offers it: 200 simulations a move, the same move for the
/// same game; and a stronger, slower one, a second a move.
pub const SEARCH: &str = "mcts";
/// See [`SEARCH`].
pub const SEARCH_SLOW: &str = "mcts:ms=1000";

/// The search bot guided by the mod's bot `name` (it plays the simulations, and its choice is
/// the one to beat), as the bot menu offers it for each of the mod's bots.
#[must_use]
pub fn guided_search(name: &str) -> String {
    format!("{SEARCH}:guide={name}")
}

/// The paces "Play to end" offers, in milliseconds a move (0: as fast as possible).
pub const PACES: [u32; 5] = [0, 100, 200, 500, 1000];

/// The new-game form.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayForm {
    /// The scenario to start.
    pub scenario: String,
    /// The seed as typed.
    pub seed: String,
    /// What was picked to narrow each long list of choices.
    pub narrow: Narrowing,
}

impl PlayForm {
    /// The seed typed, if it is a number.
    #[must_use]
    pub fn seed_value(&self) -> Option<u64> {
        self.seed.trim().parse().ok()
    }
}

fn status_lines(ui: &mut egui::Ui, s: &GameStatus) {
    ui.horizontal_wrapped(|ui| {
        ui.strong(format!("Round {}", s.round));
        ui.label(format!("phase {}", s.phase));
        ui.weak(format!("{} actions", s.actions));
    });
    match &s.outcome {
        Some(o) => {
            let who = if o.winners.is_empty() {
                "draw".to_owned()
            } else {
                let w: Vec<&str> = o.winners.iter().map(|w| w.as_str()).collect();
                format!("{} wins", w.join(", "))
            };
            ui.colored_label(
                egui::Color32::from_rgb(0x60, 0xe0, 0x80),
                format!("Game over: {who}: {}", o.reason),
            );
        }
        None => {
            let w: Vec<&str> = s.waiting.iter().map(|w| w.as_str()).collect();
            ui.label(format!("to act: {}", w.join(", ")));
        }
    }
}

/// Draws the panel; returns what the user asked for.
pub fn show(ui: &mut egui::Ui, view: &PlayView, form: &mut PlayForm) -> Vec<Command> {
    let mut cmds = Vec::new();
    ui.heading("Play");
    status_lines(ui, &view.status);
    let running = view.progress.is_some();
    ui.horizontal(|ui| {
        ui.add_enabled_ui(!running && view.status.outcome.is_none(), |ui| {
            if ui.button("End phase").clicked() {
                cmds.push(Command::EndPhase);
            }
            if ui.button("End turn").clicked() {
                cmds.push(Command::EndTurn);
            }
        });
    });
    ui.horizontal(|ui| {
        ui.add_enabled_ui(!running && view.status.can_undo, |ui| {
            if ui.button("Undo").clicked() {
                cmds.push(Command::Undo);
            }
        });
        ui.add_enabled_ui(!running && view.status.can_redo, |ui| {
            if ui.button("Redo").clicked() {
                cmds.push(Command::Redo);
            }
        });
    });
    if !view.message.is_empty() {
        // Refusals and faults stand out; ordinary results do not.
        let m = egui::RichText::new(&view.message);
        let bad = view.message.starts_with("illegal") || view.message.contains("error");
        ui.label(if bad {
            m.color(ui.visuals().warn_fg_color)
        } else {
            m
        });
    }
    ui.separator();

    ui.collapsing("New game", |ui| {
        egui::ComboBox::from_id_salt("scenario")
            .selected_text(form.scenario.as_str())
            .show_ui(ui, |ui| {
                for s in &view.scenarios {
                    ui.selectable_value(&mut form.scenario, s.clone(), s);
                }
            });
        ui.horizontal(|ui| {
            ui.label("seed");
            ui.add(egui::TextEdit::singleline(&mut form.seed).desired_width(80.0));
        });
        let seed = form.seed_value();
        ui.add_enabled_ui(seed.is_some() && !form.scenario.is_empty(), |ui| {
            if ui.button("Start new game").clicked()
                && let Some(seed) = seed
            {
                cmds.push(Command::NewGame {
                    scenario: form.scenario.clone(),
                    seed,
                });
            }
        });
    });

    ui.collapsing("Saved games", |ui| {
        ui.horizontal(|ui| {
            if ui
                .button("Save game")
                .on_hover_text(format!("save as {}", view.save_path))
                .clicked()
            {
                cmds.push(Command::SaveGame(view.save_path.clone().into()));
            }
            ui.weak("the command line's format: hexforge replay FILE checks it");
        });
        if view.saves.is_empty() {
            ui.weak("No saves of this mod yet.");
        }
        for p in view.saves.iter().take(12) {
            let name = p
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            if ui
                .button(format!("Load {name}"))
                .on_hover_text(p.display().to_string())
                .clicked()
            {
                cmds.push(Command::LoadGame(p.clone()));
            }
        }
    });

    ui.collapsing("Bots", |ui| {
        let mut choices: Vec<String> = [HUMAN, RANDOM, SEARCH, SEARCH_SLOW]
            .map(str::to_owned)
            .into();
        choices.extend(view.bot_names.iter().cloned());
        // The search guided by each of the mod's bots (docs/BOTS.md, `guide=`).
        choices.extend(view.bot_names.iter().map(|n| guided_search(n)));
        for side in &view.status.sides {
            let now = view
                .bots
                .get(side.as_str())
                .map_or(HUMAN, String::as_str)
                .to_owned();
            ui.horizontal(|ui| {
                egui::ComboBox::new(("bot", side.as_str()), side.as_str())
                    .selected_text(now.as_str())
                    .show_ui(ui, |ui| {
                        for c in &choices {
                            if ui.selectable_label(*c == now, c).clicked() && *c != now {
                                cmds.push(Command::SetBot {
                                    side: side.to_string(),
                                    bot: c.clone(),
                                });
                            }
                        }
                    });
            });
        }
        ui.weak(
            "Step and Play to end move the sides a bot plays; a human side waits for your move.",
        );
    });
    ui.horizontal(|ui| {
        let over = view.status.outcome.is_some();
        ui.add_enabled_ui(!running && !over, |ui| {
            if ui.button("Step").clicked() {
                cmds.push(Command::BotStep);
            }
            if ui.button("Play to end").clicked() {
                cmds.push(Command::PlayToEnd);
            }
        });
        if running && ui.button("Cancel").clicked() {
            cmds.push(Command::CancelBots);
        }
    });
    ui.horizontal(|ui| {
        ui.label("pace");
        let name = |ms: u32| match ms {
            0 => "fast".to_owned(),
            ms => format!("{:.2} s a move", f64::from(ms) / 1000.0),
        };
        egui::ComboBox::from_id_salt("pace")
            .selected_text(name(view.pace_ms))
            .show_ui(ui, |ui| {
                for ms in PACES {
                    if ui.selectable_label(view.pace_ms == ms, name(ms)).clicked() {
                        cmds.push(Command::SetPace(ms));
                    }
                }
            })
            .response
            .on_hover_text("how fast Play to end goes: watch each bot action, marked on the map, or run to the end");
    });
    if let Some(p) = &view.progress {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label(p);
        });
    }
    ui.separator();

    egui::ScrollArea::vertical()
        .id_salt("play_actions")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if !view.pending.is_empty() {
                ui.strong("Choose one:");
                choice_list::show(ui, "pending", &view.pending, &mut form.narrow, &mut cmds);
                if ui.button("Never mind").clicked() {
                    cmds.push(Command::Pick(Vec::new()));
                }
                ui.separator();
            }
            match &view.selected {
                Some((_, label)) => {
                    ui.horizontal(|ui| {
                        ui.strong(format!("Selected: {label}"));
                        if ui.small_button("x").clicked() {
                            cmds.push(Command::SelectPiece(None));
                        }
                    });
                    if view.groups.is_empty() {
                        ui.weak("No legal action for this piece now.");
                    }
                    for (id, list) in &view.groups {
                        egui::CollapsingHeader::new(format!("{id} ({})", list.len()))
                            .id_salt(("group", id))
                            .default_open(true)
                            .show(ui, |ui| {
                                choice_list::show(ui, id, list, &mut form.narrow, &mut cmds);
                            });
                    }
                }
                None => {
                    ui.weak("Click a piece to see its actions.");
                }
            }
            if !view.pieces.is_empty() {
                ui.separator();
                ui.strong("Pieces that can act");
                for (id, label) in &view.pieces {
                    let on = view.selected.as_ref().is_some_and(|(s, _)| s == id);
                    if ui.selectable_label(on, label).clicked() {
                        cmds.push(Command::SelectPiece(Some(*id)));
                    }
                }
            }
            if !view.free.is_empty() {
                ui.separator();
                ui.strong("Other actions");
                // Grouped by action id like the piece's; a long group starts folded.
                let mut groups: Vec<(&str, Vec<Listed>)> = Vec::new();
                for l in &view.free {
                    match groups.last_mut() {
                        Some((id, list)) if *id == l.1.id => list.push(l.clone()),
                        _ => groups.push((l.1.id.as_str(), vec![l.clone()])),
                    }
                }
                for (id, list) in &groups {
                    let key = format!("free {id}");
                    if list.len() == 1 {
                        choice_list::show(ui, &key, list, &mut form.narrow, &mut cmds);
                        continue;
                    }
                    egui::CollapsingHeader::new(format!("{id} ({})", list.len()))
                        .id_salt(("free", id))
                        .default_open(true)
                        .show(ui, |ui| {
                            choice_list::show(ui, &key, list, &mut form.narrow, &mut cmds);
                        });
                }
            }
        });
    cmds
}
