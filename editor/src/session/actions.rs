//! Reading actions for the board and the play panel: which hexes, pieces and paths an action's
//! params name, a selected piece's choices by hex and by target, and an action in words.

use super::*;

/// A hex from a param value: `{ q =, r = }` or `[q, r]`.
#[must_use]
pub fn hex_of(v: &Json) -> Option<Hex> {
    let int = |x: &Json| x.as_i64().and_then(|i| i32::try_from(i).ok());
    match v {
        Json::Object(m) => Some(Hex::new(int(m.get("q")?)?, int(m.get("r")?)?)),
        Json::Array(a) if a.len() == 2 => Some(Hex::new(int(&a[0])?, int(&a[1])?)),
        _ => None,
    }
}

/// A piece id from a param value.
#[must_use]
pub fn piece_of(v: &Json) -> Option<PieceId> {
    v.as_u64().and_then(|i| u32::try_from(i).ok()).map(PieceId)
}

/// A path from a param value: a list of hexes, or an object with a `hexes` list.
#[must_use]
pub fn path_of(v: &Json) -> Option<Vec<Hex>> {
    let list = match v {
        Json::Array(a) => a,
        Json::Object(m) => m.get("hexes")?.as_array()?,
        _ => return None,
    };
    list.iter().map(hex_of).collect()
}

/// The declared kind of an action's param (`None` when the action or param is not declared).
#[must_use]
pub fn param_kind<'a>(decls: &'a ModDecls, action: &str, param: &str) -> Option<&'a str> {
    decls
        .actions
        .get(action)?
        .params
        .get(param)
        .map(String::as_str)
}

/// The params of `a` that name pieces, with their ids.
pub(super) fn piece_params(decls: &ModDecls, a: &Action) -> Vec<(String, PieceId)> {
    let Json::Object(m) = &a.params else {
        return Vec::new();
    };
    m.iter()
        .filter(|(k, _)| param_kind(decls, &a.id, k) == Some("piece"))
        .filter_map(|(k, v)| piece_of(v).map(|p| (k.clone(), p)))
        .collect()
}

/// The legal actions of one selected piece, and what they point at.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PieceChoices {
    /// The piece.
    pub piece: Option<PieceId>,
    /// Its legal actions: those with a `piece`-typed param naming it, by a side that owns it.
    pub actions: Vec<Action>,
    /// Indices into `actions` by every hex a `hex`-typed param names (e.g. a move's `to`).
    pub by_hex: BTreeMap<Hex, Vec<usize>>,
    /// Indices into `actions` by target: another piece a `piece`-typed param names.
    pub by_target: BTreeMap<PieceId, Vec<usize>>,
}

/// Reads the legal actions of `piece` out of `legal`.
#[must_use]
pub fn piece_choices(
    decls: &ModDecls,
    state: &GameState,
    legal: &[Action],
    piece: PieceId,
) -> PieceChoices {
    let mut out = PieceChoices {
        piece: Some(piece),
        ..PieceChoices::default()
    };
    let Some(p) = state.pieces.get(&piece) else {
        return out;
    };
    for a in legal {
        if a.side != p.owner {
            continue;
        }
        let pieces = piece_params(decls, a);
        if !pieces.iter().any(|(_, id)| *id == piece) {
            continue;
        }
        let i = out.actions.len();
        if let Json::Object(m) = &a.params {
            for (k, v) in m {
                if param_kind(decls, &a.id, k) == Some("hex")
                    && let Some(h) = hex_of(v)
                {
                    out.by_hex.entry(h).or_default().push(i);
                }
            }
        }
        for (_, id) in pieces.iter().filter(|(_, id)| *id != piece) {
            let list = out.by_target.entry(*id).or_default();
            if !list.contains(&i) {
                list.push(i);
            }
        }
        out.actions.push(a.clone());
    }
    out
}

/// The legal actions with no `piece`-typed param (end phase, deployments, ...).
#[must_use]
pub fn free_actions(decls: &ModDecls, legal: &[Action]) -> Vec<Action> {
    legal
        .iter()
        .filter(|a| piece_params(decls, a).is_empty())
        .cloned()
        .collect()
}

/// The pieces that have at least one legal action now (as actor), in id order.
#[must_use]
pub fn pieces_with_actions(decls: &ModDecls, state: &GameState, legal: &[Action]) -> Vec<PieceId> {
    let mut out = BTreeSet::new();
    for a in legal {
        for (_, id) in piece_params(decls, a) {
            if state.pieces.get(&id).is_some_and(|p| p.owner == a.side) {
                out.insert(id);
            }
        }
    }
    out.into_iter().collect()
}

/// The path to draw for an action: its `path`-typed param if it has one, else `None`.
#[must_use]
pub fn action_path(decls: &ModDecls, a: &Action) -> Option<Vec<Hex>> {
    let Json::Object(m) = &a.params else {
        return None;
    };
    m.iter()
        .filter(|(k, _)| param_kind(decls, &a.id, k) == Some("path"))
        .find_map(|(_, v)| path_of(v))
}

/// The hex a piece stands on (its anchor), if it is on a hex map.
#[must_use]
pub fn piece_hex(state: &GameState, id: PieceId) -> Option<Hex> {
    state.pieces.get(&id).and_then(|p| match p.pos {
        Position::Hex(h) => Some(h),
        _ => None,
    })
}

/// An action in words for the play panel: its params except the actor, e.g.
/// `to (1, -2), facing SE`; hexes as `(q, r)`, pieces as `#3 frigate`, directions by name.
#[must_use]
pub fn describe(decls: &ModDecls, state: &GameState, a: &Action, actor: Option<PieceId>) -> String {
    let Json::Object(m) = &a.params else {
        return String::new();
    };
    let mut parts = Vec::new();
    for (k, v) in m {
        let kind = param_kind(decls, &a.id, k);
        let text = match kind {
            Some("piece") => match piece_of(v) {
                Some(id) if Some(id) == actor => continue,
                Some(id) => state
                    .pieces
                    .get(&id)
                    .map_or(format!("#{}", id.0), |p| format!("#{} {}", id.0, p.kind)),
                None => v.to_string(),
            },
            Some("hex") => hex_of(v).map_or(v.to_string(), |h| format!("({}, {})", h.q, h.r)),
            Some("direction") => direction_name(v).unwrap_or_else(|| v.to_string()),
            Some("path") => path_of(v).map_or(v.to_string(), |p| format!("{} hexes", p.len())),
            _ => match v {
                Json::String(s) if s.is_empty() => "\"\"".into(),
                Json::String(s) => s.clone(),
                other => other.to_string(),
            },
        };
        parts.push(format!("{k} {text}"));
    }
    parts.join(", ")
}

pub(super) fn direction_name(v: &Json) -> Option<String> {
    const NAMES: [&str; 6] = ["N", "NE", "SE", "S", "SW", "NW"];
    match v {
        Json::Number(n) => {
            let i = n.as_u64()?;
            let d = Direction::ALL.get(usize::try_from(i).ok()?)?;
            Some(NAMES[usize::from(d.index())].to_owned())
        }
        Json::String(s) => Some(s.clone()),
        _ => None,
    }
}
