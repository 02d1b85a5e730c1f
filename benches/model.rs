//! The reference model: how long decoding the embedded model takes, against merely checksumming
//! its bytes (the least any safe loader must do), and the cost of the lookups the matchers make.
//!
//! `cargo bench --no-default-features --bench model`

use std::hint::black_box;
use std::path::Path;

use simdoc::model::{ReferenceModel, TermId};

fn main() {
    divan::main();
}

/// Decoding the embedded model from its bytes (what `ReferenceModel::embedded` does once).
#[divan::bench(sample_count = 20)]
fn load_embedded() -> ReferenceModel {
    ReferenceModel::from_bytes(
        black_box(ReferenceModel::embedded_bytes()),
        Path::new("embedded"),
    )
    .unwrap()
}

/// The baseline: one CRC-32 pass over the same bytes.
#[divan::bench(sample_count = 20)]
fn checksum_only() -> u32 {
    crc32fast::hash(black_box(ReferenceModel::embedded_bytes()))
}

/// Term ids of words a sentence might hold, looked up by string (binary search).
const WORDS: [&str; 8] = [
    "moon",
    "lunar",
    "river",
    "intern",
    "tsunami",
    "car",
    "vehicl",
    "zzzunknown",
];

#[divan::bench]
fn term_id_8_words() -> usize {
    let model = ReferenceModel::embedded();
    WORDS
        .iter()
        .filter_map(|w| model.term_id(black_box(w)))
        .count()
}

/// All 64 correlations between two 8-word sentences (the inner loop of eq. 3.2).
#[divan::bench]
fn correlation_8x8() -> f32 {
    let model = ReferenceModel::embedded();
    let ids: Vec<TermId> = WORDS.iter().filter_map(|w| model.term_id(w)).collect();
    let mut sum = 0.0;
    for &a in &ids {
        for &b in &ids {
            sum += model.correlation(black_box(a), black_box(b));
        }
    }
    sum
}

/// The 4-gram counts of one refined sentence (what the least-frequent 4-gram matcher reads).
#[divan::bench]
fn fourgram_counts_of_a_sentence() -> u64 {
    let model = ReferenceModel::embedded();
    let grams = simdoc::text::fourgrams("iraqtopshiitmuslimclericgrandayatollahalialsistani");
    grams
        .iter()
        .map(|&g| u64::from(model.fourgram_count(black_box(g))))
        .sum()
}
