//! `simdoc compare` end to end: the JSON report's figures and matches.

mod common;

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
        "--json",
        "-",
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
}
