//! The balance lab's reports: what a rule set's games say ([`RuleSetReport`]: win rates per
//! side with 95% Wilson intervals, the first mover's advantage, game lengths, how games ended)
//! and whether two rule sets differ ([`Comparison`]: Fisher's exact test per outcome), written
//! as text or JSON.
//!
//! Reports are computed from finished games ([`GameRow`]s) only, in seed order, so the same
//! games give the same report whether they were played in one run or merged from shards
//! ([`crate::sweep::merge`]); the only thing that differs between runs is the wall time
//! (`ms_per_game` and the line that prints it). `hexforge play --games N` prints one rule set's
//! report, `hexforge compare` two and their differences. What this module deliberately does not
//! do: play games ([`crate::series`]), draw charts (the CLI's `chart`), or test the game length
//! difference (both distributions are shown side by side instead).
//!
//! ```ignore
//! let a = RuleSetReport::of("mods/tutorial", &rows_a);
//! let b = RuleSetReport::of("my-variant", &rows_b);
//! let comparison = Comparison::of(a, b);
//! write_compare(&sweep, None, &comparison, false, &mut std::io::stdout())?;
//! ```

use crate::series::{Tally, TallySummary};
use crate::stats::{Interval, Spread, Z95, fisher_exact, wilson};
use crate::sweep::{GameRow, Shard, Sweep};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;

/// The level below which a p-value is called significant.
pub const ALPHA: f64 = 0.05;

/// The test [`Comparison`] runs, in words (also in its JSON).
pub const TEST: &str = "Fisher's exact test, two-sided, on each outcome's count in A against B \
                        (each row on its own, not corrected for testing several)";

/// How many outcome reasons the text lists (JSON lists all).
const ENDINGS_SHOWN: usize = 8;

/// `count` of `of` games, with its rate and 95% Wilson interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rate {
    /// How many games.
    pub count: usize,
    /// Out of how many.
    pub of: usize,
    /// `count / of` (0 when `of` is 0).
    pub rate: f64,
    /// The 95% Wilson score interval.
    pub interval: Interval,
}

impl Rate {
    /// `count` of `of`.
    #[must_use]
    #[allow(clippy::cast_precision_loss)]
    pub fn new(count: usize, of: usize) -> Rate {
        Rate {
            count,
            of,
            rate: if of == 0 {
                0.0
            } else {
                count as f64 / of as f64
            },
            interval: wilson(count, of, Z95),
        }
    }
}

/// The first mover's advantage: how often the side of the game's first action won, against how
/// often any other side did.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct FirstMover {
    /// Games the side that moved first won.
    pub first: Rate,
    /// Games another side won.
    pub others: Rate,
}

/// One rule set's games in numbers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RuleSetReport {
    /// The rule set's name.
    pub rules: String,
    /// Games, wins, win rates, draws, mean lengths and time per game (`hexforge play --json`'s
    /// fields before this report existed, kept for scripts that read them).
    #[serde(flatten)]
    pub summary: TallySummary,
    /// Each side's 95% Wilson interval of its win rate.
    pub win_intervals: BTreeMap<String, Interval>,
    /// The draws' 95% Wilson interval.
    pub draw_interval: Interval,
    /// The first mover's advantage.
    pub first_mover: FirstMover,
    /// Game length in actions (`None`: no games).
    pub actions: Option<Spread>,
    /// Game length in rounds.
    pub rounds: Option<Spread>,
    /// How many games ended for each outcome reason.
    pub endings: BTreeMap<String, usize>,
}

impl RuleSetReport {
    /// The report of `rows` (a rule set's finished games, in any order) under the name `rules`.
    #[must_use]
    #[allow(clippy::cast_precision_loss)]
    pub fn of(rules: &str, rows: &[GameRow]) -> RuleSetReport {
        let mut tally = Tally::default();
        let mut endings = BTreeMap::new();
        let (mut first, mut others) = (0, 0);
        for row in rows {
            tally.add(row);
            tally.include_sides(row.sides.iter().map(String::as_str));
            *endings.entry(row.reason.clone()).or_insert(0) += 1;
            let mover = row.first.as_deref();
            first += usize::from(mover.is_some_and(|m| row.won(m)));
            others += usize::from(row.winners.iter().any(|w| Some(w.as_str()) != mover));
        }
        let summary = tally.summary();
        let win_intervals = summary
            .wins
            .iter()
            .map(|(side, &wins)| (side.clone(), wilson(wins, summary.games, Z95)))
            .collect();
        let lengths = |f: fn(&GameRow) -> f64| Spread::of(&rows.iter().map(f).collect::<Vec<_>>());
        RuleSetReport {
            rules: rules.to_owned(),
            draw_interval: wilson(summary.draws, summary.games, Z95),
            win_intervals,
            first_mover: FirstMover {
                first: Rate::new(first, rows.len()),
                others: Rate::new(others, rows.len()),
            },
            actions: lengths(|r| r.actions as f64),
            rounds: lengths(|r| f64::from(r.rounds)),
            endings,
            summary,
        }
    }

    /// Each outcome counted: `(name, games)` for every side's wins, then draws, then the first
    /// mover's wins.
    fn outcomes(&self) -> Vec<(String, usize)> {
        let mut all: Vec<(String, usize)> = self
            .summary
            .wins
            .iter()
            .map(|(side, &wins)| (format!("{side} wins"), wins))
            .collect();
        all.push(("draws".to_owned(), self.summary.draws));
        all.push(("first mover wins".to_owned(), self.first_mover.first.count));
        all
    }
}

/// One outcome in both rule sets, and whether it differs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Difference {
    /// `blue wins`, `draws`, `first mover wins`.
    pub outcome: String,
    /// In rule set A.
    pub a: Rate,
    /// In rule set B.
    pub b: Rate,
    /// The two-sided p-value of [`TEST`].
    pub p_value: f64,
    /// `p_value < ALPHA`.
    pub significant: bool,
}

/// Two rule sets' reports and their differences.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// The test, in words ([`TEST`]).
    pub test: &'static str,
    /// The significance level ([`ALPHA`]).
    pub alpha: f64,
    /// A, then B.
    pub rule_sets: [RuleSetReport; 2],
    /// Per outcome: each side's wins, draws, the first mover's wins.
    pub differences: Vec<Difference>,
}

impl Comparison {
    /// Compares rule set `a` with `b`, outcome by outcome (a side only one of them has counts
    /// as never winning in the other).
    #[must_use]
    pub fn of(a: RuleSetReport, b: RuleSetReport) -> Comparison {
        let (in_a, in_b) = (a.outcomes(), b.outcomes());
        let mut names: Vec<&String> = in_a.iter().map(|(n, _)| n).collect();
        for (name, _) in &in_b {
            if !names.contains(&name) {
                names.push(name);
            }
        }
        let count = |all: &[(String, usize)], name: &str| {
            all.iter().find(|(n, _)| n == name).map_or(0, |&(_, c)| c)
        };
        let of = |r: &RuleSetReport, name: &str| {
            if name == "first mover wins" {
                r.first_mover.first.of
            } else {
                r.summary.games
            }
        };
        let differences = names
            .into_iter()
            .map(|name| {
                let (ra, rb) = (
                    Rate::new(count(&in_a, name), of(&a, name)),
                    Rate::new(count(&in_b, name), of(&b, name)),
                );
                let p_value = fisher_exact(ra.count, ra.of - ra.count, rb.count, rb.of - rb.count);
                Difference {
                    outcome: name.clone(),
                    a: ra,
                    b: rb,
                    p_value,
                    significant: p_value < ALPHA,
                }
            })
            .collect();
        Comparison {
            test: TEST,
            alpha: ALPHA,
            rule_sets: [a, b],
            differences,
        }
    }
}

/// The seeds of a run in words: `seeds 1..=40`, or a shard's `seeds 11..=20, shard 2/4 of
/// 1..=40`.
fn seeds_text(sweep: &Sweep, shard: Option<Shard>) -> String {
    let range = |r: std::ops::Range<u64>| match r.end.wrapping_sub(r.start) {
        0 => "none".to_owned(),
        n => format!("{}..={}", r.start, r.start.wrapping_add(n - 1)),
    };
    match shard {
        None => format!("seeds {}", range(sweep.seeds())),
        Some(shard) => format!(
            "seeds {}, shard {shard} of {}",
            range(shard.seeds(sweep.first_seed, sweep.games)),
            range(sweep.seeds())
        ),
    }
}

/// Writes `hexforge play --games N`'s report: a header naming the mod, scenario, seeds and
/// bots, then the rule set's numbers (or the same as JSON).
///
/// # Errors
/// Writing failed.
pub fn write_play(
    sweep: &Sweep,
    shard: Option<Shard>,
    report: &RuleSetReport,
    json: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    if json {
        let mut v = serde_json::to_value(report)?;
        v["mod"] = report.rules.clone().into();
        v["scenario"] = sweep.scenario.clone().into();
        v["first_seed"] = sweep.first_seed.into();
        v["bots"] = sweep.bots.as_arg().into();
        v["shard"] = shard.map(|s| s.to_string()).into();
        return writeln!(out, "{}", serde_json::to_string_pretty(&v)?);
    }
    writeln!(
        out,
        "{} games of {} (scenario {}, {}), {}",
        report.summary.games,
        report.rules,
        sweep.scenario,
        seeds_text(sweep, shard),
        sweep.bots
    )?;
    write_rule_set(report, out)
}

/// Writes `hexforge compare`'s report: both rule sets' numbers, then each outcome in A and B
/// with its p-value and a verdict (or the same as JSON).
///
/// # Errors
/// Writing failed.
pub fn write_compare(
    sweep: &Sweep,
    shard: Option<Shard>,
    comparison: &Comparison,
    json: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    if json {
        let mut v = serde_json::to_value(comparison)?;
        v["scenario"] = sweep.scenario.clone().into();
        v["first_seed"] = sweep.first_seed.into();
        v["games"] = sweep.games.into();
        v["bots"] = sweep.bots.as_arg().into();
        v["shard"] = shard.map(|s| s.to_string()).into();
        return writeln!(out, "{}", serde_json::to_string_pretty(&v)?);
    }
    let [a, b] = &comparison.rule_sets;
    writeln!(
        out,
        "Comparing 2 rule sets on scenario {} ({}), {}",
        sweep.scenario,
        seeds_text(sweep, shard),
        sweep.bots
    )?;
    for (letter, report) in [("A", a), ("B", b)] {
        writeln!(
            out,
            "\n{letter} = {}: {} games",
            report.rules, report.summary.games
        )?;
        write_rule_set(report, out)?;
    }
    writeln!(
        out,
        "\nB against A (Fisher's exact test, two-sided, each row on its own):"
    )?;
    let width = comparison
        .differences
        .iter()
        .map(|d| d.outcome.len())
        .max()
        .unwrap_or(0);
    for d in &comparison.differences {
        writeln!(
            out,
            "  {:width$}  {} -> {}   {}{}",
            d.outcome,
            percent(d.a.rate),
            percent(d.b.rate),
            p_text(d.p_value),
            if d.significant { "  significant" } else { "" }
        )?;
    }
    if let (Some(la), Some(lb), Some(ra), Some(rb)) = (a.actions, b.actions, a.rounds, b.rounds) {
        writeln!(
            out,
            "  {:width$}  {} -> {} actions, {} -> {} rounds (not tested; see the quartiles above)",
            "mean length",
            num(la.mean),
            num(lb.mean),
            num(ra.mean),
            num(rb.mean)
        )?;
    }
    let significant: Vec<String> = comparison
        .differences
        .iter()
        .filter(|d| d.significant)
        .map(|d| format!("{} ({})", d.outcome, p_text(d.p_value)))
        .collect();
    if significant.is_empty() {
        let smallest = comparison
            .differences
            .iter()
            .map(|d| d.p_value)
            .fold(1.0, f64::min);
        writeln!(
            out,
            "No difference is significant at the 5% level (smallest {}): these games cannot \
             tell the rule sets apart; more games narrow the intervals.",
            p_text(smallest)
        )
    } else {
        writeln!(
            out,
            "Significant at the 5% level: {}. With {} rows tested, about one in 20 rows looks \
             significant by chance alone when nothing differs.",
            significant.join(", "),
            comparison.differences.len()
        )
    }
}

/// One rule set's numbers, indented: wins per side and draws with their intervals, the first
/// mover, lengths, endings, then the averages and time per game (the one line that differs
/// between runs of the same games).
fn write_rule_set(r: &RuleSetReport, out: &mut dyn Write) -> std::io::Result<()> {
    let s = &r.summary;
    let width = s.wins.keys().map(String::len).max().unwrap_or(0).max(5);
    let none = Interval {
        low: 0.0,
        high: 1.0,
    };
    for (side, wins) in &s.wins {
        let rate = s.win_rates.get(side).copied().unwrap_or(0.0);
        let ci = r.win_intervals.get(side).copied().unwrap_or(none);
        writeln!(
            out,
            "  {side:width$} {wins:6} wins {}  {}",
            percent(rate),
            interval(ci)
        )?;
    }
    writeln!(
        out,
        "  {:width$} {:6}      {}  {}   (95% Wilson intervals)",
        "draws",
        s.draws,
        percent(Rate::new(s.draws, s.games).rate),
        interval(r.draw_interval)
    )?;
    let fm = &r.first_mover;
    writeln!(
        out,
        "  moving first: won {} of {} {} {}; the other sides won {} {} {}",
        fm.first.count,
        fm.first.of,
        percent(fm.first.rate),
        interval(fm.first.interval),
        fm.others.count,
        percent(fm.others.rate),
        interval(fm.others.interval)
    )?;
    for (what, spread) in [("actions", r.actions), ("rounds", r.rounds)] {
        if let Some(l) = spread {
            writeln!(
                out,
                "  length in {:8} min {}, quartiles {} / {} / {}, max {}, mean {}",
                format!("{what}:"),
                num(l.min),
                num(l.q1),
                num(l.median),
                num(l.q3),
                num(l.max),
                num(l.mean)
            )?;
        }
    }
    if !r.endings.is_empty() {
        writeln!(out, "  how games ended:")?;
        let mut endings: Vec<(&String, &usize)> = r.endings.iter().collect();
        endings.sort_by(|x, y| y.1.cmp(x.1).then(x.0.cmp(y.0)));
        for (reason, games) in endings.iter().take(ENDINGS_SHOWN) {
            writeln!(out, "    {games:6}  {reason}")?;
        }
        if endings.len() > ENDINGS_SHOWN {
            let rest: usize = endings.iter().skip(ENDINGS_SHOWN).map(|e| e.1).sum();
            writeln!(
                out,
                "    {rest:6}  ({} other reasons; --json lists them all)",
                endings.len() - ENDINGS_SHOWN
            )?;
        }
    }
    writeln!(
        out,
        "  average {:.1} actions, {:.1} rounds; {:.2} ms per game",
        s.avg_actions, s.avg_rounds, s.ms_per_game
    )
}

/// `p = 0.0373`, or `p < 0.0001`.
fn p_text(p: f64) -> String {
    if p < 1e-4 {
        "p < 0.0001".to_owned()
    } else {
        format!("p = {p:.4}")
    }
}

/// `45.0%`, right-aligned in 6 characters.
fn percent(rate: f64) -> String {
    format!("{:5.1}%", rate * 100.0)
}

/// `[30.7%, 60.2%]`.
fn interval(ci: Interval) -> String {
    format!("[{:.1}%, {:.1}%]", ci.low * 100.0, ci.high * 100.0)
}

/// A length: whole numbers as such, others with up to two decimals (`4.25`, `41.2`).
fn num(x: f64) -> String {
    let text = format!("{x:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// Every side a comparison mentions, for charts: sides of A, then sides only B has.
#[must_use]
pub fn sides(comparison: &[RuleSetReport]) -> Vec<String> {
    let mut seen = BTreeSet::new();
    comparison
        .iter()
        .flat_map(|r| r.summary.wins.keys())
        .filter(|s| seen.insert((*s).clone()))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::BotSpec;
    use crate::sweep::Command;

    fn row(seed: u64, winners: &[&str], first: &str, actions: usize, reason: &str) -> GameRow {
        GameRow {
            seed,
            winners: winners.iter().map(|w| (*w).to_owned()).collect(),
            reason: reason.to_owned(),
            actions,
            rounds: (actions / 10) as u32,
            refused: 0,
            first: Some(first.to_owned()),
            sides: vec!["blue".into(), "red".into()],
            ms: 2.0,
        }
    }

    /// `blue` wins `blue` of `n` games (the rest red), blue moving first in every game.
    fn rows(blue: usize, n: usize) -> Vec<GameRow> {
        (0..n)
            .map(|i| {
                let w = if i < blue { "blue" } else { "red" };
                row(
                    i as u64 + 1,
                    &[w],
                    "blue",
                    10 * (i + 1),
                    &format!("{w} won"),
                )
            })
            .collect()
    }

    #[test]
    fn a_rule_set_report_counts_wins_first_movers_lengths_and_endings() {
        let mut games = rows(8, 10);
        games.push(row(11, &[], "red", 200, "time ran out"));
        let r = RuleSetReport::of("x", &games);
        assert_eq!(r.summary.games, 11);
        assert_eq!(r.summary.wins["blue"], 8);
        assert_eq!(r.win_intervals["blue"], wilson(8, 11, Z95));
        assert_eq!(r.draw_interval, wilson(1, 11, Z95));
        // Blue moved first in ten games and won eight; red moved first in the draw.
        assert_eq!(r.first_mover.first, Rate::new(8, 11));
        assert_eq!(r.first_mover.others, Rate::new(2, 11));
        let actions = r.actions.unwrap();
        assert_eq!(
            (actions.min, actions.median, actions.max),
            (10.0, 60.0, 200.0)
        );
        assert_eq!(r.endings["blue won"], 8);
        assert_eq!(r.endings["time ran out"], 1);
        // Order does not matter: shards merge in any order.
        games.reverse();
        assert_eq!(RuleSetReport::of("x", &games), r);
    }

    #[test]
    fn a_clear_difference_is_significant_and_equal_rule_sets_are_not() {
        let same = Comparison::of(
            RuleSetReport::of("a", &rows(20, 40)),
            RuleSetReport::of("b", &rows(20, 40)),
        );
        assert!(same.differences.iter().all(|d| !d.significant));
        assert!((same.differences[0].p_value - 1.0).abs() < 1e-9);

        let shifted = Comparison::of(
            RuleSetReport::of("a", &rows(10, 40)),
            RuleSetReport::of("b", &rows(30, 40)),
        );
        let blue = &shifted.differences[0];
        assert_eq!(blue.outcome, "blue wins");
        assert_eq!((blue.a.count, blue.b.count), (10, 30));
        assert!(
            (blue.p_value - fisher_exact(10, 30, 30, 10)).abs() < 1e-12 && blue.significant,
            "{blue:?}"
        );
        let names: Vec<&str> = shifted
            .differences
            .iter()
            .map(|d| d.outcome.as_str())
            .collect();
        assert_eq!(
            names,
            ["blue wins", "red wins", "draws", "first mover wins"]
        );

        let sweep = Sweep {
            command: Command::Compare,
            rule_sets: vec!["a".into(), "b".into()],
            scenario: "s".into(),
            bots: BotSpec::default(),
            first_seed: 1,
            games: 40,
        };
        let mut text = Vec::new();
        write_compare(&sweep, None, &shifted, false, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(
            text.contains("blue wins          25.0% ->  75.0%"),
            "{text}"
        );
        assert!(
            text.contains("Significant at the 5% level: blue wins (p < 0.0001)"),
            "{text}"
        );
        let mut text = Vec::new();
        write_compare(&sweep, None, &same, false, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.contains("No difference is significant"), "{text}");
    }

    #[test]
    fn numbers_print_short() {
        assert_eq!(num(4.0), "4");
        assert_eq!(num(4.25), "4.25");
        assert_eq!(num(41.2), "41.2");
        assert_eq!(num(0.0), "0");
        assert_eq!(interval(wilson(8, 10, Z95)), "[49.0%, 94.3%]");
    }
}
