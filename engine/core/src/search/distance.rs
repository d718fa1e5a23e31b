//! Step distances from a group of hexes, for ranges measured along a crooked path of hexes
//! (planetoid-colonies: a shot counts the hexes of its shortest path round obstacles).
//!
//! [`distances`] walks outwards one step at a time from every source hex at once. A hex's kind
//! decides the walk: [`HexKind::OffBoard`] hexes are never entered, [`HexKind::Blocked`] hexes
//! get their distance (a target may stand on one) but no path goes on through them, and
//! [`HexKind::Open`] hexes are walked through. The sources are at distance 0 whatever their
//! kind.
//!
//! It deliberately knows nothing of boards or terrain: the `kind` closure says what a hex is,
//! and it is asked at most once per hex.
//!
//! ```
//! use hexforge_core::hex::Hex;
//! use hexforge_core::search::{HexKind, Limits, distances};
//!
//! // A wall of five blocked hexes east of the origin: the hex behind it is 7 steps away, not 2
//! // (round the end of the wall at (1,3): (0,1) (0,2) (0,3) (1,3) (2,2) (2,1) (2,0)).
//! let wall = [Hex::new(1, -2), Hex::new(1, -1), Hex::new(1, 0), Hex::new(1, 1), Hex::new(1, 2)];
//! let kind = |h: Hex| if wall.contains(&h) { HexKind::Blocked } else { HexKind::Open };
//! let d = distances(&[Hex::ORIGIN], 10, kind, Limits::default());
//! assert_eq!(d.get(Hex::new(1, 0)), Some(1)); // the wall itself is in reach
//! assert_eq!(d.get(Hex::new(2, 0)), Some(7));
//! assert_eq!(d.get(Hex::new(9, 0)), None); // beyond 10 steps
//! ```

use super::Limits;
use super::listing::HexKind;
use crate::hex::Hex;
// Why Fx: hexes are small integer pairs hashed hundreds of times a walk; SipHash's resistance
// to chosen keys buys nothing here (the walk is bounded by `limits`), and cost a fifth of it.
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// Every hex within reach of [`distances`], with its step distance from the nearest source.
#[derive(Clone, Debug, Default)]
pub struct Distances {
    map: HashMap<Hex, u32>,
    truncated: bool,
}

impl Distances {
    /// The distance of `h` from the nearest source, or `None` when it is out of reach.
    #[must_use]
    pub fn get(&self, h: Hex) -> Option<u32> {
        self.map.get(&h).copied()
    }

    /// How many hexes are in reach (the sources included).
    #[must_use]
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether no hex is in reach (no sources).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Whether the walk stopped at `limits.max_expanded` hexes asked about: farther hexes may be
    /// missing.
    #[must_use]
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }
}

/// Step distances from `sources` (see the module documentation), up to `max` steps and at most
/// `limits.max_expanded` hexes.
#[must_use]
pub fn distances(
    sources: &[Hex],
    max: u32,
    mut kind: impl FnMut(Hex) -> HexKind,
    limits: Limits,
) -> Distances {
    let mut out = Distances::default();
    // Off-board hexes met so far: asked once, like every other hex.
    let mut off: HashSet<Hex> = HashSet::default();
    let mut frontier: Vec<Hex> = Vec::new();
    for &s in sources {
        if out.map.insert(s, 0).is_none() {
            frontier.push(s);
        }
    }
    let mut next = Vec::new();
    for d in 1..=max {
        next.clear();
        for &h in &frontier {
            for n in h.neighbors() {
                if out.map.contains_key(&n) || off.contains(&n) {
                    continue;
                }
                if out.map.len() + off.len() >= limits.max_expanded {
                    out.truncated = true;
                    return out;
                }
                match kind(n) {
                    HexKind::OffBoard => {
                        off.insert(n);
                    }
                    HexKind::Blocked => {
                        out.map.insert(n, d);
                    }
                    HexKind::Open => {
                        out.map.insert(n, d);
                        next.push(n);
                    }
                }
            }
        }
        std::mem::swap(&mut frontier, &mut next);
        if frontier.is_empty() {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(_: Hex) -> HexKind {
        HexKind::Open
    }

    #[test]
    fn on_an_open_plane_the_distance_is_the_hex_distance_to_the_nearest_source() {
        let sources = [Hex::new(0, 0), Hex::new(4, -2)];
        let d = distances(&sources, 5, open, Limits::default());
        for q in -8..=8 {
            for r in -8..=8 {
                let h = Hex::new(q, r);
                let want = sources.iter().map(|s| s.distance(h)).min().unwrap();
                assert_eq!(d.get(h), (want <= 5).then_some(want as u32), "{h:?}");
            }
        }
        assert!(!d.is_truncated());
    }

    #[test]
    fn off_board_hexes_are_never_entered_and_blocked_ones_end_every_path() {
        // A ring of blocked hexes at distance 2 round the origin, one gap at (2,0); the board is
        // the hexes within 4 of the origin.
        let kind = |h: Hex| {
            if h.length() > 4 {
                HexKind::OffBoard
            } else if h.length() == 2 && h != Hex::new(2, 0) {
                HexKind::Blocked
            } else {
                HexKind::Open
            }
        };
        let d = distances(&[Hex::ORIGIN], 20, kind, Limits::default());
        assert_eq!(d.get(Hex::new(0, -2)), Some(2)); // blocked, yet in reach
        assert_eq!(d.get(Hex::new(3, 0)), Some(3)); // through the gap
        // Straight out past the ring at (0,-3): out through the gap (2,0), then round the
        // outside (3,-1) (3,-2) (3,-3) (2,-3) (1,-3) (0,-3).
        assert_eq!(d.get(Hex::new(0, -3)), Some(8));
        assert_eq!(d.get(Hex::new(0, -5)), None); // off the board
        assert!(d.len() <= 61);
    }

    #[test]
    fn the_node_budget_truncates_the_walk() {
        let d = distances(
            &[Hex::ORIGIN],
            50,
            open,
            Limits::default().with_max_expanded(10),
        );
        assert!(d.is_truncated());
        assert_eq!(d.len(), 10);
        assert!(distances(&[], 5, open, Limits::default()).is_empty());
    }
}
