//! `--chart FILE.svg`: one picture of a balance report, to paste into a forum post.
//!
//! Left, each outcome's rate (every side's wins, draws, the first mover's wins) with its 95%
//! Wilson interval as an error bar, the rule sets side by side; right, the game length in
//! actions and in rounds as box plots (whiskers at min and max, the box from the first to the
//! third quartile, a line at the median, a dot at the mean), the same numbers as the text
//! report. Drawn with `plotters`' SVG backend only; text is SVG `<text>` in a sans-serif font,
//! laid out by the viewer. What it deliberately does not do: PNG (that needs plotters' bitmap
//! backend with a font rasteriser and an image encoder, several times the dependencies for what
//! `rsvg-convert chart.svg -o chart.png` or any browser does), or any statistic of its own.
//!
//! ```no_run
//! # let reports: Vec<hexforge_game::balance::RuleSetReport> = vec![];
//! hexforge::chart::write_svg(std::path::Path::new("chart.svg"), "tutorial, scenario picket", &reports)?;
//! # Ok::<(), anyhow::Error>(())
//! ```

use anyhow::{Context, Result, anyhow, bail};
use hexforge_game::balance::RuleSetReport;
use hexforge_game::stats::{Interval, Spread};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

/// The rule sets' colours: A, B.
const COLOURS: [RGBColor; 2] = [RGBColor(52, 101, 164), RGBColor(230, 126, 34)];
/// Chart size in pixels.
const SIZE: (u32, u32) = (1100, 480);
const FONT: &str = "sans-serif";

/// Draws `reports` (one or two rule sets) under `title` into an SVG file.
///
/// # Errors
/// A file name that does not end in `.svg`, no games to draw, or the file cannot be written.
pub fn write_svg(path: &Path, title: &str, reports: &[RuleSetReport]) -> Result<()> {
    let svg = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
    if !svg {
        bail!(
            "{}: charts are SVG (name the file `.svg`); for a PNG, convert it: \
             `rsvg-convert chart.svg -o chart.png`",
            path.display()
        );
    }
    if reports.iter().all(|r| r.summary.games == 0) {
        bail!("{}: no games to draw", path.display());
    }
    let root = SVGBackend::new(path, SIZE).into_drawing_area();
    draw(&root, title, reports).map_err(|e| anyhow!("{e}"))?;
    root.present()
        .map_err(|e| anyhow!("{e}"))
        .with_context(|| format!("writing {}", path.display()))
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type Drawn = std::result::Result<(), Box<dyn std::error::Error>>;

fn draw(root: &Area<'_>, title: &str, reports: &[RuleSetReport]) -> Drawn {
    root.fill(&WHITE)?;
    let body = root.titled(title, (FONT, 20))?;
    let (left, right) = body.split_horizontally(SIZE.0 * 55 / 100);
    let (actions, rounds) = right.split_horizontally((SIZE.0 * 45 / 100) / 2);
    draw_rates(&left, reports)?;
    let spreads =
        |f: fn(&RuleSetReport) -> Option<Spread>| reports.iter().map(f).collect::<Vec<_>>();
    draw_lengths(
        &actions,
        "Actions (line: median, dot: mean)",
        &spreads(|r| r.actions),
    )?;
    draw_lengths(
        &rounds,
        "Rounds (line: median, dot: mean)",
        &spreads(|r| r.rounds),
    )?;
    Ok(())
}

/// `(outcome, per rule set: rate and interval)`: each side's wins, draws, the first mover.
fn outcomes(reports: &[RuleSetReport]) -> Vec<(String, Vec<(f64, Interval)>)> {
    let mut rows: Vec<(String, Vec<(f64, Interval)>)> = hexforge_game::balance::sides(reports)
        .into_iter()
        .map(|side| {
            let per = reports
                .iter()
                .map(|r| {
                    let rate = r.summary.win_rates.get(&side).copied().unwrap_or(0.0);
                    let none = Interval {
                        low: 0.0,
                        high: 0.0,
                    };
                    (rate, r.win_intervals.get(&side).copied().unwrap_or(none))
                })
                .collect();
            (format!("{side} wins"), per)
        })
        .collect();
    #[allow(clippy::cast_precision_loss)]
    let draws = reports
        .iter()
        .map(|r| {
            let rate = r.summary.draws as f64 / r.summary.games.max(1) as f64;
            (rate, r.draw_interval)
        })
        .collect();
    rows.push(("draws".to_owned(), draws));
    let first = reports
        .iter()
        .map(|r| (r.first_mover.first.rate, r.first_mover.first.interval))
        .collect();
    rows.push(("first mover wins".to_owned(), first));
    rows
}

/// Category labels at the integers of an `-0.5..n-0.5` axis.
fn category_label(names: &[String], x: f64) -> String {
    let i = x.round();
    if (x - i).abs() > 1e-6 || i < 0.0 {
        return String::new();
    }
    #[allow(clippy::cast_sign_loss)]
    names.get(i as usize).cloned().unwrap_or_default()
}

#[allow(clippy::cast_precision_loss)]
fn draw_rates(area: &Area<'_>, reports: &[RuleSetReport]) -> Drawn {
    let rows = outcomes(reports);
    let names: Vec<String> = rows.iter().map(|(n, _)| n.clone()).collect();
    let n = rows.len() as f64;
    let mut chart = ChartBuilder::on(area)
        .caption(
            "Outcomes, % of games (bars: 95% Wilson intervals)",
            (FONT, 15),
        )
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(45)
        .build_cartesian_2d(-0.5..n - 0.5, 0.0..100.0)?;
    let label = |x: &f64| category_label(&names, *x);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(rows.len() + 1)
        .x_label_formatter(&label)
        .y_labels(6)
        .y_label_formatter(&|y| format!("{y:.0}%"))
        .label_style((FONT, 12))
        .draw()?;
    let sets = reports.len().max(1) as f64;
    let width = 0.7 / sets;
    for (k, report) in reports.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let offset = -0.35 + width * k as f64;
        let bars = rows.iter().enumerate().map(|(i, (_, per))| {
            let x = i as f64 + offset;
            Rectangle::new(
                [(x + 0.02, 0.0), (x + width - 0.02, per[k].0 * 100.0)],
                colour.filled(),
            )
        });
        let letter = ["A", "B"].get(k).copied().unwrap_or("");
        chart
            .draw_series(bars)?
            .label(format!("{letter} = {}", report.rules))
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
        for (i, (_, per)) in rows.iter().enumerate() {
            let x = i as f64 + offset + width / 2.0;
            let (low, high) = (per[k].1.low * 100.0, per[k].1.high * 100.0);
            let cap = width / 5.0;
            chart.draw_series([
                PathElement::new(vec![(x, low), (x, high)], BLACK.stroke_width(1)),
                PathElement::new(vec![(x - cap, low), (x + cap, low)], BLACK.stroke_width(1)),
                PathElement::new(
                    vec![(x - cap, high), (x + cap, high)],
                    BLACK.stroke_width(1),
                ),
            ])?;
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font((FONT, 12))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .draw()?;
    Ok(())
}

#[allow(clippy::cast_precision_loss)]
fn draw_lengths(area: &Area<'_>, caption: &str, spreads: &[Option<Spread>]) -> Drawn {
    let top = spreads.iter().flatten().map(|s| s.max).fold(1.0, f64::max);
    let names: Vec<String> = ["A", "B"][..spreads.len().min(2)]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 15))
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(45)
        .build_cartesian_2d(-0.5..spreads.len() as f64 - 0.5, 0.0..top * 1.05)?;
    let label = |x: &f64| category_label(&names, *x);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(spreads.len() + 1)
        .x_label_formatter(&label)
        .y_label_formatter(&|y| format!("{y:.0}"))
        .label_style((FONT, 12))
        .draw()?;
    for (k, spread) in spreads.iter().enumerate() {
        let Some(s) = spread else { continue };
        let colour = COLOURS[k % COLOURS.len()];
        let x = k as f64;
        let (half, cap) = (0.25, 0.12);
        let line = |points: Vec<(f64, f64)>| PathElement::new(points, BLACK.stroke_width(1));
        chart.draw_series([Rectangle::new(
            [(x - half, s.q1), (x + half, s.q3)],
            colour.mix(0.55).filled(),
        )])?;
        chart.draw_series([
            line(vec![(x, s.min), (x, s.q1)]),
            line(vec![(x, s.q3), (x, s.max)]),
            line(vec![(x - cap, s.min), (x + cap, s.min)]),
            line(vec![(x - cap, s.max), (x + cap, s.max)]),
            PathElement::new(
                vec![(x - half, s.median), (x + half, s.median)],
                BLACK.stroke_width(2),
            ),
        ])?;
        chart.draw_series([Circle::new((x, s.mean), 3, BLACK.filled())])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexforge_game::sweep::GameRow;

    fn rows(blue: usize, n: usize) -> Vec<GameRow> {
        (0..n)
            .map(|i| GameRow {
                seed: i as u64,
                winners: vec![if i < blue { "blue" } else { "red" }.to_owned()],
                reason: "done".into(),
                actions: 10 + i,
                rounds: 2,
                refused: 0,
                first: Some("blue".into()),
                sides: vec!["blue".into(), "red".into()],
                ms: 1.0,
            })
            .collect()
    }

    #[test]
    fn the_chart_names_both_rule_sets_every_outcome_and_both_lengths() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("c.svg");
        let reports = [
            RuleSetReport::of("mods/tutorial", &rows(12, 20)),
            RuleSetReport::of("fast-variant", &rows(5, 20)),
        ];
        write_svg(&path, "tutorial, scenario picket", &reports).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        for text in [
            "<svg",
            "tutorial, scenario picket",
            "A = mods/tutorial",
            "B = fast-variant",
            "blue wins",
            "red wins",
            "draws",
            "first mover wins",
            "Actions (line: median",
            "Rounds (line: median",
        ] {
            assert!(svg.contains(text), "no {text:?} in the chart");
        }
        let err = write_svg(&tmp.path().join("c.png"), "t", &reports).unwrap_err();
        assert!(err.to_string().contains("rsvg-convert"), "{err}");
    }
}
