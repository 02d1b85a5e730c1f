//! `simdoc collection --judging-budget`: a judged fuzzy run compares its candidate pairs, the
//! strongest first, until the budget of distinct sentences is spent, reports only what it
//! judged and says how many it left out.

use crate::common;
use crate::common::stories::{CONCERT, FLOOD};

const HARBOUR: [&str; 6] = [
    "Fishing boats stayed in the harbour for a week of storms.",
    "The lighthouse keeper logged waves over the outer wall.",
    "A cargo ship waited offshore until the wind dropped.",
    "The ferry to the islands was cancelled on four days.",
    "Children watched the spray from the cliff path.",
    "The harbour master reopened the port on Sunday morning.",
];

/// The pairs of a run's JSON report as (a, b) document positions.
fn pairs(json: &std::path::Path) -> Vec<(u64, u64)> {
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(json).expect("the report")).expect("JSON");
    report["pairs"]
        .as_array()
        .expect("pairs")
        .iter()
        .map(|p| {
            let at = |side: &str| p[side].as_u64().expect("a position");
            (at("a").min(at("b")), at("a").max(at("b")))
        })
        .collect()
}

#[test]
fn a_judging_budget_judges_the_strongest_candidates_and_says_what_it_left_out() {
    let dir = tempfile::tempdir().expect("temp dir");
    let docs = dir.path().join("docs");
    std::fs::create_dir(&docs).expect("folder");
    // a and b: the same report (resemblance 1); c and d: half of the concert review each, the
    // other half their own (resemblance 1/2).
    std::fs::write(docs.join("a.txt"), FLOOD.join(" ")).expect("write");
    std::fs::write(docs.join("b.txt"), FLOOD.join(" ")).expect("write");
    let half = CONCERT[..6].join(" ");
    std::fs::write(
        docs.join("c.txt"),
        format!("{half} {}", CONCERT[6..].join(" ")),
    )
    .expect("write");
    std::fs::write(docs.join("d.txt"), format!("{half} {}", HARBOUR.join(" "))).expect("write");
    let run = |extra: &[&str]| {
        let json = dir.path().join(format!("report{}.json", extra.len()));
        let mut args = vec!["collection", common::arg(&docs), "--method", "fuzzy"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--json", common::arg(&json)]);
        let out = common::simdoc(&args);
        assert!(out.status.success(), "{}", common::text(&out.stderr));
        let said = common::text(&out.stdout) + &common::text(&out.stderr);
        (pairs(&json), said)
    };
    // The default budget judges both candidates: both pairs reported, no note.
    let (all, said) = run(&[]);
    assert_eq!(all, vec![(0, 1), (2, 3)], "{said}");
    assert!(!said.contains("were judged against chance"), "{said}");
    // A budget of 30 distinct sentences holds the first candidate (24) and not the second
    // (another 24): the duplicate pair only, and a note naming what was left out.
    let (cut, said) = run(&["--judging-budget", "30"]);
    assert_eq!(cut, vec![(0, 1)], "{said}");
    assert!(
        said.contains("1 of 2 candidate pairs (those sharing an EQ sentence) were judged")
            && said.contains("past 30 distinct sentences"),
        "{said}"
    );
}
