//! Colours of the board: sides (named colours, then a palette no named side uses), terrain
//! (the colour its mod declares, else a fixed or hashed one that is never a side's), and the
//! `#rgb` / `#rrggbb` text mods write them in. Drawing only: no rule reads a colour.

use egui::Color32;
use hexforge_game::Piece;
use std::collections::{BTreeMap, BTreeSet};

/// A colour written `#rgb` or `#rrggbb` (as mods declare terrain colours), or `None`.
#[must_use]
pub fn parse_color(text: &str) -> Option<Color32> {
    let hex = text.strip_prefix('#')?;
    let digit = |i: usize| u8::from_str_radix(hex.get(i..=i)?, 16).ok();
    let pair = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
    match hex.len() {
        3 => Some(Color32::from_rgb(
            digit(0)? * 17,
            digit(1)? * 17,
            digit(2)? * 17,
        )),
        6 => Some(Color32::from_rgb(pair(0)?, pair(2)?, pair(4)?)),
        _ => None,
    }
}

/// A deterministic colour for a name (FNV-1a hash to a hue): the same terrain or owner id always
/// gets the same colour, whatever the mod.
#[must_use]
pub fn name_color(name: &str, saturation: f32, value: f32) -> Color32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in name.bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    let hue = (h % 360) as f32 / 360.0;
    egui::ecolor::Hsva::new(hue, saturation, value, 1.0).into()
}

/// The fill colour of a terrain id that declares none (well-known ids get fixed colours, none of
/// them a side's: a planet is not drawn in Blue's colour).
#[must_use]
pub fn terrain_color(id: &str) -> Color32 {
    match id {
        "planet" => Color32::from_rgb(0xa0, 0x78, 0x50),
        "asteroids" | "asteroid" => Color32::from_rgb(0x7a, 0x5c, 0x3e),
        "nebula" => Color32::from_rgb(0x6a, 0x3f, 0x8a),
        "gravity" => Color32::from_rgb(0x33, 0x55, 0x66),
        "star" | "sun" => Color32::from_rgb(0xd9, 0xa4, 0x2b),
        "planetoid" => Color32::from_rgb(0x8a, 0x8a, 0x52),
        other => name_color(other, 0.45, 0.55),
    }
}

/// The colour of a side.
#[must_use]
pub fn owner_color(owner: &str) -> Color32 {
    match owner {
        "red" => Color32::from_rgb(0xd0, 0x3c, 0x3c),
        "blue" => Color32::from_rgb(0x3c, 0x7c, 0xe0),
        "green" => Color32::from_rgb(0x3c, 0xb0, 0x5a),
        "yellow" => Color32::from_rgb(0xe0, 0xc0, 0x30),
        other => name_color(other, 0.7, 0.85),
    }
}

/// Side colours for a scene: ids that name a colour keep it; the other sides take distinct
/// palette colours in id order (hashing alone can give two sides near-identical hues).
#[must_use]
pub fn owner_colors(pieces: &[Piece]) -> BTreeMap<String, Color32> {
    owner_colors_avoiding(pieces, &[])
}

/// Whether two colours are hard to tell apart on the board.
fn near(a: Color32, b: Color32) -> bool {
    let [ar, ag, ab, _] = a.to_array();
    let [br, bg, bb, _] = b.to_array();
    ar.abs_diff(br) as u32 + ag.abs_diff(bg) as u32 + ab.abs_diff(bb) as u32 <= 120
}

/// [`owner_colors`], where sides without a colour name also skip palette colours near any of
/// `avoid` (the terrain's): a side's counters never look like a blue planetoid.
#[must_use]
pub fn owner_colors_avoiding(pieces: &[Piece], avoid: &[Color32]) -> BTreeMap<String, Color32> {
    const PALETTE: [Color32; 6] = [
        Color32::from_rgb(0xd0, 0x3c, 0x3c),
        Color32::from_rgb(0x3c, 0x7c, 0xe0),
        Color32::from_rgb(0x3c, 0xb0, 0x5a),
        Color32::from_rgb(0xe0, 0xc0, 0x30),
        Color32::from_rgb(0xb0, 0x50, 0xd0),
        Color32::from_rgb(0x40, 0xc8, 0xc8),
    ];
    const NAMED: [&str; 4] = ["red", "blue", "green", "yellow"];
    let owners: BTreeSet<&str> = pieces.iter().map(|p| p.owner.as_str()).collect();
    // The palette colours no side takes by name: "orange" in a game with "red" is not red too.
    let taken: Vec<Color32> = owners
        .iter()
        .filter(|o| NAMED.contains(o))
        .map(|o| owner_color(o))
        .collect();
    let mut free = PALETTE
        .into_iter()
        .filter(|c| !taken.contains(c) && !avoid.iter().any(|a| near(*a, *c)));
    owners
        .into_iter()
        .map(|o| {
            let c = if NAMED.contains(&o) {
                owner_color(o)
            } else {
                free.next().unwrap_or_else(|| owner_color(o))
            };
            (o.to_owned(), c)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexforge_core::hex::Hex;

    #[test]
    fn colours_are_stable() {
        assert_eq!(name_color("x", 0.5, 0.5), name_color("x", 0.5, 0.5));
        assert_ne!(terrain_color("planet"), terrain_color("asteroids"));
        assert_ne!(terrain_color("planet"), owner_color("blue"));
    }

    #[test]
    fn sides_without_a_colour_name_never_take_a_named_sides_colour() {
        let piece = |id: u32, owner: &str| Piece {
            id: hexforge_game::PieceId(id),
            kind: "ship".into(),
            owner: hexforge_game::SideId::new(owner),
            pos: hexforge_game::Position::Hex(Hex::ORIGIN),
            facing: None,
            values: Default::default(),
        };
        let pieces: Vec<Piece> = ["blue", "orange", "red", "teal"]
            .iter()
            .enumerate()
            .map(|(i, o)| piece(i as u32 + 1, o))
            .collect();
        let colours = owner_colors(&pieces);
        assert_eq!(colours["red"], owner_color("red"));
        assert_eq!(colours["blue"], owner_color("blue"));
        let all: BTreeSet<[u8; 4]> = colours.values().map(|c| c.to_array()).collect();
        assert_eq!(all.len(), 4, "four sides, four colours: {colours:?}");
        // With blue and red terrain on the board, two unnamed sides take neither.
        let sides: Vec<Piece> = ["north", "south"]
            .iter()
            .enumerate()
            .map(|(i, o)| piece(i as u32 + 1, o))
            .collect();
        let terrain = [
            parse_color("#4169e1").unwrap(),
            parse_color("#d04040").unwrap(),
        ];
        let colours = owner_colors_avoiding(&sides, &terrain);
        for c in colours.values() {
            assert!(terrain.iter().all(|t| !near(*t, *c)), "{colours:?}");
        }
        assert_ne!(colours["north"], colours["south"]);
    }
}
