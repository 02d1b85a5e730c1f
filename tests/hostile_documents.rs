//! Hostile documents of the second audit (issue 44) that are not PDFs, end to end through the
//! binary, each under a time limit and with bounds on processor time and memory (README, "Bad
//! inputs"): nesting that cost quadratic time, nesting flattened into glued text, containers
//! whose unpacked text outgrew the stated memory bound, and ambiguous containers.
#![cfg(unix)]

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{BoundedRun, arg, simdoc_bounded};

/// Far above what any case here needs.
const TIME_LIMIT: Duration = Duration::from_secs(120);

fn run(args: &[&str]) -> BoundedRun {
    simdoc_bounded(args, TIME_LIMIT)
}

/// A zip of `parts` (name, bytes), deflated.
fn zip_of(parts: &[(&str, &[u8])]) -> Vec<u8> {
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in parts {
        writer.start_file(*name, options).expect("in memory");
        writer.write_all(bytes).expect("in memory");
    }
    writer.finish().expect("in memory").into_inner()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// 200,000 lists nested in one another in an ODT, each item with a paragraph of its own (the
/// issue's shape: 0.9 MB): read in linear time. Closing each paragraph looked at every open
/// list (`odt::Walk::close_block`), 22 s of processor time here and past 60 s on the audit's
/// machine; now 1.2 s. The hierarchy stops at the builder's depth (lists deeper give their
/// paragraphs to the deepest node, in order), so the outline, indented by depth, is linear too:
/// it filled a disk (tens of GB, one line per node and sentence indented 200,000 levels).
#[test]
fn deeply_nested_odt_lists_are_read_in_linear_time() {
    let dir = tempfile::tempdir().unwrap();
    let levels = 200_000;
    let mut body = String::new();
    for i in 0..levels {
        // Distinct words, so that the container is as large as the issue's (its unpacked-size
        // limit is a multiple of its size).
        let word = (i as u64 * 7919) % 1_000_003;
        body.push_str(&format!(
            "<text:list><text:list-item><text:p>Word {word} here.</text:p>"
        ));
    }
    body.push_str(&"</text:list-item></text:list>".repeat(levels));
    let content = format!(
        r#"<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text>{body}</office:text></office:body></office:document-content>"#
    );
    let odt = zip_of(&[
        (
            "mimetype",
            b"application/vnd.oasis.opendocument.text".as_slice(),
        ),
        ("content.xml", content.as_bytes()),
    ]);
    let path = write(dir.path(), "nested.odt", &odt);
    let out = run(&["inspect", "--json", arg(&path)]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let sentences = doc["sentences"].as_array().unwrap();
    assert_eq!(sentences.len(), levels);
    let offsets: Vec<u64> = sentences
        .iter()
        .map(|s| s["offset"].as_u64().unwrap())
        .collect();
    assert!(offsets.windows(2).all(|w| w[0] < w[1]), "out of order");
    // Nodes come in pre-order: a parent before its children.
    let nodes = doc["nodes"].as_array().unwrap();
    let mut depths = vec![0usize; nodes.len()];
    for (id, node) in nodes.iter().enumerate() {
        if let Some(parent) = node["parent"].as_u64() {
            depths[id] = depths[parent as usize] + 1;
        }
    }
    let deepest = depths.iter().max().copied().unwrap_or(0);
    assert!(deepest <= 129, "{deepest} levels deep");
    assert!(
        out.cpu_seconds < 10.0,
        "{:.1} s of processor time",
        out.cpu_seconds
    );
    assert!(out.peak_rss_mb < 1000.0, "{:.0} MB", out.peak_rss_mb);

    let out = run(&["inspect", arg(&path)]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let indent = out
        .stdout
        .lines()
        .map(|line| line.len() - line.trim_start().len())
        .max();
    assert!(indent <= Some(2 * 130), "{indent:?}");
    assert!(out.cpu_seconds < 10.0, "{:.1} s", out.cpu_seconds);
}

/// HTML nested deeper than the 512 levels the parser is given: the blocks past that depth are
/// flattened, and stay apart (they were glued into one sentence: "Title wordTitle word...").
#[test]
fn html_blocks_flattened_past_the_nesting_limit_stay_apart() {
    let dir = tempfile::tempdir().unwrap();
    let page = format!(
        "<html><body>{}{}</body></html>",
        "<div><h1>Title</h1><p>Some <b>word</b> here.</p>".repeat(1000),
        "</div>".repeat(1000)
    );
    let path = write(dir.path(), "deep.html", page.as_bytes());
    let out = run(&["inspect", "--json", arg(&path)]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let sentences: Vec<&str> = doc["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["text"].as_str().unwrap())
        .collect();
    assert_eq!(sentences.len(), 2000);
    assert!(
        sentences
            .iter()
            .all(|s| *s == "Title" || *s == "Some word here."),
        "{:?}",
        sentences.iter().find(|s| s.len() > 20)
    );
    assert!(out.peak_rss_mb < 200.0, "{:.0} MB", out.peak_rss_mb);
}

/// A DOCX whose zip names `word/document.xml` twice, with different text in each (the zip crate
/// read the last without a word; other readers show the first): refused, naming why, since
/// which text is the document's cannot be told.
#[test]
fn a_docx_with_two_main_parts_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let main = |text: &str| {
        format!(
            r#"<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:body></w:document>"#
        )
    };
    let (shown, hidden) = (main("The text a reader shows."), main("The text it hides."));
    // The zip writer refuses a name twice: the second is written under a name of the same
    // length, then renamed in its local header and the central directory alike.
    let mut docx = zip_of(&[
        ("[Content_Types].xml", b"<Types/>".as_slice()),
        ("word/document.xml", shown.as_bytes()),
        ("word/documenX.xml", hidden.as_bytes()),
    ]);
    let twin = b"word/documenX.xml";
    let mut renamed = 0;
    let mut at = 0;
    while let Some(found) = docx[at..].windows(twin.len()).position(|w| w == twin) {
        let start = at + found;
        docx[start..start + twin.len()].copy_from_slice(b"word/document.xml");
        renamed += 1;
        at = start + twin.len();
    }
    assert_eq!(renamed, 2);
    let path = write(dir.path(), "twice.docx", &docx);
    let out = run(&["inspect", arg(&path)]);
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert_eq!(
        out.stderr,
        format!(
            "simdoc: {}: is not a readable DOCX file: it holds two parts of the same name, and \
             readers differ on which one they show: which text is the document's cannot be told\n",
            arg(&path)
        )
    );
}

/// Bytes that deflate cannot pack (xorshift), made the same every run.
fn incompressible(length: usize) -> Vec<u8> {
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    (0..length)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 32) as u8
        })
        .collect()
}

/// An EPUB of `chapter` (an XHTML body) and `extra` parts.
fn epub_of(chapter: &str, extra: &[(&str, &[u8])]) -> Vec<u8> {
    let xhtml = format!(
        r#"<html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title></head><body>{chapter}</body></html>"#
    );
    let mut parts: Vec<(&str, &[u8])> = vec![
        ("mimetype", b"application/epub+zip"),
        (
            "META-INF/container.xml",
            br#"<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>"#,
        ),
        (
            "book.opf",
            br#"<package xmlns="http://www.idpf.org/2007/opf"><manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c"/></spine></package>"#,
        ),
        ("c.xhtml", xhtml.as_bytes()),
    ];
    parts.extend_from_slice(extra);
    zip_of(&parts)
}

/// The audit's EPUB: 0.8 MB, a chapter unpacking to 60 MB of `<p>a</p>` and an entry of random
/// bytes no reader opens, which lifted the allowance (100 times the file's size) to 64 MiB; it
/// took 2.9 GB and 17 s (an abort at 3.4 GB on the audit's machine). The allowance is now 100
/// times the compressed bytes of the parts read: refused at once, within the README's bound for
/// the file's own size (64 MB plus 150 times it), under an address-space limit of 2 GB.
#[test]
fn an_unread_random_entry_does_not_lift_a_containers_unpacking_allowance() {
    let dir = tempfile::tempdir().unwrap();
    let random = incompressible(700_000);
    let epub = epub_of(
        &"<p>a</p>".repeat(7_500_000),
        &[("random.bin", random.as_slice())],
    );
    let size_mb = epub.len() as f64 / (1024.0 * 1024.0);
    assert!((0.7..0.9).contains(&size_mb), "{size_mb:.2} MB");
    let path = write(dir.path(), "unpacks.epub", &epub);
    let out = common::simdoc_bounded_in_memory(&["inspect", arg(&path)], TIME_LIMIT, 2048);
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert!(
        out.stderr.contains(
            "unpacks.epub: its parts unpack to more than 100 times their compressed size (at \
             part c.xhtml), over the limit of 4194304"
        ),
        "{}",
        out.stderr
    );
    assert!(
        out.peak_rss_mb < 64.0 + 150.0 * size_mb,
        "{:.0} MB for {size_mb:.2} MB",
        out.peak_rss_mb
    );
}

/// A part that overstates its compressed size in the zip directory (here: the chapter's entry
/// claims the random entry after it as its own) gains nothing: the allowance counts the bytes
/// the decompressor took.
#[test]
fn an_overstated_compressed_size_does_not_lift_the_allowance() {
    let dir = tempfile::tempdir().unwrap();
    let random = incompressible(700_000);
    let mut epub = epub_of(
        &"<p>a</p>".repeat(1_000_000),
        &[("random.bin", random.as_slice())],
    );
    // The chapter's central directory entry: its compressed size (offset 20) made to reach the
    // end of the random entry's data.
    let archive = zip::ZipArchive::new(std::io::Cursor::new(epub.clone())).unwrap();
    let central = archive.central_directory_start() as usize;
    let name = b"c.xhtml";
    let entry = central
        + epub[central..]
            .windows(name.len())
            .position(|w| w == name)
            .unwrap()
        - 46;
    assert_eq!(&epub[entry..entry + 4], b"PK\x01\x02");
    let declared = u32::from_le_bytes(epub[entry + 20..entry + 24].try_into().unwrap());
    let claimed = declared + random.len() as u32;
    epub[entry + 20..entry + 24].copy_from_slice(&claimed.to_le_bytes());
    let path = write(dir.path(), "overstated.epub", &epub);
    let out = common::simdoc_bounded_in_memory(&["inspect", arg(&path)], TIME_LIMIT, 2048);
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert!(
        out.stderr
            .contains("its parts unpack to more than 100 times their compressed size"),
        "{}",
        out.stderr
    );
}
