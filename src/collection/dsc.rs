//! DSC, Broder et al.'s Digital Syntactic Clustering as the CoDet paper adapts it (sect. 4):
//! "Every three overlapping substrings of size four in the documents are hashed. If a document
//! d_C contains 60% of d_A's hash values, we say d_C ⊇ d_A."
//!
//! "Every three" is read literally as every third shingle by position ([`Sampling::Position`],
//! the default). Broder's DSC samples by hash value instead (keep a shingle when its hash is
//! 0 modulo the step), which survives insertions that shift positions; [`Sampling::Hash`] offers
//! it and EVALUATION.md measures both.

use super::per_document::per_document;
use super::shingling::{containment_by_shared_hashes, shingle_hashes};
use super::{Cancelled, Collection, Detection, Job};

/// Which shingles DSC keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sampling {
    /// Shingles at positions 0, step, 2·step, ... of the document.
    #[default]
    Position,
    /// Shingles whose 64-bit hash is 0 modulo step (a document with none keeps its smallest).
    Hash,
}

/// DSC's parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct DscParams {
    /// Words per shingle ("substrings of size four").
    pub shingle_size: usize,
    /// Keep one shingle in this many ("every three").
    pub step: usize,
    pub sampling: Sampling,
    /// Share of d_A's kept hashes that d_C must hold (60%).
    pub containment_threshold: f64,
    /// Hashes held by more documents than this are not counted as shared (skew; off by default,
    /// see [`super::shingling`]).
    pub max_df: Option<u32>,
}

impl Default for DscParams {
    fn default() -> Self {
        DscParams {
            shingle_size: 4,
            step: 3,
            sampling: Sampling::Position,
            containment_threshold: 0.6,
            max_df: None,
        }
    }
}

/// The kept shingle hashes of a document.
pub fn sample(hashes: &[u64], step: usize, sampling: Sampling) -> Vec<u64> {
    let step = step.max(1);
    match sampling {
        Sampling::Position => hashes.iter().step_by(step).copied().collect(),
        Sampling::Hash => {
            let kept: Vec<u64> = hashes
                .iter()
                .copied()
                .filter(|h| h % step as u64 == 0)
                .collect();
            if kept.is_empty() {
                hashes.iter().copied().min().into_iter().collect()
            } else {
                kept
            }
        }
    }
}

/// Runs DSC; scores are the share of the contained document's kept hashes.
pub fn detect(
    collection: &Collection,
    params: &DscParams,
    job: &mut Job<'_>,
) -> Result<Detection, Cancelled> {
    let hashes = per_document(collection.len(), "dsc: hashing", job, |doc| {
        let all = shingle_hashes(collection, doc, params.shingle_size);
        sample(&all, params.step, params.sampling)
    })?;
    containment_by_shared_hashes(
        collection,
        hashes,
        params.containment_threshold,
        params.max_df,
        "dsc",
        job,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampling_keeps_every_third_by_position_or_by_hash() {
        let h = [10, 11, 12, 13, 14, 15, 16];
        assert_eq!(sample(&h, 3, Sampling::Position), vec![10, 13, 16]);
        assert_eq!(sample(&h, 3, Sampling::Hash), vec![12, 15]);
        assert_eq!(sample(&[4, 5], 3, Sampling::Hash), vec![4]);
        assert!(sample(&[], 3, Sampling::Hash).is_empty());
    }
}
