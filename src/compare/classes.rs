//! Repetition classes: sentences with the same refined terms are matched once, as a class.
//!
//! A page that repeats "Reply", a form letter or a heading thousands of times would otherwise
//! multiply pairs without bound: 10,000 copies of one sentence compared with themselves are
//! 10^8 sentence pairs, all with the same scores. Every matcher scores a pair from the two
//! prepared sentences alone, so sentences that are equal once prepared (same terms in the same
//! order, same refined string) score alike against everything. They are grouped into classes
//! ([`SentenceClasses`]); the matcher scores one representative per class, and each scored class
//! pair stands for all the pairs of its members, whose number is kept.
//!
//! What is *shown* is bounded ([`expand`]): when the classes' pairs are few enough
//! ([`MAX_PAIRS_SHOWN`]) every sentence pair is listed, exactly as without classes. Past that,
//! a class pair is listed as a band along its diagonal (the k-th sentence of one class with the
//! k-th of the other and its next neighbours), so that every member of both classes is still in
//! at least one listed pair (highlighting, dotplot and tree shading stay exact) while each
//! sentence of the larger class lists at most a few partners ([`CappedPartners`], reported in the
//! summary). The figures do not depend on that cut: they are computed from the classes and
//! their counts ([`super::class_figures`]).

use rustc_hash::FxHashMap;
use serde::Serialize;

use crate::similarity::{Neighbours, PreparedDoc, PreparedSentence, ScoredPair};

/// Above this many sentence pairs in all, class pairs are listed as bands (see the module docs).
pub const MAX_PAIRS_SHOWN: u64 = 1_000_000;

/// The most partners a sentence of a banded class lists per class pair.
pub const MAX_PARTNERS_SHOWN: u64 = 100;

/// How many class pairs listed in part a summary names one by one (see [`capped_notes`]).
pub const MOST_CAPPED_NOTES: usize = 5;

/// Position of a sentence not in any class (it does not take part).
const NO_CLASS: u32 = u32::MAX;

/// One document's active sentences grouped by their prepared form.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SentenceClasses {
    /// Per sentence position: its class, or [`NO_CLASS`].
    class_of: Vec<u32>,
    /// `offsets[c]..offsets[c + 1]` indexes `members` for class `c`.
    offsets: Vec<u32>,
    /// Sentence positions, class by class, each class in reading order.
    members: Vec<u32>,
}

impl SentenceClasses {
    /// Groups the active sentences of `doc`. Classes are numbered in the reading order of their
    /// first members. Also returns the representatives: one sentence per class, all included,
    /// as a document the matchers can score (its position `c` is class `c`).
    pub fn group(doc: &PreparedDoc) -> (SentenceClasses, PreparedDoc) {
        let classes = SentenceClasses::of(doc);
        let representatives = PreparedDoc {
            sentences: classes.representatives(doc).into_iter().cloned().collect(),
            included: vec![true; classes.len()],
            options: doc.options,
        };
        (classes, representatives)
    }

    /// [`Self::group`] without the copy of the representatives (read them in place with
    /// [`Self::representatives`]): a pool of 626,000 distinct sentences is not held twice.
    pub fn of(doc: &PreparedDoc) -> SentenceClasses {
        let mut class_of = vec![NO_CLASS; doc.sentences.len()];
        let mut by_form: FxHashMap<&PreparedSentence, u32> = FxHashMap::default();
        let mut sizes: Vec<u32> = Vec::new();
        for (position, sentence) in doc.active() {
            let next = sizes.len() as u32;
            let class = *by_form.entry(sentence).or_insert(next);
            if class == next {
                sizes.push(0);
            }
            sizes[class as usize] += 1;
            class_of[position as usize] = class;
        }
        drop(by_form);
        let mut offsets = Vec::with_capacity(sizes.len() + 1);
        offsets.push(0u32);
        for size in &sizes {
            let last = offsets[offsets.len() - 1];
            offsets.push(last + size);
        }
        let mut fill: Vec<u32> = offsets[..sizes.len()].to_vec();
        let mut members = vec![0u32; offsets[sizes.len()] as usize];
        for (position, &class) in class_of.iter().enumerate() {
            if class != NO_CLASS {
                let at = &mut fill[class as usize];
                members[*at as usize] = position as u32;
                *at += 1;
            }
        }
        SentenceClasses {
            class_of,
            offsets,
            members,
        }
    }

    /// Each class's representative in `doc` (the document grouped): its first member.
    pub fn representatives<'d>(&self, doc: &'d PreparedDoc) -> Vec<&'d PreparedSentence> {
        (0..self.len() as u32)
            .filter_map(|c| {
                let first = *self.members(c).first()?;
                doc.sentences.get(first as usize)
            })
            .collect()
    }

    /// Every active sentence a class of its own (for comparisons built from sentence pairs).
    pub fn singletons(active: &[bool]) -> SentenceClasses {
        let mut class_of = vec![NO_CLASS; active.len()];
        let mut members = Vec::new();
        for (position, _) in active.iter().enumerate().filter(|(_, a)| **a) {
            class_of[position] = members.len() as u32;
            members.push(position as u32);
        }
        SentenceClasses {
            class_of,
            offsets: (0..=members.len() as u32).collect(),
            members,
        }
    }

    /// Whether every class holds one sentence (nothing repeats).
    pub fn all_single(&self) -> bool {
        self.len() == self.members.len()
    }

    /// How many classes.
    pub fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The sentence positions of a class, in reading order (empty for an unknown class).
    pub fn members(&self, class: u32) -> &[u32] {
        let c = class as usize;
        match (self.offsets.get(c), self.offsets.get(c + 1)) {
            (Some(&a), Some(&b)) => &self.members[a as usize..b as usize],
            _ => &[],
        }
    }

    /// The class of the sentence at `position`, if it takes part.
    pub fn class_of(&self, position: usize) -> Option<u32> {
        self.class_of
            .get(position)
            .copied()
            .filter(|&c| c != NO_CLASS)
    }

    /// How many sentence positions the document has.
    pub fn positions(&self) -> usize {
        self.class_of.len()
    }
}

/// A class pair listed as a band: its members have more partners than are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CappedPartners {
    /// The first sentence of each class (positions in the left and right documents).
    pub left: u32,
    pub right: u32,
    /// The sizes of the two classes: a left sentence has `sizes[1]` partners, a right one
    /// `sizes[0]`.
    pub sizes: [u64; 2],
    /// The partners listed per sentence of the larger class (the smaller class's sentences
    /// list the band's share of the larger one).
    pub shown: u64,
    /// Whether the two classes' sentences are identical (not only similar).
    pub identical: bool,
}

impl CappedPartners {
    /// The same class pair seen from the other document.
    pub fn swapped(&self) -> CappedPartners {
        CappedPartners {
            left: self.right,
            right: self.left,
            sizes: [self.sizes[1], self.sizes[0]],
            shown: self.shown,
            identical: self.identical,
        }
    }

    /// One line for the summary, e.g. "sentence 12 of A has 9,999 identical partners in B (as
    /// do 9,999 more like it): showing 20 each".
    pub fn describe(&self) -> String {
        let kind = if self.identical {
            "identical"
        } else {
            "similar"
        };
        let (side, other, position, partners, like_it) = if self.sizes[0] >= self.sizes[1] {
            ("A", "B", self.left, self.sizes[1], self.sizes[0] - 1)
        } else {
            ("B", "A", self.right, self.sizes[0], self.sizes[1] - 1)
        };
        let more = if like_it > 0 {
            format!(" (as do {} more like it)", thousands(like_it))
        } else {
            String::new()
        };
        format!(
            "sentence {position} of {side} has {} {kind} partners in {other}{more}: showing {} each",
            thousands(partners),
            self.shown.min(partners)
        )
    }
}

/// The summary's notes on the class pairs listed in part: the `most` with the most pairs in
/// all, largest first, then one line for the rest, so that a long comparison with many small
/// repeated sentences does not print thousands of lines (the JSON report lists every one).
pub fn capped_notes(capped: &[CappedPartners], most: usize) -> Vec<String> {
    let mut largest: Vec<&CappedPartners> = capped.iter().collect();
    largest.sort_by_key(|c| (std::cmp::Reverse(c.sizes[0] * c.sizes[1]), c.left, c.right));
    let mut notes: Vec<String> = largest.iter().take(most).map(|c| c.describe()).collect();
    let rest = capped.len().saturating_sub(most) as u64;
    if rest > 0 {
        notes.push(format!("{} more like these, smaller", thousands(rest)));
    }
    notes
}

/// `n` with its thousands marked: 9,999.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// For each class, the classes of the sentences next to its members in reading order (what a
/// one-to-two match joins); none at all when `one_to_two` is off, since nothing joins then.
pub fn neighbours(classes: &SentenceClasses, one_to_two: bool) -> Neighbours {
    Neighbours::new((0..classes.len() as u32).map(|class| {
        let mut list = Vec::new();
        if one_to_two {
            for &position in classes.members(class) {
                let position = position as usize;
                let before = position.checked_sub(1).and_then(|p| classes.class_of(p));
                list.extend(before.into_iter().chain(classes.class_of(position + 1)));
            }
        }
        list
    }))
}

/// The sentence pairs to list for `class_pairs` (pairs of class ids) and which class pairs were
/// cut to a band (see the module docs). Sorted by (left, right).
pub fn expand(
    class_pairs: &[ScoredPair],
    classes: [&SentenceClasses; 2],
) -> (Vec<ScoredPair>, Vec<CappedPartners>) {
    expand_within(class_pairs, classes, MAX_PAIRS_SHOWN)
}

/// [`expand`] listing at most about `budget` pairs in all.
pub fn expand_within(
    class_pairs: &[ScoredPair],
    classes: [&SentenceClasses; 2],
    budget: u64,
) -> (Vec<ScoredPair>, Vec<CappedPartners>) {
    let sizes = |p: &ScoredPair| -> [u64; 2] {
        [
            classes[0].members(p.left).len() as u64,
            classes[1].members(p.right).len() as u64,
        ]
    };
    let all: u64 = class_pairs
        .iter()
        .map(|p| {
            let [a, b] = sizes(p);
            a * b
        })
        .sum();
    // Band width: the budget spread over the class pairs' larger sides, at least 1.
    let width = if all <= budget {
        u64::MAX
    } else {
        let spread: u64 = class_pairs
            .iter()
            .map(|p| sizes(p)[0].max(sizes(p)[1]))
            .sum();
        (budget / spread.max(1)).clamp(1, MAX_PARTNERS_SHOWN)
    };
    let mut pairs = Vec::new();
    let mut capped = Vec::new();
    for class_pair in class_pairs {
        let left = classes[0].members(class_pair.left);
        let right = classes[1].members(class_pair.right);
        let with = |l: u32, r: u32| ScoredPair {
            left: l,
            right: r,
            ..*class_pair
        };
        let (a, b) = (left.len() as u64, right.len() as u64);
        if a.min(b) <= width {
            for &l in left {
                pairs.extend(right.iter().map(|&r| with(l, r)));
            }
            continue;
        }
        capped.push(CappedPartners {
            left: left[0],
            right: right[0],
            sizes: [a, b],
            shown: width,
            identical: class_pair.identical,
        });
        // Walk the larger class; each of its members takes `width` consecutive members of the
        // smaller class from its proportional place on (every member of both is reached).
        let left_larger = a >= b;
        let (large, small) = if left_larger {
            (left, right)
        } else {
            (right, left)
        };
        let (n_large, n_small) = (large.len() as u64, small.len() as u64);
        for (t, &x) in large.iter().enumerate() {
            let start = t as u64 * n_small / n_large;
            for d in 0..width {
                let y = small[((start + d) % n_small) as usize];
                pairs.push(if left_larger { with(x, y) } else { with(y, x) });
            }
        }
    }
    pairs.sort_unstable_by_key(|p| (p.left, p.right));
    (pairs, capped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::Vocabulary;
    use crate::similarity::table::TableModel;

    fn prepared(texts: &[&str]) -> PreparedDoc {
        let model = TableModel::new();
        Vocabulary::new(&model).prepare_texts(texts, &model)
    }

    fn class_pair(left: u32, right: u32) -> ScoredPair {
        ScoredPair::new(left, right, [1.0, 1.0], true)
    }

    #[test]
    fn equal_prepared_sentences_share_a_class() {
        // "Reply!" and "reply." refine alike; "Why not?" has no content term and takes no part.
        let doc = prepared(&["Reply!", "Alpha beta gamma.", "reply.", "Why not?", "Reply"]);
        let (classes, representatives) = SentenceClasses::group(&doc);
        assert_eq!(classes.len(), 2);
        assert_eq!(classes.members(0), &[0, 2, 4]);
        assert_eq!(classes.members(1), &[1]);
        assert_eq!(classes.class_of(3), None);
        assert_eq!(classes.class_of(4), Some(0));
        assert_eq!(representatives.sentences.len(), 2);
        assert_eq!(representatives.sentences[1], doc.sentences[1]);
    }

    #[test]
    fn the_notes_name_the_largest_class_pairs_and_count_the_rest() {
        let capped = |left: u32, sizes: [u64; 2]| CappedPartners {
            left,
            right: left,
            sizes,
            shown: 1,
            identical: true,
        };
        let all = [
            capped(3, [2, 2]),
            capped(9, [50, 40]),
            capped(1, [2, 3]),
            capped(7, [2, 2]),
        ];
        let notes = capped_notes(&all, 2);
        assert_eq!(
            notes,
            [
                "sentence 9 of A has 40 identical partners in B (as do 49 more like it): \
                 showing 1 each",
                "sentence 1 of B has 2 identical partners in A (as do 2 more like it): showing 1 each",
                "2 more like these, smaller",
            ]
        );
        assert_eq!(capped_notes(&all, 4).len(), 4, "no line for an empty rest");
        assert!(capped_notes(&[], 5).is_empty());
    }

    #[test]
    fn small_classes_expand_to_every_pair() {
        let doc = prepared(&["Reply.", "Other words here.", "Reply."]);
        let (classes, _) = SentenceClasses::group(&doc);
        let (pairs, capped) = expand(&[class_pair(0, 0)], [&classes, &classes]);
        let positions: Vec<(u32, u32)> = pairs.iter().map(|p| (p.left, p.right)).collect();
        assert_eq!(positions, [(0, 0), (0, 2), (2, 0), (2, 2)]);
        assert!(capped.is_empty());
    }

    #[test]
    fn large_classes_expand_to_a_band_that_reaches_every_member() {
        let texts = vec!["Reply."; 3_000];
        let doc = prepared(&texts);
        let (classes, _) = SentenceClasses::group(&doc);
        let other = prepared(&vec!["Reply."; 2_000]);
        let (other_classes, _) = SentenceClasses::group(&other);
        let (pairs, capped) = expand(&[class_pair(0, 0)], [&classes, &other_classes]);
        // 6,000,000 pairs in full; the budget over the larger side gives 333 partners, capped
        // at 100: each of the 3,000 left sentences lists 100.
        assert_eq!(
            capped,
            vec![CappedPartners {
                left: 0,
                right: 0,
                sizes: [3_000, 2_000],
                shown: 100,
                identical: true,
            }]
        );
        assert_eq!(pairs.len(), 300_000);
        let mut left_seen = vec![0u32; 3_000];
        let mut right_seen = vec![0u32; 2_000];
        for p in &pairs {
            left_seen[p.left as usize] += 1;
            right_seen[p.right as usize] += 1;
        }
        assert!(left_seen.iter().all(|&n| n == 100));
        assert!(right_seen.iter().all(|&n| n == 150));
        assert_eq!(
            capped[0].describe(),
            "sentence 0 of A has 2,000 identical partners in B (as do 2,999 more like it): showing 100 each"
        );
    }
}
