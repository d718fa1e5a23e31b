//! Commands: everything a panel wants to change, as a value.
//!
//! Panels never change the app state themselves: they return [`Command`]s, and
//! [`crate::app::EditorApp::apply`] runs them, one place per frame. That is where the Lua runtime
//! plugs in (a [`Command::Saved`] triggers a hot reload, play commands go to the engine through
//! [`crate::session::Session`]), and where undo and replay see every change.
//!
//! This module deliberately holds no logic: it is the vocabulary between panels and the app.
//!
//! ```
//! use hexforge_editor::command::Command;
//! use std::path::PathBuf;
//! let c = Command::OpenFile { path: PathBuf::from("mods/demo/rules.lua"), line: Some(12) };
//! assert!(matches!(c, Command::OpenFile { line: Some(12), .. }));
//! ```

use crate::demo::DemoKind;
use hexforge_core::hex::layout::Orientation;
use hexforge_core::hex::{Direction, Hex};
use hexforge_game::{Action, PieceId};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The tab shown in the centre of the window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tab {
    /// The board view.
    #[default]
    Board,
    /// The code editor.
    Code,
}

/// The tab shown in the bottom panel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum BottomTab {
    /// Load, check and runtime problems as `file:line: message`.
    #[default]
    Problems,
    /// The event log and the dice log.
    Log,
    /// The mod's rule tables with each cell's odds.
    Tables,
    /// The last hot reload's "replay under the new rules" report.
    Reload,
    /// The balance lab: the open mod against another rule set.
    Balance,
}

impl BottomTab {
    /// Every tab with its label, in display order.
    pub const ALL: [(BottomTab, &'static str); 5] = [
        (BottomTab::Problems, "Problems"),
        (BottomTab::Log, "Log"),
        (BottomTab::Tables, "Tables"),
        (BottomTab::Reload, "Reload report"),
        (BottomTab::Balance, "Balance"),
    ];
}

/// A side or bottom panel the player may hide to give the board room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PanelKind {
    /// The mod browser (left).
    Mods,
    /// The play panel (right).
    Play,
    /// The inspector (right).
    Inspector,
    /// The bottom tabs (problems, logs, tables, reload report).
    Bottom,
}

impl PanelKind {
    /// Every panel with its label, in the order the top bar shows them (after "Panels:").
    pub const ALL: [(PanelKind, &'static str); 4] = [
        (PanelKind::Mods, "mods"),
        (PanelKind::Play, "play"),
        (PanelKind::Inspector, "inspector"),
        (PanelKind::Bottom, "bottom"),
    ];
}

/// One change requested by a panel.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Make this mod folder the current mod (and remember it as the last mod): load it and start
    /// its first scenario.
    OpenMod(PathBuf),
    /// Open a mod and start the given scenario (its id: the scenario file's stem).
    OpenScenario {
        /// The mod folder.
        dir: PathBuf,
        /// The scenario id.
        scenario: String,
    },
    /// Open a file in the code editor, optionally at a 1-based line.
    OpenFile {
        /// The file.
        path: PathBuf,
        /// 1-based line to put the cursor on.
        line: Option<usize>,
    },
    /// A file was saved by the code editor. The hot reload hooks in here.
    Saved(PathBuf),
    /// Show a built-in demo board (works without any mod).
    ShowDemo(DemoKind),
    /// Draw the board flat-top or pointy-top, whatever it declares.
    SetOrientation(Orientation),
    /// Draw the board as it declares (undoes [`Command::SetOrientation`]).
    BoardOrientation,
    /// Every side of the running game played by this bot (`human` for none).
    AllSides(String),
    /// Milliseconds between bot moves in "Play to end" (0: as fast as possible).
    SetPace(u32),
    /// Start the running game again under the rules now and replay its first N actions (after a
    /// reload that refuses action N+1: the game goes on from a position the new rules allow).
    ReplayUpTo(usize),
    /// Save the running game to this file (the command line's save format).
    SaveGame(PathBuf),
    /// Load a saved game into the open mod, replaying its actions under the rules now.
    LoadGame(PathBuf),
    /// A click on a board hex: plays or short-lists the choices there, or selects a piece (the
    /// inspector shows the hex).
    SelectHex(Hex),
    /// A click on a graph node: plays or short-lists the choices naming it, or selects a piece
    /// there.
    SelectNode(String),
    /// A click on a facing arrow of the short list's hex: plays the choice ending so.
    PickFacing(Hex, Direction),
    /// Switch the centre tab.
    SelectTab(Tab),
    /// Switch the bottom panel's tab.
    SelectBottomTab(BottomTab),
    /// Rescan the mod folders.
    RescanMods,
    /// Reset the board camera (pan and zoom).
    ResetView,
    /// Select a piece (its legal actions are listed and shown on the board), or none.
    SelectPiece(Option<PieceId>),
    /// Perform an action in the running game.
    Perform(Action),
    /// Show these actions to pick one (several choices end on one hex or target), or none.
    Pick(Vec<Action>),
    /// Start a comparison of two rule sets (the balance tab).
    Compare(crate::balance::CompareSpec),
    /// Stop the comparison after the game it is playing.
    CancelCompare,
    /// End the current phase for every side that may act.
    EndPhase,
    /// End phases until the round changes.
    EndTurn,
    /// Undo the last action.
    Undo,
    /// Redo the last undone action.
    Redo,
    /// Start a new game of the open mod.
    NewGame {
        /// The scenario id.
        scenario: String,
        /// The seed.
        seed: u64,
    },
    /// Choose who plays a side: `human`, `random` or a bot of the mod.
    SetBot {
        /// The side id.
        side: String,
        /// The bot name.
        bot: String,
    },
    /// One bot action by a side a bot plays (sides played by hand are never moved by bots).
    BotStep,
    /// Let the bots play to the end, a slice per frame.
    PlayToEnd,
    /// Stop the bots playing to the end.
    CancelBots,
    /// Stop replaying the game under the rules of the last hot reload.
    CancelReplay,
    /// Show or hide the list of keyboard shortcuts.
    ToggleHelp,
    /// Show or hide a panel (the board takes the room).
    TogglePanel(PanelKind),
    /// Answer the question "end the running game?" asked before a command that would end it
    /// (another mod, scenario, new game, saved game or demo): `true` runs that command, `false`
    /// keeps playing.
    ConfirmEnd(bool),
}

impl Command {
    /// Whether the command replaces the running game (so the editor asks first).
    #[must_use]
    pub fn ends_the_game(&self) -> bool {
        matches!(
            self,
            Command::OpenMod(_)
                | Command::OpenScenario { .. }
                | Command::NewGame { .. }
                | Command::ShowDemo(_)
                | Command::LoadGame(_)
        )
    }
}
