//! The boundary between the engine and a game's rules.
//!
//! [`Rules`] is implemented by `hexforge-script` (rules written in Lua) and by Rust fakes in
//! tests. The engine calls it; the rules read and change only the [`GameState`] they are handed.
//! An action the rules refuse is an [`Illegal`] value; a [`RulesError`] is a fault in the rules
//! themselves (a Lua error, a broken declaration), and aborts the action without a trace.
//! This module deliberately holds no state and no Lua.

use crate::action::{Action, Illegal};
use crate::ids::SideId;
use crate::state::{GameState, Outcome};
use crate::turn::{HookEvent, TurnStructure};

/// A fault in the rules (not an illegal action): e.g. `mods/demo/rules.lua:4: attempt to index
/// a nil value`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RulesError {
    /// What went wrong, with the mod file and line when known.
    pub message: String,
}

impl RulesError {
    /// A rules error with a message.
    #[must_use]
    pub fn new(message: impl Into<String>) -> Self {
        RulesError {
            message: message.into(),
        }
    }
}

/// A game's rules.
///
/// Contract: while the engine calls these, `state.log` is empty (the log belongs to
/// [`crate::Game`]); randomness must come from `state.dice`; text for the player goes through
/// [`GameState::emit`]. Every `&mut GameState` the rules receive is a scratch copy: on any error or
/// illegal result the engine discards it, so rules need not undo partial changes.
pub trait Rules {
    /// The game's turn structure.
    fn turn_structure(&self) -> &TurnStructure;

    /// Fills a fresh state (sides, board, pieces) from `state.scenario` and `state.options`.
    ///
    /// # Errors
    /// A fault in the rules or scenario.
    fn setup(&self, state: &mut GameState) -> Result<(), RulesError>;

    /// The actions `side` could take now (the engine adds `end_phase` itself).
    ///
    /// # Errors
    /// A fault in the rules.
    fn legal_actions(&self, state: &GameState, side: &SideId) -> Result<Vec<Action>, RulesError>;

    /// [`Rules::legal_actions`] plus the engine's `end_phase` (last) when [`Rules::check`]
    /// allows it: what [`crate::Game::legal_actions`] offers. Rules that can answer both in one
    /// go (one Lua call instead of two) override it; the result must be the same.
    ///
    /// # Errors
    /// A fault in the rules.
    fn legal_actions_and_end(
        &self,
        state: &GameState,
        side: &SideId,
    ) -> Result<Vec<Action>, RulesError> {
        let mut out = self.legal_actions(state, side)?;
        let end = Action::end_phase(side.clone());
        if self.check(state, &end)?.is_ok() {
            out.push(end);
        }
        Ok(out)
    }

    /// Whether an action is legal now, without changing anything.
    ///
    /// # Errors
    /// A fault in the rules.
    ///
    /// The engine's own `end_phase` comes here too, so rules may refuse to let a phase end (its
    /// effect, moving the clock on, stays the engine's). Return `Ok(Ok(()))` to allow it.
    fn check(&self, state: &GameState, action: &Action) -> Result<Result<(), Illegal>, RulesError>;

    /// Applies a legal action. May still refuse it (e.g. after a roll); the engine then discards
    /// every change.
    ///
    /// # Errors
    /// A fault in the rules.
    fn apply(
        &self,
        state: &mut GameState,
        action: &Action,
    ) -> Result<Result<(), Illegal>, RulesError>;

    /// Reacts to an engine event (round start, phase start, after an action, ...).
    ///
    /// # Errors
    /// A fault in the rules.
    fn hook(&self, state: &mut GameState, event: &HookEvent) -> Result<(), RulesError>;

    /// The result if the game is over (called after every action; also after the turn limit).
    ///
    /// # Errors
    /// A fault in the rules.
    fn outcome(&self, state: &GameState) -> Result<Option<Outcome>, RulesError>;
}

// Why these two: a `Game` owns its rules, but replays, comparisons and sessions often want to
// run several games over one set of rules (e.g. one Lua VM) without wrapper types.
impl<R: Rules + ?Sized> Rules for &R {
    fn turn_structure(&self) -> &TurnStructure {
        (**self).turn_structure()
    }
    fn setup(&self, state: &mut GameState) -> Result<(), RulesError> {
        (**self).setup(state)
    }
    fn legal_actions(&self, state: &GameState, side: &SideId) -> Result<Vec<Action>, RulesError> {
        (**self).legal_actions(state, side)
    }
    fn legal_actions_and_end(
        &self,
        state: &GameState,
        side: &SideId,
    ) -> Result<Vec<Action>, RulesError> {
        (**self).legal_actions_and_end(state, side)
    }
    fn check(&self, state: &GameState, action: &Action) -> Result<Result<(), Illegal>, RulesError> {
        (**self).check(state, action)
    }
    fn apply(
        &self,
        state: &mut GameState,
        action: &Action,
    ) -> Result<Result<(), Illegal>, RulesError> {
        (**self).apply(state, action)
    }
    fn hook(&self, state: &mut GameState, event: &HookEvent) -> Result<(), RulesError> {
        (**self).hook(state, event)
    }
    fn outcome(&self, state: &GameState) -> Result<Option<Outcome>, RulesError> {
        (**self).outcome(state)
    }
}

impl<R: Rules + ?Sized> Rules for Box<R> {
    fn turn_structure(&self) -> &TurnStructure {
        (**self).turn_structure()
    }
    fn setup(&self, state: &mut GameState) -> Result<(), RulesError> {
        (**self).setup(state)
    }
    fn legal_actions(&self, state: &GameState, side: &SideId) -> Result<Vec<Action>, RulesError> {
        (**self).legal_actions(state, side)
    }
    fn legal_actions_and_end(
        &self,
        state: &GameState,
        side: &SideId,
    ) -> Result<Vec<Action>, RulesError> {
        (**self).legal_actions_and_end(state, side)
    }
    fn check(&self, state: &GameState, action: &Action) -> Result<Result<(), Illegal>, RulesError> {
        (**self).check(state, action)
    }
    fn apply(
        &self,
        state: &mut GameState,
        action: &Action,
    ) -> Result<Result<(), Illegal>, RulesError> {
        (**self).apply(state, action)
    }
    fn hook(&self, state: &mut GameState, event: &HookEvent) -> Result<(), RulesError> {
        (**self).hook(state, event)
    }
    fn outcome(&self, state: &GameState) -> Result<Option<Outcome>, RulesError> {
        (**self).outcome(state)
    }
}
