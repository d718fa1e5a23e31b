//! The guided search against the toy games: a guide's advice (`guide=`), subtree reuse, the
//! opponent model (`model=`), paired simulations (`paired=1`) and the tree of the side's own
//! moves (`own=1`).

use super::super::*;
use super::toy::{Kind, Toy, blue, bot, game, sims};
use crate::Value;
use serde_json::json;

#[test]
fn a_guide_plays_the_simulations_and_names_the_first_choice_to_try() {
    // Nim from 15 stones (take 3, then keep multiples of 4): random simulations rarely find
    // the one winning take; guided by a perfect player, every search takes it.
    let takes_three = |options: &str| -> (usize, u64) {
        let g = game(Toy::nim(15), 1);
        let right = (1..=8)
            .filter(|&seed| {
                let s = bot(options, seed)
                    .search(g.rules(), g.state(), &blue())
                    .unwrap();
                s.choice.unwrap().params["n"] == json!(3)
            })
            .count();
        (right, g.rules().asked.get())
    };
    for iters in [20, 80] {
        let (right, asked) = takes_three(&format!("iters={iters}:guide=nim"));
        assert_eq!(right, 8, "iters={iters}");
        // The guide is asked at the root and for most playout moves, not once a search.
        assert!(asked > 8 * iters, "{asked}");
        let (right, asked) = takes_three(&format!("iters={iters}"));
        assert!(right <= 4, "iters={iters}: {right}");
        assert_eq!(asked, 0);
    }
}

#[test]
fn a_guide_is_advice_the_search_can_overrule() {
    // The lazy guide always stays; the scored race still finds `inc` worth more.
    let g = game(Toy::scored_race(), 1);
    for seed in 1..=4 {
        let s = bot("iters=100:horizon=6:guide=lazy", seed)
            .search(g.rules(), g.state(), &blue())
            .unwrap();
        assert_eq!(s.choice.unwrap().id, "inc", "seed {seed}");
    }
    // A guide the rules do not have is the rules' error, not a silent random search.
    let e = bot("iters=10:guide=shrewd", 1)
        .search(g.rules(), g.state(), &blue())
        .unwrap_err();
    assert!(e.message.contains("no bot `shrewd`"), "{}", e.message);
}

/// The visits at the root of each of blue's searches in a game of Nim from 15 stones, blue
/// searching with `options` (seed 3), red with 100 simulations: the first `decisions` blue
/// makes with more than one choice.
fn blue_root_visits(options: &str, decisions: usize) -> Vec<u32> {
    let mut g = game(Toy::nim(15), 1);
    let mut b = bot(options, 3);
    let mut red = bot("iters=100", 4);
    let mut out = Vec::new();
    while g.state().outcome.is_none() && out.len() < decisions {
        let side = g.waiting()[0].clone();
        let action = if side == blue() {
            let s = b.search(g.rules(), g.state(), &side).unwrap();
            if !s.tried.is_empty() {
                out.push(s.tried.iter().map(|t| t.1).sum());
            }
            s.choice
        } else {
            red.choose(&g, &side).unwrap()
        };
        g.perform(&action.expect("the side to act has a choice"))
            .unwrap();
    }
    out
}

#[test]
fn a_decision_starts_from_what_the_last_one_simulated_of_it() {
    // Each simulation visits one root child: a fresh tree's root children hold exactly the
    // budget; a kept one also what the last decision spent on the line the game took.
    let fresh = blue_root_visits("iters=100:reuse=0", 3);
    assert_eq!(fresh, vec![100; fresh.len()]);
    assert!(fresh.len() >= 2, "{fresh:?}");
    let reused = blue_root_visits("iters=100", 3);
    assert_eq!(reused[0], 100);
    assert!(reused[1..].iter().any(|&v| v > 100), "{reused:?}");
    // Still a pure function of the seed and the budget.
    assert_eq!(reused, blue_root_visits("iters=100", 3));
}

#[test]
fn a_kept_tree_is_dropped_when_the_history_before_it_changed() {
    let mut g = game(Toy::nim(15), 1);
    let take = |n: i64, side: &str| Action::new("take", SideId::new(side), json!({ "n": n }));
    let end = |side: &str| Action::end_phase(SideId::new(side));
    for a in [take(1, "blue"), end("blue")] {
        g.perform(&a).unwrap();
    }
    // Red searches after blue took 1; its tree is kept.
    let mut b = bot("iters=200", 5);
    let s = b.search(g.rules(), g.state(), &SideId::new("red")).unwrap();
    let choice = s.choice.unwrap();
    let kept = b.kept.clone().expect("a finished search keeps its tree");
    // The game goes on with red's choice: the kept tree has that node.
    g.perform(&choice).unwrap();
    assert!(kept.follow(g.state()).is_some());
    // Undone to before red's search, blue takes 2 instead, and red takes what it chose:
    // the same actions after a different history are another game for the tree.
    assert!(g.undo() && g.undo() && g.undo());
    for a in [take(2, "blue"), end("blue"), choice] {
        g.perform(&a).unwrap();
    }
    assert!(kept.follow(g.state()).is_none());
    // With reuse off, nothing is kept.
    let mut off = bot("iters=50:reuse=0", 5);
    off.search(g.rules(), g.state(), &blue()).unwrap();
    assert!(off.kept.is_none());
}

/// Blue (guided by `nim`, `model=seen`) against a red who plays as the guide (`red_plays_nim`)
/// or at random, in Nim from 40 stones: what blue's watch counted, what it should have (red's
/// choices among two or more takes before blue's last search), and the share it settled on.
fn watched(red_plays_nim: bool) -> ((u32, u32), u32, f64) {
    let mut g = game(Toy::nim(40), 1);
    let mut b = bot("iters=30:guide=nim:model=seen", 3);
    let mut coin = Stream::new(11);
    let (mut red_choices, mut expected) = (0, 0);
    while g.state().outcome.is_none() {
        let side = g.waiting()[0].clone();
        let legal = g.rules().legal_actions_and_end(g.state(), &side).unwrap();
        let action = if side == blue() {
            if legal.len() >= 2 {
                expected = red_choices;
            }
            b.choose(&g, &side).unwrap().expect("blue has a choice")
        } else {
            if legal.len() >= 2 {
                red_choices += 1;
            }
            let i = if red_plays_nim {
                g.rules()
                    .bot_pick(g.state(), "nim", &side, &legal)
                    .unwrap()
                    .unwrap()
            } else {
                coin.below(legal.len())
            };
            legal[i].clone()
        };
        g.perform(&action).unwrap();
    }
    (b.watch.counts(), expected, b.watch.share())
}

#[test]
fn model_seen_learns_whether_the_opponent_plays_like_the_guide() {
    let ((weighed, agreed), expected, share) = watched(true);
    assert!(expected >= 5, "{expected}");
    assert_eq!((weighed, agreed), (expected, expected));
    // All the guide's: still all the guide's.
    assert!((share - 1.0).abs() < 1e-9, "{share}");
    let ((weighed, agreed), expected, share) = watched(false);
    assert_eq!(weighed, expected);
    assert!(agreed < weighed, "{agreed} of {weighed}");
    // A random red matches the guide about one time in three (three takes): no more than
    // chance, so after a dozen choices the simulations expect the guide's move from it
    // less than half the time (and less as they go on).
    assert!(share < 0.5, "{share}");
    // Before anything is seen: the guide's, as without a model.
    assert!((Watch::default().share() - 1.0).abs() < 1e-9);
}

#[test]
fn a_random_opponent_model_keeps_the_other_sides_moves_out_of_the_tree() {
    // In the tree, another side's move is the one UCB1 finds best for it (the guide's first):
    // the search assumes a strong reply. With `model=0` it is a random move, played as in a
    // playout, and the tree ends there: no node of the tree holds one of red's moves.
    let g = game(Toy::nim(15), 1);
    let red_nodes = |options: &str| {
        let mut b = bot(options, 5);
        b.search(g.rules(), g.state(), &blue()).unwrap();
        b.kept.expect("the tree is kept").tree.moves_of(1)
    };
    assert!(red_nodes("iters=200:guide=nim") > 10);
    assert_eq!(red_nodes("iters=200:guide=nim:model=0"), 0);
    // In between, some.
    let some = red_nodes("iters=200:guide=nim:model=0.5");
    assert!(
        some > 0 && some < red_nodes("iters=200:guide=nim"),
        "{some}"
    );
}

#[test]
fn the_watch_replays_only_a_game_that_went_on_from_what_it_saw() {
    let mut g = game(Toy::nim(15), 1);
    let take = |n: i64, side: &str| Action::new("take", SideId::new(side), json!({ "n": n }));
    let end = |side: &str| Action::end_phase(SideId::new(side));
    let mut w = Watch::default();
    w.observe(g.rules(), g.state(), &blue(), "nim").unwrap();
    // Red takes 2 from 14: the guide's take (leave a multiple of 4).
    for a in [take(1, "blue"), end("blue"), take(2, "red"), end("red")] {
        g.perform(&a).unwrap();
    }
    w.observe(g.rules(), g.state(), &blue(), "nim").unwrap();
    assert_eq!(w.counts(), (1, 1));
    // Undone, and played otherwise: another game, whose moves the watch did not see played
    // from its state; it counts nothing, and goes on from the new state.
    for _ in 0..4 {
        assert!(g.undo());
    }
    for a in [take(2, "blue"), end("blue"), take(3, "red"), end("red")] {
        g.perform(&a).unwrap();
    }
    w.observe(g.rules(), g.state(), &blue(), "nim").unwrap();
    assert_eq!(w.counts(), (1, 1));
    // From the new state (10 left): red takes 1 from 9, the guide's take.
    for a in [take(1, "blue"), end("blue"), take(1, "red"), end("red")] {
        g.perform(&a).unwrap();
    }
    w.observe(g.rules(), g.state(), &blue(), "nim").unwrap();
    assert_eq!(w.counts(), (2, 2));
    // Red takes 2 from 7 where the guide takes 3: seen, not the guide's.
    for a in [take(1, "blue"), end("blue"), take(2, "red"), end("red")] {
        g.perform(&a).unwrap();
    }
    w.observe(g.rules(), g.state(), &blue(), "nim").unwrap();
    assert_eq!(w.counts(), (3, 2));
}

#[test]
fn a_random_opponent_model_never_asks_the_guide_for_the_other_sides_moves() {
    // Blue searches Nim with the perfect player as its guide. By default the guide plays red's
    // playout moves too; with `model=0` red's moves are random everywhere, in the tree and in
    // the playouts, so the guide is never asked for red (and still for blue).
    let asked = |options: &str| {
        let g = game(Toy::nim(15), 1);
        bot(options, 5)
            .search(g.rules(), g.state(), &blue())
            .unwrap();
        (g.rules().asked.get(), g.rules().asked_for_red.get())
    };
    let (all, red) = asked("iters=100:guide=nim");
    assert!(red > 50, "{red} of {all}");
    let (all, red) = asked("iters=100:guide=nim:model=0");
    assert_eq!(red, 0);
    assert!(all > 50, "{all}");
}

/// Blue's root in the parity game after a search with `options`: each choice's samples in
/// order (empty without paired simulations).
fn parity_samples(options: &str) -> Vec<(String, Vec<f64>)> {
    let g = game(Toy::new(Kind::Parity), 1);
    let mut b = bot(options, 9);
    let Started::Job(mut job) = b.start(g.rules(), g.state(), &blue()).unwrap() else {
        panic!("blue has two choices")
    };
    while b.work(g.rules(), &mut job, None).unwrap().is_none() {}
    job.tree.root_samples()
}

#[test]
fn paired_simulations_roll_the_same_dice_for_every_choice() {
    // Parity: the die is rolled as blue names even or odd, so on the same die one of the two
    // wins at once (the other misses and the game goes on). Paired, the k-th samples of `even`
    // and `odd` are never both short of a win; on dice of their own, a quarter of the pairs
    // would be.
    let roots = parity_samples("iters=200:paired=1");
    let [(_, even), (_, odd)] = roots.as_slice() else {
        panic!("two choices: {roots:?}")
    };
    let shared = even.len().min(odd.len());
    assert!(shared >= 50, "{} and {}", even.len(), odd.len());
    for k in 0..shared {
        assert!(
            even[k].max(odd[k]) > 1.0 - 1e-9,
            "sample {k}: {} {}",
            even[k],
            odd[k]
        );
    }
    // Both choices still win about half their samples: the pairing shares the luck, it does
    // not pick it.
    let wins = even.iter().filter(|&&v| v > 0.5).count();
    assert!(wins * 4 > even.len() && wins * 4 < even.len() * 3, "{wins}");
    // Unpaired, no samples are kept and the choices roll dice of their own.
    assert!(
        parity_samples("iters=200")
            .iter()
            .all(|(_, s)| s.is_empty())
    );
}

#[test]
fn paired_search_is_deterministic_and_keeps_the_guide_on_a_fair_coin() {
    // The lazy guide names the race's `stay`; paired, the search still finds `inc` better.
    let g = game(Toy::scored_race(), 1);
    for seed in 1..=4 {
        let run = || {
            bot("iters=100:horizon=6:guide=lazy:paired=1", seed)
                .search(g.rules(), g.state(), &blue())
                .unwrap()
        };
        let s = run();
        assert_eq!(s.choice.as_ref().unwrap().id, "inc", "seed {seed}");
        assert_eq!((s.choice, s.stats), {
            let again = run();
            (again.choice, again.stats)
        });
    }
}

#[test]
fn a_paired_simulation_seeds_each_phases_dice_from_the_clock() {
    // Blue names a parity (a roll), ends its phase, red names one (a roll). In one copy blue's
    // phase rolls a die more (as another root choice might): red's roll is the same number in
    // both when the simulation is paired, and falls out of step when it is not.
    let g = game(Toy::new(Kind::Parity), 1);
    let even = Action::new("even", blue(), Value::Null);
    let end = Action::end_phase(blue());
    let odd = Action::new("odd", SideId::new("red"), Value::Null);
    let d6: hexforge_core::dice::DiceExpr = "d6".parse().unwrap();
    let mut compared = 0;
    for seed in 0..40 {
        let play = |paired: bool, extra: bool| {
            let mut stream = sim::Stream::new(5);
            let mut sims = sims(g.rules(), &mut stream);
            sims.luck = paired.then_some((seed, None));
            let mut state = g.state().clone();
            state.dice = crate::dice::DiceRoller::new(seed);
            sims.step(&mut state, &even).unwrap();
            if extra {
                state.dice.roll(&d6, "another choice's roll");
            }
            if state.outcome.is_some() {
                return None;
            }
            sims.step(&mut state, &end).unwrap();
            sims.step(&mut state, &odd).unwrap();
            Some((state.dice, state.outcome))
        };
        let (Some(one), Some(two)) = (play(true, false), play(true, true)) else {
            continue;
        };
        compared += 1;
        assert_eq!(one, two, "seed {seed}");
        let (Some(one), Some(two)) = (play(false, false), play(false, true)) else {
            continue;
        };
        assert_ne!(one.0, two.0, "seed {seed}");
    }
    assert!(compared >= 10, "{compared}");
}

#[test]
fn an_own_tree_holds_only_the_searching_sides_moves_and_is_kept_across_replies() {
    // `own=1`: red's moves are played as the guide (or at random) in the tree too, so no node
    // holds one, and the search still takes 3 of 15 (leave a multiple of 4) against it.
    let g = game(Toy::nim(15), 1);
    let mut b = bot("iters=300:guide=nim:own=1", 5);
    let s = b.search(g.rules(), g.state(), &blue()).unwrap();
    assert_eq!(s.choice.unwrap().params["n"], 3);
    let kept = b.kept.clone().expect("the tree is kept");
    assert_eq!(kept.tree.moves_of(1), 0);
    assert!(kept.tree.moves_of(0) > 10);
    // Blue's next decision starts from the node of its own moves, past red's reply, which the
    // tree never held.
    let reused = blue_root_visits("iters=100:guide=nim:own=1", 3);
    assert_eq!(reused[0], 100);
    assert!(reused[1..].iter().any(|&v| v > 100), "{reused:?}");
}
