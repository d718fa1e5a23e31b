//! Boards and movement search: worked examples from the rule documents, hand counts, and
//! property tests against brute-force oracles.

use hexforge_core::board::{Board, HexKind, OffsetCoord, SectorSet, Shape, sectors};
use hexforge_core::hex::{Direction, Hex, Turn};
use hexforge_core::search::{
    FacingMove, FacingRules, Limits, cheapest_path, end_positions, facing_moves, hexes_of,
    reachable,
};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

// ---------------------------------------------------------------------------------------------
// Boards
// ---------------------------------------------------------------------------------------------

fn kinds(board: &Board) -> BTreeMap<HexKind, usize> {
    let mut m = BTreeMap::new();
    for h in board.hexes() {
        *m.entry(board.kind(h).expect("listed hexes are on the board"))
            .or_insert(0) += 1;
    }
    m
}

#[test]
fn hexagon_board_counts_and_order() {
    let b = Board::hexagon(3).unwrap();
    let hexes = b.hexes();
    assert_eq!(hexes.len(), 37);
    assert_eq!(b.count(), 37);
    assert!(
        hexes
            .windows(2)
            .all(|w| (w[0].r, w[0].q) < (w[1].r, w[1].q)),
        "row by row"
    );
    assert!(hexes.iter().all(|h| h.length() <= 3));
    assert!(b.contains(Hex::new(3, -3)) && !b.contains(Hex::new(3, -4)));
    assert_eq!(Board::hexagon(0).unwrap().hexes(), vec![Hex::ORIGIN]);
    // Extreme coordinates do not overflow.
    assert!(!b.contains(Hex::new(i32::MIN, i32::MIN)));
    assert_eq!(b.sectors_of(Hex::ORIGIN), SectorSet::EMPTY);
    assert_eq!(b.row(Hex::ORIGIN), None);
}

#[test]
fn squadron_command_field_has_half_hexes_on_odd_rows() {
    // 13 wide, 9 deep: rows 0, 2, 4, 6, 8 hold 13 whole hexes; rows 1, 3, 5, 7 hold 12 whole
    // hexes and a half hex at each end.
    let b = Board::offset_rect(13, 9).unwrap();
    let k = kinds(&b);
    assert_eq!(k[&HexKind::Full], 5 * 13 + 4 * 12);
    assert_eq!(k[&HexKind::Half], 4 * 2);
    assert_eq!(b.count(), b.hexes().len());
    for row in 0..9 {
        let on: Vec<i32> = (-2..16).filter(|&c| b.hex_at(c, row).is_some()).collect();
        if row % 2 == 0 {
            assert_eq!(on, (0..13).collect::<Vec<_>>(), "row {row}");
        } else {
            assert_eq!(on, (0..=13).collect::<Vec<_>>(), "row {row}");
            assert_eq!(b.kind(b.hex_at(0, row).unwrap()), Some(HexKind::Half));
            assert_eq!(b.kind(b.hex_at(13, row).unwrap()), Some(HexKind::Half));
            assert_eq!(b.kind(b.hex_at(1, row).unwrap()), Some(HexKind::Full));
        }
    }
    let h = b.hex_at(5, 4).unwrap();
    assert_eq!((b.col(h), b.row(h)), (Some(5), Some(4)));
    assert_eq!(b.offset(h), Some(OffsetCoord { col: 5, row: 4 }));
    assert_eq!(b.hex_at(-1, 0), None);
    // The half hexes line up with the board's straight side edges: walking SW then SE from the
    // top-left whole hex of an even row zigzags along the edge.
    let top_left = b.hex_at(0, 0).unwrap();
    assert_eq!(
        b.kind(top_left.neighbor(Direction::SW)),
        Some(HexKind::Half)
    );
    assert_eq!(b.kind(top_left.neighbor(Direction::S)), Some(HexKind::Full));
    assert_eq!(
        b.kind(top_left.neighbor(Direction::SW).neighbor(Direction::S)),
        Some(HexKind::Full)
    );
    // leaves_map / first_not_enterable on a path sliding left along row 1.
    let path: Vec<Hex> = (0..4)
        .map(|i| OffsetCoord { col: 2 - i, row: 1 }.to_hex())
        .collect();
    assert_eq!(b.first_not_enterable(&path), Some(2)); // column 0 is the half hex
    assert_eq!(b.leaves_map(&path), Some(3));
    assert_eq!(b.leaves_map(&path[..3]), None);
}

#[test]
fn offset_board_without_half_hexes() {
    let b = Board::new(Shape::OffsetRect {
        width: 4,
        height: 3,
        half_hexes: false,
    })
    .unwrap();
    assert_eq!(b.count(), 4 + 3 + 4);
    assert_eq!(b.hexes().len(), 11);
    assert!(b.hexes().iter().all(|&h| b.kind(h) == Some(HexKind::Full)));
}

/// Hand count for tiles of radius n (derivation):
/// - Full: each tile's interior, the hexes at distance < n: 3n(n-1) + 1; times 7.
/// - Seam: the 12 shared tile edges (6 centre-outer, 6 outer-outer) each have n - 1 side hexes
///   shared by 2 tiles: 12(n - 1); plus the 6 corners of the centre tile, a third each of 3 tiles.
///   Total 12n - 6.
/// - Rim: each outer tile has 3 unshared edges with n - 1 side hexes (half covered): 18(n - 1);
///   the 6 outer ends of the outer-outer edges (two thirds covered); and 2 corners per outer
///   tile that belong to it alone (one third covered): 12. Total 18n.
///
/// | n | full | seam | rim | total |
/// |---|------|------|-----|-------|
/// | 2 | 49   | 18   | 36  | 103   |
/// | 3 | 133  | 30   | 54  | 217   |
/// | 4 | 259  | 42   | 72  | 373   |
#[test]
fn seven_sector_counts_by_hand() {
    for (n, full, seam, rim) in [(2, 49, 18, 36), (3, 133, 30, 54), (4, 259, 42, 72)] {
        let b = Board::sectors(n).unwrap();
        let k = kinds(&b);
        assert_eq!(k.get(&HexKind::Full), Some(&full), "n={n}");
        assert_eq!(k.get(&HexKind::Seam), Some(&seam), "n={n}");
        assert_eq!(k.get(&HexKind::Rim), Some(&rim), "n={n}");
        assert_eq!(k.get(&HexKind::Half), None);
        assert_eq!(b.count(), full + seam + rim);
        assert_eq!(b.hexes().len(), b.count());
    }
    assert_eq!(Board::sectors(1).unwrap().hexes().len(), 31);
}

#[test]
fn radius_three_gives_37_hexes_a_tile() {
    let b = Board::sectors(3).unwrap();
    for s in 0..=6 {
        let hs = b.sector_hexes(s);
        assert_eq!(hs.len(), 37, "sector {s}");
        let c = sectors::sector_center(3, s).unwrap();
        assert!(hs.iter().all(|h| h.distance(c) <= 3));
    }
    assert!(b.sector_hexes(7).is_empty());
    // Sector 1 is centred on n * (N + NE).
    assert_eq!(b.sectors_of(Hex::new(3, -6)), SectorSet::EMPTY.with(1));
    // Sectors are numbered clockwise.
    let order: Vec<u8> = (1..=6)
        .map(|s| {
            b.sectors_of(sectors::sector_center(3, s).unwrap())
                .first()
                .unwrap()
        })
        .collect();
    assert_eq!(order, vec![1, 2, 3, 4, 5, 6]);
}

#[test]
fn adjacent_tiles_share_their_side_hexes_exactly() {
    let n = 3;
    let b = Board::sectors(n as u32).unwrap();
    let center = |s: u8| sectors::sector_center(n, s).unwrap();
    let mut pairs: Vec<(u8, u8)> = (1..=6).map(|k| (0, k)).collect();
    pairs.extend((1..=6).map(|k| (k, k % 6 + 1)));
    for (a, c) in pairs {
        assert_eq!(
            center(a).distance(center(c)),
            2 * n,
            "tiles {a} and {c} touch"
        );
        let shared: Vec<Hex> = b
            .hexes()
            .into_iter()
            .filter(|h| h.distance(center(a)) == n && h.distance(center(c)) == n)
            .collect();
        assert_eq!(shared.len(), (n + 1) as usize, "tiles {a} and {c}");
        let sides: Vec<&Hex> = shared
            .iter()
            .filter(|&&h| (h - center(a)).straight_line_to(Hex::ORIGIN).is_none())
            .collect();
        assert_eq!(sides.len(), (n - 1) as usize);
        for &&h in &sides {
            assert_eq!(b.kind(h), Some(HexKind::Seam));
            assert_eq!(b.sectors_of(h), SectorSet::EMPTY.with(a).with(c));
        }
    }
    // A corner of the centre tile belongs to three sectors.
    assert_eq!(
        b.sectors_of(Hex::new(0, -3)).iter().collect::<Vec<_>>(),
        vec![0, 1, 6]
    );
    // The outer end of the edge between sectors 1 and 2 is a rim hex, two thirds covered.
    assert_eq!(b.kind(Hex::new(6, -6)), Some(HexKind::Rim));
    assert_eq!(sectors::coverage(3, Hex::new(6, -6)).sixths, 4);
    // One step further out (NE) is off the board.
    assert_eq!(b.kind(Hex::new(7, -7)), None);
}

#[test]
fn sector_membership_is_symmetric_under_rotation() {
    for n in 1..=4u32 {
        let b = Board::sectors(n).unwrap();
        for h in b.hexes() {
            let turned = h.rotate_around(Hex::ORIGIN, Turn::Clockwise, 1);
            assert_eq!(b.kind(turned), b.kind(h), "{h}");
            let expect: SectorSet = b
                .sectors_of(h)
                .iter()
                .map(|s| if s == 0 { 0 } else { s % 6 + 1 })
                .fold(SectorSet::EMPTY, SectorSet::with);
            assert_eq!(b.sectors_of(turned), expect, "{h}");
            assert_eq!(
                b.is_enterable(h),
                matches!(b.kind(h), Some(HexKind::Full | HexKind::Seam))
            );
        }
    }
}

#[test]
fn boards_round_trip_through_serde() {
    let shapes = [
        Board::hexagon(5).unwrap(),
        Board::offset_rect(13, 9).unwrap(),
        Board::sectors(3).unwrap(),
        Board::explicit([Hex::new(0, 0), Hex::new(5, -2)]),
    ];
    for b in shapes {
        let json = serde_json::to_string(&b).unwrap();
        let back: Board = serde_json::from_str(&json).unwrap();
        assert_eq!(back, b, "{json}");
    }
    assert_eq!(
        serde_json::to_string(&Board::sectors(3).unwrap()).unwrap(),
        r#"{"shape":"sectors","tile_radius":3}"#
    );
    let b: Board = serde_json::from_str(
        r#"{"shape":"explicit","hexes":[{"q":1,"r":1},{"q":0,"r":2},{"q":2,"r":0}]}"#,
    )
    .unwrap();
    assert_eq!(
        b.hexes(),
        vec![Hex::new(2, 0), Hex::new(1, 1), Hex::new(0, 2)]
    );
    assert!(serde_json::from_str::<Board>(r#"{"shape":"hexagon","radius":5000}"#).is_err());
    assert!(
        serde_json::from_str::<Board>(r#"{"shape":"offset_rect","width":0,"height":9}"#).is_err()
    );
    assert!(serde_json::from_str::<Board>(r#"{"shape":"moebius"}"#).is_err());
}

// ---------------------------------------------------------------------------------------------
// Facing movement (document 000)
// ---------------------------------------------------------------------------------------------

fn fm(q: i32, r: i32, facing: Direction, moved: u32, turns: u32, turned_here: bool) -> FacingMove {
    FacingMove {
        hex: Hex::new(q, r),
        facing,
        moved,
        turns,
        turned_here,
    }
}

#[test]
fn document_000_frigate_wide_turn() {
    // Speed 7, MR 3: three hexes, turn left, two hexes, turn left, one hex, turn left, one hex.
    let rules = FacingRules::new(7, 3);
    let reach = facing_moves(
        Hex::ORIGIN,
        Direction::N,
        &rules,
        |_| true,
        Limits::default(),
    );
    assert!(!reach.is_truncated());
    let end = fm(-3, -1, Direction::S, 7, 3, false);
    assert_eq!(reach.cost(&end), Some(10));
    use Direction::{N, NW, S, SW};
    let expected = vec![
        fm(0, 0, N, 0, 0, false),
        fm(0, -1, N, 1, 0, false),
        fm(0, -2, N, 2, 0, false),
        fm(0, -3, N, 3, 0, false),
        fm(0, -3, NW, 3, 1, true),
        fm(-1, -3, NW, 4, 1, false),
        fm(-2, -3, NW, 5, 1, false),
        fm(-2, -3, SW, 5, 2, true),
        fm(-3, -2, SW, 6, 2, false),
        fm(-3, -2, S, 6, 3, true),
        fm(-3, -1, S, 7, 3, false),
    ];
    assert_eq!(reach.path_to(&end), expected);
    let ends = end_positions(&reach, &rules);
    assert_eq!(ends[&(Hex::new(-3, -1), S)], end);
    assert_eq!(
        hexes_of(&expected),
        vec![
            (0, 0),
            (0, -1),
            (0, -2),
            (0, -3),
            (-1, -3),
            (-2, -3),
            (-3, -2),
            (-3, -1)
        ]
        .into_iter()
        .map(Hex::from)
        .collect::<Vec<_>>()
    );
}

/// Every end position by brute force: try every sequence of "turn left / turn right / no turn"
/// after each hex entered.
fn brute_force_ends(
    start: Hex,
    facing: Direction,
    rules: &FacingRules,
    blocked: &BTreeSet<Hex>,
) -> BTreeSet<(Hex, Direction)> {
    fn go(
        h: Hex,
        f: Direction,
        left: u32,
        turns: u32,
        rules: &FacingRules,
        blocked: &BTreeSet<Hex>,
        out: &mut BTreeSet<(Hex, Direction)>,
    ) {
        if left == 0 {
            out.insert((h, f));
            return;
        }
        let next = h.neighbor(f);
        if blocked.contains(&next) {
            return;
        }
        let last = left == 1;
        go(next, f, left - 1, turns, rules, blocked, out);
        if turns < rules.max_turns && (!last || rules.turn_in_final_hex) {
            go(next, f.left(), left - 1, turns + 1, rules, blocked, out);
            go(next, f.right(), left - 1, turns + 1, rules, blocked, out);
        }
    }
    let mut out = BTreeSet::new();
    go(start, facing, rules.speed, 0, rules, blocked, &mut out);
    out
}

#[test]
fn end_positions_match_brute_force() {
    let blocked: BTreeSet<Hex> = [Hex::new(0, -2), Hex::new(2, -3), Hex::new(-1, -1)].into();
    for speed in 1..=6 {
        for mr in 0..=3 {
            for final_turn in [true, false] {
                let rules = FacingRules {
                    speed,
                    max_turns: mr,
                    turn_in_final_hex: final_turn,
                };
                let reach = facing_moves(
                    Hex::ORIGIN,
                    Direction::NE,
                    &rules,
                    |h| !blocked.contains(&h),
                    Limits::default(),
                );
                let ends = end_positions(&reach, &rules);
                let got: BTreeSet<_> = ends.keys().copied().collect();
                assert_eq!(
                    got,
                    brute_force_ends(Hex::ORIGIN, Direction::NE, &rules, &blocked),
                    "speed {speed} mr {mr}"
                );
                for end in ends.values() {
                    let path = reach.path_to(end);
                    assert!(
                        path.iter().all(|s| !blocked.contains(&s.hex)),
                        "planets are impassable"
                    );
                    assert!(path.iter().all(|s| s.turns <= mr));
                    // One hexside per step, never two turns in one hex.
                    for w in path.windows(2) {
                        let moved = w[1].moved == w[0].moved + 1;
                        assert!(
                            moved
                                || (w[1].hex == w[0].hex
                                    && w[0].facing.turns_to(w[1].facing).0 == 1
                                    && !w[0].turned_here)
                        );
                        assert!(w[1].hex == w[0].hex || w[0].hex.neighbor(w[0].facing) == w[1].hex);
                    }
                    assert_eq!(path[0], FacingMove::start(Hex::ORIGIN, Direction::NE));
                }
            }
        }
    }
}

#[test]
fn a_planet_ahead_blocks_the_straight_move() {
    let rules = FacingRules::new(7, 3);
    let planet = Hex::new(0, -3);
    let reach = facing_moves(
        Hex::ORIGIN,
        Direction::N,
        &rules,
        |h| h != planet,
        Limits::default(),
    );
    let ends = end_positions(&reach, &rules);
    assert!(!ends.contains_key(&(Hex::new(0, -7), Direction::N)));
    // The worked example's route enters (0, -3), and three left turns are the only way to end
    // facing S there, so that end position is gone.
    assert!(!ends.contains_key(&(Hex::new(-3, -1), Direction::S)));
    // Routes that turn off before the planet remain: left after hex 2, then straight on.
    assert_eq!(ends[&(Hex::new(-5, -2), Direction::NW)].turns, 1);
    assert!(ends.keys().all(|(h, _)| *h != planet));
    assert!(!ends.is_empty());
    // MR 0 with the planet straight ahead: no legal move at all.
    let stuck = FacingRules::new(7, 0);
    let reach = facing_moves(
        Hex::ORIGIN,
        Direction::N,
        &stuck,
        |h| h != planet,
        Limits::default(),
    );
    assert!(end_positions(&reach, &stuck).is_empty());
}

#[test]
fn speed_zero_may_face_any_hexside() {
    let rules = FacingRules::new(0, 0);
    let reach = facing_moves(
        Hex::new(4, 4),
        Direction::S,
        &rules,
        |_| true,
        Limits::default(),
    );
    let ends = end_positions(&reach, &rules);
    assert_eq!(ends.len(), 6);
    assert!(ends.keys().all(|(h, _)| *h == Hex::new(4, 4)));
    assert_eq!(ends[&(Hex::new(4, 4), Direction::N)].turns, 3);
}

#[test]
fn only_finished_moves_are_end_positions_and_fewest_turns_win() {
    let rules = FacingRules::new(2, 2);
    let reach = facing_moves(
        Hex::ORIGIN,
        Direction::N,
        &rules,
        |_| true,
        Limits::default(),
    );
    let ends = end_positions(&reach, &rules);
    assert!(ends.values().all(|s| s.moved == 2));
    // (0,-2) facing N: straight (0 turns) beats left-then-right... which cannot end there anyway;
    // (0,-2) facing NW is reached with exactly one turn, in the final hex.
    assert_eq!(ends[&(Hex::new(0, -2), Direction::N)].turns, 0);
    assert_eq!(ends[&(Hex::new(0, -2), Direction::NW)].turns, 1);
    assert_eq!(
        ends.len(),
        brute_force_ends(Hex::ORIGIN, Direction::N, &rules, &BTreeSet::new()).len()
    );
}

// ---------------------------------------------------------------------------------------------
// Generic reachability
// ---------------------------------------------------------------------------------------------

#[test]
fn reachable_respects_its_limits() {
    let plane = |h: &Hex, out: &mut Vec<(Hex, u32)>| out.extend(h.neighbors().map(|n| (n, 1)));
    let r = reachable(Hex::ORIGIN, plane, Limits::default().with_max_cost(3));
    assert_eq!(r.len(), 37);
    assert!(!r.is_truncated());
    assert!(r.iter().all(|(h, c)| c == h.length() as u32));
    // An endless plane with only a node budget stops and says so.
    let r = reachable(Hex::ORIGIN, plane, Limits::default().with_max_expanded(50));
    assert!(r.is_truncated());
    assert!(r.len() < 400);
    assert_eq!(r.start(), &Hex::ORIGIN);
    assert!(r.path_to(&Hex::new(100, 0)).is_empty());
}

#[test]
fn reachable_keeps_the_cheapest_way_and_groups_by_key() {
    // States: (position on a line, parity of steps taken). Two ways to 2: one step of 2
    // (cost 5) or two steps of 1 (cost 2 each).
    let r = reachable(
        0i32,
        |&x, out| {
            if x < 4 {
                out.push((x + 1, 2));
                out.push((x + 2, 5));
            }
        },
        Limits::default(),
    );
    assert_eq!(r.cost(&2), Some(4));
    assert_eq!(r.path_to(&2), vec![0, 1, 2]);
    // 4 has no successors, so 5 is reached from 3 only: 0 -> 1 -> 2 -> 3 (6), then + 5.
    assert_eq!(r.cost(&5), Some(11));
    let by_parity = r.best_by_key(|&x| (x > 0).then_some(x % 2));
    assert_eq!(by_parity, BTreeMap::from([(0, 2), (1, 1)]));
}

// ---------------------------------------------------------------------------------------------
// Cheapest path
// ---------------------------------------------------------------------------------------------

/// Breadth-first distances from `start` avoiding `blocked`, inside a hexagon of `radius`.
fn bfs(start: Hex, radius: i32, blocked: &BTreeSet<Hex>) -> BTreeMap<Hex, u32> {
    let mut dist = BTreeMap::from([(start, 0)]);
    let mut queue = VecDeque::from([start]);
    while let Some(h) = queue.pop_front() {
        for n in h.neighbors() {
            if n.length() <= radius && !blocked.contains(&n) && !dist.contains_key(&n) {
                dist.insert(n, dist[&h] + 1);
                queue.push_back(n);
            }
        }
    }
    dist
}

fn assert_walk(path: &[Hex], start: Hex, goal: Hex) {
    assert_eq!(path.first(), Some(&start));
    assert_eq!(path.last(), Some(&goal));
    assert!(
        path.windows(2).all(|w| w[0].distance(w[1]) == 1),
        "contiguous: {path:?}"
    );
}

#[test]
fn walled_off_goal_returns_none_on_an_endless_plane() {
    let goal = Hex::new(5, 5);
    let wall: BTreeSet<Hex> = goal.neighbors().into();
    let cost = |_: Hex, to: Hex| (!wall.contains(&to)).then_some(1);
    assert_eq!(
        cheapest_path(
            Hex::ORIGIN,
            goal,
            1,
            cost,
            Limits::default().with_max_expanded(2_000)
        ),
        None
    );
    // A cost bound alone is enough too.
    assert_eq!(
        cheapest_path(Hex::ORIGIN, goal, 1, cost, Limits::new(usize::MAX, 30)),
        None
    );
    // Without the wall the same bounds find it.
    let open = |_: Hex, _: Hex| Some(1);
    assert_eq!(
        cheapest_path(Hex::ORIGIN, goal, 1, open, Limits::new(usize::MAX, 30)).map(|p| p.cost),
        Some(10)
    );
}

#[test]
fn weighted_costs_and_zero_heuristic() {
    // Stepping into q < 0 costs 5, elsewhere 1: the path avoids the costly half plane.
    let cost = |_: Hex, to: Hex| Some(if to.q < 0 { 5 } else { 1 });
    let p = cheapest_path(Hex::new(0, 3), Hex::new(0, -3), 1, cost, Limits::default()).unwrap();
    assert_eq!(p.cost, 6);
    assert!(p.hexes.iter().all(|h| h.q >= 0));
    let q = cheapest_path(Hex::new(0, 3), Hex::new(0, -3), 0, cost, Limits::default()).unwrap();
    assert_eq!(q.cost, 6);
    // Same call, same path.
    assert_eq!(
        cheapest_path(Hex::new(0, 3), Hex::new(0, -3), 1, cost, Limits::default()).unwrap(),
        p
    );
    assert_eq!(
        cheapest_path(Hex::ORIGIN, Hex::ORIGIN, 1, cost, Limits::default())
            .unwrap()
            .hexes,
        vec![Hex::ORIGIN]
    );
}

proptest! {
    #[test]
    fn path_cost_is_distance_on_an_empty_board(q1 in -8i32..=8, r1 in -8i32..=8, q2 in -8i32..=8, r2 in -8i32..=8) {
        let board = Board::hexagon(8).unwrap();
        let (a, b) = (Hex::new(q1, r1), Hex::new(q2, r2));
        prop_assume!(board.contains(a) && board.contains(b));
        let p = cheapest_path(a, b, 1, |_, to| board.contains(to).then_some(1), Limits::default()).unwrap();
        prop_assert_eq!(p.cost, a.distance(b) as u32);
        prop_assert_eq!(p.hexes.len(), p.cost as usize + 1);
        assert_walk(&p.hexes, a, b);
    }

    #[test]
    fn paths_avoid_blocked_hexes_and_match_bfs(seed in any::<u64>(), density in 0u64..40) {
        let radius = 6;
        let board = Board::hexagon(radius as u32).unwrap();
        let mut x = seed;
        let blocked: BTreeSet<Hex> = board.hexes().into_iter().filter(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) % 100 < density
        }).collect();
        let (a, b) = (Hex::new(-radius, 2), Hex::new(radius, -2));
        prop_assume!(!blocked.contains(&a) && !blocked.contains(&b));
        let cost = |_: Hex, to: Hex| (board.contains(to) && !blocked.contains(&to)).then_some(1);
        let found = cheapest_path(a, b, 1, cost, Limits::default());
        let oracle = bfs(a, radius, &blocked);
        prop_assert_eq!(found.as_ref().map(|p| p.cost), oracle.get(&b).copied());
        if let Some(p) = found {
            assert_walk(&p.hexes, a, b);
            prop_assert!(p.hexes.iter().all(|h| !blocked.contains(h) && board.contains(*h)));
        }
    }

    #[test]
    fn bounded_search_on_a_walled_goal_returns_none(q in -30i32..30, r in -30i32..30, budget in 1usize..3000) {
        let goal = Hex::new(q, r);
        prop_assume!(goal != Hex::ORIGIN && goal.distance(Hex::ORIGIN) > 1);
        let wall: BTreeSet<Hex> = goal.neighbors().into();
        let found = cheapest_path(Hex::ORIGIN, goal, 1, |_, to| (!wall.contains(&to)).then_some(1), Limits::default().with_max_expanded(budget));
        prop_assert_eq!(found, None);
    }
}
