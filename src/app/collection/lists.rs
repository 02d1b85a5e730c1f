//! Collection mode's lists beside the matrix: the ranked pairs (with sources, split by the
//! question they answer: submissions reusing sources, submissions reusing each other) and the
//! duplicate groups with the document to keep.

use super::result::{CollectionResult, short};
use crate::collection::roles::PairKind;

/// What the list beside the matrix shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ListTab {
    #[default]
    Pairs,
    Groups,
}

/// A row of the pair list: a heading of one kind of pairs, or a pair (index into the result's).
enum Row {
    Heading(PairKind, usize),
    Pair(usize),
}

/// The pair list's rows: with sources, the submission-source pairs under their heading, then
/// the submission-submission pairs under theirs; without, the pairs alone.
fn rows(result: &CollectionResult) -> Vec<Row> {
    if result.sources == 0 {
        return (0..result.pairs.len()).map(Row::Pair).collect();
    }
    let mut rows = Vec::with_capacity(result.pairs.len() + 2);
    for kind in [PairKind::SubmissionSource, PairKind::SubmissionSubmission] {
        let of_kind: Vec<usize> = (0..result.pairs.len())
            .filter(|&i| result.pairs[i].0 == kind)
            .collect();
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

/// The ranked pairs, each with its relation, score and an Open button.
pub fn pair_list_ui(
    result: &CollectionResult,
    ui: &mut egui::Ui,
    open: &mut Option<(usize, usize)>,
) {
    let rows = rows(result);
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
                        ui.horizontal(|ui| {
                            if ui.small_button("Open").clicked() {
                                *open = Some((pair.a, pair.b));
                            }
                            ui.label(format!(
                                "{}  score {:.3}:  {}  ·  {}",
                                pair.relation.name(),
                                pair.score,
                                short(&result.names[pair.a]),
                                short(&result.names[pair.b])
                            ));
                        });
                    }
                }
            }
        });
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
