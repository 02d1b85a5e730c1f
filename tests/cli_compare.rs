//! `simdoc compare` end to end: the JSON report's figures and matches.

use crate::common;

use common::{simdoc, text};

#[test]
fn json_report_carries_containment_and_one_to_two_matches() {
    let dir = tempfile::tempdir().expect("temp dir");
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    // A splits B's second sentence in two; A's last sentence is its own.
    std::fs::write(
        &a,
        "Volcanic ash closed the northern airports on Monday. \
         Airlines cancelled hundreds of flights. Passengers waited in crowded terminals. \
         Completely unrelated prose about gardening tomatoes.",
    )
    .unwrap();
    std::fs::write(
        &b,
        "Volcanic ash closed the northern airports on Monday. \
         Airlines cancelled hundreds of flights and passengers waited in crowded terminals.",
    )
    .unwrap();
    let out = simdoc(&[
        "compare",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--json-full",
        "-",
        "--preset",
        "measured",
        "--permission",
        "0.8",
        "--variation",
        "0.15",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let containment = &report["figures"]["containment"];
    // A: three of four sentences wholly inside B. B: its first sentence wholly in A, its second
    // in A's two halves but for "and" (stopwords are terms in the measured preset): 10 of 11.
    assert_eq!(containment[0].as_f64(), Some(0.75));
    assert_eq!(containment[1].as_f64(), Some((1.0 + 10.0 / 11.0) / 2.0));
    let matches = report["matches"].as_array().unwrap();
    let joined: Vec<(u64, u64)> = matches
        .iter()
        .filter(|m| m["joined"]["side"] == "left")
        .map(|m| (m["left"].as_u64().unwrap(), m["right"].as_u64().unwrap()))
        .collect();
    assert_eq!(joined, [(1, 1), (2, 1)]);
    assert_eq!(matches.len(), 3);

    // The three matches are one passage: A 0-2 along B 0-1, the split as a one-sided step.
    let passages = report["passages"].as_array().unwrap();
    assert_eq!(passages.len(), 1);
    let passage = &passages[0];
    assert_eq!(passage["a"], serde_json::json!([0, 2]));
    assert_eq!(passage["b"], serde_json::json!([0, 1]));
    assert_eq!(passage["sentences"], 3);
    assert_eq!(passage["words"], 18, "A's 8 + 5 + 5 words (B has 19)");
    let score = passage["score"].as_f64().unwrap();
    assert!(
        (score - 31.0 / 33.0).abs() < 1e-12,
        "(1 + 2 x 10/11) / 3, got {score}"
    );
    assert!(matches.iter().all(|m| m["passage"] == 0));

    // Each match carries its words: the joined B sentence's "and" is the only word not in A.
    let b_words = matches[1]["words"]["b"].as_array().unwrap();
    let only_b: Vec<&str> = b_words
        .iter()
        .filter(|w| w["kind"] == "unmatched")
        .map(|w| w["word"].as_str().unwrap())
        .collect();
    assert_eq!(only_b, ["and"]);
    let a_parts: Vec<u64> = matches[1]["words"]["a"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["part"].as_u64().unwrap_or(0))
        .collect();
    assert_eq!(
        a_parts,
        [0, 0, 0, 0, 0, 1, 1, 1, 1, 1],
        "A's two sentences taken together"
    );
}

/// The summary's method line names the preset the comparison ran under, and only when the
/// settings are the preset's (a value overridden makes them no preset's).
#[test]
fn the_summary_names_the_preset() {
    let dir = tempfile::tempdir().expect("temp dir");
    let a = dir.path().join("a.txt");
    std::fs::write(&a, "Volcanic ash closed the northern airports on Monday.").unwrap();
    let method_line = |extra: &[&str]| {
        let mut args = vec!["compare", a.to_str().unwrap(), a.to_str().unwrap()];
        args.extend_from_slice(extra);
        let out = simdoc(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
            .lines()
            .find(|l| l.starts_with("method: "))
            .expect("a method line")
            .to_string()
    };
    assert!(
        method_line(&[]).starts_with("method: fuzzy, preset documents (permission "),
        "{}",
        method_line(&[])
    );
    assert!(method_line(&["--preset", "teacher"]).starts_with("method: fuzzy, preset teacher ("));
    let custom = method_line(&["--preset", "teacher", "--permission", "0.9"]);
    assert!(
        custom.starts_with("method: fuzzy (permission 0.9"),
        "{custom}"
    );
}
