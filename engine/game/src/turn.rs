//! The turn engine: how a game's rounds, segments, turns and phases follow one another, and who
//! acts at each step.
//!
//! A [`TurnStructure`] (declared by the mod) describes one round: `segments` times, run the list
//! of [`PhaseSpec`]s. Consecutive phases with [`Scope::Turn`] form a *turn block* that is played
//! once per turn-taker in the round's play order (a side, or a team when `teams` is set);
//! [`Scope::Segment`] phases run once per segment; [`Scope::Round`] phases run once per round (in
//! the first segment if listed before every turn phase, otherwise in the last). The [`Clock`] in
//! the state says where the game is and who acts; [`advance`] moves it on.
//!
//! This module deliberately does not run hooks or rules: [`advance`] returns the
//! [`HookEvent`]s to fire, and [`crate::Game`] fires them.
//!
//! ```
//! use hexforge_game::turn::{Actor, PhaseSpec, TurnStructure};
//! // orbital-skirmish: two halves per round; move, defensive fire (the other side), offensive fire.
//! let t = TurnStructure::fixed(&["blue", "red"], vec![
//!     PhaseSpec::turn("move", Actor::Active),
//!     PhaseSpec::turn("defensive_fire", Actor::Others),
//!     PhaseSpec::turn("offensive_fire", Actor::Active),
//! ]);
//! assert!(t.validate().is_empty());
//! ```

use crate::dice::DiceSource;
use crate::ids::SideId;
use crate::state::GameState;
use serde::{Deserialize, Serialize};

/// Who acts in a phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// The side (or every side of the team) whose turn it is.
    #[default]
    Active,
    /// Every other side still in the game (e.g. defensive fire).
    Others,
    /// Every side, one after another in play order.
    Each,
    /// Every side at once; the phase ends when all have ended it.
    All,
}

/// How often a phase runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// Once per turn-taker (part of each side's or team's turn).
    #[default]
    Turn,
    /// Once per segment, outside the turns.
    Segment,
    /// Once per round, outside the turns (first segment if listed before the turn phases,
    /// otherwise the last segment).
    Round,
}

/// One phase of the structure.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseSpec {
    /// The phase id, e.g. `"move"`.
    pub id: String,
    /// Who acts.
    #[serde(default)]
    pub actor: Actor,
    /// How often it runs.
    #[serde(default)]
    pub scope: Scope,
}

impl PhaseSpec {
    /// A phase that is part of each turn.
    #[must_use]
    pub fn turn(id: &str, actor: Actor) -> Self {
        PhaseSpec {
            id: id.to_owned(),
            actor,
            scope: Scope::Turn,
        }
    }

    /// A phase that runs once per segment.
    #[must_use]
    pub fn segment(id: &str, actor: Actor) -> Self {
        PhaseSpec {
            id: id.to_owned(),
            actor,
            scope: Scope::Segment,
        }
    }

    /// A phase that runs once per round.
    #[must_use]
    pub fn round(id: &str, actor: Actor) -> Self {
        PhaseSpec {
            id: id.to_owned(),
            actor,
            scope: Scope::Round,
        }
    }
}

/// How the play order of a round is decided.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// A fixed order of turn-taker ids (side ids, or team ids when playing by teams). Empty =
    /// the sides' (or teams') seating order.
    Fixed(Vec<String>),
    /// Each turn-taker rolls a `die`-sided die; the highest goes first (ties re-roll among the
    /// tied), then play proceeds in seating order ("clockwise") from the winner.
    Rolled {
        /// Faces of the die.
        die: u32,
        /// Roll again at the start of every round (otherwise only in round 1).
        #[serde(default)]
        every_round: bool,
    },
    /// The rules set `clock.order` in their `round_start` hook (initially seating order).
    Hook,
}

/// The turn structure of a game (declared by the mod).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnStructure {
    /// How the play order is decided.
    pub order: Order,
    /// Whether turns are taken by teams (all sides of a team act together and complete each
    /// phase together) rather than by sides.
    #[serde(default)]
    pub teams: bool,
    /// The phases, in order.
    pub phases: Vec<PhaseSpec>,
    /// Segments per round (at least 1).
    #[serde(default = "one")]
    pub segments: u32,
    /// Labels cycling by round (e.g. blue, red, yellow).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_track: Option<Vec<String>>,
    /// The last round played; the game ends when it is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_limit: Option<u32>,
}

fn one() -> u32 {
    1
}

/// Where the game is in its turn structure, and who acts now.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// The round, from 1 (0 = not started).
    pub round: u32,
    /// The segment within the round, from 1.
    pub segment: u32,
    /// Index into `order` of the turn-taker whose turn it is (`None` in segment/round phases).
    pub turn_index: Option<u32>,
    /// Index into the structure's phases.
    pub phase_index: u32,
    /// For [`Actor::Each`] phases: index into the play order of sides of the side acting now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub each_index: Option<u32>,
    /// This round's play order (side ids, or team ids when playing by teams).
    pub order: Vec<String>,
    /// This round's time-track label, if the structure has a time track.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Sides that act in the current step, in play order.
    pub acting: Vec<SideId>,
    /// Sides among `acting` that have ended the phase.
    #[serde(default)]
    pub done: Vec<SideId>,
    /// Set once the turn limit has passed.
    #[serde(default)]
    pub finished: bool,
}

/// An engine event the rules may react to (Lua `game.on(name, fn)`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum HookEvent {
    /// A round begins.
    RoundStart {
        /// The new round.
        round: u32,
    },
    /// A segment begins (also fired for segment 1 of every round).
    SegmentStart {
        /// The new segment.
        segment: u32,
    },
    /// A side's or team's turn begins.
    TurnStart {
        /// The turn-taker id.
        taker: String,
    },
    /// A phase begins.
    PhaseStart {
        /// The phase id.
        phase: String,
    },
    /// A phase ends (every acting side ended it).
    PhaseEnd {
        /// The phase id.
        phase: String,
    },
    /// An action was applied.
    AfterAction {
        /// The action id.
        action: String,
        /// Who did it.
        side: SideId,
    },
    /// The turn limit passed.
    TurnLimit,
}

impl HookEvent {
    /// The hook name mods register for: `round_start`, `segment_start`, `turn_start`,
    /// `phase_start`, `phase_end`, `after_action`, `turn_limit`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            HookEvent::RoundStart { .. } => "round_start",
            HookEvent::SegmentStart { .. } => "segment_start",
            HookEvent::TurnStart { .. } => "turn_start",
            HookEvent::PhaseStart { .. } => "phase_start",
            HookEvent::PhaseEnd { .. } => "phase_end",
            HookEvent::AfterAction { .. } => "after_action",
            HookEvent::TurnLimit => "turn_limit",
        }
    }
}

/// Problems with a turn structure or with advancing it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TurnError {
    /// The structure is not usable (every problem listed).
    #[error("invalid turn structure: {}", .0.join("; "))]
    Invalid(Vec<String>),
    /// No side is left to act.
    #[error("no side can act: every side is out of the game")]
    NoActors,
}

impl TurnStructure {
    /// A fixed-order structure with one segment, no time track and no turn limit.
    #[must_use]
    pub fn fixed(order: &[&str], phases: Vec<PhaseSpec>) -> Self {
        TurnStructure {
            order: Order::Fixed(order.iter().map(|s| (*s).to_owned()).collect()),
            teams: false,
            phases,
            segments: 1,
            time_track: None,
            turn_limit: None,
        }
    }

    /// Every problem with the structure (empty = usable).
    #[must_use]
    pub fn validate(&self) -> Vec<String> {
        let mut errs = Vec::new();
        if self.phases.is_empty() {
            errs.push("a turn structure needs at least one phase".to_owned());
        }
        if self.segments == 0 {
            errs.push("segments must be at least 1".to_owned());
        }
        for (i, p) in self.phases.iter().enumerate() {
            if self.phases[..i].iter().any(|q| q.id == p.id) {
                errs.push(format!("phase id `{}` is used twice", p.id));
            }
            if p.scope != Scope::Turn && matches!(p.actor, Actor::Active | Actor::Others) {
                errs.push(format!(
                    "phase `{}`: actor `{:?}` needs a turn, but the phase is not part of a turn",
                    p.id, p.actor
                ));
            }
        }
        if let Order::Rolled { die: 0, .. } = self.order {
            errs.push("a rolled order needs a die with at least 1 face".to_owned());
        }
        if matches!(&self.time_track, Some(t) if t.is_empty()) {
            errs.push("a time track needs at least one label".to_owned());
        }
        if self.turn_limit == Some(0) {
            errs.push("a turn limit must be at least 1".to_owned());
        }
        errs
    }

    /// The time-track label of a round (1-based), if there is a track.
    #[must_use]
    pub fn label_of_round(&self, round: u32) -> Option<&str> {
        let track = self.time_track.as_ref().filter(|t| !t.is_empty())?;
        let i = (round.max(1) - 1) as usize % track.len();
        Some(track[i].as_str())
    }
}
