//! Turn-structure fixtures: one per rule document (000..004), played by ending phases.

use hexforge_game::turn::{self, Actor, HookEvent, Order, PhaseSpec, TurnStructure};
use hexforge_game::{GameState, SideId, SideState};

fn state(sides: &[(&str, Option<&str>)]) -> GameState {
    let mut s = GameState::new(vec![], "fixture", serde_json::Value::Null, 7);
    for (id, team) in sides {
        let mut side = SideState::new(id, id);
        side.team = team.map(str::to_owned);
        s.sides_mut().push(side);
    }
    s
}

/// One landed step: (round, segment, phase id, acting sides).
type Seen = (u32, u32, String, Vec<String>);

fn seen(s: &GameState, t: &TurnStructure) -> Seen {
    (
        s.clock.round,
        s.clock.segment,
        t.phases[s.clock.phase_index as usize].id.clone(),
        s.clock.acting.iter().map(|a| a.0.clone()).collect(),
    )
}

/// Starts the clock and plays `steps` steps, each side that waits ending the phase in turn.
fn play(s: &mut GameState, t: &TurnStructure, steps: usize) -> (Vec<Seen>, Vec<HookEvent>) {
    let mut events = turn::start(s, t).unwrap();
    let mut out = Vec::new();
    for _ in 0..steps {
        if s.clock.finished {
            break;
        }
        out.push(seen(s, t));
        for side in s.clock.waiting() {
            events.extend(turn::end_phase(s, t, &side).unwrap().unwrap());
        }
    }
    (out, events)
}

fn step(round: u32, segment: u32, phase: &str, acting: &[&str]) -> Seen {
    (
        round,
        segment,
        phase.to_owned(),
        acting.iter().map(|a| (*a).to_owned()).collect(),
    )
}

#[test]
fn doc_000_orbital_skirmish_two_halves_with_defensive_fire() {
    let t = TurnStructure::fixed(
        &["blue", "red"],
        vec![
            PhaseSpec::turn("move", Actor::Active),
            PhaseSpec::turn("defensive_fire", Actor::Others),
            PhaseSpec::turn("offensive_fire", Actor::Active),
        ],
    );
    let mut s = state(&[("blue", None), ("red", None)]);
    let (seen, events) = play(&mut s, &t, 7);
    assert_eq!(
        seen,
        vec![
            step(1, 1, "move", &["blue"]),
            step(1, 1, "defensive_fire", &["red"]),
            step(1, 1, "offensive_fire", &["blue"]),
            step(1, 1, "move", &["red"]),
            step(1, 1, "defensive_fire", &["blue"]),
            step(1, 1, "offensive_fire", &["red"]),
            step(2, 1, "move", &["blue"]),
        ]
    );
    let names: Vec<&str> = events.iter().map(HookEvent::name).collect();
    assert_eq!(
        &names[..6],
        &[
            "round_start",
            "segment_start",
            "turn_start",
            "phase_start",
            "phase_end",
            "phase_start"
        ]
    );
    assert_eq!(
        events.iter().filter(|e| e.name() == "turn_start").count(),
        3
    );
}

#[test]
fn doc_001_squadron_command_alternating_turns() {
    let phases = ["order", "move", "fight", "end"]
        .iter()
        .map(|p| PhaseSpec::turn(p, Actor::Active))
        .collect();
    let t = TurnStructure::fixed(&[], phases);
    let mut s = state(&[("north", None), ("south", None)]);
    let (seen, _) = play(&mut s, &t, 9);
    let who: Vec<(String, String)> = seen
        .iter()
        .map(|(_, _, p, a)| (p.clone(), a.join(",")))
        .collect();
    let expect = |p: &str, a: &str| (p.to_owned(), a.to_owned());
    assert_eq!(
        who,
        vec![
            expect("order", "north"),
            expect("move", "north"),
            expect("fight", "north"),
            expect("end", "north"),
            expect("order", "south"),
            expect("move", "south"),
            expect("fight", "south"),
            expect("end", "south"),
            expect("order", "north"),
        ]
    );
    assert_eq!(seen[8].0, 2);
}

#[test]
fn doc_002_planetoid_colonies_colour_cycle_over_51_rounds() {
    let mut t = TurnStructure::fixed(&["a", "b"], vec![PhaseSpec::turn("act", Actor::Active)]);
    t.time_track = Some(vec!["blue".into(), "red".into(), "yellow".into()]);
    t.turn_limit = Some(51);
    let mut s = state(&[("a", None), ("b", None)]);
    let mut events = turn::start(&mut s, &t).unwrap();
    let mut labels = Vec::new();
    while !s.clock.finished {
        if labels.len() < s.clock.round as usize {
            labels.push(s.clock.label.clone().unwrap());
        }
        let side = s.clock.waiting()[0].clone();
        events.extend(turn::end_phase(&mut s, &t, &side).unwrap().unwrap());
    }
    assert_eq!(labels.len(), 51);
    for (i, l) in labels.iter().enumerate() {
        assert_eq!(l, ["blue", "red", "yellow"][i % 3], "round {}", i + 1);
    }
    assert_eq!(labels.iter().filter(|l| *l == "yellow").count(), 17);
    assert_eq!(s.clock.round, 51);
    assert_eq!(events.last(), Some(&HookEvent::TurnLimit));
    // A finished clock refuses further phase ends and does not move.
    assert!(
        turn::end_phase(&mut s, &t, &SideId::new("a"))
            .unwrap()
            .is_err()
    );
    assert!(turn::advance(&mut s, &t).unwrap().is_empty());
}

#[test]
fn doc_003_hyperjump_galaxy_segments_with_combat() {
    let mut t = TurnStructure::fixed(
        &["rebel", "empire"],
        vec![
            PhaseSpec::turn("move", Actor::Active),
            PhaseSpec::segment("combat", Actor::All),
        ],
    );
    t.segments = 3;
    let mut s = state(&[("empire", None), ("rebel", None)]);
    let (seen, events) = play(&mut s, &t, 10);
    let mut expect = Vec::new();
    for seg in 1..=3 {
        expect.push(step(1, seg, "move", &["rebel"]));
        expect.push(step(1, seg, "move", &["empire"]));
        expect.push(step(1, seg, "combat", &["rebel", "empire"]));
    }
    expect.push(step(2, 1, "move", &["rebel"]));
    assert_eq!(seen, expect);
    assert_eq!(
        events
            .iter()
            .filter(|e| e.name() == "segment_start")
            .count(),
        4
    );
    assert_eq!(
        events.iter().filter(|e| e.name() == "round_start").count(),
        2
    );
}

#[test]
fn combat_phase_waits_for_every_side() {
    let t = TurnStructure::fixed(
        &["a", "b"],
        vec![
            PhaseSpec::turn("move", Actor::Active),
            PhaseSpec::segment("combat", Actor::All),
        ],
    );
    let mut s = state(&[("a", None), ("b", None)]);
    turn::start(&mut s, &t).unwrap();
    for side in ["a", "b"] {
        turn::end_phase(&mut s, &t, &SideId::new(side))
            .unwrap()
            .unwrap();
    }
    assert_eq!(seen(&s, &t).2, "combat");
    assert!(
        turn::end_phase(&mut s, &t, &SideId::new("b"))
            .unwrap()
            .unwrap()
            .is_empty()
    );
    assert_eq!(s.clock.waiting(), vec![SideId::new("a")]);
    // b cannot end twice; a ends it and the round turns.
    assert!(
        turn::end_phase(&mut s, &t, &SideId::new("b"))
            .unwrap()
            .is_err()
    );
    turn::end_phase(&mut s, &t, &SideId::new("a"))
        .unwrap()
        .unwrap();
    assert_eq!(s.clock.round, 2);
}

#[test]
fn round_phases_run_once_per_round_in_first_or_last_segment() {
    let mut t = TurnStructure::fixed(
        &["a", "b"],
        vec![
            PhaseSpec::round("initiative", Actor::Each),
            PhaseSpec::turn("move", Actor::Active),
            PhaseSpec::round("victory", Actor::All),
        ],
    );
    t.segments = 2;
    let mut s = state(&[("a", None), ("b", None)]);
    let (seen, _) = play(&mut s, &t, 8);
    assert_eq!(
        seen,
        vec![
            step(1, 1, "initiative", &["a"]),
            step(1, 1, "initiative", &["b"]),
            step(1, 1, "move", &["a"]),
            step(1, 1, "move", &["b"]),
            step(1, 2, "move", &["a"]),
            step(1, 2, "move", &["b"]),
            step(1, 2, "victory", &["a", "b"]),
            step(2, 1, "initiative", &["a"]),
        ]
    );
}

#[test]
fn schedule_step_is_the_schedule_entry_at_that_index() {
    let mut t = TurnStructure::fixed(
        &["a", "b"],
        vec![
            PhaseSpec::round("initiative", Actor::Each),
            PhaseSpec::segment("supply", Actor::All),
            PhaseSpec::turn("move", Actor::Active),
            PhaseSpec::turn("react", Actor::Each),
            PhaseSpec::round("victory", Actor::All),
        ],
    );
    t.segments = 2;
    let at = |phase: u32, turn: Option<u32>, each: Option<u32>| turn::Step {
        phase_index: phase,
        turn_index: turn,
        each_index: each,
    };
    // Two turn-takers, three sides.
    let turns = |out: &mut Vec<turn::Step>| {
        for taker in 0..2 {
            out.push(at(2, Some(taker), None));
            out.extend((0..3).map(|e| at(3, Some(taker), Some(e))));
        }
    };
    let mut first: Vec<_> = (0..3).map(|e| at(0, None, Some(e))).collect();
    first.push(at(1, None, None));
    turns(&mut first);
    let mut last = vec![at(1, None, None)];
    turns(&mut last);
    last.push(at(4, None, None));
    for (segment, expected) in [(1, first), (2, last)] {
        assert_eq!(turn::schedule(&t, 2, 3, segment), expected);
        for index in 0..expected.len() + 2 {
            assert_eq!(
                turn::schedule_step(&t, 2, 3, segment, index),
                expected.get(index).copied(),
                "segment {segment}, step {index}"
            );
        }
    }
}

fn solar_flare(teams: bool) -> TurnStructure {
    TurnStructure {
        order: Order::Rolled {
            die: 6,
            every_round: false,
        },
        teams,
        phases: vec![
            PhaseSpec::turn("weapons", Actor::Active),
            PhaseSpec::turn("movement", Actor::Active),
            PhaseSpec::turn("power", Actor::Active),
        ],
        segments: 1,
        time_track: None,
        turn_limit: None,
    }
}

#[test]
fn doc_004_solar_flare_highest_roll_first_then_clockwise() {
    let seating = ["p1", "p2", "p3", "p4"];
    let mut saw_tie = false;
    for seed in 0..40 {
        let mut s = state(&seating.map(|p| (p, None)));
        s.dice = hexforge_game::DiceRoller::new(seed);
        let t = solar_flare(false);
        turn::start(&mut s, &t).unwrap();
        let rolls = hexforge_game::DiceSource::drain_rolls(&mut s.dice);
        assert!(rolls.len() >= 4);
        saw_tie |= rolls.len() > 4;
        // The winner rolled the highest in the first batch (ties were re-rolled among the tied).
        let winner = &s.clock.order[0];
        let max = rolls[..4].iter().map(|r| r.total).max().unwrap();
        let k = seating.iter().position(|p| p == winner).unwrap();
        assert_eq!(rolls[k].label, format!("play order: {winner}"));
        assert_eq!(rolls[k].total, max, "seed {seed}");
        // Clockwise: the order is seating order rotated to start at the winner.
        let mut expect: Vec<String> = seating.iter().map(|p| (*p).to_owned()).collect();
        expect.rotate_left(k);
        assert_eq!(s.clock.order, expect, "seed {seed}");
        assert_eq!(s.clock.acting, vec![SideId::new(winner)]);
        if rolls.len() == 4 {
            let max = rolls.iter().map(|r| r.total).max().unwrap();
            assert_eq!(
                rolls[k].total, max,
                "seed {seed}: unique highest roll goes first"
            );
        }
    }
    assert!(saw_tie, "some seed should produce a tie and a re-roll");
}

#[test]
fn doc_004_fleet_action_teams_complete_each_phase_together() {
    let mut s = state(&[
        ("ann", Some("red")),
        ("bob", Some("blue")),
        ("cy", Some("red")),
        ("di", Some("blue")),
    ]);
    let t = solar_flare(true);
    turn::start(&mut s, &t).unwrap();
    let first = s.clock.order[0].clone();
    assert_eq!(s.clock.order.len(), 2);
    let team: Vec<SideId> = if first == "red" {
        vec!["ann".into(), "cy".into()]
    } else {
        vec!["bob".into(), "di".into()]
    };
    assert_eq!(s.clock.acting, team);
    // One member ending weapons is not enough: the team completes the phase together.
    turn::end_phase(&mut s, &t, &team[0]).unwrap().unwrap();
    assert_eq!(seen(&s, &t).2, "weapons");
    assert!(!s.clock.may_act(&team[0]));
    assert!(s.clock.may_act(&team[1]));
    turn::end_phase(&mut s, &t, &team[1]).unwrap().unwrap();
    assert_eq!(seen(&s, &t).2, "movement");
    assert_eq!(s.clock.acting, team);
}

#[test]
fn eliminated_sides_are_skipped() {
    let t = TurnStructure::fixed(&[], vec![PhaseSpec::turn("go", Actor::Active)]);
    let mut s = state(&[("a", None), ("b", None), ("c", None)]);
    s.sides_mut()[1].eliminated = true;
    let (seen, _) = play(&mut s, &t, 3);
    assert_eq!(
        seen,
        vec![
            step(1, 1, "go", &["a"]),
            step(1, 1, "go", &["c"]),
            step(2, 1, "go", &["a"])
        ]
    );
    s.sides_mut().iter_mut().for_each(|x| x.eliminated = true);
    assert_eq!(turn::advance(&mut s, &t), Err(turn::TurnError::NoActors));
}

#[test]
fn others_with_a_single_side_left_never_loops_forever() {
    let t = TurnStructure::fixed(&[], vec![PhaseSpec::turn("fire", Actor::Others)]);
    let mut s = state(&[("a", None)]);
    assert_eq!(turn::start(&mut s, &t), Err(turn::TurnError::NoActors));
}

#[test]
fn invalid_structures_list_every_problem() {
    let mut t = TurnStructure::fixed(
        &[],
        vec![
            PhaseSpec::segment("x", Actor::Active),
            PhaseSpec::turn("x", Actor::All),
        ],
    );
    t.segments = 0;
    t.time_track = Some(vec![]);
    let errs = t.validate();
    assert_eq!(errs.len(), 4, "{errs:?}");
    let mut s = state(&[("a", None)]);
    assert!(matches!(turn::start(&mut s, &t), Err(turn::TurnError::Invalid(e)) if e.len() == 4));
}

#[test]
fn structure_serde_round_trips() {
    let t = solar_flare(true);
    let json = serde_json::to_string(&t).unwrap();
    assert!(
        json.contains(r#""order":{"rolled":{"die":6,"every_round":false}}"#),
        "{json}"
    );
    let back: TurnStructure = serde_json::from_str(&json).unwrap();
    assert_eq!(back, t);
    let minimal: TurnStructure =
        serde_json::from_str(r#"{"order":"hook","phases":[{"id":"act"}]}"#).unwrap();
    assert_eq!(minimal.segments, 1);
    assert_eq!(minimal.phases[0].actor, Actor::Active);
}
