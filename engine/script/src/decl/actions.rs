//! Action types: [`ActionDecl`], the parameter kinds an action may declare ([`PARAM_KINDS`]),
//! and the reader of `game.action` declarations.

use super::reader::{Reader, check_id, entries};
use super::{CallbackId, ModDecls};
use crate::error::SourceLoc;
use mlua::{Table, Value};
use std::collections::BTreeMap;

/// Parameter kinds an action may declare.
pub const PARAM_KINDS: &[&str] = &[
    "piece",
    "hex",
    "side",
    "direction",
    "integer",
    "number",
    "string",
    "boolean",
    "path",
    "node",
    "box",
    "any",
];

/// An action type.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ActionDecl {
    /// Id.
    pub id: String,
    /// Phases it is allowed in (empty = any).
    pub phases: Vec<String>,
    /// Parameter name -> kind.
    pub params: BTreeMap<String, String>,
    /// `choices(ctx, side)` listing legal actions.
    pub choices: Option<CallbackId>,
    /// `check(ctx, a)` returning true or a reason.
    pub check: Option<CallbackId>,
    /// `apply(ctx, a)` (absent only for `end_phase`, which may declare just a `check`).
    pub apply: Option<CallbackId>,
    /// An answer to a question the rules ask mid-phase (`ctx:ask`): legal only while a side is
    /// asked, and while one is, the only kind of action that is.
    pub answer: bool,
    /// Where it was declared.
    pub source: SourceLoc,
}

/// Reads `game.actions`, once the turn structure is read (an action names its phases).
pub(super) fn read_actions(r: &mut Reader<'_>, game: &Table, sources: &Table, d: &mut ModDecls) {
    let phase_ids: Vec<String> = d
        .turns
        .as_ref()
        .map(|t| t.phases.iter().map(|p| p.id.clone()).collect())
        .unwrap_or_default();
    for (id, t, loc) in entries(r, game, sources, "actions") {
        check_id(r, &loc, "action", &id, &t);
        let phases = r.strings(
            t.raw_get("phases").unwrap_or(Value::Nil),
            &loc,
            &format!("action {id}: phases"),
        );
        for p in &phases {
            if !phase_ids.contains(p) {
                r.err(
                    &loc,
                    format!(
                        "action {id}: phase {p:?} is not declared in game.turns (phases: {})",
                        phase_ids.join(", ")
                    ),
                );
            }
        }
        let mut params = BTreeMap::new();
        for (name, kind) in r.map(
            t.raw_get("params").unwrap_or(Value::Nil),
            &loc,
            &format!("action {id}: params"),
        ) {
            match kind.as_str() {
                Some(k) if PARAM_KINDS.contains(&k) => {
                    params.insert(name, k.to_string());
                }
                _ => r.err(
                    &loc,
                    format!(
                        "action {id}: param {name}: kind {kind} is not one of {}",
                        PARAM_KINDS.join(", ")
                    ),
                ),
            }
        }
        let choices = r.callback(
            t.raw_get("choices").unwrap_or(Value::Nil),
            &loc,
            &format!("action {id}: choices"),
            false,
        );
        let check = r.callback(
            t.raw_get("check").unwrap_or(Value::Nil),
            &loc,
            &format!("action {id}: check"),
            false,
        );
        let is_end_phase = id == "end_phase";
        let answer = match t.raw_get::<Value>("answer").unwrap_or(Value::Nil) {
            Value::Nil => false,
            Value::Boolean(b) => b,
            v => {
                r.err(
                    &loc,
                    format!(
                        "action {id}: answer: expected true or false, got {}",
                        v.type_name()
                    ),
                );
                false
            }
        };
        if is_end_phase && answer {
            r.err(
                &loc,
                "action end_phase: answer: the engine's end_phase is never an answer".into(),
            );
        }
        let apply_v: Value = t.raw_get("apply").unwrap_or(Value::Nil);
        if is_end_phase && !apply_v.is_nil() {
            r.err(
                &loc,
                "action end_phase is the engine's: declare only a check (and phases) to refuse it"
                    .into(),
            );
        }
        let apply = r.callback(apply_v, &loc, &format!("action {id}: apply"), !is_end_phase);
        if apply.is_some() || is_end_phase {
            d.actions.insert(
                id.clone(),
                ActionDecl {
                    id,
                    phases,
                    params,
                    choices,
                    check,
                    apply,
                    answer,
                    source: loc,
                },
            );
        }
    }
}
