//! Playing on the map: what a click on a hex, a graph node or a facing arrow does, and the
//! overlays that show what may be clicked (the choices' hexes and nodes, targets with their hit
//! chances, the path or line under the pointer, the facing arrows).
//!
//! A click picks among the selected piece's choices (or, with none selected, the actions that
//! name no piece: a deployment at a hex, a jump to a node) by what it touches: one action is
//! played, several become the play panel's short list, and when those differ only by facing
//! the hex grows arrows. A click no choice names asks the rules why not ([`crate::why_not`]);
//! a click on another piece that can act selects it.

use super::*;
use crate::session::facing_picks;
use crate::why_not::{Place, Verdict, verdict};
use hexforge_core::hex::Direction;
use hexforge_game::Position;

impl EditorApp {
    /// A click on a board hex.
    pub(super) fn click_hex(&mut self, h: Hex) {
        self.selected = Some(h);
        if self.open.is_none() {
            return;
        }
        let here = self.pieces_on(h);
        let mut idx: Vec<usize> = self.choices.by_hex.get(&h).cloned().unwrap_or_default();
        for (t, list) in &self.choices.by_target {
            if here.contains(t) {
                idx.extend(list);
            }
        }
        let picked = self.choices.pick(&sorted(idx));
        self.click_place(&Place::Hex(h), &here, picked);
    }

    /// A click on a graph node.
    pub(super) fn click_node(&mut self, node: &str) {
        let Some(s) = &self.open else { return };
        let here: Vec<PieceId> = s
            .game
            .state()
            .pieces
            .values()
            .filter(|p| matches!(&p.pos, Position::Node { location, .. } if location == node))
            .map(|p| p.id)
            .collect();
        let mut idx: Vec<usize> = self.choices.by_node.get(node).cloned().unwrap_or_default();
        for (t, list) in &self.choices.by_target {
            if here.contains(t) {
                idx.extend(list);
            }
        }
        let picked = self.choices.pick(&sorted(idx));
        self.click_place(&Place::Node(node.to_owned()), &here, picked);
    }

    /// A click on an arrow: the short-listed action that ends facing `d`, or with no short
    /// list, the selected piece's choices that go (or turn) that way.
    pub(super) fn click_arrow(&mut self, h: Hex, d: Direction) {
        let Some(s) = &self.open else { return };
        if let Some(picks) = facing_picks(s.decls(), &self.pending, h) {
            if let Some(&(_, i)) = picks.iter().find(|(f, _)| *f == d) {
                let a = self.pending[i].clone();
                self.perform(&a);
            }
            return;
        }
        if let Some(idx) = self.choices.by_direction.get(&d) {
            self.selected = Some(h);
            self.offer(self.choices.pick(idx));
        }
    }

    /// What a click on `at` does, given the selected piece's choices it picked (`picked`) and
    /// the pieces standing there (`here`).
    fn click_place(&mut self, at: &Place, here: &[PieceId], picked: Vec<Action>) {
        let Some(s) = &self.open else { return };
        if !picked.is_empty() {
            return self.offer(picked);
        }
        let can_act = session::pieces_with_actions(s.decls(), s.game.state(), &s.legal);
        let switch = here
            .iter()
            .any(|p| can_act.contains(p) && Some(*p) != self.selected_piece);
        // With no piece of the mover's there to select: the actions naming no piece that name
        // this place (or with none, the same asked with this place).
        let free = match at {
            Place::Hex(h) => self.free.by_hex.get(h),
            Place::Node(n) => self.free.by_node.get(n),
        };
        if !switch && let Some(idx) = free {
            return self.offer(self.free.pick(idx));
        }
        // Not a legal choice, and no piece to switch to: say why (the mod's own reason) and
        // keep the selection.
        let asked = if self.selected_piece.is_some() {
            &self.choices
        } else {
            &self.free
        };
        if !switch
            && !asked.actions.is_empty()
            && (self.selected_piece.is_some() || here.is_empty())
        {
            match verdict(&s.game, s.decls(), asked, at, here) {
                Verdict::Illegal(why) => {
                    self.set_message(format!("not allowed: {why}"));
                    return self.refresh_play();
                }
                Verdict::Legal(acts) => return self.offer(acts),
                Verdict::Nothing => {}
            }
        }
        let pick = here
            .iter()
            .find(|p| can_act.contains(p))
            .or(here.first())
            .copied();
        self.select_piece(pick);
        self.refresh_play();
    }

    /// Plays the one action a click named, or lists several to pick from.
    fn offer(&mut self, acts: Vec<Action>) {
        if let [a] = acts.as_slice() {
            let a = a.clone();
            return self.perform(&a);
        }
        let facing = match (&self.open, self.selected) {
            (Some(s), Some(h)) => facing_picks(s.decls(), &acts, h).is_some(),
            _ => false,
        };
        self.pending = acts;
        self.set_message(if facing {
            "pick a facing: click an arrow on the hex".into()
        } else {
            "several actions end there: pick one".into()
        });
        self.refresh_play();
    }

    /// Asks the rules, once per hovered hex, why the selected piece may not act there: the
    /// board shows the reason with the hex's coordinates, before any click.
    pub(super) fn ask_why_not_hovered(&mut self) {
        let (Some(s), Some(_), Some(h)) = (&self.open, self.selected_piece, self.hovered) else {
            self.hover_why = None;
            return;
        };
        if self.hover_why_at == Some(h) {
            return;
        }
        self.hover_why_at = Some(h);
        self.hover_why = None;
        let here = self.pieces_on(h);
        let named = self.choices.by_hex.contains_key(&h)
            || here.iter().any(|p| self.choices.by_target.contains_key(p));
        if named || !here.is_empty() {
            return;
        }
        if let Verdict::Illegal(why) =
            verdict(&s.game, s.decls(), &self.choices, &Place::Hex(h), &here)
        {
            self.hover_why = Some((h, format!("not allowed: {why}")));
        }
    }

    /// The pieces of the scene on hex `h` (any of the hexes they cover).
    fn pieces_on(&self, h: Hex) -> Vec<PieceId> {
        self.scene
            .pieces
            .iter()
            .filter(|p| self.scene_piece_hexes(p.id).contains(&h))
            .map(|p| p.id)
            .collect()
    }

    /// The hexes a piece of the scene covers.
    pub(super) fn scene_piece_hexes(&self, id: PieceId) -> Vec<Hex> {
        self.scene
            .pieces
            .iter()
            .find(|p| p.id == id)
            .map(|p| {
                let offs = self
                    .scene
                    .footprints
                    .get(&p.kind)
                    .map_or(&[][..], Vec::as_slice);
                p.hexes(offs)
            })
            .unwrap_or_default()
    }

    /// Sets the board overlays from the selection and the hovered hex: every hex and node a
    /// legal choice names (the selected piece's, or with none the actions naming no piece),
    /// its targets with their short labels, a facing picker for a short list that differs by
    /// facing, and under the pointer the path of a move or the traced line of attack.
    pub(super) fn update_overlays(&mut self) {
        // Demo boards keep their own overlays.
        if self.open.is_none() {
            return;
        }
        let shown = if self.selected_piece.is_some() {
            &self.choices
        } else {
            &self.free
        };
        let scene = &mut self.scene;
        scene.highlight = shown.by_hex.keys().copied().collect();
        scene.lit_nodes = shown.by_node.keys().cloned().collect();
        scene.path.clear();
        scene.lines.clear();
        scene.targets.clear();
        scene.selected.clear();
        scene.notes.clear();
        scene.node_notes = shown
            .by_node
            .iter()
            .filter_map(|(n, idx)| Some((n.clone(), short_label(shown, idx)?)))
            .collect();
        scene.arrows.clear();
        scene.selected_node = None;
        let Some(s) = &self.open else { return };
        let state = s.game.state();
        let short_list = self
            .selected
            .and_then(|h| Some((h, facing_picks(s.decls(), &self.pending, h)?)));
        if let Some((h, picks)) = short_list {
            scene.arrows = picks.into_iter().map(|(d, _)| (h, d)).collect();
        } else if let Some(at) = self
            .selected_piece
            .and_then(|p| session::piece_hex(state, p))
            && self.pending.is_empty()
        {
            scene.arrows = self.choices.by_direction.keys().map(|&d| (at, d)).collect();
        }
        let Some(sel) = self.selected_piece else {
            return;
        };
        let hexes_of = |id: PieceId| -> Vec<Hex> {
            state
                .pieces
                .get(&id)
                .map(|p| {
                    let offs = scene.footprints.get(&p.kind).map_or(&[][..], Vec::as_slice);
                    p.hexes(offs)
                })
                .unwrap_or_default()
        };
        scene.selected = hexes_of(sel).into_iter().collect();
        scene.selected_node = state.pieces.get(&sel).and_then(|p| match &p.pos {
            Position::Node { location, .. } => Some(location.clone()),
            _ => None,
        });
        let from = session::piece_hex(state, sel);
        let mut target_at: BTreeMap<Hex, PieceId> = BTreeMap::new();
        for t in self.choices.by_target.keys() {
            for h in hexes_of(*t) {
                target_at.insert(h, *t);
            }
        }
        scene.targets = target_at.keys().copied().collect();
        // Each target's and hex's short label (a hit chance), from its first labelled action.
        let short = |idx: &[usize]| short_label(&self.choices, idx);
        for (t, idx) in &self.choices.by_target {
            if let Some(note) = short(idx) {
                for h in hexes_of(*t) {
                    scene.notes.insert(h, note.clone());
                }
            }
        }
        for (h, idx) in &self.choices.by_hex {
            if let Some(note) = short(idx) {
                scene.notes.entry(*h).or_insert(note);
            }
        }
        let Some(h) = self.hovered else { return };
        scene.why_not = self.hover_why.clone().filter(|(at, _)| *at == h);
        if let Some(t) = target_at.get(&h) {
            if let (Some(a), Some(b)) = (from, session::piece_hex(state, *t)) {
                scene.lines.push((a, b));
            }
        } else if let Some(idx) = self.choices.by_hex.get(&h) {
            let path = idx
                .iter()
                .filter_map(|&i| self.choices.actions.get(i))
                .find_map(|a| session::action_path(s.decls(), a));
            scene.path = match (path, from) {
                (Some(p), _) => p,
                (None, Some(a)) => straight_path(a, h),
                (None, None) => Vec::new(),
            };
        }
    }
}

/// The short label (a hit chance, "safe 58%") of the first of `idx` that has one.
fn short_label(c: &PieceChoices, idx: &[usize]) -> Option<String> {
    idx.iter()
        .filter_map(|&i| c.labels.get(i)?.as_ref())
        .map(|l| l.short.clone())
        .find(|s| !s.is_empty())
}

fn sorted(mut idx: Vec<usize>) -> Vec<usize> {
    idx.sort_unstable();
    idx.dedup();
    idx
}

/// The hexes from `a` to `b` along the exact line trace (a tie takes its left hex): the path
/// drawn for a move without a path param.
#[must_use]
pub fn straight_path(a: Hex, b: Hex) -> Vec<Hex> {
    use hexforge_core::hex::trace::TraceStep;
    let mut out: Vec<Hex> = Vec::new();
    for step in trace(a, b).steps() {
        let h = match *step {
            TraceStep::Cross(h) => h,
            TraceStep::Tie { left, .. } => left,
            TraceStep::Vertex { .. } => continue,
        };
        if out.last() != Some(&h) {
            out.push(h);
        }
    }
    if out.first() != Some(&a) {
        out.insert(0, a);
    }
    if out.last() != Some(&b) {
        out.push(b);
    }
    out
}
