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

    /// The error of [`Rules::pick_legal`] when `pick` answers `index` for a list of `len`.
    #[must_use]
    pub fn pick_out_of_range(index: usize, len: usize) -> Self {
        RulesError::new(format!(
            "pick: index {index} is out of range for {len} legal actions"
        ))
    }
}

/// `pick(n)`, checked to be below `n`: how [`Rules::pick_legal`] implementations ask for the
/// index.
///
/// # Errors
/// [`RulesError::pick_out_of_range`] when the answer is not below `n`.
pub fn pick_index(pick: &mut dyn FnMut(usize) -> usize, n: usize) -> Result<usize, RulesError> {
    let i = pick(n);
    if i < n {
        Ok(i)
    } else {
        Err(RulesError::pick_out_of_range(i, n))
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

    /// The limits on what the state may hold (see [`crate::size`]). [`crate::Game`] keeps the
    /// total; the rules charge what each action writes against `per_action` themselves.
    fn state_limits(&self) -> crate::StateLimits {
        crate::StateLimits::default()
    }

    /// What the last action (its apply and hooks) wrote into the state, in bytes as saved, when
    /// the rules count it: an upper bound of how much the state grew, which spares
    /// [`crate::Game`] measuring the whole state after every action. `None`: not counted.
    fn written_last(&self) -> Option<usize> {
        None
    }

    /// Fills a fresh state (sides, board, pieces) from `state.scenario` and `state.options`.
    ///
    /// # Errors
    /// A fault in the rules or scenario.
    fn setup(&self, state: &mut GameState) -> Result<(), RulesError>;

    /// The actions `side` could take now (the engine adds `end_phase` itself).
    ///
    /// The contract with [`Rules::check`]: every listed action passes `check` on the same state.
    /// The engine relies on it: an action picked from a listing ([`crate::Game::pick_legal_action`])
    /// and performed on the state it was listed for is not checked again. `apply` may still
    /// refuse it.
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
        if state.clock.end_phase_refused().is_none() && self.check(state, &end)?.is_ok() {
            out.push(end);
        }
        Ok(out)
    }

    /// One action of [`Rules::legal_actions_and_end`]'s list, chosen by index: the rules call
    /// `pick(n)` once with the list's length `n` and return the action at the index it answers.
    /// When the list is empty, `Ok(None)` without calling `pick`.
    ///
    /// For callers that use one action of a long list (a random bot). Why a callback and not an
    /// index: the caller must know `n` before it can choose, and rules that convert actions one
    /// by one (Lua tables into [`Action`]s) can then count them all but convert only the picked
    /// one. Overrides must answer exactly what indexing the full list answers.
    ///
    /// # Errors
    /// A fault in the rules, or an index from `pick` that is not below `n`
    /// ([`RulesError::pick_out_of_range`]).
    fn pick_legal(
        &self,
        state: &GameState,
        side: &SideId,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Result<Option<Action>, RulesError> {
        let mut all = self.legal_actions_and_end(state, side)?;
        if all.is_empty() {
            return Ok(None);
        }
        let i = pick_index(pick, all.len())?;
        Ok(Some(all.swap_remove(i)))
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

    /// How good `state` looks for `side`, from 0 (lost) to 1 (won): the rules' own heuristic
    /// (a mod's `game.evaluate`), which search bots ([`crate::mcts`]) score a simulation with
    /// when they cut it short. Read-only, like [`Rules::outcome`]. `None` (the default): the
    /// rules have no heuristic, and simulations play on to the end of the game.
    ///
    /// # Errors
    /// A fault in the rules, or an answer outside 0..=1.
    fn evaluate(&self, state: &GameState, side: &SideId) -> Result<Option<f64>, RulesError> {
        let _ = (state, side);
        Ok(None)
    }

    /// Which of `legal` (the legal actions of `side`, `end_phase` included) the rules' own bot
    /// named `bot` would take, as an index (a mod's `game.bots.<bot>`): what `--bots greedy`
    /// plays, and what a search bot guided by it ([`crate::mcts`], `guide=greedy`) plays its
    /// simulations with. Read-only, like [`Rules::evaluate`]. `None` (the default): the rules
    /// have no bots.
    ///
    /// # Errors
    /// No bot of that name (the message names the ones there are), the bot failed, or it
    /// answered something other than an index into `legal`.
    fn bot_pick(
        &self,
        state: &GameState,
        bot: &str,
        side: &SideId,
        legal: &[Action],
    ) -> Result<Option<usize>, RulesError> {
        let _ = (state, bot, side, legal);
        Ok(None)
    }
}

// Why these two: a `Game` owns its rules, but replays, comparisons and sessions often want to
// run several games over one set of rules (e.g. one Lua VM) without wrapper types.
impl<R: Rules + ?Sized> Rules for &R {
    fn written_last(&self) -> Option<usize> {
        (**self).written_last()
    }
    fn turn_structure(&self) -> &TurnStructure {
        (**self).turn_structure()
    }
    fn state_limits(&self) -> crate::StateLimits {
        (**self).state_limits()
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
    fn pick_legal(
        &self,
        state: &GameState,
        side: &SideId,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Result<Option<Action>, RulesError> {
        (**self).pick_legal(state, side, pick)
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
    fn evaluate(&self, state: &GameState, side: &SideId) -> Result<Option<f64>, RulesError> {
        (**self).evaluate(state, side)
    }
    fn bot_pick(
        &self,
        state: &GameState,
        bot: &str,
        side: &SideId,
        legal: &[Action],
    ) -> Result<Option<usize>, RulesError> {
        (**self).bot_pick(state, bot, side, legal)
    }
}

impl<R: Rules + ?Sized> Rules for Box<R> {
    fn written_last(&self) -> Option<usize> {
        (**self).written_last()
    }
    fn turn_structure(&self) -> &TurnStructure {
        (**self).turn_structure()
    }
    fn state_limits(&self) -> crate::StateLimits {
        (**self).state_limits()
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
    fn pick_legal(
        &self,
        state: &GameState,
        side: &SideId,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Result<Option<Action>, RulesError> {
        (**self).pick_legal(state, side, pick)
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
    fn evaluate(&self, state: &GameState, side: &SideId) -> Result<Option<f64>, RulesError> {
        (**self).evaluate(state, side)
    }
    fn bot_pick(
        &self,
        state: &GameState,
        bot: &str,
        side: &SideId,
        legal: &[Action],
    ) -> Result<Option<usize>, RulesError> {
        (**self).bot_pick(state, bot, side, legal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::turn::{Actor, PhaseSpec};
    use serde_json::json;

    /// Rules whose listing is `moves` moves plus `end_phase` when `may_end`; nothing else is
    /// used by `pick_legal`'s default.
    struct Listing {
        turns: TurnStructure,
        moves: usize,
        may_end: bool,
    }

    impl Listing {
        fn new(moves: usize, may_end: bool) -> Self {
            Listing {
                turns: TurnStructure::fixed(
                    &["blue"],
                    vec![PhaseSpec::turn("move", Actor::Active)],
                ),
                moves,
                may_end,
            }
        }
    }

    impl Rules for Listing {
        fn turn_structure(&self) -> &TurnStructure {
            &self.turns
        }
        fn setup(&self, _: &mut GameState) -> Result<(), RulesError> {
            Ok(())
        }
        fn legal_actions(&self, _: &GameState, side: &SideId) -> Result<Vec<Action>, RulesError> {
            Ok((0..self.moves)
                .map(|i| Action::new("move", side.clone(), json!({ "n": i })))
                .collect())
        }
        fn check(&self, _: &GameState, a: &Action) -> Result<Result<(), Illegal>, RulesError> {
            Ok(if a.is_end_phase() && !self.may_end {
                Err(Illegal::new("not yet"))
            } else {
                Ok(())
            })
        }
        fn apply(&self, _: &mut GameState, _: &Action) -> Result<Result<(), Illegal>, RulesError> {
            Ok(Ok(()))
        }
        fn hook(&self, _: &mut GameState, _: &HookEvent) -> Result<(), RulesError> {
            Ok(())
        }
        fn outcome(&self, _: &GameState) -> Result<Option<Outcome>, RulesError> {
            Ok(None)
        }
    }

    fn state() -> GameState {
        GameState::new(vec![], "test", serde_json::Value::Null, 1)
    }

    #[test]
    fn an_empty_list_picks_nothing_without_calling_pick() {
        let rules = Listing::new(0, false);
        let blue = SideId::new("blue");
        let mut calls = 0;
        let got = rules.pick_legal(&state(), &blue, &mut |_| {
            calls += 1;
            0
        });
        assert_eq!(got, Ok(None));
        assert_eq!(calls, 0);
    }

    #[test]
    fn pick_sees_the_whole_length_and_gets_the_listed_action() {
        let blue = SideId::new("blue");
        for (moves, may_end) in [(0, true), (1, false), (3, true), (5, false)] {
            let rules = Listing::new(moves, may_end);
            let all = rules.legal_actions_and_end(&state(), &blue).unwrap();
            for i in 0..all.len() {
                let mut seen = Vec::new();
                // Through `&R` too: the forwarding impls must not fall back to anything else.
                let by_ref: &Listing = &rules;
                let got = Rules::pick_legal(&by_ref, &state(), &blue, &mut |n| {
                    seen.push(n);
                    i
                })
                .unwrap();
                assert_eq!(seen, vec![all.len()]);
                assert_eq!(got.as_ref(), Some(&all[i]), "{moves} moves, pick {i}");
            }
        }
    }

    #[test]
    fn an_index_past_the_end_is_an_error_not_a_panic() {
        let rules = Listing::new(2, true);
        let got = rules.pick_legal(&state(), &SideId::new("blue"), &mut |n| n);
        assert_eq!(got, Err(RulesError::pick_out_of_range(3, 3)));
        assert_eq!(
            got.unwrap_err().to_string(),
            "pick: index 3 is out of range for 3 legal actions"
        );
    }
}
