//! Repeated sentences stay bounded (README.md, "Bad inputs"): sentences equal once prepared are
//! matched once, as a class, the figures count every pair from the class sizes, and only a band of
//! each large class pair is listed. Each case runs the binary under a time limit (a regression
//! fails by timeout instead of hanging the suite) and checks its exact output and peak memory.
#![cfg(unix)]

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::{BoundedRun, simdoc_succeeds_within};

/// A guard against hangs, far above the few seconds each case takes.
const TIME_LIMIT: Duration = Duration::from_secs(180);

/// The bound: 100,000 identical sentences against themselves in under 500 MB.
const MEMORY_LIMIT_MB: f64 = 500.0;

const SENTENCE: &str = "The harbour froze early that winter and the boats stayed in. ";

fn arg(path: &Path) -> &str {
    path.to_str().expect("temporary paths are UTF-8")
}

fn run(args: &[&str]) -> BoundedRun {
    simdoc_succeeds_within(args, TIME_LIMIT, MEMORY_LIMIT_MB)
}

/// A forum page: a title, one paragraph, and "Reply to this comment" 10,000 times as headings.
fn page_of_repeated_headings() -> String {
    format!(
        "<html><head><title>Thread</title></head><body><h1>A long thread</h1><p>{SENTENCE}</p>{}</body></html>",
        "<h2>Reply to this comment</h2>\n".repeat(10_000)
    )
}

#[test]
fn a_hundred_thousand_identical_sentences_against_themselves() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("same.txt");
    std::fs::write(&path, SENTENCE.repeat(100_000)).unwrap();
    let json = dir.path().join("report.json");
    // The measured preset lists every identical pair (as a band); under the documents preset a
    // text that is one sentence repeated carries no evidence against chance (every pair of its
    // sentences is as likely as any other), which the test below checks stays bounded too.
    let out = run(&[
        "compare",
        arg(&path),
        arg(&path),
        "--preset",
        "measured",
        "--json",
        arg(&json),
    ]);
    let name = arg(&path);
    assert_eq!(
        out.stdout,
        format!(
            "A: {name} — \"same.txt\", 100000 sentences (100000 compared)\n\
             B: {name} — \"same.txt\", 100000 sentences (100000 compared)\n\
             method: fuzzy, preset measured (permission 0.4, variation off)\n\
             100% of B's text is found in A (and 100% of A's in B)\n\
             containment: A in B 1.000 / B in A 1.000\n\
             matched pairs: 10000000000 (10000000000 identical, 0 similar) in 0 passages of 2 or \
             more\n\
             matched sentences: A 100000 / B 100000; common (one-to-one): 100000\n\
             overlap: A 1.000 / B 1.000\n\
             resemblance: A in B 1.000 / B in A 1.000\n\
             odds ratio: 100.000\n\
             changes: 0 added, 0 deleted, 0 changed, 0 moved\n\
             listed in part: sentence 0 of A has 100,000 identical partners in B (as do 99,999 \
             more like it): showing 10 each\n"
        )
    );
    // The report lists the band (10 partners for each of the 100,000 sentences) and says so.
    // Read as a stream, counting the matches without keeping them: the test process stays
    // small, since its own resident memory at spawn counts in the child's peak (see
    // `simdoc_bounded`).
    #[derive(serde::Deserialize)]
    struct Report {
        figures: Figures,
        matches: Vec<serde::de::IgnoredAny>,
        capped: serde_json::Value,
    }
    #[derive(serde::Deserialize)]
    struct Figures {
        pairs: u64,
    }
    let file = std::io::BufReader::new(std::fs::File::open(&json).unwrap());
    let report: Report = serde_json::from_reader(file).unwrap();
    assert_eq!(report.figures.pairs, 10_000_000_000);
    assert_eq!(report.matches.len(), 1_000_000);
    assert_eq!(
        report.capped,
        serde_json::json!([{
            "left": 0, "right": 0, "sizes": [100_000, 100_000], "shown": 10, "identical": true
        }])
    );
}

#[test]
fn ten_thousand_identical_headings_in_html() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("thread.html");
    std::fs::write(&path, page_of_repeated_headings()).unwrap();
    let out = run(&["compare", arg(&path), arg(&path), "--preset", "measured"]);
    let name = arg(&path);
    // Headings are matched but do not count towards the figures: one sentence is compared.
    // The pairs are the headings' 10,000^2, the title's and the paragraph's.
    assert_eq!(
        out.stdout,
        format!(
            "A: {name} — \"Thread\", 10002 sentences (1 compared)\n\
             B: {name} — \"Thread\", 10002 sentences (1 compared)\n\
             method: fuzzy, preset measured (permission 0.4, variation off)\n\
             100% of B's text is found in A (and 100% of A's in B)\n\
             containment: A in B 1.000 / B in A 1.000\n\
             matched pairs: 100000002 (100000002 identical, 0 similar) in 1 passage of 2 or more\n\
             matched sentences: A 1 / B 1; common (one-to-one): 1\n\
             overlap: A 1.000 / B 1.000\n\
             resemblance: A in B 1.000 / B in A 1.000\n\
             odds ratio: 100.000\n\
             changes: 0 added, 0 deleted, 0 changed, 0 moved\n\
             listed in part: sentence 2 of A has 10,000 identical partners in B (as do 9,999 \
             more like it): showing 99 each\n"
        )
    );
}

#[test]
fn a_collection_of_fifty_pages_of_repeated_headings() {
    let dir = tempfile::tempdir().unwrap();
    let page = page_of_repeated_headings();
    for i in 0..50 {
        std::fs::write(dir.path().join(format!("page{i:02}.html")), &page).unwrap();
    }
    // The thesis's sentence matcher over all 500,000 sentences at once, and CoDet.
    let out_dir = tempfile::tempdir().unwrap();
    for method in ["fuzzy", "codet"] {
        let csv = out_dir.path().join(format!("{method}.csv"));
        let out = run(&[
            "collection",
            arg(dir.path()),
            "--method",
            method,
            "--csv",
            arg(&csv),
        ]);
        let first = out.stdout.lines().next().unwrap_or_default();
        assert_eq!(
            first,
            format!("{method}: 50 documents, 1225 pairs, 1 duplicate group"),
            "{out:?}"
        );
        // Every two pages are duplicates (csv: a,b,relation,score, then the evidence).
        let csv = std::fs::read_to_string(&csv).unwrap();
        let rows: Vec<Vec<&str>> = csv
            .lines()
            .skip(1)
            .map(|r| r.split(',').collect())
            .collect();
        assert_eq!(rows.len(), 1225);
        assert!(
            rows.iter().all(|row| row[2..4] == ["duplicate", "1"]),
            "{csv}"
        );
        // Evidence stops at its sentence budget: 49 pairs of two 10,002-sentence pages fit in
        // 1,000,000 sentences; each finds all of one page in the other.
        assert!(
            out.stderr.contains("evidence for the first 49 pairs only"),
            "{out:?}"
        );
        let with_evidence: Vec<&Vec<&str>> = rows.iter().filter(|row| !row[4].is_empty()).collect();
        assert_eq!(with_evidence.len(), 49);
        assert!(
            with_evidence.iter().all(|row| row[4..6] == ["1", "1"]),
            "{csv}"
        );
    }
}

/// Passages and word alignments leave out the band of a class pair listed in part: the three
/// distinct opening sentences are the only passage and the only matches with their words
/// aligned, although the band's pairs also run along the diagonal.
#[test]
fn passages_and_words_leave_out_the_repeated_band() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("letter.txt");
    let opening = "Dear members of the rowing club, the spring regatta moves to May. \
                   The clubhouse kitchen closes for repairs in April. \
                   Volunteers for the boat shed should write to the secretary. ";
    // 1,100 copies: 1,210,000 pairs, past the listing budget, so the class pair is a band.
    std::fs::write(&path, format!("{opening}{}", SENTENCE.repeat(1_100))).unwrap();
    let json = dir.path().join("report.json");
    run(&[
        "compare",
        arg(&path),
        arg(&path),
        "--preset",
        "measured",
        "--json-full",
        arg(&json),
        "-q",
    ]);
    let report: serde_json::Value =
        serde_json::from_reader(std::fs::File::open(&json).unwrap()).unwrap();
    assert_eq!(report["capped"].as_array().map(Vec::len), Some(1));
    let passages = report["passages"].as_array().unwrap();
    assert_eq!(passages.len(), 1, "{passages:?}");
    assert_eq!(passages[0]["a"], serde_json::json!([0, 2]));
    assert_eq!(passages[0]["b"], serde_json::json!([0, 2]));
    let matches = report["matches"].as_array().unwrap();
    assert!(matches.len() > 100_000, "{}", matches.len());
    let aligned: Vec<(u64, u64)> = matches
        .iter()
        .filter(|m| m.get("words").is_some())
        .map(|m| (m["left"].as_u64().unwrap(), m["right"].as_u64().unwrap()))
        .collect();
    assert_eq!(aligned, [(0, 0), (1, 1), (2, 2)]);
}

/// Under the documents preset (matches judged against chance) the repeated sentence carries no
/// evidence and does not flood the result: the three distinct opening sentences are the one
/// passage and the only matches, and a text of one sentence repeated 100,000 times finds nothing
/// in itself, within the same bounds.
#[test]
fn repeated_sentences_do_not_flood_evidence_judged_against_chance() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("letter.txt");
    let opening = "Dear members of the rowing club, the spring regatta moves to May. \
                   The clubhouse kitchen closes for repairs in April. \
                   Volunteers for the boat shed should write to the secretary. ";
    std::fs::write(&path, format!("{opening}{}", SENTENCE.repeat(1_100))).unwrap();
    let json = dir.path().join("report.json");
    run(&[
        "compare",
        arg(&path),
        arg(&path),
        "--json",
        arg(&json),
        "-q",
    ]);
    let report: serde_json::Value =
        serde_json::from_reader(std::fs::File::open(&json).unwrap()).unwrap();
    let passages = report["passages"].as_array().unwrap();
    assert_eq!(passages.len(), 1, "{passages:?}");
    assert_eq!(passages[0]["a"], serde_json::json!([0, 2]));
    assert_eq!(passages[0]["b"], serde_json::json!([0, 2]));
    let matched: Vec<(u64, u64)> = report["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["left"].as_u64().unwrap(), m["right"].as_u64().unwrap()))
        .collect();
    assert_eq!(matched, [(0, 0), (1, 1), (2, 2)]);

    let same = dir.path().join("same.txt");
    std::fs::write(&same, SENTENCE.repeat(100_000)).unwrap();
    let out = run(&["compare", arg(&same), arg(&same)]);
    assert!(out.stdout.contains("matched pairs: 0 "), "{}", out.stdout);
}
