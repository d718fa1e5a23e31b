//! Sweeps past one machine: the K-th of N disjoint seed ranges ([`Shard`]), one JSON line per
//! finished game ([`GameLine`]: what the reports need, and the sweep it belongs to), and reading
//! such lines back from many files into one sweep ([`merge`]).
//!
//! A sharded sweep is a pure function of its arguments: shard K of N plays a contiguous range
//! of the requested seeds, the N ranges are disjoint and together exactly the unsharded seeds,
//! and every report is computed from the games' lines sorted by seed, so merging the shards'
//! lines gives the report the unsharded run prints (only the wall time differs). What this
//! module deliberately does not do: schedule, retry or distribute anything (GNU parallel, Slurm
//! or a shell loop does that; docs/MODDING.md shows how), or print reports
//! ([`crate::balance`] does).
//!
//! ```
//! use hexforge_game::sweep::Shard;
//! let shard: Shard = "2/3".parse().unwrap();
//! // 10 games from seed 1 in 3 shards: seeds 1..=4, 5..=7 and 8..=10.
//! assert_eq!(shard.seeds(1, 10), 5..8);
//! ```

use crate::GameState;
use crate::play::{BotSpec, GameReport};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ops::Range;
use std::time::Duration;

/// The K-th of N disjoint, contiguous seed ranges of a sweep (`--shard K/N`, K from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which range, 1..=`count`.
    pub index: u64,
    /// How many ranges.
    pub count: u64,
}

impl Shard {
    /// The seeds of this shard of the `games` seeds from `first_seed`: as many games as the
    /// other shards give or take one, the earlier shards taking the extra games.
    #[must_use]
    pub fn seeds(&self, first_seed: u64, games: u64) -> Range<u64> {
        let i = self.index - 1;
        let (base, extra) = (games / self.count, games % self.count);
        let start = i * base + i.min(extra);
        let len = base + u64::from(i < extra);
        first_seed.wrapping_add(start)..first_seed.wrapping_add(start + len)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || {
            format!(
                "`{s}` is not a shard: write K/N, the K-th of N seed ranges counting from 1 \
                 (`1/4` to `4/4`; in a Slurm array job \
                 `$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT`)"
            )
        };
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u64 = k.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Serialize for Shard {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Shard {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// One finished game as the reports count it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    /// The seed.
    pub seed: u64,
    /// The winning side ids (empty: a draw).
    pub winners: Vec<String>,
    /// Why the game ended (the mod's outcome reason).
    pub reason: String,
    /// Accepted actions (including `end_phase`).
    pub actions: usize,
    /// The round the game ended in.
    pub rounds: u32,
    /// Bot choices the rules refused at apply time.
    pub refused: usize,
    /// The side of the game's first action: the side that moved first (`None`: the game ended
    /// before anyone acted).
    pub first: Option<String>,
    /// Every side of the game.
    pub sides: Vec<String>,
    /// Wall time in milliseconds (display only: it differs from run to run).
    pub ms: f64,
}

impl GameRow {
    /// The row of a finished game: its report, its final state (for the sides and the first
    /// action) and the time it took.
    #[must_use]
    pub fn of(report: &GameReport, state: &GameState, elapsed: Duration) -> GameRow {
        GameRow {
            seed: report.seed,
            winners: report.winners.clone(),
            reason: report.reason.clone(),
            actions: report.actions,
            rounds: report.rounds,
            refused: report.refused,
            first: state
                .log
                .iter()
                .find_map(|e| e.action.as_ref())
                .map(|a| a.side.to_string()),
            sides: state.sides.iter().map(|s| s.id.to_string()).collect(),
            ms: elapsed.as_secs_f64() * 1000.0,
        }
    }

    /// Whether `side` won (alone or shared).
    #[must_use]
    pub fn won(&self, side: &str) -> bool {
        self.winners.iter().any(|w| w == side)
    }
}

/// Which command a sweep's lines come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Command {
    /// `hexforge play`: one rule set.
    Play,
    /// `hexforge compare`: two rule sets on the same seeds.
    Compare,
}

/// What every game of a sweep shares: the command, its rule sets, scenario, bots and the
/// requested seeds (all of them, not a shard's).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sweep {
    /// The command.
    pub command: Command,
    /// The rule sets' names (one for `play`, the mod's name; two for `compare`, the mods as
    /// given on the command line).
    pub rule_sets: Vec<String>,
    /// The scenario id.
    pub scenario: String,
    /// The bots, as `--bots` takes them.
    pub bots: BotSpec,
    /// The first requested seed.
    pub first_seed: u64,
    /// How many games were requested (per rule set, over all shards).
    pub games: u64,
}

impl Sweep {
    /// The requested seeds: `first_seed..first_seed + games`.
    #[must_use]
    pub fn seeds(&self) -> Range<u64> {
        self.first_seed..self.first_seed.wrapping_add(self.games)
    }
}

/// One JSONL line: a game, the rule set it ran under and the sweep it belongs to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    /// The sweep.
    #[serde(flatten)]
    pub sweep: Sweep,
    /// The shard that played it (`None`: an unsharded run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// The rule set this game ran under (a name in `rule_sets`).
    pub rules: String,
    /// The game.
    #[serde(flatten)]
    pub game: GameRow,
}

/// Lines read back from JSONL files: one sweep, each rule set's games sorted by seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The sweep.
    pub sweep: Sweep,
    /// Per rule set (in `sweep.rule_sets`' order), its games by seed.
    pub rows: Vec<Vec<GameRow>>,
    /// What the report should mention: missing seeds (a shard not merged, or not finished).
    pub warnings: Vec<String>,
}

/// Reads JSONL files (`(name, text)` pairs; the name is for messages) of one sweep into its
/// games. Blank lines are skipped.
///
/// # Errors
/// A line that is not a game line (`file:line: ...`), lines of different sweeps, a game played
/// twice (a shard merged twice), a seed outside the sweep, or no lines at all.
pub fn merge<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Merged, String> {
    let mut sweep: Option<(Sweep, String)> = None;
    let mut by_set: Vec<BTreeMap<u64, (GameRow, String)>> = Vec::new();
    for (name, text) in files {
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = format!("{name}:{}", n + 1);
            let line: GameLine = serde_json::from_str(line)
                .map_err(|e| format!("{at}: not a game line of `--jsonl`: {e}"))?;
            let Some((first, first_at)) = &sweep else {
                by_set = vec![BTreeMap::new(); line.sweep.rule_sets.len()];
                sweep = Some((line.sweep.clone(), at.clone()));
                add(&mut by_set, &line, at)?;
                continue;
            };
            if line.sweep != *first {
                return Err(format!(
                    "{at}: a line of another sweep ({}) than {first_at} ({}); merge one sweep at \
                     a time",
                    describe(&line.sweep),
                    describe(first)
                ));
            }
            add(&mut by_set, &line, at)?;
        }
    }
    let (sweep, _) = sweep.ok_or("no game lines to merge")?;
    let mut warnings = Vec::new();
    for (set, games) in sweep.rule_sets.iter().zip(&by_set) {
        let missing: Vec<u64> = sweep.seeds().filter(|s| !games.contains_key(s)).collect();
        if !missing.is_empty() {
            warnings.push(format!(
                "{set}: {} of {} games missing (seeds {}); the report covers the {} present",
                missing.len(),
                sweep.games,
                ranges(&missing),
                games.len()
            ));
        }
    }
    let rows = by_set
        .into_iter()
        .map(|games| games.into_values().map(|(row, _)| row).collect())
        .collect();
    Ok(Merged {
        sweep,
        rows,
        warnings,
    })
}

/// Files one line under its rule set, refusing repeats and strangers.
fn add(
    by_set: &mut [BTreeMap<u64, (GameRow, String)>],
    line: &GameLine,
    at: String,
) -> Result<(), String> {
    let sweep = &line.sweep;
    let set = sweep
        .rule_sets
        .iter()
        .position(|r| *r == line.rules)
        .ok_or_else(|| {
            format!(
                "{at}: rule set `{}` is not one of the sweep's ({})",
                line.rules,
                sweep.rule_sets.join(", ")
            )
        })?;
    let seed = line.game.seed;
    if !sweep.seeds().contains(&seed) {
        return Err(format!(
            "{at}: seed {seed} is outside the sweep's seeds {}..={}",
            sweep.first_seed,
            sweep.first_seed.wrapping_add(sweep.games.saturating_sub(1))
        ));
    }
    if let Some((_, before)) = by_set[set].get(&seed) {
        return Err(format!(
            "{at}: seed {seed} of {} was already read at {before}: is a shard merged twice?",
            line.rules
        ));
    }
    by_set[set].insert(seed, (line.game.clone(), at));
    Ok(())
}

/// A sweep in words, for messages.
fn describe(s: &Sweep) -> String {
    format!(
        "{} of {}, scenario {}, {} games from seed {}, bots {}",
        match s.command {
            Command::Play => "play",
            Command::Compare => "compare",
        },
        s.rule_sets.join(" and "),
        s.scenario,
        s.games,
        s.first_seed,
        s.bots.as_arg()
    )
}

/// Sorted seeds as ranges: `3..=5, 9`.
fn ranges(seeds: &[u64]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < seeds.len() {
        let mut j = i;
        while j + 1 < seeds.len() && seeds[j + 1] == seeds[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            seeds[i].to_string()
        } else {
            format!("{}..={}", seeds[i], seeds[j])
        });
        i = j + 1;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_seeds_evenly_contiguously_and_exactly() {
        for games in [0, 1, 5, 10, 20, 37] {
            for count in 1..=7 {
                let mut next = 100;
                let mut sizes = Vec::new();
                for index in 1..=count {
                    let seeds = Shard { index, count }.seeds(100, games);
                    assert_eq!(seeds.start, next, "{index}/{count} of {games}");
                    next = seeds.end;
                    sizes.push(seeds.end - seeds.start);
                }
                assert_eq!(
                    next,
                    100 + games,
                    "shards of {games} end where the seeds end"
                );
                let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
                assert!(hi - lo <= 1, "{games} in {count}: {sizes:?}");
            }
        }
    }

    #[test]
    fn shards_parse_from_1_and_bad_ones_say_how_to_write_them() {
        assert_eq!("3/4".parse(), Ok(Shard { index: 3, count: 4 }));
        assert_eq!(Shard { index: 3, count: 4 }.to_string(), "3/4");
        for bad in ["0/4", "5/4", "1/0", "2", "a/b", "-1/3"] {
            let err = bad.parse::<Shard>().unwrap_err();
            assert!(err.contains("K/N") && err.contains("`1/4`"), "{bad}: {err}");
        }
    }

    fn line(rules: &str, seed: u64, winner: &str) -> String {
        let sweep = Sweep {
            command: Command::Compare,
            rule_sets: vec!["a".into(), "b".into()],
            scenario: "s".into(),
            bots: BotSpec::default(),
            first_seed: 1,
            games: 4,
        };
        let game = GameRow {
            seed,
            winners: vec![winner.into()],
            reason: "r".into(),
            actions: 3,
            rounds: 1,
            refused: 0,
            first: Some("blue".into()),
            sides: vec!["blue".into(), "red".into()],
            ms: 1.5,
        };
        serde_json::to_string(&GameLine {
            sweep,
            shard: None,
            rules: rules.into(),
            game,
        })
        .unwrap()
    }

    #[test]
    fn merging_sorts_by_seed_and_names_missing_and_repeated_games() {
        let one = [
            line("a", 3, "red"),
            line("b", 1, "blue"),
            line("a", 1, "blue"),
        ]
        .join("\n");
        let two = [line("a", 2, "red"), line("b", 2, "red"), String::new()].join("\n");
        let merged = merge([("one", one.as_str()), ("two", two.as_str())]).unwrap();
        let seeds = |set: usize| merged.rows[set].iter().map(|r| r.seed).collect::<Vec<_>>();
        assert_eq!((seeds(0), seeds(1)), (vec![1, 2, 3], vec![1, 2]));
        assert_eq!(
            merged.warnings,
            [
                "a: 1 of 4 games missing (seeds 4); the report covers the 3 present",
                "b: 2 of 4 games missing (seeds 3..=4); the report covers the 2 present"
            ]
        );

        let err = merge([("one", one.as_str()), ("again", one.as_str())]).unwrap_err();
        assert!(
            err.starts_with("again:1: seed 3 of a was already read at one:1"),
            "{err}"
        );
        let err = merge([("x", line("c", 1, "red").as_str())]).unwrap_err();
        assert!(
            err.contains("rule set `c` is not one of the sweep's (a, b)"),
            "{err}"
        );
        let err = merge([("x", line("a", 9, "red").as_str())]).unwrap_err();
        assert!(
            err.contains("seed 9 is outside the sweep's seeds 1..=4"),
            "{err}"
        );
        let other = line("a", 2, "red").replace("\"scenario\":\"s\"", "\"scenario\":\"t\"");
        let err = merge([("one", one.as_str()), ("other", other.as_str())]).unwrap_err();
        assert!(err.starts_with("other:1: a line of another sweep"), "{err}");
        let err = merge([("x", "{\"seed\": 1}")]).unwrap_err();
        assert!(err.starts_with("x:1: not a game line"), "{err}");
        assert_eq!(merge([("x", "\n")]).unwrap_err(), "no game lines to merge");
    }
}
