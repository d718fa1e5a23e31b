//! The bot game loop, statistics, saves and replays, driven by a small Rust rules double (no
//! Lua): a race where each side advances its runner 1 or 2 steps per turn; a 2-step dash fails
//! on a roll of 1 (the rules refuse it after rolling, so the engine discards the attempt).

use hexforge::cli::PlayArgs;
use hexforge::cmd::play::{GameSetup, play_games};
use hexforge::cmd::replay::check_save;
use hexforge_game::bot::RandomBot;
use hexforge_game::play::{
    BotSpec, Bots, PlayError, PlayOptions, Tally, play_bot_game, play_game_with,
};
use hexforge_game::record::{SaveFile, load};
use hexforge_game::turn::{Actor, HookEvent, PhaseSpec, TurnStructure};
use hexforge_game::{
    Action, DiceSource, GameState, Illegal, Outcome, Rules, RulesError, SideId, SideState, Value,
};
use serde_json::json;

const GOAL: i64 = 10;

struct Race {
    turns: TurnStructure,
    /// Refuse `end_phase` forever (a broken mod): games never end.
    stuck: bool,
    /// Fail inside `apply` (a Lua error, say).
    faulty: bool,
    /// Have a bot of its own, `last`, that always takes the last legal action.
    last_bot: bool,
}

impl Race {
    fn new() -> Self {
        let mut turns = TurnStructure::fixed(
            &["blue", "red"],
            vec![PhaseSpec::turn("run", Actor::Active)],
        );
        turns.turn_limit = Some(8);
        Race {
            turns,
            stuck: false,
            faulty: false,
            last_bot: false,
        }
    }
}

fn pos(state: &GameState, side: &str) -> i64 {
    state.globals.get(side).and_then(Value::as_i64).unwrap_or(0)
}

impl Rules for Race {
    fn turn_structure(&self) -> &TurnStructure {
        &self.turns
    }
    fn setup(&self, state: &mut GameState) -> Result<(), RulesError> {
        state.sides_mut().push(SideState::new("blue", "Blue"));
        state.sides_mut().push(SideState::new("red", "Red"));
        Ok(())
    }
    fn legal_actions(&self, state: &GameState, side: &SideId) -> Result<Vec<Action>, RulesError> {
        if state.globals.get("moved") == Some(&json!(true)) {
            return Ok(vec![]);
        }
        Ok((1..=2)
            .map(|n| Action::new("advance", side.clone(), json!({ "steps": n })))
            .collect())
    }
    fn check(&self, state: &GameState, action: &Action) -> Result<Result<(), Illegal>, RulesError> {
        if action.is_end_phase() {
            return Ok(if self.stuck {
                Err(Illegal::new("never"))
            } else {
                Ok(())
            });
        }
        if state.globals.get("moved") == Some(&json!(true)) {
            return Ok(Err(Illegal::new("already ran this turn")));
        }
        Ok(Ok(()))
    }
    fn apply(
        &self,
        state: &mut GameState,
        action: &Action,
    ) -> Result<Result<(), Illegal>, RulesError> {
        if self.faulty {
            return Err(RulesError::new("mods/race/main.lua:3: boom"));
        }
        let steps = action.param("steps").and_then(Value::as_i64).unwrap_or(1);
        if steps == 2 && state.dice.roll_die(6, "dash") == 1 {
            return Ok(Err(Illegal::new("stumbled")));
        }
        let side = action.side.as_str().to_owned();
        let now = pos(state, &side) + steps;
        std::sync::Arc::make_mut(&mut state.globals).insert(side, json!(now));
        std::sync::Arc::make_mut(&mut state.globals).insert("moved".into(), json!(true));
        Ok(Ok(()))
    }
    fn hook(&self, state: &mut GameState, event: &HookEvent) -> Result<(), RulesError> {
        if matches!(event, HookEvent::TurnStart { .. }) {
            std::sync::Arc::make_mut(&mut state.globals).remove("moved");
        }
        Ok(())
    }
    fn bot_pick(
        &self,
        _: &GameState,
        bot: &str,
        _: &SideId,
        legal: &[Action],
    ) -> Result<Option<usize>, RulesError> {
        if !self.last_bot {
            return Ok(None);
        }
        assert_eq!(bot, "last");
        Ok(Some(legal.len() - 1))
    }
    fn outcome(&self, state: &GameState) -> Result<Option<Outcome>, RulesError> {
        let (b, r) = (pos(state, "blue"), pos(state, "red"));
        let win = |s: &str| {
            Some(Outcome {
                winners: vec![SideId::new(s)],
                reason: format!("{b} to {r}"),
            })
        };
        Ok(if b >= GOAL {
            win("blue")
        } else if r >= GOAL {
            win("red")
        } else if state.clock.finished && b > r {
            win("blue")
        } else if state.clock.finished && r > b {
            win("red")
        } else {
            None
        })
    }
}

fn state(seed: u64) -> GameState {
    GameState::new(vec![], "race", Value::Null, seed)
}

fn setup() -> GameSetup {
    GameSetup {
        title: "race".into(),
        mods: vec![],
        scenario: "race".into(),
        options: Value::Null,
    }
}

fn args(seed: u64, games: u64) -> PlayArgs {
    PlayArgs {
        module: "race".into(),
        scenario: None,
        seed,
        bots: BotSpec::default(),
        games,
        shard: None,
        jsonl: None,
        save: None,
        log: false,
        json: false,
        max_steps: 10_000,
        profile: false,
    }
}

#[test]
fn a_bot_game_is_a_pure_function_of_the_seed() {
    let opts = PlayOptions::default();
    let (_, a) = play_bot_game(Race::new(), state(5), &opts).unwrap();
    let (_, b) = play_bot_game(Race::new(), state(5), &opts).unwrap();
    assert_eq!(a, b);
    // Different seeds give different games (some pair among a few seeds must differ).
    let hashes: std::collections::BTreeSet<String> = (0..8)
        .map(|s| {
            play_bot_game(Race::new(), state(s), &opts)
                .unwrap()
                .1
                .state_hash
        })
        .collect();
    assert!(hashes.len() > 1);
}

#[test]
fn the_final_state_hash_is_reported_only_when_asked_for() {
    let (game, with) = play_bot_game(Race::new(), state(4), &PlayOptions::default()).unwrap();
    assert_eq!(with.state_hash, hexforge_game::state_hash(game.state()));
    let quiet = PlayOptions {
        state_hash: false,
        ..PlayOptions::default()
    };
    let (_, without) = play_bot_game(Race::new(), state(4), &quiet).unwrap();
    assert_eq!(without.state_hash, "");
    // Everything else is the same game.
    assert_eq!(
        (without.actions, without.rounds),
        (with.actions, with.rounds)
    );
}

#[test]
fn a_finished_game_reports_its_winner_rounds_and_actions() {
    let (game, report) = play_bot_game(Race::new(), state(3), &PlayOptions::default()).unwrap();
    let outcome = game.state().outcome.clone().unwrap();
    assert_eq!(
        report.winners,
        outcome
            .winners
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    );
    assert_eq!(report.actions, game.record().actions.len());
    assert!(report.rounds >= 1 && report.rounds <= 8, "{report:?}");
    // Each turn is at most one advance and one end_phase.
    assert!(report.actions <= 2 * 2 * 8);
    assert!(report.result_line().contains("wins") || report.result_line().starts_with("draw"));
}

#[test]
fn refused_bot_choices_leave_no_trace() {
    // Over many seeds some dashes stumble; the game still replays to the same state.
    let mut refused = 0;
    for seed in 0..40 {
        let (game, report) =
            play_bot_game(Race::new(), state(seed), &PlayOptions::default()).unwrap();
        refused += report.refused;
        let replayed = hexforge_game::replay(&game.record(), Race::new()).unwrap();
        assert_eq!(
            hexforge_game::state_hash(replayed.state()),
            report.state_hash
        );
    }
    assert!(refused > 0, "the double should make some dashes stumble");
}

#[test]
fn a_game_that_never_ends_is_an_error_not_a_hang() {
    let race = Race {
        stuck: true,
        ..Race::new()
    };
    // The stuck double refuses end_phase, so a waiting side is offered nothing at all.
    let Err(err) = play_bot_game(
        race,
        state(1),
        &PlayOptions {
            max_steps: 50,
            ..PlayOptions::default()
        },
    ) else {
        panic!("a game whose phases never end finished");
    };
    assert!(matches!(err, PlayError::Stuck { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("has no legal action, not even end_phase"),
        "{err}"
    );
}

#[test]
fn a_rules_fault_names_the_action_and_the_lua_line() {
    let race = Race {
        faulty: true,
        ..Race::new()
    };
    // Seed chosen so the bot tries `advance` before `end_phase` at some point: any seed works
    // within a few steps, since ending phases without advancing never ends the game early.
    let Err(err) = play_bot_game(race, state(2), &PlayOptions::default()) else {
        panic!("a faulty rule set finished a game");
    };
    let text = err.to_string();
    assert!(text.contains("`advance`"), "{text}");
    assert!(text.contains("mods/race/main.lua:3: boom"), "{text}");
}

#[test]
fn many_games_print_win_rates_that_add_up() {
    let mut out = Vec::new();
    play_games(Race::new, &setup(), &args(1, 30), Bots::default(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.starts_with("30 games of race (scenario race, seeds 1..=30)"),
        "{text}"
    );
    assert!(text.contains("blue") && text.contains("red") && text.contains("draws"));
    assert!(text.contains("ms per game"));
    // Each side's win rate comes with its 95% Wilson interval.
    assert!(text.contains("(95% Wilson intervals)"), "{text}");

    let mut out = Vec::new();
    let a = PlayArgs {
        json: true,
        ..args(1, 30)
    };
    play_games(Race::new, &setup(), &a, Bots::default(), &mut out).unwrap();
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["games"], 30);
    let wins: u64 = v["wins"]
        .as_object()
        .unwrap()
        .values()
        .map(|w| w.as_u64().unwrap())
        .sum();
    assert_eq!(wins + v["draws"].as_u64().unwrap(), 30);
    let rates: f64 = v["win_rates"]
        .as_object()
        .unwrap()
        .values()
        .map(|r| r.as_f64().unwrap())
        .sum();
    let draws = v["draws"].as_f64().unwrap() / 30.0;
    assert!((rates + draws - 1.0).abs() < 1e-9);
    let blue_wins = usize::try_from(v["wins"]["blue"].as_u64().unwrap()).unwrap();
    let ci = hexforge_game::stats::wilson(blue_wins, 30, hexforge_game::stats::Z95);
    assert_eq!(v["win_intervals"]["blue"]["low"].as_f64(), Some(ci.low));
    assert_eq!(v["win_intervals"]["blue"]["high"].as_f64(), Some(ci.high));
}

#[test]
fn games_sharing_one_rules_value_equal_games_with_their_own() {
    let shared = Race::new();
    let mut a = Vec::new();
    play_games(
        || &shared,
        &setup(),
        &PlayArgs {
            json: true,
            ..args(40, 20)
        },
        Bots::default(),
        &mut a,
    )
    .unwrap();
    let mut b = Vec::new();
    play_games(
        Race::new,
        &setup(),
        &PlayArgs {
            json: true,
            ..args(40, 20)
        },
        Bots::default(),
        &mut b,
    )
    .unwrap();
    let strip = |v: &[u8]| {
        let mut v: Value = serde_json::from_slice(v).unwrap();
        v["ms_per_game"] = Value::Null; // wall time differs
        v
    };
    assert_eq!(strip(&a), strip(&b));
}

#[test]
fn tally_counts_every_side_even_without_wins() {
    let mut t = Tally::default();
    t.include_sides(["blue", "red"]);
    let s = t.summary();
    assert_eq!(s.wins.len(), 2);
    assert_eq!(s.games, 0);
    assert!(s.avg_actions.abs() < f64::EPSILON);
}

#[test]
fn saved_games_replay_to_the_saved_hash_and_tampering_is_caught() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("race.hexsave");
    let a = PlayArgs {
        save: Some(path.clone()),
        ..args(11, 1)
    };
    let mut out = Vec::new();
    play_games(Race::new, &setup(), &a, Bots::default(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("saved to"), "{text}");

    let file = load(&path).unwrap();
    let mut out = Vec::new();
    assert!(check_save(&file, Race::new(), &mut out).unwrap());
    let printed = String::from_utf8(out).unwrap();
    assert!(printed.starts_with(&file.state_hash), "{printed}");

    let tampered = SaveFile {
        state_hash: "0".repeat(64),
        ..file
    };
    let mut out = Vec::new();
    assert!(!check_save(&tampered, Race::new(), &mut out).unwrap());
    assert!(String::from_utf8(out).unwrap().contains("DIFFERENT"));
}

#[test]
fn save_with_several_games_is_refused() {
    let a = PlayArgs {
        save: Some("x.hexsave".into()),
        ..args(1, 3)
    };
    let err = play_games(Race::new, &setup(), &a, Bots::default(), &mut Vec::new()).unwrap_err();
    assert!(err.to_string().contains("--save writes one game"));
}

#[test]
fn two_hundred_bot_games_replay_to_equal_hashes() {
    for seed in 1000..1200 {
        let (game, report) =
            play_bot_game(Race::new(), state(seed), &PlayOptions::default()).unwrap();
        let file = SaveFile::of(&game);
        let again = hexforge_game::record::resume(&file, Race::new()).unwrap();
        assert_eq!(hexforge_game::state_hash(again.state()), report.state_hash);
    }
}

#[test]
fn bot_picks_are_uniform_and_in_range() {
    let mut bot = RandomBot::for_game(99);
    let mut counts = [0u32; 3];
    for _ in 0..3000 {
        counts[bot.pick(3).unwrap()] += 1;
    }
    // Each face expects 1000; 5 standard deviations is about 130.
    assert!(
        counts.iter().all(|&c| (870..=1130).contains(&c)),
        "{counts:?}"
    );
    // More choices than a die has sides still land in range and reach the top block.
    let n = 25_001;
    let picks: Vec<usize> = (0..400).map(|_| bot.pick(n).unwrap()).collect();
    assert!(picks.iter().all(|&p| p < n));
    assert!(picks.iter().any(|&p| p >= 20_000));
}

#[test]
fn the_log_shows_each_action_with_its_dice() {
    let a = PlayArgs {
        log: true,
        ..args(21, 1)
    };
    let mut out = Vec::new();
    play_games(Race::new, &setup(), &a, Bots::default(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("#0 start\n#1 blue "), "{text}");
    assert!(text.contains("end_phase"), "{text}");
    // Every accepted dash rolled the die, and the roll is shown under its action.
    if text.contains("\"steps\":2") {
        assert!(text.contains("roll dash d6 = "), "{text}");
    }
    assert!(
        text.contains("rounds "),
        "the summary follows the log: {text}"
    );
}

#[test]
fn bot_specs_parse_per_side_and_reject_nonsense() {
    let spec: BotSpec = "blue=greedy, red=random".parse().unwrap();
    assert_eq!(spec.for_side("blue"), "greedy");
    assert_eq!(spec.for_side("red"), "random");
    assert_eq!(spec.for_side("green"), "random");
    let spec: BotSpec = "greedy".parse().unwrap();
    assert_eq!(spec.for_side("anyone"), "greedy");
    assert!(!spec.all_random());
    assert!(BotSpec::default().all_random());
    let err = "blue=".parse::<BotSpec>().unwrap_err();
    assert!(err.contains("blue=greedy,red=random"), "{err}");
    assert!("a b".parse::<BotSpec>().is_err());
}

#[test]
fn search_bot_specs_keep_their_options_and_bad_options_are_named() {
    let spec: BotSpec = "blue=mcts:ms=200, red=greedy".parse().unwrap();
    assert_eq!(spec.for_side("blue"), "mcts:ms=200");
    assert_eq!(spec.for_side("red"), "greedy");
    assert_eq!(
        spec.to_string(),
        "bots blue=mcts:ms=200, red=greedy (others random)"
    );
    let spec: BotSpec = "mcts:iters=300:horizon=20".parse().unwrap();
    assert_eq!(spec.for_side("anyone"), "mcts:iters=300:horizon=20");
    let options = hexforge_game::play::search_options(spec.for_side("x"))
        .unwrap()
        .unwrap();
    assert_eq!(options.budget.iterations, Some(300));
    assert_eq!(options.horizon, 20);
    // mcts is built in: no mod bot needed; others must exist.
    assert_eq!(spec.check(&[]), Ok(()));
    let spec: BotSpec = "blue=mcts,red=greedy".parse().unwrap();
    let err = spec.check(&[]).unwrap_err();
    assert_eq!(err, "no bot named `greedy` (this mod has: random, mcts)");
    assert_eq!(spec.check(&["greedy".to_owned()]), Ok(()));
    // A guide must be one of the mod's bots too, checked before any game.
    let spec: BotSpec = "blue=mcts:guide=greedy".parse().unwrap();
    assert_eq!(spec.check(&["greedy".to_owned()]), Ok(()));
    let err = spec.check(&[]).unwrap_err();
    assert!(err.contains("no bot named `greedy` (it has: none"), "{err}");
    for (text, want) in [
        (
            "mcts:ms=fast",
            "`ms=fast` must be a whole number of milliseconds",
        ),
        ("blue=mcts:depth=3", "unknown option `depth`"),
        ("mcts:iters=0", "at least 1"),
        ("greedy:ms=5", "only the search bot takes options"),
        ("blue=mcts:", ""),
    ] {
        match text.parse::<BotSpec>() {
            Err(err) => assert!(!want.is_empty() && err.contains(want), "{text}: {err}"),
            Ok(spec) => assert!(want.is_empty(), "{text} parsed as {spec:?}"),
        }
    }
}

#[test]
fn a_search_bot_plays_its_side_and_the_game_replays_the_same() {
    let spec: BotSpec = "red=mcts:iters=20:horizon=8".parse().unwrap();
    let bots = Bots { spec: Some(&spec) };
    let (_, a) = play_game_with(Race::new(), state(4), &PlayOptions::default(), bots).unwrap();
    let (_, b) = play_game_with(Race::new(), state(4), &PlayOptions::default(), bots).unwrap();
    assert_eq!(
        a, b,
        "an iteration budget gives the same game for the same seed"
    );
    let (_, random) = play_bot_game(Race::new(), state(4), &PlayOptions::default()).unwrap();
    assert_ne!(
        a.state_hash, random.state_hash,
        "the search bot changed nothing"
    );
}

#[test]
fn a_named_bot_plays_its_side_and_an_unknown_one_is_an_error() {
    // The rules' bot `last` always takes the last legal action; the game must reflect its
    // choices and stay deterministic.
    let with_bot = || Race {
        last_bot: true,
        ..Race::new()
    };
    let spec: BotSpec = "last".parse().unwrap();
    let bots = Bots { spec: Some(&spec) };
    let (_, a) = play_game_with(with_bot(), state(4), &PlayOptions::default(), bots).unwrap();
    let (_, b) = play_game_with(with_bot(), state(4), &PlayOptions::default(), bots).unwrap();
    assert_eq!(a, b);
    let (_, random) = play_bot_game(Race::new(), state(4), &PlayOptions::default()).unwrap();
    assert_ne!(
        a.state_hash, random.state_hash,
        "the named bot changed nothing"
    );

    // Rules without bots of their own.
    let Err(err) = play_game_with(Race::new(), state(4), &PlayOptions::default(), bots) else {
        panic!("an unknown bot must fail the game");
    };
    assert!(err.to_string().contains("no bot named \"last\""), "{err}");
}

#[test]
fn shards_play_their_seeds_and_write_one_line_per_game() {
    let tmp = tempfile::tempdir().unwrap();
    let mut seeds = Vec::new();
    for k in 1..=3 {
        let path = tmp.path().join(format!("{k}.jsonl"));
        let a = PlayArgs {
            shard: Some(format!("{k}/3").parse().unwrap()),
            jsonl: Some(path.clone()),
            ..args(10, 8)
        };
        let mut out = Vec::new();
        play_games(Race::new, &setup(), &a, Bots::default(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains(&format!("shard {k}/3 of 10..=17")), "{text}");
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            assert_eq!(
                (v["command"].as_str(), v["games"].as_u64()),
                (Some("play"), Some(8))
            );
            seeds.push(v["seed"].as_u64().unwrap());
        }
    }
    // 8 games in 3 shards: 3, 3 and 2, together exactly seeds 10..=17.
    assert_eq!(seeds, (10..18).collect::<Vec<_>>());
}
