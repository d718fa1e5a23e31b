//! The search bot's options and their text form, as `--bots` and `g:bot` take them:
//! `iters=300`, `ms=500`, `horizon=40`, `c=1.0`, `widen=2`, `ends=0.3`, `prior=0`, `greedy=0`,
//! `cycles=1`, `guide=greedy`, `trust=1`, `model=seen`, `reuse=1`, `paired=0`, `own=0`, joined by
//! `:` after the bot's name (`mcts:ms=200:horizon=30`).
//!
//! ```
//! use hexforge_game::mcts::{Budget, MctsOptions};
//! let o: MctsOptions = "ms=200:horizon=30".parse().unwrap();
//! assert_eq!(o.budget, Budget { iterations: None, millis: Some(200) });
//! assert_eq!(o.horizon, 30);
//! assert_eq!(o.to_string(), "ms=200:horizon=30");
//! assert!("ms=fast".parse::<MctsOptions>().unwrap_err().contains("ms=fast"));
//! ```

use std::fmt;

/// How long one decision may search: a number of simulations, a wall-clock time, or both (it
/// stops at whichever comes first). Only an iteration budget alone makes the choice a pure
/// function of the state and the bot's seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// At most this many simulations.
    pub iterations: Option<u32>,
    /// At most this many milliseconds (at least one simulation runs).
    pub millis: Option<u64>,
}

/// The default number of simulations per decision.
pub const DEFAULT_ITERATIONS: u32 = 200;
/// The default horizon, in simulated actions.
pub const DEFAULT_HORIZON: u32 = 10;
/// The default exploration constant of UCB1 (rewards are in 0..=1).
pub const DEFAULT_EXPLORATION: f64 = 0.7;
/// The default progressive widening factor: a node visited `n` times may have
/// `1 + widen * sqrt(n)` children (rounded down).
pub const DEFAULT_WIDEN: f64 = 2.0;
/// The default chance that a playout move ends the phase when the rules allow it.
pub const DEFAULT_END_BIAS: f64 = 0.3;
/// The default chance that a playout move is greedy (see [`MctsOptions::greedy`]).
pub const DEFAULT_GREEDY: f64 = 0.0;
/// The weight of the root prior when a guide names the root's choice and `prior` is not given:
/// the guide's choice is tried first and keeps this bonus, shrinking as `1 / (1 + visits)`.
pub const GUIDE_BIAS: f64 = 1.0;
/// How many standard errors better than the guide's choice another must score to be taken
/// instead (see [`MctsOptions::trust`]).
pub const DEFAULT_TRUST: f64 = 1.0;
/// The default weight of the root prior's progressive bias (see [`MctsOptions::prior`]): off,
/// since it measured no gain in the bundled mods and cost solar-flare wins (docs/BOTS.md).
pub const DEFAULT_PRIOR: f64 = 0.0;

/// The most rounds `cycles` may look ahead: past a few rounds a simulation is a whole game.
pub const MAX_CYCLES: u32 = 100;

/// How a guided search's playouts play the other sides' moves (`model=...`); the searching
/// side's own are the guide's nine times in ten, the tenth random.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Model {
    /// As its own (the default).
    #[default]
    Guide,
    /// The guide's with this chance, random otherwise (`model=0`: a random opponent, whom
    /// the search then chases instead of waiting for it to come).
    Share(f64),
    /// The guide's with the chance that the other sides' choices so far in the game were the
    /// guide's (`model=seen`: the bot watches its opponents, see `watch.rs`).
    Seen,
}

/// The search bot's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsOptions {
    /// How long each decision searches.
    pub budget: Budget,
    /// Each simulation stops after this many actions and is scored by the rules' heuristic
    /// ([`crate::Rules::evaluate`]); without one it plays on to the end of the game.
    pub horizon: u32,
    /// When not 0, replaces `horizon`: each simulation stops when the game's clock comes back
    /// to the decision's point (round, segment, step) this many rounds on, so every line is
    /// scored at the same moment of the game, after each side had as many turns, however
    /// many actions it took to get there (an action horizon scores a line that moved one ship
    /// later in the game than one that moved two, and often just before the other side's
    /// reply). `cycles=1` turns it on.
    pub cycles: u32,
    /// UCB1's exploration constant.
    pub exploration: f64,
    /// The progressive widening factor (see [`DEFAULT_WIDEN`]).
    pub widen: f64,
    /// The chance that a playout move is `end_phase` when the rules allow it (0 to 1; the rest
    /// of the time a move is uniform among all the legal actions, `end_phase` included).
    pub end_bias: f64,
    /// The weight of the root prior: each of the decision's choices is tried once, one action
    /// deep, and scored by the heuristic; the tree tries the best first and adds
    /// `prior · p / (1 + visits)` to a root child's UCB1 score (`p` from 0, the worst, to 1,
    /// the best). 0 turns the prior off (no one-ply tries at all).
    pub prior: f64,
    /// The chance that a playout move is the best, for the side making it, of three random
    /// moves each tried on a copy and scored by the heuristic, instead of one random move (0
    /// to 1; it costs up to three actions and three evaluations a move).
    pub greedy: f64,
    /// The rules' own bot that plays the simulations ([`crate::Rules::bot_pick`], a mod's
    /// `game.bots.<name>`), every side's moves in the tree's wake, and whose choice at the root
    /// the tree tries first and leans on (the root prior, weight [`GUIDE_BIAS`] unless `prior`
    /// says otherwise). `None`: random playouts.
    pub guide: Option<String>,
    /// With a guide: how many standard errors of the difference the best-simulated choice's
    /// mean must beat the guide's choice's by to be taken instead (0: the most visited
    /// choice, unless its mean is no better than the guide's choice's).
    pub trust: f64,
    /// With a guide: how the playouts play the other sides' moves (see [`Model`]).
    pub model: Model,
    /// Whether a decision starts from what the bot's previous decision simulated of it: the
    /// node of the actions the game went on with, its visits and its subtree (subtree reuse).
    /// Off (`reuse=0`) every decision starts from an empty tree.
    pub reuse: bool,
    /// Paired simulations: the `k`-th simulation through each of the decision's choices rolls
    /// the same dice, each phase of each turn from a seed of the sample and the clock (and
    /// plays its random moves from the same numbers), so choices are compared on the same
    /// luck, and the guide's choice gives way only to one that beats it by `trust` standard
    /// errors of the paired differences. `paired=1` turns it on.
    pub paired: bool,
    /// The tree holds only the searching side's moves: every other side's move, in the tree as
    /// in the playouts, is the guide's or a random one as the opponent model says (a best
    /// reply search against the model, not a game tree). `own=1` turns it on.
    pub own: bool,
}

impl Default for MctsOptions {
    fn default() -> Self {
        MctsOptions {
            budget: Budget {
                iterations: Some(DEFAULT_ITERATIONS),
                millis: None,
            },
            horizon: DEFAULT_HORIZON,
            cycles: 0,
            exploration: DEFAULT_EXPLORATION,
            widen: DEFAULT_WIDEN,
            end_bias: DEFAULT_END_BIAS,
            prior: DEFAULT_PRIOR,
            greedy: DEFAULT_GREEDY,
            guide: None,
            trust: DEFAULT_TRUST,
            model: Model::Guide,
            reuse: true,
            paired: false,
            own: false,
        }
    }
}

/// The option names, for messages.
const NAMES: &str = "iters, ms, horizon, cycles, c, widen, ends, prior, greedy, guide, trust, \
                     model, reuse, paired, own";

impl MctsOptions {
    /// The options from `key=value` pairs (`("iters", "300")`), the defaults for the others.
    /// A budget given replaces the default one: `ms=500` alone searches 500 ms, not 200
    /// simulations; `ms` and `iters` together stop at whichever comes first.
    ///
    /// # Errors
    /// An unknown key or a value that is not a number of the right kind and range.
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Self, String> {
        let mut o = MctsOptions {
            budget: Budget {
                iterations: None,
                millis: None,
            },
            ..MctsOptions::default()
        };
        for (key, value) in pairs {
            o.set(key.trim(), value.trim())?;
        }
        if o.budget.iterations.is_none() && o.budget.millis.is_none() {
            o.budget.iterations = Some(DEFAULT_ITERATIONS);
        }
        Ok(o)
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let whole = |what: &str| -> Result<u64, String> {
            match value.parse::<u64>() {
                Ok(n) if n >= 1 => Ok(n),
                _ => Err(format!(
                    "mcts: `{key}={value}` must be a whole number of {what}, at least 1"
                )),
            }
        };
        let real = |what: &str| -> Result<f64, String> {
            match value.parse::<f64>() {
                Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
                _ => Err(format!(
                    "mcts: `{key}={value}` must be a number ({what}), 0 or more"
                )),
            }
        };
        let switch = || match value {
            "1" => Ok(true),
            "0" => Ok(false),
            _ => Err(format!("mcts: `{key}={value}` must be 1 (on) or 0 (off)")),
        };
        match key {
            "iters" => {
                let n = whole("simulations")?;
                self.budget.iterations = Some(u32::try_from(n).unwrap_or(u32::MAX));
            }
            "ms" => self.budget.millis = Some(whole("milliseconds")?),
            "horizon" => self.horizon = u32::try_from(whole("actions")?).unwrap_or(u32::MAX),
            "cycles" => match value.parse::<u32>() {
                Ok(n) if n <= MAX_CYCLES => self.cycles = n,
                _ => {
                    return Err(format!(
                        "mcts: `{key}={value}` must be a whole number of rounds from 0 (off) to \
                         {MAX_CYCLES}"
                    ));
                }
            },
            "c" => self.exploration = real("the exploration constant")?,
            "widen" => self.widen = real("the widening factor")?,
            "ends" => {
                self.end_bias = real("the chance to end a phase in a playout")?;
                if self.end_bias > 1.0 {
                    return Err(format!(
                        "mcts: `{key}={value}` must be a chance from 0 to 1"
                    ));
                }
            }
            "prior" => self.prior = real("the weight of the root prior")?,
            "trust" => self.trust = real("standard errors")?,
            "reuse" => self.reuse = switch()?,
            "paired" => self.paired = switch()?,
            "own" => self.own = switch()?,
            "model" => {
                self.model = if value == "seen" {
                    Model::Seen
                } else {
                    match value.parse::<f64>() {
                        Ok(x) if (0.0..=1.0).contains(&x) => Model::Share(x),
                        _ => {
                            return Err(format!(
                                "mcts: `{key}={value}` must be `seen` or a chance from 0 to 1"
                            ));
                        }
                    }
                };
            }
            "greedy" => {
                self.greedy = real("the chance of a greedy playout move")?;
                if self.greedy > 1.0 {
                    return Err(format!(
                        "mcts: `{key}={value}` must be a chance from 0 to 1"
                    ));
                }
            }
            "guide" => {
                let ok = !value.is_empty()
                    && value
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
                if !ok {
                    return Err(format!(
                        "mcts: `{key}={value}` must name one of the mod's bots, e.g. guide=greedy"
                    ));
                }
                self.guide = Some(value.to_owned());
            }
            other => {
                return Err(format!(
                    "mcts: unknown option `{other}` (it takes {NAMES}; e.g. mcts:ms=500 or \
                     mcts:iters=300)"
                ));
            }
        }
        Ok(())
    }
}

impl std::str::FromStr for MctsOptions {
    type Err = String;

    /// `iters=300:horizon=30` (the text after `mcts:`); empty gives the defaults.
    fn from_str(s: &str) -> Result<Self, String> {
        let mut pairs = Vec::new();
        for part in s.split(':').map(str::trim).filter(|p| !p.is_empty()) {
            let Some(pair) = part.split_once('=') else {
                return Err(format!(
                    "mcts: `{part}` is not an option: write key=value ({NAMES}), e.g. mcts:ms=500"
                ));
            };
            pairs.push(pair);
        }
        MctsOptions::from_pairs(pairs)
    }
}

impl fmt::Display for MctsOptions {
    /// The options that differ from the defaults, in the text form they are parsed from.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = MctsOptions::default();
        let mut parts = Vec::new();
        if self.budget != d.budget {
            if let Some(n) = self.budget.iterations {
                parts.push(format!("iters={n}"));
            }
            if let Some(ms) = self.budget.millis {
                parts.push(format!("ms={ms}"));
            }
        }
        if self.horizon != d.horizon {
            parts.push(format!("horizon={}", self.horizon));
        }
        if self.cycles != d.cycles {
            parts.push(format!("cycles={}", self.cycles));
        }
        if self.exploration.to_bits() != d.exploration.to_bits() {
            parts.push(format!("c={}", self.exploration));
        }
        if self.widen.to_bits() != d.widen.to_bits() {
            parts.push(format!("widen={}", self.widen));
        }
        if self.end_bias.to_bits() != d.end_bias.to_bits() {
            parts.push(format!("ends={}", self.end_bias));
        }
        if self.prior.to_bits() != d.prior.to_bits() {
            parts.push(format!("prior={}", self.prior));
        }
        if self.greedy.to_bits() != d.greedy.to_bits() {
            parts.push(format!("greedy={}", self.greedy));
        }
        if let Some(guide) = &self.guide {
            parts.push(format!("guide={guide}"));
        }
        if self.trust.to_bits() != d.trust.to_bits() {
            parts.push(format!("trust={}", self.trust));
        }
        match self.model {
            Model::Guide => {}
            Model::Share(x) => parts.push(format!("model={x}")),
            Model::Seen => parts.push("model=seen".to_owned()),
        }
        if self.reuse != d.reuse {
            parts.push(format!("reuse={}", u8::from(self.reuse)));
        }
        if self.paired != d.paired {
            parts.push(format!("paired={}", u8::from(self.paired)));
        }
        if self.own != d.own {
            parts.push(format!("own={}", u8::from(self.own)));
        }
        write!(f, "{}", parts.join(":"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_replaces_the_default_and_both_may_be_given() {
        let o: MctsOptions = "ms=500".parse().unwrap();
        assert_eq!(
            o.budget,
            Budget {
                iterations: None,
                millis: Some(500)
            }
        );
        let o: MctsOptions = "iters=300".parse().unwrap();
        assert_eq!(
            o.budget,
            Budget {
                iterations: Some(300),
                millis: None
            }
        );
        let o: MctsOptions = "ms=500:iters=300".parse().unwrap();
        assert_eq!(
            o.budget,
            Budget {
                iterations: Some(300),
                millis: Some(500)
            }
        );
        let o: MctsOptions = "iters=300:ms=500".parse().unwrap();
        assert_eq!(o.budget.iterations, Some(300));
        assert_eq!(o.budget.millis, Some(500));
        assert_eq!("".parse::<MctsOptions>().unwrap(), MctsOptions::default());
    }

    #[test]
    fn every_option_round_trips_through_its_text() {
        for text in [
            "iters=300",
            "ms=50",
            "iters=7:ms=9:horizon=3:c=0.25:widen=1.5:ends=0.5:prior=2:greedy=0.5",
            "iters=50:cycles=1",
            "iters=50:horizon=20:cycles=2:guide=greedy",
            "iters=50:guide=greedy",
            "iters=50:guide=greedy:trust=2.5",
            "iters=50:reuse=0",
            "iters=50:guide=greedy:model=0.25",
            "iters=50:guide=greedy:model=seen",
            "iters=50:guide=greedy:paired=1",
            "iters=50:guide=greedy:model=seen:paired=1:own=1",
            "",
        ] {
            let o: MctsOptions = text.parse().unwrap();
            assert_eq!(o.to_string(), text);
            assert_eq!(o.to_string().parse::<MctsOptions>().unwrap(), o);
        }
    }

    #[test]
    fn bad_options_say_what_is_wrong() {
        let cases = [
            (
                "ms=fast",
                "`ms=fast` must be a whole number of milliseconds",
            ),
            (
                "iters=0",
                "`iters=0` must be a whole number of simulations, at least 1",
            ),
            ("iters=-3", "at least 1"),
            ("horizon=1.5", "whole number of actions"),
            (
                "cycles=-1",
                "`cycles=-1` must be a whole number of rounds from 0 (off) to 100",
            ),
            ("cycles=101", "from 0 (off) to 100"),
            ("c=-1", "`c=-1` must be a number"),
            ("widen=nan", "`widen=nan` must be a number"),
            ("prior=-1", "`prior=-1` must be a number"),
            ("greedy=2", "`greedy=2` must be a chance from 0 to 1"),
            ("guide=", "`guide=` must name one of the mod's bots"),
            ("trust=-1", "`trust=-1` must be a number"),
            ("reuse=yes", "`reuse=yes` must be 1 (on) or 0 (off)"),
            ("paired=2", "`paired=2` must be 1 (on) or 0 (off)"),
            ("own=yes", "`own=yes` must be 1 (on) or 0 (off)"),
            (
                "model=2",
                "`model=2` must be `seen` or a chance from 0 to 1",
            ),
            ("model=guess", "`model=guess` must be `seen`"),
            (
                "depth=3",
                "unknown option `depth` (it takes iters, ms, horizon, cycles, c, widen",
            ),
            ("ms", "`ms` is not an option: write key=value"),
        ];
        for (text, want) in cases {
            let got = text.parse::<MctsOptions>().unwrap_err();
            assert!(got.contains(want), "{text}: {got}");
        }
    }
}
