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

    /// The shortest route from `from` to `to` (both included) through nodes `passable` accepts
    /// (the two ends are always allowed), or `None` if there is none or a node is unknown.
    ///
    /// Among routes of equal length the one whose sequence of node ids is alphabetically first
    /// wins, so the answer never depends on declaration order. Why breadth-first over sorted
    /// neighbours gives that: nodes of one level leave the queue in the order of their own
    /// (alphabetically first) routes, and each node keeps the first parent that reached it.
    ///
    /// ```
    /// use hexforge_game::{GraphMap, GraphNode, Route};
    /// let mut g = GraphMap::default();
    /// for n in ["a", "b", "c", "d"] { g.nodes.insert(n.into(), GraphNode::default()); }
    /// for (a, b) in [("a", "c"), ("a", "b"), ("b", "d"), ("c", "d")] {
    ///     g.routes.push(Route { a: a.into(), b: b.into(), values: Default::default() });
    /// }
    /// assert_eq!(g.shortest_route("a", "d", |_| true).unwrap(), ["a", "b", "d"]);
    /// assert_eq!(g.shortest_route("a", "d", |n| n != "b").unwrap(), ["a", "c", "d"]);
    /// ```
    #[must_use]
    pub fn shortest_route(
        &self,
        from: &str,
        to: &str,
        passable: impl Fn(&str) -> bool,
    ) -> Option<Vec<String>> {
        if !self.nodes.contains_key(from) || !self.nodes.contains_key(to) {
            return None;
        }
        let mut parent: BTreeMap<&str, &str> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([from]);
        parent.insert(from, from);
        while let Some(node) = queue.pop_front() {
            if node == to {
                let mut route = vec![to.to_owned()];
                let mut at = to;
                while at != from {
                    at = parent[at];
                    route.push(at.to_owned());
                }
                route.reverse();
                return Some(route);
            }
            for next in self.neighbors(node) {
                if parent.contains_key(next) || !self.nodes.contains_key(next) {
                    continue;
                }
                if next != to && !passable(next) {
                    continue;
                }
                parent.insert(next, node);
                queue.push_back(next);
            }
        }
        None
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

    fn star_map() -> GraphMap {
        // a - b - d - e, a - c - d (two equally short routes a..d), f isolated.
        let mut g = GraphMap::default();
        for n in ["a", "b", "c", "d", "e", "f"] {
            g.nodes.insert(n.into(), GraphNode::default());
        }
        for (a, b) in [("d", "e"), ("c", "d"), ("a", "c"), ("b", "d"), ("a", "b")] {
            g.routes.push(Route {
                a: a.into(),
                b: b.into(),
                values: BTreeMap::new(),
            });
        }
        g
    }

    #[test]
    fn shortest_routes_break_ties_alphabetically_and_respect_blockers() {
        let g = star_map();
        assert_eq!(
            g.shortest_route("a", "e", |_| true).unwrap(),
            ["a", "b", "d", "e"]
        );
        assert_eq!(
            g.shortest_route("e", "a", |_| true).unwrap(),
            ["e", "d", "b", "a"]
        );
        assert_eq!(
            g.shortest_route("a", "e", |n| n != "b").unwrap(),
            ["a", "c", "d", "e"]
        );
        assert_eq!(g.shortest_route("a", "e", |n| n != "d"), None);
        // The ends themselves are never blocked.
        assert_eq!(
            g.shortest_route("a", "b", |n| n != "b").unwrap(),
            ["a", "b"]
        );
        assert_eq!(g.shortest_route("a", "a", |_| true).unwrap(), ["a"]);
        assert_eq!(g.shortest_route("a", "f", |_| true), None);
        assert_eq!(g.shortest_route("a", "nowhere", |_| true), None);
    }

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
