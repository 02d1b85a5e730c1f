//! Exports that stay usable: the JSON and CSV list the unmatched sentences with their offsets
//! (what an editor extracts as the changes), the JSON is compact unless `--json-full` asks for
//! what can be recomputed, and the HTML report of long documents is summarised and prints.

use crate::common;

use common::{arg, json_of, simdoc, text};
use serde_json::Value;

/// A page and its revision: B drops A's last sentence and adds one of its own.
const A: &str = "The old harbour of Parnu was rebuilt after the storm of 1893.\n\
    Fishing boats moved to the new basin in spring.\n\
    The ferry to Kihnu island left from the eastern pier.\n\
    Gardening tomatoes needs warm soil and patience.\n";
const B: &str = "The old harbour of Parnu was rebuilt after the storm of 1893.\n\
    Fishing boats moved to the new basin in spring.\n\
    The ferry to Kihnu island left from the eastern pier.\n\
    A new lighthouse was lit on the breakwater in 1901.\n";

fn write_pair(dir: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
    std::fs::write(&a, A).unwrap();
    std::fs::write(&b, B).unwrap();
    (a, b)
}

/// The characters `[offset, offset + length)` of `text` (the offsets count characters).
fn read_back(text: &str, offset: usize, length: usize) -> String {
    text.chars().skip(offset).take(length).collect()
}

fn compare_json(a: &std::path::Path, b: &std::path::Path, json_flag: &str) -> Value {
    json_of(&[
        "compare",
        arg(a),
        arg(b),
        json_flag,
        "-",
        "--quiet",
        // Texts of a few sentences cannot show reuse against chance.
        "--preset",
        "measured",
    ])
}

#[test]
fn unmatched_sentences_are_in_the_json_with_their_offsets() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = write_pair(dir.path());
    let report = compare_json(&a, &b, "--json");
    for (side, (source, expected)) in [
        (A, "Gardening tomatoes needs warm soil and patience."),
        (B, "A new lighthouse was lit on the breakwater in 1901."),
    ]
    .into_iter()
    .enumerate()
    {
        let document = &report["documents"][side];
        let unmatched = document["unmatched"].as_array().unwrap();
        let texts: Vec<String> = unmatched
            .iter()
            .map(|u| {
                let [position, offset, length] = [0, 1, 2].map(|i| u[i].as_u64().unwrap());
                // The offsets are the sentence's own.
                let own = &document["sentence_offsets"][position as usize];
                assert_eq!(own[0].as_u64(), Some(offset));
                assert_eq!(own[1].as_u64(), Some(length));
                read_back(source, offset as usize, length as usize)
            })
            .collect();
        assert_eq!(texts, [expected], "side {side}");
        // Every sentence is matched or listed as unmatched, never both.
        let key = if side == 0 { "left" } else { "right" };
        let matched: Vec<u64> = report["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m[key].as_u64().unwrap())
            .collect();
        let sentences = document["sentences"].as_u64().unwrap();
        for position in 0..sentences {
            let listed = unmatched.iter().any(|u| u[0].as_u64() == Some(position));
            assert_ne!(
                listed,
                matched.contains(&position),
                "side {side} {position}"
            );
        }
    }
}

#[test]
fn the_json_is_compact_unless_full_is_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = write_pair(dir.path());
    // With a CSV written too, the words are aligned (the CSV lists their changes): the compact
    // JSON leaves them out all the same.
    let csv = dir.path().join("pairs.csv");
    let compact = json_of(&[
        "compare",
        arg(&a),
        arg(&b),
        "--json",
        "-",
        "--csv",
        arg(&csv),
        "--quiet",
        "--preset",
        "measured",
    ]);
    let full = compare_json(&a, &b, "--json-full");
    assert_eq!(compact["detail"], "compact");
    assert_eq!(full["detail"], "full");
    // The same matches, figures, passages and documents (with their unmatched sentences).
    for key in ["figures", "passages", "documents", "thresholds"] {
        assert_eq!(compact[key], full[key], "{key}");
    }
    let matches = |report: &Value| report["matches"].as_array().unwrap().clone();
    assert_eq!(matches(&compact).len(), 3);
    assert_eq!(matches(&compact).len(), matches(&full).len());
    for (c, f) in matches(&compact).iter().zip(&matches(&full)) {
        for key in ["left", "right", "sim_lr", "sim_rl", "tier", "passage"] {
            assert_eq!(c[key], f[key], "{key}");
        }
        // Left out of the compact report: what its sentences' offsets and text give again.
        assert!(
            c.get("offsets").is_none() && c.get("words").is_none(),
            "{c}"
        );
        assert!(f["offsets"]["a"]["offset"].is_u64() && f["words"]["a"].is_array());
    }
    assert!(compact.get("nodes").is_none());
    assert!(full["nodes"].is_array());
    // Written on one line, without indentation.
    let out = simdoc(&[
        "compare",
        arg(&a),
        arg(&b),
        "--json",
        "-",
        "--quiet",
        "--preset",
        "measured",
    ]);
    assert_eq!(text(&out.stdout).lines().count(), 1);
}

#[test]
fn unmatched_sentences_are_csv_rows_with_their_offsets() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = write_pair(dir.path());
    let csv_path = dir.path().join("pairs.csv");
    let out = simdoc(&[
        "compare",
        arg(&a),
        arg(&b),
        "--csv",
        arg(&csv_path),
        "--quiet",
        "--preset",
        "measured",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut reader = csv::Reader::from_path(&csv_path).unwrap();
    let headers = reader.headers().unwrap().clone();
    let column = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let unmatched: Vec<&csv::StringRecord> = rows
        .iter()
        .filter(|r| &r[column("tier")] == "unmatched")
        .collect();
    assert_eq!(unmatched.len(), 2, "{rows:?}");
    // A's dropped sentence, then B's new one, each read back from its file by its offsets.
    for (row, side, source) in [(unmatched[0], "left", A), (unmatched[1], "right", B)] {
        let other = if side == "left" { "right" } else { "left" };
        assert_eq!(&row[column(other)], "");
        let offset: usize = row[column(&format!("{side}_offset"))].parse().unwrap();
        let length: usize = row[column(&format!("{side}_length"))].parse().unwrap();
        assert_eq!(
            read_back(source, offset, length),
            &row[column(&format!("{side}_text"))]
        );
    }
    assert!(unmatched[1][column("right_text")].starts_with("A new lighthouse"));
    // A matched row carries both sides' offsets.
    let matched = &rows[0];
    let offset: usize = matched[column("right_offset")].parse().unwrap();
    let length: usize = matched[column("right_length")].parse().unwrap();
    assert_eq!(read_back(B, offset, length), &matched[column("right_text")]);
}

/// Two documents of 6,000 sentences (B a copy of A): the HTML report does not show them whole
/// nor list every match, says so, and stays small; reports say "variation off" as the viewer
/// does, and carry a print stylesheet.
#[test]
fn the_html_report_of_long_documents_is_summarised_and_prints() {
    let dir = tempfile::tempdir().unwrap();
    // Words made of letters, none shared by two sentences: each sentence matches its copy only.
    let word = |n: usize| {
        let mut word = String::from("qu");
        let mut n = n;
        for _ in 0..4 {
            word.push(char::from(b'a' + (n % 26) as u8));
            n /= 26;
        }
        word
    };
    let text_of: String = (0..6_000)
        .map(|i| {
            let words: Vec<String> = (0..6).map(|k| word(6 * i + k)).collect();
            // Capitalised, so that each line is a sentence.
            format!("Q{}.\n", &words.join(" ")[1..])
        })
        .collect();
    let (a, b) = (dir.path().join("a.txt"), dir.path().join("b.txt"));
    std::fs::write(&a, &text_of).unwrap();
    std::fs::write(&b, &text_of).unwrap();
    let html_path = dir.path().join("report.html");
    let out = simdoc(&[
        "compare",
        arg(&a),
        arg(&b),
        "--html",
        arg(&html_path),
        "--quiet",
        "--preset",
        "measured",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let html = std::fs::read_to_string(&html_path).unwrap();
    assert!(html.contains("Not shown whole: A has 6000 sentences and B 6000"));
    assert!(html.contains("The first 2000 of 6000 matched pairs"));
    // The whole documents would be two anchors per sentence; none is drawn.
    assert!(!html.contains(r#"id="a-5999""#));
    assert!(html.len() < 3_000_000, "{} bytes", html.len());
    assert!(html.contains("variation off"));
    assert!(html.contains("@media print"));
}
