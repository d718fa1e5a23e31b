//! Reading actions for the board and the play panel: which hexes, pieces and paths an action's
//! params name, a selected piece's choices by hex and by target, and an action in words.

use super::*;
use hexforge_script::labels::Label;

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

/// Legal actions of one selected piece (or the actions that name no piece), and what they
/// point at: the hexes, targets and graph nodes a click on the map picks them by.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PieceChoices {
    /// The piece (none for the actions that name no piece).
    pub piece: Option<PieceId>,
    /// Its legal actions: those with a `piece`-typed param naming it, by a side that owns it.
    pub actions: Vec<Action>,
    /// Indices into `actions` by every hex a `hex`-typed param names (e.g. a move's `to`).
    pub by_hex: BTreeMap<Hex, Vec<usize>>,
    /// Indices into `actions` by target: another piece a `piece`-typed param names.
    pub by_target: BTreeMap<PieceId, Vec<usize>>,
    /// Indices into `actions` by graph node: a `node`-typed param's node, or for an action
    /// that names only a `box` (an environ to land in), the node the piece stands at.
    pub by_node: BTreeMap<String, Vec<usize>>,
    /// Indices into `actions` by direction, for actions that name a `direction` but no `hex`
    /// (a step or a slide that way, a turn to face it): arrows on the piece's own hex.
    pub by_direction: BTreeMap<Direction, Vec<usize>>,
    /// The label each of `actions` declares (`game.action { label = ... }`), or none; filled
    /// by the caller, which has the rules (empty when they failed).
    pub labels: Vec<Option<Label>>,
}

impl PieceChoices {
    /// The actions `idx` points at, in order.
    #[must_use]
    pub fn pick(&self, idx: &[usize]) -> Vec<Action> {
        idx.iter()
            .filter_map(|&i| self.actions.get(i).cloned())
            .collect()
    }
}

/// Indexes `actions` (all of one actor, or all naming no piece) by the hexes, nodes and target
/// pieces their params name.
fn index_choices(
    decls: &ModDecls,
    state: &GameState,
    actions: Vec<Action>,
    actor: Option<PieceId>,
) -> PieceChoices {
    let actor_node = actor
        .and_then(|p| state.pieces.get(&p))
        .and_then(|p| match &p.pos {
            Position::Node { location, .. } => Some(location.clone()),
            _ => None,
        });
    let mut out = PieceChoices {
        piece: actor,
        ..PieceChoices::default()
    };
    for (i, a) in actions.iter().enumerate() {
        let Json::Object(m) = &a.params else { continue };
        let (mut node, mut names_box, mut named_hex, mut dir) = (None, false, false, None);
        for (k, v) in m {
            match param_kind(decls, &a.id, k) {
                Some("hex") => {
                    if let Some(h) = hex_of(v) {
                        out.by_hex.entry(h).or_default().push(i);
                        named_hex = true;
                    }
                }
                Some("direction") => dir = dir.or_else(|| direction_of(v)),
                Some("node") => node = v.as_str().map(str::to_owned),
                Some("box") => names_box = true,
                Some("piece") => match piece_of(v) {
                    Some(t) if Some(t) != actor => {
                        let list = out.by_target.entry(t).or_default();
                        if !list.contains(&i) {
                            list.push(i);
                        }
                    }
                    _ => {}
                },
                _ => {}
            }
        }
        if let (false, Some(d), Some(_)) = (named_hex, dir, actor) {
            out.by_direction.entry(d).or_default().push(i);
        }
        let node = node.or_else(|| names_box.then(|| actor_node.clone()).flatten());
        if let Some(n) = node {
            out.by_node.entry(n).or_default().push(i);
        }
    }
    out.actions = actions;
    out
}

/// Reads the legal actions of `piece` out of `legal`.
#[must_use]
pub fn piece_choices(
    decls: &ModDecls,
    state: &GameState,
    legal: &[Action],
    piece: PieceId,
) -> PieceChoices {
    let Some(p) = state.pieces.get(&piece) else {
        return PieceChoices {
            piece: Some(piece),
            ..PieceChoices::default()
        };
    };
    let mine: Vec<Action> = legal
        .iter()
        .filter(|a| a.side == p.owner)
        .filter(|a| piece_params(decls, a).iter().any(|(_, id)| *id == piece))
        .cloned()
        .collect();
    index_choices(decls, state, mine, Some(piece))
}

/// The legal actions that name no piece (a deployment at a hex, a jump to a node), indexed
/// like a piece's choices so a click on the map picks them too.
#[must_use]
pub fn free_choices(decls: &ModDecls, state: &GameState, legal: &[Action]) -> PieceChoices {
    index_choices(decls, state, free_actions(decls, legal), None)
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
    match v {
        Json::String(s) => Some(s.clone()),
        _ => direction_of(v).map(|d| d.name().to_owned()),
    }
}

/// A direction from a param value: an index into [`Direction::ALL`] or a name (`"NE"`).
#[must_use]
pub fn direction_of(v: &Json) -> Option<Direction> {
    match v {
        Json::Number(n) => Direction::ALL
            .get(usize::try_from(n.as_u64()?).ok()?)
            .copied(),
        Json::String(s) => Direction::from_name(s),
        _ => None,
    }
}

/// A facing picker for `acts` at hex `at`: when every action names `at` in a `hex`-typed param
/// and one `direction`-typed param tells them apart (each a different facing), each facing with
/// its action's index in `acts`. The first such param in name order.
#[must_use]
pub fn facing_picks(decls: &ModDecls, acts: &[Action], at: Hex) -> Option<Vec<(Direction, usize)>> {
    let names_at = |a: &Action| {
        let Json::Object(m) = &a.params else {
            return false;
        };
        m.iter()
            .any(|(k, v)| param_kind(decls, &a.id, k) == Some("hex") && hex_of(v) == Some(at))
    };
    if acts.len() < 2 || !acts.iter().all(names_at) {
        return None;
    }
    let Json::Object(first) = &acts[0].params else {
        return None;
    };
    first
        .keys()
        .filter(|k| param_kind(decls, &acts[0].id, k) == Some("direction"))
        .find_map(|k| {
            let picks: Option<Vec<(Direction, usize)>> = acts
                .iter()
                .enumerate()
                .map(|(i, a)| Some((direction_of(a.params.get(k)?)?, i)))
                .collect();
            let picks = picks?;
            let distinct: BTreeSet<Direction> = picks.iter().map(|(d, _)| *d).collect();
            (distinct.len() == picks.len()).then_some(picks)
        })
}
