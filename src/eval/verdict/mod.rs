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

use rayon::prelude::*;
use serde::Serialize;

use super::bands::{LengthBand, length_bands};
use super::metrics::{Confusion, Figures, roc_auc};
use crate::similarity::lexical::{Lexical, WordnetWeights};
use crate::similarity::verdict::logistic::{self, Logistic};
use crate::similarity::verdict::{FEATURE_NAMES, Features, SentenceFacts, pair_features};
use crate::similarity::{ModelView, Vocabulary};
use crate::text::RefineOptions;

/// One labelled set's pairs as features.
#[derive(Clone, Debug)]
pub struct LabelledFeatures {
    /// The set's name in reports ("msrp train").
    pub name: String,
    pub features: Vec<Features>,
    pub labels: Vec<bool>,
    /// Each pair's mean length in refined terms (for the length bands only; not a feature).
    pub lengths: Vec<f64>,
}

/// The features of every pair of texts, prepared as the measured preset prepares them, with
/// WordNet's relations (if `model` has them) at `weights`.
pub fn features_of<S: AsRef<str> + Sync>(
    pairs: &[(S, S)],
    model: &dyn ModelView,
    weights: WordnetWeights,
) -> (Vec<Features>, Vec<f64>) {
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
    (0..pairs.len())
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
        .unzip()
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

/// Sets the features at `positions` to 0 in every pair, so that a fit cannot use them (a
/// constant feature's weight is penalised to 0): the verdict as if they were not computed, for
/// measuring what each adds.
pub fn leave_out(sets: &mut [LabelledFeatures], positions: &[usize]) {
    for set in sets {
        for f in &mut set.features {
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

/// What `simdoc model train-verdict` found and chose.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrainReport {
    pub folds: usize,
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

/// A fitted verdict and how it was chosen.
pub struct Trained {
    pub regression: Logistic,
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

/// The rows of `sets` for which `keep(set, pair)` holds, as a design, labels and weights
/// (each set's rows weighing the same in all).
fn rows(
    sets: &[LabelledFeatures],
    keep: impl Fn(usize, usize) -> bool,
) -> (Vec<Vec<f64>>, Vec<bool>, Vec<f64>) {
    let mut x = Vec::new();
    let mut y = Vec::new();
    let mut set_of = Vec::new();
    for (s, set) in sets.iter().enumerate() {
        for (i, (f, &label)) in set.features.iter().zip(&set.labels).enumerate() {
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

/// Resamples of the bootstrap that estimates the noise of the mean F1 (rule 2).
const RESAMPLES: usize = 200;

/// A fixed, dependency-free random sequence (xorshift64*), so that folds and resamples repeat.
struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The mean over the sets of F1 at `t`.
fn mean_f1(probabilities: &[Vec<f64>], labels: &[&[bool]], t: f64) -> f64 {
    probabilities
        .iter()
        .zip(labels)
        .map(|(p, y)| f1_at(p, y, t))
        .sum::<f64>()
        / probabilities.len().max(1) as f64
}

/// The threshold of rule 2 for per-set probabilities and labels: the best mean F1 over the sets
/// at one threshold of the grid; among the thresholds within one bootstrap standard error of it
/// (each set's pairs resampled [`RESAMPLES`] times), the one nearest 0.5, where a calibrated
/// probability says "more likely the same than not". The mean F1 is flat over a wide range
/// (EVALUATION.md, "A learned pair verdict"), and its maximum there is noise.
fn choose_threshold(probabilities: &[Vec<f64>], labels: &[&[bool]]) -> f64 {
    let curve: Vec<(f64, f64)> = threshold_grid()
        .into_iter()
        .map(|t| (t, mean_f1(probabilities, labels, t)))
        .collect();
    let Some(&(best_t, best)) = curve.iter().max_by(|a, b| a.1.total_cmp(&b.1)) else {
        return 0.5;
    };
    let mut rng = Xorshift(0x5EED_2005);
    let resampled: Vec<f64> = (0..RESAMPLES)
        .map(|_| {
            let f1s: Vec<f64> = probabilities
                .iter()
                .zip(labels)
                .map(|(p, y)| {
                    let n = p.len();
                    let outcomes = (0..n).map(|_| {
                        let i = rng.below(n);
                        (y[i], p[i] >= best_t)
                    });
                    Confusion::count(outcomes.collect::<Vec<_>>()).f1()
                })
                .collect();
            f1s.iter().sum::<f64>() / f1s.len().max(1) as f64
        })
        .collect();
    let mean = resampled.iter().sum::<f64>() / RESAMPLES as f64;
    let se =
        (resampled.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (RESAMPLES - 1) as f64).sqrt();
    curve
        .iter()
        .filter(|(_, f1)| *f1 >= best - se)
        .min_by(|a, b| {
            (a.0 - 0.5)
                .abs()
                .total_cmp(&(b.0 - 0.5).abs())
                .then(a.0.total_cmp(&b.0))
        })
        .map_or(best_t, |&(t, _)| t)
}

fn f1_at(p: &[f64], y: &[bool], t: f64) -> f64 {
    Confusion::count(y.iter().zip(p).map(|(&y, &p)| (y, p >= t))).f1()
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
/// training folds).
fn out_of_fold(
    sets: &[LabelledFeatures],
    fold_of: &[Vec<usize>],
    folds: usize,
    penalty: f64,
    with_thresholds: bool,
) -> Result<(Vec<Vec<f64>>, Vec<f64>), logistic::FitError> {
    let fitted: Vec<(Logistic, f64)> = (0..folds)
        .into_par_iter()
        .map(|k| {
            let (x, y, w) = rows(sets, |s, i| fold_of[s][i] != k);
            let model = logistic::fit_weighted(&x, &y, &w, penalty)?;
            let threshold = if with_thresholds {
                let mut probabilities = Vec::new();
                let mut labels: Vec<Vec<bool>> = Vec::new();
                for (s, set) in sets.iter().enumerate() {
                    let (p, l): (Vec<f64>, Vec<bool>) = set
                        .features
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
            set.features
                .iter()
                .enumerate()
                .map(|(i, f)| fitted[fold_of[s][i]].0.probability(f))
                .collect()
        })
        .collect();
    Ok((probabilities, fitted.iter().map(|f| f.1).collect()))
}

/// Trains the verdict on `sets` (see the module docs).
pub fn train(
    sets: &[LabelledFeatures],
    folds: usize,
    weights: WordnetWeights,
) -> Result<Trained, logistic::FitError> {
    let folds = folds.max(2);
    let fold_of = folds_of(sets, folds);
    let labels: Vec<&[bool]> = sets.iter().map(|s| s.labels.as_slice()).collect();
    // Rule 1: the penalty.
    let mut penalties = Vec::new();
    for penalty in penalty_grid() {
        let (p, _) = out_of_fold(sets, &fold_of, folds, penalty, false)?;
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
    let (oof, fold_thresholds) = out_of_fold(sets, &fold_of, folds, penalty, true)?;
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
    let (x, y, w) = rows(sets, |_, _| true);
    let regression = logistic::fit_weighted(&x, &y, &w, penalty)?;
    let in_sample_p: Vec<Vec<f64>> = sets
        .iter()
        .map(|set| {
            set.features
                .iter()
                .map(|f| regression.probability(f))
                .collect()
        })
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
        wordnet_weights: weights,
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
    Ok(Trained { regression, report })
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
