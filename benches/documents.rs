//! Throughput of loading documents: reading, decoding, building the hierarchy, splitting into
//! sentences (and, for the reference corpus, refining every sentence into terms), single
//! threaded, in bytes of input per second.
//!
//! ```text
//! SIMDOC_DATA=/path/to/data cargo bench --no-default-features --bench documents
//! ```
//!
//! - `enwiki_aa_load_split_refine`: the whole `reference/enwiki-2015/text/AA` folder
//!   (WikiExtractor files, ~100 MB) through `corpus::list_files` + `read_entries` +
//!   `CorpusEntry::to_document` + `text::refine` on every sentence: what building the reference
//!   model costs before any counting. `enwiki_aa_load_split` is the same without refining.
//! - `article_html_load`: the 181 pages of `documents/article-html/html` through
//!   `document::load` (HTML parsing dominates).
//! - `split_one_20mb_line`: `sentences::split` on 20 MB of Wikipedia text joined into one line,
//!   the linear-time check of the splitter; `split_20mb_pathological` its worst cases.
//!
//! - `packaged_load`: the format fixtures (`tests/fixtures/formats`: one Wikipedia article as
//!   DOCX, ODT, EPUB and PDF) through `document::parse_bytes` from memory, beside the same
//!   article's Markdown source as plain text, so the cost of each container is a ratio measured
//!   in the same run.
//!
//! Without `SIMDOC_DATA` it prints "skipped: SIMDOC_DATA not set" and runs nothing.

use std::path::{Path, PathBuf};

use divan::Bencher;
use divan::counter::BytesCount;
use simdoc::corpus::{list_files, read_entries};
use simdoc::document::{LoadOptions, load, parse_bytes, sentences};

fn main() {
    if data_dir().is_none() {
        println!("skipped: SIMDOC_DATA not set");
        return;
    }
    divan::main();
}

fn data_dir() -> Option<PathBuf> {
    std::env::var_os("SIMDOC_DATA").map(PathBuf::from)
}

fn data(relative: &str) -> PathBuf {
    // `main` only runs the benches when SIMDOC_DATA is set.
    data_dir()
        .expect("SIMDOC_DATA is set (checked in main)")
        .join(relative)
}

fn total_bytes(files: &[PathBuf]) -> u64 {
    files
        .iter()
        .map(|f| std::fs::metadata(f).map_or(0, |m| m.len()))
        .sum()
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn enwiki_aa_load_split_refine(bencher: Bencher) {
    let folder = data("reference/enwiki-2015/text/AA");
    let files = list_files(std::slice::from_ref(&folder)).expect("the enwiki AA folder lists");
    let bytes = total_bytes(&files);
    let options = LoadOptions::default();
    bencher.counter(BytesCount::new(bytes)).bench(|| {
        let mut terms = 0usize;
        for file in &files {
            for entry in read_entries(file, &options).expect("a readable corpus file") {
                let doc = entry.to_document();
                for sentence in &doc.sentences {
                    terms += simdoc::text::refine(&sentence.text).len();
                }
            }
        }
        terms
    });
}

/// The same without refining: how much of the above is loading and splitting.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn enwiki_aa_load_split(bencher: Bencher) {
    let folder = data("reference/enwiki-2015/text/AA");
    let files = list_files(std::slice::from_ref(&folder)).expect("the enwiki AA folder lists");
    let bytes = total_bytes(&files);
    let options = LoadOptions::default();
    bencher.counter(BytesCount::new(bytes)).bench(|| {
        let mut count = 0usize;
        for file in &files {
            for entry in read_entries(file, &options).expect("a readable corpus file") {
                count += entry.to_document().sentences.len();
            }
        }
        count
    });
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn article_html_load(bencher: Bencher) {
    let folder = data("documents/article-html/html");
    let files: Vec<PathBuf> = list_files(std::slice::from_ref(&folder))
        .expect("the article-html folder lists")
        .into_iter()
        .filter(|f| has_extension(f, "html"))
        .collect();
    assert_eq!(files.len(), 181, "the article-html data set has 181 pages");
    let bytes = total_bytes(&files);
    let options = LoadOptions::default();
    bencher.counter(BytesCount::new(bytes)).bench(|| {
        files
            .iter()
            .map(|f| load(f, &options).map_or(0, |doc| doc.sentences.len()))
            .sum::<usize>()
    });
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn split_one_20mb_line(bencher: Bencher) {
    let file = data("reference/enwiki-2015/text/AA/wiki_00");
    let text = std::fs::read_to_string(&file).expect("wiki_00 is UTF-8 text");
    let mut line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    while line.len() < 20_000_000 {
        line = format!("{line} {line}");
    }
    let line = &line[..line.floor_char_boundary(20_000_000)];
    bencher
        .counter(BytesCount::new(line.len()))
        .bench(|| sentences::split(divan::black_box(line)).len());
}

/// Worst cases for the splitter: 20 MB where every other byte is a full stop (`a.a.a...`), and
/// 20 MB of four-byte sentences joined by glued quotes (`x."Ax."A...`, 5 million sentences).
#[divan::bench(sample_count = 5, sample_size = 1, args = ["a.", "x.\"A"])]
fn split_20mb_pathological(bencher: Bencher, unit: &str) {
    let text = unit.repeat(20_000_000 / unit.len());
    bencher
        .counter(BytesCount::new(text.len()))
        .bench(|| sentences::split(divan::black_box(&text)).len());
}

fn has_extension(path: &Path, extension: &str) -> bool {
    path.extension().is_some_and(|e| e == extension)
}

/// The same article in each format: its Markdown source, then the fixtures made from it.
const PACKAGED: &[&str] = &[
    "assets/examples/guinea.md",
    "tests/fixtures/formats/guinea.docx",
    "tests/fixtures/formats/guinea.odt",
    "tests/fixtures/formats/guinea.epub",
    "tests/fixtures/formats/guinea.pdf",
];

#[divan::bench(args = PACKAGED, sample_count = 20, sample_size = 5)]
fn packaged_load(bencher: Bencher, file: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let bytes = std::fs::read(&path).expect("the fixture reads");
    bencher
        .counter(BytesCount::new(bytes.len()))
        .bench(|| parse_bytes(&bytes, &path, None).expect("the fixture parses"));
}
