//! Listing every legal move of a facing-and-turns ship, with plans, exits and crashes.
//!
//! [`move_listing`] is the whole move list a mod offers as choices: one end per end position
//! and facing (the fewest turns, then the first found), every way of leaving the map, and every
//! way of running into a blocked hex (a planet). Each listed move carries a **plan**, the letters
//! a player would write: `F` moves one hex forward, `L`/`R` then turn one hexside in the hex
//! just entered (so a step is written `F`, `FL` or `FR`). [`MoveListing::plan`] and
//! [`MoveListing::path`] rebuild a move's plan and hexes only when asked.
//!
//! Beyond [`super::facing_moves`] it covers:
//! - several allowed start facings (a ship leaving orbit may rotate before it moves);
//! - off-board hexes: moving into one ends the move there as an **exit** (the ship is lost);
//! - blocked hexes: with [`ListingRules::crash`] moving into one ends the move as a **crash**
//!   (listed with the exits); without it the move is illegal but remembered in
//!   [`MoveListing::crashes`] (a ship with no other move is forced into one);
//! - a per-step facing change (`pull`, e.g. gravity): after entering a hex with hexes still to
//!   move, the facing becomes `pull(hex, facing, hexes left)` before the ship's own turn.
//!
//! The search goes **one hex per step** (breadth first), keeping one state per (hex, facing):
//! a state with fewer turns can do all that one with more turns can. Its order is fixed and
//! matches the Lua search the orbital-skirmish mod used before (`movement.reach`), so a mod
//! switching to it offers the same choices in the same order: ends sorted by (q, r, facing);
//! exits and crashes in the order found (step by step; within a step, by the order the states
//! were first reached; for each state its straight move, then left, then right), one per
//! (hex, facing), the first found.
//!
//! It deliberately knows nothing of boards or planets (the `kind` closure says what a hex is),
//! of speed changes or orbits, and of Lua.
//!
//! ```
//! use hexforge_core::hex::{Direction, Hex};
//! use hexforge_core::search::{move_listing, FacingRules, HexKind, Limits, ListingRules};
//!
//! // Speed 2, MR 1, facing N on an open map where the hex (0,-2) is off the board.
//! let rules = ListingRules::new(FacingRules::new(2, 1));
//! let kind = |h: Hex| if h == Hex::new(0, -2) { HexKind::OffBoard } else { HexKind::Open };
//! let l = move_listing(Hex::ORIGIN, &[Direction::N], &rules, kind, |_, _, _| None, Limits::default());
//! // Straight on leaves the map; a turn after the first hex gives the two ends (the one turn
//! // of MR 1 is then used).
//! assert_eq!(l.exits.len(), 1);
//! assert_eq!(l.plan(&l.exits[0]), "FF");
//! assert_eq!(l.ends.len(), 2);
//! assert_eq!(l.plan(&l.ends[0]), "FLF");
//! assert_eq!(l.path(&l.ends[0]), vec![Hex::ORIGIN, Hex::new(0, -1), Hex::new(-1, -1)]);
//! ```

use super::{FacingRules, Limits};
use crate::hex::{Direction, Hex};
use std::collections::{HashMap, HashSet};

/// What a hex is to a moving ship.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HexKind {
    /// The ship may enter it and go on.
    Open,
    /// Off the map: entering it ends the move there (an exit).
    OffBoard,
    /// Blocked (a planet): entering it is illegal, or a crash with [`ListingRules::crash`].
    Blocked,
}

/// How a listed move ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveEnd {
    /// On the map after moving exactly the speed.
    Stays,
    /// Off the map (the ship is lost there).
    Exited,
    /// In a blocked hex (the ship is destroyed).
    Crashed,
}

/// The rules of a move listing: the movement allowance and what blocked hexes do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ListingRules {
    /// Speed, MR and whether a turn is allowed in the final hex.
    pub moves: FacingRules,
    /// Whether moving into a blocked hex is a crash that ends the move (listed with the exits)
    /// instead of illegal (remembered in [`MoveListing::crashes`]).
    pub crash: bool,
}

impl ListingRules {
    /// These movement rules, blocked hexes illegal.
    #[must_use]
    pub const fn new(moves: FacingRules) -> Self {
        ListingRules {
            moves,
            crash: false,
        }
    }

    /// These rules with blocked hexes crashed into (or not).
    #[must_use]
    pub const fn with_crash(self, crash: bool) -> Self {
        ListingRules { crash, ..self }
    }
}

/// One listed move; its plan and path come from [`MoveListing::plan`] and
/// [`MoveListing::path`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ListedMove {
    /// Where the move ends (for an exit or crash: the hex moved into).
    pub to: Hex,
    /// The facing at the end.
    pub facing: Direction,
    /// Hexside turns made.
    pub turns: u32,
    /// The facing the ship starts the move with.
    pub start_facing: Direction,
    /// How the move ends.
    pub end: MoveEnd,
    /// The last step of the move in [`MoveListing`]'s step store.
    node: usize,
}

/// What was written at one step: the root (nothing), `F`, `FL` or `FR`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Letters {
    None,
    F,
    FL,
    FR,
}

impl Letters {
    const fn text(self) -> &'static str {
        match self {
            Letters::None => "",
            Letters::F => "F",
            Letters::FL => "FL",
            Letters::FR => "FR",
        }
    }
}

/// One step of the search tree: the hex entered, the letters written, the step before.
#[derive(Clone, Copy, Debug)]
struct Node {
    hex: Hex,
    letters: Letters,
    parent: Option<usize>,
}

/// Every legal move of one ship (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct MoveListing {
    /// One move per end position and facing, the fewest turns (then the first found), sorted by
    /// q, r, facing (speed 0: one per start facing, in the order given).
    pub ends: Vec<ListedMove>,
    /// Moves that leave the map, and (with [`ListingRules::crash`]) crash into a blocked hex;
    /// one per (hex, facing), the first found, in the order found.
    pub exits: Vec<ListedMove>,
    /// Without [`ListingRules::crash`]: moves into a blocked hex, which are illegal unless no
    /// other move exists; one per (hex, facing), the first found, in the order found.
    pub crashes: Vec<ListedMove>,
    /// Whether the search stopped at [`Limits::max_expanded`] steps (the lists are then partial).
    pub truncated: bool,
    nodes: Vec<Node>,
}

impl MoveListing {
    /// The plan of `m`: `F` per hex moved, `L`/`R` per turn after the hex it is made in.
    #[must_use]
    pub fn plan(&self, m: &ListedMove) -> String {
        let mut parts = Vec::new();
        self.walk(m.node, |n| parts.push(n.letters.text()));
        parts.iter().rev().copied().collect()
    }

    /// The hexes of `m`, start hex first, then each hex entered (for an exit or crash, the hex
    /// moved into last).
    #[must_use]
    pub fn path(&self, m: &ListedMove) -> Vec<Hex> {
        let mut out = Vec::new();
        self.walk(m.node, |n| out.push(n.hex));
        out.reverse();
        out
    }

    fn walk<'a>(&'a self, mut i: usize, mut f: impl FnMut(&'a Node)) {
        while let Some(n) = self.nodes.get(i) {
            f(n);
            match n.parent {
                Some(p) => i = p,
                None => break,
            }
        }
    }
}

/// A search state: position, facing, turns used, its node and start facing.
#[derive(Clone, Copy, Debug)]
struct State {
    hex: Hex,
    facing: Direction,
    turns: u32,
    node: usize,
    start_facing: Direction,
}

/// Every legal move from `start` with any of `facings` (see the module documentation).
///
/// `kind(hex)` says what a hex is (asked once per hex per step and state; cache in the closure
/// if it is dear). `pull(hex, facing, left)` is asked after entering `hex` with `left > 0`
/// hexes still to move and returns the new facing, or `None` to keep it. At most
/// `limits.max_expanded` steps are stored; beyond that the listing is marked truncated.
#[must_use]
pub fn move_listing(
    start: Hex,
    facings: &[Direction],
    rules: &ListingRules,
    mut kind: impl FnMut(Hex) -> HexKind,
    mut pull: impl FnMut(Hex, Direction, u32) -> Option<Direction>,
    limits: Limits,
) -> MoveListing {
    let mut out = MoveListing::default();
    let speed = rules.moves.speed;
    let mr = rules.moves.max_turns;
    let mut frontier: Vec<State> = Vec::with_capacity(facings.len());
    for &f in facings {
        out.nodes.push(Node {
            hex: start,
            letters: Letters::None,
            parent: None,
        });
        frontier.push(State {
            hex: start,
            facing: f,
            turns: 0,
            node: out.nodes.len() - 1,
            start_facing: f,
        });
    }
    if speed == 0 {
        out.ends = frontier
            .iter()
            .map(|s| finished(s, MoveEnd::Stays))
            .collect();
        return out;
    }
    let mut exit_seen: HashSet<(Hex, Direction)> = HashSet::new();
    let mut crash_seen: HashSet<(Hex, Direction)> = HashSet::new();
    // Why a map only for look-up: the order of the next frontier is the order states were
    // first reached (a Vec); the map finds a state's slot, it is never iterated.
    let mut index: HashMap<(Hex, Direction), usize> = HashMap::new();
    let mut next: Vec<State> = Vec::new();
    'steps: for step in 1..=speed {
        index.clear();
        next.clear();
        for s in &frontier {
            let (dq, dr) = s.facing.vector();
            let (Some(q), Some(r)) = (s.hex.q.checked_add(dq), s.hex.r.checked_add(dr)) else {
                continue;
            };
            let to = Hex::new(q, r);
            let k = kind(to);
            let end = match k {
                HexKind::OffBoard => Some((MoveEnd::Exited, true)),
                HexKind::Blocked if rules.crash => Some((MoveEnd::Crashed, true)),
                HexKind::Blocked => Some((MoveEnd::Crashed, false)),
                HexKind::Open => None,
            };
            if let Some((how, listed_with_exits)) = end {
                let (seen, list) = if listed_with_exits {
                    (&mut exit_seen, &mut out.exits)
                } else {
                    (&mut crash_seen, &mut out.crashes)
                };
                if seen.insert((to, s.facing)) {
                    out.nodes.push(Node {
                        hex: to,
                        letters: Letters::F,
                        parent: Some(s.node),
                    });
                    list.push(ListedMove {
                        to,
                        facing: s.facing,
                        turns: s.turns,
                        start_facing: s.start_facing,
                        end: how,
                        node: out.nodes.len() - 1,
                    });
                }
                continue;
            }
            let mut f = s.facing;
            if step < speed
                && let Some(p) = pull(to, f, speed - step)
            {
                f = p;
            }
            let may_turn = s.turns < mr && (step < speed || rules.moves.turn_in_final_hex);
            let options: &[(Direction, u32, Letters)] = &[
                (f, s.turns, Letters::F),
                (f.left(), s.turns + 1, Letters::FL),
                (f.right(), s.turns + 1, Letters::FR),
            ];
            for &(facing, turns, letters) in &options[..if may_turn { 3 } else { 1 }] {
                if out.nodes.len() >= limits.max_expanded {
                    out.truncated = true;
                    break 'steps;
                }
                let node = Node {
                    hex: to,
                    letters,
                    parent: Some(s.node),
                };
                let state = State {
                    hex: to,
                    facing,
                    turns,
                    node: out.nodes.len(),
                    start_facing: s.start_facing,
                };
                match index.get(&(to, facing)) {
                    None => {
                        index.insert((to, facing), next.len());
                        next.push(state);
                        out.nodes.push(node);
                    }
                    Some(&i) if turns < next[i].turns => {
                        next[i] = state;
                        out.nodes.push(node);
                    }
                    Some(_) => {}
                }
            }
        }
        std::mem::swap(&mut frontier, &mut next);
    }
    if out.truncated {
        frontier.clear();
    }
    let mut ends: Vec<ListedMove> = frontier
        .iter()
        .map(|s| finished(s, MoveEnd::Stays))
        .collect();
    // (q, r, facing) is unique per end, so the order is total.
    ends.sort_by_key(|m| (m.to.q, m.to.r, m.facing.index()));
    out.ends = ends;
    out
}

fn finished(s: &State, end: MoveEnd) -> ListedMove {
    ListedMove {
        to: s.hex,
        facing: s.facing,
        turns: s.turns,
        start_facing: s.start_facing,
        end,
        node: s.node,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{end_positions, facing_moves};
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    fn no_pull(_: Hex, _: Direction, _: u32) -> Option<Direction> {
        None
    }

    /// Follows `plan` the way a player's plan is carried out (the rules, independently of the
    /// search): `F` moves, a pull may turn the ship after it enters a hex with hexes left, `L`
    /// and `R` turn. Returns the end hex, facing, turns and path.
    fn follow(
        start: Hex,
        facing: Direction,
        speed: u32,
        plan: &str,
        pull: impl Fn(Hex, Direction, u32) -> Option<Direction>,
    ) -> (Hex, Direction, u32, Vec<Hex>) {
        let (mut h, mut f, mut turns, mut moved) = (start, facing, 0, 0);
        let mut path = vec![start];
        for c in plan.chars() {
            match c {
                'F' => {
                    h = h.neighbor(f);
                    moved += 1;
                    path.push(h);
                    if moved < speed
                        && let Some(p) = pull(h, f, speed - moved)
                    {
                        f = p;
                    }
                }
                'L' => (f, turns) = (f.left(), turns + 1),
                'R' => (f, turns) = (f.right(), turns + 1),
                _ => panic!("letter {c}"),
            }
        }
        (h, f, turns, path)
    }

    #[test]
    fn document_000_worked_example_and_every_plan_reaches_its_end() {
        let rules = ListingRules::new(FacingRules::new(7, 3));
        let l = move_listing(
            Hex::ORIGIN,
            &[Direction::N],
            &rules,
            |_| HexKind::Open,
            no_pull,
            Limits::default(),
        );
        let e = l
            .ends
            .iter()
            .find(|m| m.to == Hex::new(-3, -1) && m.facing == Direction::S)
            .expect("the worked example's end");
        assert_eq!(e.turns, 3);
        for m in &l.ends {
            let plan = l.plan(m);
            let (h, f, t, path) = follow(Hex::ORIGIN, m.start_facing, 7, &plan, no_pull);
            assert_eq!((h, f, t), (m.to, m.facing, m.turns), "{plan}");
            assert_eq!(path, l.path(m), "{plan}");
            assert_eq!(plan.matches('F').count(), 7);
        }
        assert!(l.exits.is_empty() && l.crashes.is_empty() && !l.truncated);
        let keys: Vec<_> = l.ends.iter().map(|m| (m.to.q, m.to.r, m.facing)).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(keys, sorted);
    }

    #[test]
    fn exits_and_crashes_in_the_order_found_and_crash_rule() {
        // Facing N from the origin, speed 2, MR 1; (0,-1) open, (0,-2) off the board, (1,-2)
        // a planet, everything else open.
        let kind = |h: Hex| match (h.q, h.r) {
            (0, -2) => HexKind::OffBoard,
            (1, -2) => HexKind::Blocked,
            _ => HexKind::Open,
        };
        let rules = ListingRules::new(FacingRules::new(2, 1));
        let l = move_listing(
            Hex::ORIGIN,
            &[Direction::N],
            &rules,
            kind,
            no_pull,
            Limits::default(),
        );
        let plans = |v: &[ListedMove]| v.iter().map(|m| l.plan(m)).collect::<Vec<_>>();
        assert_eq!(plans(&l.ends), ["FLF"]);
        assert_eq!(plans(&l.exits), ["FF"]);
        assert_eq!(l.exits[0].end, MoveEnd::Exited);
        assert_eq!(plans(&l.crashes), ["FRF"]);
        assert_eq!(l.crashes[0].end, MoveEnd::Crashed);
        assert_eq!(
            l.path(&l.crashes[0]),
            [Hex::ORIGIN, Hex::new(0, -1), Hex::new(1, -2)]
        );
        let l = move_listing(
            Hex::ORIGIN,
            &[Direction::N],
            &rules.with_crash(true),
            kind,
            no_pull,
            Limits::default(),
        );
        assert_eq!(plans(&l.exits), ["FF", "FRF"]);
        assert_eq!(
            l.exits.iter().map(|m| m.end).collect::<Vec<_>>(),
            [MoveEnd::Exited, MoveEnd::Crashed]
        );
        assert!(l.crashes.is_empty());
    }

    #[test]
    fn several_start_facings_and_speed_zero() {
        let rules = ListingRules::new(FacingRules::new(0, 2));
        let fs = [Direction::S, Direction::N];
        let l = move_listing(
            Hex::new(2, 3),
            &fs,
            &rules,
            |_| HexKind::Open,
            no_pull,
            Limits::default(),
        );
        // Speed 0: one end per start facing, in the order given, with an empty plan.
        assert_eq!(
            l.ends.iter().map(|m| m.facing).collect::<Vec<_>>(),
            [Direction::S, Direction::N]
        );
        assert_eq!(l.plan(&l.ends[1]), "");
        assert_eq!(l.path(&l.ends[1]), [Hex::new(2, 3)]);
        let rules = ListingRules::new(FacingRules::new(1, 0));
        let l = move_listing(
            Hex::ORIGIN,
            &Direction::ALL,
            &rules,
            |_| HexKind::Open,
            no_pull,
            Limits::default(),
        );
        assert_eq!(l.ends.len(), 6);
        for m in &l.ends {
            assert_eq!(m.start_facing, m.facing);
            assert_eq!(m.to, Hex::ORIGIN.neighbor(m.facing));
        }
        // Sorted by q, then r: NW (-1,0) first, then SW (-1,1).
        assert_eq!(l.ends[0].facing, Direction::NW);
        assert_eq!(l.ends[1].facing, Direction::SW);
    }

    #[test]
    fn a_pull_turns_the_ship_before_its_own_turn_and_not_in_the_last_hex() {
        // A pull to the right in every hex it is asked about (those with hexes left).
        let pull = |_: Hex, f: Direction, left: u32| {
            assert!(left > 0);
            Some(f.right())
        };
        let rules = ListingRules::new(FacingRules::new(3, 1));
        let l = move_listing(
            Hex::ORIGIN,
            &[Direction::N],
            &rules,
            |_| HexKind::Open,
            pull,
            Limits::default(),
        );
        let straight = l.ends.iter().find(|m| l.plan(m) == "FFF").unwrap();
        // N into (0,-1), pulled to NE; NE into (1,-2), pulled to SE; SE into (2,-2), no pull
        // with no hex left.
        assert_eq!(
            (straight.to, straight.facing),
            (Hex::new(2, -2), Direction::SE)
        );
        for m in &l.ends {
            let plan = l.plan(m);
            let (h, f, t, path) = follow(Hex::ORIGIN, Direction::N, 3, &plan, pull);
            assert_eq!((h, f, t), (m.to, m.facing, m.turns), "{plan}");
            assert_eq!(path, l.path(m));
        }
    }

    #[test]
    fn a_search_over_the_limit_is_truncated() {
        let rules = ListingRules::new(FacingRules::new(30, 30));
        let l = move_listing(
            Hex::ORIGIN,
            &[Direction::N],
            &rules,
            |_| HexKind::Open,
            no_pull,
            Limits::default().with_max_expanded(500),
        );
        assert!(l.truncated);
        assert!(l.ends.is_empty());
    }

    proptest! {
        /// Without exits, crashes and pulls the listing has exactly the end positions and
        /// fewest turns of the general search (`facing_moves` + `end_positions`), and every
        /// plan reaches its end.
        #[test]
        fn agrees_with_the_general_search(
            speed in 1u32..7,
            mr in 0u32..4,
            f in 0i32..6,
            blocked in proptest::collection::btree_set((-5i32..6, -5i32..6), 0..25),
        ) {
            let blocked: BTreeSet<Hex> = blocked.into_iter().map(|(q, r)| Hex::new(q, r)).collect();
            let facing = Direction::from_index(f);
            let fr = FacingRules::new(speed, mr);
            let l = move_listing(
                Hex::ORIGIN,
                &[facing],
                &ListingRules::new(fr),
                |h| if blocked.contains(&h) { HexKind::Blocked } else { HexKind::Open },
                no_pull,
                Limits::default(),
            );
            let reach = facing_moves(Hex::ORIGIN, facing, &fr, |h| !blocked.contains(&h), Limits::default());
            let want: Vec<_> = end_positions(&reach, &fr).into_iter().map(|((h, d), s)| (h, d, s.turns)).collect();
            let mut got: Vec<_> = l.ends.iter().map(|m| (m.to, m.facing, m.turns)).collect();
            got.sort();
            prop_assert_eq!(got, want);
            for m in l.ends.iter().chain(&l.crashes) {
                let plan = l.plan(m);
                let (h, d, t, path) = follow(Hex::ORIGIN, facing, speed, &plan, no_pull);
                prop_assert_eq!((h, d, t), (m.to, m.facing, m.turns));
                prop_assert_eq!(path, l.path(m));
            }
        }
    }
}
