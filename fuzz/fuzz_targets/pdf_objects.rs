//! PDFs built around the fuzzer's bytes (`shapes::pdf_from_objects`): the input is a selector
//! byte (bit 0: deflate every stream) and object bodies separated by `\nendobj\n`, the first the
//! catalog; the target numbers them, sets each stream's length and writes a correct
//! cross-reference table, so mutations reach the page tree, fonts and their character maps,
//! drawings and content streams instead of breaking the file's offsets. Seeded with small valid
//! PDFs in that form (`fuzz/seeds/pdf_objects`). Inputs over 16 KB are skipped: small inputs
//! run fast, and every structure fits in a few hundred bytes. Nothing may panic, a document
//! read must be consistent, and a failure must name the file.
#![no_main]

#[path = "shapes.rs"]
mod shapes;

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use simdoc::document::parse_bytes;

/// Largest input tried.
const MAX_INPUT: usize = 16 * 1024;

fuzz_target!(|bytes: &[u8]| {
    let Some((&selector, objects)) = bytes.split_first() else {
        return;
    };
    if objects.len() > MAX_INPUT {
        return;
    }
    let pdf = shapes::pdf_from_objects(objects, selector & 1 == 1);
    match parse_bytes(&pdf, Path::new("x.pdf"), None) {
        Ok(doc) => shapes::check_document(&doc),
        Err(error) => assert!(error.to_string().starts_with("x.pdf: "), "{error}"),
    }
});
