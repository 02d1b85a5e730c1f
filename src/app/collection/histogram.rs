//! The histogram of a collection's pair scores, above the pair list: where the scores lie,
//! and where the list's smallest score cuts them. A class's pairs are mostly low scores of
//! students who used the same sources, and a few high ones; the histogram shows the gap that a
//! teacher sets the cut in.

use egui::{Color32, Rect, Sense, Stroke, pos2, vec2};

/// Bars of the histogram.
const BINS: usize = 20;
/// Its height in points.
const HEIGHT: f32 = 48.0;

/// How many of `scores` fall into each of `bins` equal bins from 0 to the largest score (the
/// largest in the last bin).
pub fn bin_counts(scores: &[f64], bins: usize) -> Vec<usize> {
    let mut counts = vec![0; bins];
    let top = scores.iter().copied().fold(0.0, f64::max);
    if bins == 0 || top <= 0.0 {
        if let Some(first) = counts.first_mut() {
            *first = scores.len();
        }
        return counts;
    }
    for &score in scores {
        let bin = ((score.max(0.0) / top) * bins as f64) as usize;
        counts[bin.min(bins - 1)] += 1;
    }
    counts
}

/// Draws the histogram of `scores`, the bars below `cut` greyed.
pub fn histogram_ui(ui: &mut egui::Ui, scores: &[f64], cut: f64) {
    if scores.is_empty() {
        return;
    }
    let counts = bin_counts(scores, BINS);
    let top = scores.iter().copied().fold(0.0, f64::max).max(1e-9);
    let most = counts.iter().copied().max().unwrap_or(1).max(1);
    let width = ui.available_width().min(420.0);
    let (rect, response) = ui.allocate_exact_size(vec2(width, HEIGHT), Sense::hover());
    let painter = ui.painter_at(rect);
    let bar = rect.width() / BINS as f32;
    let strong = ui.visuals().widgets.active.bg_fill;
    let weak = ui.visuals().weak_text_color().gamma_multiply(0.5);
    for (bin, &count) in counts.iter().enumerate() {
        if count == 0 {
            continue;
        }
        // The square root keeps a bin of one pair visible beside a bin of hundreds.
        let height = (HEIGHT - 2.0) * ((count as f32) / (most as f32)).sqrt();
        let x = rect.min.x + bin as f32 * bar;
        let upper = (bin + 1) as f64 / BINS as f64 * top;
        let color = if upper <= cut { weak } else { strong };
        painter.rect_filled(
            Rect::from_min_max(
                pos2(x + 1.0, rect.max.y - height),
                pos2(x + bar - 1.0, rect.max.y),
            ),
            1.0,
            color,
        );
    }
    let cut_x = rect.min.x + (cut / top).clamp(0.0, 1.0) as f32 * rect.width();
    painter.line_segment(
        [pos2(cut_x, rect.min.y), pos2(cut_x, rect.max.y)],
        Stroke::new(1.5, Color32::from_rgb(0xF3, 0x9C, 0x12)),
    );
    response.on_hover_text(format!(
        "Scores of the {} pairs, from 0 to {top:.3} in {BINS} bars (bar height: the square root \
         of its count); the orange line is the smallest score listed",
        scores.len()
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_fall_into_equal_bins_up_to_the_largest() {
        assert_eq!(bin_counts(&[0.0, 0.1, 0.45, 0.5, 1.0], 4), vec![2, 1, 1, 1]);
        assert_eq!(bin_counts(&[2.0, 4.0], 2), vec![0, 2]);
        assert_eq!(bin_counts(&[0.0, 0.0], 3), vec![2, 0, 0]);
        assert_eq!(bin_counts(&[], 3), vec![0, 0, 0]);
    }
}
