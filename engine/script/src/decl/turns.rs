//! The turn structure: [`TurnsDecl`] and its [`PhaseDecl`]s, the vocabularies they draw on
//! ([`ORDERS`], [`ACTORS`], [`SCOPES`]), and the reader of `game.turns`.

use super::ModDecls;
use super::dice::single_die_sides;
use super::reader::Reader;
use crate::error::SourceLoc;
use mlua::{Table, Value};

/// Phase scopes.
pub const SCOPES: &[&str] = &["turn", "segment", "round"];
/// Phase actors.
pub const ACTORS: &[&str] = &["active", "others", "each", "all"];
/// Turn orders.
pub const ORDERS: &[&str] = &["fixed", "rolled", "hook"];

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

/// Reads `game.turns` (stored as `game.turn`), once dice are read (a rolled order may name a
/// dice id).
pub(super) fn read_turns(r: &mut Reader<'_>, game: &Table, sources: &Table, d: &mut ModDecls) {
    let turns_loc = sources
        .raw_get::<Option<String>>("turns")
        .ok()
        .flatten()
        .map(|s| SourceLoc::parse(&s))
        .unwrap_or_default();
    if let Ok(Some(t)) = game.raw_get::<Option<Table>>("turn") {
        d.turns = Some(read_turn_table(r, &t, &turns_loc, d));
    }
}

fn read_turn_table(r: &mut Reader<'_>, t: &Table, loc: &SourceLoc, d: &ModDecls) -> TurnsDecl {
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
