//! The `hexforge-editor` binary: opens the editor window (eframe, glow backend).
//!
//! Usage: `hexforge-editor [--demo hexagon|offset|sectors|explicit|graph] [--pointy]
//! [--open FILE[:LINE]] [--mods DIR] [--open-mod ID [--scenario ID] [--load SAVE] [--steps N]]`.
//! `--open-mod` opens a mod of the mods folder by id (or a mod folder by path) on its first
//! scenario (or `--scenario`);
//! `--load` then loads a saved game into it, and `--steps N` lets random bots play N moves on
//! every side (a game in play for a demo or a screenshot). The bundled mods folder is
//! `--mods`, else `mods/` in the working folder (as for the CLI); the user mods folder is the
//! CLI's too (`$HEXFORGE_MODS_DIR`, ...). Layout, camera and the last mod persist between runs (the
//! last mod is opened again at start unless the command line opens something).
//!
//! Without a display (no `DISPLAY` or `WAYLAND_DISPLAY`) it says so, points to `hexforge play`,
//! and plays the bundled orbital-skirmish headless instead (20 games, its greedy bot against
//! the random bot, exactly `hexforge play mods/orbital-skirmish --bots blue=greedy,red=random
//! --games 20`, through the same `hexforge_game::play` loop), so the README's first command does
//! the main job on a server too. If a display is set but the window cannot be created it says
//! so and exits with 1.

use hexforge_core::hex::layout::Orientation;
use hexforge_editor::app::{EditorApp, Persisted};
use hexforge_editor::command::Command;
use hexforge_editor::demo::DemoKind;
use hexforge_editor::session;
use hexforge_game::play::SeriesOptions;
use hexforge_script::paths;
use std::path::PathBuf;

/// The same allocator as the `hexforge` binary (bots and replays are allocation-heavy).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The shell eframe drives: the app plus the commands given on the command line.
struct Shell {
    app: EditorApp,
}

impl eframe::App for Shell {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.app.show(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, eframe::APP_KEY, &self.app.persisted);
    }
}

/// What the command line asks: commands to run first, the mods folder, the mod to open, and
/// commands to run once it is open.
type Args = (
    Vec<Command>,
    Option<PathBuf>,
    Option<String>,
    Option<String>,
    Vec<Command>,
);

fn parse_args() -> Args {
    let mut cmds = Vec::new();
    let mut after = Vec::new();
    let mut scenario = None;
    let mut mods = None;
    let mut open_mod = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--demo" => {
                let kind = match args.next().as_deref() {
                    Some("offset") => DemoKind::OffsetRect,
                    Some("sectors") => DemoKind::Sectors,
                    Some("explicit") => DemoKind::Explicit,
                    Some("graph") => DemoKind::Graph,
                    _ => DemoKind::Hexagon,
                };
                cmds.push(Command::ShowDemo(kind));
            }
            "--pointy" => cmds.push(Command::SetOrientation(Orientation::Pointy)),
            "--open" => {
                if let Some(spec) = args.next() {
                    // FILE:LINE, where LINE is a number.
                    let (path, line) = match spec.rsplit_once(':') {
                        Some((p, l)) if l.parse::<usize>().is_ok() => {
                            (p.to_owned(), l.parse().ok())
                        }
                        _ => (spec, None),
                    };
                    cmds.push(Command::OpenFile {
                        path: path.into(),
                        line,
                    });
                }
            }
            "--mods" => mods = args.next().map(PathBuf::from),
            "--open-mod" => open_mod = args.next(),
            "--scenario" => scenario = args.next(),
            "--load" => after.extend(args.next().map(|p| Command::LoadGame(p.into()))),
            "--steps" => match args.next().and_then(|n| n.parse::<usize>().ok()) {
                Some(n) => {
                    after.push(Command::AllSides("random".into()));
                    after.extend(std::iter::repeat_n(Command::BotStep, n));
                }
                None => eprintln!("hexforge-editor: --steps takes a number of moves"),
            },
            other => eprintln!("hexforge-editor: ignoring unknown argument {other}"),
        }
    }
    (cmds, mods, open_mod, scenario, after)
}

/// What to tell a user without a display.
const NO_DISPLAY: &str = "hexforge-editor needs a display (no DISPLAY or WAYLAND_DISPLAY is set).\n\
     To play a mod without one, use the command line: `hexforge play <mod>` \
     (e.g. `cargo run -p hexforge -- play mods/tutorial`); \
     or run the editor under a virtual display: `xvfb-run -a hexforge-editor`.";

fn has_display() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|k| std::env::var_os(k).is_some_and(|v| !v.is_empty()))
}

/// The bundled mods folder: `--mods`, else `mods/` in the working folder.
fn mods_dir(arg: Option<PathBuf>) -> PathBuf {
    arg.unwrap_or_else(paths::bundled_dir)
}

/// No display: the same games `hexforge play` would play, in the terminal.
fn play_headless() -> std::process::ExitCode {
    let (_, mods, _, _, _) = parse_args();
    let game = mods_dir(mods).join("orbital-skirmish");
    eprintln!(
        "{NO_DISPLAY}\n\nPlaying the bundled orbital-skirmish headless instead: \
         hexforge play {} --bots blue=greedy,red=random --games 20\n",
        game.display()
    );
    let opts = SeriesOptions {
        games: 20,
        bots: "blue=greedy,red=random".parse().expect("a valid bot spec"),
        ..SeriesOptions::default()
    };
    // The mod is found, and finds its dependencies, where `hexforge play` looks: `./mods`, then
    // the user mods folder.
    let game = match paths::resolve(&game.to_string_lossy()) {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("error: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let bar = progress_bar(opts.games);
    let stdout = std::io::stdout();
    let played = session::play_series(
        &game,
        paths::search_dirs(),
        &opts,
        &mut stdout.lock(),
        || bar.inc(1),
    );
    bar.finish_and_clear();
    match played {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// `hexforge play`'s progress bar: on stderr, only for a person watching.
fn progress_bar(games: u64) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    use std::io::IsTerminal;
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

fn main() -> std::process::ExitCode {
    if !has_display() {
        return play_headless();
    }
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hexforge-editor: could not open a window: {e}\n{NO_DISPLAY}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run() -> eframe::Result {
    let (mut cmds, mods, open_mod, scenario, after) = parse_args();
    let mods = mods_dir(mods);
    if let Some(m) = open_mod {
        // An id of the mods folder first; else a path to a mod folder.
        let by_id = mods.join(&m);
        let dir = if by_id.join("mod.toml").is_file() {
            by_id
        } else {
            PathBuf::from(m)
        };
        cmds.push(Command::OpenMod(dir.clone()));
        if let Some(scenario) = scenario {
            cmds.push(Command::OpenScenario { dir, scenario });
        }
        cmds.extend(after);
    }
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Hexforge editor")
            .with_inner_size([1280.0, 800.0]),
        ..Default::default()
    };
    eframe::run_native(
        "hexforge-editor",
        options,
        Box::new(move |cc| {
            let persisted: Persisted = cc
                .storage
                .and_then(|s| eframe::get_value(s, eframe::APP_KEY))
                .unwrap_or_default();
            let mut app = EditorApp::new(persisted, mods);
            if !cmds
                .iter()
                .any(|c| matches!(c, Command::OpenMod(_) | Command::ShowDemo(_)))
            {
                cmds.splice(0..0, app.restore_commands());
            }
            for c in cmds {
                app.apply(c);
            }
            Ok(Box::new(Shell { app }))
        }),
    )
}
