//! The board and the rule tables: terrain, movement listings, graphs, `ctx:lookup` and `ctx:legal`.

use super::*;

pub(super) fn register(lua: &Lua, methods: &Table) -> mlua::Result<()> {
    read!(methods, lua, "terrain", |lua, rules, s, args| {
        let h = hex(lua, args, 0)?;
        let ids: Vec<String> = s
            .board
            .terrain_at(h, s.clock.label.as_deref())
            .into_iter()
            .map(str::to_string)
            .collect();
        one(lua, ids)
    });

    read!(methods, lua, "terrain_info", |lua, rules, _s, args| {
        let id = string(args, 0)?;
        match rules.loaded.decls.terrains.get(&id) {
            Some(t) => one(
                lua,
                json_to_lua(lua, &Json::Object(t.data.clone().into_iter().collect()))?,
            ),
            None => one(lua, Value::Nil),
        }
    });

    read!(methods, lua, "move_listing", |lua, rules, s, args| {
        // search.move_listing with the game's board as `on_board` (unless env gives one).
        let board = |h: Hex| s.board.shape.as_ref().is_none_or(|b| b.contains(h));
        crate::api::search::ctx_move_listing(lua, args.to_multi(lua)?, &board, false).map(Ret::Many)
    });

    read!(methods, lua, "move_choices", |lua, rules, s, args| {
        // ctx:move_listing's moves as choice lists (api::choices).
        let board = |h: Hex| s.board.shape.as_ref().is_none_or(|b| b.contains(h));
        crate::api::search::ctx_move_listing(lua, args.to_multi(lua)?, &board, true).map(Ret::Many)
    });

    read!(methods, lua, "distances", |lua, rules, s, args| {
        // search.distances with the game's board as `on_board` (unless env gives one).
        let board = |h: Hex| s.board.shape.as_ref().is_none_or(|b| b.contains(h));
        crate::api::distances::ctx_distances(lua, args.to_multi(lua)?, &board).map(Ret::Many)
    });

    read!(methods, lua, "on_board", |lua, rules, s, args| {
        let h = hex(lua, args, 0)?;
        one(lua, s.board.shape.as_ref().is_none_or(|b| b.contains(h)))
    });

    read!(methods, lua, "hex_kind", |lua, rules, s, args| {
        let h = hex(lua, args, 0)?;
        match s.board.shape.as_ref() {
            Some(b) => match b.kind(h) {
                Some(k) => one(lua, lua.to_value(&k)?),
                None => one(lua, Value::Nil),
            },
            None => one(lua, "full"),
        }
    });

    read!(methods, lua, "board_hexes", |lua, rules, s, args| {
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

    read!(methods, lua, "timed_terrain", |lua, rules, s, _args| {
        // ctx:timed_terrain(): the board's timed terrain, present this round or not, in the
        // scenario's order: { hex, terrain, labels } each (public map data: a player sees
        // the whole map, every label's terrain printed on it).
        let hexes = hexes_to_table(lua, s.board.timed_terrain.iter().map(|t| t.hex))?;
        let list = lua.create_table_with_capacity(s.board.timed_terrain.len(), 0)?;
        for (i, t) in s.board.timed_terrain.iter().enumerate() {
            let entry = lua.create_table_with_capacity(0, 3)?;
            entry.raw_set("hex", hexes.raw_get::<Value>(i + 1)?)?;
            entry.raw_set("terrain", t.terrain.as_str())?;
            entry.raw_set(
                "labels",
                lua.create_sequence_from(t.labels.iter().map(String::as_str))?,
            )?;
            list.raw_set(i + 1, entry)?;
        }
        one(lua, list)
    });

    read!(methods, lua, "graph_route", |lua, rules, s, args| {
        // ctx:graph_route(graph, from, to): the shortest route, both ends included (ties go to
        // the alphabetically first route), or nil.
        let (id, from, to) = (string(args, 0)?, string(args, 1)?, string(args, 2)?);
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

    read!(methods, lua, "graph_distance", |lua, rules, s, args| {
        // ctx:graph_distance(graph, from, to): routes crossed on the shortest route (the
        // destination counted, the start not), or nil when there is no route.
        let (id, from, to) = (string(args, 0)?, string(args, 1)?, string(args, 2)?);
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

    read!(methods, lua, "graph", |lua, rules, s, args| {
        let id = string(args, 0)?;
        match s.board.graphs.get(&id) {
            Some(g) => one(
                lua,
                json_to_lua(
                    lua,
                    &serde_json::to_value(g).map_err(mlua::Error::external)?,
                )?,
            ),
            None => one(lua, Value::Nil),
        }
    });

    read!(methods, lua, "lookup", |lua, rules, _s, args| {
        let table = string(args, 0)?;
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

    read!(methods, lua, "legal", |lua, rules, s, args| {
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
    Ok(())
}
