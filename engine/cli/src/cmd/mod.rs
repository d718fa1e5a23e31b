//! One file per subcommand. Each `run` returns the process exit code; errors bubble up as
//! `anyhow` errors and are printed once by [`crate::run`].

pub mod check;
pub mod compare;
pub mod eval;
pub mod install;
pub mod list;
pub mod new;
pub mod pack;
pub mod play;
pub mod remove;
pub mod replay;
pub mod stats;
pub mod test;
pub mod watch;
