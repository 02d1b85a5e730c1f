//! A labelled pair set scored and summed up: per method the confusion counts and rates, for the
//! fuzzy method the area under the ROC curve of min(Sim) and (STS-B) its correlations with the
//! human grades, optionally the threshold sweep, and (WikiSplit) the sentence-level view.

use serde::Serialize;

use super::formats::{Format, PairSet};
use super::metrics::{Confusion, Figures, pearson, roc_auc, spearman};
use super::score::PairScore;
use super::sweep::{Sweep, SweepPoint, VARIATION_OFF};
use crate::similarity::{Method, Thresholds};

/// One method's result on a pair set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MethodResult {
    pub method: Method,
    #[serde(flatten)]
    pub figures: Figures,
    /// The thresholds applied (fuzzy only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thresholds: Option<Thresholds>,
    /// Area under the ROC curve of the graded score ([`PairScore::graded`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auc: Option<f64>,
    /// Pearson's r of the graded score with the human grades (graded data sets only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pearson: Option<f64>,
    /// Spearman's rho of the graded score with the human grades.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spearman: Option<f64>,
}

/// A sweep with the two thresholds it suggests.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepReport {
    /// The grid point with the best F1.
    pub best_f1: Option<SweepPoint>,
    /// The thesis's balance point of the FP and FN rates (variation off).
    pub balance: Option<SweepPoint>,
    #[serde(flatten)]
    pub sweep: Sweep,
}

/// WikiSplit's sentence-level view: each half of a split against its original sentence.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct HalvesReport {
    pub pairs: u64,
    /// Mean Sim(half, original): how much of the half the original covers.
    pub mean_sim_half_in_original: f64,
    /// Mean Sim(original, half).
    pub mean_sim_original_in_half: f64,
    /// Halves with Sim(half, original) >= the permission: contained in the original.
    pub contained: f64,
    /// Halves whose min(Sim) reaches the permission (variation off).
    pub permission_only: f64,
    /// Halves that are EQ to their original under the thresholds (eq. 3.4).
    pub eq: f64,
}

/// The evaluation of one pair set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairsReport {
    pub dataset: Format,
    pub split: String,
    pub positives: u64,
    pub negatives: u64,
    /// How the binary label was obtained, where it is not the data set's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label_rule: Option<&'static str>,
    /// What one side of a pair is.
    pub unit: &'static str,
    /// The named preset the thresholds and rules start from (set by the command line).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preset: Option<&'static str>,
    /// The fuzzy method's pairs were decided by the learned verdict's probability, not by the
    /// Sims (its threshold is then a probability).
    pub verdict: bool,
    pub results: Vec<MethodResult>,
    /// The fuzzy matcher's threshold sweep.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sweep: Option<SweepReport>,
    /// The overlap method's threshold sweep (when it is evaluated), to compare each method at
    /// its own best thresholds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overlap_sweep: Option<SweepReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub halves: Option<HalvesReport>,
    /// WikiSplit: each original against its two halves as a two-sentence document.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub one_to_two: Option<super::one_to_two::OneToTwoReport>,
    /// Length bands and calibration (`--bands`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bands: Option<super::bands::BandsReport>,
}

/// How the label of a format's pairs is obtained, where simdoc derives it.
fn label_rule(format: Format) -> Option<&'static str> {
    match format {
        Format::Stsb => Some("positive when the grade is at least 4 (of 0-5)"),
        Format::WikiSplit => Some(
            "each original against its own split (positive) and against the split of the row half the file away (negative)",
        ),
        Format::Msrp | Format::Pan => None,
    }
}

fn unit(format: Format) -> &'static str {
    match format {
        Format::WikiSplit => "the original sentence against its two split sentences as one text",
        _ => "one sentence against one sentence",
    }
}

/// Sums up `scores` (one per pair of `set`, in order) for `methods` at `thresholds`;
/// `sweep` adds the fuzzy threshold sweep; `halves` are the scores of `set.halves`.
pub fn report(
    set: &PairSet,
    scores: &[PairScore],
    methods: &[Method],
    thresholds: Thresholds,
    sweep: bool,
    halves: Option<&[PairScore]>,
) -> PairsReport {
    let truths: Vec<bool> = set.pairs.iter().map(|p| p.positive).collect();
    let grades: Option<Vec<f64>> = set.pairs.iter().map(|p| p.grade).collect();
    let results = methods
        .iter()
        .map(|&method| {
            let confusion = Confusion::count(
                scores
                    .iter()
                    .zip(&truths)
                    .map(|(s, &t)| (t, s.decide(method, &thresholds))),
            );
            let graded: Vec<f64> = scores.iter().map(|s| s.graded(method)).collect();
            MethodResult {
                method,
                figures: confusion.figures(),
                thresholds: method.is_graded().then_some(thresholds),
                auc: roc_auc(&graded, &truths),
                pearson: grades.as_deref().and_then(|g| pearson(&graded, g)),
                spearman: grades.as_deref().and_then(|g| spearman(&graded, g)),
            }
        })
        .collect();
    let sweep_of = |method| {
        let sweep = Sweep::run(scores, &truths, method, thresholds);
        SweepReport {
            best_f1: sweep.best_f1(),
            balance: sweep.balance(),
            sweep,
        }
    };
    let overlap_sweep =
        (sweep && methods.contains(&Method::Overlap)).then(|| sweep_of(Method::Overlap));
    let sweep = sweep.then(|| sweep_of(Method::Fuzzy));
    PairsReport {
        dataset: set.format,
        split: set.split.clone(),
        positives: truths.iter().filter(|&&t| t).count() as u64,
        negatives: truths.iter().filter(|&&t| !t).count() as u64,
        label_rule: label_rule(set.format),
        unit: unit(set.format),
        preset: None,
        verdict: scores.iter().any(|s| s.verdict.is_some()),
        results,
        sweep,
        overlap_sweep,
        halves: halves.map(|h| halves_report(h, thresholds)),
        one_to_two: None,
        bands: None,
    }
}

/// The sentence-level view of (half, original) scores.
pub fn halves_report(scores: &[PairScore], thresholds: Thresholds) -> HalvesReport {
    let n = scores.len().max(1) as f64;
    let share = |f: &dyn Fn(&PairScore) -> bool| scores.iter().filter(|s| f(s)).count() as f64 / n;
    let off = Thresholds {
        permission: thresholds.permission,
        variation: VARIATION_OFF,
        max_e_value: None,
        min_words: 0,
    };
    HalvesReport {
        pairs: scores.len() as u64,
        mean_sim_half_in_original: scores.iter().map(|s| s.sim_lr).sum::<f64>() / n,
        mean_sim_original_in_half: scores.iter().map(|s| s.sim_rl).sum::<f64>() / n,
        contained: share(&|s| s.sim_lr >= thresholds.permission),
        permission_only: share(&|s| s.decide(Method::Fuzzy, &off)),
        eq: share(&|s| s.decide(Method::Fuzzy, &thresholds)),
    }
}

impl PairsReport {
    /// Whether `method`'s pairs were decided by the learned verdict.
    fn decided_by_verdict(&self, method: Method) -> bool {
        self.verdict && method == Method::Fuzzy
    }

    /// A plain-text table of the results (and of the sweep's suggestions).
    pub fn summary(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} {}: {} pairs ({} positive, {} negative); unit: {}",
            self.dataset,
            self.split,
            self.positives + self.negatives,
            self.positives,
            self.negatives,
            self.unit
        );
        if let Some(rule) = self.label_rule {
            let _ = writeln!(out, "label: {rule}");
        }
        if let Some(preset) = self.preset {
            let _ = writeln!(
                out,
                "preset: {preset}{}",
                if self.verdict {
                    " (fuzzy: the learned verdict's probability decides; overlap: its Sims at the same threshold)"
                } else {
                    ""
                }
            );
        }
        let _ = writeln!(
            out,
            "{:<9} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}",
            "method", "acc", "prec", "recall", "F1", "FP%", "FN%", "thesF", "TP", "FP", "TN", "FN"
        );
        for r in &self.results {
            let f = &r.figures;
            let _ = write!(
                out,
                "{:<9} {:>6.3} {:>6.3} {:>6.3} {:>6.3} {:>6.1} {:>6.1} {:>6.3} {:>6} {:>6} {:>6} {:>6}",
                r.method.name(),
                f.accuracy,
                f.precision,
                f.recall,
                f.f1,
                100.0 * f.fp_rate,
                100.0 * f.fn_rate,
                f.thesis_f,
                f.tp,
                f.fp,
                f.tn,
                f.fn_
            );
            if let Some(t) = r.thresholds {
                if self.decided_by_verdict(r.method) {
                    let _ = write!(out, "  (verdict probability >= {})", t.permission);
                } else {
                    let _ = write!(
                        out,
                        "  (permission {}, variation {})",
                        t.permission, t.variation
                    );
                }
            }
            out.push('\n');
        }
        for r in &self.results {
            let mut extras = Vec::new();
            if let Some(auc) = r.auc.filter(|_| r.method.is_graded()) {
                extras.push(format!("ROC AUC {auc:.3}"));
            }
            if let Some(p) = r.pearson {
                extras.push(format!("Pearson {p:.3}"));
            }
            if let Some(s) = r.spearman {
                extras.push(format!("Spearman {s:.3}"));
            }
            if !extras.is_empty() {
                let _ = writeln!(
                    out,
                    "{} ({} against the labels{}): {}",
                    r.method.name(),
                    if self.decided_by_verdict(r.method) {
                        "verdict probability"
                    } else {
                        "min Sim / match"
                    },
                    if r.pearson.is_some() {
                        " and grades"
                    } else {
                        ""
                    },
                    extras.join(", ")
                );
            }
        }
        if let Some(h) = &self.halves {
            let _ = writeln!(
                out,
                "sentence level, each half against its original ({} pairs): mean Sim(half, original) {:.3}, \
                 Sim(original, half) {:.3}; contained {:.1}%, min Sim >= permission {:.1}%, EQ {:.1}%",
                h.pairs,
                h.mean_sim_half_in_original,
                h.mean_sim_original_in_half,
                100.0 * h.contained,
                100.0 * h.permission_only,
                100.0 * h.eq
            );
        }
        if let Some(j) = &self.one_to_two {
            let _ = writeln!(
                out,
                "each original against its halves as two sentences ({} rows): matched one-to-two \
                 {:.1}%, to one half only {:.1}%, unmatched {:.1}%",
                j.rows,
                100.0 * j.one_to_two,
                100.0 * j.one_to_one,
                100.0 * j.unmatched
            );
        }
        if let Some(bands) = &self.bands {
            out.push_str(&bands.summary());
        }
        if let Some(s) = &self.sweep {
            out.push_str(&sweep_table(&s.sweep));
            if let Some(b) = &s.best_f1 {
                let _ = writeln!(
                    out,
                    "best F1 on the grid: {:.3} at permission {}, variation {} (P {:.3}, R {:.3})",
                    b.figures.f1, b.permission, b.variation, b.figures.precision, b.figures.recall
                );
            }
            if let Some(b) = &s.balance {
                let _ = writeln!(
                    out,
                    "balance of FP% and FN% (thesis criterion, variation off): permission {} (FP {:.1}%, FN {:.1}%, F1 {:.3})",
                    b.permission,
                    100.0 * b.figures.fp_rate,
                    100.0 * b.figures.fn_rate,
                    b.figures.f1
                );
            }
        }
        out
    }
}

/// The sweep's curves as text tables.
fn sweep_table(sweep: &Sweep) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let row = |out: &mut String, label: f64, p: &SweepPoint| {
        let f = &p.figures;
        let _ = writeln!(
            out,
            "{:>9.3} {:>6.3} {:>6.3} {:>6.3} {:>6.1} {:>6.1} {:>6.3}",
            label,
            f.precision,
            f.recall,
            f.f1,
            100.0 * f.fp_rate,
            100.0 * f.fn_rate,
            f.accuracy
        );
    };
    let head = |out: &mut String, first: &str| {
        let _ = writeln!(
            out,
            "{:>9} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}",
            first, "prec", "recall", "F1", "FP%", "FN%", "acc"
        );
    };
    let _ = writeln!(
        out,
        "\nsweep over the permission (variation off), and at variation {}:",
        sweep.variation_fixed
    );
    head(&mut out, "perm");
    for p in &sweep.permission {
        row(&mut out, p.permission, p);
    }
    let _ = writeln!(out, "  at variation {}:", sweep.variation_fixed);
    head(&mut out, "perm");
    for p in &sweep.permission_at_variation {
        row(&mut out, p.permission, p);
    }
    let _ = writeln!(
        out,
        "\nsweep over the variation at permission {}:",
        sweep.permission_fixed
    );
    head(&mut out, "variation");
    for p in &sweep.variation {
        row(&mut out, p.variation, p);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::formats::LabeledPair;

    fn score(sim_lr: f64, sim_rl: f64, exact: bool) -> PairScore {
        PairScore {
            sim_lr,
            sim_rl,
            overlap_lr: 0.0,
            overlap_rl: 0.0,
            fourgram_match: exact,
            exact_match: exact,
            may_match: true,
            verdict: None,
            mean_terms: 0.0,
        }
    }

    fn set(format: Format, labels: &[(bool, Option<f64>)]) -> PairSet {
        PairSet {
            format,
            split: "x".into(),
            files: Vec::new(),
            pairs: labels
                .iter()
                .map(|&(positive, grade)| LabeledPair {
                    grade,
                    ..LabeledPair::new("a", "b", positive)
                })
                .collect(),
            halves: None,
        }
    }

    #[test]
    fn report_counts_each_method_and_correlates_with_grades() {
        let pairs = set(
            Format::Stsb,
            &[
                (true, Some(5.0)),
                (true, Some(4.0)),
                (false, Some(2.0)),
                (false, Some(0.0)),
            ],
        );
        let scores = [
            score(1.0, 1.0, true),
            score(0.9, 0.85, false),
            score(0.86, 0.5, false),
            score(0.1, 0.2, false),
        ];
        let r = report(
            &pairs,
            &scores,
            &Method::ALL,
            Thresholds::THESIS,
            true,
            None,
        );
        assert_eq!((r.positives, r.negatives), (2, 2));
        let fuzzy = &r.results[0];
        assert_eq!(fuzzy.method, Method::Fuzzy);
        // (0.86, 0.5) fails the permission; the others decide correctly.
        assert_eq!(
            (
                fuzzy.figures.tp,
                fuzzy.figures.fp,
                fuzzy.figures.tn,
                fuzzy.figures.fn_
            ),
            (2, 0, 2, 0)
        );
        assert_eq!(fuzzy.auc, Some(1.0));
        // min Sim 1, 0.85, 0.5, 0.1 against grades 5, 4, 2, 0: same order.
        assert!((fuzzy.spearman.unwrap() - 1.0).abs() < 1e-12);
        // Pearson of (1, 0.85, 0.5, 0.1) and (5, 4, 2, 0), by hand: sxy 2.6625, sxx 0.481875, syy 14.75
        assert!((fuzzy.pearson.unwrap() - 0.998_680_1).abs() < 1e-6);
        let exact = &r.results[2];
        assert_eq!((exact.figures.tp, exact.figures.fn_), (1, 1));
        assert_eq!(exact.thresholds, None);
        assert_eq!(
            r.label_rule,
            Some("positive when the grade is at least 4 (of 0-5)")
        );
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["dataset"], "stsb");
        assert_eq!(json["results"][0]["method"], "fuzzy");
        assert_eq!(json["results"][0]["tp"], 2);
        assert_eq!(json["sweep"]["grid"].as_array().unwrap().len(), 39 * 22);
        assert!(r.summary().contains("Spearman 1.000"));
    }

    #[test]
    fn halves_view_separates_containment_from_eq() {
        // Half fully covered, original half covered: contained, permission fails.
        let h = halves_report(
            &[score(1.0, 0.5, false), score(0.9, 0.85, false)],
            Thresholds::THESIS,
        );
        assert_eq!(h.pairs, 2);
        assert_eq!(h.contained, 1.0);
        assert_eq!(h.permission_only, 0.5);
        assert_eq!(h.eq, 0.5);
        assert!((h.mean_sim_half_in_original - 0.95).abs() < 1e-12);
    }
}
