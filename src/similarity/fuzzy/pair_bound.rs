//! A first, cheaper look at a candidate pair under WordNet's relations: the unaligned bound of
//! [`super::pair_relations`] computed straight from the left sentence's [`LemmaRelations`]
//! and the right sentence's lemmas, without listing the pair's links ([`PairBound::may_keep`]).
//!
//! Most candidates of the per-stem index miss the floor by their own words (on the
//! 5,000-sentence benchmark, `bench_compare presets`, about three in four), and
//! [`PairRelations::fill`](super::pair_relations::PairRelations::fill) spent most of its time
//! on them: sorting each right word's links and then all of them by left word, and merging the
//! two term sets to find the shared ones. Here the shared terms are one array read per right
//! term (the left sentence's terms are marked once, in a table by term id), and each link
//! multiplies its factor into the products of both its words as it is read, in whatever order
//! the lemmas give it. Only a pair this bound lets through has its links listed and is bounded
//! again, exactly, then aligned.
//!
//! ## Why it is an upper bound
//! Per word it is the bound of [`super::pair_relations`]: 1 for a counted word the other
//! sentence holds, else 1 - prod (1 - c) over its links to the other sentence's counted words
//! that this one lacks. A right word with several lemmas may give a left word more than one
//! link; each adds a factor in [0, 1] (the aligned Sims take one, the largest `c`), so the
//! product can only shrink and the bound only grow. In real numbers that makes it at least the
//! aligned Sims; its products and sums are not taken in their order, so in floating point it
//! may fall short of them by a few units in the last place, and it rules a pair out only when
//! it misses a floor by more than [`SLACK`], which is far more than that (a product of 64
//! factors rounds by under 64 x 2^-53, about 1e-14).

use super::pair_relations::{LemmaRelations, content_flags, may_reach_floors};
use super::*;

/// How far below a floor the bound must fall for a pair to be ruled out: rounding in the
/// bound's own order of products and sums, against the aligned Sims' order, moves either by
/// less than 1e-12 for sentences of thousands of terms.
const SLACK: f64 = 1e-9;

/// A slot of the other sentence holding no such term.
const ABSENT: u32 = u32::MAX;

/// The left sentence's terms by term id, and the scratch space of one pair's bound, reused
/// from pair to pair.
#[derive(Default)]
pub(super) struct PairBound {
    /// The slots of the left sentence's terms, by term.
    left_slots: SlotTable,
    /// Per left slot, whether it is a content term.
    left_content: Vec<bool>,
    right_content: Vec<bool>,
    /// Per slot, the other sentence's slot of the same term ([`ABSENT`] if none).
    left_partner: Vec<u32>,
    right_partner: Vec<u32>,
    /// Per slot, the products of (1 - c) over its links to words the other sentence lacks:
    /// over the whole sets, and over the content terms.
    left_products: Vec<[f64; 2]>,
    right_products: Vec<[f64; 2]>,
}

impl PairBound {
    /// Marks the terms of `left`, the sentence whose candidates [`Self::may_keep`] looks at.
    pub(super) fn prepare(&mut self, left: &PreparedSentence) {
        self.left_slots.fill(&left.set);
        content_flags(left, &mut self.left_content);
    }

    /// Whether the aligned Sims of `left` (the sentence of the last [`Self::prepare`], whose
    /// lemma relations `relations` holds) with `right` may keep the pair at `floor`, as
    /// [`PairRelations::may_keep`](super::pair_relations::PairRelations::may_keep) decides it
    /// (one direction reaching the floor, both with `both_ways_only`; each direction's content
    /// terms held to the content floor), by the looser bound of the module docs. `false` only
    /// for a pair whose aligned Sims would not keep it; `true` under [`Relate::All`], which the
    /// bound does not bound.
    pub(super) fn may_keep(
        &mut self,
        relations: &LemmaRelations,
        left: &PreparedSentence,
        right: &PreparedSentence,
        rules: &MatchRules,
        floor: f64,
        both_ways_only: bool,
    ) -> bool {
        if rules.relate != Relate::Aligned || floor <= 0.0 {
            return true;
        }
        self.multiply_links(relations, left, right);
        may_reach_floors(
            left.has_stopwords() || right.has_stopwords(),
            |content| self.sums(content),
            [rules.content_floor - SLACK, floor - SLACK],
            both_ways_only,
        )
    }

    /// Finds the shared terms and content flags of the pair, and multiplies each link's factor
    /// into the products of its two words.
    fn multiply_links(
        &mut self,
        relations: &LemmaRelations,
        left: &PreparedSentence,
        right: &PreparedSentence,
    ) {
        let (n, m) = (left.set.len(), right.set.len());
        self.left_partner.clear();
        self.left_partner.resize(n, ABSENT);
        self.right_partner.clear();
        for (r, &k) in right.set.iter().enumerate() {
            let l = self.left_slots.slot_of(k);
            self.right_partner.push(l);
            if l != ABSENT {
                self.left_partner[l as usize] = r as u32;
            }
        }
        content_flags(right, &mut self.right_content);
        self.left_products.clear();
        self.left_products.resize(n, [1.0; 2]);
        self.right_products.clear();
        self.right_products.resize(m, [1.0; 2]);
        let (left_content, right_content) = (&self.left_content, &self.right_content);
        for r in 0..m {
            let lemmas = right.lemmas_at(r);
            if lemmas.is_empty() {
                continue;
            }
            let partner = self.right_partner[r];
            // Whether the left sentence lacks this word: among all its terms, and among its
            // content terms (the word then counted only if it is one of the right's).
            let lacked = partner == ABSENT;
            let lacked_content = right_content[r] && (lacked || !left_content[partner as usize]);
            for &lemma in lemmas {
                for &(_, l, c) in relations.of(lemma) {
                    let factor = 1.0 - f64::from(c);
                    let l = l as usize;
                    let left_partner = self.left_partner[l];
                    let product = &mut self.left_products[l];
                    if lacked {
                        product[0] *= factor;
                    }
                    if lacked_content {
                        product[1] *= factor;
                    }
                    let product = &mut self.right_products[r];
                    if left_partner == ABSENT {
                        product[0] *= factor;
                    }
                    if left_content[l]
                        && (left_partner == ABSENT || !right_content[left_partner as usize])
                    {
                        product[1] *= factor;
                    }
                }
            }
        }
    }

    /// The bounds of both directional Sims of `left` (the sentence of the last
    /// [`Self::prepare`]) and `right`, over the content terms or the whole sets.
    #[cfg(test)]
    pub(super) fn bounds(
        &mut self,
        relations: &LemmaRelations,
        left: &PreparedSentence,
        right: &PreparedSentence,
        content: bool,
    ) -> (f64, f64) {
        self.multiply_links(relations, left, right);
        self.sums(content)
    }

    /// The bounds of both directional Sims from the products [`Self::multiply_links`] left,
    /// over the content terms or the whole sets.
    fn sums(&self, content: bool) -> (f64, f64) {
        let at = usize::from(content);
        let side = |partner: &[u32], own: &[bool], other: &[bool], products: &[[f64; 2]]| {
            let (mut sum, mut counted) = (0.0, 0usize);
            for slot in 0..partner.len() {
                if content && !own[slot] {
                    continue;
                }
                counted += 1;
                let p = partner[slot];
                sum += if p != ABSENT && (!content || other[p as usize]) {
                    1.0
                } else {
                    1.0 - products[slot][at]
                };
            }
            (counted > 0).then(|| sum / counted as f64)
        };
        let lr = side(
            &self.left_partner,
            &self.left_content,
            &self.right_content,
            &self.left_products,
        );
        let rl = side(
            &self.right_partner,
            &self.right_content,
            &self.left_content,
            &self.right_products,
        );
        match (lr, rl) {
            (Some(lr), Some(rl)) => (lr, rl),
            _ => (0.0, 0.0),
        }
    }
}

/// The slots of one sentence's terms by term: an open-addressing hash table of twice as many
/// entries as terms, or more, which stays in the first level of cache. (A table indexed by term
/// id spans the vocabulary, the reference model's included: a right term looked up there was a
/// cache miss, a third of the bound's time.)
#[derive(Default)]
struct SlotTable {
    /// (term, 1 + slot); (_, 0) is an empty entry.
    entries: Vec<(TermId, u32)>,
}

impl SlotTable {
    /// The slots of `set` (distinct terms).
    fn fill(&mut self, set: &[TermId]) {
        let len = (2 * set.len()).next_power_of_two().max(16);
        self.entries.clear();
        self.entries.resize(len, (0, 0));
        let mask = len - 1;
        for (slot, &t) in set.iter().enumerate() {
            let mut at = Self::home(t, mask);
            while self.entries[at].1 != 0 {
                at = (at + 1) & mask;
            }
            self.entries[at] = (t, slot as u32 + 1);
        }
    }

    /// The slot of `term`, [`ABSENT`] if the set lacks it.
    fn slot_of(&self, term: TermId) -> u32 {
        let mask = self.entries.len().wrapping_sub(1);
        if self.entries.is_empty() {
            return ABSENT;
        }
        let mut at = Self::home(term, mask);
        loop {
            match self.entries[at] {
                (_, 0) => return ABSENT,
                (t, slot) if t == term => return slot - 1,
                _ => at = (at + 1) & mask,
            }
        }
    }

    /// Where `term`'s probe starts (Fibonacci hashing: the high bits of the product).
    fn home(term: TermId, mask: usize) -> usize {
        (u64::from(term).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask
    }
}
