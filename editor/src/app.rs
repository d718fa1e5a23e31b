//! The app: its state, the window layout, and [`EditorApp::apply`], the one place commands run.
//!
//! Layout: a top bar (title, rules status light, tab switch, panel toggles), the mod browser on
//! the left, the inspector on the right, the problems list at the bottom and the board view or
//! code editor in the centre. Panel sizes persist through egui's memory; everything else that
//! persists is in [`Persisted`].
//!
//! Opening a mod ([`Command::OpenMod`], [`Command::OpenScenario`]) goes through
//! [`crate::session`]: the mod is loaded, its scenario started and the game's board shown; load
//! problems fill the problems list and the [`RulesStatus`] light says loaded or failed.
//!
//! **What it deliberately does not do:** talk to Lua itself, or play moves: the session module
//! is the only door to the runtime, and the board shows the state right after setup.
//!
//! ```
//! use hexforge_editor::app::{EditorApp, Persisted};
//! use hexforge_editor::command::{Command, Tab};
//! let mut app = EditorApp::new(Persisted::default(), "mods".into());
//! app.apply(Command::SelectTab(Tab::Code));
//! assert_eq!(app.persisted.tab, Tab::Code);
//! ```

use crate::board_view::{self, BoardScene, Camera};
use crate::command::{Command, Tab};
use crate::demo::{self, DemoKind};
use crate::panels::code_editor::CodeEditor;
use crate::panels::inspector;
use crate::panels::mod_browser::{self, ModEntry};
use crate::panels::problems::{self, Problem};
use crate::session::{self, OpenedMod};
use hexforge_core::hex::Hex;
use hexforge_core::hex::layout::Orientation;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Everything that persists between runs (eframe storage, key [`eframe::APP_KEY`]). Caches and
/// loaded files are deliberately not here.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Persisted {
    /// The last mod opened.
    pub last_mod: Option<PathBuf>,
    /// The user's own mods folder (scanned beside the bundled `mods/`).
    pub user_mods_dir: Option<PathBuf>,
    /// The demo board shown when no game is running.
    pub demo: DemoKind,
    /// Board camera: pan, zoom, orientation.
    pub camera: Camera,
    /// The centre tab.
    pub tab: Tab,
    /// Whether the mod browser is shown.
    pub show_browser: bool,
    /// Whether the inspector is shown.
    pub show_inspector: bool,
    /// Whether the problems list is shown.
    pub show_problems: bool,
}

impl Default for Persisted {
    fn default() -> Self {
        Persisted {
            last_mod: None,
            user_mods_dir: None,
            demo: DemoKind::default(),
            camera: Camera::default(),
            tab: Tab::Board,
            show_browser: true,
            show_inspector: true,
            show_problems: true,
        }
    }
}

/// The state of the rules runtime, shown as a light in the top bar.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum RulesStatus {
    /// No mod open yet.
    #[default]
    NotAvailable,
    /// Rules loaded and the scenario started.
    Ready,
    /// A reload is under way.
    Reloading,
    /// Loading failed; the problems list has the details.
    Failed(usize),
}

impl RulesStatus {
    /// Light colour and text.
    #[must_use]
    pub fn light(&self) -> (egui::Color32, String) {
        match self {
            RulesStatus::NotAvailable => {
                (egui::Color32::GRAY, "rules: runtime not available".into())
            }
            RulesStatus::Ready => (
                egui::Color32::from_rgb(0x40, 0xc0, 0x60),
                "rules: loaded".into(),
            ),
            RulesStatus::Reloading => (
                egui::Color32::from_rgb(0xe0, 0xc0, 0x30),
                "rules: reloading".into(),
            ),
            RulesStatus::Failed(n) => (
                egui::Color32::from_rgb(0xe0, 0x40, 0x40),
                format!("rules: failed ({n} problem(s))"),
            ),
        }
    }
}

/// The whole editor.
#[derive(Debug)]
pub struct EditorApp {
    /// State that persists.
    pub persisted: Persisted,
    /// The bundled mods folder.
    pub bundled_mods_dir: PathBuf,
    /// Mods found in the bundled and user folders.
    pub mods: Vec<ModEntry>,
    /// What the board view shows.
    pub scene: BoardScene,
    /// The code editor.
    pub editor: CodeEditor,
    /// The problems list.
    pub problems: Vec<Problem>,
    /// The rules light.
    pub rules: RulesStatus,
    /// The hex under the pointer.
    pub hovered: Option<Hex>,
    /// The selected hex.
    pub selected: Option<Hex>,
    /// Files saved this session, in order (the hot reload will consume these).
    pub saved: Vec<PathBuf>,
    /// The last status message.
    pub status: String,
    /// The mod open now and its started scenario (none: the demo boards show).
    pub open: Option<OpenedMod>,
}

impl EditorApp {
    /// An app with the given persisted state, scanning `bundled_mods_dir` and the user folder.
    #[must_use]
    pub fn new(persisted: Persisted, bundled_mods_dir: PathBuf) -> Self {
        let mut app = EditorApp {
            scene: demo::scene(persisted.demo),
            persisted,
            bundled_mods_dir,
            mods: Vec::new(),
            editor: CodeEditor::default(),
            problems: Vec::new(),
            rules: RulesStatus::default(),
            hovered: None,
            selected: None,
            saved: Vec::new(),
            status: String::new(),
            open: None,
        };
        app.rescan();
        app
    }

    /// The folders scanned for mods: the bundled one, then the user's.
    #[must_use]
    pub fn mod_roots(&self) -> Vec<PathBuf> {
        let mut roots = vec![self.bundled_mods_dir.clone()];
        roots.extend(self.persisted.user_mods_dir.clone());
        roots
    }

    fn rescan(&mut self) {
        self.mods = mod_browser::scan_mods(&self.mod_roots());
    }

    /// Replaces the problems list (mod loading and tests call this).
    pub fn set_problems(&mut self, problems: Vec<Problem>) {
        self.problems = problems;
    }

    /// Runs one command. The only place app state changes in response to the UI.
    pub fn apply(&mut self, cmd: Command) {
        match cmd {
            Command::OpenMod(dir) => self.open_mod(dir, None),
            Command::OpenScenario { dir, scenario } => self.open_mod(dir, Some(scenario)),
            Command::OpenFile { path, line } => match self.editor.open(&path, line) {
                Ok(()) => {
                    self.persisted.tab = Tab::Code;
                    self.status = format!("opened {}", path.display());
                }
                Err(e) => self.status = e.to_string(),
            },
            Command::Saved(path) => {
                self.status = format!("saved {}", path.display());
                // A save inside the open mod reopens it on the same scenario (a rebuild takes a
                // few ms), so problems and the board follow the code.
                let reopen = self
                    .open
                    .as_ref()
                    .map(|o| (o.dir.clone(), o.scenario.clone()))
                    .or_else(|| self.persisted.last_mod.clone().map(|d| (d, String::new())))
                    .filter(|(d, _)| path.starts_with(d));
                self.saved.push(path);
                if let Some((dir, scenario)) = reopen {
                    self.open_mod(dir, (!scenario.is_empty()).then_some(scenario));
                }
            }
            Command::ShowDemo(kind) => {
                self.open = None;
                self.persisted.demo = kind;
                self.scene = demo::scene(kind);
                self.hovered = None;
                self.selected = None;
                self.persisted.camera.pan = (0.0, 0.0);
                self.persisted.camera.zoom = 1.0;
            }
            Command::SetOrientation(o) => self.persisted.camera.orientation = o,
            Command::SelectHex(h) => self.selected = Some(h),
            Command::SelectTab(t) => self.persisted.tab = t,
            Command::RescanMods => self.rescan(),
            Command::ResetView => {
                let orientation = self.persisted.camera.orientation;
                self.persisted.camera = Camera {
                    orientation,
                    ..Camera::default()
                };
            }
        }
    }

    /// Loads `dir`, starts `scenario` (default: the first) and shows its board; on failure the
    /// problems list gets every problem and the board keeps what it showed.
    fn open_mod(&mut self, dir: PathBuf, scenario: Option<String>) {
        self.persisted.last_mod = Some(dir.clone());
        self.hovered = None;
        self.selected = None;
        match session::open_mod(&dir, scenario.as_deref()) {
            Ok(opened) => {
                self.status = format!("{}: scenario {}", dir.display(), opened.scenario);
                self.scene = opened.scene.clone();
                self.open = Some(opened);
                self.problems.clear();
                self.rules = RulesStatus::Ready;
                self.persisted.camera.pan = (0.0, 0.0);
                self.persisted.camera.zoom = 1.0;
            }
            Err(problems) => {
                self.status = format!("{}: failed to load", dir.display());
                self.rules = RulesStatus::Failed(problems.len());
                self.problems = problems;
            }
        }
    }

    fn top_bar(&self, ui: &mut egui::Ui) -> Vec<Command> {
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
            ui.weak(&self.status);
        });
        cmds
    }

    fn board_toolbar(&self, ui: &mut egui::Ui) -> Vec<Command> {
        let mut cmds = Vec::new();
        ui.horizontal(|ui| {
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
            for (o, name) in [
                (Orientation::Flat, "Flat-top"),
                (Orientation::Pointy, "Pointy-top"),
            ] {
                if ui
                    .selectable_label(self.persisted.camera.orientation == o, name)
                    .clicked()
                {
                    cmds.push(Command::SetOrientation(o));
                }
            }
            if ui.button("Reset view").clicked() {
                cmds.push(Command::ResetView);
            }
        });
        cmds
    }

    /// Draws the whole editor into `ui` and applies the commands the panels returned.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let mut cmds = Vec::new();
        egui::Panel::top("top_bar").show(ui, |ui| cmds.extend(self.top_bar(ui)));
        if self.persisted.show_browser {
            egui::Panel::left("mod_browser")
                .resizable(true)
                .default_size(220.0)
                .show(ui, |ui| {
                    let scenario = self.open.as_ref().map(|o| o.scenario.as_str());
                    cmds.extend(mod_browser::show(
                        ui,
                        &self.mods,
                        self.persisted.last_mod.as_deref(),
                        scenario,
                    ));
                });
        }
        if self.persisted.show_inspector {
            egui::Panel::right("inspector")
                .resizable(true)
                .default_size(220.0)
                .show(ui, |ui| {
                    inspector::show(ui, &self.scene, self.hovered, self.selected);
                });
        }
        if self.persisted.show_problems {
            egui::Panel::bottom("problems")
                .resizable(true)
                .default_size(120.0)
                .show(ui, |ui| cmds.extend(problems::show(ui, &self.problems)));
        }
        egui::CentralPanel::default().show(ui, |ui| match self.persisted.tab {
            Tab::Board => {
                cmds.extend(self.board_toolbar(ui));
                let out = board_view::show(ui, &self.scene, &mut self.persisted.camera);
                self.hovered = out.hovered;
                if let Some(h) = out.clicked {
                    cmds.push(Command::SelectHex(h));
                }
            }
            Tab::Code => cmds.extend(self.editor.show(ui)),
        });
        for c in cmds {
            self.apply(c);
        }
    }
}
