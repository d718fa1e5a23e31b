//! Graph maps ([`hexforge_game::GraphMap`]) on the board: nodes at their `draw_at` positions,
//! spread on screen so no two circles or names overlap, routes as lines, each node's boxes inside
//! it, and one marker per side, box and counter label with a count ("WS 3"), up to the next
//! node (then "+N"; the node under the pointer lists every piece in a card). Nodes a choice
//! names are ringed in yellow, the selected piece's node in white, the hovered one thinly; a
//! click is a node ([`NodeLayout::node_at`]).
//!
//! **What it deliberately does not do:** hex boards (board_view), or decide what a node click
//! means (the app does).

use crate::board_view::{BoardScene, Camera};
use egui::{Color32, FontId, Pos2, Rect, Stroke, Vec2, pos2, vec2};
use hexforge_game::{GraphMap, Position};
use std::collections::BTreeMap;

/// Node positions pushed apart until every pair is at least `gap` apart (a few dozen rounds of
/// moving each too-close pair apart along the line between them, half each way; ties broken
/// by id order so the layout is the same every frame).
#[must_use]
pub fn spread(mut at: BTreeMap<&str, Pos2>, gap: f32) -> BTreeMap<&str, Pos2> {
    let ids: Vec<&str> = at.keys().copied().collect();
    for _ in 0..60 {
        let mut moved = false;
        for i in 0..ids.len() {
            for j in i + 1..ids.len() {
                let (a, b) = (at[ids[i]], at[ids[j]]);
                let d = b - a;
                let len = d.length();
                if len >= gap {
                    continue;
                }
                // Coincident nodes part sideways, the later one to the right.
                let dir = if len < 1e-3 { vec2(1.0, 0.0) } else { d / len };
                let push = dir * ((gap - len) / 2.0 + 0.5);
                at.insert(ids[i], a - push);
                at.insert(ids[j], b + push);
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    at
}

/// Where each node of a graph map is drawn this frame, and how big.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeLayout {
    /// Node id -> its centre on screen.
    pub at: BTreeMap<String, Pos2>,
    /// The radius of every node's circle.
    pub r: f32,
}

impl NodeLayout {
    /// The node whose circle holds `pos`, if any.
    #[must_use]
    pub fn node_at(&self, pos: Pos2) -> Option<&str> {
        self.at
            .iter()
            .filter(|(_, c)| c.distance(pos) <= self.r)
            .min_by(|a, b| a.1.distance(pos).total_cmp(&b.1.distance(pos)))
            .map(|(id, _)| id.as_str())
    }
}

/// Lays out `graph` in `rect` with the camera's zoom and pan: each node at its `draw_at`
/// position scaled to fit (nodes without one on a row at the bottom, in id order), then
/// pushed apart until no two circles (with room for a name above) overlap.
#[must_use]
pub fn layout_nodes(rect: Rect, graph: &GraphMap, camera: &Camera) -> NodeLayout {
    let mut pos: BTreeMap<&str, Pos2> = BTreeMap::new();
    let mut spare = 0.0;
    for (id, node) in &graph.nodes {
        let at = node.draw_at.map_or_else(
            || {
                spare += 1.0;
                pos2(spare * 100.0, -100.0)
            },
            |(x, y)| pos2(x as f32, y as f32),
        );
        pos.insert(id.as_str(), at);
    }
    let r = (30.0 * camera.zoom).clamp(10.0, 80.0);
    if pos.is_empty() {
        return NodeLayout {
            at: BTreeMap::new(),
            r,
        };
    }
    let (mut lo, mut hi) = (pos2(f32::MAX, f32::MAX), pos2(f32::MIN, f32::MIN));
    for q in pos.values() {
        lo = lo.min(*q);
        hi = hi.max(*q);
    }
    let span = (hi - lo).max(vec2(1.0, 1.0));
    let fit =
        ((rect.width() - 160.0).max(50.0) / span.x).min((rect.height() - 160.0).max(50.0) / span.y);
    let scale = fit * camera.zoom;
    let mid = lo + (hi - lo) * 0.5;
    let c = rect.center() + Vec2::from(camera.pan);
    let screen = spread(
        pos.iter()
            .map(|(id, q)| (*id, c + (*q - mid) * scale))
            .collect(),
        2.0 * r + 22.0,
    );
    NodeLayout {
        at: screen
            .into_iter()
            .map(|(id, q)| (id.to_owned(), q))
            .collect(),
        r,
    }
}

/// Draws graph map `graph` of `scene` as `layout` places it, `hovered` node ringed.
pub fn draw_graph(
    painter: &egui::Painter,
    layout: &NodeLayout,
    graph: &GraphMap,
    scene: &BoardScene,
    hovered: Option<&str>,
) {
    let r = layout.r;
    let colours = scene.side_colors();
    for route in &graph.routes {
        if let (Some(a), Some(b)) = (layout.at.get(&route.a), layout.at.get(&route.b)) {
            painter.line_segment([*a, *b], Stroke::new(2.0, Color32::from_gray(140)));
        }
    }
    for (id, node) in &graph.nodes {
        let Some(&at) = layout.at.get(id) else {
            continue;
        };
        // Opaque, so routes end at the rim instead of showing through.
        let [cr, cg, cb, _] = scene.terrain_fill(&node.kind).to_array();
        let dim = |c: u8| (f32::from(c) * 0.7) as u8;
        painter.circle(
            at,
            r,
            Color32::from_rgb(dim(cr), dim(cg), dim(cb)),
            Stroke::new(2.0, Color32::from_gray(220)),
        );
        // A choice's node, the selected piece's node, the node under the pointer.
        let rings = [
            (
                scene.lit_nodes.contains(id),
                3.0,
                Color32::from_rgb(0xf0, 0xe0, 0x40),
            ),
            (
                scene.selected_node.as_ref() == Some(id),
                3.0,
                Color32::WHITE,
            ),
            (hovered == Some(id.as_str()), 1.5, Color32::WHITE),
        ];
        let mut ring = r + 3.0;
        for (_, width, colour) in rings.into_iter().filter(|(on, ..)| *on) {
            painter.circle_stroke(at, ring, Stroke::new(width, colour));
            ring += width + 1.5;
        }
    }
    // Names, boxes and markers over every circle and ring, so no node hides its neighbour's.
    for (id, node) in &graph.nodes {
        let Some(&at) = layout.at.get(id) else {
            continue;
        };
        if let Some(note) = scene.node_notes.get(id) {
            let galley = painter.layout_no_wrap(
                note.clone(),
                FontId::proportional(12.0),
                Color32::from_rgb(0xff, 0xe0, 0x60),
            );
            let tag =
                Rect::from_center_size(at + vec2(0.0, r + 26.0), galley.size() + vec2(6.0, 2.0));
            painter.rect_filled(tag, 3.0, Color32::from_black_alpha(210));
            painter.galley(tag.min + vec2(3.0, 1.0), galley, Color32::WHITE);
        }
        let name = node
            .values
            .get("name")
            .and_then(|v| v.as_str())
            .unwrap_or(id);
        painter.text(
            at - vec2(0.0, r + 4.0),
            egui::Align2::CENTER_BOTTOM,
            name,
            FontId::proportional(13.0),
            Color32::WHITE,
        );
        // Boxes inside the node, stacked; a piece in a box sits at the box's right end, other
        // pieces at the node in a row under it.
        let n = node.boxes.len().max(1) as f32;
        let bh = (r * 1.4 / n).min(16.0);
        // Each box's rect, the width its markers use and how many pieces did not fit.
        let mut box_rects: BTreeMap<&str, (Rect, f32, usize)> = BTreeMap::new();
        for (i, box_id) in node.boxes.keys().enumerate() {
            let top = at.y - bh * n / 2.0 + bh * i as f32;
            let b = Rect::from_min_size(pos2(at.x - r * 0.7, top), vec2(r * 1.4, bh - 1.0));
            painter.rect_filled(b, 2.0, Color32::from_black_alpha(120));
            painter.text(
                b.center(),
                egui::Align2::CENTER_CENTER,
                box_id,
                FontId::proportional((bh * 0.7).clamp(6.0, 11.0)),
                Color32::from_gray(230),
            );
            box_rects.insert(box_id.as_str(), (b, 0.0, 0));
        }
        // One marker per (place, side, counter label) with a count, so a crowded orbit box
        // stays one row and still says what is there ("WS 3").
        let mut stacks: BTreeMap<(Option<&str>, &str, String), usize> = BTreeMap::new();
        for pc in &scene.pieces {
            let Position::Node { location, slot } = &pc.pos else {
                continue;
            };
            if location != id {
                continue;
            }
            let slot = slot.as_deref().filter(|s| box_rects.contains_key(s));
            let label = crate::counter_view::counter_of(scene, pc).label.clone();
            *stacks.entry((slot, pc.owner.as_str(), label)).or_default() += 1;
        }
        // Markers stop short of the next node to the right; the rest of a row is one "+N"
        // marker (the card under the pointer lists every piece).
        let room = layout
            .at
            .iter()
            .filter(|(other, q)| *other != id && (q.y - at.y).abs() < r * 1.6 && q.x > at.x)
            .map(|(_, q)| q.x - at.x - r - 0.7 * r - 6.0)
            .fold(
                painter.clip_rect().right() - at.x - 0.7 * r - 30.0,
                f32::min,
            );
        let mut loose = (0.0, 0);
        for ((slot, owner, label), count) in stacks {
            let text = if count > 1 {
                format!("{label} {count}")
            } else {
                label
            };
            let galley = painter.layout_no_wrap(text, FontId::proportional(10.0), Color32::WHITE);
            let w = galley.size().x + 6.0;
            let (used, hidden, left, y) = match slot.and_then(|s| box_rects.get_mut(s)) {
                Some((b, used, hidden)) => (used, hidden, b.right() + 2.0, b.center().y),
                None => (&mut loose.0, &mut loose.1, at.x - r, at.y + r + 10.0),
            };
            if *hidden > 0 || *used + w > room {
                *hidden += count;
                continue;
            }
            let marker = Rect::from_center_size(pos2(left + *used + w / 2.0, y), vec2(w, 12.0));
            *used += w + 2.0;
            painter.rect(
                marker,
                2.0,
                colours.get(owner).copied().unwrap_or(Color32::GRAY),
                Stroke::new(1.0, Color32::BLACK),
                egui::StrokeKind::Inside,
            );
            painter.galley(marker.min + vec2(3.0, 0.0), galley, Color32::WHITE);
        }
        let rows = box_rects
            .values()
            .map(|(b, used, hidden)| (b.right() + 2.0 + used, b.center().y, *hidden))
            .chain([(at.x - r + loose.0, at.y + r + 10.0, loose.1)]);
        for (x, y, hidden) in rows.filter(|(.., n)| *n > 0) {
            let galley = painter.layout_no_wrap(
                format!("+{hidden}"),
                FontId::proportional(10.0),
                Color32::WHITE,
            );
            let marker = Rect::from_min_size(pos2(x, y - 6.0), vec2(galley.size().x + 6.0, 12.0));
            painter.rect_filled(marker, 2.0, Color32::from_gray(70));
            painter.galley(marker.min + vec2(3.0, 0.0), galley, Color32::WHITE);
        }
    }
    // The node under the pointer: its id and name in the corner, its pieces, box by box, in a
    // card.
    if let Some(id) = hovered
        && let Some(&at) = layout.at.get(id)
    {
        let name = graph.nodes[id].values.get("name").and_then(|v| v.as_str());
        painter.text(
            painter.clip_rect().left_bottom() + vec2(8.0, -8.0),
            egui::Align2::LEFT_BOTTOM,
            format!(
                "node {id}{}",
                name.map_or(String::new(), |m| format!(" ({m})"))
            ),
            FontId::monospace(13.0),
            Color32::WHITE,
        );
        let mut here: Vec<&hexforge_game::Piece> = scene
            .pieces
            .iter()
            .filter(|p| matches!(&p.pos, Position::Node { location, .. } if location == id))
            .collect();
        here.sort_by_key(|p| match &p.pos {
            Position::Node { slot, .. } => (slot.clone(), p.id),
            _ => (None, p.id),
        });
        if !here.is_empty() {
            crate::counter_view::draw_card(painter, at + vec2(layout.r, layout.r), scene, &here);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_click_names_the_node_under_it_and_nothing_between_nodes() {
        let layout = NodeLayout {
            at: [
                ("a".to_owned(), pos2(0.0, 0.0)),
                ("b".to_owned(), pos2(100.0, 0.0)),
            ]
            .into_iter()
            .collect(),
            r: 20.0,
        };
        assert_eq!(layout.node_at(pos2(5.0, 5.0)), Some("a"));
        assert_eq!(layout.node_at(pos2(95.0, -10.0)), Some("b"));
        assert_eq!(layout.node_at(pos2(50.0, 0.0)), None);
    }

    #[test]
    fn spread_parts_overlapping_nodes_and_leaves_far_ones() {
        let at: BTreeMap<&str, Pos2> = [
            ("a", pos2(0.0, 0.0)),
            ("b", pos2(5.0, 0.0)),
            ("c", pos2(5.0, 0.0)),
            ("far", pos2(500.0, 500.0)),
        ]
        .into_iter()
        .collect();
        let out = spread(at.clone(), 60.0);
        for (x, y) in [("a", "b"), ("a", "c"), ("b", "c")] {
            assert!(out[x].distance(out[y]) >= 59.0, "{x} {y}: {out:?}");
        }
        assert_eq!(out["far"], at["far"]);
        assert_eq!(out, spread(at, 60.0), "the same every frame");
    }
}
