//! `hexforge play <mod>`: headless bot games.
//!
//! One game prints its result (and can be saved); `--games N` plays seeds `seed..seed+N` and
//! prints the rule set's report (win rates per side with 95% intervals, the first mover,
//! lengths, how games ended, time per game); `--shard K/N` plays the K-th of N seed ranges
//! and `--jsonl` writes one line per game for `hexforge stats merge`. The loop and the output
//! are `hexforge_game::series`' ([`play_series_with`], [`write_series`]), shared with the
//! editor's headless fallback; this file adds the mod, the arguments, the JSONL lines and the
//! progress bar. [`play_games`] is generic over [`Rules`] so it is tested with Rust rules.

use crate::cli::PlayArgs;
use crate::jsonl::Jsonl;
use crate::runtime;
use anyhow::{Context, bail};
use hexforge_game::Rules;
use hexforge_game::Value;
pub use hexforge_game::play::GameSetup;
use hexforge_game::play::{Bots, SeriesError, SeriesOptions, play_series_with, write_series};
use hexforge_game::sweep::GameLine;
use hexforge_script::paths;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// Functions listed by `--profile` (by self and by inclusive samples).
const PROFILE_TOP: usize = 15;

/// Runs `play` on a mod.
///
/// # Errors
/// A missing or broken mod, an unknown scenario, a game that fails or does not finish, or a
/// save that cannot be written.
pub fn run(args: &PlayArgs, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let dir = paths::resolve(&args.module)?;
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
    if let Err(e) = args.bots.check(&have) {
        bail!("{}: {e}", dir.display());
    }
    let bots = Bots {
        spec: Some(&args.bots),
    };
    let lua = loaded.lua.loaded().sandbox.lua();
    if args.profile {
        hexforge_script::profile::enable(lua);
    }
    play_games(|| loaded.rules(), &setup, args, bots, out)?;
    if let Some(profile) = hexforge_script::profile::disable(lua) {
        write!(out, "{}", profile.render(PROFILE_TOP))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Plays `args.games` bot games (or `args.shard`'s) with rules from `make_rules` (one value per
/// game) and writes the result to `out`, and each game's line to `args.jsonl` (with `-`, the
/// lines go to `out` and the result to stderr).
///
/// # Errors
/// The first game that fails or does not finish (naming its seed), `--save` with several
/// games, or an I/O error.
pub fn play_games<R: Rules>(
    make_rules: impl FnMut() -> R,
    setup: &GameSetup,
    args: &PlayArgs,
    bots: Bots<'_>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    if args.games > 1 && args.save.is_some() {
        bail!("--save writes one game; drop --games or --save");
    }
    let opts = SeriesOptions {
        seed: args.seed,
        games: args.games,
        shard: args.shard,
        bots: args.bots.clone(),
        save: args.save.clone(),
        log: args.log,
        json: args.json,
        max_steps: args.max_steps,
    };
    let mut stderr = std::io::stderr();
    let (out, mut lines): (&mut dyn Write, _) = match &args.jsonl {
        Some(path) if Jsonl::is_stdout(path) => (&mut stderr, Some(Jsonl::to(out))),
        Some(path) => (out, Some(Jsonl::create(path)?)),
        None => (out, None),
    };
    let sweep = opts.sweep(setup);
    let bar = progress_bar(opts.seeds().end - opts.seeds().start);
    let series = play_series_with(make_rules, setup, &opts, bots, out, |game| {
        bar.inc(1);
        match &mut lines {
            Some(lines) => lines.write(&GameLine {
                sweep: sweep.clone(),
                shard: opts.shard,
                rules: setup.title.clone(),
                game: game.clone(),
            }),
            None => Ok(()),
        }
    })
    .map_err(series_error)?;
    bar.finish_and_clear();
    write_series(setup, &opts, &series, out).map_err(series_error)
}

/// The error as this crate reports it: the underlying error with the game's seed as context, so
/// `error: game with seed 3: ...` reads as before and a broken pipe is still recognised.
pub(crate) fn series_error(e: SeriesError) -> anyhow::Error {
    match e {
        SeriesError::Game { seed, error } => {
            anyhow::Error::new(error).context(format!("game with seed {seed}"))
        }
        SeriesError::Save(e) => e.into(),
        SeriesError::Io(e) => e.into(),
        SeriesError::Json(e) => e.into(),
    }
}

pub(crate) fn progress_bar(games: u64) -> ProgressBar {
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

#[cfg(test)]
mod tests {
    use super::*;
    use hexforge_game::play::BotSpec;
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
            shard: None,
            jsonl: None,
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
