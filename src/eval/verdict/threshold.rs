//! Rule 2 of the training (the module docs of [`super`]): the decision threshold by the mean F1
//! of the sets at one threshold, and among those within one bootstrap standard error of the
//! best, the one nearest 0.5.

use super::threshold_grid;
use crate::eval::metrics::Confusion;

/// Resamples of the bootstrap that estimates the noise of the mean F1 (rule 2).
const RESAMPLES: usize = 200;

/// A fixed, dependency-free random sequence (xorshift64*), so that folds and resamples repeat.
pub(super) struct Xorshift(pub(super) u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n`.
    pub(super) fn below(&mut self, n: usize) -> usize {
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
pub(super) fn choose_threshold(probabilities: &[Vec<f64>], labels: &[&[bool]]) -> f64 {
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

pub(super) fn f1_at(p: &[f64], y: &[bool], t: f64) -> f64 {
    Confusion::count(y.iter().zip(p).map(|(&y, &p)| (y, p >= t))).f1()
}
