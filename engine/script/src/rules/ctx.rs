//! Making a callback's `ctx`: its fields (a copy of a template kept while the clock, the
//! scenario and the options stay the same), the metatable that serves the methods, and its
//! session (see [`crate::rules::session`]). Victory's ctx is tracked: its field reads are noted for the
//! memo ([`crate::rules::memo`]).

use super::*;

/// What a ctx's fields are made from (see [`LuaRules::ctx_template`]): the clock's fields that
/// `make_ctx` reads, the turn limit, the scenario and the options.
#[derive(Clone, PartialEq)]
pub(super) struct CtxKey {
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
            && self.acting == s.clock.acting_now()
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
            acting: s.clock.acting_now().to_vec(),
            turn_limit,
            scenario: s.scenario.clone(),
            options: s.options.clone(),
        }
    }
}

/// The side whose turn it is (ctx.active), if any.
pub(super) fn active_side(s: &GameState) -> Option<&str> {
    s.clock
        .turn_index
        .and_then(|i| s.clock.order.get(i as usize))
        .map(String::as_str)
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

/// Builds the `ctx` table for one callback call and opens its session (see [`crate::rules::session`]):
/// the fields, and the metatable every ctx shares, whose `__index` is the methods table built
/// once per [`LuaRules`] by [`build_methods`]. When the session is dropped the ctx's methods
/// error. With `tracked` (victory), the ctx is empty and its fields are served through a
/// recording `__index` instead (the names read are noted; see [`crate::rules::memo`]).
pub(super) fn open_ctx<'a>(
    lua: &'a Lua,
    access: Access<'a>,
    rules: &'a LuaRules,
    tracked: bool,
) -> mlua::Result<(Table, Session<'a>)> {
    let template = ctx_template(lua, rules, access.get())?;
    let ctx = match tracked {
        false => crate::ffi::copy(lua, (&template, &rules.ctx_mt), crate::ffi::CopyAs::Ctx)?,
        true => {
            let ctx = lua.create_table_with_capacity(0, crate::rules::memo::CTX_FIELDS.len())?;
            ctx.set_metatable(Some(tracked_mt(lua, rules, &template)?))?;
            ctx
        }
    };
    let session = Session::open(&ctx, access, rules);
    Ok((ctx, session))
}

/// The metatable of victory's tracked ctxs made from `template`: its `__index` serves the
/// template's fields, noting each field read ([`crate::rules::memo::note_field`]) and storing it in
/// the ctx (a second read costs nothing), and serves the methods otherwise. Kept for the last
/// template asked about: victory asks once per action, and the template changes only with the
/// clock.
pub(super) fn tracked_mt(lua: &Lua, rules: &LuaRules, template: &Table) -> mlua::Result<Table> {
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
                crate::rules::memo::CTX_FIELDS
                    .iter()
                    .position(|n| n.as_bytes() == &s[..])
            }
            _ => None,
        };
        let Some(i) = field else {
            return methods.raw_get::<Value>(key);
        };
        crate::rules::memo::note_field(i);
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

/// The template of every ctx for `s` (see [`crate::ffi::copy`]): the last one
/// made when its fields are the same, else made now by `make_ctx` (with the shared options).
pub(super) fn ctx_template(lua: &Lua, rules: &LuaRules, s: &GameState) -> mlua::Result<Table> {
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
    for x in s.clock.acting_now() {
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
/// [`crate::ffi::copy`]); anything else is the plain value.
pub(super) fn options_value(lua: &Lua, rules: &LuaRules, options: &Json) -> mlua::Result<Value> {
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
pub(super) fn global_value(
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
