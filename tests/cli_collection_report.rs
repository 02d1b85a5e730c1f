//! What `simdoc collection`'s reports say beside their pairs (issue 41): the run's notes in the
//! JSON and HTML reports as on standard error, and a class's student pairs ranked by the text
//! they share beyond the marked sources.

use crate::common;

use common::{arg, simdoc, text};
use serde_json::Value;
use std::path::Path;

/// Five answers to one set question, each quoting it whole, then writing about its own topic;
/// the first two also share a paragraph of their own.
fn write_answers(dir: &Path) {
    let question = "Explain in your own words why the old lighthouse keeper refused to leave the \
                    island after the storm destroyed the northern jetty. Use at least two examples \
                    from the reading.";
    let shared = "My uncle rebuilt a fishing boat from driftwood and tar over three winters. He \
                  painted its hull a bright orange so that the coastguard could find him in fog. \
                  The boat still sits on blocks behind his workshop near the ferry ramp.";
    let own = [
        "Tomatoes need a sunny wall and steady watering. Compost from the kitchen feeds the \
         beds all summer. Bees visit the beans in the early morning.",
        "Comets brighten as they swing close to the sun. A small telescope shows the rings of \
         Saturn on a clear night. Eclipses are predicted centuries ahead.",
        "Saffron is picked by hand from autumn crocus flowers. Sourdough rises slowly in a cold \
         kitchen. Dumplings are steamed in bamboo baskets.",
        "Signal boxes once stood beside every junction. Viaducts carried the line across deep \
         valleys. Steam engines pulled a tender full of coal.",
        "Opening gambits trade a pawn for quick development. Endgames reward patient king \
         moves. Castling tucks the king behind its pawns.",
    ];
    for (n, text) in own.iter().enumerate() {
        let extra = if n < 2 { shared } else { "" };
        std::fs::write(
            dir.join(format!("answer-{n}.txt")),
            format!("{question}\n\n{text}\n\n{extra}\n"),
        )
        .expect("write");
    }
}

/// The lines `simdoc: ...` of standard error, without the prefix.
fn stderr_notes(stderr: &[u8]) -> Vec<String> {
    text(stderr)
        .lines()
        .filter_map(|l| l.strip_prefix("simdoc: "))
        .map(str::to_string)
        .collect()
}

/// Text held by more than `--max-sharing` documents is left out of every pair: the note that
/// says so is printed, and carried word for word by the JSON (`notes`) and the HTML report (a
/// notes block); a run with nothing to note carries an empty list and no block.
#[test]
fn the_common_text_left_out_is_noted_in_the_json_and_html_reports() {
    let dir = tempfile::tempdir().expect("temp dir");
    let answers = dir.path().join("answers");
    std::fs::create_dir(&answers).expect("answers");
    write_answers(&answers);
    let run = |name: &str, extra: &[&str]| {
        let (json, html) = (
            dir.path().join(format!("{name}.json")),
            dir.path().join(format!("{name}.html")),
        );
        let mut args = vec!["collection", "--json", arg(&json), "--html", arg(&html)];
        args.extend_from_slice(extra);
        args.extend(["--", arg(&answers)]);
        let out = simdoc(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let report: Value =
            serde_json::from_str(&std::fs::read_to_string(&json).expect("json")).expect("JSON");
        let html = std::fs::read_to_string(&html).expect("html");
        (stderr_notes(&out.stderr), report, html)
    };

    let (printed, report, html) = run("common", &["--max-sharing", "2"]);
    let common = printed
        .iter()
        .find(|n| n.contains("(--max-sharing)"))
        .unwrap_or_else(|| panic!("the common text is noted: {printed:?}"));
    assert!(common.contains("held by more than 2 documents"), "{common}");
    let notes: Vec<&str> = report["notes"]
        .as_array()
        .expect("a notes array")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(notes.contains(&common.as_str()), "{notes:?} lacks {common}");
    assert!(html.contains("<h2>Notes on this run</h2>"), "{html}");
    assert!(html.contains(&format!("<li>{common}</li>")), "{html}");
    // The two answers sharing a paragraph of their own are still paired.
    assert!(!report["pairs"].as_array().expect("pairs").is_empty());

    // Five answers and the default cut (text held by more than 10): nothing left out.
    let (printed, report, html) = run("plain", &[]);
    assert!(
        !printed.iter().any(|n| n.contains("--max-sharing")),
        "{printed:?}"
    );
    assert_eq!(report["notes"], Value::Array(Vec::new()));
    assert!(!html.contains("Notes on this run"));
}

/// Two students who share only a source's sentences, and two who share a sentence of their
/// own: the second pair ranks first among the student pairs, although the first pair's raw
/// score (with the source's text) is higher; both keep their raw score.
#[test]
fn student_pairs_are_ranked_by_what_they_share_beyond_the_sources() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (sources, answers) = (dir.path().join("sources"), dir.path().join("answers"));
    std::fs::create_dir(&sources).expect("sources");
    std::fs::create_dir(&answers).expect("answers");
    common::class::write_flood_class(&sources, &answers);
    let json = dir.path().join("class.json");
    let out = simdoc(&[
        "collection",
        "--sources",
        arg(&sources),
        "--json",
        arg(&json),
        "--",
        arg(&answers),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json")).expect("JSON");
    let name = |d: &Value| {
        let path = report["documents"][d.as_u64().expect("a position") as usize]
            .as_str()
            .expect("a name");
        Path::new(path)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string()
    };
    let students: Vec<&Value> = report["pairs"]
        .as_array()
        .expect("pairs")
        .iter()
        .filter(|p| p["kind"] == "submission_submission")
        .collect();
    let position = |a: &str, b: &str| {
        students
            .iter()
            .position(|p| {
                let mut names = [name(&p["a"]), name(&p["b"])];
                names.sort();
                names == [a, b]
            })
            .unwrap_or_else(|| panic!("{a} and {b} are paired: {report}"))
    };
    let (quoting, sharing) = (
        position("alice.txt", "bob.txt"),
        position("carol.txt", "dave.txt"),
    );
    assert!(sharing < quoting, "{report}");
    let (quoting, sharing) = (students[quoting], students[sharing]);
    // The raw scores stay: the source's four sentences weigh more than the two of their own.
    let score = |p: &Value| p["score"].as_f64().expect("a score");
    assert!(score(quoting) > score(sharing), "{quoting} {sharing}");
    let left = |p: &Value| {
        let c = &p["source_discount"]["containment"];
        c[0].as_f64()
            .expect("a share")
            .max(c[1].as_f64().expect("a share"))
    };
    assert!(left(sharing) > 0.0 && left(quoting) < left(sharing));
    let notes = report["notes"].as_array().expect("notes");
    assert!(
        notes.iter().filter_map(Value::as_str).any(|n| n
            .contains("ranked by the larger share left once the text found in a marked source")),
        "{notes:?}"
    );
}
