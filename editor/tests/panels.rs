//! Headless tests of the inspect panels (issue #6), each in a harness showing just that panel,
//! fed with real data: a bundled mod loaded exactly as the editor and CLI do
//! (`load_mods` + `LuaRules::new` + `Game::new`), a few actions played.
//!
//! - inspector: the selected piece's type, owner, position, facing, values (a nested value opens
//!   with a click), its type's stats; a stack lists its pieces to pick one; sides and clock.
//! - logs: the game start and actions in the event log, a rolled turn order in the dice log, the
//!   filter box, and a 10,000-entry log that draws only its newest rows.
//! - tables: hyperjump-galaxy's 2d6 hyperjump table with exact odds whose columns sum to 1,
//!   shift columns, and a click on its `file:line`; squadron-command's named rows.
//! - reload report: a replay under the same rules, and under a copy of the tutorial whose
//!   frigate is slower (a move that was legal is now refused).

use egui::accesskit::Role;
use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hexforge_core::dice::Ratio;
use hexforge_core::hex::Hex;
use hexforge_editor::command::Command;
use hexforge_editor::panels::inspector::{self, InspectorState};
use hexforge_editor::panels::logs::{self, LogTab, LogsPanel};
use hexforge_editor::panels::reload_report;
use hexforge_editor::panels::tables::{self, TablesPanel, table_odds};
use hexforge_game::{Action, Game, GameState, LogEntry, Position};
use hexforge_script::decl::ModDecls;
use hexforge_script::loader::{LoadOptions, load_mods};
use hexforge_script::rules::LuaRules;
use hexforge_script::scenario::scenario_ids;
use hexforge_script::watch::{ReplayReport, replay_report};
use serde_json::json;
use std::path::{Path, PathBuf};

/// The repository root: the folder `mods/` is in, and the base of declaration file names.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the editor crate sits in the repository")
        .to_path_buf()
}

/// Loads `id` from the mods folder `root` as the editor does.
fn load(root: &Path, id: &str) -> LuaRules {
    let scripts = repo().join("scripts");
    let opts = LoadOptions {
        scripts_dir: scripts.is_dir().then_some(scripts),
        ..LoadOptions::default()
    };
    let loaded = load_mods(root, id, &opts).unwrap_or_else(|e| panic!("{id}: {e:?}"));
    LuaRules::new(loaded).unwrap_or_else(|e| panic!("{id}: {e:?}"))
}

/// A bundled mod's first scenario started with seed 1, then `steps` actions played: at each
/// step the first waiting side does its legal action number `step * 7 % n` (deterministic).
/// Returns the rules and the game's record of actions played.
fn play(rules: &LuaRules, steps: usize) -> (GameState, Vec<Action>) {
    let dirs: Vec<PathBuf> = rules.loaded().mods.iter().map(|m| m.dir.clone()).collect();
    let scenario = scenario_ids(&dirs).into_iter().next().expect("a scenario");
    let state = GameState::new(rules.mod_locks(), &scenario, serde_json::Value::Null, 1);
    let mut game = Game::new(rules, state).expect("the scenario starts");
    let mut done = Vec::new();
    for step in 0..steps {
        if game.state().outcome.is_some() {
            break;
        }
        let Some(side) = game.waiting().first().cloned() else {
            break;
        };
        let acts = game.legal_actions(&side).expect("legal actions");
        if acts.is_empty() {
            break;
        }
        let a = acts[step * 7 % acts.len()].clone();
        game.perform(&a).expect("a listed action is accepted");
        done.push(a);
    }
    (game.state().clone(), done)
}

fn bundled(id: &str) -> LuaRules {
    load(&repo().join("mods"), id)
}

// ---------------------------------------------------------------------------------------------
// Inspector
// ---------------------------------------------------------------------------------------------

struct InspectorFixture {
    st: InspectorState,
    state: GameState,
    decls: ModDecls,
    selected: Option<Hex>,
    cmds: Vec<Command>,
}

fn inspector_harness(f: InspectorFixture) -> Harness<'static, InspectorFixture> {
    Harness::builder()
        .with_size(vec2(500.0, 1000.0))
        .with_max_steps(16)
        .build_ui_state(
            |ui, f: &mut InspectorFixture| {
                let base = repo();
                let c = inspector::show_game(ui, &mut f.st, &f.state, &f.decls, f.selected, &base);
                f.cmds.extend(c);
            },
            f,
        )
}

#[test]
fn the_inspector_shows_the_selected_piece_its_values_stats_sides_and_clock() {
    let rules = bundled("tutorial");
    let (mut state, _) = play(&rules, 0);
    let decls = rules.decls().clone();
    let frigate = state
        .pieces
        .values()
        .find(|p| p.kind == "frigate" && p.owner.as_str() == "blue")
        .expect("a blue frigate")
        .clone();
    let at = frigate.pos.hex().expect("on the hex map");
    // A nested value, as a mod may keep (orders with a path).
    std::sync::Arc::make_mut(&mut state.pieces.get_mut(&frigate.id).unwrap().values).insert(
        "orders".into(),
        json!({ "target": 7, "path": [[0, 1], [0, 2]] }),
    );
    let mut h = inspector_harness(InspectorFixture {
        st: InspectorState::default(),
        state,
        decls,
        selected: Some(at),
        cmds: Vec::new(),
    });
    h.run();
    h.get_by_label(&format!("Piece {}", frigate.id));
    h.get_by_label("type frigate");
    h.get_by_label("owner blue");
    h.get_by_label("facing N");
    // Values (per piece) and stats (of the type), from the tutorial's declaration.
    h.get_by_label("damage: 0");
    h.get_by_label("moved: false");
    h.get_by_label("hull: 3");
    h.get_by_label("speed: 2");
    // The clock and the sides.
    h.get_by_label("round 1 of 10");
    h.get_by_label("phase move");
    h.get_by_label("acting blue");
    h.get_by_label_contains("Blue squadron (blue)");
    h.get_by_label_contains("Red squadron (red)");
    // The nested value opens with a click.
    assert!(h.query_by_label("target: 7").is_none());
    h.get_by_label("> orders: {2 keys}").click();
    h.run();
    h.get_by_label("target: 7");
    h.get_by_label("> path: [2 items]").click();
    h.run();
    h.get_by_label("> [1]: [2 items]");
    // The position selects its hex; the type opens its declaration.
    h.get_by_label(&format!("position hex {at}")).click();
    h.run();
    let decl = &h.state().decls.piece_types["frigate"].source;
    let (file, line) = (repo().join(&decl.file), decl.line as usize);
    h.get_by_label(&format!("{}:{}", decl.file, decl.line))
        .click();
    h.run();
    assert_eq!(
        h.state().cmds,
        vec![
            Command::SelectHex(at),
            Command::OpenFile {
                path: file,
                line: Some(line)
            }
        ]
    );
    assert!(line > 0);
}

#[test]
fn a_stack_lists_its_pieces_to_pick_one() {
    let rules = bundled("tutorial");
    let (mut state, _) = play(&rules, 0);
    let first = *state.pieces.keys().next().unwrap();
    let at = state.pieces[&first].pos.hex().unwrap();
    let extra = state.add_piece("scout", "red".into(), Position::Hex(at), None);
    let mut h = inspector_harness(InspectorFixture {
        st: InspectorState::default(),
        state,
        decls: rules.decls().clone(),
        selected: Some(at),
        cmds: Vec::new(),
    });
    h.run();
    h.get_by_label("2 pieces here:");
    h.get_by_label(&format!("Piece {first}"));
    h.get_by_label(&format!("{extra} scout (red)")).click();
    h.run();
    assert_eq!(h.state().st.piece, Some(extra));
    h.get_by_label(&format!("Piece {extra}"));
    h.get_by_label("owner red");
    // An empty hex says so.
    h.state_mut().selected = Some(Hex::new(-40, 40));
    h.run();
    h.get_by_label("no piece in the selected hex");
}

// ---------------------------------------------------------------------------------------------
// Logs
// ---------------------------------------------------------------------------------------------

struct LogsFixture {
    panel: LogsPanel,
    state: GameState,
    cmds: Vec<Command>,
}

fn logs_harness(panel: LogsPanel, state: GameState) -> Harness<'static, LogsFixture> {
    Harness::builder()
        .with_size(vec2(700.0, 400.0))
        .with_max_steps(16)
        .build_ui_state(
            |ui, f: &mut LogsFixture| {
                let c = logs::show(ui, &mut f.panel, &f.state);
                f.cmds.extend(c);
            },
            LogsFixture {
                panel,
                state,
                cmds: Vec::new(),
            },
        )
}

#[test]
fn the_logs_show_actions_messages_and_every_roll_of_a_real_game() {
    // Orbital-skirmish rolls to hit and for damage once ships are in range.
    let rules = bundled("orbital-skirmish");
    let (state, played) = play(&rules, 60);
    assert!(!played.is_empty());
    let rolls: Vec<(u32, hexforge_core::dice::Roll)> = state
        .log
        .iter()
        .flat_map(|e| e.rolls.iter().map(move |r| (e.index, r.clone())))
        .collect();
    assert!(!rolls.is_empty(), "60 actions of a duel fire shots");
    let last = state.log.last().unwrap().clone();
    let mut h = logs_harness(LogsPanel::default(), state);
    h.run();
    // Newest last, followed: the last action is in view.
    let last_action = format!(
        "#{} {}",
        last.index,
        logs::describe_action(last.action.as_ref().unwrap())
    );
    h.get_by_label(&last_action);
    // The filter box, typed into as a person would: the game start.
    type_filter(&mut h, "GAME START");
    h.get_by_label("#0 game start");
    h.get_by_label("Clear").click();
    h.run();
    assert!(h.state().panel.filter.is_empty());
    // The dice log: the newest roll with its label, expression, faces and total.
    h.get_by_label("Dice").click();
    h.run();
    assert_eq!(h.state().panel.tab, LogTab::Dice);
    let (index, roll) = rolls.last().unwrap();
    let text = format!("#{index} {}", logs::format_roll(roll));
    assert!(text.contains(&roll.label) && text.contains(&roll.expr));
    assert!(h.query_all_by_label(&text).count() >= 1, "{text}");
    h.get_by_label(&format!("{} of {} rows", rolls.len(), rolls.len()));
    type_filter(&mut h, "zzz-nothing");
    h.get_by_label(&format!("0 of {} rows", rolls.len()));
    assert!(h.query_by_label(&text).is_none());
}

fn type_filter(h: &mut Harness<'static, LogsFixture>, text: &str) {
    h.get_by_role(Role::TextInput).click();
    h.run();
    h.get_by_role(Role::TextInput).type_text(text);
    h.run();
}

#[test]
fn a_ten_thousand_entry_log_draws_only_its_newest_rows_and_a_hex_row_selects() {
    let mut state = GameState::new(vec![], "big", serde_json::Value::Null, 1);
    state.log = (0..10_000u32)
        .map(|i| LogEntry {
            index: i,
            action: Some(Action::new(
                "move",
                "red",
                json!({ "piece": i, "to": { "q": 1, "r": -1 } }),
            )),
            rolls: vec![],
            events: vec![format!("piece {i} moved")],
        })
        .collect();
    let mut h = logs_harness(LogsPanel::default(), state);
    h.run();
    // Not asserted (the machine is shared); printed for the record.
    let t = std::time::Instant::now();
    for _ in 0..20 {
        h.step();
    }
    eprintln!("a 10,000-entry log: {:?} per frame", t.elapsed() / 20);
    h.get_by_label("20000 of 20000 rows");
    // Auto-scroll: the newest rows are drawn, the oldest are not laid out at all.
    h.get_by_label("    piece 9999 moved");
    assert!(h.query_by_label("    piece 0 moved").is_none());
    let drawn = h.query_all_by_label_contains("moved").count();
    assert!(drawn < 100, "{drawn} rows drawn");
    // Appending one entry keeps following the end, without a rebuild.
    h.state_mut().state.log.push(LogEntry {
        index: 10_000,
        action: None,
        rolls: vec![],
        events: vec!["the end".into()],
    });
    // The scroll area learns the new content height in one frame and scrolls in the next.
    h.run_steps(2);
    h.get_by_label("    the end");
    assert_eq!(h.state().panel.rebuilds(), 0);
    // A row naming a hex selects it.
    h.get_by_label("#9999 red: move piece=9999 to=(1, -1)")
        .click();
    h.run();
    assert_eq!(h.state().cmds, vec![Command::SelectHex(Hex::new(1, -1))]);
}

// ---------------------------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------------------------

struct TablesFixture {
    panel: TablesPanel,
    decls: ModDecls,
    cmds: Vec<Command>,
}

fn tables_harness(decls: ModDecls) -> Harness<'static, TablesFixture> {
    Harness::builder()
        .with_size(vec2(1200.0, 900.0))
        .with_max_steps(16)
        .build_ui_state(
            |ui, f: &mut TablesFixture| {
                let base = repo();
                let c = tables::show(ui, &mut f.panel, &f.decls, &base);
                f.cmds.extend(c);
            },
            TablesFixture {
                panel: TablesPanel::default(),
                decls,
                cmds: Vec::new(),
            },
        )
}

#[test]
fn the_hyperjump_table_has_exact_odds_whose_columns_sum_to_one() {
    let rules = bundled("hyperjump-galaxy");
    let decls = rules.decls().clone();
    let decl = &decls.tables["hyperjump"];
    let table = decl.table.as_ref().unwrap();
    let odds = table_odds(table, &"2d6".parse().unwrap(), tables::SHIFT_COLUMNS).unwrap();
    // 7 printed columns and the shift_roll columns past "5".
    assert_eq!(odds.columns.len(), 7 + tables::SHIFT_COLUMNS as usize);
    let one = Ratio::new(1, 1).unwrap();
    for c in &odds.columns {
        assert_eq!(c.off_table, 0, "{}: 2d6 always lands on a row", c.heading);
        assert_eq!(c.sum(odds.total), Some(one), "{}", c.heading);
    }
    // Column "5", row "5" (drift1): a 2d6 total of 5 is 4 in 36.
    assert_eq!(
        odds.columns[6].rows[3],
        (4, Ratio::new(1, 9).unwrap()),
        "{:?}",
        odds.columns[6]
    );
    // One step past column 5 reads it with the roll +1: row "12+" takes 11 and 12 (3 in 36).
    assert_eq!(odds.columns[7].heading, "5 +1");
    assert_eq!(odds.columns[7].rows[10], (3, Ratio::new(1, 12).unwrap()));

    let mut h = tables_harness(decls.clone());
    h.run();
    h.get_by_label("hyperjump (11 x 7)");
    // The roll was guessed from the rows 2 .. 12+.
    assert_eq!(h.state().panel.exprs["hyperjump"], "2d6");
    h.get_by_label("5 +1");
    assert!(h.query_all_by_label("drift1 11.1%").count() >= 1);
    assert!(h.query_all_by_label("safe 2.8%").count() >= 1);
    assert!(
        h.query_all_by_label("1").count() >= 10,
        "column totals of 1"
    );
    // The declaration opens at its line.
    let src = &decl.source;
    h.get_by_label(&format!("{}:{}", src.file, src.line))
        .click();
    h.run();
    assert_eq!(
        h.state().cmds,
        vec![Command::OpenFile {
            path: repo().join(&src.file),
            line: Some(src.line as usize)
        }]
    );
    // Another roll, typed: the odds follow (a d6 never reaches row 7).
    h.state_mut()
        .panel
        .exprs
        .insert("hyperjump".into(), "1d6".into());
    h.run();
    h.get_by_label("off the table");
}

#[test]
fn a_table_with_named_rows_shows_results_only() {
    let rules = bundled("squadron-command");
    let decls = rules.decls().clone();
    let decl = &decls.tables["battle_dice"];
    let mut h = tables_harness(decls.clone());
    h.run();
    h.get_by_label(&format!(
        "battle_dice ({} x {})",
        decl.rows.len(),
        decl.columns.len()
    ));
    h.get_by_label("rows are names: the table is not rolled, results only");
    assert!(h.query_by_label_contains("%").is_none());
}

// ---------------------------------------------------------------------------------------------
// Reload report
// ---------------------------------------------------------------------------------------------

fn report_harness(report: Option<ReplayReport>) -> Harness<'static, Option<ReplayReport>> {
    Harness::builder()
        .with_size(vec2(800.0, 300.0))
        .build_ui_state(
            |ui, r: &mut Option<ReplayReport>| {
                let _ = reload_report::show(ui, r.as_ref());
            },
            report,
        )
}

/// Copies a folder (small: a mod's text files).
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), dest).unwrap();
        }
    }
}

#[test]
fn the_reload_report_reads_same_result_or_the_first_changed_action() {
    let old = bundled("tutorial");
    // The tutorial with a slower frigate.
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("mods");
    copy_dir(&repo().join("mods/tutorial"), &root.join("tutorial"));
    let main = root.join("tutorial/main.lua");
    let text = std::fs::read_to_string(&main).unwrap();
    let slower = text.replacen("hull = 3, speed = 2", "hull = 3, speed = 1", 1);
    assert_ne!(slower, text);
    std::fs::write(&main, slower).unwrap();
    let new = load(&root, "tutorial");

    // Play a frigate move of two hexes (legal at speed 2, not at speed 1).
    let dirs: Vec<PathBuf> = old.loaded().mods.iter().map(|m| m.dir.clone()).collect();
    let scenario = scenario_ids(&dirs).into_iter().next().unwrap();
    let state = GameState::new(old.mod_locks(), &scenario, serde_json::Value::Null, 1);
    let mut game = Game::new(&old, state).unwrap();
    let side = game.waiting()[0].clone();
    let far = game
        .legal_actions(&side)
        .unwrap()
        .into_iter()
        .find(|a| {
            let p = a.param("piece").and_then(serde_json::Value::as_u64);
            let kind = p.and_then(|p| game.state().pieces.get(&hexforge_game::PieceId(p as u32)));
            let to = a.param("to").and_then(logs::value_hex);
            match (kind, to) {
                (Some(k), Some(to)) => {
                    k.kind == "frigate" && k.pos.hex().is_some_and(|h| h.distance(to) == 2)
                }
                _ => false,
            }
        })
        .expect("a two-hex frigate move");
    game.perform(&far).unwrap();
    let record = game.record();

    let same = replay_report(&old, &old, &record).unwrap();
    let mut h = report_harness(Some(same));
    h.run();
    h.get_by_label("Replayed 1 action under the new rules: same result.");

    let changed = replay_report(&old, &new, &record).unwrap();
    let mut h = report_harness(Some(changed));
    h.run();
    h.get_by_label("Replayed 1 action: action 1 is now refused.");
    h.get_by_label(&format!("{} (#1)", logs::describe_action(&far)));
    h.get_by_label_contains("too far: speed 1");
    h.get_by_label_contains("accepted, state ");

    let mut h = report_harness(None);
    h.run();
    h.get_by_label_contains("Save a file of the running mod");
}
