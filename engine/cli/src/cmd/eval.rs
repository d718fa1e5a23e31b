//! `hexforge eval [--mod <mod>] <lua>`: run a snippet and print its result as JSON.

use crate::cli::EvalArgs;
use crate::runtime;
use hexforge_script::paths;
use std::io::Write;
use std::process::ExitCode;

/// Runs `eval`.
///
/// # Errors
/// The mod cannot be found or loaded, or the snippet fails (`file:line: message`).
pub fn run(args: &EvalArgs, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let dir = args.module.as_deref().map(paths::resolve).transpose()?;
    let value = match (&dir, &args.scenario) {
        (Some(dir), Some(scenario)) => runtime::eval_in_game(dir, scenario, args.seed, &args.code)?,
        _ => runtime::eval(dir.as_deref(), &args.code)?,
    };
    writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
    Ok(ExitCode::SUCCESS)
}
