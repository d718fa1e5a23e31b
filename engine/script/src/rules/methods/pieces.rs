//! Reading pieces, sides and globals: `ctx:piece`, `ctx:pieces`, `ctx:sides`, `ctx:global`, ...

use super::*;

pub(super) fn register(lua: &Lua, methods: &Table) -> mlua::Result<()> {
    read!(methods, lua, "sides", |lua, rules, s, _args, shared| {
        rules.recorder.note(|| Read::Sides(s.sides.clone()));
        let t = lua.create_table()?;
        for (i, side) in s.sides.iter().enumerate() {
            t.raw_set(i + 1, side_table(lua, rules, side, shared)?)?;
        }
        one(lua, t)
    });

    read!(methods, lua, "side", |lua, rules, s, args, shared| {
        let id = string(args, 0)?;
        let side = s.sides.iter().find(|x| x.id.as_str() == id);
        rules
            .recorder
            .note(|| Read::Side(id.clone(), side.cloned()));
        match side {
            Some(side) => one(lua, side_table(lua, rules, side, shared)?),
            None => one(lua, Value::Nil),
        }
    });

    read!(methods, lua, "piece", |lua, rules, s, args, shared| {
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

    read!(methods, lua, "pieces", |lua, rules, s, args, shared| {
        // The usual filter is read off the stack; anything else as a table, with its errors.
        let plain = plain_filter(args);
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

    read!(methods, lua, "exists", |lua, rules, s, args| {
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

    read!(methods, lua, "pieces_at", |lua, rules, s, args, shared| {
        let h = hex(lua, args, 0)?;
        let ids = s
            .pieces
            .values()
            .filter(|p| footprint(rules, s, p.id).contains(&h))
            .map(|p| p.id);
        one(lua, piece_tables(lua, rules, s, ids, shared)?)
    });

    read!(methods, lua, "footprint", |lua, rules, s, args| {
        let id = piece_id(lua, args, 0, s)?;
        one(lua, hexes_to_table(lua, footprint(rules, s, id))?)
    });

    read!(methods, lua, "global", |lua, rules, s, args, shared| {
        let key = string(args, 0)?;
        rules
            .recorder
            .note(|| Read::Global(key.clone(), s.globals.get(&key).cloned()));
        one(
            lua,
            global_value(lua, rules, &key, s.globals.get(&key), shared)?,
        )
    });

    read!(methods, lua, "type", |lua, rules, _s, args| {
        let id = string(args, 0)?;
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
    Ok(())
}
