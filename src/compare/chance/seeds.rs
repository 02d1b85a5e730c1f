//! Seeds: every pair of sentences unlikely enough by chance to start a passage, found through an
//! index that provably misses none.
//!
//! A pair is a seed when its E-value ([`super::null`]) is at most a bar (by default the number of
//! sentences of both documents: chance then makes about as many seeds as there are sentences, a
//! cost linear in the input, while every pair that could stand as evidence alone, or start a run
//! of weaker ones, is among them).
//!
//! The search is prefix filtering on weights (Chaudhuri, Ganti & Kaushik 2006, *A Primitive
//! Operator for Similarity Joins in Data Cleaning*; Bayardo, Ma & Srikant 2007, *Scaling up
//! All Pairs Similarity Search*): a pair's score is the summed weight of the terms both hold,
//! so if a sentence's terms are sorted by weight, heaviest first, any partner reaching a score
//! of w* shares one of the first terms whose remainder weighs less than w* (its *prefix*). The
//! score needed depends on both lengths (long sentences share more by chance and need more), so
//! both documents' sentences are grouped by length ([`find`]). Rare terms are heavy and their
//! lists short; the common words that make candidate lists quadratic weigh little and fall
//! outside every prefix.

use std::sync::atomic::AtomicBool;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::null::{NullModel, score, score_below_bin, score_bin};
use crate::similarity::{Cancelled, PreparedDoc, check};

/// One seed: two sentences (positions in the documents given) and how unlikely they are.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Seed {
    pub left: u32,
    pub right: u32,
    /// W, the summed weight of the shared terms.
    pub score: f64,
    /// ln P of the pair by chance (its E-value is n m P).
    pub ln_p: f64,
}

/// Sentence lengths (distinct terms) below each group's upper bound share a group: 1, 2-3,
/// 4-7, ..., 64 and more.
fn length_group(len: usize) -> usize {
    (usize::BITS - len.max(1).leading_zeros() - 1).min(6) as usize
}

/// The shortest length of a group.
fn group_shortest(group: usize) -> usize {
    1 << group
}

/// The weighted terms of every active sentence of a document (empty for the others).
pub fn weighted(doc: &PreparedDoc, null: &NullModel) -> Vec<Vec<(u32, f64)>> {
    let mut terms = vec![Vec::new(); doc.sentences.len()];
    for (position, sentence) in doc.active() {
        terms[position as usize] = null.weighted_terms(&sentence.set);
    }
    terms
}

/// One entry of a term's list: a sentence holding the term in its prefix.
struct Posting {
    sentence: u32,
    /// The term's position in the sentence (heaviest first).
    position: u32,
    /// The weight of the sentence's terms from that position on.
    rest: f64,
}

/// The weight of each suffix of a sentence's terms (heaviest first, [`NullModel::weighted_terms`]):
/// `suffix[k]` is the weight of the terms from `k` on.
fn suffix_weights(terms: &[(u32, f64)]) -> Vec<f64> {
    let mut suffix = vec![0.0; terms.len() + 1];
    for k in (0..terms.len()).rev() {
        suffix[k] = suffix[k + 1] + terms[k].1;
    }
    suffix
}

/// The length of the prefix for a score of `needed`: the terms up to the first whose followers
/// weigh less than `needed` (0 when the whole sentence weighs less).
fn prefix_len(suffix: &[f64], needed: f64) -> usize {
    if suffix[0] < needed {
        return 0;
    }
    (0..suffix.len() - 1)
        .find(|&k| suffix[k + 1] < needed)
        .map_or(suffix.len() - 1, |k| k + 1)
}

/// Whether two sentences first met at positions `i` and `j` of their heaviest shared term can
/// still reach `needed`: the shared terms from there on, merged with the bound of what is left
/// on both sides, so most candidates stop after a few terms.
fn may_reach(
    [left, right]: [&[(u32, f64)]; 2],
    [left_suffix, right_suffix]: [&[f64]; 2],
    (mut i, mut j): (usize, usize),
    needed: f64,
) -> bool {
    let mut sum = 0.0;
    while i < left.len() && j < right.len() {
        if sum + left_suffix[i].min(right_suffix[j]) < needed {
            return false;
        }
        match left[i].0.cmp(&right[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                sum += left[i].1;
                i += 1;
                j += 1;
            }
        }
    }
    sum >= needed
}

/// Every pair of active sentences of `left` and `right` with ln P at most `ln_p_bar`, sorted by
/// (left, right). `lengths` are the sentences' numbers of distinct terms (what the length factor
/// uses), `terms` their [`weighted`] terms.
///
/// Both documents' sentences are grouped by length; for a pair of groups, the score needed is
/// that of their shortest members (the lowest any pair of the two groups needs). With all terms
/// in one order, heaviest first, the heaviest term two sentences share lies in both prefixes
/// (whatever follows it in either weighs less than the score needed, or the pair could not reach
/// it), so the right group is indexed by its prefix terms only and probed with each left
/// sentence's prefix: the light, common words are in no list at all.
pub fn find(
    null: &NullModel,
    [left_terms, right_terms]: [&[&[(u32, f64)]]; 2],
    [left_lengths, right_lengths]: [&[usize]; 2],
    ln_p_bar: f64,
    cancel: &AtomicBool,
) -> Result<Vec<Seed>, Cancelled> {
    let suffixes = |terms: &[&[(u32, f64)]]| -> Vec<Vec<f64>> {
        terms.par_iter().map(|t| suffix_weights(t)).collect()
    };
    let (left_suffix, right_suffix) = (suffixes(left_terms), suffixes(right_terms));
    let grouped = |terms: &[&[(u32, f64)]], lengths: &[usize]| -> Vec<Vec<u32>> {
        let mut groups = vec![Vec::new(); 7];
        for (position, t) in terms.iter().enumerate() {
            if !t.is_empty() {
                groups[length_group(lengths[position])].push(position as u32);
            }
        }
        groups
    };
    let left_groups = grouped(left_terms, left_lengths);
    let right_groups = grouped(right_terms, right_lengths);
    let mut seeds = Vec::new();
    for (gl, lefts) in left_groups.iter().enumerate() {
        for (gr, rights) in right_groups.iter().enumerate() {
            if lefts.is_empty() || rights.is_empty() {
                continue;
            }
            check(cancel)?;
            let shortest = null.length_factor(group_shortest(gl), group_shortest(gr));
            let Some(needed_bin) = null.bin_needed(ln_p_bar, shortest) else {
                continue;
            };
            let needed = score_below_bin(needed_bin);
            // Per term: the right sentences holding it in their prefix, with its position there
            // and the weight of their terms from there on (so that most candidates are ruled out
            // without reading the sentence itself).
            let mut index: FxHashMap<u32, Vec<Posting>> = FxHashMap::default();
            for &b in rights {
                let terms = right_terms[b as usize];
                let suffix = &right_suffix[b as usize];
                let k = prefix_len(suffix, needed);
                for (j, &(t, _)) in terms[..k].iter().enumerate() {
                    index.entry(t).or_default().push(Posting {
                        sentence: b,
                        position: j as u32,
                        rest: suffix[j],
                    });
                }
            }
            if index.is_empty() {
                continue;
            }
            let found: Vec<Vec<Seed>> = lefts
                .par_chunks(256)
                .map_init(
                    || vec![u32::MAX; right_terms.len()],
                    |stamp, chunk| -> Result<Vec<Seed>, Cancelled> {
                        check(cancel)?;
                        let mut found = Vec::new();
                        for &a in chunk {
                            let terms = left_terms[a as usize];
                            let suffix = &left_suffix[a as usize];
                            for (i, &(t, _)) in terms[..prefix_len(suffix, needed)].iter().enumerate() {
                                let Some(list) = index.get(&t) else {
                                    continue;
                                };
                                TOUCHES.fetch_add(list.len(), std::sync::atomic::Ordering::Relaxed);
                                let rest = suffix[i];
                                for posting in list {
                                    // Met first at the heaviest shared term: what both hold from
                                    // there on bounds the score (a later meeting, at a lighter
                                    // term, bounds it lower still).
                                    if rest.min(posting.rest) < needed {
                                        continue;
                                    }
                                    let (b, j) = (posting.sentence, posting.position);
                                    if stamp[b as usize] == a {
                                        continue;
                                    }
                                    stamp[b as usize] = a;
                                    let other = right_terms[b as usize];
                                    // The first meeting is at the heaviest shared term.
                                    if !may_reach(
                                        [terms, other],
                                        [suffix, &right_suffix[b as usize]],
                                        (i, j as usize),
                                        needed,
                                    ) {
                                        continue;
                                    }
                                    CANDIDATES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                                    let w = score(terms, other);
                                    if score_bin(w) < needed_bin {
                                        continue;
                                    }
                                    let factor = null.length_factor(
                                        left_lengths[a as usize],
                                        right_lengths[b as usize],
                                    );
                                    let ln_p = null.ln_p(w, factor);
                                    if ln_p <= ln_p_bar {
                                        found.push(Seed {
                                            left: a,
                                            right: b,
                                            score: w,
                                            ln_p,
                                        });
                                    }
                                }
                            }
                        }
                        Ok(found)
                    },
                )
                .collect::<Result<_, _>>()?;
            seeds.extend(found.into_iter().flatten());
        }
    }
    seeds.sort_unstable_by_key(|s| (s.left, s.right));
    if std::env::var_os("SIMDOC_TRACE").is_some() {
        let lists: usize = TOUCHES.load(std::sync::atomic::Ordering::Relaxed);
        eprintln!("candidates {} {lists}", CANDIDATES.load(std::sync::atomic::Ordering::Relaxed));
    }
    Ok(seeds)
}

static CANDIDATES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static TOUCHES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// [`find`] by scoring every pair: what the index must equal, for tests and benchmarks.
pub fn find_brute_force(
    null: &NullModel,
    [left_terms, right_terms]: [&[&[(u32, f64)]]; 2],
    [left_lengths, right_lengths]: [&[usize]; 2],
    ln_p_bar: f64,
) -> Vec<Seed> {
    let mut seeds = Vec::new();
    for (a, terms) in left_terms.iter().enumerate() {
        if terms.is_empty() {
            continue;
        }
        for (b, other) in right_terms.iter().enumerate() {
            if other.is_empty() {
                continue;
            }
            let w = score(terms, other);
            let ln_p = null.ln_p(w, null.length_factor(left_lengths[a], right_lengths[b]));
            if ln_p <= ln_p_bar {
                seeds.push(Seed {
                    left: a as u32,
                    right: b as u32,
                    score: w,
                    ln_p,
                });
            }
        }
    }
    seeds
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_groups_double() {
        assert_eq!(
            [1, 2, 3, 4, 7, 8, 63, 64, 1000].map(length_group),
            [0, 1, 1, 2, 2, 3, 5, 6, 6]
        );
        assert_eq!(length_group(0), 0);
        for g in 0..7 {
            assert_eq!(length_group(group_shortest(g)), g);
        }
    }
}
