//! Sentence matchers: which sentence pairs of two documents are the same or similar.
//!
//! Four methods, one trait ([`SentenceMatcher`]):
//! - [`fuzzy`]: the fuzzy-set IR model of thesis 3.2.2 (eq. 3.1-3.4), graded scores in both
//!   directions, thresholded by the permission and variation values;
//! - overlap: the same scores with every correlation taken as 0 (stemmed word overlap), the
//!   baseline that shows what the reference model's word relatedness adds;
//! - [`fourgram`]: the three least-frequent 4-grams of thesis 3.2.1, equal fingerprints match;
//! - [`exact`]: equal refined term sequences, the cheap baseline and the viewer's "identical" tier.
//!
//! Sentences are first [`prepare`]d: refined (thesis 3.1) and mapped to term ids shared by both
//! documents. Every matcher scores all pairs whose two directional scores reach a *floor*, through
//! an index that provably skips no such pair, and has a brute-force twin used by tests to prove it.

pub(crate) mod aligned;
pub(crate) mod exact;
pub(crate) mod fourgram;
pub mod fuzzy;
pub mod lexical;
mod matcher;
pub mod needed;
mod pair;
pub(crate) mod partners;
pub(crate) mod prepare;
mod reference_model;
pub(crate) mod rules;
mod suffix_lcs;
pub mod table;
mod thresholds;
pub mod verdict;

use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use crate::model::sentence_rates::SentenceRates;
use crate::model::verdict::StoredVerdict;
use crate::model::wordnet::Lexicon;

pub use lexical::{RelatedWords, WordnetWeights};
pub use matcher::{Explanation, ScoringRequest, SentenceMatcher, TermMatch};
pub use needed::{NeededPairs, Neighbours};
pub use pair::{JoinSide, Joined, ScoredPair};
pub use partners::{CappedPairs, PARTNERS_KEPT, PartnerCap, PartnersKept};
pub use prepare::{PreparedDoc, PreparedSentence, Vocabulary};
pub use rules::{MatchRules, Relate};
pub use thresholds::Thresholds;

/// A refined term's id: the reference model's id for terms it knows, a fresh id above the model's
/// vocabulary for the others (see [`Vocabulary`]).
pub type TermId = u32;

/// What a matcher needs from the reference statistics. [`crate::model::ReferenceModel`] is the
/// real implementation; [`table::TableModel`] is an in-memory one for tests and worked examples.
pub trait ModelView: Sync {
    /// The id of a refined term, if the model knows it.
    fn term_id(&self, term: &str) -> Option<TermId>;
    /// One more than the largest id [`ModelView::term_id`] can return.
    fn vocabulary_size(&self) -> u32;
    /// Appends the stored correlates of `term` (thesis eq. 3.1), excluding `term` itself, as
    /// `(id, c)` with `0 < c <= 1`. The relation must be symmetric.
    fn correlates(&self, term: TermId, out: &mut Vec<(TermId, f32)>);
    /// How often a character 4-gram occurs in the reference collection (thesis 3.2.1).
    fn fourgram_count(&self, gram: [char; 4]) -> u32;
    /// Whether [`ModelView::document_rate`] says anything (a model built from a collection).
    fn has_document_rates(&self) -> bool {
        false
    }
    /// The share of the reference collection's documents that hold `term`, in (0, 1]: half a
    /// document for a term the collection lacks. 1 when the model has no counts.
    fn document_rate(&self, _term: TermId) -> f64 {
        1.0
    }
    /// WordNet's relations between words, if the model has them ([`lexical`]).
    fn lexicon(&self) -> Option<&Lexicon> {
        None
    }
    /// The learned pair verdict's weights, if the model has them ([`verdict`]).
    fn verdict(&self) -> Option<&StoredVerdict> {
        None
    }
    /// How many of the reference collection's sentences hold each term, if they were counted
    /// ([`crate::model::sentence_rates`]).
    fn sentence_rates(&self) -> Option<&SentenceRates> {
        None
    }
}

impl<T: ModelView + ?Sized> ModelView for &T {
    fn term_id(&self, term: &str) -> Option<TermId> {
        (**self).term_id(term)
    }
    fn vocabulary_size(&self) -> u32 {
        (**self).vocabulary_size()
    }
    fn correlates(&self, term: TermId, out: &mut Vec<(TermId, f32)>) {
        (**self).correlates(term, out)
    }
    fn fourgram_count(&self, gram: [char; 4]) -> u32 {
        (**self).fourgram_count(gram)
    }
    fn has_document_rates(&self) -> bool {
        (**self).has_document_rates()
    }
    fn document_rate(&self, term: TermId) -> f64 {
        (**self).document_rate(term)
    }
    fn lexicon(&self) -> Option<&Lexicon> {
        (**self).lexicon()
    }
    fn verdict(&self) -> Option<&StoredVerdict> {
        (**self).verdict()
    }
    fn sentence_rates(&self) -> Option<&SentenceRates> {
        (**self).sentence_rates()
    }
}

impl<T: ModelView + Send + ?Sized> ModelView for std::sync::Arc<T> {
    fn term_id(&self, term: &str) -> Option<TermId> {
        (**self).term_id(term)
    }
    fn vocabulary_size(&self) -> u32 {
        (**self).vocabulary_size()
    }
    fn correlates(&self, term: TermId, out: &mut Vec<(TermId, f32)>) {
        (**self).correlates(term, out)
    }
    fn fourgram_count(&self, gram: [char; 4]) -> u32 {
        (**self).fourgram_count(gram)
    }
    fn has_document_rates(&self) -> bool {
        (**self).has_document_rates()
    }
    fn document_rate(&self, term: TermId) -> f64 {
        (**self).document_rate(term)
    }
    fn lexicon(&self) -> Option<&Lexicon> {
        (**self).lexicon()
    }
    fn verdict(&self) -> Option<&StoredVerdict> {
        (**self).verdict()
    }
    fn sentence_rates(&self) -> Option<&SentenceRates> {
        (**self).sentence_rates()
    }
}

/// Which sentence matcher to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Fuzzy-set IR (thesis 3.2.2).
    Fuzzy,
    /// The fuzzy-set Sim with every correlation taken as 0: stemmed word overlap.
    Overlap,
    /// Three least-frequent 4-grams (thesis 3.2.1).
    Fourgram,
    /// Equal refined term sequences.
    Exact,
}

impl Method {
    pub const ALL: [Method; 4] = [
        Method::Fuzzy,
        Method::Overlap,
        Method::Fourgram,
        Method::Exact,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Method::Fuzzy => "fuzzy",
            Method::Overlap => "overlap",
            Method::Fourgram => "fourgram",
            Method::Exact => "exact",
        }
    }

    /// A human title for the viewer.
    pub fn title(self) -> &'static str {
        match self {
            Method::Fuzzy => "Fuzzy-set IR",
            Method::Overlap => "Word overlap (no relatedness)",
            Method::Fourgram => "Three least-frequent 4-grams",
            Method::Exact => "Exact (identical terms)",
        }
    }

    /// Whether the method's scores are graded (only then do the thresholds matter).
    pub fn is_graded(self) -> bool {
        matches!(self, Method::Fuzzy | Method::Overlap)
    }

    /// The matcher implementing this method.
    pub fn matcher(self) -> &'static dyn SentenceMatcher {
        match self {
            Method::Fuzzy => &fuzzy::FuzzyMatcher::THESIS,
            Method::Overlap => &fuzzy::FuzzyMatcher::OVERLAP,
            Method::Fourgram => &fourgram::FourgramMatcher,
            Method::Exact => &exact::ExactMatcher,
        }
    }
}

impl std::str::FromStr for Method {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                format!("unknown method `{s}` (expected fuzzy, overlap, fourgram or exact)")
            })
    }
}

/// The comparison was cancelled before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cancelled")]
pub struct Cancelled;

/// Checks a cancel flag.
pub fn check(cancel: &AtomicBool) -> Result<(), Cancelled> {
    if cancel.load(Ordering::Relaxed) {
        Err(Cancelled)
    } else {
        Ok(())
    }
}
