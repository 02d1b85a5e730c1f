//! The evidence stage: the fuzzy comparison of the highest-ranked pairs, computed on the
//! executors where the documents are, with the library code `simdoc collection` runs
//! ([`evidence_of_pairs`]): the thesis's fuzzy-set sentence matching (sect. 3.2.2, eq.
//! 3.2-3.4) summed up as containment both ways, the matched sentences and the passages. A
//! detector's score is on its own scale; this puts every pair on one the reader can check, and
//! the documents never have to leave the cluster for it.
//!
//! The detectors' passes keep terms and hashes, not the documents' sentences, so each pair's two
//! documents are read again: a file by its path and entry (with the first pass's load options),
//! a table's row by its text.
//!
//! Input columns: `rank`, `a`, `b`, then per side either `a_path`, `a_entry`, `b_path`, `b_entry`
//! (folder input) or `a_name`, `a_text`, `b_name`, `b_text` (table input; text as a string or
//! binary column). Output ([`schema`]): `rank`, `a`, `b`, `containment_a`, `containment_b`,
//! `matched_a`, `matched_b`, `sentences_a`, `sentences_b`, `passages` (the JSON of
//! `simdoc collection --json`) and `error`, set (and the figures null) when a document could not
//! be read again.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{Float64Builder, Int64Builder, StringBuilder};
use arrow_array::{Array, ArrayRef, Int32Array, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use simdoc::collection::evidence::{EvidenceOptions, PairEvidence, evidence_of_pairs};
use simdoc::collection::presets::CollectionPreset;
use simdoc::collection::{DocId, without_job};
use simdoc::corpus;
use simdoc::document::{self, Document};
use simdoc::model::ReferenceModel;

use crate::options::Options;
use crate::prepare::{doc_id, int64_column, load_options, strings, table_text, text_bytes};

/// The matching evidence is computed with: the collection preset's fuzzy comparison, as
/// `simdoc collection --preset NAME` computes it when no matching option is given.
pub fn evidence_options(preset: &str) -> Result<EvidenceOptions, String> {
    let preset = CollectionPreset::named(preset).ok_or_else(|| {
        let names: Vec<&str> = CollectionPreset::NAMED.iter().map(|(n, _)| *n).collect();
        format!("unknown preset {preset:?} ({})", names.join(", "))
    })?;
    Ok(EvidenceOptions::of_fuzzy(&preset.params().fuzzy))
}

/// Where one side of a pair is read from.
enum Source {
    /// Entry `entry` of the file at `path`.
    File { path: String, entry: usize },
    /// A table's text (`None` for a null).
    Text {
        name: String,
        bytes: Option<Vec<u8>>,
    },
}

/// The documents of a batch's pairs, each read once: by id, its position in `documents` or why
/// it could not be read.
#[derive(Default)]
struct Read {
    documents: Vec<Document>,
    by_id: HashMap<DocId, Result<usize, String>>,
}

impl Read {
    fn keep(&mut self, id: DocId, document: Result<Document, String>) {
        let place = document.map(|d| {
            self.documents.push(d);
            self.documents.len() - 1
        });
        self.by_id.insert(id, place);
    }

    /// Reads every source, a file once however many of its entries are wanted (a Reuters file
    /// holds 1,000 stories).
    fn all(sources: Vec<(DocId, Source)>, options: &Options) -> Read {
        let mut read = Read::default();
        let mut files: HashMap<String, Vec<(DocId, usize)>> = HashMap::new();
        let mut seen = std::collections::HashSet::new();
        for (id, source) in sources {
            // A document in several pairs is read once.
            if !seen.insert(id) {
                continue;
            }
            match source {
                Source::File { path, entry } => files.entry(path).or_default().push((id, entry)),
                Source::Text { name, bytes } => {
                    let document = table_text(&name, bytes.as_deref(), options.max_bytes)
                        .map(|t| document::parse_text(&t.text, &name, t.format));
                    read.keep(id, document);
                }
            }
        }
        let load = load_options(options);
        for (path, wanted) in files {
            match corpus::read_entries(Path::new(&path), &load) {
                Err(error) => {
                    for (id, _) in wanted {
                        read.keep(id, Err(error.to_string()));
                    }
                }
                Ok(entries) => {
                    let mut entries: Vec<Option<corpus::CorpusEntry>> =
                        entries.into_iter().map(Some).collect();
                    for (id, entry) in wanted {
                        // As `simdoc collection` reads it: a packaged document with the
                        // structure its own parser found.
                        let document = entries
                            .get_mut(entry)
                            .and_then(Option::take)
                            .map(corpus::CorpusEntry::into_document)
                            .ok_or_else(|| {
                                format!("{path}: entry {entry} is gone (the file has changed)")
                            });
                        read.keep(id, document);
                    }
                }
            }
        }
        read
    }

    fn place(&self, id: DocId) -> Result<usize, String> {
        self.by_id
            .get(&id)
            .cloned()
            .unwrap_or_else(|| Err(format!("document {id} was not read")))
    }
}

/// Where side `side` ("a" or "b") of each row is read from.
fn sources(batch: &RecordBatch, side: &str) -> Result<Vec<Source>, String> {
    if batch.column_by_name(&format!("{side}_path")).is_some() {
        let paths = strings(batch, &format!("{side}_path"))?;
        let name = format!("{side}_entry");
        let entries = batch
            .column_by_name(&name)
            .and_then(|c| c.as_any().downcast_ref::<Int32Array>())
            .ok_or_else(|| format!("column {name} (int) missing"))?;
        return Ok(paths
            .into_iter()
            .enumerate()
            .map(|(row, path)| Source::File {
                path: path.unwrap_or_default(),
                entry: usize::try_from(entries.value(row)).unwrap_or(usize::MAX),
            })
            .collect());
    }
    let names = strings(batch, &format!("{side}_name"))?;
    let texts = text_bytes(batch, &format!("{side}_text"))?;
    Ok(names
        .into_iter()
        .zip(texts)
        .map(|(name, bytes)| Source::Text {
            name: name.unwrap_or_default(),
            bytes,
        })
        .collect())
}

/// The evidence of each pair of the batch (module docs), computed with `preset`'s matching.
pub fn evidence(
    batch: &RecordBatch,
    options: &Options,
    preset: &str,
) -> Result<RecordBatch, String> {
    let evidence_options = evidence_options(preset)?;
    let ranks = int64_column(batch, "rank")?;
    let a = int64_column(batch, "a")?;
    let b = int64_column(batch, "b")?;
    let ids: Vec<(DocId, DocId)> = (0..batch.num_rows())
        .map(|row| Ok((doc_id(a.value(row))?, doc_id(b.value(row))?)))
        .collect::<Result<_, String>>()?;
    let mut wanted = Vec::with_capacity(2 * ids.len());
    for (&(a, b), (source_a, source_b)) in ids
        .iter()
        .zip(sources(batch, "a")?.into_iter().zip(sources(batch, "b")?))
    {
        wanted.push((a, source_a));
        wanted.push((b, source_b));
    }
    let read = Read::all(wanted, options);

    // The pairs whose two documents were read, as positions into `read.documents`.
    let mut outcome: Vec<Result<usize, String>> = Vec::with_capacity(ids.len());
    let mut pairs = Vec::new();
    for &(a, b) in &ids {
        match (read.place(a), read.place(b)) {
            (Ok(a), Ok(b)) => {
                outcome.push(Ok(pairs.len()));
                pairs.push((a, b));
            }
            (Err(error), _) | (_, Err(error)) => outcome.push(Err(error)),
        }
    }
    let found = without_job(|job| {
        evidence_of_pairs(
            &pairs,
            &read.documents,
            ReferenceModel::embedded(),
            &evidence_options,
            job,
            &|_, _, _, _| {},
        )
    })
    .map_err(|_| "the evidence stage was cancelled".to_string())?;

    let mut rows = Rows::default();
    for (row, (&(a, b), outcome)) in ids.iter().zip(outcome).enumerate() {
        let evidence = outcome.and_then(|at| {
            found
                .get(at)
                .cloned()
                .flatten()
                .ok_or_else(|| format!("documents {a} and {b} were not compared"))
        });
        rows.push(ranks.value(row), (a, b), evidence)?;
    }
    rows.finish()
}

/// Output rows being built.
#[derive(Default)]
struct Rows {
    rank: Int64Builder,
    a: Int64Builder,
    b: Int64Builder,
    containment: [Float64Builder; 2],
    matched: [Int64Builder; 2],
    sentences: [Int64Builder; 2],
    passages: StringBuilder,
    error: StringBuilder,
}

fn as_i64(value: usize) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

impl Rows {
    fn push(
        &mut self,
        rank: i64,
        (a, b): (DocId, DocId),
        evidence: Result<PairEvidence, String>,
    ) -> Result<(), String> {
        self.rank.append_value(rank);
        self.a.append_value(as_i64(a));
        self.b.append_value(as_i64(b));
        match evidence {
            Ok(e) => {
                for side in 0..2 {
                    self.containment[side].append_value(e.containment[side]);
                    self.matched[side].append_value(as_i64(e.matched_sentences[side]));
                    self.sentences[side].append_value(as_i64(e.sentences[side]));
                }
                let passages = serde_json::to_string(&e.passages).map_err(|e| e.to_string())?;
                self.passages.append_value(passages);
                self.error.append_null();
            }
            Err(error) => {
                for side in 0..2 {
                    self.containment[side].append_null();
                    self.matched[side].append_null();
                    self.sentences[side].append_null();
                }
                self.passages.append_null();
                self.error.append_value(error);
            }
        }
        Ok(())
    }

    fn finish(mut self) -> Result<RecordBatch, String> {
        let [containment_a, containment_b] = &mut self.containment;
        let [matched_a, matched_b] = &mut self.matched;
        let [sentences_a, sentences_b] = &mut self.sentences;
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.rank.finish()),
            Arc::new(self.a.finish()),
            Arc::new(self.b.finish()),
            Arc::new(containment_a.finish()),
            Arc::new(containment_b.finish()),
            Arc::new(matched_a.finish()),
            Arc::new(matched_b.finish()),
            Arc::new(sentences_a.finish()),
            Arc::new(sentences_b.finish()),
            Arc::new(self.passages.finish()),
            Arc::new(self.error.finish()),
        ];
        RecordBatch::try_new(Arc::new(schema()), columns).map_err(|e| e.to_string())
    }
}

/// The schema of the evidence rows (the driver declares the same in Spark's DDL).
pub fn schema() -> Schema {
    Schema::new(vec![
        Field::new("rank", DataType::Int64, false),
        Field::new("a", DataType::Int64, false),
        Field::new("b", DataType::Int64, false),
        Field::new("containment_a", DataType::Float64, true),
        Field::new("containment_b", DataType::Float64, true),
        Field::new("matched_a", DataType::Int64, true),
        Field::new("matched_b", DataType::Int64, true),
        Field::new("sentences_a", DataType::Int64, true),
        Field::new("sentences_b", DataType::Int64, true),
        Field::new("passages", DataType::Utf8, true),
        Field::new("error", DataType::Utf8, true),
    ])
}

#[cfg(test)]
mod tests {
    use arrow_array::Int64Array;

    use super::*;

    fn text_batch(rows: &[(i64, i64, Option<&str>, Option<&str>)]) -> RecordBatch {
        let int = |values: Vec<i64>| -> ArrayRef { Arc::new(Int64Array::from(values)) };
        let text = |values: Vec<Option<&str>>| -> ArrayRef {
            Arc::new(arrow_array::StringArray::from(values))
        };
        RecordBatch::try_from_iter(vec![
            ("rank", int((0..rows.len() as i64).collect())),
            ("a", int(rows.iter().map(|r| r.0).collect())),
            ("b", int(rows.iter().map(|r| r.1).collect())),
            ("a_name", text(rows.iter().map(|_| Some("x")).collect())),
            ("a_text", text(rows.iter().map(|r| r.2).collect())),
            ("b_name", text(rows.iter().map(|_| Some("y")).collect())),
            ("b_text", text(rows.iter().map(|r| r.3).collect())),
        ])
        .expect("a valid batch")
    }

    const SOURCE: &str = "The river flooded the lower town in April. Farmers lost most of their \
        spring wheat. The council opened the school as a shelter. Volunteers brought blankets \
        and food from the next valley. Nobody was hurt in the flood.";
    const SUBMISSION: &str = "My essay is about the great flood that hit our region last \
        spring. The council opened the school as a shelter. Volunteers brought blankets and \
        food from the next valley. I think this shows how people help each other.";

    #[test]
    fn a_table_pair_gets_the_librarys_evidence_and_a_null_text_an_error() {
        let out = evidence(
            &text_batch(&[
                (0, 1, Some(SUBMISSION), Some(SOURCE)),
                (0, 2, Some(SUBMISSION), None),
            ]),
            &Options::default(),
            "paper",
        )
        .expect("evidence");
        let expected = simdoc::collection::evidence::pair_evidence(
            &document::parse_text(SUBMISSION, "x", document::SourceFormat::Text),
            &document::parse_text(SOURCE, "y", document::SourceFormat::Text),
            ReferenceModel::embedded(),
            &evidence_options("paper").expect("paper"),
            &std::sync::atomic::AtomicBool::new(false),
        )
        .expect("not cancelled");
        let float = |name: &str| {
            out.column_by_name(name)
                .and_then(|c| c.as_any().downcast_ref::<arrow_array::Float64Array>())
                .expect("a double column")
                .clone()
        };
        assert_eq!(float("containment_a").value(0), expected.containment[0]);
        assert_eq!(float("containment_b").value(0), expected.containment[1]);
        assert!(expected.containment[0] > 0.0, "{expected:?}");
        let passages = strings(&out, "passages").expect("passages");
        assert_eq!(
            passages[0].as_deref(),
            Some(
                serde_json::to_string(&expected.passages)
                    .expect("json")
                    .as_str()
            )
        );
        let errors = strings(&out, "error").expect("errors");
        assert_eq!(errors[0], None);
        assert_eq!(errors[1].as_deref(), Some("y: no text"));
        assert!(float("containment_a").is_null(1));
    }

    fn file_batch(rows: &[(i64, i64, &Path, &Path)]) -> RecordBatch {
        let int = |values: Vec<i64>| -> ArrayRef { Arc::new(Int64Array::from(values)) };
        let path = |values: Vec<&Path>| -> ArrayRef {
            let values: Vec<String> = values.iter().map(|p| p.display().to_string()).collect();
            Arc::new(arrow_array::StringArray::from(values))
        };
        let entry = || -> ArrayRef { Arc::new(Int32Array::from(vec![0; rows.len()])) };
        RecordBatch::try_from_iter(vec![
            ("rank", int((0..rows.len() as i64).collect())),
            ("a", int(rows.iter().map(|r| r.0).collect())),
            ("b", int(rows.iter().map(|r| r.1).collect())),
            ("a_path", path(rows.iter().map(|r| r.2).collect())),
            ("a_entry", entry()),
            ("b_path", path(rows.iter().map(|r| r.3).collect())),
            ("b_entry", entry()),
        ])
        .expect("a valid batch")
    }

    #[test]
    fn a_document_in_several_pairs_is_read_once_for_all_of_them() {
        let folder =
            std::env::temp_dir().join(format!("simdoc-spark-evidence-{}", std::process::id()));
        std::fs::create_dir_all(&folder).expect("a temporary folder");
        let (submission, source, copy) = (
            folder.join("submission.txt"),
            folder.join("source.txt"),
            folder.join("copy.txt"),
        );
        std::fs::write(&submission, SUBMISSION).expect("written");
        std::fs::write(&source, SOURCE).expect("written");
        std::fs::write(&copy, SOURCE).expect("written");
        let out = evidence(
            &file_batch(&[(0, 1, &submission, &source), (0, 2, &submission, &copy)]),
            &Options::default(),
            "paper",
        );
        std::fs::remove_dir_all(&folder).expect("removed");
        let out = out.expect("evidence");
        assert_eq!(strings(&out, "error").expect("errors"), [None, None]);
        let passages = strings(&out, "passages").expect("passages");
        assert_eq!(
            passages[0], passages[1],
            "the source and its copy match alike"
        );
    }

    #[test]
    fn a_file_that_is_gone_is_an_error_for_its_pairs() {
        let int = |values: Vec<i64>| -> ArrayRef { Arc::new(Int64Array::from(values)) };
        let batch = RecordBatch::try_from_iter(vec![
            ("rank", int(vec![0])),
            ("a", int(vec![0])),
            ("b", int(vec![1])),
            (
                "a_path",
                Arc::new(arrow_array::StringArray::from(vec!["/nonexistent/a.txt"])) as ArrayRef,
            ),
            ("a_entry", Arc::new(Int32Array::from(vec![0])) as ArrayRef),
            (
                "b_path",
                Arc::new(arrow_array::StringArray::from(vec!["/nonexistent/b.txt"])) as ArrayRef,
            ),
            ("b_entry", Arc::new(Int32Array::from(vec![0])) as ArrayRef),
        ])
        .expect("a valid batch");
        let out = evidence(&batch, &Options::default(), "paper").expect("evidence");
        let errors = strings(&out, "error").expect("errors");
        let error = errors[0].as_deref().unwrap_or_default();
        assert!(error.contains("/nonexistent/a.txt"), "{error}");
    }

    #[test]
    fn an_unknown_preset_is_an_error() {
        assert!(evidence_options("thesis").is_err());
        assert!(evidence_options("teacher").is_ok());
    }
}
