//! Opening games: a mod's scenario, a saved game, or the running game replayed up to an action
//! after a reload; each becomes the running game through `install`, from a clean slate.

use super::*;

impl EditorApp {
    /// Loads `dir`, starts `scenario` (default: the first) with `seed` and shows its board; on
    /// failure the problems list gets every problem and the board keeps what it showed.
    pub(super) fn open_mod(&mut self, dir: PathBuf, scenario: Option<String>, seed: u64) {
        self.persisted.last_mod = Some(dir.clone());
        self.hovered = None;
        self.selected = None;
        self.run = None;
        self.watch(std::slice::from_ref(&dir));
        match Session::open_with(&dir, scenario.as_deref(), seed, self.mod_roots()) {
            Ok(s) => {
                let status = format!("{}: scenario {}, seed {seed}", dir.display(), s.scenario);
                self.install(dir, s, status);
            }
            Err(problems) => {
                self.status = format!("{}: failed to load", dir.display());
                self.rules = RulesStatus::Failed(problems.len());
                self.set_loads(&dir, Err(&problems));
                self.problems = problems;
            }
        }
    }

    /// Makes `s` (just opened from `dir`) the running game: a clean slate (no selection, no
    /// pending picks, no message of the last game) with `status` on the status line.
    pub(super) fn install(&mut self, dir: PathBuf, s: Session, status: String) {
        self.play_form.scenario.clone_from(&s.scenario);
        self.play_form.seed = s.seed.to_string();
        let dirs = s.mod_dirs.clone();
        let same_board = self.open.as_ref().is_some_and(|o| o.dir == dir);
        self.open = Some(s);
        self.watch(&dirs);
        self.problems.clear();
        // Hints, not load errors: data typos at the line they are made.
        self.problems.extend(typos::check(&dir));
        self.rules = RulesStatus::Ready;
        self.set_loads(&dir, Ok(()));
        self.last_reload = None;
        self.pending.clear();
        self.select_piece(None);
        self.play.message.clear();
        self.status = status;
        if !same_board {
            self.persisted.camera.pan = (0.0, 0.0);
            self.persisted.camera.zoom = 1.0;
        }
        self.after_change();
    }

    /// Saves the running game to `path` (the command line's save format).
    pub(super) fn save_game(&mut self, path: &Path) {
        let Some(s) = &self.open else { return };
        let m = match crate::saves::save_game(s, path) {
            Ok(()) => format!("game saved to {}", path.display()),
            Err(e) => format!("the game was not saved: {e}"),
        };
        self.set_message(m);
        self.refresh_play();
    }

    /// Starts the running game again under the rules now and replays its first `n` actions: after
    /// a reload that refuses action `n + 1`, the game goes on from a position the rules allow.
    pub(super) fn replay_up_to(&mut self, n: usize) {
        let Some(s) = &self.open else { return };
        let record = s.game.record();
        let dir = s.dir.clone();
        let opened = Session::open_game(
            &dir,
            Some(&record.scenario),
            record.options.clone(),
            record.seed,
            self.mod_roots(),
        );
        match opened {
            Ok(mut fresh) => {
                let upto = &record.actions[..n.min(record.actions.len())];
                let note = crate::saves::replay_actions(&mut fresh, upto);
                let status = match note {
                    Some(n) => format!("replayed under the new rules: {n}"),
                    None => format!(
                        "replayed the first {} {} under the new rules; the game goes on from there",
                        upto.len(),
                        if upto.len() == 1 { "action" } else { "actions" }
                    ),
                };
                self.take_replayed(dir, fresh, status);
            }
            Err(problems) => self.not_replayed(problems, "the game was not replayed"),
        }
    }

    /// Makes a game just replayed (from a save or after a reload) the running one.
    pub(super) fn take_replayed(&mut self, dir: PathBuf, s: Session, status: String) {
        self.run = None;
        self.install(dir, s, status.clone());
        self.set_message(status);
        self.refresh_play();
    }

    /// A replay that could not start: its problems listed, the running game kept.
    pub(super) fn not_replayed(&mut self, problems: Vec<Problem>, what: &str) {
        let first = problems
            .first()
            .map(ToString::to_string)
            .unwrap_or_default();
        self.problems.extend(problems);
        self.set_message(format!("{what}: {first}"));
    }

    /// Loads the save at `path` into the open mod (replaying its actions under the rules now).
    pub(super) fn load_game(&mut self, path: &Path) {
        let Some(dir) = self.open.as_ref().map(|s| s.dir.clone()) else {
            return self.set_message("open a mod first: saves are loaded into its rules".into());
        };
        match crate::saves::load_game(&dir, path, self.mod_roots()) {
            Ok(loaded) => {
                let mut status = format!("loaded {}", path.display());
                for n in &loaded.notes {
                    status += &format!("; {n}");
                }
                self.take_replayed(dir, loaded.session, status);
            }
            Err(problems) => self.not_replayed(problems, "the save was not loaded"),
        }
    }
}
