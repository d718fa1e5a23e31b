//! Facing-and-turns movement (document 000) as a state for [`reachable`].
//!
//! The rules: a ship moves **exactly** its speed, always into the hex it faces. After it enters a
//! hex it may turn one hexside left or right, **at most once per hex** and at most `MR` times in
//! the whole move; it may not turn in the hex it starts in. A ship whose speed is 0 may rotate to
//! any facing instead. Blocked hexes (planets) may not be entered; the caller's `enterable`
//! closure decides which those are (and whether flying off the map is allowed).
//!
//! A [`FacingMove`] is one point of a move: where the ship is, which way it faces, how far it has
//! moved and how many turns it has used. The search cost of a state is hexes moved plus turns
//! made, so of several ways to the same end position [`end_positions`] keeps one with the fewest
//! turns.
//!
//! Choices where the document is silent (change them through [`FacingRules`]):
//! - a turn is allowed in the final hex, after the last move (`turn_in_final_hex`).
//!
//! This module knows nothing of acceleration, orbits or gravity: build those as other states
//! for [`reachable`], or set the speed before calling.
//!
//! The worked example of document 000: a frigate with speed 7 and MR 3 moves three hexes, turns
//! left, moves two, turns left, moves one, turns left and moves one more.
//!
//! ```
//! use hexforge_core::hex::{Direction, Hex};
//! use hexforge_core::search::{end_positions, facing_moves, hexes_of, FacingRules, Limits};
//!
//! let rules = FacingRules::new(7, 3);
//! let reach = facing_moves(Hex::ORIGIN, Direction::N, &rules, |_| true, Limits::default());
//! let ends = end_positions(&reach, &rules);
//! // Three hexes N, two NW, one SW, one S.
//! let end = ends[&(Hex::new(-3, -1), Direction::S)];
//! assert_eq!(end.turns, 3);
//! let hexes = hexes_of(&reach.path_to(&end));
//! assert_eq!(hexes.len(), 8); // the start hex and seven hexes moved
//! assert_eq!(hexes[3], Hex::new(0, -3));
//! ```

use super::{Limits, Reach, reachable};
use crate::hex::{Direction, Hex};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The movement allowance of one ship for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FacingRules {
    /// Hexes the ship must move, exactly.
    pub speed: u32,
    /// Most hexside turns in the move (the manoeuvre rating, MR).
    pub max_turns: u32,
    /// Whether the ship may turn in the hex where its move ends (default true).
    #[serde(default = "yes")]
    pub turn_in_final_hex: bool,
}

fn yes() -> bool {
    true
}

impl FacingRules {
    /// Speed and MR, with a turn allowed in the final hex.
    #[must_use]
    pub const fn new(speed: u32, max_turns: u32) -> Self {
        FacingRules {
            speed,
            max_turns,
            turn_in_final_hex: true,
        }
    }
}

/// One point in a move: position, facing, hexes moved and turns used so far.
///
/// Ordered by hex, facing, moved, turns, then `turned_here`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FacingMove {
    /// The hex the ship is in.
    pub hex: Hex,
    /// The way its bow points.
    pub facing: Direction,
    /// Hexes entered so far.
    pub moved: u32,
    /// Hexside turns made so far (for a speed-0 rotation: hexsides rotated).
    pub turns: u32,
    /// Whether the ship has already turned in this hex.
    pub turned_here: bool,
}

impl FacingMove {
    /// A ship about to move from `hex`, facing `facing`.
    #[must_use]
    pub const fn start(hex: Hex, facing: Direction) -> Self {
        FacingMove {
            hex,
            facing,
            moved: 0,
            turns: 0,
            turned_here: false,
        }
    }

    /// Whether the move is complete (the ship has moved exactly its speed).
    #[must_use]
    pub const fn is_finished(&self, rules: &FacingRules) -> bool {
        self.moved == rules.speed
    }

    /// The next states, each with its search cost (1 per hex moved or hexside turned), pushed
    /// onto `out`. `enterable(hex)` says whether the ship may enter `hex`.
    pub fn successors(
        &self,
        rules: &FacingRules,
        mut enterable: impl FnMut(Hex) -> bool,
        out: &mut Vec<(Self, u32)>,
    ) {
        if rules.speed == 0 {
            // Speed 0 all turn: rotate freely, once, to any facing.
            if self.moved == 0 && !self.turned_here {
                for d in Direction::ALL {
                    let (steps, _) = self.facing.turns_to(d);
                    if steps > 0 {
                        let turns = u32::from(steps);
                        out.push((
                            FacingMove {
                                facing: d,
                                turns,
                                turned_here: true,
                                ..*self
                            },
                            turns,
                        ));
                    }
                }
            }
            return;
        }
        if self.moved < rules.speed {
            let (dq, dr) = self.facing.vector();
            if let (Some(q), Some(r)) = (self.hex.q.checked_add(dq), self.hex.r.checked_add(dr)) {
                let next = Hex::new(q, r);
                if enterable(next) {
                    out.push((
                        FacingMove {
                            hex: next,
                            moved: self.moved + 1,
                            turned_here: false,
                            ..*self
                        },
                        1,
                    ));
                }
            }
        }
        let may_turn = self.moved > 0
            && !self.turned_here
            && self.turns < rules.max_turns
            && (self.moved < rules.speed || rules.turn_in_final_hex);
        if may_turn {
            for facing in [self.facing.left(), self.facing.right()] {
                out.push((
                    FacingMove {
                        facing,
                        turns: self.turns + 1,
                        turned_here: true,
                        ..*self
                    },
                    1,
                ));
            }
        }
    }
}

/// Every state of every legal move from `start` facing `facing` (see [`FacingMove`]).
///
/// With speed `s` and MR `m` there are at most `6 * (s + 1) * (m + 1) * 2` states per hex
/// reached, so the search always ends; `limits` can bound it further.
#[must_use]
pub fn facing_moves(
    start: Hex,
    facing: Direction,
    rules: &FacingRules,
    mut enterable: impl FnMut(Hex) -> bool,
    limits: Limits,
) -> Reach<FacingMove> {
    reachable(
        FacingMove::start(start, facing),
        |s, out| s.successors(rules, &mut enterable, out),
        limits,
    )
}

/// The finished moves of a search, one per end position `(hex, facing)`: the one with the fewest
/// turns (then the smallest state). Rebuild each one's path with [`Reach::path_to`].
#[must_use]
pub fn end_positions(
    reach: &Reach<FacingMove>,
    rules: &FacingRules,
) -> BTreeMap<(Hex, Direction), FacingMove> {
    reach.best_by_key(|s| s.is_finished(rules).then_some((s.hex, s.facing)))
}

/// The hexes a move passes through, start first, each once in order (turns add no hex). This is
/// the path the rules record for fire at a moving ship.
#[must_use]
pub fn hexes_of(path: &[FacingMove]) -> Vec<Hex> {
    let mut out: Vec<Hex> = Vec::with_capacity(path.len());
    for s in path {
        if out.last() != Some(&s.hex) {
            out.push(s.hex);
        }
    }
    out
}
