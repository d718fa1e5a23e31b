//! Every game played on the map (#28 item 2 and its proof), driven with clicks where a person
//! clicks: in each of the five games a move by clicking the map (a hex, a facing arrow, a graph
//! node), a shot or battle by clicking its target, the mod's reason for a click it refuses, and
//! the game saved and loaded back. And the parts one at a time: the facing picker, graph nodes,
//! long lists narrowed instead of hundreds of buttons, labels on every game's attacks.

mod common;

use common::{HEX_BOARD_GAMES, click_at, click_hex, find_piece, open_bundled, screen_of};
use egui::Pos2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hexforge_core::hex::Hex;
use hexforge_editor::app::EditorApp;
use hexforge_editor::command::Command;
use hexforge_editor::panels::choice_list::SHORT;
use hexforge_game::{Action, PieceId, Position};

fn log_len(h: &Harness<'_, EditorApp>) -> usize {
    h.state().open.as_ref().unwrap().game.state().log.len()
}

fn last_action(h: &Harness<'_, EditorApp>) -> Action {
    let log = &h.state().open.as_ref().unwrap().game.state().log;
    log.last()
        .and_then(|e| e.action.clone())
        .expect("an action")
}

fn pos_of(h: &Harness<'_, EditorApp>, id: PieceId) -> Position {
    h.state().open.as_ref().unwrap().game.state().pieces[&id]
        .pos
        .clone()
}

/// Where on screen to click for the arrow of `d` on hex `at`: a third of the way towards the
/// neighbour that way.
fn arrow_pos(h: &Harness<'_, EditorApp>, at: Hex, d: hexforge_core::hex::Direction) -> Pos2 {
    let (c, n) = (screen_of(h, at), screen_of(h, at.neighbor(d)));
    c + (n - c) * 0.3
}

fn node_pos(h: &Harness<'_, EditorApp>, node: &str) -> Pos2 {
    h.state()
        .board_nodes
        .as_ref()
        .expect("a graph map is shown")
        .at[node]
}

/// Finishes a click that short-listed several actions: an arrow when the hex grew them, else
/// the first button of the list.
fn finish_pick(h: &mut Harness<'_, EditorApp>) {
    if h.state().pending.is_empty() {
        return;
    }
    if let Some(&(at, d)) = h.state().scene.arrows.first() {
        let pos = arrow_pos(h, at, d);
        return click_at(h, pos);
    }
    // The short list comes first in the play panel (the piece's whole list follows).
    let first = h.state().play.pending[0].0.clone();
    h.get_all_by_label(&first).next().unwrap().click();
    h.run();
}

/// A click on a hex one of the selected piece's choices names (a move, a placement), or on an
/// arrow of its own hex (a step or slide that way), plays it.
fn move_on_a_hex_board(m: &str, h: &mut Harness<'_, EditorApp>) {
    let piece = find_piece(h, 400, |h, _| {
        let c = &h.state().choices;
        !c.by_hex.is_empty() || !c.by_direction.is_empty()
    })
    .unwrap_or_else(|| panic!("{m}: no piece with a hex to go to"));
    h.run();
    let before = log_len(h);
    match h.state().choices.by_hex.keys().last().copied() {
        Some(to) => click_hex(h, to),
        None => {
            let d = *h.state().choices.by_direction.keys().next().unwrap();
            let Position::Hex(at) = pos_of(h, piece) else {
                panic!("{m}: a piece off the map with directions to go")
            };
            assert!(h.state().scene.arrows.contains(&(at, d)), "{m}: no arrow");
            let pos = arrow_pos(h, at, d);
            click_at(h, pos);
        }
    }
    finish_pick(h);
    assert!(log_len(h) > before, "{m}: {}", h.state().status);
    let a = last_action(h);
    assert!(
        a.params.to_string().contains(&piece.0.to_string()),
        "{m}: {a:?}"
    );
}

/// A click on a target of the selected piece (a shot) plays it, or lists its weapons.
fn fire_on_a_hex_board(m: &str, h: &mut Harness<'_, EditorApp>) {
    find_piece(h, 3000, |h, _| !h.state().choices.by_target.is_empty())
        .unwrap_or_else(|| panic!("{m}: no shot in 3000 moves"));
    h.run();
    let target = *h.state().choices.by_target.keys().next().unwrap();
    let Position::Hex(at) = pos_of(h, target) else {
        panic!("{m}: a target off the map")
    };
    let before = log_len(h);
    click_hex(h, at);
    finish_pick(h);
    assert!(log_len(h) > before, "{m}: {}", h.state().status);
    let a = last_action(h);
    assert!(
        a.params.to_string().contains(&target.0.to_string()),
        "{m}: {a:?}"
    );
}

/// Saves the game from the play panel and loads it back: the same log.
fn save_and_load(m: &str, h: &mut Harness<'_, EditorApp>) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(format!("{m}.hexsave"));
    let log = h.state().open.as_ref().unwrap().game.state().log.clone();
    h.state_mut().apply(Command::SaveGame(file.clone()));
    h.state_mut().apply(Command::BotStep);
    h.state_mut().apply(Command::LoadGame(file));
    h.run();
    let status = h.state().status.clone();
    assert!(status.starts_with("loaded "), "{m}: {status}");
    assert_eq!(
        h.state().open.as_ref().unwrap().game.state().log,
        log,
        "{m}"
    );
}

#[test]
fn every_hex_board_game_is_moved_fired_and_kept_by_clicks() {
    for m in HEX_BOARD_GAMES {
        let mut h = open_bundled(m);
        move_on_a_hex_board(m, &mut h);
        fire_on_a_hex_board(m, &mut h);
        save_and_load(m, &mut h);
    }
}

#[test]
fn a_move_that_may_end_facing_several_ways_is_finished_with_an_arrow() {
    let mut h = open_bundled("orbital-skirmish");
    // A piece with a hex that several of its moves end on (each facing another way).
    let piece = find_piece(&mut h, 400, |h, _| {
        h.state().choices.by_hex.values().any(|idx| idx.len() >= 2)
    })
    .expect("a ship that may end a move facing several ways");
    h.run();
    let (&to, idx) = h
        .state()
        .choices
        .by_hex
        .iter()
        .find(|(_, idx)| idx.len() >= 2)
        .unwrap();
    let n = idx.len();
    click_hex(&mut h, to);
    assert_eq!(h.state().pending.len(), n);
    assert_eq!(h.state().status, "pick a facing: click an arrow on the hex");
    let arrows = h.state().scene.arrows.clone();
    assert_eq!(arrows.len(), n, "{arrows:?}");
    assert!(arrows.iter().all(|(at, _)| *at == to));
    // The last arrow: the ship ends there, facing that way.
    let (_, d) = *arrows.last().unwrap();
    let before = log_len(&h);
    let pos = arrow_pos(&h, to, d);
    click_at(&mut h, pos);
    assert_eq!(log_len(&h), before + 1, "{}", h.state().status);
    let p = &h.state().open.as_ref().unwrap().game.state().pieces[&piece];
    assert_eq!((p.pos.clone(), p.facing), (Position::Hex(to), Some(d)));
    assert!(
        h.state().scene.arrows.is_empty(),
        "the picker goes with the pick"
    );
}

/// Hyperjump-galaxy's star map: a ship's impulse destinations are ringed and a click on one
/// flies it there; a click on a node it cannot reach says why; a battle is fought by clicking
/// its node, its dice written under it first; the game is saved and loaded back.
#[test]
fn the_star_map_is_played_by_clicking_its_nodes() {
    let mut h = open_bundled("hyperjump-galaxy");
    let piece = find_piece(&mut h, 400, |h, _| {
        h.state().choices.by_node.values().any(|idx| idx.len() == 1)
    })
    .expect("a ship with an impulse move");
    h.run();
    let (node, _) = h
        .state()
        .choices
        .by_node
        .iter()
        .find(|(_, idx)| idx.len() == 1)
        .map(|(n, i)| (n.clone(), i.clone()))
        .unwrap();
    assert!(h.state().scene.lit_nodes.contains(&node));
    assert!(h.state().scene.selected_node.is_some());

    // A node none of its choices names, where no piece of the mover's stands: the reason.
    let s = h.state().open.as_ref().unwrap();
    let graph = &s.game.state().board.graphs["galaxy"];
    let mover = s.game.state().pieces[&piece].owner.clone();
    let refused = graph
        .nodes
        .keys()
        .find(|n| {
            !h.state().choices.by_node.contains_key(*n)
                && s.game.state().pieces.values().all(|p| {
                    p.owner != mover
                        || !matches!(&p.pos, Position::Node { location, .. } if location == *n)
                })
        })
        .cloned()
        .expect("a node out of reach");
    let pos = node_pos(&h, &refused);
    click_at(&mut h, pos);
    let status = h.state().status.clone();
    assert!(status.starts_with("not allowed: "), "{status}");
    assert_eq!(h.state().selected_piece, Some(piece), "the selection stays");

    let before = log_len(&h);
    let pos = node_pos(&h, &node);
    click_at(&mut h, pos);
    assert_eq!(log_len(&h), before + 1, "{}", h.state().status);
    assert!(
        matches!(pos_of(&h, piece), Position::Node { location, .. } if location == node),
        "{:?}",
        pos_of(&h, piece)
    );

    // A battle: an action naming no piece, at a node; with nothing selected its node is ringed
    // and a click fights it (labelled with both sides' dice first).
    let mut fought = false;
    for _ in 0..3000 {
        h.state_mut().apply(Command::SelectPiece(None));
        let attack = h.state().free.actions.iter().position(|a| a.id == "attack");
        if let Some(i) = attack {
            h.run();
            let label = h.state().free.labels[i].clone().expect("a labelled battle");
            assert!(label.text.contains("dice against"), "{label:?}");
            h.get_by_label(&label.text);
            let at = h.state().free.actions[i].params["location"]
                .as_str()
                .unwrap()
                .to_owned();
            assert!(h.state().scene.lit_nodes.contains(&at));
            // Its dice are written under the node before the roll.
            assert_eq!(h.state().scene.node_notes.get(&at), Some(&label.short));
            let before = log_len(&h);
            let pos = node_pos(&h, &at);
            click_at(&mut h, pos);
            finish_pick(&mut h);
            assert!(log_len(&h) > before, "{}", h.state().status);
            fought = true;
            break;
        }
        if h.state().play.status.outcome.is_some() {
            break;
        }
        h.state_mut().apply(Command::BotStep);
    }
    assert!(fought, "no battle in 3000 moves");
    save_and_load("hyperjump-galaxy", &mut h);
}

/// Solar-flare's setup offers hundreds of anomaly placements: the play panel shows a picker that
/// narrows them (never hundreds of buttons), the map highlights their hexes, and a click on one
/// lists only what may go there.
#[test]
fn a_long_list_is_narrowed_never_hundreds_of_buttons() {
    let mut h = open_bundled("solar-flare");
    for _ in 0..200 {
        if h.state().free.actions.len() > 100 {
            break;
        }
        h.state_mut().apply(Command::BotStep);
    }
    h.state_mut().apply(Command::SelectPiece(None));
    h.run();
    let free = h.state().free.actions.clone();
    assert!(free.len() > 100, "{} free actions", free.len());
    let id = free[0].id.clone();
    let buttons = h.query_all_by_label_contains(&format!("{id} (")).count();
    assert!(
        buttons <= SHORT + 1,
        "{buttons} buttons for {} choices",
        free.len()
    );
    h.get_by_label_contains("choices: narrow them down");
    // Its hexes are lit; a click on one leaves only the placements there.
    let hexes = h.state().free.by_hex.clone();
    assert!(h.state().scene.highlight.len() == hexes.len() && hexes.len() > 20);
    let (&at, idx) = hexes.iter().next().unwrap();
    let before = log_len(&h);
    click_hex(&mut h, at);
    if idx.len() == 1 {
        assert_eq!(log_len(&h), before + 1);
    } else {
        assert_eq!(h.state().pending.len(), idx.len());
        assert!(h.state().play.pending.len() <= SHORT);
    }
}
