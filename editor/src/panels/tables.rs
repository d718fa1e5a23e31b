//! The tables panel: every rule table a mod declares, drawn as a grid of rows x columns, each
//! cell with its result and the exact probability of landing in it when the row is rolled.
//!
//! The panel keeps a roll expression per table: it starts with the declaration's `roll` (e.g.
//! `roll = "2d6"` in `game.table`), else [`guess_roll`] (a declared `game.dice` notation, else
//! the `NdS` whose totals span the row keys, e.g. `2d6` for rows `2 .. 12+`), and the user can
//! type another. Odds are exact ([`hexforge_core::dice::distribution`], fractions of `i128`):
//! each cell shows a percentage and, on hover, the exact fraction and roll count. Tables whose
//! rows are names (a target class) are not rolled and show results only. Column shifts:
//! a `shift_roll` table shows a few virtual columns past its last one (the last column with the
//! roll raised by one per step, which is what a lookup there does); the column policy is named
//! under the grid. The declaration's `file:line` opens it in the code editor.
//!
//! **What it deliberately does not do:** roll dice, look anything up for the game, or cache
//! anything across a reload other than by comparing the table itself (a changed table is
//! recomputed).
//!
//! ```
//! use hexforge_core::dice::{DiceExpr, Ratio};
//! use hexforge_core::table::{Axis, Cell, OutOfRange, Table};
//! use hexforge_editor::panels::tables::table_odds;
//! let rows = Axis::parse("roll", &["<=3", "4-5", "6"], OutOfRange::Error).unwrap();
//! let cols = Axis::parse("range", &["1", "2"], OutOfRange::Clamp).unwrap();
//! let t = Table::new("demo", rows, cols, vec![
//!     vec![Cell::id("miss"), Cell::id("miss")],
//!     vec![Cell::id("hit"), Cell::id("miss")],
//!     vec![Cell::id("kill"), Cell::id("hit")],
//! ]).unwrap();
//! let odds = table_odds(&t, &"d6".parse::<DiceExpr>().unwrap(), 0).unwrap();
//! assert_eq!(odds.columns[0].rows[1], (2, Ratio::new(1, 3).unwrap()));
//! ```

use crate::command::Command;
use hexforge_core::dice::{DiceExpr, Ratio, distribution};
use hexforge_core::table::{Key, OutOfRange, Probe, Table, TableError};
use hexforge_script::decl::{DiceDecl, ModDecls, TableDecl};
use std::collections::BTreeMap;
use std::path::Path;

/// Virtual columns shown past the last one of a `shift_roll` table.
pub const SHIFT_COLUMNS: i64 = 3;

/// The odds of one column (a printed column, or a virtual one past the last).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnOdds {
    /// The heading: the column's key, or `5 +1` for the first virtual column past `5`.
    pub heading: String,
    /// The column index in the table (virtual columns use the last one).
    pub column: usize,
    /// Steps past the last column (0 for printed columns); added to the roll.
    pub shift: i64,
    /// Per row: (outcomes landing there, probability).
    pub rows: Vec<(u128, Ratio)>,
    /// Outcomes whose total lands on no row (beyond an `error` axis or in a gap).
    pub off_table: u128,
}

/// The exact odds of every cell of a table for one roll expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableOdds {
    /// The expression, in canonical notation.
    pub expr: String,
    /// Equally likely outcomes of the expression.
    pub total: u128,
    /// One entry per printed column, then the virtual shift columns.
    pub columns: Vec<ColumnOdds>,
}

impl ColumnOdds {
    /// The probability of landing on no row.
    #[must_use]
    pub fn off_table_ratio(&self, total: u128) -> Ratio {
        ratio(self.off_table, total)
    }

    /// The exact sum of the column's probabilities, off-table included (1 unless overflowed).
    #[must_use]
    pub fn sum(&self, total: u128) -> Option<Ratio> {
        self.rows
            .iter()
            .map(|(_, r)| *r)
            .try_fold(self.off_table_ratio(total), Ratio::checked_add)
    }
}

fn ratio(count: u128, total: u128) -> Ratio {
    // count <= total <= i128::MAX (the distribution guarantees it) and total > 0.
    Ratio::new(count as i128, total.max(1) as i128).unwrap_or_else(zero)
}

fn zero() -> Ratio {
    Ratio::new(0, 1).unwrap_or_else(|| unreachable!("0/1 is a ratio"))
}

/// A probe that lands on the first key of an axis (for numeric keys, a value it covers).
fn first_probe(first: &Key) -> Option<Probe<'_>> {
    match first {
        Key::Exact(v) => Some(Probe::Value(*v)),
        Key::Range { lo: Some(v), .. }
        | Key::Range {
            lo: None,
            hi: Some(v),
        } => Some(Probe::Value(*v)),
        Key::Range { lo: None, hi: None } => None,
        Key::Name(n) => Some(Probe::Name(n)),
    }
}

/// Exact odds of every cell of `table` when its row is the total of `expr`, for each printed
/// column and, for a `shift_roll` column policy, `shift_columns` virtual columns past the last.
///
/// Why through [`Table::locate`]: each column is reached as "the first column shifted by `j`",
/// so the odds follow exactly the lookup the game does, shift-roll modifier included.
///
/// # Errors
/// The dice error if the expression has no exact numeric distribution (e.g. named faces), or
/// [`TableError::WrongKind`] when the rows are names (they are not rolled).
pub fn table_odds(
    table: &Table,
    expr: &DiceExpr,
    shift_columns: i64,
) -> Result<TableOdds, TableError> {
    let dist = distribution(expr)?;
    let total = dist.total();
    let rows = table.rows();
    if matches!(rows.keys.first(), Some(Key::Name(_))) {
        return Err(TableError::WrongKind {
            axis: rows.name.clone(),
        });
    }
    let cols = &table.columns().keys;
    let Some(first) = cols.first().and_then(first_probe) else {
        return Err(TableError::Invalid("no columns".into()));
    };
    let last = cols.len() - 1;
    let extra = if table.columns().policy == OutOfRange::ShiftRoll {
        shift_columns.max(0)
    } else {
        0
    };
    let mut columns = Vec::with_capacity(cols.len() + extra as usize);
    for j in 0..=(last as i64 + extra) {
        let mut counts = vec![0u128; rows.keys.len()];
        let mut off_table = 0u128;
        for (value, count) in dist.iter().filter(|&(_, c)| c > 0) {
            match table.locate(Probe::Value(value), first, j) {
                Ok(at) => counts[at.row] += count,
                Err(_) => off_table += count,
            }
        }
        let (column, shift) = if j as usize > last {
            (last, j - last as i64)
        } else {
            (j as usize, 0)
        };
        let heading = if shift > 0 {
            format!("{} +{shift}", cols[last])
        } else {
            cols[column].to_string()
        };
        columns.push(ColumnOdds {
            heading,
            column,
            shift,
            rows: counts.into_iter().map(|c| (c, ratio(c, total))).collect(),
            off_table,
        });
    }
    Ok(TableOdds {
        expr: expr.to_string(),
        total,
        columns,
    })
}

/// A probability as a short percentage: `16.7%`, `100%`, `<0.1%` for tiny non-zero odds, and
/// `-` for zero (that cell cannot come up with this roll).
#[must_use]
#[allow(clippy::cast_precision_loss)] // display only
pub fn format_percent(r: Ratio) -> String {
    if r.numer() == 0 {
        return "-".into();
    }
    if r.numer() == r.denom() {
        return "100%".into();
    }
    let p = r.to_f64() * 100.0;
    if p < 0.05 {
        "<0.1%".into()
    } else if p > 99.95 {
        ">99.9%".into()
    } else {
        format!("{p:.1}%")
    }
}

/// The exact form for a hover: `1/12 (3 of 36 rolls)`; a certainty reads `1 (36 of 36 rolls)`.
#[must_use]
pub fn format_fraction(count: u128, total: u128) -> String {
    let word = if total == 1 { "roll" } else { "rolls" };
    format!("{} ({count} of {total} {word})", ratio(count, total))
}

/// `(lowest, highest)` row values a roll must cover: the first key's low end (or high end when
/// open below) and the last key's high end (or low end when open above). `None` for named rows.
fn row_span(table: &Table) -> Option<(i64, i64)> {
    let keys = &table.rows().keys;
    let lo = match keys.first()? {
        Key::Exact(v) => *v,
        Key::Range { lo: Some(v), .. }
        | Key::Range {
            lo: None,
            hi: Some(v),
        } => *v,
        _ => return None,
    };
    let hi = match keys.last()? {
        Key::Exact(v) => *v,
        Key::Range { hi: Some(v), .. }
        | Key::Range {
            hi: None,
            lo: Some(v),
        } => *v,
        _ => return None,
    };
    Some((lo, hi))
}

/// The roll expression that most likely rolls a table's rows: the declaration's own `roll` when
/// it has one; else a declared numeric `game.dice`
/// (in id order) whose totals run exactly from the first row to the last, else the first `NdS`
/// (N = 1..3; S = 4, 6, 8, 10, 12, 20, 100) that does. `None` for named rows or when nothing
/// fits (e.g. rows that count guns, not a roll).
#[must_use]
pub fn guess_roll(decl: &TableDecl, dice: &BTreeMap<String, DiceDecl>) -> Option<String> {
    if let Some(roll) = &decl.roll {
        return Some(roll.clone());
    }
    let (lo, hi) = row_span(decl.table.as_ref()?)?;
    let fits = |text: &str| {
        text.parse::<DiceExpr>()
            .ok()
            .and_then(|e| distribution(&e).ok())
            .is_some_and(|d| d.min() == lo && d.max() == hi)
    };
    if let Some(n) = dice
        .values()
        .filter_map(|d| d.notation.as_deref())
        .find(|n| fits(n))
    {
        return Some(n.to_owned());
    }
    (1..=3)
        .flat_map(|n| [4, 6, 8, 10, 12, 20, 100].map(|s| format!("{n}d{s}")))
        .find(|e| fits(e))
}

/// The cached odds of one table for one expression.
#[derive(Clone, Debug)]
struct Cached {
    table: Table,
    expr: String,
    odds: Result<TableOdds, String>,
}

/// The tables panel's state: the roll expression per table (what the user typed, or the guess)
/// and the odds computed for it.
#[derive(Clone, Debug, Default)]
pub struct TablesPanel {
    /// Roll expression per table id; a missing entry starts as [`guess_roll`].
    pub exprs: BTreeMap<String, String>,
    cache: BTreeMap<String, Cached>,
    computed: u64,
}

impl TablesPanel {
    /// The odds of table `id` for its current expression, computed when the table or the
    /// expression changed since the last call, else the cached value. `None` when no expression
    /// is set (named rows, or no guess and nothing typed).
    pub fn odds(&mut self, decl: &TableDecl) -> Option<&Result<TableOdds, String>> {
        let table = decl.table.as_ref()?;
        let expr = self.exprs.get(&decl.id)?.trim().to_owned();
        if expr.is_empty() {
            return None;
        }
        let fresh = self
            .cache
            .get(&decl.id)
            .is_some_and(|c| c.expr == expr && &c.table == table);
        if !fresh {
            self.computed += 1;
            let odds = expr
                .parse::<DiceExpr>()
                .map_err(|e| e.to_string())
                .and_then(|e| table_odds(table, &e, SHIFT_COLUMNS).map_err(|e| e.to_string()));
            self.cache.insert(
                decl.id.clone(),
                Cached {
                    table: table.clone(),
                    expr,
                    odds,
                },
            );
        }
        self.cache.get(&decl.id).map(|c| &c.odds)
    }

    /// How many times odds were computed (not served from the cache).
    #[must_use]
    pub fn computed(&self) -> u64 {
        self.computed
    }
}

fn policy_note(policy: OutOfRange) -> &'static str {
    match policy {
        OutOfRange::Clamp => "values beyond the columns use the nearest column",
        OutOfRange::Error => "values beyond the columns are an error",
        OutOfRange::ShiftRoll => {
            "beyond the last column: the last column, +1 to the roll per step (shown as +1, +2, ...)"
        }
    }
}

fn grid(ui: &mut egui::Ui, decl: &TableDecl, table: &Table, odds: Option<&TableOdds>) {
    let rows = &table.rows().keys;
    let printed = &table.columns().keys;
    egui::Grid::new(("table-grid", &decl.id))
        .striped(true)
        .spacing([12.0, 4.0])
        .show(ui, |ui| {
            ui.strong(format!("{} \\ {}", "row", "column"));
            match odds {
                Some(o) => {
                    for c in &o.columns {
                        ui.strong(&c.heading);
                    }
                }
                None => {
                    for k in printed {
                        ui.strong(k.to_string());
                    }
                }
            }
            ui.end_row();
            for (i, key) in rows.iter().enumerate() {
                ui.strong(key.to_string());
                match odds {
                    Some(o) => {
                        for c in &o.columns {
                            let cell = table.cell(i, c.column).map(ToString::to_string);
                            let (count, r) = c.rows.get(i).copied().unwrap_or((0, zero()));
                            ui.label(format!(
                                "{} {}",
                                cell.unwrap_or_default(),
                                format_percent(r)
                            ))
                            .on_hover_text(format_fraction(count, o.total));
                        }
                    }
                    None => {
                        for j in 0..printed.len() {
                            let cell = table.cell(i, j).map(ToString::to_string);
                            ui.label(cell.unwrap_or_default());
                        }
                    }
                }
                ui.end_row();
            }
            if let Some(o) = odds {
                if o.columns.iter().any(|c| c.off_table > 0) {
                    ui.weak("off the table");
                    for c in &o.columns {
                        ui.weak(format_percent(c.off_table_ratio(o.total)))
                            .on_hover_text(format_fraction(c.off_table, o.total));
                    }
                    ui.end_row();
                }
                ui.weak("column total");
                for c in &o.columns {
                    let sum = c
                        .sum(o.total)
                        .map_or_else(|| "?".to_owned(), |s| s.to_string());
                    ui.weak(sum);
                }
                ui.end_row();
            }
        });
}

fn one_table(
    ui: &mut egui::Ui,
    panel: &mut TablesPanel,
    decl: &TableDecl,
    dice: &BTreeMap<String, DiceDecl>,
    base: &Path,
    cmds: &mut Vec<Command>,
) {
    let loc = format!("{}:{}", decl.source.file, decl.source.line);
    if ui
        .link(egui::RichText::new(&loc).monospace())
        .on_hover_text("open the declaration")
        .clicked()
    {
        cmds.push(Command::OpenFile {
            path: base.join(&decl.source.file),
            line: Some(decl.source.line as usize),
        });
    }
    let Some(table) = &decl.table else {
        ui.weak("not built (see the problems list)");
        return;
    };
    let named_rows = matches!(table.rows().keys.first(), Some(Key::Name(_)));
    if named_rows {
        ui.weak("rows are names: the table is not rolled, results only");
    } else {
        if !panel.exprs.contains_key(&decl.id) {
            let guess = guess_roll(decl, dice).unwrap_or_default();
            panel.exprs.insert(decl.id.clone(), guess);
        }
        ui.horizontal(|ui| {
            ui.label("rows rolled with");
            if let Some(text) = panel.exprs.get_mut(&decl.id) {
                ui.add(
                    egui::TextEdit::singleline(text)
                        .id_salt(("table-roll", &decl.id))
                        .hint_text("e.g. 2d6")
                        .desired_width(80.0),
                );
            }
        });
    }
    // Borrowed from the cache, not cloned: a frame costs no allocation proportional to the table.
    let odds = if named_rows {
        None
    } else {
        match panel.odds(decl) {
            Some(Ok(o)) => Some(o),
            Some(Err(e)) => {
                ui.colored_label(ui.visuals().warn_fg_color, format!("no odds: {e}"));
                None
            }
            None => {
                ui.weak("type the roll to see the odds of each cell");
                None
            }
        }
    };
    egui::ScrollArea::horizontal()
        .id_salt(("table-scroll", &decl.id))
        .show(ui, |ui| grid(ui, decl, table, odds));
    ui.weak(policy_note(table.columns().policy));
}

/// Draws every table of `decls`. `base` is the folder the declarations' file names are relative
/// to (the mods root's parent: `mods/x/main.lua` is `base/mods/x/main.lua`). Clicking a
/// declaration's `file:line` opens it.
pub fn show(
    ui: &mut egui::Ui,
    panel: &mut TablesPanel,
    decls: &ModDecls,
    base: &Path,
) -> Vec<Command> {
    let mut cmds = Vec::new();
    ui.horizontal(|ui| {
        ui.strong("Tables");
        ui.weak(format!("({})", decls.tables.len()));
    });
    if decls.tables.is_empty() {
        ui.weak("This mod declares no tables.");
        return cmds;
    }
    egui::ScrollArea::vertical()
        .id_salt("tables")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for decl in decls.tables.values() {
                let size = format!("{} x {}", decl.rows.len(), decl.columns.len());
                egui::CollapsingHeader::new(format!("{} ({size})", decl.id))
                    .id_salt(("table", &decl.id))
                    .default_open(decls.tables.len() <= 3)
                    .show(ui, |ui| {
                        one_table(ui, panel, decl, &decls.dice, base, &mut cmds);
                    });
            }
        });
    cmds
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexforge_core::table::{Axis, Cell};

    fn table(rows: &[&str], cols: &[&str], policy: OutOfRange) -> Table {
        let r = Axis::parse("roll", rows, OutOfRange::Error).unwrap();
        let c = Axis::parse("col", cols, policy).unwrap();
        let cells = (0..rows.len())
            .map(|i| {
                (0..cols.len())
                    .map(|j| Cell::Value((i * 10 + j) as i64))
                    .collect()
            })
            .collect();
        Table::new("t", r, c, cells).unwrap()
    }

    fn r(n: i128, d: i128) -> Ratio {
        Ratio::new(n, d).unwrap()
    }

    #[test]
    fn percentages_and_fractions_read_well() {
        assert_eq!(format_percent(r(1, 6)), "16.7%");
        assert_eq!(format_percent(r(1, 1)), "100%");
        assert_eq!(format_percent(r(0, 1)), "-");
        assert_eq!(format_percent(r(1, 36)), "2.8%");
        assert_eq!(format_percent(r(1, 10_000)), "<0.1%");
        assert_eq!(format_percent(r(9_999, 10_000)), ">99.9%");
        assert_eq!(format_fraction(3, 36), "1/12 (3 of 36 rolls)");
        assert_eq!(format_fraction(1, 1), "1 (1 of 1 roll)");
    }

    #[test]
    fn a_2d6_column_has_the_textbook_odds_and_sums_to_one() {
        let t = table(&["2-6", "7", "8+"], &["1", "2"], OutOfRange::Clamp);
        let o = table_odds(&t, &"2d6".parse().unwrap(), SHIFT_COLUMNS).unwrap();
        assert_eq!(o.total, 36);
        // Clamp: no virtual columns.
        assert_eq!(o.columns.len(), 2);
        let c = &o.columns[0];
        assert_eq!(c.rows, vec![(15, r(15, 36)), (6, r(1, 6)), (15, r(15, 36))]);
        assert_eq!(c.sum(o.total), Some(r(1, 1)));
    }

    #[test]
    fn rows_that_miss_some_totals_count_off_the_table() {
        let t = table(&["3-4"], &["1"], OutOfRange::Error);
        let o = table_odds(&t, &"1d6".parse().unwrap(), 0).unwrap();
        assert_eq!(o.columns[0].rows[0], (2, r(1, 3)));
        assert_eq!(o.columns[0].off_table, 4);
        assert_eq!(o.columns[0].sum(o.total), Some(r(1, 1)));
    }

    #[test]
    fn shift_roll_columns_raise_the_roll_past_the_last_column() {
        // Rows 1..6 on a d6; past column 2 the roll goes up one per step, clamped into "6+".
        let t = table(
            &["1", "2", "3", "4", "5", "6+"],
            &["1", "2"],
            OutOfRange::ShiftRoll,
        );
        let o = table_odds(&t, &"1d6".parse().unwrap(), 2).unwrap();
        assert_eq!(o.columns.len(), 4);
        assert_eq!(o.columns[2].heading, "2 +1");
        assert_eq!((o.columns[2].column, o.columns[2].shift), (1, 1));
        // +1: row "1" cannot come up; "6+" takes rolls 5 and 6.
        assert_eq!(o.columns[2].rows[0].0, 0);
        assert_eq!(o.columns[2].rows[5], (2, r(1, 3)));
        assert_eq!(o.columns[3].rows[5], (3, r(1, 2)));
        for c in &o.columns {
            assert_eq!(c.sum(o.total), Some(r(1, 1)), "{}", c.heading);
        }
    }

    #[test]
    fn named_rows_have_no_odds() {
        let rows = Axis::parse("class", &["fighter", "cruiser"], OutOfRange::Error).unwrap();
        let cols = Axis::parse("range", &["1"], OutOfRange::Clamp).unwrap();
        let t = Table::new(
            "n",
            rows,
            cols,
            vec![vec![Cell::Value(4)], vec![Cell::Value(5)]],
        )
        .unwrap();
        assert!(matches!(
            table_odds(&t, &"1d6".parse().unwrap(), 0),
            Err(TableError::WrongKind { .. })
        ));
    }

    fn decl(t: Table) -> TableDecl {
        TableDecl {
            id: t.id().to_owned(),
            rows: vec![],
            columns: vec![],
            cells: vec![],
            row_policy: "error".into(),
            column_policy: "clamp".into(),
            roll: None,
            table: Some(t),
            source: Default::default(),
        }
    }

    #[test]
    fn a_declared_roll_wins_over_the_guess() {
        let mut d = decl(table(&["2", "3-11", "12+"], &["1"], OutOfRange::Clamp));
        d.roll = Some("1d6+1d6".into());
        assert_eq!(guess_roll(&d, &BTreeMap::new()).as_deref(), Some("1d6+1d6"));
    }

    #[test]
    fn the_roll_is_guessed_from_the_row_span() {
        let d = decl(table(&["2", "3-11", "12+"], &["1"], OutOfRange::Clamp));
        assert_eq!(guess_roll(&d, &BTreeMap::new()).as_deref(), Some("2d6"));
        let d = decl(table(&["1-10", "11-20"], &["1"], OutOfRange::Clamp));
        assert_eq!(guess_roll(&d, &BTreeMap::new()).as_deref(), Some("1d20"));
        // A declared die that fits wins over the NdS list.
        let mut dice = BTreeMap::new();
        dice.insert(
            "d".to_owned(),
            DiceDecl {
                id: "d".into(),
                notation: Some("1d10+1d10".into()),
                faces: vec![],
                source: Default::default(),
            },
        );
        let d = decl(table(&["2", "3-20"], &["1"], OutOfRange::Clamp));
        assert_eq!(guess_roll(&d, &dice).as_deref(), Some("1d10+1d10"));
        // Rows 1 and 2 (guns) are no roll of the list.
        let d = decl(table(&["1", "2"], &["1"], OutOfRange::Clamp));
        assert_eq!(guess_roll(&d, &BTreeMap::new()), None);
    }

    #[test]
    fn odds_are_cached_until_the_expression_or_table_changes() {
        let mut p = TablesPanel::default();
        let mut d = decl(table(&["1-3", "4-6"], &["1"], OutOfRange::Clamp));
        assert!(p.odds(&d).is_none());
        p.exprs.insert("t".into(), "1d6".into());
        assert!(matches!(p.odds(&d), Some(Ok(_))));
        assert!(matches!(p.odds(&d), Some(Ok(_))));
        assert_eq!(p.computed(), 1);
        p.exprs.insert("t".into(), "2d6".into());
        let _ = p.odds(&d);
        assert_eq!(p.computed(), 2);
        d.table = Some(table(&["1-3", "4-12"], &["1"], OutOfRange::Clamp));
        let _ = p.odds(&d);
        assert_eq!(p.computed(), 3);
        p.exprs.insert("t".into(), "2x".into());
        assert!(matches!(p.odds(&d), Some(Err(_))));
    }
}
