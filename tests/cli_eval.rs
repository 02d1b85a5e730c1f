//! `simdoc eval pairs` and `simdoc eval documents`, run as a user would, on hand-made files.

use crate::common;
use common::{simdoc, text};

use std::path::Path;

fn write(dir: &Path, name: &str, content: &str) {
    std::fs::write(dir.join(name), content).unwrap();
}

/// Four MSRP-style pairs: two identical after refining (positive), one unrelated (negative), one
/// positive with no word in common.
const MSRP: &str = "\u{feff}Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\n\
    1\t1\t2\tThe cat sat on the mat.\tThe cat sat on the mat!\n\
    1\t3\t4\tShares of \"Acme\" rose sharply.\tShares of Acme rose sharply.\n\
    0\t5\t6\tThe weather was cold.\tParliament passed the budget.\n\
    1\t7\t8\tHe left early.\tShe departed before dawn.\n";

#[test]
fn pairs_report_json_and_plots() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "msr_paraphrase_train.txt", MSRP);
    let json = dir.path().join("out.json");
    let svg = dir.path().join("sweep.svg");
    let png = dir.path().join("sweep.png");
    let out = simdoc(&[
        "eval",
        "pairs",
        "--format",
        "msrp",
        dir.path().to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("msrp train: 4 pairs (3 positive, 1 negative)"),
        "{stdout}"
    );
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(report["dataset"], "msrp");
    assert_eq!(report["split"], "train");
    // A yes/no decision on sentence pairs: the verdict preset unless another is named.
    assert_eq!(report["preset"], "verdict");
    assert_eq!(report["verdict"], true);
    assert!(stdout.contains("preset: verdict"), "{stdout}");
    assert!(stdout.contains("(verdict probability >= 0.43)"), "{stdout}");
    let results = report["results"].as_array().unwrap();
    let methods: Vec<&str> = results
        .iter()
        .map(|r| r["method"].as_str().unwrap())
        .collect();
    assert_eq!(methods, ["fuzzy", "overlap", "fourgram", "exact"]);
    // Exact: the first two pairs have equal refined terms, the fourth none in common.
    let exact = &results[3];
    assert_eq!(
        (
            exact["tp"].as_u64(),
            exact["fp"].as_u64(),
            exact["tn"].as_u64(),
            exact["fn"].as_u64()
        ),
        (Some(2), Some(0), Some(1), Some(1))
    );
    assert_eq!(exact["pairs"], 4);
    assert!((exact["precision"].as_f64().unwrap() - 1.0).abs() < 1e-12);
    assert!((exact["recall"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-12);
    assert!((exact["f1"].as_f64().unwrap() - 0.8).abs() < 1e-12);
    assert!((exact["accuracy"].as_f64().unwrap() - 0.75).abs() < 1e-12);
    // --plot implies the sweep.
    assert_eq!(report["sweep"]["grid"].as_array().unwrap().len(), 39 * 22);
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));

    let out = simdoc(&[
        "eval",
        "pairs",
        "--format",
        "msrp",
        dir.path()
            .join("msr_paraphrase_train.txt")
            .to_str()
            .unwrap(),
        "--method",
        "exact",
        "--plot",
        png.to_str().unwrap(),
        "--json",
        "-",
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["results"].as_array().unwrap().len(), 1);
    assert_eq!(&std::fs::read(&png).unwrap()[..4], b"\x89PNG");
}

#[test]
fn bad_input_is_a_clear_failure() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "msr_paraphrase_train.txt",
        "1\t1\t2\tonly one string\n",
    );
    let out = simdoc(&[
        "eval",
        "pairs",
        "--format",
        "msrp",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("msr_paraphrase_train.txt, line 1: expected 5 tab-separated fields"),
        "{stderr}"
    );
    let out = simdoc(&["eval", "pairs", "--format", "nope", "x"]);
    assert_eq!(out.status.code(), Some(2));
    let out = simdoc(&[
        "eval",
        "pairs",
        "--format",
        "msrp",
        dir.path().to_str().unwrap(),
        "--plot",
        "x.pdf",
    ]);
    // A usage error: exit 2, as clap's own.
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("must end in .png or .svg"));
}

#[test]
fn documents_against_a_label_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("data")).unwrap();
    let data = dir.path().join("data");
    write(
        &data,
        "article.txt",
        "Shares rose sharply on Monday. The bank reported record profits. Analysts were surprised.\n",
    );
    write(
        &data,
        "summary.txt",
        "Shares rose sharply on Monday. Analysts were surprised.\n",
    );
    write(
        &data,
        "other.txt",
        "The team won the final. The coach praised the players.\n",
    );
    // Paths relative to --root, not to the label file's folder.
    write(
        dir.path(),
        "labels.csv",
        "file,source,label\nsummary.txt,article.txt,business\nsummary.txt,other.txt,non\n",
    );
    let labels = dir.path().join("labels.csv");
    let json = dir.path().join("docs.json");
    let out = simdoc(&[
        "eval",
        "documents",
        "--labels",
        labels.to_str().unwrap(),
        "--root",
        data.to_str().unwrap(),
        // Two-sentence documents cannot show reuse against chance: the measured preset.
        "--preset",
        "measured",
        "--sweep",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(report["comparisons"], 2);
    assert_eq!(
        (report["tp"].as_u64(), report["tn"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(report["auc"].as_f64(), Some(1.0));
    assert_eq!(report["categories"][0]["label"], "business");
    assert_eq!(
        report["categories"][0]["mean_resemblance"][0].as_f64(),
        Some(1.0)
    );
    assert_eq!(report["sweep"].as_array().unwrap().len(), 21);

    // Without --root the paths are relative to the label file's folder, where they are missing.
    let out = simdoc(&["eval", "documents", "--labels", labels.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("labels.csv, line 2") && stderr.contains("summary.txt: cannot read"),
        "{stderr}"
    );
}
