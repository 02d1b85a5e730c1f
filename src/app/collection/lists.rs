//! Collection mode's lists beside the matrix: the ranked pairs (with sources, split by the
//! question they answer: submissions reusing sources, submissions reusing each other) and the
//! duplicate groups with the document to keep.
//!
//! A class yields hundreds of pairs (issue 29, item 2): the pair list sorts by score or by
//! name, filters by a smallest score and searches the names, with a histogram of the scores
//! above it ([`super::histogram`]) that shows where the cut lies.

use super::result::{CollectionResult, short};
use crate::collection::discounted_rank::discounted_share;
use crate::collection::roles::PairKind;
use crate::collection::source_discount::SourceDiscount;
use crate::render::percent;

/// What the list beside the matrix shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ListTab {
    #[default]
    Pairs,
    Groups,
}

/// How the pair list is ordered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PairSort {
    /// The run's ranking: highest score first, and with sources the submission-submission
    /// pairs by what they share beyond them ([`super::ranking`]).
    #[default]
    ByRank,
    /// By the names of the two documents.
    ByName,
}

/// The pair list's sort, search and smallest score, kept between frames.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairListState {
    pub sort: PairSort,
    /// Pairs whose either name contains this (ignoring case) are listed; empty: all.
    pub search: String,
    /// Pairs below this score are not listed.
    pub min_score: f64,
}

impl PairListState {
    /// The indices of `result`'s pairs of `kind` (any kind when `None`) that the search and
    /// the smallest score let through, in the list's order.
    fn listed(&self, result: &CollectionResult, kind: Option<PairKind>) -> Vec<usize> {
        let needle = self.search.trim().to_lowercase();
        let name = |i: usize| result.names.get(i).map_or("", String::as_str);
        let mut listed: Vec<usize> = (0..result.pairs.len())
            .filter(|&i| kind.is_none_or(|k| result.pairs[i].0 == k))
            .filter(|&i| result.pairs[i].1.score >= self.min_score)
            .filter(|&i| {
                let pair = &result.pairs[i].1;
                needle.is_empty()
                    || name(pair.a).to_lowercase().contains(&needle)
                    || name(pair.b).to_lowercase().contains(&needle)
            })
            .collect();
        if self.sort == PairSort::ByName {
            listed.sort_by(|&x, &y| {
                let (p, q) = (&result.pairs[x].1, &result.pairs[y].1);
                (name(p.a), name(p.b)).cmp(&(name(q.a), name(q.b)))
            });
        }
        listed
    }
}

/// A row of the pair list: a heading of one kind of pairs, or a pair (index into the result's).
enum Row {
    Heading(PairKind, usize),
    Pair(usize),
}

/// The pair list's rows: with sources, the submission-source pairs under their heading, then
/// the submission-submission pairs under theirs; without, the pairs alone. Each part listed as
/// `state` says.
fn rows(result: &CollectionResult, state: &PairListState) -> Vec<Row> {
    if result.sources == 0 {
        return state
            .listed(result, None)
            .into_iter()
            .map(Row::Pair)
            .collect();
    }
    let mut rows = Vec::with_capacity(result.pairs.len() + 2);
    for kind in [PairKind::SubmissionSource, PairKind::SubmissionSubmission] {
        let of_kind = state.listed(result, Some(kind));
        rows.push(Row::Heading(kind, of_kind.len()));
        rows.extend(of_kind.into_iter().map(Row::Pair));
    }
    rows
}

/// The heading of a kind of pairs, in the words of the question it answers.
fn heading(kind: PairKind, count: usize) -> String {
    let pairs = if count == 1 { "pair" } else { "pairs" };
    match kind {
        PairKind::SubmissionSource => {
            format!("Submissions and the sources they reuse: {count} {pairs}")
        }
        PairKind::SubmissionSubmission => {
            format!("Submissions reusing each other: {count} {pairs}")
        }
    }
}

/// The ranked pairs, each with its relation, score and an Open button, under the sort, search
/// and smallest-score controls and the histogram of the scores.
pub fn pair_list_ui(
    result: &CollectionResult,
    state: &mut PairListState,
    ui: &mut egui::Ui,
    open: &mut Option<(usize, usize)>,
) {
    let scores: Vec<f64> = result.pairs.iter().map(|(_, p)| p.score).collect();
    ui.horizontal_wrapped(|ui| {
        ui.label("Sort:");
        ui.selectable_value(&mut state.sort, PairSort::ByRank, "Rank")
            .on_hover_text(
                "Highest score first; with sources marked, the pairs of submissions by the \
                 larger share left once the text found in a source is left out, then by score",
            );
        ui.selectable_value(&mut state.sort, PairSort::ByName, "Name");
        ui.separator();
        let label = ui.label("Search");
        ui.add(
            egui::TextEdit::singleline(&mut state.search)
                .hint_text("a name")
                .desired_width(140.0),
        )
        .labelled_by(label.id)
        .on_hover_text("Lists the pairs where either document's name contains this");
        ui.separator();
        let top = scores.iter().copied().fold(0.0, f64::max).max(1e-9);
        let label = ui.label("Score at least");
        ui.add(egui::Slider::new(&mut state.min_score, 0.0..=top).max_decimals(3))
            .labelled_by(label.id);
    });
    super::histogram::histogram_ui(ui, &scores, state.min_score);
    let rows = rows(result, state);
    if rows.iter().all(|r| matches!(r, Row::Heading(..))) {
        ui.weak("No pair matches the search and the smallest score.");
    }
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    egui::ScrollArea::vertical()
        .id_salt("collection_pairs")
        .auto_shrink([false, false])
        .show_rows(ui, row_height, rows.len(), |ui, range| {
            for row in &rows[range] {
                match *row {
                    Row::Heading(kind, count) => {
                        ui.strong(heading(kind, count));
                    }
                    Row::Pair(i) => {
                        let pair = &result.pairs[i].1;
                        let discount = result.discount(i);
                        ui.horizontal(|ui| {
                            if ui.small_button("Open").clicked() {
                                *open = Some((pair.a, pair.b));
                            }
                            let (a, b) = (name(result, pair.a), name(result, pair.b));
                            let beyond = discount.map_or(String::new(), |d| {
                                format!(", {} beyond the sources", percent(discounted_share(d)))
                            });
                            let label = ui.label(format!(
                                "{}  score {:.3}{beyond}:  {}  ·  {}",
                                pair.relation.name(),
                                pair.score,
                                short(a),
                                short(b)
                            ));
                            if let Some(d) = discount {
                                label.on_hover_text(discount_in_words(d, [a, b]));
                            }
                        });
                    }
                }
            }
        });
}

/// A document's name in `result` ("" for a position past its names).
fn name(result: &CollectionResult, d: usize) -> &str {
    result.names.get(d).map_or("", String::as_str)
}

/// What a pair of submissions shares beyond the sources, both ways, and what was left out: the
/// hover text of its row, in the words of the command line's summary.
fn discount_in_words(discount: &SourceDiscount, [a, b]: [&str; 2]) -> String {
    let [a_in_b, b_in_a] = discount.containment.map(percent);
    let left_out = match discount.found_in_sources {
        [0, 0] => "no matched sentence is found in a marked source".to_string(),
        [left_a, left_b] => format!(
            "{left_a} matched sentences of {a} and {left_b} of {b} left out: they, or their \
             partners, are found in a marked source"
        ),
    };
    format!(
        "Without the sources' text: {a_in_b} of {a} is found in {b}, {b_in_a} of {b} in {a} \
         ({left_out}). The pairs of submissions are ranked by the larger share, then by score; \
         the score shown is the raw one, with the sources' text."
    )
}

/// The duplicate groups, each with the document to keep first (the longest, Roul et al.'s
/// step 11; see [`crate::collection::groups::duplicate_groups`]).
pub fn group_list_ui(
    result: &CollectionResult,
    ui: &mut egui::Ui,
    open: &mut Option<(usize, usize)>,
) {
    if result.groups.is_empty() {
        ui.label("No duplicates: no two documents are versions of each other.");
        return;
    }
    egui::ScrollArea::vertical()
        .id_salt("collection_groups")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for (number, group) in result.groups.iter().enumerate() {
                let Some((&keep, others)) = group.split_first() else {
                    continue;
                };
                ui.horizontal_wrapped(|ui| {
                    ui.label(format!(
                        "Group {}: keep {}; duplicates:",
                        number + 1,
                        short(&result.names[keep])
                    ))
                    .on_hover_text("The document to keep is the longest of the group.");
                    for &other in others {
                        if ui
                            .small_button(short(&result.names[other]))
                            .on_hover_text("Open it beside the one to keep")
                            .clicked()
                        {
                            *open = Some((keep, other));
                        }
                    }
                });
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collection::{DetectedPair, Relation};

    fn result(pairs: &[(usize, usize, f64)]) -> CollectionResult {
        CollectionResult {
            detector: crate::collection::presets::Detector::Fuzzy,
            preset: None,
            fuzzy: None,
            names: ["anna.txt", "ben.txt", "carla.txt", "dmitri.txt"]
                .map(String::from)
                .to_vec(),
            documents: Vec::new(),
            pairs: pairs
                .iter()
                .map(|&(a, b, score)| {
                    (
                        PairKind::SubmissionSubmission,
                        DetectedPair::new(a, b, Relation::Duplicate, score),
                    )
                })
                .collect(),
            sources: 0,
            groups: Vec::new(),
            detection: crate::collection::Detection::default(),
            matrix: None,
            skipped: Vec::new(),
            notes: Vec::new(),
            common: None,
            cluster_evidence: Vec::new(),
            discounts: Vec::new(),
            ranking_note: None,
        }
    }

    /// A row's hover text says both directions and what was left out, or that nothing was.
    #[test]
    fn a_discounted_pair_is_explained_in_words() {
        let discount = SourceDiscount {
            containment: [0.25, 0.0],
            matched_sentences: [1, 0],
            found_in_sources: [3, 4],
        };
        assert_eq!(
            discount_in_words(&discount, ["anna.txt", "ben.txt"]),
            "Without the sources' text: 25% of anna.txt is found in ben.txt, 0% of ben.txt in \
             anna.txt (3 matched sentences of anna.txt and 4 of ben.txt left out: they, or \
             their partners, are found in a marked source). The pairs of submissions are ranked \
             by the larger share, then by score; the score shown is the raw one, with the \
             sources' text."
        );
        let nothing = SourceDiscount {
            found_in_sources: [0, 0],
            ..discount
        };
        assert!(
            discount_in_words(&nothing, ["anna.txt", "ben.txt"])
                .contains("(no matched sentence is found in a marked source)")
        );
    }

    #[test]
    fn the_pair_list_sorts_searches_and_cuts_by_score() {
        let result = result(&[(2, 3, 0.9), (0, 1, 0.5), (1, 3, 0.2)]);
        let mut state = PairListState::default();
        assert_eq!(state.listed(&result, None), vec![0, 1, 2]);
        state.sort = PairSort::ByName;
        assert_eq!(state.listed(&result, None), vec![1, 2, 0]);
        state.search = "DMITRI".to_string();
        assert_eq!(state.listed(&result, None), vec![2, 0]);
        state.min_score = 0.3;
        assert_eq!(state.listed(&result, None), vec![0]);
        state.search.clear();
        state.sort = PairSort::ByRank;
        assert_eq!(state.listed(&result, None), vec![0, 1]);
    }
}
