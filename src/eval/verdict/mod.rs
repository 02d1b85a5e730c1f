//! Training and cross-validating the learned pair verdict ([`crate::similarity::verdict`]) on
//! labelled sentence-pair sets (MSRP train and PAN tune: `simdoc model train-verdict`).
//!
//! Each set weighs the same in the fit (its pairs are weighted by the mean set size over its
//! own), as each weighs the same in the criteria below: PAN tune has twice MSRP train's pairs
//! and would otherwise decide the fit.
//!
//! Every choice is made on the training sets only, each by a named criterion:
//! 1. the L2 penalty, from a grid of powers of ten (1e-4 to 1e4), by the mean over the sets of
//!    their out-of-fold log loss in k-fold cross-validation (folds drawn within each set, with
//!    a fixed seed);
//! 2. the decision threshold on the probability, from 0.01 to 0.99 by 0.01, by the mean over
//!    the sets of F1 at one common threshold (one default serves both, as for the measured
//!    preset's permission), on the model's predictions for its own training pairs; among the
//!    thresholds within one bootstrap standard error of the best, the one nearest 0.5
//!    ([`choose_threshold`]).
//!
//! The cross-validated figures repeat rule 2 inside each fold (threshold chosen on the nine
//! training folds, applied to the tenth), so the decisions they count are made without the
//! pairs they are counted on; the penalty, one scalar, is chosen once over the same folds.
//! Length bands: the out-of-fold verdict is also scored within quartiles of the pairs' mean
//! length, beside word overlap, because PAN's negatives are longer than its positives.
//!
//! The TF-KLD features read term counts over labelled pairs, so every fit sees them computed
//! from counts without the pairs it is scored on ([`learnt`]); the final verdict stores the
//! counts of all pairs.

mod learnt;
mod threshold;

pub use learnt::{Fitting, TermNames};

use rayon::prelude::*;
use serde::Serialize;

use super::bands::{LengthBand, length_bands};
use super::metrics::{Confusion, Figures, roc_auc};
use crate::model::verdict::StoredTerms;
use crate::similarity::lexical::{Lexical, WordnetWeights};
use crate::similarity::verdict::kld::PRIOR_STRENGTH;
use crate::similarity::verdict::logistic::{self, Logistic};
use crate::similarity::verdict::{
    FEATURE_NAMES, Features, SentenceFacts, pair_features, term_counts,
};
use crate::similarity::{ModelView, Vocabulary};
use crate::text::RefineOptions;
use learnt::{FoldCounts, SentenceTerms, final_design, fold_designs};
use threshold::{Xorshift, choose_threshold, f1_at};

/// One labelled set's pairs as features.
#[derive(Clone, Debug)]
pub struct LabelledFeatures {
    /// The set's name in reports ("msrp train").
    pub name: String,
    pub features: Vec<Features>,
    pub labels: Vec<bool>,
    /// Each pair's mean length in refined terms (for the length bands only; not a feature).
    pub lengths: Vec<f64>,
    /// Each pair's two sentences as distinct terms with counts, for the learnt features.
    pub terms: Vec<[SentenceTerms; 2]>,
}

/// The features of every pair of texts, prepared as the measured preset prepares them, with
/// WordNet's relations (if `model` has them) at `weights`; the learnt ones are 0 (the training
/// computes them per fold). Also each pair's mean length and its sentences' terms, named in
/// `names`.
pub fn features_of<S: AsRef<str> + Sync>(
    pairs: &[(S, S)],
    model: &dyn ModelView,
    weights: WordnetWeights,
    names: &mut TermNames,
) -> (Vec<Features>, Vec<f64>, Vec<[SentenceTerms; 2]>) {
    let texts: Vec<&str> = pairs
        .iter()
        .flat_map(|(a, b)| [a.as_ref(), b.as_ref()])
        .collect();
    let mut vocabulary = Vocabulary::new(model);
    let prepared = vocabulary.prepare_texts_with(&texts, model, &RefineOptions::MEASURED);
    let vocabulary = &vocabulary;
    let name = |t| vocabulary.name(t);
    let facts: Vec<SentenceFacts> = prepared
        .sentences
        .par_iter()
        .map(|s| SentenceFacts::new(s, name))
        .collect();
    let lexical = model.lexicon().map(|lexicon| Lexical { lexicon, weights });
    let sentences = &prepared.sentences;
    let mut terms_of = |i: usize| -> SentenceTerms {
        let mut terms: SentenceTerms = term_counts(&sentences[i])
            .into_iter()
            .map(|(t, n)| (names.id(vocabulary.name(t)), n))
            .collect();
        terms.sort_unstable();
        terms
    };
    let terms = (0..pairs.len())
        .map(|i| [terms_of(2 * i), terms_of(2 * i + 1)])
        .collect();
    let (features, lengths) = (0..pairs.len())
        .into_par_iter()
        .map_init(Vec::new, |dp, i| {
            let (l, r) = (2 * i, 2 * i + 1);
            let f = pair_features(
                &sentences[l],
                &facts[l],
                &sentences[r],
                &facts[r],
                lexical.as_ref(),
                dp,
            );
            let length = (sentences[l].terms.len() + sentences[r].terms.len()) as f64 / 2.0;
            (f, length)
        })
        .unzip();
    (features, lengths, terms)
}

/// The positions in [`FEATURE_NAMES`] of the features `names` name, each a feature's name or
/// the start of several (a group: "bleu" for `bleu1_min` .. `bleu4_max`); an error names one
/// that matches none.
pub fn features_named(names: &[String]) -> Result<Vec<usize>, String> {
    let mut positions = Vec::new();
    for name in names {
        let found: Vec<usize> = FEATURE_NAMES
            .iter()
            .enumerate()
            .filter(|(_, f)| f.starts_with(name.as_str()))
            .map(|(i, _)| i)
            .collect();
        if found.is_empty() {
            return Err(format!(
                "no feature is named {name:?} or starts so; the features: {}",
                FEATURE_NAMES.join(", ")
            ));
        }
        positions.extend(found);
    }
    positions.sort_unstable();
    positions.dedup();
    Ok(positions)
}

/// Sets the features at `positions` to 0 in every pair of a design (`[set][pair]`), so that a
/// fit cannot use them (a constant feature's weight is penalised to 0): the verdict as if they
/// were not computed, for measuring what each adds.
pub fn leave_out(design: &mut [Vec<Features>], positions: &[usize]) {
    for set in design {
        for f in set {
            for &i in positions {
                if let Some(x) = f.get_mut(i) {
                    *x = 0.0;
                }
            }
        }
    }
}

/// The penalties tried (rule 1).
pub fn penalty_grid() -> Vec<f64> {
    (-4..=4).map(|e| 10f64.powi(e)).collect()
}

/// The thresholds tried (rule 2).
pub fn threshold_grid() -> Vec<f64> {
    (1..100).map(|i| f64::from(i) / 100.0).collect()
}

/// A set's figures at one threshold, with the ROC AUC of the probability.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SetFigures {
    pub name: String,
    #[serde(flatten)]
    pub figures: Figures,
    pub auc: Option<f64>,
    pub log_loss: f64,
    /// Mean squared error of the probability against the label (Brier score).
    pub brier: f64,
}

/// One set's out-of-fold verdict against word overlap within bands of pair length.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SetBands {
    pub set: String,
    pub bands: Vec<LengthBand>,
}

/// How to train (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct TrainOptions {
    pub folds: usize,
    /// The WordNet weights the features were computed with (reported and stored).
    pub weights: WordnetWeights,
    /// Features set to 0 before every fit ([`features_named`]).
    pub left_out: Vec<usize>,
    /// The TF-KLD smoothing's prior strength.
    pub prior_strength: f64,
    /// How the training pairs' own TF-KLD features are computed.
    pub fitting: Fitting,
}

impl TrainOptions {
    /// 10 folds, nothing left out, the default prior strength, cross-fitted.
    pub fn new(weights: WordnetWeights) -> TrainOptions {
        TrainOptions {
            folds: 10,
            weights,
            left_out: Vec::new(),
            prior_strength: PRIOR_STRENGTH,
            fitting: Fitting::Cross,
        }
    }
}

/// What `simdoc model train-verdict` found and chose.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrainReport {
    pub folds: usize,
    /// The TF-KLD smoothing's prior strength and how the training pairs' features were fitted.
    pub prior_strength: f64,
    pub fitting: Fitting,
    pub wordnet_weights: WordnetWeights,
    /// (penalty, mean out-of-fold log loss) for each penalty tried.
    pub penalties: Vec<(f64, f64)>,
    pub penalty: f64,
    pub threshold: f64,
    /// Out-of-fold figures per set, each fold decided at the threshold chosen on its training
    /// folds.
    pub cross_validated: Vec<SetFigures>,
    /// The final model's figures on its own training pairs (optimistic; for comparison).
    pub in_sample: Vec<SetFigures>,
    /// Each set's F1 of the out-of-fold probabilities at each threshold of the grid.
    pub threshold_curve: Vec<(f64, Vec<f64>)>,
    pub bands: Vec<SetBands>,
    /// The final model's weights on standardised features, by name.
    pub weights: Vec<(String, f64)>,
    pub intercept: f64,
}

/// A fitted verdict, the term counts of its TF-KLD features and how it was chosen.
pub struct Trained {
    pub regression: Logistic,
    pub terms: StoredTerms,
    pub report: TrainReport,
}

/// The fold of each pair of each set: a seeded shuffle of the set's pairs dealt round-robin.
fn folds_of(sets: &[LabelledFeatures], folds: usize) -> Vec<Vec<usize>> {
    sets.iter()
        .map(|set| {
            let n = set.labels.len();
            let mut order: Vec<usize> = (0..n).collect();
            let mut rng = Xorshift(0x9E37_79B9_7F4A_7C15 ^ n as u64);
            for i in (1..n).rev() {
                order.swap(i, rng.below(i + 1));
            }
            let mut fold = vec![0; n];
            for (rank, &i) in order.iter().enumerate() {
                fold[i] = rank % folds;
            }
            fold
        })
        .collect()
}

/// The rows of `design` (`[set][pair]`, labelled as `sets`) for which `keep(set, pair)`
/// holds, as a matrix, labels and weights (each set's rows weighing the same in all).
fn rows(
    sets: &[LabelledFeatures],
    design: &[Vec<Features>],
    keep: impl Fn(usize, usize) -> bool,
) -> (Vec<Vec<f64>>, Vec<bool>, Vec<f64>) {
    let mut x = Vec::new();
    let mut y = Vec::new();
    let mut set_of = Vec::new();
    for (s, set) in sets.iter().enumerate() {
        for (i, (f, &label)) in design[s].iter().zip(&set.labels).enumerate() {
            if keep(s, i) {
                x.push(f.to_vec());
                y.push(label);
                set_of.push(s);
            }
        }
    }
    let mut counts = vec![0usize; sets.len()];
    for &s in &set_of {
        counts[s] += 1;
    }
    let mean = set_of.len() as f64 / counts.iter().filter(|&&c| c > 0).count().max(1) as f64;
    let w = set_of
        .iter()
        .map(|&s| mean / counts[s].max(1) as f64)
        .collect();
    (x, y, w)
}

fn set_figures(name: &str, p: &[f64], y: &[bool], decided: &[bool]) -> SetFigures {
    let confusion = Confusion::count(y.iter().copied().zip(decided.iter().copied()));
    let brier = p
        .iter()
        .zip(y)
        .map(|(&p, &y)| (p - f64::from(u8::from(y))).powi(2))
        .sum::<f64>()
        / p.len().max(1) as f64;
    SetFigures {
        name: name.to_string(),
        figures: confusion.figures(),
        auc: roc_auc(p, y),
        log_loss: logistic::log_loss(p, y),
        brier,
    }
}

/// Out-of-fold probabilities per set at `penalty`, and each fold's threshold (rule 2 on its
/// training folds); fold `k` is fitted and scored on `designs[k]`.
fn out_of_fold(
    sets: &[LabelledFeatures],
    designs: &[Vec<Vec<Features>>],
    fold_of: &[Vec<usize>],
    penalty: f64,
    with_thresholds: bool,
) -> Result<(Vec<Vec<f64>>, Vec<f64>), logistic::FitError> {
    let fitted: Vec<(Logistic, f64)> = (0..designs.len())
        .into_par_iter()
        .map(|k| {
            let design = &designs[k];
            let (x, y, w) = rows(sets, design, |s, i| fold_of[s][i] != k);
            let model = logistic::fit_weighted(&x, &y, &w, penalty)?;
            let threshold = if with_thresholds {
                let mut probabilities = Vec::new();
                let mut labels: Vec<Vec<bool>> = Vec::new();
                for (s, set) in sets.iter().enumerate() {
                    let (p, l): (Vec<f64>, Vec<bool>) = design[s]
                        .iter()
                        .zip(&set.labels)
                        .enumerate()
                        .filter(|(i, _)| fold_of[s][*i] != k)
                        .map(|(_, (f, &y))| (model.probability(f), y))
                        .unzip();
                    probabilities.push(p);
                    labels.push(l);
                }
                let label_refs: Vec<&[bool]> = labels.iter().map(Vec::as_slice).collect();
                choose_threshold(&probabilities, &label_refs)
            } else {
                0.5
            };
            Ok((model, threshold))
        })
        .collect::<Result<_, _>>()?;
    let probabilities = sets
        .iter()
        .enumerate()
        .map(|(s, set)| {
            (0..set.labels.len())
                .map(|i| {
                    let k = fold_of[s][i];
                    fitted[k].0.probability(&designs[k][s][i])
                })
                .collect()
        })
        .collect();
    Ok((probabilities, fitted.iter().map(|f| f.1).collect()))
}

/// Trains the verdict on `sets`, whose terms `names` names (see the module docs).
pub fn train(
    sets: &[LabelledFeatures],
    names: &TermNames,
    options: &TrainOptions,
) -> Result<Trained, logistic::FitError> {
    let folds = options.folds.max(2);
    let fold_of = folds_of(sets, folds);
    let labels: Vec<&[bool]> = sets.iter().map(|s| s.labels.as_slice()).collect();
    let (m, fitting) = (options.prior_strength, options.fitting);
    let counts = FoldCounts::new(sets, &fold_of, folds, names.len());
    let mut designs = fold_designs(sets, &fold_of, folds, &counts, m, fitting);
    for design in &mut designs {
        leave_out(design, &options.left_out);
    }
    // Rule 1: the penalty.
    let mut penalties = Vec::new();
    for penalty in penalty_grid() {
        let (p, _) = out_of_fold(sets, &designs, &fold_of, penalty, false)?;
        let loss = p
            .iter()
            .zip(&labels)
            .map(|(p, y)| logistic::log_loss(p, y))
            .sum::<f64>()
            / sets.len().max(1) as f64;
        penalties.push((penalty, loss));
    }
    let penalty = penalties
        .iter()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(1.0, |p| p.0);
    // Cross-validated figures, each fold at its own threshold.
    let (oof, fold_thresholds) = out_of_fold(sets, &designs, &fold_of, penalty, true)?;
    drop(designs);
    let oof_decided: Vec<Vec<bool>> = oof
        .iter()
        .enumerate()
        .map(|(s, p)| {
            p.iter()
                .enumerate()
                .map(|(i, &p)| p >= fold_thresholds[fold_of[s][i]])
                .collect()
        })
        .collect();
    let cross_validated = sets
        .iter()
        .enumerate()
        .map(|(s, set)| set_figures(&set.name, &oof[s], &set.labels, &oof_decided[s]))
        .collect();
    // Rule 2 on the final model.
    let mut design = final_design(sets, &fold_of, &counts, m, fitting);
    leave_out(&mut design, &options.left_out);
    let (x, y, w) = rows(sets, &design, |_, _| true);
    let regression = logistic::fit_weighted(&x, &y, &w, penalty)?;
    let in_sample_p: Vec<Vec<f64>> = design
        .iter()
        .map(|set| set.iter().map(|f| regression.probability(f)).collect())
        .collect();
    let threshold = choose_threshold(&in_sample_p, &labels);
    let in_sample = sets
        .iter()
        .zip(&in_sample_p)
        .map(|(set, p)| {
            let decided: Vec<bool> = p.iter().map(|&p| p >= threshold).collect();
            set_figures(&set.name, p, &set.labels, &decided)
        })
        .collect();
    let threshold_curve = threshold_grid()
        .into_iter()
        .map(|t| {
            let f1s = oof
                .iter()
                .zip(&labels)
                .map(|(p, y)| f1_at(p, y, t))
                .collect();
            (t, f1s)
        })
        .collect();
    let bands = sets
        .iter()
        .enumerate()
        .map(|(s, set)| set_bands(set, &oof[s], &oof_decided[s]))
        .collect();
    let report = TrainReport {
        folds,
        prior_strength: m,
        fitting,
        wordnet_weights: options.weights,
        penalties,
        penalty,
        threshold,
        cross_validated,
        in_sample,
        threshold_curve,
        bands,
        weights: FEATURE_NAMES
            .iter()
            .zip(&regression.weights)
            .map(|(n, w)| (n.to_string(), *w))
            .collect(),
        intercept: regression.intercept,
    };
    Ok(Trained {
        regression,
        terms: counts.stored(names, m),
        report,
    })
}

/// The verdict and word overlap within quartiles of pair length.
fn set_bands(set: &LabelledFeatures, p: &[f64], decided: &[bool]) -> SetBands {
    let overlap_min = FEATURE_NAMES
        .iter()
        .position(|n| *n == "overlap_min")
        .unwrap_or(0);
    let overlap: Vec<f64> = set.features.iter().map(|f| f[overlap_min]).collect();
    SetBands {
        set: set.name.clone(),
        bands: length_bands(&set.lengths, &set.labels, p, &overlap, decided),
    }
}

#[cfg(test)]
mod tests;
