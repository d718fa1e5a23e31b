//! The seven-sector board (Solar Flare): seven hexagonal tiles laid flat edge to flat edge.
//!
//! A tile of radius `n` is the big hexagon whose boundary passes through the **centres** of the
//! hexes at distance `n` from the tile centre. So every hex at distance `< n` lies wholly inside
//! the tile; the ring-`n` hexes are cut by the boundary: a side hex in half, and each of the six
//! corner hexes (centre + `n` * direction) into thirds (the tile keeps a 120-degree wedge of it).
//!
//! Tile 0 (the centre sector) is centred on the origin. Tiles 1 to 6 are numbered **clockwise**,
//! starting with the tile centred on `n * (N + NE) = (n, -2n)`: that tile is drawn straight up in
//! the pointy-top layout (in the flat-top layout tiles 1 and 6 are equally high, 1 on the right).
//!
//! | sector | centre      |
//! |-------:|-------------|
//! | 0      | `(0, 0)`    |
//! | 1      | `(n, -2n)`  |
//! | 2      | `(2n, -n)`  |
//! | 3      | `(n, n)`    |
//! | 4      | `(-n, 2n)`  |
//! | 5      | `(-2n, n)`  |
//! | 6      | `(-n, -n)`  |
//!
//! Adjacent tiles share their ring-`n` side hexes exactly; three tiles meet at each corner of the
//! centre tile. Coverage is counted in sixths of a hex (inside: 6, side: 3, corner: 2): a hex
//! covered 6/6 by two or three tiles is a [`HexKind::Seam`](super::HexKind::Seam), one covered by
//! less is on the board's outer edge, a [`HexKind::Rim`](super::HexKind::Rim) hex.
//!
//! This module knows nothing of anomalies, placement rules or movement: it only answers "which
//! sectors cover this hex, and how much of it".
//!
//! ```
//! use hexforge_core::board::sectors::{sector_center, coverage};
//! use hexforge_core::hex::Hex;
//!
//! assert_eq!(sector_center(3, 1), Some(Hex::new(3, -6)));
//! // (0, -3) is a corner of the centre tile: a third each of sectors 0, 1 and 6.
//! let c = coverage(3, Hex::new(0, -3));
//! assert_eq!(c.sixths, 6);
//! assert_eq!(c.sectors.iter().collect::<Vec<_>>(), vec![0, 1, 6]);
//! ```

use crate::hex::{Direction, Hex};

/// A set of sector numbers `0..=6`, as a bit mask. Iterates in increasing order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SectorSet(u8);

impl SectorSet {
    /// The empty set.
    pub const EMPTY: SectorSet = SectorSet(0);

    /// Adds a sector (numbers above 6 are ignored).
    #[must_use]
    pub const fn with(self, sector: u8) -> Self {
        if sector <= 6 {
            SectorSet(self.0 | (1 << sector))
        } else {
            self
        }
    }

    /// Whether `sector` is in the set.
    #[must_use]
    pub const fn contains(self, sector: u8) -> bool {
        sector <= 6 && self.0 & (1 << sector) != 0
    }

    /// How many sectors are in the set.
    #[must_use]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest sector number in the set.
    #[must_use]
    pub const fn first(self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as u8)
        }
    }

    /// The sector numbers in increasing order.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        (0..=6).filter(move |&s| self.contains(s))
    }
}

/// How the tiles cover one hex.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coverage {
    /// Every sector that covers some part of the hex.
    pub sectors: SectorSet,
    /// How much of the hex is covered, in sixths: 6 for a whole hex (inside a tile or a seam),
    /// 2, 3 or 4 for a rim hex, 0 off the board.
    pub sixths: u8,
}

/// Sector centres in units of the tile radius `n`, clockwise from sector 1 (index = sector).
const CENTERS: [(i64, i64); 7] = [(0, 0), (1, -2), (2, -1), (1, 1), (-1, 2), (-2, 1), (-1, -1)];

/// The centre of sector `sector` (0..=6) for tiles of radius `n`, or `None` for another number
/// (or if the centre does not fit in `i32`).
#[must_use]
pub fn sector_center(n: i32, sector: u8) -> Option<Hex> {
    let (a, b) = CENTERS.get(usize::from(sector))?;
    let q = i32::try_from(a * i64::from(n)).ok()?;
    let r = i32::try_from(b * i64::from(n)).ok()?;
    Some(Hex::new(q, r))
}

/// Which sectors cover `hex`, and how much of it, for tiles of radius `n >= 1`.
///
/// Arithmetic is done in `i64`, so any `hex` is accepted; hexes far away get empty coverage.
#[must_use]
pub fn coverage(n: i32, hex: Hex) -> Coverage {
    let mut sectors = SectorSet::EMPTY;
    let mut sixths = 0u8;
    let n64 = i64::from(n);
    for (sector, (a, b)) in (0u8..).zip(CENTERS) {
        let (dq, dr) = (i64::from(hex.q) - a * n64, i64::from(hex.r) - b * n64);
        let d = (dq.abs() + dr.abs() + (dq + dr).abs()) / 2;
        if d < n64 {
            // Wholly inside one tile: no other tile can reach it.
            return Coverage {
                sectors: SectorSet::EMPTY.with(sector),
                sixths: 6,
            };
        }
        if d == n64 {
            sectors = sectors.with(sector);
            // A corner hex lies on one of the six straight lines from the tile centre.
            let corner = Direction::ALL.iter().any(|dir| {
                let (vq, vr) = dir.vector();
                (i64::from(vq) * n64, i64::from(vr) * n64) == (dq, dr)
            });
            sixths += if corner { 2 } else { 3 };
        }
    }
    Coverage { sectors, sixths }
}
