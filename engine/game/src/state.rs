//! The game state: everything about a game in progress, as plain serialisable data.
//!
//! **The state is owned by Rust and never lives in a Lua VM.** Every map is a `BTreeMap` so that
//! serialisation and iteration order are deterministic; the same mods, scenario, options, seed
//! and actions always give the same state, byte for byte (see [`crate::state_hash`]). This module
//! deliberately has no rules: it offers only bookkeeping helpers (add a piece, find a side).
//!
//! ```
//! use hexforge_core::hex::Hex;
//! use hexforge_game::{GameState, Position, SideState};
//! let mut s = GameState::new(vec![], "duel", serde_json::Value::Null, 1);
//! s.sides_mut().push(SideState::new("blue", "Blue fleet"));
//! let id = s.add_piece("frigate", "blue".into(), Position::Hex(Hex::new(0, 0)), None);
//! assert_eq!(s.pieces[&id].kind, "frigate");
//! assert_eq!(s.pieces_at(Hex::new(0, 0)), vec![id]);
//! ```

use crate::action::Action;
use crate::board::BoardState;
use crate::dice::{DiceRoller, Roll};
use crate::ids::{PieceId, SideId, Value};
use crate::piece::{Piece, Position};
use crate::turn::Clock;
use hexforge_core::hex::{Direction, Hex};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Which mod (and exact content) a game was started with.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ModLock {
    /// The mod id.
    pub id: String,
    /// Its version (semver text).
    pub version: String,
    /// A hash of its files, so a replay can tell the mod changed.
    pub content_hash: String,
}

/// A side (player or faction).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideState {
    /// Its id.
    pub id: SideId,
    /// Display name.
    pub name: String,
    /// Team id in team games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<String>,
    /// Out of the game: skipped by the turn engine.
    #[serde(default)]
    pub eliminated: bool,
    /// Mod-defined values (tokens, points, ...).
    #[serde(default)]
    pub values: BTreeMap<String, Value>,
}

impl SideState {
    /// A side with no team and no values.
    #[must_use]
    pub fn new(id: &str, name: &str) -> Self {
        SideState {
            id: SideId::new(id),
            name: name.to_owned(),
            team: None,
            eliminated: false,
            values: BTreeMap::new(),
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning sides (empty = draw).
    pub winners: Vec<SideId>,
    /// Why, in words (e.g. `"red has no ships left"`).
    pub reason: String,
}

impl Outcome {
    /// A draw with a reason.
    #[must_use]
    pub fn draw(reason: impl Into<String>) -> Self {
        Outcome {
            winners: Vec::new(),
            reason: reason.into(),
        }
    }
}

/// One accepted action in the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    /// Position in the log, from 0.
    pub index: u32,
    /// The action; `None` for the game start (setup and the first hooks).
    pub action: Option<Action>,
    /// Dice rolled while applying it.
    #[serde(default)]
    pub rolls: Vec<Roll>,
    /// Text lines the rules emitted.
    #[serde(default)]
    pub events: Vec<String>,
}

/// Everything about a game in progress.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameState {
    /// The mods the game runs on. Shared between clones (every action works on a clone of the
    /// whole state; this never changes in one).
    pub mods: Arc<Vec<ModLock>>,
    /// The scenario id.
    pub scenario: String,
    /// Scenario options chosen at the start. Shared between clones, as `mods`.
    #[serde(default)]
    pub options: Arc<Value>,
    /// The seed.
    pub seed: u64,
    /// The dice (all randomness goes through it).
    pub dice: DiceRoller,
    /// The board. Shared between clones until one of them changes it (`Arc::make_mut`): every
    /// action works on a clone of the whole state, and the board (terrain by hex, graph maps)
    /// rarely changes in one.
    pub board: Arc<BoardState>,
    /// Pieces by id.
    pub pieces: BTreeMap<PieceId, Piece>,
    /// The id the next new piece gets.
    pub next_piece_id: u32,
    /// Sides in seating order. Shared between clones until one of them changes them
    /// (`Arc::make_mut`), as the board is.
    pub sides: Arc<Vec<SideState>>,
    /// Where the game is in its turn structure.
    pub clock: Clock,
    /// This game's last round when it differs from the turn structure's (a scenario's
    /// `turn_limit`). Kept in the state, not the shared rules, so every game of a rule set can
    /// have its own and a replay (which re-runs setup) gets the same one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_limit: Option<u32>,
    /// Mod-defined global values, shared between clones until one of them changes
    /// (`Arc::make_mut`), as the board is.
    #[serde(default)]
    pub globals: Arc<BTreeMap<String, Value>>,
    /// Set when the game is over.
    #[serde(default)]
    pub outcome: Option<Outcome>,
    /// Text lines the rules emitted during the current action (drained into its log entry;
    /// empty between actions).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<String>,
    /// The accepted actions. Owned by [`crate::Game`]: while rules run it is empty (so an
    /// action's clone costs no log copy).
    #[serde(default)]
    pub log: Vec<LogEntry>,
}

impl GameState {
    /// An empty game before setup: no sides, no pieces, clock not started.
    #[must_use]
    pub fn new(mods: Vec<ModLock>, scenario: &str, options: Value, seed: u64) -> Self {
        GameState {
            mods: mods.into(),
            scenario: scenario.to_owned(),
            options: options.into(),
            seed,
            dice: DiceRoller::new(seed),
            board: Arc::default(),
            pieces: BTreeMap::new(),
            next_piece_id: 1,
            sides: Arc::default(),
            clock: Clock::default(),
            turn_limit: None,
            globals: Arc::default(),
            outcome: None,
            events: Vec::new(),
            log: Vec::new(),
        }
    }

    /// A copy without the log and the pending events: what a simulation starts from (the log
    /// of a long game is most of its size, and rules never read it).
    #[must_use]
    pub fn clone_without_log(&self) -> GameState {
        GameState {
            mods: Arc::clone(&self.mods),
            scenario: self.scenario.clone(),
            options: Arc::clone(&self.options),
            seed: self.seed,
            dice: self.dice.clone(),
            board: Arc::clone(&self.board),
            pieces: self.pieces.clone(),
            next_piece_id: self.next_piece_id,
            sides: Arc::clone(&self.sides),
            clock: self.clock.clone(),
            turn_limit: self.turn_limit,
            globals: Arc::clone(&self.globals),
            outcome: self.outcome.clone(),
            events: Vec::new(),
            log: Vec::new(),
        }
    }

    /// Adds a piece with a fresh id and no values; returns the id.
    pub fn add_piece(
        &mut self,
        kind: &str,
        owner: SideId,
        pos: Position,
        facing: Option<Direction>,
    ) -> PieceId {
        let id = PieceId(self.next_piece_id);
        self.next_piece_id = self.next_piece_id.saturating_add(1);
        self.pieces.insert(
            id,
            Piece {
                id,
                kind: kind.to_owned(),
                owner,
                pos,
                facing,
                values: Default::default(),
            },
        );
        id
    }

    /// Removes a piece, returning it.
    pub fn remove_piece(&mut self, id: PieceId) -> Option<Piece> {
        self.pieces.remove(&id)
    }

    /// Ids of the pieces whose anchor is at `hex`, in id order.
    #[must_use]
    pub fn pieces_at(&self, hex: Hex) -> Vec<PieceId> {
        self.pieces
            .values()
            .filter(|p| p.pos == Position::Hex(hex))
            .map(|p| p.id)
            .collect()
    }

    /// A side by id.
    #[must_use]
    pub fn side(&self, id: &SideId) -> Option<&SideState> {
        self.sides.iter().find(|s| &s.id == id)
    }

    /// A side by id, mutably.
    pub fn side_mut(&mut self, id: &SideId) -> Option<&mut SideState> {
        self.sides_mut().iter_mut().find(|s| &s.id == id)
    }

    /// The sides, to change (a copy of the list first when another state shares it).
    pub fn sides_mut(&mut self) -> &mut Vec<SideState> {
        Arc::make_mut(&mut self.sides)
    }

    /// Records a text line for the current action's log entry.
    pub fn emit(&mut self, line: impl Into<String>) {
        self.events.push(line.into());
    }

    /// The last round of this game: its own [`GameState::turn_limit`], else the structure's.
    #[must_use]
    pub fn effective_turn_limit(&self, turns: &crate::turn::TurnStructure) -> Option<u32> {
        self.turn_limit.or(turns.turn_limit)
    }

    /// The current phase id under a turn structure, if the clock has started.
    #[must_use]
    pub fn phase_id<'a>(&self, turns: &'a crate::turn::TurnStructure) -> Option<&'a str> {
        if self.clock.round == 0 {
            return None;
        }
        turns
            .phases
            .get(self.clock.phase_index as usize)
            .map(|p| p.id.as_str())
    }
}
