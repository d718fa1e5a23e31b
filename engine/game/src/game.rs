//! A game in progress: the state, its rules, all-or-nothing actions, the log and undo/redo.
//!
//! [`Game::perform`] is a transaction: it clones the state, applies the action on the clone
//! (rules, hooks, turn engine, victory check) and swaps the clone in only if everything
//! succeeded. A rules error or an illegal result leaves the state exactly as it was. Each
//! accepted action appends a [`LogEntry`] with the dice rolled and the lines the rules emitted.
//!
//! Undo and redo never replay: the state before each action is kept (without its log, so each
//! snapshot costs one state clone, and the log is never copied). This module deliberately does
//! no I/O; see [`crate::record`] for replays and saves.
//!
//! ```ignore
//! let mut game = Game::new(rules, GameState::new(vec![], "duel", Value::Null, 42))?;
//! let blue = SideId::new("blue");
//! let actions = game.legal_actions(&blue)?;
//! game.perform(&actions[0])?;
//! game.undo();
//! ```

use crate::action::{Action, Illegal};
use crate::dice::DiceSource;
use crate::ids::SideId;
use crate::record::{FORMAT_VERSION, GameRecord};
use crate::rules::{Rules, RulesError};
use crate::size::{StateLimits, entry_bytes, shown};
use crate::state::{GameState, LogEntry, Outcome};
use crate::turn::{self, HookEvent, Order, TurnError};
use std::collections::VecDeque;

/// Why an action (or the game start) did not happen.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PerformError {
    /// The action is not allowed now; the reason is for the player.
    #[error(transparent)]
    Illegal(#[from] Illegal),
    /// The rules failed.
    #[error("rules error: {0}")]
    Rules(#[from] RulesError),
    /// The turn structure is broken or nobody can act.
    #[error("turn engine: {0}")]
    Turn(#[from] TurnError),
}

/// What the undo states may hold together by default, in counted bytes ([`crate::size`]).
const DEFAULT_UNDO_MEMORY: usize = 256 << 20;

/// How many hook/phase rounds one action may trigger before the engine calls it a loop.
const MAX_CASCADE: usize = 100_000;

/// A game in progress.
pub struct Game<R: Rules> {
    state: GameState,
    rules: R,
    /// Earlier states, each with its bytes as counted by [`GameState::approx_bytes`].
    undo: VecDeque<(GameState, usize)>,
    redo: Vec<(GameState, LogEntry)>,
    undo_limit: usize,
    /// The most the undo states may hold together, in counted bytes.
    undo_memory: usize,
    /// The log's bytes as saved ([`crate::size::entry_bytes`] of every entry).
    log_bytes: usize,
    /// At least the state's bytes without its log ([`GameState::approx_bytes`]): measured, or
    /// a measure plus what the rules wrote since ([`Rules::written_last`]).
    size: usize,
    /// The action [`Game::pick_legal_action`] last returned, while the state and the rules are
    /// still the ones it was listed for (every change clears it): [`Game::perform`] does not ask
    /// the rules' check about it again, and logs this copy instead of cloning its argument.
    listed: std::cell::RefCell<Option<Action>>,
}

impl<R: Rules> Game<R> {
    /// Starts a game: runs the rules' setup on `state`, starts the clock (firing its hooks) and
    /// logs the start as entry 0 (action `None`).
    ///
    /// # Errors
    /// A rules error or a broken turn structure.
    pub fn new(rules: R, mut state: GameState) -> Result<Self, PerformError> {
        state.log.clear();
        rules.setup(&mut state)?;
        match turn::start(&mut state, rules.turn_structure()) {
            Err(TurnError::NoActors) => nobody_can_act(&rules, &mut state)?,
            started => run_events(&rules, &mut state, started?)?,
        }
        settle_outcome(&rules, &mut state)?;
        let entry = LogEntry {
            index: 0,
            action: None,
            rolls: state.dice.drain_rolls(),
            events: std::mem::take(&mut state.events),
        };
        let log_bytes = entry_bytes(&entry);
        let size = state.approx_bytes();
        state.log.push(entry);
        Ok(Game {
            state,
            rules,
            undo: VecDeque::new(),
            redo: Vec::new(),
            undo_limit: usize::MAX,
            undo_memory: DEFAULT_UNDO_MEMORY,
            log_bytes,
            size,
            listed: std::cell::RefCell::new(None),
        })
    }

    /// The current state.
    #[must_use]
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// Swaps the rules (hot reload), keeping the state, log and history.
    pub fn set_rules(&mut self, rules: R) -> R {
        *self.listed.get_mut() = None;
        std::mem::replace(&mut self.rules, rules)
    }

    /// Consumes the game, returning the state.
    #[must_use]
    pub fn into_state(self) -> GameState {
        self.state
    }

    /// Keeps at most `limit` undo steps (oldest dropped first). Default: unlimited.
    pub fn set_undo_limit(&mut self, limit: usize) {
        self.undo_limit = limit;
        self.trim_undo();
    }

    /// Keeps undo steps only while together they hold at most `bytes` (counted as saved, see
    /// [`crate::size`]; states share their unchanged parts in memory, so this errs on the safe
    /// side). Default: 256 MiB.
    pub fn set_undo_memory(&mut self, bytes: usize) {
        self.undo_memory = bytes;
        self.trim_undo();
    }

    /// Drops the oldest undo steps past the count or the memory limit.
    fn trim_undo(&mut self) {
        let mut held: usize = self.undo.iter().map(|(_, n)| n).sum();
        while self.undo.len() > self.undo_limit
            || (held > self.undo_memory && !self.undo.is_empty())
        {
            if let Some((_, n)) = self.undo.pop_front() {
                held -= n;
            }
        }
    }

    /// Sides that may act now.
    #[must_use]
    pub fn waiting(&self) -> Vec<SideId> {
        if self.state.outcome.is_some() {
            Vec::new()
        } else {
            self.state.clock.waiting()
        }
    }

    /// The actions `side` may take now: the rules' actions plus `end_phase` when the rules'
    /// check allows it (a mod may refuse to let a phase end). Empty when the side cannot act.
    ///
    /// # Errors
    /// A rules error.
    pub fn legal_actions(&self, side: &SideId) -> Result<Vec<Action>, RulesError> {
        if self.state.outcome.is_some() || !self.state.clock.may_act(side) {
            return Ok(Vec::new());
        }
        self.rules.legal_actions_and_end(&self.state, side)
    }

    /// One of [`Game::legal_actions`], chosen by index without building the others where the
    /// rules allow it ([`Rules::pick_legal`]): `pick(n)` is called once with the list's length
    /// and the action at its answer is returned. `Ok(None)`, without calling `pick`, when the
    /// side has nothing to do (or cannot act now). Performing the returned action next skips
    /// the rules' check: the rules listed it for this very state (see [`Rules::legal_actions`]).
    ///
    /// # Errors
    /// A rules error, or an index from `pick` that is not below `n`.
    pub fn pick_legal_action(
        &self,
        side: &SideId,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Result<Option<Action>, RulesError> {
        if self.state.outcome.is_some() || !self.state.clock.may_act(side) {
            return Ok(None);
        }
        let picked = self.rules.pick_legal(&self.state, side, pick)?;
        self.listed.replace(picked.clone());
        Ok(picked)
    }

    /// Whether an action is legal now (no change to the state).
    ///
    /// # Errors
    /// A rules error.
    pub fn check(&self, action: &Action) -> Result<Result<(), Illegal>, RulesError> {
        if let Err(ill) = self.engine_check(action) {
            return Ok(Err(ill));
        }
        self.rules.check(&self.state, action)
    }

    fn engine_check(&self, action: &Action) -> Result<(), Illegal> {
        if let Some(o) = &self.state.outcome {
            return Err(Illegal::new(format!("the game is over: {}", o.reason)));
        }
        if self.state.side(&action.side).is_none() {
            return Err(Illegal::new(format!("there is no side `{}`", action.side)));
        }
        if !self.state.clock.may_act(&action.side) {
            let phase = self
                .state
                .phase_id(self.rules.turn_structure())
                .unwrap_or("-");
            let waiting: Vec<String> = self
                .state
                .clock
                .waiting()
                .iter()
                .map(ToString::to_string)
                .collect();
            return Err(Illegal::new(format!(
                "{} cannot act now: phase `{phase}` waits for {}",
                action.side,
                if waiting.is_empty() {
                    "nobody".to_owned()
                } else {
                    waiting.join(", ")
                }
            )));
        }
        if let Some(refused) = action
            .is_end_phase()
            .then(|| self.state.clock.end_phase_refused())
            .flatten()
        {
            return Err(refused);
        }
        Ok(())
    }

    /// Performs an action, all or nothing. Returns the outcome if the game is now over.
    ///
    /// # Errors
    /// [`PerformError::Illegal`] (with a reason) or a rules/turn fault; in every error case the
    /// state is exactly as before.
    pub fn perform(&mut self, action: &Action) -> Result<Option<Outcome>, PerformError> {
        // Taken whatever happens next: a listing is good for one action.
        let listed = self.listed.get_mut().take().filter(|a| a == action);
        self.engine_check(action)?;
        // `end_phase` is checked by the rules too: a mod may refuse it ("every ship must move
        // before the movement phase ends"). Its effect is the engine's. An action the rules
        // themselves just listed for this state is legal by their contract (a random bot's
        // pick): asking their check again would only repeat the listing's work.
        if listed.is_none() {
            self.rules.check(&self.state, action)??;
        }
        // Clone without the log: the log is append-only and owned here.
        let log = std::mem::take(&mut self.state.log);
        let mut work = self.state.clone();
        self.state.log = log;

        transact(&self.rules, &mut work, action)?;

        let entry = LogEntry {
            index: self.state.log.len() as u32,
            rolls: work.dice.drain_rolls(),
            events: std::mem::take(&mut work.events),
            // The listed copy equals `action` and is ours already: logging it saves a clone.
            action: Some(listed.unwrap_or_else(|| action.clone())),
        };
        // What the mod's writes may grow is bounded in total (the rules bound each action). The
        // state is measured only when what the rules say they wrote leaves it in doubt.
        let entry_size = entry_bytes(&entry);
        let total = self.rules.state_limits().total;
        let fits = |n: usize| n.saturating_add(self.log_bytes + entry_size) <= total;
        let new_size = match self.rules.written_last() {
            Some(w) if fits(self.size.saturating_add(w)) => self.size + w,
            _ => work.approx_bytes(),
        };
        if !fits(new_size) {
            let size = new_size + self.log_bytes + entry_size;
            return Err(RulesError::new(format!(
                "state budget: this action would grow the game state to {} as saved, over the {} \
                 the rule set allows (`state_mib` in mod.toml raises it, up to {})",
                shown(size),
                shown(total),
                shown(StateLimits::HOST_TOTAL)
            ))
            .into());
        }
        let mut prev = std::mem::replace(&mut self.state, work);
        self.state.log = std::mem::take(&mut prev.log);
        self.state.log.push(entry);
        self.log_bytes += entry_size;
        let held = std::mem::replace(&mut self.size, new_size);
        // Without undo (bots), the old state is dropped here rather than moved through the
        // deque: a state is 704 bytes, and every move of it is a copy.
        if self.undo_limit > 0 {
            self.undo.push_back((prev, held));
            self.trim_undo();
        }
        self.redo.clear();
        Ok(self.state.outcome.clone())
    }

    /// Changes the state outside any action, for test set-ups and scenario editing: nothing is
    /// logged, and undo/redo history is dropped (it would no longer lead back to this state).
    pub fn edit<T>(&mut self, f: impl FnOnce(&mut GameState) -> T) -> T {
        self.undo.clear();
        self.redo.clear();
        *self.listed.get_mut() = None;
        let out = f(&mut self.state);
        self.size = self.state.approx_bytes();
        self.log_bytes = self.state.log.iter().map(entry_bytes).sum();
        out
    }

    /// Whether there is an action to undo.
    #[must_use]
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is an undone action to redo.
    #[must_use]
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Undoes the last action (no replay). Returns false if there is nothing to undo.
    pub fn undo(&mut self) -> bool {
        *self.listed.get_mut() = None;
        let Some((mut prev, held)) = self.undo.pop_back() else {
            return false;
        };
        prev.log = std::mem::take(&mut self.state.log);
        let Some(entry) = prev.log.pop() else {
            // Unreachable by construction (every snapshot has a log entry); restore and refuse.
            self.state.log = std::mem::take(&mut prev.log);
            self.undo.push_back((prev, held));
            return false;
        };
        self.log_bytes = self.log_bytes.saturating_sub(entry_bytes(&entry));
        self.size = held;
        let cur = std::mem::replace(&mut self.state, prev);
        self.redo.push((cur, entry));
        true
    }

    /// Redoes the last undone action (no replay). Returns false if there is nothing to redo.
    pub fn redo(&mut self) -> bool {
        *self.listed.get_mut() = None;
        let Some((mut next, entry)) = self.redo.pop() else {
            return false;
        };
        next.log = std::mem::take(&mut self.state.log);
        self.log_bytes += entry_bytes(&entry);
        next.log.push(entry);
        let prev = std::mem::replace(&mut self.state, next);
        let held = std::mem::replace(&mut self.size, self.state.approx_bytes());
        self.undo.push_back((prev, held));
        self.trim_undo();
        true
    }

    /// The record of this game (everything a replay needs).
    #[must_use]
    pub fn record(&self) -> GameRecord {
        GameRecord {
            format_version: FORMAT_VERSION,
            mods: self.state.mods.to_vec(),
            scenario: self.state.scenario.clone(),
            options: (*self.state.options).clone(),
            seed: self.state.seed,
            actions: self
                .state
                .log
                .iter()
                .filter_map(|e| e.action.clone())
                .collect(),
        }
    }
}

/// Applies `action` to `state` as [`Game::perform`] does (all or nothing), without a log, undo,
/// the engine's legality checks or the state budget: for search bots' simulations, whose
/// actions come from the rules' own listing of that very state. The dice rolled and the lines
/// emitted are dropped (a simulation keeps no record).
///
/// # Errors
/// As [`Game::perform`]; on every error the state is as it was.
pub(crate) fn step_unlogged<R: Rules + ?Sized>(
    rules: &R,
    state: &mut GameState,
    action: &Action,
) -> Result<(), PerformError> {
    let mut work = state.clone();
    transact(rules, &mut work, action)?;
    work.dice.drain_rolls();
    work.events.clear();
    *state = work;
    Ok(())
}

/// Applies an action to the scratch state: rules or the built-in `end_phase`, then hooks, the
/// turn engine and the victory check.
fn transact<R: Rules + ?Sized>(
    rules: &R,
    work: &mut GameState,
    action: &Action,
) -> Result<(), PerformError> {
    let turns = rules.turn_structure();
    let after = HookEvent::AfterAction {
        action: action.id.clone(),
        side: action.side.clone(),
    };
    let mut events = Vec::new();
    if action.is_end_phase() {
        match turn::end_phase(work, turns, &action.side) {
            // The phase's end hooks do not fire: the game is over.
            Err(TurnError::NoActors) => {
                nobody_can_act(rules, work)?;
                events.push(after);
            }
            moved => {
                let moved = moved??;
                events.push(after);
                events.extend(moved);
            }
        }
    } else {
        rules.apply(work, action)??;
        events.push(after);
    }
    run_events(rules, work, events)?;
    settle_outcome(rules, work)
}

/// Fires events in order; when they run out, re-checks who acts (rules may have eliminated
/// sides or changed the order) and moves the clock on if nobody is left waiting.
fn run_events<R: Rules + ?Sized>(
    rules: &R,
    state: &mut GameState,
    events: Vec<HookEvent>,
) -> Result<(), PerformError> {
    let turns = rules.turn_structure();
    let mut queue: VecDeque<HookEvent> = events.into();
    for _ in 0..MAX_CASCADE {
        if let Some(event) = queue.pop_front() {
            rules.hook(state, &event)?;
            if matches!(event, HookEvent::RoundStart { .. }) && turns.order == Order::Hook {
                turn::refresh_acting(state, turns);
            }
            continue;
        }
        if state.outcome.is_some() || state.clock.finished || state.clock.round == 0 {
            return Ok(());
        }
        if turn::refresh_acting(state, turns) {
            return Ok(());
        }
        match turn::advance(state, turns) {
            Err(TurnError::NoActors) => return nobody_can_act(rules, state),
            next => queue.extend(next?),
        }
    }
    Err(RulesError::new("hooks keep ending phases: gave up after 100000 events").into())
}

/// When no side is left to act (every side is out of the game, say one blast destroyed the last
/// ships of all), the game is over: the rules' victory decides, and without an answer it is a
/// draw. Why not an error: a game that ends legally never ends in one.
fn nobody_can_act<R: Rules + ?Sized>(rules: &R, state: &mut GameState) -> Result<(), PerformError> {
    if state.outcome.is_none() {
        state.outcome = rules.outcome(state)?;
    }
    if state.outcome.is_none() {
        state.outcome = Some(Outcome::draw(
            "no side can act: every side is out of the game",
        ));
    }
    Ok(())
}

/// Asks the rules for an outcome; past the turn limit a game without one is a draw.
fn settle_outcome<R: Rules + ?Sized>(rules: &R, state: &mut GameState) -> Result<(), PerformError> {
    if state.outcome.is_none() {
        state.outcome = rules.outcome(state)?;
    }
    if state.outcome.is_none() && state.clock.finished {
        state.outcome = Some(Outcome::draw("the turn limit has passed"));
    }
    Ok(())
}
