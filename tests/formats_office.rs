//! DOCX, ODT and EPUB documents made from known text (tests/fixtures/formats, see its README):
//! how much of the source text simdoc reads, the headings it finds, the page furniture it sets
//! apart, and the bad containers it must refuse with a clear error.

use std::io::Write;
use std::path::Path;

use simdoc::document::{self, Document, LoadError, LoadOptions, NodeKind, SourceFormat};

use crate::common;

use common::{
    five_gram_recall as recall, format_fixture as fixture, format_fixture_source as source,
};

fn load(name: &str) -> Document {
    document::load(&fixture(name), &LoadOptions::default()).expect("the fixture loads")
}

/// The `#` and `##` headings of the Markdown source, in order.
fn source_headings(source: &str) -> Vec<String> {
    source
        .lines()
        .filter_map(|l| l.strip_prefix("## ").or_else(|| l.strip_prefix("# ")))
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
fn docx_odt_and_epub_read_the_source_text_with_its_headings() {
    let source = source();
    let headings = source_headings(&source);
    for (name, format) in [
        ("guinea.docx", SourceFormat::Docx),
        ("guinea.odt", SourceFormat::Odt),
        ("guinea.epub", SourceFormat::Epub),
    ] {
        let doc = load(name);
        assert_eq!(doc.format, format);
        let recall = recall(&doc, &source);
        println!("{name}: word 5-gram recall {recall:.4}");
        assert!(recall >= 0.97, "{name}: recall {recall}");
        let sections = section_labels(&doc);
        // The EPUB's title page repeats the title as a section of its own.
        let sections = if format == SourceFormat::Epub {
            assert_eq!(sections[0], "Guinea");
            sections[1..].to_vec()
        } else {
            sections
        };
        assert_eq!(sections, headings, "{name}");
        // "History" nests under the title "Guinea".
        let history = doc.nodes.iter().position(|n| n.label == "History").unwrap();
        let parent = doc.nodes[history].parent.unwrap();
        assert_eq!(doc.nodes[parent].label, "Guinea", "{name}");
        for s in &doc.sentences {
            assert_eq!(&doc.text[s.span.clone()], s.text, "{name}");
            assert!(
                !s.text.trim().chars().all(|c| c.is_ascii_digit()),
                "{name}: page number read as a sentence: {:?}",
                s.text
            );
        }
    }
}

#[test]
fn page_headers_are_boilerplate_and_page_numbers_are_not_read() {
    for name in ["guinea.docx", "guinea.odt"] {
        let doc = load(name);
        let mask = doc.boilerplate_mask();
        let header: Vec<(usize, bool)> = doc
            .sentences
            .iter()
            .filter(|s| s.text.contains("simdoc test fixture"))
            .map(|s| (s.position, mask[s.position]))
            .collect();
        assert_eq!(header, vec![(0, true)], "{name}");
        let region = doc.sentences[0].node;
        assert_eq!(doc.nodes[region].kind, NodeKind::Region, "{name}");
        assert_eq!(doc.nodes[region].label, "header", "{name}");
    }
}

fn parse(bytes: &[u8], name: &str) -> Result<Document, LoadError> {
    document::parse_bytes(bytes, Path::new(name), None)
}

fn zip_of(parts: &[(&str, &[u8])]) -> Vec<u8> {
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .compression_level(Some(1));
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in parts {
        writer.start_file(*name, options).expect("in memory");
        writer.write_all(bytes).expect("in memory");
    }
    writer.finish().expect("in memory").into_inner()
}

#[test]
fn a_password_protected_docx_is_a_clear_error() {
    let err = document::load(&fixture("guinea-encrypted.docx"), &LoadOptions::default())
        .expect_err("needs a password");
    assert!(matches!(err, LoadError::Encrypted { .. }), "{err:?}");
    assert!(
        err.to_string().ends_with(
            "guinea-encrypted.docx: is password-protected (encrypted); save an unprotected copy to open it"
        ),
        "{err}"
    );
}

#[test]
fn a_corrupt_or_truncated_container_is_a_clear_error() {
    for name in ["guinea.docx", "guinea.odt", "guinea.epub"] {
        let bytes = std::fs::read(fixture(name)).expect("fixture");
        let cut = &bytes[..bytes.len() / 2];
        let err = parse(cut, name).expect_err("truncated");
        assert!(matches!(err, LoadError::Corrupt { .. }), "{name}: {err:?}");
        let message = err.to_string();
        assert!(
            message.starts_with(&format!("{name}: is not a readable ")),
            "{message}"
        );
        assert!(message.contains("corrupt zip container"), "{message}");
    }
    // A .docx that is no zip at all.
    let err = parse(b"Just some text.", "letter.docx").expect_err("not a zip");
    assert_eq!(
        err.to_string(),
        "letter.docx: is not a readable DOCX file: it is not a zip container"
    );
}

#[test]
fn a_docx_with_missing_parts_names_the_part() {
    let bytes = std::fs::read(fixture("guinea.docx")).expect("fixture");
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("a zip");
    let mut parts: Vec<(String, Vec<u8>)> = Vec::new();
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).expect("an entry");
        let mut data = Vec::new();
        std::io::Read::read_to_end(&mut entry, &mut data).expect("readable");
        let name = entry.name().expect("a UTF-8 name").to_string();
        if name != "word/document.xml" {
            parts.push((name, data));
        }
    }
    let refs: Vec<(&str, &[u8])> = parts
        .iter()
        .map(|(n, d)| (n.as_str(), d.as_slice()))
        .collect();
    let err = parse(&zip_of(&refs), "broken.docx").expect_err("no main part");
    assert!(matches!(err, LoadError::MissingPart { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "broken.docx: is not a complete DOCX file: it has no main document part (word/document.xml)"
    );
}

#[test]
fn a_zip_bomb_stops_at_the_unpacked_size_limit() {
    // 200 MiB of spaces inside the main part deflate to about 200 KiB.
    let document = {
        let mut xml = br#"<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>"#.to_vec();
        xml.resize(xml.len() + 200 * 1024 * 1024, b' ');
        xml.extend_from_slice(b"</w:t></w:r></w:p></w:body></w:document>");
        xml
    };
    let bomb = zip_of(&[("word/document.xml", &document)]);
    drop(document);
    assert!(bomb.len() < 1024 * 1024, "{}", bomb.len());
    let err = parse(&bomb, "bomb.docx").expect_err("over the limit");
    assert!(matches!(err, LoadError::OverLimit { .. }), "{err:?}");
    // The limit is 100 times the container's size, at least 4 MiB and at most 64 MiB.
    let limit = (100 * bomb.len()).clamp(4 << 20, 64 << 20);
    assert_eq!(
        err.to_string(),
        format!(
            "bomb.docx: its parts unpack to more bytes than allowed (at part word/document.xml), \
             over the limit of {limit}"
        )
    );
}

/// A small EPUB whose chapter unpacks to 60 MiB of paragraphs (it took 2.3 GB to read, and
/// reading in parallel multiplied that): refused at 100 times its size, with little memory.
#[test]
fn a_small_container_unpacking_to_much_text_is_refused_at_its_ratio() {
    let mut body = String::with_capacity(61 << 20);
    while body.len() < 60 << 20 {
        body.push_str("<p>Boats stayed in.</p>\n");
    }
    let chapter = format!(
        r#"<html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title></head><body>{body}</body></html>"#
    );
    drop(body);
    let epub = zip_of(&[
        ("mimetype", b"application/epub+zip".as_slice()),
        (
            "META-INF/container.xml",
            br#"<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>"#,
        ),
        (
            "book.opf",
            br#"<package xmlns="http://www.idpf.org/2007/opf"><manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c"/></spine></package>"#,
        ),
        ("c.xhtml", chapter.as_bytes()),
    ]);
    drop(chapter);
    assert!(epub.len() < 600 * 1024, "{}", epub.len());
    // In a child process with limits: a regression fails here instead of taking gigabytes.
    let err = common::parse_in_child(&epub, "small.epub", simdoc::document::SourceFormat::Epub)
        .expect_err("over the ratio");
    assert!(
        err.to_string().starts_with(
            "small.epub: its parts unpack to more bytes than allowed (at part c.xhtml)"
        ),
        "{err}"
    );
}

#[test]
fn a_container_with_too_many_entries_is_refused_before_it_is_read() {
    let names: Vec<String> = (0..10_001).map(|i| format!("f{i}")).collect();
    let parts: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b""[..])).collect();
    let mut all = vec![("word/document.xml", &b"<x/>"[..])];
    all.extend(parts);
    let err = parse(&zip_of(&all), "many.docx").expect_err("too many entries");
    assert_eq!(
        err.to_string(),
        "many.docx: the container has 10002 entries, over the limit of 10000"
    );
}

#[test]
fn a_legacy_word_file_is_named_as_such() {
    let mut bytes = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1".to_vec();
    bytes.resize(4096, 0);
    let err = parse(&bytes, "old.doc").expect_err("not read");
    assert!(matches!(err, LoadError::Unsupported { .. }), "{err:?}");
}

#[test]
fn collections_read_packaged_documents_with_their_structure() {
    let files = simdoc::corpus::list_files(&[fixture("")]).expect("the folder lists");
    let names: Vec<String> = files
        .iter()
        .filter_map(|f| f.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    assert!(names.contains(&"guinea.odt".to_string()), "{names:?}");
    for name in ["guinea.docx", "guinea.odt", "guinea.epub", "guinea.pdf"] {
        let entries =
            simdoc::corpus::read_entries(&fixture(name), &LoadOptions::default()).expect("reads");
        assert_eq!(entries.len(), 1, "{name}");
        let doc = entries
            .into_iter()
            .next()
            .expect("one entry")
            .into_document();
        assert_eq!(doc, load(name), "{name}");
    }
}
