//! A tiny fake game for engine tests: two sides move counters on a radius-3 hexagon; moving
//! onto an enemy counter rolls a d6 and captures it on 3+ (else the mover is repelled). Each
//! counter moves once per turn. A side with no counters loses; after the turn limit the side
//! with more counters wins. `fail_at` injects a rules error at a chosen point of `apply` or a
//! hook, after some changes were already made to the scratch state.

#![allow(dead_code)]

use hexforge_core::hex::{Direction, Hex};
use hexforge_game::turn::{Actor, HookEvent, PhaseSpec, TurnStructure};
use hexforge_game::{
    Action, DiceSource, GameState, Illegal, Outcome, PieceId, Position, Rules, RulesError, SideId,
    SideState,
};
use serde_json::json;

/// Where a fault is injected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fail {
    /// Inside `apply`, after `n` of its steps ran (0..=4).
    Apply(u32),
    /// In the `after_action` hook.
    AfterHook,
    /// In the `turn_start` hook.
    TurnHook,
    /// `apply` changes the state and then says illegal.
    IllegalAfterChange,
}

pub struct Fake {
    pub turns: TurnStructure,
    pub fail_at: Option<Fail>,
    /// How many times `check` was asked.
    pub checks: std::cell::Cell<usize>,
    /// The limits it reports (the engine's defaults unless a test sets them).
    pub limits: hexforge_game::StateLimits,
}

pub const RADIUS: i32 = 3;

impl Fake {
    pub fn new() -> Self {
        let mut turns = TurnStructure::fixed(
            &["blue", "red"],
            vec![PhaseSpec::turn("move", Actor::Active)],
        );
        turns.turn_limit = Some(12);
        Fake {
            turns,
            fail_at: None,
            checks: std::cell::Cell::new(0),
            limits: hexforge_game::StateLimits::default(),
        }
    }

    pub fn failing(fail: Fail) -> Self {
        Fake {
            fail_at: Some(fail),
            ..Fake::new()
        }
    }

    fn fault(&self, f: Fail) -> Result<(), RulesError> {
        if self.fail_at == Some(f) {
            Err(RulesError::new(format!("injected fault at {f:?}")))
        } else {
            Ok(())
        }
    }
}

/// The largest hex coordinate an action may name (like the script API's `COORD_LIMIT`): hex
/// arithmetic on coordinates near `i32::MAX` overflows, and a saved action is untrusted.
pub const COORD_LIMIT: i32 = 1 << 24;

fn parse(action: &Action) -> Option<(PieceId, Hex)> {
    let piece = PieceId(u32::try_from(action.param("piece")?.as_u64()?).ok()?);
    let to: Hex = serde_json::from_value(action.param("to")?.clone()).ok()?;
    if to.q.unsigned_abs() > COORD_LIMIT.unsigned_abs()
        || to.r.unsigned_abs() > COORD_LIMIT.unsigned_abs()
    {
        return None;
    }
    Some((piece, to))
}

fn can_move(state: &GameState, action: &Action) -> Result<(PieceId, Hex), Illegal> {
    if action.id != "move" {
        return Err(Illegal::new(format!("unknown action `{}`", action.id)));
    }
    let (id, to) = parse(action).ok_or_else(|| Illegal::new("move needs `piece` and `to`"))?;
    let p = state
        .pieces
        .get(&id)
        .ok_or_else(|| Illegal::new(format!("no piece {id}")))?;
    if p.owner != action.side {
        return Err(Illegal::new(format!("{id} is not yours")));
    }
    if p.values.get("moved") == Some(&json!(true)) {
        return Err(Illegal::new(format!("{id} has already moved this turn")));
    }
    let from = p.pos.hex().ok_or_else(|| Illegal::new("not on the map"))?;
    if from.distance(to) != 1 {
        return Err(Illegal::new("a counter moves one hex"));
    }
    if to.length() > RADIUS {
        return Err(Illegal::new("off the board"));
    }
    if state
        .pieces_at(to)
        .iter()
        .any(|o| state.pieces[o].owner == action.side)
    {
        return Err(Illegal::new("a friendly counter is there"));
    }
    Ok((id, to))
}

impl Rules for Fake {
    fn turn_structure(&self) -> &TurnStructure {
        &self.turns
    }

    fn state_limits(&self) -> hexforge_game::StateLimits {
        self.limits
    }

    fn setup(&self, state: &mut GameState) -> Result<(), RulesError> {
        state.sides_mut().push(SideState::new("blue", "Blue"));
        state.sides_mut().push(SideState::new("red", "Red"));
        for q in -1..=1 {
            state.add_piece(
                "counter",
                "blue".into(),
                Position::Hex(Hex::new(q, 2 - q.max(0))),
                Some(Direction::N),
            );
            state.add_piece(
                "counter",
                "red".into(),
                Position::Hex(Hex::new(q, -2 - q.min(0))),
                Some(Direction::S),
            );
        }
        state.emit("the counters are placed");
        Ok(())
    }

    fn legal_actions(&self, state: &GameState, side: &SideId) -> Result<Vec<Action>, RulesError> {
        let mut out = Vec::new();
        for p in state.pieces.values().filter(|p| &p.owner == side) {
            let Some(from) = p.pos.hex() else { continue };
            for d in Direction::ALL {
                let a = Action::new(
                    "move",
                    side.clone(),
                    json!({ "piece": p.id.0, "to": from.neighbor(d) }),
                );
                if can_move(state, &a).is_ok() {
                    out.push(a);
                }
            }
        }
        Ok(out)
    }

    fn check(&self, state: &GameState, action: &Action) -> Result<Result<(), Illegal>, RulesError> {
        self.checks.set(self.checks.get() + 1);
        if action.is_end_phase() {
            return Ok(Ok(()));
        }
        Ok(can_move(state, action).map(|_| ()))
    }

    fn apply(
        &self,
        state: &mut GameState,
        action: &Action,
    ) -> Result<Result<(), Illegal>, RulesError> {
        let (id, to) = match can_move(state, action) {
            Ok(x) => x,
            Err(e) => return Ok(Err(e)),
        };
        self.fault(Fail::Apply(0))?;
        std::sync::Arc::make_mut(&mut state.pieces.get_mut(&id).unwrap().values)
            .insert("moved".into(), json!(true));
        self.fault(Fail::Apply(1))?;
        let enemies = state.pieces_at(to);
        if let Some(&enemy) = enemies.first() {
            let roll = state.dice.roll_die(6, "capture");
            self.fault(Fail::Apply(2))?;
            if roll < 3 {
                state.emit(format!(
                    "{id} is repelled at ({}, {}) (rolled {roll})",
                    to.q, to.r
                ));
                return Ok(Ok(()));
            }
            state.remove_piece(enemy);
            state.emit(format!("{id} captures {enemy} (rolled {roll})"));
        }
        self.fault(Fail::Apply(3))?;
        state.pieces.get_mut(&id).unwrap().pos = Position::Hex(to);
        let moves = json!(
            state
                .globals
                .get("moves")
                .and_then(|v| v.as_u64())
                .unwrap_or(0)
                + 1
        );
        *std::sync::Arc::make_mut(&mut state.globals)
            .entry("moves".into())
            .or_insert(json!(0)) = moves;
        self.fault(Fail::Apply(4))?;
        if self.fail_at == Some(Fail::IllegalAfterChange) {
            return Ok(Err(Illegal::new("changed my mind")));
        }
        Ok(Ok(()))
    }

    fn hook(&self, state: &mut GameState, event: &HookEvent) -> Result<(), RulesError> {
        match event {
            HookEvent::TurnStart { taker } => {
                for p in state.pieces.values_mut() {
                    std::sync::Arc::make_mut(&mut p.values).remove("moved");
                }
                if state.clock.round > 1 {
                    self.fault(Fail::TurnHook)?;
                }
                state.emit(format!("{taker} to move"));
            }
            HookEvent::AfterAction { .. } => {
                let round = json!(state.clock.round);
                std::sync::Arc::make_mut(&mut state.globals).insert("last_round".into(), round);
                self.fault(Fail::AfterHook)?;
            }
            _ => {}
        }
        Ok(())
    }

    fn outcome(&self, state: &GameState) -> Result<Option<Outcome>, RulesError> {
        let count = |s: &str| {
            state
                .pieces
                .values()
                .filter(|p| p.owner.as_str() == s)
                .count()
        };
        let (b, r) = (count("blue"), count("red"));
        let win = |s: &str, why: String| {
            Some(Outcome {
                winners: vec![SideId::new(s)],
                reason: why,
            })
        };
        Ok(match (b, r) {
            (0, _) => win("red", "blue has no counters".into()),
            (_, 0) => win("blue", "red has no counters".into()),
            _ if state.clock.finished && b > r => win("blue", format!("{b} counters to {r}")),
            _ if state.clock.finished && r > b => win("red", format!("{r} counters to {b}")),
            _ => None,
        })
    }
}

/// A seeded LCG for bots (Knuth's MMIX constants).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

pub fn new_game(seed: u64, fake: Fake) -> hexforge_game::Game<Fake> {
    let state = GameState::new(vec![], "skirmish", serde_json::Value::Null, seed);
    hexforge_game::Game::new(fake, state).unwrap()
}

/// Plays random legal actions (and sometimes undo/redo) until the game ends or `max` steps.
pub fn bot_game(game: &mut hexforge_game::Game<Fake>, lcg: &mut Lcg, max: usize) {
    for _ in 0..max {
        if game.state().outcome.is_some() {
            break;
        }
        match lcg.below(20) {
            0 => {
                game.undo();
                continue;
            }
            1 => {
                game.redo();
                continue;
            }
            _ => {}
        }
        let side = game.waiting()[0].clone();
        let actions = game.legal_actions(&side).unwrap();
        let a = &actions[lcg.below(actions.len())];
        game.perform(a).unwrap();
    }
}
