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
//!   pigeonhole blocks ([`BlockIndex`]). Both are exact: the paper's Hybrid tree returns the same
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

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::hashing::sha1;
use super::prepare::TermId;
use super::simhash::BlockIndex;
use super::{Cancelled, Collection, DetectedPair, Detection, DocId, Job, Relation};

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

/// The inputs of qSign's search range (Kim et al. sect. 2.1.2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdaptiveRange {
    /// k: how many additional words a reused sentence may have and still be found.
    pub word_flexibility: u32,
    /// ρ_fp: the acceptable probability that a sentence with k + 1 additional words is still
    /// within the range.
    pub false_hit_rate: f64,
}

impl AdaptiveRange {
    /// The largest d ≤ `cap` with `P_max_bit_diff(m, l, n, k + 1, d) ≤ ρ_fp` for a query of
    /// `words` words; 0 when even d = 0 exceeds ρ_fp (the paper leaves that case open: a
    /// saturated signature no longer tells extra words apart, so only equal signatures are
    /// searched).
    pub fn bit_difference(&self, bits: u32, bits_per_word: u32, words: usize, cap: u32) -> u32 {
        let extra = self.word_flexibility as usize + 1;
        let mut chosen = 0;
        for d in 0..=cap.min(bits) {
            if max_bit_difference_probability(bits, bits_per_word, words, extra, d)
                <= self.false_hit_rate
            {
                chosen = d;
            } else {
                break;
            }
        }
        chosen
    }
}

/// `P_bitswitch(m, l, n, k) = (1 - 1/m)^{nl} · (1 - (1 - 1/m)^{kl})` (Kim et al. sect. 2.1.2):
/// the chance that a bit unset by n words is set by k more, each setting l random bits.
pub fn bit_switch_probability(bits: u32, bits_per_word: u32, words: usize, extra: usize) -> f64 {
    let stay_unset = 1.0 - 1.0 / f64::from(bits.max(1));
    let per_word = f64::from(bits_per_word);
    stay_unset.powf(words as f64 * per_word) * (1.0 - stay_unset.powf(extra as f64 * per_word))
}

/// `P_exact_bit_diff(m, l, n, k, t) = C(m, t) · p^t · (1 - p)^{m - t}` with p = P_bitswitch.
pub fn exact_bit_difference_probability(
    bits: u32,
    bits_per_word: u32,
    words: usize,
    extra: usize,
    difference: u32,
) -> f64 {
    if difference > bits {
        return 0.0;
    }
    let p = bit_switch_probability(bits, bits_per_word, words, extra);
    let choose = (0..difference).fold(1.0, |c, i| c * f64::from(bits - i) / f64::from(i + 1));
    choose * p.powi(difference as i32) * (1.0 - p).powi((bits - difference) as i32)
}

/// `P_max_bit_diff(m, l, n, k, d) = Σ_{0 ≤ t ≤ d} P_exact_bit_diff(m, l, n, k, t)`.
pub fn max_bit_difference_probability(
    bits: u32,
    bits_per_word: u32,
    words: usize,
    extra: usize,
    difference: u32,
) -> f64 {
    (0..=difference.min(bits))
        .map(|t| exact_bit_difference_probability(bits, bits_per_word, words, extra, t))
        .sum::<f64>()
        .min(1.0)
}

/// Hamming balls up to this many signatures are enumerated; larger ones use blocks.
pub const MAX_BALL: usize = 1 << 14;

/// The l bit positions of a word's m-bit signature.
pub fn word_signature(word: &str, bits: u32, bits_per_word: u32) -> u64 {
    let bits = bits.clamp(1, 64);
    let wanted = bits_per_word.clamp(1, bits);
    let mut signature = 0u64;
    let mut digest = sha1(word.as_bytes());
    // Each round reads 5 words; 64 rounds without l distinct bits cannot happen in practice,
    // but the loop is bounded all the same and then fills the lowest free bits.
    for _ in 0..64 {
        for chunk in digest.chunks_exact(4) {
            let value = u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
            signature |= 1u64 << (value % bits);
            if signature.count_ones() == wanted {
                return signature;
            }
        }
        digest = sha1(&digest);
    }
    let mut bit = 0;
    while signature.count_ones() < wanted && bit < bits {
        signature |= 1u64 << bit;
        bit += 1;
    }
    signature
}

/// The normalised word overlap `S(Q,R) / S(Q,Q)` of two sorted, distinct term lists, with
/// `weight(q)` = S(Q,Q) given. Returns 0 when Q weighs nothing.
pub fn word_overlap(q: &[TermId], r: &[TermId], q_weight: f64, idf: &[f64]) -> f64 {
    if q.is_empty() || q_weight <= 0.0 {
        return 0.0;
    }
    let (mut i, mut j, mut shared, mut shared_weight) = (0, 0, 0usize, 0.0);
    while i < q.len() && j < r.len() {
        match q[i].cmp(&r[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                shared_weight += idf.get(q[i] as usize).copied().unwrap_or(0.0);
                i += 1;
                j += 1;
            }
        }
    }
    shared as f64 / q.len() as f64 * (shared_weight / q_weight)
}

/// Number of m-bit signatures within Hamming distance d (Σ_{t≤d} C(m, t)), saturating.
fn ball_size(bits: u32, distance: u32) -> usize {
    let mut total = 0usize;
    let mut choose = 1usize;
    for t in 0..=distance.min(bits) {
        if t > 0 {
            choose = choose.saturating_mul((bits - t + 1) as usize) / t as usize;
        }
        total = total.saturating_add(choose);
    }
    total
}

/// Every m-bit mask with at most d bits set, by number of bits set: the first
/// `ball_size(m, t)` masks are the ball of radius t.
fn ball_masks(bits: u32, distance: u32) -> Vec<u64> {
    let mut masks = vec![0u64];
    let mut frontier = vec![(0u64, 0u32)];
    for _ in 0..distance.min(bits) {
        let mut next = Vec::new();
        for &(mask, lowest_free) in &frontier {
            for bit in lowest_free..bits {
                let m = mask | (1u64 << bit);
                masks.push(m);
                next.push((m, bit + 1));
            }
        }
        frontier = next;
    }
    masks
}

/// Stored signatures with exact range search by Hamming distance.
enum SignatureIndex {
    Ball {
        bits: u32,
        masks: Vec<u64>,
        map: FxHashMap<u64, Vec<u32>>,
        count: u32,
    },
    Blocks(BlockIndex),
}

impl SignatureIndex {
    fn new(bits: u32, distance: u32) -> Self {
        if ball_size(bits, distance) <= MAX_BALL {
            SignatureIndex::Ball {
                bits,
                masks: ball_masks(bits, distance),
                map: FxHashMap::default(),
                count: 0,
            }
        } else {
            SignatureIndex::Blocks(BlockIndex::with_bits(bits, distance))
        }
    }

    fn insert(&mut self, signature: u64) {
        match self {
            SignatureIndex::Ball { map, count, .. } => {
                map.entry(signature).or_default().push(*count);
                *count += 1;
            }
            SignatureIndex::Blocks(index) => {
                index.insert(signature);
            }
        }
    }

    /// The stored signatures within `distance` bits (at most the radius the index was built
    /// for).
    fn within(&self, signature: u64, distance: u32, out: &mut Vec<u32>) {
        out.clear();
        match self {
            SignatureIndex::Ball {
                bits, masks, map, ..
            } => {
                let ball = ball_size(*bits, distance).min(masks.len());
                for mask in &masks[..ball] {
                    if let Some(ids) = map.get(&(signature ^ mask)) {
                        out.extend_from_slice(ids);
                    }
                }
            }
            SignatureIndex::Blocks(index) => {
                out.extend(
                    index
                        .within(signature)
                        .into_iter()
                        .filter(|&(_, d)| d <= distance)
                        .map(|(id, _)| id as u32),
                );
            }
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
mod tests {
    use super::super::{prepare::words, without_job};
    use super::*;
    use rustc_hash::FxHashSet;

    #[test]
    fn word_signatures_set_exactly_l_of_m_bits() {
        for word in ["motorola", "music", "phone", "a", ""] {
            let s32 = word_signature(word, 32, 2);
            assert_eq!(s32.count_ones(), 2);
            assert!(s32 < 1 << 32);
            let s16 = word_signature(word, 16, 1);
            assert_eq!(s16.count_ones(), 1);
            assert!(s16 < 1 << 16);
        }
        assert_eq!(
            word_signature("x", 4, 9).count_ones(),
            4,
            "l is capped at m"
        );
    }

    #[test]
    fn hamming_balls_are_counted_and_enumerated() {
        assert_eq!(ball_size(32, 2), 1 + 32 + 496);
        assert_eq!(ball_size(16, 1), 17);
        let masks = ball_masks(32, 2);
        assert_eq!(masks.len(), 529);
        let distinct: FxHashSet<u64> = masks.iter().copied().collect();
        assert_eq!(distinct.len(), 529);
        assert!(masks.iter().all(|m| m.count_ones() <= 2 && *m < 1 << 32));
    }

    /// m = 32, l = 2, n = 5, k = 1, evaluated by hand (Python, `math.comb`):
    /// p = (31/32)^10 · (1 - (31/32)^2) = 0.0447876; C(32,2) p² (1-p)^30 = 0.2516493;
    /// Σ_{t≤2} = 0.8286927.
    #[test]
    fn search_range_probabilities_by_hand() {
        let p = bit_switch_probability(32, 2, 5, 1);
        assert!((p - 0.044_787_595_576_507_91).abs() < 1e-12, "{p}");
        let exact = exact_bit_difference_probability(32, 2, 5, 1, 2);
        assert!((exact - 0.251_649_330_888_356_7).abs() < 1e-12, "{exact}");
        let at_most = max_bit_difference_probability(32, 2, 5, 1, 2);
        assert!((at_most - 0.828_692_674_100_568).abs() < 1e-12, "{at_most}");
        // A distribution over t = 0..=m, growing with d.
        let total: f64 = (0..=32)
            .map(|t| exact_bit_difference_probability(32, 2, 7, 3, t))
            .sum();
        assert!((total - 1.0).abs() < 1e-12, "{total}");
        let cumulative: Vec<f64> = (0..=6)
            .map(|d| max_bit_difference_probability(32, 2, 7, 3, d))
            .collect();
        assert!(cumulative.windows(2).all(|w| w[0] < w[1]), "{cumulative:?}");
        assert_eq!(exact_bit_difference_probability(16, 1, 3, 1, 17), 0.0);
    }

    /// Values of P_max(32, 2, n, k + 1 = 2, d) for d = 0, 1, 2, 3 (same hand evaluation):
    /// n = 2: 0.029 0.136 0.333 0.563; n = 5: 0.055 0.221 0.466 0.699;
    /// n = 10: 0.124 0.391 0.671 0.859; n = 20: 0.336 0.709 0.909 0.979.
    #[test]
    fn search_range_is_the_largest_d_within_the_false_hit_rate() {
        let range = |rate: f64, words: usize| {
            AdaptiveRange {
                word_flexibility: 1,
                false_hit_rate: rate,
            }
            .bit_difference(32, 2, words, 5)
        };
        assert_eq!(range(0.5, 2), 2);
        assert_eq!(range(0.5, 5), 2);
        assert_eq!(range(0.5, 10), 1);
        assert_eq!(range(0.5, 20), 0);
        assert_eq!(range(0.2, 5), 0);
        assert_eq!(range(0.7, 5), 3);
        // Short sentences get the wider range; the cap always holds.
        assert_eq!(range(1.0, 40), 5);
        assert_eq!(range(0.0, 2), 0);
    }

    #[test]
    fn adaptive_range_finds_short_sentences_with_extra_words() {
        // A three-word sentence reused with one more word: the signatures differ in up to
        // l = 2 bits, so d = 0 misses it.
        let docs = vec![
            vec![words("alpha beta gamma")],
            vec![words("alpha beta gamma delta")],
            vec![words("zeta")],
        ];
        let c = Collection::from_terms(vec![], docs, vec![]);
        let signature = |text: &str| {
            words(text)
                .iter()
                .fold(0u64, |s, w| s | word_signature(w, 32, 2))
        };
        let difference =
            (signature("alpha beta gamma") ^ signature("alpha beta gamma delta")).count_ones();
        assert!(difference > 0, "the test needs signatures that differ");
        let fixed = |d| QSignParams {
            max_bit_difference: d,
            ..QSignParams::default()
        };
        let adaptive = QSignParams {
            max_bit_difference: 3,
            adaptive: Some(AdaptiveRange {
                word_flexibility: 1,
                false_hit_rate: 0.5,
            }),
            ..QSignParams::default()
        };
        let run = |params: &QSignParams| without_job(|job| detect(&c, params, job)).unwrap();
        assert!(run(&fixed(0)).pairs.is_empty());
        assert_eq!(run(&fixed(difference)).pairs.len(), 1);
        // The query is the later, four-word sentence; k + 1 = 2: d = 2 at ρ_fp = 0.5
        // (P_max 0.422 at d = 2, 0.657 at d = 3).
        let range = adaptive.adaptive.unwrap().bit_difference(32, 2, 4, 3);
        assert_eq!(range, 2);
        assert!(difference <= 2, "one word sets at most l = 2 bits");
        assert_eq!(run(&adaptive).pairs.len(), 1);
        // With the cap at 0 the adaptive range cannot widen the search.
        let capped = QSignParams {
            max_bit_difference: 0,
            ..adaptive.clone()
        };
        assert!(run(&capped).pairs.is_empty());
    }

    /// N = 4 documents; df(a) = 1, df(b) = 2, df(c) = 4 (idf 0), df(d) = 1.
    #[test]
    fn word_overlap_by_hand() {
        let idf = [4f64.ln(), 2f64.ln(), 0.0, 4f64.ln()];
        let (a, b, c, d) = (0, 1, 2, 3);
        let q = [a, b, c];
        let q_weight = 4f64.ln() + 2f64.ln();
        // Q ∩ R = {a, c}: 2/3 · (ln 4 + 0) / (ln 4 + ln 2) = 2/3 · 2/3.
        let s = word_overlap(&q, &[a, c, d], q_weight, &idf);
        assert!((s - 4.0 / 9.0).abs() < 1e-12, "{s}");
        assert!((word_overlap(&q, &[a, b, c, d], q_weight, &idf) - 1.0).abs() < 1e-12);
        assert_eq!(word_overlap(&q, &[d], q_weight, &idf), 0.0);
        assert_eq!(word_overlap(&[c], &[c], 0.0, &idf), 0.0);
    }

    #[test]
    fn contained_documents_are_found_in_either_order() {
        let docs = vec![
            // 0: an article of four sentences.
            vec![
                words("alpha beta gamma"),
                words("delta epsilon zeta"),
                words("eta theta iota"),
                words("chi psi omega"),
            ],
            // 1: unrelated.
            vec![words("kappa lambda mu"), words("nu xi omicron")],
            // 2: a summary of 0: two of its sentences verbatim.
            vec![words("alpha beta gamma"), words("eta theta iota")],
            // 3: reuses one sentence of 1 and adds one of its own.
            vec![words("kappa lambda mu"), words("pi rho sigma")],
            // 4: filler so that the words above are not in every document.
            vec![words("tau upsilon phi")],
        ];
        let c = Collection::from_terms(vec![], docs, vec![]);
        let found = without_job(|job| detect(&c, &QSignParams::default(), job)).unwrap();
        let got: Vec<_> = found.pairs.iter().map(|p| (p.a, p.b, p.relation)).collect();
        assert_eq!(
            got,
            vec![(0, 2, Relation::Contains), (3, 1, Relation::Reuses)]
        );
        assert_eq!(found.pairs[0].score, 1.0);
        assert_eq!(found.pairs[1].score, 0.5);
        // The article after its summary: the stored summary's sentences count backwards.
        let reversed = Collection::from_terms(
            vec![],
            vec![
                vec![words("alpha beta gamma"), words("eta theta iota")],
                vec![
                    words("alpha beta gamma"),
                    words("delta epsilon zeta"),
                    words("eta theta iota"),
                    words("chi psi omega"),
                ],
                vec![words("tau")],
            ],
            vec![],
        );
        let found = without_job(|job| detect(&reversed, &QSignParams::default(), job)).unwrap();
        assert_eq!(
            found.pairs,
            vec![DetectedPair::new(1, 0, Relation::Contains, 1.0)]
        );
        // Below the reporting floor, a pair that shares one of four sentences is left out.
        let floor = QSignParams {
            min_reuse_share: 0.3,
            containment_share: 1.0,
            ..QSignParams::default()
        };
        let article_then_one_sentence = Collection::from_terms(
            vec![],
            vec![
                vec![
                    words("alpha beta gamma"),
                    words("delta epsilon zeta"),
                    words("eta theta iota"),
                    words("chi psi omega"),
                ],
                vec![
                    words("alpha beta gamma"),
                    words("kappa lambda"),
                    words("mu nu"),
                    words("xi pi"),
                ],
                vec![words("tau")],
            ],
            vec![],
        );
        let found = without_job(|job| detect(&article_then_one_sentence, &floor, job)).unwrap();
        assert!(found.pairs.is_empty());
        let found = without_job(|job| detect(&reversed, &QSignParams::default(), job)).unwrap();
        assert_eq!(
            found.pairs,
            vec![DetectedPair::new(1, 0, Relation::Contains, 1.0)]
        );
    }

    #[test]
    fn block_index_fallback_finds_what_the_ball_finds() {
        let docs = vec![
            vec![words("alpha beta gamma delta")],
            vec![words("alpha beta gamma delta epsilon")],
            vec![words("zeta")],
        ];
        let c = Collection::from_terms(vec![], docs, vec![]);
        let ball = QSignParams::default();
        let blocks = QSignParams {
            max_bit_difference: 6,
            ..QSignParams::default()
        };
        assert!(ball_size(32, 6) > MAX_BALL);
        let with_ball = without_job(|job| detect(&c, &ball, job)).unwrap();
        let with_blocks = without_job(|job| detect(&c, &blocks, job)).unwrap();
        assert_eq!(with_ball.pairs.len(), 1);
        assert_eq!(with_ball, with_blocks);
    }

    /// Checking documents in batches (in parallel, each against the index before its batch and
    /// the earlier documents of its own batch) finds what checking one at a time finds, on real
    /// stories whatever the batch size, with the paper's fixed range and the derived one.
    #[test]
    fn batches_find_what_one_document_at_a_time_finds() {
        let stories = [
            "Shares rose on Monday. The bank reported strong profits. Analysts were surprised.",
            "The bank reported strong profits. Shares rose on Monday.",
            "Rain fell across the north. Farmers welcomed the rain.",
            "Farmers welcomed the rain. Rain fell across the north. Roads were closed.",
            "The bank reported strong profits. Analysts were surprised. Rain fell across the north.",
            "A new bridge opened in the city. Traffic eased at once.",
            "Traffic eased at once. A new bridge opened in the city.",
        ];
        let docs: Vec<Vec<Vec<String>>> = stories
            .iter()
            .map(|s| s.trim_end_matches('.').split(". ").map(words).collect())
            .collect();
        let c = Collection::from_terms(vec![], docs, vec![]);
        for params in [
            QSignParams::default(),
            QSignParams {
                adaptive: Some(AdaptiveRange {
                    word_flexibility: 1,
                    false_hit_rate: 0.1,
                }),
                ..QSignParams::default()
            },
        ] {
            let one_at_a_time = without_job(|job| detect_in_batches(&c, &params, job, 1)).unwrap();
            assert!(one_at_a_time.pairs.len() >= 4, "{one_at_a_time:?}");
            for batch in [2, 3, 7, BATCH] {
                let batched =
                    without_job(|job| detect_in_batches(&c, &params, job, batch)).unwrap();
                assert_eq!(batched, one_at_a_time, "batch {batch}");
            }
        }
    }
}
