//! [`LuaRules`]: the game crate's `Rules` implemented by calling a rule set's Lua callbacks with
//! a `ctx` over the Rust-owned state.
//!
//! Every callback gets a fresh `ctx` table: its fields, and methods shared by every call (built
//! once per rule set) that find the state through the ctx's identity among the open sessions
//! (`crate::rules::session`), valid for that one call: Lua can keep the table, but once the call
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
use crate::api::plain::{Field, Frozen, Parts, RowCell, Templates, json_to_lua};
use crate::decl::{CallbackId, ModDecls};
use crate::error::ModError;
use crate::loader::LoadedMods;
use crate::raw::{RawReader, from_lua};
use crate::rules::memo::{Memo, PieceQuery, Read, Recorder};
use crate::rules::session::Session;
use crate::scenario::{ParsedScenario, apply_scenario};
use crate::stack::{Args, Ret};
use hexforge_core::dice::{DiceExpr, DiceSet, MAX_DICE, MAX_SIDES};
use hexforge_core::hex::Hex;
use hexforge_core::table::Cell;
use hexforge_game::rules::{Rules, RulesError, pick_index};
use hexforge_game::size::{json_bytes, shown};
use hexforge_game::state::ModLock;
use hexforge_game::turn::{Actor, HookEvent, Order, PhaseSpec, Scope, TurnStructure};
use hexforge_game::{
    Action, GameState, Illegal, Outcome, Piece, PieceId, Position, SideId, StateLimits,
};
use mlua::{Function, Lua, LuaSerdeExt, MultiValue, Table, Value};
use serde_json::Value as Json;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

#[cfg(test)]
mod args_tests;
#[cfg(test)]
mod board_tests;
mod ctx;
mod evaluate;
mod listing;
pub(crate) mod memo;
mod methods;
pub(crate) mod session;
mod snapshots;
#[cfg(test)]
pub(crate) mod tests;

use ctx::*;
use listing::*;
use methods::*;
pub(crate) use snapshots::Light;
use snapshots::*;

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
    /// The reads of the running victory call (see [`crate::rules::memo`]).
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
    /// The last scenario file parsed (see [`crate::scenario::find_scenario`]).
    pub(crate) scenario: ParsedScenario,
    /// What the running action (or setup) has written into the state so far, in bytes as saved
    /// ([`LuaRules::charge`]).
    written: std::cell::Cell<usize>,
}

impl LuaRules {
    /// Charges `bytes` a ctx method writes into the state against the running action's budget
    /// (`per_action` of [`StateLimits`]: its apply and the hooks it fires, or setup). Why: the
    /// state lives outside the VM's memory limit. Over the budget, the method fails, and with it
    /// the action, which leaves the state as it was.
    ///
    /// # Errors
    /// Over the budget, naming the mod.toml key that raises it.
    pub(crate) fn charge(&self, bytes: usize) -> mlua::Result<()> {
        let used = self.written.get().saturating_add(bytes);
        self.written.set(used);
        let limit = self.loaded.state_limits.per_action;
        if used <= limit {
            return Ok(());
        }
        Err(mlua::Error::runtime(format!(
            "state budget: this action has written {} into the game state, over the {} an action \
             may write (`write_kib` in mod.toml raises it, up to {})",
            shown(used),
            shown(limit),
            shown(StateLimits::HOST_PER_ACTION)
        )))
    }
}

impl std::fmt::Debug for LuaRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LuaRules")
            .field("turns", &self.turns)
            .finish_non_exhaustive()
    }
}

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

/// Whether an action or check declared for `phases` (none: every phase) applies in `phase`.
fn declared_for(phases: &[String], phase: Option<&str>) -> bool {
    phases.is_empty() || phase.is_some_and(|p| phases.iter().any(|x| x == p))
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
            written: std::cell::Cell::new(0),
            scenario: ParsedScenario::default(),
        })
    }

    /// Whether the victory callback's answer is reused while nothing it read has changed (on by
    /// default; see `crate::rules::memo`). Off, victory is called after every action, as a mod that
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
        match (&state.clock.asked, decl.answer) {
            (Some(asked), false) => Err(Illegal::new(format!(
                "{asked} must answer first: {} waits until then",
                action.id
            ))),
            (None, true) => Err(Illegal::new(format!(
                "{} answers a question the rules ask in the middle of a phase, and none is asked now",
                action.id
            ))),
            _ => Ok(()),
        }
    }
}

impl Rules for LuaRules {
    fn turn_structure(&self) -> &TurnStructure {
        &self.turns
    }

    fn state_limits(&self) -> StateLimits {
        self.loaded.state_limits
    }

    fn written_last(&self) -> Option<usize> {
        Some(self.written.get())
    }

    fn setup(&self, state: &mut GameState) -> Result<(), RulesError> {
        self.written.set(0);
        apply_scenario(&self.loaded, &self.scenario, state).map_err(rerr)?;
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
        // Its hooks write against the same budget.
        self.written.set(0);
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

    fn bot_pick(
        &self,
        state: &GameState,
        bot: &str,
        side: &SideId,
        legal: &[Action],
    ) -> Result<Option<usize>, RulesError> {
        crate::bots::choose(self, state, bot, side, legal).map(Some)
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
                crate::rules::memo::reset_fields();
                let (ctx, _session) = open_ctx(lua, Access::Read(state), self, true)?;
                let out: Value = f.call(ctx)?;
                fields.extend(crate::rules::memo::fields_read());
                match out {
                    v @ Value::Table(_) => parse_outcome(lua, v).map(Some),
                    _ => Ok(None),
                }
            })
            .map_err(rerr);
        let reads = self.recorder.stop();
        let outcome = outcome?;
        *self.victory_memo.borrow_mut() = reads.filter(|_| remember).map(|mut reads| {
            reads.extend(fields.into_iter().map(|n| {
                Read::Field(
                    n,
                    crate::rules::memo::field_json(self, state, n).into_owned(),
                )
            }));
            Memo {
                reads,
                result: outcome.clone(),
            }
        });
        Ok(outcome)
    }

    fn evaluate(&self, state: &GameState, side: &SideId) -> Result<Option<f64>, RulesError> {
        self.run_evaluate(state, side)
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

impl std::fmt::Display for PathStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PathStep::Key(k) => write!(f, ".{k}"),
            PathStep::Index(i) => write!(f, "[{i}]"),
        }
    }
}
