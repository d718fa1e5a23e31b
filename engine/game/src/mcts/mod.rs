//! The search bot: Monte Carlo tree search over single actions, for any [`Rules`] (the Lua
//! rules of every mod, the Rust fakes of the tests), `--bots mcts` in `hexforge play`.
//!
//! One decision: the side's legal actions are the root's choices; each simulation copies the
//! game, **re-seeds the copy's dice from the bot's own stream**, walks the tree (UCB1 over the
//! children legal in that simulation, progressive widening, new children drawn by action id
//! and piece: [`tree`]), plays on at random to a horizon of actions and scores the result with
//! the rules' heuristic ([`Rules::evaluate`], a mod's `game.evaluate`) or, without one, plays to
//! the end of the game ([`sim`]). The most visited choice is played. Two options sharpen it
//! with the heuristic, both off by default because they measured no gain in the bundled mods
//! (docs/BOTS.md): a root prior (`prior=X`, `prior.rs`: every choice tried one action deep
//! orders the widening and biases UCB1) and greedy playouts (`greedy=X`, `sim.rs`). A guide
//! (`guide=NAME`, the rules' own bot, [`Rules::bot_pick`]) plays the playouts, is the first
//! child of every node and the choice to beat at the root (`trust=X`, `tree.rs`); an opponent
//! model (`model=X`, or `model=seen` learned from the game in `watch.rs`) makes the other
//! sides' moves random as often as they are not the guide's; `own=1` keeps them out of the
//! tree altogether (`tree.rs`), and `paired=1` rolls the k-th simulation of every root
//! choice on the same dice, phase by phase (`sim.rs`); `cycles=N` scores every simulation
//! when the clock is back at the decision's moment N rounds on instead of after `horizon`
//! actions (`sim.rs`, `Horizon`). A finished
//! decision's tree is kept, and the bot's next decision starts from the node the game went on
//! to when its simulations tried that line (subtree reuse, [`MctsOptions::reuse`]).
//!
//! What keeps it honest:
//! - it never sees future dice: no simulation rolls the real game's next rolls, so two games
//!   that differ only in their dice get the same choice (a test plays exactly that);
//! - it sees what its side may see: the engine has no hidden information (every side sees the
//!   whole state, as at a table of counters), so the bot reads the state as any player may;
//! - with an iteration budget ([`Budget::iterations`] alone) a choice is a pure function of the
//!   state and the bot's seed; a time budget depends on the machine. Saved games replay either
//!   way, since a save records the actions, not the bot.
//!
//! This module deliberately uses one core and the rules' own object: a Lua rule set is one VM
//! and not `Send`, and simulations run on copies of the [`GameState`], never on the VM.
//!
//! ```
//! use hexforge_game::mcts::{MctsBot, MctsOptions};
//! let options: MctsOptions = "iters=50:horizon=20".parse().unwrap();
//! let bot = MctsBot::for_game(options, 42, &"blue".into());
//! assert_eq!(bot.options().horizon, 20);
//! ```

mod options;
mod prior;
mod sim;
mod tree;
mod watch;

#[cfg(test)]
mod tests;

pub use options::{
    Budget, DEFAULT_END_BIAS, DEFAULT_EXPLORATION, DEFAULT_GREEDY, DEFAULT_HORIZON,
    DEFAULT_ITERATIONS, DEFAULT_PRIOR, DEFAULT_TRUST, DEFAULT_WIDEN, GUIDE_BIAS, MAX_CYCLES,
    MctsOptions, Model,
};

use crate::{Action, Game, GameState, Rules, RulesError, SideId};
use prior::Prior;
use sim::{Horizon, Sims, Stream};
use std::time::{Duration, Instant};
use tree::Tree;
use watch::Watch;

/// Mixed into the game seed to seed a game's search bots (as the random bot's salt, so the
/// bot's stream is not the dice's).
const MCTS_SALT: u64 = 0x3C75_B07D_1CE5_EED5;

/// What one search did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Simulations run.
    pub iterations: u64,
    /// Actions applied in them (tree and playout).
    pub actions: u64,
    /// Calls of the rules' heuristic.
    pub evaluations: u64,
    /// Simulations that reached the end of the game.
    pub finished: u64,
}

/// A search's choice with what it cost and what it thought of each choice it tried.
#[derive(Clone, Debug)]
pub struct Search {
    /// The action to take (`None`: the side has nothing to do).
    pub choice: Option<Action>,
    /// The cost.
    pub stats: SearchStats,
    /// Each choice tried at the root: the action, its simulations and its mean value for the
    /// side (0..=1).
    pub tried: Vec<(Action, u32, f64)>,
}

/// The most nodes a finished decision's tree may hold to be kept for the next one (past it the
/// next decision starts afresh): subtree reuse must not let a long game's trees grow without
/// bound.
const MAX_KEPT_NODES: usize = 200_000;

/// A seeded Monte Carlo tree search bot.
#[derive(Clone, Debug)]
pub struct MctsBot {
    options: MctsOptions,
    stream: Stream,
    /// Whether simulations re-seed their dice (always, outside the test that shows what
    /// happens when they do not).
    reseed: bool,
    /// The last decision's tree, for the next decision to start from (see [`Kept`]).
    kept: Option<Kept>,
    /// The other sides' choices seen so far (`model=seen`).
    watch: Watch,
}

/// A finished decision's tree and the game it was searched in: the next decision of the same
/// bot starts from the node of the actions the game went on with, when the tree simulated
/// them (subtree reuse; `reuse=0` turns it off). Those simulations ran from an earlier state
/// through the same actions, which is what an open-loop node stands for anyway.
#[derive(Clone, Debug)]
struct Kept {
    tree: Tree,
    /// The actions of the searched state's log: the next state's log must start with them (an
    /// undo and other actions in their place make another game for the tree). The same
    /// actions from the same start are the same game, dice included.
    history: Vec<Option<Action>>,
    /// The side whose moves alone the tree holds ([`MctsOptions::own`]): the other sides'
    /// actions since are not in it.
    own: Option<SideId>,
}

impl Kept {
    /// The kept tree's node that `state` went on to, as a new tree (`None`: start afresh).
    fn follow(&self, state: &GameState) -> Option<Tree> {
        let n = self.history.len();
        if state.log.len() <= n || !goes_on_from(state, &self.history) {
            return None;
        }
        let path: Option<Vec<&Action>> = state.log[n..].iter().map(|e| e.action.as_ref()).collect();
        let mut path = path?;
        if let Some(me) = &self.own {
            path.retain(|a| a.side == *me);
        }
        self.tree.follow(path)
    }
}

/// The actions of `state`'s log, to tell later whether a game went on from it
/// ([`goes_on_from`]).
fn history(state: &GameState) -> Vec<Option<Action>> {
    state.log.iter().map(|e| e.action.clone()).collect()
}

/// Whether `state`'s log starts with the actions of `history`: the game went on from there
/// (the same actions from the same start are the same game, dice included), not back and
/// elsewhere after an undo.
fn goes_on_from(state: &GameState, history: &[Option<Action>]) -> bool {
    state.log.len() >= history.len() && state.log.iter().zip(history).all(|(e, a)| e.action == *a)
}

impl MctsBot {
    /// A bot with its own stream seeded by `seed`.
    #[must_use]
    pub fn new(options: MctsOptions, seed: u64) -> Self {
        MctsBot {
            options,
            stream: Stream::new(seed),
            reseed: true,
            kept: None,
            watch: Watch::default(),
        }
    }

    /// The bot of `side` in a game started with `game_seed`: each side its own stream, a pure
    /// function of the game seed and the side.
    #[must_use]
    pub fn for_game(options: MctsOptions, game_seed: u64, side: &SideId) -> Self {
        // FNV-1a over the side id: stable across builds and platforms.
        let side_hash = side
            .as_str()
            .bytes()
            .fold(0xCBF2_9CE4_8422_2325_u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
            });
        MctsBot::new(options, game_seed ^ MCTS_SALT ^ side_hash)
    }

    /// The bot's options.
    #[must_use]
    pub fn options(&self) -> &MctsOptions {
        &self.options
    }

    /// The action the bot takes for `side` in `game` (`None` when it has nothing to do).
    ///
    /// # Errors
    /// A fault in the rules (in the real state or in a simulation), or a heuristic value
    /// outside 0..=1.
    pub fn choose<R: Rules>(
        &mut self,
        game: &Game<R>,
        side: &SideId,
    ) -> Result<Option<Action>, RulesError> {
        Ok(self.search(game.rules(), game.state(), side)?.choice)
    }

    /// Searches `state` for `side`'s action under `rules`; the state is not changed.
    ///
    /// # Errors
    /// As [`MctsBot::choose`].
    pub fn search<R: Rules + ?Sized>(
        &mut self,
        rules: &R,
        state: &GameState,
        side: &SideId,
    ) -> Result<Search, RulesError> {
        let mut job = match self.start(rules, state, side)? {
            Started::Done(search) => return Ok(search),
            Started::Job(job) => job,
        };
        loop {
            if let Some(search) = self.work(rules, &mut job, None)? {
                return Ok(search);
            }
        }
    }

    /// Starts a search of `state` for `side`, to be run in slices with [`MctsBot::work`] (a
    /// window that must keep drawing thinks a slice a frame); a decision with nothing to weigh
    /// (no action, or one) is answered at once. The tree starts from what the bot's last
    /// decision simulated of this one, when the game went on with actions it tried (see
    /// [`MctsOptions::reuse`]).
    ///
    /// # Errors
    /// A fault in the rules listing the side's actions.
    pub fn start<R: Rules + ?Sized>(
        &mut self,
        rules: &R,
        state: &GameState,
        side: &SideId,
    ) -> Result<Started, RulesError> {
        let nothing = |choice| {
            Started::Done(Search {
                choice,
                stats: SearchStats::default(),
                tried: Vec::new(),
            })
        };
        if state.outcome.is_some() || !state.clock.may_act(side) {
            return Ok(nothing(None));
        }
        let legal = rules.legal_actions_and_end(state, side)?;
        if legal.len() < 2 {
            return Ok(nothing(legal.into_iter().next()));
        }
        let guided = match &self.options.guide {
            Some(bot) => {
                if self.options.model == Model::Seen {
                    self.watch.observe(rules, state, side, bot)?;
                }
                rules.bot_pick(state, bot, side, &legal)?
            }
            None => None,
        };
        let bias = if guided.is_some() && self.options.prior <= 0.0 {
            GUIDE_BIAS
        } else {
            self.options.prior
        };
        let kept = self.kept.take().filter(|_| self.options.reuse);
        // A kept tree whose root never tried the guide's choice would leave that choice
        // nothing to be measured against (Tree::best): start afresh then.
        let mut tree = kept
            .and_then(|k| k.follow(state))
            .filter(|t| guided.is_none_or(|i| t.has_root_child(&legal[i])))
            .unwrap_or_else(|| Tree::new(self.options.exploration, self.options.widen, bias));
        if self.options.paired {
            tree.set_paired(self.stream.next_u64());
        }
        if let Some(i) = guided {
            tree.set_root_prior(
                (0..legal.len())
                    .map(|k| f64::from(u8::from(k == i)))
                    .collect(),
            );
        }
        Ok(Started::Job(Box::new(SearchJob {
            root: state.clone_without_log(),
            history: if self.options.reuse {
                history(state)
            } else {
                Vec::new()
            },
            side: side.clone(),
            legal,
            tree,
            guided,
            prior: Prior::default(),
            stats: SearchStats::default(),
            heuristic: true,
            started: Instant::now(),
        })))
    }

    /// Runs `job` until its budget is spent (the search's answer) or, given `until`, that
    /// moment passes (`None`: call again). The same simulations in the same order whatever
    /// the slices, so an iteration budget gives the same choice sliced or not.
    ///
    /// # Errors
    /// As [`MctsBot::choose`].
    pub fn work<R: Rules + ?Sized>(
        &mut self,
        rules: &R,
        job: &mut SearchJob,
        until: Option<Instant>,
    ) -> Result<Option<Search>, RulesError> {
        let budget = self.options.budget;
        // Off only in the test that proves the re-seeding matters: the simulations then roll
        // the real game's next rolls.
        let mut sims = Sims {
            rules,
            stream: &mut self.stream,
            horizon: Horizon::new(&job.root, self.options.horizon, self.options.cycles),
            heuristic: job.heuristic,
            stats: std::mem::take(&mut job.stats),
            reseed: self.reseed,
            end_bias: self.options.end_bias,
            greedy: self.options.greedy,
            guide: self.options.guide.as_deref(),
            model: match self.options.model {
                Model::Guide => None,
                Model::Share(x) => Some((&job.side, x)),
                Model::Seen => Some((&job.side, self.watch.share())),
            },
            luck: None,
            own: self.options.own.then_some(&job.side),
        };
        let with_prior = self.options.prior > 0.0;
        let spent = loop {
            // The prior first, a choice a step (not counted as simulations, not cut by the
            // budget: the tree needs it whole), then the simulations.
            let prior_step = with_prior && !job.prior.done(job.legal.len());
            let step = if prior_step {
                job.prior
                    .step(&mut sims, &job.root, &job.side, &job.legal)
                    .map(|()| {
                        if job.prior.done(job.legal.len()) {
                            let mut prior = job.prior.normalised();
                            if let Some(p) = job.guided.and_then(|i| prior.get_mut(i)) {
                                *p = 1.0;
                            }
                            job.tree.set_root_prior(prior);
                        }
                    })
            } else {
                job.tree
                    .iterate(&mut sims, &job.root, &job.side, &job.legal)
            };
            if let Err(e) = step {
                job.stats = sims.stats;
                return Err(e);
            }
            let done = sims.stats.iterations;
            if !prior_step
                && (budget.iterations.is_some_and(|n| done >= u64::from(n))
                    || budget
                        .millis
                        .is_some_and(|ms| job.started.elapsed() >= Duration::from_millis(ms)))
            {
                break true;
            }
            if until.is_some_and(|t| Instant::now() >= t) {
                break false;
            }
        };
        job.heuristic = sims.heuristic;
        job.stats = sims.stats;
        if !spent {
            return Ok(None);
        }
        let search = Search {
            choice: job
                .tree
                .best(
                    job.guided.and_then(|i| job.legal.get(i)),
                    self.options.trust,
                )
                .cloned(),
            stats: job.stats.clone(),
            tried: job.tree.root_children(),
        };
        if self.options.reuse && job.tree.len() <= MAX_KEPT_NODES {
            self.kept = Some(Kept {
                tree: job.tree.clone(),
                history: std::mem::take(&mut job.history),
                own: self.options.own.then(|| job.side.clone()),
            });
        }
        Ok(Some(search))
    }
}

/// What [`MctsBot::start`] gives: the answer at once, or a search to run.
#[derive(Debug)]
pub enum Started {
    /// Nothing to weigh: the side's only action, or none.
    Done(Search),
    /// A search under way.
    Job(Box<SearchJob>),
}

/// A search under way: its root, its tree so far and what it cost.
#[derive(Debug)]
pub struct SearchJob {
    root: GameState,
    /// The actions of the searched state's log (for [`Kept`]; empty without reuse).
    history: Vec<Option<Action>>,
    side: SideId,
    legal: Vec<Action>,
    tree: Tree,
    /// The root prior, filled before the first simulation (see [`prior`]).
    prior: Prior,
    stats: SearchStats,
    heuristic: bool,
    started: Instant,
    /// The index of the guide's choice among `legal` (see [`MctsOptions::guide`]).
    guided: Option<usize>,
}

impl SearchJob {
    /// The side searched for.
    #[must_use]
    pub fn side(&self) -> &SideId {
        &self.side
    }

    /// Simulations run so far.
    #[must_use]
    pub fn iterations(&self) -> u64 {
        self.stats.iterations
    }

    /// Time since the search started.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}
