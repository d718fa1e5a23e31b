//! How big game data is, counted in bytes as a save file holds it (JSON), without writing it,
//! and the limits a rule set puts on it ([`StateLimits`]).
//!
//! Why: what a mod writes into the state (`ctx:set` values, `ctx:log` text, new pieces) lives
//! outside its VM's memory limit, so the engine bounds it separately: per action (the rules
//! charge each write, see `hexforge_script`) and in total ([`crate::Game::perform`]). Counting
//! JSON bytes gives a figure a mod author can check against a save file; the heap a value takes
//! in memory is a small multiple of it.

use crate::{GameState, LogEntry, Value};

/// A rule set's limits on the game state, in bytes as saved (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateLimits {
    /// What one action may add (its apply and the hooks it fires; setup for the game start).
    pub per_action: usize,
    /// The whole state with its log.
    pub total: usize,
}

impl StateLimits {
    /// Per action by default: 1 MiB, about a hundred times what any bundled mod writes.
    pub const PER_ACTION: usize = 1 << 20;
    /// In total by default: 64 MiB.
    pub const TOTAL: usize = 64 << 20;
    /// The most a mod may ask for per action (`write_kib` in mod.toml).
    pub const HOST_PER_ACTION: usize = 16 << 20;
    /// The most a mod may ask for in total (`state_mib` in mod.toml).
    pub const HOST_TOTAL: usize = 1 << 30;

    /// The limits a rule set asks for (`None`: the default), each clamped to the host's cap.
    #[must_use]
    pub fn asked(per_action: Option<usize>, total: Option<usize>) -> StateLimits {
        StateLimits {
            per_action: per_action.map_or(Self::PER_ACTION, |n| n.min(Self::HOST_PER_ACTION)),
            total: total.map_or(Self::TOTAL, |n| n.min(Self::HOST_TOTAL)),
        }
    }
}

impl Default for StateLimits {
    fn default() -> Self {
        StateLimits::asked(None, None)
    }
}

/// `n` bytes as people read them: `512 B`, `4.0 KiB`, `1.5 MiB`.
#[must_use]
pub fn shown(n: usize) -> String {
    match n {
        0..1024 => format!("{n} B"),
        1024..0x10_0000 => format!("{:.1} KiB", n as f64 / 1024.0),
        _ => format!("{:.1} MiB", n as f64 / f64::from(1 << 20)),
    }
}

/// The bytes `v` takes as compact JSON, counted (strings without their escapes, numbers at
/// eight digits: close enough for a budget, and cheap).
#[must_use]
pub fn json_bytes(v: &Value) -> usize {
    match v {
        Value::Null => 4,
        Value::Bool(_) => 5,
        Value::Number(_) => 8,
        Value::String(s) => s.len() + 2,
        Value::Array(a) => 2 + a.iter().map(|x| json_bytes(x) + 1).sum::<usize>(),
        Value::Object(m) => {
            2 + m
                .iter()
                .map(|(k, x)| k.len() + 4 + json_bytes(x))
                .sum::<usize>()
        }
    }
}

/// A roll's bytes as saved (its label, expression and dice).
#[must_use]
pub fn roll_bytes(r: &crate::Roll) -> usize {
    r.label.len() + r.expr.len() + 24 * r.dice.len() + 32
}

/// A log entry's bytes as saved (its action's params, rolls and lines).
#[must_use]
pub fn entry_bytes(e: &LogEntry) -> usize {
    let action = e.action.as_ref().map_or(4, |a| {
        a.id.len() + a.side.as_str().len() + json_bytes(&a.params) + 32
    });
    let rolls: usize = e
        .rolls
        .iter()
        .map(|r| r.label.len() + r.expr.len() + 24 * r.dice.len() + 32)
        .sum();
    let lines: usize = e.events.iter().map(|l| l.len() + 3).sum();
    action + rolls + lines + 32
}

impl GameState {
    /// The state's bytes as saved, without its log: what a mod's writes can grow (piece, side
    /// and global values, pieces, terrain, pending lines). The board's shape and graphs come
    /// from the scenario and are left out.
    #[must_use]
    pub fn approx_bytes(&self) -> usize {
        let values = |m: &std::collections::BTreeMap<String, Value>| {
            m.iter()
                .map(|(k, v)| k.len() + 4 + json_bytes(v))
                .sum::<usize>()
        };
        let pieces: usize = self
            .pieces
            .values()
            .map(|p| p.kind.len() + p.owner.as_str().len() + values(&p.values) + 64)
            .sum();
        let sides: usize = self
            .sides
            .iter()
            .map(|s| s.name.len() + values(&s.values) + 32)
            .sum();
        let terrain: usize = self
            .board
            .terrain
            .values()
            .map(|ids| 16 + ids.iter().map(|i| i.len() + 3).sum::<usize>())
            .sum();
        let events: usize = self.events.iter().map(|l| l.len() + 3).sum();
        pieces + sides + terrain + events + values(&self.globals) + 256
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_bytes_are_close_to_the_saved_text() {
        for v in [
            json!(null),
            json!({ "hull": 4, "name": "Vigilant", "at": { "q": 1, "r": -2 } }),
            json!([1, 2, 3, "four", [5, 6], { "k": true }]),
            json!({ "long": "x".repeat(10_000) }),
        ] {
            let saved = serde_json::to_string(&v).unwrap().len();
            let counted = json_bytes(&v);
            assert!(
                counted >= saved / 2 && counted <= saved * 2 + 16,
                "{v}: {counted} vs {saved}"
            );
        }
    }

    #[test]
    fn limits_are_clamped_to_the_host_caps() {
        assert_eq!(StateLimits::default().per_action, StateLimits::PER_ACTION);
        let l = StateLimits::asked(Some(usize::MAX), Some(usize::MAX));
        assert_eq!(
            (l.per_action, l.total),
            (StateLimits::HOST_PER_ACTION, StateLimits::HOST_TOTAL)
        );
        assert_eq!(shown(3 << 20), "3.0 MiB");
        assert_eq!(shown(100), "100 B");
    }
}
