//! The board scene of a game: its board, pieces, declared footprints and colours, the mod's
//! counters, the hexes that block lines of attack, the orientation, and the last action.

use super::*;

/// Whether a terrain declaration makes its hex block movement or fire (for marking lines of
/// attack): `blocks_movement`, `blocks_fire` or `blocks_los` set to anything but `false`, or
/// `enterable = false`.
pub(super) fn terrain_blocks(data: &BTreeMap<String, Json>) -> bool {
    let set = |k: &str| {
        data.get(k)
            .is_some_and(|v| !matches!(v, Json::Bool(false) | Json::Null))
    };
    set("blocks_movement")
        || set("blocks_fire")
        || set("blocks_los")
        || data.get("enterable") == Some(&Json::Bool(false))
}

/// The scene of a game: board, pieces, the declared footprints of its piece types and the
/// hexes that block lines of attack. A board without a hex grid shows its first graph map.
#[must_use]
pub fn scene_of(rules: &LuaRules, state: &GameState, title: String) -> BoardScene {
    let graph = if state.board.shape.is_none() {
        state.board.graphs.keys().next().cloned()
    } else {
        None
    };
    let decls = rules.decls();
    let footprints: BTreeMap<String, Vec<Hex>> = decls
        .piece_types
        .iter()
        .filter(|(_, t)| !t.footprint.is_empty())
        .map(|(k, t)| (k.clone(), t.footprint.clone()))
        .collect();
    let mut blockers = BTreeSet::new();
    if let Some(board) = &state.board.shape {
        for h in board.hexes() {
            let not_enterable = board.kind(h).is_some_and(|k: HexKind| !k.is_enterable());
            let terrain = state.board.terrain_at(h, state.clock.label.as_deref());
            if not_enterable
                || terrain.iter().any(|t| {
                    decls
                        .terrains
                        .get(*t)
                        .is_some_and(|d| terrain_blocks(&d.data))
                })
            {
                blockers.insert(h);
            }
        }
    }
    let terrain_colors = decls
        .terrains
        .iter()
        .filter_map(|(id, t)| {
            let c = t.data.get("color")?.as_str()?;
            Some((id.clone(), crate::colors::parse_color(c)?))
        })
        .collect();
    let terrain_names = decls
        .terrains
        .iter()
        .filter_map(|(id, t)| Some((id.clone(), t.data.get("name")?.as_str()?.to_owned())))
        .collect();
    // A broken counter spoils only the drawing: the board says what to fix, the game goes on.
    let (counters, notice) = match hexforge_script::counters::counters(rules, state) {
        Ok(c) => (c, None),
        Err(e) => (BTreeMap::new(), Some(e.to_string())),
    };
    BoardScene {
        title,
        board: (*state.board).clone(),
        graph,
        pieces: state.pieces.values().cloned().collect(),
        footprints,
        blockers,
        terrain_colors,
        terrain_names,
        counters,
        notice,
        label: state.clock.label.clone(),
        orientation: hexforge_script::scenario::declared_orientation(rules, &state.scenario)
            .or_else(|| natural_orientation(state)),
        ..BoardScene::default()
    }
}

/// How a board's shape is drawn when its scenario does not say: offset rows are pointy-top
/// rows (drawn flat-top they would lean into a parallelogram); every other shape flat-top.
pub(super) fn natural_orientation(state: &GameState) -> Option<Orientation> {
    let shape = state.board.shape.as_ref()?;
    Some(match shape.shape() {
        hexforge_core::board::Shape::OffsetRect { .. } => Orientation::Pointy,
        _ => Orientation::Flat,
    })
}

/// The hexes the last action names: the pieces it names where they stand now, and its hex
/// params (empty at the start of a game).
#[must_use]
pub fn last_action_hexes(s: &Session) -> BTreeSet<Hex> {
    let state = s.game.state();
    let Some(a) = state.log.last().and_then(|e| e.action.as_ref()) else {
        return BTreeSet::new();
    };
    let decls = s.decls();
    let mut out = BTreeSet::new();
    if let Json::Object(m) = &a.params {
        for (k, v) in m {
            match param_kind(decls, &a.id, k) {
                Some("hex") => out.extend(hex_of(v)),
                Some("piece") => {
                    if let Some(p) = piece_of(v).and_then(|id| state.pieces.get(&id)) {
                        let offs = decls
                            .piece_types
                            .get(&p.kind)
                            .map_or(&[][..], |t| t.footprint.as_slice());
                        out.extend(p.hexes(offs));
                    }
                }
                _ => {}
            }
        }
    }
    out
}
