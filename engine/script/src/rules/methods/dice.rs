//! Rolling the engine's seeded dice (every roll is logged).

use super::*;
use hexforge_game::size::roll_bytes;

pub(super) fn register(lua: &Lua, methods: &Table) -> mlua::Result<()> {
    write!(methods, lua, "roll", |lua, rules, s, args| {
        let notation = string(args, 0)?;
        let expr = DiceExpr::parse(&notation)
            .map_err(|e| mlua::Error::runtime(format!("dice {notation:?}: {e}")))?;
        let roll = s.dice.roll(&expr, &label(args, 1));
        rules.charge(roll_bytes(&roll))?;
        one(lua, roll.total)
    });

    write!(methods, lua, "roll_detail", |lua, rules, s, args| {
        let notation = string(args, 0)?;
        let expr = DiceExpr::parse(&notation)
            .map_err(|e| mlua::Error::runtime(format!("dice {notation:?}: {e}")))?;
        let roll = s.dice.roll(&expr, &label(args, 1));
        rules.charge(roll_bytes(&roll))?;
        let t = lua.create_table()?;
        t.raw_set("total", roll.total)?;
        let dice = serde_json::to_value(&roll.dice).map_err(mlua::Error::external)?;
        t.raw_set("dice", json_to_lua(lua, &dice)?)?;
        one(lua, t)
    });

    write!(methods, lua, "pool", |lua, rules, s, args| {
        let n = count(lua, args, 0)?;
        let sides = match args.get(lua, 1)? {
            Value::Integer(n) if (1..=i64::from(MAX_SIDES)).contains(&n) => n as u32,
            other => {
                return Err(mlua::Error::runtime(format!(
                    "argument 2: number of sides {} is outside 1..={MAX_SIDES}",
                    shown(&other)
                )));
            }
        };
        let roll = s
            .dice
            .pool(n, sides, &label(args, 2))
            .map_err(|e| mlua::Error::runtime(e.to_string()))?;
        rules.charge(roll_bytes(&roll))?;
        one(lua, roll.kept_values())
    });

    write!(methods, lua, "roll_named", |lua, rules, s, args| {
        let id = string(args, 0)?;
        if rules.dice.get(&id).is_none() {
            return Err(mlua::Error::runtime(format!(
                "no dice with named faces {id:?} (declare game.dice {{ id = {id:?}, faces = {{ ... }} }})"
            )));
        }
        let n = count(lua, args, 1)?;
        // Rolled as the core's `Nd[die]` so the log shows every die's face name.
        let expr = rules
            .dice
            .parse(&format!("{n}d[{id}]"))
            .map_err(|e| mlua::Error::runtime(format!("dice {id:?}: {e}")))?;
        let roll = s.dice.roll(&expr, &label(args, 2));
        rules.charge(roll_bytes(&roll))?;
        let faces: Vec<String> = roll
            .dice
            .iter()
            .map(|d| d.face.clone().unwrap_or_default())
            .collect();
        one(lua, faces)
    });
    Ok(())
}
