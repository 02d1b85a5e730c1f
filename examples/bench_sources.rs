//! Speed and memory of one document against many sources (BENCHMARKS.md, "One document against
//! many sources"). Run once per pool size, each in its own process so the peak memory is the
//! pool's:
//!
//! ```text
//! SIMDOC_DATA=../shared/data cargo run --release --no-default-features --example bench_sources -- 1000
//! SIMDOC_DATA=../shared/data cargo run --release --no-default-features --example bench_sources -- 10000
//! ```
//!
//! Sources: the first N Reuters-21578 stories with at least three sentences. Documents: ten of
//! 100 sentences each, 50 copied from five pool stories (ten consecutive sentences of each, or as
//! many as it has) and the rest from stories outside the pool (unrelated text of the same
//! genre). Measured in one run: reading is left out; indexing the pool once
//! ([`SourceIndex::new`]), then the median time to attribute one document, and for comparison
//! the same document compared pair by pair with every source (`compare`, what a loop over the
//! sources costs; over the first 1,000 sources only, scaled). Peak memory is the process's
//! high-water mark (VmHWM) before and after indexing.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rayon::prelude::*;
use simdoc::compare::{CompareOptions, compare};
use simdoc::corpus;
use simdoc::document::{Document, LoadOptions, SourceFormat, parse_text};
use simdoc::model::ReferenceModel;
use simdoc::similarity::Thresholds;
use simdoc::sources::SourceIndex;

const DOCUMENTS: usize = 10;
const SOURCES_PER_DOCUMENT: usize = 5;
const COPIED_PER_SOURCE: usize = 10;
const SENTENCES: usize = 100;
/// Sources compared pair by pair for the loop's figure.
const LOOPED: usize = 1_000;

fn main() {
    let Some(data) = std::env::var_os("SIMDOC_DATA").map(PathBuf::from) else {
        eprintln!("skipped: SIMDOC_DATA not set");
        return;
    };
    let size: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000);
    let stories: Vec<Document> = load_reuters(&data)
        .into_iter()
        .filter(|d| d.sentences.len() >= 3)
        .collect();
    assert!(
        stories.len() > size + DOCUMENTS * SENTENCES,
        "not enough stories"
    );
    let (pool, outside) = stories.split_at(size);
    let documents: Vec<Document> = (0..DOCUMENTS)
        .map(|d| build_document(d, pool, outside))
        .collect();
    let pool_sentences: usize = pool.iter().map(|s| s.sentences.len()).sum();
    let model = ReferenceModel::embedded();
    let options = CompareOptions::default();
    let thresholds = Thresholds::MEASURED;
    let never = AtomicBool::new(false);
    let before = peak_kib();

    let start = Instant::now();
    let mut index = SourceIndex::new(pool, model, &options);
    let indexing = start.elapsed();
    let after_index = peak_kib();

    let mut times = Vec::new();
    let mut found = 0;
    for (d, document) in documents.iter().enumerate() {
        let start = Instant::now();
        let attribution = index
            .attribute(document, model, &thresholds, &never)
            .expect("not cancelled");
        times.push(start.elapsed().as_secs_f64());
        // The five copied sources should lead the list.
        let copied = copied_sources(d, pool.len());
        found += attribution
            .sources
            .iter()
            .take(SOURCES_PER_DOCUMENT)
            .filter(|s| copied.contains(&s.source))
            .count();
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let after_all = peak_kib();

    // The pairwise loop over the first LOOPED sources, for one document, scaled to the pool.
    let looped = pool.len().min(LOOPED);
    let start = Instant::now();
    let _: Vec<f64> = pool[..looped]
        .par_iter()
        .map(|source| {
            compare(&documents[0], source, model, &options, &never)
                .expect("not cancelled")
                .containment(thresholds.permission)[0]
        })
        .collect();
    let loop_per_document = start.elapsed().as_secs_f64() * pool.len() as f64 / looped as f64;

    println!(
        "{size} sources ({pool_sentences} sentences), {DOCUMENTS} documents of {SENTENCES} sentences"
    );
    println!(
        "| sources | sentences indexed | indexing | per document (median) | documents/s | pairwise loop per document | ratio | peak memory before index / after index / after matching | copied sources ranked in the top 5 |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    println!(
        "| {size} | {pool_sentences} | {:.2} s | {:.0} ms | {:.1} | {:.2} s{} | {:.0}x | {} / {} / {} MiB | {found} of {} |",
        indexing.as_secs_f64(),
        median * 1e3,
        1.0 / median,
        loop_per_document,
        if looped < pool.len() {
            format!(" (measured on {looped}, scaled)")
        } else {
            String::new()
        },
        loop_per_document / median,
        before / 1024,
        after_index / 1024,
        after_all / 1024,
        DOCUMENTS * SOURCES_PER_DOCUMENT
    );
}

/// Which pool stories document `d` copies from: spread over the pool.
fn copied_sources(d: usize, pool: usize) -> Vec<usize> {
    (0..SOURCES_PER_DOCUMENT)
        .map(|k| (d * SOURCES_PER_DOCUMENT + k) * 7919 % pool)
        .collect()
}

fn build_document(d: usize, pool: &[Document], outside: &[Document]) -> Document {
    let mut sentences: Vec<&str> = Vec::new();
    for s in copied_sources(d, pool.len()) {
        sentences.extend(
            pool[s]
                .sentences
                .iter()
                .take(COPIED_PER_SOURCE)
                .map(|x| x.text.as_str()),
        );
    }
    let mut other = outside[d * SENTENCES..].iter().flat_map(|s| &s.sentences);
    while sentences.len() < SENTENCES {
        match other.next() {
            Some(s) => sentences.push(&s.text),
            None => break,
        }
    }
    let text = sentences
        .chunks(10)
        .map(|c| c.join(" "))
        .collect::<Vec<_>>()
        .join("\n\n");
    parse_text(&text, "document", SourceFormat::Text)
}

/// The process's peak resident memory in KiB (0 where /proc is missing).
fn peak_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

fn load_reuters(data: &Path) -> Vec<Document> {
    let files =
        corpus::list_files(&[data.join("reference/reuters-21578")]).expect("reuters folder");
    let files: Vec<PathBuf> = files
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "sgm"))
        .collect();
    let entries: Vec<Vec<Document>> = files
        .par_iter()
        .map(|f| {
            corpus::read_entries(f, &LoadOptions::default())
                .unwrap_or_else(|e| panic!("{e}"))
                .into_iter()
                .map(|e| e.to_document())
                .collect()
        })
        .collect();
    entries.into_iter().flatten().collect()
}
