//! The facing picker: arrows drawn on a hex, one per direction a choice there may end facing,
//! and which arrow the pointer is on. A piece that moves to a hex (or is placed on one) and
//! then faces one of several ways is finished with one click on an arrow instead of a list.
//!
//! Each arrow points from the hex's centre towards the neighbour in its direction, so it
//! follows the board as drawn (flat or pointy, any zoom). The arrow under the pointer is the
//! one whose direction is nearest the pointer's angle from the centre, anywhere in the hex but
//! its middle.
//!
//! **What it deliberately does not do:** know which actions the arrows stand for: the app puts
//! `(hex, direction)` pairs in [`crate::board_view::BoardScene::arrows`] and maps a clicked
//! pair back to its action.

use egui::{Color32, Pos2, Shape, Stroke, Vec2, pos2};
use hexforge_core::hex::layout::Layout;
use hexforge_core::hex::{Direction, Hex};

/// The unit vector from `h`'s centre towards its neighbour in direction `d`, on screen.
fn unit(layout: &Layout, h: Hex, d: Direction) -> Vec2 {
    let (a, b) = (layout.hex_to_pixel(h), layout.hex_to_pixel(h.neighbor(d)));
    Vec2::new(b.0 - a.0, b.1 - a.1).normalized()
}

fn centre(layout: &Layout, h: Hex) -> Pos2 {
    let (x, y) = layout.hex_to_pixel(h);
    pos2(x, y)
}

/// The arrow of `arrows` under `pos`: on one of their hexes, away from its middle, the one
/// pointing nearest the pointer's direction from the centre.
#[must_use]
pub fn arrow_at(
    layout: &Layout,
    arrows: &[(Hex, Direction)],
    pos: Pos2,
) -> Option<(Hex, Direction)> {
    let h = layout.pixel_to_hex((pos.x, pos.y));
    let off = pos - centre(layout, h);
    if off.length() < layout.size * 0.2 {
        return None;
    }
    let dir = off.normalized();
    arrows
        .iter()
        .filter(|(at, _)| *at == h)
        .max_by(|a, b| {
            let (da, db) = (unit(layout, h, a.1).dot(dir), unit(layout, h, b.1).dot(dir));
            da.total_cmp(&db)
        })
        .copied()
}

/// Draws `arrows`, `hovered` brighter and larger.
pub fn draw(
    painter: &egui::Painter,
    layout: &Layout,
    arrows: &[(Hex, Direction)],
    hovered: Option<(Hex, Direction)>,
) {
    let s = layout.size;
    for &(h, d) in arrows {
        let (c, u) = (centre(layout, h), unit(layout, h, d));
        let side = Vec2::new(-u.y, u.x);
        let on = hovered == Some((h, d));
        let (len, half) = if on { (0.95, 0.3) } else { (0.85, 0.24) };
        let tip = c + u * s * len;
        let base = c + u * s * 0.35;
        let fill = if on {
            Color32::from_rgb(0xff, 0xf0, 0x60)
        } else {
            Color32::from_rgba_unmultiplied(0xf0, 0xe0, 0x40, 200)
        };
        painter.add(Shape::convex_polygon(
            vec![tip, base + side * s * half, base - side * s * half],
            fill,
            Stroke::new(1.5, Color32::BLACK),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexforge_core::hex::layout::Orientation;

    #[test]
    fn the_arrow_under_the_pointer_is_the_one_pointing_its_way() {
        for orientation in [Orientation::Flat, Orientation::Pointy] {
            let layout = Layout {
                orientation,
                size: 40.0,
                origin: (200.0, 200.0),
            };
            let h = Hex::new(0, 0);
            let arrows: Vec<(Hex, Direction)> = Direction::ALL.iter().map(|&d| (h, d)).collect();
            for &d in &Direction::ALL {
                let p = centre(&layout, h) + unit(&layout, h, d) * 25.0;
                assert_eq!(
                    arrow_at(&layout, &arrows, p),
                    Some((h, d)),
                    "{orientation:?}"
                );
            }
            assert_eq!(
                arrow_at(&layout, &arrows, centre(&layout, h)),
                None,
                "the middle"
            );
            let elsewhere = centre(&layout, Hex::new(3, 0));
            assert_eq!(
                arrow_at(&layout, &arrows, elsewhere + Vec2::new(20.0, 0.0)),
                None
            );
        }
    }

    #[test]
    fn only_the_offered_directions_are_picked() {
        let layout = Layout {
            orientation: Orientation::Flat,
            size: 40.0,
            origin: (0.0, 0.0),
        };
        let h = Hex::new(0, 0);
        let arrows = [(h, Direction::ALL[0])];
        // Any angle in the hex picks the only arrow there is.
        let p = centre(&layout, h) + unit(&layout, h, Direction::ALL[3]) * 25.0;
        assert_eq!(arrow_at(&layout, &arrows, p), Some((h, Direction::ALL[0])));
    }
}
