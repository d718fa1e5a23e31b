//! [`DiceSet`]: the registry of custom dice whose faces are names.
//!
//! A mod registers, for example, a six-faced battle die (fighter, strike, capital, wild, star,
//! alert) and then writes `3d[battle]`. The set only resolves names at parse time; the resulting
//! [`DiceExpr`] carries the faces itself, so rolling needs no registry.
//!
//! ```
//! use hexforge_core::dice::{DiceRoller, DiceSet};
//!
//! let mut set = DiceSet::new();
//! set.register("battle", ["fighter", "strike", "capital", "wild", "star", "alert"]).unwrap();
//! let expr = set.parse("3d[battle]").unwrap();
//! let roll = DiceRoller::new(7).roll(&expr, "attack");
//! assert_eq!(roll.dice.len(), 3);
//! assert!(roll.dice.iter().all(|d| d.face.is_some()));
//! ```

use super::expr::NamedDie;
use super::{DiceError, DiceExpr, MAX_SIDES};
use std::collections::BTreeMap;

/// A registry of named-face dice, keyed by die name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DiceSet {
    dice: BTreeMap<String, NamedDie>,
}

impl DiceSet {
    /// An empty set.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a die. Names use ASCII letters, digits, `_`, `-`, `:` and `.` (so mods can
    /// namespace them: `squadron:battle`); faces must be non-empty, and there are 1 to `MAX_SIDES`
    /// of them. Faces may repeat (a die with two "hit" faces).
    ///
    /// # Errors
    /// [`DiceError::InvalidDie`] for a bad or already registered name, or bad faces.
    pub fn register<I, S>(&mut self, name: &str, faces: I) -> Result<(), DiceError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let invalid = |reason| DiceError::InvalidDie {
            name: name.to_owned(),
            reason,
        };
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b':' | b'.'))
        {
            return Err(invalid("names use letters, digits, '_', '-', ':' and '.'"));
        }
        if self.dice.contains_key(name) {
            return Err(invalid("already registered"));
        }
        let mut list = Vec::new();
        for f in faces {
            if list.len() >= MAX_SIDES as usize {
                return Err(invalid("too many faces"));
            }
            let f: String = f.into();
            if f.is_empty() {
                return Err(invalid("a face name is empty"));
            }
            list.push(f);
        }
        if list.is_empty() {
            return Err(invalid("a die needs at least one face"));
        }
        self.dice.insert(
            name.to_owned(),
            NamedDie {
                name: name.to_owned(),
                faces: list,
            },
        );
        Ok(())
    }

    /// The die registered under `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&NamedDie> {
        self.dice.get(name)
    }

    /// Registered dice in name order.
    pub fn iter(&self) -> impl Iterator<Item = &NamedDie> {
        self.dice.values()
    }

    /// Parses notation that may use this set's named dice (`3d[battle]`) as well as numeric dice.
    ///
    /// # Errors
    /// As [`DiceExpr::parse`], plus [`DiceError::UnknownDie`] and [`DiceError::NamedDiceMixed`].
    pub fn parse(&self, text: &str) -> Result<DiceExpr, DiceError> {
        super::parse::parse(text, Some(self))
    }
}
