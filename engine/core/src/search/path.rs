//! A* cheapest path between two hexes.

use super::Limits;
use crate::hex::{Direction, Hex};
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

/// A path found by [`cheapest_path`]: the hexes from start to goal (both included) and its cost.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Path {
    /// Every hex of the path, start first, goal last; consecutive hexes are adjacent.
    pub hexes: Vec<Hex>,
    /// The sum of the step costs.
    pub cost: u32,
}

/// The cheapest path from `start` to `goal`, or `None` if there is none within `limits`.
///
/// - `cost(from, to)` is the cost of one step between adjacent hexes, `None` if the step is
///   impossible (an impassable or off-map `to`, a blocked hexside, ...).
/// - `min_step_cost` is a promise that no step costs less; the search uses
///   `distance * min_step_cost` as its heuristic. Pass 0 if steps can be free (the search is
///   then plain Dijkstra); a promise that is broken can make the path found not the cheapest.
/// - `limits`: the search gives up (returns `None`) after expanding `max_expanded` hexes, and
///   never considers a path dearer than `max_cost`, so a walled-off goal returns quickly.
///
/// Ties are broken deterministically: among equally promising hexes, the one nearer the goal is
/// expanded first, then the one found first; neighbours are tried in [`Direction`] order. The
/// same call always returns the same path.
#[must_use]
pub fn cheapest_path(
    start: Hex,
    goal: Hex,
    min_step_cost: u32,
    mut cost: impl FnMut(Hex, Hex) -> Option<u32>,
    limits: Limits,
) -> Option<Path> {
    if start == goal {
        return Some(Path {
            hexes: vec![start],
            cost: 0,
        });
    }
    let max_cost = u64::from(limits.max_cost);
    let heuristic = |h: Hex| distance64(h, goal) * u64::from(min_step_cost);
    if heuristic(start) > max_cost {
        return None;
    }
    // Node records live in a Vec; the map only finds a hex's record (it is never iterated, so
    // its order cannot leak into the result).
    let mut nodes: Vec<Node> = vec![Node {
        hex: start,
        g: 0,
        parent: u32::MAX,
    }];
    let mut index: HashMap<Hex, u32, BuildHasherDefault<HexHasher>> = HashMap::default();
    index.insert(start, 0);
    let mut open = BinaryHeap::new();
    open.push(Reverse(Entry {
        f: heuristic(start),
        h: heuristic(start),
        seq: 0,
        g: 0,
    }));
    let mut expanded = 0usize;

    while let Some(Reverse(entry)) = open.pop() {
        let node = nodes[entry.seq as usize];
        if u64::from(node.g) < entry.g {
            continue; // A cheaper way here was found after this entry was queued.
        }
        if node.hex == goal {
            return Some(Path {
                hexes: rebuild(&nodes, entry.seq),
                cost: node.g,
            });
        }
        if expanded >= limits.max_expanded {
            return None;
        }
        expanded += 1;
        for d in Direction::ALL {
            let Some(next) = checked_neighbor(node.hex, d) else {
                continue;
            };
            let Some(step) = cost(node.hex, next) else {
                continue;
            };
            let g = u64::from(node.g) + u64::from(step);
            let h = heuristic(next);
            if g + h > max_cost {
                continue;
            }
            // g <= max_cost <= u32::MAX here.
            let g32 = g as u32;
            let seq = match index.get(&next) {
                Some(&i) if nodes[i as usize].g <= g32 => continue,
                Some(&i) => {
                    nodes[i as usize].g = g32;
                    nodes[i as usize].parent = entry.seq;
                    i
                }
                None => {
                    let Ok(i) = u32::try_from(nodes.len()) else {
                        return None;
                    };
                    nodes.push(Node {
                        hex: next,
                        g: g32,
                        parent: entry.seq,
                    });
                    index.insert(next, i);
                    i
                }
            };
            open.push(Reverse(Entry {
                f: g + h,
                h,
                seq,
                g,
            }));
        }
    }
    None
}

#[derive(Clone, Copy)]
struct Node {
    hex: Hex,
    g: u32,
    parent: u32,
}

/// An open-list entry, ordered by `f`, then `h` (nearer the goal first), then `seq` (found
/// first); `g` only detects stale entries.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    f: u64,
    h: u64,
    seq: u32,
    g: u64,
}

fn rebuild(nodes: &[Node], mut i: u32) -> Vec<Hex> {
    let mut out = Vec::new();
    while i != u32::MAX {
        out.push(nodes[i as usize].hex);
        i = nodes[i as usize].parent;
    }
    out.reverse();
    out
}

fn checked_neighbor(h: Hex, d: Direction) -> Option<Hex> {
    let (dq, dr) = d.vector();
    Some(Hex::new(h.q.checked_add(dq)?, h.r.checked_add(dr)?))
}

fn distance64(a: Hex, b: Hex) -> u64 {
    let (dq, dr) = (
        i64::from(a.q) - i64::from(b.q),
        i64::from(a.r) - i64::from(b.r),
    );
    ((dq.abs() + dr.abs() + (dq + dr).abs()) / 2) as u64
}

/// A small fast hasher for hex keys (the standard SipHash costs more than the whole step).
/// Lookups only: nothing iterates a map hashed with it, so its quality cannot affect results.
#[derive(Default)]
struct HexHasher(u64);

impl Hasher for HexHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_i32(&mut self, i: i32) {
        self.0 = self.0.rotate_left(32) ^ u64::from(i as u32);
    }

    fn finish(&self) -> u64 {
        // The splitmix64 finaliser: spreads the packed (q, r) over all bits.
        let mut x = self.0;
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    }
}
