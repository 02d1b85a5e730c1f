//! Verification: candidate pairs (found by Spark joins over signatures) to the detector's
//! decisions, by the library's own decision functions.
//!
//! Input columns, by detector: FFP and DSC `a` (the earlier document), `b` (the later),
//! `shared` (distinct hashes in common, frequent ones left out), `a_size`, `b_size` (each
//! document's distinct hashes); SimHash `a`, `b`, `distance` (Hamming); I-Match `a`, `b`;
//! CoDet `a`, `b`, `cs` (eq. 1 over the shared tree nodes), `a_scs`, `b_scs`.
//! Output: `a`, `b` (read "a RELATION b"), `relation`, `score`, `evidence` (what the decision
//! rests on, in words); pairs that are not related are left out.

use std::sync::Arc;

use arrow_array::Float64Array;
use arrow_array::builder::{Float64Builder, Int64Builder, StringBuilder};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use simdoc::collection::{DetectedPair, Relation, codet, shingling, simhash};

use crate::options::{MethodName, Options};
use crate::prepare::int64_column;

fn doc_id(value: i64) -> usize {
    usize::try_from(value).unwrap_or(usize::MAX)
}

pub fn verify(batch: &RecordBatch, options: &Options) -> Result<RecordBatch, String> {
    let a = int64_column(batch, "a")?;
    let b = int64_column(batch, "b")?;
    let mut decided: Vec<(DetectedPair, String)> = Vec::with_capacity(batch.num_rows());
    match options.method {
        MethodName::Ffp | MethodName::Dsc => {
            let shared = int64_column(batch, "shared")?;
            let a_size = int64_column(batch, "a_size")?;
            let b_size = int64_column(batch, "b_size")?;
            for row in 0..batch.num_rows() {
                let count = u32::try_from(shared.value(row)).unwrap_or(u32::MAX);
                let (sa, sb) = (doc_id(a_size.value(row)), doc_id(b_size.value(row)));
                if sa == 0 || sb == 0 {
                    continue;
                }
                let pair = shingling::containment_decision(
                    doc_id(a.value(row)),
                    doc_id(b.value(row)),
                    count,
                    sa,
                    sb,
                    options.containment_threshold,
                );
                if let Some(pair) = pair {
                    let evidence = format!("{count} shared hashes of {sa} and {sb}");
                    decided.push((pair, evidence));
                }
            }
        }
        MethodName::Simhash => {
            let distance = int64_column(batch, "distance")?;
            for row in 0..batch.num_rows() {
                let d = u32::try_from(distance.value(row)).unwrap_or(u32::MAX);
                if d > options.max_distance {
                    continue;
                }
                let pair = DetectedPair::new(
                    doc_id(a.value(row)),
                    doc_id(b.value(row)),
                    Relation::Duplicate,
                    simhash::score(d),
                );
                decided.push((pair, format!("Hamming distance {d}")));
            }
        }
        MethodName::Codet => {
            let float = |name: &str| {
                batch
                    .column_by_name(name)
                    .and_then(|c| c.as_any().downcast_ref::<Float64Array>())
                    .ok_or_else(|| format!("column {name} (double) missing"))
            };
            let (cs, a_scs, b_scs) = (float("cs")?, float("a_scs")?, float("b_scs")?);
            for row in 0..batch.num_rows() {
                let (value, sa, sb) = (cs.value(row), a_scs.value(row), b_scs.value(row));
                let pair = codet::decide(
                    doc_id(b.value(row)),
                    doc_id(a.value(row)),
                    value,
                    sb,
                    sa,
                    options.etl,
                );
                if let Some(pair) = pair {
                    let evidence = format!("CS {value:.4}, SCS {sa:.4} and {sb:.4}");
                    decided.push((pair, evidence));
                }
            }
        }
        MethodName::Imatch => {
            for row in 0..batch.num_rows() {
                let pair = DetectedPair::new(
                    doc_id(a.value(row)),
                    doc_id(b.value(row)),
                    Relation::Duplicate,
                    1.0,
                );
                decided.push((pair, "equal fingerprints".to_string()));
            }
        }
    }
    let mut evidence = StringBuilder::new();
    for (_, why) in &decided {
        evidence.append_value(why);
    }
    let mut columns = pair_columns(decided.iter().map(|(pair, _)| pair));
    columns.push(Arc::new(evidence.finish()));
    RecordBatch::try_new(Arc::new(schema()), columns).map_err(|e| e.to_string())
}

/// The schema of the decided pairs.
pub fn schema() -> Schema {
    let mut fields = pair_fields();
    fields.push(Field::new("evidence", DataType::Utf8, false));
    Schema::new(fields)
}

/// The columns `a`, `b`, `relation`, `score` of `pairs` (see [`pair_fields`]): the decided
/// pairs' first columns, and the ranked pairs' only ones.
pub fn pair_columns<'p>(pairs: impl Iterator<Item = &'p DetectedPair>) -> Vec<ArrayRef> {
    let mut a = Int64Builder::new();
    let mut b = Int64Builder::new();
    let mut relation = StringBuilder::new();
    let mut score = Float64Builder::new();
    for pair in pairs {
        a.append_value(i64::try_from(pair.a).unwrap_or(i64::MAX));
        b.append_value(i64::try_from(pair.b).unwrap_or(i64::MAX));
        relation.append_value(pair.relation.name());
        score.append_value(pair.score);
    }
    vec![
        Arc::new(a.finish()),
        Arc::new(b.finish()),
        Arc::new(relation.finish()),
        Arc::new(score.finish()),
    ]
}

/// The fields of [`pair_columns`].
pub fn pair_fields() -> Vec<Field> {
    vec![
        Field::new("a", DataType::Int64, false),
        Field::new("b", DataType::Int64, false),
        Field::new("relation", DataType::Utf8, false),
        Field::new("score", DataType::Float64, false),
    ]
}
