//! The `hexforge` binary; see the library crate for the commands.

/// Why mimalloc: a game is millions of small, short-lived allocations (Lua tables and strings,
/// JSON values, state clones); with glibc's allocator they were a sixth of a game's time
/// (`perf stat`, 100 duels: 1.86 s -> 1.48 s).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    hexforge::run_from(std::env::args_os())
}
