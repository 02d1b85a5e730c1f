//! Running a detector over a text-alignment corpus and scoring it with PAN's measures, per
//! background size and obfuscation.
//!
//! A detector sees each pair's two documents once and may answer for several configurations at
//! a time (a sweep compares once and filters many ways), so [`evaluate`] takes a function from a
//! pair to one outcome per configuration and [`score`] turns the outcomes of one configuration
//! into the table's rows.

use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use super::corpus::{CorpusPair, Manifest, Obfuscation};
use super::measures::{Annotation, PanMeasures, measure};
use super::pan_xml;
use crate::compare::Passage;
use crate::document::{self, Document, LoadOptions};

/// What a detector reported for one pair of documents (the suspicious one is A).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PairOutcome {
    pub detections: Vec<Annotation>,
    /// The share of the suspicious document the detector says is found in the source.
    pub containment: f64,
}

/// A pair's passages as detections: from the first sentence's start to the last one's end on
/// each side, in the characters of the documents as read ([`crate::document::offsets`]).
pub fn detections_of(
    passages: &[Passage],
    [suspicious, source]: [&Document; 2],
    names: [&str; 2],
) -> Vec<Annotation> {
    let range = |doc: &Document, [first, last]: [u32; 2]| {
        let start = doc.sentences.get(first as usize).map(|s| s.offsets.start);
        let end = doc.sentences.get(last as usize).map(|s| s.offsets.end);
        start.zip(end).map(|(s, e)| s..e.max(s))
    };
    passages
        .iter()
        .filter_map(|p| {
            Some(Annotation {
                suspicious: names[0].to_string(),
                this: range(suspicious, p.a)?,
                source: names[1].to_string(),
                that: range(source, p.b)?,
            })
        })
        .collect()
}

/// Loads the two documents of a corpus pair.
pub fn load_pair(folder: &Path, pair: &CorpusPair) -> anyhow::Result<[Document; 2]> {
    let options = LoadOptions::default();
    let suspicious = document::load(&folder.join("susp").join(&pair.suspicious), &options)?;
    let source = document::load(&folder.join("src").join(&pair.source), &options)?;
    Ok([suspicious, source])
}

/// Runs `detect` on every pair of the corpus whose size is in `sizes` (all when empty), in
/// parallel, smallest first; `progress` is called after each pair. Returns, per pair (manifest
/// order), the outcome of each configuration and the seconds the detector took.
pub fn evaluate<F>(
    folder: &Path,
    manifest: &Manifest,
    sizes: &[usize],
    detect: F,
    progress: &(dyn Fn(&CorpusPair) + Sync),
) -> anyhow::Result<Vec<(usize, Vec<PairOutcome>, f64)>>
where
    F: Fn(&CorpusPair, [&Document; 2]) -> anyhow::Result<Vec<PairOutcome>> + Sync,
{
    let chosen: Vec<usize> = (0..manifest.pairs.len())
        .filter(|&i| sizes.is_empty() || sizes.contains(&manifest.pairs[i].size))
        .collect();
    // The largest pairs one at a time (each comparison is parallel inside; two 5 MB pairs at
    // once would double the memory for nothing), the others side by side.
    let (large, small): (Vec<usize>, Vec<usize>) = chosen
        .into_iter()
        .partition(|&i| manifest.pairs[i].size >= 1_000_000);
    let run = |i: usize| -> anyhow::Result<(usize, Vec<PairOutcome>, f64)> {
        let pair = &manifest.pairs[i];
        let [suspicious, source] = load_pair(folder, pair)?;
        let started = Instant::now();
        let outcomes = detect(pair, [&suspicious, &source])?;
        let seconds = started.elapsed().as_secs_f64();
        progress(pair);
        Ok((i, outcomes, seconds))
    };
    let mut results: Vec<(usize, Vec<PairOutcome>, f64)> = small
        .into_par_iter()
        .map(run)
        .collect::<anyhow::Result<_>>()?;
    for i in large {
        results.push(run(i)?);
    }
    results.sort_by_key(|r| r.0);
    Ok(results)
}

/// Figures for the pairs without a case.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct UnrelatedFigures {
    pub pairs: usize,
    /// Characters of the suspicious documents inside a detection, per MB of suspicious text.
    pub detected_chars_per_mb: f64,
    /// The mean and largest containment reported for the suspicious documents.
    pub mean_containment: f64,
    pub max_containment: f64,
}

/// One row of the table: a size and an obfuscation, or all pairs of a size (`obfuscation` none).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    pub size: usize,
    pub obfuscation: Option<Obfuscation>,
    pub pairs: usize,
    pub measures: PanMeasures,
    /// For the unrelated pairs of this row.
    pub unrelated: Option<UnrelatedFigures>,
    /// The detector's mean seconds per pair.
    pub seconds: f64,
}

/// The rows of one configuration, and the criterion the default is chosen by.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AlignmentScore {
    pub rows: Vec<Row>,
    /// plagdet averaged over the sizes (each size's row over all its pairs).
    pub mean_plagdet: f64,
    /// The largest containment of an unrelated suspicious document at any size.
    pub worst_unrelated_containment: f64,
    /// Whether the sizes count a pool's sources (the pool regime) rather than bytes.
    pub sizes_are_sources: bool,
}

impl AlignmentScore {
    /// A row's size in words: bytes ([`size_name`]) or a pool's sources ("1000 sources").
    pub fn size_name(&self, size: usize) -> String {
        if self.sizes_are_sources {
            format!("{size} sources")
        } else {
            size_name(size)
        }
    }
}

/// Scores configuration `config` of `results` (from [`evaluate`]) against the corpus truth.
pub fn score(
    folder: &Path,
    manifest: &Manifest,
    results: &[(usize, Vec<PairOutcome>, f64)],
    config: usize,
) -> AlignmentScore {
    let mut sizes: Vec<usize> = results.iter().map(|r| manifest.pairs[r.0].size).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let mut rows = Vec::new();
    for &size in &sizes {
        let of_size: Vec<&(usize, Vec<PairOutcome>, f64)> = results
            .iter()
            .filter(|r| manifest.pairs[r.0].size == size)
            .collect();
        let groups = Obfuscation::ALL
            .map(Some)
            .into_iter()
            .chain(std::iter::once(None));
        for obfuscation in groups {
            let chosen: Vec<&&(usize, Vec<PairOutcome>, f64)> = of_size
                .iter()
                .filter(|r| obfuscation.is_none_or(|o| manifest.pairs[r.0].obfuscation == o))
                .collect();
            if chosen.is_empty() {
                continue;
            }
            let mut cases = Vec::new();
            let mut detections = Vec::new();
            for r in &chosen {
                cases.extend(pan_xml::cases_of(&manifest.pairs[r.0]));
                if let Some(outcome) = r.1.get(config) {
                    detections.extend(outcome.detections.iter().cloned());
                }
            }
            let unrelated = (obfuscation == Some(Obfuscation::NoPlagiarism))
                .then(|| unrelated_figures(folder, manifest, &chosen, config));
            rows.push(Row {
                size,
                obfuscation,
                pairs: chosen.len(),
                measures: measure(&cases, &detections),
                unrelated,
                seconds: chosen.iter().map(|r| r.2).sum::<f64>() / chosen.len() as f64,
            });
        }
    }
    let overall: Vec<&Row> = rows.iter().filter(|r| r.obfuscation.is_none()).collect();
    let mean_plagdet = if overall.is_empty() {
        0.0
    } else {
        overall.iter().map(|r| r.measures.plagdet).sum::<f64>() / overall.len() as f64
    };
    let worst_unrelated_containment = rows
        .iter()
        .filter_map(|r| r.unrelated.map(|u| u.max_containment))
        .fold(0.0, f64::max);
    AlignmentScore {
        rows,
        mean_plagdet,
        worst_unrelated_containment,
        sizes_are_sources: manifest.spec.regime == super::corpus::Regime::Pool,
    }
}

fn unrelated_figures(
    folder: &Path,
    manifest: &Manifest,
    chosen: &[&&(usize, Vec<PairOutcome>, f64)],
    config: usize,
) -> UnrelatedFigures {
    let mut characters = 0usize;
    let mut detected = 0usize;
    let mut containments = Vec::new();
    for r in chosen {
        let pair = &manifest.pairs[r.0];
        let path = folder.join("susp").join(&pair.suspicious);
        characters += std::fs::read_to_string(path)
            .map(|t| t.chars().count())
            .unwrap_or(0);
        if let Some(outcome) = r.1.get(config) {
            let mut ranges: Vec<_> = outcome.detections.iter().map(|d| d.this.clone()).collect();
            ranges.sort_unstable_by_key(|r| r.start);
            let mut reach = 0;
            for range in ranges {
                let start = range.start.max(reach);
                if range.end > start {
                    detected += range.end - start;
                    reach = range.end;
                }
            }
            containments.push(outcome.containment);
        }
    }
    UnrelatedFigures {
        pairs: chosen.len(),
        detected_chars_per_mb: if characters == 0 {
            0.0
        } else {
            detected as f64 / (characters as f64 / 1e6)
        },
        mean_containment: containments.iter().sum::<f64>() / containments.len().max(1) as f64,
        max_containment: containments.iter().copied().fold(0.0, f64::max),
    }
}

/// A size in words: "0.5 KB", "1.5 KB", "5 KB", "5 MB" (a unit's fraction shown only where
/// there is one).
pub fn size_name(bytes: usize) -> String {
    let (unit, name) = if bytes >= 1_000_000 {
        (1_000_000, "MB")
    } else {
        (1_000, "KB")
    };
    let value = bytes as f64 / unit as f64;
    if bytes.is_multiple_of(unit) {
        format!("{value:.0} {name}")
    } else {
        format!("{value:.1} {name}")
    }
}

/// The rows as a Markdown table (EVALUATION.md's layout).
pub fn markdown(score: &AlignmentScore, label: &str) -> String {
    let mut out = String::from(
        "| configuration | size | pairs | obfuscation | plagdet | precision | recall | granularity | case recall | detections | unrelated: chars/MB, containment mean / max | s/pair |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for row in &score.rows {
        let m = &row.measures;
        let unrelated = row
            .unrelated
            .map(|u| {
                format!(
                    "{:.0}, {:.2}% / {:.2}%",
                    u.detected_chars_per_mb,
                    100.0 * u.mean_containment,
                    100.0 * u.max_containment
                )
            })
            .unwrap_or_default();
        let (plagdet, recall, case_recall) = if row.obfuscation == Some(Obfuscation::NoPlagiarism) {
            (String::new(), String::new(), String::new())
        } else {
            (
                format!("{:.3}", m.plagdet),
                format!("{:.3}", m.recall),
                format!("{:.3}", m.case_recall),
            )
        };
        out.push_str(&format!(
            "| {label} | {} | {} | {} | {plagdet} | {:.3} | {recall} | {:.3} | {case_recall} | {} | {unrelated} | {:.2} |\n",
            score.size_name(row.size),
            row.pairs,
            row.obfuscation.map_or("all", Obfuscation::name),
            m.precision,
            m.granularity,
            m.detections,
            row.seconds,
        ));
    }
    out.push_str(&format!(
        "\n{label}: mean plagdet over the sizes {:.3}; largest containment of an unrelated document {:.2}%\n",
        score.mean_plagdet,
        100.0 * score.worst_unrelated_containment
    ));
    out
}

/// One row per configuration of a sweep: its thresholds, plagdet per size, its mean, and the
/// largest containment of an unrelated document.
pub fn sweep_markdown(rows: &[(crate::similarity::Thresholds, AlignmentScore)]) -> String {
    let mut sizes: Vec<usize> = rows
        .iter()
        .flat_map(|(_, s)| s.rows.iter().map(|r| r.size))
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    let mut out = String::from("| permission | chance bar | mean plagdet |");
    for &size in &sizes {
        let name = rows
            .first()
            .map_or_else(|| size_name(size), |(_, s)| s.size_name(size));
        out.push_str(&format!(" {name} |"));
    }
    out.push_str(" worst unrelated containment |\n|---|---|---|");
    out.push_str(&"---|".repeat(sizes.len() + 1));
    out.push('\n');
    for (thresholds, score) in rows {
        let bar = thresholds
            .max_e_value
            .map_or("off".to_string(), |e| format!("{e}"));
        out.push_str(&format!(
            "| {} | {bar} | {:.3} |",
            thresholds.permission, score.mean_plagdet
        ));
        for &size in &sizes {
            let plagdet = score
                .rows
                .iter()
                .find(|r| r.size == size && r.obfuscation.is_none())
                .map_or(String::new(), |r| format!("{:.3}", r.measures.plagdet));
            out.push_str(&format!(" {plagdet} |"));
        }
        out.push_str(&format!(
            " {:.2}% |\n",
            100.0 * score.worst_unrelated_containment
        ));
    }
    out
}
