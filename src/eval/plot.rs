//! The sweep as a picture, after the thesis's Fig. 3.2 (`003_cb4e1995afbee241.txt`, 3.2.2), in
//! SVG written by hand like [`crate::render::dotplot`] (PNG through [`crate::render::png`]):
//! (a) FP and FN rates against the permission threshold, (b) against the variation threshold at
//! the chosen permission, (c) precision against recall as the permission moves, with the binary
//! methods as single points and the chosen thresholds marked.

use std::fmt::Write;

use super::sweep::{Sweep, SweepPoint};
use crate::render::dotplot::escape;

const FONT: &str = "Ubuntu, sans-serif";
const FP_COLOUR: &str = "#c0392b";
const FN_COLOUR: &str = "#2980b9";
const PR_COLOUR: &str = "#27ae60";
const LEGEND_WIDTH: f64 = 160.0;
const POINT_COLOURS: [&str; 3] = ["#8e44ad", "#d35400", "#2c3e50"];

/// What to draw.
#[derive(Clone, Debug)]
pub struct SweepPlot<'a> {
    /// The heading (data set and split).
    pub title: &'a str,
    pub sweep: &'a Sweep,
    /// Other methods as single operating points: (name, precision, recall).
    pub points: &'a [(&'a str, f64, f64)],
    pub width: u32,
    pub height: u32,
}

/// A rectangle of the picture with data ranges on its axes.
struct Panel {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    x_range: (f64, f64),
    y_range: (f64, f64),
}

impl Panel {
    fn px(&self, value: f64) -> f64 {
        let (lo, hi) = self.x_range;
        self.x + (value - lo) / (hi - lo) * self.w
    }

    fn py(&self, value: f64) -> f64 {
        let (lo, hi) = self.y_range;
        self.y + self.h - (value - lo) / (hi - lo) * self.h
    }

    /// Frame, ticks every `x_step` / `y_step`, axis titles and the panel title.
    fn axes(&self, svg: &mut String, title: &str, x_title: &str, y_title: &str, x_step: f64) {
        let _ = write!(
            svg,
            r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#fbfbfb" stroke="#888888"/>"##,
            self.x, self.y, self.w, self.h
        );
        svg.push_str(r##"<g font-size="11" fill="#444444">"##);
        let ticks = |lo: f64, hi: f64, step: f64| -> Vec<f64> {
            let n = ((hi - lo) / step).round() as usize;
            (0..=n).map(|i| lo + i as f64 * step).collect()
        };
        for t in ticks(self.x_range.0, self.x_range.1, x_step) {
            let x = self.px(t);
            let _ = write!(
                svg,
                r##"<line x1="{x:.1}" y1="{y0:.1}" x2="{x:.1}" y2="{y1:.1}" stroke="#dddddd"/><text x="{x:.1}" y="{ty:.1}" text-anchor="middle">{t:.2}</text>"##,
                y0 = self.y,
                y1 = self.y + self.h,
                ty = self.y + self.h + 15.0
            );
        }
        for t in ticks(self.y_range.0, self.y_range.1, 0.2) {
            let y = self.py(t);
            let _ = write!(
                svg,
                r##"<line x1="{x0:.1}" y1="{y:.1}" x2="{x1:.1}" y2="{y:.1}" stroke="#dddddd"/><text x="{tx:.1}" y="{ty:.1}" text-anchor="end">{t:.1}</text>"##,
                x0 = self.x,
                x1 = self.x + self.w,
                tx = self.x - 5.0,
                ty = y + 4.0
            );
        }
        svg.push_str("</g>");
        let _ = write!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" font-size="13" text-anchor="middle" fill="#222222">{}</text>"##,
            self.x + self.w / 2.0,
            self.y - 10.0,
            escape(title)
        );
        let _ = write!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="middle" fill="#222222">{}</text>"##,
            self.x + self.w / 2.0,
            self.y + self.h + 34.0,
            escape(x_title)
        );
        let _ = write!(
            svg,
            r##"<text transform="translate({:.1},{:.1}) rotate(-90)" font-size="12" text-anchor="middle" fill="#222222">{}</text>"##,
            self.x - 36.0,
            self.y + self.h / 2.0,
            escape(y_title)
        );
    }

    /// A polyline through `(x, y)` data points.
    fn line(
        &self,
        svg: &mut String,
        class: &str,
        points: &[(f64, f64)],
        colour: &str,
        dashed: bool,
    ) {
        if points.is_empty() {
            return;
        }
        let coords: Vec<String> = points
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", self.px(x), self.py(y)))
            .collect();
        let _ = write!(
            svg,
            r#"<polyline class="{class}" points="{}" fill="none" stroke="{colour}" stroke-width="2"{}/>"#,
            coords.join(" "),
            if dashed {
                r#" stroke-dasharray="5 4""#
            } else {
                ""
            }
        );
    }

    /// A vertical marker at data `x`, labelled.
    fn marker(&self, svg: &mut String, x: f64, label: &str) {
        let px = self.px(x);
        let _ = write!(
            svg,
            r##"<line class="chosen" x1="{px:.1}" y1="{y0:.1}" x2="{px:.1}" y2="{y1:.1}" stroke="#555555" stroke-dasharray="2 3"/><text x="{tx:.1}" y="{ty:.1}" font-size="11" fill="#555555">{}</text>"##,
            escape(label),
            y0 = self.y,
            y1 = self.y + self.h,
            tx = px + 4.0,
            ty = self.y + 14.0
        );
    }

    /// A legend in the panel's top right corner, or its bottom left one (where a
    /// precision-recall curve rarely goes).
    fn legend(&self, svg: &mut String, entries: &[(&str, &str, bool)], bottom_left: bool) {
        let (x, first_y) = if bottom_left {
            (
                self.x + 10.0,
                self.y + self.h - 12.0 - 16.0 * entries.len() as f64,
            )
        } else {
            (self.x + self.w - LEGEND_WIDTH, self.y + 20.0)
        };
        let _ = write!(
            svg,
            r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#ffffff" fill-opacity="0.85" stroke="#dddddd"/>"##,
            x - 5.0,
            first_y - 10.0,
            LEGEND_WIDTH,
            16.0 * entries.len() as f64 + 4.0
        );
        for (i, (label, colour, dashed)) in entries.iter().enumerate() {
            let y = first_y + 16.0 * i as f64;
            let _ = write!(
                svg,
                r##"<line x1="{x:.1}" y1="{y:.1}" x2="{x2:.1}" y2="{y:.1}" stroke="{colour}" stroke-width="2"{}/><text x="{tx:.1}" y="{ty:.1}" font-size="11" fill="#222222">{}</text>"##,
                if *dashed {
                    r#" stroke-dasharray="5 4""#
                } else {
                    ""
                },
                escape(label),
                x2 = x + 22.0,
                tx = x + 27.0,
                ty = y + 4.0
            );
        }
    }
}

fn rates(points: &[SweepPoint], x: impl Fn(&SweepPoint) -> f64) -> [Vec<(f64, f64)>; 2] {
    [
        points.iter().map(|p| (x(p), p.figures.fp_rate)).collect(),
        points.iter().map(|p| (x(p), p.figures.fn_rate)).collect(),
    ]
}

/// (recall, precision) of the points that decided anything positive (precision is undefined
/// otherwise).
fn pr_curve(points: &[SweepPoint]) -> Vec<(f64, f64)> {
    points
        .iter()
        .filter(|p| p.figures.tp + p.figures.fp > 0)
        .map(|p| (p.figures.recall, p.figures.precision))
        .collect()
}

impl SweepPlot<'_> {
    /// The SVG document.
    pub fn to_svg(&self) -> String {
        let (width, height) = (f64::from(self.width), f64::from(self.height));
        let top = 58.0;
        let bottom = 52.0;
        let left = 56.0;
        let gap = 64.0;
        let panel_w = ((width - left - 20.0 - 2.0 * gap) / 3.0).max(60.0);
        let panel_h = (height - top - bottom).max(60.0);
        let panel = |i: usize, x_range| Panel {
            x: left + i as f64 * (panel_w + gap),
            y: top,
            w: panel_w,
            h: panel_h,
            x_range,
            y_range: (0.0, 1.0),
        };
        let s = self.sweep;
        let mut svg = String::with_capacity(16 * 1024);
        let _ = write!(
            svg,
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT}"><rect width="100%" height="100%" fill="#ffffff"/>"##,
            w = self.width,
            h = self.height
        );
        let _ = write!(
            svg,
            r##"<text x="{left}" y="22" font-size="15" fill="#222222">{}</text>"##,
            escape(self.title)
        );

        // (a) over the permission.
        let a = panel(0, (0.0, 1.0));
        a.axes(
            &mut svg,
            "(a) errors against the permission",
            "permission threshold",
            "rate",
            0.1,
        );
        let [fp, fn_] = rates(&s.permission, |p| p.permission);
        a.line(&mut svg, "fp-rate", &fp, FP_COLOUR, false);
        a.line(&mut svg, "fn-rate", &fn_, FN_COLOUR, false);
        let [fp_v, fn_v] = rates(&s.permission_at_variation, |p| p.permission);
        a.line(&mut svg, "fp-rate-at-variation", &fp_v, FP_COLOUR, true);
        a.line(&mut svg, "fn-rate-at-variation", &fn_v, FN_COLOUR, true);
        a.marker(
            &mut svg,
            s.permission_fixed.clamp(0.0, 1.0),
            &format!("{}", s.permission_fixed),
        );
        let at_v = format!("at variation {}", s.variation_fixed);
        a.legend(
            &mut svg,
            &[
                ("FP rate", FP_COLOUR, false),
                ("FN rate", FN_COLOUR, false),
                (&at_v, "#888888", true),
            ],
            false,
        );

        // (b) over the variation at the chosen permission.
        let b = panel(1, (0.0, 0.5));
        b.axes(
            &mut svg,
            &format!(
                "(b) errors against the variation, permission {}",
                s.permission_fixed
            ),
            "variation threshold",
            "rate",
            0.1,
        );
        // "Off" (a variation of 1) is not on this axis.
        let on_axis: Vec<SweepPoint> = s
            .variation
            .iter()
            .filter(|p| p.variation <= 0.5)
            .copied()
            .collect();
        let [fp, fn_] = rates(&on_axis, |p| p.variation);
        b.line(&mut svg, "fp-rate", &fp, FP_COLOUR, false);
        b.line(&mut svg, "fn-rate", &fn_, FN_COLOUR, false);
        b.marker(
            &mut svg,
            s.variation_fixed.clamp(0.0, 0.5),
            &format!("{}", s.variation_fixed),
        );
        b.legend(
            &mut svg,
            &[("FP rate", FP_COLOUR, false), ("FN rate", FN_COLOUR, false)],
            false,
        );

        // (c) precision against recall.
        let c = panel(2, (0.0, 1.0));
        c.axes(
            &mut svg,
            "(c) precision and recall",
            "recall",
            "precision",
            0.2,
        );
        c.line(&mut svg, "pr", &pr_curve(&s.permission), PR_COLOUR, false);
        c.line(
            &mut svg,
            "pr-at-variation",
            &pr_curve(&s.permission_at_variation),
            PR_COLOUR,
            true,
        );
        let mut legend: Vec<(String, &str, bool)> = vec![
            ("fuzzy, variation off".into(), PR_COLOUR, false),
            (format!("fuzzy, {at_v}"), PR_COLOUR, true),
        ];
        if let Some(chosen) = s
            .permission_at_variation
            .iter()
            .find(|p| (p.permission - s.permission_fixed).abs() < 1e-9)
            .filter(|p| p.figures.tp + p.figures.fp > 0)
        {
            let _ = write!(
                svg,
                r##"<circle class="chosen" cx="{:.1}" cy="{:.1}" r="5" fill="none" stroke="#222222" stroke-width="2"/>"##,
                c.px(chosen.figures.recall),
                c.py(chosen.figures.precision)
            );
            legend.push((
                format!("fuzzy at {} / {}", s.permission_fixed, s.variation_fixed),
                "#222222",
                false,
            ));
        }
        for (i, (name, precision, recall)) in self.points.iter().enumerate() {
            let colour = POINT_COLOURS[i % POINT_COLOURS.len()];
            let _ = write!(
                svg,
                r#"<rect class="point" data-method="{}" x="{:.1}" y="{:.1}" width="8" height="8" fill="{colour}"/>"#,
                escape(name),
                c.px(*recall) - 4.0,
                c.py(*precision) - 4.0
            );
            legend.push((name.to_string(), colour, false));
        }
        let entries: Vec<(&str, &str, bool)> = legend
            .iter()
            .map(|(l, c, d)| (l.as_str(), *c, *d))
            .collect();
        c.legend(&mut svg, &entries, true);

        svg.push_str("</svg>\n");
        svg
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::score::PairScore;
    use crate::similarity::Thresholds;

    fn sweep() -> Sweep {
        let scores = [
            PairScore {
                sim_lr: 0.9,
                sim_rl: 0.9,
                overlap_lr: 0.0,
                overlap_rl: 0.0,
                fourgram_match: false,
                exact_match: false,
                may_match: true,
                verdict: None,
                mean_terms: 0.0,
            },
            PairScore {
                sim_lr: 0.6,
                sim_rl: 0.7,
                overlap_lr: 0.0,
                overlap_rl: 0.0,
                fourgram_match: false,
                exact_match: false,
                may_match: true,
                verdict: None,
                mean_terms: 0.0,
            },
        ];
        Sweep::run(
            &scores,
            &[true, false],
            crate::similarity::Method::Fuzzy,
            Thresholds::THESIS,
        )
    }

    #[test]
    fn draws_three_panels_with_every_curve() {
        let sweep = sweep();
        let plot = SweepPlot {
            title: "msrp <train>",
            sweep: &sweep,
            points: &[("fourgram", 0.9, 0.1), ("exact", 1.0, 0.05)],
            width: 1200,
            height: 420,
        };
        let svg = plot.to_svg();
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert!(svg.contains("msrp &lt;train&gt;"));
        assert_eq!(svg.matches(r#"class="fp-rate""#).count(), 2);
        assert_eq!(svg.matches(r#"class="fn-rate""#).count(), 2);
        assert_eq!(svg.matches(r#"class="pr""#).count(), 1);
        assert_eq!(svg.matches(r#"class="point""#).count(), 2);
        // Each permission curve has a point per swept permission.
        let fp = svg.split(r#"class="fp-rate" points=""#).nth(1).unwrap();
        let fp = fp.split('"').next().unwrap();
        assert_eq!(fp.split(' ').count(), 39);
        // The chosen thresholds (0.825 / 0.15) are marked in (a), (b) and (c).
        assert_eq!(svg.matches(r#"class="chosen""#).count(), 3);
        crate::render::png::svg_to_png(&svg, 1.0).unwrap();
    }

    #[test]
    fn precision_is_left_out_where_nothing_is_decided_positive() {
        let sweep = sweep();
        // Above 0.9 nothing passes: 0.05..=0.9 is 35 points.
        assert_eq!(pr_curve(&sweep.permission).len(), 35);
    }
}
