//! The editor's change list in every output of `simdoc compare` (issue 43): the `--changes` JSON
//! (spans in characters of the files as read), the summary, the CSV and the HTML report, on a
//! text revised by hand with known edits, an identical copy, a deleted paragraph and a moved
//! paragraph reworded as it moved. All at the default preset (judged against chance).

use crate::common;

use std::path::Path;

use common::{arg, hand_edited, simdoc, text};
use serde_json::Value;

/// Compares `a` and `b` (written into `dir`) with `extra` arguments; returns the `--changes`
/// JSON and the summary printed.
fn changes_of(dir: &Path, a: &str, b: &str, extra: &[&str]) -> (Value, String) {
    let (pa, pb, out) = (dir.join("a.md"), dir.join("b.md"), dir.join("changes.json"));
    std::fs::write(&pa, a).unwrap();
    std::fs::write(&pb, b).unwrap();
    let mut args = vec!["compare", arg(&pa), arg(&pb), "--changes", arg(&out)];
    args.extend_from_slice(extra);
    let run = simdoc(&args);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let json = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    (json, text(&run.stdout))
}

/// Each change as (kind, A sentences, B sentences).
fn listed(json: &Value) -> Vec<(String, Value, Value)> {
    json["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["kind"].as_str().unwrap().to_string(),
                c["a_sentences"].clone(),
                c["b_sentences"].clone(),
            )
        })
        .collect()
}

fn range(first: u64, last: u64) -> Value {
    serde_json::json!([first, last])
}

/// The characters `[start, end)` of `text` (a span of the JSON).
fn read(text: &str, span: &Value) -> String {
    let start = span[0].as_u64().unwrap() as usize;
    let end = span[1].as_u64().unwrap() as usize;
    text.chars().skip(start).take(end - start).collect()
}

#[test]
fn a_text_revised_by_hand_lists_each_edit_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (hand_edited::original(), hand_edited::revised());
    let (json, summary) = changes_of(dir.path(), &a, &b, &[]);
    let null = Value::Null;
    assert_eq!(
        listed(&json),
        vec![
            ("changed".into(), range(9, 9), range(9, 9)),
            ("deleted".into(), range(27, 27), null.clone()),
            // Not "changed" through a word shared with its neighbour.
            ("deleted".into(), range(41, 41), null.clone()),
            ("changed".into(), range(91, 91), range(89, 89)),
            ("changed".into(), range(101, 101), range(99, 99)),
            ("added".into(), null.clone(), range(128, 128)),
            // The Nimba paragraph, to the Oil section.
            ("moved".into(), range(158, 159), range(222, 223)),
            ("deleted".into(), range(211, 211), null.clone()),
            // The paragraph on youth unemployment: one change.
            ("deleted".into(), range(225, 228), null.clone()),
            ("changed".into(), range(238, 238), range(232, 232)),
            ("added".into(), null, range(237, 237)),
        ],
        "{json:#}"
    );
    // The spans are characters of the files as read ("Nzérékoré" lies before some of them).
    let changes = json["changes"].as_array().unwrap();
    assert_eq!(
        read(&a, &changes[8]["a"]),
        hand_edited::YOUTH.trim_end(),
        "the deleted paragraph read back"
    );
    assert_eq!(
        read(&b, &changes[5]["b"]),
        "A fisherman from the coast told reporters that the harbour had been closed for three \
         weeks after the storm."
    );
    // A changed sentence carries the words that differ.
    let reworded = &changes[4]["reworded"][0];
    assert_eq!(
        read(&a, &reworded["a"]),
        "Elections were finally held on 7 November."
    );
    assert_eq!(reworded["only_a"], serde_json::json!(["finally"]));
    assert!(reworded["words"].as_str().unwrap().contains("-finally"));
    // The moved paragraph names its reworded sentence.
    let named: Vec<u64> = changes[6]["reworded"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["a_sentence"].as_u64().unwrap())
        .collect();
    assert_eq!(named, vec![158]);
    assert_eq!(
        json["counts"],
        serde_json::json!({"added": 2, "deleted": 4, "changed": 4, "moved": 1})
    );
    assert!(
        summary.contains("changes: 2 added, 4 deleted, 4 changed, 1 moved\n  changed  A 9 · B 9: "),
        "{summary}"
    );
}

#[test]
fn identical_texts_have_no_changes() {
    let dir = tempfile::tempdir().unwrap();
    // 60 sentences of real prose, matched against chance today.
    let history = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/examples/history-of-guinea.md"
    ))
    .unwrap();
    let (json, summary) = changes_of(dir.path(), &history, &history, &[]);
    assert_eq!(listed(&json), vec![], "{json:#}");
    assert!(summary.contains("changes: 0 added, 0 deleted, 0 changed, 0 moved\n"));
    // Three sentences: too short for the comparison to find evidence against chance today
    // (issue 41: it reports 0% matched), but each sentence reads the same at its place, which
    // is no change.
    let short = "The river floods every spring. Farmers plant rice on the banks. The harvest \
                 comes in October.";
    let (json, summary) = changes_of(dir.path(), short, short, &[]);
    assert_eq!(listed(&json), vec![], "{json:#}");
    assert!(summary.contains("changes: 0 added"), "{summary}");
}

#[test]
fn a_deleted_paragraph_is_one_change() {
    let dir = tempfile::tempdir().unwrap();
    let (json, _) = changes_of(
        dir.path(),
        &hand_edited::original(),
        &hand_edited::youth_deleted(),
        &[],
    );
    assert_eq!(
        listed(&json),
        vec![("deleted".into(), range(225, 228), Value::Null)],
        "{json:#}"
    );
}

#[test]
fn a_sentence_reworded_inside_a_moved_paragraph_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let (json, _) = changes_of(
        dir.path(),
        &hand_edited::original(),
        &hand_edited::nimba_moved(),
        &[],
    );
    assert_eq!(
        listed(&json),
        vec![("moved".into(), range(158, 159), range(228, 229))],
        "{json:#}"
    );
    let reworded = &json["changes"][0]["reworded"];
    assert_eq!(reworded.as_array().map(Vec::len), Some(1), "{json:#}");
    assert_eq!(reworded[0]["a_sentence"], 158);
    assert_eq!(reworded[0]["b_sentence"], 228);
}

#[test]
fn the_csv_has_a_row_per_change_and_the_html_report_a_change_list() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, html) = (dir.path().join("r.csv"), dir.path().join("r.html"));
    let (json, _) = changes_of(
        dir.path(),
        &hand_edited::original(),
        &hand_edited::revised(),
        &["--csv", arg(&csv), "--html", arg(&html), "--quiet"],
    );
    let mut reader = csv::Reader::from_path(&csv).unwrap();
    let headers = reader.headers().unwrap().clone();
    let column = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let kinds = ["added", "deleted", "changed", "moved"];
    let changes: Vec<&csv::StringRecord> = rows
        .iter()
        .filter(|r| kinds.contains(&&r[column("tier")]))
        .collect();
    assert_eq!(changes.len(), json["changes"].as_array().unwrap().len());
    let deleted = changes
        .iter()
        .find(|r| &r[column("left")] == "225")
        .expect("the deleted paragraph's row");
    assert_eq!(&deleted[column("tier")], "deleted");
    assert_eq!(&deleted[column("left_last")], "228");
    assert!(deleted[column("left_text")].starts_with("Youth unemployment"));
    let changed = changes
        .iter()
        .find(|r| &r[column("left")] == "101")
        .expect("a changed row");
    assert!(changed[column("word_changes")].contains("-finally"));
    let html = std::fs::read_to_string(&html).unwrap();
    let section = html
        .split("<h2 id=\"changes\">Changes</h2>")
        .nth(1)
        .and_then(|rest| rest.split("<h2>").next())
        .expect("a Changes section");
    assert_eq!(section.matches("<tr><td><span class=\"ch ch-").count(), 11);
    // The word that differs is marked in the reworded sentence.
    assert!(
        section.contains(r#"<span class="w-only">finally</span>"#),
        "{section}"
    );
}
