//! The second pass of the idf-ranked detectors (I-Match, SimHash): each document's distinct
//! terms arrive with their document frequencies (counted by Spark with `GROUP BY`), are ranked
//! by idf as [`simdoc::collection::Collection::idf_rank`] ranks them, and are fingerprinted by
//! the library's own functions.
//!
//! Input columns: `id` (bigint), `terms` (array of struct {term: string, df: bigint}).
//! Output: `id` and `fingerprint` (I-Match: the 20-byte SHA-1, binary) or `simhash` (the
//! 64-bit SimHash's bits as a bigint); null when the document has no word to fingerprint.
//!
//! CoDet ([`nodes`]) takes `sentences` too and gives one row per corpus-tree node the document
//! visits: `id`, `node`, `count`, `impact` ([`simdoc::collection::codet::node_visits`]).

use std::sync::Arc;

use arrow_array::builder::{BinaryBuilder, Float64Builder, Int64Builder};
use arrow_array::{
    Array, ArrayRef, Int64Array, LargeStringArray, ListArray, RecordBatch, StringArray, StructArray,
};
use arrow_schema::{DataType, Field, Schema};
use simdoc::collection::hashing::sha1_u64;
use simdoc::collection::prepare::rank_terms;
use simdoc::collection::{codet, imatch, simhash};

use crate::options::{MethodName, Options};

/// The terms of one list entry as `(term, df)`.
fn entry_terms<'a>(
    terms: &[Option<&'a str>],
    dfs: &Int64Array,
    range: std::ops::Range<usize>,
) -> Vec<(&'a str, u32)> {
    range
        .filter_map(|i| {
            let term = terms.get(i).copied().flatten()?;
            let df = u32::try_from(dfs.value(i)).unwrap_or(u32::MAX);
            Some((term, df))
        })
        .collect()
}

/// Each document's distinct terms with their document frequencies.
type TermsWithDf<'b> = Vec<Vec<(&'b str, u32)>>;

/// The `id` and `terms` columns of a batch: each row's (term, df) pairs.
fn ids_and_terms(batch: &RecordBatch) -> Result<(&Int64Array, TermsWithDf<'_>), String> {
    let ids = batch
        .column_by_name("id")
        .and_then(|c| c.as_any().downcast_ref::<Int64Array>())
        .ok_or("column id (bigint) missing")?;
    let lists = batch
        .column_by_name("terms")
        .and_then(|c| c.as_any().downcast_ref::<ListArray>())
        .ok_or("column terms (array) missing")?;
    let entries = lists
        .values()
        .as_any()
        .downcast_ref::<StructArray>()
        .ok_or("terms must hold structs {term, df}")?;
    let term_column = entries
        .column_by_name("term")
        .ok_or("terms must hold a field term")?;
    let terms: Vec<Option<&str>> =
        if let Some(a) = term_column.as_any().downcast_ref::<StringArray>() {
            a.iter().collect()
        } else if let Some(a) = term_column.as_any().downcast_ref::<LargeStringArray>() {
            a.iter().collect()
        } else {
            return Err("term must be a string".into());
        };
    let dfs = entries
        .column_by_name("df")
        .and_then(|c| c.as_any().downcast_ref::<Int64Array>())
        .ok_or("terms must hold a field df (bigint)")?;
    let offsets = lists.value_offsets();
    let rows = (0..batch.num_rows())
        .map(|row| {
            let start = usize::try_from(offsets[row]).unwrap_or(0);
            let end = usize::try_from(offsets[row + 1]).unwrap_or(start);
            if lists.is_null(row) {
                Vec::new()
            } else {
                entry_terms(&terms, dfs, start..end)
            }
        })
        .collect();
    Ok((ids, rows))
}

pub fn sign(batch: &RecordBatch, documents: u32, options: &Options) -> Result<RecordBatch, String> {
    let (ids, rows) = ids_and_terms(batch)?;
    let mut fingerprints = BinaryBuilder::new();
    let mut simhashes = Int64Builder::new();
    for own in &rows {
        let ranked = rank_terms(own, documents);
        match options.method {
            MethodName::Codet => return Err("CoDet is signed by nodes(), not sign()".into()),
            MethodName::Imatch => {
                let fp =
                    imatch::fingerprint_of_ranked(ranked.iter().map(|r| r.0), &options.imatch());
                fingerprints.append_option(fp);
            }
            _ => {
                let features = ranked
                    .iter()
                    .map(|&(term, idf)| (sha1_u64(term.as_bytes()), idf + 1.0));
                let fp = simhash::fingerprint_of_ranked(features, &options.simhash());
                // The u64's bits as an i64: Spark has no unsigned type; xor and bit_count do
                // not care.
                simhashes.append_option(fp.map(|v| v as i64));
            }
        }
    }
    let (field, column): (Field, ArrayRef) = match options.method {
        MethodName::Imatch => (
            Field::new("fingerprint", DataType::Binary, true),
            Arc::new(fingerprints.finish()),
        ),
        _ => (
            Field::new("simhash", DataType::Int64, true),
            Arc::new(simhashes.finish()),
        ),
    };
    let schema = Schema::new(vec![Field::new("id", DataType::Int64, false), field]);
    RecordBatch::try_new(Arc::new(schema), vec![Arc::new(ids.clone()), column])
        .map_err(|e| e.to_string())
}

/// CoDet: the corpus-tree nodes each document visits (one output row per document and node).
pub fn nodes(
    batch: &RecordBatch,
    documents: u32,
    options: &Options,
) -> Result<RecordBatch, String> {
    let (ids, rows) = ids_and_terms(batch)?;
    let sentences = batch
        .column_by_name("sentences")
        .and_then(|c| c.as_any().downcast_ref::<ListArray>())
        .ok_or("column sentences (array of arrays) missing")?;
    let params = options.codet();
    let mut out_id = Int64Builder::new();
    let mut out_node = Int64Builder::new();
    let mut out_count = Int64Builder::new();
    let mut out_impact = Float64Builder::new();
    for (row, own) in rows.iter().enumerate() {
        let df: std::collections::HashMap<&str, u32> = own.iter().copied().collect();
        let document = sentences.value(row);
        let document = document
            .as_any()
            .downcast_ref::<ListArray>()
            .ok_or("sentences must be arrays of strings")?;
        let mut words: Vec<Vec<(String, u32)>> = Vec::with_capacity(document.len());
        for s in 0..document.len() {
            let sentence = document.value(s);
            let sentence = sentence
                .as_any()
                .downcast_ref::<StringArray>()
                .ok_or("sentences must be arrays of strings")?;
            words.push(
                sentence
                    .iter()
                    .flatten()
                    .map(|w| (w.to_string(), df.get(w).copied().unwrap_or(0)))
                    .collect(),
            );
        }
        let borrowed: Vec<Vec<(&str, u32)>> = words
            .iter()
            .map(|s| s.iter().map(|(w, d)| (w.as_str(), *d)).collect())
            .collect();
        for visit in codet::node_visits(&borrowed, documents, &params) {
            out_id.append_value(ids.value(row));
            // The u64's bits as an i64: only equality matters.
            out_node.append_value(visit.node as i64);
            out_count.append_value(i64::from(visit.count));
            out_impact.append_value(visit.impact);
        }
    }
    let schema = Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("node", DataType::Int64, false),
        Field::new("count", DataType::Int64, false),
        Field::new("impact", DataType::Float64, false),
    ]);
    let columns: Vec<ArrayRef> = vec![
        Arc::new(out_id.finish()),
        Arc::new(out_node.finish()),
        Arc::new(out_count.finish()),
        Arc::new(out_impact.finish()),
    ];
    RecordBatch::try_new(Arc::new(schema), columns).map_err(|e| e.to_string())
}
