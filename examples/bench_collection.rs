//! Speed of the collection detectors (BENCHMARKS.md, "Collection detectors"): documents per
//! second on Reuters-21578 at 5,000, 10,000 and 20,000 stories and on the BBC articles (2,225)
//! and articles + summaries (4,450). Run through `scripts/bench_collection.sh`, which also runs
//! datasketch's MinHash LSH on the same documents; by hand:
//! `SIMDOC_DATA=/work/shared/data cargo run --release --no-default-features --example
//! bench_collection -- OUT_DIR`. The refined terms of every set are written to OUT_DIR as JSON
//! lines (`{"name", "path", "terms"}`) for the peer to read, so both see the same words.

// For the BBC summaries' sentence separation, as the evaluations read them.
#[allow(dead_code)]
#[path = "support/truth_sets.rs"]
mod truth_sets;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use simdoc::collection::{Collection, Method, Normaliser, without_job};
use simdoc::corpus;
use simdoc::document::{self, Document, LoadOptions, SourceFormat};

/// A set's label, document names, file paths (for the peer's truth) and documents.
type BenchSet = (String, Vec<String>, Vec<String>, Vec<Document>);

const CATEGORIES: [&str; 5] = ["business", "entertainment", "politics", "sport", "tech"];

fn main() {
    let Some(data) = std::env::var_os("SIMDOC_DATA").map(PathBuf::from) else {
        eprintln!("skipped: SIMDOC_DATA not set");
        return;
    };
    let out = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "target/bench-collection".into()),
    );
    std::fs::create_dir_all(&out).expect("output folder");

    let reuters = load_reuters(&data);
    let (bbc_names, bbc_paths, bbc_docs) = load_bbc(&data, false);
    let (sum_names, sum_paths, sum_docs) = load_bbc(&data, true);

    let mut sets: Vec<BenchSet> = Vec::new();
    for size in [5_000, 10_000, 20_000] {
        let n = size.min(reuters.0.len());
        sets.push((
            format!("reuters-{size}"),
            reuters.0[..n].to_vec(),
            reuters.0[..n].to_vec(),
            reuters.1[..n].to_vec(),
        ));
    }
    sets.push((
        "bbc".into(),
        bbc_names.clone(),
        bbc_paths.clone(),
        bbc_docs.clone(),
    ));
    let mut mixed_names = bbc_names;
    mixed_names.extend(sum_names);
    let mut mixed_paths = bbc_paths;
    mixed_paths.extend(sum_paths);
    let mut mixed_docs = bbc_docs;
    mixed_docs.extend(sum_docs);
    sets.push(("bbc+summaries".into(), mixed_names, mixed_paths, mixed_docs));

    println!(
        "| set | documents | preparing (docs/s) | {} |",
        Method::all_defaults()
            .iter()
            .map(|m| m.name())
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!(
        "|---|---|---|{}",
        "---|".repeat(Method::all_defaults().len())
    );
    let mut collections: Vec<(String, Collection)> = Vec::new();
    for (label, names, paths, docs) in &sets {
        let start = Instant::now();
        let collection = without_job(|job| {
            Collection::from_documents(names.clone(), docs, Normaliser::Refine, job)
        })
        .expect("never cancelled");
        let prepare = start.elapsed().as_secs_f64();
        dump_terms(&out.join(format!("{label}.jsonl")), &collection, paths);
        let mut cells = vec![format!("{:.0}", docs.len() as f64 / prepare)];
        for method in Method::all_defaults() {
            let start = Instant::now();
            let found =
                without_job(|job| method.detect(&collection, job)).expect("never cancelled");
            let secs = start.elapsed().as_secs_f64();
            cells.push(format!(
                "{:.0} ({} pairs)",
                docs.len() as f64 / secs,
                found.pairs.len()
            ));
        }
        println!("| {label} | {} | {} |", docs.len(), cells.join(" | "));
        collections.push((label.clone(), collection));
    }
    // Every detector fingerprints its documents on every core (qSign also checks a batch of
    // documents at a time in parallel; CoDet stays on one thread): each on one thread and on
    // all, alternately, three times each (the best run of each), in this run.
    println!(
        "\n## Each detector on one thread and on all cores (documents per second, best of three)"
    );
    let threads = rayon::current_num_threads();
    println!("| set | detector | one thread | {threads} threads | speed-up |");
    println!("|---|---|---|---|---|");
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool");
    for (label, collection) in collections
        .iter()
        .filter(|(label, _)| label == "reuters-20000" || label == "bbc+summaries")
    {
        for method in Method::all_defaults() {
            let run = || {
                let start = Instant::now();
                without_job(|job| method.detect(collection, job)).expect("never cancelled");
                start.elapsed().as_secs_f64()
            };
            let (mut single, mut all) = (f64::INFINITY, f64::INFINITY);
            for _ in 0..3 {
                single = single.min(one.install(run));
                all = all.min(run());
            }
            let n = collection.len() as f64;
            println!(
                "| {label} | {} | {:.0} | {:.0} | {:.2} |",
                method.name(),
                n / single,
                n / all,
                single / all
            );
        }
    }
}

fn load_reuters(data: &Path) -> (Vec<String>, Vec<Document>) {
    let files =
        corpus::list_files(&[data.join("reference/reuters-21578")]).expect("reuters folder");
    let files: Vec<PathBuf> = files
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "sgm"))
        .collect();
    let entries: Vec<Vec<(String, Document)>> = files
        .par_iter()
        .map(|f| {
            corpus::read_entries(f, &LoadOptions::default())
                .unwrap_or_else(|e| panic!("{e}"))
                .into_iter()
                .map(|e| (e.name.clone(), e.to_document()))
                .collect()
        })
        .collect();
    entries.into_iter().flatten().unzip()
}

/// Articles, or the summaries with their sentences separated (see eval_collection).
fn load_bbc(data: &Path, summaries: bool) -> (Vec<String>, Vec<String>, Vec<Document>) {
    let base = if summaries {
        data.join("documents/bbc-news-summaries/BBC News Summary/Summaries")
    } else {
        data.join("documents/bbc-news/bbc")
    };
    let mut files = Vec::new();
    for cat in CATEGORIES {
        let mut list: Vec<PathBuf> = std::fs::read_dir(base.join(cat))
            .expect("bbc category folder")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "txt"))
            .collect();
        list.sort();
        files.extend(list);
    }
    let docs: Vec<Document> = files
        .par_iter()
        .map(|f| {
            let bytes = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            if summaries {
                let fixed = truth_sets::separate_sentences(&String::from_utf8_lossy(&bytes));
                document::parse_text(&fixed, "summary", SourceFormat::Text)
            } else {
                document::parse_bytes(&bytes, f, None).unwrap_or_else(|e| panic!("{e}"))
            }
        })
        .collect();
    let paths: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let prefix = if summaries { "summary/" } else { "" };
    let names = files
        .iter()
        .map(|f| {
            let cat = f.parent().and_then(|p| p.file_name()).unwrap_or_default();
            format!(
                "{prefix}{}/{}",
                cat.to_string_lossy(),
                f.file_name().unwrap_or_default().to_string_lossy()
            )
        })
        .collect();
    (names, paths, docs)
}

fn dump_terms(path: &Path, collection: &Collection, paths: &[String]) {
    let file = std::fs::File::create(path).expect("terms file");
    let mut w = std::io::BufWriter::new(file);
    for (i, doc) in collection.documents.iter().enumerate() {
        let terms: Vec<&str> = doc.terms().map(|t| collection.term(t)).collect();
        let line =
            serde_json::json!({"name": collection.names[i], "path": paths[i], "terms": terms});
        writeln!(w, "{line}").expect("write terms");
    }
    w.flush().expect("write terms");
}
