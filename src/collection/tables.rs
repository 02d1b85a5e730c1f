//! Reading a collection result that `simdoc-spark` wrote as Parquet tables, so that
//! `simdoc collection --from DIR` and the viewer show a cluster's results on the desktop.
//!
//! The folder holds `run.json` (the method), and three tables, each a folder of Parquet part
//! files (read in name order): `documents` (`id`, null for an unreadable document; `name`;
//! `length`; `warning`; `error`), `pairs` (`a`, `b`, `relation`, `score`, `evidence`) and
//! `groups` (`group`, `member`, `position`, 0 for the document to keep). Ids are the stream
//! order among readable documents, as in a [`Detection`] computed here.
//!
//! A fourth table, `evidence`, holds the fuzzy comparison of the highest-ranked pairs that the
//! executors computed where the documents are (`a`, `b`, `containment_a`, `containment_b`,
//! `matched_a`, `matched_b`, `sentences_a`, `sentences_b`, `passages` as the JSON of
//! `simdoc collection --json`, and `error` for a pair whose documents could not be read again):
//! the documents never come to this machine, so this is the only way a cluster's result shows
//! evidence. Runs from before the table have none, and still load.

use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::{Array, Float64Array, Int32Array, Int64Array, RecordBatch, StringArray};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use super::evidence::PairEvidence;
use super::{DetectedPair, Detection, DocId, Relation};
use crate::compare::passages::Passage;

/// Why a results folder could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TablesError {
    #[error("{path}: {error}")]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{path}: not a Parquet table simdoc-spark wrote: {reason}")]
    Format { path: PathBuf, reason: String },
}

/// A document the cluster could not read, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    pub name: String,
    pub error: String,
}

/// A pair with what its decision rests on.
#[derive(Clone, Debug, PartialEq)]
pub struct EvidencedPair {
    pub pair: DetectedPair,
    pub evidence: String,
}

/// A collection result read from tables.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TableResult {
    /// The detector's name (from `run.json`).
    pub method: String,
    /// Names of the readable documents, indexed by id.
    pub names: Vec<String>,
    /// Their lengths in bytes, indexed by id.
    pub lengths: Vec<usize>,
    /// Warnings about readable documents (e.g. read as Windows-1252): (id, warning).
    pub warnings: Vec<(DocId, String)>,
    pub unreadable: Vec<Unreadable>,
    /// Pairs sorted by `(a, b, relation)` and groups as [`Detection`] orders them.
    pub detection: Detection,
    /// The evidence of each pair of `detection.pairs`, in the same order.
    pub evidence: Vec<String>,
    /// The fuzzy comparison of the pairs the cluster computed it for (the `evidence` table), in
    /// the table's order; empty when the run computed none or predates the table.
    pub compared: Vec<ComparedPair>,
}

/// One row of the `evidence` table: a pair's evidence, or why it has none (its documents could
/// not be read again on the cluster, e.g. a file removed between the passes).
#[derive(Clone, Debug, PartialEq)]
pub struct ComparedPair {
    pub a: DocId,
    pub b: DocId,
    pub evidence: Result<PairEvidence, String>,
}

/// The evidence of `pairs` (the report's pairs in output order) as
/// [`crate::render::collection::CollectionReport::evidence`] holds it: the compared pair's
/// evidence at each rank, `None` for a pair without, up to the last pair that has one. The
/// cluster ranked the pairs as the report does, so its pairs are the first ones.
pub fn evidence_in_order(
    compared: &[ComparedPair],
    pairs: impl IntoIterator<Item = (DocId, DocId)>,
) -> Vec<Option<PairEvidence>> {
    let by_pair: std::collections::HashMap<(DocId, DocId), &PairEvidence> = compared
        .iter()
        .filter_map(|c| c.evidence.as_ref().ok().map(|e| ((c.a, c.b), e)))
        .collect();
    let mut evidence: Vec<Option<PairEvidence>> = pairs
        .into_iter()
        .map(|pair| by_pair.get(&pair).map(|e| (*e).clone()))
        .collect();
    let last = evidence
        .iter()
        .rposition(Option::is_some)
        .map_or(0, |at| at + 1);
    evidence.truncate(last);
    evidence
}

fn format_error(path: &Path, reason: impl Into<String>) -> TablesError {
    TablesError::Format {
        path: path.to_path_buf(),
        reason: reason.into(),
    }
}

/// Every record batch of a table folder (or a single Parquet file).
fn read_table(path: &Path) -> Result<Vec<RecordBatch>, TablesError> {
    let io = |error| TablesError::Io {
        path: path.to_path_buf(),
        error,
    };
    let mut files = Vec::new();
    if path.is_dir() {
        for entry in std::fs::read_dir(path).map_err(io)? {
            let file = entry.map_err(io)?.path();
            if file.extension().is_some_and(|e| e == "parquet") {
                files.push(file);
            }
        }
        files.sort();
    } else {
        files.push(path.to_path_buf());
    }
    let mut batches = Vec::new();
    for file in files {
        let opened = File::open(&file).map_err(|error| TablesError::Io {
            path: file.clone(),
            error,
        })?;
        let reader = ParquetRecordBatchReaderBuilder::try_new(opened)
            .and_then(|b| b.build())
            .map_err(|e| format_error(&file, e.to_string()))?;
        for batch in reader {
            batches.push(batch.map_err(|e| format_error(&file, e.to_string()))?);
        }
    }
    Ok(batches)
}

fn column<'b, T: 'static>(
    batch: &'b RecordBatch,
    name: &str,
    path: &Path,
) -> Result<&'b T, TablesError> {
    batch
        .column_by_name(name)
        .and_then(|c| c.as_any().downcast_ref::<T>())
        .ok_or_else(|| format_error(path, format!("column {name} missing or of another type")))
}

fn index(value: i64, path: &Path) -> Result<DocId, TablesError> {
    DocId::try_from(value).map_err(|_| format_error(path, format!("negative id {value}")))
}

/// The pair of documents in columns `a` and `b` at `row`, both among the `documents` readable
/// ones.
fn document_pair(
    [a, b]: [&Int64Array; 2],
    row: usize,
    documents: usize,
    path: &Path,
) -> Result<(DocId, DocId), TablesError> {
    let (a, b) = (index(a.value(row), path)?, index(b.value(row), path)?);
    if a >= documents || b >= documents {
        return Err(format_error(
            path,
            format!("pair ({a}, {b}) names no document"),
        ));
    }
    Ok((a, b))
}

fn text(column: &StringArray, row: usize) -> Option<String> {
    (!column.is_null(row)).then(|| column.value(row).to_string())
}

/// Reads the results folder `dir`.
pub fn read_results(dir: &Path) -> Result<TableResult, TablesError> {
    let run_path = dir.join("run.json");
    let run = std::fs::read_to_string(&run_path).map_err(|error| TablesError::Io {
        path: run_path.clone(),
        error,
    })?;
    let run: serde_json::Value =
        serde_json::from_str(&run).map_err(|e| format_error(&run_path, e.to_string()))?;
    let method = run
        .get("method")
        .and_then(|m| m.as_str())
        .ok_or_else(|| format_error(&run_path, "no method"))?
        .to_string();

    let mut result = TableResult {
        method,
        ..TableResult::default()
    };
    let documents_path = dir.join("documents");
    let mut readable: Vec<(DocId, String, usize, Option<String>)> = Vec::new();
    for batch in read_table(&documents_path)? {
        let p = &documents_path;
        let ids = column::<Int64Array>(&batch, "id", p)?;
        let names = column::<StringArray>(&batch, "name", p)?;
        let lengths = column::<Int64Array>(&batch, "length", p)?;
        let warnings = column::<StringArray>(&batch, "warning", p)?;
        let errors = column::<StringArray>(&batch, "error", p)?;
        for row in 0..batch.num_rows() {
            let name = text(names, row).unwrap_or_default();
            if ids.is_null(row) {
                result.unreadable.push(Unreadable {
                    name,
                    error: text(errors, row).unwrap_or_default(),
                });
                continue;
            }
            let length = usize::try_from(lengths.value(row)).unwrap_or(0);
            readable.push((index(ids.value(row), p)?, name, length, text(warnings, row)));
        }
    }
    readable.sort_by_key(|r| r.0);
    for (expected, (id, name, length, warning)) in readable.into_iter().enumerate() {
        if id != expected {
            return Err(format_error(
                &documents_path,
                format!("ids are not 0..n (found {id} where {expected} was due)"),
            ));
        }
        result.names.push(name);
        result.lengths.push(length);
        if let Some(w) = warning {
            result.warnings.push((id, w));
        }
    }
    let n = result.names.len();

    let pairs_path = dir.join("pairs");
    let mut pairs: Vec<(DetectedPair, String)> = Vec::new();
    for batch in read_table(&pairs_path)? {
        let p = &pairs_path;
        let a = column::<Int64Array>(&batch, "a", p)?;
        let b = column::<Int64Array>(&batch, "b", p)?;
        let relations = column::<StringArray>(&batch, "relation", p)?;
        let scores = column::<Float64Array>(&batch, "score", p)?;
        let evidence = column::<StringArray>(&batch, "evidence", p)?;
        for row in 0..batch.num_rows() {
            let (a, b) = document_pair([a, b], row, n, p)?;
            let name = relations.value(row);
            let relation = Relation::from_name(name)
                .ok_or_else(|| format_error(p, format!("unknown relation {name:?}")))?;
            let pair = DetectedPair {
                a,
                b,
                relation,
                score: scores.value(row),
            };
            pairs.push((pair, text(evidence, row).unwrap_or_default()));
        }
    }
    pairs.sort_by_key(|(p, _)| (p.a, p.b, p.relation));

    let groups_path = dir.join("groups");
    let mut members: Vec<(DocId, i32, DocId)> = Vec::new();
    for batch in read_table(&groups_path)? {
        let p = &groups_path;
        let group = column::<Int64Array>(&batch, "group", p)?;
        let member = column::<Int64Array>(&batch, "member", p)?;
        let position = column::<Int32Array>(&batch, "position", p)?;
        for row in 0..batch.num_rows() {
            let m = index(member.value(row), p)?;
            if m >= n {
                return Err(format_error(p, format!("member {m} names no document")));
            }
            members.push((index(group.value(row), p)?, position.value(row), m));
        }
    }
    members.sort_unstable();
    let mut groups: Vec<Vec<DocId>> = Vec::new();
    let mut current = None;
    for (group, _, member) in members {
        if current != Some(group) {
            groups.push(Vec::new());
            current = Some(group);
        }
        if let Some(last) = groups.last_mut() {
            last.push(member);
        }
    }
    groups.sort();

    result.evidence = pairs.iter().map(|(_, e)| e.clone()).collect();
    result.detection = Detection {
        pairs: pairs.into_iter().map(|(p, _)| p).collect(),
        groups,
    };
    result.compared = read_evidence(&dir.join("evidence"), n)?;
    Ok(result)
}

fn count(value: i64, path: &Path) -> Result<usize, TablesError> {
    usize::try_from(value).map_err(|_| format_error(path, format!("negative count {value}")))
}

/// The `evidence` table at `path` (module docs) over `documents` readable documents; none when
/// the folder has no such table (a run from before it).
fn read_evidence(path: &Path, documents: usize) -> Result<Vec<ComparedPair>, TablesError> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let mut compared = Vec::new();
    for batch in read_table(path)? {
        let p = path;
        let a = column::<Int64Array>(&batch, "a", p)?;
        let b = column::<Int64Array>(&batch, "b", p)?;
        let containment = [
            column::<Float64Array>(&batch, "containment_a", p)?,
            column::<Float64Array>(&batch, "containment_b", p)?,
        ];
        let matched = [
            column::<Int64Array>(&batch, "matched_a", p)?,
            column::<Int64Array>(&batch, "matched_b", p)?,
        ];
        let sentences = [
            column::<Int64Array>(&batch, "sentences_a", p)?,
            column::<Int64Array>(&batch, "sentences_b", p)?,
        ];
        let passages = column::<StringArray>(&batch, "passages", p)?;
        let errors = column::<StringArray>(&batch, "error", p)?;
        for row in 0..batch.num_rows() {
            let (a, b) = document_pair([a, b], row, documents, p)?;
            let evidence = match text(errors, row) {
                Some(error) => Err(error),
                None => {
                    let nulls = containment.iter().any(|c| c.is_null(row))
                        || matched.iter().chain(&sentences).any(|c| c.is_null(row))
                        || passages.is_null(row);
                    if nulls {
                        return Err(format_error(
                            p,
                            format!("pair ({a}, {b}) has neither evidence nor an error"),
                        ));
                    }
                    let listed: Vec<Passage> = serde_json::from_str(passages.value(row))
                        .map_err(|e| format_error(p, format!("pair ({a}, {b}): {e}")))?;
                    Ok(PairEvidence {
                        containment: containment.map(|c| c.value(row)),
                        matched_sentences: [
                            count(matched[0].value(row), p)?,
                            count(matched[1].value(row), p)?,
                        ],
                        sentences: [
                            count(sentences[0].value(row), p)?,
                            count(sentences[1].value(row), p)?,
                        ],
                        passages: listed,
                    })
                }
            };
            compared.push(ComparedPair { a, b, evidence });
        }
    }
    Ok(compared)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::ArrayRef;
    use parquet::arrow::ArrowWriter;

    use super::*;

    fn write(path: &Path, columns: Vec<(&str, ArrayRef)>) {
        std::fs::create_dir_all(path).unwrap();
        let batch = RecordBatch::try_from_iter(columns).unwrap();
        let file = File::create(path.join("part-00000.snappy.parquet")).unwrap();
        let mut writer = ArrowWriter::try_new(file, batch.schema(), None).unwrap();
        writer.write(&batch).unwrap();
        writer.close().unwrap();
    }

    fn strings(values: &[Option<&str>]) -> ArrayRef {
        Arc::new(StringArray::from(values.to_vec()))
    }

    /// Tables as simdoc-spark writes them: three readable documents (one read as
    /// Windows-1252), one unreadable file between them.
    pub(crate) fn write_example(dir: &Path) {
        std::fs::write(dir.join("run.json"), r#"{"method": "ffp"}"#).unwrap();
        write(
            &dir.join("documents"),
            vec![
                (
                    "id",
                    Arc::new(Int64Array::from(vec![Some(0), None, Some(1), Some(2)])),
                ),
                (
                    "name",
                    strings(&[Some("a.txt"), Some("b.bin"), Some("c.txt"), Some("d.txt")]),
                ),
                ("length", Arc::new(Int64Array::from(vec![100, 0, 40, 100]))),
                (
                    "warning",
                    strings(&[None, None, Some("not valid UTF-8"), None]),
                ),
                ("error", strings(&[None, Some("b.bin: binary"), None, None])),
            ],
        );
        write(
            &dir.join("pairs"),
            vec![
                ("a", Arc::new(Int64Array::from(vec![0, 0]))),
                ("b", Arc::new(Int64Array::from(vec![2, 1]))),
                ("relation", strings(&[Some("duplicate"), Some("contains")])),
                ("score", Arc::new(Float64Array::from(vec![1.0, 0.75]))),
                ("evidence", strings(&[Some("9 shared"), Some("3 shared")])),
            ],
        );
        write(
            &dir.join("groups"),
            vec![
                ("group", Arc::new(Int64Array::from(vec![0, 0]))),
                ("member", Arc::new(Int64Array::from(vec![2, 0]))),
                ("position", Arc::new(Int32Array::from(vec![1, 0]))),
            ],
        );
    }

    #[test]
    fn tables_read_back_as_a_detection() {
        let dir = tempfile::tempdir().unwrap();
        write_example(dir.path());
        let result = read_results(dir.path()).unwrap();
        assert_eq!(result.method, "ffp");
        assert_eq!(result.names, vec!["a.txt", "c.txt", "d.txt"]);
        assert_eq!(result.lengths, vec![100, 40, 100]);
        assert_eq!(result.warnings, vec![(1, "not valid UTF-8".to_string())]);
        assert_eq!(
            result.unreadable,
            vec![Unreadable {
                name: "b.bin".into(),
                error: "b.bin: binary".into()
            }]
        );
        assert_eq!(
            result.detection.pairs,
            vec![
                DetectedPair::new(0, 1, Relation::Contains, 0.75),
                DetectedPair::new(0, 2, Relation::Duplicate, 1.0),
            ]
        );
        assert_eq!(result.evidence, vec!["3 shared", "9 shared"]);
        assert_eq!(result.detection.groups, vec![vec![0, 2]]);
    }

    /// The evidence table of the example: the duplicate pair (0, 2) compared, with one passage;
    /// the pair (0, 1) not, its file gone.
    fn write_evidence(dir: &Path, passages: &str) {
        let int = |values: Vec<Option<i64>>| -> ArrayRef { Arc::new(Int64Array::from(values)) };
        let float = |values: Vec<Option<f64>>| -> ArrayRef { Arc::new(Float64Array::from(values)) };
        write(
            &dir.join("evidence"),
            vec![
                ("rank", int(vec![Some(0), Some(1)])),
                ("a", int(vec![Some(0), Some(0)])),
                ("b", int(vec![Some(2), Some(1)])),
                ("containment_a", float(vec![Some(1.0), None])),
                ("containment_b", float(vec![Some(0.75), None])),
                ("matched_a", int(vec![Some(4), None])),
                ("matched_b", int(vec![Some(3), None])),
                ("sentences_a", int(vec![Some(4), None])),
                ("sentences_b", int(vec![Some(4), None])),
                ("passages", strings(&[Some(passages), None])),
                ("error", strings(&[None, Some("c.txt: No such file")])),
            ],
        );
    }

    #[test]
    fn the_evidence_table_reads_back_in_the_reports_order() {
        let dir = tempfile::tempdir().unwrap();
        write_example(dir.path());
        write_evidence(
            dir.path(),
            r#"[{"a":[0,3],"b":[1,3],"sentences":3,"words":21,"score":0.9}]"#,
        );
        let result = read_results(dir.path()).unwrap();
        let compared = PairEvidence {
            containment: [1.0, 0.75],
            matched_sentences: [4, 3],
            sentences: [4, 4],
            passages: vec![Passage {
                a: [0, 3],
                b: [1, 3],
                pairs: 3,
                words: 21,
                score: 0.9,
                e_value: None,
                members: Vec::new(),
            }],
        };
        assert_eq!(
            result.compared,
            vec![
                ComparedPair {
                    a: 0,
                    b: 2,
                    evidence: Ok(compared.clone())
                },
                ComparedPair {
                    a: 0,
                    b: 1,
                    evidence: Err("c.txt: No such file".into())
                },
            ]
        );
        // The report ranks (0, 2) first (score 1.0): its evidence, and nothing for the pair
        // that failed. Ranked the other way, the failed pair holds its place with None.
        assert_eq!(
            evidence_in_order(&result.compared, [(0, 2), (0, 1)]),
            vec![Some(compared.clone())]
        );
        assert_eq!(
            evidence_in_order(&result.compared, [(0, 1), (0, 2)]),
            vec![None, Some(compared)]
        );
    }

    #[test]
    fn a_run_without_the_evidence_table_loads_without_evidence() {
        let dir = tempfile::tempdir().unwrap();
        write_example(dir.path());
        let result = read_results(dir.path()).unwrap();
        assert!(result.compared.is_empty());
        assert!(evidence_in_order(&result.compared, [(0, 2), (0, 1)]).is_empty());
    }

    #[test]
    fn unreadable_passages_are_an_error_naming_the_pair() {
        let dir = tempfile::tempdir().unwrap();
        write_example(dir.path());
        write_evidence(dir.path(), "[{\"a\": 1}]");
        let err = read_results(dir.path()).unwrap_err().to_string();
        assert!(err.contains("evidence") && err.contains("(0, 2)"), "{err}");
    }

    #[test]
    fn a_folder_without_tables_is_an_error_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let err = read_results(dir.path()).unwrap_err().to_string();
        assert!(err.contains("run.json"), "{err}");
        std::fs::write(dir.path().join("run.json"), r#"{"method": "ffp"}"#).unwrap();
        std::fs::create_dir(dir.path().join("documents")).unwrap();
        std::fs::write(dir.path().join("documents/part-0.parquet"), b"not parquet").unwrap();
        let err = read_results(dir.path()).unwrap_err().to_string();
        assert!(err.contains("part-0.parquet"), "{err}");
    }
}
