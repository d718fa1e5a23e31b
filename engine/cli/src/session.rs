//! Bot games: play one game to its end, or many, and summarise them.
//!
//! Everything here is generic over [`Rules`], so it runs the Lua rules of a mod and the Rust
//! test doubles alike. A game that does not end within the step cap is an error (a rules bug
//! such as a phase nobody can end), never an endless loop. This module deliberately does no
//! printing and no file I/O; the `play` command formats its results.
//!
//! ```ignore
//! let state = GameState::new(locks, "default", Value::Null, 42);
//! let (game, report) = play_bot_game(rules, state, &PlayOptions::default())?;
//! println!("{} in {} actions", report.result_line(), report.actions);
//! ```

use crate::bot::RandomBot;
use hexforge_game::{Action, Game, GameState, Outcome, PerformError, Rules, state_hash};
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Duration;

/// Limits for a bot game.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// At most this many bot moves (accepted or refused) before the game counts as stuck.
    pub max_steps: usize,
}

impl Default for PlayOptions {
    fn default() -> Self {
        PlayOptions { max_steps: 100_000 }
    }
}

/// Why a bot game failed.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// Setup or the first hooks failed.
    #[error("the game could not start: {0}")]
    Start(PerformError),
    /// The rules failed while listing actions.
    #[error("listing the legal actions failed: {0}")]
    Listing(hexforge_game::RulesError),
    /// An action failed with a rules or turn-engine fault.
    #[error("action {step} (`{}` by {}) failed: {error}", action.id, action.side)]
    Action {
        /// The bot step.
        step: usize,
        /// The action.
        action: Box<Action>,
        /// The fault.
        error: PerformError,
    },
    /// Nobody may act, yet the game has no outcome.
    #[error("nobody can act and the game is not over (round {round})")]
    NobodyActs {
        /// The round.
        round: u32,
    },
    /// The step cap was reached.
    #[error("the game did not finish within {steps} steps (round {round}, {actions} actions)")]
    Unfinished {
        /// The cap.
        steps: usize,
        /// The round reached.
        round: u32,
        /// Accepted actions.
        actions: usize,
    },
}

/// The result of one finished bot game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameReport {
    /// The seed.
    pub seed: u64,
    /// The scenario id.
    pub scenario: String,
    /// The winning side ids (empty = draw).
    pub winners: Vec<String>,
    /// Why the game ended.
    pub reason: String,
    /// The round the game ended in.
    pub rounds: u32,
    /// Accepted actions (including `end_phase`).
    pub actions: usize,
    /// Bot choices the rules refused at apply time (the state stayed as it was).
    pub refused: usize,
    /// [`state_hash`] of the final state.
    pub state_hash: String,
}

impl GameReport {
    /// "blue wins: red has no ships" / "draw: the turn limit has passed".
    #[must_use]
    pub fn result_line(&self) -> String {
        match self.winners.as_slice() {
            [] => format!("draw: {}", self.reason),
            [one] => format!("{one} wins: {}", self.reason),
            many => format!("{} win: {}", many.join(", "), self.reason),
        }
    }
}

/// Plays a game with random bots on every side until it ends.
///
/// The bot is seeded from `state.seed`, so the whole game is a pure function of the rules and the
/// starting state.
///
/// # Errors
/// See [`PlayError`]; a game still running after `options.max_steps` bot moves is
/// [`PlayError::Unfinished`].
pub fn play_bot_game<R: Rules>(
    rules: R,
    state: GameState,
    options: &PlayOptions,
) -> Result<(Game<R>, GameReport), PlayError> {
    let seed = state.seed;
    let mut game = Game::new(rules, state).map_err(PlayError::Start)?;
    let mut bot = RandomBot::for_game(seed);
    let mut refused = 0;
    let mut finished = game.state().outcome.is_some();
    for step in 0..options.max_steps {
        if finished {
            break;
        }
        let Some(action) = bot.choose(&game).map_err(PlayError::Listing)? else {
            return Err(PlayError::NobodyActs {
                round: game.state().clock.round,
            });
        };
        match game.perform(&action) {
            Ok(outcome) => finished = outcome.is_some(),
            // The rules may refuse a listed action after all (e.g. after a roll); the state is
            // unchanged and the bot simply chooses again.
            Err(PerformError::Illegal(_)) => refused += 1,
            Err(error) => {
                return Err(PlayError::Action {
                    step,
                    action: Box::new(action),
                    error,
                });
            }
        }
    }
    let state = game.state();
    let actions = state.log.len().saturating_sub(1);
    let Some(outcome) = state.outcome.clone() else {
        return Err(PlayError::Unfinished {
            steps: options.max_steps,
            round: state.clock.round,
            actions,
        });
    };
    let report = GameReport {
        seed,
        scenario: state.scenario.clone(),
        winners: outcome_winners(&outcome),
        reason: outcome.reason,
        rounds: state.clock.round,
        actions,
        refused,
        state_hash: state_hash(state),
    };
    Ok((game, report))
}

fn outcome_winners(outcome: &Outcome) -> Vec<String> {
    outcome.winners.iter().map(ToString::to_string).collect()
}

/// Statistics over many bot games.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Tally {
    /// Games played.
    pub games: usize,
    /// Games won per side id (a shared win counts for each winner).
    pub wins: BTreeMap<String, usize>,
    /// Games without a winner.
    pub draws: usize,
    /// Sum of accepted actions.
    pub total_actions: usize,
    /// Sum of rounds.
    pub total_rounds: u64,
    /// Wall time spent (for display only; never part of a result).
    #[serde(skip)]
    pub elapsed: Duration,
}

/// The machine-readable summary of a [`Tally`] (`hexforge play --games N --json`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TallySummary {
    /// Games played.
    pub games: usize,
    /// Wins per side id.
    pub wins: BTreeMap<String, usize>,
    /// Win rate per side id (0..1).
    pub win_rates: BTreeMap<String, f64>,
    /// Games without a winner.
    pub draws: usize,
    /// Mean accepted actions per game.
    pub avg_actions: f64,
    /// Mean rounds per game.
    pub avg_rounds: f64,
    /// Mean wall time per game in milliseconds.
    pub ms_per_game: f64,
}

impl Tally {
    /// Counts a finished game.
    pub fn add(&mut self, report: &GameReport, elapsed: Duration) {
        self.games += 1;
        if report.winners.is_empty() {
            self.draws += 1;
        }
        for w in &report.winners {
            *self.wins.entry(w.clone()).or_insert(0) += 1;
        }
        self.total_actions += report.actions;
        self.total_rounds += u64::from(report.rounds);
        self.elapsed += elapsed;
    }

    /// Makes sure every side appears in the win table, even with no wins.
    pub fn include_sides<'a>(&mut self, sides: impl IntoIterator<Item = &'a str>) {
        for s in sides {
            self.wins.entry(s.to_owned()).or_insert(0);
        }
    }

    /// Rates and averages. Floating point is fine here: it is display, not rules.
    #[must_use]
    #[allow(clippy::cast_precision_loss)]
    pub fn summary(&self) -> TallySummary {
        let n = self.games.max(1) as f64;
        TallySummary {
            games: self.games,
            wins: self.wins.clone(),
            win_rates: self
                .wins
                .iter()
                .map(|(k, &v)| (k.clone(), v as f64 / n))
                .collect(),
            draws: self.draws,
            avg_actions: self.total_actions as f64 / n,
            avg_rounds: self.total_rounds as f64 / n,
            ms_per_game: self.elapsed.as_secs_f64() * 1000.0 / n,
        }
    }
}

/// Rules borrowed by several games in turn (e.g. one loaded Lua rule set for `--games N`).
///
/// Why this is sound: rules hold no game state (the state is Rust-owned and handed to every
/// call), so games that share one rules value cannot see each other. The replay tests check it.
#[derive(Debug)]
pub struct Shared<'a, R: Rules>(pub &'a R);

impl<R: Rules> Rules for Shared<'_, R> {
    fn turn_structure(&self) -> &hexforge_game::TurnStructure {
        self.0.turn_structure()
    }
    fn setup(&self, state: &mut GameState) -> Result<(), hexforge_game::RulesError> {
        self.0.setup(state)
    }
    fn legal_actions(
        &self,
        state: &GameState,
        side: &hexforge_game::SideId,
    ) -> Result<Vec<Action>, hexforge_game::RulesError> {
        self.0.legal_actions(state, side)
    }
    fn check(
        &self,
        state: &GameState,
        action: &Action,
    ) -> Result<Result<(), hexforge_game::Illegal>, hexforge_game::RulesError> {
        self.0.check(state, action)
    }
    fn apply(
        &self,
        state: &mut GameState,
        action: &Action,
    ) -> Result<Result<(), hexforge_game::Illegal>, hexforge_game::RulesError> {
        self.0.apply(state, action)
    }
    fn hook(
        &self,
        state: &mut GameState,
        event: &hexforge_game::HookEvent,
    ) -> Result<(), hexforge_game::RulesError> {
        self.0.hook(state, event)
    }
    fn outcome(&self, state: &GameState) -> Result<Option<Outcome>, hexforge_game::RulesError> {
        self.0.outcome(state)
    }
}
