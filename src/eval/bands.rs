//! Two checks of a graded score that a single ROC AUC hides: how it ranks within bands of pair
//! length, and (for the learned verdict) whether its probabilities are calibrated.
//!
//! PAN's negatives are about twice as long as its positives, so a score that tracks length
//! ranks PAN's pairs well without saying anything about reuse (issue 27: length alone gives F1
//! 0.79 there). Within a quartile of length the pairs are of about one length, and a score that
//! still ranks them well is not length in disguise. Length is the mean number of refined terms
//! of a pair's two texts.

use serde::Serialize;

use super::formats::PairSet;
use super::metrics::{Confusion, roc_auc};
use super::score::PairScore;
use crate::similarity::{Method, Thresholds};

/// A score and word overlap within one band of pair length.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LengthBand {
    /// Mean refined terms of a pair: the shortest and the longest pair in the band.
    pub from: f64,
    pub to: f64,
    pub pairs: usize,
    pub positive_share: f64,
    /// ROC AUC of the graded score (the verdict's probability, or min Sim).
    pub auc: Option<f64>,
    /// ROC AUC of min(overlap Sim) in the same band.
    pub overlap_auc: Option<f64>,
    /// F1 of the decisions in the band.
    pub f1: f64,
}

/// Quartile bands of `lengths`: each pair's band (0..4). A band starts at the length found a
/// quarter, a half and three quarters of the way through the sorted lengths, so ties at a cut
/// all go to the upper band.
fn quartiles(lengths: &[f64]) -> Vec<usize> {
    let mut sorted = lengths.to_vec();
    sorted.sort_by(f64::total_cmp);
    if sorted.is_empty() {
        return Vec::new();
    }
    let cut = |q: usize| sorted[(sorted.len() * q / 4).min(sorted.len() - 1)];
    let starts = [cut(1), cut(2), cut(3)];
    lengths
        .iter()
        .map(|&l| starts.iter().filter(|&&s| l >= s).count())
        .collect()
}

/// The graded score, overlap and decisions of each pair within quartile bands of `lengths`.
pub fn length_bands(
    lengths: &[f64],
    labels: &[bool],
    graded: &[f64],
    overlap: &[f64],
    decided: &[bool],
) -> Vec<LengthBand> {
    let band_of = quartiles(lengths);
    (0..4)
        .filter_map(|b| {
            let inside: Vec<usize> = (0..lengths.len()).filter(|&i| band_of[i] == b).collect();
            if inside.is_empty() {
                return None;
            }
            let pick = |v: &[f64]| inside.iter().map(|&i| v[i]).collect::<Vec<f64>>();
            let y: Vec<bool> = inside.iter().map(|&i| labels[i]).collect();
            let confusion = Confusion::count(inside.iter().map(|&i| (labels[i], decided[i])));
            let within = pick(lengths);
            Some(LengthBand {
                from: within.iter().copied().fold(f64::INFINITY, f64::min),
                to: within.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                pairs: inside.len(),
                positive_share: y.iter().filter(|&&t| t).count() as f64 / y.len() as f64,
                auc: roc_auc(&pick(graded), &y),
                overlap_auc: roc_auc(&pick(overlap), &y),
                f1: confusion.f1(),
            })
        })
        .collect()
}

/// Pairs whose probability fell in one tenth of [0, 1], and how many of them were positive.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CalibrationBin {
    pub from: f64,
    pub to: f64,
    pub pairs: usize,
    pub mean_probability: f64,
    pub positive_share: f64,
}

/// Reliability of probabilities: per tenth of [0, 1], the mean probability against the share
/// of positives (a calibrated probability has them equal).
pub fn calibration(probabilities: &[f64], labels: &[bool]) -> Vec<CalibrationBin> {
    (0..10)
        .filter_map(|b| {
            let (from, to) = (f64::from(b) / 10.0, f64::from(b + 1) / 10.0);
            let inside: Vec<usize> = (0..probabilities.len())
                .filter(|&i| {
                    let p = probabilities[i];
                    p >= from && (p < to || (b == 9 && p <= to))
                })
                .collect();
            if inside.is_empty() {
                return None;
            }
            let n = inside.len() as f64;
            Some(CalibrationBin {
                from,
                to,
                pairs: inside.len(),
                mean_probability: inside.iter().map(|&i| probabilities[i]).sum::<f64>() / n,
                positive_share: inside.iter().filter(|&&i| labels[i]).count() as f64 / n,
            })
        })
        .collect()
}

/// `simdoc eval pairs --bands`: the fuzzy method's score (the verdict's under the verdict
/// preset) and decisions within length bands, and the verdict's calibration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BandsReport {
    /// What the graded score is: "verdict" or "min Sim".
    pub score: &'static str,
    pub bands: Vec<LengthBand>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub calibration: Vec<CalibrationBin>,
}

/// The bands of a scored pair set at `thresholds`.
pub fn report(set: &PairSet, scores: &[PairScore], thresholds: Thresholds) -> BandsReport {
    let labels: Vec<bool> = set.pairs.iter().map(|p| p.positive).collect();
    let lengths: Vec<f64> = scores.iter().map(|s| s.mean_terms).collect();
    let graded: Vec<f64> = scores.iter().map(|s| s.graded(Method::Fuzzy)).collect();
    let overlap: Vec<f64> = scores.iter().map(|s| s.graded(Method::Overlap)).collect();
    let decided: Vec<bool> = scores
        .iter()
        .map(|s| s.decide(Method::Fuzzy, &thresholds))
        .collect();
    let verdict: Option<Vec<f64>> = scores.iter().map(|s| s.verdict).collect();
    BandsReport {
        score: if verdict.is_some() {
            "verdict"
        } else {
            "min Sim"
        },
        bands: length_bands(&lengths, &labels, &graded, &overlap, &decided),
        calibration: verdict.map_or_else(Vec::new, |p| calibration(&p, &labels)),
    }
}

impl BandsReport {
    pub fn summary(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "within quartiles of pair length (mean refined terms): {} against overlap",
            self.score
        );
        for b in &self.bands {
            let _ = writeln!(
                out,
                "  {:>5.1}-{:<5.1} {:>5} pairs, {:.2} positive: ROC AUC {:.3} (overlap {:.3}), F1 {:.3}",
                b.from,
                b.to,
                b.pairs,
                b.positive_share,
                b.auc.unwrap_or(f64::NAN),
                b.overlap_auc.unwrap_or(f64::NAN),
                b.f1
            );
        }
        if !self.calibration.is_empty() {
            let _ = writeln!(
                out,
                "calibration (probability bin: mean probability / positive share):"
            );
            for c in &self.calibration {
                let _ = writeln!(
                    out,
                    "  {:.1}-{:.1} {:>5} pairs: {:.3} / {:.3}",
                    c.from, c.to, c.pairs, c.mean_probability, c.positive_share
                );
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quartile_bands_hold_a_quarter_each_and_score_within() {
        let lengths: Vec<f64> = (0..8).map(f64::from).collect();
        // Within each band of two, the positive has the higher score; overall the score
        // follows length instead.
        let labels = [true, false, true, false, true, false, true, false];
        let graded = [0.2, 0.1, 0.4, 0.3, 0.6, 0.5, 0.8, 0.7];
        let overlap = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];
        let decided = labels;
        let bands = length_bands(&lengths, &labels, &graded, &overlap, &decided);
        assert_eq!(bands.len(), 4);
        for b in &bands {
            assert_eq!((b.pairs, b.positive_share), (2, 0.5));
            assert_eq!((b.auc, b.overlap_auc, b.f1), (Some(1.0), Some(0.0), 1.0));
        }
        assert_eq!((bands[0].from, bands[3].to), (0.0, 7.0));
    }

    #[test]
    fn calibration_bins_compare_probability_with_the_outcome() {
        let p = [0.05, 0.05, 0.95, 0.95, 0.95, 1.0];
        let y = [false, false, true, true, false, true];
        let bins = calibration(&p, &y);
        assert_eq!(bins.len(), 2);
        assert_eq!((bins[0].pairs, bins[0].positive_share), (2, 0.0));
        assert_eq!(bins[1].pairs, 4);
        assert!((bins[1].positive_share - 0.75).abs() < 1e-12);
        assert!((bins[1].mean_probability - 0.9625).abs() < 1e-12);
    }
}
