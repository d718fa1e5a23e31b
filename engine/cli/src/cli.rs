//! The command line: every subcommand and argument, with help text and an example each.
//!
//! Parsing only; the commands live in [`crate::cmd`]. Bad arguments are reported by clap with
//! exit code 2.
//!
//! ```
//! use clap::Parser;
//! use hexforge::cli::{Cli, Command};
//! let cli = Cli::try_parse_from(["hexforge", "play", "tutorial", "--seed", "3"]).unwrap();
//! assert!(matches!(cli.command, Command::Play(ref p) if p.seed == 3 && p.games == 1));
//! ```

use clap::{Args, Parser, Subcommand};
use hexforge_game::play::BotSpec;
use hexforge_game::sweep::Shard;
use std::path::PathBuf;

/// Check, test, play, replay and hot-reload Hexforge mods.
#[derive(Debug, Parser)]
#[command(
    name = "hexforge",
    version,
    about,
    after_help = "Examples:\n  hexforge check mods/tutorial\n  hexforge play tutorial --bots random --games 100\n  hexforge replay game.hexsave"
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Load a mod and report every problem as `file:line: message`.
    #[command(after_help = "Example:\n  hexforge check mods/tutorial")]
    Check(ModArg),
    /// Run a mod's Lua tests (its `tests/*.lua` files).
    #[command(
        after_help = "Examples:\n  hexforge test tutorial\n  hexforge test mods/solar-flare --filter torpedo"
    )]
    Test(TestArgs),
    /// Play a mod headless with bots and print the result.
    #[command(
        after_help = "Examples:\n  hexforge play mods/tutorial --bots random\n  hexforge play tutorial --games 200 --seed 1 --json\n  hexforge play tutorial --seed 9 --save game.hexsave\n  hexforge play tutorial --games 1000 --shard 2/4 --jsonl part2.jsonl"
    )]
    Play(PlayArgs),
    /// Play the same seeds under two rule sets (a mod and a variant of it) and report win rates
    /// with 95% intervals, the first mover's advantage, game lengths, how games ended, and
    /// whether the two differ significantly.
    #[command(
        after_help = "Examples:\n  hexforge compare mods/tutorial my-variant --games 200 --bots greedy\n  hexforge compare orbital-skirmish orbital-skirmish-gravity --scenario duel --games 100 --chart duel.svg\n  hexforge compare tutorial my-variant --games 1000 --shard 3/8 --jsonl part3.jsonl"
    )]
    Compare(CompareArgs),
    /// Statistics over the JSON lines of `play --jsonl` and `compare --jsonl` runs.
    #[command(
        after_help = "Example:\n  hexforge stats merge part*.jsonl --chart sweep.svg",
        subcommand_required = true,
        arg_required_else_help = true
    )]
    Stats {
        /// What to do with them.
        #[command(subcommand)]
        command: StatsCommand,
    },
    /// Replay a save file and check that it reaches the saved state.
    #[command(after_help = "Example:\n  hexforge replay game.hexsave")]
    Replay(ReplayArgs),
    /// Run a Lua snippet in a mod's sandbox (or a bare one) and print the result as JSON.
    #[command(
        after_help = "Examples:\n  hexforge eval 'return hex.distance({q=0,r=0}, {q=2,r=1})'\n  hexforge eval --mod tutorial 'return game.piece_types.scout.stats'"
    )]
    Eval(EvalArgs),
    /// Watch a mod's files and reload its rules on every change, keeping the game state.
    #[command(after_help = "Example:\n  hexforge watch mods/tutorial")]
    Watch(ModArg),
    /// Check a mod, run its tests and write it as one `.hexpack` archive to share.
    #[command(
        after_help = "Examples:\n  hexforge pack my-variant\n  hexforge pack examples/packs/orbital-belt-pack -o belt.hexpack"
    )]
    Pack(PackArgs),
    /// Verify a `.hexpack` archive and install it into the user mods folder.
    #[command(after_help = "Example:\n  hexforge install orbital-belt-pack-1.0.0.hexpack")]
    Install(InstallArgs),
    /// List the installed mods, kept older versions and the saved games that use them.
    #[command(after_help = "Example:\n  hexforge list")]
    List,
    /// Remove an installed mod (every version, or one with --version).
    #[command(
        after_help = "Examples:\n  hexforge remove orbital-belt-pack\n  hexforge remove orbital-belt-pack --version 1.0.0 --force"
    )]
    Remove(RemoveArgs),
    /// Start a new mod, or a variant of one, from a template that loads, passes its test and
    /// plays.
    #[command(
        after_help = "Examples:\n  hexforge new my-game\n  hexforge new flare-variant --extends solar-flare"
    )]
    New(NewArgs),
}

/// The `stats` subcommands.
#[derive(Debug, Subcommand)]
pub enum StatsCommand {
    /// Combine the JSON lines of a sharded sweep (from `play` or `compare` with `--jsonl`)
    /// into the report the unsharded run prints: the same numbers, only the time differs.
    #[command(
        after_help = "Examples:\n  hexforge stats merge part1.jsonl part2.jsonl part3.jsonl part4.jsonl\n  hexforge stats merge results/*.jsonl --json\n  cat results/*.jsonl | hexforge stats merge - --chart sweep.svg"
    )]
    Merge(MergeArgs),
}

/// Arguments of `stats merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The JSONL files (`-` reads stdin); lines of one sweep, in any order. Example:
    /// `part1.jsonl part2.jsonl` or `results/*.jsonl`.
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<PathBuf>,
    /// Print a machine-readable JSON report instead of text. Example: `--json`.
    #[arg(long)]
    pub json: bool,
    /// Also draw the report as an SVG chart (win rates with error bars, game lengths).
    /// Example: `--chart sweep.svg`.
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,
}

/// Arguments of `compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Rule set A: a mod folder or id. Example: `mods/tutorial`.
    #[arg(value_name = "MOD")]
    pub module: String,
    /// Rule set B, usually a copy of A with a rule changed (`hexforge new my-variant
    /// --extends tutorial`); it must have the scenario too. Example: `my-variant`.
    #[arg(value_name = "OTHER_MOD")]
    pub other: String,
    /// The scenario both play (default: A's first scenario). Example: `--scenario picket`.
    #[arg(long, value_name = "ID")]
    pub scenario: Option<String>,
    /// The first game's seed; both rule sets play seeds seed, seed+1, ... Example: `--seed 1`.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Games per rule set. Example: `--games 400`.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Who plays, in both rule sets (as `hexforge play --bots`; a bot the mods define must
    /// exist in both). Examples: `--bots greedy`, `--bots blue=mcts:iters=100,red=greedy`.
    #[arg(long, value_name = "BOTS", default_value = "random")]
    pub bots: BotSpec,
    /// Print a machine-readable JSON report instead of text. Example: `--json`.
    #[arg(long)]
    pub json: bool,
    /// Also draw the report as an SVG chart: win rates per side with 95% error bars for both
    /// rule sets side by side, and game lengths as box plots. Example: `--chart variant.svg`.
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,
    /// Play only the K-th of N disjoint seed ranges (K from 1), to spread a sweep over jobs or
    /// machines; merge their `--jsonl` files with `hexforge stats merge`. Example:
    /// `--shard 2/8` or `--shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Write one JSON line per game to FILE (`-`: stdout, and the report goes to stderr).
    /// Example: `--jsonl part2.jsonl`.
    #[arg(long, value_name = "FILE")]
    pub jsonl: Option<PathBuf>,
    /// Give up on a game after this many bot moves (it then counts as an error).
    /// Example: `--max-steps 5000`.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub max_steps: usize,
}

/// Arguments of `pack`.
#[derive(Debug, Args)]
pub struct PackArgs {
    /// The mod folder (or id). Example: `my-variant`.
    #[arg(value_name = "DIR")]
    pub dir: String,
    /// The archive to write (default: `<id>-<version>.hexpack` in the current folder).
    /// Example: `-o dist/my-variant.hexpack`.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Arguments of `install`.
#[derive(Debug, Args)]
pub struct InstallArgs {
    /// The archive. Example: `orbital-belt-pack-1.0.0.hexpack`.
    #[arg(value_name = "ARCHIVE")]
    pub archive: PathBuf,
}

/// Arguments of `remove`.
#[derive(Debug, Args)]
pub struct RemoveArgs {
    /// The mod id. Example: `orbital-belt-pack`.
    #[arg(value_name = "ID")]
    pub id: String,
    /// Only this version (installed or kept). Example: `--version 1.0.0`.
    #[arg(long, value_name = "VERSION")]
    pub version: Option<String>,
    /// Remove it even though saved games or other installed mods need it (they will not load
    /// until it is installed again). Example: `--force`.
    #[arg(long)]
    pub force: bool,
}

/// Arguments of `new`.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// The new mod's id (lowercase letters, digits, '-'). Example: `flare-variant`.
    #[arg(value_name = "ID")]
    pub id: String,
    /// Make a variant of this mod (a folder or an id). Example: `--extends solar-flare`.
    #[arg(long, value_name = "MOD")]
    pub extends: Option<String>,
    /// Create the mod folder inside this folder (default: the current one). Example: `--in work`.
    #[arg(long = "in", value_name = "FOLDER", default_value = ".")]
    pub parent: PathBuf,
}

/// A mod argument.
#[derive(Debug, Args)]
pub struct ModArg {
    /// The mod: a path to its folder, or its id looked up in ./mods and then the user mods
    /// folder ($HEXFORGE_MODS_DIR). Example: `mods/tutorial` or `tutorial`.
    #[arg(value_name = "MOD")]
    pub module: String,
}

/// Arguments of `test`.
#[derive(Debug, Args)]
pub struct TestArgs {
    /// The mod: a path to its folder, or its id looked up in ./mods and then the user mods
    /// folder ($HEXFORGE_MODS_DIR). Example: `mods/tutorial` or `tutorial`.
    #[arg(value_name = "MOD")]
    pub module: String,
    /// Run only the tests whose `file: name` contains TEXT (case-sensitive, as `cargo test`
    /// filters). Example: `--filter "weapons.lua"` or `--filter torpedo`.
    #[arg(long, value_name = "TEXT", default_value = "")]
    pub filter: String,
}

/// Arguments of `play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The mod: a folder path or an id. Example: `mods/tutorial`.
    #[arg(value_name = "MOD")]
    pub module: String,
    /// The scenario id (default: the mod's first scenario). Example: `--scenario skirmish`.
    #[arg(long, value_name = "ID")]
    pub scenario: Option<String>,
    /// The seed of the (first) game; the same seed plays the same game. Example: `--seed 42`.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Who plays: `random` (built in: uniform among the legal actions, seeded from the game seed),
    /// `mcts` (built in: a tree search over the mod's rules, scored by its `game.evaluate`;
    /// budget per decision `mcts:iters=N` simulations, default 200, the same game for the same
    /// seed, or `mcts:ms=N` milliseconds; also `horizon=N` actions per simulation, default 10,
    /// `cycles=N` instead: each simulation scored when the game is back at the decision's
    /// moment N rounds on, `c=X` exploration, `widen=X` widening, `ends=X` the chance a playout move ends the phase,
    /// default 0.3, `prior=X` the weight of a one-action-deep try of every choice first, default
    /// 0 (off), `greedy=X` the chance a playout move is the best of three by the heuristic,
    /// default 0, `guide=NAME` a bot of the mod that plays the simulations and whose choice
    /// the search keeps unless another scores `trust=X` standard errors better, default 1,
    /// `model=X` the chance the simulations play the other sides' moves as the guide, the
    /// rest at random (default: as its own moves), or `model=seen` as often as their moves so
    /// far in the game were the guide's,
    /// `reuse=0` each decision from an empty tree (by default it starts from what the last
    /// decision simulated of it), `paired=1` the k-th simulation of every choice on the same
    /// dice, `own=1` a tree of the side's own moves only, the other sides played as the model
    /// says; options joined by `:`; docs/BOTS.md), a bot the mod defines
    /// (`game.bots.greedy`), or per side.
    /// Examples: `--bots greedy`, `--bots blue=greedy,red=random`,
    /// `--bots blue=mcts:ms=200,red=greedy`, `--bots mcts:iters=300:guide=greedy`,
    /// `--bots blue=mcts:iters=1000:guide=greedy:model=seen,red=random`.
    #[arg(long, value_name = "BOTS", default_value = "random")]
    pub bots: BotSpec,
    /// Play this many games, with seeds seed, seed+1, ..., and print statistics (win rates
    /// with 95% Wilson intervals, the first mover's advantage, lengths, how games ended).
    /// Example: `--games 200`.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Play only the K-th of N disjoint seed ranges of the games (K from 1), to spread a sweep
    /// over jobs or machines; merge their `--jsonl` files with `hexforge stats merge`.
    /// Example: `--shard 2/8` or `--shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT`.
    #[arg(long, value_name = "K/N", conflicts_with = "save")]
    pub shard: Option<Shard>,
    /// Write one JSON line per game to FILE (`-`: stdout, and the report goes to stderr).
    /// Example: `--jsonl part2.jsonl`.
    #[arg(long, value_name = "FILE")]
    pub jsonl: Option<PathBuf>,
    /// Write the (single) game to this save file. Example: `--save game.hexsave`.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Print the (single) game's log: every action with its dice and what the rules reported.
    /// Example: `--log`.
    #[arg(long, conflicts_with = "json")]
    pub log: bool,
    /// Print a machine-readable JSON summary instead of text. Example: `--json`.
    #[arg(long)]
    pub json: bool,
    /// Give up on a game after this many bot moves (it then counts as an error).
    /// Example: `--max-steps 5000`.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub max_steps: usize,
    /// Print which of the mod's Lua functions cost the most (sampled every 1000 Lua
    /// instructions, so the same games give the same profile). Example: `--profile`.
    #[arg(long)]
    pub profile: bool,
}

/// Arguments of `replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The save file. Example: `game.hexsave`.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The mod to replay with (default: the save's first mod, found by id). Example:
    /// `--mod mods/tutorial`.
    #[arg(long = "mod", value_name = "MOD")]
    pub module: Option<String>,
}

/// Arguments of `eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Run in this mod's VM, after its declarations. Example: `--mod tutorial`.
    #[arg(long = "mod", value_name = "MOD")]
    pub module: Option<String>,
    /// Start this scenario of the mod (setup included) and give the snippet a read-only `ctx`
    /// over it. Example: `--mod hyperjump-galaxy --scenario frontier
    /// 'return ctx:graph_route("galaxy", "vessa", "umbral")'`.
    #[arg(long, value_name = "ID", requires = "module")]
    pub scenario: Option<String>,
    /// The seed of that game. Example: `--seed 7`.
    #[arg(long, value_name = "N", default_value_t = 1, requires = "scenario")]
    pub seed: u64,
    /// The Lua chunk; its return value is printed as JSON. Example:
    /// `'return hex.neighbors({q=0,r=0})'`.
    #[arg(value_name = "LUA")]
    pub code: String,
}
