//! The `search` namespace: movement searches whose rules are Lua callbacks.
//!
//! - `search.cheapest_path(start, goal, cost_fn, { max_expanded=, max_cost=, min_step_cost= })`
//!   -> `{ hexes = {...}, cost = n }` or nil. `cost_fn(from, to)` returns the integer cost of one
//!   step (>= 0) or nil/false when the step is impossible.
//! - `search.facing_moves(start, facing, { speed=, max_turns=, turn_in_final_hex= }, enterable_fn)`
//!   -> list of `{ hex, facing, path = {hexes}, turns }`, one per end position (the fewest turns),
//!   in (hex, facing) order. `enterable_fn(hex)` (optional: default every hex) says whether the
//!   ship may enter a hex.
//! - `search.move_listing(start, facings, { speed=, max_turns=, turn_in_final_hex=, paths=,
//!   max_expanded= }, { on_board=, blocked=, crash=, pull= })` -> `ends, exits, crashes,
//!   truncated`: every legal move with its plan (`F`, `FL`, `FR` per hex), for a mod to offer as
//!   choices. Each list holds `{ to, facing, turns, plan, start_facing, exited, crashed }` (and
//!   `path` with `paths = true`); ends are one per (hex, facing), the fewest turns, sorted by q,
//!   r, facing; exits (off the map, into a blocked hex with `crash = true`, or where `pull`
//!   answered `"crash"`) and crashes (into a blocked hex otherwise: illegal unless nothing else
//!   is possible) in the order found. `pull(hex, facing, left)` is asked after entering a hex
//!   with hexes left to move: a new facing, `"crash"` (the move ends there), or nil. See
//!   `hexforge_core::search::listing` for the exact rules and order.
//!
//! Bound from `hexforge_core::search`. The callbacks run inside the calling engine call, so they
//! count against the same instruction budget and memory limit; an error raised in a callback
//! stops the search and is re-raised to the caller.
//!
//! ```
//! use hexforge_script::{Limits, Sandbox};
//! let sb = Sandbox::new(Limits::default()).unwrap();
//! let cost: i64 = sb.eval("return search.cheapest_path({q=0,r=0}, {q=3,r=0}, function() return 2 end).cost", "=doc").unwrap();
//! assert_eq!(cost, 6);
//! ```

use super::args::{Args, add, dir_from_value, hex_to_table, hexes_to_table};
use super::choices::{ChoiceList, MOVE_FIELDS, MoveList, base_params};
use super::kinds::{HexKinds, opt_fn};
use hexforge_core::hex::{Direction, Hex};
use hexforge_core::search::{
    self, FacingRules, Limits, ListedMove, ListingRules, MoveEnd, MoveListing, Pull,
};
use mlua::{Function, IntoLuaMulti, Lua, MultiValue, Table, Value};
use rustc_hash::FxHashMap as HashMap;
use std::cell::RefCell;
use std::rc::Rc;

/// Largest speed and turn count accepted by `search.facing_moves`.
pub const MAX_SPEED: i64 = 1000;

fn opt_table(a: &Args<'_>, i: usize) -> mlua::Result<Option<Table>> {
    match a.values.get(i) {
        None | Some(Value::Nil) => Ok(None),
        Some(Value::Table(t)) => Ok(Some(t.clone())),
        Some(v) => Err(a.err(i, &format!("expected a table, got {}", v.type_name()))),
    }
}

fn opt_int(
    a: &Args<'_>,
    i: usize,
    t: Option<&Table>,
    key: &'static str,
    lo: i64,
    hi: i64,
) -> mlua::Result<Option<i64>> {
    let Some(t) = t else { return Ok(None) };
    let n = match a.field(t, key, true)? {
        Value::Nil => return Ok(None),
        Value::Integer(n) => n,
        Value::Number(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => f as i64,
        v => {
            return Err(a.err(
                i,
                &format!("{key}: expected an integer, got {}", v.type_name()),
            ));
        }
    };
    if (lo..=hi).contains(&n) {
        Ok(Some(n))
    } else {
        Err(a.err(i, &format!("{key}: expected {lo}..{hi}, got {n}")))
    }
}

fn function(a: &Args<'_>, i: usize, required: bool) -> mlua::Result<Option<Function>> {
    match a.values.get(i) {
        Some(Value::Function(f)) => Ok(Some(f.clone())),
        None | Some(Value::Nil) if !required => Ok(None),
        v => Err(a.err(
            i,
            &format!(
                "expected a function, got {}",
                v.map_or("no value", Value::type_name)
            ),
        )),
    }
}

/// Builds the `search` table.
///
/// # Errors
/// Out of memory.
pub fn register(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    const NS: &str = "search";
    add(lua, &t, NS, "cheapest_path", |lua, a| {
        let (start, goal) = (a.hex(0)?, a.hex(1)?);
        let cost_fn = function(a, 2, true)?.ok_or_else(|| a.err(2, "expected a function"))?;
        let opts = opt_table(a, 3)?;
        let mut limits = Limits::default();
        if let Some(n) = opt_int(
            a,
            3,
            opts.as_ref(),
            "max_expanded",
            0,
            Limits::DEFAULT_MAX_EXPANDED as i64,
        )? {
            limits = limits.with_max_expanded(n as usize);
        }
        if let Some(n) = opt_int(a, 3, opts.as_ref(), "max_cost", 0, i64::from(u32::MAX))? {
            limits = limits.with_max_cost(n as u32);
        }
        let min_step =
            opt_int(a, 3, opts.as_ref(), "min_step_cost", 0, 1_000_000)?.unwrap_or(0) as u32;
        let failed: RefCell<Option<mlua::Error>> = RefCell::new(None);
        let step = |from: Hex, to: Hex| -> Option<u32> {
            if failed.borrow().is_some() {
                return None;
            }
            let r = (|| -> mlua::Result<Option<u32>> {
                let v: Value = cost_fn.call((hex_to_table(lua, from)?, hex_to_table(lua, to)?))?;
                match v {
                    Value::Nil | Value::Boolean(false) => Ok(None),
                    Value::Integer(n) if (0..=i64::from(u32::MAX)).contains(&n) => {
                        Ok(Some(n as u32))
                    }
                    Value::Number(f)
                        if f.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&f) =>
                    {
                        Ok(Some(f as u32))
                    }
                    other => Err(mlua::Error::runtime(format!(
                        "search.cheapest_path: cost_fn must return a step cost (integer >= 0) or nil, got {}",
                        match other {
                            Value::Integer(n) => n.to_string(),
                            Value::Number(f) => f.to_string(),
                            o => o.type_name().to_string(),
                        }
                    ))),
                }
            })();
            r.unwrap_or_else(|e| {
                *failed.borrow_mut() = Some(e);
                None
            })
        };
        let path = search::cheapest_path(start, goal, min_step, step, limits);
        if let Some(e) = failed.into_inner() {
            return Err(e);
        }
        match path {
            None => Value::Nil.into_lua_multi(lua),
            Some(p) => {
                let out = lua.create_table()?;
                out.raw_set("hexes", hexes_to_table(lua, p.hexes)?)?;
                out.raw_set("cost", p.cost)?;
                out.into_lua_multi(lua)
            }
        }
    })?;
    add(lua, &t, NS, "facing_moves", |lua, a| {
        let start = a.hex(0)?;
        let facing = a.dir(1)?;
        let opts = opt_table(a, 2)?;
        let speed = opt_int(a, 2, opts.as_ref(), "speed", 0, MAX_SPEED)?
            .ok_or_else(|| a.err(2, "speed: required (hexes to move, exactly)"))?;
        let max_turns = opt_int(a, 2, opts.as_ref(), "max_turns", 0, MAX_SPEED)?.unwrap_or(0);
        let turn_in_final_hex = match opts
            .as_ref()
            .map(|t| t.raw_get::<Value>("turn_in_final_hex"))
            .transpose()?
        {
            None | Some(Value::Nil) => true,
            Some(Value::Boolean(b)) => b,
            Some(v) => {
                return Err(a.err(
                    2,
                    &format!(
                        "turn_in_final_hex: expected a boolean, got {}",
                        v.type_name()
                    ),
                ));
            }
        };
        let rules = FacingRules {
            speed: speed as u32,
            max_turns: max_turns as u32,
            turn_in_final_hex,
        };
        let enterable_fn = function(a, 3, false)?;
        // Why a cache: the search asks about the same hex many times (once per facing and turn
        // count); the callback is pure by contract, so ask Lua once per hex.
        let seen: RefCell<std::collections::BTreeMap<Hex, bool>> = RefCell::default();
        let failed: RefCell<Option<mlua::Error>> = RefCell::new(None);
        let enterable = |h: Hex| -> bool {
            let Some(f) = &enterable_fn else { return true };
            if failed.borrow().is_some() {
                return false;
            }
            if let Some(b) = seen.borrow().get(&h) {
                return *b;
            }
            let r = hex_to_table(lua, h).and_then(|t| f.call::<Value>(t));
            let ok = match r {
                Ok(v) => !matches!(v, Value::Nil | Value::Boolean(false)),
                Err(e) => {
                    *failed.borrow_mut() = Some(e);
                    false
                }
            };
            seen.borrow_mut().insert(h, ok);
            ok
        };
        let reach = search::facing_moves(start, facing, &rules, enterable, Limits::default());
        if let Some(e) = failed.into_inner() {
            return Err(e);
        }
        let out = lua.create_table()?;
        for (i, ((h, f), end)) in search::end_positions(&reach, &rules)
            .into_iter()
            .enumerate()
        {
            let e = lua.create_table()?;
            e.raw_set("hex", hex_to_table(lua, h)?)?;
            e.raw_set("facing", i64::from(f.index()))?;
            e.raw_set(
                "path",
                hexes_to_table(lua, search::hexes_of(&reach.path_to(&end)))?,
            )?;
            e.raw_set("turns", end.turns)?;
            out.raw_set(i + 1, e)?;
        }
        out.into_lua_multi(lua)
    })?;
    let helpers: Table = lua
        .load(LISTING_HELPERS)
        .set_name("=hexforge search.move_listing")
        .set_environment({
            let env = lua.create_table()?;
            let string: Table = lua.globals().raw_get("string")?;
            env.raw_set("unpack", string.raw_get::<Function>("unpack")?)?;
            env
        })
        .eval()?;
    let helpers = ListingHelpers {
        classify: helpers.raw_get("classify")?,
        pull: helpers.raw_get("pull")?,
        decode: helpers.raw_get("decode")?,
    };
    // `ctx:move_listing` (the rules module) runs the same listing with the game's board.
    lua.set_app_data(helpers.clone());
    let h = helpers.clone();
    add(lua, &t, NS, "move_listing", move |lua, a| {
        move_listing(lua, a, &h, None, Output::Tables)
    })?;
    let classify = helpers.classify.clone();
    add(lua, &t, NS, "move_choices", move |lua, a| {
        let base = choice_params(a)?;
        move_listing(lua, a, &helpers, None, Output::Choices(base))
    })?;
    add(lua, &t, NS, "distances", move |lua, a| {
        super::distances::distances(lua, a, &classify, None)
    })?;
    Ok(t)
}

/// What a listing hands back: Lua tables (`move_listing`), or choice lists carrying these
/// params (`move_choices`).
enum Output {
    Tables,
    Choices(serde_json::Map<String, serde_json::Value>),
}

/// Argument 5 of `move_choices`: the params every choice carries.
fn choice_params(a: &Args<'_>) -> mlua::Result<serde_json::Map<String, serde_json::Value>> {
    base_params(a.lua(), a.get(4), &MOVE_FIELDS).map_err(|m| a.err(4, &m))
}

/// `ctx:move_listing(start, facings, rules, env)`: `search.move_listing` where a hex is on the
/// map when `on_board` says so (the game's board, answered in Rust: no Lua call per hex),
/// unless `env.on_board` is given.
///
/// # Errors
/// As `search.move_listing`, with messages naming `ctx:move_listing`.
pub(crate) fn ctx_move_listing(
    lua: &Lua,
    args: MultiValue,
    on_board: &dyn Fn(Hex) -> bool,
    choices: bool,
) -> mlua::Result<MultiValue> {
    let Some(h) = lua.app_data_ref::<ListingHelpers>().map(|h| h.clone()) else {
        return Err(mlua::Error::runtime(
            "ctx:move_listing: the search namespace is missing",
        ));
    };
    // No function name: the ctx wrapper prefixes `ctx:move_listing:` (`ctx:move_choices:`).
    let a = Args::in_vm(lua, "", args);
    let output = if choices {
        Output::Choices(choice_params(&a)?)
    } else {
        Output::Tables
    };
    move_listing(lua, &a, &h, Some(on_board), output)
}

/// Lua side of `search.move_listing`, compiled with an environment holding only the real
/// `string.unpack` (a mod replacing globals changes nothing here).
///
/// Why the listing crosses as one packed string decoded in Lua: under the memory limit every
/// table, string or field made from Rust is a protected call (~1-2.5k instructions each), and
/// a speed-12 listing has over a thousand moves of seven fields; `string.unpack` and table
/// constructors in Lua do the same for a fraction of that. For the same reason the callbacks
/// get their hex tables built in Lua.
const LISTING_HELPERS: &str = r#"
local H = {}
function H.classify(on_board, blocked, q, r)
  local h = { q = q, r = r }
  if on_board and not on_board(h) then return 0 end
  if blocked and blocked(h) then return 2 end
  return 1
end
function H.pull(pull, q, r, f, left)
  return pull({ q = q, r = r }, f, left)
end
function H.decode(data, n1, n2, n3, paths)
  local pos = 1
  local function list(n)
    local out = {}
    for i = 1, n do
      local q, r, f, t, sf, how, plan
      q, r, f, t, sf, how, plan, pos = unpack("<i4i4BI4BBs4", data, pos)
      local e = { to = { q = q, r = r }, facing = f, turns = t, plan = plan, start_facing = sf,
                  exited = how == 1, crashed = how == 2 }
      if paths then
        local k
        k, pos = unpack("<I4", data, pos)
        local p = {}
        for j = 1, k do
          local hq, hr
          hq, hr, pos = unpack("<i4i4", data, pos)
          p[j] = { q = hq, r = hr }
        end
        e.path = p
      end
      out[i] = e
    end
    return out
  end
  return list(n1), list(n2), list(n3)
end
return H
"#;

/// The compiled [`LISTING_HELPERS`] (app data of every VM with the `search` namespace).
#[derive(Clone)]
pub(super) struct ListingHelpers {
    pub(super) classify: Function,
    pull: Function,
    decode: Function,
}

/// Reads `facings`: one direction or a non-empty list of them.
fn facings_arg(a: &Args<'_>, i: usize) -> mlua::Result<Vec<Direction>> {
    match a.values.get(i) {
        Some(Value::Table(t)) => {
            let mut out = Vec::new();
            for v in t.sequence_values::<Value>() {
                out.push(dir_from_value(&v?).map_err(|m| a.err(i, &m))?);
                if out.len() > 6 * 1000 {
                    return Err(a.err(i, "too many facings"));
                }
            }
            if out.is_empty() {
                return Err(a.err(i, "expected at least one facing"));
            }
            Ok(out)
        }
        _ => Ok(vec![a.dir(i)?]),
    }
}

fn opt_bool(
    a: &Args<'_>,
    i: usize,
    t: Option<&Table>,
    key: &'static str,
) -> mlua::Result<Option<bool>> {
    let Some(t) = t else { return Ok(None) };
    match a.field(t, key, true)? {
        Value::Nil => Ok(None),
        Value::Boolean(b) => Ok(Some(b)),
        v => Err(a.err(
            i,
            &format!("{key}: expected a boolean, got {}", v.type_name()),
        )),
    }
}

fn move_listing(
    lua: &Lua,
    a: &Args<'_>,
    h: &ListingHelpers,
    board: Option<&dyn Fn(Hex) -> bool>,
    output: Output,
) -> mlua::Result<MultiValue> {
    let start = a.hex(0)?;
    let facings = facings_arg(a, 1)?;
    let opts = opt_table(a, 2)?;
    let speed = opt_int(a, 2, opts.as_ref(), "speed", 0, MAX_SPEED)?
        .ok_or_else(|| a.err(2, "speed: required (hexes to move, exactly)"))?;
    let max_turns = opt_int(a, 2, opts.as_ref(), "max_turns", 0, MAX_SPEED)?.unwrap_or(0);
    let turn_in_final_hex = opt_bool(a, 2, opts.as_ref(), "turn_in_final_hex")?.unwrap_or(true);
    let paths = opt_bool(a, 2, opts.as_ref(), "paths")?.unwrap_or(false);
    let max_expanded = opt_int(
        a,
        2,
        opts.as_ref(),
        "max_expanded",
        0,
        Limits::DEFAULT_MAX_EXPANDED as i64,
    )?
    .map_or(Limits::DEFAULT_MAX_EXPANDED, |n| n as usize);
    let env = opt_table(a, 3)?;
    let kinds = HexKinds::read(a, 3, env.as_ref(), board, &h.classify)?;
    let pull_fn = opt_fn(a, 3, env.as_ref(), "pull")?;
    let crash = match env
        .as_ref()
        .map(|t| a.field(t, "crash", false))
        .transpose()?
    {
        None | Some(Value::Nil | Value::Boolean(false)) => false,
        Some(_) => true,
    };
    let rules = ListingRules {
        moves: FacingRules {
            speed: speed as u32,
            max_turns: max_turns as u32,
            turn_in_final_hex,
        },
        crash,
    };
    // Pulls are cached: asked once per hex, facing and hexes left (the callbacks are pure by
    // contract; the search asks about each hex's kind once).
    let mut pulls: HashMap<(Hex, Direction, u32), Option<Pull>> = HashMap::default();
    let pull = |x: Hex, f: Direction, left: u32| -> Option<Pull> {
        let p = pull_fn.as_ref()?;
        if kinds.failed() {
            return None;
        }
        if let Some(r) = pulls.get(&(x, f, left)) {
            return *r;
        }
        let r = match h
            .pull
            .call::<Value>((p, x.q, x.r, i64::from(f.index()), left))
        {
            Ok(Value::Nil | Value::Boolean(false)) => None,
            Ok(Value::String(c)) if c.as_bytes() == b"crash" => Some(Pull::Crash),
            Ok(v) => match dir_from_value(&v) {
                Ok(d) => Some(Pull::Face(d)),
                Err(m) => {
                    kinds.fail(mlua::Error::runtime(format!(
                        "search.move_listing: pull must return a direction, \"crash\" or nil: {m}"
                    )));
                    None
                }
            },
            Err(e) => {
                kinds.fail(e);
                None
            }
        };
        pulls.insert((x, f, left), r);
        r
    };
    let listing = search::move_listing(
        start,
        &facings,
        &rules,
        |x| kinds.kind(x),
        pull,
        Limits::default().with_max_expanded(max_expanded),
    );
    kinds.finish()?;
    if let Output::Choices(base) = output {
        // Kept as it is: each choice's params are made when read (see `api::choices`).
        let truncated = listing.truncated;
        let listing = Rc::new(listing);
        let start_facing = facings.len() > 1;
        let list = |which| {
            lua.create_userdata(ChoiceList::moves(
                base.clone(),
                listing.clone(),
                which,
                start_facing,
                paths,
            ))
        };
        return (
            list(MoveList::Ends)?,
            list(MoveList::Exits)?,
            list(MoveList::Crashes)?,
            truncated,
        )
            .into_lua_multi(lua);
    }
    let mut path = Vec::new();
    let mut data = Vec::with_capacity(
        (listing.ends.len() + listing.exits.len() + listing.crashes.len())
            * (20 + speed as usize * 2),
    );
    for m in listing
        .ends
        .iter()
        .chain(&listing.exits)
        .chain(&listing.crashes)
    {
        encode(&listing, m, paths, &mut path, &mut data);
    }
    let (ends, exits, crashes): (Table, Table, Table) = h.decode.call((
        lua.create_string(&data)?,
        listing.ends.len(),
        listing.exits.len(),
        listing.crashes.len(),
        paths,
    ))?;
    (ends, exits, crashes, listing.truncated).into_lua_multi(lua)
}

/// Packs one move for [`LISTING_HELPERS`]' `decode` (`<i4i4BI4BBs4`, then the path); `path`
/// is scratch space.
fn encode(l: &MoveListing, m: &ListedMove, paths: bool, path: &mut Vec<Hex>, out: &mut Vec<u8>) {
    out.extend_from_slice(&m.to.q.to_le_bytes());
    out.extend_from_slice(&m.to.r.to_le_bytes());
    out.push(m.facing.index());
    out.extend_from_slice(&m.turns.to_le_bytes());
    out.push(m.start_facing.index());
    out.push(match m.end {
        MoveEnd::Stays => 0,
        MoveEnd::Exited => 1,
        MoveEnd::Crashed => 2,
    });
    // The plan goes straight into the buffer after a length patched once it is known.
    let at = out.len();
    out.extend_from_slice(&[0; 4]);
    l.write_plan(m, out);
    let len = (out.len() - at - 4) as u32;
    out[at..at + 4].copy_from_slice(&len.to_le_bytes());
    if paths {
        path.clear();
        l.write_path(m, path);
        out.extend_from_slice(&(path.len() as u32).to_le_bytes());
        for x in path.iter() {
            out.extend_from_slice(&x.q.to_le_bytes());
            out.extend_from_slice(&x.r.to_le_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Limits, Sandbox};

    fn sb() -> Sandbox {
        Sandbox::new(Limits {
            instructions: 2_000_000,
            ..Limits::default()
        })
        .unwrap()
    }

    /// A sandbox with room for speed-12 listings and their comparisons in Lua.
    fn big_sb() -> Sandbox {
        Sandbox::new(Limits {
            instructions: 50_000_000,
            ..Limits::default()
        })
        .unwrap()
    }

    #[test]
    fn cheapest_path_goes_around_a_wall_and_honours_limits() {
        let sb = sb();
        let (cost, n, none): (i64, i64, bool) = sb
            .eval(
                "local wall = { ['1,-1'] = true, ['1,0'] = true, ['1,1'] = true }
                 local function cost(from, to)
                   if wall[hex.key(to)] or hex.length(to) > 4 then return nil end
                   return 1
                 end
                 local p = search.cheapest_path({q=0,r=0}, {q=2,r=0}, cost, { min_step_cost = 1 })
                 local q = search.cheapest_path({q=0,r=0}, {q=2,r=0}, cost, { max_cost = 4 })
                 return p.cost, #p.hexes, q == nil",
                "=t",
            )
            .unwrap();
        assert_eq!((cost, n, none), (5, 6, true));
    }

    #[test]
    fn callback_errors_and_bad_costs_surface_and_loops_hit_the_budget() {
        let sb = sb();
        let e = sb
            .exec(
                "search.cheapest_path({q=0,r=0}, {q=2,r=0}, function() error('nope') end)",
                "@mods/x/a.lua",
            )
            .unwrap_err();
        assert!(e.to_string().contains("nope"), "{e}");
        let e = sb
            .exec(
                "search.cheapest_path({q=0,r=0}, {q=2,r=0}, function() return -1 end)",
                "@mods/x/a.lua",
            )
            .unwrap_err();
        assert!(
            e.to_string().contains("cost_fn must return a step cost"),
            "{e}"
        );
        let e = sb
            .exec(
                "search.cheapest_path({q=0,r=0}, {q=2,r=0}, function() while true do end end)",
                "@mods/x/a.lua",
            )
            .unwrap_err();
        assert_eq!(e.kind, crate::ScriptErrorKind::Budget, "{e}");
    }

    #[test]
    fn facing_moves_matches_the_document_000_example() {
        let sb = sb();
        let (found, turns, len, third): (bool, i64, i64, String) = sb
            .eval(
                "local ends = search.facing_moves({q=0,r=0}, 'N', { speed = 7, max_turns = 3 })
                 for _, e in ipairs(ends) do
                   if e.hex.q == -3 and e.hex.r == -1 and e.facing == direction.S then
                     return true, e.turns, #e.path, hex.key(e.path[4])
                   end
                 end
                 return false, 0, 0, ''",
                "=t",
            )
            .unwrap();
        assert_eq!((found, turns, len, third.as_str()), (true, 3, 8, "0,-3"));
        let blocked: i64 = sb
            .eval(
                "return #search.facing_moves({q=0,r=0}, 0, { speed = 2 }, function(h) return not (h.q == 0 and h.r == -1) end)",
                "=t",
            )
            .unwrap();
        assert_eq!(blocked, 0);
        let free: i64 = sb
            .eval("return #search.facing_moves({q=0,r=0}, 0, { speed = 2, max_turns = 1, turn_in_final_hex = false })", "=t")
            .unwrap();
        // Straight: N,N; or turn after one hex (left/right) then move: 3 end positions.
        assert_eq!(free, 3);
    }

    #[test]
    fn move_listing_lists_ends_exits_and_crashes_with_plans_and_paths() {
        let sb = sb();
        // Facing N from the origin at speed 2, MR 1: (0,-2) is off the map, (1,-2) a planet.
        let env = "local env = {
                     on_board = function(h) return not (h.q == 0 and h.r == -2) end,
                     blocked = function(h) return h.q == 1 and h.r == -2 end,
                   }";
        let got: String = sb
            .eval(
                &format!(
                    "{env}
                     string.unpack = nil -- a mod's globals do not reach the helpers
                     local e, x, c, tr = search.move_listing({{q=0,r=0}}, 'N', {{ speed = 2, max_turns = 1, paths = true }}, env)
                     local function show(l)
                       local out = {{}}
                       for _, m in ipairs(l) do
                         out[#out + 1] = ('%s>%d,%d:%d/%d/%d/%s/%s/%d'):format(m.plan, m.to.q, m.to.r, m.facing, m.turns,
                           m.start_facing, tostring(m.exited), tostring(m.crashed), #m.path)
                       end
                       return table.concat(out, ' ')
                     end
                     env.crash = true
                     local e2, x2, c2 = search.move_listing({{q=0,r=0}}, {{ 0 }}, {{ speed = 2, max_turns = 1 }}, env)
                     return show(e) .. ' | ' .. show(x) .. ' | ' .. show(c) .. ' | ' .. tostring(tr)
                       .. ' || ' .. #e2 .. ' ' .. x2[1].plan .. ' ' .. x2[2].plan .. ' ' .. tostring(x2[2].crashed)
                       .. ' ' .. #c2 .. ' ' .. tostring(e2[1].path)"
                ),
                "=t",
            )
            .unwrap();
        assert_eq!(
            got,
            "FLF>-1,-1:5/1/0/false/false/3 | FF>0,-2:0/0/0/true/false/3 | FRF>1,-2:1/1/0/false/true/3 | false \
             || 1 FF FRF true 0 nil"
        );
    }

    #[test]
    fn blocked_as_a_list_of_hexes_lists_what_the_function_lists() {
        let sb = big_sb();
        sb.exec(
            r#"
local planets = { { q = 1, r = -2 }, { q = -2, r = 1 }, { q = 0, r = 3 } }
local function is_planet(h)
  for _, p in ipairs(planets) do if p.q == h.q and p.r == h.r then return true end end
  return false
end
local function show(...)
  local out = {}
  for i = 1, 3 do
    for _, m in ipairs((select(i, ...))) do
      out[#out + 1] = i .. ':' .. m.plan .. '>' .. m.to.q .. ',' .. m.to.r .. '/' .. m.facing
    end
  end
  return table.concat(out, ' ')
end
local on_board = function(h) return hex.length(h) <= 4 end
for _, crash in ipairs({ false, true }) do
  for _, board in ipairs({ false, true }) do
    local f_env = { blocked = is_planet, crash = crash, on_board = board and on_board or nil }
    local l_env = { blocked = planets, crash = crash, on_board = board and on_board or nil }
    local rules = { speed = 4, max_turns = 2 }
    local a = show(search.move_listing({ q = 0, r = 0 }, { 0, 2, 4 }, rules, f_env))
    local b = show(search.move_listing({ q = 0, r = 0 }, { 0, 2, 4 }, rules, l_env))
    assert(a == b, a .. ' ~= ' .. b)
    -- Without a board, every exit or crash is a move into a planet.
    assert(board or a:find('[23]:'), 'some move runs into a planet: ' .. a)
  end
end
local ok, err = pcall(search.move_listing, { q = 0, r = 0 }, 0, { speed = 1 }, { blocked = { { q = 1 } } })
assert(not ok and tostring(err):find('argument 4: blocked: item 1'), tostring(err))
ok, err = pcall(search.move_listing, { q = 0, r = 0 }, 0, { speed = 1 }, { blocked = 3 })
assert(not ok and tostring(err):find('blocked: expected a function or a list of hexes'), tostring(err))
"#,
            "=t",
        )
        .unwrap();
    }

    #[test]
    fn move_listing_start_facings_pull_and_the_document_example() {
        let sb = sb();
        let (n, plan, sf, pulled): (i64, String, i64, String) = sb
            .eval(
                "local ends = search.move_listing({q=0,r=0}, {0}, { speed = 7, max_turns = 3 })
                 local plan
                 for _, e in ipairs(ends) do
                   if e.to.q == -3 and e.to.r == -1 and e.facing == 3 then plan = e.plan end
                 end
                 local six = search.move_listing({q=0,r=0}, {0, 1, 2, 3, 4, 5}, { speed = 1 })
                 -- A pull to the right whenever hexes are left: FFF from N ends SE at (2,-2).
                 local asked = 0
                 local p = search.move_listing({q=0,r=0}, 0, { speed = 3 }, { pull = function(h, f, left)
                   asked = asked + 1
                   return (f + 1) % 6
                 end })
                 return #ends, plan, six[1].start_facing,
                   p[1].plan .. ' ' .. p[1].to.q .. ',' .. p[1].to.r .. ' ' .. p[1].facing .. ' ' .. asked",
                "=t",
            )
            .unwrap();
        // 187 ends (as the mod's test of its old Lua search); the example's end with 3 turns.
        assert_eq!(n, 187);
        assert_eq!(plan.matches('F').count(), 7);
        assert_eq!(plan.len(), 10);
        // Speed 1 from all six facings: sorted by q, r: NW (-1,0) first.
        assert_eq!(sf, 5);
        assert_eq!(pulled, "FFF 2,-2 2 2");
    }

    #[test]
    fn move_listing_errors_name_the_function_and_callback_errors_surface() {
        let sb = sb();
        for (code, want) in [
            (
                "search.move_listing({q=0,r=0}, 0, {})",
                "search.move_listing: argument 3: speed: required",
            ),
            (
                "search.move_listing({q=0,r=0}, {}, { speed = 1 })",
                "expected at least one facing",
            ),
            (
                "search.move_listing({q=0,r=0}, 7, { speed = 1 })",
                "search.move_listing: argument 2",
            ),
            (
                "search.move_listing({q=0,r=0}, 0, { speed = 1 }, { blocked = 3 })",
                "blocked: expected a function",
            ),
            (
                "search.move_listing({q=0,r=0}, 0, { speed = 2 }, { on_board = function() error('boom') end })",
                "boom",
            ),
            (
                "search.move_listing({q=0,r=0}, 0, { speed = 2 }, { pull = function() return 'up' end })",
                "pull must return a direction, \"crash\" or nil",
            ),
        ] {
            let e = sb.exec(code, "@mods/x/a.lua").unwrap_err();
            assert!(e.to_string().contains(want), "{code}: {e}");
        }
        let e = sb
            .exec(
                "search.move_listing({q=0,r=0}, 0, { speed = 2 }, { blocked = function() while true do end end })",
                "@mods/x/a.lua",
            )
            .unwrap_err();
        assert_eq!(e.kind, crate::ScriptErrorKind::Budget, "{e}");
        let truncated: bool = sb
            .eval(
                "return select(4, search.move_listing({q=0,r=0}, 0, { speed = 40, max_turns = 40, max_expanded = 100 }))",
                "=t",
            )
            .unwrap();
        assert!(truncated);
    }

    #[test]
    fn move_listing_tables_match_the_core_listing_for_a_speed_12_listing() {
        use hexforge_core::hex::{Direction, Hex};
        use hexforge_core::search::{FacingRules, HexKind, ListingRules, move_listing};
        // Speed 12, MR 5 with paths: over a thousand moves; (0,-3) is
        // off the map and (2,-4) a planet, so all three lists have moves.
        let kind = |h: Hex| match (h.q, h.r) {
            (0, -3) => HexKind::OffBoard,
            (2, -4) => HexKind::Blocked,
            _ => HexKind::Open,
        };
        let l = move_listing(
            Hex::ORIGIN,
            &[Direction::N, Direction::SE],
            &ListingRules::new(FacingRules::new(12, 5)),
            kind,
            |_, _, _| None::<hexforge_core::search::Pull>,
            hexforge_core::search::Limits::default(),
        );
        let show = |v: &[hexforge_core::search::ListedMove]| {
            v.iter()
                .map(|m| {
                    let path: Vec<String> = l
                        .path(m)
                        .iter()
                        .map(|h| format!("{},{}", h.q, h.r))
                        .collect();
                    format!(
                        "{}>{},{}:{}/{}/{}/{}/{}/{}",
                        l.plan(m),
                        m.to.q,
                        m.to.r,
                        m.facing.index(),
                        m.turns,
                        m.start_facing.index(),
                        m.end == hexforge_core::search::MoveEnd::Exited,
                        m.end == hexforge_core::search::MoveEnd::Crashed,
                        path.join(" ")
                    )
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        let want = format!(
            "{}\n|\n{}\n|\n{}",
            show(&l.ends),
            show(&l.exits),
            show(&l.crashes)
        );
        assert!(l.ends.len() > 1000 && !l.exits.is_empty() && !l.crashes.is_empty());
        let sb = big_sb();
        let got: String = sb
            .eval(
                "local env = {
                   on_board = function(h) return not (h.q == 0 and h.r == -3) end,
                   blocked = function(h) return h.q == 2 and h.r == -4 end,
                 }
                 local e, x, c = search.move_listing({q=0,r=0}, {0, 2}, { speed = 12, max_turns = 5, paths = true }, env)
                 local function show(l)
                   local out = {}
                   for _, m in ipairs(l) do
                     local p = {}
                     for i, h in ipairs(m.path) do p[i] = h.q .. ',' .. h.r end
                     out[#out + 1] = ('%s>%d,%d:%d/%d/%d/%s/%s/%s'):format(m.plan, m.to.q, m.to.r, m.facing,
                       m.turns, m.start_facing, tostring(m.exited), tostring(m.crashed), table.concat(p, ' '))
                   end
                   return table.concat(out, '\\n')
                 end
                 return show(e) .. '\\n|\\n' .. show(x) .. '\\n|\\n' .. show(c)",
                "=t",
            )
            .unwrap();
        assert_eq!(got, want);
    }

    #[test]
    fn move_choices_read_as_the_choices_a_mod_would_build_from_move_listing() {
        let sb = big_sb();
        // Each list, read through `#`, `[i]` and ipairs, against the tables a mod builds from
        // move_listing: params plus plan, to, facing (start_facing with several start facings,
        // path with paths).
        sb.exec(
            r#"
local env = {
  on_board = function(h) return not (h.q == 0 and h.r == -3) end,
  blocked = function(h) return h.q == 2 and h.r == -4 end,
}
local function same(a, b)
  if type(a) ~= 'table' or type(b) ~= 'table' then return a == b end
  for k, v in pairs(a) do if not same(v, b[k]) then return false end end
  for k in pairs(b) do if a[k] == nil then return false end end
  return true
end
for _, case in ipairs({
  { facings = { 0, 2 }, rules = { speed = 6, max_turns = 2 } },
  { facings = 1, rules = { speed = 5, max_turns = 1, paths = true } },
  { facings = { 3 }, rules = { speed = 0 } },
}) do
  local lists = { search.move_listing({q=0,r=0}, case.facings, case.rules, env) }
  local choices = { search.move_choices({q=0,r=0}, case.facings, case.rules, env,
    { piece = 7, tag = { 'a', 1 } }) }
  assert(choices[4] == lists[4])
  for n = 1, 3 do
    local moves, list = lists[n], choices[n]
    assert(#list == #moves, ('list %d: %d choices for %d moves'):format(n, #list, #moves))
    local seen = 0
    for i, c in ipairs(list) do
      local m = moves[i]
      local want = { piece = 7, tag = { 'a', 1 }, plan = m.plan, to = m.to, facing = m.facing,
        path = m.path }
      if type(case.facings) == 'table' and #case.facings > 1 then want.start_facing = m.start_facing end
      assert(same(c, want), ('list %d choice %d'):format(n, i))
      assert(list[i] ~= list[i], 'each read is a fresh table')
      seen = i
    end
    assert(seen == #moves and list[0] == nil and list[#list + 1] == nil and list.plan == nil)
  end
end
local ends = search.move_choices({q=0,r=0}, 0, { speed = 2 }, nil, { piece = 1 })
assert(tostring(ends):find('choice list %(%d+ choices%)'), tostring(ends))
local ok, err = pcall(function() ends[1] = {} end)
assert(not ok and tostring(err):find('cannot be changed'), tostring(err))
-- No params: the move's fields alone.
local bare = search.move_choices({q=0,r=0}, 0, { speed = 1 })
assert(same(bare[1], { plan = 'F', to = { q = 0, r = -1 }, facing = 0 }))
"#,
            "=t",
        )
        .unwrap();
        for (params, want) in [
            (
                "{ plan = 'F' }",
                "argument 5: params: \"plan\" is set by each move",
            ),
            (
                "{ piece = function() end }",
                "argument 5: params: piece must be plain data",
            ),
            (
                "7",
                "argument 5: expected a table of the params every choice carries",
            ),
            ("{ [1] = 3 }", "argument 5: params: keys must be strings"),
        ] {
            let e = sb
                .exec(
                    &format!("search.move_choices({{q=0,r=0}}, 0, {{ speed = 1 }}, nil, {params})"),
                    "=t",
                )
                .unwrap_err();
            let e = e.to_string();
            assert!(e.contains(&format!("search.move_choices: {want}")), "{e}");
        }
    }
}
