//! One file per subcommand. Each `run` returns the process exit code; errors bubble up as
//! `anyhow` errors and are printed once by [`crate::run`].

pub mod check;
pub mod eval;
pub mod play;
pub mod replay;
pub mod test;
pub mod watch;
