//! DOCX, ODT and EPUB packages built around the fuzzer's bytes (`shapes::zip_from_parts`): the
//! input is a selector byte (the file's extension: 0 docx, 1 odt, 2 epub; the format itself is
//! recognised by content) and `name NUL content NUL ...` parts, stored in a zip by the target,
//! so mutations reach the XML and XHTML parts and the readers that walk them instead of the
//! zip's checksums. Seeded with small packages of each format (`fuzz/seeds/packages`). Inputs
//! over 32 KB are skipped (small inputs run fast). Nothing may panic, a document read must be
//! consistent, and a failure must name the file.
#![no_main]

#[path = "shapes.rs"]
mod shapes;

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use simdoc::document::parse_bytes;

/// Largest input tried.
const MAX_INPUT: usize = 32 * 1024;

fuzz_target!(|bytes: &[u8]| {
    let Some((&selector, parts)) = bytes.split_first() else {
        return;
    };
    if parts.len() > MAX_INPUT {
        return;
    }
    let name = ["x.docx", "x.odt", "x.epub"][usize::from(selector % 3)];
    let zip = shapes::zip_from_parts(parts);
    match parse_bytes(&zip, Path::new(name), None) {
        Ok(doc) => shapes::check_document(&doc),
        Err(error) => assert!(error.to_string().starts_with(name), "{error}"),
    }
});
