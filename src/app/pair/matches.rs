//! The summary figures (the containment in words first, every figure with a tooltip saying what
//! it means and its equation) and the match list (sortable by position and score).

use egui::RichText;

use crate::app::SimdocApp;
use crate::app::state::View;
use crate::render::{Tier, percent};

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

/// Which matches the list shows (and `n` / `p` step through).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MatchFilter {
    #[default]
    All,
    /// Identical pairs only (the same refined terms).
    Identical,
    /// Pairs that are not identical: what an editor reads to see the rewording.
    Changed,
}

impl MatchFilter {
    fn keeps(self, identical: bool) -> bool {
        match self {
            MatchFilter::All => true,
            MatchFilter::Identical => identical,
            MatchFilter::Changed => !identical,
        }
    }
}

/// Match list state kept between frames.
#[derive(Default)]
pub struct MatchListState {
    pub sort: MatchSort,
    pub filter: MatchFilter,
    /// Scroll the list to the selected pair on the next frame.
    pub scroll_to_selection: bool,
    /// The order computed for (view id, sort, filter), reused until one changes.
    cached: Option<(u64, MatchSort, MatchFilter, Vec<usize>)>,
}

impl MatchListState {
    /// Indices into `view.matches` that the filter lets through, in list order.
    pub fn order(&mut self, view: &View) -> Vec<usize> {
        if let Some((id, sort, filter, order)) = &self.cached
            && *id == view.id
            && *sort == self.sort
            && *filter == self.filter
        {
            return order.clone();
        }
        let m = &view.matches;
        let mut order: Vec<usize> = (0..m.len())
            .filter(|&i| self.filter.keeps(m[i].identical))
            .collect();
        match self.sort {
            MatchSort::ByA => {}
            MatchSort::ByB => order.sort_by_key(|&i| (m[i].right, m[i].left)),
            MatchSort::ByScore => order.sort_by(|&a, &b| {
                m[b].min_sim()
                    .total_cmp(&m[a].min_sim())
                    .then((m[a].left, m[a].right).cmp(&(m[b].left, m[b].right)))
            }),
        }
        self.cached = Some((view.id, self.sort, self.filter, order.clone()));
        order
    }
}

/// What each figure means and its equation, for the tooltips.
const CONTAINMENT_HINT: &str = "How much of each document's text is found in the other: for each \
counted sentence, its best directional Sim into the other document (0 when none reaches the \
permission), averaged over the document. A in B = mean over A's sentences s of max Sim(s, t), \
t in B. The headline figure: graded, and directional (a short text inside a long one is 100% \
contained, while the long one is not).";
const SENTENCES_HINT: &str = "Sentences that count towards the figures: not boilerplate, \
not headings or short fragments (unless counted in Options), with at least one refined word.";
const MATCHED_HINT: &str =
    "Sentences with at least one match (EQ of thesis eq. 3.4) in the other document.";
const OVERLAP_HINT: &str = "Degree of overlap (thesis eq. 3.5): common sentences (a one-to-one \
matching) / sentences compared. OV(A) = |common| / |A|.";
const RESEMBLANCE_HINT: &str = "Degree of resemblance (thesis eq. 4.1, counting matched \
sentences): sentences with a match / sentences compared. RS(A,B) = |matched in A| / |A|.";
const ODDS_HINT: &str = "Odds ratio (thesis eq. 4.3): p / (1 - p) with p = RS(A,B) x RS(B,A); \
100 stands for infinity. It says how the documents relate, not how much was copied: above 1, \
each holds most of the other (near-duplicates); far below 1 while one containment is high, \
one document holds the other (a part taken into a longer text). For how much was copied, read \
the containment.";

/// The figures that sum up the comparison, the containment first, in words.
pub fn summary_ui(app: &mut SimdocApp, ui: &mut egui::Ui) {
    ui.horizontal(|ui| {
        ui.strong("Summary");
        if app.is_rescoring() {
            ui.spinner();
            ui.label(format!(
                "Re-scoring at permission {:.2}… (showing the previous result)",
                app.settings.thresholds.permission
            ));
        }
    });
    if let Some(why) = app.compare_stopped.clone()
        && !app.is_comparing()
    {
        let shown = if app.view.is_some() {
            " (showing the previous result)"
        } else {
            ""
        };
        let again = ui.horizontal_wrapped(|ui| {
            ui.label(format!("The comparison stopped: {why}{shown}."));
            ui.button("Compare again").clicked()
        });
        if again.inner {
            app.recompare();
        }
    }
    let Some(view) = &app.view else {
        if app.docs.iter().any(Option::is_none) {
            ui.weak("Open two documents to compare them.");
        } else if app.is_comparing() {
            ui.weak("Comparing…");
        }
        return;
    };
    let f = &view.figures;
    ui.label(RichText::new(crate::render::report::containment_in_words(f)).heading())
        .on_hover_text(CONTAINMENT_HINT);
    egui::Grid::new("figures")
        .num_columns(3)
        .striped(true)
        .show(ui, |ui| {
            ui.label("");
            ui.strong("A");
            ui.strong("B");
            ui.end_row();
            let row = |ui: &mut egui::Ui, name: &str, hint: &str, values: [String; 2]| {
                ui.label(name).on_hover_text(hint);
                for value in values {
                    ui.label(value).on_hover_text(hint);
                }
                ui.end_row();
            };
            row(
                ui,
                "Containment (in the other)",
                CONTAINMENT_HINT,
                f.containment.map(percent),
            );
            row(
                ui,
                "Sentences compared",
                SENTENCES_HINT,
                f.sentences.map(|n| n.to_string()),
            );
            row(
                ui,
                "Matched sentences",
                MATCHED_HINT,
                f.matched.map(|n| n.to_string()),
            );
            row(
                ui,
                "Overlap (eq. 3.5)",
                OVERLAP_HINT,
                f.overlap.map(|x| format!("{x:.3}")),
            );
            row(
                ui,
                "Resemblance (eq. 4.1)",
                RESEMBLANCE_HINT,
                f.resemblance.map(|x| format!("{x:.3}")),
            );
        });
    ui.horizontal(|ui| {
        ui.label("Odds ratio (eq. 4.3):").on_hover_text(ODDS_HINT);
        ui.label(RichText::new(format!("{:.3}", f.odds_ratio)).strong())
            .on_hover_text(ODDS_HINT);
        ui.weak(odds_in_words(f.odds_ratio));
        ui.separator();
        ui.label(format!("Common sentences: {}", f.common))
            .on_hover_text("The size of a maximum one-to-one matching of the sentences");
    });
}

/// What an odds ratio says, in a few words.
fn odds_in_words(odds: f64) -> &'static str {
    if odds >= 1.0 {
        "(each holds most of the other)"
    } else if odds >= 0.1 {
        "(much of one is in the other)"
    } else {
        "(little in common both ways)"
    }
}

/// The list of matched pairs.
pub fn match_list_ui(app: &mut SimdocApp, ui: &mut egui::Ui) {
    let Some(view) = &app.view else {
        return;
    };
    ui.horizontal(|ui| {
        ui.label("Sort:");
        let sort = &mut app.match_list.sort;
        ui.selectable_value(sort, MatchSort::ByA, "A position");
        ui.selectable_value(sort, MatchSort::ByB, "B position");
        ui.selectable_value(sort, MatchSort::ByScore, "Score");
        ui.separator();
        ui.label("Show:");
        let filter = &mut app.match_list.filter;
        ui.selectable_value(filter, MatchFilter::All, "All");
        ui.selectable_value(filter, MatchFilter::Changed, "Changed")
            .on_hover_text("Matches that are not identical (n / p then skip identical ones)");
        ui.selectable_value(filter, MatchFilter::Identical, "Identical");
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
            // A one-to-two match names the two sentences taken together.
            let joined = match pair.joined {
                Some(j) if j.side == crate::similarity::JoinSide::Left => {
                    format!(" (A {}+{})", pair.left.min(j.with), pair.left.max(j.with))
                }
                Some(j) => format!(" (B {}+{})", pair.right.min(j.with), pair.right.max(j.with)),
                None => String::new(),
            };
            let label = format!(
                "A {:>4} – B {:>4}   {:.2}/{:.2}{joined}   {}",
                pair.left,
                pair.right,
                pair.sim_lr,
                pair.sim_rl,
                crate::app::widgets::shorten(text, 70)
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
