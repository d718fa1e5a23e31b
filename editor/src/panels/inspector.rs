//! The inspector panel: what is at the hovered or selected hex (kind, offset coordinate, sectors,
//! terrain, pieces) and the scene's overlays ([`show`]); and, for a running game
//! ([`show_game`]), the selected piece's values, its type's declared stats, the sides' states
//! and the clock.
//!
//! Piece values are mod-defined JSON; they are drawn as a tree of rows ([`tree_rows`]) whose
//! objects and arrays open and close with a click (the open paths live in [`InspectorState`]).
//! Several pieces in the selected hex (a stack, or a footprint covering it) are listed to pick
//! one.
//!
//! **Read only:** it changes nothing in the game. Its commands: open a piece type's declaration
//! ([`Command::OpenFile`]) and select a picked piece's hex ([`Command::SelectHex`]).
//!
//! ```no_run
//! # fn f(ui: &mut egui::Ui) {
//! use hexforge_editor::demo::{scene, DemoKind};
//! hexforge_editor::panels::inspector::show(ui, &scene(DemoKind::Hexagon), None, None);
//! # }
//! ```
//!
//! ```
//! use hexforge_editor::panels::inspector::tree_rows;
//! use std::collections::BTreeSet;
//! let v = serde_json::json!({ "hull": 3, "targets": [4, 5] });
//! let mut rows = Vec::new();
//! tree_rows("values", "values", &v, 0, &BTreeSet::new(), &mut rows);
//! assert_eq!(rows[0].text, "{2 keys}");
//! assert_eq!(rows.len(), 1); // closed: children hidden
//! ```

use crate::board_view::BoardScene;
use crate::command::Command;
use crate::panels::logs::short_value;
use hexforge_core::hex::Hex;
use hexforge_game::{GameState, Piece, PieceId, Position, Value, footprint_hexes};
use hexforge_script::decl::ModDecls;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn hex_details(ui: &mut egui::Ui, scene: &BoardScene, h: Hex) {
    ui.monospace(format!("q {}, r {}", h.q, h.r));
    if let Some(board) = &scene.board.shape {
        match board.kind(h) {
            Some(kind) => {
                ui.label(format!(
                    "{kind:?}{}",
                    if kind.is_enterable() {
                        ""
                    } else {
                        " (not enterable)"
                    }
                ));
            }
            None => {
                ui.label("off the board");
            }
        }
        if let Some(o) = board.offset(h) {
            ui.label(format!("col {}, row {}", o.col, o.row));
        }
        let sectors: Vec<String> = board.sectors_of(h).iter().map(|s| s.to_string()).collect();
        if !sectors.is_empty() {
            ui.label(format!("sectors {}", sectors.join(", ")));
        }
    }
    let terrain = scene.board.terrain_at(h, scene.label.as_deref());
    if !terrain.is_empty() {
        ui.label(format!("terrain: {}", terrain.join(", ")));
    }
    for p in &scene.pieces {
        let offsets = scene.footprints.get(&p.kind).map_or(&[][..], Vec::as_slice);
        if p.hexes(offsets).contains(&h) {
            let facing = p.facing.map(|d| format!(" facing {d}")).unwrap_or_default();
            ui.label(format!(
                "#{} {} ({}){facing}",
                p.id.0,
                p.kind,
                p.owner.as_str()
            ));
        }
    }
}

/// Draws the inspector.
pub fn show(ui: &mut egui::Ui, scene: &BoardScene, hovered: Option<Hex>, selected: Option<Hex>) {
    ui.heading("Inspector");
    ui.label(&scene.title);
    ui.separator();
    ui.strong("Hovered");
    match hovered {
        Some(h) => hex_details(ui, scene, h),
        None => {
            ui.weak("-");
        }
    }
    ui.separator();
    ui.strong("Selected");
    match selected {
        Some(h) => hex_details(ui, scene, h),
        None => {
            ui.weak("click a hex");
        }
    }
    ui.separator();
    ui.label(format!("pieces: {}", scene.pieces.len()));
    ui.label(format!("highlighted hexes: {}", scene.highlight.len()));
    ui.label(format!("path: {} hexes", scene.path.len()));
    ui.label(format!("lines of attack: {}", scene.lines.len()));
}

/// One row of a value tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeRow {
    /// Nesting depth (0 for the top value).
    pub depth: usize,
    /// The key (object field, `[i]` array index, or the top name).
    pub key: String,
    /// The value for leaves; `{n keys}` / `[n items]` for objects and arrays.
    pub text: String,
    /// The row's path (the open/closed state is kept by path).
    pub path: String,
    /// Children (0 for leaves and empty containers).
    pub children: usize,
    /// Whether the row is open (its children follow it).
    pub open: bool,
}

/// Flattens `value` into rows, depth first: a row per value, and the children of open
/// containers (those whose path is in `open`) after their parent.
pub fn tree_rows(
    key: &str,
    path: &str,
    value: &Value,
    depth: usize,
    open: &BTreeSet<String>,
    out: &mut Vec<TreeRow>,
) {
    let (text, children) = match value {
        Value::Object(m) => (
            format!(
                "{{{} {}}}",
                m.len(),
                if m.len() == 1 { "key" } else { "keys" }
            ),
            m.len(),
        ),
        Value::Array(a) => (
            format!(
                "[{} {}]",
                a.len(),
                if a.len() == 1 { "item" } else { "items" }
            ),
            a.len(),
        ),
        leaf => (short_value(leaf), 0),
    };
    let is_open = children > 0 && open.contains(path);
    out.push(TreeRow {
        depth,
        key: key.to_owned(),
        text,
        path: path.to_owned(),
        children,
        open: is_open,
    });
    if !is_open {
        return;
    }
    match value {
        Value::Object(m) => {
            for (k, v) in m {
                tree_rows(k, &format!("{path}/{k}"), v, depth + 1, open, out);
            }
        }
        Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                let k = format!("[{}]", i + 1);
                tree_rows(&k, &format!("{path}/{k}"), v, depth + 1, open, out);
            }
        }
        _ => {}
    }
}

/// The rows of a map of values (piece values, stats, side values), each a top-level entry.
#[must_use]
pub fn map_rows(
    prefix: &str,
    values: &BTreeMap<String, Value>,
    open: &BTreeSet<String>,
) -> Vec<TreeRow> {
    let mut out = Vec::new();
    for (k, v) in values {
        tree_rows(k, &format!("{prefix}/{k}"), v, 0, open, &mut out);
    }
    out
}

/// A position in words: `hex (1, 2)`, `node sol / orbit`, `box destroyed`.
#[must_use]
pub fn describe_position(p: &Position) -> String {
    match p {
        Position::Hex(h) => format!("hex {h}"),
        Position::Node {
            location,
            slot: Some(s),
        } => format!("node {location} / {s}"),
        Position::Node {
            location,
            slot: None,
        } => format!("node {location}"),
        Position::Box(b) => format!("box {b}"),
    }
}

/// Whether `piece` covers `hex` (its anchor, or any hex of its type's footprint).
fn covers(piece: &Piece, offsets: &[Hex], hex: Hex) -> bool {
    match piece.pos {
        Position::Hex(anchor) if offsets.is_empty() => anchor == hex,
        Position::Hex(anchor) => {
            // Cheap reject before rotating: a footprint never reaches farther than its offsets.
            let reach = offsets
                .iter()
                .map(|o| o.distance(Hex::ORIGIN))
                .max()
                .unwrap_or(0);
            anchor.distance(hex) <= reach
                && footprint_hexes(anchor, piece.facing, offsets).contains(&hex)
        }
        _ => false,
    }
}

/// The pieces covering `hex`, in id order.
#[must_use]
pub fn pieces_covering(state: &GameState, decls: &ModDecls, hex: Hex) -> Vec<PieceId> {
    state
        .pieces
        .values()
        .filter(|p| {
            let offsets = decls
                .piece_types
                .get(&p.kind)
                .map_or(&[][..], |t| t.footprint.as_slice());
            covers(p, offsets, hex)
        })
        .map(|p| p.id)
        .collect()
}

/// What the game inspector remembers between frames: the picked piece and the open tree rows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InspectorState {
    /// The piece shown. The app may set it (a piece clicked on a graph map); picking one in the
    /// list sets it too. Replaced by the first piece of the selected hex when it is not there.
    pub piece: Option<PieceId>,
    /// Paths of the open tree rows.
    pub open: BTreeSet<String>,
}

fn draw_rows(ui: &mut egui::Ui, rows: &[TreeRow], open: &mut BTreeSet<String>) {
    for row in rows {
        ui.horizontal(|ui| {
            ui.add_space(14.0 * row.depth as f32);
            if row.children > 0 {
                let arrow = if row.open { "v" } else { ">" };
                let text = format!("{arrow} {}: {}", row.key, row.text);
                if ui
                    .selectable_label(row.open, egui::RichText::new(text).monospace())
                    .clicked()
                    && !open.remove(&row.path)
                {
                    open.insert(row.path.clone());
                }
            } else {
                ui.monospace(format!("{}: {}", row.key, row.text));
            }
        });
    }
}

fn piece_details(
    ui: &mut egui::Ui,
    st: &mut InspectorState,
    piece: &Piece,
    decls: &ModDecls,
    base: &Path,
    cmds: &mut Vec<Command>,
) {
    let decl = decls.piece_types.get(&piece.kind);
    ui.strong(format!("Piece {}", piece.id));
    ui.horizontal(|ui| {
        ui.label(format!("type {}", piece.kind));
        if let Some(t) = decl {
            let loc = format!("{}:{}", t.source.file, t.source.line);
            if ui
                .link(egui::RichText::new(loc).monospace().small())
                .on_hover_text("open the declaration")
                .clicked()
            {
                cmds.push(Command::OpenFile {
                    path: base.join(&t.source.file),
                    line: Some(t.source.line as usize),
                });
            }
        } else {
            ui.colored_label(ui.visuals().warn_fg_color, "(not declared)");
        }
    });
    ui.label(format!("owner {}", piece.owner));
    let pos = describe_position(&piece.pos);
    match piece.pos.hex() {
        Some(h) => {
            if ui
                .link(format!("position {pos}"))
                .on_hover_text("select on the board")
                .clicked()
            {
                cmds.push(Command::SelectHex(h));
            }
        }
        None => {
            ui.label(format!("position {pos}"));
        }
    }
    if let Some(f) = piece.facing {
        ui.label(format!("facing {f}"));
    }
    let offsets = decl.map_or(&[][..], |t| t.footprint.as_slice());
    if !offsets.is_empty() {
        let hexes: Vec<String> = piece.hexes(offsets).iter().map(Hex::to_string).collect();
        ui.label(format!("footprint {}", hexes.join(" ")));
    }
    ui.separator();
    ui.strong("values");
    if piece.values.is_empty() {
        ui.weak("none");
    }
    let rows = map_rows(&format!("piece{}", piece.id.0), &piece.values, &st.open);
    draw_rows(ui, &rows, &mut st.open);
    if let Some(t) = decl {
        ui.strong("stats");
        if t.stats.is_empty() {
            ui.weak("none");
        }
        let rows = map_rows(&format!("type:{}", t.id), &t.stats, &st.open);
        draw_rows(ui, &rows, &mut st.open);
    }
}

fn clock(ui: &mut egui::Ui, state: &GameState, decls: &ModDecls) {
    let c = &state.clock;
    ui.strong("Clock");
    if c.round == 0 {
        ui.weak("not started");
        return;
    }
    let mut round = format!("round {}", c.round);
    if let Some(limit) = state
        .turn_limit
        .or(decls.turns.as_ref().and_then(|t| t.turn_limit))
    {
        round.push_str(&format!(" of {limit}"));
    }
    if decls.turns.as_ref().is_some_and(|t| t.segments > 1) {
        round.push_str(&format!(", segment {}", c.segment));
    }
    if let Some(l) = &c.label {
        round.push_str(&format!(" ({l})"));
    }
    ui.label(round);
    let phase = decls
        .turns
        .as_ref()
        .and_then(|t| t.phases.get(c.phase_index as usize))
        .map_or_else(|| format!("#{}", c.phase_index + 1), |p| p.id.clone());
    ui.label(format!("phase {phase}"));
    let acting: Vec<&str> = c.acting.iter().map(|s| s.as_str()).collect();
    ui.label(format!(
        "acting {}",
        if acting.is_empty() {
            "-".to_owned()
        } else {
            acting.join(", ")
        }
    ));
    if !c.done.is_empty() {
        let done: Vec<&str> = c.done.iter().map(|s| s.as_str()).collect();
        ui.label(format!("done {}", done.join(", ")));
    }
    if let Some(o) = &state.outcome {
        let winners: Vec<&str> = o.winners.iter().map(|s| s.as_str()).collect();
        ui.colored_label(
            ui.visuals().warn_fg_color,
            if winners.is_empty() {
                format!("draw: {}", o.reason)
            } else {
                format!("{} won: {}", winners.join(", "), o.reason)
            },
        );
    } else if c.finished {
        ui.weak("turn limit passed");
    }
}

fn sides(ui: &mut egui::Ui, st: &mut InspectorState, state: &GameState) {
    ui.strong("Sides");
    for side in state.sides.iter() {
        let mut title = format!("{} ({})", side.name, side.id);
        if let Some(t) = &side.team {
            title.push_str(&format!(", team {t}"));
        }
        if side.eliminated {
            title.push_str(", eliminated");
        }
        egui::CollapsingHeader::new(title)
            .id_salt(("inspector-side", side.id.as_str()))
            .default_open(true)
            .show(ui, |ui| {
                if side.values.is_empty() {
                    ui.weak("no values");
                }
                let rows = map_rows(&format!("side:{}", side.id), &side.values, &st.open);
                draw_rows(ui, &rows, &mut st.open);
            });
    }
}

/// Draws the running game's inspector: the clock, the piece picked in the selected hex (or
/// [`InspectorState::piece`]) with its values and its type's stats, and the sides. `base` is
/// the folder the declarations' file names are relative to (the mods root's parent).
pub fn show_game(
    ui: &mut egui::Ui,
    st: &mut InspectorState,
    state: &GameState,
    decls: &ModDecls,
    selected: Option<Hex>,
    base: &Path,
) -> Vec<Command> {
    let mut cmds = Vec::new();
    egui::ScrollArea::vertical()
        .id_salt("inspector-game")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            clock(ui, state, decls);
            ui.separator();
            let here = selected.map(|h| pieces_covering(state, decls, h));
            if let Some(ids) = &here {
                if ids.is_empty() {
                    ui.weak("no piece in the selected hex");
                } else if !st.piece.is_some_and(|p| ids.contains(&p)) {
                    st.piece = ids.first().copied();
                }
                if ids.len() > 1 {
                    ui.label(format!("{} pieces here:", ids.len()));
                    for id in ids {
                        if let Some(p) = state.pieces.get(id) {
                            let text = format!("{} {} ({})", p.id, p.kind, p.owner);
                            if ui.selectable_label(st.piece == Some(*id), text).clicked() {
                                st.piece = Some(*id);
                            }
                        }
                    }
                }
            }
            let shown = match (&here, st.piece) {
                (Some(ids), Some(p)) if ids.contains(&p) => state.pieces.get(&p),
                (None, Some(p)) => state.pieces.get(&p),
                _ => None,
            };
            match shown {
                Some(p) => piece_details(ui, st, p, decls, base, &mut cmds),
                None if here.is_none() => {
                    ui.weak("select a hex to inspect its pieces");
                }
                None => {}
            }
            ui.separator();
            sides(ui, st, state);
        });
    cmds
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn closed_containers_hide_their_children_and_open_ones_show_them() {
        let v = json!({ "hull": 3, "targets": [4, { "id": 5 }], "empty": {} });
        let mut open = BTreeSet::new();
        let mut rows = Vec::new();
        tree_rows("values", "v", &v, 0, &open, &mut rows);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].text, "{3 keys}");
        open.insert("v".to_owned());
        open.insert("v/targets".to_owned());
        rows.clear();
        tree_rows("values", "v", &v, 0, &open, &mut rows);
        let shown: Vec<(usize, &str, &str)> = rows
            .iter()
            .map(|r| (r.depth, r.key.as_str(), r.text.as_str()))
            .collect();
        assert_eq!(
            shown,
            vec![
                (0, "values", "{3 keys}"),
                (1, "empty", "{0 keys}"),
                (1, "hull", "3"),
                (1, "targets", "[2 items]"),
                (2, "[1]", "4"),
                (2, "[2]", "{1 key}"),
            ]
        );
        // An empty container never counts as open.
        assert!(!rows[1].open);
        assert_eq!(rows[5].path, "v/targets/[2]");
    }

    #[test]
    fn positions_read_as_words() {
        assert_eq!(
            describe_position(&Position::Hex(Hex::new(1, -2))),
            "hex (1, -2)"
        );
        assert_eq!(
            describe_position(&Position::Node {
                location: "sol".into(),
                slot: Some("orbit".into())
            }),
            "node sol / orbit"
        );
        assert_eq!(describe_position(&Position::Box("dead".into())), "box dead");
    }

    #[test]
    fn a_footprint_covers_the_hexes_behind_its_anchor() {
        let mut s = GameState::new(vec![], "t", Value::Null, 1);
        let big = s.add_piece(
            "cruiser",
            "red".into(),
            Position::Hex(Hex::new(0, 0)),
            Some(hexforge_core::hex::Direction::N),
        );
        let small = s.add_piece("frigate", "red".into(), Position::Hex(Hex::new(0, 1)), None);
        let mut decls = ModDecls::default();
        decls.piece_types.insert(
            "cruiser".into(),
            hexforge_script::decl::PieceTypeDecl {
                id: "cruiser".into(),
                stats: BTreeMap::new(),
                values: BTreeMap::new(),
                footprint: vec![Hex::new(0, 0), Hex::new(0, 1)],
                extra: BTreeMap::new(),
                source: Default::default(),
            },
        );
        assert_eq!(
            pieces_covering(&s, &decls, Hex::new(0, 1)),
            vec![big, small]
        );
        assert_eq!(pieces_covering(&s, &decls, Hex::new(0, 0)), vec![big]);
        assert!(pieces_covering(&s, &decls, Hex::new(0, -1)).is_empty());
    }
}
