//! The second pass of the idf-ranked detectors (I-Match, SimHash): each document's distinct
//! terms arrive with their document frequencies (counted by Spark with `GROUP BY`), are ranked
//! by idf as [`simdoc::collection::Collection::idf_rank`] ranks them, and are fingerprinted by
//! the library's own functions.
//!
//! Input columns: `id` (bigint), `terms` (array of struct {term: string, df: bigint}).
//! Output: `id` and `fingerprint` (I-Match: the 20-byte SHA-1, binary) or `simhash` (the
//! 64-bit SimHash's bits as a bigint); null when the document has no word to fingerprint.

use std::sync::Arc;

use arrow_array::builder::{BinaryBuilder, Int64Builder};
use arrow_array::{
    Array, ArrayRef, Int64Array, LargeStringArray, ListArray, RecordBatch, StringArray, StructArray,
};
use arrow_schema::{DataType, Field, Schema};
use simdoc::collection::hashing::sha1_u64;
use simdoc::collection::prepare::rank_terms;
use simdoc::collection::{imatch, simhash};

use crate::options::{MethodName, Options};

/// The terms of one list entry as `(term, df)`.
fn entry_terms<'a>(
    terms: &'a [Option<&'a str>],
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

pub fn sign(batch: &RecordBatch, documents: u32, options: &Options) -> Result<RecordBatch, String> {
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

    let mut fingerprints = BinaryBuilder::new();
    let mut simhashes = Int64Builder::new();
    for row in 0..batch.num_rows() {
        let start = usize::try_from(offsets[row]).unwrap_or(0);
        let end = usize::try_from(offsets[row + 1]).unwrap_or(start);
        let own = if lists.is_null(row) {
            Vec::new()
        } else {
            entry_terms(&terms, dfs, start..end)
        };
        let ranked = rank_terms(&own, documents);
        match options.method {
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
