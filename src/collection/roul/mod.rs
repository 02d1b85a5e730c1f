//! Roul, Mittal, Joshi, *Efficient Approach for near Duplicate Document Detection using Textual
//! and Conceptual based Techniques* (/work/shared/papers/004_118c47f99a94d872.txt, sect. 4).
//!
//! Steps (numbers of sect. 4):
//! 1-2. TF-IDF of every word: `tf = n_ij / Σ_k n_kj` (eq. 1), `idf = log(|D| / df)` (eq. 2).
//! 3-5. Word 3-shingles, each hashed with 64-bit SHA-1, summed into a 64-bit SimHash ("textual
//!    fingerprint") with +weight for a 1 bit and -weight for a 0 bit.
//! 6. LSI fingerprints `s · Vᵀ` from a truncated SVD of the TF-IDF term-document matrix
//!    ([`lsi`]), compared by cosine.
//! 7-10. 64 times: rotate every textual fingerprint by one bit, sort, and compare each
//!    fingerprint with the next one: `textSim = 64 - Hamming`; above th3 an exact duplicate,
//!    else above th2 a textual duplicate, else above th1 a conceptual duplicate when the LSI
//!    cosine exceeds th4 (the rules of step 9; the pseudo-code of Fig. 1 swaps th3 and th4 and
//!    drops `textSim == th2`).
//! 11. Each group of duplicates keeps its longest document (the first of each
//!    [`Detection::groups`] entry).
//!
//! Choices where the paper is silent:
//! - A shingle's weight is the sum of its three words' TF-IDF weights (the paper weights
//!   "tokens" but hashes shingles; its Fig. 1 indexes the weights by bit, which cannot be
//!   meant). Fig. 1 also divides the TF-IDF weights by the document length once more; that
//!   scales all of a document's votes alike and changes no bit, so it is left out.
//! - Repeated shingles vote once per occurrence (Fig. 1 loops over the list of hashes).
//! - th2 = 46 is the paper's optimum (Fig. 3). th1, th3 and th4 are only "reasonably low",
//!   "very high" and unnamed; the defaults th1 = 40, th3 = 60, th4 = 0.9 were chosen on the BBC
//!   data (EVALUATION.md).
//! - The LSI matrix holds TF-IDF weights (eq. 3) with every document scaled to unit length, as
//!   gensim's TF-IDF model (the paper's toolkit) does; rank 200 ([`lsi`]).
//! - Pair scores: `textSim / 64` for exact and textual duplicates, the cosine for conceptual
//!   ones. A pair met in several rotations is classified once, by the first meeting.

pub mod lsi;

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use super::hashing::sha1_u64_of_terms;
use super::per_document::per_document;
use super::prepare::TermId;
use super::simhash::weighted_simhash;
use super::{Cancelled, Collection, DetectedPair, Detection, DocId, Job, Relation};
use lsi::{LsiSpace, SparseVector, cosine};

/// Roul et al.'s parameters, named as in the paper.
#[derive(Clone, Debug, PartialEq)]
pub struct RoulParams {
    /// Words per shingle (3, Fig. 2).
    pub shingle_size: usize,
    /// th1: textual similarity (64 - Hamming) a pair must exceed to be considered at all.
    pub th1: u32,
    /// th2: textual similarity above which a pair is a textual near duplicate (46, Fig. 3).
    pub th2: u32,
    /// th3: textual similarity above which a pair is an exact duplicate.
    pub th3: u32,
    /// th4: LSI cosine above which a pair (past th1) is a conceptual duplicate.
    pub th4: f64,
    /// Number of LSI dimensions.
    pub lsi_rank: usize,
    /// Rotate-sort-compare passes (64: every bit once at the top).
    pub rotations: u32,
}

impl Default for RoulParams {
    fn default() -> Self {
        RoulParams {
            shingle_size: 3,
            th1: 40,
            th2: 46,
            th3: 60,
            th4: 0.9,
            lsi_rank: 200,
            rotations: 64,
        }
    }
}

/// Every document's TF-IDF weights (eq. 1-3), terms ascending; words with zero idf left out.
pub fn tfidf_vectors(collection: &Collection) -> Vec<SparseVector> {
    collection
        .documents
        .par_iter()
        .map(|doc| {
            let mut counts: FxHashMap<TermId, u32> = FxHashMap::default();
            for t in doc.terms() {
                *counts.entry(t).or_insert(0) += 1;
            }
            let length = doc.term_count().max(1) as f64;
            let mut vector: SparseVector = counts
                .into_iter()
                .map(|(t, n)| (t, f64::from(n) / length * collection.frequencies.idf(t)))
                .filter(|&(_, w)| w > 0.0)
                .collect();
            vector.sort_unstable_by_key(|&(t, _)| t);
            vector
        })
        .collect()
}

/// Scales a vector to unit Euclidean length (a zero vector stays zero).
pub fn unit_length(vector: &mut SparseVector) {
    let norm = vector.iter().map(|(_, w)| w * w).sum::<f64>().sqrt();
    if norm > 0.0 {
        for (_, w) in vector.iter_mut() {
            *w /= norm;
        }
    }
}

/// A document's textual fingerprint: the SimHash of its shingles weighted by their words'
/// TF-IDF (steps 3-5). None for a document without terms.
pub fn textual_fingerprint(
    collection: &Collection,
    doc: DocId,
    weights: &SparseVector,
    shingle_size: usize,
) -> Option<u64> {
    let weight_of = |t: TermId| {
        weights
            .binary_search_by_key(&t, |&(term, _)| term)
            .map_or(0.0, |i| weights[i].1)
    };
    let terms: Vec<TermId> = collection.documents[doc].terms().collect();
    let size = shingle_size.max(1).min(terms.len().max(1));
    let mut buffer = Vec::new();
    weighted_simhash(terms.windows(size).map(|shingle| {
        (
            sha1_u64_of_terms(collection, shingle, &mut buffer),
            shingle.iter().map(|&t| weight_of(t)).sum::<f64>(),
        )
    }))
}

/// Step 9: the relation of a pair from its textual similarity and (lazily) its LSI cosine.
pub fn classify(
    text_similarity: u32,
    conceptual_similarity: impl FnOnce() -> f64,
    params: &RoulParams,
) -> Option<(Relation, f64)> {
    let text_score = f64::from(text_similarity) / 64.0;
    if text_similarity > params.th3 {
        Some((Relation::ExactDuplicate, text_score))
    } else if text_similarity > params.th2 {
        Some((Relation::TextualDuplicate, text_score))
    } else if text_similarity > params.th1 {
        let cosine = conceptual_similarity();
        (cosine > params.th4).then_some((Relation::ConceptualDuplicate, cosine))
    } else {
        None
    }
}

/// Runs Roul et al.'s detector with the LSI space fitted to the collection itself.
pub fn detect(
    collection: &Collection,
    params: &RoulParams,
    job: &mut Job<'_>,
) -> Result<Detection, Cancelled> {
    let total = collection.len();
    let weights = tfidf_vectors(collection);
    let mut fingerprints: Vec<(u64, u32)> =
        per_document(total, "roul: textual fingerprints", job, |doc| {
            textual_fingerprint(collection, doc, &weights[doc], params.shingle_size)
                .map(|fp| (fp, doc as u32))
        })?
        .into_iter()
        .flatten()
        .collect();
    let mut columns = weights;
    columns.iter_mut().for_each(unit_length);
    let space = LsiSpace::fit_with(
        &columns,
        collection.vocabulary.len(),
        params.lsi_rank,
        0x5eed,
        &mut |stage| job.step("roul: LSI", stage, lsi::FIT_STAGES),
    )?;
    let concepts = per_document(total, "roul: concepts", job, |doc| {
        space.project(&columns[doc])
    })?;
    let mut seen: FxHashSet<(u32, u32)> = FxHashSet::default();
    let mut pairs = Vec::new();
    for rotation in 0..params.rotations {
        job.step(
            "roul: rotations",
            rotation as usize,
            params.rotations as usize,
        )?;
        for (fp, _) in fingerprints.iter_mut() {
            *fp = fp.rotate_left(1);
        }
        fingerprints.sort_unstable();
        for window in fingerprints.windows(2) {
            let ((x, i), (y, j)) = (window[0], window[1]);
            let key = (i.min(j), i.max(j));
            if !seen.insert(key) {
                continue;
            }
            let text_similarity = 64 - (x ^ y).count_ones();
            let concept = || cosine(&concepts[i as usize], &concepts[j as usize]);
            if let Some((relation, score)) = classify(text_similarity, concept, params) {
                pairs.push(DetectedPair::new(
                    key.0 as DocId,
                    key.1 as DocId,
                    relation,
                    score,
                ));
            }
        }
    }
    job.step(
        "roul: rotations",
        params.rotations as usize,
        params.rotations as usize,
    )?;
    Ok(Detection::from_pairs(pairs, collection))
}

#[cfg(test)]
mod tests {
    use super::super::{prepare::words, without_job};
    use super::*;

    #[test]
    fn tfidf_follows_equations_1_to_3() {
        let docs = vec![vec![words("a a b")], vec![words("b c")]];
        let c = Collection::from_terms(vec![], docs, vec![]);
        let v = tfidf_vectors(&c);
        let id = |t| c.vocabulary.id(t).unwrap();
        // tf(a) = 2/3, idf(a) = ln(2/1); b is in both documents: idf 0, dropped.
        assert_eq!(v[0], vec![(id("a"), 2.0 / 3.0 * 2f64.ln())]);
        assert_eq!(v[1], vec![(id("c"), 0.5 * 2f64.ln())]);
    }

    #[test]
    fn step_9_thresholds() {
        let p = RoulParams::default();
        let never = || panic!("the cosine is only needed between th1 and th2");
        assert_eq!(
            classify(64, never, &p),
            Some((Relation::ExactDuplicate, 1.0))
        );
        assert_eq!(
            classify(61, never, &p),
            Some((Relation::ExactDuplicate, 61.0 / 64.0))
        );
        assert_eq!(
            classify(60, never, &p),
            Some((Relation::TextualDuplicate, 60.0 / 64.0))
        );
        assert_eq!(
            classify(47, never, &p),
            Some((Relation::TextualDuplicate, 47.0 / 64.0))
        );
        assert_eq!(
            classify(46, || 0.95, &p),
            Some((Relation::ConceptualDuplicate, 0.95))
        );
        assert_eq!(classify(41, || 0.9, &p), None, "th4 must be exceeded");
        assert_eq!(classify(40, never, &p), None);
    }

    #[test]
    fn shingles_are_weighted_by_their_words() {
        let docs = vec![vec![words("a b c d")], vec![words("e")]];
        let c = Collection::from_terms(vec![], docs, vec![]);
        let weights = tfidf_vectors(&c);
        let w = 0.25 * 2f64.ln();
        let mut buffer = Vec::new();
        let id = |t| c.vocabulary.id(t).unwrap();
        let h1 = sha1_u64_of_terms(&c, &[id("a"), id("b"), id("c")], &mut buffer);
        let h2 = sha1_u64_of_terms(&c, &[id("b"), id("c"), id("d")], &mut buffer);
        let expected = weighted_simhash([(h1, 3.0 * w), (h2, 3.0 * w)]);
        assert_eq!(textual_fingerprint(&c, 0, &weights[0], 3), expected);
        // A document shorter than a shingle is one shingle.
        let e = sha1_u64_of_terms(&c, &[id("e")], &mut buffer);
        assert_eq!(
            textual_fingerprint(&c, 1, &weights[1], 3),
            weighted_simhash([(e, 2f64.ln())])
        );
    }

    #[test]
    fn copies_are_exact_duplicates_and_the_longest_is_kept() {
        let text = "the quick brown fox jumps over the lazy dog again and again";
        let docs = vec![
            vec![words(text)],
            vec![words(
                "entirely different words make another story here today",
            )],
            vec![words(text)],
            vec![words("yet more unrelated content about markets and shares")],
        ];
        let c = Collection::from_terms(vec![], docs, vec![10, 10, 30, 10]);
        let found = without_job(|job| detect(&c, &RoulParams::default(), job)).unwrap();
        assert!(
            found
                .pairs
                .contains(&DetectedPair::new(0, 2, Relation::ExactDuplicate, 1.0))
        );
        assert_eq!(found.groups[0], vec![2, 0], "the longer copy is kept");
    }

    /// A cancel that arrives while the LSI space is being fitted stops the run there.
    #[test]
    fn cancelling_during_the_lsi_fit_stops_the_run() {
        let docs = vec![
            vec![words("alpha beta gamma delta")],
            vec![words("alpha beta gamma epsilon")],
            vec![words("zeta eta theta iota")],
        ];
        let c = Collection::from_terms(vec![], docs, vec![]);
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let mut stages = Vec::new();
        let mut progress = |p: super::super::Progress| {
            stages.push((p.stage, p.done));
            if p.stage == "roul: LSI" && p.done == 1 {
                cancel.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        };
        let mut job = Job::new(&mut progress, &cancel);
        let result = detect(&c, &RoulParams::default(), &mut job);
        assert_eq!(result.err(), Some(Cancelled));
        assert_eq!(stages.last(), Some(&("roul: LSI", 1)), "{stages:?}");
    }
}
