//! Offset coordinates (`col`, `row`) for boards printed as rows of pointy-top hexes.
//!
//! Hexforge uses the **even-r** convention: rows are axial `r` (row 0 at the top, growing
//! downwards in the pointy-top layout), and **even rows are shoved half a hex to the right** of
//! odd rows. With `x` measured in hex widths, even row `row`, column `col` is centred at
//! `x = col + 1/2` and odd row `row`, column `col` at `x = col`. So on a board `width` hexes wide,
//! even rows hold columns `0..width` (all whole) and odd rows hold columns `0..=width`, of which
//! column `0` and column `width` are cut in half by the board's side edges.
//!
//! (The other common convention, odd-r, shoves odd rows right instead; it would put the odd
//! rows' left half hex at column `-1`. Even-r keeps every column on the board non-negative.)
//!
//! Conversion: `q = col - (row + (row mod 2)) / 2`, `r = row` (and back:
//! `col = q + (r + (r mod 2)) / 2`), with `mod` and `/` rounding towards minus infinity, so
//! negative rows work too.
//!
//! This module only converts coordinates; which hexes are on a board is
//! [`Board`](super::Board)'s business.
//!
//! ```
//! use hexforge_core::board::OffsetCoord;
//! use hexforge_core::hex::{Direction, Hex};
//!
//! let a = OffsetCoord { col: 3, row: 1 };
//! let h = a.to_hex();
//! assert_eq!(h, Hex::new(2, 1));
//! assert_eq!(OffsetCoord::from_hex(h), a);
//! // In the pointy-top layout SE is "right": same row, next column.
//! assert_eq!(OffsetCoord::from_hex(h.neighbor(Direction::SE)), OffsetCoord { col: 4, row: 1 });
//! ```

use crate::hex::Hex;
use serde::{Deserialize, Serialize};

/// A hex in even-r offset coordinates (see the module docs). Serialised as `{"col": .., "row": ..}`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct OffsetCoord {
    /// Column, counted from the left edge.
    pub col: i32,
    /// Row, counted from the top edge (axial `r`).
    pub row: i32,
}

impl OffsetCoord {
    /// The offset coordinate of an axial hex.
    #[must_use]
    pub const fn from_hex(hex: Hex) -> Self {
        OffsetCoord {
            col: hex.q.wrapping_add(shift(hex.r)),
            row: hex.r,
        }
    }

    /// The axial hex at this offset coordinate.
    #[must_use]
    pub const fn to_hex(self) -> Hex {
        Hex::new(self.col.wrapping_sub(shift(self.row)), self.row)
    }
}

/// `(row + (row mod 2)) / 2` rounded down: how far a row's column 0 sits right of axial `q = 0`.
const fn shift(row: i32) -> i32 {
    // Written as row.div_euclid(2) + row.rem_euclid(2), which is the same and cannot overflow.
    row.div_euclid(2) + row.rem_euclid(2)
}

impl From<Hex> for OffsetCoord {
    fn from(hex: Hex) -> Self {
        OffsetCoord::from_hex(hex)
    }
}

impl From<OffsetCoord> for Hex {
    fn from(c: OffsetCoord) -> Self {
        c.to_hex()
    }
}
