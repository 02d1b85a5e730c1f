//! The arithmetic of an evaluation: confusion counts and the rates built from them, rank
//! correlations and the area under the ROC curve.
//!
//! Rates follow the usual definitions (CoDet paper, `000_3d68e4424a5a67a6.txt`, footnote 1:
//! P = TP / (TP + FP), R = TP / (TP + FN), F1 = 2PR / (P + R)). A rate whose denominator is 0
//! is reported as 0 (nothing was decided positive, so no decision was right), never NaN.
//!
//! The thesis (`003_cb4e1995afbee241.txt`, 4.4, Tables 4.7 and 4.8) uses other words for other
//! quantities: its "precision" is 1 - FP% (FP% being false positives among the dissimilar pairs:
//! 28 of Group 1's 940, "3%", gives 0.97) and its "recall" is 1 - FN% (13 of 100 similar pairs,
//! 0.87, printed 0.88). Its F-measure of 0.92 / 0.93 is therefore the harmonic mean of the true
//! negative and true positive rates, [`Confusion::thesis_f`], not F1; both are reported so the
//! numbers can be put side by side.

use serde::Serialize;

/// Counts of decisions against the truth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Confusion {
    /// Positive pairs decided positive.
    pub tp: u64,
    /// Negative pairs decided positive.
    pub fp: u64,
    /// Negative pairs decided negative.
    pub tn: u64,
    /// Positive pairs decided negative.
    #[serde(rename = "fn")]
    pub fn_: u64,
}

/// `part / whole`, 0 for an empty whole.
fn ratio(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// The harmonic mean of two rates (F1 of a precision and a recall), 0 when both are 0.
pub fn harmonic_mean(a: f64, b: f64) -> f64 {
    if a + b <= 0.0 {
        0.0
    } else {
        2.0 * a * b / (a + b)
    }
}

impl Confusion {
    /// Counts `(truth, decision)` pairs.
    pub fn count(outcomes: impl IntoIterator<Item = (bool, bool)>) -> Confusion {
        let mut c = Confusion::default();
        for (truth, decided) in outcomes {
            c.add(truth, decided);
        }
        c
    }

    /// Counts one decision.
    pub fn add(&mut self, truth: bool, decided: bool) {
        match (truth, decided) {
            (true, true) => self.tp += 1,
            (false, true) => self.fp += 1,
            (false, false) => self.tn += 1,
            (true, false) => self.fn_ += 1,
        }
    }

    pub fn total(&self) -> u64 {
        self.tp + self.fp + self.tn + self.fn_
    }

    pub fn positives(&self) -> u64 {
        self.tp + self.fn_
    }

    pub fn negatives(&self) -> u64 {
        self.fp + self.tn
    }

    /// Pairs decided positive.
    pub fn decided_positive(&self) -> u64 {
        self.tp + self.fp
    }

    pub fn accuracy(&self) -> f64 {
        ratio(self.tp + self.tn, self.total())
    }

    pub fn precision(&self) -> f64 {
        ratio(self.tp, self.decided_positive())
    }

    pub fn recall(&self) -> f64 {
        ratio(self.tp, self.positives())
    }

    pub fn f1(&self) -> f64 {
        harmonic_mean(self.precision(), self.recall())
    }

    /// False positives among the negative pairs (the thesis's FP%).
    pub fn fp_rate(&self) -> f64 {
        ratio(self.fp, self.negatives())
    }

    /// False negatives among the positive pairs (the thesis's FN%).
    pub fn fn_rate(&self) -> f64 {
        ratio(self.fn_, self.positives())
    }

    /// The thesis's "F-Measure" (Table 4.8): the harmonic mean of 1 - FP% and 1 - FN%.
    pub fn thesis_f(&self) -> f64 {
        if self.total() == 0 {
            return 0.0;
        }
        harmonic_mean(1.0 - self.fp_rate(), 1.0 - self.fn_rate())
    }

    /// Every figure at once, for reports.
    pub fn figures(&self) -> Figures {
        Figures {
            pairs: self.total(),
            accuracy: self.accuracy(),
            precision: self.precision(),
            recall: self.recall(),
            f1: self.f1(),
            fp_rate: self.fp_rate(),
            fn_rate: self.fn_rate(),
            thesis_f: self.thesis_f(),
            tp: self.tp,
            fp: self.fp,
            tn: self.tn,
            fn_: self.fn_,
        }
    }
}

/// A confusion matrix with its rates, as reports print and serialise it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Figures {
    pub pairs: u64,
    pub accuracy: f64,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub fp_rate: f64,
    pub fn_rate: f64,
    /// The thesis's F (harmonic mean of 1 - FP rate and 1 - FN rate), see the module docs.
    pub thesis_f: f64,
    pub tp: u64,
    pub fp: u64,
    pub tn: u64,
    #[serde(rename = "fn")]
    pub fn_: u64,
}

/// Ranks starting at 1, ties sharing the mean of the ranks they span (as Spearman's rho and the
/// Mann-Whitney statistic need). NaN values rank after every number.
pub fn average_ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && values[order[end]] == values[order[start]] {
            end += 1;
        }
        // Positions start..end (0-based) hold ranks start+1..=end; their mean:
        let rank = (start + 1 + end) as f64 / 2.0;
        for &i in &order[start..end] {
            ranks[i] = rank;
        }
        start = end;
    }
    ranks
}

/// Pearson's correlation coefficient; `None` for fewer than two pairs, different lengths, or a
/// constant series (whose correlation is undefined).
pub fn pearson(xs: &[f64], ys: &[f64]) -> Option<f64> {
    if xs.len() != ys.len() || xs.len() < 2 {
        return None;
    }
    let n = xs.len() as f64;
    let mean_x = xs.iter().sum::<f64>() / n;
    let mean_y = ys.iter().sum::<f64>() / n;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (&x, &y) in xs.iter().zip(ys) {
        let (dx, dy) = (x - mean_x, y - mean_y);
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    if sxx <= 0.0 || syy <= 0.0 {
        return None;
    }
    let r = sxy / (sxx.sqrt() * syy.sqrt());
    r.is_finite().then(|| r.clamp(-1.0, 1.0))
}

/// Spearman's rank correlation: Pearson's coefficient of the average ranks.
pub fn spearman(xs: &[f64], ys: &[f64]) -> Option<f64> {
    if xs.len() != ys.len() {
        return None;
    }
    pearson(&average_ranks(xs), &average_ranks(ys))
}

/// The area under the ROC curve of `scores` (higher = more likely positive) against `truths`:
/// the probability that a random positive scores above a random negative, ties counting one
/// half (the Mann-Whitney U statistic over n+ x n-). `None` without both classes.
pub fn roc_auc(scores: &[f64], truths: &[bool]) -> Option<f64> {
    if scores.len() != truths.len() {
        return None;
    }
    let positives = truths.iter().filter(|&&t| t).count();
    let negatives = truths.len() - positives;
    if positives == 0 || negatives == 0 {
        return None;
    }
    let ranks = average_ranks(scores);
    let rank_sum: f64 = ranks
        .iter()
        .zip(truths)
        .filter(|(_, t)| **t)
        .map(|(r, _)| r)
        .sum();
    let p = positives as f64;
    let u = rank_sum - p * (p + 1.0) / 2.0;
    Some(u / (p * negatives as f64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    /// A hand-made label file: truths and decisions of 10 pairs, counted by hand:
    /// TP 4 (pairs 0-3), FN 2 (4, 5), FP 1 (6), TN 3 (7-9).
    #[test]
    fn confusion_of_a_hand_made_set() {
        let truths = [
            true, true, true, true, true, true, false, false, false, false,
        ];
        let decided = [
            true, true, true, true, false, false, true, false, false, false,
        ];
        let c = Confusion::count(truths.into_iter().zip(decided));
        assert_eq!(
            c,
            Confusion {
                tp: 4,
                fp: 1,
                tn: 3,
                fn_: 2
            }
        );
        assert!(close(c.accuracy(), 0.7));
        assert!(close(c.precision(), 0.8));
        assert!(close(c.recall(), 4.0 / 6.0));
        // 2 x 0.8 x 2/3 / (0.8 + 2/3) = 16/22
        assert!(close(c.f1(), 8.0 / 11.0));
        assert!(close(c.fp_rate(), 0.25));
        assert!(close(c.fn_rate(), 1.0 / 3.0));
        // harmonic mean of 0.75 and 2/3 = 12/17
        assert!(close(c.thesis_f(), 12.0 / 17.0));
        let f = c.figures();
        assert_eq!((f.pairs, f.tp, f.fp, f.tn, f.fn_), (10, 4, 1, 3, 2));
        let json = serde_json::to_value(f).unwrap();
        assert_eq!(json["fn"], 2);
        assert_eq!(json["tp"], 4);
    }

    /// Thesis Table 4.7 / 4.8, Group 1: 100 similar and 941 dissimilar pairs, 28 FP and 13 FN.
    /// Its printed "precision" 0.97 and "recall" 0.88 (0.87 exactly) are 1 - FP% and 1 - FN%,
    /// and its F 0.92 is their harmonic mean; standard precision is only 87 / 115.
    #[test]
    fn thesis_group_1_figures() {
        let c = Confusion {
            tp: 87,
            fn_: 13,
            fp: 28,
            tn: 941 - 28,
        };
        assert_eq!((c.fp_rate() * 100.0).round(), 3.0);
        assert_eq!((c.fn_rate() * 100.0).round(), 13.0);
        assert_eq!((c.thesis_f() * 100.0).round(), 92.0);
        assert!(close(c.precision(), 87.0 / 115.0));
        assert_eq!((c.f1() * 100.0).round(), 81.0);
    }

    #[test]
    fn empty_denominators_give_zero() {
        let c = Confusion::default();
        assert_eq!(
            (
                c.accuracy(),
                c.precision(),
                c.recall(),
                c.f1(),
                c.thesis_f()
            ),
            (0.0, 0.0, 0.0, 0.0, 0.0)
        );
        let all_negative = Confusion {
            tn: 5,
            fn_: 5,
            ..Confusion::default()
        };
        assert_eq!(all_negative.precision(), 0.0);
        assert_eq!(all_negative.f1(), 0.0);
        assert_eq!(all_negative.fn_rate(), 1.0);
    }

    #[test]
    fn ranks_average_ties() {
        assert_eq!(
            average_ranks(&[3.0, 1.0, 3.0, 2.0, 3.0]),
            vec![4.0, 1.0, 4.0, 2.0, 4.0]
        );
        assert_eq!(average_ranks(&[]), Vec::<f64>::new());
    }

    #[test]
    fn correlations_of_hand_made_series() {
        let x = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert!(close(
            pearson(&x, &[2.0, 4.0, 6.0, 8.0, 10.0]).unwrap(),
            1.0
        ));
        assert!(close(
            pearson(&x, &[5.0, 4.0, 3.0, 2.0, 1.0]).unwrap(),
            -1.0
        ));
        // x = 1..5, y = 1,3,2,5,4: sxy = 8, sxx = syy = 10 -> 0.8.
        assert!(close(pearson(&x, &[1.0, 3.0, 2.0, 5.0, 4.0]).unwrap(), 0.8));
        // Monotone but not linear: Spearman 1, Pearson below 1.
        let cubes = [1.0, 8.0, 27.0, 64.0, 125.0];
        assert!(close(spearman(&x, &cubes).unwrap(), 1.0));
        assert!(pearson(&x, &cubes).unwrap() < 0.99);
        assert_eq!(pearson(&x, &[1.0; 5]), None);
        assert_eq!(pearson(&[1.0], &[1.0]), None);
        assert_eq!(pearson(&x, &[1.0, 2.0]), None);
    }

    #[test]
    fn auc_of_hand_made_scores() {
        // Positives 0.9, 0.6, 0.4; negatives 0.5, 0.4, 0.1. Pairs (pos, neg) won: 0.9 and 0.6
        // beat all 3, 0.4 beats 0.1 and ties 0.4 -> 3 + 3 + 1.5 = 7.5 of 9.
        let scores = [0.9, 0.6, 0.4, 0.5, 0.4, 0.1];
        let truths = [true, true, true, false, false, false];
        assert!(close(roc_auc(&scores, &truths).unwrap(), 7.5 / 9.0));
        assert_eq!(
            roc_auc(&[0.2, 0.8], &[false, true]).map(|a| a.to_bits()),
            Some(1.0f64.to_bits())
        );
        assert_eq!(roc_auc(&[0.2, 0.8], &[true, true]), None);
    }

    proptest! {
        #[test]
        fn auc_equals_pairwise_count(
            data in proptest::collection::vec((0u8..6, any::<bool>()), 1..40)
        ) {
            let scores: Vec<f64> = data.iter().map(|&(s, _)| f64::from(s)).collect();
            let truths: Vec<bool> = data.iter().map(|&(_, t)| t).collect();
            let mut wins = 0.0;
            let mut pairs = 0.0;
            for (i, &ti) in truths.iter().enumerate() {
                for (j, &tj) in truths.iter().enumerate() {
                    if ti && !tj {
                        pairs += 1.0;
                        if scores[i] > scores[j] {
                            wins += 1.0;
                        } else if scores[i] == scores[j] {
                            wins += 0.5;
                        }
                    }
                }
            }
            let auc = roc_auc(&scores, &truths);
            if pairs == 0.0 {
                prop_assert_eq!(auc, None);
            } else {
                prop_assert!((auc.unwrap() - wins / pairs).abs() < 1e-9);
            }
        }

        #[test]
        fn rates_stay_in_the_unit_interval(tp in 0u64..50, fp in 0u64..50, tn in 0u64..50, fn_ in 0u64..50) {
            let c = Confusion { tp, fp, tn, fn_ };
            for x in [c.accuracy(), c.precision(), c.recall(), c.f1(), c.fp_rate(), c.fn_rate(), c.thesis_f()] {
                prop_assert!((0.0..=1.0).contains(&x));
            }
        }
    }
}
