//! A line of attack (or sight) on a hex board, traced hex by hex with the engine's exact trace
//! (`hexforge_core::hex::trace`): the hexes it crosses outlined, a tie (the line along a
//! hexside) shown on both hexes, a vertex it touches marked, and any blocker on it crossed out.
//!
//! **What it deliberately does not do:** decide what blocks: the board view passes the
//! blocking hexes (terrain that is not enterable, pieces).

use crate::board_view::{hex_points, p, shrink};
use egui::{Color32, Pos2, Shape, Stroke, vec2};
use hexforge_core::hex::Hex;
use hexforge_core::hex::layout::Layout;
use hexforge_core::hex::trace::{TraceStep, trace};
use std::collections::BTreeSet;

/// Draws the traced line from `a` to `b`, `blocking` hexes on it crossed out.
pub(crate) fn draw_trace(
    painter: &egui::Painter,
    layout: &Layout,
    a: Hex,
    b: Hex,
    blocking: &BTreeSet<Hex>,
) {
    let t = trace(a, b);
    // A blocker on the line (not its ends): a black cross over the hex.
    let block_mark = |h: Hex| {
        if h != a && h != b && blocking.contains(&h) {
            let c = p(layout.hex_to_pixel(h));
            let r = layout.size * 0.45;
            let s = Stroke::new((layout.size * 0.12).clamp(1.5, 4.0), Color32::BLACK);
            painter.line_segment([c + vec2(-r, -r), c + vec2(r, r)], s);
            painter.line_segment([c + vec2(-r, r), c + vec2(r, -r)], s);
        }
    };
    let (pa, pb) = (p(layout.hex_to_pixel(a)), p(layout.hex_to_pixel(b)));
    let cross = Color32::from_rgba_unmultiplied(0xff, 0x50, 0x50, 60);
    let tie = Color32::from_rgb(0xff, 0xa0, 0x20);
    for step in t.steps() {
        match *step {
            TraceStep::Cross(h) => {
                painter.add(Shape::convex_polygon(
                    hex_points(layout, h),
                    cross,
                    Stroke::NONE,
                ));
                block_mark(h);
            }
            TraceStep::Vertex { touched } => {
                // Mark the corner the line passes through: the touched hex's corner nearest the
                // line.
                let corner = hex_points(layout, touched)
                    .into_iter()
                    .min_by(|x, y| seg_dist(*x, pa, pb).total_cmp(&seg_dist(*y, pa, pb)));
                painter.add(Shape::closed_line(
                    shrink(
                        &hex_points(layout, touched),
                        p(layout.hex_to_pixel(touched)),
                        0.85,
                    ),
                    Stroke::new(1.0, Color32::from_rgb(0xff, 0x80, 0x80)),
                ));
                if let Some(c) = corner {
                    painter.circle_stroke(c, 5.0, Stroke::new(2.0, Color32::WHITE));
                }
            }
            TraceStep::Tie { left, right } => {
                for h in [left, right] {
                    painter.add(Shape::convex_polygon(
                        hex_points(layout, h),
                        tie.gamma_multiply(0.25),
                        Stroke::NONE,
                    ));
                }
                if let Some(d) = left.direction_to(right) {
                    let c = hex_points(layout, left);
                    let i = usize::from(d.index());
                    painter.line_segment([c[(i + 5) % 6], c[i]], Stroke::new(4.0, tie));
                }
                block_mark(left);
                block_mark(right);
            }
        }
    }
    painter.line_segment(
        [pa, pb],
        Stroke::new(2.0, Color32::from_rgb(0xff, 0x60, 0x60)),
    );
    painter.circle_filled(pa, 4.0, Color32::from_rgb(0xff, 0x60, 0x60));
    painter.circle_filled(pb, 4.0, Color32::from_rgb(0xff, 0x60, 0x60));
}

/// Distance from `q` to the segment `a`-`b`.
fn seg_dist(q: Pos2, a: Pos2, b: Pos2) -> f32 {
    let ab = b - a;
    let t = ((q - a).dot(ab) / ab.length_sq().max(1e-6)).clamp(0.0, 1.0);
    (a + ab * t).distance(q)
}
