//! The board view: draws a [`BoardScene`] (any core board kind, or a graph map) with terrain,
//! pieces, highlight sets, a path and line-of-attack overlays; pans with a drag, zooms with the
//! scroll wheel, and reports the hovered and clicked hex, node or arrow.
//!
//! Every board kind of [`hexforge_core::board::Board`] is drawn through
//! [`hexforge_core::hex::layout::Layout`], flat-top or pointy-top:
//! - hexagons and explicit sets: whole hexes;
//! - offset rectangles: the half hexes at the ends of odd rows are drawn as halves (cut at the
//!   board's side edges, through their vertices 0 and 3) and marked not enterable;
//! - seven sectors: each tile's outline (the seams) is drawn over the hexes, and the rim hexes are
//!   drawn clipped to the tiles that cover them.
//!
//! Graph maps ([`hexforge_game::GraphMap`]) are drawn by [`crate::graph_view`]; pieces on hex
//! boards by [`crate::counter_view`], lines of attack by [`crate::trace_view`], facing arrows by
//! [`crate::facing_picker`].
//!
//! Overlays: highlighted hexes (where a move may end), target outlines, the selected piece, a
//! path, and lines of attack traced hex by hex (crossed hexes shaded, vertex ties marked on the
//! shared hexside, blocking hexes on the line crossed out in black).
//!
//! **What it deliberately does not do:** decide anything. Which hexes to highlight, which path to
//! show and which lines of attack to trace come from the caller (the app, from the legal
//! actions); the view only
//! computes the exact trace of a line with [`hexforge_core::hex::trace::trace`] to draw it. Floating
//! point is used for drawing only.
//!
//! ```no_run
//! # fn frame(ui: &mut egui::Ui) {
//! use hexforge_editor::board_view::{show, Camera};
//! use hexforge_editor::demo::{scene, DemoKind};
//! let scene = scene(DemoKind::Sectors);
//! let mut camera = Camera::default();
//! let out = show(ui, &scene, &mut camera);
//! if let Some(h) = out.hovered { ui.label(format!("{h}")); }
//! # }
//! ```

use crate::colors::terrain_color;
use egui::{Color32, FontId, Pos2, Rect, Sense, Shape, Stroke, Vec2, pos2, vec2};
use hexforge_core::board::{Board, HexKind, Shape as BoardShape, sectors};
use hexforge_core::hex::layout::{Layout, Orientation};
use hexforge_core::hex::{Direction, Hex};
use hexforge_game::{BoardState, Piece, PieceId};
use hexforge_script::counters::Counter;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Everything the board view draws: the board, pieces and overlays.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoardScene {
    /// A short title (shown in the corner).
    pub title: String,
    /// The board: shape, terrain, timed terrain and graph maps.
    pub board: BoardState,
    /// Draw this graph map of `board.graphs` instead of the hex board.
    pub graph: Option<String>,
    /// The pieces (on hexes or on graph nodes; pieces in boxes are not drawn).
    pub pieces: Vec<Piece>,
    /// Footprint offsets by piece kind (facing N, relative to the anchor); absent = one hex.
    pub footprints: BTreeMap<String, Vec<Hex>>,
    /// Hexes to highlight (a movement preview).
    pub highlight: BTreeSet<Hex>,
    /// A path drawn as a polyline through hex centres.
    pub path: Vec<Hex>,
    /// Lines of attack (or sight), each traced hex by hex.
    pub lines: Vec<(Hex, Hex)>,
    /// Hexes of pieces that may be targeted (outlined in red).
    pub targets: BTreeSet<Hex>,
    /// Hexes of the selected piece (outlined in white).
    pub selected: BTreeSet<Hex>,
    /// Hexes that block a line (terrain that is not enterable, pieces): marked where a traced
    /// line crosses them. Pieces' hexes count as blockers on their own; this set adds terrain.
    pub blockers: BTreeSet<Hex>,
    /// The colour each terrain id declares (`game.terrain { color = "#a07850" }`); a terrain
    /// without one is drawn in [`terrain_color`].
    pub terrain_colors: BTreeMap<String, Color32>,
    /// The name each terrain id declares, for the legend (the id when it declares none).
    pub terrain_names: BTreeMap<String, String>,
    /// What each piece's counter shows, as its mod declares it (pieces not here show their
    /// type's first letters: [`crate::counter_view`]).
    pub counters: BTreeMap<PieceId, Counter>,
    /// A problem to show over the board (a broken counter declaration), or none.
    pub notice: Option<String>,
    /// The time-track label now (timed terrain shows only on its labels), none without a track.
    pub label: Option<String>,
    /// The hexes the last action named or moved (its pieces where they stand now, its hexes),
    /// outlined so a player sees what just happened.
    pub last: BTreeSet<Hex>,
    /// Short notes by hex, drawn under the hex (a target's hit chance from its action's label).
    pub notes: BTreeMap<Hex, String>,
    /// Graph nodes a choice names (a jump's destination), ringed in yellow.
    pub lit_nodes: BTreeSet<String>,
    /// Short notes by graph node, drawn under the node (a jump's odds, a battle's dice).
    pub node_notes: BTreeMap<String, String>,
    /// The graph node of the selected piece, ringed in white.
    pub selected_node: Option<String>,
    /// A facing picker: one arrow per direction a choice at that hex may end facing; a click
    /// on an arrow is [`BoardOutput::arrow`].
    pub arrows: Vec<(Hex, Direction)>,
    /// Why the hovered hex is not a choice of the selected piece (the mod's reason, asked
    /// once per hex), shown with the hex's coordinates.
    pub why_not: Option<(Hex, String)>,
    /// The orientation the board declares (its scenario's `[board] orientation`, else the
    /// shape's own: offset rows are pointy-top rows); `None` for demo boards.
    pub orientation: Option<Orientation>,
}

impl BoardScene {
    /// The colour of each side: never one near a terrain colour the mod declares.
    #[must_use]
    pub fn side_colors(&self) -> BTreeMap<String, Color32> {
        let avoid: Vec<Color32> = self.terrain_colors.values().copied().collect();
        crate::colors::owner_colors_avoiding(&self.pieces, &avoid)
    }

    /// The orientation the board is drawn in: the camera's when forced or when the board declares
    /// none, else the board's.
    #[must_use]
    pub fn orientation_seen(&self, camera: &Camera) -> Orientation {
        match self.orientation {
            Some(o) if !camera.forced => o,
            _ => camera.orientation,
        }
    }

    /// The fill of terrain `id`: its declared colour, else [`terrain_color`].
    #[must_use]
    pub fn terrain_fill(&self, id: &str) -> Color32 {
        self.terrain_colors
            .get(id)
            .copied()
            .unwrap_or_else(|| terrain_color(id))
    }
}

/// Where the view looks: pan, zoom and orientation. Persisted with the app state.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Camera {
    /// Screen offset of the board centre from the view centre, in points.
    pub pan: (f32, f32),
    /// Zoom factor relative to "fit the board in the view" (1.0).
    pub zoom: f32,
    /// Flat-top or pointy-top, when the board does not say (demo boards) or [`Camera::forced`].
    pub orientation: Orientation,
    /// Whether `orientation` overrides the one the board declares (the toolbar's toggle).
    pub forced: bool,
}

impl Default for Camera {
    fn default() -> Self {
        Camera {
            pan: (0.0, 0.0),
            zoom: 1.0,
            orientation: Orientation::Flat,
            forced: false,
        }
    }
}

/// What happened in the view this frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoardOutput {
    /// The hex layout used this frame (hex boards only): where each hex was drawn on screen.
    pub layout: Option<Layout>,
    /// The board hex under the pointer (hex boards only, and only hexes on the board).
    pub hovered: Option<Hex>,
    /// The board hex clicked this frame (not when the click hit a facing arrow).
    pub clicked: Option<Hex>,
    /// The facing arrow clicked this frame: its hex and direction.
    pub arrow: Option<(Hex, Direction)>,
    /// Where each graph node was drawn this frame (graph maps only).
    pub nodes: Option<crate::graph_view::NodeLayout>,
    /// The graph node under the pointer (graph maps only).
    pub hovered_node: Option<String>,
    /// The graph node clicked this frame.
    pub clicked_node: Option<String>,
}

/// Zoom limits (relative to fit).
const ZOOM_RANGE: (f32, f32) = (0.2, 12.0);

/// The hex-board layout that fits `board` in `rect` with `camera` applied.
#[must_use]
pub fn fit_layout(board: &Board, rect: Rect, camera: &Camera) -> Layout {
    let unit = Layout {
        orientation: camera.orientation,
        size: 1.0,
        origin: (0.0, 0.0),
    };
    let (mut lo, mut hi) = (pos2(f32::MAX, f32::MAX), pos2(f32::MIN, f32::MIN));
    for h in board.hexes() {
        for (x, y) in unit.corners(h) {
            lo = lo.min(pos2(x, y));
            hi = hi.max(pos2(x, y));
        }
    }
    if lo.x > hi.x {
        (lo, hi) = (pos2(-1.0, -1.0), pos2(1.0, 1.0));
    }
    let size = hi - lo;
    let fit = (rect.width() / size.x.max(1e-3)).min(rect.height() / size.y.max(1e-3)) * 0.94;
    let scale = (fit * camera.zoom).max(1e-3);
    let mid = lo + size * 0.5;
    let c = rect.center() + Vec2::from(camera.pan);
    Layout {
        orientation: camera.orientation,
        size: scale,
        origin: (c.x - mid.x * scale, c.y - mid.y * scale),
    }
}

pub(crate) fn p(xy: (f32, f32)) -> Pos2 {
    pos2(xy.0, xy.1)
}

pub(crate) fn hex_points(layout: &Layout, h: Hex) -> Vec<Pos2> {
    layout.corners(h).into_iter().map(p).collect()
}

/// Twice the signed area of a polygon (positive = clockwise on a y-down screen).
fn signed_area2(poly: &[Pos2]) -> f32 {
    let n = poly.len();
    (0..n)
        .map(|i| {
            let (a, b) = (poly[i], poly[(i + 1) % n]);
            a.x * b.y - b.x * a.y
        })
        .sum()
}

/// Clips a polygon to a convex polygon (Sutherland-Hodgman). Either winding works.
#[must_use]
pub fn clip_convex(subject: &[Pos2], clip: &[Pos2]) -> Vec<Pos2> {
    let sign = signed_area2(clip).signum();
    let mut out = subject.to_vec();
    let n = clip.len();
    for i in 0..n {
        if out.is_empty() {
            break;
        }
        let (a, b) = (clip[i], clip[(i + 1) % n]);
        let side = |q: Pos2| sign * ((b - a).x * (q - a).y - (b - a).y * (q - a).x);
        let input = std::mem::take(&mut out);
        for j in 0..input.len() {
            let (cur, prev) = (input[j], input[(j + input.len() - 1) % input.len()]);
            let (sc, sp) = (side(cur), side(prev));
            if sc >= 0.0 {
                if sp < 0.0 {
                    out.push(prev + (cur - prev) * (sp / (sp - sc)));
                }
                out.push(cur);
            } else if sp >= 0.0 {
                out.push(prev + (cur - prev) * (sp / (sp - sc)));
            }
        }
    }
    out
}

/// The pieces of a hex that are drawn: the whole hexagon, a half for a half hex, or the parts
/// covered by sector tiles for a rim hex.
fn visible_parts(board: &Board, layout: &Layout, h: Hex, kind: HexKind) -> Vec<Vec<Pos2>> {
    let full = hex_points(layout, h);
    match (kind, board.shape()) {
        (HexKind::Half, BoardShape::OffsetRect { .. }) => {
            // The side edge runs through vertices 0 and 3; column 0 keeps the side towards SE
            // (vertices 0..=3), the last column the side towards NW (vertices 3, 4, 5, 0).
            let left = board.col(h) == Some(0);
            let idx: [usize; 4] = if left { [0, 1, 2, 3] } else { [3, 4, 5, 0] };
            vec![idx.iter().map(|&i| full[i]).collect()]
        }
        (HexKind::Rim, BoardShape::Sectors { tile_radius }) => {
            let n = *tile_radius as i32;
            board
                .sectors_of(h)
                .iter()
                .filter_map(|s| sectors::sector_center(n, s))
                .map(|c| clip_convex(&full, &tile_outline(layout, c, n)))
                .filter(|part| part.len() >= 3)
                .collect()
        }
        _ => vec![full],
    }
}

/// The outline of a sector tile: through the centres of its six corner hexes.
fn tile_outline(layout: &Layout, centre: Hex, n: i32) -> Vec<Pos2> {
    Direction::ALL
        .iter()
        .map(|&d| p(layout.hex_to_pixel(centre.step(d, n))))
        .collect()
}

fn centroid(points: &[Pos2]) -> Pos2 {
    let n = points.len().max(1) as f32;
    let s = points.iter().fold(Vec2::ZERO, |acc, q| acc + q.to_vec2());
    (s / n).to_pos2()
}

/// Draws a small cross: the "not enterable" mark.
fn not_enterable_mark(painter: &egui::Painter, at: Pos2, r: f32) {
    let s = Stroke::new((r * 0.12).clamp(0.8, 2.0), Color32::from_gray(200));
    painter.line_segment([at + vec2(-r, -r) * 0.3, at + vec2(r, r) * 0.3], s);
    painter.line_segment([at + vec2(-r, r) * 0.3, at + vec2(r, -r) * 0.3], s);
}

/// Shows the scene in all the space available; returns the hovered and clicked hex.
pub fn show(ui: &mut egui::Ui, scene: &BoardScene, camera: &mut Camera) -> BoardOutput {
    let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, Color32::from_rgb(0x10, 0x13, 0x1a));

    // Pan with a drag, zoom with the wheel (or pinch) around the pointer.
    if response.dragged() {
        let d = response.drag_delta();
        camera.pan = (camera.pan.0 + d.x, camera.pan.1 + d.y);
    }
    if let Some(pointer) = response.hover_pos() {
        let (scroll, pinch) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
        let factor = (scroll * 0.0015).exp() * pinch;
        if (factor - 1.0).abs() > 1e-4 {
            let new_zoom = (camera.zoom * factor).clamp(ZOOM_RANGE.0, ZOOM_RANGE.1);
            let f = new_zoom / camera.zoom;
            let rel = pointer - rect.center();
            let pan = Vec2::from(camera.pan);
            let pan = rel - (rel - pan) * f;
            camera.pan = (pan.x, pan.y);
            camera.zoom = new_zoom;
        }
    }

    let mut out = BoardOutput::default();
    if let Some(graph) = scene.graph.as_ref().and_then(|g| scene.board.graphs.get(g)) {
        let nodes = crate::graph_view::layout_nodes(rect, graph, camera);
        out.hovered_node = response
            .hover_pos()
            .and_then(|pos| nodes.node_at(pos))
            .map(str::to_owned);
        crate::graph_view::draw_graph(&painter, &nodes, graph, scene, out.hovered_node.as_deref());
        if response.clicked() {
            out.clicked_node.clone_from(&out.hovered_node);
        }
        out.nodes = Some(nodes);
    } else if let Some(board) = &scene.board.shape {
        let seen = Camera {
            orientation: scene.orientation_seen(camera),
            ..*camera
        };
        let layout = fit_layout(board, rect, &seen);
        out.layout = Some(layout);
        let hovered = response
            .hover_pos()
            .map(|pos| layout.pixel_to_hex((pos.x, pos.y)))
            .filter(|&h| board.kind(h).is_some());
        draw_hex_board(&painter, &layout, board, scene);
        if let Some(h) = hovered
            && let Some(kind) = board.kind(h)
        {
            out.hovered = Some(h);
            painter.add(Shape::closed_line(
                hex_points(&layout, h),
                Stroke::new(2.0, Color32::WHITE),
            ));
            let mut text = format!("hex {}, {}", h.q, h.r);
            if let Some(o) = board.offset(h) {
                text += &format!("  (col {}, row {})", o.col, o.row);
            }
            if kind != HexKind::Full {
                text += &format!("  {kind:?}");
            }
            if let Some((at, why)) = &scene.why_not
                && *at == h
            {
                text += &format!("  {why}");
            }
            painter.text(
                rect.left_bottom() + vec2(8.0, -8.0),
                egui::Align2::LEFT_BOTTOM,
                text,
                FontId::monospace(13.0),
                Color32::WHITE,
            );
        }
        // Pieces last, so a hovered stack fans out and its card lies over everything.
        crate::counter_view::draw_pieces(&painter, &layout, scene, hovered);
        draw_notes(&painter, &layout, scene);
        let arrow = response
            .hover_pos()
            .and_then(|pos| crate::facing_picker::arrow_at(&layout, &scene.arrows, pos));
        crate::facing_picker::draw(&painter, &layout, &scene.arrows, arrow);
        if response.clicked() {
            match arrow {
                Some(a) => out.arrow = Some(a),
                None => out.clicked = out.hovered,
            }
        }
    } else {
        painter.text(
            rect.center(),
            egui::Align2::CENTER_CENTER,
            "no board",
            FontId::proportional(16.0),
            Color32::GRAY,
        );
    }
    painter.text(
        rect.left_top() + vec2(8.0, 6.0),
        egui::Align2::LEFT_TOP,
        &scene.title,
        FontId::proportional(14.0),
        Color32::from_gray(220),
    );
    if let Some(notice) = &scene.notice {
        painter.text(
            rect.left_top() + vec2(8.0, 26.0),
            egui::Align2::LEFT_TOP,
            notice,
            FontId::proportional(13.0),
            Color32::from_rgb(0xff, 0xa0, 0x40),
        );
    }
    out
}

fn draw_hex_board(painter: &egui::Painter, layout: &Layout, board: &Board, scene: &BoardScene) {
    let size = layout.size;
    let grid = Stroke::new((size * 0.04).clamp(0.5, 1.5), Color32::from_gray(90));
    let base = Color32::from_rgb(0x1c, 0x22, 0x30);
    let seam_fill = Color32::from_rgb(0x24, 0x2c, 0x3c);
    let show_labels = size > 18.0;

    // Hexes and terrain.
    for h in board.hexes() {
        let Some(kind) = board.kind(h) else { continue };
        let terrain = scene.board.terrain_at(h, scene.label.as_deref());
        let mut fill = match kind {
            HexKind::Seam => seam_fill,
            _ => base,
        };
        if let Some(t) = terrain.first() {
            fill = scene.terrain_fill(t);
        }
        if !kind.is_enterable() {
            fill = fill.gamma_multiply(0.55);
        }
        let parts = visible_parts(board, layout, h, kind);
        for part in &parts {
            painter.add(Shape::convex_polygon(part.clone(), fill, grid));
        }
        let centre = centroid(&parts.concat());
        if !kind.is_enterable() {
            not_enterable_mark(painter, centre, size);
        } else if show_labels && !terrain.is_empty() {
            // Chars, not bytes: terrain ids come from mods and may be any UTF-8.
            let label: Vec<String> = terrain
                .iter()
                .map(|t| t.chars().take(3).collect())
                .collect();
            let label = label.join("/");
            painter.text(
                p(layout.hex_to_pixel(h)) + vec2(0.0, size * 0.55),
                egui::Align2::CENTER_CENTER,
                label,
                FontId::proportional((size * 0.28).clamp(8.0, 13.0)),
                Color32::from_gray(235),
            );
        }
    }

    // Sector seams: each tile's outline over the hexes.
    if let BoardShape::Sectors { tile_radius } = board.shape() {
        let n = *tile_radius as i32;
        for s in 0..=6u8 {
            if let Some(c) = sectors::sector_center(n, s) {
                painter.add(Shape::closed_line(
                    tile_outline(layout, c, n),
                    Stroke::new(
                        (size * 0.08).clamp(1.0, 3.0),
                        Color32::from_rgb(0xe0, 0xb0, 0x40),
                    ),
                ));
                painter.text(
                    p(layout.hex_to_pixel(c)) - vec2(0.0, size * 0.5),
                    egui::Align2::CENTER_CENTER,
                    format!("sector {s}"),
                    FontId::proportional((size * 0.3).clamp(8.0, 14.0)),
                    Color32::from_rgb(0xe0, 0xb0, 0x40),
                );
            }
        }
    }

    // Highlights (movement preview).
    // Drawn over the visible part only, so half and rim hexes stay partial.
    for &h in &scene.highlight {
        let Some(kind) = board.kind(h) else { continue };
        for part in visible_parts(board, layout, h, kind) {
            painter.add(Shape::convex_polygon(
                shrink(&part, centroid(&part), 0.9),
                Color32::from_rgba_unmultiplied(0xf0, 0xe0, 0x40, 50),
                Stroke::new(1.5, Color32::from_rgb(0xf0, 0xe0, 0x40)),
            ));
        }
    }

    // Targets, the last action and the selected piece.
    for (set, colour, width) in [
        (&scene.last, Color32::from_rgb(0xff, 0x90, 0x20), 2.0),
        (&scene.targets, Color32::from_rgb(0xff, 0x40, 0x40), 2.5),
        (&scene.selected, Color32::WHITE, 3.0),
    ] {
        for &h in set {
            painter.add(Shape::closed_line(
                shrink(&hex_points(layout, h), p(layout.hex_to_pixel(h)), 0.92),
                Stroke::new(width, colour),
            ));
        }
    }

    // Lines of attack.
    if !scene.lines.is_empty() {
        let mut blocking = scene.blockers.clone();
        for piece in &scene.pieces {
            let offsets = scene
                .footprints
                .get(&piece.kind)
                .map_or(&[][..], Vec::as_slice);
            blocking.extend(piece.hexes(offsets));
        }
        for &(a, b) in &scene.lines {
            crate::trace_view::draw_trace(painter, layout, a, b, &blocking);
        }
    }

    // The path.
    if scene.path.len() >= 2 {
        let pts: Vec<Pos2> = scene
            .path
            .iter()
            .map(|&h| p(layout.hex_to_pixel(h)))
            .collect();
        painter.add(Shape::line(
            pts.clone(),
            Stroke::new(3.0, Color32::from_rgb(0x60, 0xe0, 0xe0)),
        ));
        for q in pts {
            painter.circle_filled(q, 3.5, Color32::from_rgb(0x60, 0xe0, 0xe0));
        }
    }

    draw_legend(painter, board, scene);
}

/// The short notes of [`BoardScene::notes`], on a dark tag under each hex's centre.
fn draw_notes(painter: &egui::Painter, layout: &Layout, scene: &BoardScene) {
    let font = FontId::proportional((layout.size * 0.35).clamp(10.0, 14.0));
    for (&h, note) in &scene.notes {
        let at = p(layout.hex_to_pixel(h)) + vec2(0.0, layout.size * 0.55);
        let galley = painter.layout_no_wrap(
            note.clone(),
            font.clone(),
            Color32::from_rgb(0xff, 0xe0, 0x60),
        );
        let tag = Rect::from_center_size(at, galley.size() + vec2(6.0, 2.0));
        painter.rect_filled(tag, 3.0, Color32::from_black_alpha(210));
        painter.galley(tag.min + vec2(3.0, 1.0), galley, Color32::WHITE);
    }
}

/// The terrain legend in the board's bottom-right corner: a swatch and the name of each terrain
/// on the board.
fn draw_legend(painter: &egui::Painter, board: &Board, scene: &BoardScene) {
    let mut present = BTreeSet::new();
    for h in board.hexes() {
        for t in scene.board.terrain_at(h, scene.label.as_deref()) {
            present.insert(t.to_owned());
        }
    }
    if present.is_empty() {
        return;
    }
    let font = FontId::proportional(12.0);
    let line = 16.0;
    let names: Vec<(String, String)> = present
        .into_iter()
        .map(|id| {
            let name = scene
                .terrain_names
                .get(&id)
                .cloned()
                .unwrap_or_else(|| id.clone());
            (id, name)
        })
        .collect();
    let width = names
        .iter()
        .map(|(_, n)| {
            painter
                .layout_no_wrap(n.clone(), font.clone(), Color32::WHITE)
                .size()
                .x
        })
        .fold(0.0, f32::max)
        + 30.0;
    let clip = painter.clip_rect();
    let height = line * names.len() as f32 + 8.0;
    let box_rect = Rect::from_min_size(
        clip.right_bottom() - vec2(width + 8.0, height + 8.0),
        vec2(width, height),
    );
    painter.rect_filled(box_rect, 4.0, Color32::from_black_alpha(170));
    for (i, (id, name)) in names.iter().enumerate() {
        let y = box_rect.top() + 4.0 + line * i as f32;
        let swatch = Rect::from_min_size(pos2(box_rect.left() + 6.0, y + 2.0), vec2(14.0, 12.0));
        painter.rect(
            swatch,
            2.0,
            scene.terrain_fill(id),
            Stroke::new(1.0, Color32::from_gray(200)),
            egui::StrokeKind::Inside,
        );
        painter.text(
            pos2(swatch.right() + 6.0, y + line / 2.0),
            egui::Align2::LEFT_CENTER,
            name,
            font.clone(),
            Color32::WHITE,
        );
    }
}

pub(crate) fn shrink(points: &[Pos2], centre: Pos2, f: f32) -> Vec<Pos2> {
    points.iter().map(|&q| centre + (q - centre) * f).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::colors::parse_color;

    #[test]
    fn clip_a_square_by_a_triangle_keeps_the_overlap() {
        let square = [
            pos2(0.0, 0.0),
            pos2(2.0, 0.0),
            pos2(2.0, 2.0),
            pos2(0.0, 2.0),
        ];
        // The half-plane left of x = 1 as a big triangle.
        let tri = [
            pos2(-10.0, -10.0),
            pos2(1.0, -10.0),
            pos2(1.0, 10.0),
            pos2(-10.0, 10.0),
        ];
        let out = clip_convex(&square, &tri);
        let area = signed_area2(&out).abs() / 2.0;
        assert!((area - 2.0).abs() < 1e-4, "{out:?}");
        // The other winding gives the same result.
        let rev: Vec<Pos2> = tri.iter().rev().copied().collect();
        assert!((signed_area2(&clip_convex(&square, &rev)).abs() / 2.0 - 2.0).abs() < 1e-4);
    }

    fn area(parts: &[Vec<Pos2>]) -> f32 {
        parts.iter().map(|q| signed_area2(q).abs() / 2.0).sum()
    }

    #[test]
    fn half_and_rim_hexes_are_drawn_partial() {
        let rect = Rect::from_min_size(Pos2::ZERO, vec2(800.0, 600.0));
        for orientation in [Orientation::Flat, Orientation::Pointy] {
            let cam = Camera {
                orientation,
                ..Camera::default()
            };
            // Offset board: a half hex is half a hexagon, on the board side of the edge.
            let board = Board::offset_rect(5, 4).unwrap();
            let layout = fit_layout(&board, rect, &cam);
            let whole = area(&visible_parts(
                &board,
                &layout,
                board.hex_at(2, 1).unwrap(),
                HexKind::Full,
            ));
            for col in [0, 5] {
                let h = board.hex_at(col, 1).unwrap();
                let parts = visible_parts(&board, &layout, h, HexKind::Half);
                assert!((area(&parts) / whole - 0.5).abs() < 1e-3);
                // Its centroid lies towards the board's middle.
                let inner = p(layout.hex_to_pixel(board.hex_at(2, 1).unwrap()));
                let c = centroid(&parts[0]);
                let hc = p(layout.hex_to_pixel(h));
                assert!(c.distance(inner) < hc.distance(inner));
            }
            // Sector board: every rim hex is drawn as its covered sixths.
            let board = Board::sectors(2).unwrap();
            let layout = fit_layout(&board, rect, &cam);
            let whole = area(&visible_parts(&board, &layout, Hex::ORIGIN, HexKind::Full));
            for h in board.hexes() {
                let kind = board.kind(h).unwrap();
                let got = area(&visible_parts(&board, &layout, h, kind)) / whole * 6.0;
                let want = f32::from(sectors::coverage(2, h).sixths);
                if kind == HexKind::Rim {
                    assert!((got - want).abs() < 0.05, "{h}: {got} vs {want}");
                    assert!(want < 6.0);
                } else {
                    assert!((got - 6.0).abs() < 0.05);
                }
            }
        }
    }

    #[test]
    fn fit_layout_puts_the_board_inside_the_rect() {
        let rect = Rect::from_min_size(pos2(10.0, 20.0), vec2(640.0, 480.0));
        let board = Board::hexagon(5).unwrap();
        let layout = fit_layout(&board, rect, &Camera::default());
        for h in board.hexes() {
            for c in layout.corners(h) {
                assert!(rect.expand(0.5).contains(p(c)), "{h}");
            }
        }
        // Pointer round trip.
        let c = layout.hex_to_pixel(Hex::new(2, -1));
        assert_eq!(layout.pixel_to_hex(c), Hex::new(2, -1));
    }

    #[test]
    fn declared_terrain_colours_are_read_and_win() {
        assert_eq!(
            parse_color("#a07850"),
            Some(Color32::from_rgb(0xa0, 0x78, 0x50))
        );
        assert_eq!(
            parse_color("#7a5"),
            Some(Color32::from_rgb(0x77, 0xaa, 0x55))
        );
        for bad in ["a07850", "#a0785", "#zzz", "#", "#12345678"] {
            assert_eq!(parse_color(bad), None, "{bad}");
        }
        let mut scene = BoardScene::default();
        assert_eq!(scene.terrain_fill("planet"), terrain_color("planet"));
        scene
            .terrain_colors
            .insert("planet".into(), Color32::from_rgb(1, 2, 3));
        assert_eq!(scene.terrain_fill("planet"), Color32::from_rgb(1, 2, 3));
    }
}
