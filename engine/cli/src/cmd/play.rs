//! `hexforge play <mod>`: headless bot games.
//!
//! One game prints its result (and can be saved); `--games N` plays seeds `seed..seed+N` and
//! prints win rates per side, average length and time per game. The driver
//! [`play_games`] is generic over [`Rules`] so it is tested with Rust rules.

use crate::cli::PlayArgs;
use crate::session::{Bots, GameReport, PlayOptions, Tally, play_game_with};
use crate::{modpath, runtime};
use anyhow::{Context, bail};
use hexforge_game::record::{SaveFile, save};
use hexforge_game::{GameState, LogEntry, ModLock, Rules, Value};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

/// Functions listed by `--profile` (by self and by inclusive samples).
const PROFILE_TOP: usize = 15;

/// What every game of a `play` run starts from.
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
    fn state(&self, seed: u64) -> GameState {
        GameState::new(
            self.mods.clone(),
            &self.scenario,
            self.options.clone(),
            seed,
        )
    }
}

/// Runs `play` on a mod.
///
/// # Errors
/// A missing or broken mod, an unknown scenario, a game that fails or does not finish, or a
/// save that cannot be written.
pub fn run(args: &PlayArgs, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let dir = modpath::resolve(&args.module)?;
    let loaded = runtime::load(&dir)?;
    let scenario = match &args.scenario {
        Some(s) if loaded.scenarios.contains(s) => s.clone(),
        Some(s) => bail!(
            "{}: no scenario `{s}` (it has: {})",
            dir.display(),
            loaded.scenarios.join(", ")
        ),
        None => loaded
            .scenarios
            .first()
            .cloned()
            .with_context(|| format!("{}: the mod has no scenario", dir.display()))?,
    };
    let setup = GameSetup {
        title: loaded.name.clone(),
        mods: loaded.locks.clone(),
        scenario,
        options: Value::Null,
    };
    // Name an unknown bot before any game starts, with the ones this mod has.
    let have = hexforge_script::bots::bot_names(&loaded.lua);
    for bot in std::iter::once(&args.bots.default).chain(args.bots.sides.values()) {
        if bot != crate::session::RANDOM && !have.contains(bot) {
            bail!(
                "{}: no bot named `{bot}` (this mod has: random{})",
                dir.display(),
                have.iter().map(|b| format!(", {b}")).collect::<String>()
            );
        }
    }
    let named = |state: &hexforge_game::GameState,
                 bot: &str,
                 side: &hexforge_game::SideId,
                 legal: &[hexforge_game::Action]| {
        hexforge_script::bots::choose(&loaded.lua, state, bot, side, legal)
    };
    let bots = Bots {
        spec: Some(&args.bots),
        named: Some(&named),
    };
    let lua = loaded.lua.loaded().sandbox.lua();
    if args.profile {
        hexforge_script::profile::enable(lua);
    }
    play_games(|| Ok(loaded.rules()), &setup, args, bots, out)?;
    if let Some(profile) = hexforge_script::profile::disable(lua) {
        write!(out, "{}", profile.render(PROFILE_TOP))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Plays `args.games` bot games with rules from `make_rules` (one fresh value per game) and
/// writes the result to `out`.
///
/// # Errors
/// The first game that fails or does not finish (naming its seed), `--save` with several
/// games, or an I/O error.
pub fn play_games<R: Rules>(
    mut make_rules: impl FnMut() -> anyhow::Result<R>,
    setup: &GameSetup,
    args: &PlayArgs,
    bots: Bots<'_>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    if args.games > 1 && args.save.is_some() {
        bail!("--save writes one game; drop --games or --save");
    }
    let options = PlayOptions {
        max_steps: args.max_steps,
        // Only a single game's report shows its hash.
        state_hash: args.games == 1,
    };
    let bar = progress_bar(args.games);
    let mut tally = Tally::default();
    let mut last: Option<GameReport> = None;
    for i in 0..args.games {
        let seed = args.seed.wrapping_add(i);
        let start = Instant::now();
        let rules = make_rules()?;
        let (game, report) = play_game_with(rules, setup.state(seed), &options, bots)
            .with_context(|| format!("game with seed {seed}"))?;
        tally.add(&report, start.elapsed());
        tally.include_sides(game.state().sides.iter().map(|s| s.id.as_str()));
        if let Some(path) = &args.save {
            save(path, &SaveFile::of(&game))?;
        }
        if args.log && args.games == 1 {
            print_log(&game.state().log, out)?;
        }
        bar.inc(1);
        last = Some(report);
    }
    bar.finish_and_clear();
    match (args.games, last) {
        (1, Some(report)) => print_one(setup, args, &report, out),
        _ => print_many(setup, args, &tally, out),
    }
}

fn progress_bar(games: u64) -> ProgressBar {
    // Only worth drawing for several games, and only for a person watching.
    let target = if games > 1 && std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(games), target);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} games {eta}") {
        bar.set_style(style);
    }
    bar
}

/// Writes a game log, one block per entry: the action, its dice, the lines the rules emitted.
///
/// # Errors
/// Writing failed.
pub fn print_log(log: &[LogEntry], out: &mut dyn Write) -> anyhow::Result<()> {
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
    args: &PlayArgs,
    report: &GameReport,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    if args.json {
        let mut v = serde_json::to_value(report)?;
        v["mod"] = setup.title.clone().into();
        v["saved"] = args.save.as_ref().map(|p| p.display().to_string()).into();
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
    if let Some(path) = &args.save {
        writeln!(out, "saved to {}", path.display())?;
    }
    Ok(())
}

fn print_many(
    setup: &GameSetup,
    args: &PlayArgs,
    tally: &Tally,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let summary = tally.summary();
    if args.json {
        let mut v = serde_json::to_value(&summary)?;
        v["mod"] = setup.title.clone().into();
        v["scenario"] = setup.scenario.clone().into();
        v["first_seed"] = args.seed.into();
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        return Ok(());
    }
    writeln!(
        out,
        "{} games of {} (scenario {}, seeds {}..={}), {}",
        summary.games,
        setup.title,
        setup.scenario,
        args.seed,
        args.seed.wrapping_add(args.games - 1),
        args.bots
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::BotSpec;
    use std::path::Path;

    fn copy_dir(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let target = to.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                copy_dir(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), target).unwrap();
            }
        }
    }

    /// The tutorial with one deliberately hot function called after every action.
    fn hot_tutorial(tmp: &Path) -> std::path::PathBuf {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../mods/tutorial");
        let dir = tmp.join("tutorial");
        copy_dir(&root, &dir);
        let main = dir.join("main.lua");
        let mut text = std::fs::read_to_string(&main).unwrap();
        text.push_str(
            "\nlocal function deliberately_hot()\n  local s = 0\n  for i = 1, 20000 do s = s + i % 3 end\n  return s\nend\ngame.on(\"after_action\", function(ctx) deliberately_hot() end)\n",
        );
        std::fs::write(&main, text).unwrap();
        dir
    }

    fn play(dir: &Path, profile: bool) -> String {
        let args = PlayArgs {
            module: dir.display().to_string(),
            scenario: None,
            seed: 1,
            bots: BotSpec::default(),
            games: 2,
            save: None,
            log: false,
            json: false,
            max_steps: 10_000,
            profile,
        };
        let mut out = Vec::new();
        run(&args, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn profile_puts_the_hot_lua_function_on_top_and_repeats_exactly() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = hot_tutorial(tmp.path());
        let text = play(&dir, true);
        let profile = &text[text.find("Lua profile").expect(&text)..];
        let first = profile
            .lines()
            .skip_while(|l| !l.starts_with("top 15 by self"))
            .nth(1)
            .unwrap();
        assert!(
            first.contains("main.lua:") && first.contains("deliberately_hot"),
            "{profile}"
        );
        // The split between the mod's Lua and the engine's Lua helpers; this mod's hot loop
        // is nearly all of it.
        let split = profile
            .lines()
            .find(|l| l.starts_with("the mod's own Lua: "))
            .expect(profile);
        let mine: f64 = split["the mod's own Lua: ".len()..]
            .split('%')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(mine > 90.0, "{split}");
        // Instruction counts, not time: the same games give the same profile.
        let again = play(&dir, true);
        assert_eq!(profile, &again[again.find("Lua profile").unwrap()..]);
        assert!(!play(&dir, false).contains("Lua profile"));
    }
}
