//! # hexforge-game
//!
//! The game runtime without Lua: the game state as plain serialisable data, the turn engine,
//! actions as data, the all-or-nothing transaction that applies them, the log, undo/redo, replay
//! and save files.
//!
//! **Invariants.** The game state is owned by Rust and never lives in a Lua VM. The same mods,
//! scenario, options, seed and actions give the same state byte for byte (every map is a
//! `BTreeMap`; all randomness comes from the state's seeded dice). An action either applies
//! completely or leaves the state exactly as it was. An illegal action is a value with a reason.
//! This crate deliberately knows nothing of Lua: the rules sit behind the [`Rules`] trait,
//! implemented by `hexforge-script` (and by Rust fakes in tests).
//!
//! Modules:
//! - [`ids`], [`piece`], [`board`], [`state`]: the state types.
//! - [`dice`]: the state's seeded dice (a stand-in until the core's roller is merged).
//! - [`turn`]: turn structures, the clock and who acts.
//! - [`action`]: actions and illegal-action values.
//! - [`rules`]: the [`Rules`] trait the script crate implements.
//! - [`game`]: [`Game`], the all-or-nothing `perform`, the log, undo and redo.
//! - [`record`]: [`GameRecord`], [`replay`], [`state_hash`], atomic versioned save files.
//! - [`bot`], [`play`]: the seeded random bot, and bot games played to their end.
//! - [`series`]: series of games with their statistics and printed summary (`hexforge play`'s
//!   loop), re-exported from [`play`].
//! - [`stats`]: Wilson intervals, Fisher's exact test and quantiles for the reports.
//! - [`sweep`], [`balance`]: the balance lab: shards of a sweep's seeds, one JSON line per
//!   game and merging them back; one rule set's report and two compared.
//! - [`mcts`]: the search bot (Monte Carlo tree search over any [`Rules`], `--bots mcts`).

pub mod action;
pub mod balance;
pub mod board;
pub mod bot;
pub mod dice;
pub mod game;
pub mod ids;
pub mod mcts;
pub mod piece;
pub mod play;
pub mod record;
pub mod rules;
pub mod series;
pub mod size;
pub mod state;
pub mod stats;
pub mod sweep;
pub mod turn;

pub use action::{Action, END_PHASE, Illegal};
pub use board::{BoardState, GraphMap, GraphNode, Route, TimedTerrain};
pub use dice::{DiceRoller, DiceSource, Roll};
pub use game::{Game, PerformError};
pub use ids::{PieceId, SideId, Value};
pub use piece::{Piece, Position, footprint_hexes};
pub use record::{GameRecord, ReplayError, SaveError, SaveFile, replay, state_hash};
pub use rules::{Rules, RulesError};
pub use size::StateLimits;
pub use state::{GameState, LogEntry, ModLock, Outcome, SideState};
pub use turn::{Actor, Clock, HookEvent, Order, PhaseSpec, Scope, TurnError, TurnStructure};
