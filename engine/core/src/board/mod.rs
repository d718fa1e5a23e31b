//! Boards: which hexes are on the map, and what kind of hex each one is.
//!
//! A [`Board`] is a validated [`Shape`]: a hexagon around the origin, a rectangle of offset rows
//! with half hexes on the side edges (squadron-command), seven hexagonal sector tiles
//! (Solar Flare, see [`sectors`]), or an explicit set of hexes. Every hex of a board has a
//! [`HexKind`]: whole hexes are [`HexKind::Full`]; the others are partial or shared and the rules
//! treat them differently ([`HexKind::is_enterable`]).
//!
//! Boards are plain data: scenario files describe them in serde form, tagged by `shape`:
//!
//! ```
//! use hexforge_core::board::{Board, HexKind};
//! use hexforge_core::hex::Hex;
//!
//! let board: Board = serde_json::from_str(r#"{"shape": "offset_rect", "width": 13, "height": 9}"#).unwrap();
//! assert_eq!(board.count(), 5 * 13 + 4 * 12 + 4 * 2);
//! let left_half = board.hex_at(0, 1).unwrap();
//! assert_eq!(board.kind(left_half), Some(HexKind::Half));
//! assert!(!board.is_enterable(left_half));
//! assert_eq!(board.leaves_map(&[Hex::new(0, 0), Hex::new(-1, 0), Hex::new(-2, 0)]), Some(1));
//! ```
//!
//! This module deliberately knows nothing of terrain, units or movement costs: it answers "is this
//! hex on the map, and is it a whole hex". Movement rules combine it with [`crate::search`].

pub mod offset;
pub mod sectors;

pub use offset::OffsetCoord;
pub use sectors::SectorSet;

use crate::hex::Hex;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Largest radius accepted for a [`Shape::Hexagon`] board (about three million hexes).
pub const MAX_HEXAGON_RADIUS: u32 = 1000;
/// Largest width or height accepted for a [`Shape::OffsetRect`] board.
pub const MAX_OFFSET_SIDE: u32 = 2000;
/// Largest tile radius accepted for a [`Shape::Sectors`] board.
pub const MAX_TILE_RADIUS: u32 = 300;

/// What kind of hex a board hex is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HexKind {
    /// A whole hex, inside one area of the board.
    Full,
    /// Half a hex on the side edge of an offset board: on the board, but no unit may enter it.
    Half,
    /// A whole hex made of the cut edges of two or three sector tiles; it belongs to all of them.
    Seam,
    /// A partial hex on the outer edge of a sector board (covered by less than a whole hex of
    /// tile): on the board, but nothing may be placed on or enter it.
    Rim,
}

impl HexKind {
    /// Whether a unit may enter or be placed on a hex of this kind: whole hexes only
    /// ([`HexKind::Full`] and [`HexKind::Seam`]).
    #[must_use]
    pub const fn is_enterable(self) -> bool {
        matches!(self, HexKind::Full | HexKind::Seam)
    }
}

/// The shape of a board, as scenario files write it (`{"shape": "hexagon", "radius": 10}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "snake_case", deny_unknown_fields)]
pub enum Shape {
    /// Every hex within `radius` steps of the origin. All hexes are [`HexKind::Full`].
    Hexagon {
        /// Distance from the origin to the edge hexes.
        radius: u32,
    },
    /// Rows of pointy-top hexes in even-r offset coordinates (see [`offset`]), row 0 at the top.
    /// Even rows hold `width` whole hexes (columns `0..width`); odd rows are shifted half a hex to
    /// the left and hold `width - 1` whole hexes (columns `1..width`) plus, if `half_hexes`, a
    /// [`HexKind::Half`] hex at each side edge (columns `0` and `width`).
    OffsetRect {
        /// Whole hexes in an even row (at least 1).
        width: u32,
        /// Number of rows (at least 1).
        height: u32,
        /// Whether the cut hexes at the ends of odd rows are part of the board (default true).
        #[serde(default = "yes")]
        half_hexes: bool,
    },
    /// Seven hexagonal tiles of radius `tile_radius` (see [`sectors`]).
    Sectors {
        /// Radius of each tile: 3 gives 37 hexes a tile, counting its cut edge hexes.
        tile_radius: u32,
    },
    /// Exactly these hexes, all [`HexKind::Full`].
    Explicit {
        /// The hexes of the board.
        hexes: BTreeSet<Hex>,
    },
}

fn yes() -> bool {
    true
}

/// Why a [`Shape`] is not a usable board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// A size that must be at least 1 is 0.
    #[error("board {what} must be at least 1")]
    Zero {
        /// Which size.
        what: &'static str,
    },
    /// A size is above the engine's limit for that shape.
    #[error("board {what} is {value}, more than the limit of {max}")]
    TooLarge {
        /// Which size.
        what: &'static str,
        /// The size given.
        value: u32,
        /// The largest size accepted.
        max: u32,
    },
}

/// A validated board: a [`Shape`] whose sizes are within the engine's limits.
///
/// Serialised exactly as its [`Shape`]; deserialising checks the limits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Shape", into = "Shape")]
pub struct Board {
    shape: Shape,
}

impl TryFrom<Shape> for Board {
    type Error = BoardError;
    fn try_from(shape: Shape) -> Result<Self, BoardError> {
        Board::new(shape)
    }
}

impl From<Board> for Shape {
    fn from(b: Board) -> Shape {
        b.shape
    }
}

fn check(what: &'static str, value: u32, max: u32) -> Result<(), BoardError> {
    if value == 0 {
        Err(BoardError::Zero { what })
    } else if value > max {
        Err(BoardError::TooLarge { what, value, max })
    } else {
        Ok(())
    }
}

/// Axial distance from the origin in `i64`, so no coordinate can overflow.
fn length64(h: Hex) -> i64 {
    let (q, r) = (i64::from(h.q), i64::from(h.r));
    (q.abs() + r.abs() + (q + r).abs()) / 2
}

/// Hexes within `radius` of the origin, row by row (`r`, then `q`).
fn hexagon_hexes(radius: i32) -> impl Iterator<Item = Hex> {
    (-radius..=radius).flat_map(move |r| {
        let (lo, hi) = ((-radius).max(-radius - r), radius.min(radius - r));
        (lo..=hi).map(move |q| Hex::new(q, r))
    })
}

impl Board {
    /// Checks a shape's sizes and makes it a board.
    ///
    /// # Errors
    /// [`BoardError`] if a size is 0 or above its limit ([`MAX_HEXAGON_RADIUS`],
    /// [`MAX_OFFSET_SIDE`], [`MAX_TILE_RADIUS`]). A hexagon of radius 0 (one hex) is allowed.
    pub fn new(shape: Shape) -> Result<Self, BoardError> {
        match &shape {
            Shape::Hexagon { radius } => {
                if *radius > MAX_HEXAGON_RADIUS {
                    return Err(BoardError::TooLarge {
                        what: "radius",
                        value: *radius,
                        max: MAX_HEXAGON_RADIUS,
                    });
                }
            }
            Shape::OffsetRect { width, height, .. } => {
                check("width", *width, MAX_OFFSET_SIDE)?;
                check("height", *height, MAX_OFFSET_SIDE)?;
            }
            Shape::Sectors { tile_radius } => check("tile_radius", *tile_radius, MAX_TILE_RADIUS)?,
            Shape::Explicit { .. } => {}
        }
        Ok(Board { shape })
    }

    /// A hexagon of `radius` around the origin.
    ///
    /// # Errors
    /// [`BoardError::TooLarge`] above [`MAX_HEXAGON_RADIUS`].
    pub fn hexagon(radius: u32) -> Result<Self, BoardError> {
        Board::new(Shape::Hexagon { radius })
    }

    /// An offset rectangle with half hexes at the ends of odd rows.
    ///
    /// # Errors
    /// [`BoardError`] if a side is 0 or above [`MAX_OFFSET_SIDE`].
    pub fn offset_rect(width: u32, height: u32) -> Result<Self, BoardError> {
        Board::new(Shape::OffsetRect {
            width,
            height,
            half_hexes: true,
        })
    }

    /// Seven sector tiles of radius `tile_radius`.
    ///
    /// # Errors
    /// [`BoardError`] if the radius is 0 or above [`MAX_TILE_RADIUS`].
    pub fn sectors(tile_radius: u32) -> Result<Self, BoardError> {
        Board::new(Shape::Sectors { tile_radius })
    }

    /// Exactly the given hexes.
    #[must_use]
    pub fn explicit(hexes: impl IntoIterator<Item = Hex>) -> Self {
        Board {
            shape: Shape::Explicit {
                hexes: hexes.into_iter().collect(),
            },
        }
    }

    /// The shape this board was made from.
    #[must_use]
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The kind of `hex`, or `None` if it is not on the board.
    #[must_use]
    pub fn kind(&self, hex: Hex) -> Option<HexKind> {
        match &self.shape {
            Shape::Hexagon { radius } => {
                (length64(hex) <= i64::from(*radius)).then_some(HexKind::Full)
            }
            Shape::OffsetRect {
                width,
                height,
                half_hexes,
            } => {
                let OffsetCoord { col, row } = OffsetCoord::from_hex(hex);
                let (w, h) = (i64::from(*width), i64::from(*height));
                let (col, row) = (i64::from(col), i64::from(row));
                if !(0..h).contains(&row) {
                    None
                } else if row % 2 == 0 {
                    (0..w).contains(&col).then_some(HexKind::Full)
                } else if (1..w).contains(&col) {
                    Some(HexKind::Full)
                } else if *half_hexes && (col == 0 || col == w) {
                    Some(HexKind::Half)
                } else {
                    None
                }
            }
            Shape::Sectors { tile_radius } => {
                let c = sectors::coverage(*tile_radius as i32, hex);
                match (c.sixths, c.sectors.len()) {
                    (0, _) => None,
                    (6, 1) => Some(HexKind::Full),
                    (6, _) => Some(HexKind::Seam),
                    _ => Some(HexKind::Rim),
                }
            }
            Shape::Explicit { hexes } => hexes.contains(&hex).then_some(HexKind::Full),
        }
    }

    /// Whether `hex` is on the board (of any kind, including half and rim hexes).
    #[must_use]
    pub fn contains(&self, hex: Hex) -> bool {
        self.kind(hex).is_some()
    }

    /// Whether a unit may enter or be placed on `hex`: on the board and a whole hex
    /// ([`HexKind::Full`] or [`HexKind::Seam`]).
    #[must_use]
    pub fn is_enterable(&self, hex: Hex) -> bool {
        self.kind(hex).is_some_and(HexKind::is_enterable)
    }

    /// Every hex of the board, row by row: sorted by `r`, then by `q`.
    #[must_use]
    pub fn hexes(&self) -> Vec<Hex> {
        match &self.shape {
            Shape::Hexagon { radius } => hexagon_hexes(*radius as i32).collect(),
            Shape::OffsetRect {
                width,
                height,
                half_hexes,
            } => {
                let (w, h) = (*width as i32, *height as i32);
                let mut out = Vec::with_capacity(self.count());
                for row in 0..h {
                    let cols = if row % 2 == 0 {
                        0..w
                    } else if *half_hexes {
                        0..w + 1
                    } else {
                        1..w
                    };
                    // Within a row, q grows with col, so this is already (r, q) order.
                    out.extend(cols.map(|col| OffsetCoord { col, row }.to_hex()));
                }
                out
            }
            Shape::Sectors { tile_radius } => {
                let n = *tile_radius as i32;
                // Every tile lies within 3n of the origin (centre at 2n, radius n).
                hexagon_hexes(3 * n)
                    .filter(|&h| sectors::coverage(n, h).sixths > 0)
                    .collect()
            }
            Shape::Explicit { hexes } => {
                let mut v: Vec<Hex> = hexes.iter().copied().collect();
                v.sort_by_key(|h| (h.r, h.q));
                v
            }
        }
    }

    /// How many hexes the board has (of any kind), without listing them.
    #[must_use]
    pub fn count(&self) -> usize {
        match &self.shape {
            Shape::Hexagon { radius } => {
                let r = *radius as usize;
                3 * r * (r + 1) + 1
            }
            Shape::OffsetRect {
                width,
                height,
                half_hexes,
            } => {
                let (w, h) = (*width as usize, *height as usize);
                let (even, odd) = (h.div_ceil(2), h / 2);
                even * w + odd * (w - 1) + if *half_hexes { 2 * odd } else { 0 }
            }
            Shape::Sectors { tile_radius } => {
                // 7 full interiors, 12n - 6 seams, 18n rim hexes (see the tests for the count).
                let n = *tile_radius as usize;
                21 * n * n + 9 * n + 1
            }
            Shape::Explicit { hexes } => hexes.len(),
        }
    }

    /// The index of the first hex of `path` that is off the board, or `None` if all are on it.
    #[must_use]
    pub fn leaves_map(&self, path: &[Hex]) -> Option<usize> {
        path.iter().position(|&h| !self.contains(h))
    }

    /// The index of the first hex of `path` a unit may not enter (off the board, or a half or
    /// rim hex), or `None` if every hex is enterable.
    #[must_use]
    pub fn first_not_enterable(&self, path: &[Hex]) -> Option<usize> {
        path.iter().position(|&h| !self.is_enterable(h))
    }

    /// The offset coordinate of `hex` on an offset board, or `None` on another board or off it.
    #[must_use]
    pub fn offset(&self, hex: Hex) -> Option<OffsetCoord> {
        (matches!(self.shape, Shape::OffsetRect { .. }) && self.contains(hex))
            .then(|| OffsetCoord::from_hex(hex))
    }

    /// The row of `hex` on an offset board (0 at the top), or `None` on another board or off it.
    #[must_use]
    pub fn row(&self, hex: Hex) -> Option<i32> {
        self.offset(hex).map(|c| c.row)
    }

    /// The column of `hex` on an offset board, or `None` on another board or off it.
    #[must_use]
    pub fn col(&self, hex: Hex) -> Option<i32> {
        self.offset(hex).map(|c| c.col)
    }

    /// The hex at an offset coordinate if it is on this offset board.
    #[must_use]
    pub fn hex_at(&self, col: i32, row: i32) -> Option<Hex> {
        let h = OffsetCoord { col, row }.to_hex();
        self.offset(h).map(|_| h)
    }

    /// The sectors covering `hex` on a sector board: one for a full hex, two or three for a
    /// seam hex, one or two for a rim hex. Empty off the board or on another kind of board.
    #[must_use]
    pub fn sectors_of(&self, hex: Hex) -> SectorSet {
        match &self.shape {
            Shape::Sectors { tile_radius } => sectors::coverage(*tile_radius as i32, hex).sectors,
            _ => SectorSet::EMPTY,
        }
    }

    /// The hexes touching sector `sector` (including its seams and rim), row by row; empty on
    /// another kind of board or for a sector number above 6.
    #[must_use]
    pub fn sector_hexes(&self, sector: u8) -> Vec<Hex> {
        let Shape::Sectors { tile_radius } = &self.shape else {
            return Vec::new();
        };
        let n = *tile_radius as i32;
        let Some(c) = sectors::sector_center(n, sector) else {
            return Vec::new();
        };
        hexagon_hexes(n)
            .map(|h| h + c)
            .filter(|&h| self.sectors_of(h).contains(sector))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::{Direction, Turn};

    #[test]
    fn offset_round_trip_and_rows() {
        for row in -5..5 {
            for col in -5..5 {
                let c = OffsetCoord { col, row };
                assert_eq!(OffsetCoord::from_hex(c.to_hex()), c);
                assert_eq!(c.to_hex().r, row);
            }
        }
        // Even-r: an even row's SW neighbour is in the same column, an odd row's is one left.
        let even = OffsetCoord { col: 4, row: 2 }.to_hex();
        assert_eq!(
            OffsetCoord::from_hex(even.neighbor(Direction::SW)),
            OffsetCoord { col: 4, row: 3 }
        );
        let odd = OffsetCoord { col: 4, row: 3 }.to_hex();
        assert_eq!(
            OffsetCoord::from_hex(odd.neighbor(Direction::SW)),
            OffsetCoord { col: 3, row: 4 }
        );
    }

    #[test]
    fn sector_centres_turn_clockwise() {
        for n in 1..5 {
            for s in 1..6u8 {
                let a = sectors::sector_center(n, s).unwrap();
                let b = sectors::sector_center(n, s + 1).unwrap();
                assert_eq!(a.rotate_around(Hex::ORIGIN, Turn::Clockwise, 1), b);
                assert_eq!(a.length(), 2 * n);
            }
        }
        assert_eq!(sectors::sector_center(2, 7), None);
    }

    #[test]
    fn limits_are_checked() {
        assert_eq!(
            Board::sectors(0),
            Err(BoardError::Zero {
                what: "tile_radius"
            })
        );
        assert!(matches!(
            Board::hexagon(MAX_HEXAGON_RADIUS + 1),
            Err(BoardError::TooLarge { .. })
        ));
        assert!(Board::offset_rect(13, 0).is_err());
        assert!(serde_json::from_str::<Board>(r#"{"shape":"sectors","tile_radius":0}"#).is_err());
    }
}
