//! Playing the running game: moves by hand (clicks on the board, the play panel), bot steps and
//! runs (a slice or a paced move per frame), and what the board and play panel show of it.

use super::*;

impl EditorApp {
    /// Runs a play step on the session and reports its result.
    pub(super) fn play_step(
        &mut self,
        f: fn(&mut Session) -> Result<Result<(), Illegal>, SessionError>,
        done: &str,
    ) {
        let Some(s) = &mut self.open else { return };
        match f(s) {
            Ok(Ok(())) => self.set_message(done.to_owned()),
            Ok(Err(ill)) => self.set_message(format!("illegal: {}", ill.reason)),
            Err(e) => self.rules_fault(&e),
        }
        self.after_change();
    }

    pub(super) fn history(&mut self, f: fn(&mut Session) -> bool, done: &str, nothing: &str) {
        let Some(s) = &mut self.open else { return };
        let m = if f(s) { done } else { nothing };
        self.set_message(m.to_owned());
        self.pending.clear();
        self.after_change();
    }

    pub(super) fn perform(&mut self, a: &Action) {
        let Some(s) = &mut self.open else { return };
        let words = session::describe(s.decls(), s.game.state(), a, None);
        match s.perform(a) {
            Ok(Ok(())) => self.set_message(format!("{} by {}: {words}", a.id, a.side)),
            Ok(Err(ill)) => self.set_message(format!("illegal: {}", ill.reason)),
            Err(e) => self.rules_fault(&e),
        }
        self.pending.clear();
        self.after_change();
    }

    /// One bot move (or a slice of a search bot's thinking); false when the run should stop.
    pub(super) fn bot_step(&mut self, run: &mut BotRun) -> bool {
        let Some(s) = &mut self.open else {
            return false;
        };
        let step = s.bot_step_until(&self.bots, Some(Instant::now() + BOT_SLICE));
        if !matches!(step, Ok(BotStep::Thinking { .. })) {
            run.steps += 1;
            run.thinking = None;
        }
        match step {
            Ok(BotStep::Thinking {
                side,
                iterations,
                elapsed,
            }) => {
                let bot = self.bots.get(side.as_str()).map_or("", String::as_str);
                run.thinking = Some(format!(
                    "{bot} thinking for {side}: {iterations} simulations, {:.1} s",
                    elapsed.as_secs_f64()
                ));
                true
            }
            Ok(BotStep::Acted(a)) => {
                let words = session::describe(s.decls(), s.game.state(), &a, None);
                self.status = format!("bot: {} by {}: {words}", a.id, a.side);
                !run.single
            }
            Ok(BotStep::Refused(_, ill)) => {
                run.refused += 1;
                self.status = format!("bot pick refused: {}", ill.reason);
                !run.single
            }
            Ok(BotStep::Over) => false,
            Ok(BotStep::Stuck(why)) => {
                self.set_message(format!("bots stopped: {why}"));
                false
            }
            Ok(BotStep::Human(sides)) => {
                let names: Vec<&str> = sides.iter().map(SideId::as_str).collect();
                self.set_message(format!(
                    "your move: {} (played by hand; choose a bot for it to let bots play on)",
                    names.join(", ")
                ));
                false
            }
            Err(e) => {
                self.rules_fault(&e);
                false
            }
        }
    }

    /// The per-frame work: poll the file watcher (hot reload), and run a slice of a bot game.
    pub fn tick(&mut self) {
        let changed: Vec<PathBuf> = self
            .watcher
            .as_ref()
            .map(ModWatcher::poll)
            .unwrap_or_default();
        let changed: Vec<PathBuf> = changed
            .into_iter()
            .filter(|p| self.in_open_mod(p))
            .filter(|p| self.self_saved.get(&paths::canonical(p)) != Some(&stamp(p)))
            .collect();
        if let Some(first) = changed.first() {
            let n = changed.len();
            let what = format!(
                "{}{}",
                first.display(),
                if n > 1 { " and more" } else { "" }
            );
            self.hot_reload();
            self.status = format!("{what} changed: {}", self.status);
        }
        if let (Some(s), Some(r)) = (&mut self.open, &mut self.last_reload)
            && let Some(st) = s.replay_step(Budget::Time(REPLAY_SLICE))
        {
            r.replay = st;
        }
        if let Some(mut run) = self.run.take() {
            let t = Instant::now();
            let mut going = true;
            let steps = run.steps;
            let pace = Duration::from_millis(u64::from(self.persisted.pace_ms));
            if pace.is_zero() {
                while going && t.elapsed() < BOT_SLICE {
                    going = run.steps < MAX_BOT_STEPS && self.bot_step(&mut run);
                }
            } else if run.last.is_none_or(|last| last.elapsed() >= pace) {
                // One move, then wait: the board shows it (marked) until the next.
                going = run.steps < MAX_BOT_STEPS && self.bot_step(&mut run);
                if run.thinking.is_none() {
                    run.last = Some(t);
                }
            } else {
                // Waiting between moves: nothing changed.
                self.run = Some(run);
                return;
            }
            if going && run.steps == steps {
                // Thinking, nothing played yet: only the progress line changes.
                self.run = Some(run);
                return self.refresh_play();
            }
            let single = run.single;
            if going {
                self.run = Some(run);
            } else if let Some(s) = &self.open
                && !single
            {
                let st = s.status();
                let end = st.outcome.map_or_else(
                    || format!("stopped in round {}", st.round),
                    |o| format!("game over: {}", outcome_line(&o)),
                );
                self.set_message(format!(
                    "bots played {} steps ({} refused): {end}",
                    run.steps, run.refused
                ));
            }
            self.after_change();
        }
    }

    /// Selects a piece (or none) and reads its legal actions.
    pub(super) fn select_piece(&mut self, p: Option<PieceId>) {
        self.selected_piece = p;
        // The game or the selection changed: the hovered hex is asked about again.
        self.hover_why_at = None;
        self.hover_why = None;
        if p.is_some() {
            self.inspect.piece = p;
        }
        self.pending.clear();
        self.choices = match (&self.open, p) {
            (Some(s), Some(p)) => session::piece_choices(s.decls(), s.game.state(), &s.legal, p),
            _ => PieceChoices::default(),
        };
        self.free = match &self.open {
            Some(s) => session::free_choices(s.decls(), s.game.state(), &s.legal),
            None => PieceChoices::default(),
        };
        // A broken label spoils only the wording: the choices keep their plain descriptions.
        let Some(s) = &self.open else { return };
        for list in [&mut self.choices, &mut self.free] {
            list.labels =
                labels(s.game.rules(), s.game.state(), &list.actions).unwrap_or_else(|e| {
                    self.status = format!("{e} (the choices are listed without their labels)");
                    Vec::new()
                });
        }
    }

    /// After the game changed: the board, the selection's choices and the play panel.
    pub(super) fn after_change(&mut self) {
        let Some(s) = &self.open else { return };
        self.scene = s.scene();
        self.scene.last = session::last_action_hexes(s);
        let keep = self
            .selected_piece
            .filter(|p| s.game.state().pieces.contains_key(p));
        let pending = std::mem::take(&mut self.pending);
        self.select_piece(keep);
        // Pending picks stay only while every one is still legal.
        if let Some(s) = &self.open
            && pending.iter().all(|a| s.legal.contains(a))
        {
            self.pending = pending;
        }
        self.refresh_play();
    }

    /// Rebuilds what the play panel shows.
    pub(super) fn refresh_play(&mut self) {
        let Some(s) = &self.open else {
            self.play = PlayView::default();
            return;
        };
        let (decls, state) = (s.decls(), s.game.state());
        let label = |id: PieceId| {
            state.pieces.get(&id).map_or(format!("#{}", id.0), |p| {
                format!("#{} {} ({})", id.0, p.kind, p.owner.as_str())
            })
        };
        let listed = |a: &Action, actor: Option<PieceId>| -> Listed {
            let words = session::describe(decls, state, a, actor);
            let text = if actor.is_some() {
                words
            } else {
                format!("{} ({}) {words}", a.id, a.side)
                    .trim_end()
                    .to_owned()
            };
            (text, a.clone())
        };
        // An action's declared label if it has one, else its params in words.
        let words = |a: &Action| -> Listed {
            let label = [&self.choices, &self.free].into_iter().find_map(|c| {
                let i = c.actions.iter().position(|x| x == a)?;
                c.labels.get(i)?.as_ref()
            });
            match label {
                Some(l) => (l.text.clone(), a.clone()),
                None => listed(
                    a,
                    self.selected_piece
                        .filter(|_| self.choices.actions.contains(a)),
                ),
            }
        };
        let mut groups: BTreeMap<String, Vec<Listed>> = BTreeMap::new();
        for a in &self.choices.actions {
            groups.entry(a.id.clone()).or_default().push(words(a));
        }
        let message = std::mem::take(&mut self.play.message);
        self.play = PlayView {
            status: s.status(),
            scenarios: s.scenarios.clone(),
            bot_names: s.bot_names.clone(),
            bots: self.bots.clone(),
            pieces: session::pieces_with_actions(decls, state, &s.legal)
                .into_iter()
                .map(|p| (p, label(p)))
                .collect(),
            selected: self.selected_piece.map(|p| (p, label(p))),
            groups: groups.into_iter().collect(),
            free: self.free.actions.iter().map(words).collect(),
            pending: self.pending.iter().map(words).collect(),
            message,
            progress: self.run.as_ref().map(|r| {
                let st = &s.game.state().clock;
                r.thinking.clone().unwrap_or_else(|| {
                    format!("bots playing: {} steps, round {}", r.steps, st.round)
                })
            }),
            pace_ms: self.persisted.pace_ms,
            save_path: crate::saves::default_path(s).display().to_string(),
            saves: crate::saves::saves_of(s),
        };
    }
}

fn outcome_line(o: &hexforge_game::Outcome) -> String {
    let w: Vec<&str> = o.winners.iter().map(|w| w.as_str()).collect();
    match w.as_slice() {
        [] => format!("draw: {}", o.reason),
        _ => format!("{} wins: {}", w.join(", "), o.reason),
    }
}
