//! The inspector panel: what is at the hovered or selected hex (kind, offset coordinate, sectors,
//! terrain, pieces), and the scene's overlays.
//!
//! **Read only:** it emits no commands today; piece editing will come with the runtime.
//!
//! ```no_run
//! # fn f(ui: &mut egui::Ui) {
//! use hexforge_editor::demo::{scene, DemoKind};
//! hexforge_editor::panels::inspector::show(ui, &scene(DemoKind::Hexagon), None, None);
//! # }
//! ```

use crate::board_view::BoardScene;
use hexforge_core::hex::Hex;

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
    let terrain = scene.board.terrain_at(h, None);
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
