//! Plain data (`serde_json::Value`) into Lua without serde, and frozen templates shared or copied.
//!
//! Two tools for the hot path of every callback (piece snapshots, globals, options):
//! - [`json_to_lua`]: a direct walk of a JSON value into Lua tables, giving exactly what the
//!   serde conversion with the runtime's options gave (`null` is `nil`, arrays are plain
//!   sequences, integers stay integers, floats stay floats).
//! - [`Templates`]: a value converted once into a *template*: the Lua table itself, frozen by the
//!   VM (Hexforge's Lua patch, `vendor/lua-src/PATCHES.md`), so read-only callbacks share it as
//!   it is and writable ones get a deep copy made in C (`crate::ffi::copy`: the same layout, so the copy
//!   iterates in the same order). Why: with a memory limit every mlua table operation is a
//!   protected call (~1 µs per field), so a snapshot built field by field from Rust cost ~140k
//!   instructions; a cached template costs nothing to share and a `memcpy` per table to copy.
//!   Every copy is new, so a mod that changes its copy changes nothing else (game state never
//!   lives in the VM), and nobody can change a template.
//!
//! A template is built once from its slots, in one protected call through the C API
//! (`crate::ffi::template`): one table sized as Lua's own constructor `{ k1 = .., k2 = { q =
//! .., r = .. }, k3 = .. }` would size it, its fields set in the same order (plain values, then
//! hexes, then nested templates, which are shared, not copied), so it has the layout templates
//! always had and `pairs` visits its keys in the same order. A changed value is *patched* where
//! it keeps its keys and the kinds of its values: a shallow copy of the old template with the
//! changed slots set. The one engine helper still in Lua (the ctx maker) is compiled with an
//! **empty environment**: it uses no globals, so a mod that replaced a global cannot change it.
//!
//! Deliberately not here: which game data becomes a template or when it is rebuilt (the rules
//! module's snapshot cache decides that).
//!
//! ```
//! use hexforge_script::{Limits, Sandbox};
//! use hexforge_script::api::plain::{Templates, json_to_lua};
//! let sb = Sandbox::new(Limits::default()).unwrap();
//! // Lua runs only inside a guarded call (the instruction budget).
//! sb.guarded(|lua| {
//!     let v = json_to_lua(lua, &serde_json::json!({"path": [{"q": 1, "r": 2}], "gone": null}))?;
//!     assert!(v.as_table().unwrap().get::<mlua::Value>("gone")?.is_nil());
//!     let tpl = Templates::new(lua)?;
//!     let frozen = tpl.freeze_json(lua, &serde_json::json!({"hull": 40, "weapons": ["laser"]}))?;
//!     let copy = tpl.thaw(lua, &frozen)?;
//!     assert_eq!(copy.get::<i64>("hull")?, 40);
//!     Ok(())
//! })
//! .unwrap();
//! ```

use crate::ffi::{CopyAs, JsonAs};
pub use crate::layout::RowCell;
use crate::layout::TemplateCells;
use crate::layout::{PRESIZED, flat, is_hex};
use mlua::{Function, IntoLua, Lua, LuaString, MultiValue, Table, Value};
use rustc_hash::FxHashMap;
use serde_json::Value as Json;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Longest string kept by [`Templates::string`], and how many are kept at most.
const MAX_KEPT_STRING: usize = 64;
const MAX_KEPT_STRINGS: usize = 4096;
/// Most slots built by one call (arguments of a call live on the Lua stack).
const MAX_PACKED: usize = 4000;

/// A JSON value as Lua: `null` is `nil`, numbers keep integer/float, arrays are sequences (a
/// `null` element leaves a hole), objects are tables without their `null` members.
///
/// # Errors
/// Out of memory.
pub fn json_to_lua(lua: &Lua, v: &Json) -> mlua::Result<Value> {
    Ok(match v {
        Json::Null => Value::Nil,
        Json::Bool(b) => Value::Boolean(*b),
        Json::Number(n) => number(lua, n)?,
        Json::String(s) => Value::String(lua.create_string(s)?),
        // Built in one protected call (crate::ffi), the tables as mlua would make them.
        Json::Array(_) | Json::Object(_) => {
            Value::Table(crate::ffi::json_table(lua, v, JsonAs::Table)?)
        }
    })
}

/// A JSON number the way serde hands it to mlua: i64, else u64, else f64.
fn number(lua: &Lua, n: &serde_json::Number) -> mlua::Result<Value> {
    if let Some(i) = n.as_i64() {
        Ok(Value::Integer(i))
    } else if let Some(u) = n.as_u64() {
        u.into_lua(lua)
    } else {
        Ok(Value::Number(n.as_f64().unwrap_or(f64::NAN)))
    }
}

/// The ctx maker, the one engine helper still written in Lua: it builds the template a ctx is
/// copied from when the clock has moved (see [`Templates::ctx_maker`]). Templates themselves are
/// built, copied and frozen in C ([`crate::ffi::template`], [`crate::ffi::copy`]).
/// No globals are used (the chunk's environment is empty).
const COPIER: &str = r"
local copy, setmetatable = ...
-- A ctx table with the metatable every ctx shares ({ __index = methods }; the methods find
-- the state through the table's identity, see live.rs). Why a copy of CTX: it has every field's
-- key in place, so the copy (one memcpy of its slots) is written without inserting a key or
-- resizing (a constructor inserted nine keys into a new table, ~40% of making a ctx). Fields
-- set to nil (no label, no turn limit) are left out as before: `next` skips them.
local CTX = { round = 0, segment = 0, phase = 0, label = 0, turn_limit = 0, active = 0,
              acting = 0, scenario = 0, options = 0 }
local function make_ctx(mt, round, segment, phase, label, limit, active, scenario, options, ...)
  local t = copy(CTX)
  t.round, t.segment, t.phase, t.label, t.turn_limit = round, segment, phase, label, limit
  t.active, t.acting, t.scenario, t.options = active, { ... }, scenario, options
  return setmetatable(t, mt)
end
return make_ctx
";

/// A template: a Lua table the VM keeps read-only (and every table in it). Read-only callbacks
/// get it as it is ([`Templates::share`]); writable ones a copy ([`Templates::thaw`]).
#[derive(Clone, Debug)]
pub struct Frozen(Table);

impl Frozen {
    /// The template as a Lua value (frozen: handing it to mod code is safe).
    #[must_use]
    pub fn as_value(&self) -> Value {
        Value::Table(self.0.clone())
    }
}

/// One entry of a template under construction: key, then the value or the nested template.
pub enum Field<'a> {
    /// A plain value (must not be nil: a nil field is simply left out).
    Plain(Value),
    /// A JSON value (null is left out; arrays and objects become nested templates).
    Json(&'a Json),
    /// An already frozen nested table (shared, never changed).
    Frozen(&'a Frozen),
}

/// Builds templates and copies them (one per VM).
#[derive(Debug)]
pub struct Templates {
    /// `make_ctx(...)`: see [`Templates::ctx_maker`].
    make_ctx: Function,
    /// `freeze(t)` (C): makes a new table and its new nested tables read-only.
    freeze_fn: Function,
    /// Short strings already in the VM (keys, ids): pushing a kept string costs far less than
    /// creating it again. Never iterated.
    strings: RefCell<FxHashMap<String, LuaString>>,
}

impl Templates {
    /// Compiles the copier in `lua`.
    ///
    /// # Errors
    /// Out of memory.
    pub fn new(lua: &Lua) -> mlua::Result<Templates> {
        // The base function the ctx maker needs, as it was before any mod ran.
        let base = match lua.named_registry_value::<Value>(crate::sandbox::PRISTINE_KEY)? {
            Value::Table(t) => t,
            _ => lua.globals(),
        };
        let setmetatable = base.raw_get::<Value>("setmetatable")?;
        let (copy, freeze_fn) = crate::ffi::frozen_tables(lua)?;
        let make_ctx: Function = lua
            .load(COPIER)
            .set_name("=hexforge copier")
            .set_environment(lua.create_table()?)
            .call((copy, setmetatable))?;
        Ok(Templates {
            make_ctx,
            freeze_fn,
            strings: RefCell::new(FxHashMap::default()),
        })
    }

    /// The Lua function that builds a callback's `ctx` table in one call (the rules module
    /// passes the fields; Lua builds the tables): `make_ctx(metatable, round, segment, phase,
    /// label, turn_limit, active, scenario, options, acting...)`
    /// returns the ctx, its metatable set.
    #[must_use]
    pub fn ctx_maker(&self) -> &Function {
        &self.make_ctx
    }

    /// `s` as a Lua string value; short strings are kept for the next call.
    ///
    /// # Errors
    /// Out of memory.
    pub fn string(&self, lua: &Lua, s: &str) -> mlua::Result<Value> {
        if s.len() > MAX_KEPT_STRING {
            return lua.create_string(s).map(Value::String);
        }
        if let Some(v) = self.strings.borrow().get(s) {
            return Ok(Value::String(v.clone()));
        }
        let v = lua.create_string(s)?;
        let mut kept = self.strings.borrow_mut();
        if kept.len() >= MAX_KEPT_STRINGS {
            kept.clear();
        }
        kept.insert(s.to_owned(), v.clone());
        Ok(Value::String(v))
    }

    /// A template of a table with these string-keyed fields, in this order.
    ///
    /// # Errors
    /// Out of memory.
    pub fn freeze(&self, lua: &Lua, fields: Vec<(Value, Field<'_>)>) -> mlua::Result<Frozen> {
        let mut slots = Slots::default();
        for (k, f) in fields {
            match f {
                Field::Plain(Value::Nil) => {}
                Field::Plain(v) => slots.plain.extend([k, v]),
                Field::Json(j) => self.push_json(lua, &mut slots, k, j)?,
                Field::Frozen(fr) => slots.subs.extend([k, Value::Table(fr.0.clone())]),
            }
        }
        Ok(Frozen(self.build(lua, slots, 0)?))
    }

    /// A template of a JSON value's table (an array or object; anything else gives an empty
    /// table).
    ///
    /// # Errors
    /// Out of memory.
    pub fn freeze_json(&self, lua: &Lua, j: &Json) -> mlua::Result<Frozen> {
        Ok(Frozen(self.json_template(lua, j)?))
    }

    /// The template of an object (as [`Templates::freeze_json`] makes it), reusing the nested
    /// templates of `reuse` (the object frozen last time and its parts) whose value is
    /// unchanged, at any depth; also returns the nested templates for the next call. Why: a
    /// piece's `values` change a few numbers at a time (a ship's record holds ~120 values in
    /// lists of small tables), and building a table's template costs far more than comparing it
    /// in Rust; with reuse at every depth, changing one component's charge rebuilds that
    /// component and the lists above it, nothing else (and the shared tables of everything
    /// unchanged stay the same tables). The old values are compared in place: the templates keep
    /// no copy of what they were made from.
    ///
    /// # Errors
    /// Out of memory.
    pub fn freeze_object(
        &self,
        lua: &Lua,
        m: &BTreeMap<String, Json>,
        reuse: Option<(&BTreeMap<String, Json>, &Parts, &Frozen)>,
    ) -> mlua::Result<(Frozen, Parts)> {
        if let Some((om, op, of)) = reuse
            && let Some(patched) = self.patch_object(lua, m, om, op, of)?
        {
            return Ok(patched);
        }
        let mut slots = Slots::default();
        let mut parts = BTreeMap::new();
        for (k, x) in m {
            let key = self.string(lua, k)?;
            if !nested(x) {
                self.push_json(lua, &mut slots, key, x)?;
                continue;
            }
            let old = reuse.and_then(|(om, op, _)| Some((om.get(k)?, op.get(k)?)));
            let sub = self.freeze_tree(lua, x, old)?;
            slots.subs.extend([key, sub.frozen.as_value()]);
            parts.insert(k.clone(), sub);
        }
        Ok((Frozen(self.build(lua, slots, 0)?), parts))
    }

    /// An action's table as callbacks get it: its params (an object; anything else gives no
    /// fields) with `id` and `side`, fresh, in one call through the C API
    /// (`crate::ffi::json_table`).
    ///
    /// # Errors
    /// Out of memory.
    pub fn action(&self, lua: &Lua, params: &Json, id: &str, side: &str) -> mlua::Result<Table> {
        crate::ffi::json_table(lua, params, JsonAs::Action { id, side })
    }

    /// `old` with the fields `pairs` (key, value, key, value, ...) set, frozen: a snapshot whose
    /// fields kept their keys (one copy of its slots instead of a build, and the same layout).
    ///
    /// # Errors
    /// Out of memory or the instruction budget.
    pub fn patch_fields(&self, lua: &Lua, old: &Frozen, pairs: Vec<Value>) -> mlua::Result<Frozen> {
        let mut args = Vec::with_capacity(pairs.len() + 1);
        args.push(old.as_value());
        args.extend(pairs);
        let args = MultiValue::from_vec(args);
        Ok(Frozen(crate::ffi::copy(lua, args, CopyAs::Patched)?))
    }

    /// [`Templates::freeze_object`] as a patch of `old` (see [`Templates::patch_tree`]), or
    /// `None` when the keys or the kinds of their values changed.
    fn patch_object(
        &self,
        lua: &Lua,
        m: &BTreeMap<String, Json>,
        om: &BTreeMap<String, Json>,
        op: &Parts,
        old: &Frozen,
    ) -> mlua::Result<Option<(Frozen, Parts)>> {
        if m.len() != om.len() {
            return Ok(None);
        }
        let mut args = vec![old.as_value()];
        let mut parts = BTreeMap::new();
        for ((k, x), (ok, ox)) in m.iter().zip(om) {
            if k != ok {
                return Ok(None);
            }
            let Some(kid) = op.get(k) else {
                match self.patch_plain(lua, x, ox)? {
                    Patch::Same => continue,
                    Patch::Set(v) => {
                        args.extend([self.string(lua, k)?, v]);
                        continue;
                    }
                    Patch::No => return Ok(None),
                }
            };
            if !nested(x) {
                return Ok(None);
            }
            let sub = self.freeze_tree(lua, x, Some((ox, kid)))?;
            if !Rc::ptr_eq(&sub, kid) {
                args.extend([self.string(lua, k)?, sub.frozen.as_value()]);
            }
            parts.insert(k.clone(), sub);
        }
        if args.len() > MAX_PACKED {
            return Ok(None);
        }
        let t = crate::ffi::copy(lua, MultiValue::from_vec(args), CopyAs::Patched)?;
        Ok(Some((Frozen(t), parts)))
    }

    /// A value that is not a nested template, against the old one: unchanged, the new Lua value
    /// for the same slot, or `No` when its kind changed (null, a hex, a nested table: the
    /// table's shape changes) or it is a hex (hexes are new tables: not worth a patch).
    fn patch_plain(&self, lua: &Lua, x: &Json, ox: &Json) -> mlua::Result<Patch> {
        if x == ox {
            return Ok(Patch::Same);
        }
        let plain = |j: &Json| matches!(j, Json::Bool(_) | Json::Number(_) | Json::String(_));
        if !plain(x) || !plain(ox) {
            return Ok(Patch::No);
        }
        Ok(Patch::Set(match x {
            Json::Bool(b) => Value::Boolean(*b),
            Json::Number(n) => number(lua, n)?,
            Json::String(s) => self.string(lua, s)?,
            _ => return Ok(Patch::No),
        }))
    }

    /// `j`'s template made from `ot` (the template of `oj`) by setting only what changed on a
    /// shallow copy ([`crate::ffi::copy`]): one call with the changed slots instead of a build
    /// with all of them. Only when `j` has the same keys as `oj` (an array of the same length,
    /// an object with the same keys) and every value keeps its kind: then the copy has the
    /// layout a fresh build would give, so `pairs` visits keys in the same order. `None`
    /// otherwise (the caller builds afresh).
    fn patch_tree(
        &self,
        lua: &Lua,
        j: &Json,
        oj: &Json,
        ot: &Rc<Tree>,
    ) -> mlua::Result<Option<Rc<Tree>>> {
        let mut args = vec![ot.frozen.as_value()];
        let mut kids = Vec::with_capacity(ot.kids.len());
        let mut old_kids = ot.kids.iter();
        let mut visit = |args: &mut Vec<Value>,
                         key: &dyn Fn() -> mlua::Result<Value>,
                         x: &Json,
                         ox: &Json|
         -> mlua::Result<bool> {
            if nested(ox) != nested(x) {
                return Ok(false);
            }
            if !nested(x) {
                return match self.patch_plain(lua, x, ox)? {
                    Patch::Same => Ok(true),
                    Patch::Set(v) => {
                        args.extend([key()?, v]);
                        Ok(true)
                    }
                    Patch::No => Ok(false),
                };
            }
            let Some(kid) = old_kids.next() else {
                return Ok(false);
            };
            let sub = self.freeze_tree(lua, x, Some((ox, kid)))?;
            if !Rc::ptr_eq(&sub, kid) {
                args.extend([key()?, sub.frozen.as_value()]);
            }
            kids.push(sub);
            Ok(true)
        };
        match (j, oj) {
            (Json::Array(a), Json::Array(oa)) if a.len() == oa.len() => {
                for (i, (x, ox)) in a.iter().zip(oa).enumerate() {
                    if !visit(&mut args, &|| Ok(Value::Integer(i as i64 + 1)), x, ox)? {
                        return Ok(None);
                    }
                }
            }
            (Json::Object(m), Json::Object(om)) if m.len() == om.len() => {
                for ((k, x), (ok, ox)) in m.iter().zip(om) {
                    if k != ok || !visit(&mut args, &|| self.string(lua, k), x, ox)? {
                        return Ok(None);
                    }
                }
            }
            _ => return Ok(None),
        }
        if args.len() > MAX_PACKED {
            return Ok(None);
        }
        let args = MultiValue::from_vec(args);
        let frozen = Frozen(crate::ffi::copy(lua, args, CopyAs::Patched)?);
        Ok(Some(Rc::new(Tree { frozen, kids })))
    }

    /// The template of a nested table, reusing `old` (the value it was made from last time and
    /// that template; inside it, every unchanged nested table) where the value is the same.
    fn freeze_tree(
        &self,
        lua: &Lua,
        j: &Json,
        old: Option<(&Json, &Rc<Tree>)>,
    ) -> mlua::Result<Rc<Tree>> {
        if let Some((oj, ot)) = old {
            if oj == j {
                return Ok(Rc::clone(ot));
            }
            if let Some(t) = self.patch_tree(lua, j, oj, ot)? {
                return Ok(t);
            }
        }
        if flat(j) {
            // Nothing nested: no children to reuse or keep.
            let frozen = Frozen(crate::ffi::json_table(lua, j, JsonAs::Flat)?);
            return Ok(Rc::new(Tree {
                frozen,
                kids: Vec::new(),
            }));
        }
        let mut slots = Slots::default();
        let mut kids = Vec::new();
        // The old nested children with their templates (`kids` is in the value's order).
        let old_kids: Vec<(Option<&str>, usize, &Json, &Rc<Tree>)> = match old {
            Some((Json::Array(a), ot)) => a
                .iter()
                .enumerate()
                .filter(|(_, x)| nested(x))
                .zip(&ot.kids)
                .map(|((i, x), t)| (None, i, x, t))
                .collect(),
            Some((Json::Object(m), ot)) => m
                .iter()
                .filter(|(_, x)| nested(x))
                .zip(&ot.kids)
                .map(|((k, x), t)| (Some(k.as_str()), 0, x, t))
                .collect(),
            _ => Vec::new(),
        };
        let mut nest = |slots: &mut Slots, key: Value, at: (Option<&str>, usize), x: &Json| {
            if !nested(x) {
                return self.push_json(lua, slots, key, x);
            }
            let old = old_kids
                .iter()
                .find(|(k, i, _, _)| (*k, *i) == at)
                .map(|(_, _, x, t)| (*x, *t));
            let sub = self.freeze_tree(lua, x, old)?;
            slots.subs.extend([key, sub.frozen.as_value()]);
            kids.push(sub);
            Ok(())
        };
        let arr = match j {
            Json::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    nest(&mut slots, Value::Integer(i as i64 + 1), (None, i), x)?;
                }
                // A null element leaves a hole: the array part is still sized by the length.
                a.len()
            }
            Json::Object(m) => {
                for (k, x) in m {
                    nest(&mut slots, self.string(lua, k)?, (Some(k.as_str()), 0), x)?;
                }
                0
            }
            _ => 0,
        };
        let frozen = Frozen(self.build(lua, slots, arr)?);
        Ok(Rc::new(Tree { frozen, kids }))
    }

    /// A fresh table copied from a template (deeply: every nested table is fresh too).
    ///
    /// # Errors
    /// Out of memory or the instruction budget.
    pub fn thaw(&self, lua: &Lua, f: &Frozen) -> mlua::Result<Table> {
        crate::ffi::copy(lua, &f.0, CopyAs::Deep)
    }

    /// The shared read-only table of a template: the template itself. Why: check, choices and
    /// victory cannot change the game, yet each asked for fresh copies of the same pieces, and
    /// copying was most of a game's time; the template is shared by every read-only call and
    /// costs nothing to hand out. The VM refuses every change to it (or any table in it) with
    /// an error that names the mod's line; reading works as on any table (`pairs`, `next`,
    /// `rawget`, `#`).
    ///
    /// # Errors
    /// None today (kept fallible for callers that may copy instead).
    pub fn share(&self, f: &Frozen) -> mlua::Result<Table> {
        Ok(f.0.clone())
    }

    /// A fresh sequence of the shared tables of these templates (see [`Templates::share`]).
    ///
    /// # Errors
    /// Out of memory or the instruction budget.
    pub fn share_all(&self, lua: &Lua, fs: &[Frozen]) -> mlua::Result<Table> {
        self.list(lua, fs.iter().map(|f| f.0.clone()).collect())
    }

    /// A fresh sequence of these tables.
    ///
    /// # Errors
    /// Out of memory or the instruction budget.
    pub fn list(&self, lua: &Lua, items: Vec<Table>) -> mlua::Result<Table> {
        if items.len() > MAX_PACKED {
            return lua.create_sequence_from(items);
        }
        crate::ffi::sequence(lua, items.into_iter().map(Value::Table).collect(), false)
    }

    /// Freezes `t` and every table in it (see `COPIER`): nothing can change them again.
    ///
    /// # Errors
    /// Out of memory or the instruction budget.
    pub fn freeze_table(&self, t: &Table) -> mlua::Result<()> {
        self.freeze_fn.call::<()>(t)
    }

    /// A fresh sequence of fresh tables, one per template.
    ///
    /// # Errors
    /// Out of memory or the instruction budget.
    pub fn thaw_all(&self, lua: &Lua, fs: &[Frozen]) -> mlua::Result<Table> {
        if fs.len() > MAX_PACKED {
            let tables = fs
                .iter()
                .map(|f| self.thaw(lua, f))
                .collect::<mlua::Result<Vec<_>>>()?;
            return lua.create_sequence_from(tables);
        }
        crate::ffi::sequence(lua, fs.iter().map(Frozen::as_value).collect(), true)
    }

    /// The shared table of a template when `shared` (read-only callbacks), else a fresh copy.
    ///
    /// # Errors
    /// Out of memory or the instruction budget.
    pub fn shared_or_copy(&self, lua: &Lua, f: &Frozen, shared: bool) -> mlua::Result<Table> {
        if shared {
            self.share(f)
        } else {
            self.thaw(lua, f)
        }
    }

    /// [`Templates::share_all`] when `shared`, else [`Templates::thaw_all`].
    ///
    /// # Errors
    /// Out of memory or the instruction budget.
    pub fn shared_or_copies(&self, lua: &Lua, fs: &[Frozen], shared: bool) -> mlua::Result<Table> {
        if shared {
            self.share_all(lua, fs)
        } else {
            self.thaw_all(lua, fs)
        }
    }

    /// A fresh list of small tables built from flat values (light piece reads) through the C API
    /// (`crate::ffi::rows`): every row has the fields `spec` names, and `values` holds each
    /// row's values in `spec` order ([`RowCell::Plain`] one value, [`RowCell::Hex`] two,
    /// [`RowCell::Copy`] one template). With `freeze`, the rows are frozen (the list is fresh). Why:
    /// setting fields from Rust is one protected call each; this is one call per few hundred
    /// rows.
    ///
    /// # Errors
    /// Out of memory or the instruction budget.
    pub fn rows(
        &self,
        lua: &Lua,
        spec: &[(Value, RowCell)],
        rows: Vec<Vec<Value>>,
        freeze: bool,
    ) -> mlua::Result<Table> {
        let kinds: Vec<RowCell> = spec.iter().map(|(_, c)| *c).collect();
        let width: usize = kinds.iter().map(|c| c.width()).sum();
        // Rows per call: a call's arguments live on the Lua stack.
        let per_call = (MAX_PACKED.saturating_sub(spec.len() + 1) / width.max(1)).max(1);
        let presized = if spec.len() <= PRESIZED {
            spec.len()
        } else {
            0
        };
        let mut out: Option<Table> = None;
        let mut it = rows.into_iter().peekable();
        while it.peek().is_some() || out.is_none() {
            let chunk: Vec<Vec<Value>> = it.by_ref().take(per_call).collect();
            let mut args = Vec::with_capacity(spec.len() + width * chunk.len());
            args.extend(spec.iter().map(|(k, _)| k.clone()));
            let n = chunk.len();
            for row in chunk {
                args.extend(row);
            }
            out = Some(crate::ffi::rows(
                lua,
                out.as_ref(),
                &kinds,
                presized,
                n,
                args,
                freeze,
            )?);
        }
        match out {
            Some(t) => Ok(t),
            None => lua.create_table(),
        }
    }

    /// The template of an array or object (other values: an empty template).
    fn json_template(&self, lua: &Lua, j: &Json) -> mlua::Result<Table> {
        if flat(j) {
            return crate::ffi::json_table(lua, j, JsonAs::Flat);
        }
        let mut slots = Slots::default();
        let mut arr = 0;
        match j {
            Json::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    self.push_json(lua, &mut slots, Value::Integer(i as i64 + 1), x)?;
                }
                // A null element leaves a hole: the array part is still sized by the length.
                arr = a.len();
            }
            Json::Object(m) => {
                for (k, x) in m {
                    let key = self.string(lua, k)?;
                    self.push_json(lua, &mut slots, key, x)?;
                }
            }
            _ => {}
        }
        self.build(lua, slots, arr)
    }

    /// The template of these slots for a table of `arr` array items (0 for an object), built
    /// and frozen through the C API ([`crate::ffi::template`]): sized as the Lua constructor
    /// `{ ... }` of the same fields sized it (a presized array part of `arr`, or a presized hash
    /// part for every field, up to [`PRESIZED`]; larger tables grow field by field), the fields
    /// set in the order plain, hexes, nested. That is the layout templates have always had, so
    /// `pairs` visits their keys in the same order (mods may depend on it).
    fn build(&self, lua: &Lua, slots: Slots, arr: usize) -> mlua::Result<Table> {
        let count = slots.count();
        let size = match arr {
            0 if count <= PRESIZED => (0, count),
            n if n > 0 && n <= PRESIZED => (n, 0),
            _ => (0, 0),
        };
        let Slots { plain, hexes, subs } = slots;
        if plain.len() + hexes.len() + subs.len() <= MAX_PACKED {
            let cells = TemplateCells {
                plain: plain.len() / 2,
                hexes: hexes.len() / 3,
                subs: subs.len() / 2,
            };
            let mut args = plain;
            args.extend(hexes);
            args.extend(subs);
            return crate::ffi::template(lua, None, size, &cells, args, true);
        }
        // Very large tables: several calls (a call's arguments live on the Lua stack), the same
        // fields in the same order.
        let mut out: Option<Table> = None;
        let mut chunks: Vec<(TemplateCells, Vec<Value>)> = Vec::new();
        for (kind, list) in [(0, plain), (1, hexes), (2, subs)] {
            let width = if kind == 1 { 3 } else { 2 };
            for part in list.chunks(MAX_PACKED / width * width) {
                let n = part.len() / width;
                let cells = TemplateCells {
                    plain: if kind == 0 { n } else { 0 },
                    hexes: if kind == 1 { n } else { 0 },
                    subs: if kind == 2 { n } else { 0 },
                };
                chunks.push((cells, part.to_vec()));
            }
        }
        let last = chunks.len().saturating_sub(1);
        for (i, (cells, args)) in chunks.into_iter().enumerate() {
            out = Some(crate::ffi::template(
                lua,
                out.as_ref(),
                size,
                &cells,
                args,
                i == last,
            )?);
        }
        out.ok_or_else(|| mlua::Error::runtime("template: no fields"))
    }

    fn push_json(&self, lua: &Lua, slots: &mut Slots, key: Value, j: &Json) -> mlua::Result<()> {
        match j {
            Json::Null => {}
            Json::Bool(b) => slots.plain.extend([key, Value::Boolean(*b)]),
            Json::Number(n) => slots.plain.extend([key, number(lua, n)?]),
            Json::String(s) => slots.plain.extend([key, self.string(lua, s)?]),
            Json::Object(m) if is_hex(m) => {
                let (q, r) = (&m["q"], &m["r"]);
                slots.hexes.extend([
                    key,
                    Value::Integer(q.as_i64().unwrap_or(0)),
                    Value::Integer(r.as_i64().unwrap_or(0)),
                ]);
            }
            Json::Array(_) | Json::Object(_) => {
                let sub = self.json_template(lua, j)?;
                slots.subs.extend([key, Value::Table(sub)]);
            }
        }
        Ok(())
    }
}

/// One plain slot of a patch (see [`Templates::patch_plain`]).
enum Patch {
    Same,
    Set(Value),
    No,
}

/// Nested templates of an object's values by key (see [`Templates::freeze_object`]).
pub type Parts = BTreeMap<String, Rc<Tree>>;

/// The template of a nested table and the templates of its own nested tables, in the value's
/// order (array items by index, object values by key; plain values and hexes have none). The
/// value it was made from is not kept: the caller compares against the old value it still has.
#[derive(Debug)]
pub struct Tree {
    frozen: Frozen,
    kids: Vec<Rc<Tree>>,
}

impl Tree {
    /// The template.
    #[must_use]
    pub fn frozen(&self) -> &Frozen {
        &self.frozen
    }
}

/// Whether a value becomes a nested template (arrays, and objects other than hexes).
fn nested(x: &Json) -> bool {
    match x {
        Json::Object(o) => !is_hex(o),
        Json::Array(_) => true,
        _ => false,
    }
}

/// The slots of one template under construction, by kind.
#[derive(Default)]
struct Slots {
    /// key, value
    plain: Vec<Value>,
    /// key, q, r
    hexes: Vec<Value>,
    /// key, template
    subs: Vec<Value>,
}

impl Slots {
    /// Fields held.
    fn count(&self) -> usize {
        self.plain.len() / 2 + self.hexes.len() / 3 + self.subs.len() / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Limits, Sandbox};
    use mlua::LuaSerdeExt;
    use serde_json::json;

    fn serde_way(lua: &Lua, v: &Json) -> Value {
        lua.to_value_with(
            v,
            mlua::serde::SerializeOptions::new()
                .serialize_none_to_null(false)
                .serialize_unit_to_null(false)
                .set_array_metatable(false),
        )
        .unwrap()
    }

    /// `json_to_lua` as it was built through mlua (one protected call per table and string):
    /// the reference the C API builder must match, layout included.
    fn through_mlua(lua: &Lua, v: &Json) -> Value {
        match v {
            Json::Array(a) => {
                let items: Vec<(i64, Value)> = a
                    .iter()
                    .enumerate()
                    .filter(|(_, x)| !x.is_null())
                    .map(|(i, x)| (i as i64 + 1, through_mlua(lua, x)))
                    .collect();
                Value::Table(lua.create_table_from(items).unwrap())
            }
            Json::Object(m) => {
                let items: Vec<(&str, Value)> = m
                    .iter()
                    .filter(|(_, x)| !x.is_null())
                    .map(|(k, x)| (k.as_str(), through_mlua(lua, x)))
                    .collect();
                Value::Table(lua.create_table_from(items).unwrap())
            }
            other => json_to_lua(lua, other).unwrap(),
        }
    }

    /// The tables `json_to_lua` builds through the C API equal mlua's, visited in the same order
    /// by `pairs` (a mod iterating an action's params or an event must see the same order).
    #[test]
    fn json_tables_are_built_as_mlua_built_them() {
        let sb = Sandbox::new(Limits::default()).unwrap();
        sb.guarded(|lua| {
            let dump: Function = lua
                .load(
                    r"
                    local function dump(v, out)
                      if type(v) ~= 'table' then
                        out[#out + 1] = math.type(v) or type(v)
                        out[#out + 1] = tostring(v)
                        return
                      end
                      out[#out + 1] = '{'
                      for k, x in pairs(v) do out[#out + 1] = tostring(k); dump(x, out) end
                      out[#out + 1] = '}'
                    end
                    return function(v) local out = {} dump(v, out) return table.concat(out, ' ') end",
                )
                .eval()?;
            for v in [
                json!({ "piece": 1, "plan": "FRFFL", "to": { "q": -1, "r": 3 }, "facing": 2,
                        "path": [{ "q": 0, "r": 0 }, { "q": 0, "r": -1 }, { "q": 1, "r": -2 }] }),
                json!([1, null, "x", 2.5, true, [], {}, { "a": null, "b": [null, null, 3] }]),
                json!({ "big": u64::MAX, "neg": -7, "f": 1.0, "s": "h\u{e9}llo", "nested": [[[[1]]]],
                        "k1": 1, "k2": 2, "k3": 3, "k4": 4, "k5": 5, "k6": 6, "k7": 7, "k8": 8 }),
                json!([]),
                json!({}),
            ] {
                let ours = json_to_lua(lua, &v)?;
                let theirs = through_mlua(lua, &v);
                assert_eq!(
                    dump.call::<String>(ours)?,
                    dump.call::<String>(theirs)?,
                    "{v}"
                );
            }
            Ok(())
        })
        .unwrap();
    }

    /// Lua-side deep comparison (keys, types, integer vs float, no metatables).
    fn same(lua: &Lua, a: Value, b: Value) -> bool {
        lua.load(
            r"
            local function same(a, b)
              if math.type(a) ~= math.type(b) or type(a) ~= type(b) then return false end
              if type(a) ~= 'table' then return a == b end
              if getmetatable(a) or getmetatable(b) then return false end
              for k, v in pairs(a) do if not same(v, b[k]) then return false end end
              for k in pairs(b) do if a[k] == nil then return false end end
              return true
            end
            return same(...)",
        )
        .call((a, b))
        .unwrap()
    }

    fn samples() -> Vec<Json> {
        vec![
            json!(null),
            json!(true),
            json!(3),
            json!(-7),
            json!(2.5),
            json!(4.0),
            json!(u64::MAX),
            json!("text"),
            json!([]),
            json!({}),
            json!([1, null, 3]),
            json!({"a": null, "b": [1, 2, {"q": 1, "r": -2}], "c": {"d": "e", "f": false}}),
            json!({"path": [{"q": 0, "r": 0}, {"q": 1, "r": 0}], "ammo": {"torpedo": 2}}),
            // Not hexes: a third key, a float, a string.
            json!([{"q": 0, "r": 0, "s": 0}, {"q": 1.5, "r": 0}, {"q": "a", "r": 1}]),
            // Larger than the presized constructors, and mixed sizes.
            Json::Array((0..40).map(|i| json!(i)).collect()),
            Json::Object(
                (0..40)
                    .map(|i| (format!("k{i}"), json!([i, {"q": i, "r": -i}])))
                    .collect(),
            ),
            // Keys that are not identifiers (or try to break out of a literal), and holes.
            json!({"a b": 1, "x\"]=nil}) --": [2, null, {"q": 1, "r": 1}], "\n\\9": 3, "": 4, "1": {"é": 5}}),
            json!([null, null, 1, [], {}]),
            Json::Object((0..25).map(|i| (format!("{i}"), json!(i))).collect()),
            // Larger than a shape constructor.
            Json::Object(
                (0..300)
                    .map(|i| (format!("f{i}"), json!({"q": i, "r": i})))
                    .collect(),
            ),
            // More slots than one packing call takes.
            Json::Array((0..5000).map(|i| json!(format!("s{}", i % 7))).collect()),
        ]
    }

    #[test]
    fn direct_conversion_matches_serde() {
        let sb = Sandbox::new(Limits::default()).unwrap();
        sb.guarded(|lua| {
            for v in samples() {
                let ours = json_to_lua(lua, &v).unwrap();
                assert!(same(lua, ours, serde_way(lua, &v)), "{v}");
            }
            Ok(())
        })
        .unwrap();
    }

    #[test]
    fn thawed_templates_match_serde_and_are_fresh() {
        let sb = Sandbox::new(Limits::default()).unwrap();
        sb.guarded(|lua| {
        let tpl = Templates::new(lua).unwrap();
        for v in samples().into_iter().filter(|v| v.is_array() || v.is_object()) {
            let f = tpl.freeze_json(lua, &v).unwrap();
            let a = tpl.thaw(lua, &f).unwrap();
            assert!(same(lua, Value::Table(a.clone()), serde_way(lua, &v)), "{v}");
            // Changing one copy (deeply) leaves the next copy as it was.
            lua.load("local t = ...; for k, v in pairs(t) do if type(v) == 'table' then v.x = 1 end t[k] = 'changed' end t.new = 1")
                .call::<()>(a)
                .unwrap();
            let b = tpl.thaw(lua, &f).unwrap();
            assert!(same(lua, Value::Table(b), serde_way(lua, &v)), "{v}");
        }
            Ok(())
        })
        .unwrap();
    }

    /// Every key of `t` in `next` order, nested tables' keys between `/` and `)`.
    fn walk_order(lua: &Lua, t: &Table) -> String {
        lua.load(
            "local function w(t, out) for k, v in next, t do out[#out + 1] = tostring(k) \
             if type(v) == 'table' then out[#out + 1] = '/'; w(v, out); out[#out + 1] = ')' end end \
             return out end return table.concat(w(..., {}), ',')",
        )
        .call(t)
        .unwrap()
    }

    #[test]
    fn templates_are_frozen_and_copies_are_fresh_writable_and_iterate_alike() {
        let sb = Sandbox::new(Limits::default()).unwrap();
        sb.guarded(|lua| {
            let tpl = Templates::new(lua).unwrap();
            let v = json!({"a": 1, "b": [1, 2, {"c": [3, {"q": 1, "r": 2}]}], "d": {"e": "x"}, "at": {"q": 0, "r": 1}});
            let f = tpl.freeze_json(lua, &v).unwrap();
            let shared = tpl.share(&f).unwrap();
            // The shared table and every table in it refuse writes.
            let refused: bool = lua
                .load(
                    "local t = ...; local n = 0 \
                     for _, f in ipairs { function() t.a = 2 end, function() t.z = 1 end, \
                       function() t.b[3].c[1] = 0 end, function() t.at.q = 5 end, \
                       function() rawset(t.d, 'e', 'y') end, function() table.insert(t.b, 9) end, \
                       function() setmetatable(t.d, {}) end } do \
                       if not pcall(f) then n = n + 1 end end \
                     return n == 7 and t.a == 1 and t.z == nil and t.b[3].c[1] == 3 and #t.b == 3",
                )
                .call(shared.clone())
                .unwrap();
            assert!(refused);
            // A copy: equal, the same order at every depth, writable, and no table shared.
            let a = tpl.thaw(lua, &f).unwrap();
            assert!(same(lua, Value::Table(a.clone()), serde_way(lua, &v)));
            assert_eq!(walk_order(lua, &a), walk_order(lua, &shared));
            let fresh: bool = lua
                .load(
                    "local a, s = ... \
                     a.b[3].c[2].q = 7; a.d.e = 'y'; a.new = 1; setmetatable(a.d, {}) \
                     return a.b ~= s.b and a.b[3] ~= s.b[3] and a.at ~= s.at \
                       and s.b[3].c[2].q == 1 and s.d.e == 'x' and s.new == nil",
                )
                .call((a, shared))
                .unwrap();
            assert!(fresh);
            Ok(())
        })
        .unwrap();
    }

    #[test]
    fn patched_templates_equal_fresh_builds_in_content_and_order() {
        let sb = Sandbox::new(Limits::default()).unwrap();
        sb.guarded(|lua| {
            let tpl = Templates::new(lua).unwrap();
            let obj = |v: Json| -> BTreeMap<String, Json> {
                v.as_object().unwrap().clone().into_iter().collect()
            };
            let base = json!({"n": 1, "s": "x", "list": [{"k": 1, "m": 2}, {"k": 3, "m": 4}, {"k": 5, "m": 6}],
                              "crew": [{"level": 2, "used": 0}], "hull": [4, 4, 4], "at": {"q": 1, "r": 2}});
            let changes = [
                // values only: patched
                json!({"n": 2, "s": "x", "list": [{"k": 1, "m": 2}, {"k": 9, "m": 4}, {"k": 5, "m": 6}],
                       "crew": [{"level": 2, "used": 3}], "hull": [4, 3, 4], "at": {"q": 1, "r": 2}}),
                // a hex moved, a kind changed, a key added, a list grew: built afresh
                json!({"n": 2, "s": "x", "list": [{"k": 1, "m": 2}], "crew": [{"level": 2, "used": [1]}],
                       "hull": [4, 4, 4, 4], "at": {"q": 2, "r": 2}, "extra": true}),
                json!({"n": "two", "s": "x", "list": [{"k": 1, "m": 2}, {"k": 3}, {"k": 5, "m": 6}],
                       "crew": [{"level": 2, "used": 0}], "hull": [4, 4, 4], "at": {"q": 1, "r": 2}}),
            ];
            for next in changes {
                let (a, b) = (obj(base.clone()), obj(next.clone()));
                let (fa, pa) = tpl.freeze_object(lua, &a, None).unwrap();
                let (patched, _) = tpl.freeze_object(lua, &b, Some((&a, &pa, &fa))).unwrap();
                let (fresh, _) = tpl.freeze_object(lua, &b, None).unwrap();
                let (p, f) = (tpl.share(&patched).unwrap(), tpl.share(&fresh).unwrap());
                assert!(same(lua, Value::Table(p.clone()), serde_way(lua, &next)), "{next}");
                assert_eq!(walk_order(lua, &p), walk_order(lua, &f), "{next}");
                // Still frozen.
                let frozen: bool = lua
                    .load("local t = ...; return not pcall(function() t.n = 0 end) and not pcall(function() t.list[1].k = 0 end)")
                    .call(p)
                    .unwrap();
                assert!(frozen);
            }
            Ok(())
        })
        .unwrap();
    }

    /// `v` as Lua source for the table constructors templates were built by before they were
    /// built in C (and what a mod's own constructor of the same fields gives): a presized array
    /// `{ a, nil, c }` or hash `{ [k] = v, ... }` up to [`PRESIZED`] fields (plain values, then
    /// hexes, then nested tables), larger tables grown one field at a time in that order.
    fn constructor(v: &Json) -> String {
        let lit = |s: &str| {
            let mut out = String::from("\"");
            for b in s.bytes() {
                out.push_str(&format!("\\{b:03}"));
            }
            out.push('"');
            out
        };
        let plain = |x: &Json| match x {
            Json::Bool(b) => b.to_string(),
            Json::Number(n) if n.is_f64() => format!("{:?}", n.as_f64().unwrap()),
            Json::Number(n) if n.as_i64().is_some() => n.to_string(),
            Json::Number(n) => format!("{:?}", n.as_f64().unwrap()),
            Json::String(s) => lit(s),
            _ => unreachable!(),
        };
        let value = |x: &Json| match x {
            Json::Object(m) if is_hex(m) => format!("{{q={},r={}}}", m["q"], m["r"]),
            Json::Array(_) | Json::Object(_) => constructor(x),
            _ => plain(x),
        };
        let rank = |x: &Json| match x {
            Json::Object(m) if is_hex(m) => 1,
            Json::Array(_) | Json::Object(_) => 2,
            _ => 0,
        };
        let mut fields: Vec<(String, &Json)> = match v {
            Json::Array(a) => a
                .iter()
                .enumerate()
                .map(|(i, x)| ((i + 1).to_string(), x))
                .collect(),
            Json::Object(m) => m.iter().map(|(k, x)| (lit(k), x)).collect(),
            _ => Vec::new(),
        };
        if let Json::Array(a) = v
            && !a.is_empty()
            && a.len() <= PRESIZED
        {
            let items: Vec<String> = a
                .iter()
                .map(|x| if x.is_null() { "nil".into() } else { value(x) })
                .collect();
            return format!("{{{},}}", items.join(","));
        }
        fields.retain(|(_, x)| !x.is_null());
        fields.sort_by_key(|(_, x)| rank(x));
        if v.is_object() && fields.len() <= PRESIZED {
            let items: Vec<String> = fields
                .iter()
                .map(|(k, x)| format!("[{k}]={}", value(x)))
                .collect();
            return format!("{{{}}}", items.join(","));
        }
        let sets: Vec<String> = fields
            .iter()
            .map(|(k, x)| format!("t[{k}]={}", value(x)))
            .collect();
        format!(
            "(function() local t={{}} {} return t end)()",
            sets.join(" ")
        )
    }

    #[test]
    fn templates_are_laid_out_as_lua_constructors_lay_them_out() {
        let sb = Sandbox::new(Limits::default()).unwrap();
        sb.guarded(|lua| {
            let tpl = Templates::new(lua).unwrap();
            let order = lua
                .load(
                    r"
                    local function order(t)
                      local out = {}
                      for k, v in pairs(t) do
                        out[#out + 1] = tostring(k)
                        if type(v) == 'table' then out[#out + 1] = '(' .. order(v) .. ')' end
                      end
                      return table.concat(out, ',')
                    end
                    return order",
                )
                .eval::<Function>()
                .unwrap();
            let mut vs: Vec<Json> = samples()
                .into_iter()
                .filter(|v| v.is_array() || v.is_object())
                .collect();
            // Array slots of every kind, hexes and nested tables among plain fields, large
            // arrays with holes, and a table built over several calls.
            vs.push(json!([{"q": 1, "r": 2}, 5, [3], {"a": 1}, "x", null, 7]));
            vs.push(json!({"b": {"q": 0, "r": 0}, "a": [1, {"c": 2}], "z": "s", "1": 4}));
            vs.push(Json::Array(
                (0..60)
                    .map(|i| match i % 4 {
                        0 => json!({"q": i, "r": 1}),
                        1 => json!([i]),
                        2 => Json::Null,
                        _ => json!(i),
                    })
                    .collect(),
            ));
            vs.push(Json::Object(
                (0..2500)
                    .map(|i| {
                        let x = match i % 3 {
                            0 => json!({"q": i, "r": 0}),
                            1 => json!([i]),
                            _ => json!(i),
                        };
                        (format!("f{i}"), x)
                    })
                    .collect(),
            ));
            // Flat values (built in one call, see `ffi::json_table`): hexes and plain
            // items mixed, holes, floats, long strings, more fields than are presized.
            let flat = [
                json!([{"q": 1, "r": 2}, 5, null, {"q": -3, "r": 0}, "x", 2.5, true]),
                json!({"b": {"q": 0, "r": 0}, "a": 1, "long": "s".repeat(100), "n": null}),
                json!([]),
                json!({}),
                json!([null, null, 3]),
                json!([18_446_744_073_709_551_615_u64, -7, 0.1]),
                Json::Array(
                    (0..60)
                        .map(|i| match i % 3 {
                            0 => json!({"q": i, "r": 1}),
                            1 => Json::Null,
                            _ => json!(i),
                        })
                        .collect(),
                ),
                Json::Object(
                    (0..40)
                        .map(|i| {
                            let x = if i % 2 == 0 {
                                json!({"q": i, "r": 0})
                            } else {
                                json!(i)
                            };
                            (format!("f{i}"), x)
                        })
                        .collect(),
                ),
            ];
            assert!(flat.iter().all(crate::layout::flat));
            vs.extend(flat);
            let same = lua
                .load(format!("{}\nreturn same", crate::rules::tests::SAME))
                .eval::<Function>()
                .unwrap();
            for v in vs {
                let built = tpl.freeze_json(lua, &v).unwrap();
                let reference: Table = lua
                    .load(format!("return {}", constructor(&v)))
                    .eval()
                    .unwrap();
                assert!(
                    same.call::<bool>((built.as_value(), reference.clone()))
                        .unwrap(),
                    "{v}"
                );
                let a: String = order.call(built.as_value()).unwrap();
                let b: String = order.call(reference).unwrap();
                assert_eq!(a, b, "{v}");
                // The copy a writable callback gets has the same layout.
                let c: String = order.call(tpl.thaw(lua, &built).unwrap()).unwrap();
                assert_eq!(c, b, "{v}");
            }
            let f = tpl.freeze_json(lua, &json!({"zz": 1, "yy": {"q": 0, "r": 1}}));
            let x = tpl.thaw(lua, &f.unwrap()).unwrap();
            assert_eq!(x.get::<Table>("yy").unwrap().get::<i64>("r").unwrap(), 1);
            assert!(x.metatable().is_none());
            Ok(())
        })
        .unwrap();
    }

    #[test]
    fn frozen_fields_nest_and_nil_is_left_out() {
        let sb = Sandbox::new(Limits::default()).unwrap();
        sb.guarded(|lua| {
            let tpl = Templates::new(lua).unwrap();
            let stats = tpl.freeze_json(lua, &json!({"hull": 40})).unwrap();
            let key = |s: &str| Value::String(lua.create_string(s).unwrap());
            let values = json!({"moved": false});
            let f = tpl
                .freeze(
                    lua,
                    vec![
                        (key("id"), Field::Plain(Value::Integer(3))),
                        (key("facing"), Field::Plain(Value::Nil)),
                        (key("values"), Field::Json(&values)),
                        (key("stats"), Field::Frozen(&stats)),
                    ],
                )
                .unwrap();
            let all = tpl.thaw_all(lua, &[f.clone(), f.clone()]).unwrap();
            let many = tpl.thaw_all(lua, &vec![f; MAX_PACKED + 1]).unwrap();
            assert_eq!(many.raw_len(), MAX_PACKED + 1);
            let ok: bool = lua
                .load(
                    "local l = ...; return #l == 2 and l[1] ~= l[2] and l[1].stats ~= l[2].stats \
                 and l[1].id == 3 and l[1].facing == nil and l[2].values.moved == false \
                 and l[2].stats.hull == 40",
                )
                .call(all)
                .unwrap();
            assert!(ok);
            Ok(())
        })
        .unwrap();
    }

    #[test]
    fn rows_build_every_kind_and_span_several_calls() {
        let sb = Sandbox::new(Limits::default()).unwrap();
        sb.guarded(|lua| {
            let tpl = Templates::new(lua).unwrap();
            let key = |s: &str| Value::String(lua.create_string(s).unwrap());
            let sub = tpl.freeze_json(lua, &json!({"a": [1, 2]})).unwrap();
            let spec = [
                (key("id"), RowCell::Plain),
                (key("hex"), RowCell::Hex),
                (key("sub"), RowCell::Copy),
            ];
            let node = json_to_lua(lua, &json!({"box": "reserve"})).unwrap();
            // Rows cycle through: a hex, a table in the hex slot, nothing; 3,001 rows need
            // more than one call.
            let rows: Vec<Vec<Value>> = (0..3001)
                .map(|i| match i % 3 {
                    0 => vec![Value::Integer(i), Value::Integer(i), Value::Integer(-i), sub.as_value()],
                    1 => vec![Value::Integer(i), node.clone(), Value::Boolean(false), Value::Boolean(false)],
                    _ => vec![Value::Nil, Value::Boolean(false), Value::Boolean(false), Value::Boolean(false)],
                })
                .collect();
            let t = tpl.rows(lua, &spec, rows, false).unwrap();
            let ok: bool = lua
                .load(
                    "local l = ...
                     if #l ~= 3001 then return false end
                     for i = 1, #l do
                       local t, n = l[i], i - 1
                       local k = 0
                       for _ in pairs(t) do k = k + 1 end
                       if n % 3 == 0 then
                         if not (t.id == n and t.hex.q == n and t.hex.r == -n and t.sub.a[2] == 2 and k == 3) then return false end
                       elseif n % 3 == 1 then
                         if not (t.id == n and t.hex.box == 'reserve' and k == 2) then return false end
                       elseif k ~= 0 then return false end
                     end
                     return l[1].sub ~= l[4].sub",
                )
                .call(t.clone())
                .unwrap();
            assert!(ok);
            // A row is laid out as Lua lays out a presized constructor filled in field order
            // (the builder rows had before they were made through the C API), so `pairs`
            // visits its keys in that order.
            let same_order: bool = lua
                .load(
                    "local l = ...
                     local t = { a1 = nil, a2 = nil, a3 = nil }
                     t.id = 0; t.hex = { q = 0, r = 0 }; t.sub = {}
                     local a, b = {}, {}
                     for k in pairs(t) do a[#a + 1] = k end
                     for k in pairs(l[1]) do b[#b + 1] = k end
                     for k in pairs(l[1].hex) do b[#b + 1] = k end
                     for k in pairs(t.hex) do a[#a + 1] = k end
                     return table.concat(a, ',') == table.concat(b, ',')",
                )
                .call(t)
                .unwrap();
            assert!(same_order);
            let empty = tpl.rows(lua, &spec, Vec::new(), false).unwrap();
            assert_eq!(empty.raw_len(), 0);
            Ok(())
        })
        .unwrap();
    }

    #[test]
    fn objects_frozen_with_reuse_equal_fresh_ones_and_reuse_only_unchanged_parts() {
        let sb = Sandbox::new(Limits::default()).unwrap();
        sb.guarded(|lua| {
            let tpl = Templates::new(lua).unwrap();
            let obj = |v: Json| -> BTreeMap<String, Json> {
                v.as_object().unwrap().clone().into_iter().collect()
            };
            let a = obj(json!({"n": 1, "at": {"q": 1, "r": 2}, "list": [1, {"x": 2}], "m": {"k": [3]}, "gone": null}));
            let (fa, parts) = tpl.freeze_object(lua, &a, None).unwrap();
            let serde = serde_way(lua, &Json::Object(a.clone().into_iter().collect()));
            assert!(same(lua, Value::Table(tpl.thaw(lua, &fa).unwrap()), serde));
            assert_eq!(parts.keys().collect::<Vec<_>>(), ["list", "m"]);
            // Change one nested part: the other is reused, the changed one is new.
            let b = obj(json!({"n": 1, "at": {"q": 1, "r": 2}, "list": [1, {"x": 9}], "m": {"k": [3]}}));
            let (fb, parts_b) = tpl.freeze_object(lua, &b, Some((&a, &parts, &fa))).unwrap();
            let serde = serde_way(lua, &Json::Object(b.clone().into_iter().collect()));
            assert!(same(lua, Value::Table(tpl.thaw(lua, &fb).unwrap()), serde));
            assert_eq!(parts_b["m"].frozen().0, parts["m"].frozen().0);
            assert_ne!(parts_b["list"].frozen().0, parts["list"].frozen().0);
            // Deeper: only the changed branch is rebuilt, its unchanged sibling is reused.
            let c = obj(json!({"deep": [{"a": [1]}, {"b": [2]}]}));
            let (fc, pc) = tpl.freeze_object(lua, &c, None).unwrap();
            let d = obj(json!({"deep": [{"a": [1]}, {"b": [5]}]}));
            let (fd, pd) = tpl.freeze_object(lua, &d, Some((&c, &pc, &fc))).unwrap();
            let serde = serde_way(lua, &Json::Object(d.clone().into_iter().collect()));
            assert!(same(lua, Value::Table(tpl.thaw(lua, &fd).unwrap()), serde));
            assert_ne!(pd["deep"].frozen().0, pc["deep"].frozen().0);
            assert_eq!(pd["deep"].kids[0].frozen().0, pc["deep"].kids[0].frozen().0);
            assert_ne!(pd["deep"].kids[1].frozen().0, pc["deep"].kids[1].frozen().0);
            // Inside the changed branch, the unchanged list is reused too.
            assert_eq!(pd["deep"].kids[1].kids.len(), 1);
            let e = obj(json!({"deep": [{"a": [1]}, {"b": [5], "c": [7]}], "x": [{"y": [1]}]}));
            let (fe, pe) = tpl.freeze_object(lua, &e, Some((&d, &pd, &fd))).unwrap();
            let serde = serde_way(lua, &Json::Object(e.clone().into_iter().collect()));
            assert!(same(lua, Value::Table(tpl.thaw(lua, &fe).unwrap()), serde));
            assert_eq!(pe["deep"].kids[0].frozen().0, pd["deep"].kids[0].frozen().0);
            assert_eq!(pe["deep"].kids[1].kids[0].frozen().0, pd["deep"].kids[1].kids[0].frozen().0);
            assert_eq!(pe["deep"].kids[1].kids.len(), 2);
            Ok(())
        })
        .unwrap();
    }

    #[test]
    fn a_replaced_global_cannot_see_templates() {
        let sb = Sandbox::new(Limits::default()).unwrap();
        sb.guarded(|lua| {
            lua.load("SEEN = 0; next = function() SEEN = SEEN + 1 end; type = next; pairs = next")
                .exec()
                .unwrap();
            let tpl = Templates::new(lua).unwrap();
            let f = tpl.freeze_json(lua, &json!({"a": {"b": 1}})).unwrap();
            let t = tpl.thaw(lua, &f).unwrap();
            let b: i64 = t.get::<Table>("a").unwrap().get("b").unwrap();
            assert_eq!(b, 1);
            assert_eq!(lua.globals().get::<i64>("SEEN").unwrap(), 0);
            Ok(())
        })
        .unwrap();
    }
}
