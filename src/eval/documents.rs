//! Document reuse against labels: each file of a label list is compared with its source
//! document ([`crate::compare`]), and a score of the file in its source decides "reused"
//! ([`DocumentScore`]): the degree of resemblance (thesis `003_cb4e1995afbee241.txt`, 4.1-4.2:
//! RS(D1, D2), the share of D1's sentences that are EQ to a sentence of D2; simdoc counts each
//! sentence once, see [`crate::compare::figures`]) or the containment (each sentence's best
//! directional Sim into the source, averaged).
//!
//! ## The label file
//! A CSV file with the header `file,source,label` and one row per comparison. `label` is a
//! category name for a file that reuses its source, or [`NOT_REUSED`] (`non`) for one that does
//! not. Paths are relative to a root folder: `--root DIR` when given (so a label file can point
//! into a data set that is not copied into the repository, e.g. `--root "$SIMDOC_DATA"`), else
//! the folder of the CSV file; absolute paths are taken as they are. The label file holds paths
//! only, never copies of the texts.
//!
//! ## The report
//! Per label: the number of comparisons, the mean resemblance and overlap both ways, and the
//! share decided "reused" (for a category that is its recall; for `non`, the false-positive
//! rate). Over all rows: precision, recall and F1 of "reused" (any category) against `non` at a
//! resemblance threshold, a sweep of that threshold, and the area under the ROC curve of the
//! resemblance.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use rayon::prelude::*;
use serde::Serialize;

use super::formats::{FormatError, LineError, read_text};
use super::metrics::{Confusion, Figures, roc_auc};
use crate::compare::{self, CompareOptions};
use crate::document::{self, LoadError, LoadOptions};
use crate::similarity::{ModelView, Thresholds};

/// The label of a file that does not reuse its source.
pub const NOT_REUSED: &str = "non";

/// One row of a label file, with its paths resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LabelRow {
    /// 1-based line of the CSV file.
    pub line: usize,
    pub file: PathBuf,
    pub source: PathBuf,
    pub label: String,
}

impl LabelRow {
    pub fn is_reused(&self) -> bool {
        self.label != NOT_REUSED
    }
}

/// Why a document evaluation failed.
#[derive(Debug, thiserror::Error)]
pub enum DocumentsError {
    #[error(transparent)]
    Labels(#[from] FormatError),
    #[error("{}, line {line}: {error}", labels.display())]
    Load {
        labels: PathBuf,
        line: usize,
        error: LoadError,
    },
    #[error("cancelled")]
    Cancelled,
}

/// Parses the text of a label file, resolving paths against `root`.
pub fn parse_labels(text: &str, root: &Path) -> Result<Vec<LabelRow>, LineError> {
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| LineError::new(1, e.to_string()))?
        .clone();
    let column = |name: &str| {
        headers.iter().position(|h| h == name).ok_or_else(|| {
            LineError::new(
                1,
                format!("the header has no `{name}` column (expected file,source,label)"),
            )
        })
    };
    let (file, source, label) = (column("file")?, column("source")?, column("label")?);
    let mut rows = Vec::new();
    for (index, record) in reader.records().enumerate() {
        let record = record.map_err(|e| LineError::new(index + 2, e.to_string()))?;
        let line = record.position().map_or(index + 2, |p| p.line() as usize);
        let field = |i: usize, name: &str| {
            record
                .get(i)
                .filter(|v| !v.is_empty())
                .ok_or_else(|| LineError::new(line, format!("the `{name}` field is empty")))
        };
        rows.push(LabelRow {
            line,
            file: root.join(field(file, "file")?),
            source: root.join(field(source, "source")?),
            label: field(label, "label")?.to_string(),
        });
    }
    Ok(rows)
}

/// Reads a label file; paths are resolved against `root`, or the file's folder.
pub fn read_labels(path: &Path, root: Option<&Path>) -> Result<Vec<LabelRow>, FormatError> {
    let text = read_text(path)?;
    let base = match root {
        Some(root) => root.to_path_buf(),
        None => path.parent().map(Path::to_path_buf).unwrap_or_default(),
    };
    let rows = parse_labels(&text, &base).map_err(|e| e.at(path))?;
    if rows.is_empty() {
        return Err(FormatError::File {
            path: path.to_path_buf(),
            problem: "lists no comparisons".into(),
        });
    }
    Ok(rows)
}

/// Which figure of a comparison decides "reused".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DocumentScore {
    /// The degree of resemblance of the file to its source (thesis eq. 4.1).
    #[default]
    Resemblance,
    /// The containment of the file in its source ([`compare::Figures::containment`]).
    Containment,
}

impl DocumentScore {
    pub fn name(self) -> &'static str {
        match self {
            DocumentScore::Resemblance => "resemblance",
            DocumentScore::Containment => "containment",
        }
    }
}

impl std::str::FromStr for DocumentScore {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "resemblance" => Ok(DocumentScore::Resemblance),
            "containment" => Ok(DocumentScore::Containment),
            _ => Err(format!(
                "unknown score `{s}` (expected resemblance or containment)"
            )),
        }
    }
}

/// One compared row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    pub row: LabelRow,
    /// The comparison's figures, the file first.
    pub figures: compare::Figures,
}

impl Outcome {
    /// The file's score in its source.
    pub fn score(&self, kind: DocumentScore) -> f64 {
        match kind {
            DocumentScore::Resemblance => self.figures.resemblance[0],
            DocumentScore::Containment => self.figures.containment[0],
        }
    }
}

/// Compares every row's file with its source, in parallel, calling `advance(1)` per row.
pub fn compare_rows(
    labels: &Path,
    rows: &[LabelRow],
    model: &dyn ModelView,
    options: &CompareOptions,
    thresholds: &Thresholds,
    advance: &(dyn Fn(u64) + Sync),
) -> Result<Vec<Outcome>, DocumentsError> {
    let load_options = LoadOptions::default();
    let never = AtomicBool::new(false);
    rows.par_iter()
        .map(|row| {
            let load = |path: &Path| {
                document::load(path, &load_options).map_err(|error| DocumentsError::Load {
                    labels: labels.to_path_buf(),
                    line: row.line,
                    error,
                })
            };
            let (file, source) = (load(&row.file)?, load(&row.source)?);
            let comparison = compare::compare(&file, &source, model, options, &never)
                .map_err(|_| DocumentsError::Cancelled)?;
            advance(1);
            Ok(Outcome {
                row: row.clone(),
                figures: comparison.figures(thresholds),
            })
        })
        .collect()
}

/// Per-label figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LabelSummary {
    pub label: String,
    pub comparisons: u64,
    /// Mean resemblance of the file to the source, and of the source to the file.
    pub mean_resemblance: [f64; 2],
    /// Mean degree of overlap (thesis eq. 3.5), file side and source side.
    pub mean_overlap: [f64; 2],
    /// Mean containment of the file in the source, and of the source in the file.
    pub mean_containment: [f64; 2],
    /// Share of the comparisons decided "reused" at the threshold.
    pub decided_reused: f64,
}

/// "Reused" decided at one score threshold.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ThresholdPoint {
    pub threshold: f64,
    #[serde(flatten)]
    pub figures: Figures,
}

/// The evaluation of a label file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DocumentsReport {
    pub labels: PathBuf,
    /// The figure deciding "reused".
    pub score: DocumentScore,
    /// The score threshold deciding "reused".
    pub threshold: f64,
    pub thresholds: Thresholds,
    pub method: crate::similarity::Method,
    pub comparisons: u64,
    pub categories: Vec<LabelSummary>,
    /// Reused (any category) against `non`, at the threshold.
    #[serde(flatten)]
    pub figures: Figures,
    /// Area under the ROC curve of the score.
    pub auc: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sweep: Option<Vec<ThresholdPoint>>,
}

/// Score thresholds swept: 0, 0.05, ..., 1.
pub fn threshold_steps() -> Vec<f64> {
    (0..=20).map(|i| f64::from(i) / 20.0).collect()
}

fn decide(outcomes: &[Outcome], score: DocumentScore, threshold: f64) -> Confusion {
    Confusion::count(
        outcomes
            .iter()
            .map(|o| (o.row.is_reused(), o.score(score) >= threshold)),
    )
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0u64), |(s, n), v| (s + v, n + 1));
    if n == 0 { 0.0 } else { sum / n as f64 }
}

/// Sums up compared rows. Labels are listed in order of first appearance, `non` last.
pub fn report(
    labels: &Path,
    outcomes: &[Outcome],
    options: &CompareOptions,
    thresholds: Thresholds,
    score: DocumentScore,
    threshold: f64,
    sweep: bool,
) -> DocumentsReport {
    let mut names: Vec<&str> = Vec::new();
    for o in outcomes {
        if !names.contains(&o.row.label.as_str()) {
            names.push(&o.row.label);
        }
    }
    names.sort_by_key(|n| *n == NOT_REUSED);
    let categories = names
        .iter()
        .map(|&name| {
            let group: Vec<&Outcome> = outcomes.iter().filter(|o| o.row.label == name).collect();
            let side = |f: &dyn Fn(&Outcome) -> f64| mean(group.iter().map(|o| f(o)));
            LabelSummary {
                label: name.to_string(),
                comparisons: group.len() as u64,
                mean_resemblance: [
                    side(&|o| o.figures.resemblance[0]),
                    side(&|o| o.figures.resemblance[1]),
                ],
                mean_overlap: [
                    side(&|o| o.figures.overlap[0]),
                    side(&|o| o.figures.overlap[1]),
                ],
                mean_containment: [
                    side(&|o| o.figures.containment[0]),
                    side(&|o| o.figures.containment[1]),
                ],
                decided_reused: side(&|o| f64::from(u8::from(o.score(score) >= threshold))),
            }
        })
        .collect();
    let scores: Vec<f64> = outcomes.iter().map(|o| o.score(score)).collect();
    let truths: Vec<bool> = outcomes.iter().map(|o| o.row.is_reused()).collect();
    DocumentsReport {
        labels: labels.to_path_buf(),
        score,
        threshold,
        thresholds,
        method: options.method,
        comparisons: outcomes.len() as u64,
        categories,
        figures: decide(outcomes, score, threshold).figures(),
        auc: roc_auc(&scores, &truths),
        sweep: sweep.then(|| {
            threshold_steps()
                .into_iter()
                .map(|t| ThresholdPoint {
                    threshold: t,
                    figures: decide(outcomes, score, t).figures(),
                })
                .collect()
        }),
    }
}

impl DocumentsReport {
    /// A plain-text summary.
    pub fn summary(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}: {} comparisons, method {}, permission {}, variation {}; reused when the file's {} in its source >= {}",
            self.labels.display(),
            self.comparisons,
            self.method.name(),
            self.thresholds.permission,
            self.thresholds.variation,
            self.score.name(),
            self.threshold
        );
        let _ = writeln!(
            out,
            "{:<16} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8}",
            "label", "n", "RS file", "RS src", "OV file", "OV src", "CT file", "CT src", "reused"
        );
        for c in &self.categories {
            let _ = writeln!(
                out,
                "{:<16} {:>6} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>7.1}%",
                c.label,
                c.comparisons,
                c.mean_resemblance[0],
                c.mean_resemblance[1],
                c.mean_overlap[0],
                c.mean_overlap[1],
                c.mean_containment[0],
                c.mean_containment[1],
                100.0 * c.decided_reused
            );
        }
        let f = &self.figures;
        let _ = writeln!(
            out,
            "reused vs non: precision {:.3}, recall {:.3}, F1 {:.3}, accuracy {:.3} (TP {}, FP {}, TN {}, FN {}); ROC AUC {}",
            f.precision,
            f.recall,
            f.f1,
            f.accuracy,
            f.tp,
            f.fp,
            f.tn,
            f.fn_,
            self.auc.map_or("n/a".to_string(), |a| format!("{a:.3}"))
        );
        if let Some(sweep) = &self.sweep {
            let _ = writeln!(
                out,
                "\n{:>9} {:>6} {:>6} {:>6} {:>6} {:>6}",
                "threshold", "prec", "recall", "F1", "FP%", "FN%"
            );
            for p in sweep {
                let f = &p.figures;
                let _ = writeln!(
                    out,
                    "{:>9.2} {:>6.3} {:>6.3} {:>6.3} {:>6.1} {:>6.1}",
                    p.threshold,
                    f.precision,
                    f.recall,
                    f.f1,
                    100.0 * f.fp_rate,
                    100.0 * f.fn_rate
                );
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::Method;
    use crate::similarity::table::TableModel;

    #[test]
    fn labels_resolve_against_the_root_and_name_bad_lines() {
        let rows = parse_labels(
            "file,source,label\nsum/a.txt, art/a.txt ,business\n/abs/b.txt,art/c.txt,non\n",
            Path::new("/data"),
        )
        .unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].file, Path::new("/data/sum/a.txt"));
        assert_eq!(rows[0].source, Path::new("/data/art/a.txt"));
        assert_eq!(rows[0].line, 2);
        assert!(rows[0].is_reused());
        assert_eq!(rows[1].file, Path::new("/abs/b.txt"));
        assert!(!rows[1].is_reused());
        // Columns in another order are fine.
        let rows = parse_labels("label,file,source\nx,a,b\n", Path::new("")).unwrap();
        assert_eq!(
            (rows[0].file.as_path(), rows[0].label.as_str()),
            (Path::new("a"), "x")
        );
        let err = parse_labels("file,label\na,b\n", Path::new("")).unwrap_err();
        assert_eq!(err.line, 1);
        assert!(err.problem.contains("`source`"));
        let err = parse_labels("file,source,label\na,b,x\na,,x\n", Path::new("")).unwrap_err();
        assert_eq!(err, LineError::new(3, "the `source` field is empty"));
    }

    /// A hand-made label file over real files: two summaries made of their source's sentences
    /// and one unrelated pair.
    #[test]
    fn hand_made_documents() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
        write(
            "art1.txt",
            "Shares rose sharply on Monday. The bank reported record profits. Analysts were surprised by the size.\n",
        );
        write(
            "sum1.txt",
            "Shares rose sharply on Monday. Analysts were surprised by the size.\n",
        );
        write(
            "art2.txt",
            "The team won the final. The coach praised the players. Fans celebrated in the streets.\n",
        );
        write("sum2.txt", "The team won the final. Rain fell all day.\n");
        write(
            "labels.csv",
            "file,source,label\nsum1.txt,art1.txt,business\nsum2.txt,art2.txt,sport\nsum1.txt,art2.txt,non\n",
        );
        let labels = dir.path().join("labels.csv");
        let rows = read_labels(&labels, None).unwrap();
        let model = TableModel::new();
        let options = CompareOptions {
            method: Method::Exact,
            ..CompareOptions::default()
        };
        let outcomes = compare_rows(
            &labels,
            &rows,
            &model,
            &options,
            &Thresholds::THESIS,
            &|_| {},
        )
        .unwrap();
        let rs: Vec<f64> = outcomes
            .iter()
            .map(|o| o.score(DocumentScore::Resemblance))
            .collect();
        assert_eq!(rs, [1.0, 0.5, 0.0]);
        // With exact matching every match scores 1, so containment equals resemblance.
        let ct: Vec<f64> = outcomes
            .iter()
            .map(|o| o.score(DocumentScore::Containment))
            .collect();
        assert_eq!(ct, [1.0, 0.5, 0.0]);
        // Resemblance of the sources: 2 of 3, 1 of 3.
        assert!((outcomes[0].figures.resemblance[1] - 2.0 / 3.0).abs() < 1e-12);
        let r = report(
            &labels,
            &outcomes,
            &options,
            Thresholds::THESIS,
            DocumentScore::Resemblance,
            0.6,
            true,
        );
        // At 0.6 only sum1 is decided reused: TP 1, FN 1, TN 1.
        assert_eq!(
            (r.figures.tp, r.figures.fn_, r.figures.tn, r.figures.fp),
            (1, 1, 1, 0)
        );
        assert_eq!(r.auc, Some(1.0));
        let labels_seen: Vec<&str> = r.categories.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(labels_seen, ["business", "sport", "non"]);
        assert_eq!(r.categories[1].decided_reused, 0.0);
        assert_eq!(r.categories[1].mean_resemblance[0], 0.5);
        let sweep = r.sweep.as_ref().unwrap();
        assert_eq!(sweep.len(), 21);
        // At 0.5 both summaries are found and the unrelated pair is not.
        assert_eq!(sweep[10].figures.f1, 1.0);
        // A missing file names the label file, the line and the file.
        let missing = vec![LabelRow {
            line: 7,
            file: dir.path().join("nope.txt"),
            source: dir.path().join("art1.txt"),
            label: "x".into(),
        }];
        let err = compare_rows(
            &labels,
            &missing,
            &model,
            &options,
            &Thresholds::THESIS,
            &|_| {},
        )
        .unwrap_err();
        let message = err.to_string();
        assert!(
            message.contains("labels.csv, line 7") && message.contains("nope.txt"),
            "{message}"
        );
    }
}
