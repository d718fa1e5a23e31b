//! The random bot: picks uniformly among the legal actions of a waiting side.
//!
//! Its choices come from a core [`DiceRoller`] seeded from the game seed, so the same seed gives
//! the same game. It deliberately has no strategy and no lookahead: it exists to drive games to
//! their end (playtesting, determinism checks, balance statistics), not to play well.
//!
//! ```
//! use hexforge_game::bot::RandomBot;
//! let mut a = RandomBot::for_game(7);
//! let mut b = RandomBot::for_game(7);
//! let picks_a: Vec<_> = (0..10).map(|_| a.pick(6)).collect();
//! let picks_b: Vec<_> = (0..10).map(|_| b.pick(6)).collect();
//! assert_eq!(picks_a, picks_b);
//! assert!(picks_a.iter().all(|p| p.is_some_and(|i| i < 6)));
//! assert_eq!(a.pick(0), None);
//! ```

use crate::{Action, Game, Rules, RulesError, SideId};
use hexforge_core::dice::{DiceRoller, MAX_SIDES};

/// Mixed into the game seed to seed the bot.
///
/// Why: the game's own dice are a `DiceRoller` keyed by the same seed; sharing the stream would
/// make the bot's choices mirror the dice (e.g. always attack after a low roll). A different key
/// gives an independent stream that is still a pure function of the seed.
const BOT_SALT: u64 = 0xB07_5EED_C0FF_EE00;

/// A bot that picks uniformly at random, reproducibly.
#[derive(Clone, Debug)]
pub struct RandomBot {
    dice: DiceRoller,
}

impl RandomBot {
    /// The bot for a game started with `seed`.
    #[must_use]
    pub fn for_game(seed: u64) -> Self {
        RandomBot {
            dice: DiceRoller::new(seed ^ BOT_SALT),
        }
    }

    /// A uniform index in `0..n`, or `None` when `n` is 0.
    pub fn pick(&mut self, n: usize) -> Option<usize> {
        if n == 0 {
            return None;
        }
        let max = MAX_SIDES as usize;
        let index = if n <= max {
            self.draw(n)
        } else {
            // More choices than a die may have sides: draw two "digits" in base MAX_SIDES and
            // reject the combinations past the end, which keeps the choice uniform.
            loop {
                let high = self.draw(n.div_ceil(max));
                let low = self.draw(max);
                let i = high.saturating_mul(max).saturating_add(low);
                if i < n {
                    break i;
                }
            }
        };
        Some(index)
    }

    /// A uniform index in `0..n` for `1 <= n <= MAX_SIDES`.
    fn draw(&mut self, n: usize) -> usize {
        let sides = u32::try_from(n).unwrap_or(MAX_SIDES).clamp(1, MAX_SIDES);
        // The bot's draws are not part of any game log: nothing is recorded.
        let value = self.dice.unrecorded_die(sides);
        usize::try_from(value - 1).unwrap_or(0)
    }

    /// Chooses a waiting side and one of its legal actions; `None` if nobody is waiting.
    ///
    /// # Errors
    /// A fault in the rules while listing actions.
    pub fn choose<R: Rules>(&mut self, game: &Game<R>) -> Result<Option<Action>, RulesError> {
        let waiting: Vec<SideId> = game.waiting();
        let Some(side) = self.pick(waiting.len()).map(|i| &waiting[i]) else {
            return Ok(None);
        };
        let actions = game.legal_actions(side)?;
        Ok(self.pick(actions.len()).map(|i| actions[i].clone()))
    }
}
