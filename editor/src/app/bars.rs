//! The bars around the board: the top bar (rules light, tabs, panel toggles), the board's
//! toolbar (demos, orientation), the bottom panel's tabs and the status line.

use super::*;

impl EditorApp {
    /// The bottom panel: problems, the event and dice logs, the tables with their odds, and
    /// the last reload's replay report, one tab at a time.
    pub(super) fn bottom_panel(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        let mut cmds = Vec::new();
        ui.horizontal(|ui| {
            for (tab, name) in BottomTab::ALL {
                let label = match tab {
                    BottomTab::Problems if !self.problems.is_empty() => {
                        format!("{name} ({})", self.problems.len())
                    }
                    _ => name.to_owned(),
                };
                if ui
                    .selectable_label(self.persisted.bottom == tab, label)
                    .clicked()
                {
                    cmds.push(Command::SelectBottomTab(tab));
                }
            }
        });
        ui.separator();
        match (self.persisted.bottom, &self.open) {
            (BottomTab::Problems, _) => cmds.extend(problems::show(ui, &self.problems)),
            (BottomTab::Log, Some(s)) => {
                cmds.extend(logs::show(ui, &mut self.logs, s.game.state()))
            }
            (BottomTab::Tables, Some(s)) => {
                cmds.extend(tables::show(ui, &mut self.tables, s.decls(), &s.base));
            }
            (BottomTab::Reload, _) => match self.last_reload.as_ref().map(|r| &r.replay) {
                Some(st @ (ReplayStatus::Running(_) | ReplayStatus::Cancelled { .. })) => {
                    cmds.extend(reload_report::show_status(ui, st));
                }
                Some(ReplayStatus::Done(rep)) => cmds.extend(reload_report::show(ui, Some(rep))),
                None => cmds.extend(reload_report::show(ui, None)),
            },
            (BottomTab::Balance, Some(s)) => {
                let mine = paths::canonical(&s.dir);
                let me = self.mods.iter().find(|m| paths::canonical(&m.dir) == mine);
                let id = me.map_or(s.mod_id.clone(), |m| m.manifest.id.clone());
                let base = me.and_then(|m| m.manifest.extends.clone());
                // Rule sets of the same game: its base first, then copies of it, its variants
                // and its base's other variants (a scenario of the same name in another game
                // is another scenario).
                let shares = |m: &&crate::panels::mod_browser::ModEntry| {
                    let (mid, ext) = (&m.manifest.id, m.manifest.extends.as_ref());
                    *mid == id
                        || Some(mid) == base.as_ref()
                        || ext == Some(&id)
                        || (base.is_some() && ext == base.as_ref())
                };
                let mut others: Vec<(String, PathBuf)> = self
                    .mods
                    .iter()
                    .filter(|m| paths::canonical(&m.dir) != mine)
                    .filter(shares)
                    .map(|m| (m.manifest.id.clone(), m.dir.clone()))
                    .collect();
                others.sort_by_key(|(id, _)| Some(id) != base.as_ref());
                let view = crate::panels::balance::BalanceView {
                    open: &s.dir,
                    scenarios: &s.scenarios,
                    others: &others,
                    roots: self.mod_roots(),
                    job: self.balance.job.as_ref(),
                };
                cmds.extend(crate::panels::balance::show(
                    ui,
                    &view,
                    &mut self.balance.form,
                ));
            }
            (_, None) => {
                ui.weak("Open a mod to see its game log, tables and balance.");
            }
        }
        cmds
    }

    pub(super) fn top_bar(&self, ui: &mut egui::Ui) -> Vec<Command> {
        let mut cmds = Vec::new();
        ui.horizontal(|ui| {
            ui.strong("Hexforge");
            ui.separator();
            let (colour, text) = self.rules.light();
            let (r, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
            ui.painter().circle_filled(r.center(), 5.5, colour);
            ui.label(text);
            ui.separator();
            for (tab, name) in [(Tab::Board, "Board"), (Tab::Code, "Code")] {
                if ui
                    .selectable_label(self.persisted.tab == tab, name)
                    .clicked()
                {
                    cmds.push(Command::SelectTab(tab));
                }
            }
            ui.separator();
            ui.label("Panels:");
            for (panel, name) in PanelKind::ALL {
                if ui
                    .selectable_label(self.persisted.shows(panel), name)
                    .on_hover_text("show or hide this panel")
                    .clicked()
                {
                    cmds.push(Command::TogglePanel(panel));
                }
            }
            ui.separator();
            if ui
                .selectable_label(self.help_open, "Shortcuts (F1)")
                .clicked()
            {
                cmds.push(Command::ToggleHelp);
            }
        });
        cmds
    }

    pub(super) fn board_toolbar(&self, ui: &mut egui::Ui) -> Vec<Command> {
        let mut cmds = Vec::new();
        ui.horizontal_wrapped(|ui| {
            ui.label("Demo:");
            for kind in DemoKind::ALL {
                if ui
                    .selectable_label(
                        self.open.is_none() && self.persisted.demo == kind,
                        kind.label(),
                    )
                    .clicked()
                {
                    cmds.push(Command::ShowDemo(kind));
                }
            }
            ui.separator();
            // The board's own orientation unless one is forced here.
            let cam = &self.persisted.camera;
            if self.scene.orientation.is_some()
                && ui
                    .selectable_label(!cam.forced, "As declared")
                    .on_hover_text("draw the board as its scenario or shape declares")
                    .clicked()
            {
                cmds.push(Command::BoardOrientation);
            }
            let seen = self.scene.orientation_seen(cam);
            for (o, name) in [
                (Orientation::Flat, "Flat-top"),
                (Orientation::Pointy, "Pointy-top"),
            ] {
                let on = seen == o && (cam.forced || self.scene.orientation.is_none());
                if ui.selectable_label(on, name).clicked() {
                    cmds.push(Command::SetOrientation(o));
                }
            }
            if ui.button("Reset view").clicked() {
                cmds.push(Command::ResetView);
            }
        });
        cmds
    }

    /// The status line: the last message and, after a reload, the replay summary (with a
    /// Cancel button while the replay runs).
    pub(super) fn status_line(&self, ui: &mut egui::Ui) -> Vec<Command> {
        let mut cmds = Vec::new();
        ui.horizontal(|ui| {
            ui.label(&self.status);
            if let Some(r) = &self.last_reload {
                ui.separator();
                ui.weak(crate::panels::reload_report::reload_summary(r));
                if r.replay.is_running() && ui.button("Cancel replay").clicked() {
                    cmds.push(Command::CancelReplay);
                }
            }
        });
        cmds
    }
}
