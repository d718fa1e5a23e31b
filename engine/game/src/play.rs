//! Bot games: play one game to its end, or a series of them, summarise and print them.
//!
//! Everything here is generic over [`Rules`], so it runs the Lua rules of a mod and the Rust
//! test doubles alike. A game that does not end within the step cap is an error (a rules bug
//! such as a phase nobody can end), never an endless loop. [`play_game_with`] does no printing
//! and no file I/O; series of games ([`play_series`], [`write_series`], [`Tally`]) live in
//! [`crate::series`] and are re-exported here.
//!
//! ```ignore
//! let state = GameState::new(locks, "default", Value::Null, 42);
//! let (game, report) = play_bot_game(rules, state, &PlayOptions::default())?;
//! println!("{} in {} actions", report.result_line(), report.actions);
//! ```

use crate::bot::RandomBot;
use crate::mcts::{MctsBot, MctsOptions};
use crate::{
    Action, Game, GameState, Outcome, PerformError, Rules, RulesError, SideId, state_hash,
};
use serde::Serialize;
use std::collections::BTreeMap;

pub use crate::series::{
    GameSetup, Series, SeriesError, SeriesOptions, Tally, TallySummary, play_series,
    play_series_with, print_log, write_series,
};

/// Limits for a bot game.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// At most this many bot moves (accepted or refused) before the game counts as stuck.
    pub max_steps: usize,
    /// Whether the report carries the final state's hash. Why optional: hashing writes the whole
    /// state and log as canonical JSON (a few percent of a short game), and statistics over
    /// many games never show it.
    pub state_hash: bool,
}

impl Default for PlayOptions {
    fn default() -> Self {
        PlayOptions {
            max_steps: 100_000,
            state_hash: true,
        }
    }
}

/// Which bot plays which side: `random`, the search bot `mcts` with its options
/// (`mcts:ms=500`, `mcts:iters=300:horizon=30`; see [`crate::mcts::MctsOptions`]), a mod's bot
/// name (`greedy`), or per side (`blue=mcts:ms=200,red=greedy`; sides not named play the
/// default, `random` unless an entry without `=` sets another). Each bot is kept as written
/// (`mcts:ms=200`); [`bot_name`] is its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSpec {
    /// The bot of every side not listed in `sides`.
    pub default: String,
    /// Per-side bots.
    pub sides: BTreeMap<String, String>,
}

impl Default for BotSpec {
    fn default() -> Self {
        BotSpec {
            default: RANDOM.to_owned(),
            sides: BTreeMap::new(),
        }
    }
}

/// The built-in bot's name.
pub const RANDOM: &str = "random";

/// The search bot's name ([`crate::mcts`]), built in like `random`.
pub const MCTS: &str = "mcts";

/// A bot's name without its options: `mcts` for `mcts:ms=500`.
#[must_use]
pub fn bot_name(bot: &str) -> &str {
    bot.split_once(':').map_or(bot, |(name, _)| name).trim()
}

/// The search bot's options when `bot` is the search bot (`mcts`, `mcts:iters=300`), `None`
/// for any other bot.
///
/// # Errors
/// Bad options, or options given to a bot other than `mcts`.
pub fn search_options(bot: &str) -> Result<Option<MctsOptions>, String> {
    let (name, options) = bot.split_once(':').unwrap_or((bot, ""));
    if name.trim() == MCTS {
        return options.parse().map(Some);
    }
    if bot.contains(':') {
        return Err(format!(
            "`{bot}`: only the search bot takes options (`mcts:ms=500`); `{}` takes none",
            name.trim()
        ));
    }
    Ok(None)
}

impl BotSpec {
    /// The bot playing `side`.
    #[must_use]
    pub fn for_side(&self, side: &str) -> &str {
        self.sides
            .get(side)
            .map_or(self.default.as_str(), String::as_str)
    }

    /// Whether every side plays the built-in random bot.
    #[must_use]
    pub fn all_random(&self) -> bool {
        self.default == RANDOM && self.sides.values().all(|b| b == RANDOM)
    }

    /// Checks that every bot named is `random`, `mcts` (with valid options, its guide one of
    /// `have`) or one of `have` (a mod's bots), before any game starts.
    ///
    /// # Errors
    /// The first unknown bot: "no bot named `x` (this mod has: random, mcts, greedy)", an
    /// unknown guide ("mcts:guide=x: ..."), or bad search options.
    pub fn check(&self, have: &[String]) -> Result<(), String> {
        let mine = |name: &str| have.iter().any(|h| h == name);
        let listed = || have.iter().map(|b| format!(", {b}")).collect::<String>();
        for bot in std::iter::once(&self.default).chain(self.sides.values()) {
            if let Some(options) = search_options(bot)? {
                match options.guide {
                    Some(guide) if !mine(&guide) => {
                        return Err(format!(
                            "`{bot}`: the guide must be one of the mod's own bots, and it has no \
                             bot named `{guide}` (it has: {})",
                            if have.is_empty() {
                                "none; play without a guide".to_owned()
                            } else {
                                have.join(", ")
                            }
                        ));
                    }
                    _ => continue,
                }
            }
            let name = bot_name(bot);
            if name != RANDOM && !mine(name) {
                return Err(format!(
                    "no bot named `{name}` (this mod has: random, mcts{})",
                    listed()
                ));
            }
        }
        Ok(())
    }
}

impl std::str::FromStr for BotSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let mut spec = BotSpec::default();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let valid = |name: &str| {
                !name.is_empty()
                    && name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            };
            // A side's entry is `side=bot`; the search bot's options have `=` too
            // (`mcts:ms=500`), so the side is what comes before the first `=` only when no `:`
            // comes before it.
            let side_entry = match (part.find('='), part.find(':')) {
                (Some(eq), Some(colon)) if colon < eq => None,
                (Some(eq), _) => Some((&part[..eq], &part[eq + 1..])),
                (None, _) => None,
            };
            let (side, bot) = match side_entry {
                Some((side, bot)) => (Some(side.trim()), bot.trim()),
                None => (None, part),
            };
            if !valid(bot_name(bot)) || side.is_some_and(|s| !valid(s)) {
                return Err(format!(
                    "`{part}` is not a bot: write `random`, `mcts` (with options such as \
                     `mcts:ms=500` or `mcts:iters=300`), a bot of the mod such as `greedy`, or \
                     per side `blue=greedy,red=random` or `blue=mcts:ms=200,red=greedy`"
                ));
            }
            search_options(bot)?;
            match side {
                Some(side) => {
                    spec.sides.insert(side.to_owned(), bot.to_owned());
                }
                None => spec.default = bot.to_owned(),
            }
        }
        Ok(spec)
    }
}

impl BotSpec {
    /// The spec as `--bots` takes it, parsing back to the same spec: `greedy`,
    /// `blue=mcts:ms=200,red=greedy` (the default last, only when it is not `random`).
    #[must_use]
    pub fn as_arg(&self) -> String {
        let mut parts: Vec<String> = self.sides.iter().map(|(s, b)| format!("{s}={b}")).collect();
        if self.sides.is_empty() || self.default != RANDOM {
            parts.push(self.default.clone());
        }
        parts.join(",")
    }
}

/// As its `--bots` text ([`BotSpec::as_arg`]), so a JSONL line can be read back.
impl Serialize for BotSpec {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.as_arg())
    }
}

impl<'de> serde::Deserialize<'de> for BotSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        <String as serde::Deserialize>::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

impl std::fmt::Display for BotSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.sides.is_empty() {
            return write!(f, "{} bots", self.default);
        }
        let sides: Vec<String> = self.sides.iter().map(|(s, b)| format!("{s}={b}")).collect();
        write!(f, "bots {} (others {})", sides.join(", "), self.default)
    }
}

/// The bots of a game: who plays which side. A bot that is neither `random` nor `mcts` is the
/// rules' own ([`Rules::bot_pick`]).
#[derive(Clone, Copy, Default)]
pub struct Bots<'a> {
    /// Who plays which side (`None`: `random` everywhere).
    pub spec: Option<&'a BotSpec>,
}

/// Why a bot game failed.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// Setup or the first hooks failed.
    #[error("the game could not start: {0}")]
    Start(PerformError),
    /// The rules failed while listing actions.
    #[error("listing the legal actions failed: {0}")]
    Listing(RulesError),
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
    /// A side must act but the rules offer it nothing, not even `end_phase`: the game cannot go
    /// on (a rules bug: a phase nobody can end).
    #[error(
        "{side} must act (round {round}, phase {phase}) but has no legal action, not even end_phase"
    )]
    Stuck {
        /// The side.
        side: String,
        /// The round.
        round: u32,
        /// The phase id.
        phase: String,
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
    /// [`state_hash`] of the final state (empty when [`PlayOptions::state_hash`] is off).
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
    play_game_with(rules, state, options, Bots::default())
}

/// Plays a game to its end with the given bots: a waiting side is drawn at random (seeded), then
/// its bot picks one of its legal actions.
///
/// # Errors
/// As [`play_bot_game`]; a named bot that fails or does not exist is [`PlayError::Listing`].
pub fn play_game_with<R: Rules>(
    rules: R,
    state: GameState,
    options: &PlayOptions,
    bots: Bots<'_>,
) -> Result<(Game<R>, GameReport), PlayError> {
    let seed = state.seed;
    let mut game = Game::new(rules, state).map_err(PlayError::Start)?;
    // Bots never undo: keeping a snapshot per action would only cost memory (hundreds of
    // states in a long game).
    game.set_undo_limit(0);
    let mut bot = RandomBot::for_game(seed);
    let mut searchers = Searchers::new(seed);
    let mut refused = 0;
    let mut finished = game.state().outcome.is_some();
    for step in 0..options.max_steps {
        if finished {
            break;
        }
        let action =
            match choose(&mut bot, &mut searchers, &game, bots).map_err(PlayError::Listing)? {
                Choice::Act(action) => action,
                Choice::NobodyWaits => {
                    return Err(PlayError::NobodyActs {
                        round: game.state().clock.round,
                    });
                }
                Choice::NothingLegal(side) => {
                    let state = game.state();
                    return Err(PlayError::Stuck {
                        side: side.to_string(),
                        round: state.clock.round,
                        phase: state
                            .phase_id(game.rules().turn_structure())
                            .unwrap_or("-")
                            .to_owned(),
                    });
                }
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
        state_hash: if options.state_hash {
            state_hash(state)
        } else {
            String::new()
        },
    };
    Ok((game, report))
}

/// What a bot move found.
enum Choice {
    /// The action to perform.
    Act(Action),
    /// No side is waiting.
    NobodyWaits,
    /// This side is waiting but has no legal action.
    NothingLegal(SideId),
}

/// The search bots of one game, one per side that plays `mcts`, each seeded from the game
/// seed and its side ([`MctsBot::for_game`]): `hexforge play`'s and the editor's.
#[derive(Debug)]
pub struct Searchers {
    seed: u64,
    bots: BTreeMap<SideId, MctsBot>,
}

impl Searchers {
    /// No bot yet, for the game started with `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Searchers {
            seed,
            bots: BTreeMap::new(),
        }
    }

    /// `side`'s search bot with `options` (made at its first move).
    pub fn get(&mut self, side: &SideId, options: MctsOptions) -> &mut MctsBot {
        self.bots
            .entry(side.clone())
            .or_insert_with(|| MctsBot::for_game(options, self.seed, side))
    }
}

/// One bot move: a waiting side (random, seeded), then its bot's pick among its legal actions.
fn choose<R: Rules>(
    random: &mut RandomBot,
    searchers: &mut Searchers,
    game: &Game<R>,
    bots: Bots<'_>,
) -> Result<Choice, RulesError> {
    let waiting = game.waiting();
    let Some(first) = random.pick(waiting.len()) else {
        return Ok(Choice::NobodyWaits);
    };
    // The drawn side may have nothing to do yet while another waiting side can act (a teammate
    // must confirm an attack first): try the others in turn; stuck only if none can act.
    for k in 0..waiting.len() {
        let side = &waiting[(first + k) % waiting.len()];
        let bot = bots.spec.map_or(RANDOM, |s| s.for_side(side.as_str()));
        if bot == RANDOM {
            // Why not the full list: the random bot uses one action of it, and converting every
            // listed action (hundreds in some mods) was a good part of a game. The rules call
            // `pick` only when the side has something to do, so a side with nothing draws no
            // die, exactly as when the bot drew from the full list.
            let picked = game.pick_legal_action(side, &mut |n| random.pick(n).unwrap_or(0))?;
            if let Some(action) = picked {
                return Ok(Choice::Act(action));
            }
            continue;
        }
        if let Some(options) = search_options(bot).map_err(RulesError::new)? {
            match searchers.get(side, options).choose(game, side)? {
                Some(action) => return Ok(Choice::Act(action)),
                None => continue,
            }
        }
        let actions = game.legal_actions(side)?;
        if actions.is_empty() {
            continue;
        }
        let Some(i) = game.rules().bot_pick(game.state(), bot, side, &actions)? else {
            return Err(RulesError::new(format!(
                "no bot named {bot:?}: only `random` and `mcts` are available here"
            )));
        };
        return Ok(actions
            .get(i)
            .cloned()
            .map_or(Choice::NothingLegal(side.clone()), Choice::Act));
    }
    Ok(Choice::NothingLegal(waiting[first].clone()))
}

fn outcome_winners(outcome: &Outcome) -> Vec<String> {
    outcome.winners.iter().map(ToString::to_string).collect()
}
