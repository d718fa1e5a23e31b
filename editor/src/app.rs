//! The app: its state, the window layout, and [`EditorApp::apply`], the one place commands run.
//!
//! Layout: a top bar (title, rules status light, tab switch, panel toggles), the mod browser on
//! the left, the play panel and the inspector on the right, the problems list and a status line
//! at the bottom, and the board view or code editor in the centre. Panel sizes persist through
//! egui's memory; everything else that persists is in [`Persisted`].
//!
//! A game is a [`Session`]: opening a mod ([`Command::OpenMod`], [`Command::OpenScenario`])
//! starts one; play commands ([`Command::Perform`], [`Command::EndPhase`], [`Command::Undo`],
//! the bots ...) go through it; clicks on the board select pieces and perform the action that
//! ends on the clicked hex or target. Each frame [`EditorApp::tick`] polls the file watcher
//! (hot reload: the rules are rebuilt, the game goes on, the replay report is kept in
//! [`EditorApp::last_reload`]), runs a slice of the reload's replay under old and new rules
//! (progress and Cancel in the status line and the Reload report tab) and a slice of a bot game
//! (each at most ~8 ms per frame, so the window never freezes).
//!
//! **What it deliberately does not do:** talk to Lua itself: [`crate::session`] is the only door
//! to the runtime. Panels only draw and return commands.
//!
//! ```
//! use hexforge_editor::app::{EditorApp, Persisted};
//! use hexforge_editor::command::{Command, Tab};
//! let mut app = EditorApp::new(Persisted::default(), "mods".into());
//! app.apply(Command::SelectTab(Tab::Code));
//! assert_eq!(app.persisted.tab, Tab::Code);
//! ```

use crate::board_view::{self, BoardScene, Camera};
use crate::command::{BottomTab, Command, PanelKind, Tab};
use crate::demo::{self, DemoKind};
use crate::graph_view::NodeLayout;
use crate::panels::balance::BalanceTab;
use crate::panels::code_editor::{CodeEditor, typos};
use crate::panels::confirm;
use crate::panels::inspector::{self, InspectorState};
use crate::panels::logs::{self, LogsPanel};
use crate::panels::mod_browser::{self, ModEntry};
use crate::panels::play::{self, Listed, PlayForm, PlayView};
use crate::panels::problems::{self, Problem};
use crate::panels::reload_report;
use crate::panels::tables::{self, TablesPanel};
use crate::session::{
    self, BotStep, EDITOR_SEED, HUMAN, PieceChoices, Reloaded, ReplayStatus, Session, SessionError,
};
use crate::shortcuts;
use hexforge_core::hex::Hex;
use hexforge_core::hex::layout::{Layout, Orientation};
use hexforge_core::hex::trace::trace;
use hexforge_game::{Action, Illegal, PieceId, SideId};
use hexforge_script::labels::labels;
use hexforge_script::paths;
use hexforge_script::watch::{Budget, ModWatcher};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

mod bars;
mod games;
mod on_board;
mod playing;

pub use on_board::straight_path;

/// Everything that persists between runs (eframe storage, key [`eframe::APP_KEY`]). Caches and
/// loaded files are deliberately not here.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Persisted {
    /// The last mod opened (opened again at start, see [`EditorApp::restore_commands`]).
    pub last_mod: Option<PathBuf>,
    /// The user's own mods folder (scanned beside the bundled `mods/`); `None`: the default,
    /// the CLI's too ([`paths::user_mods_dir`]).
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
    /// Whether the play panel is shown.
    pub show_play: bool,
    /// The bottom panel's tab.
    pub bottom: BottomTab,
    /// Milliseconds between bot moves in "Play to end" (0: as fast as the machine goes), so a
    /// bot game can be watched move by move.
    pub pace_ms: u32,
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
            bottom: BottomTab::default(),
            show_play: true,
            pace_ms: DEFAULT_PACE_MS,
        }
    }
}

impl Persisted {
    /// Whether `panel` is shown.
    #[must_use]
    pub fn shows(&self, panel: PanelKind) -> bool {
        match panel {
            PanelKind::Mods => self.show_browser,
            PanelKind::Play => self.show_play,
            PanelKind::Inspector => self.show_inspector,
            PanelKind::Bottom => self.show_problems,
        }
    }

    /// The flag that says whether `panel` is shown.
    pub fn shown_mut(&mut self, panel: PanelKind) -> &mut bool {
        match panel {
            PanelKind::Mods => &mut self.show_browser,
            PanelKind::Play => &mut self.show_play,
            PanelKind::Inspector => &mut self.show_inspector,
            PanelKind::Bottom => &mut self.show_problems,
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
    /// Hot reload succeeded in this many milliseconds; the game goes on under the new rules.
    Reloaded(u64),
    /// Loading failed; the problems list has the details.
    Failed(usize),
    /// Hot reload failed with this many problems; the old rules are still running.
    ReloadFailed(usize),
}

impl RulesStatus {
    /// Light colour and text.
    #[must_use]
    pub fn light(&self) -> (egui::Color32, String) {
        let green = egui::Color32::from_rgb(0x40, 0xc0, 0x60);
        let red = egui::Color32::from_rgb(0xe0, 0x40, 0x40);
        match self {
            RulesStatus::NotAvailable => {
                (egui::Color32::GRAY, "rules: runtime not available".into())
            }
            RulesStatus::Ready => (green, "rules: loaded".into()),
            RulesStatus::Reloading => (
                egui::Color32::from_rgb(0xe0, 0xc0, 0x30),
                "rules: reloading".into(),
            ),
            RulesStatus::Reloaded(ms) => (green, format!("rules: reloaded in {ms} ms")),
            RulesStatus::Failed(n) => (red, format!("rules: failed ({n} problem(s))")),
            RulesStatus::ReloadFailed(n) => (
                egui::Color32::from_rgb(0xe0, 0x80, 0x30),
                format!("rules: failed — old rules still running ({n} problem(s))"),
            ),
        }
    }
}

/// A bot game running to its end, a slice per frame (or a move per [`Persisted::pace_ms`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BotRun {
    /// Bot steps taken.
    pub steps: usize,
    /// Picks the rules refused at apply time.
    pub refused: usize,
    /// When the last move was made (paced runs).
    pub last: Option<Instant>,
    /// One move only ("Step" with a search bot thinking over several frames).
    pub single: bool,
    /// What a search bot is thinking, while it does ("mcts for blue: 1,200 simulations").
    pub thinking: Option<String>,
}

/// The pace of "Play to end" on a first run: a move every 200 ms, watchable.
pub const DEFAULT_PACE_MS: u32 = 200;

/// At most this many bot steps in one "play to end" (a game that does not end is a rules bug).
pub const MAX_BOT_STEPS: usize = 100_000;

/// CPU time a frame may spend on bot moves.
pub const BOT_SLICE: Duration = Duration::from_millis(8);

/// Wall time a frame may spend replaying a game after a hot reload.
pub const REPLAY_SLICE: Duration = Duration::from_millis(8);

/// How often an idle editor wakes to poll the file watcher.
pub const WATCH_POLL: Duration = Duration::from_millis(200);

/// What identifies a file's contents without reading it.
type Stamp = Option<(u64, SystemTime)>;

fn stamp(path: &Path) -> Stamp {
    let m = std::fs::metadata(path).ok()?;
    Some((m.len(), m.modified().ok()?))
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
    /// Whether the keyboard shortcuts list is shown (F1).
    pub help_open: bool,
    /// A command from the panels that would end the running game, waiting for the player's
    /// answer ([`Command::ConfirmEnd`]).
    pub pending_end: Option<Command>,
    /// The rules light.
    pub rules: RulesStatus,
    /// The hex under the pointer.
    pub hovered: Option<Hex>,
    /// Why the selected piece may not act at the hovered hex (the mod's reason), asked once per
    /// hex and selection; the hex last asked about.
    pub hover_why: Option<(Hex, String)>,
    hover_why_at: Option<Hex>,
    /// The selected hex.
    pub selected: Option<Hex>,
    /// Files saved this session, in order.
    pub saved: Vec<PathBuf>,
    /// The last status message (the status line).
    pub status: String,
    /// The game running (none: the demo boards show).
    pub open: Option<Session>,
    /// The selected piece.
    pub selected_piece: Option<PieceId>,
    /// The selected piece's legal actions and what they point at.
    pub choices: PieceChoices,
    /// The legal actions that name no piece, by the hexes and nodes they name.
    pub free: PieceChoices,
    /// Several actions end on the clicked hex or target: the play panel asks which.
    pub pending: Vec<Action>,
    /// Who plays each side: `human`, `random` or a mod bot (absent: human).
    pub bots: BTreeMap<String, String>,
    /// A bot game running to the end.
    pub run: Option<BotRun>,
    /// The last hot reload's result (the reload report panel draws it).
    pub last_reload: Option<Reloaded>,
    /// The new-game form.
    pub play_form: PlayForm,
    /// The game inspector's picked piece and open rows.
    pub inspect: InspectorState,
    /// The event and dice logs' filter, tab and row caches.
    pub logs: LogsPanel,
    /// The tables panel's roll expressions and cached odds.
    pub tables: TablesPanel,
    /// The balance tab's form and comparison.
    pub balance: BalanceTab,
    /// What the play panel shows (rebuilt after every change, not every frame).
    pub play: PlayView,
    /// The board's hex layout last frame (where each hex is on screen).
    pub board_layout: Option<Layout>,
    /// Where each graph node was drawn last frame (graph maps).
    pub board_nodes: Option<NodeLayout>,
    /// The file watcher (created with the first mod opened; `None` if the OS refused one).
    pub watcher: Option<ModWatcher>,
    /// Files this app reloaded for itself (the code editor's saves), with their stamp then: the
    /// watcher's later event for the same contents is not a second reload.
    self_saved: BTreeMap<PathBuf, Stamp>,
}

/// What a first run opens, the first one found in the bundled mods: a real game to play.
pub const FIRST_GAMES: [&str; 2] = ["orbital-skirmish", "tutorial"];

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
            help_open: false,
            pending_end: None,
            rules: RulesStatus::default(),
            hovered: None,
            hover_why: None,
            hover_why_at: None,
            selected: None,
            saved: Vec::new(),
            status: String::new(),
            open: None,
            selected_piece: None,
            choices: PieceChoices::default(),
            free: PieceChoices::default(),
            pending: Vec::new(),
            bots: BTreeMap::new(),
            run: None,
            last_reload: None,
            inspect: InspectorState::default(),
            logs: LogsPanel::default(),
            tables: TablesPanel::default(),
            balance: BalanceTab::default(),
            play_form: PlayForm {
                seed: EDITOR_SEED.to_string(),
                ..PlayForm::default()
            },
            play: PlayView::default(),
            board_layout: None,
            board_nodes: None,
            watcher: None,
            self_saved: BTreeMap::new(),
        };
        app.rescan();
        app
    }

    /// The commands that restore the last session at start: open the last mod if it is still
    /// a mod folder.
    #[must_use]
    pub fn restore_commands(&self) -> Vec<Command> {
        // The mod open last time; on a first run, a real game rather than a demo board.
        self.persisted
            .last_mod
            .iter()
            .chain(
                FIRST_GAMES
                    .iter()
                    .map(|id| self.bundled_mods_dir.join(id))
                    .collect::<Vec<_>>()
                    .iter(),
            )
            .find(|d| d.join("mod.toml").is_file())
            .map(|d| Command::OpenMod(d.clone()))
            .into_iter()
            .collect()
    }

    /// The folders scanned for mods: the bundled one, then the user's.
    #[must_use]
    pub fn mod_roots(&self) -> Vec<PathBuf> {
        let mut roots = vec![self.bundled_mods_dir.clone()];
        roots.extend(
            self.persisted
                .user_mods_dir
                .clone()
                .or_else(paths::user_mods_dir)
                .filter(|d| *d != self.bundled_mods_dir),
        );
        roots
    }

    /// Lists the mods again and checks that each loads (a few ms per mod: a fresh sandbox, its
    /// files, its declarations; no game is started).
    fn rescan(&mut self) {
        let roots = self.mod_roots();
        self.mods = mod_browser::scan_mods(&roots);
        for m in &mut self.mods {
            m.loads = Some(session::check_mod(&m.dir, &roots).map_err(|p| {
                (
                    p.len(),
                    p.first().map(ToString::to_string).unwrap_or_default(),
                )
            }));
        }
    }

    /// Replaces the problems list (mod loading and tests call this).
    pub fn set_problems(&mut self, problems: Vec<Problem>) {
        self.problems = problems;
    }

    /// Runs one command. The only place app state changes in response to the UI.
    pub fn apply(&mut self, cmd: Command) {
        match cmd {
            Command::OpenMod(dir) => self.open_mod(dir, None, EDITOR_SEED),
            Command::OpenScenario { dir, scenario } => {
                self.open_mod(dir, Some(scenario), EDITOR_SEED);
            }
            Command::OpenFile { path, line } => match self.editor.open(&path, line) {
                Ok(()) => {
                    self.persisted.tab = Tab::Code;
                    self.status = format!("opened {}", path.display());
                }
                Err(e) => self.status = e.to_string(),
            },
            Command::Saved(path) => {
                self.status = format!("saved {}", path.display());
                self.self_saved
                    .insert(paths::canonical(&path), stamp(&path));
                let ours = self.in_open_mod(&path);
                self.saved.push(path);
                if ours {
                    self.hot_reload();
                }
            }
            Command::ShowDemo(kind) => {
                self.open = None;
                self.run = None;
                self.last_reload = None;
                self.select_piece(None);
                self.persisted.demo = kind;
                self.scene = demo::scene(kind);
                self.hovered = None;
                self.selected = None;
                self.persisted.camera.pan = (0.0, 0.0);
                self.persisted.camera.zoom = 1.0;
            }
            Command::SetOrientation(o) => {
                self.persisted.camera.orientation = o;
                self.persisted.camera.forced = true;
            }
            Command::BoardOrientation => self.persisted.camera.forced = false,
            Command::SaveGame(path) => self.save_game(&path),
            Command::ReplayUpTo(n) => self.replay_up_to(n),
            Command::LoadGame(path) => self.load_game(&path),
            Command::SelectHex(h) => self.click_hex(h),
            Command::SelectNode(n) => self.click_node(&n),
            Command::PickFacing(h, d) => self.click_arrow(h, d),
            Command::SelectTab(t) => self.persisted.tab = t,
            Command::SelectBottomTab(t) => self.persisted.bottom = t,
            Command::RescanMods => self.rescan(),
            Command::ResetView => {
                let Camera {
                    orientation,
                    forced,
                    ..
                } = self.persisted.camera;
                self.persisted.camera = Camera {
                    orientation,
                    forced,
                    ..Camera::default()
                };
            }
            Command::SelectPiece(p) => {
                self.select_piece(p);
                self.refresh_play();
            }
            Command::Perform(a) => self.perform(&a),
            Command::Pick(list) => {
                self.pending = list;
                self.refresh_play();
            }
            Command::EndPhase => self.play_step(Session::end_phase, "phase ended"),
            Command::EndTurn => self.play_step(Session::end_turn, "turn ended"),
            Command::Undo => self.history(Session::undo, "undone", "nothing to undo"),
            Command::Redo => self.history(Session::redo, "redone", "nothing to redo"),
            Command::NewGame { scenario, seed } => {
                if let Some(dir) = self
                    .open
                    .as_ref()
                    .map(|s| s.dir.clone())
                    .or_else(|| self.persisted.last_mod.clone())
                {
                    self.open_mod(dir, Some(scenario), seed);
                }
            }
            Command::SetBot { side, bot } => {
                if bot == HUMAN {
                    self.bots.remove(&side);
                } else {
                    self.bots.insert(side, bot);
                }
                self.refresh_play();
            }
            Command::BotStep => {
                let mut run = BotRun {
                    single: true,
                    ..BotRun::default()
                };
                // A search bot goes on thinking over the next frames.
                if self.bot_step(&mut run) && run.thinking.is_some() {
                    self.run = Some(run);
                }
                self.after_change();
            }
            Command::SetPace(ms) => self.persisted.pace_ms = ms,
            Command::AllSides(bot) => {
                let sides = self
                    .open
                    .as_ref()
                    .map(|s| s.status().sides)
                    .unwrap_or_default();
                for side in sides {
                    self.apply(Command::SetBot {
                        side: side.as_str().to_owned(),
                        bot: bot.clone(),
                    });
                }
            }
            Command::PlayToEnd => {
                if self.open.is_some() {
                    self.run = Some(BotRun::default());
                    self.refresh_play();
                }
            }
            Command::CancelReplay => self.cancel_replay(),
            Command::ToggleHelp => self.help_open = !self.help_open,
            Command::TogglePanel(panel) => {
                let shown = self.persisted.shown_mut(panel);
                *shown = !*shown;
            }
            Command::ConfirmEnd(end) => {
                if let Some(c) = self.pending_end.take().filter(|_| end) {
                    self.apply(c);
                }
            }
            Command::Compare(spec) => {
                self.balance.job = Some(crate::balance::CompareJob::start(spec));
            }
            Command::CancelCompare => self.balance.job.iter().for_each(|j| j.cancel()),
            Command::CancelBots => {
                if let Some(r) = self.run.take() {
                    self.set_message(format!("bots stopped after {} actions", r.steps));
                }
                self.after_change();
            }
        }
    }

    /// Stops the reload's replay, leaving "replay cancelled after N actions".
    fn cancel_replay(&mut self) {
        let (Some(s), Some(r)) = (&mut self.open, &mut self.last_reload) else {
            return;
        };
        if let Some(st) = s.cancel_replay() {
            if let ReplayStatus::Cancelled { after, .. } = st {
                self.status = format!("replay cancelled after {after} actions");
            }
            r.replay = st;
        }
    }

    /// Whether a reload's replay is running.
    #[must_use]
    pub fn replaying(&self) -> bool {
        self.open.as_ref().is_some_and(Session::replaying)
    }

    /// Whether `path` is inside the open mod (or one of its bases), or the last mod tried.
    /// Paths are compared canonical (the mod folders are loaded canonical), so a file saved
    /// as `mods/x/main.lua` or as `/repo/mods/x/main.lua` is the mod's either way.
    fn in_open_mod(&self, path: &Path) -> bool {
        let path = paths::canonical(path);
        let inside = |d: &Path| path.starts_with(paths::canonical(d));
        match &self.open {
            Some(s) => s.mod_dirs.iter().any(|d| inside(d)) || inside(&s.dir),
            None => self.persisted.last_mod.as_deref().is_some_and(inside),
        }
    }

    fn set_message(&mut self, m: String) {
        self.status.clone_from(&m);
        self.play.message = m;
    }

    /// A rules fault: into the problems list; the game goes on.
    fn rules_fault(&mut self, e: &SessionError) {
        if let Some(s) = &self.open {
            let p = s.problem(e);
            self.problems.push(p);
        }
        self.set_message(format!("{e} (the game goes on)"));
    }

    /// Records in the mod browser whether the mod in `dir` loads (after opening or reloading it).
    fn set_loads(&mut self, dir: &Path, result: Result<(), &[Problem]>) {
        if let Some(m) = self.mods.iter_mut().find(|m| m.dir == dir) {
            m.loads = Some(result.map_err(|p| {
                (
                    p.len(),
                    p.first().map(ToString::to_string).unwrap_or_default(),
                )
            }));
        }
    }

    /// Watches these folders (the shared watcher is created on first use).
    fn watch(&mut self, dirs: &[PathBuf]) {
        if self.watcher.is_none() {
            match ModWatcher::new(Duration::from_millis(20)) {
                Ok(w) => self.watcher = Some(w),
                Err(e) => {
                    self.status = format!("{e}: saves from this editor still reload");
                    return;
                }
            }
        }
        if let Some(w) = &mut self.watcher {
            for d in dirs.iter().filter(|d| d.is_dir()) {
                // A folder that cannot be watched only loses outside edits; saves still reload.
                let _ = w.watch(d);
            }
        }
    }

    /// Hot reload: rebuild the rules from the files; the game goes on. A mod that failed to load
    /// is opened again instead.
    fn hot_reload(&mut self) {
        let Some(s) = &mut self.open else {
            if let Some(dir) = self.persisted.last_mod.clone() {
                self.open_mod(dir, None, EDITOR_SEED);
            }
            return;
        };
        self.rules = RulesStatus::Reloading;
        let t = Instant::now();
        match s.reload() {
            Ok(r) => {
                let ms = u64::try_from(t.elapsed().as_millis()).unwrap_or(u64::MAX);
                let dir = s.dir.clone();
                self.rules = RulesStatus::Reloaded(ms);
                self.set_loads(&dir, Ok(()));
                self.problems.clear();
                self.problems.extend(typos::check(&dir));
                // The replay summary has its own place in the status line.
                self.status = format!("reloaded in {ms} ms");
                self.last_reload = Some(r);
                self.after_change();
            }
            Err(problems) => {
                let dir = s.dir.clone();
                self.rules = RulesStatus::ReloadFailed(problems.len());
                self.set_loads(&dir, Err(&problems));
                self.status = "reload failed — old rules still running".into();
                self.problems = problems;
            }
        }
    }

    /// Draws the whole editor into `ui`, runs the frame's work ([`EditorApp::tick`]) and applies
    /// the commands the panels returned.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        self.tick();
        let comparing = self.balance.job.as_mut().is_some_and(|j| {
            j.poll();
            j.running()
        });
        if self.run.is_some() || self.replaying() || comparing {
            ui.ctx().request_repaint();
        }
        if self.watcher.is_some() {
            // Why: with no input egui draws no frame, so the watcher would not be polled and a
            // save from another program would wait for the mouse to move over the window.
            ui.ctx().request_repaint_after(WATCH_POLL);
        }
        self.ask_why_not_hovered();
        self.update_overlays();
        let mut cmds = shortcuts::commands(ui.ctx(), self.persisted.tab == Tab::Board);
        shortcuts::help(ui.ctx(), &mut self.help_open);
        egui::Panel::top("top_bar").show(ui, |ui| cmds.extend(self.top_bar(ui)));
        egui::Panel::bottom("status_bar").show(ui, |ui| cmds.extend(self.status_line(ui)));
        if self.persisted.show_browser {
            egui::Panel::left("mod_browser")
                .resizable(true)
                .default_size(190.0)
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
                .default_size(190.0)
                .show(ui, |ui| {
                    inspector::show(ui, &self.scene, self.hovered, self.selected);
                    if let Some(s) = &self.open {
                        ui.separator();
                        cmds.extend(inspector::show_game(
                            ui,
                            &mut self.inspect,
                            s.game.state(),
                            s.decls(),
                            self.selected,
                            &s.base,
                        ));
                    }
                });
        }
        if self.persisted.show_play && self.open.is_some() {
            egui::Panel::right("play")
                .resizable(true)
                .default_size(270.0)
                .show(ui, |ui| {
                    cmds.extend(play::show(ui, &self.play, &mut self.play_form));
                });
        }
        if self.persisted.show_problems {
            egui::Panel::bottom("problems")
                .resizable(true)
                .default_size(120.0)
                .show(ui, |ui| cmds.extend(self.bottom_panel(ui)));
        }
        egui::CentralPanel::default().show(ui, |ui| match self.persisted.tab {
            Tab::Board => {
                cmds.extend(self.board_toolbar(ui));
                let out = board_view::show(ui, &self.scene, &mut self.persisted.camera);
                self.hovered = out.hovered;
                self.board_layout = out.layout;
                self.board_nodes = out.nodes;
                cmds.extend(out.clicked.map(Command::SelectHex));
                cmds.extend(out.clicked_node.map(Command::SelectNode));
                cmds.extend(out.arrow.map(|(h, d)| Command::PickFacing(h, d)));
            }
            Tab::Code => {
                let mod_dir = self.persisted.last_mod.as_deref();
                cmds.extend(self.editor.show(ui, &self.problems, mod_dir));
            }
        });
        if let Some(answer) = self.confirm_end(ui.ctx()) {
            cmds.push(answer);
        }
        cmds.extend(self.editor.ask_before_discarding(ui.ctx()));
        for c in cmds {
            if c.ends_the_game() && self.game_in_progress() {
                // Asked first: a misclick on a scenario or a demo must not throw a game away.
                self.pending_end = Some(c);
            } else {
                self.apply(c);
            }
        }
    }

    /// Whether a game is being played: actions taken and no outcome yet.
    #[must_use]
    pub fn game_in_progress(&self) -> bool {
        self.open.as_ref().is_some_and(|s| {
            let state = s.game.state();
            state.outcome.is_none() && state.log.iter().any(|e| e.action.is_some())
        })
    }

    /// The "end the running game?" question while a command waits for it; the answer, if given.
    fn confirm_end(&self, ctx: &egui::Context) -> Option<Command> {
        self.pending_end.as_ref()?;
        confirm::end_game(ctx).map(Command::ConfirmEnd)
    }
}
