//! `simdoc_spark._native`: the parts of simdoc's collection detectors that run inside Spark
//! executors, called by the Python driver from `DataFrame.mapInArrow` with Arrow record batches
//! (passed through the Arrow C Data Interface, no copies through pandas).
//!
//! Every function here calls the simdoc library for the detector's logic (reading and preparing
//! documents, fingerprints, shingle hashes, pair decisions): the same code computes
//! `simdoc collection` on one machine and the cluster's tables. What Spark adds is only the
//! plumbing between them: document frequencies by `GROUP BY`, candidates by joins, groups by
//! connected components, and the highest-ranked pairs' documents brought together for their
//! evidence.

mod evidence;
mod options;
mod prepare;
mod ranking;
mod signing;
mod verification;

use arrow_array::RecordBatch;
use arrow_pyarrow::PyArrowType;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use options::Options;

fn value_error(message: String) -> PyErr {
    PyValueError::new_err(message)
}

/// Runs `work` on a batch with the driver's options, without holding the GIL (the executor's
/// Python worker may run other threads meanwhile); an error is a Python `ValueError`.
fn on_batch(
    py: Python<'_>,
    batch: PyArrowType<RecordBatch>,
    options: &str,
    work: impl FnOnce(&RecordBatch, &Options) -> Result<RecordBatch, String> + Send,
) -> PyResult<PyArrowType<RecordBatch>> {
    let options = Options::parse(options).map_err(value_error)?;
    let out = py
        .detach(|| work(&batch.0, &options))
        .map_err(value_error)?;
    Ok(PyArrowType(out))
}

/// Every option as the collection preset `name` sets it for `method` (None: the preset's own
/// detector), as JSON in the shape the executors read: the driver fills the options the user
/// left unset from it, so that `--preset` means what it means to `simdoc collection`.
#[pyfunction]
#[pyo3(signature = (name, method=None))]
fn preset_options(name: &str, method: Option<&str>) -> PyResult<String> {
    let method = method
        .map(|m| serde_json::from_value(serde_json::Value::String(m.to_string())))
        .transpose()
        .map_err(|e| value_error(format!("unknown method: {e}")))?;
    let options = Options::of_preset(name, method).map_err(value_error)?;
    serde_json::to_string(&options).map_err(|e| value_error(e.to_string()))
}

/// Every file under `paths` in simdoc's stream order (sorted, hidden entries skipped, and files
/// describing their folder such as README or LICENSE left out, as `simdoc collection` does):
/// the listing the driver numbers documents by.
#[pyfunction]
fn list_files(paths: Vec<String>) -> PyResult<Vec<String>> {
    let paths: Vec<std::path::PathBuf> = paths.into_iter().map(Into::into).collect();
    let selection =
        simdoc::selection::FileSelection::new(&[], &[]).map_err(|e| value_error(e.to_string()))?;
    let selected = selection
        .list(&paths)
        .map_err(|e| value_error(e.to_string()))?;
    Ok(selected
        .files
        .into_iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect())
}

/// Reads and prepares the files of a batch (`file_index`, `path`): one row per document, with
/// its error when the file could not be read.
#[pyfunction]
fn prepare_files(
    py: Python<'_>,
    batch: PyArrowType<RecordBatch>,
    options: &str,
) -> PyResult<PyArrowType<RecordBatch>> {
    on_batch(py, batch, options, prepare::prepare_files)
}

/// Prepares documents given as text (`row`, `name`, `text`) from a table.
#[pyfunction]
fn prepare_texts(
    py: Python<'_>,
    batch: PyArrowType<RecordBatch>,
    options: &str,
) -> PyResult<PyArrowType<RecordBatch>> {
    on_batch(py, batch, options, prepare::prepare_texts)
}

/// Fingerprints documents (`id`, `terms`: list of {term, df}) of a collection of `documents`.
#[pyfunction]
fn sign(
    py: Python<'_>,
    batch: PyArrowType<RecordBatch>,
    documents: u32,
    options: &str,
) -> PyResult<PyArrowType<RecordBatch>> {
    on_batch(py, batch, options, |batch, options| {
        signing::sign(batch, documents, options)
    })
}

/// CoDet: the corpus-tree nodes of documents (`id`, `terms`: list of {term, df}, `sentences`)
/// of a collection of `documents`, one row per document and node.
#[pyfunction]
fn nodes(
    py: Python<'_>,
    batch: PyArrowType<RecordBatch>,
    documents: u32,
    options: &str,
) -> PyResult<PyArrowType<RecordBatch>> {
    on_batch(py, batch, options, |batch, options| {
        signing::nodes(batch, documents, options)
    })
}

/// Decides candidate pairs: the detector's relation, score and evidence for each.
#[pyfunction]
fn verify(
    py: Python<'_>,
    batch: PyArrowType<RecordBatch>,
    options: &str,
) -> PyResult<PyArrowType<RecordBatch>> {
    on_batch(py, batch, options, verification::verify)
}

/// The first `limit` pairs of a batch (`a`, `b`, `relation`, `score`) in the order
/// `simdoc collection` reports them: the pairs whose evidence it computes.
#[pyfunction]
fn rank_pairs(
    py: Python<'_>,
    batch: PyArrowType<RecordBatch>,
    limit: usize,
) -> PyResult<PyArrowType<RecordBatch>> {
    let out = py
        .detach(|| ranking::rank_pairs(&batch.0, limit))
        .map_err(value_error)?;
    Ok(PyArrowType(out))
}

/// How many of the ranked `pairs` (a, b), from the first, get evidence within the sentence
/// budget of `simdoc collection`, given each document's sentences by id.
#[pyfunction]
fn pairs_within_budget(
    pairs: Vec<(usize, usize)>,
    sentences: std::collections::HashMap<usize, usize>,
) -> usize {
    ranking::pairs_within_budget(&pairs, &sentences)
}

/// The evidence of ranked pairs whose documents a batch locates (see the evidence module),
/// with the collection preset `preset`'s fuzzy matching.
#[pyfunction]
fn pair_evidence(
    py: Python<'_>,
    batch: PyArrowType<RecordBatch>,
    options: &str,
    preset: &str,
) -> PyResult<PyArrowType<RecordBatch>> {
    on_batch(py, batch, options, |batch, options| {
        evidence::evidence(batch, options, preset)
    })
}

#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(list_files, module)?)?;
    module.add_function(wrap_pyfunction!(preset_options, module)?)?;
    module.add_function(wrap_pyfunction!(prepare_files, module)?)?;
    module.add_function(wrap_pyfunction!(prepare_texts, module)?)?;
    module.add_function(wrap_pyfunction!(sign, module)?)?;
    module.add_function(wrap_pyfunction!(nodes, module)?)?;
    module.add_function(wrap_pyfunction!(verify, module)?)?;
    module.add_function(wrap_pyfunction!(rank_pairs, module)?)?;
    module.add_function(wrap_pyfunction!(pairs_within_budget, module)?)?;
    module.add_function(wrap_pyfunction!(pair_evidence, module)?)?;
    Ok(())
}
