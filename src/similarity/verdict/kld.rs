//! Features of the pair verdict from weights learnt per word: Ji & Eisenstein, "Discriminative
//! Improvements to Distributional Sentence Similarity" (EMNLP 2013), TF-KLD.
//!
//! Word overlap counts every shared word alike, but whether a word is shared says more for some
//! words than for others: two sentences about the same event share its names and numbers
//! whether or not one rewords the other, while a paraphrase rarely drops a verb that a
//! non-paraphrase replaces. Ji & Eisenstein learn this from labelled pairs. For each word `k`
//! (their section 3, "TF-KLD"):
//!
//! - `p_k` = P(`k` in both sentences | `k` in one of them, the pair is a paraphrase);
//! - `q_k` = the same for pairs that are not;
//! - its weight is the Kullback-Leibler divergence of the two Bernoulli distributions,
//!   `KL(p_k || q_k) = p ln(p / q) + (1 - p) ln((1 - p) / (1 - q))`: large when sharing the
//!   word (or not) tells the labels apart, whichever way.
//!
//! They weight each sentence's term counts by it (TF-KLD), factorise the matrix, and feed a
//! classifier `[v1 + v2, |v1 - v2|]`. Here the weighted vectors enter the logistic regression
//! through cheap symmetric features of the pair instead (no factorisation: EVALUATION.md, "A
//! learned pair verdict", says what was measured), and the signed form of the same counts, the
//! naive-Bayes log-likelihood ratio of the pair's agreement pattern, beside them:
//!
//! | feature | what |
//! |---|---|
//! | `kld_cosine` | cosine of the two TF-KLD vectors (term count x weight), Ji & Eisenstein's weighting |
//! | `kld_dice` | 2 x the weight of the shared distinct terms / the summed weights of both sentences' |
//! | `kld_min`, `kld_max` | the share of each sentence's weight that the other holds, the smaller and the larger |
//! | `kld_llr_sum` | sum over the distinct terms of either sentence of `ln(p / q)` if in both, `ln((1 - p) / (1 - q))` if in one: the log odds that naive Bayes gives the pair from its agreement on each word |
//! | `kld_llr_mean` | that sum over the number of distinct terms |
//! | `kld_unshared_max` | the largest weight of a term in one sentence only |
//!
//! Terms are the prepared terms (stems, stopwords and numbers kept, the measured refinement),
//! counted once per pair. Unseen and rare terms are smoothed towards the rate of all terms: with
//! `both` and `either` a term's counts among one label's pairs and `P` the same label's rate
//! over all terms (sum of `both` / sum of `either`), `p = (both + m P) / (either + m)`, `m` the
//! prior strength ([`PRIOR_STRENGTH`]); a term never seen has `p = P`, `q = Q`.
//!
//! The counts depend on the labels, so the training command learns them inside each
//! cross-validation fold from that fold's training pairs only (`crate::eval::verdict`).

use rustc_hash::FxHashMap;

use crate::model::verdict::{StoredTermCounts, StoredTerms};

/// The features' names, in the order [`kld_features`] returns them.
pub const KLD_NAMES: [&str; KLD_FEATURES] = [
    "kld_cosine",
    "kld_dice",
    "kld_min",
    "kld_max",
    "kld_llr_sum",
    "kld_llr_mean",
    "kld_unshared_max",
];

/// How many.
pub const KLD_FEATURES: usize = 7;

/// The default prior strength `m` of the smoothing (module docs): as many pseudo-pairs as a
/// term's counts must outweigh before its own rates count more than the rate of all terms.
pub const PRIOR_STRENGTH: f64 = 2.0;

/// Rates are kept this far from 0 and 1, so every logarithm is finite.
const EDGE: f64 = 1e-6;

/// A term's rates: P(in both | in either) among paraphrases (`same`) and among the others
/// (`different`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Agreement {
    pub same: f64,
    pub different: f64,
}

impl Agreement {
    /// `KL(same || different)` of the two Bernoulli distributions (module docs).
    pub fn kld(self) -> f64 {
        let (p, q) = (self.same, self.different);
        p * (p / q).ln() + (1.0 - p) * ((1.0 - p) / (1.0 - q)).ln()
    }

    /// The log-likelihood ratio of "in both sentences".
    fn shared(self) -> f64 {
        (self.same / self.different).ln()
    }

    /// The log-likelihood ratio of "in one sentence only".
    fn one_side(self) -> f64 {
        ((1.0 - self.same) / (1.0 - self.different)).ln()
    }

    fn clamped(same: f64, different: f64) -> Agreement {
        Agreement {
            same: same.clamp(EDGE, 1.0 - EDGE),
            different: different.clamp(EDGE, 1.0 - EDGE),
        }
    }
}

/// One term's counts over labelled pairs: pairs of each label that hold it in either sentence
/// and in both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TermCounts {
    pub same_either: u32,
    pub same_both: u32,
    pub different_either: u32,
    pub different_both: u32,
}

impl TermCounts {
    /// Counts one pair that holds the term: `both` if in both sentences, `same` its label.
    pub fn add(&mut self, same: bool, both: bool) {
        let (either, in_both) = if same {
            (&mut self.same_either, &mut self.same_both)
        } else {
            (&mut self.different_either, &mut self.different_both)
        };
        *either += 1;
        *in_both += u32::from(both);
    }

    /// These counts plus `other`'s.
    pub fn plus(self, other: TermCounts) -> TermCounts {
        TermCounts {
            same_either: self.same_either + other.same_either,
            same_both: self.same_both + other.same_both,
            different_either: self.different_either + other.different_either,
            different_both: self.different_both + other.different_both,
        }
    }

    /// These counts without `other`'s (which they include).
    pub fn minus(self, other: TermCounts) -> TermCounts {
        TermCounts {
            same_either: self.same_either.saturating_sub(other.same_either),
            same_both: self.same_both.saturating_sub(other.same_both),
            different_either: self.different_either.saturating_sub(other.different_either),
            different_both: self.different_both.saturating_sub(other.different_both),
        }
    }

    /// The rates over all terms, from these counts summed over them (0.5 where a label has
    /// no pairs).
    pub fn prior(self) -> Agreement {
        let rate = |both: u32, either: u32| {
            if either == 0 {
                0.5
            } else {
                f64::from(both) / f64::from(either)
            }
        };
        Agreement::clamped(
            rate(self.same_both, self.same_either),
            rate(self.different_both, self.different_either),
        )
    }

    /// A term's smoothed rates (module docs) under `prior` with strength `m`.
    pub fn agreement(self, prior: Agreement, m: f64) -> Agreement {
        let rate = |both: u32, either: u32, p: f64| {
            let n = f64::from(either) + m;
            if n <= 0.0 {
                p
            } else {
                (f64::from(both) + m * p) / n
            }
        };
        Agreement::clamped(
            rate(self.same_both, self.same_either, prior.same),
            rate(self.different_both, self.different_either, prior.different),
        )
    }
}

/// The learned rates of every term seen in training, by name, ready to look up.
#[derive(Clone, Debug, PartialEq)]
pub struct TermAgreement {
    prior: Agreement,
    terms: FxHashMap<String, Agreement>,
}

impl TermAgreement {
    /// The rates of stored counts.
    pub fn new(stored: &StoredTerms) -> TermAgreement {
        let counts = |c: &StoredTermCounts| TermCounts {
            same_either: c.same_either,
            same_both: c.same_both,
            different_either: c.different_either,
            different_both: c.different_both,
        };
        let prior = counts(&stored.totals).prior();
        let terms = stored
            .terms
            .iter()
            .map(|(name, c)| (name.clone(), counts(c).agreement(prior, stored.strength)))
            .collect();
        TermAgreement { prior, terms }
    }

    /// The rates of the term `name` (the prior for a term never seen).
    pub fn of(&self, name: &str) -> Agreement {
        self.terms.get(name).copied().unwrap_or(self.prior)
    }
}

/// Counts as stored in a model.
pub fn stored_counts(c: TermCounts) -> StoredTermCounts {
    StoredTermCounts {
        same_either: c.same_either,
        same_both: c.same_both,
        different_either: c.different_either,
        different_both: c.different_both,
    }
}

/// One distinct term of a sentence: its id (any order shared by both sentences), how often the
/// sentence holds it and its rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TermEntry {
    pub term: u32,
    pub count: u32,
    pub agreement: Agreement,
}

/// The features of a pair (module docs) from both sentences' distinct terms, each list sorted
/// by term. Two empty lists give zeros.
pub fn kld_features(a: &[TermEntry], b: &[TermEntry]) -> [f64; KLD_FEATURES] {
    let weight = |e: &TermEntry| e.agreement.kld();
    let (mut i, mut j) = (0, 0);
    let (mut dot, mut norm_a, mut norm_b) = (0.0, 0.0, 0.0);
    let (mut shared, mut sum_a, mut sum_b) = (0.0, 0.0, 0.0);
    let (mut llr, mut distinct, mut unshared_max) = (0.0, 0usize, 0.0f64);
    let mut one_side = |e: &TermEntry, norm: &mut f64, sum: &mut f64| {
        let k = weight(e);
        *norm += (f64::from(e.count) * k).powi(2);
        *sum += k;
        unshared_max = unshared_max.max(k);
        e.agreement.one_side()
    };
    while i < a.len() || j < b.len() {
        distinct += 1;
        let order = match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) => x.term.cmp(&y.term),
            (Some(_), None) => std::cmp::Ordering::Less,
            _ => std::cmp::Ordering::Greater,
        };
        match order {
            std::cmp::Ordering::Less => {
                llr += one_side(&a[i], &mut norm_a, &mut sum_a);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                llr += one_side(&b[j], &mut norm_b, &mut sum_b);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                let (x, y) = (&a[i], &b[j]);
                let k = weight(x);
                let (wa, wb) = (f64::from(x.count) * k, f64::from(y.count) * k);
                dot += wa * wb;
                norm_a += wa * wa;
                norm_b += wb * wb;
                shared += k;
                sum_a += k;
                sum_b += k;
                llr += x.agreement.shared();
                i += 1;
                j += 1;
            }
        }
    }
    let ratio = |x: f64, y: f64| if y > 0.0 { x / y } else { 0.0 };
    let (share_a, share_b) = (ratio(shared, sum_a), ratio(shared, sum_b));
    [
        ratio(dot, (norm_a * norm_b).sqrt()),
        ratio(2.0 * shared, sum_a + sum_b),
        share_a.min(share_b),
        share_a.max(share_b),
        llr,
        ratio(llr, distinct as f64),
        unshared_max,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(term: u32, count: u32, same: f64, different: f64) -> TermEntry {
        TermEntry {
            term,
            count,
            agreement: Agreement { same, different },
        }
    }

    #[test]
    fn the_weight_is_the_divergence_and_zero_when_the_rates_agree() {
        let a = Agreement {
            same: 0.8,
            different: 0.4,
        };
        let expected = 0.8 * 2f64.ln() + 0.2 * (0.2f64 / 0.6).ln();
        assert!((a.kld() - expected).abs() < 1e-12);
        assert_eq!(
            Agreement {
                same: 0.3,
                different: 0.3
            }
            .kld(),
            0.0
        );
    }

    #[test]
    fn counts_are_smoothed_towards_the_rate_of_all_terms() {
        let mut c = TermCounts::default();
        c.add(true, true);
        c.add(true, false);
        c.add(false, false);
        let prior = Agreement {
            same: 0.6,
            different: 0.2,
        };
        // same: (1 + 2 x 0.6) / (2 + 2) = 0.55; different: (0 + 2 x 0.2) / (1 + 2) = 0.4 / 3.
        let a = c.agreement(prior, 2.0);
        assert!((a.same - 0.55).abs() < 1e-12);
        assert!((a.different - 0.4 / 3.0).abs() < 1e-12);
        assert_eq!(TermCounts::default().agreement(prior, 2.0), prior);
        assert_eq!(c.plus(c).minus(c), c);
        // 1 of 2 and 0 of 1.
        assert_eq!(c.prior().same, 0.5);
        assert_eq!(c.prior().different, EDGE);
    }

    #[test]
    fn pair_features_by_hand() {
        // Terms 1 and 2 shared, 3 only in a, 4 only in b.
        let a = [
            entry(1, 2, 0.8, 0.4),
            entry(2, 1, 0.5, 0.5),
            entry(3, 1, 0.2, 0.4),
        ];
        let b = [
            entry(1, 1, 0.8, 0.4),
            entry(2, 1, 0.5, 0.5),
            entry(4, 1, 0.6, 0.3),
        ];
        let [k1, k3, k4] = [a[0], a[2], b[2]].map(|e| e.agreement.kld());
        let f = kld_features(&a, &b);
        let cosine = (2.0 * k1 * k1) / ((4.0 * k1 * k1 + k3 * k3) * (k1 * k1 + k4 * k4)).sqrt();
        assert!((f[0] - cosine).abs() < 1e-12);
        assert!((f[1] - 2.0 * k1 / (2.0 * k1 + k3 + k4)).abs() < 1e-12);
        let shares = [k1 / (k1 + k3), k1 / (k1 + k4)];
        assert!((f[2] - shares[0].min(shares[1])).abs() < 1e-12);
        assert!((f[3] - shares[0].max(shares[1])).abs() < 1e-12);
        let llr = 2f64.ln() + 0.0 + (0.8f64 / 0.6).ln() + (0.4f64 / 0.7).ln();
        assert!((f[4] - llr).abs() < 1e-12);
        assert!((f[5] - llr / 4.0).abs() < 1e-12);
        assert!((f[6] - k3.max(k4)).abs() < 1e-12);
        // Symmetric in the pair; nothing for two empty sentences.
        assert_eq!(f, kld_features(&b, &a));
        assert_eq!(kld_features(&[], &[]), [0.0; KLD_FEATURES]);
    }
}
