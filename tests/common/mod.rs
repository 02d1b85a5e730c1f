//! Helpers shared by the integration tests; each test file that needs them says `mod common;`.
// Each test crate uses only some of these.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The shared data folder named by `SIMDOC_DATA`. Unset, the real-data tests print "skipped" and
/// pass, so that `cargo test` works on a machine without the data (CI sets it).
pub fn data_dir() -> Option<PathBuf> {
    let data = std::env::var_os("SIMDOC_DATA").map(PathBuf::from);
    if data.is_none() {
        println!("skipped: SIMDOC_DATA not set");
    }
    data
}

/// Runs the `simdoc` binary built for these tests.
pub fn simdoc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_simdoc"))
        .args(args)
        .output()
        .expect("the simdoc binary runs")
}

/// Process output as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A file of `tests/fixtures/formats` (see its README).
pub fn format_fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/formats")
        .join(name)
}

/// The Markdown the format fixtures were made from.
pub fn format_fixture_source() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/examples/guinea.md");
    std::fs::read_to_string(path).expect("the source text")
}

/// Share of the word 5-grams of `source` (lowercased words of letters and digits) found in the
/// document's content sentences (boilerplate left out), read in order: how much of a known text
/// a front end reads.
pub fn five_gram_recall(doc: &simdoc::document::Document, source: &str) -> f64 {
    use std::collections::HashSet;
    fn words(text: &str) -> Vec<String> {
        text.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    }
    fn five_grams(words: &[String]) -> HashSet<String> {
        words.windows(5).map(|w| w.join(" ")).collect()
    }
    let mask = doc.boilerplate_mask();
    let text: Vec<&str> = doc
        .sentences
        .iter()
        .zip(&mask)
        .filter(|(_, bp)| !**bp)
        .map(|(s, _)| s.text.as_str())
        .collect();
    let have = five_grams(&words(&text.join(" ")));
    let want = five_grams(&words(source));
    want.iter().filter(|g| have.contains(*g)).count() as f64 / want.len() as f64
}
