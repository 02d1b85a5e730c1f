//! The interactive dotplot (thesis 3.4) with egui_plot: x = A's sentence positions, y = B's,
//! y growing downward as in the exported picture; dashed lines at top-level section boundaries
//! (named in the header, so that they are not read as grid lines);
//! zoom and pan (stopping at the documents' edges); passages as segments along their diagonal
//! (the current one in the selection colour); hover a dot to read both sentences; click one to
//! select the pair.
//!
//! With many matches in view, points are aggregated into cells of a few screen pixels (one point
//! per occupied cell and tier), so 100,000 matches draw as a few thousand points at most.

use egui::Color32;
use egui_plot::{HLine, Line, LineStyle, MarkerShape, Plot, PlotPoint, PlotPoints, Points, VLine};

use crate::app::SimdocApp;
use crate::compare::{MOST_CAPPED_NOTES, capped_notes};
use crate::render::Tier;
use crate::similarity::ScoredPair;

/// Above this many matches in view, points are aggregated.
const MAX_POINTS: usize = 4_000;
/// Aggregation cell size in screen pixels.
const CELL_PIXELS: f64 = 3.0;
/// At most this many passages are drawn as segments (the longest in view).
const MAX_SEGMENTS: usize = 400;
/// How close (in screen pixels) the pointer must be to a dot to hover or click it.
const PICK_RADIUS: f32 = 6.0;

/// Dotplot state kept between frames.
#[derive(Default)]
pub struct DotplotState {
    /// Reset the zoom to show everything on the next frame.
    pub reset: bool,
    /// Where the plot was drawn last frame, and the part of the documents it showed
    /// (`[min A, min B]`, `[max A, max B]` in sentence positions): for tests and the status bar.
    pub shown: Option<(egui::Rect, [f64; 2], [f64; 2])>,
    /// Whether the last frame drew the density view (more matches in view than dots).
    pub dense: bool,
}

fn color(tier: Tier) -> Color32 {
    let [r, g, b] = tier.rgb();
    Color32::from_rgb(r, g, b)
}

/// The matches whose x lies in `range` (matches are sorted by x = left position).
fn in_x_range(matches: &[ScoredPair], min: f64, max: f64) -> &[ScoredPair] {
    let lo = matches.partition_point(|p| f64::from(p.left) < min);
    let hi = matches.partition_point(|p| f64::from(p.left) <= max);
    &matches[lo..hi.max(lo)]
}

/// Dots of one tier and shade: (tier, shade, plot positions).
type Dots = (Tier, usize, Vec<[f64; 2]>);

/// How many shades the density view has.
const SHADES: usize = 5;

/// The dots to draw for the matches in view, as (tier, shade, points), and whether they are
/// aggregated. Few matches: one dot each, shade 0. More than [`MAX_POINTS`]: a density view,
/// as when there are more matches than pixels (issue 29: 140,000 matched pairs of a 5 MB pair
/// drew a wall of dots); one dot per occupied cell of a few pixels and tier, shaded by how
/// many matches the cell holds: shade k for 2^k to 2^(k+1) - 1 matches, the last shade for all
/// above, so that a dense diagonal stands out of scattered chance matches.
fn visible_points(
    matches: &[ScoredPair],
    bounds: &egui_plot::PlotBounds,
    cell: [f64; 2],
) -> (Vec<Dots>, bool) {
    let [min_x, min_y] = bounds.min();
    let [max_x, max_y] = bounds.max();
    let candidates = in_x_range(matches, min_x - 1.0, max_x + 1.0);
    let visible = candidates
        .iter()
        .filter(|p| (min_y - 1.0..=max_y + 1.0).contains(&f64::from(p.right)));
    let tiers = [Tier::Similar, Tier::Identical];
    let mut out: Vec<Dots> = tiers
        .iter()
        .flat_map(|&tier| (0..SHADES).map(move |shade| (tier, shade, Vec::new())))
        .collect();
    let slot = |identical: bool, shade: usize| usize::from(identical) * SHADES + shade;
    let count = visible.clone().count();
    if count <= MAX_POINTS {
        for p in visible {
            out[slot(p.identical, 0)]
                .2
                .push([f64::from(p.left), f64::from(p.right)]);
        }
        return (out, false);
    }
    let mut cells: rustc_hash::FxHashMap<(i64, i64, bool), u32> = Default::default();
    for p in visible {
        let (x, y) = (f64::from(p.left), f64::from(p.right));
        let key = (
            (x / cell[0]).floor() as i64,
            (y / cell[1]).floor() as i64,
            p.identical,
        );
        *cells.entry(key).or_default() += 1;
    }
    for ((x, y, identical), n) in cells {
        let shade = (n.ilog2() as usize).min(SHADES - 1);
        out[slot(identical, shade)]
            .2
            .push([(x as f64 + 0.5) * cell[0], (y as f64 + 0.5) * cell[1]]);
    }
    (out, true)
}

/// The match nearest to a screen position, within [`PICK_RADIUS`].
fn nearest(
    matches: &[ScoredPair],
    transform: &egui_plot::PlotTransform,
    pointer: egui::Pos2,
) -> Option<ScoredPair> {
    let at = transform.value_from_position(pointer);
    let dx = f64::from(PICK_RADIUS) / transform.dpos_dvalue_x().abs().max(1e-9);
    in_x_range(matches, at.x - dx, at.x + dx)
        .iter()
        .map(|p| {
            let pos = transform.position_from_point(&PlotPoint::new(p.left, p.right));
            (pos.distance(pointer), p)
        })
        .filter(|(d, _)| *d <= PICK_RADIUS)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, p)| *p)
}

/// The dotplot panel.
pub fn dotplot_ui(app: &mut SimdocApp, ui: &mut egui::Ui) {
    let (Some(view), Some(analysis)) = (&app.view, &app.analysis) else {
        ui.centered_and_justified(|ui| {
            ui.weak("The dotplot appears when two documents are compared.");
        });
        return;
    };
    let docs = &analysis.docs;
    let (x_len, y_len) = (docs[0].doc.sentences.len(), docs[1].doc.sentences.len());
    let boundaries = [
        docs[0].doc.top_level_boundaries(),
        docs[1].doc.top_level_boundaries(),
    ];
    ui.horizontal_wrapped(|ui| {
        ui.strong("Dotplot");
        let capped = &analysis.comparison.capped;
        // Templated lines: each sentence lists its best partners only (said on hover).
        let partners_note = analysis.comparison.partners_capped.describe();
        if capped.is_empty() {
            let only = if partners_note.is_some() {
                " (best partners only)"
            } else {
                ""
            };
            let caption = ui.weak(format!(
                "{} matched {}{only}, {} {}",
                view.matches.len(),
                plural(view.matches.len(), "pair", "pairs"),
                view.passages.len(),
                plural(view.passages.len(), "passage", "passages")
            ));
            if let Some(note) = partners_note {
                caption.on_hover_text(note);
            }
        } else {
            // Repeated sentences: the figures count every pair, the plot shows a band of each
            // class pair that still reaches every sentence.
            let mut notes = capped_notes(capped, MOST_CAPPED_NOTES);
            notes.extend(partners_note);
            ui.weak(format!(
                "{} matched pairs, {} shown (repeated sentences), {} {}",
                view.figures.pairs,
                view.matches.len(),
                view.passages.len(),
                plural(view.passages.len(), "passage", "passages")
            ))
            .on_hover_text(notes.join("\n"));
        }
        if !boundaries[0].is_empty() || !boundaries[1].is_empty() {
            ui.weak("- - section starts").on_hover_text(
                "The dashed lines across the plot are where a top-level section (a heading of \
                 the highest level) begins: vertical in A, horizontal in B.",
            );
        }
        if app.dotplot.dense {
            ui.weak("density: darker = more matches").on_hover_text(
                "More matches are in view than the plot has room for: each dot is a cell of a \
                 few pixels, darker the more matches it holds (1, 2-3, 4-7, 8-15, 16 or more)",
            );
        }
        if ui.small_button("Reset zoom").clicked() {
            app.dotplot.reset = true;
        }
        ui.weak("Ctrl+wheel or drag a box (right button) to zoom, wheel or drag to pan")
            .on_hover_text("Double-click resets the zoom too");
    });
    let selected = app.selection.pair;
    // The B title runs up the left edge: it must fit the plot's height (the A axis and the
    // margins take about 80 px of it; a character of the axis font is about 7.5 px wide), or egui
    // cuts it off at both ends.
    let b_title_room = (((ui.available_height() - 80.0) / 7.5).floor() as usize).clamp(8, 40);
    let mut plot = Plot::new("dotplot")
        .invert_y(true)
        .x_axis_label(format!(
            "A: {}",
            crate::app::widgets::shorten(&docs[0].file_name(), 40)
        ))
        .y_axis_label(crate::app::widgets::shorten(
            &format!("B: {}", docs[1].file_name()),
            b_title_room,
        ))
        .include_x(0.0)
        .include_x(x_len.max(1) as f64)
        .include_y(0.0)
        .include_y(y_len.max(1) as f64)
        .allow_boxed_zoom(true)
        .show_crosshair(false)
        .label_formatter(|_| None);
    if std::mem::take(&mut app.dotplot.reset) {
        plot = plot.reset();
    }
    let matches = &view.matches;
    let passages = &view.passages;
    let current = super::evidence::current_passage(app, view);
    let mut shown = None;
    let mut dense = false;
    let response = plot.show(ui, |plot_ui| {
        // Panning stops at the documents' edges (a little beyond, to see the first dots whole).
        let mut bounds = plot_ui.plot_bounds();
        let clamped = [
            clamp_range(bounds.min()[0], bounds.max()[0], x_len as f64),
            clamp_range(bounds.min()[1], bounds.max()[1], y_len as f64),
        ];
        if clamped[0] != (bounds.min()[0], bounds.max()[0]) {
            plot_ui.set_plot_bounds_x(clamped[0].0..=clamped[0].1);
        }
        if clamped[1] != (bounds.min()[1], bounds.max()[1]) {
            plot_ui.set_plot_bounds_y(clamped[1].0..=clamped[1].1);
        }
        bounds = egui_plot::PlotBounds::from_min_max(
            [clamped[0].0, clamped[1].0],
            [clamped[0].1, clamped[1].1],
        );
        let transform = *plot_ui.transform();
        shown = Some((*transform.frame(), bounds.min(), bounds.max()));
        let cell = [
            CELL_PIXELS / transform.dpos_dvalue_x().abs().max(1e-9),
            CELL_PIXELS / transform.dpos_dvalue_y().abs().max(1e-9),
        ];
        let faint = Color32::from_gray(160).gamma_multiply(0.5);
        for &b in &boundaries[0] {
            plot_ui.vline(
                VLine::new("", b as f64 - 0.5)
                    .color(faint)
                    .width(1.0)
                    .style(LineStyle::dashed_dense()),
            );
        }
        for &b in &boundaries[1] {
            plot_ui.hline(
                HLine::new("", b as f64 - 0.5)
                    .color(faint)
                    .width(1.0)
                    .style(LineStyle::dashed_dense()),
            );
        }
        let radius = if matches.len() > 2_000 { 1.5 } else { 2.5 };
        let (groups, aggregated) = visible_points(matches, &bounds, cell);
        dense = aggregated;
        for (tier, shade, points) in groups {
            if points.is_empty() {
                continue;
            }
            // In the density view a lighter dot stands for fewer matches.
            let strength = if aggregated {
                0.25 + 0.75 * shade as f32 / (SHADES - 1) as f32
            } else {
                1.0
            };
            plot_ui.points(
                Points::new(tier.name(), PlotPoints::new(points))
                    .color(color(tier).gamma_multiply(strength))
                    .radius(radius)
                    .shape(MarkerShape::Circle)
                    .allow_hover(false),
            );
        }
        for (index, [from, to]) in segments_in_view(passages, &bounds) {
            let width = if Some(index) == current { 4.0 } else { 2.0 };
            let color = if Some(index) == current {
                accent()
            } else {
                Color32::from_rgb(0x8E, 0x44, 0xAD).gamma_multiply(0.8)
            };
            plot_ui.line(
                Line::new("passage", PlotPoints::new(vec![from, to]))
                    .color(color)
                    .width(width)
                    .allow_hover(false),
            );
        }
        if let Some((l, r)) = selected {
            plot_ui.points(
                Points::new(
                    "selected",
                    PlotPoints::new(vec![[f64::from(l), f64::from(r)]]),
                )
                .color(accent())
                .radius(6.0)
                .filled(false)
                .shape(MarkerShape::Circle)
                .allow_hover(false),
            );
        }
        transform
    });
    let transform = response.inner;
    app.dotplot.shown = shown;
    app.dotplot.dense = dense;
    let hovered = response
        .response
        .hover_pos()
        .and_then(|pos| nearest(matches, &transform, pos));
    if let Some(pair) = hovered {
        let a = docs[0].doc.sentences.get(pair.left as usize);
        let b = docs[1].doc.sentences.get(pair.right as usize);
        let graded = analysis.comparison.method.is_graded();
        egui::Tooltip::always_open(
            ui.ctx().clone(),
            ui.layer_id(),
            response.response.id.with("dot"),
            egui::PopupAnchor::Pointer,
        )
        .gap(12.0)
        .show(|ui| {
            ui.set_max_width(440.0);
            if graded {
                ui.strong(format!("A {} × B {}", pair.left, pair.right));
                ui.label(super::sims_text::sims_text(
                    &pair,
                    super::sims_text::content_floor(&analysis.options),
                ));
            } else {
                ui.strong(format!("A {} × B {}", pair.left, pair.right));
            }
            if let Some(a) = a {
                ui.label(format!("A: {}", crate::app::widgets::shorten(&a.text, 220)));
            }
            if let Some(b) = b {
                ui.label(format!("B: {}", crate::app::widgets::shorten(&b.text, 220)));
            }
            ui.weak("Click to select");
        });
        if response.response.clicked() {
            app.selection.select_pair(&pair);
            app.match_list.scroll_to_selection = true;
        }
    }
}

/// A visible range `[min, max]` moved (not resized) to stay within `-margin..len + margin`, unless
/// it is wider than that.
fn clamp_range(min: f64, max: f64, len: f64) -> (f64, f64) {
    let margin = (len * 0.02).max(1.0);
    let (low, high) = (-margin, len.max(1.0) + margin);
    let width = max - min;
    if width >= high - low {
        return (min, max);
    }
    if min < low {
        (low, low + width)
    } else if max > high {
        (high - width, high)
    } else {
        (min, max)
    }
}

/// The passages to draw as segments in `bounds`, from first to last pair: those crossing the
/// view, the longest [`MAX_SEGMENTS`] of them.
fn segments_in_view(
    passages: &[crate::compare::Passage],
    bounds: &egui_plot::PlotBounds,
) -> Vec<(usize, [[f64; 2]; 2])> {
    let [min_x, min_y] = bounds.min();
    let [max_x, max_y] = bounds.max();
    let mut visible: Vec<(usize, &crate::compare::Passage)> = passages
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            f64::from(p.a[1]) >= min_x
                && f64::from(p.a[0]) <= max_x
                && f64::from(p.b[1]) >= min_y
                && f64::from(p.b[0]) <= max_y
        })
        .collect();
    if visible.len() > MAX_SEGMENTS {
        visible.sort_by_key(|(i, p)| (std::cmp::Reverse(p.pairs), *i));
        visible.truncate(MAX_SEGMENTS);
    }
    visible
        .into_iter()
        .map(|(i, p)| {
            (
                i,
                [
                    [f64::from(p.a[0]), f64::from(p.b[0])],
                    [f64::from(p.a[1]), f64::from(p.b[1])],
                ],
            )
        })
        .collect()
}

/// The colour of the selection in every view.
pub fn accent() -> Color32 {
    Color32::from_rgb(0xF3, 0x9C, 0x12)
}

/// `one` for a count of 1, else `many`.
fn plural(count: usize, one: &'static str, many: &'static str) -> &'static str {
    if count == 1 { one } else { many }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(left: u32, right: u32) -> ScoredPair {
        ScoredPair::new(left, right, [1.0, 1.0], left.is_multiple_of(2))
    }

    #[test]
    fn x_range_uses_binary_search_bounds() {
        let matches: Vec<ScoredPair> = (0..10).map(|i| pair(i, i)).collect();
        let got: Vec<u32> = in_x_range(&matches, 2.5, 5.0)
            .iter()
            .map(|p| p.left)
            .collect();
        assert_eq!(got, vec![3, 4, 5]);
        assert!(in_x_range(&matches, 20.0, 30.0).is_empty());
    }

    #[test]
    fn panning_stops_at_the_edges() {
        assert_eq!(clamp_range(-30.0, 20.0, 100.0), (-2.0, 48.0));
        assert_eq!(clamp_range(90.0, 140.0, 100.0), (52.0, 102.0));
        assert_eq!(clamp_range(10.0, 60.0, 100.0), (10.0, 60.0));
        assert_eq!(clamp_range(-300.0, 300.0, 100.0), (-300.0, 300.0));
    }

    #[test]
    fn many_points_are_aggregated_into_cells_shaded_by_count() {
        let matches: Vec<ScoredPair> = (0..100_000).map(|i| pair(i, i)).collect();
        let bounds = egui_plot::PlotBounds::from_min_max([0.0, 0.0], [100_000.0, 100_000.0]);
        let (groups, dense) = visible_points(&matches, &bounds, [250.0, 250.0]);
        assert!(dense);
        let total: usize = groups.iter().map(|(_, _, p)| p.len()).sum();
        // 400 cells along the diagonal, two tiers each, each of 125 matches: the darkest shade.
        assert_eq!(total, 800);
        assert!(
            groups
                .iter()
                .all(|(_, shade, p)| p.is_empty() || *shade == SHADES - 1)
        );
        let (few, dense) = visible_points(&matches[..100], &bounds, [250.0, 250.0]);
        assert!(!dense);
        assert_eq!(few.iter().map(|(_, _, p)| p.len()).sum::<usize>(), 100);
    }

    #[test]
    fn a_dense_diagonal_is_darker_than_scattered_matches() {
        // 5,000 matches on the diagonal of a 5,000-sentence pair, and one match alone off it.
        let mut matches: Vec<ScoredPair> = (0..5_000).map(|i| pair(i, i)).collect();
        matches.push(pair(4_001, 10));
        matches.sort_by_key(|p| (p.left, p.right));
        let bounds = egui_plot::PlotBounds::from_min_max([0.0, 0.0], [5_000.0, 5_000.0]);
        let (groups, dense) = visible_points(&matches, &bounds, [10.0, 10.0]);
        assert!(dense);
        let shade_at = |x: f64, y: f64| {
            groups
                .iter()
                .find(|(_, _, points)| {
                    points
                        .iter()
                        .any(|p| (p[0] - x).abs() < 5.0 && (p[1] - y).abs() < 5.0)
                })
                .map(|(_, shade, _)| *shade)
        };
        assert_eq!(shade_at(4_005.0, 15.0), Some(0), "one match alone");
        // Ten matches per cell along the diagonal, five per tier: shade 2 (4 to 7).
        assert_eq!(shade_at(2_005.0, 2_005.0), Some(2));
    }
}
