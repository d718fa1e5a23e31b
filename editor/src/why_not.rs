//! Why a click on the board is not a legal choice for the selected piece (or, with none
//! selected, for the actions that name no piece): the reason the mod's own `check` gives, so a
//! player learns "the planet at (0,0) blocks every shortest path" instead of nothing; or that
//! it is legal after all, though not listed.
//!
//! The clicked hex or graph node (or a piece on it) is put in place of the hex, node (or
//! target) of each legal choice, and those actions are checked: a shot at a piece out of range
//! is the piece's legal shot with the target changed. A piece with no legal action of a kind is
//! asked with the action as declared, its piece and place or target filled in. At most
//! [`MAX_CHECKS`] checks, so a click costs at most a few milliseconds.
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

/// Where a click landed: a hex of a hex board or a node of a graph map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A board hex.
    Hex(Hex),
    /// A graph node, by id.
    Node(String),
}

impl Place {
    /// The param kind that names such a place (`hex` or `node`).
    fn kind(&self) -> &'static str {
        match self {
            Place::Hex(_) => "hex",
            Place::Node(_) => "node",
        }
    }

    /// The place as a param value.
    fn json(&self) -> Json {
        match self {
            Place::Hex(h) => serde_json::json!({ "q": h.q, "r": h.r }),
            Place::Node(n) => Json::from(n.as_str()),
        }
    }
}

/// The candidate actions for a click on `at` (with `others` standing there) by the piece of
/// `choices` (or among its actions that name no piece): its legal actions with the place or
/// target swapped, then, for a piece, declared actions filled in.
#[must_use]
pub fn candidates<R: Rules>(
    game: &Game<R>,
    decls: &ModDecls,
    choices: &PieceChoices,
    at: &Place,
    others: &[PieceId],
) -> Vec<Action> {
    let actor = choices.piece;
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
                Some("hex") if matches!(at, Place::Hex(_)) && hex_of(v).is_some() => {
                    push(with(a, k, at.json()), &mut out);
                }
                Some("node") if matches!(at, Place::Node(_)) && v.is_string() => {
                    push(with(a, k, at.json()), &mut out);
                }
                Some("piece") if piece_of(v).is_some_and(|p| Some(p) != actor) => {
                    for t in others.iter().filter(|&&t| Some(t) != actor) {
                        push(with(a, k, Json::from(t.0)), &mut out);
                    }
                }
                _ => {}
            }
        }
    }
    // Kinds of action the piece has no legal instance of: as declared, piece and place filled.
    let Some((actor, owner)) =
        actor.and_then(|p| Some((p, game.state().pieces.get(&p)?.owner.clone())))
    else {
        out.truncate(MAX_CHECKS);
        return out;
    };
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
        let places: Vec<&String> = decl
            .params
            .iter()
            .filter(|(_, kind)| kind.as_str() == at.kind())
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
        if let ([who], [place]) = (pieces.as_slice(), places.as_slice()) {
            let mut m = Map::new();
            m.insert((*who).clone(), Json::from(actor.0));
            m.insert((*place).clone(), at.json());
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
    at: &Place,
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
