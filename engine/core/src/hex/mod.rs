//! Exact hex geometry: coordinates, directions, shapes, arcs, line traces, hexsides and layouts.
//!
//! Everything here is integer arithmetic except [`layout`], which converts to and from screen
//! pixels for drawing only. Nothing in this module knows about Lua, files or game state.
//!
//! # Why axial coordinates
//! Axial `(q, r)` (with the implied cube coordinate `s = -q - r`) makes neighbours, distance,
//! rotation and rings a handful of integer additions, and maps directly to the offset rows some
//! boards are printed with (see [`crate::board`]).
//!
//! # One numbering, everywhere
//! Directions, hexsides and vertices are numbered once, in [`direction`], and the Lua API and the
//! editor use the same numbers. Clockwise from "up" in the flat-top layout:
//!
//! ```text
//!            0 N                      hexside i: shared with neighbour i
//!        5 NW    1 NE                 vertex i:  between hexside i and i + 1
//!            hex
//!        4 SW    2 SE                 axial steps: N (0,-1)  NE (1,-1)  SE (1,0)
//!            3 S                                   S (0,1)   SW (-1,1)  NW (-1,0)
//! ```
//!
//! # A tour
//! Distance, neighbours and facings ([`coord`], [`direction`]):
//! ```
//! use hexforge_core::hex::{Direction, Hex, Turn};
//! let ship = Hex::new(0, 0);
//! assert_eq!(ship.neighbor(Direction::SE), Hex::new(1, 0));
//! assert_eq!(ship.distance(Hex::new(3, -1)), 3);
//! assert_eq!(Direction::N.rotate(Turn::Clockwise, 2), Direction::SE);
//! ```
//! Rings, ranges, orbits and corridors ([`shapes`]):
//! ```
//! use hexforge_core::hex::{shapes, Direction, Hex, Turn};
//! let planet = Hex::new(2, 2);
//! assert_eq!(shapes::ring(planet, 2, Direction::N, Turn::Clockwise).count(), 12);
//! assert_eq!(shapes::range(planet, 10).count(), 331);
//! // A ship next to the planet orbits clockwise and is back where it started after six turns.
//! let start = planet.neighbor(Direction::S);
//! let mut at = start;
//! for _ in 0..6 { at = shapes::orbit_step(planet, at, Turn::Clockwise); }
//! assert_eq!(at, start);
//! // A hyperspace corridor: the nine hexes straight ahead.
//! assert_eq!(shapes::row(Hex::ORIGIN, Direction::N, 9).last(), Some(Hex::new(0, -9)));
//! ```
//! Beam arcs across a hexside ([`arc`]): targets exactly on an arc's edge are reported as such.
//! ```
//! use hexforge_core::hex::{arc::{arc_position, ArcPosition}, Direction, Hex};
//! assert_eq!(arc_position(Hex::ORIGIN, Direction::N, Hex::new(0, -4)), ArcPosition::Inside);
//! assert_eq!(arc_position(Hex::ORIGIN, Direction::N, Hex::new(1, -2)), ArcPosition::Boundary);
//! assert_eq!(arc_position(Hex::ORIGIN, Direction::N, Hex::new(0, 4)), ArcPosition::Outside);
//! ```
//! The exact line of fire ([`trace`]): every hex crossed, every vertex only touched, every
//! stretch along a hexside (a tie the rules resolve), in order.
//! ```
//! use hexforge_core::hex::{trace::{trace, blocked_unless_avoidable, all_left}, Hex};
//! let t = trace(Hex::new(0, 0), Hex::new(3, 1));
//! // Floating-point line drawing misses (2, 0); the exact trace does not.
//! assert!(t.hexes_crossed().any(|h| h == Hex::new(2, 0)));
//! // Along a diagonal the line runs between two hexes: a planet blocks only if both sides do.
//! let diagonal = trace(Hex::new(0, 0), Hex::new(2, -4));
//! assert!(diagonal.has_ties());
//! let planet = Hex::new(0, -1);
//! assert!(!blocked_unless_avoidable(&diagonal, |h| h == planet));
//! assert!(all_left(&diagonal).len() > 2);
//! ```
//! Hit location ([`hexside`]): the target hexside the line enters through, or the vertex
//! between two sides when it enters exactly through a corner.
//! ```
//! use hexforge_core::hex::{hexside::{entry_hexside, Entry}, Direction, Hex};
//! assert_eq!(entry_hexside(Hex::new(0, 3), Hex::ORIGIN), Some(Entry::Side(Direction::S)));
//! ```
//! Drawing ([`layout`]) is the only floating point: pixel <-> hex for flat-top and pointy-top.

pub mod arc;
pub mod coord;
pub mod direction;
pub mod hexside;
pub mod layout;
pub mod shapes;
pub mod trace;

pub use coord::Hex;
pub use direction::{Direction, Turn};
