//! Pieces and sides as Lua tables: snapshot templates kept per piece while it is unchanged
//! (shared read-only in check, choices and victory, fresh copies where the rules may write),
//! light rows with only the fields a `ctx:pieces { fields = ... }` lists, and side tables.

use super::*;

/// A piece's cached snapshot template and, shared inside it, the template of its `values`.
pub(super) struct Snapshot {
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
pub(super) type LightFields = Vec<(String, Light)>;

/// A position as plain data: `{ q =, r = }`, `{ location =, slot = }` or `{ box = }`.
pub(super) fn position_json(p: &Position) -> Json {
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
pub(super) fn stats_templates(
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
pub(super) fn piece_template(
    lua: &Lua,
    rules: &LuaRules,
    state: &GameState,
    id: PieceId,
) -> mlua::Result<Option<Frozen>> {
    Ok(snapshot(lua, rules, state, id)?.map(|(full, _)| full))
}

/// The snapshot template of a piece and the template of its `values` (see [`piece_template`]).
pub(super) fn snapshot(
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
    // The same keys as before (the same type and owner, a facing in both or neither, where it
    // was or moved between hexes): the whole snapshot is the old one with what changed set (the
    // usual case: an action changes a few numbers of a record, or moves the piece).
    let same_keys = |o: &Piece| {
        o.kind == p.kind
            && o.owner == p.owner
            && o.facing.is_some() == p.facing.is_some()
            && (o.pos == p.pos || matches!((&o.pos, &p.pos), (Position::Hex(_), Position::Hex(_))))
    };
    let kept = old
        .as_ref()
        .filter(|o| same_keys(&o.piece))
        .map(|o| (o.full.clone(), o.piece.pos.clone(), o.piece.facing));
    let (values, parts) = match old {
        Some(o) if o.piece.values == p.values => (o.values, o.parts),
        o => rules.templates.freeze_object(
            lua,
            &p.values,
            o.as_ref().map(|o| (&*o.piece.values, &o.parts, &o.values)),
        )?,
    };
    let full = match kept {
        Some((full, pos, facing)) => {
            let key = |s: &str| rules.templates.string(lua, s);
            let mut pairs = vec![key("values")?, values.as_value()];
            if let (true, Some(h)) = (pos != p.pos, p.pos.hex()) {
                let h = serde_json::json!({ "q": h.q, "r": h.r });
                pairs.extend([key("hex")?, json_to_lua(lua, &h)?]);
                pairs.extend([key("position")?, json_to_lua(lua, &h)?]);
            }
            if let (true, Some(f)) = (facing != p.facing, p.facing) {
                pairs.extend([key("facing")?, Value::Integer(i64::from(f.index()))]);
            }
            rules.templates.patch_fields(lua, &full, pairs)?
        }
        None => full_snapshot(lua, rules, p, &values)?,
    };
    Ok(Some(keep_snapshot(rules, state, p, full, values, parts)))
}

/// Caches `p`'s new snapshot (see [`snapshot`]) and returns it with its `values`.
pub(super) fn keep_snapshot(
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
pub(super) fn full_snapshot(
    lua: &Lua,
    rules: &LuaRules,
    p: &Piece,
    values: &Frozen,
) -> mlua::Result<Frozen> {
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
pub(super) fn same_shared(a: &Piece, b: &Piece) -> bool {
    same_place(a, b) && same_values(a, b)
}

/// Whether `a` and `b` are the same piece of the same type and owner, where and as it was.
pub(super) fn same_place(a: &Piece, b: &Piece) -> bool {
    a.id == b.id && a.kind == b.kind && a.owner == b.owner && a.pos == b.pos && a.facing == b.facing
}

/// Whether `a` and `b` share one `values` (values are shared until changed).
pub(super) fn same_values(a: &Piece, b: &Piece) -> bool {
    Arc::ptr_eq(&a.values, &b.values)
}

/// A fresh snapshot table of a piece (nil if there is no such piece).
/// A piece's snapshot (nil if there is no such piece): the shared read-only table when
/// `shared` (check, choices, victory, bots), else a fresh copy (apply, setup, hooks).
pub(super) fn piece_table(
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
pub(super) fn piece_tables(
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
pub(super) const LIGHT: [(&str, Light); 8] = [
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
pub(super) fn light_fields(v: Value) -> mlua::Result<Option<Vec<(String, Light)>>> {
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
pub(super) fn light_tables(
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
pub(super) fn row_spec(
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
pub(super) fn row_values(
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
pub(super) fn frozen_cell(t: &Templates, f: Option<&Frozen>, shared: bool) -> mlua::Result<Value> {
    Ok(match f {
        Some(f) if shared => Value::Table(t.share(f)?),
        Some(f) => f.as_value(),
        None if shared => Value::Nil,
        None => Value::Boolean(false),
    })
}

/// A side as `{ id, name, team, eliminated, values }`: the shared table or a fresh copy (as for
/// [`piece_table`]), from a template cached while the side is unchanged.
pub(super) fn side_table(
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
