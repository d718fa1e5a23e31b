//! Listing the legal actions: every action's `choices` in one guarded call with one ctx, all
//! converted to [`Action`]s or only the one a bot picks, and the engine's `end_phase` last; and
//! running an action's `check`.

use super::*;

impl LuaRules {
    /// Every action's choices for `side` in one guarded call with one ctx, and with `with_end`
    /// the engine's `end_phase` last when the rules' check allows it (checked with the same
    /// ctx: the state is the same).
    pub(super) fn listing(
        &self,
        state: &GameState,
        side: &SideId,
        with_end: bool,
    ) -> Result<Vec<Action>, RulesError> {
        self.list(state, side, with_end, Mode::All)
    }

    /// The action at index `pick(n)` of [`LuaRules::listing`]'s list with `end_phase` (of
    /// length `n`): the same Lua calls, but only the picked choice is converted to an
    /// [`Action`].
    pub(super) fn picked(
        &self,
        state: &GameState,
        side: &SideId,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Result<Option<Action>, RulesError> {
        Ok(self.list(state, side, true, Mode::Pick(pick))?.pop())
    }

    /// The body of [`LuaRules::listing`] and [`LuaRules::picked`]: every action's choices, then
    /// `end_phase`, converted all (`Mode::All`) or only the picked one (at most one action).
    pub(super) fn list(
        &self,
        state: &GameState,
        side: &SideId,
        with_end: bool,
        mode: Mode<'_>,
    ) -> Result<Vec<Action>, RulesError> {
        let mut listed = Vec::new();
        let phase = state.phase_id(&self.turns);
        for (id, decl) in &self.loaded.decls.actions {
            // The engine adds end_phase itself (when the rules' check allows it).
            let Some(choices) = decl
                .choices
                .filter(|_| id != hexforge_game::action::END_PHASE)
            else {
                continue;
            };
            // As `phase_allows`, without building a probe action and its refusal text for
            // every action of other phases (a listing runs after every action).
            if !declared_for(&decl.phases, phase) || decl.answer != state.clock.asked.is_some() {
                continue;
            }
            listed.push((id, self.function(choices)?));
        }
        // end_phase: allowed without a call unless the rules declare a check for it in this
        // phase (as in `run_check`).
        let end = Action::end_phase(side.clone());
        let with_end = with_end && state.clock.end_phase_refused().is_none();
        let end_phase = match (with_end, self.end_phase_check(state)) {
            (false, _) => EndPhase::NotListed,
            (true, None) => EndPhase::Allowed,
            (true, Some(cb)) => EndPhase::Check(self.function(cb)?),
        };
        if listed.is_empty() {
            match end_phase {
                EndPhase::NotListed => return Ok(Vec::new()),
                EndPhase::Allowed => {
                    return match mode {
                        Mode::All => Ok(vec![end]),
                        Mode::Pick(pick) => pick_index(pick, 1).map(|_| vec![end]),
                    };
                }
                EndPhase::Check(_) => {}
            }
        }
        let picking = matches!(mode, Mode::Pick(_));
        let mut out = Vec::new();
        // An out-of-range pick, reported after the guarded call (it is not a Lua error).
        let mut bad_pick = None;
        let sandbox = &self.loaded.sandbox;
        // One ctx for the whole listing: the state cannot change between the choices of one
        // listing, so they share it (and whatever a mod memoises on it), and building a ctx is
        // a good part of a small callback's cost. Each choices still gets the whole budget.
        sandbox
            .guarded(|lua| {
                {
                    let (ctx, _session) = open_ctx(lua, Access::Read(state), self, false)?;
                    // A kept string: side ids repeat in every listing.
                    let who = self.templates.string(lua, side.as_str())?;
                    // Picking: each action's choices table and its items, unconverted.
                    let mut kept = Vec::new();
                    // Every choices in one call (each with the whole budget), the first result
                    // of each, in order.
                    let mut results = Vec::with_capacity(listed.len());
                    while results.len() < listed.len() {
                        if !results.is_empty() {
                            // `each` stopped early (see there): mlua installs the hook again
                            // before the rest.
                            sandbox.refill()?;
                        }
                        let mut args = MultiValue::with_capacity(2 + listed.len());
                        args.push_back(Value::Table(ctx.clone()));
                        args.push_back(who.clone());
                        args.extend(
                            listed[results.len()..]
                                .iter()
                                .map(|(_, f)| Value::Function(f.clone())),
                        );
                        let got: MultiValue = sandbox.each_refilled().call(args)?;
                        if got.is_empty() {
                            // Never: a refill leaves nothing re-armed, so the first runs.
                            return Err(mlua::Error::runtime(
                                "internal: the choices were not called (a bug in Hexforge)",
                            ));
                        }
                        results.extend(got);
                    }
                    for ((id, _), first) in listed.iter().zip(results) {
                        let result = match first {
                            // A choice list alone stands for a list of its choices.
                            v @ Value::UserData(_) if choice_list(&v).is_some() => {
                                Value::Table(lua.create_sequence_from([v])?)
                            }
                            other => other,
                        };
                        if let Value::Table(t) = result {
                            if picking {
                                let items = ChoiceItems::read(lua, &t)?;
                                kept.push((*id, t, items));
                            } else {
                                for params in choices_to_json(lua, id, &t)? {
                                    out.push(choice_action(id, side, params));
                                }
                            }
                        }
                    }
                    let end_allowed = match &end_phase {
                        EndPhase::Check(f) => {
                            sandbox.refill()?;
                            let args = (ctx.clone(), self.action_table(lua, &end)?);
                            let verdict = verdict("check")(lua, f.call::<MultiValue>(args)?)?;
                            matches!(verdict, Some(Ok(())) | None)
                        }
                        EndPhase::Allowed => true,
                        EndPhase::NotListed => false,
                    };
                    let Mode::Pick(pick) = mode else {
                        if end_allowed {
                            out.push(end.clone());
                        }
                        return Ok(());
                    };
                    let total = kept.iter().map(|(_, _, n)| n.total()).sum::<usize>()
                        + usize::from(end_allowed);
                    if total == 0 {
                        return Ok(());
                    }
                    let mut i = match pick_index(pick, total) {
                        Ok(i) => i,
                        Err(e) => {
                            bad_pick = Some(e);
                            return Ok(());
                        }
                    };
                    for (id, t, items) in &kept {
                        if i < items.total() {
                            let params = match items.locate(i) {
                                Located::Item(k) => {
                                    // Lua lists count from 1.
                                    let v: Value = t.raw_get(k + 1)?;
                                    from_lua(lua, v, &format_args!("action {id}: choices"))?
                                }
                                Located::InList(list, k) => list.params(k).unwrap_or(Json::Null),
                            };
                            out.push(choice_action(id, side, params));
                            return Ok(());
                        }
                        i -= items.total();
                    }
                    // Past every choice: the one left is end_phase (`total` counted it).
                    out.push(end.clone());
                    Ok(())
                }
            })
            .map_err(rerr)?;
        match bad_pick {
            Some(e) => Err(e),
            None => Ok(out),
        }
    }

    /// The declared check of `end_phase` that applies in this phase, if any. The engine's
    /// end_phase is always known; a declared `end_phase` only adds a check, and only in the
    /// phases it lists (all phases when it lists none).
    pub(super) fn end_phase_check(&self, state: &GameState) -> Option<CallbackId> {
        let decl = self
            .loaded
            .decls
            .actions
            .get(hexforge_game::action::END_PHASE)?;
        if !declared_for(&decl.phases, state.phase_id(&self.turns)) {
            return None;
        }
        decl.check
    }

    /// Runs an action's `check` on a state (for `ctx:legal` and [`Rules::check`]).
    pub(super) fn run_check(
        &self,
        state: &GameState,
        action: &Action,
    ) -> Result<Result<(), Illegal>, RulesError> {
        let check = if action.is_end_phase() {
            if let Some(refused) = state.clock.end_phase_refused() {
                return Ok(Err(refused));
            }
            self.end_phase_check(state)
        } else {
            if let Err(i) = self.phase_allows(state, action) {
                return Ok(Err(i));
            }
            self.loaded
                .decls
                .actions
                .get(&action.id)
                .and_then(|d| d.check)
        };
        let Some(check) = check else {
            return Ok(Ok(()));
        };
        let r = self.call(
            Access::Read(state),
            check,
            |lua| {
                Ok(MultiValue::from_iter([Value::Table(
                    self.action_table(lua, action)?,
                )]))
            },
            verdict("check"),
        )?;
        Ok(r.unwrap_or(Ok(())))
    }
}

/// What a listing converts.
pub(super) enum Mode<'p> {
    /// Every listed action.
    All,
    /// Only the action at the index this answers for the listing's length.
    Pick(&'p mut dyn FnMut(usize) -> usize),
}

/// The items of a `choices` result, `t[1], t[2], ...` up to the first nil (the items
/// [`choices_to_json`] converts), and the choice lists among them: each stands for its
/// choices, in its place.
pub(super) struct ChoiceItems {
    items: usize,
    /// (position from 0, the list), in order.
    lists: Vec<(usize, ChoiceList)>,
}

impl ChoiceItems {
    fn read(lua: &Lua, t: &Table) -> mlua::Result<ChoiceItems> {
        let (items, userdata) = match lua.app_data_ref::<RawReader>() {
            Some(r) => r.sequence_items(lua, t)?,
            None => {
                let mut n = 0;
                let mut userdata = Vec::new();
                for v in t.sequence_values::<Value>() {
                    if matches!(v?, Value::UserData(_)) {
                        userdata.push(n);
                    }
                    n += 1;
                }
                (n, userdata)
            }
        };
        let mut lists = Vec::new();
        for k in userdata {
            if let Some(list) = choice_list(&t.raw_get(k + 1)?) {
                lists.push((k, list));
            }
        }
        Ok(ChoiceItems { items, lists })
    }

    /// How many choices: the items, each list counting as its choices.
    fn total(&self) -> usize {
        self.items - self.lists.len() + self.lists.iter().map(|(_, l)| l.len()).sum::<usize>()
    }

    /// Where choice `i` (from 0, below [`ChoiceItems::total`]) is.
    fn locate(&self, mut i: usize) -> Located<'_> {
        let mut item = 0;
        for (at, list) in &self.lists {
            let plain = at - item;
            if i < plain {
                return Located::Item(item + i);
            }
            i -= plain;
            if i < list.len() {
                return Located::InList(list, i);
            }
            i -= list.len();
            item = at + 1;
        }
        Located::Item(item + i)
    }
}

/// Where the choice at one index of a `choices` result is.
pub(super) enum Located<'a> {
    /// Item `k` (from 0) of the result.
    Item(usize),
    /// Choice `k` (from 0) of a choice list.
    InList(&'a ChoiceList, usize),
}

/// The choice list `v` is, if it is one.
pub(super) fn choice_list(v: &Value) -> Option<ChoiceList> {
    match v {
        Value::UserData(ud) => ud.borrow::<ChoiceList>().ok().map(|l| l.clone()),
        _ => None,
    }
}

/// Every choice of a `choices` result as JSON, choice lists expanded in place: in one call off
/// the Lua stack, and item by item through serde where that call could not read an item (serde's
/// errors name the problem).
pub(super) fn choices_to_json(lua: &Lua, id: &str, t: &Table) -> mlua::Result<Vec<Json>> {
    // An item the one call could not read: a choice list's choices, or serde's answer.
    let slow = |out: &mut Vec<Json>, v: Value| -> mlua::Result<()> {
        match choice_list(&v) {
            Some(list) => out.extend(list.all_params()),
            None => out.push(from_lua(lua, v, &format_args!("action {id}: choices"))?),
        }
        Ok(())
    };
    let read = lua
        .app_data_ref::<RawReader>()
        .map(|r| r.list_to_json(lua, t))
        .transpose()?;
    let mut out = Vec::new();
    let Some(read) = read else {
        for v in t.sequence_values::<Value>() {
            slow(&mut out, v?)?;
        }
        return Ok(out);
    };
    out.reserve(read.len());
    for (k, j) in read.into_iter().enumerate() {
        match j {
            Some(j) => out.push(j),
            None => slow(&mut out, t.raw_get(k + 1)?)?,
        }
    }
    Ok(out)
}

/// The action of one listed choice: its params without `id` and `side` (those come from the
/// listing).
pub(super) fn choice_action(id: &str, side: &SideId, mut params: Json) -> Action {
    if let Json::Object(m) = &mut params {
        m.remove("id");
        m.remove("side");
    }
    Action::new(id.to_owned(), side.clone(), params)
}

/// What a listing does about the engine's `end_phase`.
pub(super) enum EndPhase {
    /// Not asked for (`Rules::legal_actions`).
    NotListed,
    /// Listed: no check applies in this phase.
    Allowed,
    /// Listed if this declared check allows it.
    Check(Function),
}

/// Reads `true` / `false, reason` / `"reason"` (and for apply: nothing = fine).
pub(super) fn verdict(
    what: &'static str,
) -> impl FnOnce(&Lua, MultiValue) -> mlua::Result<Option<Result<(), Illegal>>> {
    move |_, out| {
        let mut it = out.into_iter();
        let first = it.next().unwrap_or(Value::Nil);
        let reason = it
            .next()
            .and_then(|v| v.as_string().map(|s| s.to_string_lossy()));
        Ok(Some(match first {
            Value::Boolean(true) => Ok(()),
            Value::Nil if what == "apply" => Ok(()),
            Value::String(s) => Err(Illegal::new(s.to_string_lossy())),
            Value::Boolean(false) | Value::Nil => {
                Err(Illegal::new(reason.unwrap_or_else(|| {
                    format!("refused by the rules' {what} (no reason given)")
                })))
            }
            _ => Ok(()),
        }))
    }
}
