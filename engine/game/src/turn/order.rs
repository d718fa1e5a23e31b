//! The play order: turn-takers (sides, or teams), who belongs to which, who is still in the
//! game, and the rolls that decide who goes first (as a round starts, or when the rules say).

use super::{Order, TurnStructure};
use crate::dice::DiceSource;
use crate::ids::SideId;
use crate::state::{GameState, SideState};

/// The turn-takers in seating order: side ids, or team ids when playing by teams (a side
/// without a team is its own team), each once.
#[must_use]
pub fn seating_takers(state: &GameState, turns: &TurnStructure) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in state.sides.iter() {
        let t = taker_of(s, turns);
        if !out.iter().any(|o| o == t) {
            out.push(t.to_owned());
        }
    }
    out
}

/// The turn-taker a side plays under. Borrowed: the turn engine asks this for every side after
/// every action, and an owned id would be an allocation each time.
pub(super) fn taker_of<'a>(s: &'a SideState, turns: &TurnStructure) -> &'a str {
    if turns.teams {
        s.team.as_deref().unwrap_or(s.id.as_str())
    } else {
        s.id.as_str()
    }
}

/// The sides (in seating order) that make up a turn-taker, including those out of the game.
#[must_use]
pub fn members(state: &GameState, turns: &TurnStructure, taker: &str) -> Vec<SideId> {
    state
        .sides
        .iter()
        .filter(|s| taker_of(s, turns) == taker)
        .map(|s| s.id.clone())
        .collect()
}

/// Whether any side with this id is a member of `taker` (see [`members`]).
pub(super) fn is_member(
    sides: &[SideState],
    turns: &TurnStructure,
    taker: &str,
    side: &SideId,
) -> bool {
    sides
        .iter()
        .any(|s| &s.id == side && taker_of(s, turns) == taker)
}

/// Whether the side with this id (the first one in seating order) is still in the game.
pub(super) fn live(sides: &[SideState], side: &SideId) -> bool {
    sides
        .iter()
        .find(|s| &s.id == side)
        .is_some_and(|s| !s.eliminated)
}

/// All sides in this round's play order (turn-takers' members in order, then any side the
/// order leaves out, in seating order), including those out of the game.
#[must_use]
pub fn play_sides(state: &GameState, turns: &TurnStructure) -> Vec<SideId> {
    play_order(&state.sides, &state.clock.order, turns)
        .into_iter()
        .cloned()
        .collect()
}

/// [`play_sides`], borrowing the ids from `sides` instead of cloning them: the turn engine
/// recomputes the play order after every action, and only the few ids that end up acting need
/// owned copies (and only when the acting list changed).
pub(super) fn play_order<'a>(
    sides: &'a [SideState],
    order: &[String],
    turns: &TurnStructure,
) -> Vec<&'a SideId> {
    let mut out: Vec<&SideId> = Vec::with_capacity(sides.len());
    for taker in order {
        for s in sides.iter().filter(|s| taker_of(s, turns) == taker) {
            if !out.contains(&&s.id) {
                out.push(&s.id);
            }
        }
    }
    for s in sides {
        if !out.contains(&&s.id) {
            out.push(&s.id);
        }
    }
    out
}

/// Rolls for the play order now, for rules whose document rolls at a moment of its own ("once
/// every design is final"): the order [`roll_order`] gives, kept in [`Clock::next_order`] for
/// the next round to start with (the current round goes on in its order). With
/// [`Order::Rolled`] the structure's die is rolled (`die` must be `None` or the same); with
/// [`Order::Hook`] (seating order until the rules roll) `die` is required. Returns the order.
///
/// # Errors
/// A message for a fixed order, a missing die or a die other than the structure's.
pub fn roll_next_order(
    state: &mut GameState,
    turns: &TurnStructure,
    die: Option<u32>,
) -> Result<Vec<String>, String> {
    let die = match (&turns.order, die) {
        (Order::Rolled { die, .. }, None) => *die,
        (Order::Rolled { die, .. }, Some(d)) if d == *die => d,
        (Order::Rolled { die, .. }, Some(d)) => {
            return Err(format!(
                "game.turns rolls a d{die} for the order; leave the die out (got d{d})"
            ));
        }
        (Order::Hook, Some(d)) => d,
        (Order::Hook, None) => {
            return Err("with order = \"hook\" name the die: ctx:roll_order(6)".to_owned());
        }
        (Order::Fixed(_), _) => {
            return Err(
                "only when game.turns has order = \"rolled\" or \"hook\" (the order is fixed)"
                    .to_owned(),
            );
        }
    };
    let order = roll_order(state, turns, die);
    state.clock.next_order = Some(order.clone());
    Ok(order)
}

/// Rolls for the play order: each live turn-taker rolls a `die`; the highest goes first (ties
/// re-roll among the tied, at most 32 times, then seating order breaks the tie); the order then
/// follows seating order from the winner.
pub fn roll_order(state: &mut GameState, turns: &TurnStructure, die: u32) -> Vec<String> {
    let takers = seating_takers(state, turns);
    let mut contenders: Vec<usize> = (0..takers.len())
        .filter(|&i| {
            members(state, turns, &takers[i])
                .iter()
                .any(|m| live(&state.sides, m))
        })
        .collect();
    for _ in 0..32 {
        if contenders.len() <= 1 {
            break;
        }
        let rolls: Vec<u32> = contenders
            .iter()
            .map(|&i| {
                state
                    .dice
                    .roll_die(die, &format!("play order: {}", takers[i]))
            })
            .collect();
        let best = rolls.iter().copied().max().unwrap_or(0);
        contenders = contenders
            .iter()
            .zip(&rolls)
            .filter(|(_, r)| **r == best)
            .map(|(i, _)| *i)
            .collect();
    }
    let first = contenders.first().copied().unwrap_or(0);
    let mut order = takers;
    let n = order.len();
    order.rotate_left(first.min(n));
    order
}
