//! The passage list: runs of matches (passages, [`crate::compare::passages`]) with their
//! options, each with a preview of its text, sortable by place, size and score (issue 29,
//! item 3: a long document's thousands of passages are read from the largest or the strongest
//! down, not by their ranges alone).

use super::evidence::current_passage;
use crate::app::SimdocApp;
use crate::compare::Passage;

/// How the passage list is ordered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PassageSort {
    /// By their first sentence in A: reading order.
    #[default]
    ByA,
    /// Most words first.
    BySize,
    /// Strongest first: lowest E-value when judged against chance, else highest score.
    ByScore,
}

/// Passage list state kept between frames.
#[derive(Default)]
pub struct PassageListState {
    pub sort: PassageSort,
}

/// Indices into `passages` in the order `sort` asks (ties in reading order).
pub fn order(passages: &[Passage], sort: PassageSort) -> Vec<usize> {
    let mut order: Vec<usize> = (0..passages.len()).collect();
    match sort {
        PassageSort::ByA => {}
        PassageSort::BySize => {
            order.sort_by_key(|&i| std::cmp::Reverse((passages[i].words, passages[i].pairs)));
        }
        PassageSort::ByScore => order.sort_by(|&x, &y| {
            let (p, q) = (&passages[x], &passages[y]);
            match (p.e_value, q.e_value) {
                (Some(e), Some(f)) => e.total_cmp(&f),
                _ => q.score.total_cmp(&p.score),
            }
        }),
    }
    order
}

/// The passage list with its options.
pub fn passage_list_ui(app: &mut SimdocApp, ui: &mut egui::Ui) {
    let mut changed = false;
    ui.horizontal(|ui| {
        let label = ui.label("At least");
        changed |= ui
            .add(egui::DragValue::new(&mut app.settings.min_passage).range(1..=50))
            .labelled_by(label.id)
            .on_hover_text("The fewest matched pairs a passage must have to be listed")
            .changed();
        let label = ui.label("pairs; gaps up to");
        changed |= ui
            .add(egui::DragValue::new(&mut app.settings.passage_gap).range(0..=20))
            .labelled_by(label.id)
            .on_hover_text(
                "The most unmatched sentences allowed between two matches of one passage",
            )
            .changed();
        ui.label("sentences");
    });
    ui.checkbox(&mut app.settings.scroll_in_step, "Scroll the texts in step")
        .on_hover_text(
            "Scrolling one text scrolls the other along the alignment (inside the selected \
             passage, along that passage)",
        );
    if changed {
        app.refresh_view();
    }
    let Some(view) = &app.view else { return };
    if view.passages.is_empty() {
        ui.weak("No passages: no run of matches is long enough.");
        return;
    }
    ui.horizontal(|ui| {
        if ui.small_button("Previous").clicked() {
            app.step_passage(-1);
        }
        if ui.small_button("Next").clicked() {
            app.step_passage(1);
        }
    });
    ui.horizontal(|ui| {
        ui.label("Sort:");
        let sort = &mut app.passage_list.sort;
        ui.selectable_value(sort, PassageSort::ByA, "A position");
        ui.selectable_value(sort, PassageSort::BySize, "Size")
            .on_hover_text("Longest first: the words of the shorter copy");
        ui.selectable_value(sort, PassageSort::ByScore, "Score")
            .on_hover_text(
                "Strongest first: the least likely by chance when matches are judged against \
             chance, else the highest mean Sim",
            );
    });
    let Some(view) = &app.view else { return };
    let order = order(&view.passages, app.passage_list.sort);
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
    let selected = current_passage(app, view);
    let left_doc = app.docs[0].as_ref().map(|d| std::sync::Arc::clone(&d.doc));
    let mut clicked = None;
    egui::ScrollArea::vertical()
        .id_salt("passage_list")
        .auto_shrink([false, false])
        .show_rows(ui, row_height, order.len(), |ui, rows| {
            for row in rows {
                let index = order[row];
                let p = &view.passages[index];
                let preview = left_doc
                    .as_ref()
                    .and_then(|d| d.sentences.get(p.a[0] as usize))
                    .map_or("", |s| s.text.as_str());
                let label = format!(
                    "A {}–{} · B {}–{} · {} pairs · {} words · score {:.2}   {}",
                    p.a[0],
                    p.a[1],
                    p.b[0],
                    p.b[1],
                    p.pairs,
                    p.words,
                    p.score,
                    crate::app::widgets::shorten(preview, 60)
                );
                if ui
                    .selectable_label(selected == Some(index), label)
                    .on_hover_text(crate::app::widgets::shorten(preview, 400))
                    .clicked()
                {
                    clicked = Some(index);
                }
            }
        });
    if let Some(index) = clicked
        && let Some(view) = &app.view
    {
        app.selection.select_passage(view, index);
        app.match_list.scroll_to_selection = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn passage(a: u32, words: usize, score: f64, e_value: Option<f64>) -> Passage {
        Passage {
            a: [a, a + 1],
            b: [a, a + 1],
            pairs: 2,
            words,
            score,
            e_value,
            members: Vec::new(),
        }
    }

    #[test]
    fn passages_sort_by_place_size_and_score() {
        let passages = [
            passage(0, 10, 0.9, None),
            passage(5, 40, 0.5, None),
            passage(9, 20, 0.7, None),
        ];
        assert_eq!(order(&passages, PassageSort::ByA), vec![0, 1, 2]);
        assert_eq!(order(&passages, PassageSort::BySize), vec![1, 2, 0]);
        assert_eq!(order(&passages, PassageSort::ByScore), vec![0, 2, 1]);
        // Judged against chance, the least likely by chance comes first.
        let judged = [
            passage(0, 10, 0.9, Some(1e-3)),
            passage(5, 40, 0.5, Some(1e-9)),
        ];
        assert_eq!(order(&judged, PassageSort::ByScore), vec![1, 0]);
    }
}
