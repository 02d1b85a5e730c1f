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
//! Sim(S_i, S_j) <= touched(S_i, S_j) / |S_i|. A pair can reach the floor only if at least
//! t = ceil(floor x |S_i|) words of S_i touch S_j, hence only if one of any |S_i| - t + 1 of
//! them does (prefix filtering). For each left sentence the index takes the |S_i| - t + 1 words
//! with the shortest *touch lists* (right sentences containing the word or a stored correlate),
//! unites those lists and scores the candidates exactly. No pair that could reach the floor is
//! skipped; [`FuzzyMatcher::score_pairs_brute_force`] scores every pair the thesis's way and the
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

/// The index over the right document: postings and, per left term, its touch list.
struct Index {
    rows: FxHashMap<TermId, Vec<(TermId, f32)>>,
    touch: FxHashMap<TermId, Vec<u32>>,
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
                let mut list: Vec<u32> = postings.get(&w).cloned().unwrap_or_default();
                for &(k, _) in row {
                    if let Some(p) = postings.get(&k) {
                        list.extend_from_slice(p);
                    }
                }
                list.sort_unstable();
                list.dedup();
                (w, list)
            })
            .collect();
        Index { rows, touch }
    }
}

/// The smallest number of a sentence's `n` words that must touch the other sentence for
/// Sim to reach `floor` (never 0: at least one word must touch). Rounded down a hair so float
/// error can only add candidates, never drop one.
fn min_touching(n: usize, floor: f64) -> usize {
    ((floor * n as f64 - 1e-9).ceil().max(1.0)) as usize
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
                || {
                    (
                        vec![u32::MAX; right.sentences.len()],
                        Vec::new(),
                        Vec::new(),
                    )
                },
                |(stamp, candidates, scratch), &(i, sentence)| {
                    check(cancel)?;
                    let n = sentence.set.len();
                    let needed = min_touching(n, floor);
                    if needed > n {
                        return Ok(Vec::new());
                    }
                    let mut words: Vec<&[u32]> = sentence
                        .set
                        .iter()
                        .map(|w| index.touch.get(w).map_or(&[][..], Vec::as_slice))
                        .collect();
                    words.sort_unstable_by_key(|list| list.len());
                    candidates.clear();
                    for list in &words[..n - needed + 1] {
                        for &j in *list {
                            if stamp[j as usize] != i {
                                stamp[j as usize] = i;
                                candidates.push(j);
                            }
                        }
                    }
                    candidates.sort_unstable();
                    let mut found = Vec::new();
                    for &j in candidates.iter() {
                        let other = &right.sentences[j as usize];
                        let (sim_lr, sim_rl) = directional_sims(
                            &sentence.set,
                            &other.set,
                            |w| index.rows.get(&w).map(Vec::as_slice),
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

    #[test]
    fn min_touching_is_conservative() {
        assert_eq!(min_touching(3, 0.5), 2);
        assert_eq!(min_touching(4, 0.5), 2);
        assert_eq!(min_touching(1, 0.5), 1);
        assert_eq!(min_touching(10, 0.3), 3);
        assert_eq!(min_touching(5, 0.01), 1);
    }
}
