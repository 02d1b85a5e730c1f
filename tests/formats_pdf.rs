//! PDF documents made from known text (tests/fixtures/formats, see its README): how much of the
//! source text simdoc reads, the hierarchy it infers, page furniture, the DOCX the PDF was made
//! from, and every kind of bad PDF the loader must refuse with a clear error.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use simdoc::compare::{CompareOptions, compare};
use simdoc::document::{self, Document, LoadError, LoadOptions, NodeKind};
use simdoc::model::ReferenceModel;
use simdoc::similarity::Preset;

mod common;

use common::{
    five_gram_recall as recall, format_fixture as fixture, format_fixture_source as source,
};

fn load(name: &str) -> Document {
    document::load(&fixture(name), &LoadOptions::default()).expect("the fixture loads")
}

/// The `##` headings of the Markdown source.
fn source_headings(source: &str) -> Vec<String> {
    source
        .lines()
        .filter_map(|l| l.strip_prefix("## "))
        .map(|h| h.trim().to_string())
        .collect()
}

fn section_labels(doc: &Document) -> Vec<String> {
    doc.nodes
        .iter()
        .filter(|n| n.kind == NodeKind::Section)
        .map(|n| n.label.clone())
        .collect()
}

#[test]
fn pdf_text_hierarchy_and_page_furniture() {
    let doc = load("guinea.pdf");
    let source = source();
    let recall = recall(&doc, &source);
    println!("guinea.pdf: word 5-gram recall {recall:.4}");
    assert!(recall >= 0.95, "recall {recall}");

    // Headings from font size: every `##` heading of the source is a section, in order.
    let sections = section_labels(&doc);
    assert_eq!(sections.first().map(String::as_str), Some("Guinea"));
    assert_eq!(sections[1..], source_headings(&source)[..]);

    // The running header is boilerplate, once; no page number or header is a content sentence.
    let mask = doc.boilerplate_mask();
    let header = "Guinea: a simdoc test fixture";
    let header_sentences: Vec<(usize, bool)> = doc
        .sentences
        .iter()
        .filter(|s| s.text.contains("simdoc test fixture"))
        .map(|s| (s.position, mask[s.position]))
        .collect();
    assert_eq!(header_sentences, vec![(0, true)]);
    assert_eq!(doc.sentences[0].text, header);
    for sentence in &doc.sentences {
        assert!(
            !sentence.text.trim().chars().all(|c| c.is_ascii_digit()),
            "page number read as a sentence: {:?}",
            sentence.text
        );
    }
    // Spans point into the text the viewer shows.
    for s in &doc.sentences {
        assert_eq!(&doc.text[s.span.clone()], s.text);
    }
}

#[test]
fn a_docx_and_the_pdf_made_from_it_resemble_each_other() {
    let docx = load("guinea.docx");
    let pdf = load("guinea.pdf");
    let never = AtomicBool::new(false);
    let comparison = compare(
        &docx,
        &pdf,
        ReferenceModel::embedded(),
        &CompareOptions::default(),
        &never,
    )
    .expect("not cancelled");
    let figures = comparison.figures(&Preset::default().thresholds);
    println!(
        "guinea.docx vs guinea.pdf: resemblance {:?}",
        figures.resemblance
    );
    assert!(figures.resemblance[0] >= 0.95, "{:?}", figures.resemblance);
    assert!(figures.resemblance[1] >= 0.95, "{:?}", figures.resemblance);
}

fn parse(bytes: &[u8], name: &str) -> Result<Document, LoadError> {
    document::parse_bytes(bytes, Path::new(name), None)
}

#[test]
fn a_password_protected_pdf_is_a_clear_error() {
    let err = document::load(&fixture("guinea-encrypted.pdf"), &LoadOptions::default())
        .expect_err("needs a password");
    assert!(matches!(err, LoadError::Encrypted { .. }), "{err:?}");
    assert!(
        err.to_string()
            .ends_with("guinea-encrypted.pdf: is password-protected (encrypted); save an unprotected copy to open it"),
        "{err}"
    );
}

#[test]
fn a_truncated_pdf_is_a_clear_error() {
    let bytes = std::fs::read(fixture("guinea.pdf")).expect("fixture");
    for share in [10, 50, 90] {
        let cut = &bytes[..bytes.len() * share / 100];
        let err = parse(cut, "cut.pdf").expect_err("truncated");
        assert!(
            matches!(err, LoadError::Corrupt { .. }),
            "{share}%: {err:?}"
        );
        assert!(
            err.to_string()
                .starts_with("cut.pdf: is not a readable PDF file: "),
            "{err}"
        );
    }
    // Only the header left.
    let err = parse(b"%PDF-1.7\n", "header-only.pdf").expect_err("nothing there");
    assert!(matches!(err, LoadError::Corrupt { .. }), "{err:?}");
}

#[test]
fn a_pdf_of_a_million_tiny_objects_is_refused_at_once() {
    let mut bytes = b"%PDF-1.4\n".to_vec();
    for i in 1..=1_100_000u32 {
        bytes.extend_from_slice(format!("{i} 0 obj null endobj\n").as_bytes());
    }
    let err = parse(&bytes, "objects.pdf").expect_err("too many objects");
    assert!(matches!(err, LoadError::OverLimit { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "objects.pdf: it has 1100000 objects, over the limit of 1000000"
    );
}

/// A one-page PDF whose page content is `content` (uncompressed unless `deflate`), with correct
/// cross-reference offsets.
fn one_page_pdf(content: &[u8], deflate: bool) -> Vec<u8> {
    use std::io::Write;
    let (stream, filter) = if deflate {
        let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(content).expect("in memory");
        (
            encoder.finish().expect("in memory"),
            " /Filter /FlateDecode",
        )
    } else {
        (content.to_vec(), "")
    };
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    let objects: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << >> >>"
            .to_vec(),
        [
            format!("<< /Length {}{filter} >>\nstream\n", stream.len()).as_bytes(),
            &stream,
            b"\nendstream",
        ]
        .concat(),
    ];
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for offset in offsets {
        out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

#[test]
fn a_scan_without_a_text_layer_is_a_clear_error() {
    // A page that only paints (a filled rectangle standing in for a scanned image).
    let pdf = one_page_pdf(b"0 0 0 rg 72 72 468 648 re f", false);
    let err = parse(&pdf, "scan.pdf").expect_err("no text layer");
    assert!(
        matches!(err, LoadError::NoTextLayer { pages: 1, .. }),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "scan.pdf: is a PDF without a text layer (1 pages of images, a scan?); run it through OCR first"
    );
}

#[test]
fn a_deflate_bomb_in_a_pdf_stops_at_the_limit() {
    // 300 MiB of spaces compress to a few hundred KiB.
    let content = vec![b' '; 300 * 1024 * 1024];
    let pdf = one_page_pdf(&content, true);
    drop(content);
    assert!(pdf.len() < 2 * 1024 * 1024, "{}", pdf.len());
    let err = parse(&pdf, "bomb.pdf").expect_err("over the limit");
    assert!(matches!(err, LoadError::OverLimit { .. }), "{err:?}");
}

#[test]
fn random_damage_never_panics() {
    let bytes = std::fs::read(fixture("guinea.pdf")).expect("fixture");
    // A fixed pseudo-random sequence (xorshift), so failures reproduce.
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..40 {
        let mut damaged = bytes.clone();
        for _ in 0..20 {
            let at = (next() as usize) % damaged.len();
            damaged[at] = next() as u8;
        }
        // Either outcome is fine; a panic or a hang is not.
        let _ = parse(&damaged, "damaged.pdf");
    }
}
