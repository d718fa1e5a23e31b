//! # hexforge-editor
//!
//! The Hexforge editor (eframe/egui, glow backend): a mod browser, a board view for every board
//! kind, a Lua code editor, a problems list and an inspector.
//!
//! **The UI is thin.** Panels (one file each under [`panels`], plus [`board_view`]) draw from
//! borrowed state and return [`command::Command`]s; [`app::EditorApp::apply`] is the one place
//! that runs them. The state that persists between runs is one serde struct,
//! [`app::Persisted`]; everything else is rebuilt.
//!
//! **The runtime has one door:** [`session`] loads a mod with `hexforge-script`, starts a
//! scenario and keeps the game running (its Lua VM included, owned by the UI thread);
//! [`app::EditorApp::apply`] sends every play command through it (perform, end phase, undo,
//! redo, new game, bots) and hot-reloads the rules when a file of the open mod changes (the
//! file watcher is polled each frame; the code editor's own saves reload at once). Problems go
//! to the problems list as `file:line: message`, the rules state to the [`app::RulesStatus`]
//! light.
//!
//! ```
//! use hexforge_editor::app::EditorApp;
//! use hexforge_editor::command::Command;
//! use hexforge_editor::demo::DemoKind;
//! let mut app = EditorApp::new(Default::default(), std::env::temp_dir().join("no-mods-here"));
//! app.apply(Command::ShowDemo(DemoKind::Sectors));
//! assert_eq!(app.persisted.demo, DemoKind::Sectors);
//! ```

pub mod app;
pub mod balance;
pub mod board_view;
pub mod colors;
pub mod command;
pub mod counter_view;
pub mod demo;
pub mod facing_picker;
pub mod graph_view;
pub mod highlight;
pub mod panels;
pub mod saves;
pub mod session;
pub mod shortcuts;
pub mod trace_view;
pub mod why_not;
