//! The small Rust games the search bot is tested against: a coin flip on the next die, Nim,
//! a race of points (scored by a heuristic or not, two or two hundred choices a move), with
//! two bots to guide the search (`nim`, perfect; `lazy`, always the first choice).

use super::super::*;
use crate::turn::{Actor, HookEvent, PhaseSpec, TurnStructure};
use crate::{DiceSource, Illegal, Outcome, Value};
use serde_json::json;
use std::cell::{Cell, RefCell};

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Kind {
    /// `even` or `odd`: a d6 is rolled, and the side that named its parity wins.
    Parity,
    /// Take 1-3 stones from `stones`; whoever takes the last wins.
    Nim,
    /// `inc` adds a point, `stay` does nothing; the most points after 500 rounds wins.
    Race,
    /// The race with 200 choices of one kind (`pick` 0..200, one group): only `pick 137`
    /// scores.
    WideRace,
}

/// Every game: blue and red take turns of one phase; a side makes one move a turn, then may
/// only end the phase.
pub(super) struct Toy {
    pub(super) kind: Kind,
    pub(super) turns: TurnStructure,
    pub(super) stones: i64,
    /// Whether `end_phase` is allowed before the side's move too.
    pub(super) free_end: bool,
    /// What `evaluate` answers: `None` (no heuristic), the race's share of points, or a
    /// constant (an out-of-range answer).
    pub(super) heuristic: Option<Option<f64>>,
    pub(super) evaluated: Cell<u64>,
    /// Where the game's clock stood (round, segment, step) at each call of `evaluate`.
    pub(super) evaluated_at: RefCell<Vec<(u32, u32, u32)>>,
    /// How often a bot of the rules was asked (`bot_pick`), and how often for red.
    pub(super) asked: Cell<u64>,
    pub(super) asked_for_red: Cell<u64>,
}

impl Toy {
    pub(super) fn new(kind: Kind) -> Self {
        let mut turns = TurnStructure::fixed(
            &["blue", "red"],
            vec![PhaseSpec::turn("play", Actor::Active)],
        );
        let race = matches!(kind, Kind::Race | Kind::WideRace);
        turns.turn_limit = Some(if race { 500 } else { 30 });
        Toy {
            kind,
            turns,
            stones: 5,
            free_end: false,
            heuristic: None,
            evaluated: Cell::new(0),
            evaluated_at: RefCell::new(Vec::new()),
            asked: Cell::new(0),
            asked_for_red: Cell::new(0),
        }
    }

    /// The race, scored by its share of points (`evaluate`).
    pub(super) fn scored_race() -> Self {
        Toy {
            heuristic: Some(None),
            ..Toy::new(Kind::Race)
        }
    }

    /// Nim from `stones` stones.
    pub(super) fn nim(stones: i64) -> Self {
        Toy {
            stones,
            ..Toy::new(Kind::Nim)
        }
    }

    pub(super) fn global(state: &GameState, key: &str) -> i64 {
        state.globals.get(key).and_then(Value::as_i64).unwrap_or(0)
    }

    pub(super) fn set(state: &mut GameState, key: &str, v: i64) {
        std::sync::Arc::make_mut(&mut state.globals).insert(key.to_owned(), json!(v));
    }
}

impl Rules for Toy {
    fn turn_structure(&self) -> &TurnStructure {
        &self.turns
    }
    fn setup(&self, state: &mut GameState) -> Result<(), RulesError> {
        state
            .sides_mut()
            .push(crate::SideState::new("blue", "Blue"));
        state.sides_mut().push(crate::SideState::new("red", "Red"));
        Toy::set(state, "stones", self.stones);
        Ok(())
    }
    fn legal_actions(&self, state: &GameState, side: &SideId) -> Result<Vec<Action>, RulesError> {
        if Toy::global(state, "moved") == 1 {
            return Ok(Vec::new());
        }
        let a = |id: &str, params| Action::new(id, side.clone(), params);
        Ok(match self.kind {
            Kind::Parity => vec![a("even", Value::Null), a("odd", Value::Null)],
            Kind::Nim => (1..=Toy::global(state, "stones").min(3))
                .map(|n| a("take", json!({ "n": n })))
                .collect(),
            Kind::Race => vec![a("stay", Value::Null), a("inc", Value::Null)],
            Kind::WideRace => (0..200).map(|n| a("pick", json!({ "n": n }))).collect(),
        })
    }
    fn check(&self, state: &GameState, action: &Action) -> Result<Result<(), Illegal>, RulesError> {
        let moved = Toy::global(state, "moved") == 1;
        Ok(match (action.is_end_phase(), moved) {
            (true, false) if !self.free_end => Err(Illegal::new("move first")),
            (false, true) => Err(Illegal::new("one move a turn")),
            _ => Ok(()),
        })
    }
    fn apply(
        &self,
        state: &mut GameState,
        action: &Action,
    ) -> Result<Result<(), Illegal>, RulesError> {
        if action.is_end_phase() {
            return Ok(Ok(()));
        }
        Toy::set(state, "moved", 1);
        let won = match action.id.as_str() {
            "even" | "odd" => {
                state.dice.roll_die(6, "parity").is_multiple_of(2) == (action.id == "even")
            }
            "take" => {
                let left = Toy::global(state, "stones") - action.params["n"].as_i64().unwrap_or(1);
                Toy::set(state, "stones", left);
                left <= 0
            }
            "inc" | "pick" if action.id == "inc" || action.params["n"] == json!(137) => {
                let key = format!("points_{}", action.side);
                Toy::set(state, &key, Toy::global(state, &key) + 1);
                false
            }
            _ => false,
        };
        if won {
            state.outcome = Some(Outcome {
                winners: vec![action.side.clone()],
                reason: "won".into(),
            });
        }
        Ok(Ok(()))
    }
    fn hook(&self, state: &mut GameState, event: &HookEvent) -> Result<(), RulesError> {
        match event {
            HookEvent::TurnStart { .. } => Toy::set(state, "moved", 0),
            HookEvent::TurnLimit if matches!(self.kind, Kind::Race | Kind::WideRace) => {
                let (b, r) = (
                    Toy::global(state, "points_blue"),
                    Toy::global(state, "points_red"),
                );
                state.outcome = Some(match b.cmp(&r) {
                    std::cmp::Ordering::Greater => Outcome {
                        winners: vec!["blue".into()],
                        reason: "points".into(),
                    },
                    std::cmp::Ordering::Less => Outcome {
                        winners: vec!["red".into()],
                        reason: "points".into(),
                    },
                    std::cmp::Ordering::Equal => Outcome::draw("points"),
                });
            }
            _ => {}
        }
        Ok(())
    }
    fn outcome(&self, state: &GameState) -> Result<Option<Outcome>, RulesError> {
        Ok(state.outcome.clone())
    }
    fn evaluate(&self, state: &GameState, side: &SideId) -> Result<Option<f64>, RulesError> {
        self.evaluated.set(self.evaluated.get() + 1);
        let c = &state.clock;
        self.evaluated_at
            .borrow_mut()
            .push((c.round, c.segment, c.step));
        Ok(match self.heuristic {
            None => None,
            Some(Some(constant)) => Some(constant),
            Some(None) => {
                let mine = Toy::global(state, &format!("points_{side}"));
                let all = Toy::global(state, "points_blue") + Toy::global(state, "points_red");
                #[allow(clippy::cast_precision_loss)]
                Some((mine as f64 + 1.0) / (all as f64 + 2.0))
            }
        })
    }
    /// Two bots: `nim` plays Nim perfectly (leave a multiple of 4 when it can), `lazy` always
    /// picks the first choice (the race's `stay`).
    fn bot_pick(
        &self,
        state: &GameState,
        bot: &str,
        side: &SideId,
        legal: &[Action],
    ) -> Result<Option<usize>, RulesError> {
        self.asked.set(self.asked.get() + 1);
        if side.as_str() == "red" {
            self.asked_for_red.set(self.asked_for_red.get() + 1);
        }
        let take = match bot {
            "nim" => Toy::global(state, "stones") % 4,
            "lazy" => 0,
            other => {
                return Err(RulesError::new(format!(
                    "no bot `{other}` (it has nim, lazy)"
                )));
            }
        };
        Ok(legal
            .iter()
            .position(|a| a.params["n"] == json!(take))
            .or(Some(0)))
    }
}

pub(super) fn game(rules: Toy, seed: u64) -> Game<Toy> {
    Game::new(rules, GameState::new(vec![], "toy", Value::Null, seed)).expect("starts")
}

pub(super) fn bot(text: &str, seed: u64) -> MctsBot {
    MctsBot::new(text.parse().expect("options"), seed)
}

pub(super) fn blue() -> SideId {
    SideId::new("blue")
}

/// The simulations of a search of `rules` on `stream` with an action horizon of 10, fresh dice,
/// no phase-ending bias and random playouts: the tests set what they measure.
pub(super) fn sims<'a>(rules: &'a Toy, stream: &'a mut sim::Stream) -> sim::Sims<'a, Toy> {
    sim::Sims {
        rules,
        stream,
        horizon: sim::Horizon::Actions(10),
        heuristic: true,
        stats: SearchStats::default(),
        reseed: true,
        end_bias: 0.0,
        greedy: 0.0,
        guide: None,
        model: None,
        luck: None,
        own: None,
    }
}
