//! The summary figures and the match list (sortable by position and score).

use egui::RichText;

use super::SimdocApp;
use super::state::View;
use crate::render::Tier;

/// How the match list is ordered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MatchSort {
    /// By A's sentence position (then B's): reading order of the first document.
    #[default]
    ByA,
    /// By B's sentence position (then A's).
    ByB,
    /// Strongest first (by the smaller directional score).
    ByScore,
}

/// Match list state kept between frames.
#[derive(Default)]
pub struct MatchListState {
    pub sort: MatchSort,
    /// Scroll the list to the selected pair on the next frame.
    pub scroll_to_selection: bool,
    /// The order computed for (view id, sort), reused until either changes.
    cached: Option<(u64, MatchSort, Vec<usize>)>,
}

impl MatchListState {
    /// Indices into `view.matches` in list order.
    pub fn order(&mut self, view: &View) -> Vec<usize> {
        if let Some((id, sort, order)) = &self.cached
            && *id == view.id
            && *sort == self.sort
        {
            return order.clone();
        }
        let mut order: Vec<usize> = (0..view.matches.len()).collect();
        let m = &view.matches;
        match self.sort {
            MatchSort::ByA => {}
            MatchSort::ByB => order.sort_by_key(|&i| (m[i].right, m[i].left)),
            MatchSort::ByScore => order.sort_by(|&a, &b| {
                m[b].min_sim()
                    .total_cmp(&m[a].min_sim())
                    .then((m[a].left, m[a].right).cmp(&(m[b].left, m[b].right)))
            }),
        }
        self.cached = Some((view.id, self.sort, order.clone()));
        order
    }
}

/// The figures that sum up the comparison.
pub fn summary_ui(app: &mut SimdocApp, ui: &mut egui::Ui) {
    ui.strong("Summary");
    let Some(view) = &app.view else {
        ui.weak(if app.docs.iter().all(Option::is_some) {
            "Comparing…"
        } else {
            "Open two documents to compare them."
        });
        return;
    };
    let f = &view.figures;
    egui::Grid::new("figures")
        .num_columns(3)
        .striped(true)
        .show(ui, |ui| {
            ui.label("");
            ui.strong("A");
            ui.strong("B");
            ui.end_row();
            ui.label("Sentences compared");
            ui.label(f.sentences[0].to_string());
            ui.label(f.sentences[1].to_string());
            ui.end_row();
            ui.label("Matched sentences");
            ui.label(f.matched[0].to_string());
            ui.label(f.matched[1].to_string());
            ui.end_row();
            ui.label("Overlap (eq. 3.5)")
                .on_hover_text("Common sentences (one-to-one) / sentences compared");
            ui.label(format!("{:.3}", f.overlap[0]));
            ui.label(format!("{:.3}", f.overlap[1]));
            ui.end_row();
            ui.label("Resemblance (eq. 4.1)")
                .on_hover_text("Sentences with a match / sentences compared: A in B, B in A");
            ui.label(format!("{:.3}", f.resemblance[0]));
            ui.label(format!("{:.3}", f.resemblance[1]));
            ui.end_row();
        });
    ui.horizontal(|ui| {
        ui.label("Odds ratio (eq. 4.3):")
            .on_hover_text("p / (1 - p), p = product of the resemblances; 100 stands for infinity");
        ui.label(RichText::new(format!("{:.3}", f.odds_ratio)).strong());
        ui.separator();
        ui.label(format!("Common sentences: {}", f.common));
    });
}

/// The list of matched pairs.
pub fn match_list_ui(app: &mut SimdocApp, ui: &mut egui::Ui) {
    let Some(view) = &app.view else {
        return;
    };
    ui.horizontal(|ui| {
        ui.strong(format!("Matches ({})", view.matches.len()));
        ui.label("Sort:");
        let sort = &mut app.match_list.sort;
        ui.selectable_value(sort, MatchSort::ByA, "A position");
        ui.selectable_value(sort, MatchSort::ByB, "B position");
        ui.selectable_value(sort, MatchSort::ByScore, "Score");
    });
    let order = app.match_list.order(view);
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
    let selected_row = app.selection.pair.and_then(|(l, r)| {
        order
            .iter()
            .position(|&i| view.matches[i].left == l && view.matches[i].right == r)
    });
    let mut scroll = egui::ScrollArea::vertical()
        .id_salt("match_list")
        .auto_shrink([false, false]);
    if std::mem::take(&mut app.match_list.scroll_to_selection)
        && let Some(row) = selected_row
    {
        let spacing = ui.spacing().item_spacing.y;
        scroll =
            scroll.vertical_scroll_offset(((row_height + spacing) * row as f32 - 60.0).max(0.0));
    }
    let left_doc = app.analysis.as_ref().map(|a| a.docs[0].doc.clone());
    let mut clicked = None;
    scroll.show_rows(ui, row_height, order.len(), |ui, rows| {
        for row in rows {
            let pair = view.matches[order[row]];
            let tier = if pair.identical {
                Tier::Identical
            } else {
                Tier::Similar
            };
            let [r, g, b] = tier.rgb();
            let text = left_doc
                .as_ref()
                .and_then(|d| d.sentences.get(pair.left as usize))
                .map_or("", |s| s.text.as_str());
            let label = format!(
                "A {:>4} – B {:>4}   {:.2}/{:.2}   {}",
                pair.left,
                pair.right,
                pair.sim_lr,
                pair.sim_rl,
                super::toolbar::shorten(text, 70)
            );
            ui.horizontal(|ui| {
                let (rect, _) =
                    ui.allocate_exact_size(egui::vec2(8.0, row_height - 4.0), egui::Sense::hover());
                ui.painter()
                    .rect_filled(rect, 2.0, egui::Color32::from_rgb(r, g, b));
                let response = ui.selectable_label(selected_row == Some(row), label);
                if response.clicked() {
                    clicked = Some(pair);
                }
            });
        }
    });
    if let Some(pair) = clicked {
        app.selection.select_pair(&pair);
    }
}
