//! Cheapest-first reachability over caller-defined states.

use super::Limits;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

/// Every state reached by [`reachable`], with its cheapest cost and a way back to the start.
#[derive(Clone, Debug)]
pub struct Reach<S> {
    records: Vec<Record<S>>,
    index: BTreeMap<S, usize>,
    truncated: bool,
}

#[derive(Clone, Debug)]
struct Record<S> {
    state: S,
    cost: u32,
    parent: Option<usize>,
}

/// Every state reachable from `start`, cheapest first (Dijkstra over states).
///
/// `successors(state, out)` pushes each state one step on, with the step's cost, onto `out`
/// (which arrives empty). States must be finite in number within `limits`, or the node budget
/// ends the search: then [`Reach::is_truncated`] says so and cheaper states may be missing.
/// States dearer than `limits.max_cost` are not recorded.
///
/// Deterministic: states are expanded by cost, then in the order they were first found; of two
/// equally cheap ways into a state the first found is kept.
///
/// ```
/// use hexforge_core::hex::{Direction, Hex};
/// use hexforge_core::search::{reachable, Limits};
///
/// // Hexes reachable in at most 2 steps on an open plane.
/// let reach = reachable(
///     Hex::ORIGIN,
///     |h, out| out.extend(h.neighbors().map(|n| (n, 1))),
///     Limits::default().with_max_cost(2),
/// );
/// assert_eq!(reach.len(), 19);
/// let far = Hex::new(2, -1);
/// assert_eq!(reach.cost(&far), Some(2));
/// assert_eq!(reach.path_to(&far).len(), 3);
/// ```
#[must_use]
pub fn reachable<S: Ord + Clone>(
    start: S,
    mut successors: impl FnMut(&S, &mut Vec<(S, u32)>),
    limits: Limits,
) -> Reach<S> {
    let mut records = vec![Record {
        state: start.clone(),
        cost: 0,
        parent: None,
    }];
    let mut index = BTreeMap::new();
    index.insert(start, 0);
    let mut open = BinaryHeap::new();
    open.push(Reverse((0u32, 0usize)));
    let mut buf = Vec::new();
    let mut expanded = 0usize;
    let mut truncated = false;

    while let Some(Reverse((cost, i))) = open.pop() {
        if records[i].cost < cost {
            continue; // Stale: a cheaper way in was found after this entry was queued.
        }
        if expanded >= limits.max_expanded {
            truncated = true;
            break;
        }
        expanded += 1;
        buf.clear();
        successors(&records[i].state, &mut buf);
        for (next, step) in buf.drain(..) {
            let Some(c) = cost.checked_add(step).filter(|&c| c <= limits.max_cost) else {
                continue;
            };
            match index.get(&next) {
                Some(&j) if records[j].cost <= c => {}
                Some(&j) => {
                    records[j].cost = c;
                    records[j].parent = Some(i);
                    open.push(Reverse((c, j)));
                }
                None => {
                    let j = records.len();
                    index.insert(next.clone(), j);
                    records.push(Record {
                        state: next,
                        cost: c,
                        parent: Some(i),
                    });
                    open.push(Reverse((c, j)));
                }
            }
        }
    }
    Reach {
        records,
        index,
        truncated,
    }
}

impl<S: Ord + Clone> Reach<S> {
    /// The state the search started from.
    #[must_use]
    pub fn start(&self) -> &S {
        &self.records[0].state
    }

    /// How many states were reached (the start included).
    #[must_use]
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Never true: the start is always reached. (Present for API symmetry with `len`.)
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Whether the node budget ran out, so some states may be missing or not at their cheapest.
    #[must_use]
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }

    /// Whether `state` was reached.
    #[must_use]
    pub fn contains(&self, state: &S) -> bool {
        self.index.contains_key(state)
    }

    /// The cheapest cost found to reach `state`, or `None` if it was not reached.
    #[must_use]
    pub fn cost(&self, state: &S) -> Option<u32> {
        self.index.get(state).map(|&i| self.records[i].cost)
    }

    /// The states from the start to `state`, both included; empty if `state` was not reached.
    #[must_use]
    pub fn path_to(&self, state: &S) -> Vec<S> {
        let mut out = Vec::new();
        let mut cur = self.index.get(state).copied();
        while let Some(i) = cur {
            out.push(self.records[i].state.clone());
            cur = self.records[i].parent;
        }
        out.reverse();
        out
    }

    /// Every reached state with its cost, in the states' order.
    pub fn iter(&self) -> impl Iterator<Item = (&S, u32)> {
        self.index.iter().map(|(s, &i)| (s, self.records[i].cost))
    }

    /// Groups the reached states by `key` and keeps the cheapest state of each group (of equal
    /// cost, the smallest state). States for which `key` returns `None` (moves not finished,
    /// say) are left out. Rebuild each kept state's path with [`Reach::path_to`].
    ///
    /// For movement previews the key is usually the end position, e.g. `(hex, facing)`.
    #[must_use]
    pub fn best_by_key<K: Ord>(&self, mut key: impl FnMut(&S) -> Option<K>) -> BTreeMap<K, S> {
        let mut best: BTreeMap<K, (u32, &S)> = BTreeMap::new();
        for (s, cost) in self.iter() {
            let Some(k) = key(s) else { continue };
            match best.get(&k) {
                // States come in increasing order, so keeping the first of equal cost keeps the
                // smallest.
                Some(&(c, _)) if c <= cost => {}
                _ => {
                    best.insert(k, (cost, s));
                }
            }
        }
        best.into_iter().map(|(k, (_, s))| (k, s.clone())).collect()
    }
}
