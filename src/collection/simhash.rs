//! SimHash (Charikar 2002) as the CoDet paper defines it (sect. 4): "First two words with the
//! highest idf values are ignored. Then, each unique term of a document is hashed. [...] If i-th
//! bit of the hash value of t is zero, then \[v_i\] is decreased by idf of \[t\]. It is increased by
//! the idf otherwise. Finally, if i-th element of v is positive, i-th bit of the SimHash value is
//! set to one; otherwise it is set to zero. When a pair of documents' SimHash values has a
//! Hamming distance less than three, the pair is considered as containment."
//!
//! Hamming closeness is symmetric, so pairs are [`Relation::Duplicate`] with score
//! `1 - distance / 64`. Choices: 64-bit SHA-1 term hashes ([`super::hashing`] for the bit
//! order), idf `ln(N/df) + 1`, a document with no term left after skipping has no fingerprint.
//!
//! Lookup is exact without a scan: with `max_distance = k`, the 64 bits are cut into `k + 1`
//! blocks, and two fingerprints within distance k agree on at least one whole block
//! (pigeonhole; Manku et al. 2007's permuted tables), so one hash table per block yields every
//! candidate, which is then checked.

use rustc_hash::FxHashMap;

use super::hashing::term_hashes;
use super::per_document::per_document;
use super::prepare::TermId;
use super::{Cancelled, Collection, DetectedPair, Detection, DocId, Job, Relation};

/// SimHash's parameters, as in the CoDet paper.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimHashParams {
    /// Highest-idf words ignored (2).
    pub skipped_words: usize,
    /// Largest Hamming distance of a match ("less than three": 2).
    pub max_distance: u32,
}

impl Default for SimHashParams {
    fn default() -> Self {
        SimHashParams {
            skipped_words: 2,
            max_distance: 2,
        }
    }
}

/// Charikar's fingerprint of weighted 64-bit feature hashes: bit i is set when the weights of
/// the features with bit i set outweigh those without. None for no feature.
pub fn weighted_simhash(features: impl IntoIterator<Item = (u64, f64)>) -> Option<u64> {
    let mut votes = [0.0f64; 64];
    let mut any = false;
    for (hash, weight) in features {
        any = true;
        for (bit, vote) in votes.iter_mut().enumerate() {
            if (hash >> bit) & 1 == 1 {
                *vote += weight;
            } else {
                *vote -= weight;
            }
        }
    }
    any.then(|| {
        votes
            .iter()
            .enumerate()
            .filter(|(_, v)| **v > 0.0)
            .fold(0u64, |fp, (bit, _)| fp | (1u64 << bit))
    })
}

/// A document's SimHash as the CoDet paper defines it.
pub fn fingerprint(
    collection: &Collection,
    rank: &[u32],
    hashes: &[u64],
    doc: DocId,
    params: &SimHashParams,
) -> Option<u64> {
    let mut terms: Vec<TermId> = collection.documents[doc].terms().collect();
    terms.sort_unstable_by_key(|&t| rank.get(t as usize).copied().unwrap_or(u32::MAX));
    terms.dedup();
    fingerprint_of_ranked(
        terms.into_iter().map(|t| {
            (
                hashes.get(t as usize).copied().unwrap_or(0),
                collection.frequencies.idf_plus_one(t),
            )
        }),
        params,
    )
}

/// The SimHash of a document whose distinct terms are given ranked by idf, descending, each as
/// (64-bit SHA-1 of the term, `idf + 1`): for front ends without a [`Collection`] (the Spark
/// executors), computing exactly what [`fingerprint`] computes, votes added in the same order.
pub fn fingerprint_of_ranked(
    ranked: impl IntoIterator<Item = (u64, f64)>,
    params: &SimHashParams,
) -> Option<u64> {
    weighted_simhash(ranked.into_iter().skip(params.skipped_words))
}

/// The score of a pair `distance` bits apart: `1 - distance / 64`.
pub fn score(distance: u32) -> f64 {
    1.0 - f64::from(distance) / 64.0
}

/// Exact Hamming-radius lookup of 64-bit fingerprints by pigeonhole blocks.
pub struct BlockIndex {
    /// (shift, mask) of each block.
    blocks: Vec<(u32, u64)>,
    tables: Vec<FxHashMap<u64, Vec<u32>>>,
    fingerprints: Vec<u64>,
    max_distance: u32,
}

impl BlockIndex {
    /// An index of 64-bit fingerprints that finds every one within `max_distance` bits.
    pub fn new(max_distance: u32) -> Self {
        Self::with_bits(64, max_distance)
    }

    /// An index of fingerprints that use only their low `bits` bits (1 to 64), finding every
    /// one within `max_distance` bits (fewer than `bits`).
    pub fn with_bits(bits: u32, max_distance: u32) -> Self {
        let bits = bits.clamp(1, 64);
        let max_distance = max_distance.min(bits - 1);
        let count = max_distance + 1;
        let mut blocks = Vec::new();
        let mut shift = 0;
        for i in 0..count {
            let width = bits / count + u32::from(i < bits % count);
            let mask = if width == 64 {
                u64::MAX
            } else {
                (1u64 << width) - 1
            };
            blocks.push((shift, mask));
            shift += width;
        }
        BlockIndex {
            tables: vec![FxHashMap::default(); blocks.len()],
            blocks,
            fingerprints: Vec::new(),
            max_distance,
        }
    }

    /// Adds a fingerprint; returns its index in insertion order.
    pub fn insert(&mut self, fingerprint: u64) -> usize {
        let id = u32::try_from(self.fingerprints.len()).unwrap_or(u32::MAX);
        for (table, &(shift, mask)) in self.tables.iter_mut().zip(&self.blocks) {
            table
                .entry((fingerprint >> shift) & mask)
                .or_default()
                .push(id);
        }
        self.fingerprints.push(fingerprint);
        id as usize
    }

    /// Every stored fingerprint within the distance: (insertion index, distance), each once.
    pub fn within(&self, fingerprint: u64) -> Vec<(usize, u32)> {
        let mut found = Vec::new();
        for (b, (table, &(shift, mask))) in self.tables.iter().zip(&self.blocks).enumerate() {
            let Some(list) = table.get(&((fingerprint >> shift) & mask)) else {
                continue;
            };
            for &id in list {
                let other = self.fingerprints[id as usize];
                // Reported by the first block both agree on, so each match comes once.
                let first_shared = self
                    .blocks
                    .iter()
                    .position(|&(s, m)| (other >> s) & m == (fingerprint >> s) & m);
                if first_shared != Some(b) {
                    continue;
                }
                let distance = (other ^ fingerprint).count_ones();
                if distance <= self.max_distance {
                    found.push((id as usize, distance));
                }
            }
        }
        found.sort_unstable();
        found
    }
}

/// Runs SimHash: pairs whose fingerprints differ in at most `max_distance` bits.
pub fn detect(
    collection: &Collection,
    params: &SimHashParams,
    job: &mut Job<'_>,
) -> Result<Detection, Cancelled> {
    let rank = collection.idf_rank();
    let hashes = term_hashes(collection);
    let total = collection.len();
    let fingerprints = per_document(total, "simhash: fingerprints", job, |doc| {
        fingerprint(collection, &rank, &hashes, doc, params)
    })?;
    let mut index = BlockIndex::new(params.max_distance);
    let mut owner: Vec<DocId> = Vec::new();
    let mut pairs = Vec::new();
    for (doc, fp) in fingerprints.into_iter().enumerate() {
        if doc % 4096 == 0 {
            job.step("simhash", doc, total)?;
        }
        let Some(fp) = fp else {
            continue;
        };
        for (id, distance) in index.within(fp) {
            pairs.push(DetectedPair::new(
                owner[id],
                doc,
                Relation::Duplicate,
                score(distance),
            ));
        }
        index.insert(fp);
        owner.push(doc);
    }
    job.step("simhash", total, total)?;
    Ok(Detection::from_pairs(pairs, collection))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::{prepare::words, without_job};
    use super::*;

    #[test]
    fn votes_are_weighted_by_bit() {
        // Bit 0: +2 -1 = +1 -> set; bit 1: -2 +1 = -1 -> clear; bit 2: +2 +1 -> set;
        // every other bit: -3 -> clear.
        assert_eq!(weighted_simhash([(0b101, 2.0), (0b110, 1.0)]), Some(0b101));
        // A tie (0) leaves the bit clear: "if positive ... one; otherwise zero".
        assert_eq!(weighted_simhash([(0b1, 1.0), (0b0, 1.0)]), Some(0));
        assert_eq!(weighted_simhash([]), None);
    }

    #[test]
    fn fingerprints_skip_the_two_rarest_words() {
        let docs = vec![
            vec![words("r1 r2 q")],
            vec![words("a2 b2 q")],
            vec![words("q")],
        ];
        let c = Collection::from_terms(vec![], docs, vec![]);
        let (rank, hashes) = (c.idf_rank(), term_hashes(&c));
        let q = c.vocabulary.id("q").unwrap();
        let expected = weighted_simhash([(hashes[q as usize], 1.0)]);
        let p = SimHashParams::default();
        assert_eq!(fingerprint(&c, &rank, &hashes, 0, &p), expected);
        assert_eq!(fingerprint(&c, &rank, &hashes, 1, &p), expected);
        assert_eq!(fingerprint(&c, &rank, &hashes, 2, &p), None);
        // The same from the document's own terms and the document frequencies.
        let ranked = crate::collection::prepare::rank_terms(&[("q", 3), ("r1", 1), ("r2", 1)], 3);
        let features = ranked.iter().map(|&(t, idf)| {
            (
                crate::collection::hashing::sha1_u64(t.as_bytes()),
                idf + 1.0,
            )
        });
        assert_eq!(fingerprint_of_ranked(features, &p), expected);
        assert_eq!(score(2), 62.0 / 64.0);
        let found = without_job(|job| detect(&c, &p, job)).unwrap();
        assert_eq!(
            found.pairs,
            vec![DetectedPair::new(0, 1, Relation::Duplicate, 1.0)]
        );
    }

    #[test]
    fn block_index_finds_each_neighbour_once() {
        let mut index = BlockIndex::new(2);
        index.insert(0);
        index.insert(0b11);
        index.insert(0b111);
        index.insert(1 << 63 | 1 << 40);
        index.insert(0);
        assert_eq!(index.within(0), vec![(0, 0), (1, 2), (3, 2), (4, 0)]);
        assert_eq!(
            index.within(1 << 63),
            vec![(0, 1), (1, 3), (3, 1), (4, 1)]
                .into_iter()
                .filter(|&(_, d)| d <= 2)
                .collect::<Vec<_>>()
        );
    }

    proptest! {
        /// The block index returns exactly what a scan of all fingerprints returns.
        #[test]
        fn block_index_equals_a_scan(
            stored in proptest::collection::vec(any::<u64>(), 0..40),
            flips in proptest::collection::vec((0usize..40, 0u32..64, 0u32..64), 0..40),
            query in any::<u64>(),
            max_distance in 0u32..5,
        ) {
            let mut stored = stored;
            // Plant near neighbours of the query so that matches occur.
            for (i, b1, b2) in flips {
                if i < stored.len() {
                    stored[i] = query ^ (1u64 << b1) ^ (1u64 << b2);
                }
            }
            let mut index = BlockIndex::new(max_distance);
            for &fp in &stored {
                index.insert(fp);
            }
            let scan: Vec<(usize, u32)> = stored
                .iter()
                .enumerate()
                .map(|(i, fp)| (i, (fp ^ query).count_ones()))
                .filter(|&(_, d)| d <= max_distance)
                .collect();
            prop_assert_eq!(index.within(query), scan);
        }
    }
}
