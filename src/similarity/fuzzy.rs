//! The fuzzy-set IR sentence matcher of thesis 3.2.2.
//!
//! - eq. 3.1: c(i,j) = n(i,j) / (n(i) + n(j) - n(i,j)), from the reference model; c(i,i) = 1;
//! - eq. 3.2: mu(i, S_j) = 1 - prod over k in S_j of (1 - c(i,k));
//! - eq. 3.3: Sim(S_i, S_j) = mean of mu(w, S_j) over the words w of S_i;
//! - eq. 3.4: EQ(S_i, S_j) = 1 iff min(Sim(S_i,S_j), Sim(S_j,S_i)) >= permission (0.825) and
//!   |Sim(S_i,S_j) - Sim(S_j,S_i)| <= variation (0.15) ([`super::ScoredPair::is_eq`]).
//!
//! A sentence is read as the *set* of its distinct refined terms (the thesis does not say what a
//! repeated word does; as a set, repeating a word neither adds weight to it in the mean of eq. 3.3
//! nor multiplies its factor in eq. 3.2). A sentence without terms has no similarity to anything.
//!
//! ## Exact candidate generation
//! mu(w, S_j) is 0 unless some k in S_j has c(w,k) > 0 ("w touches S_j"), and never above 1, so
//! Sim(S_i, S_j) <= touched(S_i, S_j) / |S_i|; tighter, a word touching S_j only through
//! correlates has mu(w, S_j) <= 1 - prod(1 - c(w,k)) over all its correlates k present in the
//! right document. The index keeps, per left term, the right sentences holding it and those
//! holding only its correlates, with that bound. For each left sentence it adds up the bounds per
//! right sentence, taking the words with the shortest lists first; once the remaining words
//! could not lift an untouched sentence to the floor they are only looked up (binary search) for
//! the sentences already touched (prefix filtering). Only the right sentences whose bound reaches
//! floor x |S_i| are scored exactly, through the sentence's related terms sorted once (one
//! binary search per right word instead of one per pair of words). No pair that could reach the
//! floor is skipped; [`FuzzyMatcher::score_pairs_brute_force`] scores every pair the thesis's way and the
//! tests check both agree bit for bit.

use std::sync::atomic::AtomicBool;

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use super::{
    Cancelled, Explanation, Method, ModelView, PreparedDoc, PreparedSentence, ScoredPair,
    SentenceMatcher, TermId, TermMatch, Vocabulary, check,
};

/// The fuzzy-set IR matcher.
#[derive(Clone, Copy, Debug, Default)]
pub struct FuzzyMatcher;

/// Sentences with fewer refined terms than this match only a sentence with the same terms.
///
/// Not from the thesis. With one or two words, a single shared word already gives Sim 0.5 both
/// ways ("Guinea is a republic." and the heading "History of Guinea" share "guinea"), which
/// says nothing about reuse; at the measured permission of 0.5 such pairs would flood a document
/// comparison with heading matches. Measured at the measured preset (`simdoc eval pairs ...
/// --preset measured`, with this constant at 0 and at 3): fuzzy F1 on MSRP train 0.748 -> 0.748,
/// PAN train 0.746 -> 0.737 (PAN has two-word fragments among its positives), STS-B 0.486 ->
/// 0.491, WikiSplit 0.924 -> 0.924; in the bundled Guinea example it removes 3 of 88 matched
/// pairs, all three a heading against a short sentence sharing one word.
pub const MIN_TERMS_FOR_SIMILAR: usize = 3;

/// Whether two sentences (as term sets) may match at all: both have at least
/// [`MIN_TERMS_FOR_SIMILAR`] terms, or they have the same terms.
pub fn may_match(left: &[TermId], right: &[TermId]) -> bool {
    (left.len() >= MIN_TERMS_FOR_SIMILAR && right.len() >= MIN_TERMS_FOR_SIMILAR) || left == right
}

/// c(a, b) looked up in a sorted correlate row; 1 for the same term.
fn lookup(row: &[(TermId, f32)], a: TermId, b: TermId) -> f32 {
    if a == b {
        return 1.0;
    }
    row.binary_search_by_key(&b, |&(t, _)| t)
        .map_or(0.0, |i| row[i].1)
}

/// Both directional similarities (eq. 3.2-3.3) of two term sets, given each left term's sorted
/// correlate row. The products are taken in a fixed order (left terms ascending, then right terms
/// ascending), so the indexed and brute-force paths give bit-identical results.
fn directional_sims<'r>(
    left: &[TermId],
    right: &[TermId],
    row_of: impl Fn(TermId) -> Option<&'r [(TermId, f32)]>,
    right_products: &mut Vec<f64>,
) -> (f64, f64) {
    if left.is_empty() || right.is_empty() {
        return (0.0, 0.0);
    }
    right_products.clear();
    right_products.resize(right.len(), 1.0);
    let mut sum_left = 0.0;
    for &w in left {
        let row = row_of(w).unwrap_or(&[]);
        let mut product = 1.0f64;
        for (slot, &k) in right.iter().enumerate() {
            let c = lookup(row, w, k);
            if c > 0.0 {
                let factor = 1.0 - f64::from(c);
                product *= factor;
                right_products[slot] *= factor;
            }
        }
        sum_left += 1.0 - product;
    }
    let sum_right: f64 = right_products.iter().map(|p| 1.0 - p).sum();
    (sum_left / left.len() as f64, sum_right / right.len() as f64)
}

/// Sim(S_i, S_j) and Sim(S_j, S_i) straight from a model (eq. 3.2-3.3), for one pair.
pub fn similarity(left: &[TermId], right: &[TermId], model: &dyn ModelView) -> (f64, f64) {
    let rows = correlate_rows(left.iter().copied(), model, |_| true);
    let mut scratch = Vec::new();
    directional_sims(
        left,
        right,
        |w| rows.get(&w).map(Vec::as_slice),
        &mut scratch,
    )
}

/// For each term, its stored correlates (sorted by id) that pass `keep`.
fn correlate_rows(
    terms: impl Iterator<Item = TermId>,
    model: &dyn ModelView,
    keep: impl Fn(TermId) -> bool + Sync,
) -> FxHashMap<TermId, Vec<(TermId, f32)>> {
    let distinct: FxHashSet<TermId> = terms.collect();
    let distinct: Vec<TermId> = distinct.into_iter().collect();
    distinct
        .into_par_iter()
        .map(|w| {
            let mut row = Vec::new();
            model.correlates(w, &mut row);
            row.retain(|&(k, c)| k != w && c > 0.0 && keep(k));
            row.sort_unstable_by_key(|&(k, _)| k);
            (w, row)
        })
        .collect()
}

/// How one left term touches the right document.
#[derive(Default)]
struct Touch {
    /// Right sentences containing the term itself (mu = 1 there).
    exact: Vec<u32>,
    /// Right sentences containing a stored correlate of it but not the term.
    via_correlates: Vec<u32>,
    /// An upper bound of mu(term, S) for those: 1 - prod(1 - c) over all its correlates that
    /// occur in the right document (a sentence holds a subset of them, whose product is larger).
    bound: f64,
}

/// The index over the right document: per left term, the correlates that occur there and how the
/// term touches the right sentences.
struct Index {
    rows: FxHashMap<TermId, Vec<(TermId, f32)>>,
    touch: FxHashMap<TermId, Touch>,
}

impl Index {
    fn build(left: &PreparedDoc, right: &PreparedDoc, model: &dyn ModelView) -> Index {
        let mut postings: FxHashMap<TermId, Vec<u32>> = FxHashMap::default();
        for (j, sentence) in right.active() {
            for &k in &sentence.set {
                postings.entry(k).or_default().push(j);
            }
        }
        let left_terms = left.active().flat_map(|(_, s)| s.set.iter().copied());
        let rows = correlate_rows(left_terms, model, |k| postings.contains_key(&k));
        let touch = rows
            .par_iter()
            .map(|(&w, row)| {
                let exact: Vec<u32> = postings.get(&w).cloned().unwrap_or_default();
                let mut via: Vec<u32> = Vec::new();
                let mut product = 1.0f64;
                for &(k, c) in row {
                    product *= 1.0 - f64::from(c);
                    if let Some(p) = postings.get(&k) {
                        via.extend_from_slice(p);
                    }
                }
                via.sort_unstable();
                via.dedup();
                via.retain(|j| exact.binary_search(j).is_err());
                let touch = Touch {
                    exact,
                    via_correlates: via,
                    bound: 1.0 - product,
                };
                (w, touch)
            })
            .collect();
        Index { rows, touch }
    }
}

/// For one left sentence: every term it relates to, as `(k, slot of the left word, 1 - c)`,
/// sorted by `k` and then by slot (the left word itself is related with `c = 1`).
fn related_terms(
    set: &[TermId],
    rows: &FxHashMap<TermId, Vec<(TermId, f32)>>,
    related: &mut Vec<(TermId, u32, f64)>,
) {
    related.clear();
    for (slot, &w) in set.iter().enumerate() {
        related.push((w, slot as u32, 0.0));
        for &(k, c) in rows.get(&w).map_or(&[][..], Vec::as_slice) {
            related.push((k, slot as u32, 1.0 - f64::from(c)));
        }
    }
    related.sort_unstable_by_key(|&(k, slot, _)| (k, slot));
}

/// Both directional similarities of a left sentence (given by its [`related_terms`] and size)
/// and a right sentence. The same products and sums as [`directional_sims`], taken in the same
/// order (a left word's factors in ascending right-term order, a right term's factors in
/// ascending left-word order), so the values are bit-identical; but the cost is one binary
/// search per right term instead of one per pair of words.
fn sims_through_related(
    left_len: usize,
    right: &[TermId],
    related: &[(TermId, u32, f64)],
) -> (f64, f64) {
    if left_len == 0 || right.is_empty() {
        return (0.0, 0.0);
    }
    let mut left_products = [1.0f64; 64];
    let mut heap;
    let products: &mut [f64] = if left_len <= left_products.len() {
        &mut left_products[..left_len]
    } else {
        heap = vec![1.0f64; left_len];
        &mut heap
    };
    let mut sum_right = 0.0;
    for &k in right {
        let start = related.partition_point(|&(t, _, _)| t < k);
        let mut product = 1.0f64;
        for &(t, slot, factor) in &related[start..] {
            if t != k {
                break;
            }
            products[slot as usize] *= factor;
            product *= factor;
        }
        sum_right += 1.0 - product;
    }
    let sum_left: f64 = products.iter().map(|p| 1.0 - p).sum();
    (sum_left / left_len as f64, sum_right / right.len() as f64)
}

impl SentenceMatcher for FuzzyMatcher {
    fn method(&self) -> Method {
        Method::Fuzzy
    }

    fn score_pairs(
        &self,
        left: &PreparedDoc,
        right: &PreparedDoc,
        model: &dyn ModelView,
        floor: f64,
        cancel: &AtomicBool,
    ) -> Result<Vec<ScoredPair>, Cancelled> {
        if floor <= 0.0 {
            // Every pair reaches a non-positive floor: there is nothing to prune.
            return Ok(self.score_pairs_brute_force(left, right, model, floor));
        }
        let index = Index::build(left, right, model);
        check(cancel)?;
        let active: Vec<(u32, &PreparedSentence)> = left.active().collect();
        let per_sentence: Result<Vec<Vec<ScoredPair>>, Cancelled> = active
            .par_iter()
            .map_init(
                || (vec![0.0f64; right.sentences.len()], Vec::new(), Vec::new()),
                |(bounds, touched, related), &(i, sentence)| {
                    check(cancel)?;
                    let n = sentence.set.len();
                    // Upper bounds of Sim(S_i, S_j) x n, per right sentence: 1 for each word in
                    // both, the word's bound for each word touching only through correlates.
                    // Words with short lists first; once the words left could not lift an
                    // untouched sentence to the floor, the rest are only looked up for the
                    // sentences already touched (prefix filtering).
                    let empty = Touch::default();
                    let mut words: Vec<&Touch> = sentence
                        .set
                        .iter()
                        .map(|w| index.touch.get(w).unwrap_or(&empty))
                        .collect();
                    words.sort_unstable_by_key(|t| t.exact.len() + t.via_correlates.len());
                    // A hair of slack so that rounding can only admit, never drop, a pair.
                    let needed = floor * n as f64 - 1e-9;
                    touched.clear();
                    let mut rest = words.len();
                    for (at, touch) in words.iter().enumerate() {
                        // Each word adds at most 1: the words from `at` on add at most this.
                        if ((words.len() - at) as f64) < needed {
                            rest = at;
                            break;
                        }
                        for (list, weight) in
                            [(&touch.exact, 1.0), (&touch.via_correlates, touch.bound)]
                        {
                            for &j in list {
                                let bound = &mut bounds[j as usize];
                                if *bound == 0.0 {
                                    touched.push(j);
                                }
                                *bound += weight;
                            }
                        }
                    }
                    let mut candidates: Vec<u32> = Vec::new();
                    for &j in touched.iter() {
                        let mut bound = bounds[j as usize];
                        bounds[j as usize] = 0.0;
                        for (left, touch) in words[rest..].iter().enumerate() {
                            if bound + ((words.len() - rest - left) as f64) < needed {
                                break;
                            }
                            if touch.exact.binary_search(&j).is_ok() {
                                bound += 1.0;
                            } else if touch.via_correlates.binary_search(&j).is_ok() {
                                bound += touch.bound;
                            }
                        }
                        if bound >= needed {
                            candidates.push(j);
                        }
                    }
                    if candidates.is_empty() {
                        return Ok(Vec::new());
                    }
                    candidates.sort_unstable();
                    related_terms(&sentence.set, &index.rows, related);
                    let mut found = Vec::new();
                    for j in candidates {
                        let other = &right.sentences[j as usize];
                        if !may_match(&sentence.set, &other.set) {
                            continue;
                        }
                        let (sim_lr, sim_rl) = sims_through_related(n, &other.set, related);
                        if sim_lr >= floor && sim_rl >= floor {
                            found.push(ScoredPair {
                                left: i,
                                right: j,
                                sim_lr,
                                sim_rl,
                                identical: sentence.terms == other.terms,
                            });
                        }
                    }
                    Ok(found)
                },
            )
            .collect();
        Ok(per_sentence?.into_iter().flatten().collect())
    }

    fn score_pairs_brute_force(
        &self,
        left: &PreparedDoc,
        right: &PreparedDoc,
        model: &dyn ModelView,
        floor: f64,
    ) -> Vec<ScoredPair> {
        // Correlate rows are looked up per term, unrestricted: no knowledge of the right
        // document is used to skip anything.
        let left_terms = left.active().flat_map(|(_, s)| s.set.iter().copied());
        let rows = correlate_rows(left_terms, model, |_| true);
        let right_active: Vec<(u32, &PreparedSentence)> = right.active().collect();
        let active: Vec<(u32, &PreparedSentence)> = left.active().collect();
        active
            .par_iter()
            .map_init(Vec::new, |scratch, &(i, sentence)| {
                let mut found = Vec::new();
                for &(j, other) in &right_active {
                    if !may_match(&sentence.set, &other.set) {
                        continue;
                    }
                    let (sim_lr, sim_rl) = directional_sims(
                        &sentence.set,
                        &other.set,
                        |w| rows.get(&w).map(Vec::as_slice),
                        scratch,
                    );
                    if sim_lr >= floor && sim_rl >= floor {
                        found.push(ScoredPair {
                            left: i,
                            right: j,
                            sim_lr,
                            sim_rl,
                            identical: sentence.terms == other.terms,
                        });
                    }
                }
                found
            })
            .flatten()
            .collect()
    }

    fn explain(
        &self,
        left: &PreparedSentence,
        right: &PreparedSentence,
        vocabulary: &Vocabulary,
        model: &dyn ModelView,
    ) -> Explanation {
        let all = left.set.iter().chain(&right.set).copied();
        let rows = correlate_rows(all, model, |_| true);
        let row = |w: TermId| rows.get(&w).map_or(&[][..], Vec::as_slice);
        let (sim_lr, sim_rl) = similarity(&left.set, &right.set, model);
        let describe = |from: &[TermId], to: &[TermId]| -> Vec<TermMatch> {
            from.iter()
                .map(|&w| {
                    let exact = to.binary_search(&w).is_ok();
                    let mut product = 1.0f64;
                    let mut best: Option<(TermId, f32)> = None;
                    for &k in to {
                        let c = lookup(row(w), w, k);
                        if c > 0.0 {
                            product *= 1.0 - f64::from(c);
                            if k != w && best.is_none_or(|(_, b)| c > b) {
                                best = Some((k, c));
                            }
                        }
                    }
                    TermMatch {
                        term: vocabulary.name(w).to_string(),
                        mu: 1.0 - product,
                        exact,
                        best: if exact {
                            None
                        } else {
                            best.map(|(k, c)| (vocabulary.name(k).to_string(), c))
                        },
                    }
                })
                .collect()
        };
        Explanation {
            method: Method::Fuzzy,
            sim_lr,
            sim_rl,
            left_terms: describe(&left.set, &right.set),
            right_terms: describe(&right.set, &left.set),
            fingerprints: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::table::TableModel;
    use crate::similarity::{ScoredPair, Thresholds};

    fn round2(x: f64) -> f64 {
        (x * 100.0).round() / 100.0
    }

    fn round3(x: f64) -> f64 {
        (x * 1000.0).round() / 1000.0
    }

    fn ids(model: &TableModel, words: &[&str]) -> Vec<TermId> {
        let mut v: Vec<TermId> = words.iter().map(|w| model.term_id(w).unwrap()).collect();
        v.sort_unstable();
        v
    }

    /// Thesis Table 3.3 (Example 1): S1 "The global aid for the tsunami is on the rise.",
    /// S2 "The international community has increased help for the disaster."
    fn table_3_3() -> TableModel {
        let rows = [
            ("international", [0.800, 0.496, 0.579, 0.177]),
            ("community", [0.430, 0.771, 0.117, 0.334]),
            ("increase", [0.123, 0.643, 0.661, 0.900]),
            ("disaster", [0.611, 0.414, 0.900, 0.394]),
        ];
        let columns = ["global", "aid", "tsunami", "rise"];
        let mut model = TableModel::new();
        for (row, values) in rows {
            for (col, c) in columns.iter().zip(values) {
                model.set_correlation(row, col, c);
            }
        }
        model
    }

    #[test]
    fn thesis_table_3_3_example_1_is_eq() {
        let model = table_3_3();
        let s1 = ids(&model, &["global", "aid", "tsunami", "rise"]);
        let s2 = ids(
            &model,
            &["international", "community", "increase", "disaster"],
        );
        let (sim12, sim21) = similarity(&s1, &s2, &model);
        assert_eq!(round3(sim12), 0.973);
        assert_eq!(round3(sim21), 0.966);
        let pair = ScoredPair {
            left: 0,
            right: 0,
            sim_lr: sim12,
            sim_rl: sim21,
            identical: false,
        };
        assert!(pair.is_eq(&Thresholds::THESIS));
    }

    /// Thesis Table 3.4 (Example 2): "Please do not hesitate to contact us." /
    /// "We can be reached by phone."
    #[test]
    fn thesis_table_3_4_example_2_is_not_eq() {
        let mut model = TableModel::new();
        for (row, values) in [
            ("reach", [0.059, 0.038, 0.683]),
            ("phone", [0.058, 0.036, 0.593]),
        ] {
            for (col, c) in ["please", "hesitate", "contact"].iter().zip(values) {
                model.set_correlation(row, col, c);
            }
        }
        let s1 = ids(&model, &["please", "hesitate", "contact"]);
        let s2 = ids(&model, &["reach", "phone"]);
        let (sim12, sim21) = similarity(&s1, &s2, &model);
        // The thesis prints 0.35 and 0.67 (two decimals). To three decimals its own table gives
        // 0.352 and 0.672: its mu for "contact" reads 0.865 where 1 - 0.317 x 0.407 = 0.871.
        assert_eq!((round2(sim12), round2(sim21)), (0.35, 0.67));
        assert_eq!((round3(sim12), round3(sim21)), (0.352, 0.672));
        let pair = ScoredPair {
            left: 0,
            right: 0,
            sim_lr: sim12,
            sim_rl: sim21,
            identical: false,
        };
        assert!(!pair.is_eq(&Thresholds::THESIS));
    }

    #[test]
    fn identical_words_give_one_and_unrelated_zero() {
        let mut model = TableModel::new();
        for w in ["a", "b", "c"] {
            model.add_term(w);
        }
        let ab = ids(&model, &["a", "b"]);
        let abc = ids(&model, &["a", "b", "c"]);
        let c = ids(&model, &["c"]);
        assert_eq!(similarity(&ab, &ab, &model), (1.0, 1.0));
        // The subset case of section 3.2.2: all of S1 is in S2, not vice versa.
        let (s12, s21) = similarity(&ab, &abc, &model);
        assert_eq!(s12, 1.0);
        assert!((s21 - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(similarity(&ab, &c, &model), (0.0, 0.0));
        assert_eq!(similarity(&[], &c, &model), (0.0, 0.0));
    }
}
