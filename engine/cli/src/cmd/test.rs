//! `hexforge test <mod>`: run the mod's Lua tests and print `N passed, M failed`.

use crate::cli::TestArgs;
use crate::runtime;
use crate::runtime::TestResult;
use hexforge_script::paths;
use std::io::Write;
use std::process::ExitCode;

/// Runs `test`: exit 0 when no test failed, 1 otherwise.
///
/// # Errors
/// The mod cannot be found or does not load.
pub fn run(args: &TestArgs, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let dir = paths::resolve(&args.module)?;
    let results = runtime::run_tests(&dir, &args.filter)?;
    if results.is_empty() && !args.filter.is_empty() {
        writeln!(
            out,
            "no test's `file: name` contains {:?} (run without --filter to see them all)",
            args.filter
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    report(&results, out)
}

/// Prints each failure and the totals, and picks the exit code.
///
/// # Errors
/// Writing the output failed.
pub fn report(results: &[TestResult], out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let mut failed = 0;
    for r in results {
        match &r.failure {
            None => writeln!(out, "ok   {}", r.name)?,
            Some(why) => {
                failed += 1;
                writeln!(out, "FAIL {}\n     {why}", r.name)?;
            }
        }
    }
    let passed = results.len() - failed;
    writeln!(out, "{passed} passed, {failed} failed")?;
    if results.is_empty() {
        writeln!(out, "no tests found (add tests/*.lua to the mod)")?;
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
