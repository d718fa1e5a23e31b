//! Declarations: the `game` object mods use in their entry files, and [`ModDecls`], the typed,
//! validated result Rust reads back.
//!
//! ```lua
//! game.piece_type { id = "frigate", stats = { hull = 40, adf = 3, mr = 3 }, values = { speed = 0 } }
//! game.table { id = "hit", rows = { 1, 2 }, columns = { "a", "b" }, cells = { { 1, 2 }, { 3, 4 } } }
//! game.dice { id = "battle", faces = { "fighter", "strike", "capital", "wild", "star", "alert" } }
//! game.turns { order = "fixed", phases = { { id = "move" }, { id = "fire", actor = "others" } } }
//! game.action { id = "move", phases = { "move" }, params = { piece = "piece", to = "hex" },
//!   check = function(ctx, a) return true end, apply = function(ctx, a) end }
//! game.setup(function(ctx) end)
//! game.victory(function(ctx) end)
//! game.on("round_start", function(ctx) end)
//! ```
//!
//! Each declaration records `file:line` of the declaring call. A variant mod runs after its base
//! in the same VM and edits declarations in place (`game.piece_types.frigate.stats.mr = 4`).
//! [`read_decls`] then validates everything and reports **every** problem at once.
//!
//! Callbacks stay in the VM: Rust keeps [`CallbackId`]s (indices into the loader's registry
//! keys), never Lua values, so `ModDecls` is plain data.
//!
//! This module does not run callbacks and does not know game state.

use crate::error::{ModError, SourceLoc};
use crate::manifest::is_valid_mod_id;
use hexforge_core::hex::Hex;
use hexforge_core::table::{Axis, Cell, Key, OutOfRange, Table as CoreTable};
use mlua::{Function, Lua, LuaSerdeExt, RegistryKey, Table, Value};
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// The Lua source of the `game` object.
pub const GAME_LUA: &str = include_str!("../lua/game.lua");
/// Chunk name of [`GAME_LUA`] (a `=` name: never reported as a declaration site).
pub const GAME_CHUNK: &str = "=hexforge/game.lua";

/// Engine events a mod may hook with `game.on`.
pub const HOOK_EVENTS: &[&str] = &[
    "round_start",
    "segment_start",
    "turn_start",
    "phase_start",
    "phase_end",
    "after_action",
    "turn_limit",
];
/// Phase scopes.
pub const SCOPES: &[&str] = &["turn", "segment", "round"];
/// Table lookup policies for rows / columns.
pub const POLICIES: &[&str] = &["clamp", "error", "shift_roll"];
/// Parameter kinds an action may declare.
pub const PARAM_KINDS: &[&str] = &[
    "piece",
    "hex",
    "side",
    "direction",
    "integer",
    "number",
    "string",
    "boolean",
    "path",
    "node",
    "box",
    "any",
];
/// Phase actors.
pub const ACTORS: &[&str] = &["active", "others", "each", "all"];
/// Turn orders.
pub const ORDERS: &[&str] = &["fixed", "rolled", "hook"];

/// Index of a Lua callback kept in the VM registry by the loader.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct CallbackId(pub u32);

/// A piece type.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PieceTypeDecl {
    /// Id.
    pub id: String,
    /// Fixed statistics (hull, adf, ...).
    pub stats: BTreeMap<String, Json>,
    /// Initial per-piece values (mutable in play).
    pub values: BTreeMap<String, Json>,
    /// Footprint offsets from the anchor with facing N (empty = the anchor hex only).
    pub footprint: Vec<Hex>,
    /// Every other field, as data.
    pub extra: BTreeMap<String, Json>,
    /// Where it was declared.
    pub source: SourceLoc,
}

/// A rule table.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TableDecl {
    /// Id.
    pub id: String,
    /// Row headings.
    pub rows: Vec<Json>,
    /// Column headings.
    pub columns: Vec<Json>,
    /// `cells[row][column]`, rectangular.
    pub cells: Vec<Vec<Json>>,
    /// Row policy: clamp or error.
    pub row_policy: String,
    /// Column policy: clamp, error or shift_roll.
    pub column_policy: String,
    /// The dice that roll this table's rows (`"2d6"`, `"1d10+1"`, `"3d[battle]"`), when the
    /// table is rolled on; the editor shows each cell's exact odds for it. `None` for tables
    /// looked up by a count or a name.
    pub roll: Option<String>,
    /// The core table built from this declaration (what `ctx:lookup` consults); always present
    /// once [`read_decls`] succeeded.
    #[serde(skip)]
    pub table: Option<CoreTable>,
    /// Where it was declared.
    pub source: SourceLoc,
}

/// A terrain type (name/colour for the editor, other fields free data).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TerrainDecl {
    /// Id.
    pub id: String,
    /// All fields as data.
    pub data: BTreeMap<String, Json>,
    /// Where it was declared.
    pub source: SourceLoc,
}

/// A die: either notation (`"2d6"`) or custom faces.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct DiceDecl {
    /// Id.
    pub id: String,
    /// Dice notation, when given.
    pub notation: Option<String>,
    /// Custom faces, when given.
    pub faces: Vec<String>,
    /// Where it was declared.
    pub source: SourceLoc,
}

/// A board declaration (kept as data until the core board types land).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BoardDecl {
    /// Id.
    pub id: String,
    /// All fields as data.
    pub data: BTreeMap<String, Json>,
    /// Where it was declared.
    pub source: SourceLoc,
}

/// One phase of a turn.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PhaseDecl {
    /// Id.
    pub id: String,
    /// Who acts: active, others, each, all.
    pub actor: String,
    /// Scope: turn, segment or round.
    pub scope: String,
}

/// The turn structure.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TurnsDecl {
    /// fixed, rolled or hook.
    pub order: String,
    /// Die (notation or dice id) for rolled order.
    pub die: Option<String>,
    /// Rolled order: roll again at every round (`true`, the default) or once at the start.
    pub every_round: bool,
    /// Teams complete phases together.
    pub teams: bool,
    /// Phases in order.
    pub phases: Vec<PhaseDecl>,
    /// Segments per round (>= 1).
    pub segments: u32,
    /// Time-track labels cycling by round.
    pub time_track: Option<Vec<String>>,
    /// Last round, if limited.
    pub turn_limit: Option<u32>,
    /// Where it was declared.
    pub source: SourceLoc,
}

/// An action type.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ActionDecl {
    /// Id.
    pub id: String,
    /// Phases it is allowed in (empty = any).
    pub phases: Vec<String>,
    /// Parameter name -> kind.
    pub params: BTreeMap<String, String>,
    /// `choices(ctx, side)` listing legal actions.
    pub choices: Option<CallbackId>,
    /// `check(ctx, a)` returning true or a reason.
    pub check: Option<CallbackId>,
    /// `apply(ctx, a)` (absent only for `end_phase`, which may declare just a `check`).
    pub apply: Option<CallbackId>,
    /// Where it was declared.
    pub source: SourceLoc,
}

/// A hook callback.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct HookDecl {
    /// The callback.
    pub callback: CallbackId,
    /// `game.on(event, { phases = ... }, fn)`: called only for these phases (phase_start and
    /// phase_end); empty = every phase.
    pub phases: Vec<String>,
    /// `game.on(event, { actions = ... }, fn)`: called only after these actions
    /// (after_action); empty = every action.
    pub actions: Vec<String>,
    /// Where it was declared.
    pub source: SourceLoc,
}

/// Everything a rule set declared, validated.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct ModDecls {
    /// Piece types by id.
    pub piece_types: BTreeMap<String, PieceTypeDecl>,
    /// Tables by id.
    pub tables: BTreeMap<String, TableDecl>,
    /// Dice by id.
    pub dice: BTreeMap<String, DiceDecl>,
    /// Boards by id.
    pub boards: BTreeMap<String, BoardDecl>,
    /// Terrain types by id.
    pub terrains: BTreeMap<String, TerrainDecl>,
    /// The turn structure.
    pub turns: Option<TurnsDecl>,
    /// Actions by id.
    pub actions: BTreeMap<String, ActionDecl>,
    /// Setup callback.
    pub setup: Option<CallbackId>,
    /// Victory callback.
    pub victory: Option<CallbackId>,
    /// Hooks by event, in declaration order.
    pub hooks: BTreeMap<String, Vec<HookDecl>>,
}

/// Installs the `game` global and returns the handles Rust reads back later.
///
/// # Errors
/// Out of memory.
pub fn install_game(lua: &Lua) -> mlua::Result<(Table, Table, Table)> {
    let where_fn = lua.create_function(|lua, ()| Ok(caller_location(lua).to_string()))?;
    let (game, problems, sources): (Table, Table, Table) = lua
        .load(GAME_LUA)
        .set_name(GAME_CHUNK)
        .set_mode(mlua::chunk::ChunkMode::Text)
        .call(where_fn)?;
    lua.globals().raw_set("game", &game)?;
    Ok((game, problems, sources))
}

/// The innermost Lua frame that belongs to a real file (`@...` chunk name).
#[must_use]
pub fn caller_location(lua: &Lua) -> SourceLoc {
    for level in 1..64 {
        let found = lua.inspect_stack(level, |d| {
            let src = d.source();
            let name = src.source.as_deref().unwrap_or("");
            name.strip_prefix('@').map(|file| SourceLoc {
                file: file.to_string(),
                line: d.current_line().unwrap_or(0) as u32,
            })
        });
        match found {
            None => break,
            Some(Some(loc)) => return loc,
            Some(None) => {}
        }
    }
    SourceLoc::default()
}

/// Reports a hook filter that names what the event never carries or what was not declared.
fn check_hook_filter(
    r: &mut Reader<'_>,
    loc: &SourceLoc,
    what: &str,
    event: &str,
    phases: &[String],
    actions: &[String],
    d: &ModDecls,
) {
    let phase_event = matches!(event, "phase_start" | "phase_end");
    if !phases.is_empty() && !phase_event {
        r.err(
            loc,
            format!("{what}: a phases filter applies only to phase_start and phase_end"),
        );
    }
    if !actions.is_empty() && event != "after_action" {
        r.err(
            loc,
            format!("{what}: an actions filter applies only to after_action"),
        );
    }
    let declared: Vec<&str> = d
        .turns
        .as_ref()
        .map(|t| t.phases.iter().map(|p| p.id.as_str()).collect())
        .unwrap_or_default();
    for p in phases
        .iter()
        .filter(|p| phase_event && !declared.contains(&p.as_str()))
    {
        r.err(
            loc,
            format!(
                "{what}: phase {p:?} is not declared in game.turns (phases: {})",
                declared.join(", ")
            ),
        );
    }
    for a in actions {
        let known = a == "end_phase" || d.actions.contains_key(a);
        if event == "after_action" && !known {
            r.err(
                loc,
                format!(
                    "{what}: action {a:?} is not declared (actions: {})",
                    d.actions.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            );
        }
    }
}

struct Reader<'a> {
    lua: &'a Lua,
    errs: Vec<ModError>,
    callbacks: Vec<RegistryKey>,
}

impl Reader<'_> {
    fn err(&mut self, loc: &SourceLoc, msg: String) {
        self.errs.push(ModError::at_loc(loc, msg));
    }

    fn callback(
        &mut self,
        v: Value,
        loc: &SourceLoc,
        what: &str,
        required: bool,
    ) -> Option<CallbackId> {
        match v {
            Value::Function(f) => self.keep(f, loc, what),
            Value::Nil if !required => None,
            Value::Nil => {
                self.err(loc, format!("{what}: missing; give a function"));
                None
            }
            other => {
                self.err(
                    loc,
                    format!("{what}: expected a function, got {}", other.type_name()),
                );
                None
            }
        }
    }

    fn keep(&mut self, f: Function, loc: &SourceLoc, what: &str) -> Option<CallbackId> {
        match self.lua.create_registry_value(f) {
            Ok(k) => {
                self.callbacks.push(k);
                Some(CallbackId(self.callbacks.len() as u32 - 1))
            }
            Err(e) => {
                self.err(loc, format!("{what}: {e}"));
                None
            }
        }
    }

    fn json(&mut self, v: Value, loc: &SourceLoc, what: &str) -> Json {
        if v.is_nil() {
            return Json::Null;
        }
        match self.lua.from_value::<Json>(v) {
            Ok(j) => j,
            Err(e) => {
                self.err(
                    loc,
                    format!("{what}: must be plain data (numbers, strings, booleans, tables): {e}"),
                );
                Json::Null
            }
        }
    }

    fn map(&mut self, v: Value, loc: &SourceLoc, what: &str) -> BTreeMap<String, Json> {
        match self.json(v, loc, what) {
            Json::Null => BTreeMap::new(),
            Json::Object(m) => m.into_iter().collect(),
            Json::Array(a) if a.is_empty() => BTreeMap::new(),
            _ => {
                self.err(loc, format!("{what}: expected a table of name = value"));
                BTreeMap::new()
            }
        }
    }

    fn list(&mut self, v: Value, loc: &SourceLoc, what: &str) -> Vec<Json> {
        match self.json(v, loc, what) {
            Json::Null => Vec::new(),
            Json::Array(a) => a,
            Json::Object(m) if m.is_empty() => Vec::new(),
            _ => {
                self.err(loc, format!("{what}: expected a list {{ ... }}"));
                Vec::new()
            }
        }
    }

    fn strings(&mut self, v: Value, loc: &SourceLoc, what: &str) -> Vec<String> {
        let list = self.list(v, loc, what);
        let mut out = Vec::new();
        for (i, j) in list.into_iter().enumerate() {
            match j {
                Json::String(s) => out.push(s),
                other => self.err(
                    loc,
                    format!("{what}[{}]: expected a string, got {other}", i + 1),
                ),
            }
        }
        out
    }
}

fn loc_of(sources: &Table, kind: &str, id: &str) -> SourceLoc {
    sources
        .raw_get::<Option<Table>>(kind)
        .ok()
        .flatten()
        .and_then(|t| t.raw_get::<Option<String>>(id).ok().flatten())
        .map(|s| SourceLoc::parse(&s))
        .unwrap_or_default()
}

/// Entries of a declaration collection sorted by id; non-table entries are reported.
fn entries(
    r: &mut Reader<'_>,
    game: &Table,
    sources: &Table,
    plural: &str,
) -> Vec<(String, Table, SourceLoc)> {
    let mut out = Vec::new();
    let Ok(Some(coll)) = game.raw_get::<Option<Table>>(plural) else {
        return out;
    };
    for pair in coll.pairs::<Value, Value>() {
        let Ok((k, v)) = pair else { continue };
        let id = match &k {
            Value::String(s) => s.to_string_lossy(),
            other => {
                r.err(
                    &SourceLoc::default(),
                    format!(
                        "game.{plural}: keys must be ids (strings), found a {}",
                        other.type_name()
                    ),
                );
                continue;
            }
        };
        let loc = loc_of(sources, plural, &id);
        match v {
            Value::Table(t) => out.push((id, t, loc)),
            other => r.err(
                &loc,
                format!(
                    "game.{plural}.{id}: expected a table, got {}",
                    other.type_name()
                ),
            ),
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn check_id(r: &mut Reader<'_>, loc: &SourceLoc, what: &str, id: &str, t: &Table) {
    if !is_valid_mod_id(&id.replace('_', "-")) {
        r.err(loc, format!("{what} id {id:?}: use lowercase letters, digits, '_' and '-', starting with a letter"));
    }
    if let Ok(Some(inner)) = t.raw_get::<Option<String>>("id")
        && inner != id
    {
        r.err(
            loc,
            format!("{what} stored under {id:?} but its id field says {inner:?}; make them equal"),
        );
    }
}

/// Whether `s` is dice notation the core's parser accepts (`2d6`, `1d10+1`, `4d6kh3`, ...).
#[must_use]
pub fn valid_notation(s: &str) -> bool {
    hexforge_core::dice::DiceExpr::parse(s.trim()).is_ok_and(|e| !e.is_named())
}

/// The sides of `s` when it is exactly one numeric die (`d6`, `1d10`), else `None`.
#[must_use]
pub fn single_die_sides(s: &str) -> Option<u32> {
    use hexforge_core::dice::{Die, Part};
    let expr = hexforge_core::dice::DiceExpr::parse(s.trim()).ok()?;
    match expr.terms() {
        [term] if !term.negative => match &term.part {
            Part::Dice(g) if g.count() == 1 && g.keep().is_none() => match g.die() {
                Die::Numeric(sides) => Some(*sides),
                Die::Named(_) => None,
            },
            _ => None,
        },
        _ => None,
    }
}

/// Reads the declaration table after every entry file ran, validating everything.
///
/// Returns the declarations and the registry keys of their callbacks, or every problem.
///
/// # Errors
/// All problems, each `file:line: message`.
pub fn read_decls(
    lua: &Lua,
    game: &Table,
    problems: &Table,
    sources: &Table,
) -> Result<(ModDecls, Vec<RegistryKey>), Vec<ModError>> {
    let mut r = Reader {
        lua,
        errs: Vec::new(),
        callbacks: Vec::new(),
    };
    for p in problems.sequence_values::<Table>().flatten() {
        let loc: String = p.raw_get(1).unwrap_or_default();
        let msg: String = p.raw_get(2).unwrap_or_default();
        r.err(&SourceLoc::parse(&loc), msg);
    }
    let mut d = ModDecls::default();

    for (id, t, loc) in entries(&mut r, game, sources, "piece_types") {
        check_id(&mut r, &loc, "piece type", &id, &t);
        let mut extra = BTreeMap::new();
        for pair in t.pairs::<String, Value>().flatten() {
            if !["id", "stats", "values", "footprint"].contains(&pair.0.as_str()) {
                let j = r.json(pair.1, &loc, &format!("piece type {id}: {}", pair.0));
                extra.insert(pair.0, j);
            }
        }
        let stats = r.map(
            t.raw_get("stats").unwrap_or(Value::Nil),
            &loc,
            &format!("piece type {id}: stats"),
        );
        let values = r.map(
            t.raw_get("values").unwrap_or(Value::Nil),
            &loc,
            &format!("piece type {id}: values"),
        );
        let mut footprint = Vec::new();
        for (i, j) in r
            .list(
                t.raw_get("footprint").unwrap_or(Value::Nil),
                &loc,
                &format!("piece type {id}: footprint"),
            )
            .into_iter()
            .enumerate()
        {
            match serde_json::from_value::<Hex>(j) {
                Ok(h) if h.q.abs() < 64 && h.r.abs() < 64 => footprint.push(h),
                _ => r.err(
                    &loc,
                    format!(
                        "piece type {id}: footprint[{}]: expected a small offset {{q=, r=}}",
                        i + 1
                    ),
                ),
            }
        }
        d.piece_types.insert(
            id.clone(),
            PieceTypeDecl {
                id,
                stats,
                values,
                footprint,
                extra,
                source: loc,
            },
        );
    }

    for (id, t, loc) in entries(&mut r, game, sources, "tables") {
        check_id(&mut r, &loc, "table", &id, &t);
        let what = format!("table {id}");
        let rows = r.list(
            t.raw_get("rows").unwrap_or(Value::Nil),
            &loc,
            &format!("{what}: rows"),
        );
        let columns = r.list(
            t.raw_get("columns").unwrap_or(Value::Nil),
            &loc,
            &format!("{what}: columns"),
        );
        let raw_cells = r.list(
            t.raw_get("cells").unwrap_or(Value::Nil),
            &loc,
            &format!("{what}: cells"),
        );
        if rows.is_empty() || columns.is_empty() {
            r.err(&loc, format!("{what}: needs non-empty rows and columns"));
        }
        if raw_cells.len() != rows.len() {
            r.err(
                &loc,
                format!(
                    "{what}: {} rows of cells for {} row headings; give one list of cells per row",
                    raw_cells.len(),
                    rows.len()
                ),
            );
        }
        let mut cells = Vec::new();
        for (i, row) in raw_cells.into_iter().enumerate() {
            match row {
                Json::Array(c) => {
                    if c.len() != columns.len() {
                        r.err(&loc, format!("{what}: row {} has {} cells but there are {} columns (tables must be rectangular)", i + 1, c.len(), columns.len()));
                    }
                    cells.push(c);
                }
                _ => r.err(
                    &loc,
                    format!("{what}: cells[{}] must be a list of cells", i + 1),
                ),
            }
        }
        let mut policy = |key: &str, allowed: &[&str]| -> String {
            let p: String = t
                .raw_get::<Option<String>>(key)
                .ok()
                .flatten()
                .unwrap_or_else(|| "error".into());
            if !allowed.contains(&p.as_str()) {
                r.err(
                    &loc,
                    format!("{what}: {key} {p:?} is not one of {}", allowed.join(", ")),
                );
            }
            p
        };
        let row_policy = policy("row_policy", &POLICIES[..2]);
        let column_policy = policy("column_policy", POLICIES);
        let roll = match t.raw_get::<Value>("roll") {
            Ok(Value::Nil) => None,
            Ok(Value::String(s)) => {
                let text = s.to_string_lossy();
                if let Err(e) = hexforge_core::dice::DiceExpr::parse(text.trim()) {
                    r.err(
                        &loc,
                        format!(
                            "{what}: roll {text:?} is not dice notation ({e}); write e.g. \"2d6\""
                        ),
                    );
                }
                Some(text.trim().to_owned())
            }
            _ => {
                r.err(
                    &loc,
                    format!("{what}: roll must be dice notation text such as \"2d6\""),
                );
                None
            }
        };
        let table = if r
            .errs
            .iter()
            .any(|e| e.message.starts_with(&format!("{what}:")))
        {
            None
        } else {
            match build_table(&id, &rows, &columns, &cells, &row_policy, &column_policy) {
                Ok(t) => Some(t),
                Err(m) => {
                    r.err(&loc, format!("{what}: {m}"));
                    None
                }
            }
        };
        d.tables.insert(
            id.clone(),
            TableDecl {
                id,
                rows,
                columns,
                cells,
                row_policy,
                column_policy,
                roll,
                table,
                source: loc,
            },
        );
    }

    for (id, t, loc) in entries(&mut r, game, sources, "dice_types") {
        check_id(&mut r, &loc, "dice", &id, &t);
        let notation: Option<String> = t.raw_get("notation").ok().flatten();
        let faces = r.strings(
            t.raw_get("faces").unwrap_or(Value::Nil),
            &loc,
            &format!("dice {id}: faces"),
        );
        match (&notation, faces.is_empty()) {
            (Some(n), true) if !valid_notation(n) => r.err(
                &loc,
                format!(
                    "dice {id}: notation {n:?} does not parse; write e.g. \"2d6\" or \"1d10+1\""
                ),
            ),
            (Some(_), false) => r.err(
                &loc,
                format!("dice {id}: give either notation or faces, not both"),
            ),
            (None, true) => r.err(
                &loc,
                format!("dice {id}: needs notation = \"2d6\" or faces = {{ ... }}"),
            ),
            _ => {}
        }
        d.dice.insert(
            id.clone(),
            DiceDecl {
                id,
                notation,
                faces,
                source: loc,
            },
        );
    }

    for (id, t, loc) in entries(&mut r, game, sources, "boards") {
        check_id(&mut r, &loc, "board", &id, &t);
        let data = r.map(Value::Table(t), &loc, &format!("board {id}"));
        d.boards.insert(
            id.clone(),
            BoardDecl {
                id,
                data,
                source: loc,
            },
        );
    }

    for (id, t, loc) in entries(&mut r, game, sources, "terrains") {
        check_id(&mut r, &loc, "terrain", &id, &t);
        let data = r.map(Value::Table(t), &loc, &format!("terrain {id}"));
        d.terrains.insert(
            id.clone(),
            TerrainDecl {
                id,
                data,
                source: loc,
            },
        );
    }

    let turns_loc = sources
        .raw_get::<Option<String>>("turns")
        .ok()
        .flatten()
        .map(|s| SourceLoc::parse(&s))
        .unwrap_or_default();
    if let Ok(Some(t)) = game.raw_get::<Option<Table>>("turn") {
        d.turns = Some(read_turns(&mut r, &t, &turns_loc, &d));
    }

    let phase_ids: Vec<String> = d
        .turns
        .as_ref()
        .map(|t| t.phases.iter().map(|p| p.id.clone()).collect())
        .unwrap_or_default();
    for (id, t, loc) in entries(&mut r, game, sources, "actions") {
        check_id(&mut r, &loc, "action", &id, &t);
        let phases = r.strings(
            t.raw_get("phases").unwrap_or(Value::Nil),
            &loc,
            &format!("action {id}: phases"),
        );
        for p in &phases {
            if !phase_ids.contains(p) {
                r.err(
                    &loc,
                    format!(
                        "action {id}: phase {p:?} is not declared in game.turns (phases: {})",
                        phase_ids.join(", ")
                    ),
                );
            }
        }
        let mut params = BTreeMap::new();
        for (name, kind) in r.map(
            t.raw_get("params").unwrap_or(Value::Nil),
            &loc,
            &format!("action {id}: params"),
        ) {
            match kind.as_str() {
                Some(k) if PARAM_KINDS.contains(&k) => {
                    params.insert(name, k.to_string());
                }
                _ => r.err(
                    &loc,
                    format!(
                        "action {id}: param {name}: kind {kind} is not one of {}",
                        PARAM_KINDS.join(", ")
                    ),
                ),
            }
        }
        let choices = r.callback(
            t.raw_get("choices").unwrap_or(Value::Nil),
            &loc,
            &format!("action {id}: choices"),
            false,
        );
        let check = r.callback(
            t.raw_get("check").unwrap_or(Value::Nil),
            &loc,
            &format!("action {id}: check"),
            false,
        );
        let is_end_phase = id == "end_phase";
        let apply_v: Value = t.raw_get("apply").unwrap_or(Value::Nil);
        if is_end_phase && !apply_v.is_nil() {
            r.err(
                &loc,
                "action end_phase is the engine's: declare only a check (and phases) to refuse it"
                    .into(),
            );
        }
        let apply = r.callback(apply_v, &loc, &format!("action {id}: apply"), !is_end_phase);
        if apply.is_some() || is_end_phase {
            d.actions.insert(
                id.clone(),
                ActionDecl {
                    id,
                    phases,
                    params,
                    choices,
                    check,
                    apply,
                    source: loc,
                },
            );
        }
    }

    for (field, key) in [("setup_fn", "setup"), ("victory_fn", "victory")] {
        let loc = sources
            .raw_get::<Option<String>>(key)
            .ok()
            .flatten()
            .map(|s| SourceLoc::parse(&s))
            .unwrap_or_default();
        let cb = r.callback(
            game.raw_get(field).unwrap_or(Value::Nil),
            &loc,
            &format!("game.{key}"),
            false,
        );
        if key == "setup" {
            d.setup = cb
        } else {
            d.victory = cb
        }
    }

    if let Ok(Some(hooks)) = game.raw_get::<Option<Table>>("hooks") {
        let hook_sources: Option<Table> = sources.raw_get("hooks").ok().flatten();
        let mut events: Vec<(String, Table)> = hooks.pairs::<String, Table>().flatten().collect();
        events.sort_by(|a, b| a.0.cmp(&b.0));
        for (event, list) in events {
            let locs: Option<Table> = hook_sources
                .as_ref()
                .and_then(|s| s.raw_get(event.as_str()).ok().flatten());
            let n = list.raw_len();
            for i in 1..=n {
                let loc = locs
                    .as_ref()
                    .and_then(|l| l.raw_get::<Option<String>>(i).ok().flatten())
                    .map(|s| SourceLoc::parse(&s))
                    .unwrap_or_default();
                if !HOOK_EVENTS.contains(&event.as_str()) {
                    r.err(
                        &loc,
                        format!(
                            "game.on: unknown event {event:?}; events are {}",
                            HOOK_EVENTS.join(", ")
                        ),
                    );
                    continue;
                }
                let what = format!("game.on({event:?})");
                // A plain function, or { fn = ..., phases = ..., actions = ... } (a filter).
                let (f, phases, actions) = match list.raw_get(i).unwrap_or(Value::Nil) {
                    Value::Table(t) => {
                        let phases = r.strings(
                            t.raw_get("phases").unwrap_or(Value::Nil),
                            &loc,
                            &format!("{what}: phases"),
                        );
                        let actions = r.strings(
                            t.raw_get("actions").unwrap_or(Value::Nil),
                            &loc,
                            &format!("{what}: actions"),
                        );
                        (t.raw_get("fn").unwrap_or(Value::Nil), phases, actions)
                    }
                    other => (other, Vec::new(), Vec::new()),
                };
                check_hook_filter(&mut r, &loc, &what, &event, &phases, &actions, &d);
                if let Some(cb) = r.callback(f, &loc, &what, true) {
                    d.hooks.entry(event.clone()).or_default().push(HookDecl {
                        callback: cb,
                        phases,
                        actions,
                        source: loc,
                    });
                }
            }
        }
    }

    if r.errs.is_empty() {
        Ok((d, r.callbacks))
    } else {
        r.errs.sort();
        r.errs.dedup();
        Err(r.errs)
    }
}

/// Builds the core table of a declaration, with the core's checks (sorted, non-overlapping
/// numeric keys, no mixed names and numbers, shift_roll only with numeric rows, ...).
fn build_table(
    id: &str,
    rows: &[Json],
    columns: &[Json],
    cells: &[Vec<Json>],
    row_policy: &str,
    column_policy: &str,
) -> Result<CoreTable, String> {
    fn policy(p: &str) -> OutOfRange {
        match p {
            "clamp" => OutOfRange::Clamp,
            "shift_roll" => OutOfRange::ShiftRoll,
            _ => OutOfRange::Error,
        }
    }
    let axis = |name: &str, heads: &[Json], p: &str| -> Result<Axis, String> {
        let mut keys = Vec::new();
        for (i, h) in heads.iter().enumerate() {
            let text = match h {
                Json::String(s) => s.clone(),
                Json::Number(n) if n.is_i64() => n.to_string(),
                other => {
                    return Err(format!(
                        "{name}[{}]: a heading is a string or an integer, got {other}",
                        i + 1
                    ));
                }
            };
            let key: Key = text
                .parse()
                .map_err(|e| format!("{name}[{}]: {e}", i + 1))?;
            keys.push(key);
        }
        Ok(Axis::new(name, keys, policy(p)))
    };
    let mut grid = Vec::with_capacity(cells.len());
    for (i, row) in cells.iter().enumerate() {
        let mut out = Vec::with_capacity(row.len());
        for (j, c) in row.iter().enumerate() {
            out.push(match c {
                Json::String(s) => Cell::Id(s.clone()),
                Json::Number(n) if n.is_i64() => Cell::Value(n.as_i64().unwrap_or(0)),
                other => {
                    return Err(format!(
                        "cells[{}][{}]: a cell is a string or an integer, got {other}",
                        i + 1,
                        j + 1
                    ));
                }
            });
        }
        grid.push(out);
    }
    CoreTable::new(
        id,
        axis("rows", rows, row_policy)?,
        axis("columns", columns, column_policy)?,
        grid,
    )
    .map_err(|e| e.to_string())
}

fn read_turns(r: &mut Reader<'_>, t: &Table, loc: &SourceLoc, d: &ModDecls) -> TurnsDecl {
    let order: String = t
        .raw_get::<Option<String>>("order")
        .ok()
        .flatten()
        .unwrap_or_else(|| "fixed".into());
    if !ORDERS.contains(&order.as_str()) {
        r.err(
            loc,
            format!(
                "game.turns: order {order:?} is not one of {}",
                ORDERS.join(", ")
            ),
        );
    }
    let die: Option<String> = t.raw_get("die").ok().flatten();
    if order == "rolled" {
        match &die {
            None => r.err(
                loc,
                "game.turns: order \"rolled\" needs die = \"1d6\" (or a dice id)".into(),
            ),
            Some(x) if d.dice.contains_key(x.as_str()) => {}
            Some(x) if single_die_sides(x).is_none() => {
                r.err(
                    loc,
                    format!(
                        "game.turns: die {x:?} must be one die such as \"d6\" or \"d10\", or a \
                         declared dice id (play order goes to the highest single roll)"
                    ),
                );
            }
            _ => {}
        }
    }
    let teams = t
        .raw_get::<Option<bool>>("teams")
        .ok()
        .flatten()
        .unwrap_or(false);
    let mut phases: Vec<PhaseDecl> = Vec::new();
    match t.raw_get::<Value>("phases") {
        Ok(Value::Table(list)) => {
            for (i, p) in list.sequence_values::<Value>().enumerate() {
                let Ok(Value::Table(p)) = p else {
                    r.err(
                        loc,
                        format!(
                            "game.turns: phases[{}] must be a table {{ id = \"move\" }}",
                            i + 1
                        ),
                    );
                    continue;
                };
                let id: Option<String> = p.raw_get("id").ok().flatten();
                let actor: String = p
                    .raw_get::<Option<String>>("actor")
                    .ok()
                    .flatten()
                    .unwrap_or_else(|| "active".into());
                let Some(id) = id else {
                    r.err(loc, format!("game.turns: phases[{}] needs an id", i + 1));
                    continue;
                };
                let scope: String = p
                    .raw_get::<Option<String>>("scope")
                    .ok()
                    .flatten()
                    .unwrap_or_else(|| "turn".into());
                if !SCOPES.contains(&scope.as_str()) {
                    r.err(
                        loc,
                        format!(
                            "game.turns: phase {id}: scope {scope:?} is not one of {}",
                            SCOPES.join(", ")
                        ),
                    );
                }
                if !ACTORS.contains(&actor.as_str()) {
                    r.err(
                        loc,
                        format!(
                            "game.turns: phase {id}: actor {actor:?} is not one of {}",
                            ACTORS.join(", ")
                        ),
                    );
                }
                if phases.iter().any(|q| q.id == id) {
                    r.err(loc, format!("game.turns: phase id {id:?} appears twice"));
                }
                phases.push(PhaseDecl { id, actor, scope });
            }
        }
        _ => r.err(
            loc,
            "game.turns: needs phases = { { id = \"move\" }, ... }".into(),
        ),
    }
    if phases.is_empty() {
        r.err(loc, "game.turns: at least one phase is needed".into());
    }
    let segments = match t.raw_get::<Option<i64>>("segments") {
        Ok(None) => 1,
        Ok(Some(n)) if (1..=1000).contains(&n) => n as u32,
        _ => {
            r.err(
                loc,
                "game.turns: segments must be an integer 1..1000".into(),
            );
            1
        }
    };
    let time_track = match t.raw_get::<Value>("time_track") {
        Ok(Value::Nil) => None,
        Ok(v) => {
            let s = r.strings(v, loc, "game.turns: time_track");
            if s.is_empty() {
                r.err(
                    loc,
                    "game.turns: time_track must list at least one label".into(),
                );
            }
            Some(s)
        }
        Err(_) => None,
    };
    let turn_limit = match t.raw_get::<Option<i64>>("turn_limit") {
        Ok(None) => None,
        Ok(Some(n)) if (1..=100_000).contains(&n) => Some(n as u32),
        _ => {
            r.err(
                loc,
                "game.turns: turn_limit must be a positive integer".into(),
            );
            None
        }
    };
    let every_round = t
        .raw_get::<Option<bool>>("every_round")
        .ok()
        .flatten()
        .unwrap_or(true);
    TurnsDecl {
        order,
        die,
        every_round,
        teams,
        phases,
        segments,
        time_track,
        turn_limit,
        source: loc.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::{single_die_sides, valid_notation};

    #[test]
    fn notation() {
        for ok in ["2d6", "d6", "1d10+1", "3d6-2", " 1d20 ", "4d6kh3"] {
            assert!(valid_notation(ok), "{ok}");
        }
        for bad in ["", "d", "2d", "2x6", "d0", "1d6+", "1d6+x", "99999d6"] {
            assert!(!valid_notation(bad), "{bad}");
        }
    }

    #[test]
    fn a_play_order_die_is_exactly_one_die() {
        assert_eq!(single_die_sides("d6"), Some(6));
        assert_eq!(single_die_sides(" 1d10 "), Some(10));
        for not_one in ["2d6", "1d6+1", "d6-1", "-d6", "4d6kh3", "3", "x"] {
            assert_eq!(single_die_sides(not_one), None, "{not_one}");
        }
    }
}
