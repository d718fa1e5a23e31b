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
//!   move, the facing becomes `pull(hex, facing, hexes left)` before the ship's own turn, or
//!   the pull ends the move there as a crash ([`Pull::Crash`]: flying head-on at a planet).
//!
//! The search goes **one hex per step** (breadth first), keeping one state per (hex, facing):
//! a state with fewer turns can do all that one with more turns can. Its order is fixed and
//! matches the Lua search the orbital-skirmish mod used before (`movement.reach`), so a mod
//! switching to it offers the same choices in the same order: ends sorted by (q, r, facing);
//! exits and crashes in the order found (step by step; within a step, by the order the states
//! were first reached; for each state its straight move, then left, then right), one per
//! (hex, facing), the first found. The states live in dense cells relative to the start hex
//! (a move of speed `s` stays within `|dq|, |dr| <= s`), and each hex's kind is asked once,
//! a step's new hexes at a time ([`move_listing_batch`]).
//!
//! It deliberately knows nothing of boards or planets (the `kind` closure says what a hex is),
//! of speed changes or orbits, and of Lua.
//!
//! ```
//! use hexforge_core::hex::{Direction, Hex};
//! use hexforge_core::search::{move_listing, FacingRules, HexKind, Limits, ListingRules, Pull};
//!
//! // Speed 2, MR 1, facing N on an open map where the hex (0,-2) is off the board.
//! let rules = ListingRules::new(FacingRules::new(2, 1));
//! let kind = |h: Hex| if h == Hex::new(0, -2) { HexKind::OffBoard } else { HexKind::Open };
//! // No pull (a gravity variant would turn or crash the ship here).
//! let no_pull = |_: Hex, _: Direction, _: u32| None::<Pull>;
//! let l = move_listing(Hex::ORIGIN, &[Direction::N], &rules, kind, no_pull, Limits::default());
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
use std::collections::HashMap;

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
    /// The step before ([`NO_PARENT`] for a start).
    parent: u32,
}

/// The parent of a start node.
const NO_PARENT: u32 = u32::MAX;

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
        let mut out = Vec::new();
        self.write_plan(m, &mut out);
        // The letters are ASCII.
        String::from_utf8(out).unwrap_or_default()
    }

    /// Appends the plan of `m` (see [`MoveListing::plan`]) to `out` as ASCII bytes, without
    /// allocating when `out` has room.
    pub fn write_plan(&self, m: &ListedMove, out: &mut Vec<u8>) {
        let from = out.len();
        // Walked from the end: each step's letters reversed, then the whole plan reversed.
        self.walk(m.node, |n| out.extend(n.letters.text().bytes().rev()));
        out[from..].reverse();
    }

    /// The hexes of `m`, start hex first, then each hex entered (for an exit or crash, the hex
    /// moved into last).
    #[must_use]
    pub fn path(&self, m: &ListedMove) -> Vec<Hex> {
        let mut out = Vec::new();
        self.write_path(m, &mut out);
        out
    }

    /// Appends the hexes of `m` (see [`MoveListing::path`]) to `out`.
    pub fn write_path(&self, m: &ListedMove, out: &mut Vec<Hex>) {
        let from = out.len();
        self.walk(m.node, |n| out.push(n.hex));
        out[from..].reverse();
    }

    fn walk(&self, mut i: usize, mut f: impl FnMut(&Node)) {
        while let Some(n) = self.nodes.get(i) {
            f(n);
            if n.parent == NO_PARENT {
                break;
            }
            i = n.parent as usize;
        }
    }
}

/// A search state: position, facing, turns used, its node and start facing.
#[derive(Clone, Copy, Debug)]
struct State {
    hex: Hex,
    facing: Direction,
    start_facing: Direction,
    turns: u32,
    node: u32,
}

/// The largest speed searched over a dense grid of cells; beyond it cells are numbered as they
/// are first entered (through a map). Why 64: the grid is `(2 * speed + 1)^2` cells of 52
/// bytes, 880 KB at 64, allocated per listing.
const DENSE_MAX_SPEED: u32 = 64;

/// What the search knows of one hex: its kind once asked, the exits and crashes listed into it
/// (one bit per facing) and, per facing, where the next frontier holds the state in it.
#[derive(Clone, Copy, Debug, Default)]
struct Cell {
    kind: Option<HexKind>,
    exits: u8,
    crashes: u8,
    /// The step whose next frontier holds a state in this hex with this facing (0: none).
    stamp: [u32; 6],
    /// That state's index in the next frontier.
    slot: [u32; 6],
}

/// The cells of one search. Why not a map of (hex, facing): a move of speed `s` stays within
/// `|dq|, |dr| <= s` of its start hex (one hex per step), so for the speeds ships have a cell's
/// index is arithmetic and a step's bookkeeping needs no clearing (`Cell::stamp`).
struct Cells {
    origin: Hex,
    reach: i64,
    side: i64,
    /// Beyond [`DENSE_MAX_SPEED`]: cell numbers by hex (only looked up, never iterated).
    sparse: Option<HashMap<Hex, u32>>,
    cells: Vec<Cell>,
}

impl Cells {
    fn new(origin: Hex, speed: u32) -> Self {
        let reach = i64::from(speed);
        let side = 2 * reach + 1;
        if speed <= DENSE_MAX_SPEED {
            Cells {
                origin,
                reach,
                side,
                sparse: None,
                cells: vec![Cell::default(); (side * side) as usize],
            }
        } else {
            Cells {
                origin,
                reach,
                side,
                sparse: Some(HashMap::new()),
                cells: Vec::new(),
            }
        }
    }

    /// The cell of `h`, a hex at most `speed` steps from the origin.
    fn id(&mut self, h: Hex) -> usize {
        match &mut self.sparse {
            None => {
                let dq = i64::from(h.q) - i64::from(self.origin.q) + self.reach;
                let dr = i64::from(h.r) - i64::from(self.origin.r) + self.reach;
                debug_assert!((0..self.side).contains(&dq) && (0..self.side).contains(&dr));
                (dq * self.side + dr) as usize
            }
            Some(ids) => {
                let cells = &mut self.cells;
                *ids.entry(h).or_insert_with(|| {
                    cells.push(Cell::default());
                    (cells.len() - 1) as u32
                }) as usize
            }
        }
    }
}

/// What entering a hex with hexes still to move does to a ship, when anything (the `pull` of
/// [`move_listing`]). A pull that only ever turns may answer `Option<Direction>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pull {
    /// The ship now faces this way, before its own turn in the hex.
    Face(Direction),
    /// The ship crashes in this hex: the move ends there, listed with the exits as
    /// [`MoveEnd::Crashed`] (whatever [`ListingRules::crash`] says of blocked hexes).
    Crash,
}

impl From<Direction> for Pull {
    fn from(d: Direction) -> Self {
        Pull::Face(d)
    }
}

/// Every legal move from `start` with any of `facings` (see the module documentation).
///
/// `kind(hex)` says what a hex is; it is asked at most once per hex (see
/// [`move_listing_batch`] for the order). `pull(hex, facing, left)` is asked after entering
/// `hex` with `left > 0` hexes still to move and returns the new facing or a crash ([`Pull`]),
/// or `None` to keep the facing. At most `limits.max_expanded` steps are stored; beyond that
/// the listing is marked truncated.
#[must_use]
pub fn move_listing<P: Into<Pull>>(
    start: Hex,
    facings: &[Direction],
    rules: &ListingRules,
    mut kind: impl FnMut(Hex) -> HexKind,
    pull: impl FnMut(Hex, Direction, u32) -> Option<P>,
    limits: Limits,
) -> MoveListing {
    move_listing_batch(
        start,
        facings,
        rules,
        |hexes, out| out.extend(hexes.iter().map(|&h| kind(h))),
        pull,
        limits,
    )
}

/// [`move_listing`] asking what hexes are in batches: before each step, `kinds(hexes, out)`
/// gets the hexes that step enters whose kind is not yet known (each once, in the order the
/// step first enters them) and pushes one [`HexKind`] per hex onto `out` (missing ones count
/// as [`HexKind::Open`], extra ones are ignored). For a caller whose question is dear to ask
/// (a call into a script), one call per step instead of one per hex.
///
/// The hexes asked are exactly those a search asking one hex at a time would ask, in the same
/// order, except in a step cut short by `limits.max_expanded`, whose hexes are all asked.
#[must_use]
pub fn move_listing_batch<P: Into<Pull>>(
    start: Hex,
    facings: &[Direction],
    rules: &ListingRules,
    mut kinds: impl FnMut(&[Hex], &mut Vec<HexKind>),
    mut pull: impl FnMut(Hex, Direction, u32) -> Option<P>,
    limits: Limits,
) -> MoveListing {
    let mut out = MoveListing::default();
    let speed = rules.moves.speed;
    let mr = rules.moves.max_turns;
    // Why a cap: nodes link to their parents by u32 index.
    let max_nodes = limits.max_expanded.min(NO_PARENT as usize);
    let mut frontier: Vec<State> = Vec::with_capacity(facings.len());
    for &f in facings {
        frontier.push(State {
            hex: start,
            facing: f,
            start_facing: f,
            turns: 0,
            node: out.nodes.len() as u32,
        });
        out.nodes.push(Node {
            hex: start,
            letters: Letters::None,
            parent: NO_PARENT,
        });
    }
    if speed == 0 {
        out.ends = frontier
            .iter()
            .map(|s| finished(s, MoveEnd::Stays))
            .collect();
        return out;
    }
    let mut cells = Cells::new(start, speed);
    let mut next: Vec<State> = Vec::new();
    // Per frontier state: the hex it moves into and its cell (None: off the integer plane).
    let mut ahead: Vec<Option<(Hex, usize)>> = Vec::new();
    let (mut asked, mut asked_cells, mut answers) = (Vec::new(), Vec::new(), Vec::new());
    'steps: for step in 1..=speed {
        next.clear();
        ahead.clear();
        asked.clear();
        asked_cells.clear();
        for s in &frontier {
            let (dq, dr) = s.facing.vector();
            let (Some(q), Some(r)) = (s.hex.q.checked_add(dq), s.hex.r.checked_add(dr)) else {
                ahead.push(None);
                continue;
            };
            let to = Hex::new(q, r);
            let c = cells.id(to);
            ahead.push(Some((to, c)));
            let cell = &mut cells.cells[c];
            if cell.kind.is_none() {
                // Marked as asked; the answer replaces it below.
                cell.kind = Some(HexKind::Open);
                asked.push(to);
                asked_cells.push(c);
            }
        }
        if !asked.is_empty() {
            answers.clear();
            kinds(&asked, &mut answers);
            for (i, &c) in asked_cells.iter().enumerate() {
                cells.cells[c].kind = Some(answers.get(i).copied().unwrap_or(HexKind::Open));
            }
        }
        for (s, a) in frontier.iter().zip(&ahead) {
            let Some((to, c)) = *a else { continue };
            let mut f = s.facing;
            let end = match cells.cells[c].kind {
                Some(HexKind::OffBoard) => Some((MoveEnd::Exited, true)),
                Some(HexKind::Blocked) if rules.crash => Some((MoveEnd::Crashed, true)),
                Some(HexKind::Blocked) => Some((MoveEnd::Crashed, false)),
                Some(HexKind::Open) | None if step < speed => {
                    match pull(to, f, speed - step).map(Into::into) {
                        Some(Pull::Crash) => Some((MoveEnd::Crashed, true)),
                        Some(Pull::Face(p)) => {
                            f = p;
                            None
                        }
                        None => None,
                    }
                }
                Some(HexKind::Open) | None => None,
            };
            if let Some((how, listed_with_exits)) = end {
                let cell = &mut cells.cells[c];
                let (seen, list) = if listed_with_exits {
                    (&mut cell.exits, &mut out.exits)
                } else {
                    (&mut cell.crashes, &mut out.crashes)
                };
                let bit = 1u8 << s.facing.index();
                if *seen & bit == 0 {
                    *seen |= bit;
                    list.push(ListedMove {
                        to,
                        facing: s.facing,
                        turns: s.turns,
                        start_facing: s.start_facing,
                        end: how,
                        node: out.nodes.len(),
                    });
                    out.nodes.push(Node {
                        hex: to,
                        letters: Letters::F,
                        parent: s.node,
                    });
                }
                continue;
            }
            let may_turn = s.turns < mr && (step < speed || rules.moves.turn_in_final_hex);
            let options = [
                (f, s.turns, Letters::F),
                (f.left(), s.turns + 1, Letters::FL),
                (f.right(), s.turns + 1, Letters::FR),
            ];
            for &(facing, turns, letters) in &options[..if may_turn { 3 } else { 1 }] {
                if out.nodes.len() >= max_nodes {
                    out.truncated = true;
                    break 'steps;
                }
                let state = State {
                    hex: to,
                    facing,
                    start_facing: s.start_facing,
                    turns,
                    node: out.nodes.len() as u32,
                };
                let cell = &mut cells.cells[c];
                let fi = usize::from(facing.index());
                if cell.stamp[fi] != step {
                    cell.stamp[fi] = step;
                    cell.slot[fi] = next.len() as u32;
                    next.push(state);
                } else {
                    let slot = &mut next[cell.slot[fi] as usize];
                    if turns >= slot.turns {
                        continue;
                    }
                    *slot = state;
                }
                out.nodes.push(Node {
                    hex: to,
                    letters,
                    parent: s.node,
                });
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
    // (q, r, facing) is unique per end, so the order is total (and stability moot).
    ends.sort_unstable_by_key(|m| (m.to.q, m.to.r, m.facing.index()));
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
        node: s.node as usize,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{end_positions, facing_moves};
    use proptest::prelude::*;
    use proptest::test_runner::TestCaseError;
    use std::collections::{BTreeSet, HashSet};

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
    fn a_pull_may_crash_the_ship_in_the_hex_it_entered_whatever_it_would_turn_after() {
        // A planet at (0,-3): flying N into (0,-2) with hexes left is head-on, and crashes there;
        // nothing is asked in the last hex, so a ship that stops at (0,-2) is safe.
        let planet = Hex::new(0, -3);
        let pull = |h: Hex, f: Direction, _: u32| (h.neighbor(f) == planet).then_some(Pull::Crash);
        let rules = ListingRules::new(FacingRules::new(3, 1)).with_crash(true);
        let kind = |h: Hex| {
            if h == planet {
                HexKind::Blocked
            } else {
                HexKind::Open
            }
        };
        let l = move_listing(
            Hex::ORIGIN,
            &[Direction::N],
            &rules,
            kind,
            pull,
            Limits::default(),
        );
        let crash: Vec<_> = l
            .exits
            .iter()
            .filter(|m| m.to == Hex::new(0, -2))
            .map(|m| (l.plan(m), m.end, m.facing))
            .collect();
        // Entered head-on: a crash, and its own turn in that hex (FFL, FFR) cannot save it.
        assert_eq!(crash, [("FF".to_owned(), MoveEnd::Crashed, Direction::N)]);
        assert!(
            !l.ends
                .iter()
                .any(|m| m.to == Hex::new(0, -2) && m.turns == 1 && l.plan(m).starts_with("FF"))
        );
        // No move ends in the planet itself.
        assert!(l.ends.iter().all(|m| m.to != planet));
        // Speed 2: (0,-2) is the last hex, never asked about: the ship stops there.
        let l = move_listing(
            Hex::ORIGIN,
            &[Direction::N],
            &ListingRules::new(FacingRules::new(2, 1)).with_crash(true),
            kind,
            pull,
            Limits::default(),
        );
        assert!(l.exits.is_empty());
        assert!(
            l.ends
                .iter()
                .any(|m| m.to == Hex::new(0, -2) && l.plan(m) == "FF")
        );
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

    /// The listing as it was before the dense search (kept verbatim but for its own node
    /// type), the reference the current search must match move for move.
    mod reference {
        use super::super::*;
        use std::collections::{HashMap, HashSet};

        #[derive(Clone, Copy, Debug)]
        pub struct RefNode {
            pub hex: Hex,
            pub letters: Letters,
            pub parent: Option<usize>,
        }

        #[derive(Clone, Debug, Default)]
        pub struct RefListing {
            pub ends: Vec<ListedMove>,
            pub exits: Vec<ListedMove>,
            pub crashes: Vec<ListedMove>,
            pub truncated: bool,
            pub nodes: Vec<RefNode>,
        }

        impl RefListing {
            pub fn plan(&self, m: &ListedMove) -> String {
                let mut parts = Vec::new();
                self.walk(m.node, |n| parts.push(n.letters.text()));
                parts.iter().rev().copied().collect()
            }

            pub fn path(&self, m: &ListedMove) -> Vec<Hex> {
                let mut out = Vec::new();
                self.walk(m.node, |n| out.push(n.hex));
                out.reverse();
                out
            }

            fn walk<'a>(&'a self, mut i: usize, mut f: impl FnMut(&'a RefNode)) {
                while let Some(n) = self.nodes.get(i) {
                    f(n);
                    match n.parent {
                        Some(p) => i = p,
                        None => break,
                    }
                }
            }
        }

        #[derive(Clone, Copy, Debug)]
        struct State {
            hex: Hex,
            facing: Direction,
            turns: u32,
            node: usize,
            start_facing: Direction,
        }

        pub fn move_listing(
            start: Hex,
            facings: &[Direction],
            rules: &ListingRules,
            mut kind: impl FnMut(Hex) -> HexKind,
            mut pull: impl FnMut(Hex, Direction, u32) -> Option<Direction>,
            limits: Limits,
        ) -> RefListing {
            let mut out = RefListing::default();
            let speed = rules.moves.speed;
            let mr = rules.moves.max_turns;
            let mut frontier: Vec<State> = Vec::with_capacity(facings.len());
            for &f in facings {
                out.nodes.push(RefNode {
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
            let mut index: HashMap<(Hex, Direction), usize> = HashMap::new();
            let mut next: Vec<State> = Vec::new();
            'steps: for step in 1..=speed {
                index.clear();
                next.clear();
                for s in &frontier {
                    let (dq, dr) = s.facing.vector();
                    let (Some(q), Some(r)) = (s.hex.q.checked_add(dq), s.hex.r.checked_add(dr))
                    else {
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
                            out.nodes.push(RefNode {
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
                        let node = RefNode {
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
    }

    /// Everything a listed move shows: where, facing, turns, start facing, end, plan, path.
    type Shown = (Hex, Direction, u32, Direction, MoveEnd, String, Vec<Hex>);

    fn shown(l: &MoveListing) -> [Vec<Shown>; 3] {
        let f = |v: &[ListedMove]| {
            v.iter()
                .map(|m| {
                    let (mut plan, mut path) = (Vec::new(), Vec::new());
                    l.write_plan(m, &mut plan);
                    l.write_path(m, &mut path);
                    assert_eq!(String::from_utf8(plan).unwrap(), l.plan(m));
                    assert_eq!(path, l.path(m));
                    let x = (m.to, m.facing, m.turns, m.start_facing, m.end);
                    (x.0, x.1, x.2, x.3, x.4, l.plan(m), l.path(m))
                })
                .collect()
        };
        [f(&l.ends), f(&l.exits), f(&l.crashes)]
    }

    fn shown_ref(l: &reference::RefListing) -> [Vec<Shown>; 3] {
        let f = |v: &[ListedMove]| {
            v.iter()
                .map(|m| {
                    let x = (m.to, m.facing, m.turns, m.start_facing, m.end);
                    (x.0, x.1, x.2, x.3, x.4, l.plan(m), l.path(m))
                })
                .collect()
        };
        [f(&l.ends), f(&l.exits), f(&l.crashes)]
    }

    /// A pull from a seed: per (hex, facing, hexes left) none, left, right or a fixed facing.
    fn seeded_pull(seed: u64) -> impl Fn(Hex, Direction, u32) -> Option<Direction> {
        move |h: Hex, f: Direction, left: u32| {
            let mut x = seed
                ^ (h.q as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
                ^ (h.r as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
                ^ u64::from(f.index()) << 40
                ^ u64::from(left) << 48;
            x ^= x >> 29;
            x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
            x ^= x >> 32;
            match x % 7 {
                0 => Some(f.left()),
                1 => Some(f.right()),
                2 => Some(Direction::from_index((x >> 8) as i32 % 6)),
                _ => None,
            }
        }
    }

    /// Runs both searches on the same case and compares every list, the truncation flag and
    /// the hexes asked (in order: the batches against a per-hex cache over the reference).
    #[allow(clippy::too_many_arguments)]
    fn compare(
        start: Hex,
        facings: &[Direction],
        rules: &ListingRules,
        kind: &dyn Fn(Hex) -> HexKind,
        pull: Option<&dyn Fn(Hex, Direction, u32) -> Option<Direction>>,
        limits: Limits,
    ) -> Result<(), TestCaseError> {
        let pull = |h, f, l| pull.and_then(|p| p(h, f, l));
        let mut asked_ref: Vec<Hex> = Vec::new();
        let mut known: HashSet<Hex> = HashSet::new();
        let want = reference::move_listing(
            start,
            facings,
            rules,
            |h| {
                if known.insert(h) {
                    asked_ref.push(h);
                }
                kind(h)
            },
            pull,
            limits,
        );
        let mut asked: Vec<Hex> = Vec::new();
        let got = move_listing_batch(
            start,
            facings,
            rules,
            |hexes, out| {
                asked.extend_from_slice(hexes);
                out.extend(hexes.iter().map(|&h| kind(h)));
            },
            pull,
            limits,
        );
        prop_assert_eq!(got.truncated, want.truncated);
        prop_assert_eq!(shown(&got), shown_ref(&want));
        if !want.truncated {
            prop_assert_eq!(asked, asked_ref);
        }
        let plain = move_listing(start, facings, rules, kind, pull, limits);
        prop_assert_eq!(shown(&plain), shown(&got));
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        /// The dense search lists exactly what the reference lists, in the same order, with the
        /// same plans and paths: random speeds, MR, start facings, blocked and off-board hexes,
        /// crash rule, final-hex turns, pulls and node limits.
        #[test]
        fn matches_the_reference_search(
            speed in 0u32..=12,
            mr in 0u32..=5,
            facings in proptest::collection::vec(0i32..6, 1..4),
            start in (-3i32..4, -3i32..4),
            blocked in proptest::collection::btree_set((-12i32..13, -12i32..13), 0..60),
            off in proptest::collection::btree_set((-12i32..13, -12i32..13), 0..40),
            radius in 3i32..16,
            crash: bool,
            final_turn: bool,
            pull_seed in proptest::option::of(any::<u64>()),
            max_expanded in prop_oneof![Just(Limits::DEFAULT_MAX_EXPANDED), 1usize..3000],
        ) {
            let start = Hex::new(start.0, start.1);
            let facings: Vec<Direction> = facings.into_iter().map(Direction::from_index).collect();
            let kind = |h: Hex| {
                if h.length() > radius || off.contains(&(h.q, h.r)) {
                    HexKind::OffBoard
                } else if blocked.contains(&(h.q, h.r)) {
                    HexKind::Blocked
                } else {
                    HexKind::Open
                }
            };
            let rules = ListingRules::new(FacingRules {
                speed,
                max_turns: mr,
                turn_in_final_hex: final_turn,
            })
            .with_crash(crash);
            let pull = pull_seed.map(seeded_pull);
            compare(
                start,
                &facings,
                &rules,
                &kind,
                pull.as_ref().map(|p| p as &dyn Fn(Hex, Direction, u32) -> Option<Direction>),
                Limits::default().with_max_expanded(max_expanded),
            )?;
        }

        /// Speeds beyond the dense grid (cells numbered through a map) and starts at the edge
        /// of the integer plane match the reference too.
        #[test]
        fn matches_the_reference_when_fast_or_at_the_edge(
            speed in 60u32..=70,
            mr in 0u32..=2,
            f in 0i32..6,
            edge: bool,
            blocked in proptest::collection::btree_set((-8i32..9, -8i32..9), 0..30),
        ) {
            let start = if edge { Hex::new(i32::MAX - 3, i32::MIN + 2) } else { Hex::ORIGIN };
            let kind = |h: Hex| {
                let (dq, dr) = (h.q.wrapping_sub(start.q), h.r.wrapping_sub(start.r));
                if blocked.contains(&(dq, dr)) { HexKind::Blocked } else { HexKind::Open }
            };
            let rules = ListingRules::new(FacingRules::new(speed, mr));
            compare(
                start,
                &[Direction::from_index(f)],
                &rules,
                &kind,
                None,
                Limits::default().with_max_expanded(50_000),
            )?;
        }
    }
}
