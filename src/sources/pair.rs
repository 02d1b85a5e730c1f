//! One (document, source) pair cut out of the one-against-all matching: the [`Comparison`] that
//! [`crate::compare::PreparedPair::compare`] would build for the two documents alone.
//!
//! The sentence pairs are the same because scoring is exact per pair: a pair's Sims depend only
//! on its two sentences and the model, and the index keeps every pair reaching the floor,
//! whatever else it holds. What depends on the pair is the rest, rebuilt here the way
//! `PreparedPair` builds it: boilerplate propagated between the two (which only ever leaves
//! sentences out, so the pairs to keep are a subset of those found), the counted masks, and the
//! one-to-two matches.

use std::ops::Range;

use crate::compare::{CompareOptions, Comparison, counting, joined};
use crate::document::Document;
use crate::similarity::{ModelView, PreparedDoc, PreparedSentence, ScoredPair};

/// Sentences `range` of `all` as a document of their own (positions from 0).
pub(super) fn slice(all: &PreparedDoc, range: Range<usize>) -> PreparedDoc {
    PreparedDoc {
        sentences: all.sentences[range.clone()].to_vec(),
        included: all.included[range].to_vec(),
        options: all.options,
    }
}

/// Which sentences take part: included and with content terms.
fn active_mask(doc: &PreparedDoc) -> Vec<bool> {
    let mut mask = vec![false; doc.sentences.len()];
    for (i, _) in doc.active() {
        mask[i as usize] = true;
    }
    mask
}

/// Which sentences count towards the figures, as `PreparedPair::new` decides it.
pub(super) fn counted(doc: &Document, prepared: &PreparedDoc, count_fragments: bool) -> Vec<bool> {
    counted_in(
        doc,
        &prepared.sentences,
        &prepared.included,
        count_fragments,
    )
}

/// [`counted`] for sentences and included flags held elsewhere.
pub(super) fn counted_in(
    doc: &Document,
    sentences: &[PreparedSentence],
    included: &[bool],
    count_fragments: bool,
) -> Vec<bool> {
    let active: Vec<bool> = sentences
        .iter()
        .zip(included)
        .map(|(s, &included)| included && !s.content().is_empty())
        .collect();
    if count_fragments {
        active
    } else {
        counting::counted_mask_of(doc, sentences, &active)
    }
}

/// What one pair needs from the document's and the index's preparation.
pub(super) struct PairContext<'a> {
    pub document: &'a Document,
    pub prepared: &'a PreparedDoc,
    pub doc_counted: &'a [bool],
    pub source: &'a Document,
    /// Every source sentence, and the range of this source's.
    pub all: &'a PreparedDoc,
    pub range: Range<usize>,
    /// Per sentence of `all`, counted without propagation.
    pub source_counted: &'a [bool],
    /// Boilerplate must be propagated between the two (one of them has some).
    pub propagate: bool,
    /// The words of each of the document's sentences ([`crate::compare::passages::word_counts`]),
    /// counted once per attribution, not once per source.
    pub doc_words: &'a std::sync::Arc<[u32]>,
}

impl PairContext<'_> {
    /// The pair's comparison from its sentence pairs (`right` indexing `all`, sorted by (left,
    /// right)), with source positions made local.
    pub fn comparison(
        &self,
        mut pairs: Vec<ScoredPair>,
        model: &dyn ModelView,
        options: &CompareOptions,
    ) -> Comparison {
        let start = self.range.start;
        let (active, counted) = if self.propagate {
            let mut doc = self.prepared.clone();
            let mut source = slice(self.all, self.range.clone());
            let (doc_before, source_before) = (doc.clone(), source.clone());
            counting::propagate_boilerplate(self.document, &mut doc, self.source, &source_before);
            counting::propagate_boilerplate(self.source, &mut source, self.document, &doc_before);
            let active = [active_mask(&doc), active_mask(&source)];
            pairs.retain(|p| active[0][p.left as usize] && active[1][p.right as usize - start]);
            let counted = [
                counted(self.document, &doc, options.count_fragments),
                counted(self.source, &source, options.count_fragments),
            ];
            (active, counted)
        } else {
            let source_active: Vec<bool> = self.range.clone().map(|i| self.is_active(i)).collect();
            (
                [active_mask(self.prepared), source_active],
                [
                    self.doc_counted.to_vec(),
                    self.source_counted[self.range.clone()].to_vec(),
                ],
            )
        };
        // One-to-two matches over the global positions (the halves of a join are consecutive
        // sentences of this source: only its pairs are given), then made local.
        let joined = if options.one_to_two {
            joined::find(
                &pairs,
                self.prepared,
                self.all,
                options.method,
                model,
                &options.rules,
                options.floor,
            )
        } else {
            Vec::new()
        };
        let local = |mut p: ScoredPair| {
            p.right -= start as u32;
            if let Some(j) = p.joined.as_mut()
                && j.side == crate::similarity::JoinSide::Right
            {
                j.with -= start as u32;
            }
            p
        };
        // Every sentence its own class: the pool's index scores sentence by sentence.
        let source_words = crate::compare::passages::word_counts(
            self.source.sentences.iter().map(|s| s.text.as_str()),
        );
        let mut comparison = Comparison::from_sentence_pairs(
            options.method,
            options.floor,
            active,
            counted,
            [std::sync::Arc::clone(self.doc_words), source_words.into()],
            pairs.into_iter().map(local).collect(),
            joined.into_iter().map(local).collect(),
        );
        comparison.include_boilerplate = options.include_boilerplate;
        // Left out of the document checked only (the sources are kept whole).
        comparison.exclusions = options.exclusions;
        comparison
    }

    fn is_active(&self, i: usize) -> bool {
        self.all.included[i] && !self.all.sentences[i].content().is_empty()
    }
}
