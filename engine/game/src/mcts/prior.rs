//! The root's prior: every choice of the decision tried once, one ply deep, and scored by the
//! rules' heuristic for the side choosing (or by the outcome, when the action ends the game).
//!
//! Why: a decision in a wargame lists hundreds of choices, and a few hundred simulations try
//! only a few dozen of them. The heuristic tells at once what one action does by itself (a
//! shot that hits, a base planted, a win), so the tree tries those first (progressive widening
//! in prior order, best first) and leans on them while they have few visits (progressive bias,
//! `bias · prior / (1 + visits)`, as Chaslot et al.'s progressive strategies). Moves that
//! change nothing the heuristic sees tie, and are drawn by group as without a prior.
//!
//! Each try copies the decision's state with fresh dice from the bot's stream, as a simulation
//! does, so the prior cannot see the real game's next rolls either.

use super::sim::{Sims, score_outcome};
use crate::{Action, GameState, Rules, RulesError, SideId};

/// The raw one-ply values of the root's choices, filled one choice a call so that a sliced
/// search stays sliced.
#[derive(Debug, Default)]
pub(crate) struct Prior {
    raw: Vec<f64>,
    /// Set when the rules have no heuristic: no prior at all.
    off: bool,
}

impl Prior {
    /// Whether every choice has its value (or the rules have no heuristic).
    pub(crate) fn done(&self, choices: usize) -> bool {
        self.off || self.raw.len() >= choices
    }

    /// Tries the next choice of `legal` once and records its value for `side`.
    ///
    /// # Errors
    /// A fault in the rules, or a heuristic value outside 0..=1.
    pub(crate) fn step<R: Rules + ?Sized>(
        &mut self,
        sims: &mut Sims<'_, R>,
        root: &GameState,
        side: &SideId,
        legal: &[Action],
    ) -> Result<(), RulesError> {
        let Some(action) = legal.get(self.raw.len()) else {
            return Ok(());
        };
        let Some(me) = root.sides.iter().position(|s| &s.id == side) else {
            self.off = true;
            return Ok(());
        };
        if !sims.heuristic {
            self.off = true;
            return Ok(());
        }
        let mut state = sims.fresh_copy(root);
        sims.step(&mut state, action)?;
        let value = if state.outcome.is_some() {
            score_outcome(&state).get(me).copied()
        } else {
            sims.evaluate_for(&state, side)?
        };
        match value {
            Some(v) => self.raw.push(v),
            None => {
                // No heuristic: no prior, and the simulations need not ask again.
                self.off = true;
                sims.heuristic = false;
            }
        }
        Ok(())
    }

    /// The values scaled to 0..=1 over the choices (the best 1, the worst 0; all 0 when they
    /// tie), one per choice; empty without a heuristic.
    pub(crate) fn normalised(&self) -> Vec<f64> {
        if self.off {
            return Vec::new();
        }
        let lo = self.raw.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = self.raw.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let spread = hi - lo;
        self.raw
            .iter()
            .map(|v| {
                if spread > 1e-9 {
                    (v - lo) / spread
                } else {
                    0.0
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_scaled_from_the_worst_to_the_best_and_ties_are_all_zero() {
        let p = Prior {
            raw: vec![0.5, 0.6, 0.55],
            off: false,
        };
        let n = p.normalised();
        assert!((n[0]).abs() < 1e-12 && (n[1] - 1.0).abs() < 1e-12 && (n[2] - 0.5).abs() < 1e-9);
        let tie = Prior {
            raw: vec![0.5, 0.5],
            off: false,
        };
        assert_eq!(tie.normalised(), vec![0.0, 0.0]);
        let off = Prior {
            raw: vec![0.5],
            off: true,
        };
        assert!(off.normalised().is_empty() && off.done(3));
    }
}
