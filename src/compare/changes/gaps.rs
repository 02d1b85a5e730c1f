//! Identical text between two aligned pairs: a sentence written the same in both versions, in
//! the same gap of the alignment, is no change even when the comparison did not match it.
//!
//! A comparison judged against chance leaves out matches that are not evidence of reuse: a
//! heading ("History."), a sentence repeated elsewhere in the documents, a text too short to
//! judge. Reuse is not the question a change list asks of two versions of one text: a sentence
//! that reads the same, where the other version has it, did not change. So, in each gap of the
//! alignment (between two consecutive aligned pairs, or before the first or after the last),
//! the sentences that have no pair are paired when their text is the same (whitespace aside),
//! in order, as a line diff pairs equal lines: the heaviest chain of such pairs
//! ([`super::chain`]). Nothing is paired across gaps, so a repeated heading never pairs with
//! one elsewhere, and nothing that differs by a character is paired.

use rustc_hash::FxHashMap;

use super::chain;
use crate::similarity::ScoredPair;

/// The key of a sentence's text for [`same_text_pairs`]: a hash of its words (whitespace
/// collapsed); 0 is kept for "no text".
pub fn text_key(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = rustc_hash::FxHasher::default();
    for word in text.split_whitespace() {
        word.hash(&mut hasher);
    }
    hasher.finish().max(1)
}

/// The pairs of sentences without a pair (`free[side][p]`) whose `keys` are equal and nonzero,
/// within the gaps of `aligned` (sorted by A, going forward in B): per gap, the longest chain in
/// order. Returned as identical [`ScoredPair`]s sorted by (A, B).
pub fn same_text_pairs(
    aligned: &[(u32, u32)],
    free: [&[bool]; 2],
    keys: [&[u64]; 2],
) -> Vec<ScoredPair> {
    let lens = [free[0].len() as u32, free[1].len() as u32];
    // The gaps: [A start, A end) and [B start, B end).
    let mut gaps = Vec::new();
    let mut start = (0u32, 0u32);
    for &(a, b) in aligned {
        gaps.push(([start.0, a], [start.1, b]));
        start = (start.0.max(a + 1), start.1.max(b + 1));
    }
    gaps.push(([start.0, lens[0]], [start.1, lens[1]]));
    let mut found = Vec::new();
    for ([a0, a1], [b0, b1]) in gaps {
        if a0 >= a1 || b0 >= b1 {
            continue;
        }
        // Each text's free positions in B's gap, in order; the i-th occurrence in A's gap is
        // offered the i-th in B's (equal text repeated in one gap pairs up in order).
        let mut in_b: FxHashMap<u64, Vec<u32>> = FxHashMap::default();
        for b in b0..b1 {
            let key = keys[1].get(b as usize).copied().unwrap_or(0);
            if key != 0 && free[1].get(b as usize) == Some(&true) {
                in_b.entry(key).or_default().push(b);
            }
        }
        if in_b.is_empty() {
            continue;
        }
        let mut seen: FxHashMap<u64, usize> = FxHashMap::default();
        let mut candidates = Vec::new();
        for a in a0..a1 {
            let key = keys[0].get(a as usize).copied().unwrap_or(0);
            if key == 0 || free[0].get(a as usize) != Some(&true) {
                continue;
            }
            let Some(positions) = in_b.get(&key) else {
                continue;
            };
            let nth = seen.entry(key).or_default();
            if let Some(&b) = positions.get(*nth) {
                candidates.push(ScoredPair::new(a, b, [1.0, 1.0], true));
            }
            *nth += 1;
        }
        let every: Vec<usize> = (0..candidates.len()).collect();
        let on = chain::heaviest_chain(&candidates, &every, lens[1] as usize);
        found.extend(
            candidates
                .into_iter()
                .zip(on)
                .filter_map(|(pair, on)| on.then_some(pair)),
        );
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_sentences_pair_within_their_gap_only() {
        // Aligned: (2, 2). Gap before: A 0 1 / B 0 1; after: A 3 4 / B 3 4 5.
        let key = |words: &str| text_key(words);
        let a = [
            key("History."),
            key("One two."),
            0,
            key("Notes."),
            key("Three  four."),
        ];
        let b = [
            key("One two."),
            key("Other."),
            0,
            key("Three four."),
            key("History."),
            key("x"),
        ];
        let free = [vec![true; 5], vec![true; 6]];
        let pairs = same_text_pairs(&[(2, 2)], [&free[0], &free[1]], [&a, &b]);
        let places: Vec<(u32, u32)> = pairs.iter().map(|p| (p.left, p.right)).collect();
        // "History." of A's first gap does not pair with B's in the second.
        assert_eq!(places, vec![(1, 0), (4, 3)]);
        assert!(pairs.iter().all(|p| p.identical));
        // A heading before the aligned pair in A and after it in B: no pair at all.
        let a = [key("History."), 0, key("A.")];
        let b = [key("B."), 0, key("History.")];
        let free = [vec![true; 3], vec![true; 3]];
        assert!(same_text_pairs(&[(1, 1)], [&free[0], &free[1]], [&a, &b]).is_empty());
    }
}
