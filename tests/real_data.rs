//! Real data sets under `SIMDOC_DATA` (the shared data folder; without it these tests show as
//! ignored): alignment, collections, comparisons, documents, evaluations, the reference model,
//! sentences, sources and WordNet, mostly run in this process.
//!
//! One test binary per theme (each links the whole crate once: one binary per file linked it
//! 46 times); each file below is a module, run alone with
//! `cargo test --release --test real_data MODULE::`.

mod common;

mod alignment_real;
mod collection_class_real;
mod collection_judged_real;
mod collection_presets_real;
mod collection_real;
mod collection_sources_real;
mod compare_real;
mod documents_real;
mod eval_real;
mod model_enwiki;
mod sentences_real;
mod sources_real;
mod wordnet_real;
