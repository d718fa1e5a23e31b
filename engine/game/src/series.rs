//! Series of bot games: `hexforge play --games N`'s loop ([`play_series`], or
//! [`play_series_with`] to see each game as it ends: `--jsonl`), its counts ([`Tally`]) and its
//! printed report ([`write_series`]), shared by the CLI and the editor's headless fallback so
//! both print the same.
//!
//! One game is [`crate::play`]'s; this module only repeats it over seeds (all of them, or a
//! [`Shard`]'s), counts and writes. The report itself is [`crate::balance`]'s, computed from
//! the games' rows, so `hexforge stats merge` prints the same from the shards' lines. It does no
//! file I/O of its own beyond the save file it is asked to write.

use crate::balance::{RuleSetReport, write_play};
use crate::play::{BotSpec, Bots, GameReport, PlayError, PlayOptions, play_game_with};
use crate::record::{SaveFile, save};
use crate::sweep::{Command, GameRow, Shard, Sweep};
use crate::{GameState, LogEntry, ModLock, Rules, SaveError, Value};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

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
    pub fn add(&mut self, row: &GameRow) {
        self.games += 1;
        if row.winners.is_empty() {
            self.draws += 1;
        }
        for w in &row.winners {
            *self.wins.entry(w.clone()).or_insert(0) += 1;
        }
        self.total_actions += row.actions;
        self.total_rounds += u64::from(row.rounds);
        self.elapsed += Duration::from_secs_f64(row.ms.max(0.0) / 1000.0);
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
    /// Play only this shard of the games' seeds ([`Shard::seeds`]).
    pub shard: Option<Shard>,
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
            shard: None,
            bots: BotSpec::default(),
            save: None,
            log: false,
            json: false,
            max_steps: PlayOptions::default().max_steps,
        }
    }
}

impl SeriesOptions {
    /// The sweep these options play: `hexforge play`'s, of `setup`'s mod and scenario (what
    /// each `--jsonl` line names, and the report's header).
    #[must_use]
    pub fn sweep(&self, setup: &GameSetup) -> Sweep {
        Sweep {
            command: Command::Play,
            rule_sets: vec![setup.title.clone()],
            scenario: setup.scenario.clone(),
            bots: self.bots.clone(),
            first_seed: self.seed,
            games: self.games,
        }
    }

    /// The seeds to play: all the requested ones, or the shard's.
    #[must_use]
    pub fn seeds(&self) -> std::ops::Range<u64> {
        match self.shard {
            Some(shard) => shard.seeds(self.seed, self.games),
            None => self.seed..self.seed.wrapping_add(self.games),
        }
    }

    /// Whether the result is one game's (its result line and hash), not a report.
    fn single(&self) -> bool {
        self.games == 1 && self.shard.is_none()
    }
}

/// What a series played.
#[derive(Clone, Debug, Default)]
pub struct Series {
    /// Statistics over every game.
    pub tally: Tally,
    /// Every game, in seed order (the report is computed from these).
    pub rows: Vec<GameRow>,
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

/// Plays the bot games of `opts` (seeds `opts.seed..`, or its shard's) with rules from
/// `make_rules` (one value per game; games may share one through `&R`), saving and writing the
/// single game's log to `out` as asked. `after_game` runs after each game (a progress bar).
///
/// # Errors
/// The first game that fails or does not finish (naming its seed), or an I/O error.
pub fn play_series<R: Rules>(
    make_rules: impl FnMut() -> R,
    setup: &GameSetup,
    opts: &SeriesOptions,
    bots: Bots<'_>,
    out: &mut dyn Write,
    mut after_game: impl FnMut(),
) -> Result<Series, SeriesError> {
    play_series_with(make_rules, setup, opts, bots, out, |_| {
        after_game();
        Ok(())
    })
}

/// [`play_series`], handing each finished game's row to `on_game` as it ends (a `--jsonl`
/// line, a progress bar), so a sweep stopped halfway keeps the games it finished.
///
/// # Errors
/// As [`play_series`], or the first error of `on_game`.
pub fn play_series_with<R: Rules>(
    mut make_rules: impl FnMut() -> R,
    setup: &GameSetup,
    opts: &SeriesOptions,
    bots: Bots<'_>,
    out: &mut dyn Write,
    mut on_game: impl FnMut(&GameRow) -> std::io::Result<()>,
) -> Result<Series, SeriesError> {
    let options = PlayOptions {
        max_steps: opts.max_steps,
        // Only a single game's report shows its hash.
        state_hash: opts.single(),
    };
    let mut series = Series::default();
    for seed in opts.seeds() {
        let start = Instant::now();
        let rules = make_rules();
        let (game, report) = play_game_with(rules, setup.state(seed), &options, bots)
            .map_err(|error| SeriesError::Game { seed, error })?;
        let row = GameRow::of(&report, game.state(), start.elapsed());
        series.tally.add(&row);
        series
            .tally
            .include_sides(row.sides.iter().map(String::as_str));
        if let Some(path) = &opts.save {
            save(path, &SaveFile::of(&game))?;
        }
        if opts.log && opts.single() {
            print_log(&game.state().log, out)?;
        }
        on_game(&row)?;
        series.rows.push(row);
        series.last = Some(report);
    }
    Ok(series)
}

/// Writes a series' result as `hexforge play` prints it: one game's result line, or the rule
/// set's report ([`RuleSetReport`]: win rates per side with their intervals, the first mover,
/// lengths, endings, time per game), or the same as JSON.
///
/// # Errors
/// Writing failed.
pub fn write_series(
    setup: &GameSetup,
    opts: &SeriesOptions,
    series: &Series,
    out: &mut dyn Write,
) -> Result<(), SeriesError> {
    match &series.last {
        Some(report) if opts.single() => print_one(setup, opts, report, out),
        _ => {
            let report = RuleSetReport::of(&setup.title, &series.rows);
            Ok(write_play(
                &opts.sweep(setup),
                opts.shard,
                &report,
                opts.json,
                out,
            )?)
        }
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
