//! Built-in demo scenes, one per board kind, so the board view works without any mod.
//!
//! Each demo exercises what its board kind needs drawn: terrain, single- and multi-hex pieces
//! with facings, a movement highlight and path, and lines of attack (one with vertex touches, one
//! running along hexsides with ties). **They are pictures, not games:** no rules are involved.
//!
//! ```
//! use hexforge_editor::demo::{scene, DemoKind};
//! for kind in DemoKind::ALL {
//!     let s = scene(kind);
//!     assert!(s.board.shape.is_some() || s.graph.is_some());
//! }
//! ```

use crate::board_view::BoardScene;
use hexforge_core::board::Board;
use hexforge_core::hex::shapes::{range, ring};
use hexforge_core::hex::{Direction, Hex, Turn};
use hexforge_game::{GraphMap, GraphNode, Piece, PieceId, Position, Route, SideId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Which demo board to show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum DemoKind {
    /// A hexagon of radius 6.
    #[default]
    Hexagon,
    /// A 13 x 9 offset rectangle with half hexes (squadron-command).
    OffsetRect,
    /// Seven sector tiles of radius 3 (Solar Flare).
    Sectors,
    /// An explicit, irregular set of hexes.
    Explicit,
    /// A graph map of star systems.
    Graph,
}

impl DemoKind {
    /// Every demo, in menu order.
    pub const ALL: [DemoKind; 5] = [
        DemoKind::Hexagon,
        DemoKind::OffsetRect,
        DemoKind::Sectors,
        DemoKind::Explicit,
        DemoKind::Graph,
    ];

    /// The menu label.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            DemoKind::Hexagon => "Hexagon",
            DemoKind::OffsetRect => "Offset rectangle",
            DemoKind::Sectors => "Seven sectors",
            DemoKind::Explicit => "Explicit hexes",
            DemoKind::Graph => "Graph map",
        }
    }
}

fn piece(id: u32, kind: &str, owner: &str, pos: Position, facing: Option<Direction>) -> Piece {
    Piece {
        id: PieceId(id),
        kind: kind.into(),
        owner: SideId::new(owner),
        pos,
        facing,
        values: Default::default(),
    }
}

fn terrain(scene: &mut BoardScene, hexes: &[(i32, i32)], id: &str) {
    for &(q, r) in hexes {
        scene
            .board
            .terrain
            .insert(Hex::new(q, r), vec![id.to_owned()]);
    }
}

/// The demo scene of a kind.
#[must_use]
pub fn scene(kind: DemoKind) -> BoardScene {
    let mut s = BoardScene {
        title: format!("Demo: {}", kind.label()),
        ..BoardScene::default()
    };
    // A two-hex cruiser: stern one hex behind the bow.
    s.footprints
        .insert("cruiser".into(), vec![Hex::new(0, 0), Hex::new(0, 1)]);
    s.footprints.insert(
        "dreadnought".into(),
        vec![Hex::new(0, 0), Hex::new(0, 1), Hex::new(0, 2)],
    );
    match kind {
        DemoKind::Hexagon => {
            s.board.shape = Board::hexagon(6).ok();
            terrain(&mut s, &[(0, 0)], "planet");
            terrain(
                &mut s,
                &[(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)],
                "gravity",
            );
            terrain(&mut s, &[(4, -2), (4, -1), (5, -2), (3, -1)], "asteroids");
            terrain(&mut s, &[(-4, 3), (-3, 3), (-4, 4)], "nebula");
            s.pieces.push(piece(
                1,
                "frigate",
                "red",
                Position::Hex(Hex::new(-3, 1)),
                Some(Direction::NE),
            ));
            s.pieces.push(piece(
                2,
                "cruiser",
                "blue",
                Position::Hex(Hex::new(2, 2)),
                Some(Direction::NW),
            ));
            s.pieces.push(piece(
                3,
                "dreadnought",
                "blue",
                Position::Hex(Hex::new(3, -4)),
                Some(Direction::SW),
            ));
            s.pieces.push(piece(
                4,
                "base",
                "red",
                Position::Hex(Hex::new(-2, 5)),
                None,
            ));
            s.highlight = range(Hex::new(-3, 1), 2).collect();
            s.path = vec![
                Hex::new(-3, 1),
                Hex::new(-2, 0),
                Hex::new(-1, -1),
                Hex::new(0, -2),
            ];
            // Through a corner of (−1, 0), (0, 0) and (−1, 1): crosses two, touches the third.
            s.lines.push((Hex::new(-2, 0), Hex::new(2, 1)));
            // Along a hexside: a tie.
            s.lines.push((Hex::new(1, 3), Hex::new(3, -1)));
        }
        DemoKind::OffsetRect => {
            s.board.shape = Board::offset_rect(13, 9).ok();
            terrain(&mut s, &[(6, 4), (7, 4)], "asteroids");
            terrain(&mut s, &[(2, 2)], "nebula");
            s.pieces.push(piece(
                1,
                "frigate",
                "red",
                Position::Hex(Hex::new(1, 1)),
                Some(Direction::SE),
            ));
            s.pieces.push(piece(
                2,
                "cruiser",
                "blue",
                Position::Hex(Hex::new(5, 6)),
                Some(Direction::N),
            ));
            s.pieces.push(piece(
                3,
                "frigate",
                "blue",
                Position::Hex(Hex::new(8, 2)),
                Some(Direction::SW),
            ));
            s.highlight = range(Hex::new(1, 1), 2).collect();
            s.path = vec![
                Hex::new(1, 1),
                Hex::new(2, 1),
                Hex::new(3, 1),
                Hex::new(3, 2),
            ];
            // Along hexsides: ties between the hexes on either side.
            s.lines.push((Hex::new(5, 6), Hex::new(7, 2)));
        }
        DemoKind::Sectors => {
            s.board.shape = Board::sectors(3).ok();
            terrain(&mut s, &[(0, 0)], "star");
            terrain(&mut s, &[(3, -6), (-3, 6)], "planet");
            terrain(&mut s, &[(6, -3), (5, -3)], "asteroids");
            s.pieces.push(piece(
                1,
                "frigate",
                "red",
                Position::Hex(Hex::new(-5, 2)),
                Some(Direction::NE),
            ));
            s.pieces.push(piece(
                2,
                "cruiser",
                "blue",
                Position::Hex(Hex::new(3, 2)),
                Some(Direction::SW),
            ));
            s.lines.push((Hex::new(-5, 2), Hex::new(3, 2)));
        }
        DemoKind::Explicit => {
            let mut hexes: Vec<Hex> = ring(Hex::ORIGIN, 4, Direction::N, Turn::Clockwise).collect();
            hexes.extend(range(Hex::new(0, 0), 1));
            hexes.extend([
                Hex::new(0, -2),
                Hex::new(0, -3),
                Hex::new(2, 0),
                Hex::new(3, 0),
            ]);
            s.board.shape = Some(Board::explicit(hexes));
            terrain(&mut s, &[(0, 0)], "planet");
            s.pieces.push(piece(
                1,
                "frigate",
                "green",
                Position::Hex(Hex::new(0, -4)),
                Some(Direction::S),
            ));
            s.pieces.push(piece(
                2,
                "frigate",
                "yellow",
                Position::Hex(Hex::new(4, 0)),
                Some(Direction::NW),
            ));
            s.path = vec![
                Hex::new(0, -4),
                Hex::new(0, -3),
                Hex::new(0, -2),
                Hex::new(0, -1),
            ];
        }
        DemoKind::Graph => {
            let mut g = GraphMap::default();
            for (id, name, at, boxes) in [
                ("sol", "Sol", (0, 0), vec!["orbit", "environs"]),
                ("vega", "Vega", (300, -120), vec!["orbit"]),
                ("altair", "Altair", (260, 200), vec!["orbit", "drift"]),
                ("nav1", "Nav star", (-260, 140), vec![]),
            ] {
                let mut node = GraphNode {
                    kind: if boxes.is_empty() {
                        "navigation_star".into()
                    } else {
                        "system".into()
                    },
                    draw_at: Some(at),
                    ..GraphNode::default()
                };
                node.values.insert("name".into(), name.into());
                for b in boxes {
                    node.boxes.insert(b.into(), serde_json::Value::Null);
                }
                g.nodes.insert(id.into(), node);
            }
            for (a, b) in [
                ("sol", "vega"),
                ("sol", "altair"),
                ("vega", "altair"),
                ("sol", "nav1"),
            ] {
                g.routes.push(Route {
                    a: a.into(),
                    b: b.into(),
                    values: BTreeMap::new(),
                });
            }
            s.board.graphs.insert("stars".into(), g);
            s.graph = Some("stars".into());
            let at = |n: &str, slot: &str| Position::Node {
                location: n.into(),
                slot: Some(slot.into()),
            };
            s.pieces
                .push(piece(1, "fleet", "red", at("sol", "orbit"), None));
            s.pieces
                .push(piece(2, "fleet", "red", at("sol", "environs"), None));
            s.pieces
                .push(piece(3, "fleet", "blue", at("vega", "orbit"), None));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexforge_core::hex::trace::trace;

    #[test]
    fn demo_pieces_and_overlays_are_on_their_boards() {
        for kind in DemoKind::ALL {
            let s = scene(kind);
            let Some(board) = &s.board.shape else {
                continue;
            };
            for p in &s.pieces {
                let offs = s.footprints.get(&p.kind).cloned().unwrap_or_default();
                for h in p.hexes(&offs) {
                    assert!(board.is_enterable(h), "{kind:?} {p:?} at {h}");
                }
            }
            for h in &s.path {
                assert!(board.contains(*h), "{kind:?} path {h}");
            }
        }
    }

    #[test]
    fn demo_lines_show_vertices_and_ties() {
        let hex = scene(DemoKind::Hexagon);
        assert!(
            hex.lines
                .iter()
                .any(|&(a, b)| trace(a, b).vertices().count() > 0)
        );
        let off = scene(DemoKind::OffsetRect);
        assert!(off.lines.iter().any(|&(a, b)| trace(a, b).has_ties()));
    }
}
