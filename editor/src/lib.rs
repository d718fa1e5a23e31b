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
//! **What it deliberately does not do (yet):** load or run Lua. The runtime (`hexforge-script`:
//! mod loading, `LuaRules`, hot reload) plugs in at [`app::EditorApp::apply`] (a
//! [`command::Command::Saved`] triggers the reload) and fills the problems list and the
//! [`app::RulesStatus`] light.
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
