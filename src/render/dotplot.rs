//! The dotplot of thesis 3.4 as SVG (and, through [`super::png`], PNG).
//!
//! x is the sentence position in the first document, y in the second, both in reading order, the
//! origin at the top left so that reused runs read as diagonals from upper left to lower right
//! (the thesis reads its plots that way: "a gap ... from upper left to lower right"). One mark per
//! matched pair, coloured by tier (identical refined terms, or similar); faint lines at the
//! top-level section boundaries; axis titles name the documents.
//!
//! A large comparison is drawn by aggregating matches into cells of about one plot pixel: each
//! occupied cell becomes one mark whose opacity grows with its count (`data-count` holds it), so
//! a 20,000 x 20,000-sentence comparison with millions of matches stays a small file.

use std::fmt::Write;

use rustc_hash::FxHashMap;

/// The two kinds of match the viewer and the plots distinguish.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tier {
    /// Same refined term sequence.
    Identical,
    /// Matched, but not identical.
    Similar,
}

impl Tier {
    pub fn name(self) -> &'static str {
        match self {
            Tier::Identical => "identical",
            Tier::Similar => "similar",
        }
    }

    /// The colour used for this tier in every view (RGB).
    pub fn rgb(self) -> [u8; 3] {
        match self {
            Tier::Identical => [0xC0, 0x39, 0x2B],
            Tier::Similar => [0x29, 0x80, 0xB9],
        }
    }

    fn hex(self) -> String {
        let [r, g, b] = self.rgb();
        format!("#{r:02x}{g:02x}{b:02x}")
    }
}

/// What to draw.
#[derive(Clone, Debug)]
pub struct Dotplot<'a> {
    /// Names for the axes (document titles or file names).
    pub x_name: &'a str,
    pub y_name: &'a str,
    /// Sentence counts: the axes span positions 0..len.
    pub x_len: usize,
    pub y_len: usize,
    /// First sentence positions of the top-level sections (after the first).
    pub x_boundaries: &'a [usize],
    pub y_boundaries: &'a [usize],
    /// The matched pairs (x position, y position, tier).
    pub marks: &'a [(u32, u32, Tier)],
    /// A title above the plot (empty: none), e.g. both file names.
    pub title: &'a str,
    /// A caption below it (empty: none), e.g. the method and thresholds.
    pub caption: &'a str,
    /// Passages drawn as segments from (first A, first B) to (last A, last B).
    pub passages: &'a [([u32; 2], [u32; 2])],
    /// Size of the whole picture in pixels.
    pub width: u32,
    pub height: u32,
}

/// Above this many marks, or when marks would be smaller than a pixel apart, marks are
/// aggregated per cell.
pub const MAX_INDIVIDUAL_MARKS: usize = 20_000;

const MARGIN_LEFT: f64 = 78.0;
const MARGIN_RIGHT: f64 = 24.0;
const MARGIN_TOP: f64 = 44.0;
const MARGIN_BOTTOM: f64 = 62.0;
const FONT: &str = "Ubuntu, sans-serif";
/// The colour of passage segments (the viewer draws them the same).
pub const PASSAGE_COLOR: &str = "#8e44ad";

/// A tick step of 1, 2 or 5 times a power of ten giving at most `max_ticks` ticks over `len`.
fn tick_step(len: usize, max_ticks: usize) -> usize {
    let mut step = 1usize;
    loop {
        for factor in [1, 2, 5] {
            let s = step.saturating_mul(factor);
            if len / s.max(1) < max_ticks {
                return s.max(1);
            }
        }
        step = step.saturating_mul(10);
        if step == usize::MAX {
            return step;
        }
    }
}

/// Escapes text for SVG: markup characters as entities; control characters and the others XML
/// forbids ([`crate::escape::xml_allows`]: a U+FFFF in a file name would make the SVG unreadable,
/// and its PNG export fail) left out.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if c.is_control() || !crate::escape::xml_allows(c) => {}
            c => out.push(c),
        }
    }
    out
}

fn shorten(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(max_chars.saturating_sub(1)).collect();
        s.push('\u{2026}');
        s
    }
}

impl Dotplot<'_> {
    fn plot_box(&self) -> (f64, f64, f64, f64) {
        let w = (f64::from(self.width) - MARGIN_LEFT - MARGIN_RIGHT).max(10.0);
        let h = (f64::from(self.height) - MARGIN_TOP - MARGIN_BOTTOM).max(10.0);
        (MARGIN_LEFT, MARGIN_TOP, w, h)
    }

    /// Whether marks are aggregated into cells rather than drawn one per match.
    pub fn aggregates(&self) -> bool {
        let (_, _, w, h) = self.plot_box();
        self.marks.len() > MAX_INDIVIDUAL_MARKS || self.x_len as f64 > w || self.y_len as f64 > h
    }

    /// The SVG document.
    pub fn to_svg(&self) -> String {
        let (px, py, pw, ph) = self.plot_box();
        let x_len = self.x_len.max(1) as f64;
        let y_len = self.y_len.max(1) as f64;
        let sx = pw / x_len;
        let sy = ph / y_len;
        let mut svg = String::with_capacity(4096 + self.marks.len().min(MAX_INDIVIDUAL_MARKS) * 80);
        let _ = write!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT}">"#,
            w = self.width,
            h = self.height
        );
        let _ = write!(
            svg,
            r##"<rect width="100%" height="100%" fill="#ffffff"/><rect x="{px}" y="{py}" width="{pw}" height="{ph}" fill="#fbfbfb" stroke="#888888" stroke-width="1"/>"##
        );

        // Section boundaries.
        svg.push_str(r##"<g stroke="#c8c8c8" stroke-width="1" stroke-dasharray="3 3">"##);
        for &b in self.x_boundaries.iter().filter(|&&b| b < self.x_len) {
            let x = px + b as f64 * sx;
            let _ = write!(
                svg,
                r#"<line x1="{x:.1}" y1="{py}" x2="{x:.1}" y2="{:.1}"/>"#,
                py + ph
            );
        }
        for &b in self.y_boundaries.iter().filter(|&&b| b < self.y_len) {
            let y = py + b as f64 * sy;
            let _ = write!(
                svg,
                r#"<line x1="{px}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}"/>"#,
                px + pw
            );
        }
        svg.push_str("</g>");

        // Ticks and tick labels.
        svg.push_str(r##"<g font-size="11" fill="#444444">"##);
        let x_step = tick_step(self.x_len, 10);
        let mut t = 0;
        while t <= self.x_len {
            let x = px + (t as f64 + 0.5).min(x_len) * sx;
            let _ = write!(
                svg,
                r##"<line x1="{x:.1}" y1="{y0:.1}" x2="{x:.1}" y2="{y1:.1}" stroke="#888888"/><text x="{x:.1}" y="{ty:.1}" text-anchor="middle">{t}</text>"##,
                y0 = py + ph,
                y1 = py + ph + 4.0,
                ty = py + ph + 16.0
            );
            t += x_step;
        }
        let y_step = tick_step(self.y_len, 10);
        let mut t = 0;
        while t <= self.y_len {
            let y = py + (t as f64 + 0.5).min(y_len) * sy;
            let _ = write!(
                svg,
                r##"<line x1="{x0:.1}" y1="{y:.1}" x2="{px}" y2="{y:.1}" stroke="#888888"/><text x="{tx:.1}" y="{ty:.1}" text-anchor="end">{t}</text>"##,
                x0 = px - 4.0,
                tx = px - 7.0,
                ty = y + 4.0
            );
            t += y_step;
        }
        svg.push_str("</g>");

        // Axis titles.
        let _ = write!(
            svg,
            r##"<text x="{x:.1}" y="{y:.1}" font-size="13" text-anchor="middle" fill="#222222">Sentence position in {name}</text>"##,
            x = px + pw / 2.0,
            y = py + ph + 40.0,
            name = escape(&shorten(self.x_name, 70))
        );
        let _ = write!(
            svg,
            r##"<text transform="translate({x:.1},{y:.1}) rotate(-90)" font-size="13" text-anchor="middle" fill="#222222">Sentence position in {name}</text>"##,
            x = 22.0,
            y = py + ph / 2.0,
            name = escape(&shorten(self.y_name, 60))
        );

        // Title, legend with counts, caption.
        if !self.title.is_empty() {
            let _ = write!(
                svg,
                r##"<text x="{px}" y="16" font-size="14" font-weight="bold" fill="#222222">{}</text>"##,
                escape(&shorten(self.title, 110))
            );
        }
        let legend_y = if self.title.is_empty() { 14.0 } else { 26.0 };
        let identical = self.marks.iter().filter(|m| m.2 == Tier::Identical).count();
        let similar = self.marks.len() - identical;
        let _ = write!(
            svg,
            r##"<g font-size="12" fill="#222222"><rect x="{x0:.1}" y="{legend_y}" width="10" height="10" fill="{c1}"/><text x="{t0:.1}" y="{ty}">identical ({identical})</text><rect x="{x1:.1}" y="{legend_y}" width="10" height="10" fill="{c2}"/><text x="{t1:.1}" y="{ty}">similar ({similar})</text>"##,
            x0 = px,
            t0 = px + 14.0,
            x1 = px + 150.0,
            t1 = px + 164.0,
            ty = legend_y + 9.0,
            c1 = Tier::Identical.hex(),
            c2 = Tier::Similar.hex(),
        );
        if !self.passages.is_empty() {
            let _ = write!(
                svg,
                r##"<line x1="{x0:.1}" y1="{y:.1}" x2="{x1:.1}" y2="{y:.1}" stroke="{PASSAGE_COLOR}" stroke-width="3"/><text x="{t:.1}" y="{ty}">passage ({n})</text>"##,
                x0 = px + 290.0,
                x1 = px + 306.0,
                y = legend_y + 5.0,
                t = px + 312.0,
                ty = legend_y + 9.0,
                n = self.passages.len(),
            );
        }
        svg.push_str("</g>");
        if !self.caption.is_empty() {
            let _ = write!(
                svg,
                r##"<text x="{px}" y="{y:.1}" font-size="11" fill="#555555">{}</text>"##,
                escape(&shorten(self.caption, 140)),
                y = py + ph + 56.0
            );
        }

        if self.aggregates() {
            self.write_aggregated_marks(&mut svg, (px, py, pw, ph));
        } else {
            self.write_individual_marks(&mut svg, (px, py, sx, sy));
        }
        if !self.passages.is_empty() {
            let _ = write!(
                svg,
                r#"<g class="passages" stroke="{PASSAGE_COLOR}" stroke-width="2" stroke-opacity="0.8" stroke-linecap="round">"#
            );
            for (a, b) in self.passages {
                let at = |x: u32, y: u32| {
                    (
                        px + (f64::from(x) + 0.5) * sx,
                        py + (f64::from(y) + 0.5) * sy,
                    )
                };
                let ((x1, y1), (x2, y2)) = (at(a[0], b[0]), at(a[1], b[1]));
                let _ = write!(
                    svg,
                    r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}"/>"#
                );
            }
            svg.push_str("</g>");
        }
        svg.push_str("</svg>\n");
        svg
    }

    fn write_individual_marks(&self, svg: &mut String, (px, py, sx, sy): (f64, f64, f64, f64)) {
        let size = sx.min(sy).clamp(2.0, 8.0);
        for tier in [Tier::Similar, Tier::Identical] {
            let _ = write!(
                svg,
                r#"<g class="marks {}" fill="{}">"#,
                tier.name(),
                tier.hex()
            );
            for &(x, y, t) in self.marks.iter().filter(|m| m.2 == tier) {
                let cx = px + (f64::from(x) + 0.5) * sx - size / 2.0;
                let cy = py + (f64::from(y) + 0.5) * sy - size / 2.0;
                let _ = write!(
                    svg,
                    r#"<rect class="mark" data-x="{x}" data-y="{y}" data-tier="{}" x="{cx:.2}" y="{cy:.2}" width="{size:.2}" height="{size:.2}"/>"#,
                    t.name()
                );
            }
            svg.push_str("</g>");
        }
    }

    fn write_aggregated_marks(&self, svg: &mut String, (px, py, pw, ph): (f64, f64, f64, f64)) {
        let columns = (pw.floor() as usize).clamp(1, self.x_len.max(1));
        let rows = (ph.floor() as usize).clamp(1, self.y_len.max(1));
        let cell_w = pw / columns as f64;
        let cell_h = ph / rows as f64;
        let x_len = self.x_len.max(1);
        let y_len = self.y_len.max(1);
        // (column, row) -> (identical, similar)
        let mut cells: FxHashMap<(u32, u32), (u32, u32)> = FxHashMap::default();
        for &(x, y, tier) in self.marks {
            let col = (x as usize * columns / x_len).min(columns - 1) as u32;
            let row = (y as usize * rows / y_len).min(rows - 1) as u32;
            let cell = cells.entry((col, row)).or_default();
            match tier {
                Tier::Identical => cell.0 += 1,
                Tier::Similar => cell.1 += 1,
            }
        }
        let mut sorted: Vec<_> = cells.into_iter().collect();
        sorted.sort_unstable_by_key(|&(key, _)| key);
        let max = sorted
            .iter()
            .map(|(_, (a, b))| a + b)
            .max()
            .unwrap_or(1)
            .max(1);
        let size_w = cell_w.max(1.5);
        let size_h = cell_h.max(1.5);
        svg.push_str(r#"<g class="marks aggregated">"#);
        for ((col, row), (identical, similar)) in sorted {
            let count = identical + similar;
            let tier = if identical >= similar {
                Tier::Identical
            } else {
                Tier::Similar
            };
            // Opacity grows with the log of the count so single matches stay visible.
            let opacity = 0.45 + 0.55 * (f64::from(count).ln_1p() / f64::from(max).ln_1p());
            let _ = write!(
                svg,
                r#"<rect class="mark" data-count="{count}" x="{x:.2}" y="{y:.2}" width="{size_w:.2}" height="{size_h:.2}" fill="{fill}" fill-opacity="{opacity:.2}"/>"#,
                x = px + f64::from(col) * cell_w,
                y = py + f64::from(row) * cell_h,
                fill = tier.hex(),
            );
        }
        svg.push_str("</g>");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(svg: &str, needle: &str) -> usize {
        svg.matches(needle).count()
    }

    #[test]
    fn one_mark_per_match_when_small() {
        let marks = [
            (0, 0, Tier::Identical),
            (1, 2, Tier::Similar),
            (3, 3, Tier::Identical),
        ];
        let plot = Dotplot {
            x_name: "a <doc>",
            y_name: "b",
            x_len: 10,
            y_len: 12,
            x_boundaries: &[4],
            y_boundaries: &[6],
            marks: &marks,
            title: "",
            caption: "",
            passages: &[],
            width: 640,
            height: 480,
        };
        assert!(!plot.aggregates());
        let svg = plot.to_svg();
        assert_eq!(count(&svg, r#"class="mark""#), 3);
        assert_eq!(count(&svg, r#"data-tier="identical""#), 2);
        assert!(svg.contains("Sentence position in a &lt;doc&gt;"));
        assert!(svg.contains("identical (2)") && svg.contains("similar (1)"));
        assert_eq!(count(&svg, "stroke-dasharray"), 1);
    }

    #[test]
    fn many_matches_are_aggregated_into_cells() {
        let n = 20_000u32;
        let marks: Vec<(u32, u32, Tier)> = (0..n).map(|i| (i, i, Tier::Identical)).collect();
        let plot = Dotplot {
            x_name: "a",
            y_name: "b",
            x_len: n as usize,
            y_len: n as usize,
            x_boundaries: &[],
            y_boundaries: &[],
            marks: &marks,
            title: "",
            caption: "",
            passages: &[],
            width: 800,
            height: 800,
        };
        assert!(plot.aggregates());
        let svg = plot.to_svg();
        let total: u64 = svg
            .split(r#"data-count=""#)
            .skip(1)
            .map(|s| s.split('"').next().unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(total, u64::from(n));
        // A diagonal crosses at most columns + rows cells (698 + 694 here).
        assert!(count(&svg, r#"class="mark""#) <= 698 + 694);
    }

    #[test]
    fn tick_steps_are_round() {
        assert_eq!(tick_step(9, 10), 1);
        assert_eq!(tick_step(35, 10), 5);
        assert_eq!(tick_step(149, 10), 20);
        assert_eq!(tick_step(20_000, 10), 5000);
        assert_eq!(tick_step(0, 10), 1);
    }

    #[test]
    fn empty_documents_draw_without_marks() {
        let plot = Dotplot {
            x_name: "",
            y_name: "",
            x_len: 0,
            y_len: 0,
            x_boundaries: &[],
            y_boundaries: &[],
            marks: &[],
            title: "",
            caption: "",
            passages: &[],
            width: 10,
            height: 10,
        };
        let svg = plot.to_svg();
        assert_eq!(count(&svg, r#"class="mark""#), 0);
        assert!(svg.ends_with("</svg>\n"));
    }

    #[test]
    fn title_caption_and_passages_are_drawn() {
        let marks = [(0, 0, Tier::Identical), (1, 1, Tier::Similar)];
        let plot = Dotplot {
            x_name: "a.txt",
            y_name: "b.txt",
            x_len: 10,
            y_len: 10,
            x_boundaries: &[],
            y_boundaries: &[],
            marks: &marks,
            title: "A: a.txt vs B: b.txt",
            caption: "Fuzzy-set IR, permission 0.4 <variation off>",
            passages: &[([0, 1], [0, 1])],
            width: 400,
            height: 400,
        };
        let svg = plot.to_svg();
        assert_eq!(count(&svg, "A: a.txt vs B: b.txt</text>"), 1);
        assert_eq!(
            count(&svg, "permission 0.4 &lt;variation off&gt;</text>"),
            1
        );
        assert_eq!(count(&svg, ">passage (1)</text>"), 1);
        assert_eq!(count(&svg, r#"<g class="passages""#), 1);
        let group = &svg[svg.find(r#"<g class="passages""#).expect("a passage group")..];
        let group = &group[..group.find("</g>").expect("closed")];
        // From the centre of (0, 0) to that of (1, 1): the plot is 298 x 294 px for 10 x 10.
        assert_eq!(count(group, "<line "), 1);
        assert!(
            group.contains(r#"<line x1="92.9" y1="58.7" x2="122.7" y2="88.1"/>"#),
            "{group}"
        );
    }
}
