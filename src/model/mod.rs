//! The reference model: statistics of a reference collection that the sentence matchers and the
//! collection detectors read.
//!
//! - word-word relatedness `c(i, j)` for the fuzzy-set matcher (Yerra's thesis,
//!   `003_cb4e1995afbee241.txt`, section 3.2.2): the thesis's co-occurrence correlation (eq.
//!   3.1, [`cooccurrence`]) or the cosine of word vectors learned from the same corpus
//!   ([`vectors`]), pruned and symmetric ([`correlations`]);
//! - character 4-gram counts for the three least-frequent 4-gram matcher (section 3.2.1)
//!   ([`fourgrams`]);
//! - document frequencies and idf for CoDet, I-Match and SimHash;
//! - optionally, WordNet's relations between words ([`wordnet`]), the relatedness the fuzzy
//!   matcher uses under [`crate::similarity::RelatedWords::Wordnet`], and a learned pair verdict
//!   ([`verdict`], [`crate::similarity::verdict`]).
//!
//! Terms are refined terms ([`crate::text::refine`]: lowercase, stopwords removed, stemmed), so a
//! caller refines a sentence before looking its words up. A model is built from a corpus
//! ([`build()`]), written to and read from a versioned, checksummed file
//! ([`format`](mod@format)), and a default built from English Wikipedia ships inside the binary
//! ([`ReferenceModel::embedded`]).
//!
//! - [`vocabulary`]: sorted terms, term <-> id;
//! - [`correlations`]: the sparse symmetric matrix, `c` quantised to 16 bits;
//! - [`fourgrams`]: the 4-gram count table;
//! - [`cooccurrence`]: computing `c` from co-occurrence units (eq. 3.1);
//! - [`vectors`]: computing `c` from word vectors (PPMI and SVD);
//! - [`build`](mod@build): reading a corpus into a model;
//! - [`format`](mod@format): the file format and its errors;
//! - [`embedded`]: the default model compiled into the binary;
//! - [`wordnet`]: WordNet's lemmas, exception lists and relations;
//! - [`verdict`]: a stored pair verdict's weights;
//! - [`sentence_rates`]: how many reference sentences hold each term, the rates a comparison's
//!   chance model leans on where the documents cannot say;
//! - [`codec`]: the byte-level reading and writing of model files.

pub mod build;
pub(crate) mod codec;
pub(crate) mod cooccurrence;
pub(crate) mod correlations;
pub mod embedded;
pub mod format;
pub(crate) mod fourgrams;
pub mod sentence_rates;
pub mod vectors;
pub(crate) mod verdict;
pub mod vocabulary;
pub mod wordnet;

use std::fmt;
use std::str::FromStr;

pub use build::{BuildError, BuildProgress, NoProgress, build, build_from_texts};
pub use format::ModelError;

use correlations::{Correlations, dequantise, quantise};
use fourgrams::FourgramTable;
use sentence_rates::SentenceRates;
use verdict::StoredVerdict;
use vocabulary::Vocabulary;
use wordnet::Lexicon;

/// A term's id: its index in the model's sorted vocabulary.
pub type TermId = u32;

/// What counts as "a document with the word" in eq. 3.1's `n(i)`, `n(j)` and `n(i, j)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CooccurrenceUnit {
    /// A whole document, as the thesis defines it.
    Document,
    /// The own sentences of one node of the document's hierarchy: a paragraph, a heading, a list
    /// item (one line of WikiExtractor output). Long documents such as Wikipedia articles make
    /// many unrelated frequent words co-occur at the document level; a paragraph keeps
    /// co-occurrence to words used together.
    Paragraph,
}

impl CooccurrenceUnit {
    pub fn name(self) -> &'static str {
        match self {
            CooccurrenceUnit::Document => "document",
            CooccurrenceUnit::Paragraph => "paragraph",
        }
    }
}

impl fmt::Display for CooccurrenceUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for CooccurrenceUnit {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "document" => Ok(CooccurrenceUnit::Document),
            "paragraph" => Ok(CooccurrenceUnit::Paragraph),
            _ => Err(format!(
                "unknown co-occurrence unit {s:?} (expected document or paragraph)"
            )),
        }
    }
}

/// What the relatedness `c(i, j)` of two words is computed from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Relatedness {
    /// The thesis's eq. 3.1: how often the two words occur in the same unit ([`cooccurrence`]).
    Cooccurrence,
    /// The cosine of word vectors learned from the corpus ([`vectors`]).
    Vectors(vectors::VectorParams),
}

impl Relatedness {
    pub fn name(&self) -> &'static str {
        match self {
            Relatedness::Cooccurrence => "cooccurrence",
            Relatedness::Vectors(_) => "vectors",
        }
    }
}

/// How a model's correlation matrix was computed and pruned. Stored in the model file.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelParams {
    /// What `c` is computed from (default: eq. 3.1 co-occurrence).
    pub relatedness: Relatedness,
    /// Co-occurrence: the unit of co-occurrence for `n(i)`, `n(j)` and `n(i, j)` (default:
    /// paragraph).
    pub unit: CooccurrenceUnit,
    /// Co-occurrence: a term enters the correlation matrix only if it occurs in at least this
    /// many units (default 3): two terms that each occur once, in the same unit, have `c = 1` by
    /// chance.
    pub min_df: u32,
    /// Correlations below this are not stored (read as 0). Default 0.05.
    pub floor: f64,
    /// Each term keeps at most this many strongest correlates (default 32). A pair kept by either
    /// of its terms is stored for both.
    pub per_term: u32,
}

impl Default for ModelParams {
    fn default() -> Self {
        ModelParams {
            relatedness: Relatedness::Cooccurrence,
            unit: CooccurrenceUnit::Paragraph,
            min_df: 3,
            floor: 0.05,
            per_term: 32,
        }
    }
}

impl ModelParams {
    /// Checks that the floor is a number in `[0, 1]` and the vector parameters make sense.
    pub fn validate(&self) -> Result<(), InvalidModel> {
        if !(0.0..=1.0).contains(&self.floor) {
            return Err(InvalidModel::Floor(self.floor));
        }
        if let Relatedness::Vectors(v) = self.relatedness {
            if !(-1.0..1.0).contains(&v.threshold) {
                return Err(InvalidModel::Vectors(format!(
                    "the cosine threshold {} is not in [-1, 1)",
                    v.threshold
                )));
            }
            if !(v.scale.is_finite() && v.scale > 0.0) {
                return Err(InvalidModel::Vectors(format!(
                    "the scale {} is not a positive number",
                    v.scale
                )));
            }
            if v.dimensions == 0 || v.window == 0 {
                return Err(InvalidModel::Vectors(
                    "the window and the dimensions must be at least 1".to_string(),
                ));
            }
        }
        Ok(())
    }
}

/// What was read to build a model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CollectionCounts {
    /// Documents with at least one refined term (the `N` of idf).
    pub documents: u64,
    /// Co-occurrence units with at least one refined term.
    pub units: u64,
    /// Sentences read (outside boilerplate).
    pub sentences: u64,
    /// Refined term occurrences read.
    pub tokens: u64,
}

/// Why model data is inconsistent (from a file that passed its checksum, or from
/// [`ReferenceModel::from_parts`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum InvalidModel {
    #[error("the correlation floor {0} is not in [0, 1]")]
    Floor(f64),
    #[error("word vectors: {0}")]
    Vectors(String),
    #[error("vocabulary: {0}")]
    Vocabulary(#[from] vocabulary::VocabularyError),
    #[error("correlations: {0}")]
    Correlations(#[from] correlations::CorrelationError),
    #[error("4-grams: {0}")]
    Fourgrams(#[from] fourgrams::FourgramError),
    #[error("{terms} terms but {df} document frequencies")]
    DfLength { terms: usize, df: usize },
    #[error("term {term:?} has document frequency {df}, outside 1..={documents}")]
    DfRange {
        term: String,
        df: u32,
        documents: u64,
    },
    #[error("the correlation matrix has {rows} rows for {terms} terms")]
    CorrelationRows { rows: usize, terms: usize },
    #[error("the term {0:?} is not in the vocabulary")]
    UnknownTerm(String),
    #[error("the correlation {0} is not in [0, 1]")]
    CorrelationValue(f32),
    #[error("the pair verdict: {0}")]
    Verdict(String),
}

/// A model assembled from explicit values, for tests and tools: terms with their document
/// frequencies, correlations by term, 4-gram counts.
#[derive(Clone, Debug, Default)]
pub struct ModelParts {
    pub params: ModelParams,
    pub source: String,
    pub counts: CollectionCounts,
    /// Terms (any order, distinct) with their document frequencies.
    pub terms: Vec<(String, u32)>,
    /// Correlations `(a, b, c)`; stored for both orders, quantised like a built model's.
    pub correlations: Vec<(String, String, f32)>,
    pub fourgrams: Vec<([char; 4], u64)>,
    pub lexicon: Option<Lexicon>,
    pub verdict: Option<StoredVerdict>,
}

/// Figures that describe a model, for `simdoc model info`.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelStats {
    pub params: ModelParams,
    pub source: String,
    pub counts: CollectionCounts,
    /// Distinct refined terms.
    pub terms: usize,
    /// Bytes of term text.
    pub vocabulary_bytes: usize,
    /// Terms with at least one stored correlate.
    pub correlated_terms: usize,
    /// Stored correlation entries (each pair counts twice, once per row).
    pub correlation_entries: usize,
    /// Distinct 4-grams.
    pub fourgrams: usize,
    /// 4-gram occurrences.
    pub fourgram_occurrences: u64,
    /// Distinct characters in 4-grams.
    pub alphabet: usize,
}

/// Document frequencies, word-word correlations and 4-gram counts of a reference collection.
#[derive(Clone, Debug, PartialEq)]
pub struct ReferenceModel {
    params: ModelParams,
    source: String,
    counts: CollectionCounts,
    vocabulary: Vocabulary,
    /// Documents containing each term, by id.
    df: Vec<u32>,
    correlations: Correlations,
    fourgrams: FourgramTable,
    /// WordNet's relations, when the model was built with them.
    lexicon: Option<Lexicon>,
    /// A trained pair verdict, when one was stored.
    verdict: Option<StoredVerdict>,
    /// The reference sentences holding each term, when they were counted.
    sentence_rates: Option<SentenceRates>,
}

impl ReferenceModel {
    /// Assembles a model from its checked parts.
    fn assemble(
        params: ModelParams,
        source: String,
        counts: CollectionCounts,
        vocabulary: Vocabulary,
        df: Vec<u32>,
        correlations: Correlations,
        fourgrams: FourgramTable,
    ) -> Result<Self, InvalidModel> {
        params.validate()?;
        if df.len() != vocabulary.len() {
            return Err(InvalidModel::DfLength {
                terms: vocabulary.len(),
                df: df.len(),
            });
        }
        if let Some(id) = df
            .iter()
            .position(|&d| d == 0 || u64::from(d) > counts.documents)
        {
            return Err(InvalidModel::DfRange {
                // `id < vocabulary.len()`, whose ids fit in u32.
                term: vocabulary.term(id as TermId).to_string(),
                df: df[id],
                documents: counts.documents,
            });
        }
        if correlations.terms() != vocabulary.len() {
            return Err(InvalidModel::CorrelationRows {
                rows: correlations.terms(),
                terms: vocabulary.len(),
            });
        }
        Ok(ReferenceModel {
            params,
            source,
            counts,
            vocabulary,
            df,
            correlations,
            fourgrams,
            lexicon: None,
            verdict: None,
            sentence_rates: None,
        })
    }

    /// A model from explicit values (see [`ModelParts`]). `counts.documents` must be at least
    /// every term's document frequency.
    pub fn from_parts(parts: ModelParts) -> Result<Self, InvalidModel> {
        let mut terms = parts.terms;
        terms.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let vocabulary =
            Vocabulary::from_sorted(&terms.iter().map(|t| t.0.as_str()).collect::<Vec<_>>())?;
        let df = terms.iter().map(|t| t.1).collect();
        let id = |term: &str| {
            vocabulary
                .id(term)
                .ok_or_else(|| InvalidModel::UnknownTerm(term.to_string()))
        };
        let mut pairs = Vec::with_capacity(parts.correlations.len());
        for (a, b, c) in &parts.correlations {
            if !(0.0..=1.0).contains(c) {
                return Err(InvalidModel::CorrelationValue(*c));
            }
            pairs.push((id(a)?, id(b)?, quantise(f64::from(*c))));
        }
        let correlations = Correlations::from_pairs(vocabulary.len(), pairs)?;
        let grams = parts.fourgrams.into_iter().collect();
        let fourgrams = FourgramTable::from_counts(&grams);
        let mut model = Self::assemble(
            parts.params,
            parts.source,
            parts.counts,
            vocabulary,
            df,
            correlations,
            fourgrams,
        )?;
        model.lexicon = parts.lexicon;
        if let Some(verdict) = parts.verdict {
            model.set_verdict(verdict)?;
        }
        Ok(model)
    }

    /// WordNet's relations, if the model carries them.
    pub fn lexicon(&self) -> Option<&Lexicon> {
        self.lexicon.as_ref()
    }

    /// Adds (or replaces, or removes) WordNet's relations.
    pub fn set_lexicon(&mut self, lexicon: Option<Lexicon>) {
        self.lexicon = lexicon;
    }

    /// The stored pair verdict, if any.
    pub fn verdict(&self) -> Option<&StoredVerdict> {
        self.verdict.as_ref()
    }

    /// Stores a pair verdict (checked: finite numbers, a threshold in [0, 1]).
    pub fn set_verdict(&mut self, verdict: StoredVerdict) -> Result<(), InvalidModel> {
        verdict.validate().map_err(InvalidModel::Verdict)?;
        self.verdict = Some(verdict);
        Ok(())
    }

    /// Removes the stored pair verdict.
    pub fn clear_verdict(&mut self) {
        self.verdict = None;
    }

    /// The reference sentences holding each term, when they were counted ([`sentence_rates`]).
    pub fn sentence_rates(&self) -> Option<&SentenceRates> {
        self.sentence_rates.as_ref()
    }

    /// Adds (or replaces, or removes) the sentence rates; they must have been counted for this
    /// model's vocabulary ([`SentenceRates::count`]).
    pub fn set_sentence_rates(&mut self, rates: Option<SentenceRates>) {
        self.sentence_rates = rates;
    }

    /// How the correlations were computed and pruned.
    pub fn params(&self) -> &ModelParams {
        &self.params
    }

    /// Free text: what the model was built from, and how.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Replaces the source note.
    pub fn set_source(&mut self, note: impl Into<String>) {
        self.source = note.into();
    }

    /// What was read to build the model.
    pub fn counts(&self) -> &CollectionCounts {
        &self.counts
    }

    /// Co-occurrence units with at least one term.
    pub fn units(&self) -> u64 {
        self.counts.units
    }

    /// Documents with at least one term.
    pub fn documents(&self) -> u64 {
        self.counts.documents
    }

    /// The id of a refined (stemmed) term, if the collection had it.
    pub fn term_id(&self, term: &str) -> Option<TermId> {
        self.vocabulary.id(term)
    }

    /// The term with id `id`. Panics on an id that is not below [`Self::term_count`], like slice
    /// indexing: ids come from this model.
    pub fn term(&self, id: TermId) -> &str {
        self.vocabulary.term(id)
    }

    /// Distinct terms.
    pub fn term_count(&self) -> usize {
        self.vocabulary.len()
    }

    /// Documents containing the term (0 for an id outside the vocabulary).
    pub fn df(&self, id: TermId) -> u32 {
        self.df.get(id as usize).copied().unwrap_or(0)
    }

    /// Inverse document frequency `ln(documents / df)`: 0 for a term in every document,
    /// `ln(documents)` for a term in one. The natural logarithm and no smoothing: CoDet
    /// (`000_3d68e4424a5a67a6.txt`) sorts words by idf and the weighting detectors scale it, so
    /// only its order and ratios matter. For an id outside the vocabulary (df 0) it is the
    /// largest value, `ln(documents)`, as for the rarest known term; callers with an unseen term
    /// decide for themselves.
    pub fn idf(&self, id: TermId) -> f64 {
        let df = self.df(id).max(1);
        (self.counts.documents.max(1) as f64 / f64::from(df)).ln()
    }

    /// The stored correlates of `id` with their `c`, sorted by id, without `id` itself.
    pub fn correlates(&self, id: TermId) -> impl Iterator<Item = (TermId, f32)> + '_ {
        let (cols, values) = self.correlations.row(id);
        cols.iter().zip(values).map(|(&j, &q)| (j, dequantise(q)))
    }

    /// `c(a, b)` of eq. 3.1: 1 if `a == b`, 0 if the pair is not stored (pruned or never
    /// together); symmetric.
    pub fn correlation(&self, a: TermId, b: TermId) -> f32 {
        self.correlations.get(a, b)
    }

    /// Occurrences of a character 4-gram in the collection's refined sentences; 0 if unseen.
    pub fn fourgram_count(&self, gram: [char; 4]) -> u32 {
        self.fourgrams.count(gram)
    }

    /// Figures for `simdoc model info`.
    pub fn stats(&self) -> ModelStats {
        ModelStats {
            params: self.params,
            source: self.source.clone(),
            counts: self.counts,
            terms: self.vocabulary.len(),
            vocabulary_bytes: self.vocabulary.text_len(),
            correlated_terms: (0..self.vocabulary.len())
                .filter(|&i| !self.correlations.row(i as TermId).0.is_empty())
                .count(),
            correlation_entries: self.correlations.entries(),
            fourgrams: self.fourgrams.len(),
            fourgram_occurrences: self.fourgrams.total(),
            alphabet: self.fourgrams.alphabet().len(),
        }
    }
}

#[cfg(test)]
mod tests;
