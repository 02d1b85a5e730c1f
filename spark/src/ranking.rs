//! Which pairs get evidence: the first N in the order `simdoc collection` reports them (score
//! descending, ties by `(a, b, relation)`), cut where their documents' sentences pass the same
//! budget. Both come from the library ([`CollectionReport::ranked`],
//! [`evidence::pairs_within_budget`]), so that the cluster compares the very pairs one machine
//! would.
//!
//! The ranking is a total order, so the first N of a whole table are the first N of the union
//! of each part's first N: the executors rank their batches, the driver ranks what they kept.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::{Array, Float64Array, RecordBatch};
use arrow_schema::Schema;
use simdoc::collection::evidence::{self, SENTENCE_BUDGET};
use simdoc::collection::{DetectedPair, Detection, DocId, Relation};
use simdoc::render::collection::CollectionReport;

use crate::prepare::{doc_id, int64_column, strings};
use crate::verification::{pair_columns, pair_fields};

/// The first `limit` pairs of a batch (`a`, `b`, `relation`, `score`) in report order, in the
/// same columns.
pub fn rank_pairs(batch: &RecordBatch, limit: usize) -> Result<RecordBatch, String> {
    let a = int64_column(batch, "a")?;
    let b = int64_column(batch, "b")?;
    let relations = strings(batch, "relation")?;
    let scores = batch
        .column_by_name("score")
        .and_then(|c| c.as_any().downcast_ref::<Float64Array>())
        .ok_or_else(|| "column score (double) missing".to_string())?;
    let mut pairs = Vec::with_capacity(batch.num_rows());
    for (row, relation) in relations.iter().enumerate() {
        let name = relation.as_deref().unwrap_or_default();
        let relation =
            Relation::from_name(name).ok_or_else(|| format!("unknown relation {name:?}"))?;
        // Built as read: DetectedPair::new would turn a symmetric pair round.
        pairs.push(DetectedPair {
            a: doc_id(a.value(row))?,
            b: doc_id(b.value(row))?,
            relation,
            score: scores.value(row),
        });
    }
    let detection = Detection {
        pairs,
        groups: Vec::new(),
    };
    // A cluster run marks no sources: the report's order is the submission-submission ranking.
    let report = CollectionReport::new("", &[], &detection, &[]);
    let columns = pair_columns(report.ranked().take(limit).map(|(_, pair)| pair));
    RecordBatch::try_new(Arc::new(schema()), columns).map_err(|e| e.to_string())
}

/// The schema of ranked pairs.
pub fn schema() -> Schema {
    Schema::new(pair_fields())
}

/// How many of the ranked `pairs`, from the first, `simdoc collection` computes evidence for:
/// those within [`SENTENCE_BUDGET`] sentences, each pair counting both documents' sentences
/// (`sentences`, by document id; a document not in it counts none).
pub fn pairs_within_budget(pairs: &[(DocId, DocId)], sentences: &HashMap<DocId, usize>) -> usize {
    evidence::pairs_within_budget(
        pairs,
        |d| sentences.get(&d).copied().unwrap_or(0),
        SENTENCE_BUDGET,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batch(rows: &[(i64, i64, &str, f64)]) -> RecordBatch {
        let columns: Vec<arrow_array::ArrayRef> = vec![
            Arc::new(arrow_array::Int64Array::from(
                rows.iter().map(|r| r.0).collect::<Vec<_>>(),
            )),
            Arc::new(arrow_array::Int64Array::from(
                rows.iter().map(|r| r.1).collect::<Vec<_>>(),
            )),
            Arc::new(arrow_array::StringArray::from(
                rows.iter().map(|r| r.2).collect::<Vec<_>>(),
            )),
            Arc::new(Float64Array::from(
                rows.iter().map(|r| r.3).collect::<Vec<_>>(),
            )),
        ];
        RecordBatch::try_new(Arc::new(schema()), columns).expect("a valid batch")
    }

    fn rows(batch: &RecordBatch) -> Vec<(i64, i64)> {
        let a = int64_column(batch, "a").expect("a");
        let b = int64_column(batch, "b").expect("b");
        (0..batch.num_rows())
            .map(|r| (a.value(r), b.value(r)))
            .collect()
    }

    #[test]
    fn pairs_are_ranked_by_score_then_by_documents() {
        let ranked = rank_pairs(
            &batch(&[
                (3, 4, "duplicate", 0.5),
                (2, 1, "contains", 0.9),
                (0, 5, "duplicate", 0.5),
                (1, 2, "duplicate", 1.0),
            ]),
            3,
        )
        .expect("ranked");
        // The containment keeps its direction (2 contains 1); ties go to the smaller a.
        assert_eq!(rows(&ranked), [(1, 2), (2, 1), (0, 5)]);
    }

    #[test]
    fn an_unknown_relation_is_an_error() {
        let error = rank_pairs(&batch(&[(0, 1, "resembles", 0.5)]), 1).expect_err("unknown");
        assert!(error.contains("resembles"), "{error}");
    }

    #[test]
    fn the_budget_counts_both_documents_of_each_pair() {
        let sentences = HashMap::from([(0, SENTENCE_BUDGET / 2), (1, SENTENCE_BUDGET / 2)]);
        assert_eq!(pairs_within_budget(&[(0, 1), (0, 1)], &sentences), 1);
        assert_eq!(pairs_within_budget(&[(0, 1), (2, 3)], &sentences), 2);
    }
}
