//! The editor's panels, one file each. Each draws itself from borrowed state and returns the
//! [`crate::command::Command`]s the user asked for; none changes app state directly.

pub mod balance;
pub mod choice_list;
pub mod code_editor;
pub mod confirm;
pub mod inspector;
pub mod logs;
pub mod mod_browser;
pub mod play;
pub mod problems;
pub mod reload_report;
pub mod tables;
