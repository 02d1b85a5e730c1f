//! The fuzzy-set IR sentence matcher of thesis 3.2.2.
//!
//! - eq. 3.1: c(i,j) = n(i,j) / (n(i) + n(j) - n(i,j)), from the reference model; c(i,i) = 1;
//! - eq. 3.2: mu(i, S_j) = 1 - prod over k in S_j of (1 - c(i,k));
//! - eq. 3.3: Sim(S_i, S_j) = mean of mu(w, S_j) over the words w of S_i;
//! - eq. 3.4: EQ(S_i, S_j) = 1 iff min(Sim(S_i,S_j), Sim(S_j,S_i)) >= permission (0.825) and
//!   |Sim(S_i,S_j) - Sim(S_j,S_i)| <= variation (0.15) ([`super::ScoredPair::is_eq`]).
//!
//! A sentence is read as the *set* of its distinct refined terms (the thesis does not say what a
//! repeated word does; as a set, repeating a word neither adds weight to it in the mean of eq. 3.3
//! nor multiplies its factor in eq. 3.2). A sentence without terms has no similarity to anything.
//! [`MatchRules`] may forbid a pair (short sentences) or zero a direction (content floor).
//!
//! [`FuzzyMatcher::OVERLAP`] is the same matcher with every correlation taken as 0: Sim is then
//! the share of a sentence's terms found in the other, stemmed word overlap, the baseline that
//! shows what word relatedness adds.
//!
//! ## Exact candidate generation
//! A pair is kept when either directional Sim reaches the floor, so candidates are generated in
//! both directions (left sentences against an index of the right document, and the reverse) and
//! scored once (`fuzzy/candidates.rs`). A document compared with itself (the same object: a
//! collection's sentences) is searched one way round, the other being the same. A caller that
//! needs only pairs at the floor both ways ([`NeededPairs::BothWays`]) has only the candidates
//! of both directions scored (against itself: each sentence's candidates are scored as they
//! are found), and one that needs a few one-way pairs has the others dropped as they are scored
//! ([`super::needed`]). Only content terms are indexed: with kept stopwords the content floor
//! of [`MatchRules`] bounds what the content terms must reach. In one direction:
//! mu(w, S_j) is 0 unless some k in S_j has c(w,k) > 0 ("w touches S_j"), and never above 1, so
//! Sim(S_i, S_j) <= touched(S_i, S_j) / |S_i|; tighter, a word touching S_j only through
//! correlates has exactly mu(w, S_j) = 1 - prod(1 - c(w,k)) over its correlates k in S_j. The
//! index keeps, per left term, the right sentences holding it (mu = 1) and those holding only
//! its correlates, each with that mu. For each left sentence it adds up the bounds per
//! right sentence, taking the words with the shortest lists first; once the remaining words
//! could not lift an untouched sentence to the floor they are only looked up for the sentences
//! already touched (prefix filtering; in ascending order, with a galloping search from where
//! the last lookup in that list stopped, and only until the bound reaches the floor or can no
//! longer). Only the right sentences whose bound reaches
//! floor x |S_i| are scored exactly, through the sentence's related terms sorted once (one
//! binary search per right word instead of one per pair of words). Under WordNet's relations
//! the plain search's candidates are held to the floor over the whole sets too (stopwords
//! shared count 1 each: `fuzzy/whole_floor.rs`), and each is looked at by a bound of its own
//! words before its links are listed and it is aligned (`fuzzy/pair_bound.rs`,
//! `fuzzy/pair_relations.rs`). No pair that could reach the
//! floor is skipped; [`FuzzyMatcher::score_pairs_brute_force`] scores every pair the thesis's way and the
//! tests check both agree bit for bit.

use std::sync::atomic::AtomicBool;

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

mod candidates;
mod capped_lists;
mod capped_search;
mod indexed;
mod merge;
mod pair_bound;
mod pair_relations;
mod pair_sims;
mod rows;
mod scoring;
mod sets;
mod whole_floor;
mod within;

use self::pair_sims::{AlignScratch, correlation_in, kept, sims_under_rules};
pub use self::pair_sims::{sentence_overlap, sentence_similarity};
use self::rows::{RelatedTerms, correlate_rows};

use self::scoring::{
    ScoredPiece, Scoring, keep_needed_one_way, score_itself_both_ways, score_itself_capped,
};
pub use self::sets::similarity;
use self::sets::{WordsOf, directional_sims, lexical_sims, lookup};

use self::candidates::{CandidateSearch, candidates};
use self::capped_lists::candidates_capped;
use self::merge::merge_directions;
use super::aligned::{PairRelatedness, aligned_sims};
use super::lexical::{self, BoundView, Lexical};
use super::needed::{self, BestOfRight};
use super::partners::{self, CappedPairs, PartnerCap, PartnersKept};
use super::{
    Cancelled, Explanation, MatchRules, Method, ModelView, NeededPairs, PreparedDoc,
    PreparedSentence, Relate, ScoredPair, ScoringRequest, SentenceMatcher, TermId, TermMatch,
    Vocabulary, check,
};
use crate::model::wordnet::LemmaId;

/// The fuzzy-set IR matcher, with the reference model's correlations or without them.
#[derive(Clone, Copy, Debug)]
pub struct FuzzyMatcher {
    /// Read the model's correlations (eq. 3.1); without them every c(i, j) with i != j is 0.
    correlations: bool,
}

impl FuzzyMatcher {
    /// The thesis's matcher: eq. 3.2-3.3 with the model's correlations.
    pub const THESIS: FuzzyMatcher = FuzzyMatcher { correlations: true };
    /// Stemmed word overlap: the same Sim with every correlation taken as 0.
    pub const OVERLAP: FuzzyMatcher = FuzzyMatcher {
        correlations: false,
    };

    /// WordNet's relations, when the rules read them and this matcher reads relatedness at all
    /// (not [`FuzzyMatcher::OVERLAP`]).
    fn lexical<'m>(&self, model: &'m dyn ModelView, rules: &MatchRules) -> Option<Lexical<'m>> {
        if self.correlations {
            Lexical::of(model, &rules.related_words)
        } else {
            None
        }
    }

    /// The method this matcher implements.
    fn kind(&self) -> Method {
        if self.correlations {
            Method::Fuzzy
        } else {
            Method::Overlap
        }
    }
}

impl Default for FuzzyMatcher {
    fn default() -> Self {
        FuzzyMatcher::THESIS
    }
}

/// A model seen without its correlations (for [`FuzzyMatcher::OVERLAP`]).
struct NoCorrelations<'a>(&'a dyn ModelView);

impl ModelView for NoCorrelations<'_> {
    fn term_id(&self, term: &str) -> Option<TermId> {
        self.0.term_id(term)
    }
    fn vocabulary_size(&self) -> u32 {
        self.0.vocabulary_size()
    }
    fn correlates(&self, _term: TermId, _out: &mut Vec<(TermId, f32)>) {}
    fn fourgram_count(&self, gram: [char; 4]) -> u32 {
        self.0.fourgram_count(gram)
    }
    fn has_document_rates(&self) -> bool {
        self.0.has_document_rates()
    }
    fn document_rate(&self, term: TermId) -> f64 {
        self.0.document_rate(term)
    }
    fn sentence_rates(&self) -> Option<&crate::model::sentence_rates::SentenceRates> {
        self.0.sentence_rates()
    }
}

/// The model the candidate index of one comparison reads its correlate rows from: the model
/// itself, the model without correlations (for [`FuzzyMatcher::OVERLAP`]), or, with WordNet's
/// relations, rows bounding each pair of stems by the largest `c` over the compared documents'
/// words ([`lexical::bound_rows`]; each candidate is then scored by its own words).
enum IndexedView<'m> {
    Model(&'m dyn ModelView),
    Without(NoCorrelations<'m>),
    Bound(BoundView<'m>),
}

impl<'m> IndexedView<'m> {
    fn new(
        matcher: &FuzzyMatcher,
        model: &'m dyn ModelView,
        lexical: Option<&Lexical<'_>>,
        docs: &[&PreparedDoc],
    ) -> IndexedView<'m> {
        match lexical {
            Some(lexical) => IndexedView::Bound(BoundView {
                model,
                rows: lexical::bound_rows(docs, lexical),
            }),
            None if matcher.correlations => IndexedView::Model(model),
            None => IndexedView::Without(NoCorrelations(model)),
        }
    }

    fn view(&self) -> &dyn ModelView {
        match self {
            IndexedView::Model(model) => *model,
            IndexedView::Without(without) => without,
            IndexedView::Bound(bound) => bound,
        }
    }
}

impl SentenceMatcher for FuzzyMatcher {
    fn method(&self) -> Method {
        self.kind()
    }

    fn score_pairs(
        &self,
        request: &ScoringRequest<'_>,
        cancel: &AtomicBool,
    ) -> Result<Vec<ScoredPair>, Cancelled> {
        Ok(self.score_indexed(request, None, None, cancel)?.pairs)
    }

    fn score_needed_pairs(
        &self,
        request: &ScoringRequest<'_>,
        needed: NeededPairs<'_>,
        cancel: &AtomicBool,
    ) -> Result<Vec<ScoredPair>, Cancelled> {
        Ok(self
            .score_indexed(request, Some(needed), None, cancel)?
            .pairs)
    }

    fn score_capped_pairs(
        &self,
        request: &ScoringRequest<'_>,
        needed: NeededPairs<'_>,
        partners: PartnersKept<'_>,
        cancel: &AtomicBool,
    ) -> Result<CappedPairs, Cancelled> {
        let cap = (partners.kept > 0).then_some(PartnerCap {
            kept: partners.kept,
            counted: partners.counted,
            starts: None,
            beside: false,
        });
        self.score_indexed(request, Some(needed), cap, cancel)
    }

    fn score_capped_per_source(
        &self,
        request: &ScoringRequest<'_>,
        partners: PartnersKept<'_>,
        starts: &[usize],
        cancel: &AtomicBool,
    ) -> Result<CappedPairs, Cancelled> {
        let cap = (partners.kept > 0).then_some(PartnerCap {
            kept: partners.kept,
            counted: partners.counted,
            starts: Some(starts),
            beside: true,
        });
        self.score_indexed(request, None, cap, cancel)
    }

    fn score_pairs_brute_force(&self, request: &ScoringRequest<'_>) -> Vec<ScoredPair> {
        let ScoringRequest {
            left,
            right,
            model,
            floor,
            rules,
        } = *request;
        let lexical = self.lexical(model, rules);
        let without = NoCorrelations(model);
        let model: &dyn ModelView = if self.correlations { model } else { &without };
        // Correlate rows are looked up per term, unrestricted: no knowledge of the right
        // document is used to skip anything. With WordNet, each pair is scored by its words.
        let left_terms = left.active().flat_map(|(_, s)| s.set.iter().copied());
        let rows = if lexical.is_some() {
            FxHashMap::default()
        } else {
            correlate_rows(left_terms, model, |_| true)
        };
        let c = correlation_in(&rows);
        let right_active: Vec<(u32, &PreparedSentence)> = right.active().collect();
        let active: Vec<(u32, &PreparedSentence)> = left.active().collect();
        active
            .par_iter()
            .map_init(
                || (Vec::new(), AlignScratch::default()),
                |(scratch, align), &(i, sentence)| {
                    let mut found = Vec::new();
                    for &(j, other) in &right_active {
                        let sims = match &lexical {
                            Some(lexical) => {
                                let c = WordsOf {
                                    lexical,
                                    left: sentence,
                                    right: other,
                                };
                                lexical_sims(sentence, other, rules, &c, align, false)
                            }
                            None => sims_under_rules(
                                sentence,
                                other,
                                rules,
                                &c,
                                |a, b, _| {
                                    directional_sims(
                                        a,
                                        b,
                                        |w| rows.get(&w).map(Vec::as_slice),
                                        scratch,
                                    )
                                },
                                align,
                                false,
                            ),
                        };
                        found.extend(kept(i, j, sims, floor, sentence, other));
                    }
                    found
                },
            )
            .flatten()
            .collect()
    }

    fn explain(
        &self,
        left: &PreparedSentence,
        right: &PreparedSentence,
        vocabulary: &Vocabulary,
        model: &dyn ModelView,
        rules: &MatchRules,
    ) -> Explanation {
        let lexical = self.lexical(model, rules);
        let without = NoCorrelations(model);
        let model: &dyn ModelView = if self.correlations { model } else { &without };
        let rows = if lexical.is_some() {
            FxHashMap::default()
        } else {
            let all = left.set.iter().chain(&right.set).copied();
            correlate_rows(all, model, |_| true)
        };
        let (sim_lr, sim_rl) = sentence_similarity(left, right, model, rules);
        // c of a word of `from` and one of `to`, and how they are related (WordNet only).
        let link =
            |from: &PreparedSentence, to: &PreparedSentence, w: TermId, k: TermId| match &lexical {
                Some(lexical) => lexical
                    .link(from.lemmas_of(w), to.lemmas_of(k))
                    .map(|(c, how)| (c, Some(how.describe()))),
                None => {
                    let c = lookup(rows.get(&w).map_or(&[][..], Vec::as_slice), w, k);
                    (c > 0.0).then_some((c, None))
                }
            };
        let describe = |from: &PreparedSentence, to: &PreparedSentence| -> Vec<TermMatch> {
            from.set
                .iter()
                .map(|&w| {
                    let exact = to.set.binary_search(&w).is_ok();
                    let mut product = 1.0f64;
                    let mut best: Option<(TermId, f32, Option<String>)> = None;
                    for &k in &to.set {
                        let found = if k == w {
                            Some((1.0, None))
                        } else {
                            link(from, to, w, k)
                        };
                        if let Some((c, how)) = found {
                            product *= 1.0 - f64::from(c);
                            if k != w && best.as_ref().is_none_or(|(_, b, _)| c > *b) {
                                best = Some((k, c, how));
                            }
                        }
                    }
                    let best = best.filter(|_| !exact);
                    TermMatch {
                        term: vocabulary.name(w).to_string(),
                        mu: 1.0 - product,
                        exact,
                        relation: best.as_ref().and_then(|(_, _, how)| how.clone()),
                        best: best.map(|(k, c, _)| (vocabulary.name(k).to_string(), c)),
                    }
                })
                .collect()
        };
        Explanation {
            method: self.kind(),
            sim_lr,
            sim_rl,
            left_terms: describe(left, right),
            right_terms: describe(right, left),
            fingerprints: None,
        }
    }
}

#[cfg(test)]
mod bound_tests;
#[cfg(test)]
mod tests;
