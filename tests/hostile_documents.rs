//! Hostile documents of the second audit (issue 44) that are not PDFs, end to end through the
//! binary, each under a time limit and with bounds on processor time and memory (README, "Bad
//! inputs"): nesting that cost quadratic time, nesting flattened into glued text, containers
//! whose unpacked text outgrew the stated memory bound, and ambiguous containers.
#![cfg(unix)]

mod common;

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
/// machine; now 1.2 s.
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
    assert_eq!(doc["sentences"].as_array().unwrap().len(), levels);
    assert!(
        out.cpu_seconds < 10.0,
        "{:.1} s of processor time",
        out.cpu_seconds
    );
    assert!(out.peak_rss_mb < 1000.0, "{:.0} MB", out.peak_rss_mb);
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
    assert_eq!(out.code, Some(1), "{out:?}");
    assert_eq!(
        out.stderr,
        format!(
            "simdoc: {}: is not a readable DOCX file: it holds two parts of the same name, and \
             readers differ on which one they show: which text is the document's cannot be told\n",
            arg(&path)
        )
    );
}
