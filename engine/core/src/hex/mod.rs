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
//! # Numbering
//! See [`direction`] for the one numbering of directions, hexsides and vertices used everywhere.

pub mod arc;
pub mod coord;
pub mod direction;
pub mod hexside;
pub mod layout;
pub mod shapes;
pub mod trace;

pub use coord::Hex;
pub use direction::{Direction, Turn};
