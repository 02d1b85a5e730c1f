//! Document bytes through every front end: the HTML and plain-text paths (forced, and chosen by
//! extension and sniffing as `simdoc compare` does), the recognition of packaged formats by
//! their bytes, and the collection reader's container formats (WikiExtractor, Reuters SGML).
//! Nothing may panic, and every document must be consistent: sentence spans index its text on
//! character boundaries, nodes point at existing sentences. Inputs over 16 KB are skipped (small
//! inputs run fast; the PDF and zip formats have targets of their own that reach inside them:
//! `pdf_objects`, `packages`).
#![no_main]

#[path = "shapes.rs"]
mod shapes;

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use shapes::check_document as check;
use simdoc::corpus::entries_from_bytes;
use simdoc::document::{LoadOptions, SourceFormat, parse_bytes};

/// Largest input tried.
const MAX_INPUT: usize = 16 * 1024;

fuzz_target!(|bytes: &[u8]| {
    if bytes.len() > MAX_INPUT {
        return;
    }
    for (name, format) in [
        ("x.html", None),
        ("x.txt", None),
        ("x", None),
        ("x", Some(SourceFormat::Html)),
        ("x", Some(SourceFormat::Text)),
    ] {
        match parse_bytes(bytes, Path::new(name), format) {
            Ok(doc) => check(&doc),
            Err(error) => assert!(error.to_string().starts_with(name)),
        }
    }
    if let Ok(entries) = entries_from_bytes(bytes, Path::new("c"), &LoadOptions::default()) {
        for entry in entries {
            check(&entry.to_document());
        }
    }
});
