//! What a collection run produced, and how its document names are shown: the leaf that the
//! collection view's parts (lists, matrix, run, export) share, so that they depend on it and not
//! on the view that calls them.

use std::sync::Arc;

use crate::collection::evidence::EvidenceOptions;
use crate::collection::presets::{CollectionPreset, Detector};
use crate::collection::roles::PairKind;
use crate::collection::source_discount::SourceDiscount;
use crate::collection::{self, DetectedPair};
use crate::document::Document;
use crate::render::collection::CollectionReport;

/// What a finished collection run produced.
pub struct CollectionResult {
    pub detector: Detector,
    /// The preset its parameters came from (none for a result read from simdoc-spark's tables).
    pub preset: Option<CollectionPreset>,
    /// The fuzzy comparison's parameters of the run (its matrix, and its exported evidence);
    /// none for a result read from simdoc-spark's tables.
    pub fuzzy: Option<collection::fuzzy::FuzzyParams>,
    pub names: Vec<String>,
    pub documents: Vec<Arc<Document>>,
    /// Ranked by score, highest first; with sources, the submission-source pairs first, and
    /// the submission-submission pairs ranked by what they share beyond the sources where
    /// their discounts were computed ([`super::ranking`]).
    pub pairs: Vec<(PairKind, DetectedPair)>,
    /// Per pair of `pairs` (same index), the figures with the text found in a marked source
    /// left out: the key the submission-submission pairs are ranked by, shown beside the raw
    /// score so that the reader sees why a higher score ranks lower. Empty without sources.
    pub discounts: Vec<Option<SourceDiscount>>,
    /// How the submission-submission pairs are ranked, in the words the exported report and
    /// `simdoc collection --sources` use ([`collection::discounted_rank::ranking_note`]), or
    /// why they are not; apart from `notes`, which the export carries as they are while it
    /// ranks (and notes) the pairs itself.
    pub ranking_note: Option<String>,
    /// How many of the documents (the first ones) are sources.
    pub sources: usize,
    pub groups: Vec<Vec<usize>>,
    /// What the detector found, as the HTML report reads it.
    pub detection: collection::Detection,
    /// The odds-ratio matrix, for collections of up to `run::MAX_MATRIX` documents.
    pub matrix: Option<Vec<Vec<f64>>>,
    /// Files that could not be read, with the reason.
    pub skipped: Vec<String>,
    /// What the summary line must add about how the pairs were listed (templated lines that
    /// keep only their best partners, [`collection::fuzzy::Resemblances::capped_note`]).
    pub notes: Vec<String>,
    /// The common text a judged fuzzy run left out of its pairs' comparisons, which the
    /// exported evidence and pages leave out too.
    pub common: Option<Arc<collection::fuzzy::common_text::CommonText>>,
    /// The evidence simdoc-spark computed for its highest-ranked pairs, where the documents
    /// are (a result read from its tables; empty for a run here, whose documents are at hand).
    pub cluster_evidence: Vec<collection::tables::ComparedPair>,
}

impl CollectionResult {
    /// The matching of the run's evidence and source discounts, as `simdoc collection` uses
    /// it: its fuzzy comparison's preset, with the common text a judged run left out of its
    /// pairs (a result read from simdoc-spark's tables has no parameters: the default's).
    pub fn evidence_options(&self) -> EvidenceOptions {
        EvidenceOptions {
            common: self.common.clone(),
            ..EvidenceOptions::of_fuzzy(&self.fuzzy.unwrap_or_default())
        }
    }

    /// The discount of the pair at `index` into `pairs`, if computed.
    pub fn discount(&self, index: usize) -> Option<&SourceDiscount> {
        self.discounts.get(index).and_then(Option::as_ref)
    }

    /// Whether some submission-submission pairs are ranked by their discount.
    pub fn is_discount_ranked(&self) -> bool {
        self.discounts.iter().any(Option::is_some)
    }

    /// The run as the HTML report reads it (the sources come first in the stream), its pairs
    /// in this result's order: once the ranking ([`super::ranking`]) has put the
    /// submission-submission pairs in the order of their discounts, the report takes that
    /// order and those discounts, so that an export shows what the list shows without
    /// comparing the pairs again.
    pub fn report(&self) -> CollectionReport<'_> {
        let is_source: Vec<bool> = (0..self.names.len()).map(|d| d < self.sources).collect();
        let mut report = CollectionReport::new(
            self.detector.name(),
            &self.names,
            &self.detection,
            &is_source,
        );
        if self.is_discount_ranked() {
            report.pairs.submission_submission = self
                .pairs
                .iter()
                .filter(|(kind, _)| *kind == PairKind::SubmissionSubmission)
                .map(|(_, pair)| *pair)
                .collect();
            report.discounts = self.discounts.clone();
            report.discount_ranked = true;
        }
        report
    }
}

/// The last 50 characters of a document name (its file part is what tells documents apart).
pub fn short(name: &str) -> String {
    let count = name.chars().count();
    if count <= 50 {
        name.to_string()
    } else {
        let tail: String = name.chars().skip(count - 49).collect();
        format!("…{tail}")
    }
}
