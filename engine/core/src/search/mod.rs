//! Movement search: cheapest paths between hexes, and reachability over caller-defined states.
//!
//! Both searches take closures (in the style of `hexx`), so the rules stay with the caller:
//! - [`cheapest_path`]: A* over hexes with a cost function (`None` = impassable) and the hex
//!   distance times a declared minimum step cost as heuristic.
//! - [`reachable`]: a cheapest-first search over any `Ord + Clone` state (hex, facing, turns
//!   used, ...), returning every reachable state with its cost and a way back to the start
//!   ([`Reach::path_to`]), and grouping of end states by a caller key ([`Reach::best_by_key`]).
//! - [`facing`]: the facing-and-turns movement of document 000 (move exactly the speed, one
//!   hexside turn per hex, at most MR turns) as a ready-made state for [`reachable`].
//! - [`listing`]: the same movement as a whole move list with plans (`FFLF...`), several start
//!   facings, exits off the map, crashes into blocked hexes and a per-step pull
//!   ([`move_listing`]), in a fixed order a mod can offer as its choices.
//! - [`distances`]: step distances from a group of hexes round hexes that end a path (ranges
//!   counted along a crooked path of hexes).
//!
//! **Every search is bounded** by [`Limits`] (expanded nodes and total cost), so a walled-off goal
//! or an endless state space returns instead of running forever. **Results are deterministic**:
//! ties are broken by fixed rules, never by hash order.
//!
//! This module deliberately knows nothing of boards, units or terrain: the closures decide what is
//! passable and what it costs (combine with [`crate::board::Board::is_enterable`]).
//!
//! ```
//! use hexforge_core::hex::Hex;
//! use hexforge_core::search::{cheapest_path, Limits};
//!
//! let wall = [Hex::new(1, -1), Hex::new(1, 0), Hex::new(1, 1)];
//! let path = cheapest_path(
//!     Hex::new(0, 0),
//!     Hex::new(2, 0),
//!     1,
//!     |_, to| (!wall.contains(&to) && to.length() <= 4).then_some(1),
//!     Limits::default(),
//! )
//! .unwrap();
//! // Straight through would be 2 steps; around the wall it is 5.
//! assert_eq!(path.cost, 5);
//! assert_eq!(path.hexes.len(), 6);
//! assert_eq!(path.hexes.first(), Some(&Hex::new(0, 0)));
//! assert_eq!(path.hexes.last(), Some(&Hex::new(2, 0)));
//! ```

mod distance;
pub mod facing;
pub mod listing;
mod path;
mod reach;

pub use distance::{Distances, distances};
pub use facing::{FacingMove, FacingRules, end_positions, facing_moves, hexes_of};
pub use listing::{HexKind, ListedMove, ListingRules, MoveEnd, MoveListing, Pull, move_listing};
pub use path::{Path, cheapest_path};
pub use reach::{Reach, reachable};

use serde::{Deserialize, Serialize};

/// How far a search may go before it gives up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Limits {
    /// The most nodes (hexes or states) the search expands; when reached, [`cheapest_path`]
    /// returns `None` and [`reachable`] stops and marks its result as truncated.
    pub max_expanded: usize,
    /// The largest total cost of any path considered; dearer paths are ignored.
    pub max_cost: u32,
}

impl Limits {
    /// The default node budget: far more than any board a mod uses needs, small enough to
    /// answer in milliseconds.
    pub const DEFAULT_MAX_EXPANDED: usize = 200_000;

    /// Limits with both bounds given.
    #[must_use]
    pub const fn new(max_expanded: usize, max_cost: u32) -> Self {
        Limits {
            max_expanded,
            max_cost,
        }
    }

    /// These limits with another cost bound.
    #[must_use]
    pub const fn with_max_cost(self, max_cost: u32) -> Self {
        Limits { max_cost, ..self }
    }

    /// These limits with another node budget.
    #[must_use]
    pub const fn with_max_expanded(self, max_expanded: usize) -> Self {
        Limits {
            max_expanded,
            ..self
        }
    }
}

impl Default for Limits {
    /// [`Limits::DEFAULT_MAX_EXPANDED`] nodes, no cost bound.
    fn default() -> Self {
        Limits {
            max_expanded: Self::DEFAULT_MAX_EXPANDED,
            max_cost: u32::MAX,
        }
    }
}
