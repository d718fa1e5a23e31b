//! # hexforge-core
//!
//! The exact, deterministic heart of Hexforge: hex geometry, boards, movement search, seeded dice
//! and rule tables. Every rule question a mod asks ("how far", "which hexes does this line of fire
//! cross", "what can this ship reach with speed 7 and 3 turns", "what are the odds of this table
//! cell") is answered here in exact integer arithmetic.
//!
//! **This crate deliberately has no Lua, no file system, no clock and no global state.** The Lua
//! runtime (`hexforge-script`) exposes it to mods; the game state (`hexforge-game`) stores its
//! values. Floating point appears only in [`hex::layout`], for drawing.
//!
//! Modules:
//! - [`hex`]: coordinates, directions, rings and ranges, arcs, the exact line trace, hexsides,
//!   pixel layouts.
//! - [`board`]: the board shapes the games use and "is this on the map" tests.
//! - [`search`]: cheapest paths and facing-aware reachability for movement previews.
//! - [`dice`]: a seeded, logged dice roller, dice notation, custom-faced dice and exact odds.
//! - [`table`]: rule tables with clamping and column shifts, and their exact outcome odds.

pub mod board;
pub mod dice;
pub mod hex;
pub mod search;
pub mod table;
