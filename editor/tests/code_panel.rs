//! The code panel driven as a person would with egui_kittest (#28 items 6 and 7): unsaved text
//! survives switching files and closing the window asks; the gutter numbers logical lines past
//! a long wrapped line; a problem's marker sits on its line and clicking the problem brings the
//! line into view; completion after `ctx:`; find across the mod; and the watcher reloads a save
//! from another program while the editor sits idle, the mods folder named by a relative path.

use egui::{Pos2, ViewportCommand, ViewportEvent, ViewportId, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hexforge_editor::app::{EditorApp, Persisted, RulesStatus};
use hexforge_editor::command::{Command, Tab};
use hexforge_editor::panels::code_editor::find;
use hexforge_editor::panels::problems::Problem;
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, Instant};

fn harness(app: EditorApp) -> Harness<'static, EditorApp> {
    Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut EditorApp| app.show(ui), app)
}

/// Line 3 is a 6000-character line (it wraps into many screen rows); 60 lines in all; line
/// `i` (i > 3) reads `local v<i> = <i>`.
fn long_line_file() -> String {
    let mut s = format!(
        "-- a file with a long line\nlocal t = {{\n{}\n",
        "1, ".repeat(2000)
    );
    for i in 4..=60 {
        s.push_str(&format!("local v{i} = {i}\n"));
    }
    s
}

/// A mods folder with a mod `demo`: `rules.lua` (the long-line file, `needle` on its last
/// line), `helpers.lua` (`needle` on line 2) and a manifest.
fn mods_folder() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let rules = long_line_file() + "return 'needle'\n";
    for (file, text) in [
        (
            "mod.toml",
            "id = \"demo\"\nname = \"Demo\"\nversion = \"0.3.0\"\n",
        ),
        ("rules.lua", rules.as_str()),
        ("helpers.lua", "local M = {}\nM.name = 'needle'\nreturn M\n"),
    ] {
        let path = root.path().join("demo").join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    root
}

fn open(h: &mut Harness<'static, EditorApp>, path: &Path, line: Option<usize>) {
    h.state_mut().apply(Command::OpenFile {
        path: path.to_path_buf(),
        line,
    });
    h.run();
}

fn app_with(mods: &Path) -> EditorApp {
    EditorApp::new(Persisted::default(), mods.to_path_buf())
}

/// A left click at `pos`.
fn click_at(h: &mut Harness<'static, EditorApp>, pos: Pos2) {
    h.hover_at(pos);
    h.run();
    h.drag_at(pos);
    h.drop_at(pos);
}

/// The screen rect of line `n`'s number in the gutter (its first row).
fn gutter_row(h: &Harness<'static, EditorApp>, n: usize) -> egui::Rect {
    let numbers = &h.state().editor.gutter.numbers;
    numbers
        .iter()
        .find(|(l, _)| *l == n)
        .unwrap_or_else(|| panic!("line {n} in the gutter"))
        .1
}

#[test]
fn switching_files_keeps_an_unsaved_edit() {
    let mods = mods_folder();
    let rules = mods.path().join("demo/rules.lua");
    let helpers = mods.path().join("demo/helpers.lua");
    let mut h = harness(app_with(mods.path()));
    open(&mut h, &helpers, Some(3));
    // Type at the start of line 3, as a person would.
    h.get_by_label(&helpers.display().to_string())
        .type_text("-- typed here\n");
    h.run();
    assert!(h.state().editor.text.contains("-- typed here\nreturn M"));
    // Another file; the first keeps its edit and its tab says it is unsaved.
    open(&mut h, &rules, None);
    assert_eq!(h.state().editor.path.as_deref(), Some(rules.as_path()));
    h.get_by_label("• helpers.lua").click();
    h.run();
    let ed = &h.state().editor;
    assert_eq!(ed.path.as_deref(), Some(helpers.as_path()));
    assert!(ed.text.contains("-- typed here\nreturn M"), "{}", ed.text);
    assert!(ed.is_dirty());
    // Nothing was written behind the user's back.
    assert!(!std::fs::read_to_string(&helpers).unwrap().contains("typed"));
    // Opening another mod loses nothing either: the text is kept by file.
    h.state_mut()
        .apply(Command::OpenMod(mods.path().join("demo")));
    h.run();
    assert!(h.state().editor.is_unsaved(&helpers));
    // Ctrl+S saves it; the dot goes.
    h.state_mut().apply(Command::SelectTab(Tab::Code));
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run();
    assert!(
        std::fs::read_to_string(&helpers)
            .unwrap()
            .contains("-- typed here\nreturn M")
    );
    assert!(!h.state().editor.is_unsaved(&helpers));
    assert!(h.query_by_label("• helpers.lua").is_none());
}

#[test]
fn closing_the_window_with_unsaved_text_asks_first() {
    let mods = mods_folder();
    let helpers = mods.path().join("demo/helpers.lua");
    let mut h = harness(app_with(mods.path()));
    open(&mut h, &helpers, None);
    h.state_mut().editor.text.push_str("-- unsaved\n");
    let close = |h: &mut Harness<'static, EditorApp>| {
        h.input_mut()
            .viewports
            .entry(ViewportId::ROOT)
            .or_default()
            .events
            .push(ViewportEvent::Close);
        h.step();
    };
    let commands = |h: &Harness<'static, EditorApp>| {
        h.output().viewport_output[&ViewportId::ROOT]
            .commands
            .clone()
    };
    close(&mut h);
    assert!(commands(&h).contains(&ViewportCommand::CancelClose));
    h.run();
    h.get_by_label("Close the editor?");
    // Save: the file is written, then the window closes.
    h.get_by_label("Save and close").click();
    h.step();
    assert!(commands(&h).contains(&ViewportCommand::Close));
    assert!(
        std::fs::read_to_string(&helpers)
            .unwrap()
            .ends_with("-- unsaved\n")
    );
    assert!(h.state().saved.contains(&helpers));
    // Nothing unsaved: closing is not refused.
    let mut h = harness(app_with(mods.path()));
    open(&mut h, &helpers, None);
    close(&mut h);
    assert!(!commands(&h).contains(&ViewportCommand::CancelClose));
}

#[test]
fn gutter_numbers_are_logical_lines_past_a_long_wrapped_line() {
    let mods = mods_folder();
    let rules = mods.path().join("demo/rules.lua");
    let mut h = harness(app_with(mods.path()));
    open(&mut h, &rules, Some(35));
    let numbers: Vec<usize> = h
        .state()
        .editor
        .gutter
        .numbers
        .iter()
        .map(|n| n.0)
        .collect();
    let lines = h.state().editor.text.lines().count() + 1; // the empty last line
    assert_eq!(numbers, (1..=lines).collect::<Vec<_>>());
    // Line 3 takes many screen rows: line 4's number is far below line 3's.
    let (r3, r4, r5) = (gutter_row(&h, 3), gutter_row(&h, 4), gutter_row(&h, 5));
    let row = r5.min.y - r4.min.y;
    assert!(
        r4.min.y - r3.min.y > 10.0 * row,
        "line 3 wraps: {r3:?} {r4:?}"
    );
    // Clicking the text beside a number puts the cursor on that line (egui's own hit test).
    for n in [37, 33] {
        let r = gutter_row(&h, n);
        assert!(r.min.y > 60.0 && r.max.y < 640.0, "line {n} in view: {r:?}");
        click_at(&mut h, Pos2::new(r.min.x + 30.0, r.center().y));
        h.run();
        assert_eq!(h.state().editor.cursor_line(), n);
    }
}

#[test]
fn an_error_marker_and_its_message_sit_on_the_problem_line() {
    let mods = mods_folder();
    let rules = mods.path().join("demo/rules.lua");
    let mut app = app_with(mods.path());
    // Named another way than the file is opened: still this file.
    let dotted = mods.path().join("demo/./rules.lua");
    app.set_problems(vec![
        Problem::new(&dotted, 35, "attempt to index a nil value (local 'unit')"),
        Problem::new(mods.path().join("demo/helpers.lua"), 2, "elsewhere"),
    ]);
    let mut h = harness(app);
    open(&mut h, &rules, Some(40));
    let marker = h
        .get_by_label("line 35: attempt to index a nil value (local 'unit')")
        .rect();
    assert!(h.query_by_label_contains("line 2: elsewhere").is_none());
    let markers = h.state().editor.gutter.markers.clone();
    assert_eq!(markers.iter().map(|m| m.0).collect::<Vec<_>>(), [35]);
    let r35 = gutter_row(&h, 35);
    assert!(
        (marker.center().y - r35.center().y).abs() < 2.0,
        "{marker:?} beside {r35:?}"
    );
    // The text beside the marker is line 35's.
    assert_eq!(h.state().editor.cursor_line(), 40);
    click_at(&mut h, Pos2::new(r35.min.x + 30.0, marker.center().y));
    h.run();
    assert_eq!(h.state().editor.cursor_line(), 35);
}

#[test]
fn clicking_a_problem_opens_its_file_with_the_line_in_view() {
    let mods = mods_folder();
    let rules = mods.path().join("demo/rules.lua");
    let mut app = app_with(mods.path());
    app.set_problems(vec![Problem::new(&rules, 50, "unknown stat 'ad5'")]);
    let mut h = harness(app);
    h.run();
    h.get_by_label_contains("rules.lua:50: unknown stat")
        .click();
    h.run();
    let ed = &h.state().editor;
    assert_eq!(h.state().persisted.tab, Tab::Code);
    assert_eq!(ed.path.as_deref(), Some(rules.as_path()));
    assert_eq!(ed.cursor_line(), 50);
    // The line is on screen (in the code view, above the bottom panel), marker and all.
    let marker = h.get_by_label("line 50: unknown stat 'ad5'").rect();
    assert!(
        marker.min.y > 60.0 && marker.max.y < 640.0,
        "line 50 in view: {marker:?}"
    );
}

#[test]
fn completion_after_ctx_offers_a_method_and_tab_inserts_it() {
    let mods = mods_folder();
    let helpers = mods.path().join("demo/helpers.lua");
    let mut h = harness(app_with(mods.path()));
    open(&mut h, &helpers, Some(3));
    let text_area = helpers.display().to_string();
    h.get_by_label(&text_area).type_text("ctx:ro");
    h.run();
    // The ctx's dice methods, from scripts/types/hexforge.d.lua.
    h.get_by_label_contains("roll_detail(");
    h.get_by_label_contains("roll(notation");
    h.key_press(egui::Key::Tab);
    h.run();
    let text = h.state().editor.text.clone();
    assert!(text.contains("ctx:rollreturn M"), "{text}");
    assert!(!text.contains('\t'));
    assert!(
        h.query_by_label_contains("roll_detail(").is_none(),
        "closed"
    );
    // After `game.` the game functions; Esc closes without inserting.
    // (The file's name, which labels the text area, now says it is unsaved.)
    h.get_by_label(&format!("{text_area} *"))
        .type_text("\ngame.pie");
    h.run();
    h.get_by_label_contains("piece_type(t)");
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(h.query_by_label_contains("piece_type(t)").is_none());
    assert!(h.state().editor.text.contains("\ngame.piereturn M"));
}

#[test]
fn find_across_the_mod_lists_hits_in_two_files_and_opens_one() {
    let mods = mods_folder();
    let rules = mods.path().join("demo/rules.lua");
    let helpers = mods.path().join("demo/helpers.lua");
    let mut h = harness(app_with(mods.path()));
    open(&mut h, &rules, None);
    h.get_by_label("Text to find in the mod").click();
    h.run();
    h.get_by_label("Text to find in the mod")
        .type_text("needle");
    h.key_press(egui::Key::Enter);
    h.run();
    h.get_by_label_contains("2 matches of \"needle\" in 2 files");
    h.get_by_label_contains("rules.lua:61: return 'needle'");
    h.get_by_label_contains("helpers.lua:2: M.name = 'needle'")
        .click();
    h.run();
    let ed = &h.state().editor;
    assert_eq!(ed.path.as_deref(), Some(helpers.as_path()));
    assert_eq!(ed.cursor_line(), 2);
    assert_eq!(ed.selected_text(), "needle");
}

/// Copies the bundled mod `id` into the mods folder `root` (its files: the text files
/// find-in-mod searches).
fn copy_bundled(id: &str, root: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../mods")
        .join(id);
    for f in find::files(&from) {
        let dest = root.join(id).join(f.strip_prefix(&from).unwrap());
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(&f, &dest).unwrap();
    }
}

/// `to` relative to the working folder (`..` where needed).
fn relative_to_cwd(to: &Path) -> PathBuf {
    let cwd = std::env::current_dir().unwrap().canonicalize().unwrap();
    let to = to.canonicalize().unwrap();
    let common = cwd
        .ancestors()
        .find(|a| to.starts_with(a))
        .expect("a common ancestor");
    let ups = cwd.strip_prefix(common).unwrap().components().count();
    let mut rel: PathBuf = std::iter::repeat_n(Component::ParentDir, ups).collect();
    rel.push(to.strip_prefix(common).unwrap());
    rel
}

#[test]
fn an_idle_editor_reloads_a_save_from_another_program_with_a_relative_mods_folder() {
    // A copy of the tutorial in a mods folder named relative to the working folder, as
    // `cargo run -p hexforge-editor` names `mods/`.
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    copy_bundled("tutorial", tmp.path());
    let mods = relative_to_cwd(tmp.path());
    assert!(mods.is_relative());
    let mut h = harness(EditorApp::new(Persisted::default(), mods.clone()));
    h.state_mut().apply(Command::OpenMod(mods.join("tutorial")));
    h.run();
    assert_eq!(h.state().rules, RulesStatus::Ready);
    if h.state().watcher.is_none() {
        eprintln!("no file watcher on this machine: skipped");
        return;
    }
    // Another program saves (write to a temporary file, rename over: what most editors do).
    let main = mods.join("tutorial/main.lua");
    let text = std::fs::read_to_string(&main).unwrap() + "\n-- saved elsewhere\n";
    let other = mods.join("tutorial/.main.lua.tmp");
    std::fs::write(&other, text).unwrap();
    std::fs::rename(&other, &main).unwrap();
    // Frames come only when the app asks for one (as eframe draws them), no input at all.
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut last = Instant::now();
    while !matches!(h.state().rules, RulesStatus::Reloaded(_)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
        let delay = h.output().viewport_output[&ViewportId::ROOT].repaint_delay;
        if last.elapsed() >= delay {
            h.step();
            last = Instant::now();
        }
    }
    assert!(
        matches!(h.state().rules, RulesStatus::Reloaded(_)),
        "{:?} (status: {})",
        h.state().rules,
        h.state().status
    );
    assert!(h.state().status.contains("changed"), "{}", h.state().status);
}

#[test]
fn a_data_typo_is_reported_at_its_line_and_goes_when_fixed() {
    // orbital-skirmish with the fighter's `adf` misspelt `ad5` in its ships data.
    let tmp = tempfile::tempdir().unwrap();
    copy_bundled("orbital-skirmish", tmp.path());
    let ships = tmp.path().join("orbital-skirmish/ships.lua");
    let text = std::fs::read_to_string(&ships).unwrap();
    let line = 1 + text
        .lines()
        .position(|l| l.contains("hull = 8, adf = 5"))
        .unwrap();
    std::fs::write(
        &ships,
        text.replacen("hull = 8, adf = 5", "hull = 8, ad5 = 5", 1),
    )
    .unwrap();
    let mut h = harness(EditorApp::new(
        Persisted::default(),
        tmp.path().to_path_buf(),
    ));
    h.state_mut()
        .apply(Command::OpenMod(tmp.path().join("orbital-skirmish")));
    h.run();
    // The mod loads (a hint never stops it); the typo is listed at its own line.
    assert_eq!(
        h.state().rules,
        RulesStatus::Ready,
        "{:?}",
        h.state().problems
    );
    let listed = format!("ships.lua:{line}: possible typo: key 'ad5' is never read");
    h.get_by_label_contains(&listed).click();
    h.run();
    let ed = &h.state().editor;
    assert_eq!(
        ed.path.as_deref().and_then(Path::file_name),
        ships.file_name()
    );
    assert_eq!(ed.cursor_line(), line);
    assert_eq!(
        ed.gutter.markers.iter().map(|m| m.0).collect::<Vec<_>>(),
        [line]
    );
    // Fixed and saved: reloaded, and the hint is gone.
    let fixed = ed.text.replacen("ad5 = 5", "adf = 5", 1);
    h.state_mut().editor.text = fixed;
    h.get_by_label("Save").click();
    h.run();
    assert!(matches!(h.state().rules, RulesStatus::Reloaded(_)));
    assert!(h.query_by_label_contains("possible typo").is_none());
}
