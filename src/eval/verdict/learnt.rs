//! The verdict's features that are learnt from labels (TF-KLD,
//! [`crate::similarity::verdict::kld`]), computed without the pairs they are scored on.
//!
//! A term's counts over labelled pairs are what the TF-KLD features read, so a pair's features
//! must never see counts that include its own label: that would leak the label into the
//! cross-validated figures. The counts are kept per fold (sums, so any folds can be left out by
//! subtraction) and each design the fits see is built from counts that leave the right folds
//! out:
//!
//! - fold `k`'s held-out pairs: the counts of every fold but `k`;
//! - fold `k`'s training pairs, in fold `j`: the counts of every fold but `k` and `j`
//!   ("cross-fitted", the default), so that the regression learns how much to trust the
//!   features as they will be at run time, from counts that do not hold the pair; or, plainly,
//!   of every fold but `k` (the counts then hold the pair, and the fit over-trusts them);
//! - the final model's pairs, in fold `j`: the counts of every fold but `j` (or, plainly, all);
//!   the stored counts are those of all pairs.

use rustc_hash::FxHashMap;

use super::LabelledFeatures;
use crate::model::verdict::StoredTerms;
use crate::similarity::verdict::kld::{
    Agreement, TermCounts, TermEntry, kld_features, stored_counts,
};
use crate::similarity::verdict::{Features, LEARNT_FEATURES};

/// Term names shared by every set's pairs, so that counts add up across sets.
#[derive(Clone, Debug, Default)]
pub struct TermNames {
    names: Vec<String>,
    ids: FxHashMap<String, u32>,
}

impl TermNames {
    /// The id of `name`, given a new one if it has none.
    pub fn id(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(name.to_string());
        self.ids.insert(name.to_string(), id);
        id
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// One sentence's distinct terms (ids of [`TermNames`]) with their counts, sorted by id.
pub type SentenceTerms = Vec<(u32, u32)>;

/// Each term's counts over the pairs of each fold (`[fold][term]`).
pub struct FoldCounts {
    per_fold: Vec<Vec<TermCounts>>,
    total: Vec<TermCounts>,
}

impl FoldCounts {
    /// Counts every pair of `sets` into its fold (`fold_of[set][pair]`).
    pub fn new(
        sets: &[LabelledFeatures],
        fold_of: &[Vec<usize>],
        folds: usize,
        terms: usize,
    ) -> Self {
        let mut per_fold = vec![vec![TermCounts::default(); terms]; folds];
        for (s, set) in sets.iter().enumerate() {
            for (i, [a, b]) in set.terms.iter().enumerate() {
                let counts = &mut per_fold[fold_of[s][i]];
                let label = set.labels[i];
                merge(a, b, |term, both| {
                    if let Some(c) = counts.get_mut(term as usize) {
                        c.add(label, both);
                    }
                });
            }
        }
        let mut total = vec![TermCounts::default(); terms];
        for fold in &per_fold {
            for (t, c) in total.iter_mut().zip(fold) {
                *t = t.plus(*c);
            }
        }
        FoldCounts { per_fold, total }
    }

    /// The counts of every fold but those in `left_out`.
    fn without(&self, left_out: &[usize]) -> Vec<TermCounts> {
        let mut counts = self.total.clone();
        for &f in left_out {
            if let Some(fold) = self.per_fold.get(f) {
                for (c, x) in counts.iter_mut().zip(fold) {
                    *c = c.minus(*x);
                }
            }
        }
        counts
    }

    /// All counts as a verdict stores them, with the names of `names`.
    pub fn stored(&self, names: &TermNames, strength: f64) -> StoredTerms {
        let mut terms: Vec<(String, _)> = names
            .names
            .iter()
            .zip(&self.total)
            .filter(|(_, c)| c.same_either + c.different_either > 0)
            .map(|(n, c)| (n.clone(), stored_counts(*c)))
            .collect();
        terms.sort_by(|a, b| a.0.cmp(&b.0));
        StoredTerms {
            strength,
            totals: stored_counts(sum(&self.total)),
            terms,
        }
    }
}

fn sum(counts: &[TermCounts]) -> TermCounts {
    counts.iter().fold(TermCounts::default(), |a, c| a.plus(*c))
}

/// Calls `f(term, in_both)` once for each distinct term of either sorted list.
fn merge(a: &SentenceTerms, b: &SentenceTerms, mut f: impl FnMut(u32, bool)) {
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x.0 == y.0 => {
                f(x.0, true);
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x.0 < y.0 => {
                f(x.0, false);
                i += 1;
            }
            (Some(x), None) => {
                f(x.0, false);
                i += 1;
            }
            (_, Some(y)) => {
                f(y.0, false);
                j += 1;
            }
            (None, None) => break,
        }
    }
}

/// Sets a pair's learnt features from `counts`, whose rate over all terms is `prior`.
fn fill(
    features: &mut Features,
    terms: &[SentenceTerms; 2],
    counts: &[TermCounts],
    prior: Agreement,
    m: f64,
) {
    let entries = |sentence: &SentenceTerms| -> Vec<TermEntry> {
        sentence
            .iter()
            .map(|&(term, count)| TermEntry {
                term,
                count,
                agreement: counts
                    .get(term as usize)
                    .copied()
                    .unwrap_or_default()
                    .agreement(prior, m),
            })
            .collect()
    };
    let learnt = kld_features(&entries(&terms[0]), &entries(&terms[1]));
    features[LEARNT_FEATURES].copy_from_slice(&learnt);
}

/// How the training pairs' own learnt features are computed (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Fitting {
    /// From counts that leave out the pair's own fold too.
    Cross,
    /// From the counts the held-out pairs see, the pair's own included.
    Plain,
}

/// The features of every pair of every set with the learnt ones computed from counts that
/// leave out the folds `left_out(fold of the pair)` names. Counts left out the same way are
/// computed once.
fn design(
    sets: &[LabelledFeatures],
    fold_of: &[Vec<usize>],
    counts: &FoldCounts,
    m: f64,
    left_out: impl Fn(usize) -> Vec<usize>,
) -> Vec<Vec<Features>> {
    let mut tables: FxHashMap<Vec<usize>, (Vec<TermCounts>, Agreement)> = FxHashMap::default();
    sets.iter()
        .enumerate()
        .map(|(s, set)| {
            set.features
                .iter()
                .zip(&set.terms)
                .enumerate()
                .map(|(i, (f, terms))| {
                    let mut key = left_out(fold_of[s][i]);
                    key.sort_unstable();
                    key.dedup();
                    let (table, prior) = tables.entry(key.clone()).or_insert_with(|| {
                        let table = counts.without(&key);
                        let prior = sum(&table).prior();
                        (table, prior)
                    });
                    let mut f = *f;
                    fill(&mut f, terms, table, *prior, m);
                    f
                })
                .collect()
        })
        .collect()
}

/// The designs of the cross-validation's fits, `[fold][set][pair]`: fold `k`'s held-out pairs
/// from the counts without fold `k`, its training pairs as `fitting` says.
pub fn fold_designs(
    sets: &[LabelledFeatures],
    fold_of: &[Vec<usize>],
    folds: usize,
    counts: &FoldCounts,
    m: f64,
    fitting: Fitting,
) -> Vec<Vec<Vec<Features>>> {
    (0..folds)
        .map(|k| {
            design(sets, fold_of, counts, m, |j| match fitting {
                Fitting::Cross if j != k => vec![k, j],
                _ => vec![k],
            })
        })
        .collect()
}

/// The design of the final fit, `[set][pair]`: each pair from the counts without its own fold
/// (cross-fitted) or from all counts (plainly).
pub fn final_design(
    sets: &[LabelledFeatures],
    fold_of: &[Vec<usize>],
    counts: &FoldCounts,
    m: f64,
    fitting: Fitting,
) -> Vec<Vec<Features>> {
    design(sets, fold_of, counts, m, |j| match fitting {
        Fitting::Cross => vec![j],
        Fitting::Plain => Vec::new(),
    })
}
