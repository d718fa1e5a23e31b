//! The balance lab in the editor: the open mod against another rule set (its base, for a
//! variant) on the same seeds, as `hexforge compare` plays it, while the window keeps drawing.
//!
//! A [`CompareJob`] runs on its own thread with its own Lua VMs (one per rule set, loaded there
//! from the mods' folders exactly as the session loads them): the game being played in the
//! editor, its VM and its undo history are never touched. The thread sends a line per finished
//! game and, at the end, the report; [`CompareJob::poll`] reads them each frame. A cancel
//! stops it after the game it is playing.
//!
//! **What it deliberately does not do:** compute anything: the games are
//! `hexforge_game::series`', the numbers `hexforge_game::balance`'s, the text
//! `write_compare`'s, so the editor says what the command line says.

use crate::session::load_rules_for_play;
use hexforge_game::balance::{Comparison, RuleSetReport, write_compare};
use hexforge_game::play::{BotSpec, Bots, SeriesOptions, play_series_with};
use hexforge_game::sweep::{Command, GameRow, Sweep};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};

/// What to compare.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareSpec {
    /// Rule set A (the open mod) and B (the other), by folder.
    pub mods: [PathBuf; 2],
    /// Where mods they depend on are also looked for.
    pub extra_roots: Vec<PathBuf>,
    /// The scenario both play.
    pub scenario: String,
    /// Games per rule set.
    pub games: u64,
    /// The first seed.
    pub seed: u64,
    /// Who plays.
    pub bots: BotSpec,
}

impl CompareSpec {
    /// The rule sets' names in the report: the mods' folder names ("X (A)" when both are one).
    #[must_use]
    pub fn names(&self) -> [String; 2] {
        let name = |p: &PathBuf| {
            p.file_name()
                .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
        };
        let [a, b] = [name(&self.mods[0]), name(&self.mods[1])];
        if a == b {
            [format!("{a} (A)"), format!("{b} (B)")]
        } else {
            [a, b]
        }
    }

    /// The command that plays the same comparison (and can draw its chart).
    #[must_use]
    pub fn command_line(&self) -> String {
        format!(
            "hexforge compare {} {} --scenario {} --games {} --seed {} --bots {} --chart chart.svg",
            self.mods[0].display(),
            self.mods[1].display(),
            self.scenario,
            self.games,
            self.seed,
            self.bots.as_arg()
        )
    }
}

/// A message from the thread.
enum Msg {
    /// Rule set `set` (0 = A) finished `done` games.
    Game { set: usize, done: u64 },
    /// The report, or why there is none.
    Done(Box<Result<(String, Comparison), String>>),
}

/// A comparison running (or finished).
#[derive(Debug)]
pub struct CompareJob {
    /// What is compared.
    pub spec: CompareSpec,
    /// Games finished per rule set.
    pub done: [u64; 2],
    /// The report text (as `hexforge compare` prints it) and its numbers, or the error, once
    /// the thread ends.
    pub result: Option<Result<(String, Comparison), String>>,
    rx: Receiver<Msg>,
    cancel: Arc<AtomicBool>,
}

impl CompareJob {
    /// Starts `spec` on a thread of its own.
    #[must_use]
    pub fn start(spec: CompareSpec) -> CompareJob {
        let (tx, rx) = channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let (job_spec, stop) = (spec.clone(), Arc::clone(&cancel));
        std::thread::spawn(move || {
            let result = run(&job_spec, &tx, &stop);
            // The editor may have gone: nobody to tell.
            let _ = tx.send(Msg::Done(Box::new(result)));
        });
        CompareJob {
            spec,
            done: [0, 0],
            result: None,
            rx,
            cancel,
        }
    }

    /// Reads what the thread sent; true when something changed.
    pub fn poll(&mut self) -> bool {
        let mut changed = false;
        while let Ok(msg) = self.rx.try_recv() {
            changed = true;
            match msg {
                Msg::Game { set, done } => self.done[set] = done,
                Msg::Done(result) => self.result = Some(*result),
            }
        }
        changed
    }

    /// Whether the thread is still playing.
    #[must_use]
    pub fn running(&self) -> bool {
        self.result.is_none()
    }

    /// Asks the thread to stop after the game it is playing.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// "A: 12/40 games, B: 0/40".
    #[must_use]
    pub fn progress(&self) -> String {
        format!(
            "A: {}/{} games, B: {}/{}",
            self.done[0], self.spec.games, self.done[1], self.spec.games
        )
    }
}

/// The thread's work: both rule sets' games, then the report.
fn run(
    spec: &CompareSpec,
    tx: &Sender<Msg>,
    cancel: &AtomicBool,
) -> Result<(String, Comparison), String> {
    let names = spec.names();
    let opts = SeriesOptions {
        seed: spec.seed,
        games: spec.games,
        bots: spec.bots.clone(),
        ..SeriesOptions::default()
    };
    let mut reports = Vec::new();
    for (set, dir) in spec.mods.iter().enumerate() {
        let loaded = load_rules_for_play(dir, spec.extra_roots.clone())?;
        let rules = &loaded.rules;
        if !loaded.scenarios.contains(&spec.scenario) {
            return Err(format!(
                "{} has no scenario `{}` (it has: {})",
                dir.display(),
                spec.scenario,
                loaded.scenarios.join(", ")
            ));
        }
        let setup = loaded.setup(dir, &spec.scenario, &spec.bots)?;
        let bots = Bots {
            spec: Some(&spec.bots),
        };
        let mut rows: Vec<GameRow> = Vec::new();
        let played = play_series_with(
            || rules,
            &setup,
            &opts,
            bots,
            &mut std::io::sink(),
            |row| {
                rows.push(row.clone());
                let _ = tx.send(Msg::Game {
                    set,
                    done: rows.len() as u64,
                });
                if cancel.load(Ordering::Relaxed) {
                    return Err(std::io::Error::other("cancelled"));
                }
                Ok(())
            },
        );
        if cancel.load(Ordering::Relaxed) {
            return Err(format!(
                "cancelled after {} games of {}",
                rows.len(),
                names[set]
            ));
        }
        played.map_err(|e| format!("{}: {}", names[set], crate::session::error_chain(&e)))?;
        rows.sort_by_key(|r| r.seed);
        reports.push(RuleSetReport::of(&names[set], &rows));
    }
    let b = reports.pop().expect("two rule sets");
    let a = reports.pop().expect("two rule sets");
    let comparison = Comparison::of(a, b);
    let sweep = Sweep {
        command: Command::Compare,
        rule_sets: names.to_vec(),
        scenario: spec.scenario.clone(),
        bots: spec.bots.clone(),
        first_seed: spec.seed,
        games: spec.games,
    };
    let mut text = Vec::new();
    write_compare(&sweep, None, &comparison, false, &mut text).map_err(|e| e.to_string())?;
    Ok((String::from_utf8_lossy(&text).into_owned(), comparison))
}
