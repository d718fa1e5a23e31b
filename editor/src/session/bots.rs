//! Bot moves in the editor, as the command line's bot games make them: a waiting side that a
//! bot plays (drawn at random, seeded), then its bot's pick: `random`, a mod's bot, or the
//! search bot `mcts`, whose thinking runs in slices so the window keeps drawing (and shows
//! how far it got) while it weighs a move.

use super::*;
use hexforge_game::mcts::Started;
use hexforge_game::play::search_options;
use std::time::Instant;

impl Session {
    /// One bot move, thinking as long as a search bot needs; see [`Session::bot_step_until`].
    ///
    /// # Errors
    /// As [`Session::bot_step_until`].
    pub fn bot_step(&mut self, bots: &BTreeMap<String, String>) -> Result<BotStep, SessionError> {
        self.bot_step_until(bots, None)
    }

    /// One bot move: among the waiting sides that a bot plays, one drawn at random (seeded;
    /// if it has nothing to do, the next one), then its bot's pick among its legal actions.
    /// `bots` maps side ids to a bot name (`random`, `mcts` with its options, or a mod bot); a
    /// side not in it, or set to `human`, is played by hand: when only such sides may act the
    /// answer is [`BotStep::Human`] and nothing changes. A search bot thinks until `until` at
    /// most ([`BotStep::Thinking`]: call again to go on, the same search); any change to the
    /// game in between starts it afresh.
    ///
    /// # Errors
    /// A fault in the rules or in a mod bot, or a bot's bad options; the game is unchanged.
    pub fn bot_step_until(
        &mut self,
        bots: &BTreeMap<String, String>,
        until: Option<Instant>,
    ) -> Result<BotStep, SessionError> {
        if self.game.state().outcome.is_some() {
            return Ok(BotStep::Over);
        }
        let bot_of = |side: &SideId| {
            bots.get(side.as_str())
                .filter(|b| b.as_str() != HUMAN)
                .cloned()
        };
        // A search under way goes on while the game is as it left it.
        let at = self.game.state().log.len();
        if let Some((job, started_at)) = self.thinking.take()
            && started_at == at
            && bot_of(job.side()).is_some_and(|b| b.starts_with(play::MCTS))
        {
            return self.think(job, bots, until);
        }
        let all_waiting = self.game.waiting();
        let waiting: Vec<SideId> = all_waiting
            .iter()
            .filter(|s| bot_of(s).is_some())
            .cloned()
            .collect();
        if waiting.is_empty() && !all_waiting.is_empty() {
            return Ok(BotStep::Human(all_waiting));
        }
        let Some(first) = self.random.pick(waiting.len()) else {
            return Ok(BotStep::Stuck(
                "nobody can act and the game is not over".into(),
            ));
        };
        let mut found = None;
        for k in 0..waiting.len() {
            let side = &waiting[(first + k) % waiting.len()];
            let actions = self.game.legal_actions(side)?;
            if !actions.is_empty() {
                found = Some((side.clone(), actions));
                break;
            }
        }
        let Some((side, actions)) = found else {
            return Ok(BotStep::Stuck(format!(
                "{} must act but has no legal action, not even end_phase",
                waiting[first]
            )));
        };
        let bot = bot_of(&side).unwrap_or_else(|| RANDOM.to_owned());
        if let Some(options) = search_options(&bot).map_err(RulesError::new)? {
            let searcher = self.searchers.get(&side, options);
            return match searcher.start(self.game.rules(), self.game.state(), &side)? {
                Started::Done(search) => self.play_pick(search.choice, &bot),
                Started::Job(job) => self.think(job, bots, until),
            };
        }
        let i = if bot == RANDOM {
            self.random.pick(actions.len()).unwrap_or(0)
        } else {
            hexforge_script::bots::choose(
                self.game.rules(),
                self.game.state(),
                &bot,
                &side,
                &actions,
            )?
        };
        self.play_pick(actions.get(i).cloned(), &bot)
    }

    /// Goes on with a search bot's decision until `until` (or its budget) ends it.
    fn think(
        &mut self,
        mut job: Box<SearchJob>,
        bots: &BTreeMap<String, String>,
        until: Option<Instant>,
    ) -> Result<BotStep, SessionError> {
        let side = job.side().clone();
        let bot = bots.get(side.as_str()).cloned().unwrap_or_default();
        let options = search_options(&bot)
            .map_err(RulesError::new)?
            .unwrap_or_default();
        let searcher = self.searchers.get(&side, options);
        match searcher.work(self.game.rules(), &mut job, until)? {
            Some(search) => self.play_pick(search.choice, &bot),
            None => {
                let step = BotStep::Thinking {
                    side,
                    iterations: job.iterations(),
                    elapsed: job.elapsed(),
                };
                self.thinking = Some((job, self.game.state().log.len()));
                Ok(step)
            }
        }
    }

    /// Performs a bot's pick.
    fn play_pick(&mut self, pick: Option<Action>, bot: &str) -> Result<BotStep, SessionError> {
        let Some(action) = pick else {
            return Ok(BotStep::Stuck(format!("bot {bot} picked nothing")));
        };
        Ok(match self.perform(&action)? {
            Ok(()) => BotStep::Acted(action),
            Err(ill) => BotStep::Refused(action, ill),
        })
    }
}
