//! I-Match (Chowdhury et al. 2002) as the CoDet paper adapts it (sect. 4): "First two words with
//! the highest idf values are ignored. After that, ten words with the highest idf values are used
//! to create a fingerprint for each document. When a pair of documents has the same fingerprint,
//! the pair is marked as containment."
//!
//! Equal fingerprints are symmetric, so simdoc reports them as [`Relation::Duplicate`] (score 1).
//! Choices: a document's distinct terms are ranked by idf ([`Collection::idf_rank`], ties by
//! text); the chosen words are hashed in alphabetical order, joined by spaces, with the full
//! 160-bit SHA-1; a document with no word left after skipping has no fingerprint and matches
//! nothing. Fingerprints go into a hash map: one lookup per document.

use rustc_hash::FxHashMap;

use super::hashing::sha1;
use super::per_document::per_document;
use super::prepare::TermId;
use super::{Cancelled, Collection, DetectedPair, Detection, DocId, Job, Relation};

/// I-Match's parameters, as in the CoDet paper.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IMatchParams {
    /// Highest-idf words ignored (2).
    pub skipped_words: usize,
    /// Words fingerprinted after those (10).
    pub fingerprint_words: usize,
}

impl Default for IMatchParams {
    fn default() -> Self {
        IMatchParams {
            skipped_words: 2,
            fingerprint_words: 10,
        }
    }
}

/// The words a document's fingerprint is made of, in alphabetical order.
pub fn fingerprint_words<'c>(
    collection: &'c Collection,
    rank: &[u32],
    doc: DocId,
    params: &IMatchParams,
) -> Vec<&'c str> {
    let mut terms: Vec<TermId> = collection.documents[doc].terms().collect();
    terms.sort_unstable_by_key(|&t| rank.get(t as usize).copied().unwrap_or(u32::MAX));
    terms.dedup();
    let mut chosen: Vec<&str> = terms
        .into_iter()
        .skip(params.skipped_words)
        .take(params.fingerprint_words)
        .map(|t| collection.term(t))
        .collect();
    chosen.sort_unstable();
    chosen
}

/// A document's I-Match fingerprint, or None when no word is left to fingerprint.
pub fn fingerprint(
    collection: &Collection,
    rank: &[u32],
    doc: DocId,
    params: &IMatchParams,
) -> Option<[u8; 20]> {
    hash_words(fingerprint_words(collection, rank, doc, params))
}

/// The fingerprint of a document whose distinct terms are given ranked by idf, descending
/// ([`super::prepare::rank_terms`]): for front ends without a [`Collection`] (the Spark
/// executors), computing exactly what [`fingerprint`] computes.
pub fn fingerprint_of_ranked<'t>(
    ranked: impl IntoIterator<Item = &'t str>,
    params: &IMatchParams,
) -> Option<[u8; 20]> {
    let mut chosen: Vec<&str> = ranked
        .into_iter()
        .skip(params.skipped_words)
        .take(params.fingerprint_words)
        .collect();
    chosen.sort_unstable();
    hash_words(chosen)
}

/// SHA-1 of the chosen words (alphabetical) joined by spaces; None for no word.
fn hash_words(words: Vec<&str>) -> Option<[u8; 20]> {
    if words.is_empty() {
        return None;
    }
    Some(sha1(words.join(" ").as_bytes()))
}

/// Runs I-Match: every pair of documents with equal fingerprints is a duplicate.
pub fn detect(
    collection: &Collection,
    params: &IMatchParams,
    job: &mut Job<'_>,
) -> Result<Detection, Cancelled> {
    let rank = collection.idf_rank();
    let total = collection.len();
    let keys = per_document(total, "imatch: fingerprints", job, |doc| {
        fingerprint(collection, &rank, doc, params)
    })?;
    let mut buckets: FxHashMap<[u8; 20], Vec<DocId>> = FxHashMap::default();
    let mut pairs = Vec::new();
    for (doc, key) in keys.into_iter().enumerate() {
        if doc % 4096 == 0 {
            job.step("imatch", doc, total)?;
        }
        let Some(key) = key else {
            continue;
        };
        let bucket = buckets.entry(key).or_default();
        pairs.extend(
            bucket
                .iter()
                .map(|&earlier| DetectedPair::new(earlier, doc, Relation::Duplicate, 1.0)),
        );
        bucket.push(doc);
    }
    job.step("imatch", total, total)?;
    Ok(Detection::from_pairs(pairs, collection))
}

#[cfg(test)]
mod tests {
    use super::super::{prepare::words, without_job};
    use super::*;

    fn params(skipped_words: usize, fingerprint_words: usize) -> IMatchParams {
        IMatchParams {
            skipped_words,
            fingerprint_words,
        }
    }

    #[test]
    fn the_two_rarest_words_are_skipped() {
        // df: r1 1, r2 1, q 2, s 2, common 4, a2 1, b2 1, c 1.
        let docs = vec![
            vec![words("r1 r2 q s common")],
            vec![words("a2 b2 q s common")],
            vec![words("common q")],
            vec![words("common c")],
        ];
        let c = Collection::from_terms(vec![], docs, vec![]);
        let rank = c.idf_rank();
        assert_eq!(
            fingerprint_words(&c, &rank, 0, &params(2, 2)),
            vec!["q", "s"]
        );
        assert_eq!(
            fingerprint_words(&c, &rank, 1, &params(2, 2)),
            vec!["q", "s"]
        );
        assert_eq!(
            fingerprint_words(&c, &rank, 2, &params(2, 2)),
            Vec::<&str>::new()
        );
        assert_eq!(
            fingerprint_words(&c, &rank, 0, &params(2, 10)),
            vec!["common", "q", "s"]
        );
        let found = without_job(|job| detect(&c, &params(2, 2), job)).unwrap();
        assert_eq!(
            found.pairs,
            vec![DetectedPair::new(0, 1, Relation::Duplicate, 1.0)]
        );
        assert_eq!(found.groups, vec![vec![0, 1]]);
        assert_eq!(fingerprint(&c, &rank, 0, &params(2, 2)), Some(sha1(b"q s")));
        // The same from the document's own terms and the document frequencies.
        let ranked = crate::collection::prepare::rank_terms(
            &[("common", 4), ("s", 2), ("q", 2), ("r2", 1), ("r1", 1)],
            4,
        );
        assert_eq!(
            fingerprint_of_ranked(ranked.iter().map(|r| r.0), &params(2, 2)),
            Some(sha1(b"q s"))
        );
        assert_eq!(fingerprint_of_ranked(["a", "b"], &params(2, 2)), None);
    }
}
