//! # hexforge (the command-line tool)
//!
//! `hexforge check | test | play | compare | stats | replay | eval | watch | pack | install |
//! list | remove | new`. The binary is thin: the game rules, saves, the Lua runtime and the
//! balance lab's statistics live in the engine crates; this crate parses arguments ([`cli`])
//! and prints results ([`cmd`], one file per subcommand; [`jsonl`] writes `--jsonl` lines and
//! [`chart`] draws `--chart` SVGs). Mods are found with `hexforge_script::paths` and bot games
//! are played by `hexforge_game::play`, both shared with the editor. All access to the Lua
//! runtime goes through [`runtime`].
//!
//! **Invariants.** No panic on any argument or file a user gives: every failure is a message on
//! stderr and a non-zero exit (1 for failures, 2 for bad arguments). Bot games are a pure
//! function of the mod, scenario and seed (the bot draws from a seeded core `DiceRoller`).
//! `anyhow` is used only in this crate.
//!
//! ```
//! use std::process::ExitCode;
//! // Bad arguments exit with code 2 and a usage message, never a panic.
//! assert_eq!(hexforge::run_from(["hexforge", "play"]), ExitCode::from(2));
//! ```

pub mod chart;
pub mod cli;
pub mod cmd;
pub mod jsonl;
pub mod runtime;

use clap::Parser;
use cli::{Cli, Command};
use std::ffi::OsString;
use std::process::ExitCode;

/// Parses the arguments, runs the command and returns the exit code, printing any error to
/// stderr as `error: ...`.
pub fn run_from<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // `--help` and `--version` are "errors" that print to stdout and exit 0.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    match run(&cli) {
        Ok(code) => code,
        // `hexforge play --log | head`: the reader left; that is not an error worth a message.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Runs a parsed command, writing its normal output to stdout.
///
/// # Errors
/// Whatever the command reports (missing mod, broken save, failed game, ...).
pub fn run(cli: &Cli) -> anyhow::Result<ExitCode> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match &cli.command {
        Command::Check(a) => cmd::check::run(a, &mut out),
        Command::Test(a) => cmd::test::run(a, &mut out),
        Command::Play(a) => {
            let code = cmd::play::run(a, &mut out)?;
            // A save that uses installed mods keeps their versions from being removed.
            if let Some(path) = &a.save
                && let Err(e) = cmd::list::register_save(path)
            {
                eprintln!("warning: the save was not registered: {e:#}");
            }
            Ok(code)
        }
        Command::Compare(a) => cmd::compare::run(a, &mut out),
        Command::Stats { command } => cmd::stats::run(command, &mut out),
        Command::Replay(a) => cmd::replay::run(a, &mut out),
        Command::Eval(a) => cmd::eval::run(a, &mut out),
        Command::Watch(a) => cmd::watch::run(a, &mut out),
        Command::Pack(a) => cmd::pack::run(a, &mut out),
        Command::Install(a) => cmd::install::run(a, &mut out),
        Command::List => cmd::list::run(&mut out),
        Command::Remove(a) => cmd::remove::run(a, &mut out),
        Command::New(a) => cmd::new::run(a, &mut out),
    }
}
