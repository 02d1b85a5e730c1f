//! The alignment of a change list: the heaviest chain of sentence pairs going forward in both
//! documents, the longest common subsequence of the two texts taken at the level of matched
//! sentences, which is what a diff keeps in place (Hunt & McIlroy's diff finds it over lines).
//!
//! A chain may stay on one side for a step (A 4 with B 7, then A 4 with B 8: a sentence split in
//! two, or two merged into one) but never on both. It is found pair by pair, not passage by
//! passage: a pair in order with the text around it is in place even when a passage found
//! elsewhere spans it (a passage's box over A 100-120 and B 100-125 does not move the lone pair
//! A 106 - B 109 that lies inside it). A weighted longest non-decreasing subsequence, in
//! O(p log p) for p pairs with a Fenwick tree of prefix maxima over B's positions.

use crate::similarity::ScoredPair;

/// Which of the pairs `members` (indices into `all`) lie on the heaviest chain, one flag per
/// member, each pair weighing one; `b_len` is at least one past the largest B position. Pairs
/// are taken in (A, B) order; a pair may follow any pair at or before it in both documents
/// (not the same place).
pub fn heaviest_chain(all: &[ScoredPair], members: &[usize], b_len: usize) -> Vec<bool> {
    let pairs = |i: usize| &all[members[i]];
    let mut order: Vec<usize> = (0..members.len()).collect();
    order.sort_by_key(|&i| (pairs(i).left, pairs(i).right, i));
    let b_slots = members
        .iter()
        .map(|&m| all[m].right as usize + 1)
        .max()
        .unwrap_or(0)
        .max(b_len);
    let mut tree = PrefixMax::new(b_slots);
    let mut best: Vec<(u64, Option<usize>)> = vec![(0, None); members.len()];
    let mut k = 0;
    while k < order.len() {
        // The pairs of one place (a duplicate of a pair) may not follow one another: all are
        // weighed before any is recorded.
        let place = |i: usize| (pairs(i).left, pairs(i).right);
        let mut end = k;
        while end < order.len() && place(order[end]) == place(order[k]) {
            end += 1;
        }
        for &i in &order[k..end] {
            let (weight_before, previous) = tree.max_through(pairs(i).right as usize);
            best[i] = (weight_before + 1, previous);
        }
        for &i in &order[k..end] {
            tree.raise(pairs(i).right as usize, (best[i].0, i));
        }
        k = end;
    }
    let mut on = vec![false; members.len()];
    let mut at = (0..members.len()).max_by_key(|&i| (best[i].0, std::cmp::Reverse(i)));
    while let Some(i) = at {
        on[i] = true;
        at = best[i].1;
    }
    on
}

/// A Fenwick tree of prefix maxima of (weight, pair) over B's positions.
struct PrefixMax {
    tree: Vec<(u64, Option<usize>)>,
}

impl PrefixMax {
    fn new(len: usize) -> PrefixMax {
        PrefixMax {
            tree: vec![(0, None); len + 1],
        }
    }

    /// Records a chain of `value.0` ending with pair `value.1` at position `at`.
    fn raise(&mut self, at: usize, value: (u64, usize)) {
        let mut i = at + 1;
        while i < self.tree.len() {
            if value.0 > self.tree[i].0 {
                self.tree[i] = (value.0, Some(value.1));
            }
            i += i & i.wrapping_neg();
        }
    }

    /// The heaviest chain ending at or before position `at`, and its last pair.
    fn max_through(&self, at: usize) -> (u64, Option<usize>) {
        let mut best = (0, None);
        let mut i = (at + 1).min(self.tree.len() - 1);
        while i > 0 {
            if self.tree[i].0 > best.0 {
                best = self.tree[i];
            }
            i -= i & i.wrapping_neg();
        }
        best
    }
}
