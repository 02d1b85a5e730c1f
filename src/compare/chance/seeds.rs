//! Seeds: the sentence pairs a passage can start from, found in time linear in the input.
//!
//! A seed is a pair that (1) shares a *rare feature* (a term, or two terms next to each other,
//! held by so few sentences that the sentences of A and of B holding it form at most
//! [`MAX_HIT_PAIRS`] pairs) and (2) is unlikely by chance: its E-value ([`super::null`]) is at most
//! a bar. The first part is BLAST's word hit (Altschul et al. 1990): an exact shared word is where
//! a search starts, and the pairs it proposes are the only ones scored. Because a feature proposes
//! at most [`MAX_HIT_PAIRS`] pairs, the pairs scored are at most that many times the features the
//! two documents share, whatever their size; the common words that make candidate lists grow
//! with the square of the input propose nothing. What a rare feature misses (a reworded sentence
//! whose every word is common in both documents) is found from its neighbours, when they are
//! seeds, by extension ([`super::links`]).
//!
//! The search is exact for that definition: [`find_brute_force`] scores every pair and keeps the
//! same ones, which the tests check. Repeated sentences are searched once per class (features
//! are counted per sentence, so a sentence repeated a hundred times has only common features and
//! proposes nothing unless it is rare in the other document).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use super::null::{NullModel, score};
use crate::similarity::{Cancelled, PreparedDoc, PreparedSentence, TermId, check};

/// The most sentence pairs a feature may propose (the product of the numbers of sentences of A
/// and of B holding it) to be a hit.
pub const MAX_HIT_PAIRS: u64 = 16;

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

/// The weighted terms of every active sentence of a document (empty for the others).
pub fn weighted(doc: &PreparedDoc, null: &NullModel) -> Vec<Vec<(u32, f64)>> {
    let active: Vec<_> = doc.active().collect();
    let weighed: Vec<(u32, Vec<(u32, f64)>)> = active
        .par_iter()
        .map(|&(position, sentence)| (position, null.weighted_terms(&sentence.set)))
        .collect();
    let mut terms = vec![Vec::new(); doc.sentences.len()];
    for (position, list) in weighed {
        terms[position as usize] = list;
    }
    terms
}

/// Each sentence's weighted terms ([`NullModel::weighted_terms`]), in one list: sentence `i`'s
/// are `terms[starts[i]..starts[i + 1]]`. A pool of 626,000 source sentences kept as one list
/// each held a header, an allocation and its slack per sentence besides the terms.
pub struct WeightedTerms {
    terms: Vec<(u32, f64)>,
    starts: Vec<usize>,
}

impl WeightedTerms {
    /// Sentence `i`'s weighted terms (empty past the end).
    pub fn get(&self, i: usize) -> &[(u32, f64)] {
        match (self.starts.get(i), self.starts.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.terms[a..b],
            _ => &[],
        }
    }

    /// Every sentence's weighted terms, in order.
    pub fn slices(&self) -> Vec<&[(u32, f64)]> {
        self.starts
            .windows(2)
            .map(|w| &self.terms[w[0]..w[1]])
            .collect()
    }
}

/// [`weighted`] for sentences that all take part (a document's class representatives), in
/// their order, read in place (not copied into a document of their own) and weighed a chunk at
/// a time in parallel.
pub fn weighted_sentences(sentences: &[&PreparedSentence], null: &NullModel) -> WeightedTerms {
    let mut terms = Vec::new();
    let mut starts = Vec::with_capacity(sentences.len() + 1);
    starts.push(0);
    for chunk in sentences.chunks(8192) {
        let weighed: Vec<Vec<(u32, f64)>> = chunk
            .par_iter()
            .map(|sentence| {
                if sentence.content().is_empty() {
                    Vec::new()
                } else {
                    null.weighted_terms(&sentence.set)
                }
            })
            .collect();
        for list in weighed {
            terms.extend_from_slice(&list);
            starts.push(terms.len());
        }
    }
    terms.shrink_to_fit();
    WeightedTerms { terms, starts }
}

/// A feature's key: a term (`t` and the marker) or two terms in a row (`t1`, `t2`).
fn term_key(t: TermId) -> u64 {
    (u64::from(t) << 32) | u64::from(u32::MAX)
}

fn bigram_key(first: TermId, second: TermId) -> u64 {
    (u64::from(first) << 32) | u64::from(second)
}

/// A sentence's distinct features: its terms and its pairs of consecutive terms.
fn features(sentence: &PreparedSentence, out: &mut Vec<u64>) {
    out.clear();
    out.extend(sentence.set.iter().map(|&t| term_key(t)));
    out.extend(sentence.terms.windows(2).map(|w| bigram_key(w[0], w[1])));
    out.sort_unstable();
    out.dedup();
}

/// Every (feature, sentence, count) of `sentences` (each taking part unless it has no content
/// term; `counts[i]` is how many sentences sentence `i` stands for), sorted by feature. Only the
/// features are compared: the order of the sentences holding one feature does not matter,
/// since [`hits`] sorts the pairs it proposes. With `within`, only the features it holds (sorted
/// and distinct) are listed: a feature the other side lacks proposes no pair, and against a
/// pool of sources the pool's list would otherwise hold every feature of every source sentence
/// (about 350 MB for 626,000 sentences searched with a document of 325).
fn feature_list(
    sentences: &[&PreparedSentence],
    counts: &[u32],
    within: Option<&[u64]>,
) -> Vec<(u64, u32, u32)> {
    let mut all: Vec<(u64, u32, u32)> = sentences
        .par_iter()
        .enumerate()
        .filter(|(_, s)| !s.content().is_empty())
        .flat_map_iter(|(i, s)| {
            let mut scratch = Vec::new();
            features(s, &mut scratch);
            if let Some(within) = within {
                scratch.retain(|f| within.binary_search(f).is_ok());
            }
            let count = counts.get(i).copied().unwrap_or(1);
            scratch.into_iter().map(move |f| (f, i as u32, count))
        })
        .collect();
    all.par_sort_unstable_by_key(|&(feature, _, _)| feature);
    all
}

/// The candidate pairs (left, right) of two lists of sentences (taking part as in
/// [`feature_list`]) that share a rare feature, sorted and distinct. `counts[side][i]` is how
/// many sentences sentence `i` stands for (its repetition class's size; 1 without classes).
/// The shorter side's features are listed first, and the other side's only where they meet
/// one of them held rarely enough to be a hit.
pub fn hits(sides: [&[&PreparedSentence]; 2], counts: [&[u32]; 2]) -> Vec<(u32, u32)> {
    let first = usize::from(sides[1].len() < sides[0].len());
    let listed = feature_list(sides[first], counts[first], None);
    // The features that can still be hits: held by at most MAX_HIT_PAIRS sentences here (the
    // other side holds each feature it lists at least once)...
    let held: Vec<(u64, u64)> = listed
        .chunk_by(|x, y| x.0 == y.0)
        .map(|run| (run[0].0, run.iter().map(|x| u64::from(x.2)).sum::<u64>()))
        .filter(|&(_, held)| held <= MAX_HIT_PAIRS)
        .collect();
    let wanted: Vec<u64> = held.iter().map(|x| x.0).collect();
    // ... and, counted on the other side, still: a word rare in a document but common in a pool
    // of sources would list every pool sentence holding it.
    let other_held = held_counts(sides[1 - first], counts[1 - first], &wanted);
    let rare: Vec<u64> = held
        .iter()
        .zip(&other_held)
        .filter(|&(&(_, here), &there)| there > 0 && here * there <= MAX_HIT_PAIRS)
        .map(|(&(feature, _), _)| feature)
        .collect();
    drop((wanted, other_held));
    let other = feature_list(sides[1 - first], counts[1 - first], Some(&rare));
    let (left, right) = if first == 0 {
        (listed, other)
    } else {
        (other, listed)
    };
    let chunk = left
        .len()
        .div_ceil(4 * rayon::current_num_threads())
        .max(1024);
    hits_of_lists(&left, &right, chunk)
}

/// How many sentences of `sentences` (each standing for its count, as in [`feature_list`])
/// hold each of `wanted` (sorted and distinct).
fn held_counts(sentences: &[&PreparedSentence], counts: &[u32], wanted: &[u64]) -> Vec<u64> {
    let held: Vec<AtomicU64> = wanted.iter().map(|_| AtomicU64::new(0)).collect();
    sentences
        .par_iter()
        .enumerate()
        .filter(|(_, s)| !s.content().is_empty())
        .for_each_init(Vec::new, |scratch, (i, s)| {
            features(s, scratch);
            let count = u64::from(counts.get(i).copied().unwrap_or(1));
            for f in scratch.iter() {
                if let Ok(k) = wanted.binary_search(f) {
                    held[k].fetch_add(count, Ordering::Relaxed);
                }
            }
        });
    held.into_iter().map(AtomicU64::into_inner).collect()
}

/// The sentences of a document as [`hits`] and [`weighted_sentences`] read them: all of
/// them, those left out replaced by an empty one (which takes no part). A search reads class
/// representatives instead; this is for a document searched whole (tests, benchmarks).
pub fn taking_part(doc: &PreparedDoc) -> Vec<PreparedSentence> {
    doc.sentences
        .iter()
        .zip(&doc.included)
        .map(|(s, &included)| {
            if included {
                s.clone()
            } else {
                PreparedSentence::new(Vec::new(), String::new())
            }
        })
        .collect()
}

/// [`hits`] from the two sorted feature lists: the left list in chunks of about `chunk` entries
/// that end between two features, each merged with the part of the right list holding the same
/// features, in parallel.
fn hits_of_lists(
    left: &[(u64, u32, u32)],
    right: &[(u64, u32, u32)],
    chunk: usize,
) -> Vec<(u32, u32)> {
    let chunk = chunk.max(1);
    let mut bounds = vec![0];
    while let Some(&last) = bounds.last()
        && last < left.len()
    {
        let mut end = (last + chunk).min(left.len());
        if end < left.len() {
            let feature = left[end].0;
            end += left[end..].partition_point(|x| x.0 == feature);
        }
        bounds.push(end);
    }
    let mut pairs: Vec<(u32, u32)> = bounds
        .par_windows(2)
        .flat_map_iter(|w| {
            let part = &left[w[0]..w[1]];
            let (first, last) = (part[0].0, part[part.len() - 1].0);
            let from = right.partition_point(|x| x.0 < first);
            let to = right.partition_point(|x| x.0 <= last);
            merged_hits(part, &right[from..to])
        })
        .collect();
    pairs.par_sort_unstable();
    pairs.dedup();
    pairs
}

/// The pairs proposed by the features both sorted lists hold, where a feature's held counts
/// multiply to at most [`MAX_HIT_PAIRS`].
fn merged_hits(left: &[(u64, u32, u32)], right: &[(u64, u32, u32)]) -> Vec<(u32, u32)> {
    let mut pairs = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < left.len() && j < right.len() {
        let (fl, fr) = (left[i].0, right[j].0);
        if fl < fr {
            i += 1;
            continue;
        }
        if fr < fl {
            j += 1;
            continue;
        }
        let end_i = i + left[i..].partition_point(|x| x.0 == fl);
        let end_j = j + right[j..].partition_point(|x| x.0 == fr);
        let held = |run: &[(u64, u32, u32)]| run.iter().map(|x| u64::from(x.2)).sum::<u64>();
        if held(&left[i..end_i]) * held(&right[j..end_j]) <= MAX_HIT_PAIRS {
            for l in &left[i..end_i] {
                for r in &right[j..end_j] {
                    pairs.push((l.1, r.1));
                }
            }
        }
        i = end_i;
        j = end_j;
    }
    pairs
}

/// The seeds among `candidates` (pairs of sentences given by position, sorted): those with ln P
/// at most `ln_p_bar`. `lengths` are the sentences' numbers of distinct terms (what the length
/// factor uses), `terms` their [`weighted`] terms. Sorted by (left, right).
pub fn find(
    null: &NullModel,
    [left_terms, right_terms]: [&[&[(u32, f64)]]; 2],
    [left_lengths, right_lengths]: [&[usize]; 2],
    candidates: &[(u32, u32)],
    ln_p_bar: f64,
    cancel: &AtomicBool,
) -> Result<Vec<Seed>, Cancelled> {
    let chunks: Vec<Vec<Seed>> = candidates
        .par_chunks(4096)
        .map(|chunk| -> Result<Vec<Seed>, Cancelled> {
            check(cancel)?;
            Ok(chunk
                .iter()
                .filter_map(|&(a, b)| {
                    let (a, b) = (a as usize, b as usize);
                    let w = score(left_terms[a], right_terms[b]);
                    let factor = null.length_factor(left_lengths[a], right_lengths[b]);
                    let ln_p = null.ln_p(w, factor);
                    (ln_p <= ln_p_bar).then_some(Seed {
                        left: a as u32,
                        right: b as u32,
                        score: w,
                        ln_p,
                    })
                })
                .collect())
        })
        .collect::<Result<_, _>>()?;
    Ok(chunks.into_iter().flatten().collect())
}

/// [`hits`] and [`find`] by looking at every pair: what the index must equal, for the tests and
/// for the benchmark that times the index against it (`examples/bench_compare.rs`). Every pair of
/// sentences is checked for a shared rare feature (their sorted features intersected) and, if it
/// has one, scored; only how many sentences hold each feature is counted once beforehand.
pub fn find_brute_force(
    null: &NullModel,
    docs: [&PreparedDoc; 2],
    counts: [&[u32]; 2],
    ln_p_bar: f64,
) -> Vec<Seed> {
    let terms = docs.map(|d| weighted(d, null));
    let lengths = docs.map(|d| d.sentences.iter().map(|s| s.set.len()).collect::<Vec<_>>());
    let sides = docs.map(|d| {
        d.sentences
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let mut f = Vec::new();
                if d.included[i] && !s.content().is_empty() {
                    features(s, &mut f);
                }
                f
            })
            .collect::<Vec<_>>()
    });
    // How many sentences hold each feature, each counted as the sentences it stands for.
    let held: [rustc_hash::FxHashMap<u64, u64>; 2] = [0, 1].map(|side| {
        let mut held = rustc_hash::FxHashMap::default();
        for (i, f) in sides[side].iter().enumerate() {
            let count = u64::from(counts[side].get(i).copied().unwrap_or(1));
            for &feature in f {
                *held.entry(feature).or_insert(0) += count;
            }
        }
        held
    });
    let held_by = |side: usize, feature: u64| held[side].get(&feature).copied().unwrap_or(0);
    sides[0]
        .par_iter()
        .enumerate()
        .flat_map_iter(|(a, fa)| {
            let (terms, lengths, sides) = (&terms, &lengths, &sides);
            sides[1].iter().enumerate().filter_map(move |(b, fb)| {
                let rare = fa
                    .iter()
                    .filter(|f| fb.binary_search(f).is_ok())
                    .any(|&f| held_by(0, f) * held_by(1, f) <= MAX_HIT_PAIRS);
                if !rare {
                    return None;
                }
                let w = score(&terms[0][a], &terms[1][b]);
                let ln_p = null.ln_p(w, null.length_factor(lengths[0][a], lengths[1][b]));
                (ln_p <= ln_p_bar).then_some(Seed {
                    left: a as u32,
                    right: b as u32,
                    score: w,
                    ln_p,
                })
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::Vocabulary;
    use crate::similarity::table::TableModel;
    use crate::text::RefineOptions;
    use std::sync::atomic::AtomicBool;

    /// Sentences of words drawn with a skewed frequency (word `w{k}` about 1/(k+1) as often), so
    /// that some words are rare and some in every other sentence; `copies` repeat sentences.
    fn texts(seed: u64, sentences: usize, vocabulary: u64) -> Vec<String> {
        let mut state = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state >> 33
        };
        (0..sentences)
            .map(|_| {
                let len = 1 + next() % 9;
                (0..len)
                    .map(|_| {
                        let r = next() % (vocabulary * vocabulary);
                        format!("w{}", vocabulary - (r as f64).sqrt() as u64)
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    fn prepared(texts: &[String], vocabulary: &mut Vocabulary, model: &TableModel) -> PreparedDoc {
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        vocabulary.prepare_texts_with(&refs, model, &RefineOptions::MEASURED)
    }

    proptest::proptest! {
        /// The index (rare shared features, then the E-value bar) keeps exactly the pairs that
        /// looking at every pair keeps, with and without sentences standing for repeats.
        #[test]
        fn the_index_finds_what_every_pair_finds(
            seed in 0u64..10_000,
            sizes in (5usize..60, 5usize..60),
            vocabulary in 8u64..80,
            bar in -12.0f64..-1.0,
            repeats in proptest::collection::vec(1u32..4, 60),
            chunk in 1usize..200,
        ) {
            let model = TableModel::new();
            let mut words = Vocabulary::new(&model);
            let left = prepared(&texts(seed, sizes.0, vocabulary), &mut words, &model);
            let right = prepared(&texts(seed + 7, sizes.1, vocabulary), &mut words, &model);
            let null = NullModel::new(&left, &right, None);
            let counts = [&repeats[..sizes.0], &repeats[..sizes.1]];
            let terms = [weighted(&left, &null), weighted(&right, &null)];
            let slices = terms.each_ref().map(|t| t.iter().map(Vec::as_slice).collect::<Vec<_>>());
            let lengths = [&left, &right].map(|d| d.sentences.iter().map(|s| s.set.len()).collect::<Vec<_>>());
            let sides = [taking_part(&left), taking_part(&right)];
            let sides = sides.each_ref().map(|side| side.iter().collect::<Vec<_>>());
            let candidates = hits([&sides[0], &sides[1]], counts);
            // Merged in chunks of any size, the lists propose the same pairs.
            let lists = [feature_list(&sides[0], counts[0], None), feature_list(&sides[1], counts[1], None)];
            proptest::prop_assert_eq!(&hits_of_lists(&lists[0], &lists[1], chunk), &candidates);
            let never = AtomicBool::new(false);
            let found = find(
                &null,
                [&slices[0], &slices[1]],
                [&lengths[0], &lengths[1]],
                &candidates,
                bar,
                &never,
            ).expect("not cancelled");
            let brute = find_brute_force(&null, [&left, &right], counts, bar);
            proptest::prop_assert_eq!(found, brute);
        }
    }

    #[test]
    fn a_feature_held_by_many_sentences_proposes_nothing() {
        let model = TableModel::new();
        let mut words = Vocabulary::new(&model);
        let common: Vec<String> = (0..10).map(|i| format!("shared word x{i}")).collect();
        let left = prepared(&common, &mut words, &model);
        let right = prepared(&common, &mut words, &model);
        let ones = vec![1u32; 10];
        let sides = [taking_part(&left), taking_part(&right)];
        let sides = sides.each_ref().map(|side| side.iter().collect::<Vec<_>>());
        let candidates = hits([&sides[0], &sides[1]], [&ones, &ones]);
        // "shared" and "word" are in all ten sentences of both (100 pairs); each x{i} is a hit.
        assert_eq!(candidates, (0..10).map(|i| (i, i)).collect::<Vec<_>>());
        // Counted as a hundred repeats each, no feature is rare any more.
        let many = vec![100u32; 10];
        assert!(hits([&sides[0], &sides[1]], [&many, &many]).is_empty());
    }
}
