//! Collection mode's matrix: every pair's odds ratio (thesis Fig. 4.3) as a heatmap, with the
//! documents' names on its axes when there are few enough to read, its scale under it, and the
//! pair's names and value under the pointer at any size.

use egui::epaint::TextShape;
use egui::{Align2, Color32, FontId, Rect, Sense, pos2, vec2};

/// Most documents whose names are written on the axes: beyond this a name would be smaller than
/// a cell can hold, and the tooltip names the pair instead.
pub const MAX_NAMED: usize = 40;
/// Room for the names, on the left and on top.
const NAME_SPACE: f32 = 130.0;
/// Room for the scale under the matrix.
const SCALE_SPACE: f32 = 24.0;

/// The heatmap's colour of an odds ratio: log scale from 0.001 (pale yellow) to 100 (dark
/// red), readable on dark and light backgrounds alike (a single hue fading to black was not).
pub fn heat(odds: f64) -> Color32 {
    let t = if odds <= 0.0 {
        0.0
    } else {
        ((odds.log10() + 3.0) / 5.0).clamp(0.0, 1.0) as f32
    };
    let low = [255.0, 237.0, 160.0];
    let high = [189.0, 0.0, 38.0];
    let mix = |i: usize| (low[i] + (high[i] - low[i]) * t) as u8;
    Color32::from_rgb(mix(0), mix(1), mix(2))
}

/// The heatmap's scale, drawn under it.
fn heat_legend(ui: &mut egui::Ui) {
    ui.horizontal(|ui| {
        ui.small("odds ratio 0.001");
        let (rect, _) = ui.allocate_exact_size(vec2(120.0, 10.0), Sense::hover());
        let steps = 24;
        for i in 0..steps {
            let t = i as f64 / f64::from(steps - 1);
            let odds = 10f64.powf(t * 5.0 - 3.0);
            let x = rect.min.x + rect.width() * i as f32 / steps as f32;
            ui.painter().rect_filled(
                Rect::from_min_size(
                    pos2(x, rect.min.y),
                    vec2(rect.width() / steps as f32 + 0.5, rect.height()),
                ),
                0.0,
                heat(odds),
            );
        }
        ui.small("100 (identical)");
    });
}

/// Where the matrix of `documents` goes in `area`: its square at the right, under and beside
/// the room for the names; and the width it takes, names included.
pub fn layout(area: Rect, documents: usize) -> (Rect, f32) {
    let space = if documents <= MAX_NAMED {
        NAME_SPACE
    } else {
        0.0
    };
    let side = (area.width() * 0.45 - space)
        .min(area.height() - SCALE_SPACE - space)
        .max(60.0);
    let rect = Rect::from_min_size(
        pos2(area.max.x - side, area.min.y + space),
        vec2(side, side),
    );
    (rect, side + space)
}

/// Draws the matrix in the right part of `area` ([`layout`]); returns the pair clicked, if any.
pub fn matrix_ui(
    ui: &mut egui::Ui,
    area: Rect,
    matrix: &[Vec<f64>],
    names: &[String],
) -> Option<(usize, usize)> {
    let n = matrix.len().max(1);
    let named = matrix.len() <= MAX_NAMED;
    let (rect, _) = layout(area, matrix.len());
    let side = rect.width();
    let response = ui.interact(rect, ui.scope_id().with("heatmap"), Sense::click());
    let cell = rect.width() / n as f32;
    let painter = ui.painter_at(rect);
    for (a, row) in matrix.iter().enumerate() {
        for (b, &odds) in row.iter().enumerate() {
            if odds > 0.0 {
                let min = rect.min + vec2(b as f32 * cell, a as f32 * cell);
                painter.rect_filled(
                    Rect::from_min_size(min, vec2(cell.max(1.0), cell.max(1.0))),
                    0.0,
                    heat(odds),
                );
            }
        }
    }
    painter.rect_stroke(
        rect,
        0.0,
        egui::Stroke::new(1.0, ui.visuals().weak_text_color()),
        egui::StrokeKind::Inside,
    );
    if named {
        axis_names(ui, rect, cell, names);
    }
    let mut legend = ui.new_child(egui::UiBuilder::new().max_rect(Rect::from_min_size(
        pos2(rect.min.x, rect.max.y + 4.0),
        vec2(side, 20.0),
    )));
    heat_legend(&mut legend);
    let pos = response.hover_pos()?;
    let b = (((pos.x - rect.min.x) / cell) as usize).min(n - 1);
    let a = (((pos.y - rect.min.y) / cell) as usize).min(n - 1);
    let odds = matrix
        .get(a)
        .and_then(|row| row.get(b))
        .copied()
        .unwrap_or(0.0);
    let name = |i: usize| names.get(i).map_or("", String::as_str);
    response.clone().on_hover_text_at_pointer(format!(
        "row: {}\ncolumn: {}\nodds ratio {odds:.3}{}",
        super::result::short(name(a)),
        super::result::short(name(b)),
        if a != b { " — click to open" } else { "" }
    ));
    (response.clicked() && a != b).then_some((a, b))
}

/// The documents' names: rows on the left, right-aligned; columns on top, reading upwards.
fn axis_names(ui: &egui::Ui, rect: Rect, cell: f32, names: &[String]) {
    let size = (cell * 0.8).clamp(7.0, 12.0);
    let font = FontId::proportional(size);
    let colour = ui.visuals().text_color();
    let painter = ui.painter();
    let fit = |name: &str| {
        let file = name.rsplit('/').next().unwrap_or(name);
        crate::app::widgets::shorten(file, 26)
    };
    for (i, name) in names.iter().enumerate() {
        let middle = (i as f32 + 0.5) * cell;
        painter.text(
            pos2(rect.min.x - 4.0, rect.min.y + middle),
            Align2::RIGHT_CENTER,
            fit(name),
            font.clone(),
            colour,
        );
        let galley = painter.layout_no_wrap(fit(name), font.clone(), colour);
        let height = galley.size().y;
        // Rotated a quarter turn anticlockwise about its top-left corner: the text runs up from
        // the matrix's top edge, its height spread across the column.
        let at = pos2(rect.min.x + middle - height / 2.0, rect.min.y - 4.0);
        painter.add(TextShape::new(at, galley, colour).with_angle(-std::f32::consts::FRAC_PI_2));
    }
}
