//! Logistic regression: at run time a dot product and a sigmoid, trained here by iteratively
//! reweighted least squares (Newton's method on the L2-penalised log-likelihood; Hastie,
//! Tibshirani & Friedman, *The Elements of Statistical Learning*, 2009, sect. 4.4.1).
//!
//! Features are standardised on the training data (mean 0, standard deviation 1) before the
//! fit, so one penalty treats them alike; the intercept is not penalised. Each Newton step
//! solves the `(F + 1)`-square system `(X^T W X + lambda I) delta = X^T (y - p) - lambda beta`
//! with a Cholesky factorisation (`faer`, already the crate's linear algebra). Not
//! `linfa-logistic`: it would bring `linfa`, `ndarray` and `argmin` for what is one small
//! dense solve per step.

use faer::Mat;
use faer::linalg::solvers::Solve;

/// A fitted model on standardised features.
#[derive(Clone, Debug, PartialEq)]
pub struct Logistic {
    pub intercept: f64,
    /// One weight per feature, applying to `(x - mean) / sd`.
    pub weights: Vec<f64>,
    pub means: Vec<f64>,
    pub sds: Vec<f64>,
}

/// The logistic function.
pub fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}

impl Logistic {
    /// The probability of a positive label for raw features `x`.
    pub fn probability(&self, x: &[f64]) -> f64 {
        sigmoid(self.linear(x))
    }

    /// The log-odds for raw features `x`.
    pub fn linear(&self, x: &[f64]) -> f64 {
        self.intercept
            + self
                .weights
                .iter()
                .zip(x)
                .zip(self.means.iter().zip(&self.sds))
                .map(|((w, x), (m, s))| w * (x - m) / s)
                .sum::<f64>()
    }
}

/// Why a fit failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FitError {
    #[error("no training examples")]
    Empty,
    #[error("examples have different numbers of features")]
    Ragged,
    #[error("a feature is not a finite number")]
    NotFinite,
    #[error("the Newton system is not positive definite (use a larger penalty)")]
    Singular,
}

/// Newton steps at most; the fit normally converges in under ten.
const MAX_STEPS: usize = 100;
/// Converged when no coefficient moves by more than this.
const TOLERANCE: f64 = 1e-10;

/// Fits `P(y | x)` with penalty `lambda` (at least 0) on the standardised weights, every
/// example weighing the same (the tests' form of [`fit_weighted`]).
#[cfg(test)]
pub fn fit(x: &[Vec<f64>], y: &[bool], lambda: f64) -> Result<Logistic, FitError> {
    fit_weighted(x, y, &vec![1.0; x.len()], lambda)
}

/// [`fit`] with a weight per example (the log-likelihood is their weighted sum; weights are
/// positive, and their mean sets how strongly `lambda` pulls).
pub fn fit_weighted(
    x: &[Vec<f64>],
    y: &[bool],
    example_weights: &[f64],
    lambda: f64,
) -> Result<Logistic, FitError> {
    let n = x.len();
    if n == 0 || y.len() != n || example_weights.len() != n {
        return Err(FitError::Empty);
    }
    if example_weights.iter().any(|w| !(w.is_finite() && *w > 0.0)) {
        return Err(FitError::NotFinite);
    }
    let f = x[0].len();
    if x.iter().any(|row| row.len() != f) {
        return Err(FitError::Ragged);
    }
    if x.iter().flatten().any(|v| !v.is_finite()) {
        return Err(FitError::NotFinite);
    }
    let means: Vec<f64> = (0..f)
        .map(|j| x.iter().map(|r| r[j]).sum::<f64>() / n as f64)
        .collect();
    let sds: Vec<f64> = (0..f)
        .map(|j| {
            let var = x.iter().map(|r| (r[j] - means[j]).powi(2)).sum::<f64>() / n as f64;
            // A constant feature carries nothing; 1 keeps it harmless.
            if var > 0.0 { var.sqrt() } else { 1.0 }
        })
        .collect();
    // Design rows: 1, then the standardised features.
    let design: Vec<Vec<f64>> = x
        .iter()
        .map(|r| {
            std::iter::once(1.0)
                .chain((0..f).map(|j| (r[j] - means[j]) / sds[j]))
                .collect()
        })
        .collect();
    let d = f + 1;
    let mut beta = vec![0.0f64; d];
    for _ in 0..MAX_STEPS {
        let mut hessian = Mat::<f64>::zeros(d, d);
        let mut gradient = Mat::<f64>::zeros(d, 1);
        for ((row, &label), &example) in design.iter().zip(y).zip(example_weights) {
            let p = sigmoid(row.iter().zip(&beta).map(|(a, b)| a * b).sum());
            let weight = example * (p * (1.0 - p)).max(1e-12);
            let residual = example * (f64::from(u8::from(label)) - p);
            for a in 0..d {
                gradient[(a, 0)] += row[a] * residual;
                for b in 0..=a {
                    hessian[(a, b)] += weight * row[a] * row[b];
                }
            }
        }
        for a in 0..d {
            for b in 0..a {
                hessian[(b, a)] = hessian[(a, b)];
            }
            if a > 0 {
                hessian[(a, a)] += lambda;
                gradient[(a, 0)] -= lambda * beta[a];
            }
        }
        let llt = hessian
            .llt(faer::Side::Lower)
            .map_err(|_| FitError::Singular)?;
        let step = llt.solve(&gradient);
        let mut largest: f64 = 0.0;
        for (a, b) in beta.iter_mut().enumerate() {
            let delta = step[(a, 0)];
            if !delta.is_finite() {
                return Err(FitError::Singular);
            }
            *b += delta;
            largest = largest.max(delta.abs());
        }
        if largest < TOLERANCE {
            break;
        }
    }
    Ok(Logistic {
        intercept: beta[0],
        weights: beta[1..].to_vec(),
        means,
        sds,
    })
}

/// Mean negative log-likelihood of probabilities `p` for labels `y` (clamped away from 0 and
/// 1): the criterion for the penalty.
pub fn log_loss(p: &[f64], y: &[bool]) -> f64 {
    let total: f64 = p
        .iter()
        .zip(y)
        .map(|(&p, &y)| {
            let p = p.clamp(1e-15, 1.0 - 1e-15);
            if y { -p.ln() } else { -(1.0 - p).ln() }
        })
        .sum();
    total / p.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_recovers_known_log_odds() {
        // Grouped data with known frequencies: at x = 0, 1 of 4 positive (log-odds -ln 3); at
        // x = 1, 3 of 4 (ln 3). Without penalty the maximum-likelihood fit is exact:
        // intercept 0 and slope 2 ln 3 on x standardised (mean 0.5, sd 0.5), i.e. ln 3 per
        // standard deviation.
        let mut x = Vec::new();
        let mut y = Vec::new();
        for (value, positives) in [(0.0, 1), (1.0, 3)] {
            for k in 0..4 {
                x.push(vec![value]);
                y.push(k < positives);
            }
        }
        let model = fit(&x, &y, 0.0).unwrap();
        assert!(model.intercept.abs() < 1e-9, "{}", model.intercept);
        assert!(
            (model.weights[0] - 3f64.ln()).abs() < 1e-9,
            "{:?}",
            model.weights
        );
        assert!((model.probability(&[0.0]) - 0.25).abs() < 1e-9);
        assert!((model.probability(&[1.0]) - 0.75).abs() < 1e-9);
        // A penalty pulls the slope towards 0.
        let penalised = fit(&x, &y, 4.0).unwrap();
        assert!(penalised.weights[0] > 0.0 && penalised.weights[0] < model.weights[0]);
        // Weighting an example twice is counting it twice: the x = 1 positives weighted 3
        // make 9 positives of 10 there, log-odds ln 9.
        let w: Vec<f64> = x
            .iter()
            .zip(&y)
            .map(|(x, &y)| if x[0] == 1.0 && y { 3.0 } else { 1.0 })
            .collect();
        let weighted = fit_weighted(&x, &y, &w, 0.0).unwrap();
        assert!((weighted.probability(&[1.0]) - 0.9).abs() < 1e-9);
        assert!((weighted.probability(&[0.0]) - 0.25).abs() < 1e-9);
    }

    #[test]
    fn separable_data_needs_a_penalty_and_bad_input_is_refused() {
        let x = vec![vec![0.0], vec![1.0]];
        let y = vec![false, true];
        let fitted = fit(&x, &y, 1.0).unwrap();
        assert!(fitted.probability(&[1.0]) > 0.5 && fitted.probability(&[0.0]) < 0.5);
        assert_eq!(fit(&[], &[], 1.0), Err(FitError::Empty));
        assert_eq!(
            fit(&[vec![0.0], vec![1.0, 2.0]], &y, 1.0),
            Err(FitError::Ragged)
        );
        assert_eq!(
            fit(&[vec![f64::NAN], vec![1.0]], &y, 1.0),
            Err(FitError::NotFinite)
        );
        assert!((log_loss(&[0.5, 0.5], &[true, false]) - 2f64.ln()).abs() < 1e-12);
        assert_eq!(sigmoid(0.0), 0.5);
        assert!(sigmoid(-800.0) >= 0.0 && sigmoid(800.0) <= 1.0);
    }
}
