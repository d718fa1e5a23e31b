//! The Lua API as the code panel completes it: read from the LuaLS definition files
//! (`scripts/types/*.d.lua`, embedded at build time as `hexforge new` embeds them), so the
//! completion list is the API the engine registers (a test keeps those files in step).
//!
//! What is read: `---@class Name[: Parent]` with its `---@field`s, `function T.f(..)` and
//! `function T:m(..)` with the `---` lines above them, and `name = {}` right after a class block
//! (the `game` table has the fields of class `Game`). Deliberately not a Lua type checker: a
//! receiver is known by its name only (`ctx`, `g`, `t`, a namespace, a class's name in lower
//! case), which is how the bundled mods and the guide name them.
//!
//! ```
//! use hexforge_editor::panels::code_editor::api::Api;
//! let api = Api::bundled();
//! assert!(api.members("ctx", ':').iter().any(|m| m.name == "roll"));
//! assert!(api.members("game", '.').iter().any(|m| m.name == "piece_type"));
//! ```

use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The definition files, as `hexforge new` embeds them.
const DEFINITIONS: &[&str] = &[
    include_str!("../../../../scripts/types/hexforge.d.lua"),
    include_str!("../../../../scripts/types/hexforge-test.d.lua"),
];

/// Receivers named by convention rather than by their class (`function(ctx)`, `test(.., function(t)`,
/// `local g = t:game {..}`).
const CONVENTIONS: &[(&str, &str)] = &[("ctx", "Ctx"), ("g", "TestGame"), ("t", "TestCase")];

/// One completion: a field, function or method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// What is inserted.
    pub name: String,
    /// The signature or type shown beside it (`roll(notation, label) -> integer`).
    pub detail: String,
    /// The documentation lines above it.
    pub doc: String,
}

/// The members of one table or class.
#[derive(Clone, Debug, Default)]
struct Table {
    parents: Vec<String>,
    /// Fields and `T.f` functions.
    dot: Vec<Member>,
    /// `T:m` methods.
    colon: Vec<Member>,
}

/// Every table and class of the definition files.
#[derive(Clone, Debug, Default)]
pub struct Api {
    tables: BTreeMap<String, Table>,
}

impl Api {
    /// The API of the bundled definition files (parsed once).
    pub fn bundled() -> &'static Api {
        static API: OnceLock<Api> = OnceLock::new();
        API.get_or_init(|| Api::parse(DEFINITIONS))
    }

    /// Reads definition files.
    #[must_use]
    pub fn parse(files: &[&str]) -> Api {
        let mut api = Api::default();
        for text in files {
            api.read(text);
        }
        for t in api.tables.values_mut() {
            t.dot.sort_by(|a, b| a.name.cmp(&b.name));
            t.colon.sort_by(|a, b| a.name.cmp(&b.name));
        }
        api
    }

    fn read(&mut self, text: &str) {
        let mut doc: Vec<&str> = Vec::new();
        let mut ret: Option<String> = None;
        // The class whose block (its `---@class` and `---@field` lines) we are in.
        let mut class: Option<String> = None;
        for line in text.lines() {
            let line = line.trim_end();
            if let Some(rest) = line.strip_prefix("---@class ") {
                let (name, parent) = match rest.split_once(':') {
                    Some((n, p)) => (n.trim(), Some(p.trim())),
                    None => (rest.split_whitespace().next().unwrap_or(""), None),
                };
                let t = self.tables.entry(name.to_owned()).or_default();
                t.parents.extend(parent.map(str::to_owned));
                class = Some(name.to_owned());
                doc.clear();
            } else if let Some(rest) = line.strip_prefix("---@field ") {
                let mut words = rest.splitn(2, ' ');
                let name = words.next().unwrap_or("").trim_end_matches('?');
                let ty = words.next().unwrap_or("").trim();
                if let Some(c) = &class
                    && !name.is_empty()
                {
                    let (ty, note) = ty.split_once(" -- ").unwrap_or((ty, ""));
                    let member = Member {
                        name: name.to_owned(),
                        detail: format!("{name}: {}", ty.trim()),
                        doc: join_doc(&doc, note),
                    };
                    self.table(c).dot.push(member);
                }
                doc.clear();
            } else if let Some(rest) = line.strip_prefix("---@return ") {
                // A table type (`{ value: integer, .. }[]`) is too long for the list.
                ret = rest.split_whitespace().next().map(|r| {
                    if r.starts_with('{') {
                        "table".to_owned()
                    } else {
                        r.to_owned()
                    }
                });
            } else if line.starts_with("---@") {
            } else if let Some(rest) = line.strip_prefix("---") {
                doc.push(rest.trim());
            } else if let Some(rest) = line.strip_prefix("function ") {
                self.function(rest, &doc, ret.as_deref());
                doc.clear();
                ret = None;
                class = None;
            } else if let Some(name) = table_assignment(line) {
                // `game = {}` right after `---@class Game ...`: the table has that class.
                if let Some(c) = class.take()
                    && c != name
                {
                    self.table(name).parents.push(c);
                }
                self.table(name);
                doc.clear();
            } else {
                class = None;
                doc.clear();
                ret = None;
            }
        }
    }

    fn table(&mut self, name: &str) -> &mut Table {
        self.tables.entry(name.to_owned()).or_default()
    }

    /// `rest` is what follows `function `: `T.f(a, b) end` or `T:m(a) end`.
    fn function(&mut self, rest: &str, doc: &[&str], ret: Option<&str>) {
        let Some(open) = rest.find('(') else { return };
        let head = &rest[..open];
        let args = rest[open..].split(')').next().unwrap_or("(");
        let (owner, sep, name) = match head.rfind([':', '.']) {
            Some(i) => (&head[..i], head.as_bytes()[i], &head[i + 1..]),
            None => return, // a global function (`test`): not completed after a receiver
        };
        let detail = match ret {
            Some(r) => format!("{name}{args}) -> {r}"),
            None => format!("{name}{args})"),
        };
        let member = Member {
            name: name.to_owned(),
            detail,
            doc: doc.join(" "),
        };
        let t = self.table(owner);
        if sep == b':' {
            t.colon.push(member);
        } else {
            t.dot.push(member);
        }
    }

    /// The table a receiver names: a convention (`ctx`), a table (`hex`, `game`), or a class
    /// named like the receiver (`piece` -> `Piece`).
    fn resolve(&self, receiver: &str) -> Option<&str> {
        if let Some((_, class)) = CONVENTIONS.iter().find(|(r, _)| *r == receiver) {
            return Some(class);
        }
        if let Some((k, _)) = self.tables.get_key_value(receiver) {
            return Some(k);
        }
        self.tables
            .keys()
            .find(|k| k.eq_ignore_ascii_case(receiver))
            .map(String::as_str)
    }

    /// The members reachable from `receiver` with `sep` (`.` fields and functions, `:`
    /// methods), its classes' and their parents' included, sorted by name, no name twice.
    #[must_use]
    pub fn members(&self, receiver: &str, sep: char) -> Vec<&Member> {
        let mut out: BTreeMap<&str, &Member> = BTreeMap::new();
        let mut todo: Vec<&str> = self.resolve(receiver).into_iter().collect();
        let mut seen: Vec<&str> = Vec::new();
        while let Some(name) = todo.pop() {
            if seen.contains(&name) {
                continue;
            }
            seen.push(name);
            let Some(t) = self.tables.get(name) else {
                continue;
            };
            let list = if sep == ':' { &t.colon } else { &t.dot };
            for m in list {
                out.entry(m.name.as_str()).or_insert(m);
            }
            todo.extend(t.parents.iter().map(String::as_str));
        }
        out.into_values().collect()
    }
}

fn join_doc(doc: &[&str], note: &str) -> String {
    let mut d = doc.join(" ");
    if !note.is_empty() {
        if !d.is_empty() {
            d.push(' ');
        }
        d.push_str(note.trim());
    }
    d
}

/// `name = {}` or `local name = {}`: the name.
fn table_assignment(line: &str) -> Option<&str> {
    let line = line.strip_prefix("local ").unwrap_or(line);
    let (name, value) = line.split_once('=')?;
    let name = name.trim();
    (value.trim() == "{}" && !name.is_empty() && name.chars().all(is_ident)).then_some(name)
}

/// Whether `c` may be part of a Lua name.
#[must_use]
pub fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(api: &Api, r: &str, sep: char) -> Vec<String> {
        api.members(r, sep).iter().map(|m| m.name.clone()).collect()
    }

    #[test]
    fn classes_fields_methods_and_parents() {
        let api = Api::parse(&[
            "---@class Base\nlocal Base = {}\n\n---Reads.\n---@param a integer\n---@return Hex\nfunction Base:read(a) end\n\
             ---@class Ctx: Base\n---@field round integer -- the round\nlocal Ctx = {}\n\
             function Ctx:write(k, v) end\n\
             ---@class Game\n---@field bots table\ngame = {}\n\n---Declares.\nfunction game.piece_type(t) end\n\
             ---@class Hex\n---@field q integer\n\nhex = {}\nfunction hex.new(q, r) end\n",
        ]);
        assert_eq!(names(&api, "ctx", ':'), ["read", "write"]);
        assert_eq!(names(&api, "ctx", '.'), ["round"]);
        assert_eq!(names(&api, "game", '.'), ["bots", "piece_type"]);
        // `hex = {}` after a blank line is not class Hex.
        assert_eq!(names(&api, "hex", '.'), ["new"]);
        let read = api.members("ctx", ':')[0];
        assert_eq!(read.detail, "read(a) -> Hex");
        assert_eq!(read.doc, "Reads.");
        assert_eq!(api.members("ctx", '.')[0].doc, "the round");
        assert!(api.members("nothing", '.').is_empty());
    }

    #[test]
    fn the_bundled_definitions_give_the_ctx_methods_and_the_game_functions() {
        let api = Api::bundled();
        let ctx = names(api, "ctx", ':');
        for m in ["piece", "pieces", "set", "roll", "move", "log"] {
            assert!(ctx.iter().any(|n| n == m), "ctx:{m} in {ctx:?}");
        }
        let game = names(api, "game", '.');
        for f in ["piece_type", "action", "turns", "setup", "victory", "on"] {
            assert!(game.iter().any(|n| n == f), "game.{f} in {game:?}");
        }
        assert!(names(api, "hex", '.').iter().any(|n| n == "distance"));
        assert!(names(api, "t", ':').iter().any(|n| n == "eq"));
        assert!(names(api, "g", ':').iter().any(|n| n == "act"));
        // A test game reads as a ctx does.
        assert!(names(api, "g", ':').iter().any(|n| n == "pieces"));
        assert!(names(api, "piece", '.').iter().any(|n| n == "owner"));
        let detail = |name: &str| {
            api.members("ctx", ':')
                .into_iter()
                .find(|m| m.name == name)
                .map(|m| m.detail.clone())
        };
        assert_eq!(
            detail("roll_detail").unwrap(),
            "roll_detail(notation, label) -> table"
        );
    }
}
