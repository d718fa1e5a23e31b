//! Scenarios: `scenarios/<id>.toml` of a mod (or of its base) loaded into a `GameState`.
//!
//! A scenario gives the board shape, terrain (fixed and by time-track label), sides, pieces
//! (with per-piece values over the piece type's defaults), graph maps and options (the game's
//! own options win over the scenario's). See docs/API.md section 5 for the format.
//!
//! The scenario's `turn_limit` overrides the declared one for this game only: it is stored in
//! [`GameState::turn_limit`] (the turn structure belongs to the rules, shared by every game of a
//! rule set), so a replay, which re-runs setup, ends at the same round.
//!
//! ```
//! let s: hexforge_script::scenario::Scenario = toml::from_str("name = \"x\"\n[board]\nshape = \"hexagon\"\nradius = 3\n").unwrap();
//! assert_eq!(s.board.unwrap().radius, Some(3));
//! ```

use crate::loader::LoadedMods;
use hexforge_core::board::Board;
use hexforge_core::hex::layout::Orientation;
use hexforge_core::hex::{Direction, Hex};
use hexforge_game::{GameState, GraphMap, Position, SideId, SideState, TimedTerrain};
use serde::Deserialize;
use serde_json::Value as Json;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A scenario file.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Scenario {
    /// Display name.
    #[serde(default)]
    pub name: String,
    /// Description.
    #[serde(default)]
    pub description: String,
    /// Turn limit override.
    pub turn_limit: Option<u32>,
    /// Board shape.
    pub board: Option<BoardSpec>,
    /// Fixed terrain.
    #[serde(default)]
    pub terrain: Vec<TerrainSpec>,
    /// Terrain present only on some time-track labels.
    #[serde(default)]
    pub timed_terrain: Vec<TimedTerrain>,
    /// Sides in seating order.
    #[serde(default)]
    pub sides: Vec<SideSpec>,
    /// Pieces in id order.
    #[serde(default)]
    pub pieces: Vec<PieceSpec>,
    /// Options the mod reads via `ctx.options`.
    #[serde(default)]
    pub options: BTreeMap<String, Json>,
    /// Graph maps by id.
    #[serde(default)]
    pub graph: BTreeMap<String, GraphSpec>,
}

/// `[board]`.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct BoardSpec {
    /// hexagon | offset_rect | sectors | explicit.
    pub shape: String,
    /// For hexagon.
    pub radius: Option<u32>,
    /// For offset_rect.
    pub width: Option<u32>,
    /// For offset_rect.
    pub height: Option<u32>,
    /// For sectors.
    pub tile_radius: Option<u32>,
    /// For explicit.
    #[serde(default)]
    pub hexes: Vec<Hex>,
    /// How the board is drawn: "flat" or "pointy" (the editor's default: pointy for
    /// offset_rect, whose rows are pointy-top rows, else flat). Drawing only.
    pub orientation: Option<String>,
}

/// The orientation scenario `id`'s board declares (`[board] orientation`), if any.
#[must_use]
pub fn declared_orientation(rules: &crate::LuaRules, id: &str) -> Option<Orientation> {
    let (sc, _) = find_scenario(rules.loaded(), &rules.scenario, id).ok()?;
    match sc.board?.orientation?.as_str() {
        "flat" => Some(Orientation::Flat),
        "pointy" => Some(Orientation::Pointy),
        _ => None,
    }
}

/// `[[terrain]]`.
#[derive(Clone, Debug, Deserialize)]
pub struct TerrainSpec {
    /// Where.
    pub hex: Hex,
    /// Terrain ids.
    pub ids: Vec<String>,
}

/// `[[sides]]`.
#[derive(Clone, Debug, Deserialize)]
pub struct SideSpec {
    /// Id.
    pub id: String,
    /// Name (defaults to the id).
    pub name: Option<String>,
    /// Team.
    pub team: Option<String>,
    /// Initial values.
    #[serde(default)]
    pub values: BTreeMap<String, Json>,
}

/// `[[pieces]]`.
#[derive(Clone, Debug, Deserialize)]
pub struct PieceSpec {
    /// Piece type id.
    #[serde(rename = "type")]
    pub kind: String,
    /// Owning side.
    pub owner: String,
    /// Anchor hex.
    pub hex: Option<Hex>,
    /// Or a node position.
    pub position: Option<NodeSpec>,
    /// Or an off-map box.
    #[serde(rename = "box")]
    pub in_box: Option<String>,
    /// Facing: name or 0..5.
    pub facing: Option<Json>,
    /// Values over the type's defaults.
    #[serde(default)]
    pub values: BTreeMap<String, Json>,
}

/// A node position.
#[derive(Clone, Debug, Deserialize)]
pub struct NodeSpec {
    /// Node id.
    pub location: String,
    /// Box inside the node.
    pub slot: Option<String>,
}

/// `[graph.<id>]`.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct GraphSpec {
    /// Nodes.
    #[serde(default)]
    pub nodes: Vec<Json>,
    /// Routes.
    #[serde(default)]
    pub routes: Vec<Json>,
}

/// The scenario ids a rule set offers: the stems of `scenarios/*.toml` in the given mod folders
/// (a variant plays its base's scenarios too), sorted, each once.
#[must_use]
pub fn scenario_ids(dirs: &[std::path::PathBuf]) -> Vec<String> {
    let mut ids: Vec<String> = dirs
        .iter()
        .filter_map(|d| std::fs::read_dir(d.join("scenarios")).ok())
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

/// The last scenario file parsed: its path, its text and what it gave. Why: the file is read
/// for every game (an edit shows in the next game), but parsed again only when its text
/// changed, and a bench or `play --games` starts hundreds of games.
#[derive(Debug, Default)]
pub struct ParsedScenario(RefCell<Option<(String, String, Scenario)>>);

impl ParsedScenario {
    fn get(&self, path: &str, text: &str) -> Option<Scenario> {
        self.0
            .borrow()
            .as_ref()
            .filter(|(p, t, _)| p == path && t == text)
            .map(|(_, _, sc)| sc.clone())
    }

    fn keep(&self, path: &str, text: String, sc: &Scenario) {
        *self.0.borrow_mut() = Some((path.to_owned(), text, sc.clone()));
    }
}

/// Finds and parses `scenarios/<id>.toml` in the rule set's mods (the variant first).
///
/// # Errors
/// When no mod has it or it does not parse.
pub fn find_scenario(
    loaded: &LoadedMods,
    parsed: &ParsedScenario,
    id: &str,
) -> Result<(Scenario, String), String> {
    if !crate::manifest::is_safe_relative(id) || id.contains('/') {
        return Err(format!("scenario id {id:?} is not a plain name"));
    }
    for m in loaded.mods.iter().rev() {
        let path = m.dir.join("scenarios").join(format!("{id}.toml"));
        if let Ok(text) = std::fs::read_to_string(&path) {
            let rel = format!("{}/scenarios/{id}.toml", m.rel_dir);
            if let Some(sc) = parsed.get(&rel, &text) {
                return Ok((sc, rel));
            }
            return toml::from_str::<Scenario>(&text)
                .map(|s| {
                    parsed.keep(&rel, text.clone(), &s);
                    (s, rel.clone())
                })
                .map_err(|e| {
                    let (l, c) = e
                        .span()
                        .map_or((0, 0), |s| crate::manifest::line_col(&text, s.start));
                    format!("{rel}:{l}:{c}: {}", e.message().trim())
                });
        }
    }
    Err(format!(
        "no scenario {id:?} in {}",
        loaded
            .mods
            .iter()
            .map(|m| format!("{}/scenarios", m.rel_dir))
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// Fills `state` from its scenario (no-op for an empty scenario id).
///
/// # Errors
/// A readable message naming the scenario file.
pub fn apply_scenario(
    loaded: &LoadedMods,
    parsed: &ParsedScenario,
    state: &mut GameState,
) -> Result<(), String> {
    if state.scenario.is_empty() {
        return Ok(());
    }
    let (sc, rel) = find_scenario(loaded, parsed, &state.scenario)?;
    let at = |m: String| format!("{rel}: {m}");
    match sc.turn_limit {
        Some(0) => return Err(at("turn_limit must be at least 1".into())),
        Some(n) => state.turn_limit = Some(n),
        None => {}
    }
    if let Some(b) = &sc.board {
        if let Some(o) = b.orientation.as_deref()
            && !matches!(o, "flat" | "pointy")
        {
            return Err(at(format!(
                "board orientation {o:?} is not \"flat\" or \"pointy\""
            )));
        }
        let board = match b.shape.as_str() {
            "hexagon" => Board::hexagon(b.radius.unwrap_or(0)).map_err(|e| at(e.to_string()))?,
            "offset_rect" => Board::offset_rect(b.width.unwrap_or(0), b.height.unwrap_or(0))
                .map_err(|e| at(e.to_string()))?,
            "sectors" => {
                Board::sectors(b.tile_radius.unwrap_or(0)).map_err(|e| at(e.to_string()))?
            }
            "explicit" => Board::explicit(b.hexes.iter().copied()),
            other => {
                return Err(at(format!(
                    "board shape {other:?} is not one of hexagon, offset_rect, sectors, explicit"
                )));
            }
        };
        Arc::make_mut(&mut state.board).shape = Some(board);
    }
    let board = Arc::make_mut(&mut state.board);
    for t in &sc.terrain {
        board
            .terrain
            .entry(t.hex)
            .or_default()
            .extend(t.ids.iter().cloned());
    }
    board.timed_terrain.extend(sc.timed_terrain.iter().cloned());
    for (id, g) in &sc.graph {
        let value = serde_json::json!({ "nodes": nodes_map(&g.nodes), "routes": g.routes });
        let graph: GraphMap =
            serde_json::from_value(value).map_err(|e| at(format!("graph {id}: {e}")))?;
        board.graphs.insert(id.clone(), graph);
    }
    for s in &sc.sides {
        let mut side = SideState::new(&s.id, s.name.as_deref().unwrap_or(&s.id));
        side.team = s.team.clone();
        side.values = s.values.clone();
        state.sides_mut().push(side);
    }
    for (i, p) in sc.pieces.iter().enumerate() {
        let Some(decl) = loaded.decls.piece_types.get(&p.kind) else {
            return Err(at(format!("pieces[{}]: no piece type {:?}", i + 1, p.kind)));
        };
        if !sc.sides.iter().any(|s| s.id == p.owner) {
            return Err(at(format!(
                "pieces[{}]: owner {:?} is not a side of this scenario",
                i + 1,
                p.owner
            )));
        }
        let pos = match (&p.hex, &p.position, &p.in_box) {
            (Some(h), _, _) => Position::Hex(*h),
            (None, Some(n), _) => Position::Node {
                location: n.location.clone(),
                slot: n.slot.clone(),
            },
            (None, None, Some(b)) => Position::Box(b.clone()),
            _ => return Err(at(format!("pieces[{}]: needs hex, position or box", i + 1))),
        };
        let facing: Option<Direction> = match &p.facing {
            None => None,
            Some(f) => Some(match f {
                Json::String(s) => Direction::from_name(s).ok_or_else(|| {
                    at(format!(
                        "pieces[{}]: facing {s:?} is not N, NE, SE, S, SW or NW",
                        i + 1
                    ))
                })?,
                Json::Number(n) => match n.as_i64() {
                    Some(k) if (0..6).contains(&k) => Direction::from_index(k as i32),
                    _ => return Err(at(format!("pieces[{}]: facing {n} is not 0..5", i + 1))),
                },
                other => {
                    return Err(at(format!(
                        "pieces[{}]: facing {other} is not a direction",
                        i + 1
                    )));
                }
            }),
        };
        let id = state.add_piece(&p.kind, SideId::new(p.owner.clone()), pos, facing);
        if let Some(piece) = state.pieces.get_mut(&id) {
            let mut values = decl.values.clone();
            values.extend(p.values.clone());
            piece.values = std::sync::Arc::new(values);
        }
    }
    let mut options: serde_json::Map<String, Json> = sc.options.clone().into_iter().collect();
    if let Json::Object(given) = &*state.options {
        options.extend(given.clone());
    }
    state.options = Json::Object(options).into();
    Ok(())
}

fn nodes_map(nodes: &[Json]) -> Json {
    let mut m = serde_json::Map::new();
    for n in nodes {
        if let Some(id) = n.get("id").and_then(Json::as_str) {
            let mut node = n.clone();
            if let Json::Object(o) = &mut node {
                o.remove("id");
                let (x, y) = (o.remove("x"), o.remove("y"));
                if let (Some(x), Some(y)) = (x.and_then(|v| v.as_f64()), y.and_then(|v| v.as_f64()))
                {
                    o.insert("draw_at".into(), serde_json::json!([x as i32, y as i32]));
                }
                if let Some(Json::Array(boxes)) = o.remove("boxes") {
                    let b: serde_json::Map<String, Json> = boxes
                        .into_iter()
                        .filter_map(|b| b.as_str().map(|s| (s.to_string(), Json::Null)))
                        .collect();
                    o.insert("boxes".into(), Json::Object(b));
                }
            }
            m.insert(id.to_string(), node);
        }
    }
    Json::Object(m)
}
