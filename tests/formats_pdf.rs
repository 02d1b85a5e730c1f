//! PDF documents made from known text (tests/fixtures/formats, see its README): how much of the
//! source text simdoc reads, the hierarchy it infers, page furniture, the DOCX the PDF was made
//! from, and every kind of bad PDF the loader must refuse with a clear error.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use simdoc::compare::Preset;
use simdoc::compare::{CompareOptions, compare};
use simdoc::document::{self, Document, LoadError, LoadOptions, NodeKind};
use simdoc::model::ReferenceModel;

use crate::common;

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
    pdf_with(content, deflate, "<< >>", &[])
}

/// A one-page PDF with page `resources` and `extra` objects numbered from 5 on.
fn pdf_with(content: &[u8], deflate: bool, resources: &str, extra: &[&[u8]]) -> Vec<u8> {
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
    let mut objects: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources {resources} >>"
        )
        .into_bytes(),
        [
            format!("<< /Length {}{filter} >>\nstream\n", stream.len()).as_bytes(),
            &stream,
            b"\nendstream",
        ]
        .concat(),
    ];
    objects.extend(extra.iter().map(|o| o.to_vec()));
    common::pdf_of(&objects)
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
        "scan.pdf: is a PDF without a text layer (no text on its only page: a scan?); run it through OCR first"
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

#[test]
fn a_drawing_that_paints_itself_is_refused_before_it_is_drawn() {
    let form: &[u8] =
        b"<< /Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /XObject << /F1 5 0 R >> >> /Length 6 >>\nstream\n/F1 Do\nendstream";
    let pdf = pdf_with(b"/F1 Do", false, "<< /XObject << /F1 5 0 R >> >>", &[form]);
    let err = parse(&pdf, "loop.pdf").expect_err("endless recursion");
    assert_eq!(
        err.to_string(),
        "loop.pdf: is not a readable PDF file: a drawing in it (an XObject) paints itself"
    );
    // The same form without the self-reference, painting text, reads.
    let font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
    let text = "BT /F 12 Tf 72 700 Td (Hello there.) Tj ET";
    let text_form = format!(
        "<< /Type /XObject /Subtype /Form /BBox [0 0 500 500] /Resources << /Font << /F 6 0 R >> >> /Length {} >>\nstream\n{text}\nendstream",
        text.len()
    );
    let pdf = pdf_with(
        b"/F1 Do",
        false,
        "<< /XObject << /F1 5 0 R >> >>",
        &[text_form.as_bytes(), font],
    );
    let doc = parse(&pdf, "form.pdf").expect("reads");
    assert_eq!(doc.sentences.len(), 1);
    assert_eq!(doc.sentences[0].text, "Hello there.");
}

#[test]
fn drawings_nested_too_deep_are_refused() {
    // Forms 5, 6, ...: each paints the next with its own resources; 70 levels in all.
    let levels = 70;
    let forms: Vec<Vec<u8>> = (0..levels)
        .map(|i| {
            let number = 5 + i;
            let content = if i + 1 < levels { "/F Do" } else { "" };
            let next = if i + 1 < levels {
                format!("/XObject << /F {} 0 R >>", number + 1)
            } else {
                String::new()
            };
            format!(
                "<< /Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << {next} >> /Length {} >>\nstream\n{content}\nendstream",
                content.len()
            )
            .into_bytes()
        })
        .collect();
    let extra: Vec<&[u8]> = forms.iter().map(Vec::as_slice).collect();
    let pdf = pdf_with(b"/F Do", false, "<< /XObject << /F 5 0 R >> >>", &extra);
    let err = parse(&pdf, "deep.pdf").expect_err("too deep");
    assert!(
        matches!(err, LoadError::OverLimit { limit: 64, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("nest too deep"), "{err}");
}

fn deflate(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(data).expect("in memory");
    encoder.finish().expect("in memory")
}

/// An object stream (`/Type /ObjStm`) holding `content` (index, then objects from `first`),
/// deflated `layers` times.
fn object_stream(content: &[u8], n: usize, first: usize, layers: usize) -> Vec<u8> {
    let mut data = content.to_vec();
    for _ in 0..layers {
        data = deflate(&data);
    }
    let filter = match layers {
        0 => String::new(),
        1 => " /Filter /FlateDecode".to_string(),
        _ => format!(" /Filter [{}]", vec!["/FlateDecode"; layers].join(" ")),
    };
    [
        format!(
            "<< /Type /ObjStm /N {n} /First {first} /Length {}{filter} >>\nstream\n",
            data.len()
        )
        .as_bytes(),
        &data,
        b"\nendstream",
    ]
    .concat()
}

const HELLO: &[u8] = b"BT /F 12 Tf 72 700 Td (Hello there.) Tj ET";
const HELLO_RESOURCES: &str = "<< /Font << /F 6 0 R >> >>";

#[test]
fn objects_packed_in_an_object_stream_are_read() {
    // The font (object 6) lives in object stream 5.
    let font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
    let content = format!("6 0 {font}");
    let packed = object_stream(content.as_bytes(), 1, 4, 1);
    let doc = parse(
        &pdf_with(HELLO, false, HELLO_RESOURCES, &[&packed]),
        "packed.pdf",
    )
    .expect("reads");
    assert_eq!(doc.sentences.len(), 1);
    assert_eq!(doc.sentences[0].text, "Hello there.");
}

#[test]
fn an_object_stream_that_unpacks_past_the_limit_is_refused_before_it_loads() {
    // 300 MiB of spaces after a one-object index: a few hundred KiB packed. lopdf would unpack
    // it whole while loading, before any check of the loaded document.
    let mut content = b"6 0 null".to_vec();
    content.resize(300 * 1024 * 1024, b' ');
    let packed = object_stream(&content, 1, 4, 1);
    drop(content);
    assert!(packed.len() < 2 * 1024 * 1024, "{}", packed.len());
    let err = parse(
        &pdf_with(HELLO, false, HELLO_RESOURCES, &[&packed]),
        "objstm-bomb.pdf",
    )
    .expect_err("over the limit");
    assert!(
        matches!(err, LoadError::OverLimit { limit, .. } if limit == 256 * 1024 * 1024),
        "{err:?}"
    );
}

#[test]
fn an_object_stream_of_a_million_objects_is_refused() {
    // 1,000,001 distinct objects listed in one stream's index, all at offset 0 (`null`).
    let objects = 1_000_001;
    let mut index = String::with_capacity(objects * 12);
    for number in 0..objects {
        index.push_str(&format!("{} 0 ", 10 + number));
    }
    let first = index.len();
    index.push_str("null");
    let packed = object_stream(index.as_bytes(), objects, first, 1);
    drop(index);
    let err = parse(
        &pdf_with(HELLO, false, HELLO_RESOURCES, &[&packed]),
        "objstm-many.pdf",
    )
    .expect_err("too many objects");
    assert!(
        matches!(
            err,
            LoadError::OverLimit {
                limit: 1_000_000,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_string().contains("more than 1000000 objects"),
        "{err}"
    );
}

#[test]
fn an_object_stream_packed_twice_is_refused() {
    let font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
    let packed = object_stream(format!("6 0 {font}").as_bytes(), 1, 4, 2);
    let err = parse(
        &pdf_with(HELLO, false, HELLO_RESOURCES, &[&packed]),
        "twice.pdf",
    )
    .expect_err("refused");
    assert_eq!(
        err.to_string(),
        "twice.pdf: is not a readable PDF file: an object stream in it is packed with more than one filter"
    );
}

/// The second fixture source, shaped unlike the first: a speech of long paragraphs without
/// headings (Lincoln's first inaugural address, us-speeches-pd), in all four formats.
#[test]
fn a_speech_without_headings_reads_in_every_format() {
    let source = std::fs::read_to_string(fixture("lincoln-1861.txt")).expect("the source text");
    let mut loaded = Vec::new();
    for (name, least) in [
        ("lincoln-1861.docx", 0.97),
        ("lincoln-1861.odt", 0.97),
        ("lincoln-1861.epub", 0.97),
        ("lincoln-1861.pdf", 0.95),
    ] {
        let doc = load(name);
        let recall = recall(&doc, &source);
        println!("{name}: word 5-gram recall {recall:.4}");
        assert!(recall >= least, "{name}: recall {recall}");
        // No headings, so no sections; but the EPUB's title page and its one chapter, titled
        // from the table of contents, carry the book's title.
        let sections = section_labels(&doc);
        if name.ends_with(".epub") {
            assert_eq!(sections, ["First Inaugural Address"; 2], "{name}");
        } else {
            assert_eq!(sections, Vec::<String>::new(), "{name}");
        }
        let mask = doc.boilerplate_mask();
        for s in &doc.sentences {
            assert!(
                !s.text.trim().chars().all(|c| c.is_ascii_digit()),
                "{name}: page number read as a sentence: {:?}",
                s.text
            );
            if s.text.contains("simdoc test fixture") {
                assert!(mask[s.position], "{name}: running header as content");
            }
        }
        loaded.push(doc);
    }
    let never = AtomicBool::new(false);
    let comparison = compare(
        &loaded[0],
        &loaded[3],
        ReferenceModel::embedded(),
        &CompareOptions::default(),
        &never,
    )
    .expect("not cancelled");
    let figures = comparison.figures(&Preset::default().thresholds);
    println!(
        "lincoln-1861 docx vs pdf: resemblance {:?}",
        figures.resemblance
    );
    assert!(figures.resemblance[0] >= 0.95, "{:?}", figures.resemblance);
    assert!(figures.resemblance[1] >= 0.95, "{:?}", figures.resemblance);
}
