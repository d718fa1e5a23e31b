//! `hexforge pack <dir> [-o file]`: check the mod, run its tests, and write one `.hexpack`
//! archive (see `hexforge_pack::archive` for the format).
//!
//! It refuses to pack a mod that has problems or failing tests, so a shared pack has at least
//! passed its own checks. It does not install anything.

use crate::cli::PackArgs;
use crate::runtime;
use anyhow::{Context, bail};
use hexforge_pack::archive::{EXTENSION, Limits, save_pack, write_pack};
use hexforge_script::paths;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Runs `pack`.
///
/// # Errors
/// A missing mod, problems found by `check`, failing tests, or a folder that cannot be packed.
pub fn run(args: &PackArgs, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let dir = paths::resolve(&args.dir)?;
    let problems = runtime::check(&dir)?;
    if !problems.is_empty() {
        for p in &problems {
            writeln!(out, "{p}")?;
        }
        bail!(
            "{}: not packed: {} problem(s) (see `hexforge check`)",
            dir.display(),
            problems.len()
        );
    }
    let results = runtime::run_tests(&dir, "")?;
    let failed: Vec<_> = results.iter().filter(|r| r.failure.is_some()).collect();
    if !failed.is_empty() {
        for r in &failed {
            writeln!(
                out,
                "FAIL {}\n     {}",
                r.name,
                r.failure.as_deref().unwrap_or("")
            )?;
        }
        bail!(
            "{}: not packed: {} of {} tests failed (see `hexforge test`)",
            dir.display(),
            failed.len(),
            results.len()
        );
    }
    writeln!(out, "check ok, {} tests passed", results.len())?;
    let (bytes, index) = write_pack(&dir, &Limits::default())
        .with_context(|| format!("{}: not packed", dir.display()))?;
    let path = args.output.clone().unwrap_or_else(|| {
        PathBuf::from(format!("{}-{}.{EXTENSION}", index.id, index.mod_version))
    });
    save_pack(&path, &bytes)?;
    writeln!(
        out,
        "packed {} {}: {} files, {} bytes -> {}",
        index.id,
        index.mod_version,
        index.files,
        bytes.len(),
        path.display()
    )?;
    writeln!(out, "content hash {}", index.content_hash)?;
    Ok(ExitCode::SUCCESS)
}
