//! qSign: signature indexing for incremental reuse detection (Kim, Candan, Tatemura, WWW 2009;
//! /work/shared/papers/002_d997f578982b034d.txt, sect. 2).
//!
//! Every sentence gets an m-bit signature, the bitwise OR of its words' signatures, each with
//! exactly l bits set (sect. 2.1.1-2.1.2; the experiments use m = 32, l = 2 and m = 16, l = 1,
//! sect. 3.1). A new sentence's candidates are the stored sentences whose signatures differ in
//! at most d bits (Euclidean range √d, sect. 2.1.3), found through an index, not a scan; each
//! candidate is then scored with Metzler et al.'s word overlap
//! `S(Q,R) = |Q∩R| / |Q| · Σ_{w∈Q∩R} log(N/df_w)` and kept when it reaches θ = 0.5 (Fig. 5,
//! steps 2.4-2.5). Processing is incremental (Desideratum 1.2): each document is checked
//! against the documents before it, then added.
//!
//! Choices where the paper is silent or does not fit a document-level report:
//! - S as printed is not bounded by 1 while θ ranges over (0.5, 1] (Table 2); simdoc divides it
//!   by S(Q,Q) = Σ_{w∈Q} log(N/df_w), so S is 1 exactly when R holds all of Q's words.
//!   Sentences are word sets; df is the collection's document frequency.
//! - Word signatures come from SHA-1 (the paper used MD5): successive 32-bit big-endian words
//!   of the digest modulo m until l distinct bits are set (the digest is rehashed if needed).
//! - The index: when the Hamming ball of radius d holds at most [`MAX_BALL`] signatures, every
//!   signature in the ball is looked up in a hash map (m = 32, d = 2: 529 lookups); otherwise
//!   pigeonhole blocks ([`BlockIndex`](super::simhash::BlockIndex)). Both are exact: the paper's Hybrid tree returns the same
//!   candidates.
//! - The search range: the paper derives d per query from the user's word flexibility k and an
//!   acceptable false-hit rate ρ_fp (sect. 2.1.2: the largest d with
//!   `P_max_bit_diff(m, l, n, k + 1, d) ≤ ρ_fp`), yet its experiments fix d (Table 2, Fig. 11).
//!   simdoc does the same by default (d = 2, where BBC recall is flat, EVALUATION.md) and offers
//!   the derived range as [`AdaptiveRange`], capped by `max_bit_difference` so that the index
//!   is built once. The paper's approximations `e^{-nl/m}` are replaced by the exact
//!   `(1 - 1/m)^{nl}` it derives them from.
//! - A document's sentences are added after all of them were checked, so a document does not
//!   match itself.
//! - Document pairs: a sentence pair counts for the new sentence when S(q, r) ≥ θ and for the
//!   stored one when S(r, q) ≥ θ. With `share(x)` the fraction of x's sentences that count,
//!   `b` contains `a` when share(a) reaches `containment_share`, both ways is a duplicate, and
//!   any other pair with a counted sentence is "later reuses earlier" scored by the larger share.
//!   The default share 0.6 was chosen on the BBC summaries (EVALUATION.md). Pairs whose larger
//!   share is below `min_reuse_share` (0.25) are not reported.

mod index;
mod range;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::prepare::TermId;
use super::{Cancelled, Collection, DetectedPair, Detection, DocId, Job, Relation};
use index::SignatureIndex;
pub use index::{word_overlap, word_signature};
pub use range::AdaptiveRange;

/// qSign's parameters, named as in the paper.
#[derive(Clone, Debug, PartialEq)]
pub struct QSignParams {
    /// m: signature length in bits (32 or 16 in the paper; 1 to 64).
    pub signature_bits: u32,
    /// l: bits set per word (2 with m = 32, 1 with m = 16).
    pub bits_per_word: u32,
    /// d: the largest bit difference of a candidate (Table 2 studies 0 to 5). With
    /// `adaptive`, the cap of every sentence's own d.
    pub max_bit_difference: u32,
    /// The paper's per-sentence search range (sect. 2.1.2); `None` searches every sentence
    /// with `max_bit_difference`, as the paper's experiments do.
    pub adaptive: Option<AdaptiveRange>,
    /// θ: the word-overlap threshold (0.5).
    pub overlap_threshold: f64,
    /// simdoc's document-level rule: the share of a document's sentences that must be reused
    /// for it to count as contained.
    pub containment_share: f64,
    /// simdoc's reporting floor: pairs whose larger share of reused sentences is below it are
    /// not reported, so that one stock sentence in common does not make a pair (BBC articles:
    /// 904 pairs with 0, 217 with 0.25; Reuters-21578: 14.8 million with 0, 3.3 million with
    /// 0.25, BENCHMARKS.md).
    pub min_reuse_share: f64,
}

impl Default for QSignParams {
    fn default() -> Self {
        QSignParams {
            signature_bits: 32,
            bits_per_word: 2,
            max_bit_difference: 2,
            adaptive: None,
            overlap_threshold: 0.5,
            containment_share: 0.6,
            min_reuse_share: 0.25,
        }
    }
}

/// One indexed sentence.
struct StoredSentence {
    doc: u32,
    position: u32,
    signature: u64,
    terms: Vec<TermId>,
    weight: f64,
}

/// Documents checked at once: the batch is added to the index, then its documents are checked
/// in parallel (the index only read), each keeping the candidates of the documents before it.
/// The pairs are those of checking one document at a time, which is what a batch of one does.
/// A document's sentences were too small a unit to pay for the threads (measured slower); a
/// batch of documents is not.
const BATCH: usize = 256;

/// A sentence as qSign stores and queries it: its signature, its distinct terms and their idf
/// sum (S(Q,Q)).
struct SignedSentence {
    signature: u64,
    terms: Vec<TermId>,
    weight: f64,
}

/// The sentences of document `doc` that have a positive weight.
fn signed_sentences(
    collection: &Collection,
    doc: DocId,
    idf: &[f64],
    word_signatures: &[u64],
) -> Vec<SignedSentence> {
    let mut sentences = Vec::new();
    for sentence in &collection.documents[doc].sentences {
        let mut terms = sentence.clone();
        terms.sort_unstable();
        terms.dedup();
        let weight: f64 = terms.iter().map(|&t| idf[t as usize]).sum();
        if weight <= 0.0 {
            continue;
        }
        let signature = terms
            .iter()
            .fold(0u64, |s, &t| s | word_signatures[t as usize]);
        sentences.push(SignedSentence {
            signature,
            terms,
            weight,
        });
    }
    sentences
}

/// Runs qSign incrementally over the collection.
pub fn detect(
    collection: &Collection,
    params: &QSignParams,
    job: &mut Job<'_>,
) -> Result<Detection, Cancelled> {
    detect_in_batches(collection, params, job, BATCH)
}

fn detect_in_batches(
    collection: &Collection,
    params: &QSignParams,
    job: &mut Job<'_>,
    batch_size: usize,
) -> Result<Detection, Cancelled> {
    let bits = params.signature_bits.clamp(1, 64);
    let idf: Vec<f64> = (0..collection.vocabulary.len())
        .map(|t| collection.frequencies.idf(t as TermId))
        .collect();
    let word_signatures: Vec<u64> = (0..collection.vocabulary.len())
        .map(|t| word_signature(collection.term(t as TermId), bits, params.bits_per_word))
        .collect();
    let bits_per_word = params.bits_per_word.clamp(1, bits);
    let mut index = SignatureIndex::new(bits, params.max_bit_difference);
    // d depends only on a sentence's number of words: computed once per length.
    let mut range_by_words: FxHashMap<usize, u32> = FxHashMap::default();
    let mut stored: Vec<StoredSentence> = Vec::new();
    let total = collection.len();
    let mut sentence_count = vec![0usize; total];
    let mut pairs = Vec::new();
    let mut start = 0;
    while start < total {
        job.step("qsign", start, total)?;
        let end = start.saturating_add(batch_size.max(1)).min(total);
        let batch: Vec<Vec<SignedSentence>> = (start..end)
            .into_par_iter()
            .map(|doc| signed_sentences(collection, doc, &idf, &word_signatures))
            .collect();
        if let Some(adaptive) = &params.adaptive {
            for sentence in batch.iter().flatten() {
                range_by_words
                    .entry(sentence.terms.len())
                    .or_insert_with_key(|&words| {
                        adaptive.bit_difference(
                            bits,
                            bits_per_word,
                            words,
                            params.max_bit_difference,
                        )
                    });
            }
        }
        let range_of = |words: usize| {
            range_by_words
                .get(&words)
                .copied()
                .unwrap_or(params.max_bit_difference)
        };
        // The batch goes into the index first; each document then keeps only the candidates
        // of documents before it. `own[k]`: where document `start + k`'s sentences are stored.
        let mut own: Vec<std::ops::Range<usize>> = Vec::with_capacity(batch.len());
        for (k, sentences) in batch.into_iter().enumerate() {
            let doc_id = u32::try_from(start + k).unwrap_or(u32::MAX);
            sentence_count[start + k] = sentences.len();
            let first = stored.len();
            for (position, sentence) in sentences.into_iter().enumerate() {
                index.insert(sentence.signature);
                stored.push(StoredSentence {
                    doc: doc_id,
                    position: position as u32,
                    signature: sentence.signature,
                    terms: sentence.terms,
                    weight: sentence.weight,
                });
            }
            own.push(first..stored.len());
        }
        let (index, stored) = (&index, &stored);
        // Per document: (earlier document, whether the sentence counted is the earlier one's,
        // its position), sorted and distinct: one list per document, where a map of two sets
        // per earlier document spent a third of the run in the allocator.
        let found: Vec<Vec<(u32, bool, u32)>> = own
            .par_iter()
            .map_init(Vec::new, |candidates, range| {
                let mut hits: Vec<(u32, bool, u32)> = Vec::new();
                let queries = &stored[range.clone()];
                let doc_id = queries.first().map_or(u32::MAX, |q| q.doc);
                for query in queries {
                    index.within(query.signature, range_of(query.terms.len()), candidates);
                    for &id in candidates.iter() {
                        let other = &stored[id as usize];
                        // Only the documents before this one: a document does not match
                        // itself, and a later one checks against this one.
                        if other.doc >= doc_id {
                            continue;
                        }
                        let forward = word_overlap(&query.terms, &other.terms, query.weight, &idf);
                        let backward = word_overlap(&other.terms, &query.terms, other.weight, &idf);
                        if forward >= params.overlap_threshold {
                            hits.push((other.doc, false, query.position));
                        }
                        if backward >= params.overlap_threshold {
                            hits.push((other.doc, true, other.position));
                        }
                    }
                }
                hits.sort_unstable();
                hits.dedup();
                hits
            })
            .collect();
        for (k, hits) in found.into_iter().enumerate() {
            let doc = start + k;
            for group in hits.chunk_by(|x, y| x.0 == y.0) {
                let other = group[0].0 as DocId;
                let old_sentences = group.iter().filter(|h| h.1).count();
                let new_sentences = group.len() - old_sentences;
                let share = |n: usize, of: usize| if of == 0 { 0.0 } else { n as f64 / of as f64 };
                let new_share = share(new_sentences, sentence_count[doc]);
                let old_share = share(old_sentences, sentence_count[other]);
                if new_share.max(old_share) >= params.min_reuse_share {
                    pairs.push(relate(
                        doc,
                        other,
                        new_share,
                        old_share,
                        params.containment_share,
                    ));
                }
            }
        }
        start = end;
    }
    job.step("qsign", total, total)?;
    Ok(Detection::from_pairs(pairs, collection))
}

/// The document relation from both shares of reused sentences (see the module docs).
fn relate(
    later: DocId,
    earlier: DocId,
    later_share: f64,
    earlier_share: f64,
    needed: f64,
) -> DetectedPair {
    match (later_share >= needed, earlier_share >= needed) {
        (true, true) => DetectedPair::new(
            earlier,
            later,
            Relation::Duplicate,
            later_share.min(earlier_share),
        ),
        (true, false) => DetectedPair::new(earlier, later, Relation::Contains, later_share),
        (false, true) => DetectedPair::new(later, earlier, Relation::Contains, earlier_share),
        (false, false) => DetectedPair::new(
            later,
            earlier,
            Relation::Reuses,
            later_share.max(earlier_share),
        ),
    }
}

#[cfg(test)]
mod tests;
