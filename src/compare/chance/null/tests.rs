//! The null model's arithmetic checked against enumeration: the score, the tail of the weighted
//! sum, the Chernoff bound, the length factors and the compound Poisson sum. Apart from the model
//! so that it reads on its own.

use super::*;

proptest::proptest! {
    /// The merge sums the shared terms' weights as adding them up in ascending order does,
    /// bit for bit.
    #[test]
    fn the_score_is_the_sum_of_the_shared_weights(
        left in proptest::collection::btree_map(0u32..40, 0.01f64..20.0, 0..25),
        right in proptest::collection::btree_set(0u32..40, 0..25),
    ) {
        let left: Vec<(u32, f64)> = left.into_iter().collect();
        let right: Vec<(u32, f64)> = right.into_iter().map(|t| (t, 1.0)).collect();
        let mut expected = 0.0;
        for &(t, w) in &left {
            if right.iter().any(|&(u, _)| u == t) {
                expected += w;
            }
        }
        proptest::prop_assert_eq!(score(&left, &right).to_bits(), expected.to_bits());
    }
}

/// The exact tail of a sum of independent weighted Bernoulli variables, by enumeration.
fn brute_tail(terms: &[(f64, f64)], score: f64) -> f64 {
    let mut total = 0.0;
    for mask in 0u32..(1 << terms.len()) {
        let mut p = 1.0;
        let mut w = 0.0;
        for (i, &(weight, prob)) in terms.iter().enumerate() {
            if mask & (1 << i) != 0 {
                p *= prob;
                w += weight;
            } else {
                p *= 1.0 - prob;
            }
        }
        if w >= score - 1e-9 {
            total += p;
        }
    }
    total
}

#[test]
fn the_tail_follows_enumeration_of_every_outcome() {
    // Probabilities of common and rare terms; weights are -ln p on the grid.
    let pi = [
        0.5, 0.2, 0.08, 0.01, 0.004, 0.002, 0.001, 0.0005, 0.0001, 0.00002,
    ];
    let table = tail_table(&pi, 1.0);
    let terms: Vec<(f64, f64)> = pi
        .iter()
        .map(|&p: &f64| (((-p.ln()) / STEP).ceil() * STEP, p))
        .collect();
    for score in [0.5, 2.0, 5.0, 8.0, 12.0, 20.0, 30.0] {
        let bin = (score / STEP).floor() as usize;
        let got = f64::from(table[bin]).exp();
        let want = brute_tail(&terms, bin as f64 * STEP);
        // The Poisson part never under-states (beyond rounding); in the far tail, where
        // several rare terms must all be shared, it over-states (it lets a rare term count
        // twice): 3x at a score of 30 here. Conservative, so accepted.
        assert!(
            got >= want * 0.97 && got <= want * 4.0 + 1e-12,
            "score {score}: {got} against {want}"
        );
    }
}

/// Terms whose weight is not -ln p (related pairs, discounted): the tail still follows
/// enumeration at their own weights and probabilities.
#[test]
fn the_tail_of_terms_weighing_less_than_their_rarity_follows_enumeration() {
    let pi = [0.3, 0.05, 0.004, 0.001, 0.0002, 0.00005];
    let weights = [1.2, 3.0, 2.5, 4.0, 6.5, 3.3];
    let table = weighted_tail_table(&pi, &weights, 1.0);
    let terms: Vec<(f64, f64)> = pi
        .iter()
        .zip(weights)
        .map(|(&p, w)| ((w / STEP).ceil() * STEP, p))
        .collect();
    for score in [0.5, 1.5, 3.0, 5.0, 7.0, 10.0, 14.0] {
        let bin = (score / STEP).floor() as usize;
        let got = f64::from(table[bin]).exp();
        let want = brute_tail(&terms, bin as f64 * STEP);
        // Never under-stated; over-stated where a Poisson count takes a light but not so rare
        // term twice (the 0.05 one, of weight 3: 4x at a score of 7), conservative.
        assert!(
            got >= want * 0.97 && got <= want * 8.0 + 1e-12,
            "score {score}: {got} against {want}"
        );
    }
}

#[test]
fn the_chernoff_bound_never_understates_the_tail_and_is_close_in_order() {
    let pi = [
        0.5, 0.3, 0.2, 0.08, 0.05, 0.01, 0.004, 0.002, 0.001, 0.0005, 0.0001, 0.00002,
    ];
    let weights: Vec<f64> = pi.iter().map(|p: &f64| -p.ln()).collect();
    for factor in [0.5, 1.0, 3.0] {
        let terms: Vec<(f64, f64)> = weights
            .iter()
            .map(|&w| (w, ((-w).exp() * factor).min(1.0)))
            .collect();
        for score in [1.0, 4.0, 10.0, 20.0, 40.0, 60.0] {
            let want = brute_tail(&terms, score);
            let got = chernoff_ln_p(&weight_grid(&weights), score, factor);
            assert!(
                got >= want.ln().max(LN_P_FLOOR) - 1e-9,
                "factor {factor}, score {score}: bound {got} below ln {}",
                want.ln()
            );
            // A bound within a few orders of magnitude where the tail is not empty.
            if want > 0.0 {
                assert!(
                    got <= want.ln() + 8.0,
                    "score {score}: {got} against {}",
                    want.ln()
                );
            }
        }
        let most: f64 = weights.iter().sum();
        let past = most + STEP * weights.len() as f64 + 1.0;
        assert_eq!(
            chernoff_ln_p(&weight_grid(&weights), past, factor),
            LN_P_FLOOR
        );
    }
}

#[test]
fn longer_sentences_make_a_score_likelier() {
    let pi = [0.3, 0.01, 0.001, 0.0001];
    let short = tail_table(&pi, 0.5);
    let long = tail_table(&pi, 4.0);
    let bin = 100;
    assert!(long[bin] > short[bin]);
    assert_eq!(bucket_of(1.0), 12);
    assert!((bucket_factor(12) - 1.0).abs() < 1e-9);
    assert_eq!(bucket_of(0.0), 0);
    assert_eq!(bucket_of(1e9), BUCKETS - 1);
    assert!(bucket_factor(bucket_of(1.3)) >= 1.3);
}

#[test]
fn the_compound_poisson_sum_is_a_distribution() {
    let g = compound_poisson(&[0.0, 0.5, 0.0, 0.25], 200);
    let total: f64 = g.iter().sum();
    assert!((total - 1.0).abs() < 1e-9);
    assert!((g[0] - (-0.75f64).exp()).abs() < 1e-12);
    // One jump of 1 bin: g_1 = 0.5 exp(-0.75).
    assert!((g[1] - 0.5 * (-0.75f64).exp()).abs() < 1e-12);
}
