//! Word shingles hashed with SHA-1, and containment by shared hashes through an inverted index:
//! the common machinery of DSC ([`super::dsc`]) and full fingerprinting ([`super::ffp`]).
//!
//! Choices: shingles run over the document's terms in reading order across sentence
//! boundaries; a shingle is hashed as its terms joined by single spaces (64-bit SHA-1, see
//! [`super::hashing`]); a document shorter than one shingle is one shingle of all its terms;
//! hashes are compared as sets.

use rustc_hash::FxHashMap;

use super::hashing::sha1_u64_of_terms;
use super::{Cancelled, Collection, DetectedPair, Detection, DocId, Job, Relation};

/// The 64-bit SHA-1 of every `size`-word shingle of document `doc`, in order.
pub fn shingle_hashes(collection: &Collection, doc: DocId, size: usize) -> Vec<u64> {
    let terms: Vec<_> = collection.documents[doc].terms().collect();
    let mut buffer = Vec::new();
    if terms.is_empty() {
        return Vec::new();
    }
    if terms.len() < size.max(1) {
        return vec![sha1_u64_of_terms(collection, &terms, &mut buffer)];
    }
    terms
        .windows(size.max(1))
        .map(|w| sha1_u64_of_terms(collection, w, &mut buffer))
        .collect()
}

/// Containment decisions from per-document hash sets: `d_C ⊇ d_A` when at least `threshold`
/// of `d_A`'s distinct hashes are among `d_C`'s. Each new document looks its hashes up in an
/// inverted index of the documents before it, so only pairs with a common hash are counted
/// (CoDet sect. 5.2: "It calculates similarity values for each document pair that has at
/// least one substring in common"). Scores are the share of the contained document's hashes.
pub fn containment_by_shared_hashes(
    collection: &Collection,
    mut hashes: Vec<Vec<u64>>,
    threshold: f64,
    stage: &'static str,
    job: &mut Job<'_>,
) -> Result<Detection, Cancelled> {
    for set in &mut hashes {
        set.sort_unstable();
        set.dedup();
    }
    let mut postings: FxHashMap<u64, Vec<u32>> = FxHashMap::default();
    let mut shared: FxHashMap<u32, u32> = FxHashMap::default();
    let mut pairs = Vec::new();
    let total = hashes.len();
    for (doc, set) in hashes.iter().enumerate() {
        job.step(stage, doc, total)?;
        shared.clear();
        for hash in set {
            if let Some(list) = postings.get(hash) {
                for &other in list {
                    *shared.entry(other).or_insert(0) += 1;
                }
            }
        }
        for (&other, &count) in &shared {
            let other = other as DocId;
            let doc_share = f64::from(count) / set.len() as f64;
            let other_share = f64::from(count) / hashes[other].len() as f64;
            let pair = match (doc_share >= threshold, other_share >= threshold) {
                (true, true) => Some(DetectedPair::new(
                    other,
                    doc,
                    Relation::Duplicate,
                    doc_share.min(other_share),
                )),
                (true, false) => Some(DetectedPair::new(other, doc, Relation::Contains, doc_share)),
                (false, true) => Some(DetectedPair::new(
                    doc,
                    other,
                    Relation::Contains,
                    other_share,
                )),
                (false, false) => None,
            };
            pairs.extend(pair);
        }
        let id = u32::try_from(doc).unwrap_or(u32::MAX);
        for &hash in set {
            postings.entry(hash).or_default().push(id);
        }
    }
    job.step(stage, total, total)?;
    Ok(Detection::from_pairs(pairs, collection))
}

#[cfg(test)]
mod tests {
    use super::super::{prepare::words, without_job};
    use super::*;

    #[test]
    fn shingles_slide_one_word_and_short_documents_are_one_shingle() {
        let docs = vec![vec![words("a b c"), words("d e")], vec![words("a b")]];
        let c = Collection::from_terms(vec![], docs, vec![]);
        let h = shingle_hashes(&c, 0, 4);
        assert_eq!(h.len(), 2, "a b c d, b c d e");
        assert_eq!(h[0], crate::collection::hashing::sha1_u64(b"a b c d"));
        assert_eq!(h[1], crate::collection::hashing::sha1_u64(b"b c d e"));
        assert_eq!(
            shingle_hashes(&c, 1, 4),
            vec![crate::collection::hashing::sha1_u64(b"a b")]
        );
    }

    #[test]
    fn containment_needs_the_threshold_share_of_the_smaller_set() {
        let c = Collection::from_terms(vec![], vec![vec![]; 4], vec![]);
        let hashes = vec![
            vec![1, 2, 3, 4, 5],
            vec![1, 2, 3, 9], // 3 of 4 = 0.75 in doc 0; doc 0 has 3 of 5 = 0.6 in doc 1
            vec![7, 8],       // nothing shared
            vec![1, 2, 3, 4, 5], // a copy of doc 0
        ];
        let d = without_job(|job| containment_by_shared_hashes(&c, hashes, 0.6, "t", job)).unwrap();
        let got: Vec<_> = d
            .pairs
            .iter()
            .map(|p| (p.a, p.b, p.relation, p.score))
            .collect();
        assert_eq!(
            got,
            vec![
                (0, 1, Relation::Duplicate, 0.6),
                (0, 3, Relation::Duplicate, 1.0),
                (1, 3, Relation::Duplicate, 0.6),
            ]
        );
        let hashes = vec![vec![1, 2, 3, 4, 5], vec![1, 2, 3, 9]];
        let d = without_job(|job| containment_by_shared_hashes(&c, hashes, 0.7, "t", job)).unwrap();
        assert_eq!(
            d.pairs,
            vec![DetectedPair::new(0, 1, Relation::Contains, 0.75)]
        );
    }
}
