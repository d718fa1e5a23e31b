//! Why a click on the board is not a legal choice for the selected piece: the reason the mod's
//! own `check` gives, so a player learns "the planet at (0,0) blocks every shortest path"
//! instead of nothing; or that it is legal after all, though not listed.
//!
//! The clicked hex (or a piece on it) is put in place of the hex (or target) of each legal
//! action of the piece, and those actions are checked: a shot at a piece out of range is the
//! piece's legal shot with the target changed. A piece with no legal action of a kind is asked
//! with the action as declared, its piece and hex or target filled in. At most [`MAX_CHECKS`]
//! checks, so a click costs at most a few milliseconds.
//!
//! **What it deliberately does not do:** guess params it cannot fill (a weapon, a facing), or
//! say anything when every candidate is legal.

use crate::session::{PieceChoices, hex_of, param_kind, piece_of};
use hexforge_core::hex::Hex;
use hexforge_game::{Action, Game, PieceId, Rules};
use hexforge_script::ModDecls;
use serde_json::{Map, Value as Json};
use std::collections::BTreeSet;

/// At most this many candidate actions are checked per click.
pub const MAX_CHECKS: usize = 24;

/// The candidate actions for a click on hex `at` (with `others` standing there) by the piece of
/// `choices`: its legal actions with the hex or target swapped, then declared actions filled in.
#[must_use]
pub fn candidates<R: Rules>(
    game: &Game<R>,
    decls: &ModDecls,
    choices: &PieceChoices,
    at: Hex,
    others: &[PieceId],
) -> Vec<Action> {
    let Some(actor) = choices.piece else {
        return Vec::new();
    };
    let Some(owner) = game.state().pieces.get(&actor).map(|p| p.owner.clone()) else {
        return Vec::new();
    };
    let mut out: Vec<Action> = Vec::new();
    let mut seen = BTreeSet::new();
    let mut push = |a: Action, out: &mut Vec<Action>| {
        if !choices.actions.contains(&a) && seen.insert((a.id.clone(), a.params.to_string())) {
            out.push(a);
        }
    };
    for a in &choices.actions {
        let Json::Object(m) = &a.params else { continue };
        for (k, v) in m {
            match param_kind(decls, &a.id, k) {
                Some("hex") if hex_of(v).is_some() => {
                    push(with(a, k, hex_json(at)), &mut out);
                }
                Some("piece") if piece_of(v).is_some_and(|p| p != actor) => {
                    for t in others.iter().filter(|&&t| t != actor) {
                        push(with(a, k, Json::from(t.0)), &mut out);
                    }
                }
                _ => {}
            }
        }
    }
    // Kinds of action the piece has no legal instance of: as declared, piece and place filled.
    let listed: BTreeSet<&str> = choices.actions.iter().map(|a| a.id.as_str()).collect();
    for (id, decl) in &decls.actions {
        if listed.contains(id.as_str()) {
            continue;
        }
        let pieces: Vec<&String> = decl
            .params
            .iter()
            .filter(|(_, kind)| kind.as_str() == "piece")
            .map(|(k, _)| k)
            .collect();
        let hexes: Vec<&String> = decl
            .params
            .iter()
            .filter(|(_, kind)| kind.as_str() == "hex")
            .map(|(k, _)| k)
            .collect();
        // Only actions whose params are all a piece and a place: nothing else to guess.
        if decl.params.len() != 2 || pieces.is_empty() {
            continue;
        }
        let action = |params: Map<String, Json>| Action {
            side: owner.clone(),
            id: id.clone(),
            params: Json::Object(params),
        };
        if let ([who], [place]) = (pieces.as_slice(), hexes.as_slice()) {
            let mut m = Map::new();
            m.insert((*who).clone(), Json::from(actor.0));
            m.insert((*place).clone(), hex_json(at));
            push(action(m), &mut out);
        } else if let [first, second] = pieces.as_slice() {
            for t in others.iter().filter(|&&t| t != actor) {
                let mut m = Map::new();
                m.insert((*first).clone(), Json::from(actor.0));
                m.insert((*second).clone(), Json::from(t.0));
                push(action(m), &mut out);
            }
        }
    }
    out.truncate(MAX_CHECKS);
    out
}

/// What the rules say about a click that no listed choice names.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Nothing to ask (no selected piece, no candidate).
    Nothing,
    /// Legal after all: the listing offers fewer than the rules allow (a mod may list a grid of
    /// exits for bots while a player may name any hex). In candidate order.
    Legal(Vec<Action>),
    /// Not legal: "fire: out of range (12 hexes, range 10)", several kinds joined with "; ".
    Illegal(String),
}

/// Checks the click's candidates ([`candidates`]).
#[must_use]
pub fn verdict<R: Rules>(
    game: &Game<R>,
    decls: &ModDecls,
    choices: &PieceChoices,
    at: Hex,
    others: &[PieceId],
) -> Verdict {
    let mut reasons: Vec<(String, String)> = Vec::new();
    let mut legal = Vec::new();
    for a in candidates(game, decls, choices, at, others) {
        match game.check(&a) {
            Ok(Ok(())) => legal.push(a),
            Ok(Err(illegal)) => {
                if !reasons.iter().any(|(id, _)| *id == a.id) {
                    reasons.push((a.id.clone(), illegal.reason));
                }
            }
            Err(e) => reasons.push((a.id.clone(), format!("the rules failed: {e}"))),
        }
    }
    if !legal.is_empty() {
        return Verdict::Legal(legal);
    }
    if reasons.is_empty() {
        return Verdict::Nothing;
    }
    Verdict::Illegal(
        reasons
            .iter()
            .take(3)
            .map(|(id, why)| format!("{id}: {why}"))
            .collect::<Vec<_>>()
            .join("; "),
    )
}

/// `a` with param `k` set to `v`.
fn with(a: &Action, k: &str, v: Json) -> Action {
    let mut b = a.clone();
    if let Json::Object(m) = &mut b.params {
        m.insert(k.to_owned(), v);
    }
    b
}

fn hex_json(h: Hex) -> Json {
    serde_json::json!({ "q": h.q, "r": h.r })
}
