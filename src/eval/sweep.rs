//! Threshold sweeps of the fuzzy-set matcher, after the thesis's Fig. 3.2
//! (`003_cb4e1995afbee241.txt`, 3.2.2).
//!
//! The thesis chose its thresholds in two steps: (a) for permission values V from 0.5 to 1.0 it
//! called a pair equal when MIN(Sim(S1,S2), Sim(S2,S1)) >= V, *without* the variation condition,
//! counted false positives and negatives and took the "balance point" (0.825); (b) among the pairs
//! passing that permission it swept the allowed difference of the two Sims and again took the
//! crossing of the FP and FN curves (0.15). [`Sweep`] holds both curves (with the thesis's step
//! of 0.05 halved to 0.025), the permission curve at a fixed variation too, and the full grid of
//! both thresholds, from which a default can be chosen by F1 ([`Sweep::best_f1`]) or by the
//! thesis's balance criterion ([`Sweep::balance`]).

use serde::Serialize;

use super::metrics::{Confusion, Figures};
use super::score::PairScore;
use crate::compare::Preset;
use crate::similarity::{Method, Thresholds};

// Every preset must be reachable by filtering a comparison scored down to the default floor
// (a permission below it would rescore every comparison); a preset judged against chance
// filters its links, whatever their Sims, and needs no floor; a verdict's permission is a
// probability, applied by filtering whatever its value.
const _: () = {
    let all = Preset::all();
    let mut i = 0;
    while i < all.len() {
        let preset = &all[i].preset;
        assert!(
            preset.chance_search.is_some()
                || preset.rules.verdict
                || preset.thresholds.permission >= crate::compare::DEFAULT_FLOOR
        );
        i += 1;
    }
};

/// A variation threshold that never rejects a pair (Sims are in [0, 1]).
pub const VARIATION_OFF: f64 = 1.0;

/// Permission thresholds swept: 0.05, 0.075, ..., 1.0 (39 values, each the nearest double to its
/// decimal). The thesis swept 0.5 to 1 (Fig. 3.2); on paraphrase data the best F1 lies below 0.5,
/// so the grid starts where no optimum was ever seen (a grid that stopped at the optimum would
/// choose its own edge).
pub fn permission_steps() -> Vec<f64> {
    (0..=38).map(|i| f64::from(50 + 25 * i) / 1000.0).collect()
}

/// Variation thresholds swept: 0, 0.025, ..., 0.5, and off ([`VARIATION_OFF`]): 22 values. The
/// two Sims can differ by at most 1 - permission, so at a low permission a variation of 0.5
/// still binds and "off" is a value of its own.
pub fn variation_steps() -> Vec<f64> {
    (0..=20)
        .map(|i| f64::from(25 * i) / 1000.0)
        .chain([VARIATION_OFF])
        .collect()
}

/// The figures at one pair of thresholds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SweepPoint {
    pub permission: f64,
    pub variation: f64,
    #[serde(flatten)]
    pub figures: Figures,
}

impl SweepPoint {
    pub fn thresholds(&self) -> Thresholds {
        Thresholds {
            permission: self.permission,
            variation: self.variation,
            max_e_value: None,
            min_words: 0,
        }
    }
}

/// Evaluates EQ of a graded `method` at `thresholds` over scored pairs with known truths.
pub fn evaluate_at(
    scores: &[PairScore],
    truths: &[bool],
    method: Method,
    thresholds: Thresholds,
) -> SweepPoint {
    let confusion = Confusion::count(
        scores
            .iter()
            .zip(truths)
            .map(|(s, &t)| (t, s.decide(method, &thresholds))),
    );
    SweepPoint {
        permission: thresholds.permission,
        variation: thresholds.variation,
        figures: confusion.figures(),
    }
}

/// The curves of a sweep.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sweep {
    /// Over the permission, with the variation off (thesis Fig. 3.2(a)).
    pub permission: Vec<SweepPoint>,
    /// The variation used for [`Sweep::permission_at_variation`].
    pub variation_fixed: f64,
    /// Over the permission, at the fixed variation.
    pub permission_at_variation: Vec<SweepPoint>,
    /// The permission used for [`Sweep::variation`].
    pub permission_fixed: f64,
    /// Over the variation, at the fixed permission (thesis Fig. 3.2(b)).
    pub variation: Vec<SweepPoint>,
    /// Every (permission, variation) of the two step lists.
    pub grid: Vec<SweepPoint>,
}

impl Sweep {
    /// Sweeps a graded `method` around `thresholds`: the variation curve is taken at its
    /// permission, the second permission curve at its variation.
    pub fn run(
        scores: &[PairScore],
        truths: &[bool],
        method: Method,
        thresholds: Thresholds,
    ) -> Sweep {
        let at = |permission, variation| {
            evaluate_at(
                scores,
                truths,
                method,
                Thresholds {
                    permission,
                    variation,
                    max_e_value: None,
                    min_words: 0,
                },
            )
        };
        let permissions = permission_steps();
        let variations = variation_steps();
        Sweep {
            permission: permissions.iter().map(|&p| at(p, VARIATION_OFF)).collect(),
            variation_fixed: thresholds.variation,
            permission_at_variation: permissions
                .iter()
                .map(|&p| at(p, thresholds.variation))
                .collect(),
            permission_fixed: thresholds.permission,
            variation: variations
                .iter()
                .map(|&v| at(thresholds.permission, v))
                .collect(),
            grid: permissions
                .iter()
                .flat_map(|&p| variations.iter().map(move |&v| (p, v)))
                .map(|(p, v)| at(p, v))
                .collect(),
        }
    }

    /// The grid point with the highest F1; ties go to the higher permission, then the smaller
    /// variation (the stricter thresholds).
    pub fn best_f1(&self) -> Option<SweepPoint> {
        best_by(&self.grid, |p| p.figures.f1)
    }

    /// The thesis's criterion on the permission curve (variation off): the permission where the
    /// FP and FN rates are closest ("neither dominates"); ties go to the higher permission.
    pub fn balance(&self) -> Option<SweepPoint> {
        best_by(&self.permission, |p| {
            -(p.figures.fp_rate - p.figures.fn_rate).abs()
        })
    }
}

/// The point maximising `key`; among equal keys the one with the higher permission, then the
/// lower variation.
pub fn best_by(points: &[SweepPoint], key: impl Fn(&SweepPoint) -> f64) -> Option<SweepPoint> {
    points.iter().copied().max_by(|a, b| {
        key(a)
            .total_cmp(&key(b))
            .then(a.permission.total_cmp(&b.permission))
            .then(b.variation.total_cmp(&a.variation))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(sim_lr: f64, sim_rl: f64) -> PairScore {
        PairScore {
            sim_lr,
            sim_rl,
            overlap_lr: 0.0,
            overlap_rl: 0.0,
            fourgram_match: false,
            exact_match: false,
            may_match: true,
            verdict: None,
            mean_terms: 0.0,
        }
    }

    #[test]
    fn steps_are_the_decimal_grid() {
        let p = permission_steps();
        assert_eq!(p.len(), 39);
        assert_eq!((p[0], p[18], p[31], p[38]), (0.05, 0.5, 0.825, 1.0));
        let v = variation_steps();
        assert_eq!(v.len(), 22);
        assert_eq!((v[0], v[6], v[20], v[21]), (0.0, 0.15, 0.5, VARIATION_OFF));
    }

    /// The point of a curve at `permission`.
    fn at(curve: &[SweepPoint], permission: f64) -> SweepPoint {
        *curve
            .iter()
            .find(|p| p.permission == permission)
            .expect("a swept permission")
    }

    /// Four hand-made pairs (dyadic values, so no rounding is involved): a positive at
    /// (0.875, 0.875), a positive subset at (1, 0.625), a negative at (0.75, 0.75) and a negative
    /// at (0.9375, 0.5).
    #[test]
    fn hand_made_sweep() {
        let scores = [
            pair(0.875, 0.875),
            pair(1.0, 0.625),
            pair(0.75, 0.75),
            pair(0.9375, 0.5),
        ];
        let truths = [true, true, false, false];
        let sweep = Sweep::run(&scores, &truths, Method::Fuzzy, Thresholds::THESIS);
        let counts = |p: &SweepPoint| (p.figures.tp, p.figures.fp, p.figures.tn, p.figures.fn_);
        // Permission 0.5 and below, variation off: all four equal.
        assert_eq!(counts(&at(&sweep.permission, 0.5)), (2, 2, 0, 0));
        assert_eq!(counts(&sweep.permission[0]), (2, 2, 0, 0));
        // Permission 0.6: (0.9375, 0.5) drops.
        assert_eq!(counts(&at(&sweep.permission, 0.6)), (2, 1, 1, 0));
        // Permission 0.775: only (0.875, 0.875).
        assert_eq!(counts(&at(&sweep.permission, 0.775)), (1, 0, 2, 1));
        // Permission 0.9: nothing.
        assert_eq!(counts(&at(&sweep.permission, 0.9)), (0, 0, 2, 2));
        // Variation curve at 0.825: only (0.875, 0.875) passes, its difference is 0.
        assert!(sweep.variation.iter().all(|p| counts(p) == (1, 0, 2, 1)));
        // At permission 0.6, variation 0.35 rejects the subset pair (difference 0.375).
        let cell = sweep
            .grid
            .iter()
            .find(|p| p.permission == 0.6 && p.variation == 0.35)
            .unwrap();
        assert_eq!(counts(cell), (1, 1, 1, 1));
        // The thesis's variation 0.15 rejects it at every permission.
        assert!(
            sweep
                .permission_at_variation
                .iter()
                .all(|p| p.figures.tp <= 1)
        );
        // F1 0.8 (TP 2, FP 1) is the best possible: permission in (0.5, 0.625] with variation
        // >= 0.375, or up to 0.5 with variation in [0.375, 0.4375). Ties: highest permission,
        // then lowest variation.
        let best = sweep.best_f1().unwrap();
        assert!((best.figures.f1 - 0.8).abs() < 1e-12);
        assert_eq!((best.permission, best.variation), (0.625, 0.375));
        // Balance: FP rate = FN rate = 0.5 for permissions in (0.625, 0.75]; the highest wins.
        let balance = sweep.balance().unwrap();
        assert_eq!(balance.permission, 0.75);
        assert_eq!(
            (balance.figures.fp_rate, balance.figures.fn_rate),
            (0.5, 0.5)
        );
    }
}
