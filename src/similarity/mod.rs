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

pub mod aligned;
pub mod exact;
pub mod fourgram;
pub mod fuzzy;
pub mod lexical;
pub mod needed;
pub mod partners;
pub mod prepare;
mod reference_model;
pub mod rules;
pub mod table;
pub mod verdict;

use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use crate::model::sentence_rates::SentenceRates;
use crate::model::verdict::StoredVerdict;
use crate::model::wordnet::Lexicon;

pub use lexical::{RelatedWords, WordnetWeights};
pub use needed::{NeededPairs, Neighbours};
pub use partners::{CappedPairs, PARTNERS_KEPT, PartnerCap, PartnersKept};
pub use prepare::{PreparedDoc, PreparedSentence, Vocabulary};
pub use rules::{MatchRules, Relate};

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

/// One scored sentence pair: positions in reading order and both directional scores.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ScoredPair {
    /// Sentence position in the left (first) document.
    pub left: u32,
    /// Sentence position in the right (second) document.
    pub right: u32,
    /// Sim(left, right): how much of the left sentence the right one covers (eq. 3.3).
    pub sim_lr: f64,
    /// Sim(right, left).
    pub sim_rl: f64,
    /// The two sentences have the same refined term sequence.
    pub identical: bool,
    /// Part of a one-to-two match (a sentence split in two, or two glued into one): the Sims
    /// are those of one sentence against two consecutive sentences taken together.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub joined: Option<Joined>,
    /// How surprising the pair is in its comparison, when matches are judged against chance
    /// ([`crate::compare::chance`]): its E-value, the expected number of pairs at least as good
    /// among all the pairs the two documents could form by chance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chance: Option<f64>,
    /// The learned verdict's probability that the two sentences say the same
    /// ([`verdict`]), when the rules decide by it ([`MatchRules::verdict`]): then the pair
    /// matches when it reaches the permission, whatever its Sims ([`Self::is_eq`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<f64>,
}

/// Which document's two consecutive sentences were taken together in a one-to-two match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum JoinSide {
    Left,
    Right,
}

/// A pair's part in a one-to-two match: its sentence on `side` was taken together with the
/// neighbouring sentence `with` (on the same side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Joined {
    pub side: JoinSide,
    pub with: u32,
}

impl Joined {
    /// The same join seen from the other document.
    pub fn swapped(self) -> Joined {
        Joined {
            side: match self.side {
                JoinSide::Left => JoinSide::Right,
                JoinSide::Right => JoinSide::Left,
            },
            with: self.with,
        }
    }
}

impl ScoredPair {
    /// A pair of different sentences with these Sims, for tests.
    #[cfg(test)]
    pub(crate) fn scored(left: u32, right: u32, sim_lr: f64, sim_rl: f64) -> ScoredPair {
        ScoredPair {
            left,
            right,
            sim_lr,
            sim_rl,
            identical: false,
            joined: None,
            chance: None,
            verdict: None,
        }
    }

    /// The first and last sentence the pair covers on one side: its own, or with the
    /// neighbour it was taken together with in a one-to-two match.
    pub fn sentences(&self, side: JoinSide) -> [u32; 2] {
        let own = match side {
            JoinSide::Left => self.left,
            JoinSide::Right => self.right,
        };
        match self.joined.filter(|j| j.side == side) {
            Some(j) => [own.min(j.with), own.max(j.with)],
            None => [own, own],
        }
    }

    /// The smaller of the two directional scores.
    pub fn min_sim(&self) -> f64 {
        self.sim_lr.min(self.sim_rl)
    }

    /// Whether the pair matches: EQ of thesis eq. 3.4 (both scores reach `permission` and they
    /// differ by at most `variation`), or, for a pair carrying the learned verdict's
    /// probability, that probability reaching `permission` (the variation does not apply).
    pub fn is_eq(&self, thresholds: &Thresholds) -> bool {
        match self.verdict {
            Some(probability) => probability >= thresholds.permission,
            None => {
                self.min_sim() >= thresholds.permission
                    && (self.sim_lr - self.sim_rl).abs() <= thresholds.variation
            }
        }
    }

    /// The score a pair is decided and ranked by: the verdict's probability when it carries
    /// one, else the smaller Sim.
    pub fn decisive_score(&self) -> f64 {
        self.verdict.unwrap_or_else(|| self.min_sim())
    }

    /// Whether the pair may be a link of a passage when matches are judged against chance: its
    /// larger directional Sim reaches the permission. Whether the pair is evidence is then up to
    /// chance ([`crate::compare::chance`]); the permission only keeps out pairs whose shared
    /// words cover little of either sentence. One direction is enough: a reworded sentence is
    /// often split in two or merged with its neighbour, and then covers its half fully one way
    /// only. The variation threshold does not apply, for the same reason. A pair carrying the
    /// learned verdict's probability may be a link when the probability reaches the permission
    /// (the verdict then takes the Sims' place, as in [`Self::is_eq`]).
    pub fn is_link(&self, thresholds: &Thresholds) -> bool {
        match self.verdict {
            Some(probability) => probability >= thresholds.permission,
            None => self.sim_lr.max(self.sim_rl) >= thresholds.permission,
        }
    }

    /// The same pair seen from the other document.
    pub fn swapped(&self) -> ScoredPair {
        ScoredPair {
            left: self.right,
            right: self.left,
            sim_lr: self.sim_rl,
            sim_rl: self.sim_lr,
            identical: self.identical,
            joined: self.joined.map(Joined::swapped),
            chance: self.chance,
            verdict: self.verdict,
        }
    }
}

/// The two thresholds of thesis eq. 3.4.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Thresholds {
    /// Minimum of both directional similarities (thesis: 0.825).
    pub permission: f64,
    /// Maximum difference between them (thesis: 0.15).
    pub variation: f64,
    /// In a comparison that judges matches against chance ([`crate::compare::chance`]): the
    /// largest E-value a passage may have to count as evidence (the expected number of passages
    /// at least as good by chance). `None`: every passage counts.
    #[serde(default)]
    pub chance: Option<f64>,
    /// In a comparison of documents: matches in a run of fewer words than this are left out,
    /// as WCopyfind's "shortest phrase to match" and Turnitin's "exclude matches under N words"
    /// do ([`crate::compare::Comparison::matches`]). 0 (the default of every preset) keeps every
    /// match. Not read when two sentences are judged alone.
    #[serde(default)]
    pub min_words: u32,
}

impl Thresholds {
    /// The thesis's values (section 3.2.2, chosen from its Fig. 3.2 on its own 200 web
    /// documents). On public paraphrase data they are strict: with the embedded model they find
    /// 14% of the MSRP training paraphrases and 9.5% of PAN's held-out ones (F1 0.244 and 0.173,
    /// thesis F 0.245 and 0.174), at false-positive rates of 0.9% and 0.1% (EVALUATION.md,
    /// "Sentence matching").
    pub const THESIS: Thresholds = Thresholds {
        permission: 0.825,
        variation: 0.15,
        chance: None,
        min_words: 0,
    };

    /// Chosen by measurement with the rest of [`Preset::MEASURED`] (`scripts/select-defaults.sh`):
    /// the best mean F1 over MSRP train and PAN's tuning part at one (permission, variation)
    /// of the grid 0.05..1 x (0..0.5, off), among the configurations within one bootstrap
    /// standard error of the best the cheapest to compare documents with. Permission 0.4, the
    /// variation threshold off (1: the two Sims may differ by any amount; with the permission
    /// this low, a variation of 0.2 rejected more paraphrases than false pairs). F1 0.816 on
    /// MSRP train and 0.885 on PAN tune at these values (the thesis's 0.825 / 0.15 gives 0.244
    /// and 0.172). See EVALUATION.md, "Operating point".
    pub const MEASURED: Thresholds = Thresholds {
        permission: 0.4,
        variation: 1.0,
        chance: None,
        min_words: 0,
    };
}

impl Thresholds {
    /// The document preset's ([`Preset::DOCUMENTS`]), chosen on the text-alignment corpus: a link
    /// of a passage covers 0.3 of one of its sentences ([`ScoredPair::is_link`]), and a passage
    /// counts when its E-value is at most 1e-5 (EVALUATION.md, "Text alignment").
    pub const DOCUMENTS: Thresholds = Thresholds {
        permission: 0.3,
        variation: 1.0,
        chance: Some(1e-5),
        min_words: 0,
    };

    /// [`Preset::WORDNET`]'s thresholds, chosen as the measured ones were: the best mean F1
    /// over MSRP train and PAN tune at one point of the sweep grid, with the preset's content
    /// floor of 0.3 (`scripts/select-wordnet-weights.sh`): 0.8565 (MSRP 0.817, PAN 0.896) at
    /// permission 0.4 with the variation off (EVALUATION.md, "WordNet relatedness").
    pub const WORDNET: Thresholds = Thresholds {
        permission: 0.4,
        variation: 1.0,
        chance: None,
        min_words: 0,
    };

    /// [`Preset::VERDICT`]'s: the permission is the probability at or above which the learned
    /// verdict calls a pair the same, chosen by `simdoc model train-verdict` (the mean F1 over
    /// MSRP train and PAN tune at one threshold: within one bootstrap standard error of the
    /// best, the threshold nearest 0.5) and stored with the verdict in the embedded model; the
    /// variation does not apply. Cross-validated F1 0.835 on MSRP train and 0.903 on PAN tune
    /// at 0.46 (EVALUATION.md, "A learned pair verdict").
    pub const VERDICT: Thresholds = Thresholds {
        permission: 0.46,
        variation: 1.0,
        chance: None,
        min_words: 0,
    };
}

/// The default is the measured preset: it matches paraphrase and reuse data far better than the
/// thesis's values (see [`Thresholds::MEASURED`]), which stay one click or flag away.
impl Default for Thresholds {
    fn default() -> Self {
        Thresholds::MEASURED
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
    /// "same word", ...: [`lexical::WordLink::describe`]); `None` for the model's correlations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relation: Option<String>,
}

/// A sentence matcher: scores the pairs of two prepared documents.
pub trait SentenceMatcher: Sync {
    fn method(&self) -> Method;

    /// Every pair of active sentences with at least one directional score at or above `floor`
    /// (under `rules`), with both scores, sorted by (left, right). Uses an index; exact for the
    /// model in use. (One direction is enough: a sentence contained in a longer one scores high
    /// one way only, and containment and merged sentences need exactly those pairs.)
    fn score_pairs(
        &self,
        left: &PreparedDoc,
        right: &PreparedDoc,
        model: &dyn ModelView,
        floor: f64,
        rules: &MatchRules,
        cancel: &AtomicBool,
    ) -> Result<Vec<ScoredPair>, Cancelled>;

    /// [`Self::score_pairs`] without the pairs reaching the floor one way only that a
    /// comparison does not use, given the sentences' neighbours ([`needed`] says which pairs are
    /// kept). The default keeps them all; the fuzzy matcher drops the others as it scores them,
    /// so that they are never all held at once.
    #[allow(clippy::too_many_arguments)]
    fn score_needed_pairs(
        &self,
        left: &PreparedDoc,
        right: &PreparedDoc,
        model: &dyn ModelView,
        floor: f64,
        rules: &MatchRules,
        needed: NeededPairs<'_>,
        cancel: &AtomicBool,
    ) -> Result<Vec<ScoredPair>, Cancelled> {
        let _ = needed;
        self.score_pairs(left, right, model, floor, rules, cancel)
    }

    /// [`Self::score_needed_pairs`] with each sentence's partners at the floor both ways capped
    /// at its best ([`partners`]; `partners.kept` 0 keeps every pair). The default scores every
    /// needed pair and then keeps the best; the fuzzy matcher stops a sentence's search once it
    /// holds them, so that templated lines cost what their kept partners cost.
    #[allow(clippy::too_many_arguments)]
    fn score_capped_pairs(
        &self,
        left: &PreparedDoc,
        right: &PreparedDoc,
        model: &dyn ModelView,
        floor: f64,
        rules: &MatchRules,
        needed: NeededPairs<'_>,
        partners: PartnersKept<'_>,
        cancel: &AtomicBool,
    ) -> Result<CappedPairs, Cancelled> {
        let pairs = self.score_needed_pairs(left, right, model, floor, rules, needed, cancel)?;
        if partners.kept == 0 {
            return Ok(CappedPairs {
                pairs,
                capped: Default::default(),
            });
        }
        let lens = [left.sentences.len(), right.sentences.len()];
        Ok(partners::keep_best(
            pairs,
            floor,
            partners,
            lens,
            Default::default(),
        ))
    }

    /// [`Self::score_pairs`] of a document (left) against a pool of sources (right, source `g`
    /// holding `starts[g]..starts[g + 1]`), each document sentence keeping its best partners in
    /// each source and each source sentence its best in the document
    /// ([`partners::keep_best_per_source`]; `partners.kept` 0 keeps every pair). The default
    /// scores every pair, then keeps the best; the fuzzy matcher stops a sentence's search in a
    /// source once it holds them.
    #[allow(clippy::too_many_arguments)]
    fn score_capped_per_source(
        &self,
        left: &PreparedDoc,
        right: &PreparedDoc,
        model: &dyn ModelView,
        floor: f64,
        rules: &MatchRules,
        partners: PartnersKept<'_>,
        starts: &[usize],
        cancel: &AtomicBool,
    ) -> Result<CappedPairs, Cancelled> {
        let pairs = self.score_pairs(left, right, model, floor, rules, cancel)?;
        if partners.kept == 0 {
            return Ok(CappedPairs {
                pairs,
                capped: Default::default(),
            });
        }
        let lens = [left.sentences.len(), right.sentences.len()];
        Ok(partners::keep_best_per_source(
            pairs,
            floor,
            partners,
            lens,
            Default::default(),
            starts,
        ))
    }

    /// The same result by comparing every pair; for tests and benchmarks.
    fn score_pairs_brute_force(
        &self,
        left: &PreparedDoc,
        right: &PreparedDoc,
        model: &dyn ModelView,
        floor: f64,
        rules: &MatchRules,
    ) -> Vec<ScoredPair>;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_thresholds_are_the_measured_ones() {
        assert_eq!(Thresholds::default(), Thresholds::MEASURED);
    }
}
