//! Engine rules around phases: a side eliminated during its own turn loses the rest of that turn,
//! `end_phase` is offered only when the rules allow it, and rules can be borrowed (`&R`).

use hexforge_game::turn::{Actor, HookEvent, PhaseSpec, TurnStructure};
use hexforge_game::{
    Action, Game, GameState, Illegal, Outcome, Rules, RulesError, SideId, SideState,
};
use serde_json::json;

/// Three sides; turn = move (active), defensive_fire (others), offensive_fire (active).
/// `resign` eliminates the acting side; `end_phase` is refused in `move` until the global `ready`.
struct Resign {
    turns: TurnStructure,
}

impl Resign {
    fn new() -> Self {
        Resign {
            turns: TurnStructure::fixed(
                &[],
                vec![
                    PhaseSpec::turn("move", Actor::Active),
                    PhaseSpec::turn("defensive_fire", Actor::Others),
                    PhaseSpec::turn("offensive_fire", Actor::Active),
                ],
            ),
        }
    }
}

impl Rules for Resign {
    fn turn_structure(&self) -> &TurnStructure {
        &self.turns
    }
    fn setup(&self, state: &mut GameState) -> Result<(), RulesError> {
        for s in ["blue", "red", "green"] {
            state.sides_mut().push(SideState::new(s, s));
        }
        std::sync::Arc::make_mut(&mut state.globals).insert("ready".into(), json!(true));
        Ok(())
    }
    fn legal_actions(&self, _: &GameState, side: &SideId) -> Result<Vec<Action>, RulesError> {
        Ok(vec![Action::new("resign", side.clone(), json!(null))])
    }
    fn check(&self, state: &GameState, action: &Action) -> Result<Result<(), Illegal>, RulesError> {
        let in_move = state.phase_id(&self.turns) == Some("move");
        if action.is_end_phase() && in_move && state.globals.get("ready") != Some(&json!(true)) {
            return Ok(Err(Illegal::new("not ready")));
        }
        Ok(Ok(()))
    }
    fn apply(
        &self,
        state: &mut GameState,
        action: &Action,
    ) -> Result<Result<(), Illegal>, RulesError> {
        match action.id.as_str() {
            "resign" => {
                state.side_mut(&action.side).unwrap().eliminated = true;
                Ok(Ok(()))
            }
            "unready" => {
                std::sync::Arc::make_mut(&mut state.globals).insert("ready".into(), json!(false));
                Ok(Ok(()))
            }
            _ => Ok(Err(Illegal::new("unknown"))),
        }
    }
    fn hook(&self, _: &mut GameState, _: &HookEvent) -> Result<(), RulesError> {
        Ok(())
    }
    fn outcome(&self, _: &GameState) -> Result<Option<Outcome>, RulesError> {
        Ok(None)
    }
}

fn where_(g: &Game<&Resign>) -> (String, Vec<String>, Option<String>) {
    let s = g.state();
    (
        s.phase_id(&g.rules().turns).unwrap_or("-").to_string(),
        s.clock
            .acting
            .iter()
            .map(|x| x.as_str().to_string())
            .collect(),
        s.clock
            .turn_index
            .map(|i| s.clock.order[i as usize].clone()),
    )
}

#[test]
fn a_side_eliminated_in_its_own_turn_skips_the_rest_of_that_turn() {
    let rules = Resign::new();
    // Borrowed rules: two games over one rule set.
    let mut g = Game::new(&rules, GameState::new(vec![], "", json!(null), 1)).unwrap();
    let other = Game::new(&rules, GameState::new(vec![], "", json!(null), 1)).unwrap();
    assert_eq!(
        where_(&g),
        ("move".into(), vec!["blue".into()], Some("blue".into()))
    );
    g.perform(&Action::new("resign", "blue", json!(null)))
        .unwrap();
    // Not blue's defensive fire (red and green) nor its offensive fire: red's turn begins.
    assert_eq!(
        where_(&g),
        ("move".into(), vec!["red".into()], Some("red".into()))
    );
    g.perform(&Action::end_phase(SideId::new("red"))).unwrap();
    // Blue is out: only green fires defensively in red's turn.
    assert_eq!(
        where_(&g),
        (
            "defensive_fire".into(),
            vec!["green".into()],
            Some("red".into())
        )
    );
    assert_eq!(where_(&other).2, Some("blue".into()));
}

#[test]
fn end_phase_is_offered_only_when_the_rules_allow_it() {
    let rules = Resign::new();
    let mut g = Game::new(&rules, GameState::new(vec![], "", json!(null), 1)).unwrap();
    let blue = SideId::new("blue");
    assert!(
        g.legal_actions(&blue)
            .unwrap()
            .iter()
            .any(Action::is_end_phase)
    );
    g.perform(&Action::new("unready", "blue", json!(null)))
        .unwrap();
    let legal = g.legal_actions(&blue).unwrap();
    assert!(!legal.iter().any(Action::is_end_phase), "{legal:?}");
    assert!(g.perform(&Action::end_phase(blue)).is_err());
}
