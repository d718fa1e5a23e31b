//! Pieces (counters, ships, bases) and where they are.
//!
//! A [`Piece`] is plain data: a kind (the mod's piece type id), an owner, a [`Position`], an
//! optional facing and mod-defined values. Pieces that cover several hexes store only their anchor
//! hex and facing; the hexes covered come from the piece type's footprint through
//! [`footprint_hexes`]. This module deliberately knows nothing about piece types' stats or rules.
//!
//! ```
//! use hexforge_core::hex::{Direction, Hex};
//! use hexforge_game::footprint_hexes;
//! // A two-hex cruiser: bow at the anchor, stern one hex behind (south when facing N).
//! let stern = [Hex::new(0, 0), Hex::new(0, 1)];
//! assert_eq!(footprint_hexes(Hex::new(3, 3), Some(Direction::N), &stern),
//!            vec![Hex::new(3, 3), Hex::new(3, 4)]);
//! assert_eq!(footprint_hexes(Hex::new(3, 3), Some(Direction::SE), &stern),
//!            vec![Hex::new(3, 3), Hex::new(2, 3)]);
//! ```

use crate::ids::{PieceId, SideId, Value};
use hexforge_core::hex::{Direction, Hex, Turn};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Where a piece is.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Position {
    /// On a hex map; for multi-hex pieces, the anchor hex.
    Hex(Hex),
    /// On a graph map: a node (star system, planet), optionally a box inside it (orbit box,
    /// environ, drift area).
    Node {
        /// The node id.
        location: String,
        /// The box inside the node, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        slot: Option<String>,
    },
    /// An off-map box (reinforcements, destroyed, ...).
    Box(String),
}

impl Position {
    /// The hex, if the piece is on a hex map.
    #[must_use]
    pub fn hex(&self) -> Option<Hex> {
        match self {
            Position::Hex(h) => Some(*h),
            _ => None,
        }
    }
}

/// A piece on the board or in a box.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Piece {
    /// Its handle.
    pub id: PieceId,
    /// The mod's piece type id, e.g. `"frigate"`.
    pub kind: String,
    /// The owning side.
    pub owner: SideId,
    /// Where it is.
    pub pos: Position,
    /// Facing, for pieces that have one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<Direction>,
    /// Mod-defined values (speed, hull, damage, ...). Shared between clones until one of them
    /// changes (`Arc::make_mut`): every action works on a clone of the whole state, and most
    /// pieces' values do not change in it, so cloning and comparing them costs next to nothing.
    #[serde(default)]
    pub values: Arc<BTreeMap<String, Value>>,
}

impl Piece {
    /// The hexes this piece covers, given its type's footprint offsets (empty offsets = one hex).
    /// Empty when the piece is not on a hex map.
    #[must_use]
    pub fn hexes(&self, offsets: &[Hex]) -> Vec<Hex> {
        match self.pos {
            Position::Hex(anchor) if offsets.is_empty() => vec![anchor],
            Position::Hex(anchor) => footprint_hexes(anchor, self.facing, offsets),
            _ => Vec::new(),
        }
    }
}

/// The hexes covered by a footprint: `offsets` are relative to the anchor with the piece facing
/// `N`; they are rotated clockwise by the facing (no facing = `N`) and translated to `anchor`.
/// Order follows `offsets`.
#[must_use]
pub fn footprint_hexes(anchor: Hex, facing: Option<Direction>, offsets: &[Hex]) -> Vec<Hex> {
    let steps = i32::from(facing.map_or(0, Direction::index));
    offsets
        .iter()
        .map(|o| {
            let r = o.rotate_around(Hex::ORIGIN, Turn::Clockwise, steps);
            Hex::new(anchor.q + r.q, anchor.r + r.r)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn footprint_rotates_with_facing() {
        // Three hexes in a line behind the bow.
        let offs = [Hex::new(0, 0), Hex::new(0, 1), Hex::new(0, 2)];
        for d in Direction::ALL {
            let hs = footprint_hexes(Hex::new(5, -2), Some(d), &offs);
            // The stern is always two steps opposite the facing.
            assert_eq!(hs[2], Hex::new(5, -2).step(d.opposite(), 2));
            assert_eq!(hs[0], Hex::new(5, -2));
        }
        assert_eq!(footprint_hexes(Hex::ORIGIN, None, &offs), offs.to_vec());
    }

    #[test]
    fn piece_hexes_and_serde_shape() {
        let p = Piece {
            id: PieceId(3),
            kind: "base".into(),
            owner: "red".into(),
            pos: Position::Hex(Hex::new(1, 2)),
            facing: None,
            values: Arc::default(),
        };
        assert_eq!(p.hexes(&[]), vec![Hex::new(1, 2)]);
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(
            json,
            r#"{"id":3,"kind":"base","owner":"red","pos":{"hex":{"q":1,"r":2}},"values":{}}"#
        );
        let back: Piece = serde_json::from_str(&json).unwrap();
        assert_eq!(back, p);
        let node = Position::Node {
            location: "sol".into(),
            slot: Some("orbit".into()),
        };
        assert_eq!(
            serde_json::to_string(&node).unwrap(),
            r#"{"node":{"location":"sol","slot":"orbit"}}"#
        );
        assert!(Position::Box("dead".into()).hex().is_none());
    }
}
