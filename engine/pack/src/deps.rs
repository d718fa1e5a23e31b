//! A pack's dependencies against the mods already available, explained in plain words.
//!
//! "orbital-belt-pack 1.0.0 needs orbital-skirmish >=0.2, but 0.1.0 is installed". Checked:
//! every required dependency (and the `extends` base) is present in a matching version, every
//! optional one that is present matches, and so on down through the dependencies' own
//! dependencies; and no installed mod that depends on the pack's id would be broken by the new
//! version. Incompatible markers only matter when two mods load together, so they are not an
//! install conflict.
//!
//! This module reads nothing from disk: callers give it the manifests.
//!
//! ```
//! use hexforge_pack::deps::explain;
//! use hexforge_script::Manifest;
//! use std::collections::BTreeMap;
//! let m = |t: &str| Manifest::parse(t, "mod.toml").unwrap();
//! let pack = m("id = \"belt\"\nname = \"B\"\nversion = \"1.0.0\"\nengine = \"*\"\n[dependencies]\nbase = \">=0.2\"\n");
//! let mut have = BTreeMap::new();
//! have.insert("base".to_string(), m("id = \"base\"\nname = \"A\"\nversion = \"0.1.0\"\nengine = \"*\"\n"));
//! assert_eq!(explain(&pack, &have), vec!["belt 1.0.0 needs base >=0.2, but 0.1.0 is installed"]);
//! ```

use hexforge_script::Manifest;
use std::collections::{BTreeMap, BTreeSet};

/// Every reason `pack` cannot join the `available` mods (by id), one plain sentence each;
/// empty when it fits. A mod with the pack's id in `available` is the version it would replace.
#[must_use]
pub fn explain(pack: &Manifest, available: &BTreeMap<String, Manifest>) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    needs(pack, available, None, &mut seen, &mut out);
    for (id, m) in available {
        if *id == pack.id {
            continue;
        }
        if let Some(d) = m.all_dependencies().get(&pack.id)
            && !d.incompatible
            && !d.version.matches(&pack.version)
        {
            out.push(format!(
                "{id} {} (installed) needs {} {}, so installing {} {} would break it",
                m.version, pack.id, d.version, pack.id, pack.version
            ));
        }
    }
    out
}

fn needs(
    m: &Manifest,
    available: &BTreeMap<String, Manifest>,
    via: Option<&str>,
    seen: &mut BTreeSet<String>,
    out: &mut Vec<String>,
) {
    if !seen.insert(m.id.clone()) {
        return;
    }
    let through = via.map_or_else(String::new, |v| format!(" (needed by {v})"));
    for (dep, d) in m.all_dependencies() {
        if d.incompatible {
            continue;
        }
        match available.get(&dep) {
            None if d.optional => {}
            None => out.push(format!(
                "{} {} needs {dep} {}, which is not installed{through}; install {dep} first",
                m.id, m.version, d.version
            )),
            Some(have) if !d.version.matches(&have.version) => out.push(format!(
                "{} {} needs {dep} {}, but {} is installed{through}",
                m.id, m.version, d.version, have.version
            )),
            Some(have) => needs(have, available, Some(&m.id), seen, out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(id: &str, v: &str, extra: &str) -> Manifest {
        Manifest::parse(
            &format!("id = \"{id}\"\nname = \"n\"\nversion = \"{v}\"\nengine = \"*\"\n{extra}"),
            "mod.toml",
        )
        .unwrap()
    }

    fn set(ms: Vec<Manifest>) -> BTreeMap<String, Manifest> {
        ms.into_iter().map(|m| (m.id.clone(), m)).collect()
    }

    #[test]
    fn a_fitting_pack_has_nothing_to_explain() {
        let pack = m(
            "p",
            "1.0.0",
            "extends = \"base\"\n[dependencies]\nbase = \"^0.1\"\nopt = { version = \"^9\", optional = true }\n",
        );
        assert!(explain(&pack, &set(vec![m("base", "0.1.3", "")])).is_empty());
    }

    #[test]
    fn missing_mismatched_and_transitive_problems_are_sentences() {
        let pack = m(
            "p",
            "1.0.0",
            "extends = \"base\"\n[dependencies]\nlib = \"^2\"\ngone = \"*\"\n",
        );
        let have = set(vec![
            m("base", "1.0.0", "[dependencies]\ncore = \">=3\"\n"),
            m("lib", "1.4.0", ""),
            m("core", "2.0.0", ""),
        ]);
        let why = explain(&pack, &have);
        assert_eq!(
            why,
            vec![
                "base 1.0.0 needs core >=3, but 2.0.0 is installed (needed by p)",
                "p 1.0.0 needs gone *, which is not installed; install gone first",
                "p 1.0.0 needs lib ^2, but 1.4.0 is installed",
            ]
        );
    }

    #[test]
    fn a_new_version_that_breaks_an_installed_dependent_is_explained() {
        let pack = m("base", "2.0.0", "");
        let have = set(vec![
            m("base", "1.0.0", ""),
            m(
                "variant",
                "0.3.0",
                "extends = \"base\"\n[dependencies]\nbase = \"^1\"\n",
            ),
        ]);
        assert_eq!(
            explain(&pack, &have),
            vec![
                "variant 0.3.0 (installed) needs base ^1, so installing base 2.0.0 would break it"
            ]
        );
    }
}
