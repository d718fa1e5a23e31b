//! Headless UI tests with egui_kittest: the app starts, every board kind renders and reports the
//! hovered hex, clicking a problem opens its file at its line, find-next finds text, and opening
//! a bundled mod shows its started game (a graph map, an offset board with pieces) while a broken
//! mod fills the problems list.

use egui::{Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hexforge_core::board::Shape;
use hexforge_core::hex::Hex;
use hexforge_core::hex::layout::Orientation;
use hexforge_editor::app::{EditorApp, Persisted, RulesStatus};
use hexforge_editor::command::{Command, Tab};
use hexforge_editor::demo::DemoKind;
use hexforge_editor::panels::problems::Problem;
use hexforge_game::Position;
use std::collections::BTreeSet;
use std::path::Path;

/// One test helper per boundary: a harness around the whole app, 1280 x 800.
fn harness(app: EditorApp) -> Harness<'static, EditorApp> {
    Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        // Scrolling to a line animates over a few frames.
        .with_max_steps(32)
        .build_ui_state(|ui, app: &mut EditorApp| app.show(ui), app)
}

/// A mods folder with one mod holding a Lua file.
fn mods_folder() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let m = root.path().join("demo");
    std::fs::create_dir_all(m.join("scenarios")).unwrap();
    std::fs::write(
        m.join("mod.toml"),
        "id = \"demo\"\nname = \"Demo\"\nversion = \"0.3.0\"\nengine = \">=0.1\"\n",
    )
    .unwrap();
    std::fs::write(m.join("scenarios/duel.toml"), "").unwrap();
    let lua: String = (1..=60)
        .map(|i| format!("local v{i} = {i} -- line {i}\n"))
        .collect();
    std::fs::write(m.join("rules.lua"), lua + "return { target = 'needle' }\n").unwrap();
    root
}

fn app_with(mods: &Path) -> EditorApp {
    EditorApp::new(Persisted::default(), mods.to_path_buf())
}

#[test]
fn the_app_starts_and_lists_the_mod() {
    let mods = mods_folder();
    let mut h = harness(app_with(mods.path()));
    h.run();
    h.get_by_label("demo 0.3.0");
    h.get_by_label("rules: runtime not available");
    h.get_by_label("Board");
    // Clicking the mod makes it the last mod (persisted).
    h.get_by_label("demo 0.3.0").click();
    h.run();
    assert_eq!(
        h.state().persisted.last_mod.as_deref(),
        Some(mods.path().join("demo").as_path())
    );
}

#[test]
fn every_board_kind_renders_and_reports_the_hovered_hex() {
    let mods = mods_folder();
    let mut h = harness(app_with(mods.path()));
    h.run();
    for orientation in [Orientation::Flat, Orientation::Pointy] {
        for kind in DemoKind::ALL {
            h.get_by_label(kind.label()).click();
            h.run();
            h.state_mut().apply(Command::SetOrientation(orientation));
            assert_eq!(h.state().persisted.demo, kind);
            // Hover the middle of the board view (the centre panel's middle is on every board).
            h.hover_at(Pos2::new(640.0, 380.0));
            h.run();
            let hovered = h.state().hovered;
            if kind == DemoKind::Graph {
                assert_eq!(hovered, None);
            } else {
                let board = h.state().scene.board.shape.clone().unwrap();
                let hex =
                    hovered.unwrap_or_else(|| panic!("{kind:?} {orientation:?}: no hex hovered"));
                assert!(board.contains(hex));
                // The inspector names the hovered hex.
                h.get_by_label(&format!("q {}, r {}", hex.q, hex.r));
            }
        }
    }
}

#[test]
fn clicking_a_problem_opens_the_file_at_the_line() {
    let mods = mods_folder();
    let file = mods.path().join("demo/rules.lua");
    let mut app = app_with(mods.path());
    app.set_problems(vec![
        Problem::new(&file, 42, "attempt to index a nil value (local 'unit')"),
        Problem::new(&file, 7, "unused variable"),
    ]);
    let mut h = harness(app);
    h.run();
    h.get_by_label_contains("rules.lua:42: attempt to index")
        .click();
    h.run();
    let st = h.state();
    assert_eq!(st.persisted.tab, Tab::Code);
    assert_eq!(st.editor.path.as_deref(), Some(file.as_path()));
    assert_eq!(st.editor.cursor_line(), 42);
    // The other problem goes to its own line.
    h.get_by_label_contains("rules.lua:7: unused").click();
    h.run();
    assert_eq!(h.state().editor.cursor_line(), 7);
}

#[test]
fn find_next_in_the_code_editor_finds_text() {
    let mods = mods_folder();
    let file = mods.path().join("demo/rules.lua");
    let mut h = harness(app_with(mods.path()));
    h.state_mut().apply(Command::OpenFile {
        path: file,
        line: None,
    });
    h.run();
    h.state_mut().editor.search = "needle".into();
    h.get_by_label("Find next").click();
    h.run();
    let ed = &h.state().editor;
    assert_eq!(ed.selected_text(), "needle");
    assert_eq!(ed.cursor_line(), 61);
}

#[test]
fn saving_emits_a_saved_command() {
    let mods = mods_folder();
    let file = mods.path().join("demo/rules.lua");
    let mut h = harness(app_with(mods.path()));
    h.state_mut().apply(Command::OpenFile {
        path: file.clone(),
        line: None,
    });
    h.run();
    h.state_mut().editor.text.push_str("-- edited\n");
    h.get_by_label("Save").click();
    h.run();
    assert_eq!(h.state().saved, vec![file.clone()]);
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .ends_with("-- edited\n")
    );
}

/// The repository's bundled mods.
fn bundled_mods() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods")
}

#[test]
fn opening_hyperjump_galaxy_shows_its_star_map() {
    let mut h = harness(app_with(&bundled_mods()));
    h.run();
    h.get_by_label("rules: runtime not available");
    // Every bundled mod loads, and the browser says so for each.
    let app = h.state();
    assert!(app.mods.len() >= 8);
    assert!(
        app.mods.iter().all(|m| m.loads == Some(Ok(()))),
        "{:?}",
        app.mods
            .iter()
            .map(|m| (&m.dir, &m.loads))
            .collect::<Vec<_>>()
    );
    assert_eq!(h.query_all_by_label("loads").count(), app.mods.len());
    // Click the mod in the browser, as a user would.
    h.get_by_label("hyperjump-galaxy 0.1.0").click();
    h.run();
    let app = h.state();
    assert_eq!(app.rules, RulesStatus::Ready, "{:?}", app.problems);
    assert!(app.problems.is_empty());
    let open = app.open.as_ref().unwrap();
    assert_eq!(open.scenario, "frontier");
    let scene = &app.scene;
    assert_eq!(scene.graph.as_deref(), Some("galaxy"));
    assert!(scene.board.shape.is_none());
    let galaxy = &scene.board.graphs["galaxy"];
    for node in [
        "vessa", "korrin", "dathe", "umbral", "ilex", "lumen", "sable", "quill",
    ] {
        assert!(galaxy.nodes.contains_key(node), "{node}");
        assert!(
            galaxy.nodes[node].draw_at.is_some(),
            "{node} has a position"
        );
    }
    assert!(!galaxy.routes.is_empty());
    // The scenario's setup placed fleets on the map.
    assert!(!scene.pieces.is_empty());
    h.get_by_label("rules: loaded");
}

#[test]
fn opening_squadron_command_shows_the_offset_board_and_its_pieces() {
    let mut h = harness(app_with(&bundled_mods()));
    h.state_mut()
        .apply(Command::OpenMod(bundled_mods().join("squadron-command")));
    h.run();
    let app = h.state();
    assert_eq!(app.rules, RulesStatus::Ready, "{:?}", app.problems);
    // The first scenario by file name.
    assert_eq!(app.open.as_ref().unwrap().scenario, "breakthrough");
    let board = app.scene.board.shape.clone().unwrap();
    assert!(matches!(
        board.shape(),
        Shape::OffsetRect {
            width: 13,
            height: 9,
            ..
        }
    ));
    // Terrain from the scenario file: a nebula at col 6, row 4.
    assert_eq!(
        app.scene
            .board
            .terrain
            .get(&Hex::new(4, 4))
            .map(Vec::as_slice),
        Some(&["nebula".to_owned()][..])
    );
    assert!(app.scene.graph.is_none());
    let pieces = &app.scene.pieces;
    assert!(pieces.len() >= 4, "{pieces:?}");
    let owners: BTreeSet<&str> = pieces.iter().map(|p| p.owner.as_str()).collect();
    assert_eq!(owners, BTreeSet::from(["blue", "red"]));
    for p in pieces {
        let Position::Hex(at) = p.pos else {
            panic!("{p:?} is not on a hex")
        };
        assert!(board.contains(at), "{p:?}");
    }
    // Choosing the other scenario in the browser (listed by its name) starts it.
    h.get_by_label("Skirmish").click();
    h.run();
    assert_eq!(h.state().open.as_ref().unwrap().scenario, "skirmish");
    // A demo still shows without the mod.
    h.get_by_label(DemoKind::Sectors.label()).click();
    h.run();
    assert!(h.state().open.is_none());
    assert_eq!(
        h.state().scene,
        hexforge_editor::demo::scene(DemoKind::Sectors)
    );
}

#[test]
fn a_broken_mod_shows_its_problem_at_file_and_line() {
    let root = tempfile::tempdir().unwrap();
    let m = root.path().join("broken");
    std::fs::create_dir_all(m.join("scenarios")).unwrap();
    std::fs::write(
        m.join("mod.toml"),
        "id = \"broken\"\nname = \"Broken\"\nversion = \"0.1.0\"\nengine = \">=0.1\"\n",
    )
    .unwrap();
    std::fs::write(m.join("scenarios/a.toml"), "name = \"A\"\n").unwrap();
    std::fs::write(m.join("main.lua"), "-- one\n-- two\nlocal x = = 3\n").unwrap();
    let mut h = harness(app_with(root.path()));
    h.run();
    // The mod browser already says it does not load, and why, before it is opened.
    assert!(
        h.query_all_by_label_contains("does not load: ")
            .next()
            .is_some()
    );
    let loads = h.state().mods[0].loads.clone();
    assert!(
        matches!(&loads, Some(Err((_, first))) if first.contains("broken/main.lua:3")),
        "{loads:?}"
    );
    h.get_by_label("broken 0.1.0").click();
    h.run();
    let app = h.state();
    assert!(matches!(app.rules, RulesStatus::Failed(n) if n >= 1));
    let p = &app.problems[0];
    assert_eq!(p.file, m.join("main.lua"));
    assert_eq!(p.line, 3);
    let text = p.to_string();
    assert!(text.contains("broken/main.lua:3: "), "{text}");
    assert!(app.open.is_none());
    h.get_by_label(&app.rules.light().1);
    // The problem is listed; clicking it opens main.lua at line 3.
    h.get_by_label(&text).click();
    h.run();
    assert_eq!(h.state().persisted.tab, Tab::Code);
    assert_eq!(h.state().editor.cursor_line(), 3);
}

#[test]
fn declared_footprints_reach_the_scene() {
    let mut app = app_with(&bundled_mods());
    app.apply(Command::OpenMod(bundled_mods().join("planetoid-colonies")));
    assert_eq!(app.rules, RulesStatus::Ready, "{:?}", app.problems);
    // data.lua: the cruiser covers its anchor and the hex behind it; one-hex types are absent
    // or one offset long.
    assert_eq!(
        app.scene.footprints.get("cruiser"),
        Some(&vec![Hex::new(0, 0), Hex::new(0, 1)])
    );
}
