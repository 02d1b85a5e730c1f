//! The viewer's collection mode driven through egui_kittest: a run over a folder, its pairs
//! opened side by side, its presets and matrix, sources first, and the same pairs as `simdoc
//! collection` reads from the same folder.

use std::path::Path;
use std::sync::Arc;

use crate::app::{A, B};
use crate::viewer_support;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use simdoc::app::{CentralView, Settings, SimdocApp};
use simdoc::compare::Preset;
use simdoc::model::ReferenceModel;
use viewer_support::{harness, labels_containing, settle, write};

/// Collection mode run from the UI over a folder of a.txt, a-copy.txt (the same text) and b.txt.
fn collection_run(dir: &Path) -> Harness<'static, SimdocApp> {
    write(dir, "a.txt", A);
    write(dir, "a-copy.txt", A);
    write(dir, "b.txt", B);
    class_run(dir, None)
}

#[test]
fn collection_mode_finds_a_pair_and_opens_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = collection_run(dir.path());
    // No sources marked: the documents preset and its detector, as `simdoc collection` picks
    // them.
    assert!(
        h.query_by_label_contains(
            "Fuzzy-set IR (thesis, odds ratios) with the documents preset: 3 documents"
        )
        .is_some(),
        "{:?}",
        h.state().messages
    );
    // The identical pair ranks first; opening it compares the two side by side.
    h.get_all_by_label("Open")
        .next()
        .expect("an Open button")
        .click();
    settle(&mut h);
    let state = h.state();
    assert_eq!(state.settings.central_view, CentralView::Texts);
    let names: Vec<String> = state
        .docs
        .iter()
        .map(|d| d.as_ref().map_or(String::new(), |d| d.file_name()))
        .collect();
    assert_eq!(names, vec!["a-copy.txt", "a.txt"]);
    assert_eq!(
        state.view.as_ref().expect("compared").figures.resemblance,
        [1.0, 1.0]
    );
}

/// The viewer's collection mode and `simdoc collection` read a folder through one pipeline
/// (`selection::gather`, `collection::run::detect`): the same documents (the folder's README left
/// out by both), the same pairs, the same scores.
#[test]
fn collection_mode_and_the_command_line_report_the_same_pairs() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(
        dir.path(),
        "README.md",
        "This folder holds three news items about a fox.",
    );
    let h = collection_run(dir.path());
    let json = tempfile::tempdir().expect("temp dir");
    let json = json.path().join("collection.json");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_simdoc"))
        .arg("collection")
        .arg(dir.path())
        .arg("--json")
        .arg(&json)
        .output()
        .expect("simdoc runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json")).expect("parse");
    let name = |i: &serde_json::Value| {
        let path = report["documents"][i.as_u64().expect("index") as usize]
            .as_str()
            .expect("name");
        Path::new(path)
            .file_name()
            .expect("file name")
            .to_string_lossy()
            .into_owned()
    };
    let documents = report["documents"].as_array().expect("documents").len();
    let pairs = report["pairs"].as_array().expect("pairs");
    assert_eq!(documents, 3, "{report}");
    assert!(!pairs.is_empty(), "{report}");
    assert!(
        h.query_by_label_contains(&format!(
            ": {documents} documents, {} ranked by score",
            simdoc::render::counted(pairs.len(), "pair", "pairs")
        ))
        .is_some(),
        "{report}"
    );
    for pair in pairs {
        let (a, b) = (name(&pair["a"]), name(&pair["b"]));
        let score = pair["score"].as_f64().expect("score");
        let shown = [
            format!("score {score:.3}:  {a}  ·  {b}"),
            format!("score {score:.3}:  {b}  ·  {a}"),
        ];
        assert!(
            shown
                .iter()
                .any(|label| h.query_by_label_contains(label).is_some()),
            "the viewer does not list {shown:?}"
        );
    }
}

/// A preset picked in its menu sets every detector's parameters and the detector run.
#[test]
fn a_preset_chosen_in_the_menu_runs_its_detector() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = collection_run(dir.path());
    h.get_by_label("Collection preset").click();
    h.run_ok();
    h.get_by_label("Paper (each paper's settings)").click();
    h.run_ok();
    h.get_by_label("Run").click();
    settle(&mut h);
    assert!(
        h.query_by_label_contains("CoDet (containment) with the paper preset: 3 documents")
            .is_some(),
        "{:?}",
        h.state().messages
    );
    assert!(
        h.query_by_label_contains("a-copy.txt  ·  a.txt").is_some(),
        "the copies are a pair"
    );
}

#[test]
fn the_matrix_names_the_cell_under_the_pointer_and_opens_its_pair() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = collection_run(dir.path());
    // Documents in name order: a-copy.txt, a.txt, b.txt. Move the pointer over the right half
    // until the tooltip names the cell of row a-copy.txt, column b.txt.
    let wanted = "row: a-copy.txt\ncolumn: b.txt\nodds ratio";
    let mut found = None;
    'scan: for y in (100..860).step_by(12) {
        for x in (760..1400).step_by(12) {
            let at = egui::pos2(x as f32, y as f32);
            h.hover_at(at);
            h.run_ok();
            if h.query_all_by_label_contains(wanted).next().is_some() {
                found = Some(at);
                break 'scan;
            }
        }
    }
    let at = found.expect("a cell of the matrix names row a-copy.txt and column b.txt");
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    }
    settle(&mut h);
    let names: Vec<String> = h
        .state()
        .docs
        .iter()
        .map(|d| d.as_ref().map_or(String::new(), |d| d.file_name()))
        .collect();
    assert_eq!(names, ["a-copy.txt", "b.txt"]);
}

#[test]
fn collection_mode_puts_submission_source_pairs_first_and_skips_folder_notes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let submissions = dir.path().join("submissions");
    let sources = dir.path().join("sources");
    std::fs::create_dir_all(&submissions).expect("folder");
    std::fs::create_dir_all(&sources).expect("folder");
    write(&submissions, "a.txt", A.as_bytes());
    write(&submissions, "a-again.txt", A.as_bytes());
    write(&submissions, "README.md", A.as_bytes());
    write(&sources, "original.txt", A.as_bytes());
    let mut app = SimdocApp::new(
        Settings::with_preset(Preset::MEASURED),
        Arc::new(ReferenceModel::embedded()),
    );
    app.settings.example_shown = true;
    app.settings.central_view = CentralView::Collection;
    let mut h = harness(app);
    h.run_ok();
    for (label, path) in [("Folder", &submissions), ("Sources (optional)", &sources)] {
        h.get_by_label(label).focus();
        h.run_ok();
        h.get_by_label(label).type_text(&path.display().to_string());
        h.run_ok();
    }
    h.get_by_label("Run").click();
    settle(&mut h);
    // The README is no document; the source comes first in the stream.
    assert!(
        h.query_by_label_contains("3 documents (1 source), 3 pairs ranked by score")
            .is_some(),
        "{:?}",
        h.state().messages
    );
    assert!(h.query_by_label_contains("1 file skipped").is_some());
    let rows = labels_containing(&h, "score 1.000");
    // Identical texts are duplicates; the pairs with the source come first, read from it, under
    // their heading; the pair of two submissions under its own, with what it shares beyond
    // the source (nothing: all its text is the source's).
    assert_eq!(
        rows,
        [
            "duplicate  score 1.000:  source: original.txt  ·  a-again.txt",
            "duplicate  score 1.000:  source: original.txt  ·  a.txt",
            "duplicate  score 1.000, 0% beyond the sources:  a-again.txt  ·  a.txt",
        ]
    );
    let headings = labels_containing(&h, "Submissions ");
    assert_eq!(
        headings,
        [
            "Submissions and the sources they reuse: 2 pairs",
            "Submissions reusing each other: 1 pair"
        ]
    );
    // The HTML report of the run, with each pair's evidence (identical texts: all of each is
    // found in the other).
    let report = dir.path().join("collection.html");
    h.state_mut().export_collection(report.clone());
    settle(&mut h);
    let html = std::fs::read_to_string(&report).expect("exported");
    assert!(html.contains("<h2>Submissions and the sources they reuse</h2>"));
    // Each pair with evidence has its comparison page beside the report, linked from its row,
    // as `simdoc collection --html` writes them.
    assert!(html.contains(r#"<a href="collection-pairs/1.html">open</a>"#));
    let page = std::fs::read_to_string(dir.path().join("collection-pairs/1.html"))
        .expect("the first pair's page");
    assert!(page.contains("original.txt") && page.contains("a-again.txt"));
    assert!(html.contains(
        "<td>submission-source</td><td>source: original.txt</td><td>duplicate</td>\
         <td>a-again.txt</td><td class=\"n\">1.000</td><td class=\"n\">100%</td>\
         <td class=\"n\">100%</td>"
    ));
    assert!(!html.contains("not computed"));
    // The three copies are one duplicate group; the first (the longest, ties to the earliest in
    // the stream: the source) is the one to keep.
    h.get_by_label("Duplicate groups (1)").click();
    h.run_ok();
    assert!(
        h.query_by_label("Group 1: keep source: original.txt; duplicates:")
            .is_some()
    );
    h.get_by_label("a.txt").click();
    settle(&mut h);
    let names: Vec<String> = h
        .state()
        .docs
        .iter()
        .map(|d| d.as_ref().map_or(String::new(), |d| d.file_name()))
        .collect();
    assert_eq!(names, ["source: original.txt", "a.txt"]);
}

/// Collection mode run from the UI over `folder`, with `sources` marked if given.
fn class_run(folder: &Path, sources: Option<&Path>) -> Harness<'static, SimdocApp> {
    let mut app = SimdocApp::new(
        Settings::with_preset(Preset::MEASURED),
        Arc::new(ReferenceModel::embedded()),
    );
    app.settings.example_shown = true;
    app.settings.central_view = CentralView::Collection;
    let mut h = harness(app);
    h.run_ok();
    let fields = [("Folder", Some(folder)), ("Sources (optional)", sources)];
    for (label, path) in fields {
        let Some(path) = path else { continue };
        h.get_by_label(label).focus();
        h.run_ok();
        h.get_by_label(label).type_text(&path.display().to_string());
        h.run_ok();
    }
    h.get_by_label("Run").click();
    settle(&mut h);
    h
}

/// The raw score a pair's row shows ("reuses  score 0.612...").
fn row_score(row: &str) -> f64 {
    let (_, after) = row
        .split_once("score ")
        .unwrap_or_else(|| panic!("a score in {row}"));
    after
        .get(..5)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("a score in {row}"))
}

/// Whether a pair's row names `a` and `b`, in either order.
fn is_pair(row: &str, a: &str, b: &str) -> bool {
    row.ends_with(&format!(":  {a}  ·  {b}")) || row.ends_with(&format!(":  {b}  ·  {a}"))
}

/// The class of `cli_collection_report`'s ranking test on screen (issue 41): with the source
/// marked, the pair sharing text of its own (Carol and Dave) is listed before the pair sharing
/// only the source's sentences (Alice and Bob), whose raw score is higher; each row shows the
/// share left beyond the sources beside its raw score, and the list carries the export's
/// ranking note. Without the source marked, the pairs are listed by raw score.
#[test]
fn student_pairs_on_screen_are_ranked_by_what_they_share_beyond_the_sources() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (sources, answers) = (dir.path().join("sources"), dir.path().join("answers"));
    std::fs::create_dir(&sources).expect("sources");
    std::fs::create_dir(&answers).expect("answers");
    crate::common::class::write_flood_class(&sources, &answers);

    let h = class_run(&answers, Some(&sources));
    let students: Vec<String> = labels_containing(&h, "  ·  ")
        .into_iter()
        .filter(|row| !row.contains("source: "))
        .collect();
    let position = |a: &str, b: &str| {
        students
            .iter()
            .position(|row| is_pair(row, a, b))
            .unwrap_or_else(|| panic!("{a} and {b} are listed: {students:?}"))
    };
    let (sharing, quoting) = (
        position("carol.txt", "dave.txt"),
        position("alice.txt", "bob.txt"),
    );
    assert!(sharing < quoting, "{students:?}");
    let (sharing, quoting) = (&students[sharing], &students[quoting]);
    // The raw scores stay: the source's four sentences weigh more than two of their own.
    assert!(row_score(quoting) > row_score(sharing), "{students:?}");
    assert!(
        quoting.contains(", 0% beyond the sources:"),
        "Alice and Bob share only the source's text: {quoting}"
    );
    assert!(
        sharing.contains("% beyond the sources:") && !sharing.contains(", 0% beyond"),
        "Carol and Dave share text of their own: {sharing}"
    );
    // The note the exported report and `simdoc collection --sources` carry, word for word.
    let note = simdoc::collection::discounted_rank::ranking_note(students.len(), students.len())
        .expect("a note");
    assert!(h.query_by_label(&note).is_some(), "{note}");
    assert!(
        h.query_by_label_contains(
            "ranked by score (the submissions' pairs by what they share beyond the sources)"
        )
        .is_some()
    );

    // No source marked: the same answers listed by raw score, without shares or note.
    let h = class_run(&answers, None);
    let rows = labels_containing(&h, "  ·  ");
    let scores: Vec<f64> = rows.iter().map(|row| row_score(row)).collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "by raw score: {rows:?}"
    );
    let position = |a: &str, b: &str| {
        rows.iter()
            .position(|row| is_pair(row, a, b))
            .unwrap_or_else(|| panic!("{a} and {b} are listed: {rows:?}"))
    };
    assert!(
        position("alice.txt", "bob.txt") < position("carol.txt", "dave.txt"),
        "{rows:?}"
    );
    assert!(!rows.iter().any(|row| row.contains("beyond the sources")));
    assert!(
        h.query_by_label_contains("ranked by the larger share")
            .is_none()
    );
}
