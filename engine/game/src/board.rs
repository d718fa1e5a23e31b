//! What the board looks like in a game: its shape, terrain per hex, terrain that exists only on
//! some rounds of a time track, and graph maps (star maps of nodes and routes).
//!
//! This module stores the board; it deliberately does not answer geometry questions (the core
//! does) nor decide what terrain means (the mod does).
//!
//! ```
//! use hexforge_core::hex::Hex;
//! use hexforge_game::{BoardState, TimedTerrain};
//! let mut b = BoardState::default();
//! b.terrain.insert(Hex::new(0, 0), vec!["planet".into()]);
//! b.timed_terrain.push(TimedTerrain {
//!     hex: Hex::new(2, 0), terrain: "planetoid".into(), labels: vec!["red".into()] });
//! assert_eq!(b.terrain_at(Hex::new(2, 0), Some("red")), vec!["planetoid"]);
//! assert!(b.terrain_at(Hex::new(2, 0), Some("blue")).is_empty());
//! ```

use crate::ids::Value;
use hexforge_core::board::Board;
use hexforge_core::hex::Hex;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The board of a game.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BoardState {
    /// Which hexes exist and what kind each is; `None` for games played only on graph maps.
    #[serde(default)]
    pub shape: Option<Board>,
    /// Terrain ids per hex (hexes without terrain are absent). Serialised as `[[hex, [ids]], ..]`
    /// because JSON object keys must be strings.
    #[serde(default, with = "hex_keyed")]
    pub terrain: BTreeMap<Hex, Vec<String>>,
    /// Terrain present only while the current round's time-track label is one of `labels`.
    #[serde(default)]
    pub timed_terrain: Vec<TimedTerrain>,
    /// Graph maps by id (a game may have none, one, or several).
    #[serde(default)]
    pub graphs: BTreeMap<String, GraphMap>,
}

impl BoardState {
    /// Terrain ids at a hex for a time-track label (`None` = no time track): permanent terrain
    /// first, then timed terrain active under `label`, in declaration order.
    #[must_use]
    pub fn terrain_at(&self, hex: Hex, label: Option<&str>) -> Vec<&str> {
        let mut out: Vec<&str> = self
            .terrain
            .get(&hex)
            .into_iter()
            .flatten()
            .map(String::as_str)
            .collect();
        if let Some(label) = label {
            out.extend(
                self.timed_terrain
                    .iter()
                    .filter(|t| t.hex == hex && t.labels.iter().any(|l| l == label))
                    .map(|t| t.terrain.as_str()),
            );
        }
        out
    }
}

/// Terrain that exists only on some time-track labels (e.g. a planetoid of colour red).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimedTerrain {
    /// Where.
    pub hex: Hex,
    /// The terrain id.
    pub terrain: String,
    /// The labels (e.g. `["red"]`) during which it exists.
    pub labels: Vec<String>,
}

/// A map that is a graph: nodes (star systems, navigation stars) joined by routes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GraphMap {
    /// Nodes by id.
    #[serde(default)]
    pub nodes: BTreeMap<String, GraphNode>,
    /// Undirected routes between node ids.
    #[serde(default)]
    pub routes: Vec<Route>,
}

impl GraphMap {
    /// Ids of the nodes joined to `node` by a route, sorted, without duplicates.
    #[must_use]
    pub fn neighbors(&self, node: &str) -> Vec<&str> {
        let mut out: Vec<&str> = self
            .routes
            .iter()
            .filter_map(|r| {
                if r.a == node {
                    Some(r.b.as_str())
                } else if r.b == node {
                    Some(r.a.as_str())
                } else {
                    None
                }
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// A node of a graph map.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GraphNode {
    /// The mod's node kind (e.g. `"system"`, `"navigation_star"`).
    pub kind: String,
    /// Where to draw it (integer map units; drawing only, no rule reads it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_at: Option<(i32, i32)>,
    /// Boxes inside the node (orbit box, environs, drift areas), by id.
    #[serde(default)]
    pub boxes: BTreeMap<String, Value>,
    /// Mod-defined values (name, navigation data, ...).
    #[serde(default)]
    pub values: BTreeMap<String, Value>,
}

/// A route between two nodes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Route {
    /// One end.
    pub a: String,
    /// The other end.
    pub b: String,
    /// Mod-defined values.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub values: BTreeMap<String, Value>,
}

/// Serde helper: a `BTreeMap<Hex, V>` as a list of `[hex, value]` pairs (JSON keys must be
/// strings; a list keeps the hex structured and the order sorted).
pub mod hex_keyed {
    use super::Hex;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::collections::BTreeMap;

    /// Writes the map as a sorted list of pairs.
    ///
    /// # Errors
    /// Whatever the serializer reports.
    pub fn serialize<S: Serializer, V: Serialize>(
        map: &BTreeMap<Hex, V>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_seq(map.iter())
    }

    /// Reads a list of pairs (a later duplicate hex wins).
    ///
    /// # Errors
    /// Whatever the deserializer reports.
    pub fn deserialize<'de, D: Deserializer<'de>, V: Deserialize<'de>>(
        d: D,
    ) -> Result<BTreeMap<Hex, V>, D::Error> {
        Ok(Vec::<(Hex, V)>::deserialize(d)?.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terrain_round_trips_as_pairs() {
        let mut b = BoardState::default();
        b.terrain.insert(Hex::new(1, -1), vec!["asteroids".into()]);
        b.terrain
            .insert(Hex::new(0, 0), vec!["planet".into(), "gravity".into()]);
        let json = serde_json::to_string(&b).unwrap();
        assert!(
            json.contains(r#""terrain":[[{"q":0,"r":0},["planet","gravity"]],[{"q":1,"r":-1}"#)
        );
        let back: BoardState = serde_json::from_str(&json).unwrap();
        assert_eq!(back, b);
        assert_eq!(
            b.terrain_at(Hex::new(0, 0), None),
            vec!["planet", "gravity"]
        );
    }

    #[test]
    fn graph_neighbours_are_sorted_and_unique() {
        let mut g = GraphMap::default();
        for (a, b) in [("c", "a"), ("a", "b"), ("b", "a")] {
            g.routes.push(Route {
                a: a.into(),
                b: b.into(),
                values: BTreeMap::new(),
            });
        }
        assert_eq!(g.neighbors("a"), vec!["b", "c"]);
        assert!(g.neighbors("z").is_empty());
    }
}
