//! Scoring labelled sentence pairs (`simdoc eval pairs`): every matcher on the 4,076 MSRP
//! training pairs, against merely refining their 8,152 texts (tokenising, stopwords, stemming:
//! the least any matcher must do). Without SIMDOC_DATA the pairs are synthetic (printed).
//!
//! `SIMDOC_DATA=/work/shared/data cargo bench --no-default-features --bench eval`

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::LazyLock;

use simdoc::eval::{Format, score_pairs};
use simdoc::model::ReferenceModel;

fn main() {
    divan::main();
}

/// The MSRP training pairs, or 4,076 made-up ones when the data is not at hand.
static PAIRS: LazyLock<Vec<(String, String)>> = LazyLock::new(|| {
    if let Some(data) = std::env::var_os("SIMDOC_DATA").map(PathBuf::from) {
        let set = Format::Msrp
            .load(&data.join("pairs/msrp"), Some("train"))
            .expect("MSRP train reads");
        return set.pairs.into_iter().map(|p| (p.left, p.right)).collect();
    }
    eprintln!("SIMDOC_DATA not set: benchmarking 4,076 synthetic pairs");
    const WORDS: [&str; 12] = [
        "shares", "rose", "sharply", "company", "reported", "profits", "analysts", "said",
        "market", "prices", "fell", "quarter",
    ];
    (0..4076usize)
        .map(|i| {
            let sentence = |seed: usize| -> String {
                (0..14)
                    .map(|k| WORDS[(seed * 7 + k * 5) % WORDS.len()])
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            (sentence(i), sentence(i + i % 3))
        })
        .collect()
});

/// Every matcher's scores for every pair (what `simdoc eval pairs` computes).
#[divan::bench(sample_count = 10)]
fn score_msrp_pairs() -> usize {
    let model = ReferenceModel::embedded();
    score_pairs(
        black_box(&PAIRS),
        model,
        &simdoc::compare::CompareOptions::default(),
        &|_| {},
    )
    .len()
}

/// The baseline: refining the same texts, in parallel as scoring does.
#[divan::bench(sample_count = 10)]
fn refine_msrp_texts() -> usize {
    use rayon::prelude::*;
    black_box(&PAIRS)
        .par_iter()
        .map(|(a, b)| simdoc::text::refine(a).len() + simdoc::text::refine(b).len())
        .sum()
}
