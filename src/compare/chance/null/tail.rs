//! The distribution of a pair's score under the null model: the tail table per length bucket
//! (exact convolution for common terms, a compound Poisson sum by Panjer's recursion for rare
//! ones) and the Chernoff bound past it (see the parent module's docs).

use super::{EXACT_ABOVE, LN_P_FLOOR, MAX_SCORE, STEP, score_bin};

/// The number of length-factor buckets: r from 1/64 to 64, a factor sqrt(2) apart.
pub const BUCKETS: usize = 25;

/// The smallest length factor with a bucket of its own (smaller ones share the first).
const SMALLEST_FACTOR: f64 = 1.0 / 64.0;

/// The shared terms' weights on the grid, for [`chernoff_ln_p`]: per grid step holding a weight,
/// its lower edge and how many terms weigh within it.
pub(super) fn weight_grid(weights: &[f64]) -> Vec<(f64, f64)> {
    let mut bins: Vec<usize> = weights.iter().map(|&w| score_bin(w)).collect();
    bins.sort_unstable();
    bins.chunk_by(|a, b| a == b)
        .map(|run| (run[0] as f64 * STEP, run.len() as f64))
        .collect()
}

/// The Chernoff bound on ln P_r(W' >= score): min over theta >= 0 of
/// ln E[exp(theta W')] - theta score, W' the sum of independent terms of weight w(t) taken
/// with probability min(r pi(t), 1). Each term is taken at the upper edge of its grid step and
/// with the probability of the lower edge (`grid`, [`weight_grid`]), which can only make W'
/// larger: an upper bound on the tail (never overstates the evidence), in O(grid steps) per
/// step of a bisection on theta. Used only past the tabulated scores ([`NullModel::ln_p`]).
pub(super) fn chernoff_ln_p(grid: &[(f64, f64)], score: f64, factor: f64) -> f64 {
    let terms: Vec<(f64, f64, f64)> = grid
        .iter()
        .map(|&(low, count)| (((-low).exp() * factor).min(1.0), low + STEP, count))
        .collect();
    // The largest score W' can reach: past it the tail is empty.
    if terms.iter().map(|&(_, w, c)| c * w).sum::<f64>() < score {
        return LN_P_FLOOR;
    }
    // ln(1 - q + q e^(theta w)) and its derivative in theta, stably for large theta w.
    let ln_mgf = |theta: f64| -> (f64, f64) {
        let (mut value, mut slope) = (0.0, 0.0);
        for &(q, w, count) in &terms {
            if q >= 1.0 {
                value += count * theta * w;
                slope += count * w;
                continue;
            }
            let (a, b) = ((-q).ln_1p(), q.ln() + theta * w);
            let (high, low) = (a.max(b), a.min(b));
            value += count * (high + (low - high).exp().ln_1p());
            // The share of the term's weight taken: q e^(theta w) / (1 - q + q e^(theta w)).
            slope += count * w / (1.0 + (a - b).exp());
        }
        (value - theta * score, slope - score)
    };
    let mut high = 1.0;
    while ln_mgf(high).1 < 0.0 && high < 1e6 {
        high *= 2.0;
    }
    let mut low = 0.0;
    for _ in 0..60 {
        let middle = 0.5 * (low + high);
        if ln_mgf(middle).1 < 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    ln_mgf(high).0.clamp(LN_P_FLOOR, 0.0)
}

/// The upper edge of a bucket's length factors.
pub(super) fn bucket_factor(bucket: usize) -> f64 {
    SMALLEST_FACTOR * std::f64::consts::SQRT_2.powi(bucket as i32)
}

/// The bucket of a length factor: the first whose upper edge is at least it.
pub(super) fn bucket_of(factor: f64) -> usize {
    // NaN too lands in the first bucket.
    if factor.is_nan() || factor <= SMALLEST_FACTOR {
        return 0;
    }
    let steps = ((factor / SMALLEST_FACTOR).ln() / std::f64::consts::SQRT_2.ln()).ceil();
    (steps.max(0.0) as usize).min(BUCKETS - 1)
}

/// ln P(W' >= k STEP) for every k of the grid, the probabilities `pi` scaled by `factor`, each
/// term weighing -ln pi.
#[cfg(test)]
pub(super) fn tail_table(pi: &[f64], factor: f64) -> Vec<f32> {
    let weights: Vec<f64> = pi.iter().map(|p| -p.ln()).collect();
    weighted_tail_table(pi, &weights, factor)
}

/// ln P(W' >= k STEP) for every k of the grid, W' the sum of independent terms of weight
/// `weights[i]` taken with probability `pi[i]` scaled by `factor`.
pub(super) fn weighted_tail_table(pi: &[f64], weights: &[f64], factor: f64) -> Vec<f32> {
    let bins = (MAX_SCORE / STEP).round() as usize + 1;
    let mut exact: Vec<(usize, f64)> = Vec::new();
    // Severity of the compound Poisson part: rate per weight bin.
    let mut rates: Vec<f64> = Vec::new();
    for (&p, &weight) in pi.iter().zip(weights) {
        let scaled = (p * factor).min(1.0);
        let bin = (weight / STEP).ceil().max(1.0) as usize;
        if bin >= bins {
            continue;
        }
        if scaled > EXACT_ABOVE {
            exact.push((bin, scaled));
        } else {
            if rates.len() <= bin {
                rates.resize(bin + 1, 0.0);
            }
            rates[bin] += scaled;
        }
    }
    let mut pmf = compound_poisson(&rates, bins);
    for (bin, p) in exact {
        // W' gains `bin` with probability p: mix the distribution with itself shifted.
        for k in (0..bins).rev() {
            let shifted = if k >= bin { pmf[k - bin] } else { 0.0 };
            pmf[k] = (1.0 - p) * pmf[k] + p * shifted;
        }
    }
    let mut tails = vec![0f32; bins];
    let mut sum = 0.0f64;
    for k in (0..bins).rev() {
        sum += pmf[k];
        tails[k] = sum.min(1.0).ln().max(LN_P_FLOOR) as f32;
    }
    tails
}

/// The distribution, on `bins` grid points, of a compound Poisson sum whose jumps of `k` bins
/// come at rate `rates[k]` (Panjer's recursion for the Poisson case: g_0 = exp(-lambda),
/// g_j = (1/j) sum_k k rate_k g_(j-k)).
pub(super) fn compound_poisson(rates: &[f64], bins: usize) -> Vec<f64> {
    let lambda: f64 = rates.iter().sum();
    let mut g = vec![0.0f64; bins];
    g[0] = (-lambda).exp();
    let jumps: Vec<(usize, f64)> = rates
        .iter()
        .enumerate()
        .filter(|(k, r)| *k > 0 && **r > 0.0)
        .map(|(k, &r)| (k, k as f64 * r))
        .collect();
    for j in 1..bins {
        let mut sum = 0.0;
        for &(k, weight) in &jumps {
            if k > j {
                break;
            }
            sum += weight * g[j - k];
        }
        g[j] = sum / j as f64;
    }
    g
}
