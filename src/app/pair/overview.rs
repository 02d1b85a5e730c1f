//! The overview strip beside each text, like a diff tool's minimap: where the matched sentences
//! (by tier) and the passages lie in the whole document, and which part is in view. Clicking or
//! dragging on it brings that part of the text into view.

use egui::{Color32, Rect, Sense, Stroke, StrokeKind, pos2};

use crate::app::SimdocApp;
use crate::app::state::Side;
use crate::compare::Passage;
use crate::render::Tier;

/// The strip's width in points.
pub const STRIP_WIDTH: f32 = 14.0;

/// Width of the passage bars at the strip's left edge.
const PASSAGE_WIDTH: f32 = 3.0;

/// A passage's first and last sentence on `side`.
fn side_range(passage: &Passage, side: Side) -> [u32; 2] {
    match side {
        Side::Left => passage.a,
        Side::Right => passage.b,
    }
}

fn tier_colour(tier: Tier) -> Color32 {
    let [r, g, b] = tier.rgb();
    Color32::from_rgb(r, g, b)
}

/// Draws the strip of `side` in `rect`; returns the sentence to bring into view when the user
/// clicked or dragged on it.
pub fn strip_ui(app: &SimdocApp, ui: &mut egui::Ui, side: Side, rect: Rect) -> Option<u32> {
    let id = ui.scope_id().with(("overview", side.index()));
    let response = ui.interact(rect, id, Sense::click_and_drag());
    response.widget_info(|| {
        egui::WidgetInfo::labeled(
            egui::Role::ScrollBar,
            true,
            format!("Overview of {}", side.letter()),
        )
    });
    let response = response.on_hover_text(
        "Where the matches lie in the whole document (red identical, blue similar; the bars at \
         the left are passages) and, framed, the part in view. Click or drag to go there.",
    );
    let painter = ui.painter_at(rect);
    let visuals = ui.visuals();
    painter.rect_filled(rect, 2.0, visuals.extreme_bg_color);
    let pane = &app.panes[side.index()];
    let places = pane.sentence_places();
    let height = rect.height().max(1.0);
    let y_of = |share: f32| rect.min.y + share * height;
    if let Some(view) = &app.view
        && !places.is_empty()
    {
        // One row of pixels per mark at most: the strongest tier wins a shared row, so a
        // document of 100,000 matched sentences draws a few hundred rectangles.
        let rows = height.ceil() as usize + 1;
        let mut row_tier: Vec<Option<Tier>> = vec![None; rows];
        for (position, mark) in view.marks[side.index()].iter().enumerate() {
            let (Some(mark), Some(&share)) = (mark, places.get(position)) else {
                continue;
            };
            let row = ((share * height) as usize).min(rows - 1);
            let slot = &mut row_tier[row];
            if slot.is_none() || mark.tier == Tier::Identical {
                *slot = Some(mark.tier);
            }
        }
        let marks_rect =
            Rect::from_min_max(pos2(rect.min.x + PASSAGE_WIDTH + 1.0, rect.min.y), rect.max);
        let mut row = 0;
        while row < rows {
            let Some(tier) = row_tier[row] else {
                row += 1;
                continue;
            };
            let start = row;
            while row < rows && row_tier[row] == Some(tier) {
                row += 1;
            }
            painter.rect_filled(
                Rect::from_min_max(
                    pos2(marks_rect.min.x, rect.min.y + start as f32),
                    pos2(
                        marks_rect.max.x,
                        (rect.min.y + row as f32).max(rect.min.y + start as f32 + 1.0),
                    ),
                ),
                0.0,
                tier_colour(tier),
            );
        }
        // Passages likewise by pixel row (thousands of passages would be thousands of
        // rectangles a frame); the selected one is drawn over them.
        let mut in_passage = vec![false; rows];
        for passage in &view.passages {
            let [first, last] = side_range(passage, side);
            let (Some(&top), Some(&bottom)) =
                (places.get(first as usize), places.get(last as usize))
            else {
                continue;
            };
            let from = ((top * height) as usize).min(rows - 1);
            let to = ((bottom * height) as usize).clamp(from, rows - 1);
            in_passage[from..=to].fill(true);
        }
        let bar = |from: usize, to: usize, colour: Color32| {
            painter.rect_filled(
                Rect::from_min_max(
                    pos2(rect.min.x, rect.min.y + from as f32),
                    pos2(
                        rect.min.x + PASSAGE_WIDTH,
                        rect.min.y + to.max(from + 2) as f32,
                    ),
                ),
                1.0,
                colour,
            );
        };
        let mut row = 0;
        while row < rows {
            if !in_passage[row] {
                row += 1;
                continue;
            }
            let start = row;
            while row < rows && in_passage[row] {
                row += 1;
            }
            bar(start, row, visuals.strong_text_color().gamma_multiply(0.7));
        }
        if let Some(passage) = app.selection.passage.and_then(|i| view.passages.get(i)) {
            let [first, last] = side_range(passage, side);
            if let (Some(&top), Some(&bottom)) =
                (places.get(first as usize), places.get(last as usize))
            {
                bar(
                    (top * height) as usize,
                    (bottom * height) as usize,
                    visuals.selection.stroke.color,
                );
            }
        }
    }
    if let Some([top, bottom]) = pane.viewport_share() {
        painter.rect_stroke(
            Rect::from_min_max(
                pos2(rect.min.x, y_of(top)),
                pos2(rect.max.x, y_of(bottom).max(y_of(top) + 3.0)),
            ),
            1.0,
            Stroke::new(1.0, visuals.text_color().gamma_multiply(0.8)),
            StrokeKind::Inside,
        );
    }
    let pointer = response.interact_pointer_pos()?;
    if !(response.clicked() || response.dragged()) {
        return None;
    }
    pane.sentence_at((pointer.y - rect.min.y) / height)
}
