//! Game-wide callbacks: `game.setup`, `game.victory`, and `game.on` hooks ([`HookDecl`], the
//! events they may name in [`HOOK_EVENTS`], and the check of their phase / action filters).

use super::reader::Reader;
use super::{CallbackId, ModDecls};
use crate::error::SourceLoc;
use mlua::{Table, Value};

/// Engine events a mod may hook with `game.on`.
pub const HOOK_EVENTS: &[&str] = &[
    "round_start",
    "segment_start",
    "turn_start",
    "phase_start",
    "phase_end",
    "after_action",
    "turn_limit",
];

/// A hook callback.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct HookDecl {
    /// The callback.
    pub callback: CallbackId,
    /// `game.on(event, { phases = ... }, fn)`: called only for these phases (phase_start and
    /// phase_end); empty = every phase.
    pub phases: Vec<String>,
    /// `game.on(event, { actions = ... }, fn)`: called only after these actions
    /// (after_action); empty = every action.
    pub actions: Vec<String>,
    /// Where it was declared.
    pub source: SourceLoc,
}

/// Reads `game.setup` and `game.victory`, in that order.
pub(super) fn read_setup_victory(
    r: &mut Reader<'_>,
    game: &Table,
    sources: &Table,
    d: &mut ModDecls,
) {
    for (field, key) in [("setup_fn", "setup"), ("victory_fn", "victory")] {
        let loc = sources
            .raw_get::<Option<String>>(key)
            .ok()
            .flatten()
            .map(|s| SourceLoc::parse(&s))
            .unwrap_or_default();
        let cb = r.callback(
            game.raw_get(field).unwrap_or(Value::Nil),
            &loc,
            &format!("game.{key}"),
            false,
        );
        if key == "setup" {
            d.setup = cb
        } else {
            d.victory = cb
        }
    }
}

/// Reads `game.on` hooks, once the turn structure and actions are read (filters name them).
pub(super) fn read_hooks(r: &mut Reader<'_>, game: &Table, sources: &Table, d: &mut ModDecls) {
    if let Ok(Some(hooks)) = game.raw_get::<Option<Table>>("hooks") {
        let hook_sources: Option<Table> = sources.raw_get("hooks").ok().flatten();
        let mut events: Vec<(String, Table)> = hooks.pairs::<String, Table>().flatten().collect();
        events.sort_by(|a, b| a.0.cmp(&b.0));
        for (event, list) in events {
            let locs: Option<Table> = hook_sources
                .as_ref()
                .and_then(|s| s.raw_get(event.as_str()).ok().flatten());
            let n = list.raw_len();
            for i in 1..=n {
                let loc = locs
                    .as_ref()
                    .and_then(|l| l.raw_get::<Option<String>>(i).ok().flatten())
                    .map(|s| SourceLoc::parse(&s))
                    .unwrap_or_default();
                if !HOOK_EVENTS.contains(&event.as_str()) {
                    r.err(
                        &loc,
                        format!(
                            "game.on: unknown event {event:?}; events are {}",
                            HOOK_EVENTS.join(", ")
                        ),
                    );
                    continue;
                }
                let what = format!("game.on({event:?})");
                // A plain function, or { fn = ..., phases = ..., actions = ... } (a filter).
                let (f, phases, actions) = match list.raw_get(i).unwrap_or(Value::Nil) {
                    Value::Table(t) => {
                        let phases = r.strings(
                            t.raw_get("phases").unwrap_or(Value::Nil),
                            &loc,
                            &format!("{what}: phases"),
                        );
                        let actions = r.strings(
                            t.raw_get("actions").unwrap_or(Value::Nil),
                            &loc,
                            &format!("{what}: actions"),
                        );
                        (t.raw_get("fn").unwrap_or(Value::Nil), phases, actions)
                    }
                    other => (other, Vec::new(), Vec::new()),
                };
                check_hook_filter(r, &loc, &what, &event, &phases, &actions, d);
                if let Some(cb) = r.callback(f, &loc, &what, true) {
                    d.hooks.entry(event.clone()).or_default().push(HookDecl {
                        callback: cb,
                        phases,
                        actions,
                        source: loc,
                    });
                }
            }
        }
    }
}

/// Reports a hook filter that names what the event never carries or what was not declared.
fn check_hook_filter(
    r: &mut Reader<'_>,
    loc: &SourceLoc,
    what: &str,
    event: &str,
    phases: &[String],
    actions: &[String],
    d: &ModDecls,
) {
    let phase_event = matches!(event, "phase_start" | "phase_end");
    if !phases.is_empty() && !phase_event {
        r.err(
            loc,
            format!("{what}: a phases filter applies only to phase_start and phase_end"),
        );
    }
    if !actions.is_empty() && event != "after_action" {
        r.err(
            loc,
            format!("{what}: an actions filter applies only to after_action"),
        );
    }
    let declared: Vec<&str> = d
        .turns
        .as_ref()
        .map(|t| t.phases.iter().map(|p| p.id.as_str()).collect())
        .unwrap_or_default();
    for p in phases
        .iter()
        .filter(|p| phase_event && !declared.contains(&p.as_str()))
    {
        r.err(
            loc,
            format!(
                "{what}: phase {p:?} is not declared in game.turns (phases: {})",
                declared.join(", ")
            ),
        );
    }
    for a in actions {
        let known = a == "end_phase" || d.actions.contains_key(a);
        if event == "after_action" && !known {
            r.err(
                loc,
                format!(
                    "{what}: action {a:?} is not declared (actions: {})",
                    d.actions.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            );
        }
    }
}
