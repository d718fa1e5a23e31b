//! [`LuaRules`]: the game crate's `Rules` implemented by calling a rule set's Lua callbacks with
//! a `ctx` over the Rust-owned state.
//!
//! Every callback gets a fresh `ctx` table: its fields, and methods shared by every call (built
//! once per rule set) that find the state through the ctx's identity among the open sessions
//! (`crate::live`), valid for that one call: Lua can keep the table, but once the call
//! returns its methods error. Read methods work everywhere; write methods only when the engine
//! handed a `&mut GameState` (apply, setup, hooks) and raise an error in check, choices and
//! victory. The engine's transaction (clone, apply, swap on success) makes every change
//! all-or-nothing; this module never commits anything itself. Lua, budget and memory errors
//! become `RulesError`s displayed `file:line: message`.
//!
//! Deliberately not here: turn order (the game crate's clock) and file watching
//! (the watch module).
//!
//! ```no_run
//! use hexforge_script::loader::{LoadOptions, load_mods};
//! use hexforge_script::rules::LuaRules;
//! let loaded = load_mods(std::path::Path::new("mods"), "orbital-skirmish", &LoadOptions::default()).unwrap();
//! let rules = LuaRules::new(loaded).unwrap();
//! let state = hexforge_game::GameState::new(rules.mod_locks(), "duel", serde_json::json!({}), 42);
//! let game = hexforge_game::Game::new(rules, state).unwrap();
//! ```

use crate::api::args::{
    COORD_LIMIT, dir_from_value, hex_from_value, hex_from_value_in, hexes_to_table,
};
use crate::api::choices::ChoiceList;
use crate::api::plain::{Field, Frozen, Parts, RowCell, Templates, json_to_lua, lua_to_json};
use crate::decl::{CallbackId, ModDecls};
use crate::error::ModError;
use crate::live::Session;
use crate::loader::LoadedMods;
use crate::memo::{Memo, PieceQuery, Read, Recorder};
use crate::raw::RawReader;
use crate::scenario::apply_scenario;
use crate::stack::{Args, Ret};
use hexforge_core::dice::{DiceExpr, DiceSet, MAX_DICE, MAX_SIDES};
use hexforge_core::hex::Hex;
use hexforge_core::table::Cell;
use hexforge_game::rules::{Rules, RulesError, pick_index};
use hexforge_game::state::ModLock;
use hexforge_game::turn::{Actor, HookEvent, Order, PhaseSpec, Scope, TurnStructure};
use hexforge_game::{Action, GameState, Illegal, Outcome, Piece, PieceId, Position, SideId};
use mlua::{Function, Lua, LuaSerdeExt, MultiValue, Table, Value};
use serde_json::Value as Json;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Rules backed by a loaded Lua rule set.
pub struct LuaRules {
    loaded: LoadedMods,
    turns: TurnStructure,
    /// The declared dice with named faces, for `ctx:roll_named` (`3d[battle]`).
    dice: DiceSet,
    /// The metatable every ctx shares: `{ __index = methods }`, the methods built once (see
    /// `build_methods`).
    ctx_mt: Table,
    /// The methods table (`ctx_mt.__index`), which victory's tracked ctxs serve too.
    methods: Table,
    /// The metatable of victory's tracked ctxs for the last template victory ran with, with
    /// that template (see [`tracked_mt`]).
    tracked_mt: RefCell<Option<(Table, Table)>>,
    /// Builds fresh Lua tables from cached templates (see [`crate::api::plain`]).
    templates: Templates,
    /// Each piece type's `stats` as a template, built once; snapshots get copies.
    stats: BTreeMap<String, Frozen>,
    /// The last snapshot template of each piece, with the piece it was made from. Why keyed by
    /// the piece's content and not by a state version: one rule set serves many states (every
    /// action works on a clone, games share the VM), and comparing a piece is far cheaper than
    /// converting it again. Never iterated, so its order cannot leak into results.
    snapshots: RefCell<BTreeMap<PieceId, Snapshot>>,
    /// The last game options converted, as a template (every ctx has `options`).
    options: RefCell<Option<(Json, Frozen)>>,
    /// The last template of each global that is a table, with the value it was made from
    /// (`planets`-style lists are read by many callbacks and rarely change).
    globals: RefCell<BTreeMap<String, (Json, Frozen)>>,
    /// The last template of each side, with the side it was made from.
    sides: RefCell<BTreeMap<String, (hexforge_game::SideState, Frozen)>>,
    /// The reads of the running victory call (see [`crate::memo`]).
    pub(crate) recorder: Recorder,
    /// Victory's last answer and what it read; reused while every read answers the same.
    victory_memo: RefCell<Option<Memo>>,
    /// Whether victory answers are remembered at all ([`LuaRules::remember_victory`]).
    remember: std::cell::Cell<bool>,
    /// The last ctx made, as a template, with what its fields were made from: every ctx of the
    /// same clock, options and scenario is a copy of it (see [`open_ctx`]).
    ctx_template: RefCell<Option<(CtxKey, Table)>>,
    /// The declared callbacks by [`CallbackId`], taken out of the registry once (a registry
    /// lookup per call cost about 400 instructions, and a listing makes several calls).
    functions: Vec<Function>,
    /// The last scenario file parsed: its path, its text and what it gave (see
    /// [`crate::scenario::find_scenario`]).
    scenario: RefCell<Option<(String, String, crate::scenario::Scenario)>>,
}

/// What a ctx's fields are made from (see [`LuaRules::ctx_template`]): the clock's fields that
/// `make_ctx` reads, the turn limit, the scenario and the options.
#[derive(Clone, PartialEq)]
struct CtxKey {
    round: u32,
    segment: u32,
    phase_index: u32,
    active: Option<String>,
    label: Option<String>,
    acting: Vec<SideId>,
    turn_limit: Option<u32>,
    scenario: String,
    options: Arc<Json>,
}

impl CtxKey {
    /// Whether a ctx for `s` has exactly the fields of one made from `self`, compared without
    /// building a key.
    fn matches(&self, s: &GameState, turn_limit: Option<u32>) -> bool {
        self.round == s.clock.round
            && self.segment == s.clock.segment
            && self.phase_index == s.clock.phase_index
            && self.active.as_deref() == active_side(s)
            && self.label == s.clock.label
            && self.acting == s.clock.acting
            && self.turn_limit == turn_limit
            && self.scenario == s.scenario
            && (Arc::ptr_eq(&self.options, &s.options) || self.options == s.options)
    }

    fn of(s: &GameState, turn_limit: Option<u32>) -> CtxKey {
        CtxKey {
            round: s.clock.round,
            segment: s.clock.segment,
            phase_index: s.clock.phase_index,
            active: active_side(s).map(str::to_owned),
            label: s.clock.label.clone(),
            acting: s.clock.acting.clone(),
            turn_limit,
            scenario: s.scenario.clone(),
            options: s.options.clone(),
        }
    }
}

/// The side whose turn it is (ctx.active), if any.
fn active_side(s: &GameState) -> Option<&str> {
    s.clock
        .turn_index
        .and_then(|i| s.clock.order.get(i as usize))
        .map(String::as_str)
}

impl std::fmt::Debug for LuaRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LuaRules")
            .field("turns", &self.turns)
            .finish_non_exhaustive()
    }
}

/// A piece's cached snapshot template and, shared inside it, the template of its `values`.
struct Snapshot {
    /// The piece it was made from.
    piece: Piece,
    /// The whole snapshot.
    full: Frozen,
    /// `values` alone (for light reads that list it).
    values: Frozen,
    /// The templates of the nested tables in `values`, by key (reused while unchanged).
    parts: Parts,
}

/// A `ctx:pieces` field list: each name with its field, in the order asked.
type LightFields = Vec<(String, Light)>;

/// The state as one callback may see it.
pub(crate) enum Access<'a> {
    /// Read-only: check, choices, victory.
    Read(&'a GameState),
    /// Writable: apply, setup, hooks.
    Write(&'a mut GameState),
}

impl Access<'_> {
    fn get(&self) -> &GameState {
        match self {
            Access::Read(s) => s,
            Access::Write(s) => s,
        }
    }
}

fn rerr(e: impl std::fmt::Display) -> RulesError {
    RulesError::new(e.to_string())
}

/// Plain-data conversion options: nil for JSON null, plain tables for arrays.
fn to_lua(lua: &Lua, v: &impl serde::Serialize) -> mlua::Result<Value> {
    lua.to_value_with(
        v,
        mlua::serde::SerializeOptions::new()
            .serialize_none_to_null(false)
            .serialize_unit_to_null(false)
            .set_array_metatable(false),
    )
}

/// Whether an action or check declared for `phases` (none: every phase) applies in `phase`.
fn declared_for(phases: &[String], phase: Option<&str>) -> bool {
    phases.is_empty() || phase.is_some_and(|p| phases.iter().any(|x| x == p))
}

fn from_lua(lua: &Lua, v: Value, what: &dyn std::fmt::Display) -> mlua::Result<Json> {
    // The direct walks give the same JSON as serde for plain data; anything unusual (and every
    // error) still goes through serde, so messages stay the same. Tables are read off the stack
    // in one call (`raw`) once the rules have set up their reader.
    let raw = match &v {
        Value::Table(_) => lua.app_data_ref::<RawReader>().map(|r| r.to_json(lua, &v)),
        _ => None,
    };
    match raw {
        Some(r) => {
            if let Some(j) = r? {
                return Ok(j);
            }
        }
        None => {
            if let Some(j) = lua_to_json(&v) {
                return Ok(j);
            }
        }
    }
    lua.from_value::<Json>(v).map_err(|e| mlua::Error::runtime(format!("{what}: values must be plain data (nil, booleans, numbers, strings, tables of them): {e}")))
}

impl LuaRules {
    /// Wraps a loaded rule set; it must declare `game.turns`.
    ///
    /// # Errors
    /// When the turn structure is missing or invalid for the engine.
    pub fn new(loaded: LoadedMods) -> Result<LuaRules, Vec<ModError>> {
        let Some(t) = &loaded.decls.turns else {
            let file = loaded
                .mods
                .last()
                .map(|m| format!("{}/main.lua", m.rel_dir))
                .unwrap_or_default();
            return Err(vec![ModError::at(
                file,
                0,
                None,
                "no game.turns { ... } declared; every rule set needs a turn structure",
            )]);
        };
        let order = match t.order.as_str() {
            "rolled" => {
                let die = t.die.as_deref().unwrap_or("d6");
                // Validated at load time: a declared dice id or exactly one numeric die.
                let sides = loaded
                    .decls
                    .dice
                    .get(die)
                    .map(|d| d.faces.len() as u32)
                    .filter(|n| *n > 0)
                    .or_else(|| crate::decl::single_die_sides(die))
                    .unwrap_or(6);
                Order::Rolled {
                    die: sides,
                    every_round: t.every_round,
                }
            }
            "hook" => Order::Hook,
            _ => Order::Fixed(Vec::new()),
        };
        let phases = t
            .phases
            .iter()
            .map(|p| PhaseSpec {
                id: p.id.clone(),
                actor: match p.actor.as_str() {
                    "others" => Actor::Others,
                    "each" => Actor::Each,
                    "all" => Actor::All,
                    _ => Actor::Active,
                },
                scope: match p.scope.as_str() {
                    "segment" => Scope::Segment,
                    "round" => Scope::Round,
                    _ => Scope::Turn,
                },
            })
            .collect();
        let turns = TurnStructure {
            order,
            teams: t.teams,
            phases,
            segments: t.segments,
            time_track: t.time_track.clone(),
            turn_limit: t.turn_limit,
        };
        let problems = turns.validate();
        if !problems.is_empty() {
            return Err(problems
                .into_iter()
                .map(|p| ModError::at_loc(&t.source, format!("game.turns: {p}")))
                .collect());
        }
        let mut dice = DiceSet::new();
        let mut errs = Vec::new();
        for d in loaded.decls.dice.values().filter(|d| !d.faces.is_empty()) {
            if let Err(e) = dice.register(&d.id, d.faces.iter().cloned()) {
                errs.push(ModError::at_loc(&d.source, format!("dice {}: {e}", d.id)));
            }
        }
        if !errs.is_empty() {
            return Err(errs);
        }
        // Guarded: compiling the snapshot copier runs a few Lua instructions.
        let built = loaded.sandbox.guarded(|lua| {
            let m = build_methods(lua)?;
            let templates = Templates::new(lua)?;
            let stats = stats_templates(lua, &templates, &loaded.decls)?;
            let mt = lua.create_table()?;
            mt.raw_set("__index", &m)?;
            let functions = loaded
                .callbacks
                .iter()
                .map(|k| lua.registry_value::<Function>(k))
                .collect::<mlua::Result<Vec<_>>>()?;
            Ok((mt, m, templates, stats, functions))
        });
        let (ctx_mt, methods, templates, stats, functions) = built.map_err(|e| {
            vec![ModError::at(
                String::new(),
                0,
                None,
                format!("internal: cannot build the ctx methods: {e}"),
            )]
        })?;
        Ok(LuaRules {
            loaded,
            turns,
            dice,
            ctx_mt,
            methods,
            tracked_mt: RefCell::new(None),
            templates,
            stats,
            snapshots: RefCell::new(BTreeMap::new()),
            options: RefCell::new(None),
            globals: RefCell::new(BTreeMap::new()),
            sides: RefCell::new(BTreeMap::new()),
            recorder: Recorder::default(),
            victory_memo: RefCell::new(None),
            remember: std::cell::Cell::new(true),
            ctx_template: RefCell::new(None),
            functions,
            scenario: RefCell::new(None),
        })
    }

    /// Whether the victory callback's answer is reused while nothing it read has changed (on by
    /// default; see `crate::memo`). Off, victory is called after every action, as a mod that
    /// breaks the read-only contract (state kept in Lua between calls) would need; the
    /// workspace tests play every mod both ways and compare.
    pub fn remember_victory(&self, on: bool) {
        self.remember.set(on);
        if !on {
            *self.victory_memo.borrow_mut() = None;
        }
    }

    /// The hexes piece `p` covers (its type's footprint; empty off the map).
    pub(crate) fn footprint_of(&self, p: &Piece) -> Vec<Hex> {
        let offsets = self
            .loaded
            .decls
            .piece_types
            .get(&p.kind)
            .map_or(&[][..], |d| d.footprint.as_slice());
        if offsets.is_empty() {
            p.pos.hex().into_iter().collect()
        } else {
            p.hexes(offsets)
        }
    }

    /// The validated declarations.
    #[must_use]
    pub fn decls(&self) -> &ModDecls {
        &self.loaded.decls
    }

    /// The loaded rule set (VM, mods).
    #[must_use]
    pub fn loaded(&self) -> &LoadedMods {
        &self.loaded
    }

    /// Mod locks for a new game state / record.
    #[must_use]
    pub fn mod_locks(&self) -> Vec<ModLock> {
        self.loaded
            .mods
            .iter()
            .map(|m| ModLock {
                id: m.id.clone(),
                version: m.version.to_string(),
                content_hash: m.content_hash.clone(),
            })
            .collect()
    }

    /// Runs `f` with a `ctx` over `state` outside any declared callback (the Lua test harness's
    /// `g:piece(..)` and `g:edit(fn)`). The ctx's methods stop working when `f` returns.
    pub(crate) fn with_ctx<R>(
        &self,
        lua: &Lua,
        access: Access<'_>,
        f: impl FnOnce(&Lua, Table) -> mlua::Result<R>,
    ) -> mlua::Result<R> {
        let (ctx, _session) = open_ctx(lua, access, self, false)?;
        f(lua, ctx)
    }

    /// The scenario last parsed from `path`, if the file still has the very same `text`.
    pub(crate) fn parsed_scenario(
        &self,
        path: &str,
        text: &str,
    ) -> Option<crate::scenario::Scenario> {
        self.scenario
            .borrow()
            .as_ref()
            .filter(|(p, t, _)| p == path && t == text)
            .map(|(_, _, sc)| sc.clone())
    }

    /// Keeps the scenario parsed from `text` at `path` for [`LuaRules::parsed_scenario`].
    pub(crate) fn keep_scenario(&self, path: &str, text: String, sc: &crate::scenario::Scenario) {
        *self.scenario.borrow_mut() = Some((path.to_owned(), text, sc.clone()));
    }

    fn function(&self, cb: CallbackId) -> Result<Function, RulesError> {
        self.functions
            .get(cb.0 as usize)
            .cloned()
            .ok_or_else(|| RulesError::new(format!("internal: unknown callback {}", cb.0)))
    }

    /// Calls a callback with `ctx` plus extra arguments built inside the call.
    fn call(
        &self,
        access: Access<'_>,
        cb: CallbackId,
        extra: impl FnOnce(&Lua) -> mlua::Result<MultiValue>,
        result: impl FnOnce(&Lua, MultiValue) -> mlua::Result<Option<Result<(), Illegal>>>,
    ) -> Result<Option<Result<(), Illegal>>, RulesError> {
        let f = self.function(cb)?;
        self.loaded
            .sandbox
            .guarded(|lua| {
                let (ctx, _session) = open_ctx(lua, access, self, false)?;
                let mut args = extra(lua)?;
                args.push_front(Value::Table(ctx));
                let out: MultiValue = f.call(args)?;
                result(lua, out)
            })
            .map_err(rerr)
    }

    /// `event` as a fresh table for a hook (a hook may change its own copy).
    fn event_table(&self, lua: &Lua, event: &HookEvent) -> mlua::Result<Table> {
        let ev = serde_json::to_value(event).map_err(mlua::Error::external)?;
        match json_to_lua(lua, &ev)? {
            Value::Table(t) => Ok(t),
            _ => lua.create_table(),
        }
    }

    fn action_table(&self, lua: &Lua, action: &Action) -> mlua::Result<Table> {
        self.templates
            .action(lua, &action.params, &action.id, action.side.as_str())
    }

    fn phase_allows(&self, state: &GameState, action: &Action) -> Result<(), Illegal> {
        let Some(decl) = self.loaded.decls.actions.get(&action.id) else {
            return Err(Illegal::new(format!("unknown action {:?}", action.id)));
        };
        let phase = state.phase_id(&self.turns);
        if !declared_for(&decl.phases, phase) {
            return Err(Illegal::new(format!(
                "{} is not allowed in phase {} (only in {})",
                action.id,
                phase.unwrap_or("-"),
                decl.phases.join(", ")
            )));
        }
        Ok(())
    }

    /// Every action's choices for `side` in one guarded call with one ctx, and with `with_end`
    /// the engine's `end_phase` last when the rules' check allows it (checked with the same
    /// ctx: the state is the same).
    fn listing(
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
    fn picked(
        &self,
        state: &GameState,
        side: &SideId,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Result<Option<Action>, RulesError> {
        Ok(self.list(state, side, true, Mode::Pick(pick))?.pop())
    }

    /// The body of [`LuaRules::listing`] and [`LuaRules::picked`]: every action's choices, then
    /// `end_phase`, converted all (`Mode::All`) or only the picked one (at most one action).
    fn list(
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
            if !declared_for(&decl.phases, phase) {
                continue;
            }
            listed.push((id, self.function(choices)?));
        }
        // end_phase: allowed without a call unless the rules declare a check for it in this
        // phase (as in `run_check`).
        let end = Action::end_phase(side.clone());
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
    fn end_phase_check(&self, state: &GameState) -> Option<CallbackId> {
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
    fn run_check(
        &self,
        state: &GameState,
        action: &Action,
    ) -> Result<Result<(), Illegal>, RulesError> {
        let check = if action.is_end_phase() {
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
enum Mode<'p> {
    /// Every listed action.
    All,
    /// Only the action at the index this answers for the listing's length.
    Pick(&'p mut dyn FnMut(usize) -> usize),
}

/// The items of a `choices` result, `t[1], t[2], ...` up to the first nil (the items
/// [`choices_to_json`] converts), and the choice lists among them: each stands for its
/// choices, in its place.
struct ChoiceItems {
    items: usize,
    /// (position from 0, the list), in order.
    lists: Vec<(usize, ChoiceList)>,
}

/// Where the choice at one index of a `choices` result is.
enum Located<'a> {
    /// Item `k` (from 0) of the result.
    Item(usize),
    /// Choice `k` (from 0) of a choice list.
    InList(&'a ChoiceList, usize),
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

/// The choice list `v` is, if it is one.
fn choice_list(v: &Value) -> Option<ChoiceList> {
    match v {
        Value::UserData(ud) => ud.borrow::<ChoiceList>().ok().map(|l| l.clone()),
        _ => None,
    }
}

/// Every choice of a `choices` result as JSON, choice lists expanded in place: in one call off
/// the Lua stack, and item by item through serde where that call could not read an item (serde's
/// errors name the problem).
fn choices_to_json(lua: &Lua, id: &str, t: &Table) -> mlua::Result<Vec<Json>> {
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
fn choice_action(id: &str, side: &SideId, mut params: Json) -> Action {
    if let Json::Object(m) = &mut params {
        m.remove("id");
        m.remove("side");
    }
    Action::new(id.to_owned(), side.clone(), params)
}

/// What a listing does about the engine's `end_phase`.
enum EndPhase {
    /// Not asked for (`Rules::legal_actions`).
    NotListed,
    /// Listed: no check applies in this phase.
    Allowed,
    /// Listed if this declared check allows it.
    Check(Function),
}

/// Reads `true` / `false, reason` / `"reason"` (and for apply: nothing = fine).
fn verdict(
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

impl Rules for LuaRules {
    fn turn_structure(&self) -> &TurnStructure {
        &self.turns
    }

    fn setup(&self, state: &mut GameState) -> Result<(), RulesError> {
        apply_scenario(self, state).map_err(rerr)?;
        if let Some(cb) = self.loaded.decls.setup {
            self.call(
                Access::Write(state),
                cb,
                |_| Ok(MultiValue::new()),
                |_, _| Ok(None),
            )?;
        }
        Ok(())
    }

    fn legal_actions(&self, state: &GameState, side: &SideId) -> Result<Vec<Action>, RulesError> {
        self.listing(state, side, false)
    }

    fn legal_actions_and_end(
        &self,
        state: &GameState,
        side: &SideId,
    ) -> Result<Vec<Action>, RulesError> {
        self.listing(state, side, true)
    }

    fn pick_legal(
        &self,
        state: &GameState,
        side: &SideId,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Result<Option<Action>, RulesError> {
        self.picked(state, side, pick)
    }

    fn check(&self, state: &GameState, action: &Action) -> Result<Result<(), Illegal>, RulesError> {
        self.run_check(state, action)
    }

    fn apply(
        &self,
        state: &mut GameState,
        action: &Action,
    ) -> Result<Result<(), Illegal>, RulesError> {
        if action.is_end_phase() {
            return Ok(Ok(()));
        }
        if let Err(i) = self.phase_allows(state, action) {
            return Ok(Err(i));
        }
        let Some(apply) = self
            .loaded
            .decls
            .actions
            .get(&action.id)
            .and_then(|d| d.apply)
        else {
            return Ok(Ok(()));
        };
        let r = self.call(
            Access::Write(state),
            apply,
            |lua| {
                Ok(MultiValue::from_iter([Value::Table(
                    self.action_table(lua, action)?,
                )]))
            },
            verdict("apply"),
        )?;
        Ok(r.unwrap_or(Ok(())))
    }

    fn hook(&self, state: &mut GameState, event: &HookEvent) -> Result<(), RulesError> {
        let Some(hooks) = self.loaded.decls.hooks.get(event.name()) else {
            return Ok(());
        };
        // Filtered hooks (`game.on(event, { phases = ... }, fn)`) are not called at all for
        // other phases or actions: no ctx, no Lua.
        let wanted = |h: &&crate::decl::HookDecl| match event {
            HookEvent::PhaseStart { phase } | HookEvent::PhaseEnd { phase } => {
                h.phases.is_empty() || h.phases.contains(phase)
            }
            HookEvent::AfterAction { action, .. } => {
                h.actions.is_empty() || h.actions.contains(action)
            }
            _ => true,
        };
        let mut hooks = hooks.iter().filter(wanted).peekable();
        if hooks.peek().is_none() {
            return Ok(());
        }
        for h in hooks {
            self.call(
                Access::Write(&mut *state),
                h.callback,
                |lua| {
                    Ok(MultiValue::from_iter([Value::Table(
                        self.event_table(lua, event)?,
                    )]))
                },
                |_, _| Ok(None),
            )?;
        }
        Ok(())
    }

    fn outcome(&self, state: &GameState) -> Result<Option<Outcome>, RulesError> {
        if let Some(o) = &state.outcome {
            return Ok(Some(o.clone()));
        }
        let Some(cb) = self.loaded.decls.victory else {
            return Ok(None);
        };
        let remember = self.remember.get();
        if remember
            && let Some(m) = self.victory_memo.borrow().as_ref()
            && m.holds(self, state)
        {
            return Ok(m.result.clone());
        }
        let f = self.function(cb)?;
        *self.victory_memo.borrow_mut() = None;
        let mut fields = Vec::new();
        self.recorder.start();
        let outcome = self
            .loaded
            .sandbox
            .guarded(|lua| {
                crate::memo::reset_fields();
                let (ctx, _session) = open_ctx(lua, Access::Read(state), self, true)?;
                let out: Value = f.call(ctx)?;
                fields.extend(crate::memo::fields_read());
                match out {
                    v @ Value::Table(_) => parse_outcome(lua, v).map(Some),
                    _ => Ok(None),
                }
            })
            .map_err(rerr);
        let reads = self.recorder.stop();
        let outcome = outcome?;
        *self.victory_memo.borrow_mut() = reads.filter(|_| remember).map(|mut reads| {
            reads.extend(
                fields
                    .into_iter()
                    .map(|n| Read::Field(n, crate::memo::field_json(self, state, n).into_owned())),
            );
            Memo {
                reads,
                result: outcome.clone(),
            }
        });
        Ok(outcome)
    }
}

fn parse_outcome(lua: &Lua, v: Value) -> mlua::Result<Outcome> {
    let j = from_lua(lua, v, &"victory")?;
    let winners = j
        .get("winners")
        .and_then(Json::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|w| w.as_str().map(SideId::new))
                .collect()
        })
        .unwrap_or_default();
    let reason = j
        .get("reason")
        .and_then(Json::as_str)
        .unwrap_or("")
        .to_string();
    Ok(Outcome { winners, reason })
}

fn parse_position(v: &Value) -> Result<Position, String> {
    if let Ok(h) = hex_from_value(v) {
        return Ok(Position::Hex(h));
    }
    let Value::Table(t) = v else {
        return Err("expected a hex, { location =, slot = } or { box = }".into());
    };
    if let Ok(Some(b)) = t.raw_get::<Option<String>>("box") {
        return Ok(Position::Box(b));
    }
    if let Ok(Some(location)) = t.raw_get::<Option<String>>("location") {
        let slot = t.raw_get::<Option<String>>("slot").ok().flatten();
        return Ok(Position::Node { location, slot });
    }
    Err("expected a hex, { location =, slot = } or { box = }".into())
}

/// A position as plain data: `{ q =, r = }`, `{ location =, slot = }` or `{ box = }`.
fn position_json(p: &Position) -> Json {
    match p {
        Position::Hex(h) => serde_json::json!({ "q": h.q, "r": h.r }),
        Position::Node { location, slot } => {
            serde_json::json!({ "location": location, "slot": slot })
        }
        Position::Box(b) => serde_json::json!({ "box": b }),
    }
}

/// Each piece type's `stats` as a template, built once (snapshots get fresh copies: a mod that
/// changed `p.stats` must not change any later snapshot, or game state would live in the VM).
fn stats_templates(
    lua: &Lua,
    templates: &Templates,
    decls: &ModDecls,
) -> mlua::Result<BTreeMap<String, Frozen>> {
    decls
        .piece_types
        .iter()
        .map(|(id, d)| {
            let stats = Json::Object(d.stats.clone().into_iter().collect());
            Ok((id.clone(), templates.freeze_json(lua, &stats)?))
        })
        .collect()
}

/// The snapshot template of a piece: from the cache when the piece is unchanged since it was
/// last converted, else converted now and cached.
fn piece_template(
    lua: &Lua,
    rules: &LuaRules,
    state: &GameState,
    id: PieceId,
) -> mlua::Result<Option<Frozen>> {
    Ok(snapshot(lua, rules, state, id)?.map(|(full, _)| full))
}

/// The snapshot template of a piece and the template of its `values` (see [`piece_template`]).
fn snapshot(
    lua: &Lua,
    rules: &LuaRules,
    state: &GameState,
    id: PieceId,
) -> mlua::Result<Option<(Frozen, Frozen)>> {
    let Some(p) = state.pieces.get(&id) else {
        return Ok(None);
    };
    // Unchanged: the same fields and the very same values (values are shared until changed,
    // so a changed piece is told apart without comparing its record; equal values that are not
    // shared are found below, and only `values` is compared there).
    if let Some(snap) = rules.snapshots.borrow().get(&id)
        && same_shared(&snap.piece, p)
    {
        return Ok(Some((snap.full.clone(), snap.values.clone())));
    }
    // The piece changed: its old entry still serves for whatever of `values` is unchanged.
    let old = rules.snapshots.borrow_mut().remove(&id);
    // Where and what it was: only `values` changed (the usual case: an action changes a few
    // numbers of a record), so the whole snapshot is the old one with `values` replaced.
    let in_place = old.as_ref().filter(|o| same_place(&o.piece, p)).map(|o| o.full.clone());
    let (values, parts) = match old {
        Some(o) if o.piece.values == p.values => (o.values, o.parts),
        o => rules.templates.freeze_object(
            lua,
            &p.values,
            o.as_ref().map(|o| (&*o.piece.values, &o.parts, &o.values)),
        )?,
    };
    let full = match in_place {
        Some(full) => rules.templates.patch_field(
            lua,
            &full,
            rules.templates.string(lua, "values")?,
            values.as_value(),
        )?,
        None => full_snapshot(lua, rules, p, &values)?,
    };
    Ok(Some(keep_snapshot(rules, state, p, full, values, parts)))
}

/// Caches `p`'s new snapshot (see [`snapshot`]) and returns it with its `values`.
fn keep_snapshot(
    rules: &LuaRules,
    state: &GameState,
    p: &Piece,
    full: Frozen,
    values: Frozen,
    parts: Parts,
) -> (Frozen, Frozen) {
    let mut cache = rules.snapshots.borrow_mut();
    // Pieces come and go (and games change): drop entries for pieces this state does not have
    // once the cache is clearly larger than the state.
    if cache.len() > 2 * state.pieces.len() + 64 {
        cache.retain(|k, _| state.pieces.contains_key(k));
    }
    cache.insert(
        p.id,
        Snapshot {
            piece: p.clone(),
            full: full.clone(),
            values: values.clone(),
            parts,
        },
    );
    (full, values)
}

/// The whole snapshot of `p` (`values` already frozen).
fn full_snapshot(lua: &Lua, rules: &LuaRules, p: &Piece, values: &Frozen) -> mlua::Result<Frozen> {
    let key = |s: &str| rules.templates.string(lua, s);
    let hex = p
        .pos
        .hex()
        .map(|h| serde_json::json!({ "q": h.q, "r": h.r }));
    let position = position_json(&p.pos);
    let mut fields = vec![
        (key("id")?, Field::Plain(Value::Integer(i64::from(p.id.0)))),
        (key("type")?, Field::Plain(key(&p.kind)?)),
        (key("owner")?, Field::Plain(key(p.owner.as_str())?)),
    ];
    if let Some(h) = &hex {
        fields.push((key("hex")?, Field::Json(h)));
    }
    fields.push((key("position")?, Field::Json(&position)));
    if let Some(f) = p.facing {
        fields.push((
            key("facing")?,
            Field::Plain(Value::Integer(i64::from(f.index()))),
        ));
    }
    fields.push((key("values")?, Field::Frozen(values)));
    if let Some(stats) = rules.stats.get(&p.kind) {
        fields.push((key("stats")?, Field::Frozen(stats)));
    }
    rules.templates.freeze(lua, fields)
}

/// Whether `a` and `b` have the same fields and share one `values` (see [`snapshot`]).
fn same_shared(a: &Piece, b: &Piece) -> bool {
    same_place(a, b) && same_values(a, b)
}

/// Whether `a` and `b` are the same piece of the same type and owner, where and as it was.
fn same_place(a: &Piece, b: &Piece) -> bool {
    a.id == b.id && a.kind == b.kind && a.owner == b.owner && a.pos == b.pos && a.facing == b.facing
}

/// Whether `a` and `b` share one `values` (values are shared until changed).
fn same_values(a: &Piece, b: &Piece) -> bool {
    Arc::ptr_eq(&a.values, &b.values)
}

/// A fresh snapshot table of a piece (nil if there is no such piece).
/// A piece's snapshot (nil if there is no such piece): the shared read-only table when
/// `shared` (check, choices, victory, bots), else a fresh copy (apply, setup, hooks).
fn piece_table(
    lua: &Lua,
    rules: &LuaRules,
    state: &GameState,
    id: PieceId,
    shared: bool,
) -> mlua::Result<Value> {
    match piece_template(lua, rules, state, id)? {
        Some(f) => Ok(Value::Table(
            rules.templates.shared_or_copy(lua, &f, shared)?,
        )),
        None => Ok(Value::Nil),
    }
}

/// Snapshots of several pieces as one fresh sequence (one call into Lua): shared tables or
/// fresh copies, as for [`piece_table`].
fn piece_tables(
    lua: &Lua,
    rules: &LuaRules,
    state: &GameState,
    ids: impl IntoIterator<Item = PieceId>,
    shared: bool,
) -> mlua::Result<Table> {
    let mut list = Vec::new();
    for id in ids {
        if let Some(f) = piece_template(lua, rules, state, id)? {
            list.push(f);
        }
    }
    rules.templates.shared_or_copies(lua, &list, shared)
}

/// A top-level snapshot field that a light read (`ctx:pieces { fields = { ... } }`) can list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Light {
    Id,
    Type,
    Owner,
    Hex,
    Position,
    Facing,
    Values,
    Stats,
}

/// Every light field by name, in the order of a snapshot's description.
const LIGHT: [(&str, Light); 8] = [
    ("id", Light::Id),
    ("type", Light::Type),
    ("owner", Light::Owner),
    ("hex", Light::Hex),
    ("position", Light::Position),
    ("facing", Light::Facing),
    ("values", Light::Values),
    ("stats", Light::Stats),
];

/// The `fields` of a `ctx:pieces` filter: `None` when absent (whole snapshots), else the listed
/// fields in order, each once.
fn light_fields(v: Value) -> mlua::Result<Option<Vec<(String, Light)>>> {
    let names = || LIGHT.map(|(n, _)| n).join(", ");
    let t = match v {
        Value::Nil => return Ok(None),
        Value::Table(t) => t,
        other => {
            return Err(mlua::Error::runtime(format!(
                "fields: expected a list of field names ({}), got {}",
                names(),
                other.type_name()
            )));
        }
    };
    let mut out: Vec<(String, Light)> = Vec::new();
    for v in t.sequence_values::<Value>() {
        let v = v?;
        let name = v
            .as_string()
            .map(|s| s.to_string_lossy())
            .unwrap_or_default();
        let Some((n, f)) = LIGHT.iter().find(|(n, _)| *n == name) else {
            let shown = match &v {
                Value::String(_) => format!("{name:?}"),
                o => o.type_name().to_string(),
            };
            return Err(mlua::Error::runtime(format!(
                "fields: unknown field {shown} (a snapshot has {})",
                names()
            )));
        };
        if !out.iter().any(|(_, x)| x == f) {
            out.push(((*n).to_string(), *f));
        }
    }
    Ok(Some(out))
}

/// Light snapshots of pieces: tables with only the listed top-level fields, each equal to that
/// field of the whole snapshot (read-only tables when `shared`, as whole snapshots are). Why: `id`, `owner`, `hex` of every ship is what victory,
/// occupancy and targeting need, and copying `values` (a ship record of ~120 values) is the
/// costliest part of a snapshot; nothing here converts or copies what is not listed.
fn light_tables(
    lua: &Lua,
    rules: &LuaRules,
    state: &GameState,
    fields: &[(String, Light)],
    ids: impl IntoIterator<Item = PieceId>,
    shared: bool,
) -> mlua::Result<Table> {
    let mut rows = Vec::new();
    for id in ids {
        let Some(p) = state.pieces.get(&id) else {
            continue;
        };
        rows.push(row_values(lua, rules, state, fields, p, shared)?);
    }
    rules
        .templates
        .rows(lua, &row_spec(lua, rules, fields, shared)?, rows, shared)
}

/// How [`Templates::rows`] builds each of `fields` (keys as kept strings).
fn row_spec(
    lua: &Lua,
    rules: &LuaRules,
    fields: &[(String, Light)],
    shared: bool,
) -> mlua::Result<Vec<(Value, RowCell)>> {
    fields
        .iter()
        .map(|(n, f)| {
            let cell = match f {
                Light::Hex | Light::Position => RowCell::Hex,
                Light::Values | Light::Stats if !shared => RowCell::Copy,
                _ => RowCell::Plain,
            };
            Ok((rules.templates.string(lua, n)?, cell))
        })
        .collect()
}

/// One light row's values in `fields` order (see [`Templates::rows`]).
fn row_values(
    lua: &Lua,
    rules: &LuaRules,
    state: &GameState,
    fields: &[(String, Light)],
    p: &Piece,
    shared: bool,
) -> mlua::Result<Vec<Value>> {
    let t = &rules.templates;
    let id = p.id;
    {
        let mut row = Vec::with_capacity(fields.len() + 2);
        for (_, f) in fields {
            match f {
                Light::Id => row.push(Value::Integer(i64::from(p.id.0))),
                Light::Type => row.push(t.string(lua, &p.kind)?),
                Light::Owner => row.push(t.string(lua, p.owner.as_str())?),
                Light::Hex => match p.pos.hex() {
                    Some(h) => row.extend([Value::Integer(h.q.into()), Value::Integer(h.r.into())]),
                    None => row.extend([Value::Boolean(false), Value::Boolean(false)]),
                },
                Light::Position => match p.pos.hex() {
                    Some(h) => row.extend([Value::Integer(h.q.into()), Value::Integer(h.r.into())]),
                    None => row.extend([
                        json_to_lua(lua, &position_json(&p.pos))?,
                        Value::Boolean(false),
                    ]),
                },
                Light::Facing => row.push(
                    p.facing
                        .map_or(Value::Nil, |f| Value::Integer(i64::from(f.index()))),
                ),
                Light::Values => {
                    let v = snapshot(lua, rules, state, id)?.map(|(_, v)| v);
                    row.push(frozen_cell(t, v.as_ref(), shared)?);
                }
                Light::Stats => row.push(frozen_cell(t, rules.stats.get(&p.kind), shared)?),
            }
        }
        Ok(row)
    }
}

/// A light row's `values` or `stats`: the shared table (a plain cell) or the template to copy;
/// false (no field) when the piece has none.
fn frozen_cell(t: &Templates, f: Option<&Frozen>, shared: bool) -> mlua::Result<Value> {
    Ok(match f {
        Some(f) if shared => Value::Table(t.share(f)?),
        Some(f) => f.as_value(),
        None if shared => Value::Nil,
        None => Value::Boolean(false),
    })
}

fn footprint(rules: &LuaRules, state: &GameState, id: PieceId) -> Vec<Hex> {
    state
        .pieces
        .get(&id)
        .map_or_else(Vec::new, |p| rules.footprint_of(p))
}

/// A side as `{ id, name, team, eliminated, values }`: the shared table or a fresh copy (as for
/// [`piece_table`]), from a template cached while the side is unchanged.
fn side_table(
    lua: &Lua,
    rules: &LuaRules,
    s: &hexforge_game::SideState,
    shared: bool,
) -> mlua::Result<Table> {
    let cached = rules
        .sides
        .borrow()
        .get(s.id.as_str())
        .filter(|(x, _)| x == s)
        .map(|(_, f)| f.clone());
    let f = match cached {
        Some(f) => f,
        None => {
            let t = &rules.templates;
            let values = Json::Object(s.values.clone().into_iter().collect());
            let mut fields = vec![
                (
                    t.string(lua, "id")?,
                    Field::Plain(t.string(lua, s.id.as_str())?),
                ),
                (
                    t.string(lua, "name")?,
                    Field::Plain(t.string(lua, &s.name)?),
                ),
            ];
            if let Some(team) = &s.team {
                fields.push((t.string(lua, "team")?, Field::Plain(t.string(lua, team)?)));
            }
            fields.push((
                t.string(lua, "eliminated")?,
                Field::Plain(Value::Boolean(s.eliminated)),
            ));
            fields.push((t.string(lua, "values")?, Field::Json(&values)));
            let f = t.freeze(lua, fields)?;
            let mut sides = rules.sides.borrow_mut();
            // Side ids come from scenarios; the cap guards against states with very many.
            if sides.len() >= 64 {
                sides.clear();
            }
            sides.insert(s.id.as_str().to_owned(), (s.clone(), f.clone()));
            f
        }
    };
    rules.templates.shared_or_copy(lua, &f, shared)
}

/// Looks a cell up in a declared table through the core table built at load time: `row` and
/// `column` are numbers (rolls, ranges) or names; `shift` moves columns (the column policy decides
/// what happens past the ends). Returns the cell and the roll modifier a `shift_roll` column added.
fn lookup_cell(
    rules: &LuaRules,
    table: &str,
    row: &Value,
    col: &Value,
    shift: i64,
) -> Result<(Json, i64), String> {
    let t = rules
        .loaded
        .decls
        .tables
        .get(table)
        .and_then(|d| d.table.as_ref())
        .ok_or_else(|| format!("no table {table:?}"))?;
    // The same probing as `tables.lookup`: integers (or integer strings) by value, else names.
    let rp = crate::api::tables::Key::read(row, "row")?;
    let cp = crate::api::tables::Key::read(col, "column")?;
    let at = t
        .locate(rp.probe(), cp.probe(), shift)
        .map_err(|e| format!("table {table}: {e}"))?;
    let cell = match t.cell(at.row, at.column) {
        Some(Cell::Value(v)) => Json::from(*v),
        Some(Cell::Id(s)) => Json::String(s.clone()),
        None => {
            return Err(format!(
                "table {table}: no cell at {}, {}",
                at.row, at.column
            ));
        }
    };
    Ok((cell, at.roll_modifier))
}

/// A runtime error prefixed with the calling Lua line (`mods/x/main.lua:12: ...`).
pub(crate) fn located(lua: &Lua, msg: String) -> mlua::Error {
    let loc = crate::decl::caller_location(lua);
    if loc.file.is_empty() {
        mlua::Error::runtime(msg)
    } else {
        mlua::Error::runtime(format!("{loc}: {msg}"))
    }
}

/// Builds the `ctx` table for one callback call and opens its session (see [`crate::live`]):
/// the fields, and the metatable every ctx shares, whose `__index` is the methods table built
/// once per [`LuaRules`] by [`build_methods`]. When the session is dropped the ctx's methods
/// error. With `tracked` (victory), the ctx is empty and its fields are served through a
/// recording `__index` instead (the names read are noted; see [`crate::memo`]).
fn open_ctx<'a>(
    lua: &'a Lua,
    access: Access<'a>,
    rules: &'a LuaRules,
    tracked: bool,
) -> mlua::Result<(Table, Session<'a>)> {
    let template = ctx_template(lua, rules, access.get())?;
    let ctx = match tracked {
        false => crate::stack::ctx_from_template(lua, &template, &rules.ctx_mt)?,
        true => {
            let ctx = lua.create_table_with_capacity(0, crate::memo::CTX_FIELDS.len())?;
            ctx.set_metatable(Some(tracked_mt(lua, rules, &template)?))?;
            ctx
        }
    };
    let session = Session::open(&ctx, access, rules);
    Ok((ctx, session))
}

/// The metatable of victory's tracked ctxs made from `template`: its `__index` serves the
/// template's fields, noting each field read ([`crate::memo::note_field`]) and storing it in
/// the ctx (a second read costs nothing), and serves the methods otherwise. Kept for the last
/// template asked about: victory asks once per action, and the template changes only with the
/// clock.
fn tracked_mt(lua: &Lua, rules: &LuaRules, template: &Table) -> mlua::Result<Table> {
    // Kept with its template: holding the template keeps its address from being reused, so the
    // pointers compare safely.
    if let Some((t, mt)) = &*rules.tracked_mt.borrow()
        && t.to_pointer() == template.to_pointer()
    {
        return Ok(mt.clone());
    }
    let template_ = template.clone();
    let methods = rules.methods.clone();
    let index = lua.create_function(move |_, (ctx, key): (Table, Value)| {
        let field = match &key {
            Value::String(s) => {
                let s = s.as_bytes();
                crate::memo::CTX_FIELDS
                    .iter()
                    .position(|n| n.as_bytes() == &s[..])
            }
            _ => None,
        };
        let Some(i) = field else {
            return methods.raw_get::<Value>(key);
        };
        crate::memo::note_field(i);
        let v: Value = template_.raw_get(key.clone())?;
        if !v.is_nil() {
            ctx.raw_set(key, v.clone())?;
        }
        Ok(v)
    })?;
    let mt = lua.create_table_with_capacity(0, 1)?;
    mt.raw_set("__index", index)?;
    *rules.tracked_mt.borrow_mut() = Some((template.clone(), mt.clone()));
    Ok(mt)
}

/// The template of every ctx for `s` (see [`crate::stack::ctx_from_template`]): the last one
/// made when its fields are the same, else made now by `make_ctx` (with the shared options).
fn ctx_template(lua: &Lua, rules: &LuaRules, s: &GameState) -> mlua::Result<Table> {
    let turn_limit = s.effective_turn_limit(&rules.turns);
    if let Some((key, t)) = &*rules.ctx_template.borrow()
        && key.matches(s, turn_limit)
    {
        return Ok(t.clone());
    }
    let name = |x: Option<&str>| -> mlua::Result<Value> {
        // Kept strings: phase, side and scenario ids repeat in every callback.
        x.map_or(Ok(Value::Nil), |x| rules.templates.string(lua, x))
    };
    let options = options_value(lua, rules, &s.options)?;
    let mut args = vec![
        Value::Table(rules.ctx_mt.clone()),
        Value::Integer(i64::from(s.clock.round)),
        Value::Integer(i64::from(s.clock.segment)),
        name(s.phase_id(&rules.turns))?,
        name(s.clock.label.as_deref())?,
        turn_limit.map_or(Value::Nil, |n| Value::Integer(i64::from(n))),
        name(active_side(s))?,
        name(Some(&s.scenario))?,
        options,
    ];
    for x in &s.clock.acting {
        args.push(name(Some(x.as_str()))?);
    }
    let t: Table = rules
        .templates
        .ctx_maker()
        .call(MultiValue::from_iter(args))?;
    // Shared by every ctx made from this template (as the options are): read-only.
    rules
        .templates
        .freeze_table(&t.raw_get::<Table>("acting")?)?;
    let key = CtxKey::of(s, turn_limit);
    *rules.ctx_template.borrow_mut() = Some((key, t.clone()));
    Ok(t)
}

/// The game options for a ctx template: a table is the shared (frozen) table of a template
/// cached while the options stay the same (every ctx shares it, see
/// [`crate::stack::ctx_from_template`]); anything else is the plain value.
fn options_value(lua: &Lua, rules: &LuaRules, options: &Json) -> mlua::Result<Value> {
    if !(options.is_object() || options.is_array()) {
        return json_to_lua(lua, options);
    }
    let cached = rules
        .options
        .borrow()
        .as_ref()
        .filter(|(j, _)| j == options)
        .map(|(_, f)| f.clone());
    let f = match cached {
        Some(f) => f,
        None => {
            let f = rules.templates.freeze_json(lua, options)?;
            *rules.options.borrow_mut() = Some((options.clone(), f.clone()));
            f
        }
    };
    Ok(Value::Table(rules.templates.share(&f)?))
}

/// A global as a fresh Lua value; tables come from a template cached per key while the value
/// stays the same.
fn global_value(
    lua: &Lua,
    rules: &LuaRules,
    key: &str,
    v: Option<&Json>,
    shared: bool,
) -> mlua::Result<Value> {
    let Some(v) = v.filter(|v| v.is_object() || v.is_array()) else {
        return json_to_lua(lua, v.unwrap_or(&Json::Null));
    };
    let cached = rules
        .globals
        .borrow()
        .get(key)
        .filter(|(j, _)| j == v)
        .map(|(_, f)| f.clone());
    let f = match cached {
        Some(f) => f,
        None => {
            let f = rules.templates.freeze_json(lua, v)?;
            let mut globals = rules.globals.borrow_mut();
            // Keys are the mod's own names; the cap guards against mods that invent keys.
            if globals.len() >= 256 {
                globals.clear();
            }
            globals.insert(key.to_owned(), (v.clone(), f.clone()));
            f
        }
    };
    Ok(Value::Table(
        rules.templates.shared_or_copy(lua, &f, shared)?,
    ))
}

/// `ctx:set(id, key, v)` on the piece: `v` as `key`'s value, or no `key` when `v` is null.
/// Setting what is already there changes nothing (and keeps the values shared with the state
/// before the action, see `Piece::values`).
pub(crate) fn set_value(p: &mut Piece, key: &str, v: Json) {
    if v.is_null() {
        if !p.values.contains_key(key) {
            return;
        }
        Arc::make_mut(&mut p.values).remove(key);
    } else if p.values.get(key) == Some(&v) {
        return;
    } else {
        Arc::make_mut(&mut p.values).insert(key.to_owned(), v);
    }
}

/// Notes for `p`'s snapshot that a set changed `key` of its values, which were at `before`
/// (see [`Written`]).

/// One step of a path into a piece's values (`ctx:set(id, { "comps", 3, "charge" }, v)`).
#[derive(Debug)]
enum PathStep {
    /// An object key.
    Key(String),
    /// A list position, from 1 as in Lua.
    Index(usize),
}

impl std::fmt::Display for PathStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PathStep::Key(k) => write!(f, ".{k}"),
            PathStep::Index(i) => write!(f, "[{i}]"),
        }
    }
}

/// Reads a path `{ key, step, ... }`: a value key first, then list positions (integers from 1)
/// or table keys (strings).
fn value_path(t: &Table) -> mlua::Result<Vec<PathStep>> {
    let mut path = Vec::new();
    for (i, v) in t.clone().sequence_values::<Value>().enumerate() {
        let step = match v? {
            Value::String(s) => PathStep::Key(s.to_str()?.to_owned()),
            Value::Integer(n) if i > 0 && n >= 1 => PathStep::Index(n as usize),
            other => {
                return Err(mlua::Error::runtime(format!(
                    "key: a path starts with a value's name and goes on with list positions \
                     (integers from 1) or table keys (strings); step {} is {}",
                    i + 1,
                    match other {
                        Value::Integer(n) => n.to_string(),
                        o => o.type_name().to_owned(),
                    }
                )));
            }
        };
        path.push(step);
    }
    if path.is_empty() {
        return Err(mlua::Error::runtime(
            "key: an empty path; give a value's name or { name, position, ... }",
        ));
    }
    Ok(path)
}

/// Sets (or with `null`, removes from a table) the value at `path` inside `values`. Only what
/// changes is copied: an equal value leaves `values` shared. A position one past the end of a
/// list appends; anything else that is not there is an error that names the path.
fn set_path(
    values: &mut Arc<BTreeMap<String, Json>>,
    path: &[PathStep],
    v: Json,
) -> mlua::Result<()> {
    let shown = |upto: usize| {
        path[..upto]
            .iter()
            .enumerate()
            .map(|(i, s)| match (i, s) {
                (0, PathStep::Key(k)) => k.clone(),
                _ => s.to_string(),
            })
            .collect::<String>()
    };
    let Some((PathStep::Key(first), rest)) = path.split_first() else {
        return Err(mlua::Error::runtime(
            "key: a path starts with a value's name",
        ));
    };
    let Some((last, middle)) = rest.split_last() else {
        return Err(mlua::Error::runtime(
            "key: a path of one name is just that name",
        ));
    };
    // Unchanged: nothing to copy.
    let mut cur = values.get(first);
    for step in rest {
        cur = match (cur, step) {
            (Some(Json::Array(a)), PathStep::Index(i)) => a.get(i - 1),
            (Some(Json::Object(m)), PathStep::Key(k)) => m.get(k),
            _ => None,
        };
    }
    if cur == Some(&v) || (cur.is_none() && v.is_null()) {
        return Ok(());
    }
    let values = Arc::make_mut(values);
    let Some(mut cur) = values.get_mut(first) else {
        return Err(mlua::Error::runtime(format!(
            "key: the piece has no value {first:?} to set {} in",
            shown(path.len())
        )));
    };
    for (n, step) in middle.iter().enumerate() {
        let at = n + 2;
        cur = match (cur, step) {
            (Json::Array(a), PathStep::Index(i)) => {
                let len = a.len();
                a.get_mut(i - 1).ok_or_else(|| {
                    mlua::Error::runtime(format!(
                        "key: {} is past the end of the list ({len} items)",
                        shown(at)
                    ))
                })?
            }
            (Json::Object(m), PathStep::Key(k)) => m
                .get_mut(k)
                .ok_or_else(|| mlua::Error::runtime(format!("key: {} is not there", shown(at))))?,
            (other, _) => return Err(not_a_container(&shown(at - 1), other, step)),
        };
    }
    match (cur, last) {
        (Json::Array(a), PathStep::Index(i)) => {
            if v.is_null() {
                return Err(mlua::Error::runtime(format!(
                    "value: a list item cannot be removed ({}); set the whole list",
                    shown(path.len())
                )));
            }
            match i.checked_sub(1) {
                Some(j) if j < a.len() => a[j] = v,
                Some(j) if j == a.len() => a.push(v),
                _ => {
                    return Err(mlua::Error::runtime(format!(
                        "key: {} is past the end of the list ({} items; {} appends)",
                        shown(path.len()),
                        a.len(),
                        a.len() + 1
                    )));
                }
            }
        }
        (Json::Object(m), PathStep::Key(k)) => {
            if v.is_null() {
                m.remove(k);
            } else {
                m.insert(k.clone(), v);
            }
        }
        (other, step) => return Err(not_a_container(&shown(path.len() - 1), other, step)),
    }
    Ok(())
}

fn not_a_container(at: &str, v: &Json, step: &PathStep) -> mlua::Error {
    let (want, is) = match step {
        PathStep::Index(_) => ("a list", v),
        PathStep::Key(_) => ("a table with string keys", v),
    };
    let kind = match is {
        Json::Null => "nothing",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "a list",
        Json::Object(_) => "a table",
    };
    mlua::Error::runtime(format!(
        "key: {at} is {kind}, not {want} ({step} cannot go into it)"
    ))
}

/// A method body's error as the mod sees it: `file:line: ctx:<name>: <message>`.
fn body_error(lua: &Lua, name: &str, r: mlua::Result<Ret>) -> mlua::Result<Ret> {
    r.map_err(|e| {
        located(
            lua,
            format!("ctx:{name}: {}", crate::ScriptError::from_lua(&e).message),
        )
    })
}

/// A method's result: the body's (already located), or the session's refusal (a returned,
/// busy or read-only ctx, or not a ctx at all) located at the mod's line.
fn refusal(lua: &Lua, r: mlua::Result<mlua::Result<Ret>>) -> mlua::Result<Ret> {
    match r {
        Ok(r) => r,
        Err(e) => Err(located(lua, crate::ScriptError::from_lua(&e).message)),
    }
}

/// The read methods whose answers [`crate::memo`] can check again (they note a [`Read`]), and
/// those that read no state (declarations only). Any other read makes victory's answer not
/// remembered.
const REMEMBERED_READS: &[&str] = &[
    "sides",
    "side",
    "piece",
    "pieces",
    "exists",
    "global",
    "type",
    "lookup",
    "terrain_info",
];

/// A `ctx:pieces` filter table read field by field (see [`plain_filter`] for the usual case):
/// `owner`, `type` and `location` as strings (anything else is no filter), `at` a hex, `fields`
/// a list of field names.
fn piece_filter(lua: &Lua, filter: Option<&Table>) -> mlua::Result<ParsedFilter> {
    let owner: Option<String> = filter.and_then(|f| f.raw_get("owner").ok().flatten());
    let kind: Option<String> = filter.and_then(|f| f.raw_get("type").ok().flatten());
    let location: Option<String> = filter.and_then(|f| f.raw_get("location").ok().flatten());
    let at = match filter.map(|f| f.raw_get::<Value>("at")) {
        Some(Ok(v)) if !v.is_nil() => {
            Some(hex_from_value_in(lua, &v).map_err(mlua::Error::runtime)?)
        }
        _ => None,
    };
    let fields = match filter {
        Some(f) => light_fields(f.raw_get("fields")?)?,
        None => None,
    };
    let shared = match filter {
        Some(f) => shared_option(f.raw_get("shared")?)?,
        None => false,
    };
    let query = PieceQuery {
        owner,
        kind,
        location,
        at,
        fields: fields.as_ref().map(|f| f.iter().map(|(_, l)| *l).collect()),
    };
    Ok((query, fields, shared))
}

/// `shared` of a `ctx:pieces` filter or of `ctx:piece`'s options: `true` asks for the shared,
/// read-only snapshots even where the callback may write (they are what read-only callbacks
/// always get).
fn shared_option(v: Value) -> mlua::Result<bool> {
    match v {
        Value::Nil => Ok(false),
        Value::Boolean(b) => Ok(b),
        other => Err(mlua::Error::runtime(format!(
            "shared: expected true or false, got {}",
            other.type_name()
        ))),
    }
}

/// The usual `ctx:pieces` filter, read straight off the Lua stack (`Args::record`): a table
/// without items whose only keys are `owner`, `type`, `location` (strings), `fields` (a list of
/// known field names, each kept once) and `shared` (a boolean). `None` for anything else (then
/// [`piece_filter`] reads it, with its conversions and error messages). Why: reading five keys
/// and a list through mlua was six protected calls per `ctx:pieces`, and reading the table as
/// JSON first made a map of owned strings to throw away.
fn plain_filter(args: &Args) -> Option<ParsedFilter> {
    let (mut owner, mut kind, mut location) = (None, None, None);
    let (mut fields, mut shared) = (None, false);
    args.record(0, |key, v| {
        use crate::raw::Field;
        match (key, v) {
            ("owner", Field::Str(x)) => owner = Some(x.to_owned()),
            ("type", Field::Str(x)) => kind = Some(x.to_owned()),
            ("location", Field::Str(x)) => location = Some(x.to_owned()),
            ("shared", Field::Bool(b)) => shared = b,
            ("fields", Field::Strings(names)) => {
                let mut out: Vec<(String, Light)> = Vec::with_capacity(names.len());
                for n in names {
                    let (name, light) = LIGHT.iter().find(|(x, _)| *x == n)?;
                    if !out.iter().any(|(_, l)| l == light) {
                        out.push(((*name).to_string(), *light));
                    }
                }
                fields = Some(out);
            }
            _ => return None,
        }
        Some(())
    })?;
    let query = PieceQuery {
        owner,
        kind,
        location,
        at: None,
        fields: fields
            .as_ref()
            .map(|f: &LightFields| f.iter().map(|(_, l)| *l).collect()),
    };
    Some((query, fields, shared))
}

/// A parsed `ctx:pieces` filter: which pieces, the light fields asked for, and `shared`.
type ParsedFilter = (PieceQuery, Option<LightFields>, bool);

/// Builds the table of every ctx method, once per [`LuaRules`]: plain functions that find the
/// state through their `self` (see [`crate::live`]).
fn build_methods(lua: &Lua) -> mlua::Result<Table> {
    let methods = lua.create_table()?;
    macro_rules! read {
        ($name:literal, |$lua:ident, $rules:ident, $s:ident, $args:ident $(, $shared:ident)?| $body:expr) => {
            methods.raw_set(
                $name,
                lua.create_function(move |$lua, $args: Args| {
                    // Refusals (returned, busy, not a ctx) name the mod's line.
                    let r = crate::live::with_state($lua, &$args, $name, |$rules, $s, writable| {
                        // Read-only callbacks get shared read-only tables, writable ones fresh
                        // copies.
                        $(let $shared = !writable;)?
                        let _ = writable;
                        // Victory's answer is remembered only when every read can be asked
                        // again (crate::memo); the others say so here.
                        if !REMEMBERED_READS.contains(&$name) {
                            $rules.recorder.untracked();
                        }
                        // The closure lets a body use `?`.
                        #[allow(clippy::redundant_closure_call)]
                        let r: mlua::Result<Ret> = (|| $body)();
                        body_error($lua, $name, r)
                    });
                    refusal($lua, r)
                })?,
            )?;
        };
    }
    macro_rules! write {
        ($name:literal, |$lua:ident, $rules:ident, $s:ident, $args:ident| $body:expr) => {
            methods.raw_set(
                $name,
                lua.create_function(move |$lua, $args: Args| {
                        // Refusals (read-only ctx, busy, returned) name the mod's line.
                        let r = crate::live::with_state_mut($lua, &$args, $name, |$rules, $s| {
                            let _ = $rules; // not every method needs the rules
                            // The closure lets a body use `?`.
                            #[allow(clippy::redundant_closure_call)]
                            let r: mlua::Result<Ret> = (|| $body)();
                            body_error($lua, $name, r)
                        });
                        refusal($lua, r)
                    })?,
            )?;
        };
    }
    fn piece_id(lua: &Lua, args: &Args, i: usize, s: &GameState) -> mlua::Result<PieceId> {
        let id = match args.get(lua, i)? {
            Value::Integer(n) if (0..=i64::from(u32::MAX)).contains(&n) => PieceId(n as u32),
            Value::Number(f) if f.fract() == 0.0 && f >= 0.0 && f <= f64::from(u32::MAX) => {
                PieceId(f as u32)
            }
            other => {
                return Err(mlua::Error::runtime(format!(
                    "argument {}: expected a piece id (integer), got {}",
                    i + 1,
                    other.type_name()
                )));
            }
        };
        if s.pieces.contains_key(&id) {
            Ok(id)
        } else {
            Err(mlua::Error::runtime(format!("no piece with id {}", id.0)))
        }
    }
    fn string(args: &Args, i: usize) -> mlua::Result<String> {
        args.string(i).ok_or_else(|| {
            mlua::Error::runtime(format!(
                "argument {}: expected a string, got {}",
                i + 1,
                args.type_name(i)
            ))
        })
    }
    fn hex(lua: &Lua, args: &Args, i: usize) -> mlua::Result<Hex> {
        // The usual `{ q =, r = }` of integers in range, read in place; anything else (and
        // every error) goes the general way.
        if let Some((q, r)) = args.hex_coords(i)
            && q.abs() <= COORD_LIMIT
            && r.abs() <= COORD_LIMIT
        {
            return Ok(Hex::new(q as i32, r as i32));
        }
        hex_from_value_in(lua, &args.get(lua, i)?)
            .map_err(|m| mlua::Error::runtime(format!("argument {}: {m}", i + 1)))
    }
    fn one(lua: &Lua, v: impl mlua::IntoLua) -> mlua::Result<Ret> {
        Ok(Ret::One(v.into_lua(lua)?))
    }
    /// Argument `i` as JSON: read off the stack when plain, else through serde (its errors).
    fn json(lua: &Lua, args: &Args, i: usize, what: &str) -> mlua::Result<Json> {
        match args.json(i) {
            Some(j) => Ok(j),
            None => from_lua(lua, args.get(lua, i)?, &what),
        }
    }
    fn shown(v: &Value) -> String {
        match v {
            Value::Integer(n) => n.to_string(),
            Value::Number(f) => f.to_string(),
            o => o.type_name().to_string(),
        }
    }
    /// A dice count within the core's limit (1..=MAX_DICE).
    fn count(lua: &Lua, args: &Args, i: usize) -> mlua::Result<u32> {
        match args.get(lua, i)? {
            Value::Integer(n) if (1..=i64::from(MAX_DICE)).contains(&n) => Ok(n as u32),
            other => Err(mlua::Error::runtime(format!(
                "argument {}: dice count {} is outside 1..={MAX_DICE}",
                i + 1,
                shown(&other)
            ))),
        }
    }
    fn label(args: &Args, i: usize) -> String {
        args.string(i).unwrap_or_default()
    }

    read!("sides", |lua, rules, s, _args, shared| {
        rules.recorder.note(|| Read::Sides(s.sides.clone()));
        let t = lua.create_table()?;
        for (i, side) in s.sides.iter().enumerate() {
            t.raw_set(i + 1, side_table(lua, rules, side, shared)?)?;
        }
        one(lua, t)
    });
    read!("side", |lua, rules, s, args, shared| {
        let id = string(&args, 0)?;
        let side = s.sides.iter().find(|x| x.id.as_str() == id);
        rules
            .recorder
            .note(|| Read::Side(id.clone(), side.cloned()));
        match side {
            Some(side) => one(lua, side_table(lua, rules, side, shared)?),
            None => one(lua, Value::Nil),
        }
    });
    read!("piece", |lua, rules, s, args, shared| {
        let id = match args.get(lua, 0)? {
            Value::Integer(n) if (0..=i64::from(u32::MAX)).contains(&n) => PieceId(n as u32),
            Value::Number(f) if f.fract() == 0.0 && f >= 0.0 && f <= f64::from(u32::MAX) => {
                PieceId(f as u32)
            }
            // Not a piece id: nil, whatever the state (nothing to note).
            _ => return one(lua, Value::Nil),
        };
        let shared = shared
            || match args.get(lua, 1)? {
                Value::Table(o) => shared_option(o.raw_get("shared")?)?,
                _ => false,
            };
        rules
            .recorder
            .note(|| Read::Piece(id, s.pieces.get(&id).cloned()));
        one(lua, piece_table(lua, rules, s, id, shared)?)
    });
    read!("pieces", |lua, rules, s, args, shared| {
        // The usual filter is read off the stack; anything else as a table, with its errors.
        let plain = plain_filter(&args);
        let (query, fields, asked_shared) = match plain {
            Some(q) => q,
            None => {
                let filter = match args.get(lua, 0)? {
                    Value::Table(t) => Some(t),
                    _ => None,
                };
                piece_filter(lua, filter.as_ref())?
            }
        };
        let shared = shared || asked_shared;
        let matched: Vec<&Piece> = s
            .pieces
            .values()
            .filter(|p| query.matches(p, |p| rules.footprint_of(p)))
            .collect();
        rules.recorder.note(|| {
            Read::Pieces(
                query.clone(),
                matched.iter().map(|p| (*p).clone()).collect(),
            )
        });
        let ids = matched.iter().map(|p| p.id);
        match fields {
            Some(fields) => one(lua, light_tables(lua, rules, s, &fields, ids, shared)?),
            None => one(lua, piece_tables(lua, rules, s, ids, shared)?),
        }
    });
    read!("exists", |lua, rules, s, args| {
        // Like ctx:piece, anything that is not a piece id is simply not a piece.
        let id = match args.get(lua, 0)? {
            Value::Integer(n) if (0..=i64::from(u32::MAX)).contains(&n) => Some(PieceId(n as u32)),
            Value::Number(f) if f.fract() == 0.0 && f >= 0.0 && f <= f64::from(u32::MAX) => {
                Some(PieceId(f as u32))
            }
            _ => None,
        };
        if let Some(id) = id {
            rules
                .recorder
                .note(|| Read::Exists(id, s.pieces.contains_key(&id)));
        }
        one(lua, id.is_some_and(|id| s.pieces.contains_key(&id)))
    });
    read!("pieces_at", |lua, rules, s, args, shared| {
        let h = hex(lua, &args, 0)?;
        let ids = s
            .pieces
            .values()
            .filter(|p| footprint(rules, s, p.id).contains(&h))
            .map(|p| p.id);
        one(lua, piece_tables(lua, rules, s, ids, shared)?)
    });
    read!("footprint", |lua, rules, s, args| {
        let id = piece_id(lua, &args, 0, s)?;
        one(lua, hexes_to_table(lua, footprint(rules, s, id))?)
    });
    read!("terrain", |lua, rules, s, args| {
        let h = hex(lua, &args, 0)?;
        let ids: Vec<String> = s
            .board
            .terrain_at(h, s.clock.label.as_deref())
            .into_iter()
            .map(str::to_string)
            .collect();
        one(lua, ids)
    });
    read!("terrain_info", |lua, rules, _s, args| {
        let id = string(&args, 0)?;
        match rules.loaded.decls.terrains.get(&id) {
            Some(t) => one(
                lua,
                json_to_lua(lua, &Json::Object(t.data.clone().into_iter().collect()))?,
            ),
            None => one(lua, Value::Nil),
        }
    });
    read!("move_listing", |lua, rules, s, args| {
        // search.move_listing with the game's board as `on_board` (unless env gives one).
        let board = |h: Hex| s.board.shape.as_ref().is_none_or(|b| b.contains(h));
        crate::api::search::ctx_move_listing(lua, args.to_multi(lua)?, &board, false).map(Ret::Many)
    });
    read!("move_choices", |lua, rules, s, args| {
        // ctx:move_listing's moves as choice lists (api::choices).
        let board = |h: Hex| s.board.shape.as_ref().is_none_or(|b| b.contains(h));
        crate::api::search::ctx_move_listing(lua, args.to_multi(lua)?, &board, true).map(Ret::Many)
    });
    read!("on_board", |lua, rules, s, args| {
        let h = hex(lua, &args, 0)?;
        one(lua, s.board.shape.as_ref().is_none_or(|b| b.contains(h)))
    });
    read!("hex_kind", |lua, rules, s, args| {
        let h = hex(lua, &args, 0)?;
        match s.board.shape.as_ref() {
            Some(b) => match b.kind(h) {
                Some(k) => one(lua, lua.to_value(&k)?),
                None => one(lua, Value::Nil),
            },
            None => one(lua, "full"),
        }
    });
    read!("board_hexes", |lua, rules, s, args| {
        // ctx:board_hexes { terrain = id }: only the hexes with that terrain now (one call
        // instead of a ctx:terrain call per hex of the board).
        let terrain = match args.get(lua, 0)? {
            Value::Nil => None,
            Value::Table(t) => match t.raw_get::<Value>("terrain")? {
                Value::Nil => None,
                Value::String(id) => Some(id.to_string_lossy()),
                other => {
                    return Err(mlua::Error::runtime(format!(
                        "argument 1: terrain: expected a terrain id (string), got {}",
                        other.type_name()
                    )));
                }
            },
            other => {
                return Err(mlua::Error::runtime(format!(
                    "argument 1: expected nil or a filter {{ terrain = id }}, got {}",
                    other.type_name()
                )));
            }
        };
        let mut hexes = s
            .board
            .shape
            .as_ref()
            .map(|b| b.hexes())
            .unwrap_or_default();
        if let Some(id) = terrain {
            let label = s.clock.label.as_deref();
            hexes.retain(|h| s.board.terrain_at(*h, label).contains(&id.as_str()));
        }
        one(lua, hexes_to_table(lua, hexes)?)
    });
    read!("graph_route", |lua, rules, s, args| {
        // ctx:graph_route(graph, from, to): the shortest route, both ends included (ties go to
        // the alphabetically first route), or nil.
        let (id, from, to) = (string(&args, 0)?, string(&args, 1)?, string(&args, 2)?);
        let Some(g) = s.board.graphs.get(&id) else {
            return Err(mlua::Error::runtime(format!(
                "there is no graph map {id:?}"
            )));
        };
        match g.shortest_route(&from, &to, |_| true) {
            Some(route) => one(lua, Value::Table(lua.create_sequence_from(route)?)),
            None => one(lua, Value::Nil),
        }
    });
    read!("graph_distance", |lua, rules, s, args| {
        // ctx:graph_distance(graph, from, to): routes crossed on the shortest route (the
        // destination counted, the start not), or nil when there is no route.
        let (id, from, to) = (string(&args, 0)?, string(&args, 1)?, string(&args, 2)?);
        let Some(g) = s.board.graphs.get(&id) else {
            return Err(mlua::Error::runtime(format!(
                "there is no graph map {id:?}"
            )));
        };
        match g.shortest_route(&from, &to, |_| true) {
            Some(route) => one(lua, Value::Integer((route.len() - 1) as i64)),
            None => one(lua, Value::Nil),
        }
    });
    read!("graph", |lua, rules, s, args| {
        let id = string(&args, 0)?;
        match s.board.graphs.get(&id) {
            Some(g) => one(
                lua,
                to_lua(
                    lua,
                    &serde_json::to_value(g).map_err(mlua::Error::external)?,
                )?,
            ),
            None => one(lua, Value::Nil),
        }
    });
    read!("global", |lua, rules, s, args, shared| {
        let key = string(&args, 0)?;
        rules
            .recorder
            .note(|| Read::Global(key.clone(), s.globals.get(&key).cloned()));
        one(
            lua,
            global_value(lua, rules, &key, s.globals.get(&key), shared)?,
        )
    });
    read!("type", |lua, rules, _s, args| {
        let id = string(&args, 0)?;
        match rules.loaded.decls.piece_types.get(&id) {
            Some(d) => {
                let mut m: serde_json::Map<String, Json> = d.extra.clone().into_iter().collect();
                m.insert("id".into(), Json::String(d.id.clone()));
                m.insert(
                    "stats".into(),
                    Json::Object(d.stats.clone().into_iter().collect()),
                );
                m.insert(
                    "values".into(),
                    Json::Object(d.values.clone().into_iter().collect()),
                );
                one(lua, json_to_lua(lua, &Json::Object(m))?)
            }
            None => one(lua, Value::Nil),
        }
    });
    read!("lookup", |lua, rules, _s, args| {
        let table = string(&args, 0)?;
        let shift = match args.get(lua, 3)? {
            Value::Nil => 0,
            Value::Integer(n) => n,
            Value::Number(f) if f.fract() == 0.0 && f.abs() < 1.0e9 => f as i64,
            other => {
                return Err(mlua::Error::runtime(format!(
                    "argument 4: expected a column shift (integer), got {}",
                    other.type_name()
                )));
            }
        };
        let (cell, modifier) =
            lookup_cell(rules, &table, &args.get(lua, 1)?, &args.get(lua, 2)?, shift)
                .map_err(mlua::Error::runtime)?;
        Ok(Ret::Two(json_to_lua(lua, &cell)?, Value::Integer(modifier)))
    });
    read!("legal", |lua, rules, s, args| {
        let Value::Table(t) = args.get(lua, 0)? else {
            return Err(mlua::Error::runtime(
                "argument 1: expected an action table { id =, side =, ... }",
            ));
        };
        let mut params = from_lua(lua, Value::Table(t), &"action")?;
        let id = params
            .get("id")
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string();
        let side = params
            .get("side")
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string();
        if let Json::Object(m) = &mut params {
            m.remove("id");
            m.remove("side");
        }
        let action = Action::new(id, SideId::new(side), params);
        // Why not run_check: that would borrow the same VM call re-entrantly through a new scope,
        // which mlua allows; errors are turned into Lua errors here.
        match rules.run_check(s, &action) {
            Ok(Ok(())) => one(lua, true),
            Ok(Err(i)) => Ok(Ret::Two(
                Value::Boolean(false),
                Value::String(lua.create_string(&i.reason)?),
            )),
            Err(e) => Err(mlua::Error::runtime(e.message)),
        }
    });

    write!("move", |lua, rules, s, args| {
        let id = piece_id(lua, &args, 0, s)?;
        let h = hex(lua, &args, 1)?;
        let facing = match args.get(lua, 2)? {
            Value::Nil => None,
            v => Some(
                dir_from_value(&v).map_err(|m| mlua::Error::runtime(format!("argument 3: {m}")))?,
            ),
        };
        if let Some(p) = s.pieces.get_mut(&id) {
            p.pos = Position::Hex(h);
            if facing.is_some() {
                p.facing = facing;
            }
        }
        one(lua, Value::Nil)
    });
    write!("place", |lua, rules, s, args| {
        let id = piece_id(lua, &args, 0, s)?;
        let pos = parse_position(&args.get(lua, 1)?)
            .map_err(|m| mlua::Error::runtime(format!("argument 2: {m}")))?;
        if let Some(p) = s.pieces.get_mut(&id) {
            p.pos = pos;
        }
        one(lua, Value::Nil)
    });
    write!("set", |lua, rules, s, args| {
        let id = piece_id(lua, &args, 0, s)?;
        // A key, or a path into a value: { "comps", 3, "charge" }.
        let path = match args.get(lua, 1)? {
            Value::Table(t) => value_path(&t)?,
            _ => vec![PathStep::Key(string(&args, 1)?)],
        };
        let v = json(lua, &args, 2, "value")?;
        if let Some(p) = s.pieces.get_mut(&id) {
            if let [PathStep::Key(key)] = path.as_slice() {
                set_value(p, key, v);
            } else {
                set_path(&mut p.values, &path, v)?;
            }
        }
        one(lua, Value::Nil)
    });
    write!("set_side", |lua, rules, s, args| {
        let side = string(&args, 0)?;
        let key = string(&args, 1)?;
        let v = json(lua, &args, 2, "value")?;
        let st = s
            .side_mut(&SideId::new(side.clone()))
            .ok_or_else(|| mlua::Error::runtime(format!("no side {side:?}")))?;
        if v.is_null() {
            st.values.remove(&key);
        } else {
            st.values.insert(key, v);
        }
        one(lua, Value::Nil)
    });
    write!("set_global", |lua, rules, s, args| {
        let key = string(&args, 0)?;
        let v = json(lua, &args, 1, "value")?;
        // Setting what is already there changes nothing (and keeps the globals shared with the
        // state before the action).
        if v.is_null() {
            if s.globals.contains_key(&key) {
                Arc::make_mut(&mut s.globals).remove(&key);
            }
        } else if s.globals.get(&key) != Some(&v) {
            Arc::make_mut(&mut s.globals).insert(key, v);
        }
        one(lua, Value::Nil)
    });
    write!("create", |lua, rules, s, args| {
        let Value::Table(t) = args.get(lua, 0)? else {
            return Err(mlua::Error::runtime(
                "argument 1: expected { type =, owner =, hex = | position =, facing =, values = }",
            ));
        };
        let kind: String = t
            .raw_get::<Option<String>>("type")?
            .ok_or_else(|| mlua::Error::runtime("type is required"))?;
        let decl = rules
            .loaded
            .decls
            .piece_types
            .get(&kind)
            .ok_or_else(|| mlua::Error::runtime(format!("no piece type {kind:?}")))?;
        let owner: String = t
            .raw_get::<Option<String>>("owner")?
            .ok_or_else(|| mlua::Error::runtime("owner is required"))?;
        let pos_v: Value = match t.raw_get::<Value>("hex")? {
            Value::Nil => t.raw_get("position")?,
            v => v,
        };
        let pos = parse_position(&pos_v).map_err(mlua::Error::runtime)?;
        let facing = match t.raw_get::<Value>("facing")? {
            Value::Nil => None,
            v => Some(dir_from_value(&v).map_err(mlua::Error::runtime)?),
        };
        let extra = from_lua(lua, t.raw_get("values")?, &"values")?;
        let id = s.add_piece(&kind, SideId::new(owner), pos, facing);
        if let Some(p) = s.pieces.get_mut(&id) {
            let mut values = decl.values.clone();
            if let Json::Object(m) = extra {
                values.extend(m);
            }
            p.values = Arc::new(values);
        }
        one(lua, id.0)
    });
    write!("destroy", |lua, rules, s, args| {
        let id = piece_id(lua, &args, 0, s)?;
        s.remove_piece(id);
        one(lua, Value::Nil)
    });
    write!("eliminate", |lua, rules, s, args| {
        let side = string(&args, 0)?;
        s.side_mut(&SideId::new(side.clone()))
            .ok_or_else(|| mlua::Error::runtime(format!("no side {side:?}")))?
            .eliminated = true;
        one(lua, Value::Nil)
    });
    write!("set_terrain", |lua, rules, s, args| {
        let h = hex(lua, &args, 0)?;
        let ids: Vec<String> = match json(lua, &args, 1, "terrain ids")? {
            Json::Array(a) => a
                .into_iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        };
        if ids.is_empty() {
            if s.board.terrain.contains_key(&h) {
                Arc::make_mut(&mut s.board).terrain.remove(&h);
            }
        } else if s.board.terrain.get(&h) != Some(&ids) {
            Arc::make_mut(&mut s.board).terrain.insert(h, ids);
        }
        one(lua, Value::Nil)
    });
    write!("end_game", |lua, rules, s, args| {
        s.outcome = Some(parse_outcome(lua, args.get(lua, 0)?)?);
        one(lua, Value::Nil)
    });
    write!("log", |lua, rules, s, args| {
        s.emit(label(&args, 0));
        one(lua, Value::Nil)
    });
    write!("roll", |lua, rules, s, args| {
        let notation = string(&args, 0)?;
        let expr = DiceExpr::parse(&notation)
            .map_err(|e| mlua::Error::runtime(format!("dice {notation:?}: {e}")))?;
        let roll = s.dice.roll(&expr, &label(&args, 1));
        one(lua, roll.total)
    });
    write!("roll_detail", |lua, rules, s, args| {
        let notation = string(&args, 0)?;
        let expr = DiceExpr::parse(&notation)
            .map_err(|e| mlua::Error::runtime(format!("dice {notation:?}: {e}")))?;
        let roll = s.dice.roll(&expr, &label(&args, 1));
        let t = lua.create_table()?;
        t.raw_set("total", roll.total)?;
        let dice = serde_json::to_value(&roll.dice).map_err(mlua::Error::external)?;
        t.raw_set("dice", to_lua(lua, &dice)?)?;
        one(lua, t)
    });
    write!("pool", |lua, rules, s, args| {
        let n = count(lua, &args, 0)?;
        let sides = match args.get(lua, 1)? {
            Value::Integer(n) if (1..=i64::from(MAX_SIDES)).contains(&n) => n as u32,
            other => {
                return Err(mlua::Error::runtime(format!(
                    "argument 2: number of sides {} is outside 1..={MAX_SIDES}",
                    shown(&other)
                )));
            }
        };
        let roll = s
            .dice
            .pool(n, sides, &label(&args, 2))
            .map_err(|e| mlua::Error::runtime(e.to_string()))?;
        one(lua, roll.kept_values())
    });
    write!("roll_named", |lua, rules, s, args| {
        let id = string(&args, 0)?;
        if rules.dice.get(&id).is_none() {
            return Err(mlua::Error::runtime(format!(
                "no dice with named faces {id:?} (declare game.dice {{ id = {id:?}, faces = {{ ... }} }})"
            )));
        }
        let n = count(lua, &args, 1)?;
        // Rolled as the core's `Nd[die]` so the log shows every die's face name.
        let expr = rules
            .dice
            .parse(&format!("{n}d[{id}]"))
            .map_err(|e| mlua::Error::runtime(format!("dice {id:?}: {e}")))?;
        let roll = s.dice.roll(&expr, &label(&args, 2));
        let faces: Vec<String> = roll
            .dice
            .iter()
            .map(|d| d.face.clone().unwrap_or_default())
            .collect();
        one(lua, faces)
    });

    Ok(methods)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::loader::{LoadOptions, load_mods};

    const MAIN: &str = r#"game.piece_type { id = "ship", stats = { mr = 2, arcs = { "F", "A" } },
  values = { hull = 3, spot = { q = 1, r = 2 }, rec = { guns = { 1, 2 }, crew = { a = 1 } } } }
game.piece_type { id = "buoy" }
game.table { id = "odds", rows = { 1, 2 }, columns = { "a", "b" }, cells = { { 10, 20 }, { 30, 40 } } }
game.turns { order = "fixed", phases = { { id = "move" } } }
"#;

    const SCENARIO: &str = r#"[board]
shape = "hexagon"
radius = 4
[[sides]]
id = "blue"
[[sides]]
id = "red"
[[pieces]]
type = "ship"
owner = "blue"
hex = { q = 0, r = 3 }
facing = "N"
values = { hull = 5 }
[[pieces]]
type = "ship"
owner = "red"
box = "reserve"
[[pieces]]
type = "buoy"
owner = "red"
position = { location = "sol", slot = "orbit" }
[[pieces]]
type = "buoy"
owner = "blue"
position = { location = "sol" }
[[pieces]]
type = "buoy"
owner = "blue"
hex = { q = -1, r = 1 }
"#;

    /// A loaded rule set and a set-up state (the temp dir must outlive them).
    fn setup() -> (tempfile::TempDir, LuaRules, GameState) {
        let dir = tempfile::tempdir().unwrap();
        let m = dir.path().join("mods/t");
        std::fs::create_dir_all(m.join("scenarios")).unwrap();
        std::fs::write(
            m.join("mod.toml"),
            "id = \"t\"\nname = \"T\"\nversion = \"0.1.0\"\nengine = \"*\"\n",
        )
        .unwrap();
        std::fs::write(m.join("main.lua"), MAIN).unwrap();
        std::fs::write(m.join("scenarios/s.toml"), SCENARIO).unwrap();
        let loaded = load_mods(&dir.path().join("mods"), "t", &LoadOptions::default())
            .unwrap_or_else(|e| panic!("{e:?}"));
        let rules = LuaRules::new(loaded).unwrap();
        let mut state = GameState::new(rules.mod_locks(), "s", Json::Null, 1);
        rules.setup(&mut state).unwrap();
        (dir, rules, state)
    }

    /// Runs `code` with a read-only ctx as `...`.
    fn run(rules: &LuaRules, state: &GameState, code: &str) -> Result<(), crate::ScriptError> {
        rules.loaded.sandbox.guarded(|lua| {
            rules.with_ctx(lua, Access::Read(state), |lua, ctx| {
                lua.load(code).set_name("=test").call::<()>(ctx)
            })
        })
    }

    pub(crate) const SAME: &str = r"
local function same(a, b)
  if type(a) ~= type(b) or math.type(a) ~= math.type(b) then return false end
  if type(a) ~= 'table' then return a == b end
  for k, v in pairs(a) do if not same(v, b[k]) then return false end end
  for k in pairs(b) do if a[k] == nil then return false end end
  return true
end
";

    #[test]
    fn light_reads_equal_the_listed_fields_of_whole_snapshots() {
        let (_d, rules, state) = setup();
        assert_eq!(state.pieces.len(), 5);
        let code = format!(
            "{SAME}
local ctx = ...
local all = ctx:pieces()
assert(#all == 5)
local lists = {{ {{ 'id' }}, {{ 'id', 'owner', 'type', 'hex', 'facing' }}, {{ 'position' }},
  {{ 'values', 'stats' }}, {{ 'stats', 'facing', 'values', 'position', 'hex', 'owner', 'type', 'id' }},
  {{}}, {{ 'hex', 'hex', 'id' }} }}
for n, f in ipairs(lists) do
  for _, filter in ipairs({{ {{}}, {{ owner = 'blue' }}, {{ type = 'buoy' }}, {{ at = {{ q = 0, r = 3 }} }} }}) do
    local whole = ctx:pieces(filter)
    filter.fields = f
    local light = ctx:pieces(filter)
    assert(#light == #whole, 'count ' .. n)
    for i, p in ipairs(whole) do
      local want = {{}}
      for _, k in ipairs(f) do want[k] = p[k] end
      assert(same(light[i], want), 'list ' .. n .. ' piece ' .. i)
    end
  end
end
-- Rows are read-only like whole snapshots (values and stats are the very same tables); the
-- list is fresh.
local a = ctx:pieces {{ fields = {{ 'values', 'stats', 'hex' }} }}
assert(not pcall(function() a[1].hex.q = 7 end) and not pcall(function() a[1].extra = true end))
assert(not pcall(function() a[1].values.rec.guns[1] = 99 end))
assert(not pcall(function() a[1].stats.arcs[1] = 'X' end))
a[#a + 1] = 'mine'
local b = ctx:pieces {{ fields = {{ 'values', 'stats', 'hex' }} }}
assert(b[1].values.rec.guns[1] == 1 and b[1].stats.arcs[1] == 'F' and b[1].hex.q == 0)
assert(b[1].extra == nil and b[#b] ~= 'mine')
assert(a[1].values == b[1].values and a[2].stats == b[2].stats)
"
        );
        run(&rules, &state, &code).unwrap();
    }

    #[test]
    fn setting_an_unchanged_value_keeps_the_values_shared_with_the_earlier_state() {
        let (_d, rules, state) = setup();
        let mut s = state.clone();
        let write = |s: &mut GameState, code: &str| {
            rules
                .loaded
                .sandbox
                .guarded(|lua| {
                    rules.with_ctx(lua, Access::Write(s), |lua, ctx| {
                        lua.load(code).set_name("=test").call::<()>(ctx)
                    })
                })
                .unwrap();
        };
        let before = |s: &GameState| Arc::clone(&s.pieces[&PieceId(1)].values);
        write(
            &mut s,
            "local ctx = ... ctx:set(1, 'hull', 5) ctx:set(1, 'gone', nil)",
        );
        assert!(
            Arc::ptr_eq(&before(&state), &before(&s)),
            "no change, no copy"
        );
        write(&mut s, "local ctx = ... ctx:set(1, 'hull', 4)");
        assert!(!Arc::ptr_eq(&before(&state), &before(&s)));
        assert_eq!(s.pieces[&PieceId(1)].values["hull"], serde_json::json!(4));
        assert_eq!(
            state.pieces[&PieceId(1)].values["hull"],
            serde_json::json!(5)
        );
    }

    #[test]
    fn writable_callbacks_get_the_shared_snapshots_when_they_ask() {
        let (_d, rules, state) = setup();
        let mut s = state.clone();
        let code = format!(
            "{SAME}
local ctx = ...
-- Asked for: the read-only snapshots, the same tables on every read, equal to the copies.
local a, b = ctx:piece(1, {{ shared = true }}), ctx:piece(1, {{ shared = true }})
local copy = ctx:piece(1)
assert(a == b and a ~= copy and same(a, copy), 'shared piece')
assert(not pcall(function() a.values.hull = 1 end), 'shared snapshots refuse writes')
copy.values.hull = 1 -- a private copy takes writes
local all = ctx:pieces {{ shared = true }}
local copies = ctx:pieces {{}}
assert(#all == #copies and all[1] == a and all[1] ~= copies[1] and same(all[1], copies[1]))
local light = ctx:pieces {{ fields = {{ 'id', 'values' }}, shared = true }}
assert(light[1].values == a.values)
assert(ctx:pieces {{ fields = {{ 'id', 'values' }} }}[1].values ~= a.values)
-- A shared snapshot shows the piece as it was read; a new read shows ctx:set's change.
ctx:set(1, 'hull', 3)
assert(a.values.hull ~= 3 and ctx:piece(1, {{ shared = true }}).values.hull == 3)
for _, bad in ipairs({{ function() ctx:piece(1, {{ shared = 'yes' }}) end,
                       function() ctx:pieces {{ shared = 1 }} end }}) do
  local ok, err = pcall(bad)
  assert(not ok and tostring(err):find('shared: expected true or false'), tostring(err))
end
"
        );
        rules
            .loaded
            .sandbox
            .guarded(|lua| {
                rules.with_ctx(lua, Access::Write(&mut s), |lua, ctx| {
                    lua.load(&code).set_name("=test").call::<()>(ctx)
                })
            })
            .unwrap();
        assert_eq!(s.pieces[&PieceId(1)].values["hull"], serde_json::json!(3));
    }

    #[test]
    fn board_hexes_filtered_by_terrain_are_the_hexes_with_it() {
        let (_d, rules, mut state) = setup();
        rules
            .loaded
            .sandbox
            .guarded(|lua| {
                rules.with_ctx(lua, Access::Write(&mut state), |lua, ctx| {
                    lua.load(
                        "local ctx = ... ctx:set_terrain({ q = 1, r = 0 }, { 'rock' })
                         ctx:set_terrain({ q = -2, r = 1 }, { 'dust', 'rock' })
                         ctx:set_terrain({ q = 0, r = 0 }, { 'dust' })",
                    )
                    .set_name("=test")
                    .call::<()>(ctx)
                })
            })
            .unwrap();
        let code = r"
local ctx = ...
local rock = ctx:board_hexes { terrain = 'rock' }
local want = {}
for _, h in ipairs(ctx:board_hexes()) do
  for _, id in ipairs(ctx:terrain(h)) do if id == 'rock' then want[#want + 1] = h end end
end
assert(#rock == 2 and #want == 2)
for i = 1, 2 do assert(rock[i].q == want[i].q and rock[i].r == want[i].r) end
assert(#ctx:board_hexes { terrain = 'ice' } == 0)
assert(#ctx:board_hexes {} == #ctx:board_hexes())
local ok, err = pcall(function() return ctx:board_hexes { terrain = 3 } end)
assert(not ok and tostring(err):find('terrain: expected a terrain id'), tostring(err))
";
        run(&rules, &state, code).unwrap();
    }

    #[test]
    fn ctx_move_listing_and_choices_are_search_s_on_the_games_board() {
        let (_d, rules, state) = setup();
        // The board is a hexagon of radius 4: from (0,3) facing N or S at speed 3 some moves
        // leave it. Every list, field and plan must equal the listing with a Lua on_board.
        let code = r"
local ctx = ...
local function show(...)
  local out = {}
  for i = 1, 3 do
    for _, m in ipairs((select(i, ...))) do
      out[#out + 1] = ('%d:%d,%d:%d/%d/%s/%d/%s/%s/%d'):format(i, m.to.q, m.to.r, m.facing, m.turns,
        m.plan, m.start_facing, tostring(m.exited), tostring(m.crashed), #m.path)
    end
  end
  out[#out + 1] = tostring(select(4, ...))
  return table.concat(out, ' ')
end
local blocked = function(h) return h.q == 1 and h.r == 0 end
for _, crash in ipairs({ false, true }) do
  local rules = { speed = 3, max_turns = 2, paths = true }
  local lua_env = { on_board = function(h) return ctx:on_board(h) end, blocked = blocked, crash = crash }
  local a = show(search.move_listing({ q = 0, r = 3 }, { 0, 3 }, rules, lua_env))
  local b = show(ctx:move_listing({ q = 0, r = 3 }, { 0, 3 }, rules, { blocked = blocked, crash = crash }))
  assert(a == b, a .. '\n~=\n' .. b)
  assert(a:find('true/false'), 'some move leaves the board: ' .. a)
  -- ctx:move_choices: the same moves as choice lists, as search.move_choices gives them.
  local function plans(...)
    local out = {}
    for i = 1, 3 do
      for _, c in ipairs((select(i, ...))) do
        out[#out + 1] = ('%d:%d,%d:%d/%s/%d/%d/%d'):format(i, c.to.q, c.to.r, c.facing, c.plan,
          c.start_facing, c.piece, #c.path)
      end
    end
    return table.concat(out, ' ')
  end
  local c = plans(search.move_choices({ q = 0, r = 3 }, { 0, 3 }, rules, lua_env, { piece = 4 }))
  local d = plans(ctx:move_choices({ q = 0, r = 3 }, { 0, 3 }, rules, { blocked = blocked, crash = crash },
    { piece = 4 }))
  assert(c == d and #c > 0, c .. '\n~=\n' .. d)
end
local ok, err = pcall(function() return ctx:move_choices({ q = 0, r = 3 }, 0, { speed = 1 }, nil, { to = 1 }) end)
assert(not ok and tostring(err):find('ctx:move_choices: argument 5: params: .to. is set by each move'), tostring(err))
-- env.on_board still wins; errors name ctx:move_listing.
local e = ctx:move_listing({ q = 0, r = 3 }, 0, { speed = 3 }, { on_board = function() return true end })
assert(#e > 0)
local ok, err = pcall(function() return ctx:move_listing({ q = 0 }, 0, { speed = 1 }) end)
assert(not ok and tostring(err):find('ctx:move_listing: argument 1'), tostring(err))
";
        run(&rules, &state, code).unwrap();
    }

    #[test]
    fn read_only_callbacks_share_snapshots_that_refuse_writes_and_read_like_tables() {
        let (_d, rules, state) = setup();
        let code = r"
local ctx = ...
local p, q = ctx:piece(1), ctx:piece(1)
assert(p == q, 'the same table while the piece is unchanged')
assert(p.values == ctx:pieces()[1].values)
local ok, err = pcall(function() p.values.rec.guns[1] = 99 end)
assert(not ok and err:find('read%-only snapshot') and err:find('^test:6:'), err)
assert(not pcall(function() p.hex.q = 1 end))
assert(not pcall(function() p.newfield = 1 end))
assert(not pcall(function() table.insert(p.values.rec.guns, 5) end))
assert(not pcall(function() table.move({ 7 }, 1, 1, 1, p.values.rec.guns) end))
ok, err = pcall(function() rawset(p, 'id', 2) end)
assert(not ok and err:find('^test:12:'), err)
assert(not pcall(function() rawset(p.values.rec.guns, 1, 2) end))
assert(not pcall(function() setmetatable(p, {}) end))
assert(not pcall(function() setmetatable(p.values, { __index = { x = 1 } }) end))
assert(getmetatable(p) == nil and p.values.x == nil)
-- Nothing above changed it.
assert(p.id == 1 and p.hex.q ~= 1 and p.newfield == nil and p.values.rec.guns[1] == 1)
-- Reading works as on a plain table: #, ipairs, pairs, next, rawget, table functions,
-- conversions to Rust.
assert(#p.values.rec.guns == 2 and p.values.rec.guns[1] == 1)
assert(next(p) ~= nil and rawget(p, 'id') == 1 and rawlen(p.values.rec.guns) == 2)
-- Light rows too: frozen rows sharing the snapshot's values, in a fresh list.
local r1, r2 = ctx:pieces { fields = { 'id', 'hex', 'values' } }, ctx:pieces { fields = { 'id', 'hex', 'values' } }
assert(r1 ~= r2 and r1[1].values == r2[1].values and r1[1].values == p.values)
assert(not pcall(function() r1[1].id = 5 end) and not pcall(function() r1[1].hex.q = 5 end))
r1[#r1 + 1] = 'mine'
assert(ctx:pieces { fields = { 'hex', 'id' } }[1] ~= r1[1], 'another field list, another row')
local n = 0
for _ in ipairs(p.values.rec.guns) do n = n + 1 end
assert(n == 2)
local keys = {}
for k in pairs(p) do keys[#keys + 1] = k end
table.sort(keys)
assert(table.concat(keys, ',') == 'facing,hex,id,owner,position,stats,type,values', table.concat(keys, ','))
assert(table.concat(p.stats.arcs, '') == 'FA')
assert(hex.distance(p.hex, { q = 0, r = 0 }) == 3)
assert(#ctx:pieces { at = p.hex } >= 1)
";
        run(&rules, &state, code).unwrap();
        // A writable ctx gets fresh copies that the mod may change (and write back).
        let mut s = state.clone();
        rules
            .loaded
            .sandbox
            .guarded(|lua| {
                rules.with_ctx(lua, Access::Write(&mut s), |lua, ctx| {
                    lua.load(
                        r"
local ctx = ...
local p = ctx:piece(1)
assert(getmetatable(p) == nil)
p.values.rec.guns[1] = 99
assert(ctx:piece(1).values.rec.guns[1] == 1)
ctx:set(1, 'rec', p.values.rec)
assert(ctx:piece(1).values.rec.guns[1] == 99)
",
                    )
                    .set_name("=test")
                    .call::<()>(ctx)
                })
            })
            .unwrap();
    }

    #[test]
    fn bad_field_lists_are_errors_that_name_the_field() {
        let (_d, rules, state) = setup();
        let e = run(
            &rules,
            &state,
            "local ctx = ...; ctx:pieces { fields = { 'id', 'hull' } }",
        )
        .unwrap_err()
        .message;
        assert!(
            e.contains("ctx:pieces: fields: unknown field \"hull\""),
            "{e}"
        );
        let e = run(
            &rules,
            &state,
            "local ctx = ...; ctx:pieces { fields = { 3 } }",
        )
        .unwrap_err()
        .message;
        assert!(e.contains("unknown field integer"), "{e}");
        let e = run(
            &rules,
            &state,
            "local ctx = ...; ctx:pieces { fields = 'id' }",
        )
        .unwrap_err()
        .message;
        assert!(e.contains("fields: expected a list of field names"), "{e}");
    }

    /// What a method call reads off the Lua stack (crate::stack) means what mlua's conversion
    /// made of it: every kind of argument, the errors, and one or two results.
    #[test]
    fn method_arguments_read_off_the_stack_keep_their_meaning_and_errors() {
        let (_d, rules, mut state) = setup();
        let ok = r#"local ctx = ...
assert(ctx:on_board({ q = 0, r = 3 }) == true and ctx:on_board({ q = 9, r = 9 }) == false)
-- Integral floats, a shared snapshot's (frozen) hex, a hex with extra fields.
assert(ctx:on_board({ q = 0.0, r = 3.0 }) == true)
assert(ctx:on_board(ctx:piece(1).hex) == true)
assert(ctx:on_board({ q = 0, r = 3, note = "x" }) == true)
-- Strings are read in place; anything else is no string.
assert(ctx:global("nothing") == nil)
local v, shift = ctx:lookup("odds", 1, "b")
assert(v == 20 and shift == 0, tostring(v))
-- Missing and extra arguments are nil and ignored, as for any Lua function.
assert(ctx:piece() == nil and ctx:piece(1, nil, "extra").id == 1)
assert(ctx:exists(1) and not ctx:exists(1.5) and not ctx:exists("1"))
"#;
        run(&rules, &state, ok).unwrap();
        // Named like a mod file, so errors carry its line.
        let err = |code: &str, state: &GameState| {
            rules
                .loaded
                .sandbox
                .guarded(|lua| {
                    rules.with_ctx(lua, Access::Read(state), |lua, ctx| {
                        lua.load(format!("local ctx = ...\n{code}"))
                            .set_name("@mods/t/main.lua")
                            .call::<()>(ctx)
                    })
                })
                .unwrap_err()
        };
        for (code, want) in [
            (
                "ctx:global(5)",
                "ctx:global: argument 1: expected a string, got number",
            ),
            (
                "ctx:global()",
                "ctx:global: argument 1: expected a string, got nil",
            ),
            (
                "ctx:on_board({ q = 1, r = 'x' })",
                "argument 1: expected a hex {q=, r=} with integer r, got r = string",
            ),
            (
                "ctx:on_board({ q = 1.5, r = 0 })",
                "with integer q, got q = number",
            ),
            (
                "ctx:on_board({ q = 1 << 30, r = 0 })",
                "hex coordinate q = 1073741824 is out of range",
            ),
            (
                "ctx:on_board(7)",
                "argument 1: expected a hex {q=, r=}, got integer",
            ),
            (
                "ctx.global('x')",
                "ctx:global: call it on a ctx with a colon",
            ),
            (
                "ctx.global({}, 'x')",
                "ctx:global: call it on a ctx with a colon",
            ),
            (
                "ctx:set(1, 'x', 2)",
                "only allowed in apply, setup and hooks",
            ),
        ] {
            let e = err(code, &state);
            assert!(e.message.contains(want), "{code}: {}", e.message);
            assert_eq!((e.file.as_str(), e.line), ("mods/t/main.lua", 2), "{code}");
        }
        // A kept ctx refuses once its callback has returned.
        let kept = r#"local ctx = ...
KEPT = ctx"#;
        run(&rules, &state, kept).unwrap();
        let e = run(&rules, &state, "local ctx = ...\nKEPT:global('x')")
            .unwrap_err()
            .message;
        assert!(e.contains("this ctx's callback has returned"), "{e}");
        // Writes: plain values read off the stack, the rest through serde and its errors.
        let write = |code: &str, state: &mut GameState| {
            rules.loaded.sandbox.guarded(|lua| {
                rules.with_ctx(lua, Access::Write(state), |lua, ctx| {
                    lua.load(code).set_name("=test").call::<()>(ctx)
                })
            })
        };
        write(
            r#"local ctx = ...
ctx:set(1, "rec", { guns = { 3 }, crew = { a = 2 }, name = "x", f = 1.5, on = true })
ctx:set(1, { "rec", "crew", "b" }, 4)
ctx:set_global("g", { 1, 2 })
ctx:set_side("blue", "score", 3)"#,
            &mut state,
        )
        .unwrap();
        let p = &state.pieces[&PieceId(1)];
        assert_eq!(
            p.values["rec"],
            serde_json::json!({ "guns": [3], "crew": { "a": 2, "b": 4 }, "name": "x", "f": 1.5, "on": true })
        );
        assert_eq!(state.globals["g"], serde_json::json!([1, 2]));
        let e = write(
            "local ctx = ...\nctx:set(1, 'x', { f = print })",
            &mut state,
        )
        .unwrap_err()
        .message;
        assert!(
            e.contains("ctx:set: value: values must be plain data"),
            "{e}"
        );
    }

    /// The usual filter as it was read before `Args::record`: from the table's JSON reading.
    fn plain_filter_by_json(f: &Json) -> Option<ParsedFilter> {
        let Json::Object(m) = f else {
            return None;
        };
        let text = |k: &str| -> Option<Option<String>> {
            match m.get(k) {
                None => Some(None),
                Some(Json::String(s)) => Some(Some(s.clone())),
                Some(_) => None,
            }
        };
        let fields = match m.get("fields") {
            None => None,
            Some(Json::Array(names)) => {
                let mut out: Vec<(String, Light)> = Vec::new();
                for n in names {
                    let (name, light) = LIGHT.iter().find(|(x, _)| Some(*x) == n.as_str())?;
                    if !out.iter().any(|(_, l)| l == light) {
                        out.push(((*name).to_string(), *light));
                    }
                }
                Some(out)
            }
            Some(_) => return None,
        };
        let shared = match m.get("shared") {
            None => false,
            Some(Json::Bool(b)) => *b,
            Some(_) => return None,
        };
        if m.keys().any(|k| {
            !matches!(
                k.as_str(),
                "owner" | "type" | "location" | "fields" | "shared"
            )
        }) {
            return None;
        }
        let query = PieceQuery {
            owner: text("owner")?,
            kind: text("type")?,
            location: text("location")?,
            at: None,
            fields: fields.as_ref().map(|f| f.iter().map(|(_, l)| *l).collect()),
        };
        Some((query, fields, shared))
    }

    #[test]
    fn filters_read_off_the_stack_are_what_their_json_reading_gave() {
        let (_d, rules, _state) = setup();
        let cases = [
            "{}",
            "{ owner = 'blue' }",
            "{ owner = 'blue', type = 'ship', location = 'board', shared = false }",
            "{ fields = { 'id', 'hex', 'id' }, shared = true }",
            "{ fields = { 'values', 'stats', 'owner', 'type', 'position', 'facing' } }",
            "{ fields = { 'id', 'nope' } }",
            "{ fields = {} }",
            "{ fields = setmetatable({ 'id' }, {}) }",
            "{ fields = { 'id', 5 } }",
            "{ fields = { 'id', nil, 'hex' } }",
            "{ fields = { [1] = 'id', x = 1 } }",
            "{ fields = 'id' }",
            "{ shared = 1 }",
            "{ owner = 5 }",
            "{ owner = { 'blue' } }",
            "{ owner = '\\255' }",
            "{ ['\\255'] = 1 }",
            "{ at = { q = 1, r = 2 } }",
            "{ 1, 2 }",
            "{ owner = 'blue', [1] = 'x' }",
            "{ [true] = 1 }",
            "{ owner = 'blue', extra = function() end }",
            "setmetatable({ owner = 'blue' }, {})",
            "nil",
            "'blue'",
        ];
        rules
            .loaded
            .sandbox
            .guarded(|lua| {
                let compare = lua.create_function(|_, args: Args| {
                    let by_json = (args.type_name(0) == "table")
                        .then(|| args.json(0))
                        .flatten()
                        .and_then(|f| plain_filter_by_json(&f));
                    Ok(format!("{:?} / {:?}", plain_filter(&args), by_json))
                })?;
                for case in cases {
                    let f: Value = lua.load(format!("return {case}")).eval()?;
                    let both: String = compare.call((Value::Nil, f))?;
                    let (new, old) = both.split_once(" / ").unwrap();
                    assert_eq!(new, old, "{case}");
                }
                // Both ways read the usual filters, not only refuse them.
                let f: Value = lua
                    .load("return { owner = 'blue', fields = { 'id' } }")
                    .eval()?;
                let both: String = compare.call((Value::Nil, f))?;
                assert!(both.starts_with("Some("), "{both}");
                Ok(())
            })
            .unwrap();
    }

    #[test]
    fn ctx_templates_serve_only_their_own_fields() {
        let (_d, rules, state) = setup();
        // Every field, the ids in `acting` and the order `pairs` visits them in.
        let listing = |state: &GameState| -> String {
            rules
                .loaded
                .sandbox
                .guarded(|lua| {
                    rules.with_ctx(lua, Access::Read(state), |lua, ctx| {
                        lua.load(
                            r#"local ctx = ...
local out = {}
for k, v in pairs(ctx) do
  if type(v) == "table" then
    local items = {}
    for i, x in pairs(v) do items[#items + 1] = tostring(i) .. "=" .. tostring(x) end
    v = "{" .. table.concat(items, ",") .. "}"
  end
  out[#out + 1] = k .. "=" .. tostring(v)
end
return table.concat(out, " ")"#,
                        )
                        .call::<String>(ctx)
                    })
                })
                .unwrap()
        };
        let mut a = state.clone();
        a.clock.round = 3;
        a.clock.acting = vec![SideId::new("red")];
        let mut b = a.clone();
        b.options = serde_json::json!({ "hard": true }).into();
        b.clock.acting = vec![SideId::new("blue"), SideId::new("red")];
        let mut c = a.clone();
        c.clock.round = 4;
        let first_a = listing(&a);
        let first_b = listing(&b);
        assert_ne!(first_a, first_b);
        assert!(first_b.contains("acting={1=blue,2=red}"), "{first_b}");
        listing(&c);
        // Back at a position seen before: a template for the very same fields, and the same
        // one again while they stay the same.
        assert_eq!(listing(&b), first_b);
        assert_eq!(listing(&b), first_b);
        assert_eq!(listing(&a), first_a);
        // And what is kept is what a ctx made from scratch shows.
        *rules.ctx_template.borrow_mut() = None;
        assert_eq!(listing(&a), first_a);
        assert_eq!(listing(&b), first_b);
    }

    #[test]
    fn snapshots_follow_every_change_of_a_piece() {
        let (_d, rules, mut state) = setup();
        let read = "local ctx = ...; local p = ctx:piece(1); local l = ctx:pieces { fields = { 'values', 'hex' } }[1]
          assert(p.values.hull == %H and p.values.rec.guns[2] == %G and p.values.rec.crew.a == 1 and p.hex.q == %Q)
          assert(l.values.hull == %H and l.values.rec.guns[2] == %G and l.hex.q == %Q)";
        let check = |state: &GameState, h: i64, g: i64, q: i64| {
            let code = read
                .replace("%H", &h.to_string())
                .replace("%G", &g.to_string())
                .replace("%Q", &q.to_string());
            run(&rules, state, &code).unwrap();
        };
        check(&state, 5, 2, 0);
        let p = state.pieces.get_mut(&PieceId(1)).unwrap();
        p.pos = Position::Hex(Hex::new(1, 2));
        check(&state, 5, 2, 1);
        let p = state.pieces.get_mut(&PieceId(1)).unwrap();
        Arc::make_mut(&mut p.values).insert("hull".into(), serde_json::json!(4));
        check(&state, 4, 2, 1);
        let p = state.pieces.get_mut(&PieceId(1)).unwrap();
        Arc::make_mut(&mut p.values).insert(
            "rec".into(),
            serde_json::json!({"guns": [1, 7], "crew": {"a": 1}}),
        );
        check(&state, 4, 7, 1);
    }

    #[test]
    fn snapshots_rebuilt_after_changes_equal_fresh_builds() {
        let (_d, rules, mut state) = setup();
        // Every piece's snapshot as text, in `pairs` order (so a layout that differs from a
        // fresh build's in the same VM shows), after checking that a rebuilt snapshot (which
        // reuses the unchanged parts of the old one) still refuses writes.
        let dump = r"local ctx = ...
          local function dump(v)
            if type(v) ~= 'table' then return tostring(v) .. ':' .. (math.type(v) or type(v)) end
            local out = {}
            for k, x in pairs(v) do out[#out + 1] = tostring(k) .. '=' .. dump(x) end
            return '{' .. table.concat(out, ',') .. '}'
          end
          local out = {}
          for _, p in ipairs(ctx:pieces {}) do
            assert(not pcall(function() p.values.hull = 0 end), 'a snapshot took a write')
            out[#out + 1] = dump(p)
          end
          return table.concat(out, '\n')";
        let read = |r: &LuaRules, state: &GameState| -> String {
            r.loaded
                .sandbox
                .guarded(|lua| {
                    r.with_ctx(lua, Access::Read(state), |lua, ctx| {
                        lua.load(dump).set_name("=dump").call::<String>(ctx)
                    })
                })
                .unwrap()
        };
        let write = |state: &mut GameState, code: &str| -> Result<(), crate::ScriptError> {
            rules.loaded.sandbox.guarded(|lua| {
                rules.with_ctx(lua, Access::Write(state), |lua, ctx| {
                    lua.load(code).set_name("=write").call::<()>(ctx)
                })
            })
        };
        read(&rules, &state);
        let steps = [
            // A number; a nested table of the same shape.
            "local ctx = ...; ctx:set(1, 'hull', 4)",
            "local ctx = ...; ctx:set(1, 'rec', { guns = { 1, 7 }, crew = { a = 1 } })",
            // One key set three times, another changing length; the general way (a float id).
            "local ctx = ...; ctx:set(1, 'hull', 4); ctx:set(1, 'hull', 9); ctx:set(1.0, 'hull', 8)
             ctx:set(1, 'rec', { guns = { 1, 7, 8 }, crew = { a = 2 } })",
            // Unchanged: nothing to note.
            "local ctx = ...; ctx:set(1, 'hull', 8)",
            // Path sets (noted as their first key) before and after plain sets.
            "local ctx = ...; ctx:set(1, { 'rec', 'crew', 'a' }, 5); ctx:set(1, 'hull', 1)",
            "local ctx = ...; ctx:set(1, 'hull', 2); ctx:set(1, { 'rec', 'guns', 1 }, 3)",
            // An unchanged path set, then a path that fails half way: not trusted.
            "local ctx = ...; ctx:set(1, { 'rec', 'guns', 1 }, 3)",
            "local ctx = ...; ctx:set(1, 'hull', 4); pcall(ctx.set, ctx, 1, { 'rec', 'crew', 'a', 'b' }, 1)",
            // A key added, then removed; a value changing kind and back.
            "local ctx = ...; ctx:set(1, 'extra', true)",
            "local ctx = ...; ctx:set(1, 'extra', nil); ctx:set(1, 'hull', 6)",
            "local ctx = ...; ctx:set(1, 'hull', { 1, 2 })",
            "local ctx = ...; ctx:set(1, 'hull', 3)",
            // Moved and changed; then a hex value changed.
            "local ctx = ...; ctx:move(1, { q = 1, r = 2 }); ctx:set(1, 'hull', 5)",
            "local ctx = ...; ctx:set(1, 'spot', { q = 2, r = 2 }); ctx:set(5, 'hull', 1)",
            "local ctx = ...; ctx:set(1, 'spot', { q = 3, r = 2 }); ctx:set(1, 'name', 'Kestrel')",
            "local ctx = ...; ctx:set(1, 'name', 'Osprey'); ctx:set(5, 'hull', 2)",
            // Moved and turned alone, a facing-less piece moved; off the map and back.
            "local ctx = ...; ctx:move(1, { q = 2, r = 1 }, 'S'); ctx:move(5, { q = 0, r = 0 })",
            "local ctx = ...; ctx:place(1, { box = 'reserve' }); ctx:set(1, 'hull', 7)",
            "local ctx = ...; ctx:move(1, { q = -1, r = 2 }); ctx:set(1, 'hull', 8)",
        ];
        for (i, code) in steps.iter().enumerate() {
            // A failed action first: its sets are noted, then its state is thrown away.
            let mut failed = state.clone();
            let _ = write(
                &mut failed,
                "local ctx = ...; ctx:set(1, 'hull', 50); ctx:set(5, 'x', 1)",
            );
            assert!(write(&mut failed, "error('refused')").is_err());
            drop(failed);
            write(&mut state, code).unwrap_or_else(|e| panic!("step {i}: {e}"));
            let patched = read(&rules, &state);
            // Built afresh in the same VM, then the cache as it was for the next step.
            let kept = std::mem::take(&mut *rules.snapshots.borrow_mut());
            assert_eq!(patched, read(&rules, &state), "step {i}: {code}");
            *rules.snapshots.borrow_mut() = kept;
        }
    }

    #[test]
    fn ctx_options_and_acting_are_shared_and_read_only_in_writable_ctxs_too() {
        let (_d, rules, mut state) = setup();
        state.options = serde_json::json!({ "level": 2, "sides": ["blue"] }).into();
        let code = r"local ctx = ...
          LAST = LAST or {}
          local same = LAST.options == ctx.options and LAST.acting == ctx.acting
          LAST.options, LAST.acting = ctx.options, ctx.acting
          local ok1, e1 = pcall(function() ctx.options.level = 3 end)
          local ok2, e2 = pcall(function() ctx.options.sides[1] = 'red' end)
          local ok3, e3 = pcall(function() ctx.acting[1] = 'red' end)
          assert(not ok1 and not ok2 and not ok3, 'a write went through')
          for _, e in ipairs { e1, e2, e3 } do
            assert(tostring(e):find('read%-only'), tostring(e))
          end
          assert(ctx.options.level == 2 and ctx.options.sides[1] == 'blue')
          return same";
        let mut run_writable = || -> bool {
            rules
                .loaded
                .sandbox
                .guarded(|lua| {
                    rules.with_ctx(lua, Access::Write(&mut state), |lua, ctx| {
                        lua.load(code).set_name("=w").call(ctx)
                    })
                })
                .unwrap()
        };
        assert!(!run_writable());
        // The next ctx of the same clock shares the very same tables.
        assert!(run_writable());
    }

    #[test]
    fn light_rows_follow_every_change_and_refuse_writes_when_read_only() {
        let (_d, rules, mut state) = setup();
        let read = r"local ctx = ...
          local a = ctx:pieces { fields = { 'id', 'hex' } }[1]
          local b = ctx:pieces { fields = { 'id', 'values' } }[1]
          local refused = not pcall(function() b.values.hull = 0 end)
            and not pcall(function() a.id = 0 end)
          return refused, a.hex.q, b.values.hull";
        let look = |state: &GameState| -> (bool, i64, i64) {
            rules
                .loaded
                .sandbox
                .guarded(|lua| {
                    rules.with_ctx(lua, Access::Read(state), |lua, ctx| {
                        lua.load(read).set_name("=look").call(ctx)
                    })
                })
                .unwrap()
        };
        let write = |state: &mut GameState, code: &str| {
            rules
                .loaded
                .sandbox
                .guarded(|lua| {
                    rules.with_ctx(lua, Access::Write(state), |lua, ctx| {
                        lua.load(code).set_name("=write").call::<()>(ctx)
                    })
                })
                .unwrap();
        };
        assert_eq!(look(&state), (true, 0, 5));
        write(&mut state, "local ctx = ...; ctx:set(1, 'hull', 4)");
        assert_eq!(look(&state), (true, 0, 4));
        write(&mut state, "local ctx = ...; ctx:move(1, { q = 1, r = 2 })");
        assert_eq!(look(&state), (true, 1, 4));
        write(
            &mut state,
            "local ctx = ...; ctx:move(1, { q = 2, r = 1 }, 'S'); ctx:set(1, 'hull', 3)",
        );
        assert_eq!(look(&state), (true, 2, 3));
    }

    #[test]
    fn exists_is_true_for_pieces_only() {
        let (_d, rules, mut state) = setup();
        let code = "local ctx = ...
assert(ctx:exists(1) and ctx:exists(5) and ctx:exists(1.0))
assert(ctx:exists(6) == false and ctx:exists(0) == false and ctx:exists(-1) == false)
assert(ctx:exists(1.5) == false and ctx:exists('1') == false and ctx:exists() == false)";
        run(&rules, &state, code).unwrap();
        state.pieces.remove(&PieceId(1));
        run(&rules, &state, "assert((...):exists(1) == false)").unwrap();
    }

    #[test]
    fn choices_convert_as_serde_did_and_unusual_values_keep_serde_errors() {
        let (_d, rules, _state) = setup();
        rules
            .loaded
            .sandbox
            .guarded(|lua| {
                let samples: Vec<Value> = lua
                    .load(
                        "return { piece = 1, to = { q = -1, r = 2 } }, { 1, 2.5, 4.0, 'x', true },
                         {}, { 1, nil, 3 }, { 1, 2, extra = 'ignored' }, { a = { b = { c = {} } } },
                         0/0, 1/0, math.maxinteger, 'é', { [1] = 'a', [2] = 'b' }",
                    )
                    .eval::<MultiValue>()?
                    .into_iter()
                    .collect();
                for v in samples {
                    let serde: Json = lua.from_value(v.clone()).unwrap();
                    assert_eq!(lua_to_json(&v), Some(serde.clone()), "{serde}");
                    assert_eq!(from_lua(lua, v, &"x").unwrap(), serde);
                }
                let odd: Vec<Value> = lua
                    .load(
                        "local cyc = {}; cyc.self = cyc
                         return { [2] = 'b' }, { f = print }, setmetatable({}, {}), cyc,
                                { [true] = 1 }, '\\xff'",
                    )
                    .eval::<MultiValue>()?
                    .into_iter()
                    .collect();
                for v in odd {
                    assert_eq!(lua_to_json(&v), None);
                    let serde = lua.from_value::<Json>(v.clone()).map_err(|e| e.to_string());
                    let ours = from_lua(lua, v, &"x").map_err(|e| e.to_string());
                    match (serde, ours) {
                        (Ok(a), Ok(b)) => assert_eq!(a, b),
                        (Err(a), Err(b)) => assert!(b.contains(&a), "{b} / {a}"),
                        (a, b) => panic!("{a:?} vs {b:?}"),
                    }
                }
                Ok(())
            })
            .unwrap();
    }
}
