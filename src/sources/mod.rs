//! One document against many sources: which source each of its sentences comes from, and how
//! much of the document each source holds.
//!
//! A teacher's question about one submission ("which of these sources does it reuse, how much,
//! and where?") is a comparison of one document with each source. Comparing pair by pair costs
//! one index per source; instead every source sentence goes into one [`PreparedDoc`] (refined
//! and interned once by [`SourceIndex::new`]) and the document is scored against all of them in
//! one call of the sentence matcher ([`crate::similarity::SentenceMatcher::score_pairs`], exact
//! for the model: no pair reaching the floor is skipped). The matcher builds its candidate
//! lists per call, so each document costs one pass over the pool's postings, not one comparison
//! per source. The pairs are then split by the
//! source they fall in, and only sources holding at least one pair cost anything more.
//!
//! For each such source the pairs become the [`Comparison`] that `compare` builds for that
//! (document, source) pair (`pair`): the same active and counted sentences (boilerplate seen
//! on one side counts on both; headings and fragments do not count), the same one-to-two matches
//! ([`crate::compare::joined`]). So the containment listed here for a source *is*
//! [`Comparison::containment`] of the pair opened side by side: each counted sentence's best
//! directional Sim into the source among the pairs reaching the permission, 0 for a sentence
//! without one, averaged over the document's counted sentences.
//!
//! Each sentence of the document is attributed to its best source sentence: the highest
//! directional Sim (document sentence into source sentence, at or above the permission) over
//! all sources; ties go to the source holding more of the document, then to the earlier source.
//!
//! Templated text (a table, a form, lines that differ by a number) against templated sources
//! would pair every line with every line: with [`CompareOptions::partners_kept`] (10 by
//! default; 0 lists every pair), each document sentence keeps its best partners in each source
//! and each source sentence its best in the document
//! ([`crate::similarity::partners::keep_best_per_source`]), and the fuzzy matcher's search of
//! a source stops once it holds them. What is listed per sentence and source is unchanged (its
//! best Sim into the source, its best smaller Sim, a source sentence's best Sim into the
//! document); among source sentences scoring alike, the one attributed is the earliest of those
//! kept (nearest the diagonal) rather than the earliest of all; one-to-two matches are looked
//! for among the partners kept and the sentences beside them. [`Attribution::partners_capped`]
//! says where this applied.

mod chance;
mod pair;
mod partners_capped;

pub use partners_capped::SourcePartnersCapped;

use std::sync::atomic::AtomicBool;

use rayon::prelude::*;
use serde::Serialize;

use crate::compare::{CompareOptions, Comparison};
use crate::document::Document;
use crate::similarity::{
    Cancelled, CappedPairs, ModelView, PartnersKept, PreparedDoc, ScoredPair, ScoringRequest,
    Thresholds, Vocabulary,
};

/// Index of a source in the list given to [`SourceIndex::new`].
pub type SourceId = usize;

/// Every source's sentences prepared once, in one sentence index, ready to be matched with any
/// number of documents.
pub struct SourceIndex<'a> {
    sources: &'a [Document],
    options: CompareOptions,
    vocabulary: Vocabulary,
    /// All sources' sentences one after another: source `s` holds
    /// `starts[s]..starts[s + 1]`.
    all: PreparedDoc,
    starts: Vec<usize>,
    /// Per sentence of `all`: whether it counts towards the figures when no boilerplate is
    /// propagated from the document ([`counting::counted_mask`]).
    counted: Vec<bool>,
    /// Per source: whether it has boilerplate (then a document's sentences may be left out
    /// against it, [`counting::propagate_boilerplate`]).
    has_boilerplate: Vec<bool>,
    /// The pool's repetition classes, made the first time a document is judged against chance
    /// (`chance`), then kept for the next.
    pool_classes: std::sync::OnceLock<crate::compare::SentenceClasses>,
}

impl<'a> SourceIndex<'a> {
    /// Prepares every source as a comparison with `options` would (its method and floor are
    /// used by [`SourceIndex::attribute`]).
    pub fn new(sources: &'a [Document], model: &dyn ModelView, options: &CompareOptions) -> Self {
        // The pool is prepared once and kept: every sentence refined, as a collection's
        // documents are (`Vocabulary::refining_every_text`); a map of every text to find the
        // repeated ones would also hold 600,000 entries of 24 bytes and its table's slack in a
        // pool of 5,000 articles, at the memory bar's edge.
        let mut vocabulary = Vocabulary::new(model).refining_every_text();
        // One call over every sentence: refining runs in parallel across sources.
        let texts: Vec<&str> = sources
            .iter()
            .flat_map(|d| d.sentences.iter().map(|s| s.text.as_str()))
            .collect();
        let mut all = vocabulary.prepare_texts_with(&texts, model, &options.refine);
        drop(texts);
        let mut starts = Vec::with_capacity(sources.len() + 1);
        starts.push(0);
        let mut has_boilerplate = Vec::with_capacity(sources.len());
        for source in sources {
            let start = starts[starts.len() - 1];
            let mask = source.boilerplate_mask();
            has_boilerplate.push(mask.iter().any(|&b| b));
            if !options.include_boilerplate {
                for (flag, boilerplate) in all.included[start..].iter_mut().zip(&mask) {
                    *flag = !boilerplate;
                }
            }
            starts.push(start + source.sentences.len());
        }
        let counted = (0..sources.len())
            .into_par_iter()
            .flat_map_iter(|s| {
                let range = starts[s]..starts[s + 1];
                pair::counted_in(
                    &sources[s],
                    &all.sentences[range.clone()],
                    &all.included[range],
                    options.count_fragments,
                )
            })
            .collect();
        SourceIndex {
            sources,
            options: *options,
            vocabulary,
            all,
            starts,
            counted,
            has_boilerplate,
            pool_classes: std::sync::OnceLock::new(),
        }
    }

    /// The pool's repetition classes ([`Self::pool_classes`]).
    fn pool_classes(&self) -> &crate::compare::SentenceClasses {
        self.pool_classes
            .get_or_init(|| crate::compare::SentenceClasses::of(&self.all))
    }

    /// The number of sources.
    pub fn len(&self) -> usize {
        self.sources.len()
    }

    /// Whether there are no sources.
    pub fn is_empty(&self) -> bool {
        self.sources.is_empty()
    }

    /// The sentences indexed, over all sources.
    pub fn sentence_count(&self) -> usize {
        self.all.sentences.len()
    }

    /// The options the sources were prepared with.
    pub fn options(&self) -> &CompareOptions {
        &self.options
    }

    /// The source holding sentence `position` of the index.
    fn owner(&self, position: usize) -> SourceId {
        // starts[0] = 0 <= position, so the partition point is at least 1.
        self.starts.partition_point(|&s| s <= position) - 1
    }

    /// Matches `document` with every source (see the module docs). The vocabulary grows by the
    /// document's words the model does not know, so this takes `&mut self`.
    pub fn attribute(
        &mut self,
        document: &Document,
        model: &dyn ModelView,
        thresholds: &Thresholds,
        cancel: &AtomicBool,
    ) -> Result<Attribution, Cancelled> {
        let options = self.options;
        let mut prepared = self.vocabulary.prepare_with(
            document,
            model,
            options.include_boilerplate,
            &options.refine,
        );
        // What the analyst leaves out of the document checked (its quotations, its
        // bibliography); the sources are what it is checked against and are kept whole.
        prepared.leave_out(document, &options.exclusions);
        let doc_counted = pair::counted(document, &prepared, options.count_fragments);
        if options.chance_search.is_some() && options.method.is_graded() {
            return self.attribute_by_chance(
                document,
                &prepared,
                doc_counted,
                model,
                thresholds,
                cancel,
            );
        }
        // Each sentence ranks its counted partners apart ([`crate::similarity::partners`]); a
        // source's counted sentences are those before boilerplate seen in the document is
        // propagated (a few may not count in the pair).
        let partners = PartnersKept::counting(options.partners_kept, [&doc_counted, &self.counted]);
        let CappedPairs { pairs, capped } = options.method.matcher().score_capped_per_source(
            &ScoringRequest {
                left: &prepared,
                right: &self.all,
                model,
                floor: options.floor,
                rules: &options.rules,
            },
            partners,
            &self.starts,
            cancel,
        )?;
        crate::similarity::check(cancel)?;
        // Pairs per source, each list still sorted by (left, right).
        let mut by_source: Vec<(SourceId, Vec<ScoredPair>)> = Vec::new();
        let mut sorted = pairs;
        sorted.sort_unstable_by_key(|p| (self.owner(p.right as usize), p.left, p.right));
        for group in
            sorted.chunk_by(|x, y| self.owner(x.right as usize) == self.owner(y.right as usize))
        {
            by_source.push((self.owner(group[0].right as usize), group.to_vec()));
        }
        drop(sorted);
        let doc_has_boilerplate = document.boilerplate_mask().iter().any(|&b| b);
        // Counted once for every source's pair.
        let doc_words: std::sync::Arc<[u32]> = crate::compare::passages::word_counts(
            document.sentences.iter().map(|s| s.text.as_str()),
        )
        .into();
        let shares: Vec<(SourceShare, Vec<Best>)> = by_source
            .into_par_iter()
            .map(|(source, pairs)| {
                let range = self.starts[source]..self.starts[source + 1];
                let context = pair::PairContext {
                    document,
                    prepared: &prepared,
                    doc_counted: &doc_counted,
                    source: &self.sources[source],
                    all: &self.all,
                    range,
                    source_counted: &self.counted,
                    propagate: !options.include_boilerplate
                        && (doc_has_boilerplate || self.has_boilerplate[source]),
                    doc_words: &doc_words,
                };
                let comparison = context.comparison(pairs, model, &options);
                share_of(source, &comparison, thresholds)
            })
            .collect();
        let mut attribution =
            Attribution::from_shares(shares, document.sentences.len(), doc_counted);
        let [document_capped, source_capped] = capped;
        attribution.partners_capped = SourcePartnersCapped {
            kept: options.partners_kept,
            document: document_capped.len(),
            first: document_capped.first().copied(),
            source_sentences: source_capped.len(),
        };
        Ok(attribution)
    }
}

impl SourceIndex<'_> {
    /// [`Self::attribute`] judged against chance ([`chance`]).
    fn attribute_by_chance(
        &self,
        document: &Document,
        prepared: &PreparedDoc,
        doc_counted: Vec<bool>,
        model: &dyn ModelView,
        thresholds: &Thresholds,
        cancel: &AtomicBool,
    ) -> Result<Attribution, Cancelled> {
        let words: std::sync::Arc<[u32]> = crate::compare::passages::word_counts(
            document.sentences.iter().map(|s| s.text.as_str()),
        )
        .into();
        let checked = chance::Checked {
            document,
            prepared,
            counted: &doc_counted,
            words: &words,
        };
        let (shares, _capped_classes) = chance::shares(self, &checked, model, thresholds, cancel)?;
        Ok(Attribution::from_shares(
            shares,
            document.sentences.len(),
            doc_counted,
        ))
    }
}

/// A sentence's best match in one source: (Sim into it, source sentence, joined neighbour).
type Best = Option<(f64, u32, Option<u32>)>;

/// One source's share of the document, and each document sentence's best match in it.
///
/// With [`Thresholds::min_words`], a document sentence is attributed only through pairs in a
/// run of that many words ([`crate::compare::passages::in_long_runs`] over the pairs whose Sim
/// into the source reaches the permission), and the source's containment and use are counted
/// over those pairs alone ([`Comparison::containment_of`]).
fn share_of(
    source: SourceId,
    comparison: &Comparison,
    thresholds: &Thresholds,
) -> (SourceShare, Vec<Best>) {
    let permission = thresholds.permission;
    let one_way: Vec<ScoredPair> = comparison
        .pairs
        .iter()
        .chain(&comparison.joined)
        .filter(|p| p.sim_lr >= permission)
        .copied()
        .collect();
    let (attributing, [containment, used]) = if thresholds.min_words > 0 {
        let words = [&*comparison.words[0], &*comparison.words[1]];
        let keep =
            crate::compare::passages::in_long_runs(&one_way, words, thresholds.min_words as usize);
        let long_enough: Vec<ScoredPair> = one_way
            .iter()
            .zip(keep)
            .filter_map(|(pair, keep)| keep.then_some(*pair))
            .collect();
        let shares = comparison.containment_of(&long_enough);
        (long_enough, shares)
    } else {
        (one_way, comparison.containment(permission))
    };
    let mut best: Vec<Best> = vec![None; comparison.active[0].len()];
    for p in &attributing {
        let with = p
            .joined
            .filter(|j| j.side == crate::similarity::JoinSide::Right)
            .map(|j| j.with);
        if let Some(slot) = best.get_mut(p.left as usize) {
            // Strictly better only: the first (lowest source sentence) wins ties.
            if slot.is_none_or(|(sim, _, _)| p.sim_lr > sim) {
                *slot = Some((p.sim_lr, p.right, with));
            }
        }
    }
    let sentences = best
        .iter()
        .enumerate()
        .filter_map(|(i, b)| {
            b.map(|(sim, source_sentence, joined_with)| SentenceMatch {
                sentence: i as u32,
                source_sentence,
                joined_with,
                sim,
            })
        })
        .collect();
    let figures = comparison.figures(&Thresholds {
        permission,
        variation: 1.0,
        max_e_value: None,
        min_words: thresholds.min_words,
    });
    (
        SourceShare {
            source,
            containment,
            used,
            matched: figures.matched[0],
            sentences,
            passages: Vec::new(),
        },
        best,
    )
}

/// A document sentence's best match in one source.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SentenceMatch {
    /// Position of the sentence in the document.
    pub sentence: u32,
    /// Position of its best match in the source.
    pub source_sentence: u32,
    /// When the match is one-to-two: the source sentence taken together with `source_sentence`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub joined_with: Option<u32>,
    /// Sim(document sentence, source sentence), eq. 3.3 of the thesis.
    pub sim: f64,
}

/// How much of the document one source holds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SourceShare {
    pub source: SourceId,
    /// The document in the source: [`Comparison::containment`] of (document, source).
    pub containment: f64,
    /// The source in the document: how much of the source the document uses.
    pub used: f64,
    /// Document sentences with a match in the source (both Sims at the permission, variation
    /// off), as `compare` counts them.
    pub matched: usize,
    /// Each document sentence whose directional Sim into the source reaches the permission, with
    /// its best source sentence, in document order.
    pub sentences: Vec<SentenceMatch>,
    /// Judged against chance: the passages of the document found in the source, as `compare`
    /// of the two lists them (sentence numbers in the document as A and the source as B).
    /// Empty when sentences are judged by Sims alone, which find no passages.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub passages: Vec<crate::compare::Passage>,
}

/// One sentence of the document attributed to a source sentence.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SentenceSource {
    pub source: SourceId,
    pub source_sentence: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub joined_with: Option<u32>,
    pub sim: f64,
}

/// A document matched with its sources.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Attribution {
    /// The sources holding some of the document, by containment (descending; ties by source
    /// order). Sources without a match are left out.
    pub sources: Vec<SourceShare>,
    /// Per sentence of the document: its best source sentence over all sources, if any reaches
    /// the permission.
    pub sentences: Vec<Option<SentenceSource>>,
    /// Per sentence of the document: whether it counts towards the figures.
    pub counted: Vec<bool>,
    /// The sentences that list only their best partners in a source.
    #[serde(skip_serializing_if = "SourcePartnersCapped::is_empty")]
    pub partners_capped: SourcePartnersCapped,
}

impl Attribution {
    fn from_shares(
        mut shares: Vec<(SourceShare, Vec<Best>)>,
        sentence_count: usize,
        counted: Vec<bool>,
    ) -> Self {
        // A source whose pairs reached the comparison floor but no sentence the permission
        // holds none of the document.
        shares.retain(|(share, best)| share.containment > 0.0 || best.iter().any(Option::is_some));
        shares.sort_by(|(a, _), (b, _)| {
            b.containment
                .total_cmp(&a.containment)
                .then(a.source.cmp(&b.source))
        });
        let mut sentences: Vec<Option<SentenceSource>> = vec![None; sentence_count];
        // Sources in rank order: a later source replaces only a strictly better match.
        for (share, best) in &shares {
            for (slot, b) in sentences.iter_mut().zip(best) {
                if let Some((sim, source_sentence, joined_with)) = *b
                    && slot.is_none_or(|s| sim > s.sim)
                {
                    *slot = Some(SentenceSource {
                        source: share.source,
                        source_sentence,
                        joined_with,
                        sim,
                    });
                }
            }
        }
        Attribution {
            sources: shares.into_iter().map(|(share, _)| share).collect(),
            sentences,
            counted,
            partners_capped: SourcePartnersCapped::default(),
        }
    }

    /// The share of the document's counted sentences attributed to some source.
    pub fn attributed_share(&self) -> f64 {
        let counted = self.counted.iter().filter(|&&c| c).count();
        let attributed = self
            .sentences
            .iter()
            .zip(&self.counted)
            .filter(|(s, c)| **c && s.is_some())
            .count();
        crate::compare::figures::ratio(attributed, counted)
    }

    /// Each listed source's rank (0 = holding most of the document), by source position: the
    /// colour a source is shown in, in the HTML report and the viewer alike.
    pub fn ranks(&self) -> rustc_hash::FxHashMap<usize, usize> {
        self.sources
            .iter()
            .enumerate()
            .map(|(rank, s)| (s.source, rank))
            .collect()
    }

    /// The document in all sources together: each counted sentence's best Sim into any source
    /// (0 without one), averaged over the counted sentences.
    pub fn containment(&self) -> f64 {
        let counted = self.counted.iter().filter(|&&c| c).count();
        let sum: f64 = self
            .sentences
            .iter()
            .zip(&self.counted)
            .filter(|(_, c)| **c)
            .filter_map(|(s, _)| s.map(|s| s.sim))
            // From +0: an empty f64 sum is -0, printed "-0.000".
            .fold(0.0, |total, sim| total + sim);
        if counted == 0 {
            0.0
        } else {
            sum / counted as f64
        }
    }

    /// Counted sentences of the document.
    pub fn counted_sentences(&self) -> usize {
        self.counted.iter().filter(|&&c| c).count()
    }
}

/// Matches one document with `sources` in one go (prepares the index, then attributes).
pub fn attribute(
    document: &Document,
    sources: &[Document],
    model: &dyn ModelView,
    options: &CompareOptions,
    thresholds: &Thresholds,
    cancel: &AtomicBool,
) -> Result<Attribution, Cancelled> {
    SourceIndex::new(sources, model, options).attribute(document, model, thresholds, cancel)
}

#[cfg(test)]
mod tests;
