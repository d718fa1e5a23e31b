//! Dice: [`DiceDecl`], the reader of `game.dice` declarations, and the notation checks other
//! readers share ([`valid_notation`], [`single_die_sides`]).

use super::ModDecls;
use super::reader::{Reader, check_id, entries};
use crate::error::SourceLoc;
use mlua::{Table, Value};

/// A die: either notation (`"2d6"`) or custom faces.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct DiceDecl {
    /// Id.
    pub id: String,
    /// Dice notation, when given.
    pub notation: Option<String>,
    /// Custom faces, when given.
    pub faces: Vec<String>,
    /// Where it was declared.
    pub source: SourceLoc,
}

/// Whether `s` is dice notation the core's parser accepts (`2d6`, `1d10+1`, `4d6kh3`, ...).
#[must_use]
pub fn valid_notation(s: &str) -> bool {
    hexforge_core::dice::DiceExpr::parse(s.trim()).is_ok_and(|e| !e.is_named())
}

/// The sides of `s` when it is exactly one numeric die (`d6`, `1d10`), else `None`.
#[must_use]
pub fn single_die_sides(s: &str) -> Option<u32> {
    use hexforge_core::dice::{Die, Part};
    let expr = hexforge_core::dice::DiceExpr::parse(s.trim()).ok()?;
    match expr.terms() {
        [term] if !term.negative => match &term.part {
            Part::Dice(g) if g.count() == 1 && g.keep().is_none() => match g.die() {
                Die::Numeric(sides) => Some(*sides),
                Die::Named(_) => None,
            },
            _ => None,
        },
        _ => None,
    }
}

/// Reads `game.dice_types`.
pub(super) fn read_dice(r: &mut Reader<'_>, game: &Table, sources: &Table, d: &mut ModDecls) {
    for (id, t, loc) in entries(r, game, sources, "dice_types") {
        check_id(r, &loc, "dice", &id, &t);
        let notation: Option<String> = t.raw_get("notation").ok().flatten();
        let faces = r.strings(
            t.raw_get("faces").unwrap_or(Value::Nil),
            &loc,
            &format!("dice {id}: faces"),
        );
        match (&notation, faces.is_empty()) {
            (Some(n), true) if !valid_notation(n) => r.err(
                &loc,
                format!(
                    "dice {id}: notation {n:?} does not parse; write e.g. \"2d6\" or \"1d10+1\""
                ),
            ),
            (Some(_), false) => r.err(
                &loc,
                format!("dice {id}: give either notation or faces, not both"),
            ),
            (None, true) => r.err(
                &loc,
                format!("dice {id}: needs notation = \"2d6\" or faces = {{ ... }}"),
            ),
            _ => {}
        }
        d.dice.insert(
            id.clone(),
            DiceDecl {
                id,
                notation,
                faces,
                source: loc,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::{single_die_sides, valid_notation};

    #[test]
    fn notation() {
        for ok in ["2d6", "d6", "1d10+1", "3d6-2", " 1d20 ", "4d6kh3"] {
            assert!(valid_notation(ok), "{ok}");
        }
        for bad in ["", "d", "2d", "2x6", "d0", "1d6+", "1d6+x", "99999d6"] {
            assert!(!valid_notation(bad), "{bad}");
        }
    }

    #[test]
    fn a_play_order_die_is_exactly_one_die() {
        assert_eq!(single_die_sides("d6"), Some(6));
        assert_eq!(single_die_sides(" 1d10 "), Some(10));
        for not_one in ["2d6", "1d6+1", "d6-1", "-d6", "4d6kh3", "3", "x"] {
            assert_eq!(single_die_sides(not_one), None, "{not_one}");
        }
    }
}
