//! Bot games: play one game to its end, or a series of them, summarise and print them.
//!
//! Everything here is generic over [`Rules`], so it runs the Lua rules of a mod and the Rust
//! test doubles alike. A game that does not end within the step cap is an error (a rules bug
//! such as a phase nobody can end), never an endless loop. [`play_game_with`] does no printing
//! and no file I/O; [`play_series`] and [`write_series`] are `hexforge play`'s loop and output,
//! shared by the CLI and the editor's headless fallback so both print the same.
//!
//! ```ignore
//! let state = GameState::new(locks, "default", Value::Null, 42);
//! let (game, report) = play_bot_game(rules, state, &PlayOptions::default())?;
//! println!("{} in {} actions", report.result_line(), report.actions);
//! ```

use crate::bot::RandomBot;
use crate::mcts::{MctsBot, MctsOptions};
use crate::record::{SaveFile, save};
use crate::{
    Action, Game, GameState, LogEntry, ModLock, Outcome, PerformError, Rules, RulesError,
    SaveError, SideId, Value, state_hash,
};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

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

    /// Checks that every bot named is `random`, `mcts` (with valid options) or one of `have` (a
    /// mod's bots), before any game starts.
    ///
    /// # Errors
    /// The first unknown bot: "no bot named `x` (this mod has: random, mcts, greedy)", or bad
    /// search options.
    pub fn check(&self, have: &[String]) -> Result<(), String> {
        for bot in std::iter::once(&self.default).chain(self.sides.values()) {
            if search_options(bot)?.is_some() {
                continue;
            }
            let name = bot_name(bot);
            if name != RANDOM && !have.iter().any(|h| h == name) {
                return Err(format!(
                    "no bot named `{name}` (this mod has: random, mcts{})",
                    have.iter().map(|b| format!(", {b}")).collect::<String>()
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

impl std::fmt::Display for BotSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.sides.is_empty() {
            return write!(f, "{} bots", self.default);
        }
        let sides: Vec<String> = self.sides.iter().map(|(s, b)| format!("{s}={b}")).collect();
        write!(f, "bots {} (others {})", sides.join(", "), self.default)
    }
}

/// Asks a mod's named bot for a choice: `(state, bot, side, legal) -> index into legal`.
pub type NamedBot<'a> =
    &'a dyn Fn(&GameState, &str, &SideId, &[Action]) -> Result<usize, RulesError>;

/// The bots of a game: who plays which side, and how to reach the mod's own bots.
#[derive(Clone, Copy, Default)]
pub struct Bots<'a> {
    /// Who plays which side.
    pub spec: Option<&'a BotSpec>,
    /// The mod's bots (`None`: only `random` exists).
    pub named: Option<NamedBot<'a>>,
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
    let mut searchers = Searchers {
        seed,
        bots: BTreeMap::new(),
    };
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
/// seed and its side ([`MctsBot::for_game`]).
struct Searchers {
    seed: u64,
    bots: BTreeMap<SideId, MctsBot>,
}

impl Searchers {
    /// `side`'s search bot with `options` (made at its first move).
    fn get(&mut self, side: &SideId, options: MctsOptions) -> &mut MctsBot {
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
        let Some(named) = bots.named else {
            return Err(RulesError::new(format!(
                "no bot named {bot:?}: only `random` and `mcts` are available here"
            )));
        };
        let i = named(game.state(), bot, side, &actions)?;
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

/// What every game of a series starts from.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// The mod's display name.
    pub title: String,
    /// The mods, with content hashes (stored in saves).
    pub mods: Vec<ModLock>,
    /// The scenario id.
    pub scenario: String,
    /// Scenario options.
    pub options: Value,
}

impl GameSetup {
    /// The starting state of the game with `seed`.
    #[must_use]
    pub fn state(&self, seed: u64) -> GameState {
        GameState::new(
            self.mods.clone(),
            &self.scenario,
            self.options.clone(),
            seed,
        )
    }
}

/// A series of bot games as `hexforge play` runs it: which seeds, the step cap, and what to
/// write. The defaults are `hexforge play`'s.
#[derive(Clone, Debug)]
pub struct SeriesOptions {
    /// The first game's seed; the others play `seed+1`, `seed+2`, ...
    pub seed: u64,
    /// How many games.
    pub games: u64,
    /// The bots, as the summary names them.
    pub bots: BotSpec,
    /// Write each game to this save file (meant for a single game).
    pub save: Option<PathBuf>,
    /// Write a single game's log.
    pub log: bool,
    /// Write a JSON summary instead of text.
    pub json: bool,
    /// Give up on a game after this many bot moves.
    pub max_steps: usize,
}

impl Default for SeriesOptions {
    fn default() -> Self {
        SeriesOptions {
            seed: 1,
            games: 1,
            bots: BotSpec::default(),
            save: None,
            log: false,
            json: false,
            max_steps: PlayOptions::default().max_steps,
        }
    }
}

/// What a series played.
#[derive(Clone, Debug, Default)]
pub struct Series {
    /// Statistics over every game.
    pub tally: Tally,
    /// The last game's report (a single game's result is printed from it).
    pub last: Option<GameReport>,
}

/// Why a series stopped.
#[derive(Debug, thiserror::Error)]
pub enum SeriesError {
    /// A game failed or did not finish.
    #[error("game with seed {seed}")]
    Game {
        /// Its seed.
        seed: u64,
        /// What went wrong.
        #[source]
        error: PlayError,
    },
    /// The save file could not be written.
    #[error(transparent)]
    Save(#[from] SaveError),
    /// Writing the output failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The JSON summary could not be formed.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

/// Plays `opts.games` bot games with rules from `make_rules` (one value per game; games may
/// share one through `&R`), seeds `opts.seed..`, saving and writing the single game's log to
/// `out` as asked. `after_game` runs after each game (a progress bar).
///
/// # Errors
/// The first game that fails or does not finish (naming its seed), or an I/O error.
pub fn play_series<R: Rules>(
    mut make_rules: impl FnMut() -> R,
    setup: &GameSetup,
    opts: &SeriesOptions,
    bots: Bots<'_>,
    out: &mut dyn Write,
    mut after_game: impl FnMut(),
) -> Result<Series, SeriesError> {
    let options = PlayOptions {
        max_steps: opts.max_steps,
        // Only a single game's report shows its hash.
        state_hash: opts.games == 1,
    };
    let mut series = Series::default();
    for i in 0..opts.games {
        let seed = opts.seed.wrapping_add(i);
        let start = Instant::now();
        let rules = make_rules();
        let (game, report) = play_game_with(rules, setup.state(seed), &options, bots)
            .map_err(|error| SeriesError::Game { seed, error })?;
        series.tally.add(&report, start.elapsed());
        series
            .tally
            .include_sides(game.state().sides.iter().map(|s| s.id.as_str()));
        if let Some(path) = &opts.save {
            save(path, &SaveFile::of(&game))?;
        }
        if opts.log && opts.games == 1 {
            print_log(&game.state().log, out)?;
        }
        after_game();
        series.last = Some(report);
    }
    Ok(series)
}

/// Writes a series' result as `hexforge play` prints it: one game's result line, or win rates
/// per side, average length and time per game (or the same as JSON).
///
/// # Errors
/// Writing failed.
pub fn write_series(
    setup: &GameSetup,
    opts: &SeriesOptions,
    series: &Series,
    out: &mut dyn Write,
) -> Result<(), SeriesError> {
    match (opts.games, &series.last) {
        (1, Some(report)) => print_one(setup, opts, report, out),
        _ => print_many(setup, opts, &series.tally, out),
    }
}

/// Writes a game log, one block per entry: the action, its dice, the lines the rules emitted.
///
/// # Errors
/// Writing failed.
pub fn print_log(log: &[LogEntry], out: &mut dyn Write) -> std::io::Result<()> {
    for entry in log {
        match &entry.action {
            None => writeln!(out, "#{} start", entry.index)?,
            Some(a) if a.params.is_null() => writeln!(out, "#{} {} {}", entry.index, a.side, a.id)?,
            Some(a) => writeln!(out, "#{} {} {} {}", entry.index, a.side, a.id, a.params)?,
        }
        for roll in &entry.rolls {
            let faces: Vec<String> = roll
                .dice
                .iter()
                .map(|d| d.face.clone().unwrap_or_else(|| d.value.to_string()))
                .collect();
            writeln!(
                out,
                "    roll {} {} = {} [{}]",
                roll.label,
                roll.expr,
                roll.total,
                faces.join(" ")
            )?;
        }
        for line in &entry.events {
            writeln!(out, "    {line}")?;
        }
    }
    Ok(())
}

fn print_one(
    setup: &GameSetup,
    opts: &SeriesOptions,
    report: &GameReport,
    out: &mut dyn Write,
) -> Result<(), SeriesError> {
    if opts.json {
        let mut v = serde_json::to_value(report)?;
        v["mod"] = setup.title.clone().into();
        v["saved"] = opts.save.as_ref().map(|p| p.display().to_string()).into();
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        return Ok(());
    }
    writeln!(
        out,
        "{} (scenario {}, seed {}): {}",
        setup.title,
        report.scenario,
        report.seed,
        report.result_line()
    )?;
    writeln!(
        out,
        "rounds {}, actions {}, state {}",
        report.rounds, report.actions, report.state_hash
    )?;
    if let Some(path) = &opts.save {
        writeln!(out, "saved to {}", path.display())?;
    }
    Ok(())
}

fn print_many(
    setup: &GameSetup,
    opts: &SeriesOptions,
    tally: &Tally,
    out: &mut dyn Write,
) -> Result<(), SeriesError> {
    let summary = tally.summary();
    if opts.json {
        let mut v = serde_json::to_value(&summary)?;
        v["mod"] = setup.title.clone().into();
        v["scenario"] = setup.scenario.clone().into();
        v["first_seed"] = opts.seed.into();
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        return Ok(());
    }
    writeln!(
        out,
        "{} games of {} (scenario {}, seeds {}..={}), {}",
        summary.games,
        setup.title,
        setup.scenario,
        opts.seed,
        opts.seed.wrapping_add(opts.games - 1),
        opts.bots
    )?;
    let width = summary
        .wins
        .keys()
        .map(String::len)
        .max()
        .unwrap_or(0)
        .max(5);
    for (side, wins) in &summary.wins {
        let rate = summary.win_rates.get(side).copied().unwrap_or(0.0) * 100.0;
        writeln!(out, "  {side:width$} {wins:6} wins {rate:5.1}%")?;
    }
    #[allow(clippy::cast_precision_loss)]
    let draw_rate = summary.draws as f64 * 100.0 / summary.games.max(1) as f64;
    writeln!(
        out,
        "  {:width$} {:6}      {draw_rate:5.1}%",
        "draws", summary.draws
    )?;
    writeln!(
        out,
        "average {:.1} actions, {:.1} rounds; {:.2} ms per game",
        summary.avg_actions, summary.avg_rounds, summary.ms_per_game
    )?;
    Ok(())
}
