//! Actions as data, and illegal actions as values.
//!
//! Everything a player does is an [`Action`]: an id (the mod's action id, or the built-in
//! [`END_PHASE`]), the side doing it and JSON parameters (e.g. `piece`, `to`, `path`). Actions
//! are what the log, replays and saves store. An action the rules refuse is an [`Illegal`] value
//! carrying a reason the player can read, never a panic or an error. This module deliberately
//! does not know what any mod action means.
//!
//! ```
//! use hexforge_game::{Action, SideId};
//! let a = Action::new("move", "blue", serde_json::json!({ "piece": 3, "to": { "q": 1, "r": 0 } }));
//! assert_eq!(a.param("piece"), Some(&serde_json::json!(3)));
//! assert!(Action::end_phase(SideId::new("blue")).is_end_phase());
//! ```

use crate::ids::{SideId, Value};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Id of the built-in engine action that ends the acting side's part in the current phase.
pub const END_PHASE: &str = "end_phase";

/// One player action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Action {
    /// The action id (a mod action id, or [`END_PHASE`]).
    pub id: String,
    /// Who does it.
    pub side: SideId,
    /// Parameters; `null` when there are none.
    #[serde(default)]
    pub params: Value,
}

impl Action {
    /// An action from its parts.
    #[must_use]
    pub fn new(id: impl Into<String>, side: impl Into<SideId>, params: Value) -> Self {
        Action {
            id: id.into(),
            side: side.into(),
            params,
        }
    }

    /// The built-in `end_phase` action for a side.
    #[must_use]
    pub fn end_phase(side: SideId) -> Self {
        Action {
            id: END_PHASE.to_owned(),
            side,
            params: Value::Null,
        }
    }

    /// Whether this is the built-in `end_phase`.
    #[must_use]
    pub fn is_end_phase(&self) -> bool {
        self.id == END_PHASE
    }

    /// A named parameter, if `params` is an object that has it.
    #[must_use]
    pub fn param(&self, key: &str) -> Option<&Value> {
        self.params.get(key)
    }
}

impl From<String> for SideId {
    fn from(s: String) -> Self {
        SideId(s)
    }
}

/// Why an action is not allowed, in words for the player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("illegal: {reason}")]
pub struct Illegal {
    /// The reason, e.g. `"the frigate has no movement left"`.
    pub reason: String,
}

impl Illegal {
    /// An illegal-action value with a reason.
    #[must_use]
    pub fn new(reason: impl fmt::Display) -> Self {
        Illegal {
            reason: reason.to_string(),
        }
    }
}
