//! qSign's signatures (Kim et al. sect. 2.1.1) and their exact index by Hamming distance: a
//! word's l of m bits, a sentence's OR of them, and the stored signatures within d bits.

use rustc_hash::FxHashMap;

use super::super::hashing::sha1;
use super::super::prepare::TermId;
use super::super::simhash::BlockIndex;

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
pub(super) fn ball_size(bits: u32, distance: u32) -> usize {
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
pub(super) fn ball_masks(bits: u32, distance: u32) -> Vec<u64> {
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
pub(super) enum SignatureIndex {
    Ball {
        bits: u32,
        masks: Vec<u64>,
        map: FxHashMap<u64, Vec<u32>>,
        count: u32,
    },
    Blocks(BlockIndex),
}

impl SignatureIndex {
    pub(super) fn new(bits: u32, distance: u32) -> Self {
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

    pub(super) fn insert(&mut self, signature: u64) {
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
    pub(super) fn within(&self, signature: u64, distance: u32, out: &mut Vec<u32>) {
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
