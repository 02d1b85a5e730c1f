//! Issue 28, findings 1 and 2: PDFs that hung simdoc or grew without bound, each refused
//! quickly, with little memory and a message naming what is wrong, by the binary and by the
//! library.

use crate::common;

use std::path::Path;

use common::{arg, hello_pdf, pdf_of, pdf_stream};
use simdoc::document::{Document, LoadError, SourceFormat};

use super::{assert_refused, run, write};

/// The library's reading, in a child process under limits ([`common::parse_in_child`]).
fn parse_bytes(
    bytes: &[u8],
    path: &Path,
    _format: Option<SourceFormat>,
) -> Result<Document, LoadError> {
    common::parse_in_child(bytes, arg(path), SourceFormat::Pdf)
}

const TEXT: &[u8] = b"BT /F1 12 Tf 72 720 Td (Hello there, this is a sentence.) Tj ET";

/// Finding 1: a one-page PDF whose page is its own `/Parent` (no `/MediaBox`, so
/// `pdf-extract` climbs the parents for one, forever).
fn self_parent() -> Vec<u8> {
    pdf_of(&[
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 3 0 R /Contents 4 0 R >>".to_vec(),
        pdf_stream("", TEXT, false),
    ])
}

/// A one-page PDF whose font's `/ToUnicode` map is `map`.
fn with_font_map(map: &[u8]) -> Vec<u8> {
    pdf_of(&[
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>"
            .to_vec(),
        pdf_stream("", TEXT, false),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>".to_vec(),
        pdf_stream("", map, true),
    ])
}

/// Finding 2: a font whose `/ToUnicode` map has one range of four billion codes.
fn huge_cmap() -> Vec<u8> {
    with_font_map(
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap \
        1 begincodespacerange <00> <FF> endcodespacerange \
        1 beginbfrange <00000000> <ffffffff> <0041> endbfrange \
        endcmap CMapName currentdict /CMap defineresource pop end end",
    )
}

/// Finding 2: a page whose content saves the graphics state `count` times (deflated: 2
/// million take 4.5 KB).
fn saves(count: usize) -> Vec<u8> {
    hello_pdf("", &b"q ".repeat(count), &[])
}

#[test]
fn a_page_that_is_its_own_parent_is_refused_not_read_forever() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = write(dir.path(), "loop.pdf", &self_parent());
    let message = format!(
        "{}: is not a readable PDF file: its page tree loops (page 1 is its own ancestor)",
        arg(&pdf)
    );
    assert_refused(&run(&["inspect", arg(&pdf)]), &message);
    let other = write(dir.path(), "fine.pdf", &hello_pdf("", b"", &[]));
    assert_refused(&run(&["compare", arg(&other), arg(&pdf)]), &message);
    // In a collection the file is skipped, and the run goes on.
    let text = "The harbour froze early that winter. Boats stayed in.";
    std::fs::write(dir.path().join("a.txt"), text).unwrap();
    std::fs::write(dir.path().join("b.txt"), text).unwrap();
    let out = run(&["collection", arg(dir.path())]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(out.stderr, format!("simdoc: skipped: {message}\n"));
    assert!(
        out.stdout.starts_with("fuzzy: 3 documents, 1 pair,"),
        "{out:?}"
    );
    let error = parse_bytes(&self_parent(), Path::new("loop.pdf"), None).unwrap_err();
    assert!(matches!(error, LoadError::Corrupt { .. }), "{error:?}");
}

#[test]
fn a_font_map_of_four_billion_codes_is_refused_before_it_is_built() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = write(dir.path(), "cmap.pdf", &huge_cmap());
    assert!(std::fs::metadata(&pdf).unwrap().len() < 1_000);
    assert_refused(
        &run(&["inspect", arg(&pdf)]),
        &format!(
            "{}: a font's character map has 4294967296 entries, over the limit of 131072",
            arg(&pdf)
        ),
    );
    // Deep nesting in a map (its parser recurses: a stack overflow ends the process).
    let deep = format!(
        "1 beginbfchar <01> {}<0041>{} endbfchar",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let error =
        parse_bytes(&with_font_map(deep.as_bytes()), Path::new("deep.pdf"), None).unwrap_err();
    assert_eq!(
        error.to_string(),
        "deep.pdf: a font's character map nests 100000 levels deep, over the limit of 64"
    );
}

#[test]
fn millions_of_saved_states_are_refused_with_little_memory() {
    let dir = tempfile::tempdir().unwrap();
    for (count, name) in [(2_000_000, "two.pdf"), (10_000_000, "ten.pdf")] {
        let bytes = saves(count);
        assert!(bytes.len() < 25_000, "{}", bytes.len());
        let pdf = write(dir.path(), name, &bytes);
        assert_refused(
            &run(&["inspect", arg(&pdf)]),
            &format!(
                "{}: its page 1 saves the graphics state {count} levels deep, over the limit of 1024",
                arg(&pdf)
            ),
        );
    }
    // As many operations that hold nothing but themselves: over the operations held at once.
    let pdf = write(
        dir.path(),
        "ops.pdf",
        &hello_pdf("", &b"q Q ".repeat(1_500_000), &[]),
    );
    assert_refused(
        &run(&["inspect", arg(&pdf)]),
        &format!(
            "{}: its page 1 holds 3000005 drawing operations at once, 1717 MB once parsed, over the limit of 384",
            arg(&pdf)
        ),
    );
    // Within the limits, a page of many saved states still reads.
    let doc = parse_bytes(&saves(1_000), Path::new("some.pdf"), None).unwrap();
    assert_eq!(doc.sentences[0].text, "Hello there, this is a sentence.");
}

/// A drawing run a thousand times over, and an image XObject whose bytes paint itself
/// (`pdf-extract` runs the bytes of any XObject painted with `Do` as content, and the image has
/// no resources of its own, so its `/Im Do` names itself again: endless recursion).
#[test]
fn drawings_that_repeat_or_recurse_are_refused() {
    let image = pdf_stream(
        "/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8",
        b"/Im Do",
        false,
    );
    let pdf = hello_pdf(
        "/Resources << /XObject << /Im 6 0 R >> >>",
        b"/Im Do ",
        &[image],
    );
    let error = parse_bytes(&pdf, Path::new("image.pdf"), None).unwrap_err();
    assert_eq!(
        error.to_string(),
        "image.pdf: is not a readable PDF file: a drawing in it (an XObject) paints itself"
    );
    // A form of 100,000 operations painted 1,000 times by each of 1,000 nested... : 10^8
    // operations run, from a file of a few KB.
    let form = pdf_stream(
        "/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Resources << >>",
        &b"0 0 m ".repeat(100_000),
        true,
    );
    let pdf = hello_pdf(
        "/Resources << /Font << /F1 5 0 R >> /XObject << /Fm 6 0 R >> >>",
        &b"/Fm Do ".repeat(1_000),
        &[form],
    );
    let error = parse_bytes(&pdf, Path::new("many.pdf"), None).unwrap_err();
    assert_eq!(
        error.to_string(),
        "many.pdf: its pages run more drawing operations than allowed, over the limit of 67108864"
    );
}
