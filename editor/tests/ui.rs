//! Headless UI tests with egui_kittest: the app starts, every board kind renders and reports the
//! hovered hex, clicking a problem opens its file at its line, and find-next finds text.

use egui::{Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hexforge_core::hex::layout::Orientation;
use hexforge_editor::app::{EditorApp, Persisted};
use hexforge_editor::command::{Command, Tab};
use hexforge_editor::demo::DemoKind;
use hexforge_editor::panels::problems::Problem;
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
        "id = \"demo\"\nname = \"Demo\"\nversion = \"0.3.0\"\n",
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
