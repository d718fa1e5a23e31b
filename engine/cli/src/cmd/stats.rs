//! `hexforge stats merge FILES...`: the report of a sharded sweep. Reads the `--jsonl` lines of
//! `play` or `compare` runs (any order, any number of files), checks that they are one sweep
//! with no game twice (`hexforge_game::sweep::merge`), and prints the report the unsharded run
//! prints, from the same `hexforge_game::balance` functions: only the time per game differs.
//! Missing games are a warning on stderr, not an error: a report of the games present is still
//! worth reading while the last shards run.

use crate::chart;
use crate::cli::{MergeArgs, StatsCommand};
use crate::cmd::compare::chart_title;
use anyhow::{Context, anyhow};
use hexforge_game::balance::{Comparison, RuleSetReport, write_compare, write_play};
use hexforge_game::sweep::{Command, merge};
use std::io::{Read, Write};
use std::process::ExitCode;

/// Runs a `stats` subcommand.
///
/// # Errors
/// A file that cannot be read, a line that is not a game line, lines of different sweeps, a
/// game read twice, or a chart that cannot be written.
pub fn run(command: &StatsCommand, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    match command {
        StatsCommand::Merge(args) => run_merge(args, out),
    }
}

fn run_merge(args: &MergeArgs, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let mut texts = Vec::new();
    for path in &args.files {
        let name = path.display().to_string();
        let text = if path.as_os_str() == "-" {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .context("reading stdin")?;
            text
        } else {
            std::fs::read_to_string(path).with_context(|| format!("reading {name}"))?
        };
        texts.push((name, text));
    }
    let merged =
        merge(texts.iter().map(|(n, t)| (n.as_str(), t.as_str()))).map_err(|e| anyhow!(e))?;
    for warning in &merged.warnings {
        eprintln!("warning: {warning}");
    }
    let sweep = &merged.sweep;
    let reports: Vec<RuleSetReport> = sweep
        .rule_sets
        .iter()
        .zip(&merged.rows)
        .map(|(name, rows)| RuleSetReport::of(name, rows))
        .collect();
    match (sweep.command, reports.as_slice()) {
        (Command::Play, [report]) => write_play(sweep, None, report, args.json, out)?,
        (Command::Compare, [a, b]) => {
            let comparison = Comparison::of(a.clone(), b.clone());
            write_compare(sweep, None, &comparison, args.json, out)?;
        }
        (command, _) => {
            return Err(anyhow!(
                "{command:?} lines name {} rule sets",
                reports.len()
            ));
        }
    }
    if let Some(path) = &args.chart {
        chart::write_svg(path, &chart_title(sweep), &reports)?;
    }
    Ok(ExitCode::SUCCESS)
}
