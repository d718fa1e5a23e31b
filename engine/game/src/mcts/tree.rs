//! The search tree: one node per sequence of actions from the decision's state (an "open
//! loop" tree: the dice differ between simulations, so a node stands for the actions taken,
//! not for one state), UCB1 selection over the children that are legal in the simulation at
//! hand (counted by availability, as in ISMCTS), progressive widening, and new children drawn
//! by group (action id and piece) so that one ship's hundred moves do not drown the three
//! shots another could fire.
//!
//! At the root, a prior ([`super::prior`]) orders the widening (the untried choice with the
//! best prior first, ties by group) and biases UCB1 while a child has few visits. With a guide
//! (the rules' own bot), its pick is every node's first child, with a prior of 1, and the
//! root's choice stays the guide's unless another beats it clearly ([`Tree::best`]).
//!
//! This module does not know who plays: every node stores the side that took its action, and a
//! simulation's score is a value per side.

use super::sim::{Sims, Stream, next_mover, random_move};
use crate::{Action, GameState, Rules, RulesError, SideId};
use std::borrow::Cow;

/// One action in the tree.
#[derive(Clone, Debug)]
struct Node {
    /// The action leading here (`None` at the root).
    action: Option<Action>,
    /// The index in the state's sides of the side that took `action`.
    mover: Option<usize>,
    /// Simulations through this node.
    visits: u32,
    /// Simulations in which this node's action was legal when its parent chose.
    avail: u32,
    /// The sum of the mover's values over those simulations.
    total: f64,
    /// The sum of their squares (for the spread of the mean, see [`Tree::best`]).
    total_sq: f64,
    /// Children, in the order they were added.
    children: Vec<usize>,
    /// The prior of a root child (0..=1, see [`super::prior`]); below the root, 1 for the
    /// guide's choice ([`super::MctsOptions::guide`]), 0 for the others.
    prior: f64,
    /// With paired simulations, a root child's values in the order of its samples: its `k`-th
    /// value came from the dice every other root child's `k`-th did (see [`Tree::paired`]).
    samples: Vec<f64>,
}

impl Node {
    fn new(action: Option<Action>, mover: Option<usize>) -> Self {
        Node {
            action,
            mover,
            visits: 0,
            avail: 0,
            total: 0.0,
            total_sq: 0.0,
            children: Vec::new(),
            prior: 0.0,
            samples: Vec::new(),
        }
    }

    fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.total / f64::from(self.visits)
        }
    }

    /// The variance of [`Node::mean`] as an estimate (the sample variance over the visits),
    /// with the widest a value in 0..=1 can have (1/4) until there are two visits.
    fn mean_variance(&self) -> f64 {
        if self.visits < 2 {
            return 0.25;
        }
        let n = f64::from(self.visits);
        let spread = (self.total_sq - self.total * self.total / n) / (n - 1.0);
        spread.max(0.0) / n
    }
}

/// The tree of one decision.
#[derive(Clone, Debug)]
pub(crate) struct Tree {
    nodes: Vec<Node>,
    exploration: f64,
    widen: f64,
    /// The weight of the progressive bias.
    bias: f64,
    /// The prior of each of the root's choices, in the order of its legal actions (empty: no
    /// prior).
    root_prior: Vec<f64>,
    /// Paired simulations ([`super::MctsOptions::paired`]): the decision's seed, from which the
    /// `k`-th simulation through any root child takes its dice and its playout's random moves.
    /// Two choices are then compared on the same luck, sample by sample ([`Tree::best`]).
    paired: Option<u64>,
}

impl Tree {
    pub(crate) fn new(exploration: f64, widen: f64, bias: f64) -> Self {
        Tree {
            nodes: vec![Node::new(None, None)],
            exploration,
            widen,
            bias,
            root_prior: Vec::new(),
            paired: None,
        }
    }

    /// The subtree at the end of `path` (the actions the game went on with from this tree's
    /// root), as a tree of its own whose root is that node: what a finished decision's
    /// simulations already learned about the next one (subtree reuse). `None` when an action of
    /// the path was never simulated (or the path is empty).
    pub(crate) fn follow<'a>(&self, path: impl IntoIterator<Item = &'a Action>) -> Option<Tree> {
        let mut at = 0;
        let mut steps = 0;
        for action in path {
            at = *self.nodes[at]
                .children
                .iter()
                .find(|&&c| self.nodes[c].action.as_ref() == Some(action))?;
            steps += 1;
        }
        if steps == 0 || self.nodes[at].visits == 0 {
            return None;
        }
        // Copied depth first, a node's new index assigned before its children's.
        let mut nodes = Vec::new();
        let mut stack = vec![(at, None::<usize>)];
        while let Some((old, parent)) = stack.pop() {
            let id = nodes.len();
            let mut node = self.nodes[old].clone();
            let children = std::mem::take(&mut node.children);
            // Samples pair up only within one decision's seed.
            node.samples.clear();
            nodes.push(node);
            if let Some(p) = parent {
                let siblings: &mut Vec<usize> = &mut nodes[p].children;
                siblings.push(id);
            }
            // Reversed so that children keep their order (the order they were added in).
            stack.extend(children.into_iter().rev().map(|c| (c, Some(id))));
        }
        let root = &mut nodes[0];
        root.action = None;
        root.mover = None;
        root.prior = 0.0;
        Some(Tree {
            nodes,
            exploration: self.exploration,
            widen: self.widen,
            bias: self.bias,
            root_prior: Vec::new(),
            paired: None,
        })
    }

    /// Whether `action` is one of the root's children.
    pub(crate) fn has_root_child(&self, action: &Action) -> bool {
        self.nodes[0]
            .children
            .iter()
            .any(|&c| self.nodes[c].action.as_ref() == Some(action))
    }

    /// How many nodes hold a move of the side at `mover` (its index in the state's sides).
    #[cfg(test)]
    pub(crate) fn moves_of(&self, mover: usize) -> usize {
        self.nodes.iter().filter(|n| n.mover == Some(mover)).count()
    }

    /// How many nodes the tree holds.
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Sets the prior of the root's choices (one per legal action at the root, in order).
    pub(crate) fn set_root_prior(&mut self, prior: Vec<f64>) {
        self.root_prior = prior;
    }

    /// Pairs the simulations of the root's choices on the dice of `seed` (see [`Tree::paired`]).
    pub(crate) fn set_paired(&mut self, seed: u64) {
        self.paired = Some(seed);
    }

    /// How many children a node visited `visits` times may have: progressive widening.
    fn allowed(&self, visits: u32) -> usize {
        // Floats are fine here: a bot's preference, never part of the rules or a result.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let more = (self.widen * f64::from(visits).sqrt()) as usize;
        1 + more
    }

    /// One simulation: from a copy of `root` with fresh dice, down the tree (UCB1 among the
    /// children legal here; a new child when widening allows and some legal action has none),
    /// then a random playout to the horizon, and the values back up the path.
    ///
    /// # Errors
    /// A fault in the rules.
    pub(crate) fn iterate<R: Rules + ?Sized>(
        &mut self,
        sims: &mut Sims<'_, R>,
        root: &GameState,
        root_side: &SideId,
        root_legal: &[Action],
    ) -> Result<(), RulesError> {
        let mut state = sims.fresh_copy(root);
        // Paired simulations play below the root on the sample's own stream; the bot's own
        // stream goes on from where the root's choice left it.
        let mut saved_stream = None;
        let mut path = vec![0];
        let mut node = 0;
        let mut steps = 0;
        while state.outcome.is_none() && !sims.horizon.reached(&state, steps) {
            let (side, legal): (SideId, Cow<'_, [Action]>) = if node == 0 {
                (root_side.clone(), Cow::Borrowed(root_legal))
            } else {
                match next_mover(sims.rules, &state)? {
                    Some((side, legal)) => (side, Cow::Owned(legal)),
                    None => break,
                }
            };
            if node != 0 && sims.own.is_some_and(|me| *me != side) {
                // Another side's move, outside the tree: as a playout's.
                if !sims.playout_move(&mut state)? {
                    break;
                }
                steps += 1;
                continue;
            }
            if node != 0 && sims.plays_at_random(&side) {
                // The opponent model says this move of another side is not the guide's: a
                // random one, as the playout would, and the tree ends here.
                if let Some(action) = random_move(sims.rules, &state, sims.stream, sims.end_bias)? {
                    sims.step(&mut state, &action)?;
                    steps += 1;
                }
                break;
            }
            let (child, expanded) = self.descend(node, &side, &legal, &state, sims)?;
            let Some(action) = self.nodes[child].action.clone() else {
                break;
            };
            if node == 0
                && let Some(seed) = self.paired
            {
                let k = self.nodes[child].samples.len() as u64;
                let mut luck = Stream::new(seed ^ k.wrapping_mul(PAIR_STRIDE));
                if sims.reseed {
                    sims.luck = Some((luck.next_u64(), None));
                }
                saved_stream = Some(std::mem::replace(sims.stream, luck));
            }
            // A refused action leaves the simulation as it was, as in a real game.
            sims.step(&mut state, &action)?;
            steps += 1;
            path.push(child);
            node = child;
            if expanded {
                break;
            }
        }
        let values = sims.playout(&mut state, steps);
        if let Some(s) = saved_stream {
            *sims.stream = s;
            sims.luck = None;
        }
        let values = values?;
        if self.paired.is_some()
            && let Some(&c) = path.get(1)
        {
            let nd = &mut self.nodes[c];
            let v = nd.mover.and_then(|m| values.get(m)).copied().unwrap_or(0.5);
            nd.samples.push(v);
        }
        for &n in &path {
            let nd = &mut self.nodes[n];
            nd.visits += 1;
            if let Some(m) = nd.mover {
                let v = values.get(m).copied().unwrap_or(0.5);
                nd.total += v;
                nd.total_sq += v * v;
            }
        }
        sims.stats.iterations += 1;
        Ok(())
    }

    /// The child of `node` to follow given what is legal now: a new one (`true`) when widening
    /// allows and a legal action has none, otherwise the best by UCB1 among the legal ones.
    /// Below the root, with a guide, the guide's choice is the first new child, with a prior of
    /// 1 (the root has its own prior, set by the search).
    ///
    /// # Errors
    /// A fault in the guide.
    fn descend<R: Rules + ?Sized>(
        &mut self,
        node: usize,
        side: &SideId,
        legal: &[Action],
        state: &GameState,
        sims: &mut Sims<'_, R>,
    ) -> Result<(usize, bool), RulesError> {
        let mut tried = vec![false; legal.len()];
        let mut live = Vec::new();
        for &c in &self.nodes[node].children {
            let found = self.nodes[c]
                .action
                .as_ref()
                .and_then(|a| legal.iter().position(|l| l == a));
            if let Some(i) = found {
                tried[i] = true;
                live.push(c);
            }
        }
        for &c in &live {
            self.nodes[c].avail += 1;
        }
        let untried: Vec<usize> = (0..legal.len()).filter(|&i| !tried[i]).collect();
        if !untried.is_empty() && live.len() < self.allowed(self.nodes[node].visits) {
            let prior = if node == 0 && self.root_prior.len() == legal.len() {
                self.root_prior.as_slice()
            } else {
                &[]
            };
            let guided = if node == 0 {
                None
            } else {
                sims.guide_pick(state, side, legal)?.filter(|&g| !tried[g])
            };
            let i = match guided {
                Some(g) => g,
                None => pick_grouped(legal, &best_prior(&untried, prior), sims.stream),
            };
            let mover = state.sides.iter().position(|s| &s.id == side);
            let id = self.nodes.len();
            let mut child = Node::new(Some(legal[i].clone()), mover);
            child.avail = 1;
            child.prior = if guided.is_some() {
                1.0
            } else {
                prior.get(i).copied().unwrap_or(0.0)
            };
            self.nodes.push(child);
            self.nodes[node].children.push(id);
            return Ok((id, true));
        }
        Ok((self.ucb(&live), false))
    }

    /// The child with the highest UCB1 score plus progressive bias (the first on a tie); `live`
    /// is not empty.
    fn ucb(&self, live: &[usize]) -> usize {
        let mut best = live[0];
        let mut best_score = f64::NEG_INFINITY;
        for &c in live {
            let n = &self.nodes[c];
            let visits = f64::from(n.visits.max(1));
            let avail = f64::from(n.avail.max(1));
            let score = n.mean()
                + self.exploration * (avail.ln() / visits).sqrt()
                + self.bias * n.prior / (1.0 + f64::from(n.visits));
            if score > best_score {
                best = c;
                best_score = score;
            }
        }
        best
    }

    /// The root's most visited action (the higher mean, then the earlier child, on a tie).
    ///
    /// With `advice` (the guide's choice, see [`super::MctsOptions::guide`]), another action
    /// is taken instead of the advice only when its mean beats the advice's by more than
    /// `trust` standard errors of the difference: simulations of dice games are noisy, and a
    /// hundred of them spread over a dozen choices crown a lucky one about as often as a
    /// better one.
    pub(crate) fn best(&self, advice: Option<&Action>, trust: f64) -> Option<&Action> {
        let mut best: Option<&Node> = None;
        for &c in &self.nodes[0].children {
            let n = &self.nodes[c];
            let better = best.is_none_or(|b| {
                n.visits > b.visits || (n.visits == b.visits && n.mean() > b.mean())
            });
            if better {
                best = Some(n);
            }
        }
        let advised = advice.and_then(|a| {
            self.nodes[0]
                .children
                .iter()
                .map(|&c| &self.nodes[c])
                .find(|n| n.action.as_ref() == Some(a))
        });
        if let (Some(b), Some(g)) = (best, advised) {
            if let Some((gap, spread)) = paired_gap(b, g) {
                if gap <= trust * spread {
                    return g.action.as_ref();
                }
                return b.action.as_ref();
            }
            let margin = trust * (b.mean_variance() + g.mean_variance()).sqrt();
            if b.mean() - g.mean() <= margin {
                return g.action.as_ref();
            }
        }
        best.and_then(|n| n.action.as_ref())
    }

    /// Each root child's action and paired samples (tests).
    #[cfg(test)]
    pub(crate) fn root_samples(&self) -> Vec<(String, Vec<f64>)> {
        self.nodes[0]
            .children
            .iter()
            .filter_map(|&c| {
                let n = &self.nodes[c];
                n.action.as_ref().map(|a| (a.id.clone(), n.samples.clone()))
            })
            .collect()
    }

    /// Each root child's action, visits and mean value for its side (tests, diagnostics).
    pub(crate) fn root_children(&self) -> Vec<(Action, u32, f64)> {
        self.nodes[0]
            .children
            .iter()
            .filter_map(|&c| {
                let n = &self.nodes[c];
                n.action.clone().map(|a| (a, n.visits, n.mean()))
            })
            .collect()
    }
}

/// Mixed into a paired simulation's seed per sample index (an odd constant: every index its
/// own seed).
const PAIR_STRIDE: u64 = 0xD6E8_FEB8_6659_FD93;

/// How much `b` beats `g` over the samples they share (paired simulations: the `k`-th of each
/// rolled the same dice) and the standard error of that mean difference; `None` without two
/// shared samples.
fn paired_gap(b: &Node, g: &Node) -> Option<(f64, f64)> {
    let n = b.samples.len().min(g.samples.len());
    if n < 2 {
        return None;
    }
    let diffs: Vec<f64> = (0..n).map(|k| b.samples[k] - g.samples[k]).collect();
    #[allow(clippy::cast_precision_loss)]
    let count = n as f64;
    let mean = diffs.iter().sum::<f64>() / count;
    let var = diffs.iter().map(|d| (d - mean) * (d - mean)).sum::<f64>() / (count - 1.0);
    Some((mean, (var / count).sqrt()))
}

/// What an action is grouped by when the tree draws a new child: its id and the piece it names
/// (a `piece` param), so every piece's moves are one group and every shot of another is
/// another.
fn group_of(a: &Action) -> (&str, Option<&serde_json::Value>) {
    (a.id.as_str(), a.params.get("piece"))
}

/// Those of `untried` (indices into a choice list) whose prior is the best, or all of them
/// without a prior.
fn best_prior(untried: &[usize], prior: &[f64]) -> Vec<usize> {
    if prior.is_empty() {
        return untried.to_vec();
    }
    let best = untried
        .iter()
        .map(|&i| prior[i])
        .fold(f64::NEG_INFINITY, f64::max);
    untried
        .iter()
        .copied()
        .filter(|&i| prior[i] >= best)
        .collect()
}

/// One of `untried` (indices into `legal`): a group drawn uniformly, then one of its actions.
fn pick_grouped(legal: &[Action], untried: &[usize], stream: &mut Stream) -> usize {
    let mut groups: Vec<(_, Vec<usize>)> = Vec::new();
    for &i in untried {
        let key = group_of(&legal[i]);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(i),
            None => groups.push((key, vec![i])),
        }
    }
    let members = &groups[stream.below(groups.len())].1;
    members[stream.below(members.len())]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_new_child_is_drawn_by_group_so_a_lone_shot_is_not_drowned_by_moves() {
        let blue = SideId::new("blue");
        let mut legal: Vec<Action> = (0..99)
            .map(|i| Action::new("move", blue.clone(), json!({ "piece": 1, "to": i })))
            .collect();
        legal.push(Action::new("fire", blue.clone(), json!({ "piece": 2 })));
        let untried: Vec<usize> = (0..legal.len()).collect();
        let mut stream = Stream::new(3);
        let fires = (0..1000)
            .filter(|_| legal[pick_grouped(&legal, &untried, &mut stream)].id == "fire")
            .count();
        // Two groups: about half the draws fire (uniformly over actions it would be 1 in 100).
        assert!((400..=600).contains(&fires), "{fires} of 1000");
    }

    #[test]
    fn widening_lets_children_in_as_the_square_root_of_the_visits() {
        let t = Tree::new(0.7, 2.0, 0.0);
        assert_eq!(t.allowed(0), 1);
        assert_eq!(t.allowed(1), 3);
        assert_eq!(t.allowed(4), 5);
        assert_eq!(t.allowed(100), 21);
        assert_eq!(Tree::new(0.7, 0.0, 0.0).allowed(10_000), 1);
    }
}
