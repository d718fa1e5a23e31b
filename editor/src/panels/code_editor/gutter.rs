//! The gutter: one number per logical line (a wrapped line keeps one number, drawn beside its
//! first screen row), and the problems of the open file: a marker in the gutter, the line
//! tinted, and the message after the line's text.
//!
//! Positions come from the galley the text editor laid out this frame, so numbers and markers
//! sit on the rows the text is on, however lines wrap.

use crate::panels::problems::Problem;
use egui::epaint::Galley;
use egui::{Align2, Color32, FontId, Pos2, Rect, Role, Sense, Ui, WidgetInfo, vec2};
use hexforge_script::paths;
use std::collections::BTreeMap;
use std::path::Path;

/// Where one logical line is in the galley.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineRows {
    /// 1-based line number.
    pub line: usize,
    /// Its first row (where its number goes), galley coordinates.
    pub first: Rect,
    /// Its last row (where its problem's message goes), galley coordinates.
    pub last: Rect,
    /// All its rows, galley coordinates.
    pub all: Rect,
}

/// Every logical line of a laid-out text with the rows it takes.
#[must_use]
pub fn logical_lines(galley: &Galley) -> Vec<LineRows> {
    let mut out: Vec<LineRows> = Vec::new();
    let mut starts_line = true;
    for row in &galley.rows {
        let rect = row.rect();
        if starts_line {
            out.push(LineRows {
                line: out.len() + 1,
                first: rect,
                last: rect,
                all: rect,
            });
        } else if let Some(last) = out.last_mut() {
            last.all = last.all.union(rect);
            last.last = rect;
        }
        starts_line = row.ends_with_newline;
    }
    out
}

/// The messages of the problems in `file`, by line (several on one line joined by `; `).
#[must_use]
pub fn problems_by_line(problems: &[Problem], file: &Path) -> BTreeMap<usize, String> {
    let name = file.file_name();
    let file = paths::canonical(file);
    let mut out: BTreeMap<usize, String> = BTreeMap::new();
    for p in problems {
        // The name first: canonicalising every problem's path every frame would cost a syscall
        // each.
        if p.line == 0 || p.file.file_name() != name || paths::canonical(&p.file) != file {
            continue;
        }
        let m = out.entry(p.line).or_default();
        if !m.is_empty() {
            m.push_str("; ");
        }
        m.push_str(&p.message);
    }
    out
}

/// The gutter's width for `lines` lines: the digits, a marker, a margin.
#[must_use]
pub fn width(ui: &Ui, font: &FontId, lines: usize) -> f32 {
    let digits = lines.max(1).to_string().len().max(3);
    let w = ui.fonts_mut(|f| f.glyph_width(font, '0'));
    w * digits as f32 + 18.0
}

/// What the gutter drew this frame, on screen (tests read it; the next frame scrolls by it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drawn {
    /// Each line number and the screen rect of its first row.
    pub numbers: Vec<(usize, Rect)>,
    /// Each problem line and the screen rect of its rows.
    pub markers: Vec<(usize, Rect)>,
}

/// Paints the numbers into the gutter at `left` (`width` wide) beside a galley drawn at
/// `galley_pos`, and the markers of `problems` (line -> message). Each marker is a hoverable
/// widget named `line N: message`.
pub fn paint(
    ui: &Ui,
    (left, width): (f32, f32),
    galley_pos: Pos2,
    lines: &[LineRows],
    problems: &BTreeMap<usize, String>,
    font: &FontId,
) -> Drawn {
    let mut drawn = Drawn::default();
    let clip = ui.clip_rect();
    let painter = ui.painter();
    let weak = ui.visuals().weak_text_color();
    let red = ui.visuals().error_fg_color;
    let offset = galley_pos.to_vec2();
    for l in lines {
        let first = l.first.translate(offset);
        drawn.numbers.push((l.line, first));
        if first.max.y < clip.min.y || first.min.y > clip.max.y {
            continue;
        }
        let color = if problems.contains_key(&l.line) {
            red
        } else {
            weak
        };
        painter.text(
            Pos2::new(left + width - 8.0, first.min.y),
            Align2::RIGHT_TOP,
            l.line.to_string(),
            font.clone(),
            color,
        );
    }
    for (&line, message) in problems {
        let Some(l) = lines.iter().find(|l| l.line == line) else {
            continue;
        };
        let all = l.all.translate(offset);
        drawn.markers.push((line, all));
        let band = Rect::from_min_max(Pos2::new(left, all.min.y), Pos2::new(clip.max.x, all.max.y));
        painter.rect_filled(band, 0.0, Color32::from_rgba_unmultiplied(220, 60, 60, 28));
        let dot = Pos2::new(left + 5.0, l.first.translate(offset).center().y);
        painter.circle_filled(dot, 4.0, red);
        // The message after the line's last row, where there is room; its full text on hover.
        let last = l.last.translate(offset);
        let end = Pos2::new(last.max.x + 24.0, last.center().y);
        let small = FontId::new(font.size * 0.92, font.family.clone());
        // A traceback is many lines: its first says what went wrong.
        let first = message.lines().next().unwrap_or_default();
        painter.text(end, Align2::LEFT_CENTER, first, small, red);
        let marker = Rect::from_center_size(dot, vec2(10.0, l.first.height()));
        let response = ui.interact(
            marker,
            ui.scope_id().with(("problem_marker", line)),
            Sense::hover(),
        );
        let label = format!("line {line}: {message}");
        response.widget_info(|| WidgetInfo::labeled(Role::Label, true, &label));
        response.on_hover_text(label);
    }
    drawn
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrapped_line_keeps_one_number() {
        let ctx = egui::Context::default();
        let mut lines = Vec::new();
        let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
            let text = format!("a\n{}\nb\n", "word ".repeat(200));
            let font = FontId::monospace(13.0);
            let galley = ui.fonts_mut(|f| f.layout(text, font, Color32::WHITE, 200.0));
            assert!(galley.rows.len() > 6, "the long line wraps");
            lines = logical_lines(&galley);
        });
        out.textures_delta.clear();
        let numbers: Vec<usize> = lines.iter().map(|l| l.line).collect();
        assert_eq!(numbers, [1, 2, 3, 4]);
        // Line 2 takes several rows; line 3 starts below all of them.
        assert!(lines[1].all.height() > 3.0 * lines[1].first.height());
        assert!((lines[2].first.min.y - lines[1].all.max.y).abs() < 0.5);
    }

    #[test]
    fn problems_are_matched_to_the_file_by_canonical_path() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a.lua");
        std::fs::write(&f, "x").unwrap();
        let other = dir.path().join("b.lua");
        let dotted = dir.path().join(".").join("a.lua");
        let problems = vec![
            Problem::new(&f, 3, "one"),
            Problem::new(&dotted, 3, "two"),
            Problem::new(&other, 3, "elsewhere"),
            Problem::new(&f, 0, "no line"),
        ];
        let by_line = problems_by_line(&problems, &f);
        assert_eq!(by_line.len(), 1);
        assert_eq!(by_line[&3], "one; two");
    }
}
