//! Changing the game: moving, placing, setting values, creating and destroying pieces, logging.

use super::*;

pub(super) fn register(lua: &Lua, methods: &Table) -> mlua::Result<()> {
    write!(methods, lua, "move", |lua, rules, s, args| {
        let id = piece_id(lua, args, 0, s)?;
        let h = hex(lua, args, 1)?;
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

    write!(methods, lua, "place", |lua, rules, s, args| {
        let id = piece_id(lua, args, 0, s)?;
        let pos = parse_position(&args.get(lua, 1)?)
            .map_err(|m| mlua::Error::runtime(format!("argument 2: {m}")))?;
        if let Some(p) = s.pieces.get_mut(&id) {
            p.pos = pos;
        }
        one(lua, Value::Nil)
    });

    write!(methods, lua, "set", |lua, rules, s, args| {
        let id = piece_id(lua, args, 0, s)?;
        // A key, or a path into a value: { "comps", 3, "charge" }.
        let path = match args.get(lua, 1)? {
            Value::Table(t) => value_path(&t)?,
            _ => vec![PathStep::Key(string(args, 1)?)],
        };
        let v = json(lua, args, 2, "value")?;
        rules.charge(json_bytes(&v) + 4 + path_bytes(&path))?;
        if let Some(p) = s.pieces.get_mut(&id) {
            if let [PathStep::Key(key)] = path.as_slice() {
                set_value(p, key, v);
            } else {
                set_path(&mut p.values, &path, v)?;
            }
        }
        one(lua, Value::Nil)
    });

    write!(methods, lua, "set_side", |lua, rules, s, args| {
        let side = string(args, 0)?;
        let key = string(args, 1)?;
        let v = json(lua, args, 2, "value")?;
        rules.charge(key.len() + 4 + json_bytes(&v))?;
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

    write!(methods, lua, "set_global", |lua, rules, s, args| {
        let key = string(args, 0)?;
        let v = json(lua, args, 1, "value")?;
        rules.charge(key.len() + 4 + json_bytes(&v))?;
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

    write!(methods, lua, "create", |lua, rules, s, args| {
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
        rules.charge(kind.len() + owner.len() + 64 + json_bytes(&extra))?;
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

    write!(methods, lua, "destroy", |lua, rules, s, args| {
        let id = piece_id(lua, args, 0, s)?;
        s.remove_piece(id);
        one(lua, Value::Nil)
    });

    write!(methods, lua, "eliminate", |lua, rules, s, args| {
        let side = string(args, 0)?;
        s.side_mut(&SideId::new(side.clone()))
            .ok_or_else(|| mlua::Error::runtime(format!("no side {side:?}")))?
            .eliminated = true;
        one(lua, Value::Nil)
    });

    write!(methods, lua, "set_terrain", |lua, rules, s, args| {
        let h = hex(lua, args, 0)?;
        let ids: Vec<String> = match json(lua, args, 1, "terrain ids")? {
            Json::Array(a) => a
                .into_iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        };
        rules.charge(16 + ids.iter().map(|i| i.len() + 3).sum::<usize>())?;
        if ids.is_empty() {
            if s.board.terrain.contains_key(&h) {
                Arc::make_mut(&mut s.board).terrain.remove(&h);
            }
        } else if s.board.terrain.get(&h) != Some(&ids) {
            Arc::make_mut(&mut s.board).terrain.insert(h, ids);
        }
        one(lua, Value::Nil)
    });

    // An answer in the middle of the phase: until `answered`, only `side` may act and no side
    // may end the phase (see `Clock::asked`).
    write!(methods, lua, "ask", |lua, rules, s, args| {
        let name = string(args, 0)?;
        if s.clock.round == 0 || s.clock.finished {
            return Err(mlua::Error::runtime(
                "only while the game is running (not in setup, not after the last turn)",
            ));
        }
        let side = SideId::new(name.clone());
        match s.side(&side) {
            None => return Err(mlua::Error::runtime(format!("no side {name:?}"))),
            Some(st) if st.eliminated => {
                return Err(mlua::Error::runtime(format!(
                    "side {name:?} is out of the game"
                )));
            }
            Some(_) => {}
        }
        rules.charge(side.as_str().len() + 16)?;
        s.clock.asked = Some(side);
        one(lua, Value::Nil)
    });

    // The play order rolled at a moment the rules choose, for the next round on.
    write!(methods, lua, "roll_order", |lua, rules, s, args| {
        let die = match args.get(lua, 0)? {
            Value::Nil => None,
            Value::Integer(n) if (2..=1000).contains(&n) => Some(n as u32),
            other => {
                return Err(mlua::Error::runtime(format!(
                    "argument 1: the die's faces, 2..=1000, got {}",
                    shown(&other)
                )));
            }
        };
        let order = hexforge_game::turn::roll_next_order(s, &rules.turns, die)
            .map_err(mlua::Error::runtime)?;
        rules.charge(order.iter().map(|t| t.len() + 3).sum::<usize>() + 16)?;
        one(lua, order)
    });

    write!(methods, lua, "answered", |lua, rules, s, _args| {
        s.clock.asked = None;
        one(lua, Value::Nil)
    });

    write!(methods, lua, "end_game", |lua, rules, s, args| {
        let outcome = parse_outcome(lua, args.get(lua, 0)?)?;
        rules.charge(outcome.reason.len() + 64)?;
        s.outcome = Some(outcome);
        one(lua, Value::Nil)
    });

    write!(methods, lua, "log", |lua, rules, s, args| {
        let line = label(args, 0);
        rules.charge(line.len() + 3)?;
        s.emit(line);
        one(lua, Value::Nil)
    });
    Ok(())
}
