//! Containment against resemblance as the score of reworded document reuse (EVALUATION.md,
//! "Document reuse"). Run:
//!
//! ```text
//! SIMDOC_DATA=../shared/data cargo run --release --no-default-features --example eval_containment
//! ```
//!
//! Documents with known reuse are built from PAN's held-out sentence pairs (`pan10`, split
//! `holdout`: every fifth pair of PAN train, never used to choose anything). Groups of ten
//! plagiarism pairs (label 1) and groups of ten non-plagiarism pairs (label 0: in PAN, a sentence
//! from near the source sentence in the same book, so on the same topic) give, per group:
//! - a *reworded copy*: its ten `s2` against their ten `s1` (the source);
//! - a *partial copy*: three reworded sentences and seven unrelated ones, against a source of
//!   the three originals and seven other sentences;
//! - an *unrelated text*: ten non-plagiarism `s2` against their `s1`.
//!
//! Every document pair is compared with the measured preset and with the thesis preset; the
//! scores of the copy in its source are resemblance (the share of its sentences that match,
//! thesis eq. 4.1) and containment (each sentence's best Sim into the source, averaged).
//! Reported: ROC AUC of each score, whole and partial copies each against the unrelated texts,
//! and the best F1 over score thresholds 0, 0.05, ..., 1.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use rayon::prelude::*;
use simdoc::compare::Preset;
use simdoc::compare::{CompareOptions, DEFAULT_FLOOR, compare};
use simdoc::document::{SourceFormat, parse_text};
use simdoc::eval::Format;
use simdoc::eval::metrics::{Confusion, roc_auc};
use simdoc::model::ReferenceModel;
use simdoc::similarity::Method;

const SENTENCES_PER_DOCUMENT: usize = 10;
/// Reworded sentences in a partial copy.
const PARTIAL: usize = 3;

/// How a document pair was built.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Whole,
    Partial,
    Unrelated,
}

fn best_f1(scores: &[f64], truths: &[bool]) -> (f64, f64) {
    (0..=20)
        .map(|i| {
            let t = f64::from(i) / 20.0;
            let c = Confusion::count(scores.iter().zip(truths).map(|(&s, &t2)| (t2, s >= t)));
            (c.figures().f1, t)
        })
        .fold((0.0, 0.0), |best, x| if x.0 > best.0 { x } else { best })
}

fn main() {
    let Some(data) = std::env::var_os("SIMDOC_DATA").map(PathBuf::from) else {
        eprintln!("set SIMDOC_DATA to the shared data folder");
        std::process::exit(2);
    };
    let set = Format::Pan
        .load(&data.join("pairs/pan10"), Some("holdout"))
        .expect("PAN holdout");
    let group = |label: bool| -> Vec<Vec<&simdoc::eval::LabeledPair>> {
        let pairs: Vec<_> = set.pairs.iter().filter(|p| p.positive == label).collect();
        pairs
            .chunks_exact(SENTENCES_PER_DOCUMENT)
            .map(<[_]>::to_vec)
            .collect()
    };
    let (reused, unrelated) = (group(true), group(false));
    let join = |pairs: &[&simdoc::eval::LabeledPair], left: bool| -> String {
        pairs
            .iter()
            .map(|p| {
                if left {
                    p.left.as_str()
                } else {
                    p.right.as_str()
                }
            })
            .collect::<Vec<_>>()
            .join("\n\n")
    };
    // (source text, copy text, kind)
    let mut documents: Vec<(String, String, Kind)> = Vec::new();
    for (r, u) in reused.iter().zip(&unrelated) {
        documents.push((join(r, true), join(r, false), Kind::Whole));
        let mixed: Vec<&simdoc::eval::LabeledPair> =
            r[..PARTIAL].iter().chain(&u[PARTIAL..]).copied().collect();
        documents.push((join(&mixed, true), join(&mixed, false), Kind::Partial));
        documents.push((join(u, true), join(u, false), Kind::Unrelated));
    }
    let model = ReferenceModel::embedded();
    println!(
        "{} groups of {SENTENCES_PER_DOCUMENT} sentence pairs: reworded, partial ({PARTIAL} of \
         {SENTENCES_PER_DOCUMENT}) and unrelated copies",
        reused.len().min(unrelated.len())
    );
    println!("| preset | score | copies | ROC AUC | best F1 | at score |");
    println!("|---|---|---|---|---|---|");
    for &simdoc::compare::NamedPreset { name, preset, .. } in Preset::all() {
        let options = CompareOptions {
            method: Method::Fuzzy,
            floor: DEFAULT_FLOOR.min(preset.thresholds.permission),
            refine: preset.refine,
            rules: preset.rules,
            ..CompareOptions::default()
        };
        let never = AtomicBool::new(false);
        let figures: Vec<_> = documents
            .par_iter()
            .map(|(source, copy, _)| {
                let a = parse_text(source, "source", SourceFormat::Text);
                let b = parse_text(copy, "copy", SourceFormat::Text);
                compare(&a, &b, model, &options, &never)
                    .expect("not cancelled")
                    .figures(&preset.thresholds)
            })
            .collect();
        for (score, pick) in [
            (
                "resemblance",
                (|f: &simdoc::compare::Figures| f.resemblance[1]) as fn(&_) -> f64,
            ),
            ("containment", |f: &simdoc::compare::Figures| {
                f.containment[1]
            }),
        ] {
            for (copies, kind) in [("reworded", Kind::Whole), ("partial", Kind::Partial)] {
                let (scores, truths): (Vec<f64>, Vec<bool>) = figures
                    .iter()
                    .zip(&documents)
                    .filter(|(_, d)| d.2 == kind || d.2 == Kind::Unrelated)
                    .map(|(f, d)| (pick(f), d.2 == kind))
                    .unzip();
                let auc = roc_auc(&scores, &truths).unwrap_or(f64::NAN);
                let (f1, at) = best_f1(&scores, &truths);
                println!("| {name} | {score} | {copies} | {auc:.3} | {f1:.3} | {at:.2} |");
            }
        }
    }
}
