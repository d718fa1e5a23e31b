//! Identifiers and the mod-defined value type.
//!
//! Pieces are named by a small integer [`PieceId`] handed out by the state (never reused within a
//! game), sides by the string [`SideId`] the scenario gives them. Mod-defined data is a
//! [`Value`] (a JSON value). This module deliberately has no behaviour beyond construction and
//! display.
//!
//! ```
//! use hexforge_game::{PieceId, SideId};
//! assert_eq!(PieceId(7).to_string(), "#7");
//! assert_eq!(SideId::new("red").as_str(), "red");
//! ```

use serde::{Deserialize, Serialize};
use std::fmt;

/// Mod-defined data: piece values, side values, globals, action parameters.
///
/// Why JSON: it is plain, serialisable data the Lua side maps to tables one to one, and
/// serde_json's object map is a `BTreeMap` (no `preserve_order`), so iteration order never leaks
/// insertion order. Hashing canonicalises key order anyway (see [`crate::state_hash`]).
pub type Value = serde_json::Value;

/// A piece's handle. Serialised as a bare integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PieceId(pub u32);

impl fmt::Display for PieceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// A side (player or faction) id as given by the scenario, e.g. `"blue"`. Serialised as a string.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SideId(pub String);

impl SideId {
    /// A side id from any string.
    #[must_use]
    pub fn new(id: impl Into<String>) -> Self {
        SideId(id.into())
    }

    /// The id as a string slice.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SideId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for SideId {
    fn from(s: &str) -> Self {
        SideId(s.to_owned())
    }
}
