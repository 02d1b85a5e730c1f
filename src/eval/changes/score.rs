//! A change list scored against a revision's known edits, per kind of change.
//!
//! - *Precision*, in characters: of the characters a tool's changes of one kind cover (in A and
//!   in B, whitespace not counted, overlaps once), the share that the truth gives that kind.
//! - *Recall*, in sentences: of the edited sentences of one kind, the share found: at least half
//!   of the sentence's characters covered by changes of that kind, on each side it has.
//! - F1 of the two, per kind; the *macro F1* is their mean over the four kinds.
//!
//! Besides the four kinds, the sentences reworded inside a moved paragraph are counted as
//! *named* when a moved change lists a reworded pair covering half of each side of them.

use serde::Serialize;

use super::corpus::{Edit, Truth};
use crate::compare::changes::ChangeKind;
use crate::render::changes::JsonChange;

/// The counts behind one kind's figures, summed over revisions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct KindCounts {
    /// Characters the tool's changes of this kind cover, and how many of them the truth gives
    /// this kind.
    pub detected_chars: usize,
    pub right_chars: usize,
    /// Edited sentences of this kind, and how many were found.
    pub sentences: usize,
    pub found: usize,
}

impl KindCounts {
    fn add(&mut self, other: &KindCounts) {
        self.detected_chars += other.detected_chars;
        self.right_chars += other.right_chars;
        self.sentences += other.sentences;
        self.found += other.found;
    }

    /// Precision in characters (1 when nothing was detected).
    pub fn precision(&self) -> f64 {
        ratio_or_one(self.right_chars, self.detected_chars)
    }

    /// Recall in sentences (1 when there was nothing to find).
    pub fn recall(&self) -> f64 {
        ratio_or_one(self.found, self.sentences)
    }

    pub fn f1(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        }
    }
}

fn ratio_or_one(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        1.0
    } else {
        part as f64 / whole as f64
    }
}

/// The scores of a tool over revisions.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ChangeScore {
    /// Per kind, in [`ChangeKind::ALL`]'s order (added, deleted, changed, moved).
    pub kinds: [KindCounts; 4],
    /// Sentences reworded inside moved paragraphs, and how many a moved change named.
    pub reworded_in_moved: usize,
    pub reworded_named: usize,
    pub revisions: usize,
}

impl ChangeScore {
    /// The mean of the four kinds' F1.
    pub fn macro_f1(&self) -> f64 {
        self.kinds.iter().map(KindCounts::f1).sum::<f64>() / self.kinds.len() as f64
    }

    pub fn add(&mut self, other: &ChangeScore) {
        for (mine, theirs) in self.kinds.iter_mut().zip(&other.kinds) {
            mine.add(theirs);
        }
        self.reworded_in_moved += other.reworded_in_moved;
        self.reworded_named += other.reworded_named;
        self.revisions += other.revisions;
    }

    /// The counts of `kind`.
    pub fn of(&self, kind: ChangeKind) -> &KindCounts {
        &self.kinds[index(kind)]
    }
}

fn index(kind: ChangeKind) -> usize {
    ChangeKind::ALL
        .iter()
        .position(|&k| k == kind)
        .unwrap_or_default()
}

/// Per side, per character: whether it is whitespace (not counted).
fn blanks(text: &str) -> Vec<bool> {
    text.chars().map(char::is_whitespace).collect()
}

/// Marks `[start, end)` of `mask` (clipped to it).
fn mark(mask: &mut [bool], [start, end]: [usize; 2]) {
    let end = end.min(mask.len());
    if start < end {
        mask[start..end].iter_mut().for_each(|m| *m = true);
    }
}

/// Counted (non-blank) characters of `span` that `mask` marks, and all counted ones.
fn covered(mask: &[bool], blank: &[bool], [start, end]: [usize; 2]) -> (usize, usize) {
    let end = end.min(mask.len()).min(blank.len());
    let mut hit = 0;
    let mut all = 0;
    for i in start.min(end)..end {
        if !blank[i] {
            all += 1;
            hit += usize::from(mask[i]);
        }
    }
    (hit, all)
}

/// Whether `span` is at least half covered by `mask` (an empty span never is).
fn half_covered(mask: &[bool], blank: &[bool], span: [usize; 2]) -> bool {
    let (hit, all) = covered(mask, blank, span);
    all > 0 && 2 * hit >= all
}

/// Scores one revision's `changes` against its `truth`; `texts` are A and B as read.
pub fn score(texts: [&str; 2], truth: &Truth, changes: &[JsonChange]) -> ChangeScore {
    let blank = texts.map(blanks);
    let len = [blank[0].len(), blank[1].len()];
    let mut score = ChangeScore {
        revisions: 1,
        ..ChangeScore::default()
    };
    let side_span = |e: &Edit, side: usize| if side == 0 { e.a } else { e.b };
    for kind in ChangeKind::ALL {
        let mut detected = [vec![false; len[0]], vec![false; len[1]]];
        let mut true_kind = [vec![false; len[0]], vec![false; len[1]]];
        for change in changes.iter().filter(|c| c.kind == kind) {
            for (side, span) in [(0, change.a), (1, change.b)] {
                if let Some(span) = span {
                    mark(&mut detected[side], span);
                }
            }
        }
        for edit in truth.edits.iter().filter(|e| e.kind == kind) {
            for (side, mask) in true_kind.iter_mut().enumerate() {
                if let Some(span) = side_span(edit, side) {
                    mark(mask, span);
                }
            }
        }
        let counts = &mut score.kinds[index(kind)];
        for side in 0..2 {
            let chars = detected[side]
                .iter()
                .zip(&true_kind[side])
                .zip(&blank[side]);
            for ((&found, &right), &blank) in chars {
                if found && !blank {
                    counts.detected_chars += 1;
                    counts.right_chars += usize::from(right);
                }
            }
        }
        for edit in truth.edits.iter().filter(|e| e.kind == kind) {
            counts.sentences += 1;
            let found = (0..2).all(|side| {
                side_span(edit, side)
                    .is_none_or(|span| half_covered(&detected[side], &blank[side], span))
            });
            counts.found += usize::from(found);
        }
    }
    // Reworded sentences of moved paragraphs, named by a moved change.
    let mut named = [vec![false; len[0]], vec![false; len[1]]];
    for change in changes.iter().filter(|c| c.kind == ChangeKind::Moved) {
        for pair in &change.reworded {
            mark(&mut named[0], pair.a);
            mark(&mut named[1], pair.b);
        }
    }
    for edit in truth.edits.iter().filter(|e| e.reworded) {
        score.reworded_in_moved += 1;
        let found = (0..2).all(|side| {
            side_span(edit, side).is_none_or(|span| half_covered(&named[side], &blank[side], span))
        });
        score.reworded_named += usize::from(found);
    }
    score
}

/// The table of one or more tools' scores, as EVALUATION.md shows it.
pub fn markdown(rows: &[(String, ChangeScore)]) -> String {
    let mut out = String::from(
        "| tool | added P / R / F1 | deleted P / R / F1 | changed P / R / F1 | moved P / R / F1 | macro F1 | reworded in moved named |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for (label, score) in rows {
        let cells: Vec<String> = ChangeKind::ALL
            .iter()
            .map(|&k| {
                let c = score.of(k);
                format!(
                    "{:.3} / {:.3} / **{:.3}**",
                    c.precision(),
                    c.recall(),
                    c.f1()
                )
            })
            .collect();
        out.push_str(&format!(
            "| {label} | {} | **{:.3}** | {} of {} |\n",
            cells.join(" | "),
            score.macro_f1(),
            score.reworded_named,
            score.reworded_in_moved
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(kind: ChangeKind, a: Option<[usize; 2]>, b: Option<[usize; 2]>) -> JsonChange {
        JsonChange {
            kind,
            a,
            b,
            a_sentences: None,
            b_sentences: None,
            reworded: Vec::new(),
        }
    }

    #[test]
    fn precision_counts_characters_and_recall_sentences() {
        // A: "Aaaa. Bbbb. Cccc." with B deleted; B: "Aaaa. Cccc. Dddd." with D added.
        let texts = ["Aaaa. Bbbb. Cccc.", "Aaaa. Cccc. Dddd."];
        let truth = Truth {
            edits: vec![
                Edit {
                    kind: ChangeKind::Deleted,
                    a: Some([6, 11]),
                    b: None,
                    reworded: false,
                },
                Edit {
                    kind: ChangeKind::Added,
                    a: None,
                    b: Some([12, 17]),
                    reworded: false,
                },
            ],
            sentences: [Vec::new(), Vec::new()],
        };
        // The deletion found with "Cccc." too; the addition missed; a false change.
        let found = [
            change(ChangeKind::Deleted, Some([6, 17]), None),
            change(ChangeKind::Changed, Some([0, 5]), Some([0, 5])),
        ];
        let score = score(texts, &truth, &found);
        let deleted = score.of(ChangeKind::Deleted);
        assert_eq!((deleted.right_chars, deleted.detected_chars), (5, 10));
        assert_eq!((deleted.found, deleted.sentences), (1, 1));
        let added = score.of(ChangeKind::Added);
        assert_eq!(
            (added.found, added.sentences, added.detected_chars),
            (0, 1, 0)
        );
        assert_eq!(added.precision(), 1.0);
        assert_eq!(added.f1(), 0.0);
        let changed = score.of(ChangeKind::Changed);
        assert_eq!((changed.right_chars, changed.detected_chars), (0, 10));
        assert_eq!(changed.f1(), 0.0);
        // Moved: nothing to find and nothing found.
        assert_eq!(score.of(ChangeKind::Moved).f1(), 1.0);
    }
}
