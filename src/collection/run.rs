//! One collection run, as `simdoc collection` and the viewer's collection mode both make it:
//! the documents prepared for the detectors, the chosen detector run (or, with none chosen, the
//! fuzzy comparison of Yerra's thesis ch. 4, its pairs counted by EQ sentences or judged against
//! chance, [`super::fuzzy::judged::reported_pairs`]), and the pairwise fuzzy resemblances that
//! the odds-ratio matrix (thesis Table 4.1) is drawn from when it is wanted. Both front ends
//! call [`detect`] so that one folder gives the same pairs from either; what each then shows or
//! writes is its own.

use crate::document::Document;
use crate::model::ReferenceModel;
use crate::similarity::ModelView;

use super::evidence::EvidenceOptions;
use super::fuzzy::{self, FuzzyParams, Resemblances};
use super::{Cancelled, Collection, Detection, DocumentFrequencies, Job, Method, Normaliser};

/// Most documents the odds-ratio matrix is made for: it is n x n (500 documents: 250,000
/// cells), and a heatmap of more cannot be read.
pub const MAX_MATRIX_DOCUMENTS: usize = 500;

/// How a run detects.
#[derive(Clone, Copy)]
pub struct RunSettings<'a> {
    /// The detector; `None` for the fuzzy comparison.
    pub method: Option<&'a Method>,
    /// The fuzzy comparison's parameters (also the matrix's).
    pub params: &'a FuzzyParams,
    /// How the detectors' words are normalised.
    pub normaliser: Normaliser,
    /// A reference model to take document frequencies from (CoDet sect. 4) instead of the
    /// collection's own.
    pub idf_from: Option<&'a ReferenceModel>,
    /// Compute the pairwise fuzzy resemblances for the odds-ratio matrix too (when the run has
    /// at most [`MAX_MATRIX_DOCUMENTS`] documents).
    pub matrix: bool,
    /// The model sentences are compared with.
    pub model: &'a (dyn ModelView + Sync),
    /// The comparison a judged fuzzy run decides each candidate pair with: `simdoc compare`'s
    /// under the run's matching.
    pub evidence: &'a EvidenceOptions,
}

/// What a run found.
pub struct RunOutcome {
    /// The documents as the detectors prepared them (names, vocabulary, frequencies).
    pub collection: Collection,
    pub detection: Detection,
    /// The pairwise fuzzy resemblances, when the fuzzy comparison ran or the matrix was wanted.
    pub resemblances: Option<Resemblances>,
    /// What the run has to tell its user (a capped candidate list, a judging budget reached).
    pub notes: Vec<String>,
}

impl RunOutcome {
    /// The odds-ratio matrix (thesis Table 4.1), when the resemblances were computed and the
    /// run has at most [`MAX_MATRIX_DOCUMENTS`] documents.
    pub fn odds_matrix(&self) -> Option<Vec<Vec<f64>>> {
        self.resemblances
            .as_ref()
            .filter(|_| self.collection.names.len() <= MAX_MATRIX_DOCUMENTS)
            .map(Resemblances::odds_matrix)
    }
}

/// Runs `settings` over `documents` (named by `names`, in stream order).
pub fn detect(
    names: Vec<String>,
    documents: &[Document],
    settings: &RunSettings<'_>,
    job: &mut Job<'_>,
) -> Result<RunOutcome, Cancelled> {
    let params = settings.params;
    let matrix = settings.matrix && documents.len() <= MAX_MATRIX_DOCUMENTS;
    let resemblances = if settings.method.is_none() || matrix {
        Some(fuzzy::resemblances(documents, settings.model, params, job)?)
    } else {
        None
    };
    let mut notes: Vec<String> = resemblances
        .iter()
        .flat_map(|r| [r.capped_note(), r.common_note()])
        .flatten()
        .collect();
    let mut collection = Collection::from_documents(names, documents, settings.normaliser, job)?;
    if let Some(reference) = settings.idf_from {
        collection.frequencies =
            DocumentFrequencies::from_reference(&collection.vocabulary, reference);
    }
    let detection = match (settings.method, &resemblances) {
        (Some(method), _) => method.detect(&collection, job)?,
        (None, Some(found)) => {
            let (pairs, note) = fuzzy::judged::reported_pairs(
                found,
                documents,
                settings.model,
                params,
                settings.evidence,
                job,
            )?;
            notes.extend(note);
            Detection::from_pairs(pairs, &collection)
        }
        (None, None) => Detection::default(),
    };
    Ok(RunOutcome {
        collection,
        detection,
        resemblances,
        notes,
    })
}
