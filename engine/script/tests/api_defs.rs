//! The LuaLS definition file `scripts/types/hexforge.d.lua` and the registered API agree:
//! every registered function is declared there and every declared function is registered.

use hexforge_script::{Limits, Sandbox, api::NAMESPACES, decl::install_game};
use std::collections::BTreeSet;

fn defs() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scripts/types/hexforge.d.lua"
    );
    std::fs::read_to_string(path).expect("scripts/types/hexforge.d.lua")
}

/// `(namespace, name)` of every `function ns.name(` and `ns.NAME = ` line.
fn declared(text: &str) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let l = line.trim();
        let body = l.strip_prefix("function ").unwrap_or(l);
        let Some((lhs, _)) = body.split_once(['(', ' ']) else {
            continue;
        };
        if let Some((ns, name)) = lhs.split_once(['.', ':'])
            && !ns.is_empty()
            && ns.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && (l.starts_with("function ") || body.contains(" = "))
        {
            out.insert((ns.to_string(), name.to_string()));
        }
    }
    out
}

fn registered(sb: &Sandbox, ns: &str) -> BTreeSet<(String, String)> {
    let t: mlua::Table = sb.lua().globals().get(ns).unwrap();
    t.pairs::<String, mlua::Value>()
        .map(|p| p.unwrap())
        .filter(|(_, v)| !matches!(v, mlua::Value::Table(_)))
        .map(|(k, _)| (ns.to_string(), k))
        .collect()
}

#[test]
fn definition_file_matches_registrations() {
    let sb = Sandbox::new(Limits::default()).unwrap();
    sb.guarded(install_game).unwrap();
    // `tables` is installed per rule set by the loader; an empty one has every function.
    hexforge_script::api::tables::install(sb.lua(), Default::default()).unwrap();
    let decl = declared(&defs());
    let mut namespaces: Vec<&str> = NAMESPACES.iter().map(|(n, _)| *n).collect();
    namespaces.push("game");
    namespaces.push("tables");
    let mut reg = BTreeSet::new();
    for ns in &namespaces {
        reg.extend(registered(&sb, ns));
    }
    let decl_here: BTreeSet<_> = decl
        .iter()
        .filter(|(ns, _)| namespaces.contains(&ns.as_str()))
        .cloned()
        .collect();
    let missing: Vec<_> = reg.difference(&decl_here).collect();
    let stale: Vec<_> = decl_here.difference(&reg).collect();
    assert!(
        missing.is_empty(),
        "registered but not in hexforge.d.lua: {missing:?}"
    );
    assert!(
        stale.is_empty(),
        "in hexforge.d.lua but not registered: {stale:?}"
    );
    assert!(reg.len() > 30, "{}", reg.len());
}
