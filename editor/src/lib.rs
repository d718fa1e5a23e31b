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
//! scenario and turns the game into a board scene; [`app::EditorApp::apply`] calls it for
//! [`command::Command::OpenMod`], [`command::Command::OpenScenario`] and saves inside the open
//! mod, and fills the problems list and the [`app::RulesStatus`] light. It does not play moves
//! (yet).
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
pub mod board_view;
pub mod command;
pub mod demo;
pub mod highlight;
pub mod panels;
pub mod session;
