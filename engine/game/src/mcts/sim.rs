//! One simulation's moving parts: the bot's own random stream, the copy of the game it plays on
//! (dice re-seeded from that stream), who acts in it, one step, the playout past the tree and
//! the score at its end.
//!
//! Why the dice are re-seeded: the real game's roller is part of its state, so a copy would
//! roll exactly the real game's next rolls, and a search would learn them. Every simulation
//! replaces the copy's roller with a fresh one seeded from [`Stream`], which depends only on the
//! bot's seed and how much it has searched.

use crate::dice::DiceRoller;
use crate::game::step_unlogged;
use crate::{Action, GameState, PerformError, Rules, RulesError, SideId};

/// The bot's own random numbers (splitmix64): which simulation's dice, which new choice to try,
/// which playout move. Never the game's dice.
#[derive(Clone, Debug)]
pub(crate) struct Stream(u64);

impl Stream {
    pub(crate) fn new(seed: u64) -> Self {
        Stream(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in 0..1.
    pub(crate) fn chance(&mut self) -> f64 {
        // 53 random bits: every f64 in 0..1 at that spacing.
        #[allow(clippy::cast_precision_loss)]
        let x = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        x
    }

    /// A uniform index below `n` (`n > 0`; the modulo bias is below 2^-40 for any list a game
    /// lists).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next_u64() % n.max(1) as u64).unwrap_or(0)
    }
}

/// The side that acts next in a simulation and its legal actions: the first waiting side with
/// something to do. `None` when the game is over or nobody can act.
///
/// # Errors
/// A fault in the rules.
pub(crate) fn next_mover<R: Rules + ?Sized>(
    rules: &R,
    state: &GameState,
) -> Result<Option<(SideId, Vec<Action>)>, RulesError> {
    if state.outcome.is_some() {
        return Ok(None);
    }
    for side in state.clock.waiting() {
        if !state.clock.may_act(&side) {
            continue;
        }
        let legal = rules.legal_actions_and_end(state, &side)?;
        if !legal.is_empty() {
            return Ok(Some((side, legal)));
        }
    }
    Ok(None)
}

/// Applies `action` to the simulation. `Ok(false)` when the rules refused it after all (the
/// state is unchanged, as in a real game).
///
/// # Errors
/// A fault in the rules or the turn engine.
fn step<R: Rules + ?Sized>(
    rules: &R,
    state: &mut GameState,
    action: &Action,
) -> Result<bool, RulesError> {
    match step_unlogged(rules, state, action) {
        Ok(()) => Ok(true),
        Err(PerformError::Illegal(_)) => Ok(false),
        Err(PerformError::Rules(e)) => Err(e),
        Err(PerformError::Turn(e)) => Err(RulesError::new(format!("turn engine: {e}"))),
    }
}

/// How many actions a playout without a heuristic may take before it is called a draw (a
/// game the random playout cannot finish).
pub(crate) const PLAYOUT_CAP: u32 = 20_000;

/// Where a simulation stops to be scored by the rules' heuristic
/// ([`super::MctsOptions::horizon`], [`super::MctsOptions::cycles`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Horizon {
    /// After this many actions (the tree's and the playout's).
    Actions(u32),
    /// When the clock reaches this point of the game, (round, segment, step): the decision's
    /// own point some rounds on, so every simulation is scored at the same moment of the game
    /// and after every side had its turns, however many actions each line took to get there.
    Clock(u32, u32, u32),
}

impl Horizon {
    /// The horizon of a search of `root`: `cycles` rounds on from its clock, or `actions`
    /// actions when `cycles` is 0.
    pub(crate) fn new(root: &GameState, actions: u32, cycles: u32) -> Self {
        if cycles == 0 {
            return Horizon::Actions(actions);
        }
        let c = &root.clock;
        Horizon::Clock(c.round.saturating_add(cycles), c.segment, c.step)
    }

    /// Whether a simulation `steps` actions in, at `state`, has reached the horizon. A clock
    /// that never gets there (a phase that loops) is cut at [`PLAYOUT_CAP`] actions.
    pub(crate) fn reached(self, state: &GameState, steps: u32) -> bool {
        match self {
            Horizon::Actions(n) => steps >= n,
            Horizon::Clock(round, segment, step) => {
                let c = &state.clock;
                steps >= PLAYOUT_CAP || (c.round, c.segment, c.step) >= (round, segment, step)
            }
        }
    }

    /// How many actions a simulation without a heuristic may take before it is called a draw.
    fn cap(self) -> u32 {
        match self {
            Horizon::Actions(n) => n.saturating_add(PLAYOUT_CAP),
            Horizon::Clock(..) => PLAYOUT_CAP,
        }
    }
}

/// The simulations of one search: the rules, the bot's stream, the horizon, whether the rules
/// have a heuristic, and what the simulations cost so far.
pub(crate) struct Sims<'a, R: ?Sized> {
    pub(crate) rules: &'a R,
    pub(crate) stream: &'a mut Stream,
    pub(crate) horizon: Horizon,
    /// Cleared the first time the rules answer `None` to [`Rules::evaluate`]: from then on this
    /// search plays every simulation to the end without asking again.
    pub(crate) heuristic: bool,
    pub(crate) stats: super::SearchStats,
    /// Whether each simulation gets fresh dice (see [`Sims::fresh_copy`]).
    pub(crate) reseed: bool,
    /// The chance that a playout move is `end_phase` when it is legal (see `random_move`).
    pub(crate) end_bias: f64,
    /// The chance that a playout move is the best of [`GREEDY_SAMPLES`] random ones (see
    /// [`Sims::playout_move`]).
    pub(crate) greedy: f64,
    /// The rules' bot that plays the playouts ([`super::MctsOptions::guide`]).
    pub(crate) guide: Option<&'a str>,
    /// The side searched for, and the chance that another side's move is the guide's
    /// ([`super::MctsOptions::model`]): in the tree, the rest are random moves that end the
    /// tree's walk; in playouts, at most as often as the searching side's own ([`GUIDE_NOISE`]).
    /// `None`: every side's move is the tree's or, in playouts, the guide's but for the noise.
    pub(crate) model: Option<(&'a SideId, f64)>,
    /// Paired simulations ([`super::MctsOptions::paired`]): the sample's seed, and where in
    /// the game the dice were last seeded ([`clock_key`]). Each phase of each turn rolls from
    /// a roller of its own, seeded from the sample's seed and the clock: so the first roll of
    /// blue's fire phase in round 2 is the same number in every simulation of the sample,
    /// whatever was played before it (a shot from range 2 under one root choice, from range 3
    /// under another), where one roller down the whole simulation falls out of step at the
    /// first roll made under one choice and not the other. `None`: the copy's roller rolls on
    /// from [`Sims::fresh_copy`].
    pub(crate) luck: Option<(u64, Option<u64>)>,
    /// The side whose moves alone the tree holds ([`super::MctsOptions::own`]).
    pub(crate) own: Option<&'a SideId>,
}

/// The chance that a guided playout move is a random one instead of the guide's: the guide
/// is usually deterministic, and a little noise keeps the simulations from all playing the
/// same game.
pub(crate) const GUIDE_NOISE: f64 = 0.1;

/// How many random moves a greedy playout move weighs.
pub(crate) const GREEDY_SAMPLES: usize = 3;

impl<R: Rules + ?Sized> Sims<'_, R> {
    /// The state a simulation starts from: a copy of `root` whose dice are a fresh roller
    /// seeded from the bot's stream.
    pub(crate) fn fresh_copy(&mut self, root: &GameState) -> GameState {
        let mut state = root.clone();
        let seed = self.stream.next_u64();
        if self.reseed {
            state.dice = DiceRoller::new(seed);
        }
        state
    }

    /// Whether `side`'s next move in this simulation is a random one by the opponent model
    /// ([`super::MctsOptions::model`]): never for the searching side or without a model.
    pub(crate) fn plays_at_random(&mut self, side: &SideId) -> bool {
        match self.model {
            Some((me, share)) if side != me => self.stream.chance() >= share,
            _ => false,
        }
    }

    /// Applies `action` to a simulation. `Ok(false)` when the rules refused it after all (the
    /// state is unchanged, as in a real game).
    ///
    /// # Errors
    /// A fault in the rules or the turn engine.
    pub(crate) fn step(
        &mut self,
        state: &mut GameState,
        action: &Action,
    ) -> Result<bool, RulesError> {
        self.stats.actions += 1;
        if let Some((seed, at)) = &mut self.luck {
            let key = clock_key(state);
            if *at != Some(key) {
                state.dice = DiceRoller::new(Stream::new(*seed ^ key).next_u64());
                *at = Some(key);
            }
        }
        step(self.rules, state, action)
    }

    /// Plays on from `state`, `steps` actions into the simulation, with uniformly random moves
    /// (the first waiting side with something to do, one of its actions drawn from the stream)
    /// until the game ends or the [`Horizon`] is reached; then scores it for every side (see
    /// [`score_outcome`] and [`Rules::evaluate`]). Without a heuristic it plays on to the end
    /// ([`PLAYOUT_CAP`] actions past an action horizon at most, then a draw).
    ///
    /// # Errors
    /// A fault in the rules, or a heuristic value outside 0..=1.
    pub(crate) fn playout(
        &mut self,
        state: &mut GameState,
        mut steps: u32,
    ) -> Result<Vec<f64>, RulesError> {
        loop {
            if state.outcome.is_some() {
                self.stats.finished += 1;
                return Ok(score_outcome(state));
            }
            if self.horizon.reached(state, steps) {
                if self.heuristic {
                    if let Some(values) = self.evaluate(state)? {
                        return Ok(values);
                    }
                    self.heuristic = false;
                }
                if steps >= self.horizon.cap() {
                    return Ok(even(state));
                }
            }
            if !self.playout_move(state)? {
                // Nobody can act: the real game would stop here too.
                return Ok(even(state));
            }
            steps = steps.saturating_add(1);
        }
    }

    /// One playout move; `Ok(false)` when nobody can act. With chance `greedy` (and a
    /// heuristic) it is the best for its side of [`GREEDY_SAMPLES`] random moves, each played
    /// on a copy and scored by the heuristic (as a greedy player would look one action ahead);
    /// otherwise one random move ([`random_move`]).
    ///
    /// # Errors
    /// A fault in the rules, or a heuristic value outside 0..=1.
    pub(crate) fn playout_move(&mut self, state: &mut GameState) -> Result<bool, RulesError> {
        if self.guide.is_some() {
            let r = self.stream.chance();
            if r >= GUIDE_NOISE || self.model.is_some() {
                let Some((side, legal)) = next_mover(self.rules, state)? else {
                    return Ok(false);
                };
                let guided = match self.model {
                    Some((me, share)) if side != *me => r < share.min(1.0 - GUIDE_NOISE),
                    _ => r >= GUIDE_NOISE,
                };
                if guided && let Some(i) = self.guide_pick(state, &side, &legal)? {
                    self.step(state, &legal[i])?;
                    return Ok(true);
                }
            }
        }
        let greedy = self.greedy > 0.0 && self.heuristic && self.stream.chance() < self.greedy;
        let samples = if greedy { GREEDY_SAMPLES } else { 1 };
        let mut best: Option<(f64, GameState)> = None;
        for _ in 0..samples {
            let Some(action) = random_move(self.rules, state, self.stream, self.end_bias)? else {
                return Ok(false);
            };
            if !greedy {
                self.step(state, &action)?;
                return Ok(true);
            }
            let mut copy = state.clone();
            self.step(&mut copy, &action)?;
            let value = if copy.outcome.is_some() {
                let me = copy.sides.iter().position(|s| s.id == action.side);
                me.and_then(|i| score_outcome(&copy).get(i).copied())
            } else {
                self.evaluate_for(&copy, &action.side)?
            };
            let Some(value) = value else {
                // No heuristic after all: this random move it is.
                self.heuristic = false;
                *state = copy;
                return Ok(true);
            };
            if best.as_ref().is_none_or(|(b, _)| value > *b) {
                best = Some((value, copy));
            }
        }
        if let Some((_, chosen)) = best {
            *state = chosen;
        }
        Ok(true)
    }

    /// The guide's choice among `legal` (`side`'s legal actions), as an index into it; `None`
    /// without a guide or when the rules have no bots.
    ///
    /// # Errors
    /// A fault in the rules' bot (or no bot of that name).
    pub(crate) fn guide_pick(
        &self,
        state: &GameState,
        side: &SideId,
        legal: &[Action],
    ) -> Result<Option<usize>, RulesError> {
        let Some(bot) = self.guide else {
            return Ok(None);
        };
        Ok(self
            .rules
            .bot_pick(state, bot, side, legal)?
            .filter(|&i| i < legal.len()))
    }

    /// Every side's value from the rules' heuristic, or `None` when the rules have none.
    fn evaluate(&mut self, state: &GameState) -> Result<Option<Vec<f64>>, RulesError> {
        let mut values = Vec::with_capacity(state.sides.len());
        for side in state.sides.iter() {
            match self.evaluate_for(state, &side.id)? {
                Some(v) => values.push(v),
                None => return Ok(None),
            }
        }
        Ok(Some(values))
    }

    /// `side`'s value from the rules' heuristic, or `None` when the rules have none.
    ///
    /// # Errors
    /// A fault in the rules, or a value outside 0..=1.
    pub(crate) fn evaluate_for(
        &mut self,
        state: &GameState,
        side: &SideId,
    ) -> Result<Option<f64>, RulesError> {
        self.stats.evaluations += 1;
        match self.rules.evaluate(state, side)? {
            Some(v) if (0.0..=1.0).contains(&v) => Ok(Some(v)),
            Some(v) => Err(RulesError::new(format!(
                "evaluate: the value for {side} must be a number from 0 to 1, got {v}"
            ))),
            None => Ok(None),
        }
    }
}

/// Where the game is, as a number: round, segment, turn and phase (see [`Sims::luck`]).
fn clock_key(state: &GameState) -> u64 {
    let c = &state.clock;
    let mut key = 0;
    for x in [
        c.round,
        c.segment,
        c.turn_index.unwrap_or(u32::MAX),
        c.phase_index,
        c.step,
        c.each_index.unwrap_or(u32::MAX),
    ] {
        key = Stream::new(key ^ u64::from(x)).next_u64();
    }
    key
}

/// A random move: the first waiting side with something to do, then, with probability
/// `end_bias`, `end_phase` when the rules allow it; otherwise one of its actions picked without
/// listing the others where the rules allow ([`Rules::pick_legal`]).
///
/// Why the bias: uniformly random play ends a phase with one chance in as many as there are
/// actions (hundreds of moves in some mods), so a short playout rarely reaches the next phase,
/// where the consequences of the moves (shots, the opponent's reply) show.
pub(crate) fn random_move<R: Rules + ?Sized>(
    rules: &R,
    state: &GameState,
    stream: &mut Stream,
    end_bias: f64,
) -> Result<Option<Action>, RulesError> {
    for side in state.clock.waiting() {
        if !state.clock.may_act(&side) {
            continue;
        }
        if end_bias > 0.0 && stream.chance() < end_bias && state.clock.end_phase_refused().is_none()
        {
            let end = Action::end_phase(side.clone());
            if rules.check(state, &end)?.is_ok() {
                return Ok(Some(end));
            }
        }
        if let Some(a) = rules.pick_legal(state, &side, &mut |n| stream.below(n))? {
            return Ok(Some(a));
        }
    }
    Ok(None)
}

/// A finished game's score per side: 1 for a winner, 0 for a loser, 0.5 each in a draw.
pub(crate) fn score_outcome(state: &GameState) -> Vec<f64> {
    let Some(outcome) = &state.outcome else {
        return even(state);
    };
    if outcome.winners.is_empty() {
        return even(state);
    }
    state
        .sides
        .iter()
        .map(|s| {
            if outcome.winners.contains(&s.id) {
                1.0
            } else {
                0.0
            }
        })
        .collect()
}

/// 0.5 for every side: nobody won.
fn even(state: &GameState) -> Vec<f64> {
    vec![0.5; state.sides.len()]
}
