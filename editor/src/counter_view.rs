//! Pieces on a hex board, drawn like a printed counter sheet: a square in the side's colour with
//! the label the mod declares in the middle, its factors along the bottom, a damage bar along
//! the top, status markers as tags beside it and a facing arrow outside the edge it faces.
//! Pieces sharing a hex are stacked with a count and fanned out while the pointer is on the hex;
//! the hovered hex's pieces are also listed in a card by the pointer, so a player can read a
//! stack without the inspector.
//!
//! What a counter says comes from the mod ([`hexforge_script::counters`]); a piece type that
//! declares nothing shows its type's first letters. Multi-hex pieces get a hull drawn through
//! their hexes with the counter on the anchor.
//!
//! **What it deliberately does not do:** decide anything, or draw graph maps (board_view's
//! graph_view). Floating point is for drawing only.

use crate::board_view::BoardScene;
use egui::{Color32, FontId, Pos2, Rect, Shape, Stroke, Vec2, pos2, vec2};
use hexforge_core::hex::Hex;
use hexforge_core::hex::layout::{Layout, direction_angle};
use hexforge_game::Piece;
use hexforge_script::counters::Counter;
use std::collections::BTreeMap;

/// The smallest counter side (points) that still shows its label; smaller ones are plain
/// squares.
const MIN_LABELLED: f32 = 13.0;

fn p(xy: (f32, f32)) -> Pos2 {
    pos2(xy.0, xy.1)
}

/// Black or white, whichever reads better on `fill`.
fn ink_on(fill: Color32) -> Color32 {
    let [r, g, b, _] = fill.to_array();
    let lum = 0.299 * f32::from(r) + 0.587 * f32::from(g) + 0.114 * f32::from(b);
    if lum > 150.0 {
        Color32::BLACK
    } else {
        Color32::WHITE
    }
}

/// The side of a counter on hexes of `size` (centre to corner): a little larger than the hex's
/// inner circle, as a counter on a printed map overlaps the hex lines, and never smaller than
/// [`READABLE`] while that is under three hexes wide (a counter should be read, not guessed;
/// on a board zoomed out further they become plain squares).
#[must_use]
pub fn counter_side(size: f32) -> f32 {
    (size * 1.3).max(READABLE.min(size * 3.0)).clamp(4.0, 140.0)
}

/// The side (points) at which a counter's label and factors read at a glance.
const READABLE: f32 = 32.0;

/// The counter of `piece`: the mod's, else the fallback.
#[must_use]
pub fn counter_of<'a>(scene: &'a BoardScene, piece: &Piece) -> std::borrow::Cow<'a, Counter> {
    scene.counters.get(&piece.id).map_or_else(
        || std::borrow::Cow::Owned(Counter::fallback(&piece.kind)),
        std::borrow::Cow::Borrowed,
    )
}

/// Draws every piece on a hex board. `hovered`: the hex under the pointer (its stack fans out
/// and is listed in a card).
pub fn draw_pieces(
    painter: &egui::Painter,
    layout: &Layout,
    scene: &BoardScene,
    hovered: Option<Hex>,
) {
    let colours = scene.side_colors();
    let colour_of = |p: &Piece| {
        colours
            .get(p.owner.as_str())
            .copied()
            .unwrap_or(Color32::GRAY)
    };
    let side = counter_side(layout.size);
    // Stacks by anchor hex, in id order.
    let mut stacks: BTreeMap<Hex, Vec<&Piece>> = BTreeMap::new();
    for piece in &scene.pieces {
        let hexes = piece_hexes(scene, piece);
        let Some(&anchor) = hexes.first() else {
            continue;
        };
        if hexes.len() >= 2 {
            draw_hull(painter, layout, &hexes, colour_of(piece));
        }
        stacks.entry(anchor).or_default().push(piece);
    }
    let mut fanned = None;
    for (&h, stack) in &stacks {
        let centre = p(layout.hex_to_pixel(h));
        if hovered == Some(h) && stack.len() > 1 {
            fanned = Some((centre, stack));
            continue;
        }
        // Lower pieces peek out up and to the right, as a real stack does.
        let step = vec2(side * 0.09, -side * 0.09);
        for (i, piece) in stack.iter().enumerate() {
            let at = centre + step * i as f32;
            draw_counter(
                painter,
                layout,
                at,
                side,
                piece,
                &counter_of(scene, piece),
                colour_of(piece),
            );
        }
        if stack.len() > 1 {
            let top = centre + step * (stack.len() - 1) as f32;
            stack_badge(
                painter,
                top + vec2(-side * 0.5, -side * 0.5),
                stack.len(),
                side,
            );
        }
    }
    // A hovered stack fans out in a row above its hex, drawn last so it covers its neighbours.
    if let Some((centre, stack)) = fanned {
        let n = stack.len() as f32;
        let gap = side * 1.25;
        for (i, piece) in stack.iter().enumerate() {
            let at = centre + vec2((i as f32 - (n - 1.0) / 2.0) * gap, -side * 0.2);
            draw_counter(
                painter,
                layout,
                at,
                side,
                piece,
                &counter_of(scene, piece),
                colour_of(piece),
            );
        }
    }
    if let Some(h) = hovered
        && let Some(stack) = stacks.get(&h)
    {
        let centre = p(layout.hex_to_pixel(h));
        draw_card(painter, centre + vec2(side * 0.9, side * 0.7), scene, stack);
    }
}

/// The hexes a piece covers (its footprint from its anchor and facing).
fn piece_hexes(scene: &BoardScene, piece: &Piece) -> Vec<Hex> {
    let offsets = scene
        .footprints
        .get(&piece.kind)
        .map_or(&[][..], Vec::as_slice);
    piece.hexes(offsets)
}

/// A multi-hex piece's hull: a thick band through its hexes' centres.
fn draw_hull(painter: &egui::Painter, layout: &Layout, hexes: &[Hex], colour: Color32) {
    let centres: Vec<Pos2> = hexes.iter().map(|&h| p(layout.hex_to_pixel(h))).collect();
    painter.add(Shape::line(
        centres.clone(),
        Stroke::new(layout.size * 0.9, Color32::BLACK),
    ));
    painter.add(Shape::line(
        centres,
        Stroke::new(layout.size * 0.75, colour.gamma_multiply(0.75)),
    ));
}

/// One counter centred on `at`, `side` points square.
fn draw_counter(
    painter: &egui::Painter,
    layout: &Layout,
    at: Pos2,
    side: f32,
    piece: &Piece,
    counter: &Counter,
    colour: Color32,
) {
    let rect = Rect::from_center_size(at, Vec2::splat(side));
    if let Some(facing) = piece.facing {
        // Outside the edge it faces, so it never covers the label.
        let a = direction_angle(layout.orientation, facing);
        let dir = vec2(a.sin(), -a.cos());
        let across = vec2(-dir.y, dir.x);
        let tip = at + dir * side * 0.9;
        let back = at + dir * side * 0.5;
        painter.add(Shape::convex_polygon(
            vec![
                tip,
                back + across * side * 0.24,
                back - across * side * 0.24,
            ],
            Color32::WHITE,
            Stroke::new(1.2, Color32::BLACK),
        ));
    }
    let rounding = side * 0.12;
    painter.rect(
        rect,
        rounding,
        colour,
        Stroke::new((side * 0.05).clamp(1.0, 2.0), Color32::BLACK),
        egui::StrokeKind::Inside,
    );
    if side < MIN_LABELLED {
        return;
    }
    let ink = ink_on(colour);
    // The damage bar along the top: red for what is lost.
    if let Some((taken, of)) = counter.damage {
        let bar = Rect::from_min_max(
            rect.left_top() + vec2(side * 0.1, side * 0.08),
            pos2(rect.right() - side * 0.1, rect.top() + side * 0.2),
        );
        painter.rect_filled(bar, 1.0, Color32::from_rgb(0x20, 0x40, 0x20));
        let lost = taken as f32 / of.max(1) as f32;
        let mut red = bar;
        red.set_width(bar.width() * lost);
        painter.rect_filled(red, 1.0, Color32::from_rgb(0xff, 0x30, 0x30));
        painter.rect_stroke(
            bar,
            1.0,
            Stroke::new(1.0, Color32::BLACK),
            egui::StrokeKind::Outside,
        );
    }
    let label_size = (side * 0.4).clamp(9.0, 44.0);
    painter.text(
        at - vec2(0.0, side * 0.02),
        egui::Align2::CENTER_CENTER,
        &counter.label,
        FontId::proportional(label_size),
        ink,
    );
    if !counter.factors.is_empty() {
        painter.text(
            pos2(at.x, rect.bottom() - side * 0.05),
            egui::Align2::CENTER_BOTTOM,
            &counter.factors,
            FontId::monospace((side * 0.27).clamp(8.0, 26.0)),
            ink,
        );
    }
    // Status markers: tags down the counter's right side.
    let font = FontId::proportional((side * 0.2).clamp(8.0, 16.0));
    let mut y = rect.top();
    for m in &counter.markers {
        let galley =
            painter.layout_no_wrap(m.clone(), font.clone(), Color32::from_rgb(0xff, 0xd0, 0x40));
        let tag = Rect::from_min_size(pos2(rect.right() + 1.0, y), galley.size() + vec2(4.0, 0.0));
        painter.rect_filled(tag, 2.0, Color32::from_black_alpha(200));
        painter.galley(tag.min + vec2(2.0, 0.0), galley, Color32::WHITE);
        y += tag.height() + 1.0;
    }
}

/// The count of a stack, on its top counter's corner.
fn stack_badge(painter: &egui::Painter, at: Pos2, n: usize, side: f32) {
    let r = (side * 0.2).clamp(6.0, 14.0);
    painter.circle(
        at,
        r,
        Color32::from_gray(20),
        Stroke::new(1.0, Color32::WHITE),
    );
    painter.text(
        at,
        egui::Align2::CENTER_CENTER,
        n.to_string(),
        FontId::proportional(r * 1.3),
        Color32::WHITE,
    );
}

/// One line per piece of a stack: id, type, side, counter, damage and markers.
#[must_use]
pub fn card_lines(scene: &BoardScene, stack: &[&Piece]) -> Vec<String> {
    stack
        .iter()
        .map(|piece| {
            let c = counter_of(scene, piece);
            let mut line = format!(
                "#{} {} ({}): {}",
                piece.id.0,
                piece.kind,
                piece.owner.as_str(),
                c.label
            );
            if !c.factors.is_empty() {
                line += &format!(" {}", c.factors);
            }
            if let Some((taken, of)) = c.damage {
                line += &format!(", damage {taken}/{of}");
            }
            if !c.markers.is_empty() {
                line += &format!(", {}", c.markers.join(", "));
            }
            line
        })
        .collect()
}

/// The card listing a stack, by the pointer.
pub(crate) fn draw_card(painter: &egui::Painter, at: Pos2, scene: &BoardScene, stack: &[&Piece]) {
    let text = card_lines(scene, stack).join("\n");
    let galley = painter.layout_no_wrap(text, FontId::proportional(13.0), Color32::WHITE);
    let mut card = Rect::from_min_size(at, galley.size() + vec2(12.0, 8.0));
    // Keep it inside the board.
    let clip = painter.clip_rect();
    if card.right() > clip.right() {
        card = card.translate(vec2(clip.right() - card.right(), 0.0));
    }
    if card.bottom() > clip.bottom() {
        card = card.translate(vec2(0.0, clip.bottom() - card.bottom()));
    }
    painter.rect(
        card,
        4.0,
        Color32::from_rgba_unmultiplied(0x10, 0x13, 0x1a, 235),
        Stroke::new(1.0, Color32::from_gray(160)),
        egui::StrokeKind::Inside,
    );
    painter.galley(card.min + vec2(6.0, 4.0), galley, Color32::WHITE);
}
