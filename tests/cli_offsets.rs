//! Offsets that point into the document as read: every sentence, match and passage that
//! `simdoc inspect --json` and `simdoc compare --json` report can be read back from the file
//! (plain text) or from the extracted text the JSON carries (HTML), and `simdoc compare --pan`
//! writes PAN detections whose offsets hold the reused text.

use crate::common;

use std::path::Path;

use common::{json_of, simdoc, text};
use serde_json::Value;

/// Plain text with what simdoc's reading drops or changes: Markdown heading marks, numbered and
/// bulleted list marks, runs of spaces, lines wrapped inside a sentence, and characters of more
/// than one byte.
const PLAIN_A: &str = "# Notes on the harbour\n\n\
    The old   harbour of Pärnu was rebuilt after the storm of 1893.\n\
    Its piers were\n   lengthened twice.\n\n\
    1. Fishing boats moved to the new basin in spring.\n\
    2. The ferry to Kihnu island left from the eastern pier.\n\
    10. Customs officers inspected every café and warehouse on the quay.\n\n\
    - Gardening tomatoes needs warm soil and patience.\n";

const PLAIN_B: &str = "Harbour history\n\n\
    Local records say that fishing boats moved to the new basin in spring.\n\
    Later the ferry to Kihnu island left from the eastern pier.\n\
    Customs officers inspected every café and warehouse on the quay.\n\
    Nothing else about tomatoes is known.\n";

const HTML_A: &str = "<html><head><title>Pärnu</title></head><body>\
    <h1>Pärnu   harbour</h1>\
    <ol><li>Fishing boats moved to the new basin in spring.</li>\
    <li>The ferry to <b>Kihnu</b> island left from the eastern pier.</li></ol>\
    <p>Customs officers inspected every caf&eacute; and warehouse on the quay.</p>\
    </body></html>";

/// The characters `[offset, offset + length)` of `text`, whitespace collapsed.
fn read_back(text: &str, offset: u64, length: u64) -> String {
    let piece: String = text
        .chars()
        .skip(offset as usize)
        .take(length as usize)
        .collect();
    collapse(&piece)
}

fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text a document's offsets count characters of: the file, or the JSON's extracted text.
fn offset_text(document: &Value, file: &Path) -> String {
    match document["offsets_into"].as_str() {
        Some("file") => std::fs::read_to_string(file).expect("the file reads"),
        Some("extracted_text") => document["text"]
            .as_str()
            .expect("extracted text carried")
            .to_string(),
        other => panic!("unknown offsets_into {other:?}"),
    }
}

#[test]
fn inspect_sentences_read_back_from_plain_text_and_html() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, content, into) in [
        ("a.txt", PLAIN_A, "file"),
        ("a.html", HTML_A, "extracted_text"),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, content).unwrap();
        let json = json_of(&["inspect", "--json", path.to_str().unwrap()]);
        assert_eq!(json["offsets_into"], into, "{name}");
        let source = offset_text(&json, &path);
        let sentences = json["sentences"].as_array().unwrap();
        assert!(sentences.len() >= 4, "{name}: {sentences:?}");
        for s in sentences {
            let back = read_back(
                &source,
                s["offset"].as_u64().unwrap(),
                s["length"].as_u64().unwrap(),
            );
            assert_eq!(back, collapse(s["text"].as_str().unwrap()), "{name}");
        }
    }
    // The list item numbered 10 starts at its first word, not at the number: the span of
    // simdoc's own text, where "10. " is dropped, would be off by the marks dropped before it.
    let path = dir.path().join("a.txt");
    let json = json_of(&["inspect", "--json", path.to_str().unwrap()]);
    let customs = json["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["text"].as_str().unwrap().starts_with("Customs"))
        .expect("the customs sentence");
    let byte = PLAIN_A.find("Customs").unwrap();
    assert_eq!(
        customs["offset"].as_u64(),
        Some(PLAIN_A[..byte].chars().count() as u64)
    );
}

#[test]
fn compare_json_offsets_hold_every_sentence_match_and_passage() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (a_name, a_content) in [("a.txt", PLAIN_A), ("a.html", HTML_A)] {
        let a = dir.path().join(a_name);
        let b = dir.path().join("b.txt");
        std::fs::write(&a, a_content).unwrap();
        std::fs::write(&b, PLAIN_B).unwrap();
        let report = json_of(&[
            "compare",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--json-full",
            "-",
            "--quiet",
            // Texts of a few sentences cannot show reuse against chance.
            "--preset",
            "measured",
        ]);
        let documents = report["documents"].as_array().unwrap();
        let sources = [
            offset_text(&documents[0], &a),
            offset_text(&documents[1], &b),
        ];
        // Every sentence, matched or not, by position.
        let inspected = [&a, &b].map(|p| json_of(&["inspect", "--json", p.to_str().unwrap()]));
        for side in 0..2 {
            let offsets = documents[side]["sentence_offsets"].as_array().unwrap();
            let sentences = inspected[side]["sentences"].as_array().unwrap();
            assert_eq!(offsets.len(), sentences.len());
            for (at, s) in offsets.iter().zip(sentences) {
                let back = read_back(
                    &sources[side],
                    at[0].as_u64().unwrap(),
                    at[1].as_u64().unwrap(),
                );
                assert_eq!(back, collapse(s["text"].as_str().unwrap()), "{a_name}");
            }
        }
        // The three list sentences are reused; each match's offsets hold both sentences.
        let matches = report["matches"].as_array().unwrap();
        assert!(matches.len() >= 3, "{a_name}: {matches:?}");
        for m in matches {
            for (side, key) in [(0, "a"), (1, "b")] {
                let span = &m["offsets"][key];
                let back = read_back(
                    &sources[side],
                    span["offset"].as_u64().unwrap(),
                    span["length"].as_u64().unwrap(),
                );
                let position = m[if side == 0 { "left" } else { "right" }]
                    .as_u64()
                    .unwrap();
                let sentence = inspected[side]["sentences"][position as usize]["text"]
                    .as_str()
                    .unwrap();
                assert!(
                    back.contains(&collapse(sentence)),
                    "{a_name}: {back:?} lacks {sentence:?}"
                );
            }
        }
        let passages = report["passages"].as_array().unwrap();
        assert!(!passages.is_empty(), "{a_name}");
        let reused = passages.iter().any(|p| {
            let span = &p["offsets"]["a"];
            read_back(
                &sources[0],
                span["offset"].as_u64().unwrap(),
                span["length"].as_u64().unwrap(),
            )
            .contains("the eastern pier")
        });
        assert!(reused, "{a_name}: no passage holds the reused list");
    }
}

#[test]
fn compare_pan_writes_detections_that_hold_the_reused_text() {
    let dir = tempfile::tempdir().expect("temp dir");
    let a = dir.path().join("suspicious-document00001.txt");
    let b = dir.path().join("source-document00001.txt");
    std::fs::write(&a, PLAIN_A).unwrap();
    std::fs::write(&b, PLAIN_B).unwrap();
    let out_dir = dir.path().join("detections");
    let out = simdoc(&[
        "compare",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--pan",
        out_dir.to_str().unwrap(),
        "--quiet",
        "--preset",
        "measured",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let xml_path = out_dir.join("suspicious-document00001-source-document00001.xml");
    let xml = std::fs::read_to_string(&xml_path).expect("the PAN file is named after the pair");
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(
        root.attribute("reference"),
        Some("suspicious-document00001.txt")
    );
    let features: Vec<_> = root
        .children()
        .filter(|n| n.has_tag_name("feature"))
        .collect();
    assert!(!features.is_empty(), "{xml}");
    let number = |n: &roxmltree::Node, key: &str| -> u64 {
        n.attribute(key).and_then(|v| v.parse().ok()).unwrap()
    };
    let mut found_ferry = false;
    for f in &features {
        assert_eq!(f.attribute("name"), Some("detected-plagiarism"));
        assert_eq!(
            f.attribute("source_reference"),
            Some("source-document00001.txt")
        );
        let this = read_back(PLAIN_A, number(f, "this_offset"), number(f, "this_length"));
        let that = read_back(
            PLAIN_B,
            number(f, "source_offset"),
            number(f, "source_length"),
        );
        assert!(!this.contains("tomatoes"), "{this}");
        found_ferry |= this.contains("ferry to Kihnu") && that.contains("ferry to Kihnu");
    }
    assert!(found_ferry, "{xml}");
}

/// PLAIN_A and PLAIN_B written as a.txt and b.txt in `dir`.
fn plain_pair(dir: &Path) -> [std::path::PathBuf; 2] {
    let [a, b] = [dir.join("a.txt"), dir.join("b.txt")];
    std::fs::write(&a, PLAIN_A).unwrap();
    std::fs::write(&b, PLAIN_B).unwrap();
    [a, b]
}

/// Every JSON output says what its offsets and sentence positions count, the same way: the
/// comparison (compact and full), the change list, the sources report and the collection report.
/// The sentence positions are those of `simdoc inspect`, counted from 0.
#[test]
fn every_json_output_says_what_its_numbers_count() {
    let dir = tempfile::tempdir().expect("temp dir");
    let [a, b] = plain_pair(dir.path());
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let expected =
        serde_json::json!({"offsets": "unicode_code_points", "sentences": "positions_from_0"});
    let collection_json = dir.path().join("collection.json");
    let outputs = [
        json_of(&["compare", a, b, "--json", "-", "--quiet"]),
        json_of(&["compare", a, b, "--json-full", "-", "--quiet"]),
        json_of(&["compare", a, b, "--changes", "-", "--quiet"]),
        json_of(&["sources", b, a, "--json", "-", "--quiet"]),
        {
            let out = simdoc(&[
                "collection",
                a,
                b,
                "--json",
                collection_json.to_str().unwrap(),
            ]);
            assert!(out.status.success(), "{}", text(&out.stderr));
            serde_json::from_str(&std::fs::read_to_string(&collection_json).unwrap()).unwrap()
        },
    ];
    for output in &outputs {
        assert_eq!(output["units"], expected, "{output}");
    }
    // The change list's first sentence of B's first added or moved change is a position from 0:
    // the sentence `inspect` lists at that index.
    let inspected = json_of(&["inspect", "--json", b]);
    let changes = outputs[2]["changes"].as_array().unwrap();
    let with_b = changes
        .iter()
        .find_map(|c| c["b_sentences"].as_array().map(|s| s[0].as_u64().unwrap()))
        .expect("a change on B's side");
    let [offset, length] = [0, 1].map(|i| {
        outputs[0]["documents"][1]["sentence_offsets"][with_b as usize][i]
            .as_u64()
            .unwrap()
    });
    assert_eq!(
        read_back(PLAIN_B, offset, length),
        collapse(
            inspected["sentences"][with_b as usize]["text"]
                .as_str()
                .unwrap()
        )
    );
}

/// `--max-bytes` is one flag with one meaning on every command that reads files: a file over
/// the bound is refused, naming the bound.
#[test]
fn max_bytes_refuses_a_larger_file_on_every_command() {
    let dir = tempfile::tempdir().expect("temp dir");
    let [a, b] = plain_pair(dir.path());
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    for args in [
        vec!["compare", a, b, "--quiet"],
        vec!["inspect", a],
        vec!["sources", a, b, "--quiet"],
    ] {
        let fits = simdoc(&[args.as_slice(), &["--max-bytes", "100000"]].concat());
        assert!(fits.status.success(), "{args:?}: {}", text(&fits.stderr));
        let refused = simdoc(&[args.as_slice(), &["--max-bytes", "20"]].concat());
        assert!(!refused.status.success(), "{args:?}");
        assert!(
            text(&refused.stderr).contains("over the 20-byte limit"),
            "{args:?}: {}",
            text(&refused.stderr)
        );
    }
}
