//! `hexforge watch <mod>`: reload the mod on every change and report the result.

use crate::cli::ModArg;
use crate::runtime;
use hexforge_script::paths;
use std::io::Write;
use std::process::ExitCode;

/// Runs `watch` until interrupted.
///
/// # Errors
/// The mod cannot be found or watched.
pub fn run(args: &ModArg, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let dir = paths::resolve(&args.module)?;
    runtime::watch(&dir, out)?;
    Ok(ExitCode::SUCCESS)
}
