//! The JSON shape of `simdoc collection --json` (and of the viewer's export's report): the
//! report of [`CollectionReport`] borrowed as it is, so that the JSON, the summary and the HTML
//! read the same pairs, evidence and notes.

use serde::Serialize;

use super::collection::CollectionReport;
use crate::collection::DocId;
use crate::collection::evidence::PairEvidence;
use crate::collection::roles::PairKind;
use crate::collection::source_discount::SourceDiscount;

/// Version of the JSON shape; raised when a field changes meaning or disappears. Version 3: the
/// evidence's passages name their E-value `e_value` (was `chance`).
pub const COLLECTION_JSON_VERSION: u32 = 3;

impl CollectionReport<'_> {
    /// The JSON shape of the report, borrowing from it.
    pub fn to_json(&self) -> CollectionJson<'_> {
        CollectionJson {
            version: COLLECTION_JSON_VERSION,
            units: super::units::Units::default(),
            method: self.method,
            matching: self.matching.as_deref(),
            documents: self.names,
            sources: self.has_roles().then_some(&self.sources),
            pairs: self
                .ranked()
                .enumerate()
                .map(|(rank, (kind, p))| PairJson {
                    a: p.a,
                    b: p.b,
                    relation: p.relation.name(),
                    score: p.score,
                    kind: kind.map(PairKind::name),
                    evidence: self.evidence_at(rank),
                    source_discount: self.discount_at(rank),
                })
                .collect(),
            groups: &self.detection.groups,
            notes: &self.notes,
        }
    }
}

/// The JSON shape of `collection --json`.
#[derive(Serialize)]
pub struct CollectionJson<'a> {
    /// [`COLLECTION_JSON_VERSION`].
    pub version: u32,
    /// What sentence positions count ([`super::units`]).
    pub units: super::units::Units,
    pub method: &'a str,
    /// How the evidence was computed ([`CollectionReport::matching`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matching: Option<&'a str>,
    pub documents: &'a [String],
    /// The documents marked as sources (`--sources`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sources: Option<&'a Vec<DocId>>,
    /// Ranked by score, descending; with sources, the submission-source pairs first, and the
    /// submission-submission pairs ranked by the larger share of their `source_discount` when
    /// it was computed (the notes say so), then by score.
    pub pairs: Vec<PairJson<'a>>,
    /// Duplicate groups, the document to keep first.
    pub groups: &'a [Vec<usize>],
    /// What the run has to tell its reader ([`CollectionReport::notes`]); empty when nothing.
    pub notes: &'a [String],
}

/// One pair of [`CollectionJson`].
#[derive(Serialize)]
pub struct PairJson<'a> {
    pub a: usize,
    pub b: usize,
    pub relation: &'static str,
    pub score: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<&'static str>,
    /// Containment both ways and the passages, for the highest-ranked pairs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<&'a PairEvidence>,
    /// For a submission-submission pair with evidence: its figures with the text found in marked
    /// sources left out, and how many matched sentences that left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_discount: Option<&'a SourceDiscount>,
}
