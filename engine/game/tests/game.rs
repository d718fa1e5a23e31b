//! Game transactions, hooks, log and undo/redo, on the fake rules.

mod common;

use common::{Fail, Fake, Lcg, bot_game, new_game};
use hexforge_game::{Action, PerformError, SideId, state_hash};
use proptest::prelude::*;

fn first_move(game: &hexforge_game::Game<Fake>) -> Action {
    let side = game.waiting()[0].clone();
    game.legal_actions(&side).unwrap().remove(0)
}

#[test]
fn start_logs_setup_and_first_turn() {
    let g = new_game(1, Fake::new());
    let s = g.state();
    assert_eq!(s.clock.round, 1);
    assert_eq!(g.waiting(), vec![SideId::new("blue")]);
    assert_eq!(s.log.len(), 1);
    assert!(s.log[0].action.is_none());
    assert_eq!(
        s.log[0].events,
        vec!["the counters are placed", "blue to move"]
    );
    assert!(!g.can_undo());
}

#[test]
fn actions_are_logged_with_rolls_and_events() {
    let mut g = new_game(3, Fake::new());
    let a = first_move(&g);
    g.perform(&a).unwrap();
    let e = g.state().log.last().unwrap();
    assert_eq!(e.index, 1);
    assert_eq!(e.action.as_ref(), Some(&a));
    assert!(g.state().events.is_empty());
    assert!(g.state().dice.pending_rolls().is_empty());
    g.perform(&Action::end_phase("blue".into())).unwrap();
    let e = g.state().log.last().unwrap();
    assert_eq!(e.events, vec!["red to move"]);
    assert_eq!(g.waiting(), vec![SideId::new("red")]);
}

#[test]
fn illegal_actions_are_values_with_reasons_and_change_nothing() {
    let mut g = new_game(5, Fake::new());
    let before = state_hash(g.state());
    let cases = [
        (
            Action::end_phase("red".into()),
            "red cannot act now: phase `move` waits for blue",
        ),
        (
            Action::new(
                "move",
                "blue",
                serde_json::json!({"piece": 4, "to": {"q": 0, "r": 0}}),
            ),
            "is not yours",
        ),
        (
            Action::new("move", "blue", serde_json::json!({"piece": 1})),
            "move needs `piece` and `to`",
        ),
        (
            Action::new(
                "move",
                "blue",
                serde_json::json!({"piece": 1, "to": {"q": 5, "r": 5}}),
            ),
            "one hex",
        ),
        (
            Action::new("fly", "blue", serde_json::Value::Null),
            "unknown action `fly`",
        ),
        (
            Action::end_phase("green".into()),
            "there is no side `green`",
        ),
    ];
    for (a, reason) in cases {
        match g.perform(&a) {
            Err(PerformError::Illegal(i)) => assert!(i.reason.contains(reason), "{}", i.reason),
            other => panic!("{a:?} gave {other:?}"),
        }
        assert!(g.check(&a).unwrap().is_err());
    }
    assert_eq!(state_hash(g.state()), before);
    assert_eq!(g.state().log.len(), 1);
}

#[test]
fn a_piece_moves_once_per_turn_and_turn_start_hook_clears_it() {
    let mut g = new_game(9, Fake::new());
    let a = first_move(&g);
    g.perform(&a).unwrap();
    match g.perform(&a) {
        Err(PerformError::Illegal(i)) => {
            assert!(i.reason.contains("already moved"), "{}", i.reason)
        }
        other => panic!("{other:?}"),
    }
    g.perform(&Action::end_phase("blue".into())).unwrap();
    assert!(
        g.state()
            .pieces
            .values()
            .all(|p| !p.values.contains_key("moved"))
    );
}

#[test]
fn illegal_after_changes_rolls_back() {
    let mut g = new_game(2, Fake::failing(Fail::IllegalAfterChange));
    let before = g.state().clone();
    let a = first_move(&g);
    assert!(matches!(g.perform(&a), Err(PerformError::Illegal(_))));
    assert_eq!(g.state(), &before);
}

#[test]
fn undo_and_redo_restore_exact_states() {
    let mut g = new_game(11, Fake::new());
    let mut hashes = vec![state_hash(g.state())];
    let mut lcg = Lcg(4);
    for _ in 0..30 {
        let side = g.waiting()[0].clone();
        let acts = g.legal_actions(&side).unwrap();
        g.perform(&acts[lcg.below(acts.len())]).unwrap();
        hashes.push(state_hash(g.state()));
    }
    for h in hashes.iter().rev().skip(1) {
        assert!(g.undo());
        assert_eq!(&state_hash(g.state()), h);
    }
    assert!(!g.undo());
    assert_eq!(g.state().log.len(), 1);
    for h in hashes.iter().skip(1) {
        assert!(g.redo());
        assert_eq!(&state_hash(g.state()), h);
    }
    assert!(!g.redo());
    // A new action after an undo drops the redo history.
    g.undo();
    let a = first_move(&g);
    g.perform(&a).unwrap();
    assert!(!g.can_redo());
}

#[test]
fn an_action_past_the_total_state_budget_is_refused_and_changes_nothing() {
    let mut rules = Fake::new();
    let g = new_game(14, Fake::new());
    let size = g.state().approx_bytes() + hexforge_game::size::entry_bytes(&g.state().log[0]);
    // Room for the start, not for one more log entry.
    rules.limits.total = size + 10;
    let mut g = new_game(14, rules);
    let before = state_hash(g.state());
    let side = g.waiting()[0].clone();
    let e = g.perform(&Action::end_phase(side)).unwrap_err().to_string();
    assert!(e.contains("state budget") && e.contains("state_mib"), "{e}");
    assert_eq!(state_hash(g.state()), before);
    assert_eq!(g.state().log.len(), 1);
}

#[test]
fn undo_history_is_bounded_by_memory_too() {
    let mut g = new_game(15, Fake::new());
    let one = g.state().approx_bytes();
    // Room for two states' worth of bytes: the third oldest goes.
    g.set_undo_memory(2 * one + one / 2);
    for _ in 0..4 {
        let side = g.waiting()[0].clone();
        g.perform(&Action::end_phase(side)).unwrap();
    }
    assert!(g.undo() && g.undo());
    assert!(!g.undo(), "only two kept");
    assert_eq!(g.state().log.len(), 3);
}

/// One action can put every side out of the game (a blast that destroys the last ships of all):
/// the game then ends as the rules' victory says, or in a draw, never in an error.
#[test]
fn a_game_where_no_side_can_act_ends_in_a_draw_not_an_error() {
    use hexforge_game::turn::{HookEvent, TurnStructure};
    use hexforge_game::{GameState, Illegal, Outcome, Rules, RulesError};
    /// The fake rules, except that every move puts both sides out of the game.
    struct AllOut(Fake);
    impl Rules for AllOut {
        fn turn_structure(&self) -> &TurnStructure {
            self.0.turn_structure()
        }
        fn setup(&self, state: &mut GameState) -> Result<(), RulesError> {
            self.0.setup(state)
        }
        fn legal_actions(&self, s: &GameState, side: &SideId) -> Result<Vec<Action>, RulesError> {
            self.0.legal_actions(s, side)
        }
        fn check(&self, s: &GameState, a: &Action) -> Result<Result<(), Illegal>, RulesError> {
            self.0.check(s, a)
        }
        fn apply(&self, s: &mut GameState, a: &Action) -> Result<Result<(), Illegal>, RulesError> {
            let r = self.0.apply(s, a)?;
            for side in s.sides_mut().iter_mut() {
                side.eliminated = true;
            }
            Ok(r)
        }
        fn hook(&self, s: &mut GameState, e: &HookEvent) -> Result<(), RulesError> {
            self.0.hook(s, e)
        }
        fn outcome(&self, s: &GameState) -> Result<Option<Outcome>, RulesError> {
            self.0.outcome(s)
        }
    }
    let state = GameState::new(vec![], "skirmish", serde_json::Value::Null, 16);
    let mut g = hexforge_game::Game::new(AllOut(Fake::new()), state).unwrap();
    let side = g.waiting()[0].clone();
    let a = g.legal_actions(&side).unwrap().remove(0);
    let out = g.perform(&a).expect("no error").expect("the game is over");
    assert!(out.winners.is_empty(), "{out:?}");
    assert!(out.reason.contains("no side can act"), "{}", out.reason);
    assert!(g.waiting().is_empty());
}

#[test]
fn undo_limit_drops_oldest() {
    let mut g = new_game(12, Fake::new());
    g.set_undo_limit(3);
    for _ in 0..6 {
        let side = g.waiting()[0].clone();
        g.perform(&Action::end_phase(side)).unwrap();
    }
    assert!(g.undo() && g.undo() && g.undo());
    assert!(!g.undo());
    assert_eq!(g.state().log.len(), 4);
}

#[test]
fn game_ends_at_turn_limit_with_rules_outcome_and_refuses_more() {
    let mut g = new_game(13, Fake::new());
    let mut out = None;
    while out.is_none() {
        let side = g.waiting()[0].clone();
        out = g.perform(&Action::end_phase(side)).unwrap();
    }
    let o = out.unwrap();
    assert!(
        o.winners.is_empty(),
        "equal counters: a draw ({})",
        o.reason
    );
    assert_eq!(g.state().clock.round, 12);
    assert!(g.waiting().is_empty());
    match g.perform(&Action::end_phase("blue".into())) {
        Err(PerformError::Illegal(i)) => assert!(i.reason.starts_with("the game is over")),
        other => panic!("{other:?}"),
    }
    assert!(g.legal_actions(&SideId::new("blue")).unwrap().is_empty());
}

#[test]
fn bots_finish_games() {
    for seed in 0..10 {
        let mut g = new_game(seed, Fake::new());
        bot_game(&mut g, &mut Lcg(seed), 5000);
        assert!(g.state().outcome.is_some(), "seed {seed}");
    }
}

fn fail_strategy() -> impl Strategy<Value = Fail> {
    prop_oneof![
        (0u32..5).prop_map(Fail::Apply),
        Just(Fail::AfterHook),
        Just(Fail::TurnHook),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// A fault anywhere inside an action leaves the state exactly as it was.
    #[test]
    fn faults_leave_the_state_untouched(seed in 0u64..1000, steps in 0usize..60, fail in fail_strategy()) {
        let mut g = new_game(seed, Fake::new());
        bot_game(&mut g, &mut Lcg(seed), steps);
        prop_assume!(g.state().outcome.is_none());
        let before = state_hash(g.state());
        let log_len = g.state().log.len();
        let could_undo = g.can_undo();
        let clean = g.set_rules(Fake::failing(fail));
        let side = g.waiting()[0].clone();
        let mut lcg = Lcg(seed ^ 0xabc);
        // Try several actions (moves, which may capture, and phase ends that reach turn hooks).
        for _ in 0..8 {
            let acts = g.legal_actions(&side).unwrap();
            let a = acts[lcg.below(acts.len())].clone();
            match g.perform(&a) {
                Err(PerformError::Rules(e)) => {
                    prop_assert!(e.message.contains("injected"));
                    prop_assert_eq!(&state_hash(g.state()), &before);
                    prop_assert_eq!(g.state().log.len(), log_len);
                    prop_assert_eq!(g.can_undo(), could_undo);
                }
                Ok(_) => {
                    // The fault was not on this action's path; undo it and go on.
                    prop_assert!(g.undo());
                    prop_assert_eq!(&state_hash(g.state()), &before);
                }
                Err(other) => prop_assert!(false, "unexpected {:?}", other),
            }
        }
        g.set_rules(clean);
        prop_assert_eq!(&state_hash(g.state()), &before);
    }
}
