//! Full fingerprinting (FFP), the CoDet paper's best baseline (sect. 4, Table 1): "For each
//! document, all substrings of size four are hashed. If document d_C contains 60% of d_A's hash
//! values, then d_C ⊇ d_A." Substrings are word 4-shingles ([`super::shingling`]). It counts
//! every pair with a common shingle through an inverted index, which is why the paper finds it
//! the most effective and the least scalable (Fig. 3).

use super::per_document::per_document;
use super::shingling::{containment_by_shared_hashes, shingle_hashes};
use super::{Cancelled, Collection, Detection, Job};

/// FFP's parameters, as in the paper.
#[derive(Clone, Debug, PartialEq)]
pub struct FfpParams {
    /// Words per shingle ("substrings of size four").
    pub shingle_size: usize,
    /// Share of d_A's hashes that d_C must hold (60%).
    pub containment_threshold: f64,
    /// Hashes held by more documents than this are not counted as shared (skew; off by default,
    /// see [`super::shingling`]).
    pub max_df: Option<u32>,
}

impl Default for FfpParams {
    fn default() -> Self {
        FfpParams {
            shingle_size: 4,
            containment_threshold: 0.6,
            max_df: None,
        }
    }
}

/// Runs FFP; scores are the share of the contained document's shingle hashes.
pub fn detect(
    collection: &Collection,
    params: &FfpParams,
    job: &mut Job<'_>,
) -> Result<Detection, Cancelled> {
    let hashes = per_document(collection.len(), "ffp: hashing", job, |doc| {
        shingle_hashes(collection, doc, params.shingle_size)
    })?;
    containment_by_shared_hashes(
        collection,
        hashes,
        params.containment_threshold,
        params.max_df,
        "ffp",
        job,
    )
}
