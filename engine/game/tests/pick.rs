//! `Game::pick_legal_action`: the random bot's lazy path gives exactly what indexing
//! `Game::legal_actions` gives, on the fake rules.

mod common;

use common::{Fake, Lcg, new_game};
use hexforge_game::SideId;

#[test]
fn picking_equals_indexing_the_listing_through_a_whole_game() {
    let mut game = new_game(11, Fake::new());
    let mut lcg = Lcg(5);
    let mut steps = 0;
    while game.state().outcome.is_none() && steps < 500 {
        let side = game.waiting()[0].clone();
        let all = game.legal_actions(&side).unwrap();
        assert!(!all.is_empty());
        for i in [0, all.len() / 2, all.len() - 1] {
            let mut seen = None;
            let got = game
                .pick_legal_action(&side, &mut |n| {
                    assert!(seen.replace(n).is_none(), "pick called twice");
                    i
                })
                .unwrap();
            assert_eq!(seen, Some(all.len()));
            assert_eq!(got.as_ref(), Some(&all[i]));
        }
        let a = &all[lcg.below(all.len())];
        game.perform(a).unwrap();
        steps += 1;
    }
    assert!(game.state().outcome.is_some(), "the game should end");
}

#[test]
fn a_side_that_cannot_act_picks_nothing_without_calling_pick() {
    let game = new_game(2, Fake::new());
    // Red waits while blue moves.
    let got = game
        .pick_legal_action(&SideId::new("red"), &mut |_| {
            panic!("pick must not be called")
        })
        .unwrap();
    assert_eq!(got, None);
}

#[test]
fn a_picked_action_is_performed_without_asking_check_again_but_only_on_its_own_state() {
    let mut game = new_game(3, Fake::new());
    let checks = |g: &hexforge_game::Game<Fake>| g.rules().checks.get();
    let side = |g: &hexforge_game::Game<Fake>| g.waiting()[0].clone();
    // Picked, then performed at once: the listing stands for the check.
    let a = game
        .pick_legal_action(&side(&game), &mut |_| 0)
        .unwrap()
        .unwrap();
    let before = checks(&game);
    game.perform(&a).unwrap();
    assert_eq!(checks(&game), before, "no check for the action just listed");
    // Another action than the one picked is checked.
    let s = side(&game);
    let all = game.legal_actions(&s).unwrap();
    assert!(all.len() > 1);
    let picked = game.pick_legal_action(&s, &mut |_| 0).unwrap().unwrap();
    let other = all.iter().find(|a| **a != picked).unwrap().clone();
    let before = checks(&game);
    game.perform(&other).unwrap();
    assert_eq!(checks(&game), before + 1);
    // A pick is good for the state it was listed for only: after an edit, an undo, or once
    // used, the same action is checked again.
    let a = game
        .pick_legal_action(&side(&game), &mut |_| 0)
        .unwrap()
        .unwrap();
    game.edit(|_| ());
    let before = checks(&game);
    game.perform(&a).unwrap();
    assert_eq!(checks(&game), before + 1, "checked after an edit");
    let before = checks(&game);
    let _ = game.perform(&a);
    assert_eq!(checks(&game), before + 1, "a pick is used once");
    let a = game
        .pick_legal_action(&side(&game), &mut |_| 0)
        .unwrap()
        .unwrap();
    assert!(game.undo());
    let before = checks(&game);
    let _ = game.perform(&a);
    assert_eq!(checks(&game), before + 1, "checked after an undo");
}
