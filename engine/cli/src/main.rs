//! The `hexforge` binary; see the library crate for the commands.

fn main() -> std::process::ExitCode {
    hexforge::run_from(std::env::args_os())
}
