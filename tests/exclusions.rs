//! What an analyst leaves out, end to end: quotations, a bibliography and matches under N
//! words, in `simdoc compare`, `simdoc sources` and `simdoc collection` (a student's essay that
//! quotes its source, copies two sentences of it unmarked, and lists the same references).

use crate::common;

use std::path::Path;

use common::{arg, json_of, simdoc, text};

const SOURCE: &str = include_str!("fixtures/exclusions/wetlands.txt");

/// The quoted sentence, the two copied ones (43 words together, a run of two), the references.
const ESSAY: &str = include_str!("fixtures/exclusions/essay.txt");

fn write_pair(dir: &Path) -> (String, String) {
    let essay = dir.join("essay.txt");
    let source = dir.join("wetlands.txt");
    std::fs::write(&essay, ESSAY).expect("write");
    std::fs::write(&source, SOURCE).expect("write");
    (arg(&essay).to_string(), arg(&source).to_string())
}

/// The essay's matched sentences (their text, in reading order) in a `compare --json -` report.
fn matched_essay_sentences(report: &serde_json::Value) -> Vec<String> {
    let essay =
        simdoc::document::parse_text(ESSAY, "essay.txt", simdoc::document::SourceFormat::Text);
    let mut matched: Vec<String> = report["matches"]
        .as_array()
        .expect("matches")
        .iter()
        .map(|m| {
            essay.sentences[m["left"].as_u64().expect("left") as usize]
                .text
                .clone()
        })
        .collect();
    matched.dedup();
    matched
}

/// The summary `simdoc compare` prints, which must succeed.
fn compare_summary(essay: &str, source: &str, extra: &[&str]) -> String {
    let mut args = vec!["compare", essay, source];
    args.extend_from_slice(extra);
    let out = simdoc(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

fn compare_json(essay: &str, source: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["compare", essay, source, "--json", "-"];
    args.extend_from_slice(extra);
    json_of(&args)
}

#[test]
fn quotations_and_the_bibliography_are_left_out_when_asked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (essay, source) = write_pair(dir.path());

    let everything = compare_json(&essay, &source, &[]);
    let matched = matched_essay_sentences(&everything);
    assert!(
        matched
            .iter()
            .any(|s| s.starts_with("As one review puts it")),
        "{matched:?}"
    );
    assert!(
        matched.iter().any(|s| s.starts_with("Smith, J.")),
        "{matched:?}"
    );
    assert_eq!(everything["exclusions"]["quotations"], false);

    let quotations = compare_json(&essay, &source, &["--exclude-quotations"]);
    let matched = matched_essay_sentences(&quotations);
    assert!(
        !matched
            .iter()
            .any(|s| s.starts_with("As one review puts it")),
        "{matched:?}"
    );
    assert!(
        matched.iter().any(|s| s.starts_with("Smith, J.")),
        "{matched:?}"
    );
    assert_eq!(quotations["exclusions"]["quotations"], true);

    let both = compare_json(
        &essay,
        &source,
        &["--exclude-quotations", "--exclude-bibliography"],
    );
    let matched = matched_essay_sentences(&both);
    // The title shares "Wetlands" with the source's title, weak alone (E = 0.01) but a link
    // of the passage of the copied sentences (judged against chance, a two-word sentence
    // sharing a rare word is unlikely); it takes no part in the figures.
    assert_eq!(
        matched,
        [
            "My Essay on Wetlands",
            "When a marsh is drained for farmland, the exposed peat oxidises and releases that stored carbon into the atmosphere within a few decades.",
            "Restoring the tidal flow to a drained marsh can halt these emissions and rebuild the soil surface as sediment settles.",
        ]
    );
    // Left out sentences are not counted either: the essay's share is 2 of its 4 own sentences
    // that take part (the title and heading are not counted).
    let contained = both["figures"]["containment"][0]
        .as_f64()
        .expect("containment");
    assert!((contained - 0.5).abs() < 1e-9, "{contained}");
    let everything_contained = everything["figures"]["containment"][0].as_f64().expect("c");
    assert!(everything_contained > 0.8, "{everything_contained}");

    let summary = compare_summary(
        &essay,
        &source,
        &["--exclude-quotations", "--exclude-bibliography"],
    );
    assert!(
        summary.contains("left out: quotations and the bibliography"),
        "{summary}"
    );
}

#[test]
fn matches_in_runs_under_the_shortest_length_are_left_out() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (essay, source) = write_pair(dir.path());
    let left_out = ["--exclude-quotations", "--exclude-bibliography"];
    // The two copied sentences are one run of 23 + 20 = 43 words, with the title's two words
    // (see above) a passage of 45.
    for (shortest, pairs) in [("0", 3), ("45", 3), ("46", 0)] {
        let mut extra = left_out.to_vec();
        extra.extend(["--min-words", shortest]);
        let report = compare_json(&essay, &source, &extra);
        assert_eq!(
            report["matches"].as_array().expect("matches").len(),
            pairs,
            "--min-words {shortest}"
        );
        assert_eq!(
            report["thresholds"]["min_words"],
            shortest.parse::<u32>().unwrap()
        );
        let contained = report["figures"]["containment"][0].as_f64().expect("c");
        assert_eq!(
            contained > 0.0,
            pairs > 0,
            "--min-words {shortest}: {contained}"
        );
    }
    // The same under the measured preset, whose figures otherwise count every pair at the
    // permission: a left-out run counts in none of them.
    let report = compare_json(
        &essay,
        &source,
        &[
            "--preset",
            "measured",
            "--min-words",
            "46",
            "--exclude-bibliography",
            "--exclude-quotations",
        ],
    );
    assert_eq!(report["matches"].as_array().expect("matches").len(), 0);
    assert_eq!(report["figures"]["containment"][0].as_f64(), Some(0.0));
    assert_eq!(report["figures"]["matched"][0].as_u64(), Some(0));
    let summary = compare_summary(&essay, &source, &["--min-words", "46"]);
    assert!(
        summary.contains("matches under 46 words left out"),
        "{summary}"
    );
}

#[test]
fn sources_leave_out_the_documents_quotations_bibliography_and_short_runs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (essay, source) = write_pair(dir.path());
    let share = |extra: &[&str]| -> f64 {
        let mut args = vec!["sources", &essay, &source, "--json", "-"];
        args.extend_from_slice(extra);
        let report = json_of(&args);
        report["sources"][0]["containment"].as_f64().unwrap_or(0.0)
    };
    let everything = share(&[]);
    let without = share(&["--exclude-quotations", "--exclude-bibliography"]);
    let short_runs_too = share(&[
        "--exclude-quotations",
        "--exclude-bibliography",
        "--min-words",
        "46",
    ]);
    assert!(everything > 0.8, "{everything}");
    assert!((without - 0.5).abs() < 1e-9, "{without}");
    assert_eq!(short_runs_too, 0.0);
}

#[test]
fn a_collection_leaves_out_quotations_and_the_bibliography_of_every_document() {
    let dir = tempfile::tempdir().expect("temp dir");
    write_pair(dir.path());
    std::fs::write(
        dir.path().join("trains.txt"),
        "An unrelated note about trains and timetables.\n\
         The train to the city leaves at nine every morning from platform two.\n",
    )
    .expect("write");
    let folder = arg(dir.path());
    let run = |extra: &[&str]| -> String {
        let mut args = vec!["collection", folder, "--preset", "teacher"];
        args.extend_from_slice(extra);
        let out = simdoc(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let everything = run(&[]);
    assert!(everything.contains("[84% in b, 86% in a]"), "{everything}");
    let without = run(&["--exclude-quotations", "--exclude-bibliography"]);
    assert!(without.contains("[50% in b, 40% in a]"), "{without}");
    assert!(
        without.contains("quotations and the bibliography left out"),
        "{without}"
    );
}
