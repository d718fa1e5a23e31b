//! `hexforge check <mod>`: load a mod and print every problem as `file:line: message`.

use crate::cli::ModArg;
use crate::runtime;
use hexforge_script::paths;
use std::io::Write;
use std::process::ExitCode;

/// Runs `check`: exit 0 when the mod is fine, 1 when it has problems.
///
/// # Errors
/// The mod cannot be found, or the check cannot run.
pub fn run(args: &ModArg, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let dir = paths::resolve(&args.module)?;
    let problems = runtime::check(&dir)?;
    report(&dir.display().to_string(), &problems, out)
}

/// Prints the problems (or "ok") and picks the exit code.
///
/// # Errors
/// Writing the output failed.
pub fn report(name: &str, problems: &[String], out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    if problems.is_empty() {
        writeln!(out, "{name}: ok")?;
        return Ok(ExitCode::SUCCESS);
    }
    for p in problems {
        writeln!(out, "{p}")?;
    }
    let s = if problems.len() == 1 { "" } else { "s" };
    writeln!(out, "{name}: {} problem{s}", problems.len())?;
    Ok(ExitCode::FAILURE)
}
