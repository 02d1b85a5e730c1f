//! The sentence matcher's interface: [`SentenceMatcher`], the question it is asked
//! ([`ScoringRequest`]) and its account of one pair ([`Explanation`]). Apart from the module
//! root, which holds what matchers and their callers share (the model's view, the methods,
//! cancelling).

use std::sync::atomic::AtomicBool;

use serde::Serialize;

use super::partners::{self, CappedPairs, PartnersKept};
use super::{
    Cancelled, MatchRules, Method, ModelView, NeededPairs, PreparedDoc, PreparedSentence,
    ScoredPair, Vocabulary,
};

/// Why a pair scored what it did, for the viewer's tooltip.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explanation {
    pub method: Method,
    pub sim_lr: f64,
    pub sim_rl: f64,
    /// For each distinct term of the left sentence: how it met the right sentence.
    pub left_terms: Vec<TermMatch>,
    /// For each distinct term of the right sentence: how it met the left sentence.
    pub right_terms: Vec<TermMatch>,
    /// The 4-gram fingerprints compared (4-gram method only).
    pub fingerprints: Option<(String, String)>,
}

/// How one term of a sentence relates to the other sentence.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TermMatch {
    /// The refined (stemmed) term.
    pub term: String,
    /// mu(term, other sentence), eq. 3.2 (1 for an exact match, 0 for no related word).
    pub mu: f64,
    /// The term occurs in the other sentence too.
    pub exact: bool,
    /// The other sentence's term that correlates most with this one (when not exact), with c.
    pub best: Option<(String, f32)>,
    /// How that term is related to this one when WordNet says it ("synonyms", "hypernym",
    /// "same word", ...: [`lexical::WordLink::describe`](super::lexical::WordLink::describe));
    /// `None` for the model's correlations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relation: Option<String>,
}

/// What a matcher is asked to score: the pairs of `left`'s and `right`'s sentences whose
/// directional scores reach `floor` under `rules`, read through `model`. Every scoring entry
/// point of [`SentenceMatcher`] takes one (and so do the fuzzy matcher's scorings of a document
/// against itself, [`super::fuzzy::FuzzyMatcher::pairs_within`]), the index and its brute-force
/// twin alike, so that both answer the very same question; what an entry point asks besides
/// (which pairs are needed, how many partners are kept) comes beside it.
#[derive(Clone, Copy)]
pub struct ScoringRequest<'a> {
    /// The document whose sentences are the pairs' left side ([`ScoredPair::left`]).
    pub left: &'a PreparedDoc,
    /// The document whose sentences are the pairs' right side ([`ScoredPair::right`]): the same
    /// object as `left` to pair a document's sentences with each other (a collection's
    /// sentences), which the fuzzy matcher then searches one way round only.
    pub right: &'a PreparedDoc,
    /// The reference statistics the scores read: term ids, correlations, 4-gram counts.
    pub model: &'a dyn ModelView,
    /// A pair is kept when one of its directional scores reaches this (one direction is
    /// enough: see [`SentenceMatcher::score_pairs`]).
    pub floor: f64,
    /// Which pairs may match at all and how their words relate.
    pub rules: &'a MatchRules,
}

impl<'a> ScoringRequest<'a> {
    /// The request pairing `doc`'s sentences with each other (each with itself included).
    pub fn within(
        doc: &'a PreparedDoc,
        model: &'a dyn ModelView,
        floor: f64,
        rules: &'a MatchRules,
    ) -> ScoringRequest<'a> {
        ScoringRequest {
            left: doc,
            right: doc,
            model,
            floor,
            rules,
        }
    }
}

/// A sentence matcher: scores the pairs of two prepared documents.
pub trait SentenceMatcher: Sync {
    fn method(&self) -> Method;

    /// Every pair of active sentences with at least one directional score at or above the
    /// request's floor (under its rules), with both scores, sorted by (left, right). Uses an
    /// index; exact for the model in use. (One direction is enough: a sentence contained in a
    /// longer one scores high one way only, and containment and merged sentences need exactly
    /// those pairs.)
    fn score_pairs(
        &self,
        request: &ScoringRequest<'_>,
        cancel: &AtomicBool,
    ) -> Result<Vec<ScoredPair>, Cancelled>;

    /// [`Self::score_pairs`] without the pairs reaching the floor one way only that a
    /// comparison does not use, given the sentences' neighbours ([`needed`](super::needed)
    /// says which pairs are kept). The default keeps them all; the fuzzy matcher drops the
    /// others as it scores them, so that they are never all held at once.
    fn score_needed_pairs(
        &self,
        request: &ScoringRequest<'_>,
        needed: NeededPairs<'_>,
        cancel: &AtomicBool,
    ) -> Result<Vec<ScoredPair>, Cancelled> {
        let _ = needed;
        self.score_pairs(request, cancel)
    }

    /// [`Self::score_needed_pairs`] with each sentence's partners at the floor both ways capped
    /// at its best ([`partners`]; `partners.kept` 0 keeps every pair). The default scores every
    /// needed pair and then keeps the best; the fuzzy matcher stops a sentence's search once it
    /// holds them, so that templated lines cost what their kept partners cost.
    fn score_capped_pairs(
        &self,
        request: &ScoringRequest<'_>,
        needed: NeededPairs<'_>,
        partners: PartnersKept<'_>,
        cancel: &AtomicBool,
    ) -> Result<CappedPairs, Cancelled> {
        let pairs = self.score_needed_pairs(request, needed, cancel)?;
        if partners.kept == 0 {
            return Ok(CappedPairs {
                pairs,
                capped: Default::default(),
            });
        }
        let lens = [request.left.sentences.len(), request.right.sentences.len()];
        Ok(partners::keep_best(
            pairs,
            request.floor,
            partners,
            lens,
            Default::default(),
        ))
    }

    /// [`Self::score_pairs`] of a document (the request's left) against a pool of sources (its
    /// right, source `g` holding `starts[g]..starts[g + 1]`), each document sentence keeping
    /// its best partners in each source and each source sentence its best in the document
    /// ([`partners::keep_best_per_source`]; `partners.kept` 0 keeps every pair). The default
    /// scores every pair, then keeps the best; the fuzzy matcher stops a sentence's search in a
    /// source once it holds them.
    fn score_capped_per_source(
        &self,
        request: &ScoringRequest<'_>,
        partners: PartnersKept<'_>,
        starts: &[usize],
        cancel: &AtomicBool,
    ) -> Result<CappedPairs, Cancelled> {
        let pairs = self.score_pairs(request, cancel)?;
        if partners.kept == 0 {
            return Ok(CappedPairs {
                pairs,
                capped: Default::default(),
            });
        }
        let lens = [request.left.sentences.len(), request.right.sentences.len()];
        Ok(partners::keep_best_per_source(
            pairs,
            request.floor,
            partners,
            lens,
            Default::default(),
            starts,
        ))
    }

    /// The same result as [`Self::score_pairs`] by comparing every pair; for tests and
    /// benchmarks.
    fn score_pairs_brute_force(&self, request: &ScoringRequest<'_>) -> Vec<ScoredPair>;

    /// Explains one pair of sentences.
    fn explain(
        &self,
        left: &PreparedSentence,
        right: &PreparedSentence,
        vocabulary: &Vocabulary,
        model: &dyn ModelView,
        rules: &MatchRules,
    ) -> Explanation;
}
