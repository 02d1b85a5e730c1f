//! Text common to many documents of a collection, left out of the judged fuzzy comparison's
//! pairs: a template (the census paragraph of every United States town's Wikipedia article, "As
//! of the census of 2010, there were ... people"), the question every answer of a class
//! repeats, a licence notice.
//!
//! Two documents sharing such text share it because many documents do; it says nothing about
//! one of them reusing the other, and judged against chance it is strong evidence all the same
//! (five template sentences are as unlikely by chance as five copied ones). Among 500 enwiki
//! articles with 20 planted pairs, 206 other pairs passed the chance bar, the first ones read
//! towns sharing the census template (EVALUATION.md, "Collection presets"). Tools for class
//! submissions leave such text out: MOSS ignores a passage found in more than `m` submissions
//! (its `-m` option, 10 by default), Dolos a fragment found in more than a share of the files.
//! simdoc does the same at the sentence: a sentence is *common* when sentences EQ to it
//! (eq. 3.4, under the run's matching) are held by more than
//! [`super::FuzzyParams::max_sharing`] documents, itself included. A judged pair's comparison
//! leaves its common sentences out, as it leaves out boilerplate, and the report says how many
//! sentences that was. The thesis counts every sentence (its collections have no templates), so
//! the counted resemblances (eq. 4.1) leave nothing out.
//!
//! A passage copied between two documents is held by two; a group of students sharing one
//! passage stays visible while the group is no larger than the bar. Copies of a whole text are
//! not a template: a document more than half of whose sentences many documents hold verbatim
//! keeps them all, and is not counted among a text's holders ([`CommonText::find`]), so
//! eleven identical submissions are eleven copies, not a template.

use super::shared::SharedSentences;
use crate::compare::SentenceClasses;

/// Which sentences of each document of a collection are common text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CommonText {
    /// `common[starts[d]..starts[d + 1]]`: per sentence position of document `d`, whether it is
    /// common.
    starts: Vec<usize>,
    common: Vec<bool>,
    /// Per sentence class of the collection: whether it is common.
    common_class: Vec<bool>,
    /// How many documents a sentence's text may be held by before it is common.
    pub max_sharing: usize,
}

impl CommonText {
    /// The common sentences of a collection: `classes` over the sentence positions of all its
    /// documents (document `d` holding positions `starts[d]..starts[d + 1]`), their EQ graph
    /// `shared`, and the bar `max_sharing`.
    pub(super) fn find(
        shared: &SharedSentences,
        classes: &SentenceClasses,
        starts: Vec<usize>,
        max_sharing: usize,
    ) -> CommonText {
        // Copies first: a document more than half of whose sentences are held verbatim (equal
        // once prepared) by more than `max_sharing` documents is one of many copies of a text,
        // not a text using a template; it keeps all its sentences, and the documents holding a
        // text are counted without the copies. Fifty identical pages stay fifty duplicates.
        let documents = starts.len().saturating_sub(1);
        let is_copy: Vec<bool> = (0..documents)
            .map(|d| {
                let (mut held, mut active) = (0usize, 0usize);
                for position in starts[d]..starts[d + 1] {
                    if let Some(class) = classes.class_of(position) {
                        active += 1;
                        if shared.documents_holding(class) > max_sharing {
                            held += 1;
                        }
                    }
                }
                2 * held > active
            })
            .collect();
        let not_a_copy = |doc: u32| !is_copy.get(doc as usize).copied().unwrap_or(false);
        let mut seen = Vec::new();
        let common_class: Vec<bool> = (0..classes.len() as u32)
            .map(|class| {
                shared.documents_sharing(class, max_sharing + 1, not_a_copy, &mut seen)
                    > max_sharing
            })
            .collect();
        let positions = starts.last().copied().unwrap_or(0);
        let mut common: Vec<bool> = (0..positions)
            .map(|position| {
                classes
                    .class_of(position)
                    .is_some_and(|class| common_class[class as usize])
            })
            .collect();
        for (d, _) in is_copy.iter().enumerate().filter(|(_, copy)| **copy) {
            common[starts[d]..starts[d + 1]].fill(false);
        }
        CommonText {
            starts,
            common,
            common_class,
            max_sharing,
        }
    }

    /// Whether sentence class `class` (of the run's classes) is common.
    pub(super) fn is_common_class(&self, class: u32) -> bool {
        self.common_class
            .get(class as usize)
            .copied()
            .unwrap_or(false)
    }

    /// Per sentence of document `d`: whether it is common (empty for a document not counted).
    pub fn mask(&self, d: usize) -> &[bool] {
        match (self.starts.get(d), self.starts.get(d + 1)) {
            (Some(&from), Some(&to)) => &self.common[from..to],
            _ => &[],
        }
    }

    /// How many sentences of document `d` are common.
    pub fn count(&self, d: usize) -> usize {
        self.mask(d).iter().filter(|&&c| c).count()
    }

    /// How many sentences of the whole collection are common.
    pub fn total(&self) -> usize {
        self.common.iter().filter(|&&c| c).count()
    }

    /// Whether no sentence is common.
    pub fn is_empty(&self) -> bool {
        !self.common.contains(&true)
    }
}

#[cfg(test)]
mod tests {
    use crate::collection::fuzzy::{FuzzyParams, resemblances};
    use crate::collection::without_job;
    use crate::compare::chance::ChanceSearch;
    use crate::document::{SourceFormat, parse_text};
    use crate::similarity::table::TableModel;

    fn judged(max_sharing: Option<usize>) -> FuzzyParams {
        FuzzyParams {
            chance_search: Some(ChanceSearch::DEFAULT),
            max_sharing,
            ..FuzzyParams::default()
        }
    }

    #[test]
    fn a_sentence_held_by_more_documents_than_the_bar_is_common_and_the_pairs_leave_it_out() {
        let template = "The census counted the town's people in every household.";
        let texts = [
            format!("{template} Alpha beta gamma delta. Epsilon zeta eta theta."),
            format!("{template} Alpha beta gamma delta. Iota kappa lambda mu."),
            format!("{template} Nu xi omicron pi. Rho sigma tau upsilon."),
        ];
        let docs: Vec<_> = texts
            .iter()
            .map(|t| parse_text(t, "d", SourceFormat::Text))
            .collect();
        let model = TableModel::new();
        let run =
            |bar| without_job(|job| resemblances(&docs, &model, &judged(bar), job)).expect("runs");
        // Held by three documents: common at a bar of 2, not at 3.
        let two = run(Some(2));
        let common = two.common.as_ref().expect("a judged run with a bar");
        for d in 0..3 {
            assert_eq!(common.mask(d), &[true, false, false], "document {d}");
        }
        assert_eq!(common.total(), 3);
        assert!(
            two.common_note()
                .is_some_and(|n| n.contains("3 sentences in 3 documents"))
        );
        // Only the first two documents share text beyond the template.
        let pairs: Vec<_> = two
            .pairs(0.9)
            .iter()
            .map(|p| (p.a.min(p.b), p.a.max(p.b)))
            .collect();
        assert_eq!(pairs, vec![(0, 1)]);
        let three = run(Some(3));
        assert!(three.common.as_ref().is_some_and(|c| c.is_empty()));
        assert_eq!(three.common_note(), None);
        assert_eq!(three.pairs(0.9).len(), 3, "every pair shares the template");
        // Copies of one whole text are not a template: four identical documents at a bar of
        // 2 keep every sentence, and every two of them are a pair.
        let copies: Vec<_> = (0..4)
            .map(|_| parse_text(&texts[0], "d", SourceFormat::Text))
            .collect();
        let r =
            without_job(|job| resemblances(&copies, &model, &judged(Some(2)), job)).expect("runs");
        assert!(r.common.as_ref().is_some_and(|c| c.is_empty()));
        assert_eq!(r.pairs(0.9).len(), 6);
        // Off, or a counted run: nothing is looked for.
        assert!(run(None).common.is_none());
        let counted = FuzzyParams {
            max_sharing: Some(2),
            ..FuzzyParams::default()
        };
        let r = without_job(|job| resemblances(&docs, &model, &counted, job)).expect("runs");
        assert!(r.common.is_none());
    }
}
