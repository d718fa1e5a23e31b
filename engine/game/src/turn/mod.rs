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

mod order;

use order::{is_member, live, play_order, taker_of};
pub use order::{members, play_sides, roll_next_order, roll_order, seating_takers};

use crate::action::Illegal;
use crate::ids::SideId;
use crate::state::{GameState, SideState};
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
    /// Index of the current step in the segment's schedule (see [`schedule`]).
    #[serde(default)]
    pub step: u32,
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
    /// The side the rules asked to answer in the middle of the phase (Lua `ctx:ask`): a
    /// defender declaring interceptors against one attack, an owner choosing a retreat path.
    /// While set, only this side may act and no side may end the phase; the rules clear it
    /// (`ctx:answered`) once the answer is in. Cleared by the engine if the side leaves the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asked: Option<SideId>,
    /// A play order the rules rolled in the middle of a round (Lua `ctx:roll_order`: "after
    /// every design is final, roll for the first player"), which the next round starts with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_order: Option<Vec<String>>,
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

impl Clock {
    /// Sides that may act now: the asked side while one is asked, else the sides that act in
    /// this step and have not yet ended the phase.
    #[must_use]
    pub fn waiting(&self) -> Vec<SideId> {
        if let Some(asked) = &self.asked {
            return vec![asked.clone()];
        }
        self.acting
            .iter()
            .filter(|s| !self.done.contains(s))
            .cloned()
            .collect()
    }

    /// Whether some side may act now: `!self.waiting().is_empty()` without building the list
    /// (the engine asks after every action).
    #[must_use]
    pub fn anyone_waiting(&self) -> bool {
        self.asked.is_some() || self.acting.iter().any(|s| !self.done.contains(s))
    }

    /// Whether `side` may act now (the asked side while one is asked; else acting and not
    /// done), the game not finished.
    #[must_use]
    pub fn may_act(&self, side: &SideId) -> bool {
        if self.finished {
            return false;
        }
        match &self.asked {
            Some(asked) => asked == side,
            None => self.acting.contains(side) && !self.done.contains(side),
        }
    }

    /// The sides the rules see as acting (`ctx.acting`): the asked side alone while one is
    /// asked, else every side acting in this step.
    #[must_use]
    pub fn acting_now(&self) -> &[SideId] {
        match &self.asked {
            Some(asked) => std::slice::from_ref(asked),
            None => &self.acting,
        }
    }

    /// Why no side may end the phase now, if that is so: a side was asked to answer.
    #[must_use]
    pub fn end_phase_refused(&self) -> Option<Illegal> {
        self.asked
            .as_ref()
            .map(|a| Illegal::new(format!("{a} must answer first: the phase cannot end now")))
    }
}

/// One step of a segment: a phase, for a turn-taker (turn phases) and a side ([`Actor::Each`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Index into the phases.
    pub phase_index: u32,
    /// Index into the play order, for turn phases.
    pub turn_index: Option<u32>,
    /// Index into the play order of sides, for [`Actor::Each`] phases.
    pub each_index: Option<u32>,
}

/// The steps of one segment, for `takers` turn-takers and `sides` sides in play order.
///
/// Steps for sides that are out of the game are still listed (the clock skips them), so a
/// step's index stays valid for the whole round. Built from [`schedule_step`], so the two
/// cannot disagree.
#[must_use]
pub fn schedule(turns: &TurnStructure, takers: usize, sides: usize, segment: u32) -> Vec<Step> {
    (0..)
        .map_while(|index| schedule_step(turns, takers, sides, segment, index))
        .collect()
}

/// Step `index` of the [`schedule`] (`None` past its end), found without listing the steps:
/// the clock looks up one step each time it moves, which is after most actions.
#[must_use]
pub fn schedule_step(
    turns: &TurnStructure,
    takers: usize,
    sides: usize,
    segment: u32,
    index: usize,
) -> Option<Step> {
    let phases = &turns.phases;
    let first_turn = phases.iter().position(|p| p.scope == Scope::Turn);
    // A phase is one step each time it runs, or one per side for `Each`.
    let width = |p: usize| {
        if phases[p].actor == Actor::Each {
            sides
        } else {
            1
        }
    };
    let step = |p: usize, turn_index: Option<u32>, k: usize| Step {
        phase_index: p as u32,
        turn_index,
        each_index: (phases[p].actor == Actor::Each).then_some(k as u32),
    };
    // Steps still to skip before reaching `index`.
    let mut rest = index;
    let mut i = 0;
    while i < phases.len() {
        match phases[i].scope {
            Scope::Turn => {
                // A block of consecutive turn phases is played through by each turn-taker.
                let end = phases[i..]
                    .iter()
                    .position(|p| p.scope != Scope::Turn)
                    .map_or(phases.len(), |k| i + k);
                let per_turn: usize = (i..end).map(width).sum();
                let block = per_turn * takers;
                if rest < block {
                    // Always returns: `k` starts below `per_turn`, the block's width per taker.
                    let taker = Some((rest / per_turn) as u32);
                    let mut k = rest % per_turn;
                    for p in i..end {
                        if k < width(p) {
                            return Some(step(p, taker, k));
                        }
                        k -= width(p);
                    }
                }
                rest -= block;
                i = end;
                continue;
            }
            Scope::Segment => {}
            Scope::Round => {
                let before_turns = first_turn.is_none_or(|f| i < f);
                let runs = if before_turns {
                    segment == 1
                } else {
                    segment == turns.segments
                };
                if !runs {
                    i += 1;
                    continue;
                }
            }
        }
        if rest < width(i) {
            return Some(step(i, None, rest));
        }
        rest -= width(i);
        i += 1;
    }
    None
}

/// The sides acting in a step (only sides still in the game), in play order.
#[must_use]
pub fn acting_for(state: &GameState, turns: &TurnStructure, step: Step) -> Vec<SideId> {
    acting_in(&state.sides, &state.clock.order, turns, step)
        .into_iter()
        .cloned()
        .collect()
}

/// [`acting_for`], borrowing the ids from `sides` (see [`play_order`]). Takes the sides and the
/// round's order rather than the whole state so that callers can update `clock.acting` in place
/// while holding the result.
fn acting_in<'a>(
    sides: &'a [SideState],
    order: &[String],
    turns: &TurnStructure,
    step: Step,
) -> Vec<&'a SideId> {
    let Some(phase) = turns.phases.get(step.phase_index as usize) else {
        return Vec::new();
    };
    // The turn-taker whose turn it is; its members are the "active" sides.
    let active = step
        .turn_index
        .and_then(|t| order.get(t as usize))
        .map(String::as_str);
    let is_active = |side: &SideId| active.is_some_and(|t| is_member(sides, turns, t, side));
    // A turn whose taker is out of the game is skipped whole: nobody fires defensively in the
    // turn of a side that was eliminated (even during that very turn).
    if step.turn_index.is_some()
        && !active.is_some_and(|t| {
            sides
                .iter()
                .any(|s| taker_of(s, turns) == t && live(sides, &s.id))
        })
    {
        return Vec::new();
    }
    let mut out = play_order(sides, order, turns);
    match phase.actor {
        Actor::Active => out.retain(|s| is_active(s)),
        Actor::Others => out.retain(|s| !is_active(s)),
        Actor::All => {}
        Actor::Each => {
            let picked = step.each_index.and_then(|e| out.get(e as usize).copied());
            out.clear();
            out.extend(picked);
        }
    }
    out.retain(|s| live(sides, s));
    out
}

fn begin_round(state: &mut GameState, turns: &TurnStructure) {
    let round = state.clock.round + 1;
    state.clock.round = round;
    state.clock.segment = 1;
    state.clock.label = turns.label_of_round(round).map(str::to_owned);
    if let Some(order) = state.clock.next_order.take() {
        state.clock.order = order;
        return;
    }
    state.clock.order = match &turns.order {
        Order::Fixed(list) if !list.is_empty() => list.clone(),
        Order::Fixed(_) => seating_takers(state, turns),
        Order::Rolled { die, every_round } => {
            if round == 1 || *every_round || state.clock.order.is_empty() {
                roll_order(state, turns, *die)
            } else {
                state.clock.order.clone()
            }
        }
        Order::Hook if state.clock.order.is_empty() => seating_takers(state, turns),
        Order::Hook => state.clock.order.clone(),
    };
}

/// Starts the clock at the first step of round 1. Same as [`advance`] on a fresh clock.
///
/// # Errors
/// [`TurnError::Invalid`] for a bad structure, [`TurnError::NoActors`] if no side can act.
pub fn start(state: &mut GameState, turns: &TurnStructure) -> Result<Vec<HookEvent>, TurnError> {
    state.clock = Clock::default();
    advance(state, turns)
}

/// Moves the clock to the next step that has someone to act (next phase, turn, segment or
/// round), skipping steps whose actors are all out of the game. Returns the events to fire, in
/// order. Past the turn limit (the state's own, else the structure's) the clock is marked finished and [`HookEvent::TurnLimit`] is
/// returned; a finished clock does not move.
///
/// # Errors
/// [`TurnError::Invalid`] for a bad structure, [`TurnError::NoActors`] if no side can act.
pub fn advance(state: &mut GameState, turns: &TurnStructure) -> Result<Vec<HookEvent>, TurnError> {
    let errs = turns.validate();
    if !errs.is_empty() {
        return Err(TurnError::Invalid(errs));
    }
    if state.clock.finished {
        return Ok(Vec::new());
    }
    if !state.sides.iter().any(|s| !s.eliminated) {
        return Err(TurnError::NoActors);
    }
    let mut events = Vec::new();
    let prev_turn = state.clock.turn_index;
    let prev_phase = state.clock.phase_index;
    let mut boundary = state.clock.round == 0;
    let mut next = if boundary {
        None
    } else {
        Some(state.clock.step as usize + 1)
    };
    let mut rounds_started = 0;
    loop {
        let idx = match next {
            Some(i) => i,
            None => {
                if state.clock.round == 0 || state.clock.segment >= turns.segments {
                    if state
                        .effective_turn_limit(turns)
                        .is_some_and(|l| state.clock.round >= l)
                    {
                        state.clock.finished = true;
                        state.clock.acting.clear();
                        state.clock.done.clear();
                        state.clock.asked = None;
                        events.push(HookEvent::TurnLimit);
                        return Ok(events);
                    }
                    rounds_started += 1;
                    if rounds_started > 2 {
                        return Err(TurnError::NoActors);
                    }
                    begin_round(state, turns);
                    events.push(HookEvent::RoundStart {
                        round: state.clock.round,
                    });
                } else {
                    state.clock.segment += 1;
                }
                events.push(HookEvent::SegmentStart {
                    segment: state.clock.segment,
                });
                boundary = true;
                0
            }
        };
        let sides = play_order(&state.sides, &state.clock.order, turns).len();
        let takers = state.clock.order.len();
        let Some(step) = schedule_step(turns, takers, sides, state.clock.segment, idx) else {
            next = None;
            continue;
        };
        let acting = acting_in(&state.sides, &state.clock.order, turns, step);
        if acting.is_empty() {
            next = Some(idx + 1);
            continue;
        }
        let clock = &mut state.clock;
        // Refilled in place: the list's allocation is reused from step to step.
        clock.acting.clear();
        clock.acting.extend(acting.into_iter().cloned());
        clock.step = idx as u32;
        clock.phase_index = step.phase_index;
        clock.turn_index = step.turn_index;
        clock.each_index = step.each_index;
        clock.done.clear();
        clock.asked = None;
        let new_turn = step.turn_index.is_some() && (boundary || step.turn_index != prev_turn);
        if let Some(t) = step.turn_index.filter(|_| new_turn) {
            events.push(HookEvent::TurnStart {
                taker: clock.order[t as usize].clone(),
            });
        }
        if boundary || new_turn || step.turn_index != prev_turn || step.phase_index != prev_phase {
            events.push(HookEvent::PhaseStart {
                phase: turns.phases[step.phase_index as usize].id.clone(),
            });
        }
        return Ok(events);
    }
}

/// Recomputes who acts in the current step (after rules changed the order or eliminated a
/// side); sides no longer acting are dropped from `done`. Returns whether anyone still waits.
pub fn refresh_acting(state: &mut GameState, turns: &TurnStructure) -> bool {
    if state.clock.round == 0 || state.clock.finished {
        return false;
    }
    let step = Step {
        phase_index: state.clock.phase_index,
        turn_index: state.clock.turn_index,
        each_index: state.clock.each_index,
    };
    let acting = acting_in(&state.sides, &state.clock.order, turns, step);
    if state
        .clock
        .asked
        .as_ref()
        .is_some_and(|a| !live(&state.sides, a))
    {
        state.clock.asked = None;
    }
    let clock = &mut state.clock;
    // Usually nobody was eliminated and the order stands: keep the list rather than rebuild it.
    if !clock.acting.iter().eq(acting.iter().copied()) {
        clock.acting.clear();
        clock.acting.extend(acting.into_iter().cloned());
    }
    let Clock { acting, done, .. } = clock;
    done.retain(|s| acting.contains(s));
    clock.anyone_waiting()
}

/// `side` ends its part in the current phase. When every acting side has ended it, returns
/// [`HookEvent::PhaseEnd`] followed by the events of [`advance`]; otherwise no events.
///
/// # Errors
/// The outer error is a broken structure; the inner one an illegal request (not acting now,
/// already ended, game finished).
pub fn end_phase(
    state: &mut GameState,
    turns: &TurnStructure,
    side: &SideId,
) -> Result<Result<Vec<HookEvent>, Illegal>, TurnError> {
    if state.clock.finished {
        return Ok(Err(Illegal::new("the game is over")));
    }
    if let Some(refused) = state.clock.end_phase_refused() {
        return Ok(Err(refused));
    }
    if !state.clock.acting.contains(side) {
        return Ok(Err(Illegal::new(format!(
            "{side} does not act in this phase"
        ))));
    }
    if state.clock.done.contains(side) {
        return Ok(Err(Illegal::new(format!(
            "{side} has already ended this phase"
        ))));
    }
    state.clock.done.push(side.clone());
    if state.clock.anyone_waiting() {
        return Ok(Ok(Vec::new()));
    }
    let phase = turns
        .phases
        .get(state.clock.phase_index as usize)
        .map(|p| p.id.clone())
        .unwrap_or_default();
    let mut events = vec![HookEvent::PhaseEnd { phase }];
    events.extend(advance(state, turns)?);
    Ok(Ok(events))
}
