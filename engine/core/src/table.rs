//! Rule tables: a grid of results looked up by a row and a column, with exact outcome odds.
//!
//! Each axis has keys: exact integers (`7`), integer ranges (`2-4`, `12+`, `>=12`, `<=1`,
//! `-3--1`) or names (`cruiser`). A numeric axis is sorted and its keys never overlap; a value in
//! a gap between keys is an error. What happens to a value beyond the keys is the axis's
//! [`OutOfRange`] policy:
//! - [`OutOfRange::Clamp`]: use the nearest end key.
//! - [`OutOfRange::Error`]: return [`TableError::OutOfRange`].
//! - [`OutOfRange::ShiftRoll`] (columns only): past the last column, use the last column and add
//!   one to the row value (the roll) per step beyond. A step is one unit of value past the last
//!   key's upper end, or one column when shifting by index. Below the first column it clamps.
//!   This is the hyperjump table's rule ("beyond 5: rightmost column, +1 per step").
//!
//! Names never go out of range: an unknown name is [`TableError::UnknownName`]. Cells hold a
//! [`Cell`]: a string id (`"drift1"`) or a small integer (a to-hit number). Tables are serde data
//! (keys as strings like `"12+"`) and are validated on construction and on deserialisation.
//!
//! This module does not roll dice (the caller rolls with [`crate::dice::DiceRoller`] and looks up
//! the total) and holds no rule-specific tables: those live in mod data.
//!
//! ```
//! use hexforge_core::table::{Axis, Cell, OutOfRange, Table, outcome_distribution};
//! use hexforge_core::dice::{DiceExpr, Ratio};
//!
//! let rows = Axis::parse("roll", &["<=3", "4-5", "6+"], OutOfRange::Error).unwrap();
//! let cols = Axis::parse("range", &["1", "2"], OutOfRange::Clamp).unwrap();
//! let t = Table::new("demo", rows, cols, vec![
//!     vec![Cell::id("miss"), Cell::id("miss")],
//!     vec![Cell::id("hit"), Cell::id("miss")],
//!     vec![Cell::id("kill"), Cell::id("hit")],
//! ]).unwrap();
//! assert_eq!(t.lookup(5, 1).unwrap(), &Cell::id("hit"));
//! assert_eq!(t.lookup(5, 9).unwrap(), &Cell::id("miss")); // column clamped to 2
//! assert_eq!(t.lookup_shifted(5, 1, 1).unwrap(), &Cell::id("miss"));
//! let odds = outcome_distribution(&t, &"d6".parse::<DiceExpr>().unwrap(), 1).unwrap();
//! assert_eq!(odds[1], (Cell::id("hit"), Ratio::new(1, 3).unwrap()));
//! ```

use crate::dice::{DiceError, DiceExpr, Ratio, distribution};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Errors from building or consulting a table. Lookups return them as values.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TableError {
    /// The table or an axis is malformed.
    #[error("invalid table: {0}")]
    Invalid(String),
    /// A key's text is not a number, range or name.
    #[error("'{0}' is not a table key (number, 'a-b', 'a+', '>=a', '<=b' or a name)")]
    BadKey(String),
    /// A value beyond the keys of an axis whose policy is [`OutOfRange::Error`].
    #[error("{value} is beyond the {axis} keys")]
    OutOfRange {
        /// Axis name.
        axis: String,
        /// The value (or virtual column index, for shifts) asked for.
        value: i64,
    },
    /// A value between keys (in a gap of the axis).
    #[error("no {axis} key covers {value}")]
    NoEntry {
        /// Axis name.
        axis: String,
        /// The value asked for.
        value: i64,
    },
    /// A name that the axis does not have.
    #[error("no {axis} named '{name}'")]
    UnknownName {
        /// Axis name.
        axis: String,
        /// The name asked for.
        name: String,
    },
    /// A name asked of a numeric axis or a number of a named one.
    #[error("wrong kind of key for the {axis} axis")]
    WrongKind {
        /// Axis name.
        axis: String,
    },
    /// The dice expression's odds could not be computed.
    #[error(transparent)]
    Dice(#[from] DiceError),
}

/// One key of an axis.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// Exactly this value.
    Exact(i64),
    /// An inclusive range; `None` is open-ended (`12+` is `lo: Some(12), hi: None`).
    Range {
        /// Lowest value covered.
        lo: Option<i64>,
        /// Highest value covered.
        hi: Option<i64>,
    },
    /// A named key (a target type).
    Name(String),
}

impl Key {
    fn bounds(&self) -> Option<(Option<i64>, Option<i64>)> {
        match self {
            Key::Exact(v) => Some((Some(*v), Some(*v))),
            Key::Range { lo, hi } => Some((*lo, *hi)),
            Key::Name(_) => None,
        }
    }

    fn contains(&self, value: i64) -> bool {
        self.bounds().is_some_and(|(lo, hi)| {
            lo.is_none_or(|lo| value >= lo) && hi.is_none_or(|hi| value <= hi)
        })
    }
}

impl FromStr for Key {
    type Err = TableError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let s = text.trim();
        let bad = || TableError::BadKey(text.to_owned());
        let int = |t: &str| t.trim().parse::<i64>().map_err(|_| bad());
        if let Some(rest) = s.strip_prefix("<=") {
            return Ok(Key::Range {
                lo: None,
                hi: Some(int(rest)?),
            });
        }
        if let Some(rest) = s.strip_prefix(">=") {
            return Ok(Key::Range {
                lo: Some(int(rest)?),
                hi: None,
            });
        }
        if let Some(rest) = s.strip_suffix('+') {
            return Ok(Key::Range {
                lo: Some(int(rest)?),
                hi: None,
            });
        }
        if let Ok(v) = s.parse::<i64>() {
            return Ok(Key::Exact(v));
        }
        // `a-b`, where either may be negative: split at a '-' that follows a digit.
        let bytes = s.as_bytes();
        if let Some(i) =
            (1..bytes.len()).find(|&i| bytes[i] == b'-' && bytes[i - 1].is_ascii_digit())
        {
            return Ok(Key::Range {
                lo: Some(int(&s[..i])?),
                hi: Some(int(&s[i + 1..])?),
            });
        }
        if s.starts_with(|c: char| c.is_alphabetic() || c == '_') {
            return Ok(Key::Name(s.to_owned()));
        }
        Err(bad())
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Exact(v) => write!(f, "{v}"),
            Key::Range {
                lo: Some(a),
                hi: Some(b),
            } => write!(f, "{a}-{b}"),
            Key::Range { lo: Some(a), .. } => write!(f, "{a}+"),
            Key::Range { hi: Some(b), .. } => write!(f, "<={b}"),
            Key::Range { .. } => f.write_str("any"),
            Key::Name(n) => f.write_str(n),
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum KeyRepr {
    Int(i64),
    Text(String),
}

impl Serialize for Key {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Key::Exact(v) => KeyRepr::Int(*v),
            other => KeyRepr::Text(other.to_string()),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match KeyRepr::deserialize(d)? {
            KeyRepr::Int(v) => Ok(Key::Exact(v)),
            KeyRepr::Text(t) => t.parse().map_err(serde::de::Error::custom),
        }
    }
}

/// What a lookup does with a value beyond an axis's keys (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutOfRange {
    /// Use the nearest end key.
    Clamp,
    /// Fail with [`TableError::OutOfRange`].
    #[default]
    Error,
    /// Columns only: past the last column, use it and add the steps beyond to the row value.
    ShiftRoll,
}

/// One axis of a table: a name for messages, keys in order, and an out-of-range policy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Axis {
    /// What the axis measures ("2d6", "distance", "target").
    pub name: String,
    /// The keys, first row/column first.
    pub keys: Vec<Key>,
    /// Policy for values beyond the keys.
    #[serde(default)]
    pub policy: OutOfRange,
}

impl Axis {
    /// An axis from keys.
    #[must_use]
    pub fn new(name: &str, keys: Vec<Key>, policy: OutOfRange) -> Self {
        Axis {
            name: name.to_owned(),
            keys,
            policy,
        }
    }

    /// An axis from key texts (`"2-4"`, `"12+"`, `"cruiser"`).
    ///
    /// # Errors
    /// [`TableError::BadKey`] for text that is not a key.
    pub fn parse(name: &str, keys: &[&str], policy: OutOfRange) -> Result<Self, TableError> {
        let keys = keys.iter().map(|k| k.parse()).collect::<Result<_, _>>()?;
        Ok(Axis::new(name, keys, policy))
    }

    fn is_named(&self) -> bool {
        matches!(self.keys.first(), Some(Key::Name(_)))
    }

    fn validate(&self) -> Result<(), TableError> {
        let invalid = |why: String| Err(TableError::Invalid(format!("{} axis: {why}", self.name)));
        if self.keys.is_empty() {
            return invalid("no keys".into());
        }
        if self.is_named() {
            let mut seen = BTreeSet::new();
            for k in &self.keys {
                let Key::Name(n) = k else {
                    return invalid("mixes names and numbers".into());
                };
                if !seen.insert(n) {
                    return invalid(format!("duplicate key '{n}'"));
                }
            }
            return Ok(());
        }
        let mut prev_hi: Option<Option<i64>> = None;
        for k in &self.keys {
            let Some((lo, hi)) = k.bounds() else {
                return invalid("mixes names and numbers".into());
            };
            if let (Some(lo), Some(hi)) = (lo, hi)
                && lo > hi
            {
                return invalid(format!("empty range '{k}'"));
            }
            if let Some(p) = prev_hi {
                match (p, lo) {
                    (Some(p), Some(lo)) if p < lo => {}
                    _ => return invalid(format!("key '{k}' overlaps or is out of order")),
                }
            }
            prev_hi = Some(hi);
        }
        Ok(())
    }

    /// Resolves a probe to `(index, steps beyond the last key)`.
    fn resolve(&self, probe: Probe<'_>) -> Result<(usize, i64), TableError> {
        let last = self.keys.len() - 1;
        match probe {
            Probe::Name(name) => {
                if !self.is_named() {
                    return Err(TableError::WrongKind {
                        axis: self.name.clone(),
                    });
                }
                self.keys
                    .iter()
                    .position(|k| matches!(k, Key::Name(n) if n == name))
                    .map(|i| (i, 0))
                    .ok_or_else(|| TableError::UnknownName {
                        axis: self.name.clone(),
                        name: name.to_owned(),
                    })
            }
            Probe::Value(v) => {
                if self.is_named() {
                    return Err(TableError::WrongKind {
                        axis: self.name.clone(),
                    });
                }
                if let Some(i) = self.keys.iter().position(|k| k.contains(v)) {
                    return Ok((i, 0));
                }
                let first_lo = self.keys[0].bounds().and_then(|b| b.0);
                let last_hi = self.keys[last].bounds().and_then(|b| b.1);
                if first_lo.is_some_and(|lo| v < lo) {
                    self.beyond(-1, v, 0)
                } else if let Some(hi) = last_hi.filter(|&hi| v > hi) {
                    self.beyond(1, v, v.saturating_sub(hi))
                } else {
                    Err(TableError::NoEntry {
                        axis: self.name.clone(),
                        value: v,
                    })
                }
            }
        }
    }

    /// Applies the policy to something `steps` beyond an end (`side` -1 low, 1 high).
    fn beyond(&self, side: i8, value: i64, steps: i64) -> Result<(usize, i64), TableError> {
        let end = if side < 0 { 0 } else { self.keys.len() - 1 };
        match self.policy {
            OutOfRange::Error => Err(TableError::OutOfRange {
                axis: self.name.clone(),
                value,
            }),
            OutOfRange::Clamp => Ok((end, 0)),
            OutOfRange::ShiftRoll => Ok((end, if side < 0 { 0 } else { steps })),
        }
    }

    /// Resolves a probe, then moves `shift` keys along the axis (virtual positions past the last
    /// key count as steps for [`OutOfRange::ShiftRoll`]).
    fn resolve_shifted(&self, probe: Probe<'_>, shift: i64) -> Result<(usize, i64), TableError> {
        let (index, steps) = self.resolve(probe)?;
        if shift == 0 {
            return Ok((index, steps));
        }
        let last = (self.keys.len() - 1) as i64;
        let virt = (index as i64).saturating_add(steps).saturating_add(shift);
        if virt < 0 {
            self.beyond(-1, virt, 0)
        } else if virt > last {
            self.beyond(1, virt, virt - last)
        } else {
            Ok((virt as usize, 0))
        }
    }
}

/// A value to look up on an axis: a number or a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe<'a> {
    /// A numeric value (a roll, a distance).
    Value(i64),
    /// A named key.
    Name(&'a str),
}

impl From<i64> for Probe<'_> {
    fn from(v: i64) -> Self {
        Probe::Value(v)
    }
}
impl From<i32> for Probe<'_> {
    fn from(v: i32) -> Self {
        Probe::Value(i64::from(v))
    }
}
impl<'a> From<&'a str> for Probe<'a> {
    fn from(n: &'a str) -> Self {
        Probe::Name(n)
    }
}

/// A table cell: a result id or a small integer.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Cell {
    /// A number (a to-hit threshold, a count).
    Value(i64),
    /// A result id (`"drift1"`).
    Id(String),
}

impl Cell {
    /// A result-id cell.
    #[must_use]
    pub fn id(id: &str) -> Self {
        Cell::Id(id.to_owned())
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cell::Value(v) => write!(f, "{v}"),
            Cell::Id(s) => f.write_str(s),
        }
    }
}

/// Where a lookup landed: indexes and the roll modifier a [`OutOfRange::ShiftRoll`] column added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Located {
    /// Row index.
    pub row: usize,
    /// Column index.
    pub column: usize,
    /// Added to the row value because the column was beyond the last one.
    pub roll_modifier: i64,
}

#[derive(Serialize, Deserialize)]
struct TableData {
    id: String,
    rows: Axis,
    columns: Axis,
    cells: Vec<Vec<Cell>>,
}

/// A validated rule table. Rows are usually the roll (or a target type), columns a modifier.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "TableData", into = "TableData")]
pub struct Table {
    id: String,
    rows: Axis,
    columns: Axis,
    cells: Vec<Vec<Cell>>,
}

impl TryFrom<TableData> for Table {
    type Error = TableError;
    fn try_from(d: TableData) -> Result<Self, TableError> {
        Table::new(&d.id, d.rows, d.columns, d.cells)
    }
}

impl From<Table> for TableData {
    fn from(t: Table) -> Self {
        TableData {
            id: t.id,
            rows: t.rows,
            columns: t.columns,
            cells: t.cells,
        }
    }
}

impl Table {
    /// A table; `cells[row][column]`.
    ///
    /// # Errors
    /// [`TableError::Invalid`] for empty, unsorted, overlapping or mixed keys, duplicate names,
    /// cells that do not match the keys, `ShiftRoll` on rows, or `ShiftRoll` columns with named
    /// rows (there would be no roll to shift).
    pub fn new(
        id: &str,
        rows: Axis,
        columns: Axis,
        cells: Vec<Vec<Cell>>,
    ) -> Result<Self, TableError> {
        rows.validate()?;
        columns.validate()?;
        let invalid = |why: &str| Err(TableError::Invalid(format!("{id}: {why}")));
        if rows.policy == OutOfRange::ShiftRoll {
            return invalid("ShiftRoll applies to columns only");
        }
        if columns.policy == OutOfRange::ShiftRoll && rows.is_named() {
            return invalid("ShiftRoll columns need numeric rows");
        }
        if cells.len() != rows.keys.len() || cells.iter().any(|r| r.len() != columns.keys.len()) {
            return invalid("cells do not match the row and column keys");
        }
        Ok(Table {
            id: id.to_owned(),
            rows,
            columns,
            cells,
        })
    }

    /// The table's id.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.id
    }
    /// The row axis.
    #[must_use]
    pub fn rows(&self) -> &Axis {
        &self.rows
    }
    /// The column axis.
    #[must_use]
    pub fn columns(&self) -> &Axis {
        &self.columns
    }
    /// The cell at indexes, if any.
    #[must_use]
    pub fn cell(&self, row: usize, column: usize) -> Option<&Cell> {
        self.cells.get(row)?.get(column)
    }

    /// Where `(row, column)` lands after moving `shift` columns (negative is left).
    ///
    /// # Errors
    /// Any [`TableError`] of either axis's policy, gaps, unknown names or wrong kinds.
    pub fn locate<'a>(
        &self,
        row: impl Into<Probe<'a>>,
        column: impl Into<Probe<'a>>,
        shift: i64,
    ) -> Result<Located, TableError> {
        let (column, roll_modifier) = self.columns.resolve_shifted(column.into(), shift)?;
        let row = match row.into() {
            Probe::Value(v) => Probe::Value(v.saturating_add(roll_modifier)),
            named => named,
        };
        let (row, _) = self.rows.resolve(row)?;
        Ok(Located {
            row,
            column,
            roll_modifier,
        })
    }

    /// The cell for a row value and a column value.
    ///
    /// # Errors
    /// As [`Table::locate`].
    pub fn lookup<'a>(
        &self,
        row: impl Into<Probe<'a>>,
        column: impl Into<Probe<'a>>,
    ) -> Result<&Cell, TableError> {
        self.lookup_shifted(row, column, 0)
    }

    /// The cell after a column shift (`+1` one column right, `-2` two left).
    ///
    /// # Errors
    /// As [`Table::locate`].
    pub fn lookup_shifted<'a>(
        &self,
        row: impl Into<Probe<'a>>,
        column: impl Into<Probe<'a>>,
        shift: i64,
    ) -> Result<&Cell, TableError> {
        let at = self.locate(row, column, shift)?;
        Ok(&self.cells[at.row][at.column])
    }

    /// Exact odds of each result when the row is the total of `expr`, in a given column after a
    /// column shift. Results appear in the order their first roll appears (lowest roll first);
    /// probabilities sum to 1.
    ///
    /// # Errors
    /// The dice error if the odds cannot be computed exactly, or the lookup error of the first
    /// possible total that does not land in the table.
    pub fn outcome_distribution<'a>(
        &self,
        expr: &DiceExpr,
        column: impl Into<Probe<'a>>,
        shift: i64,
    ) -> Result<Vec<(Cell, Ratio)>, TableError> {
        let dist = distribution(expr)?;
        let (column, modifier) = self.columns.resolve_shifted(column.into(), shift)?;
        let mut counts: Vec<(Cell, u128)> = Vec::new();
        for (value, count) in dist.iter().filter(|&(_, c)| c > 0) {
            let (row, _) = self
                .rows
                .resolve(Probe::Value(value.saturating_add(modifier)))?;
            let cell = &self.cells[row][column];
            match counts.iter_mut().find(|(c, _)| c == cell) {
                Some((_, n)) => *n += count,
                None => counts.push((cell.clone(), count)),
            }
        }
        // count <= total <= i128::MAX (guaranteed by `distribution`).
        let total = dist.total() as i128;
        Ok(counts
            .into_iter()
            .filter_map(|(cell, n)| Some((cell, Ratio::new(n as i128, total)?)))
            .collect())
    }
}

/// Exact odds of each result of `table` when the row is rolled with `expr` in `column`.
///
/// # Errors
/// As [`Table::outcome_distribution`].
pub fn outcome_distribution<'a>(
    table: &Table,
    expr: &DiceExpr,
    column: impl Into<Probe<'a>>,
) -> Result<Vec<(Cell, Ratio)>, TableError> {
    table.outcome_distribution(expr, column, 0)
}
