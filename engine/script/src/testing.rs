//! The Lua test harness behind `hexforge test`: a mod's `tests/*.lua` run inside the rule set's
//! own VM, with `t:game { scenario =, seed =, options = }` starting real games of the mod
//! (docs/API.md section 6).
//!
//! Files whose name starts with `_` (`tests/_helpers.lua`) are modules the tests `require`, not
//! test files. Each test file gets a freshly loaded rule set (so files cannot leak state into each other);
//! each test gets one instruction budget ([`TEST_INSTRUCTIONS`]) covering the test and every
//! rules callback its games run. A game handle is a table of engine primitives scoped to the
//! test: once the test returns they stop working, so nothing can outlive it.
//!
//! Deliberately not here: printing and exit codes (the CLI), and any way to change a game other
//! than its actions, `g:undo()` and the explicit, unlogged `g:edit(fn)`.
//!
//! ```no_run
//! use hexforge_script::loader::LoadOptions;
//! let results = hexforge_script::testing::run_tests(
//!     std::path::Path::new("mods"), "tutorial", &LoadOptions::default(), "").unwrap();
//! assert!(results.iter().all(|r| r.failure.is_none()));
//! ```

use crate::error::ModError;
use crate::loader::{LoadOptions, LoadedMods, load_mods};
use crate::rules::{Access, LuaRules};
use hexforge_game::{Action, Game, GameState, PerformError, SideId};
use mlua::{Function, Lua, LuaSerdeExt, MultiValue, Table, Value};
use serde_json::Value as Json;
use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;

/// Instruction budget of one test (its own code plus every rules callback of its games).
pub const TEST_INSTRUCTIONS: u64 = 500_000_000;

const RUNNER: &str = include_str!("lua/testing.lua");

/// The result of one test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestResult {
    /// The test file, e.g. `mods/demo/tests/rules.lua`.
    pub file: String,
    /// The test's name (or the file itself when it failed to load).
    pub name: String,
    /// `None` when it passed; otherwise what failed, with file and line.
    pub failure: Option<String>,
}

/// Runs every `tests/*.lua` of mod `id` (found under `mods_root`), each file in a freshly loaded
/// rule set, or only the tests whose `file: name` contains `filter` (all when it is empty, as
/// `cargo test NAME` filters). A file that fails to load counts as one failed test.
///
/// # Errors
/// When the mod itself does not load: every problem, as `file:line: message`.
pub fn run_tests(
    mods_root: &Path,
    id: &str,
    opts: &LoadOptions,
    filter: &str,
) -> Result<Vec<TestResult>, Vec<ModError>> {
    let load = || -> Result<Loaded, Vec<ModError>> {
        let loaded = load_mods(mods_root, id, opts)?;
        // A rule set without a turn structure cannot start games, but its pure tests still run.
        if loaded.decls.turns.is_none() {
            return Ok(Loaded::Bare(Box::new(loaded)));
        }
        Ok(Loaded::Rules(Box::new(LuaRules::new(loaded)?)))
    };
    let first = load()?;
    let Some(main) = first.loaded().mods.last().cloned() else {
        return Ok(Vec::new());
    };
    let mut files: Vec<String> = walkdir::WalkDir::new(main.dir.join("tests"))
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| {
            let rel = e
                .path()
                .strip_prefix(main.dir.join("tests"))
                .ok()?
                .to_string_lossy()
                .replace('\\', "/");
            // `tests/_helpers.lua` (any name starting with `_`) is a module for tests, not tests.
            let helper = rel.rsplit('/').next().is_some_and(|n| n.starts_with('_'));
            (rel.ends_with(".lua") && !helper).then_some(rel)
        })
        .collect();
    files.sort();
    let mut results = Vec::new();
    let mut first = Some(first);
    for rel in files {
        let shown = format!("{}/tests/{rel}", main.rel_dir);
        let set = match first.take() {
            Some(r) => r,
            None => load()?,
        };
        let module = format!(
            "{}.tests.{}",
            main.id,
            rel.trim_end_matches(".lua").replace('/', ".")
        );
        run_file(&set, &shown, &module, filter, &mut results);
    }
    Ok(results)
}

/// A loaded rule set: with rules (games can start) or bare (declarations only).
enum Loaded {
    // Boxed: both are large (VM handles, declarations, caches).
    Rules(Box<LuaRules>),
    Bare(Box<LoadedMods>),
}

impl Loaded {
    fn loaded(&self) -> &LoadedMods {
        match self {
            Loaded::Rules(r) => r.loaded(),
            Loaded::Bare(l) => l,
        }
    }
}

fn run_file(set: &Loaded, shown: &str, module: &str, filter: &str, results: &mut Vec<TestResult>) {
    let sandbox = &set.loaded().sandbox;
    sandbox.set_instruction_limit(TEST_INSTRUCTIONS);
    let fail_file = |results: &mut Vec<TestResult>, why: String| {
        results.push(TestResult {
            file: shown.to_owned(),
            name: shown.to_owned(),
            failure: Some(why),
        });
    };
    if let Err(e) = sandbox.exec(RUNNER, "=hexforge_test_runner") {
        return fail_file(results, e.to_string());
    }
    let count: i64 = match sandbox.eval(&format!("return __hexforge_collect({module:?})"), "=test")
    {
        Ok(n) => n,
        Err(e) => return fail_file(results, e.to_string()),
    };
    let rules = match set {
        Loaded::Rules(r) => Some(&**r),
        Loaded::Bare(_) => None,
    };
    let scenario = rules.map(default_scenario).unwrap_or_default();
    for i in 1..=count {
        let name: String = sandbox
            .eval(&format!("return __hexforge_name({i})"), "=test")
            .unwrap_or_else(|_| format!("test {i}"));
        if !filter.is_empty() && !format!("{shown}: {name}").contains(filter) {
            continue;
        }
        let outcome = sandbox.guarded(|lua| {
            lua.scope(|scope| {
                if let Some(rules) = rules {
                    let make = scope.create_function(|lua, opts: Option<Table>| {
                        new_game(lua, scope, rules, opts, &scenario)
                    })?;
                    lua.globals().raw_set("__hexforge_test_game", make)?;
                }
                let run: Function = lua.globals().get("__hexforge_run")?;
                let r: mlua::Result<String> = run.call(i);
                lua.globals().raw_set("__hexforge_test_game", Value::Nil)?;
                r
            })
        });
        let failure = match outcome {
            Ok(m) if m.is_empty() => None,
            Ok(m) => Some(m),
            Err(e) => Some(e.to_string()),
        };
        results.push(TestResult {
            file: shown.to_owned(),
            name,
            failure,
        });
    }
}

/// The first scenario id of the rule set (the requested mod's, else its bases'), by file name.
fn default_scenario(rules: &LuaRules) -> String {
    for m in rules.loaded().mods.iter().rev() {
        let mut ids: Vec<String> = std::fs::read_dir(m.dir.join("scenarios"))
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .filter_map(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                n.strip_suffix(".toml").map(str::to_owned)
            })
            .collect();
        ids.sort();
        if let Some(first) = ids.into_iter().next() {
            return first;
        }
    }
    String::new()
}

/// Every game of a test borrows the one loaded rule set (`Rules` is implemented for `&R`).
type TestGame<'a> = Rc<RefCell<Game<&'a LuaRules>>>;

fn plain(lua: &Lua, v: &Json) -> mlua::Result<Value> {
    crate::api::plain::json_to_lua(lua, v)
}

fn err(msg: impl Into<String>) -> mlua::Error {
    mlua::Error::runtime(msg.into())
}

/// `{ id =, side =, ...params }` -> an [`Action`].
fn action_from(lua: &Lua, t: Table) -> mlua::Result<Action> {
    let json: Json = lua
        .from_value(Value::Table(t))
        .map_err(|e| err(format!("an action is a table of plain data: {e}")))?;
    let Json::Object(mut map) = json else {
        return Err(err("an action is a table { id = ..., side = ..., ... }"));
    };
    let id = match map.remove("id") {
        Some(Json::String(s)) => s,
        _ => return Err(err("an action needs a string id")),
    };
    let side = match map.remove("side") {
        Some(Json::String(s)) => s,
        _ => return Err(err(format!("action {id}: needs a string side"))),
    };
    Ok(Action {
        id,
        side: SideId::new(side),
        params: Json::Object(map),
    })
}

/// The search bot of `g:bot("mcts", side, { iters = 50, horizon = 20, seed = 7 })`: the options
/// as `--bots mcts:...` takes them (docs/API.md section 6), seeded as in `hexforge play` unless
/// `seed` is given.
fn search_bot(
    options: Option<Value>,
    game_seed: u64,
    side: &SideId,
) -> mlua::Result<hexforge_game::mcts::MctsBot> {
    use hexforge_game::mcts::{MctsBot, MctsOptions};
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut seed = None;
    match options {
        None | Some(Value::Nil) => {}
        Some(Value::Table(t)) => {
            for pair in t.pairs::<String, Value>() {
                let (key, value) = pair?;
                let text = match &value {
                    Value::Integer(i) => i.to_string(),
                    Value::Number(x) => x.to_string(),
                    // A bot's name, `guide = "greedy"`, or `model = "seen"`.
                    Value::String(s) => s.to_string_lossy(),
                    _ => {
                        return Err(err(format!(
                            "g:bot(\"mcts\", side, options): {key} must be a number (or, for \
                             guide, a bot's name; for model, \"seen\")"
                        )));
                    }
                };
                if key == "seed" {
                    seed = Some(text.parse::<u64>().map_err(|_| {
                        err("g:bot(\"mcts\", side, options): seed must be a whole number")
                    })?);
                } else {
                    pairs.push((key, text));
                }
            }
        }
        Some(_) => {
            return Err(err(
                "g:bot(\"mcts\", side, options): options must be a table such as { iters = 50 }",
            ));
        }
    }
    // Sorted: a table's pairs come in no fixed order, and an error should name the same key.
    pairs.sort();
    let options = MctsOptions::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(err)?;
    Ok(match seed {
        Some(seed) => MctsBot::new(options, seed),
        None => MctsBot::for_game(options, game_seed, side),
    })
}

/// `t:game { .. }`: a new game of the rule set and the table of its primitives.
fn new_game<'scope, 'env>(
    lua: &Lua,
    scope: &'scope mlua::Scope<'scope, 'env>,
    rules: &'env LuaRules,
    opts: Option<Table>,
    default_scenario: &str,
) -> mlua::Result<Table> {
    let (scenario, seed, options) = match &opts {
        Some(o) => (
            o.get::<Option<String>>("scenario")?,
            o.get::<Option<u64>>("seed")?,
            match o.get::<Value>("options")? {
                Value::Nil => Json::Object(serde_json::Map::new()),
                v => lua.from_value(v)?,
            },
        ),
        None => (None, None, Json::Object(serde_json::Map::new())),
    };
    let scenario = scenario.unwrap_or_else(|| default_scenario.to_owned());
    let state = GameState::new(rules.mod_locks(), &scenario, options, seed.unwrap_or(1));
    let game = Game::new(rules, state)
        .map_err(|e| err(format!("t:game: the game does not start: {e}")))?;
    let game: TestGame<'env> = Rc::new(RefCell::new(game));
    let p = lua.create_table()?;

    macro_rules! prim {
        ($name:literal, $f:expr) => {{
            let g = Rc::clone(&game);
            #[allow(clippy::redundant_closure_call)]
            p.raw_set(
                $name,
                scope.create_function(move |lua, args: MultiValue| ($f)(lua, &g, args))?,
            )?;
        }};
    }
    let busy = |what: &str| {
        err(format!(
            "g:{what}: the game is busy (called from inside one of its own callbacks)"
        ))
    };

    prim!("try", |lua: &Lua, g: &TestGame<'env>, args: MultiValue| {
        let Some(Value::Table(t)) = args.into_iter().next() else {
            return Err(err("g:try(action): action must be a table"));
        };
        let action = action_from(lua, t)?;
        let mut game = g.try_borrow_mut().map_err(|_| busy("try"))?;
        match game.perform(&action) {
            Ok(_) => Ok(MultiValue::from_iter([Value::Boolean(true)])),
            Err(PerformError::Illegal(i)) => Ok(MultiValue::from_iter([
                Value::Boolean(false),
                Value::String(lua.create_string(&i.reason)?),
            ])),
            Err(e) => Err(err(format!("{} failed: {e}", action.id))),
        }
    });
    prim!("check", |lua: &Lua,
                    g: &TestGame<'env>,
                    args: MultiValue| {
        let Some(Value::Table(t)) = args.into_iter().next() else {
            return Err(err("g:check(action): action must be a table"));
        };
        let action = action_from(lua, t)?;
        let game = g.try_borrow().map_err(|_| busy("check"))?;
        match game.check(&action).map_err(|e| err(e.to_string()))? {
            Ok(()) => Ok(MultiValue::from_iter([Value::Boolean(true)])),
            Err(i) => Ok(MultiValue::from_iter([
                Value::Boolean(false),
                Value::String(lua.create_string(&i.reason)?),
            ])),
        }
    });
    prim!("legal", |lua: &Lua,
                    g: &TestGame<'env>,
                    args: MultiValue| {
        let side: String = match args.into_iter().next() {
            Some(Value::String(s)) => s.to_string_lossy(),
            _ => return Err(err("g:legal(side): side must be a string")),
        };
        let game = g.try_borrow().map_err(|_| busy("legal"))?;
        let actions = game
            .legal_actions(&SideId::new(side))
            .map_err(|e| err(e.to_string()))?;
        let list = lua.create_table()?;
        for a in &actions {
            list.raw_push(crate::bots::action_table(lua, a)?)?;
        }
        Ok(MultiValue::from_iter([Value::Table(list)]))
    });
    prim!("read", |lua: &Lua, g: &TestGame<'env>, args: MultiValue| {
        let mut args = args.into_iter();
        let name = match args.next() {
            Some(Value::String(s)) => s.to_string_lossy(),
            _ => return Err(err("g: unknown method")),
        };
        let rest: MultiValue = args.collect();
        let game = g.try_borrow().map_err(|_| busy(&name))?;
        rules.with_ctx(lua, Access::Read(game.state()), |_, ctx| {
            let f = match ctx.get::<Value>(name.as_str())? {
                Value::Function(f) => f,
                _ => {
                    return Err(err(format!(
                        "g:{name}: no such method (see docs/API.md section 6)"
                    )));
                }
            };
            let mut call_args = rest;
            call_args.push_front(Value::Table(ctx));
            f.call::<MultiValue>(call_args)
        })
    });
    prim!("clock", |lua: &Lua,
                    g: &TestGame<'env>,
                    _args: MultiValue| {
        let game = g.try_borrow().map_err(|_| busy("clock"))?;
        rules.with_ctx(lua, Access::Read(game.state()), |lua, ctx| {
            let t = lua.create_table()?;
            for k in ["round", "segment", "phase", "active", "acting", "label"] {
                t.raw_set(k, ctx.raw_get::<Value>(k)?)?;
            }
            Ok(MultiValue::from_iter([Value::Table(t)]))
        })
    });
    prim!("edit", |lua: &Lua, g: &TestGame<'env>, args: MultiValue| {
        let Some(Value::Function(f)) = args.into_iter().next() else {
            return Err(err("g:edit(fn): fn must be a function(ctx)"));
        };
        let mut game = g.try_borrow_mut().map_err(|_| busy("edit"))?;
        game.edit(|state| {
            rules.with_ctx(lua, Access::Write(state), |_, ctx| {
                f.call::<MultiValue>(ctx)
            })
        })
    });
    prim!("outcome", |lua: &Lua,
                      g: &TestGame<'env>,
                      _args: MultiValue| {
        let game = g.try_borrow().map_err(|_| busy("outcome"))?;
        let v = serde_json::to_value(&game.state().outcome).map_err(|e| err(e.to_string()))?;
        Ok(MultiValue::from_iter([plain(lua, &v)?]))
    });
    prim!("rolls", |lua: &Lua,
                    g: &TestGame<'env>,
                    _args: MultiValue| {
        let game = g.try_borrow().map_err(|_| busy("rolls"))?;
        let rolls = game
            .state()
            .log
            .last()
            .map(|e| e.rolls.clone())
            .unwrap_or_default();
        let v = serde_json::to_value(&rolls).map_err(|e| err(e.to_string()))?;
        Ok(MultiValue::from_iter([plain(lua, &v)?]))
    });
    prim!("log", |lua: &Lua, g: &TestGame<'env>, _args: MultiValue| {
        let game = g.try_borrow().map_err(|_| busy("log"))?;
        let v = serde_json::to_value(&game.state().log).map_err(|e| err(e.to_string()))?;
        Ok(MultiValue::from_iter([plain(lua, &v)?]))
    });
    prim!("undo", |_lua: &Lua,
                   g: &TestGame<'env>,
                   _args: MultiValue| {
        let mut game = g.try_borrow_mut().map_err(|_| busy("undo"))?;
        Ok(MultiValue::from_iter([Value::Boolean(game.undo())]))
    });
    prim!("state_hash", |lua: &Lua,
                         g: &TestGame<'env>,
                         _args: MultiValue| {
        let game = g.try_borrow().map_err(|_| busy("state_hash"))?;
        let h = hexforge_game::state_hash(game.state());
        Ok(MultiValue::from_iter([Value::String(
            lua.create_string(&h)?,
        )]))
    });
    prim!("bot", |lua: &Lua, g: &TestGame<'env>, args: MultiValue| {
        let mut args = args.into_iter();
        let (Some(Value::String(bot)), Some(Value::String(side))) = (args.next(), args.next())
        else {
            return Err(err(
                "g:bot(name, side): the bot's name and the side, as strings",
            ));
        };
        let (bot, side) = (bot.to_string_lossy(), SideId::new(side.to_string_lossy()));
        let game = g.try_borrow().map_err(|_| busy("bot"))?;
        if bot == hexforge_game::play::MCTS {
            let mut search = search_bot(args.next(), game.state().seed, &side)?;
            let choice = search
                .choose(&*game, &side)
                .map_err(|e| err(e.to_string()))?;
            return match choice {
                Some(a) => Ok(MultiValue::from_iter([crate::bots::action_table(lua, &a)?])),
                None => Ok(MultiValue::new()),
            };
        }
        let legal = game.legal_actions(&side).map_err(|e| err(e.to_string()))?;
        if legal.is_empty() {
            return Ok(MultiValue::new());
        }
        let i = crate::bots::choose(rules, game.state(), &bot, &side, &legal)
            .map_err(|e| err(e.to_string()))?;
        Ok(MultiValue::from_iter([crate::bots::action_table(
            lua, &legal[i],
        )?]))
    });
    prim!("evaluate", |_lua: &Lua,
                       g: &TestGame<'env>,
                       args: MultiValue| {
        let Some(Value::String(side)) = args.into_iter().next() else {
            return Err(err("g:evaluate(side): the side, as a string"));
        };
        let side = SideId::new(side.to_string_lossy());
        let game = g.try_borrow().map_err(|_| busy("evaluate"))?;
        let value = rules
            .run_evaluate(game.state(), &side)
            .map_err(|e| err(e.to_string()))?;
        Ok(MultiValue::from_iter([
            value.map_or(Value::Nil, Value::Number)
        ]))
    });
    prim!("waiting", |lua: &Lua,
                      g: &TestGame<'env>,
                      _args: MultiValue| {
        let game = g.try_borrow().map_err(|_| busy("waiting"))?;
        let list = lua.create_table()?;
        for s in game.waiting() {
            list.raw_push(s.as_str())?;
        }
        Ok(MultiValue::from_iter([Value::Table(list)]))
    });
    Ok(p)
}
