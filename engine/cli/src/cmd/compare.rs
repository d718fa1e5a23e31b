//! `hexforge compare <mod> <other-mod>`: the balance lab. Both rule sets play the same seeds
//! of one scenario with the same bots; the report is `hexforge_game::balance`'s (each rule
//! set's win rates with 95% Wilson intervals, first mover, lengths, endings; then each outcome
//! in A against B with Fisher's exact test), as text or JSON, optionally drawn
//! ([`crate::chart`]). `--shard` and `--jsonl` spread a sweep over jobs as for `play`.
//!
//! The games are `hexforge_game::series`' loop, run once per rule set (A's games, then B's);
//! this file loads both mods, checks that both can play the scenario and the bots, and writes
//! the lines and the report. It plays nothing itself and computes no statistic.

use crate::chart;
use crate::cli::CompareArgs;
use crate::cmd::play::{progress_bar, series_error};
use crate::jsonl::Jsonl;
use crate::runtime::{self, LoadedMod};
use anyhow::{Context, bail};
use hexforge_game::Value;
use hexforge_game::balance::{Comparison, RuleSetReport, write_compare};
use hexforge_game::play::{Bots, GameSetup, SeriesOptions, play_series_with};
use hexforge_game::sweep::{Command, GameLine, GameRow, Sweep};
use hexforge_script::paths;
use std::io::Write;
use std::process::ExitCode;

/// Runs `compare`.
///
/// # Errors
/// A missing or broken mod, a scenario or bot one of them lacks, a game that fails or does
/// not finish (naming its rule set and seed), or a file that cannot be written.
pub fn run(args: &CompareArgs, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let mods = [
        load(&args.module).with_context(|| format!("rule set A ({})", args.module))?,
        load(&args.other).with_context(|| format!("rule set B ({})", args.other))?,
    ];
    let scenario = scenario(args, &mods)?;
    for (arg, loaded) in [&args.module, &args.other].into_iter().zip(&mods) {
        let have = hexforge_script::bots::bot_names(&loaded.lua);
        if let Err(e) = args.bots.check(&have) {
            bail!("{arg}: {e}");
        }
    }
    let names = labels(args);
    let sweep = Sweep {
        command: Command::Compare,
        rule_sets: names.to_vec(),
        scenario: scenario.clone(),
        bots: args.bots.clone(),
        first_seed: args.seed,
        games: args.games,
    };
    let opts = SeriesOptions {
        seed: args.seed,
        games: args.games,
        shard: args.shard,
        bots: args.bots.clone(),
        max_steps: args.max_steps,
        ..SeriesOptions::default()
    };
    let mut stderr = std::io::stderr();
    let (out, mut lines): (&mut dyn Write, _) = match &args.jsonl {
        Some(path) if Jsonl::is_stdout(path) => (&mut stderr, Some(Jsonl::to(out))),
        Some(path) => (out, Some(Jsonl::create(path)?)),
        None => (out, None),
    };
    let bar = progress_bar(2 * (opts.seeds().end - opts.seeds().start));
    let mut reports = Vec::new();
    for (name, loaded) in names.iter().zip(&mods) {
        let setup = GameSetup {
            title: name.clone(),
            mods: loaded.locks.clone(),
            scenario: scenario.clone(),
            options: Value::Null,
        };
        let bots = Bots {
            spec: Some(&args.bots),
        };
        let on_game = |game: &GameRow| {
            bar.inc(1);
            match &mut lines {
                Some(lines) => lines.write(&GameLine {
                    sweep: sweep.clone(),
                    shard: args.shard,
                    rules: name.clone(),
                    game: game.clone(),
                }),
                None => Ok(()),
            }
        };
        let series = play_series_with(|| loaded.rules(), &setup, &opts, bots, out, on_game)
            .map_err(series_error)
            .with_context(|| format!("rule set {name}"))?;
        reports.push(RuleSetReport::of(name, &series.rows));
    }
    bar.finish_and_clear();
    let [a, b]: [RuleSetReport; 2] = reports
        .try_into()
        .map_err(|_| anyhow::anyhow!("two rule sets were played"))?;
    let comparison = Comparison::of(a, b);
    write_compare(&sweep, args.shard, &comparison, args.json, out)?;
    if let Some(path) = &args.chart {
        chart::write_svg(path, &chart_title(&sweep), &comparison.rule_sets)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The chart's title: what was compared and how.
#[must_use]
pub fn chart_title(sweep: &Sweep) -> String {
    format!(
        "{}: scenario {}, {} games from seed {}, {}",
        sweep.rule_sets.join(" vs "),
        sweep.scenario,
        sweep.games,
        sweep.first_seed,
        sweep.bots
    )
}

fn load(arg: &str) -> anyhow::Result<LoadedMod> {
    runtime::load(&paths::resolve(arg)?)
}

/// The rule sets' names in reports and lines: the mods as given, told apart when the same mod
/// is given twice (comparing a mod with itself is how to see what noise looks like).
fn labels(args: &CompareArgs) -> [String; 2] {
    if args.module == args.other {
        [
            format!("{} (A)", args.module),
            format!("{} (B)", args.other),
        ]
    } else {
        [args.module.clone(), args.other.clone()]
    }
}

/// The scenario both play: the one asked for, or A's first; both must have it.
fn scenario(args: &CompareArgs, mods: &[LoadedMod; 2]) -> anyhow::Result<String> {
    let scenario = match &args.scenario {
        Some(s) => s.clone(),
        None => mods[0]
            .scenarios
            .first()
            .cloned()
            .with_context(|| format!("{}: the mod has no scenario", args.module))?,
    };
    let args_and_mods = [(&args.module, &mods[0]), (&args.other, &mods[1])];
    for (i, (arg, loaded)) in args_and_mods.iter().enumerate() {
        if !loaded.scenarios.contains(&scenario) {
            let (other_arg, other) = args_and_mods[1 - i];
            let also = if other.scenarios.contains(&scenario) {
                format!("{other_arg} has it, ")
            } else {
                format!("{other_arg} has not either, ")
            };
            bail!(
                "cannot compare {} and {} on scenario `{scenario}`: {also}{arg} has no scenario \
                 `{scenario}` (it has: {}); choose one both have with --scenario",
                args.module,
                args.other,
                loaded.scenarios.join(", ")
            );
        }
    }
    Ok(scenario)
}
