//! Features of the pair verdict after the machine-translation metrics of Madnani, Tetreault &
//! Chodorow, "Re-examining machine translation metrics for paraphrase identification" (NAACL
//! 2012). They scored one sentence of a pair as a translation of the other by BLEU, NIST, TER,
//! TERp, METEOR, SEPIA, BADGER and MAXSIM and combined the scores in a classifier; each metric
//! looks at a different kind of agreement (clipped n-gram counts, an alignment's order, edits),
//! and together they beat every one alone on MSRP. Here are the cheap ones, over the prepared
//! terms (Snowball stems, stopwords and numbers kept) so no length enters but as a ratio:
//!
//! | feature | what |
//! |---|---|
//! | `bleu1_min` .. `bleu4_max` | BLEU's modified n-gram precision (Papineni et al. 2002) for n = 1..4, each sentence read as the candidate against the other: shared n-grams with counts clipped / the candidate's n-grams; the smaller and the larger direction (0 for a sentence of fewer than n terms) |
//! | `meteor_min`, `meteor_max` | METEOR's score (Banerjee & Lavie 2005) of each direction: a one-to-one alignment of the terms, first equal terms (equal stems), then WordNet synonyms (a shared lemma or synset); F-mean = 10PR / (R + 9P), times 1 - 0.5 (chunks / matches)^3 |
//! | `meteor_fragmentation` | that alignment's chunks / matches (1 without matches): how broken its order is |
//! | `edit_rate_min`, `edit_rate_max` | TER's edit rate (Snover et al. 2006) without its block shifts: the word-level edit distance (insertions, deletions, substitutions) / the longer and the shorter sentence's length, the latter capped at 1 |
//!
//! TER without shifts (a moved phrase costs its length twice, not one shift) and METEOR's
//! alignment chosen greedily (each term to the nearest free match after the previous one), not
//! by METEOR's search for the fewest chunks, are simplifications; NIST, TERp, BADGER, SEPIA and
//! MAXSIM are not here (they need information weights, paraphrase tables, compression or parses).
//!
//! Tried and left out, as they moved the mean cross-validated log loss by 0.0002 or less once
//! these were in (EVALUATION.md, "A learned pair verdict"): character 2- to 5-gram shares, "both
//! hold the same numbers", agreement of the content words WordNet does not know (a stand-in for
//! named entities: the prepared terms have lost their capitals) and NIST-like overlap weighted by
//! the reference model's document frequencies.
//!
//! What each sentence needs is computed once ([`MtFacts`]); a pair costs merges of sorted lists,
//! one edit-distance table and the alignment.

use std::hash::{Hash, Hasher};

use rustc_hash::FxHasher;

use super::super::lexical::Lexical;
use super::super::{PreparedSentence, TermId};
use crate::model::wordnet::Relation;

/// The features' names, in the order [`mt_features`] returns them.
pub const MT_NAMES: [&str; MT_FEATURES] = [
    "bleu1_min",
    "bleu1_max",
    "bleu2_min",
    "bleu2_max",
    "bleu3_min",
    "bleu3_max",
    "bleu4_min",
    "bleu4_max",
    "meteor_min",
    "meteor_max",
    "meteor_fragmentation",
    "edit_rate_min",
    "edit_rate_max",
];

/// How many.
pub const MT_FEATURES: usize = 13;

/// The longest n-gram of the BLEU features.
const MAX_N: usize = 4;

/// What the features need of one sentence, computed once.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MtFacts {
    /// For n = 1..4: each distinct term n-gram (hashed) with its count, sorted; and how many
    /// n-grams the sentence has.
    ngrams: [(Vec<(u64, u32)>, usize); MAX_N],
}

fn hash_of<T: Hash + ?Sized>(value: &T) -> u64 {
    let mut h = FxHasher::default();
    value.hash(&mut h);
    h.finish()
}

impl MtFacts {
    /// The facts of `sentence`.
    pub fn new(sentence: &PreparedSentence) -> Self {
        let ngrams = std::array::from_fn(|k| {
            let n = k + 1;
            let mut hashed: Vec<u64> = sentence.terms.windows(n).map(hash_of).collect();
            let total = hashed.len();
            hashed.sort_unstable();
            let mut counted: Vec<(u64, u32)> = Vec::with_capacity(hashed.len());
            for h in hashed {
                match counted.last_mut() {
                    Some((last, count)) if *last == h => *count += 1,
                    _ => counted.push((h, 1)),
                }
            }
            (counted, total)
        });
        MtFacts { ngrams }
    }
}

/// The clipped count of n-grams two sorted counted lists share (BLEU's numerator).
fn clipped(a: &[(u64, u32)], b: &[(u64, u32)]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += a[i].1.min(b[j].1) as usize;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

/// `shared / len`, 0 when `len` is 0.
fn ratio(shared: usize, len: usize) -> f64 {
    if len == 0 {
        0.0
    } else {
        shared as f64 / len as f64
    }
}

fn min_max(x: f64, y: f64) -> [f64; 2] {
    [x.min(y), x.max(y)]
}

/// The word-level edit distance of two sequences (`row` is scratch space).
fn edit_distance(a: &[TermId], b: &[TermId], row: &mut Vec<u32>) -> usize {
    row.clear();
    row.extend(0..=b.len() as u32);
    for (i, &x) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i as u32 + 1;
        for (j, &y) in b.iter().enumerate() {
            let above = row[j + 1];
            let substitute = diagonal + u32::from(x != y);
            row[j + 1] = substitute.min(above + 1).min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()] as usize
}

/// Whether two words are one for METEOR's synonym stage: they share a lemma or a synset.
fn synonymous(
    lexical: &Lexical<'_>,
    a: &[crate::model::wordnet::LemmaId],
    b: &[crate::model::wordnet::LemmaId],
) -> bool {
    a.iter().any(|&x| {
        b.iter()
            .any(|&y| x == y || lexical.lexicon.relation(x, y).contains(Relation::SYNONYM))
    })
}

/// The free position of `b` nearest after `after` (then before it) that `fits`.
fn nearest_free(used: &[bool], after: usize, mut fits: impl FnMut(usize) -> bool) -> Option<usize> {
    let forward = (after..used.len()).find(|&j| !used[j] && fits(j));
    forward.or_else(|| {
        (0..after.min(used.len()))
            .rev()
            .find(|&j| !used[j] && fits(j))
    })
}

/// METEOR's alignment of `a`'s terms to `b`'s (see the module docs): for each position of `a`
/// its partner in `b`, if any.
fn align(
    a: &PreparedSentence,
    b: &PreparedSentence,
    lexical: Option<&Lexical<'_>>,
) -> Vec<Option<usize>> {
    let mut partner: Vec<Option<usize>> = vec![None; a.terms.len()];
    let mut used = vec![false; b.terms.len()];
    let mut next = 0;
    for (i, &t) in a.terms.iter().enumerate() {
        if let Some(j) = nearest_free(&used, next, |j| b.terms[j] == t) {
            partner[i] = Some(j);
            used[j] = true;
            next = j + 1;
        }
    }
    if let Some(lexical) = lexical {
        let mut next = 0;
        for (i, &t) in a.terms.iter().enumerate() {
            if let Some(j) = partner[i] {
                next = j + 1;
                continue;
            }
            let lemmas = a.lemmas_of(t);
            if lemmas.is_empty() {
                continue;
            }
            if let Some(j) = nearest_free(&used, next, |j| {
                synonymous(lexical, lemmas, b.lemmas_of(b.terms[j]))
            }) {
                partner[i] = Some(j);
                used[j] = true;
                next = j + 1;
            }
        }
    }
    partner
}

/// METEOR's two directional scores and the fragmentation of the alignment.
fn meteor(partner: &[Option<usize>], la: usize, lb: usize) -> [f64; 3] {
    let mut matches = 0usize;
    let mut chunks = 0usize;
    let mut last: Option<(usize, usize)> = None;
    for (i, p) in partner.iter().enumerate() {
        if let Some(j) = *p {
            matches += 1;
            if last.is_none_or(|(li, lj)| li + 1 != i || lj + 1 != j) {
                chunks += 1;
            }
            last = Some((i, j));
        }
    }
    if matches == 0 {
        return [0.0, 0.0, 1.0];
    }
    let fragmentation = chunks as f64 / matches as f64;
    let penalty = 1.0 - 0.5 * fragmentation.powi(3);
    let (p, r) = (ratio(matches, la), ratio(matches, lb));
    // F-mean with recall weighted 9 to 1, a as the candidate and then b.
    let f = |p: f64, r: f64| 10.0 * p * r / (r + 9.0 * p);
    let [low, high] = min_max(f(p, r) * penalty, f(r, p) * penalty);
    [low, high, fragmentation]
}

/// The features of a pair, in the order of [`MT_NAMES`]; `row` is scratch space.
pub fn mt_features(
    a: &PreparedSentence,
    facts_a: &MtFacts,
    b: &PreparedSentence,
    facts_b: &MtFacts,
    lexical: Option<&Lexical<'_>>,
    row: &mut Vec<u32>,
) -> [f64; MT_FEATURES] {
    let mut out = [0.0; MT_FEATURES];
    for k in 0..MAX_N {
        let ((ga, ta), (gb, tb)) = (&facts_a.ngrams[k], &facts_b.ngrams[k]);
        let shared = clipped(ga, gb);
        let [low, high] = min_max(ratio(shared, *ta), ratio(shared, *tb));
        out[2 * k] = low;
        out[2 * k + 1] = high;
    }
    let (la, lb) = (a.terms.len(), b.terms.len());
    // The greedy alignment depends on which sentence leads: the shorter (then the smaller
    // sequence) does, so that the pair's features do not depend on its order.
    let a_leads = (la, &a.terms) <= (lb, &b.terms);
    let [low, high, fragmentation] = if a_leads {
        meteor(&align(a, b, lexical), la, lb)
    } else {
        meteor(&align(b, a, lexical), lb, la)
    };
    out[8] = low;
    out[9] = high;
    out[10] = fragmentation;
    let edits = edit_distance(&a.terms, &b.terms, row);
    out[11] = ratio(edits, la.max(lb));
    // Over the shorter length the rate has no bound (a two-word line against a long sentence:
    // 20); capped at 1, it stays in the range the training pairs show, where the verdict's
    // weights were fitted, instead of carrying such a pair's probability anywhere.
    out[12] = if la.min(lb) == 0 {
        1.0
    } else {
        ratio(edits, la.min(lb)).min(1.0)
    };
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_word_edits() {
        let mut row = Vec::new();
        assert_eq!(edit_distance(&[1, 2, 3], &[1, 2, 3], &mut row), 0);
        assert_eq!(edit_distance(&[1, 2, 3], &[1, 3], &mut row), 1);
        assert_eq!(edit_distance(&[1, 2, 3], &[4, 2, 3, 5], &mut row), 2);
        assert_eq!(edit_distance(&[], &[4, 5], &mut row), 2);
        assert_eq!(edit_distance(&[1, 2], &[2, 1], &mut row), 2);
    }

    #[test]
    fn clipped_counts_take_the_smaller_count() {
        assert_eq!(clipped(&[(1, 3), (2, 1)], &[(1, 1), (3, 4)]), 1);
        assert_eq!(clipped(&[(1, 2), (2, 1)], &[(1, 2), (2, 5)]), 3);
    }

    #[test]
    fn meteor_counts_chunks_of_an_alignment() {
        // One chunk of three: no penalty beyond 0.5 / 27.
        let [low, high, fragmentation] = meteor(&[Some(0), Some(1), Some(2)], 3, 3);
        assert!((fragmentation - 1.0 / 3.0).abs() < 1e-12);
        assert!((low - (1.0 - 0.5 / 27.0)).abs() < 1e-12 && low == high);
        // Reversed order: three chunks, fragmentation 1, the penalty halves the score.
        let [low, _, fragmentation] = meteor(&[Some(2), Some(1), Some(0)], 3, 3);
        assert_eq!(fragmentation, 1.0);
        assert!((low - 0.5).abs() < 1e-12);
        assert_eq!(meteor(&[None, None], 2, 2), [0.0, 0.0, 1.0]);
    }
}
