//! What the bot has seen of the other sides' play: how often their choices were its guide's.
//!
//! A guided search plays the other sides' moves in its simulations as the guide would. Against a
//! player who plays like the guide that is the right model; against one who does not (a
//! random player, a person trying something new) the search waits for an approach that never
//! comes, keeps its distance and loses on points. `model=seen` ([`super::Model::Seen`]) lets
//! the search learn which it faces: at each decision it replays the actions played since its
//! last one, from the state it searched then, and asks the guide what it would have chosen at
//! each of the other sides' choices. The share of the other sides' moves its simulations give
//! the guide (the rest random, in the tree and in the playouts) is then the share of those
//! choices the guide would have made, less what a random player would have matched by chance.
//!
//! Honest: the actions replayed are the game's past (every side sees them played), and the
//! dice of the replay are the ones the game has already rolled for them.

use crate::game::step_unlogged;
use crate::{Action, GameState, Rules, RulesError, SideId};

/// The agreements with the guide assumed before any choice is seen (see [`Watch::share`]).
const ASSUMED: f64 = 2.0;

/// The other sides' choices seen so far, and the state to replay the next ones from.
#[derive(Clone, Debug, Default)]
pub(crate) struct Watch {
    /// The real state at the bot's last decision (its dice included) and the actions of its
    /// log then: the next decision's log must start with them (after an undo and other
    /// actions in their place, the replay would be of another game: it is skipped).
    last: Option<(GameState, Vec<Option<Action>>)>,
    /// Choices of the other sides seen, among two or more legal actions.
    weighed: u32,
    /// How many of them were the guide's choice.
    agreed: u32,
    /// How many of them a uniformly random player would have matched the guide in, on
    /// average: the sum of 1/(legal actions) over the choices weighed.
    chance: f64,
}

impl Watch {
    /// Replays the actions played since the last call, from the state of the last call, and
    /// counts which of the other sides' choices (not `me`'s) were the one `guide` picks; then
    /// keeps `state` for the next call.
    ///
    /// # Errors
    /// A fault in the rules or the guide.
    pub(crate) fn observe<R: Rules + ?Sized>(
        &mut self,
        rules: &R,
        state: &GameState,
        me: &SideId,
        guide: &str,
    ) -> Result<(), RulesError> {
        if let Some((mut replay, history)) = self.last.take()
            && super::goes_on_from(state, &history)
        {
            for action in state.log[history.len()..].iter().map(|e| e.action.as_ref()) {
                let Some(action) = action else { break };
                if action.side != *me {
                    self.weigh(rules, &replay, action, guide)?;
                }
                if step_unlogged(rules, &mut replay, action).is_err() {
                    break;
                }
            }
        }
        self.last = Some((state.clone_without_log(), super::history(state)));
        Ok(())
    }

    /// Counts one choice of another side: `action`, played in `state`.
    fn weigh<R: Rules + ?Sized>(
        &mut self,
        rules: &R,
        state: &GameState,
        action: &Action,
        guide: &str,
    ) -> Result<(), RulesError> {
        let legal = rules.legal_actions_and_end(state, &action.side)?;
        let Some(played) = legal.iter().position(|a| a == action) else {
            return Ok(());
        };
        if legal.len() < 2 {
            return Ok(());
        }
        self.weighed += 1;
        #[allow(clippy::cast_precision_loss)]
        let by_chance = 1.0 / legal.len() as f64;
        self.chance += by_chance;
        if rules.bot_pick(state, guide, &action.side, &legal)? == Some(played) {
            self.agreed += 1;
        }
        Ok(())
    }

    /// The chance that another side's move in a simulation is the guide's: the share of
    /// their choices seen that were the guide's beyond what chance would match, `(agreed -
    /// chance + 2) / (weighed - chance + 2)`. Two agreements are assumed before any choice is
    /// seen, so the bot starts out expecting the guide's play (as without a model) and needs a
    /// few choices that are not the guide's to expect anything else.
    pub(crate) fn share(&self) -> f64 {
        let agreed = f64::from(self.agreed) - self.chance;
        let weighed = f64::from(self.weighed) - self.chance;
        ((agreed + ASSUMED) / (weighed + ASSUMED)).clamp(0.0, 1.0)
    }

    /// The choices seen and how many were the guide's.
    #[cfg(test)]
    pub(crate) fn counts(&self) -> (u32, u32) {
        (self.weighed, self.agreed)
    }
}
