//! The viewer's Sources view (one document against many sources, issue 14 item 1), driven
//! through egui_kittest: the sources ranked by the share of the document found in each, a
//! source or a sentence opening its pair side by side, a threshold re-running the attribution,
//! the HTML export; and a BBC summary against the business articles when SIMDOC_DATA is set.
#![cfg(feature = "gui")]

use crate::common;

use crate::viewer_support;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use simdoc::app::{CentralView, Settings, Side, SimdocApp};
use simdoc::model::ReferenceModel;
use viewer_support::{harness, labels_containing, settle, write};

/// Five sentences: the first three copied from one.txt, the fourth one word away from a
/// sentence of two.txt, the last from nowhere.
const DOCUMENT: &str = "The quick brown fox jumps over the lazy dog near the river bank. \
    Farmers in the valley reported the sighting on Tuesday morning. \
    Nobody could explain why the animal returned every spring. \
    Officials promised a full survey of the local wildlife next year. \
    Quarterly bond yields puzzled every trader in the city exchange.\n";
const ONE: &str = "The quick brown fox jumps over the lazy dog near the river bank. \
    Farmers in the valley reported the sighting on Tuesday morning. \
    Nobody could explain why the animal returned every spring. \
    A heron waited by the mill pond until dusk.\n";
const TWO: &str = "Officials promised a full survey of the regional wildlife next year. \
    The council will vote on the budget in March.\n";
const THREE: &str = "Astronomers measured the spin of a distant pulsar with new radio dishes.\n";

fn sources_app() -> SimdocApp {
    let mut app = SimdocApp::new(Settings::default(), Arc::new(ReferenceModel::embedded()));
    app.settings.example_shown = true;
    app.settings.central_view = CentralView::Sources;
    app
}

fn type_into(h: &mut Harness<'_, SimdocApp>, label: &str, text: &str) {
    h.get_by_label(label).focus();
    h.run_ok();
    h.get_by_label(label).type_text(text);
    h.run_ok();
}

/// The Sources view run on `document` against `sources`, typed into its fields.
fn run_view(document: &Path, sources: &Path) -> Harness<'static, SimdocApp> {
    let mut h = harness(sources_app());
    h.run_ok();
    type_into(&mut h, "Document", &document.display().to_string());
    type_into(
        &mut h,
        "Sources folder or files",
        &sources.display().to_string(),
    );
    h.get_by_label("Run").click();
    settle(&mut h);
    h
}

/// The rows of the source list, top to bottom.
fn source_rows(h: &Harness<'_, SimdocApp>) -> Vec<String> {
    labels_containing(h, "of the document is found in")
}

/// A folder with the three sources and a README, which is no source.
fn folder(dir: &Path) -> (PathBuf, PathBuf) {
    let sources = dir.join("sources");
    std::fs::create_dir_all(&sources).expect("folder");
    write(&sources, "one.txt", ONE);
    write(&sources, "two.txt", TWO);
    write(&sources, "three.txt", THREE);
    write(&sources, "README.md", DOCUMENT);
    (write(dir, "doc.txt", DOCUMENT), sources)
}

#[test]
fn sources_are_ranked_by_the_share_of_the_document_found_in_each() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (document, sources) = folder(dir.path());
    let h = run_view(&document, &sources);
    assert!(h.state().messages.is_empty(), "{:?}", h.state().messages);
    let run = h.state().sources.run.as_ref().expect("a run");
    let shares: Vec<(&str, f64)> = run
        .attribution
        .sources
        .iter()
        .map(|s| (run.input.display_name(s.source), s.containment))
        .collect();
    // Three whole sentences of five in one.txt; one sentence at its Sim in two.txt.
    assert_eq!(shares[0], ("one.txt", 0.6));
    assert_eq!(shares.len(), 2, "{shares:?}");
    assert_eq!(shares[1].0, "two.txt");
    let sim = run.attribution.sentences[3]
        .expect("sentence 4 attributed")
        .sim;
    assert!(sim < 1.0 && sim >= Settings::default().thresholds.permission);
    assert_eq!(shares[1].1, sim / 5.0);
    assert_eq!(
        source_rows(&h),
        [
            "60% of the document is found in one.txt".to_string(),
            format!(
                "{:.0}% of the document is found in two.txt",
                100.0 * sim / 5.0
            ),
        ]
    );
    // The README is left out; the unrelated source is read but holds nothing of the document.
    assert_eq!(run.input.names.len(), 3);
    let summary = format!(
        "{:.0}% of doc.txt is found in its sources: 4 of 5 sentences come from 2 of the 3 sources",
        100.0 * (3.0 + sim) / 5.0
    );
    assert!(h.query_by_label(&summary).is_some(), "{summary}");
}

#[test]
fn clicking_a_source_opens_the_pair_with_the_same_containment() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (document, sources) = folder(dir.path());
    let mut h = run_view(&document, &sources);
    let listed = h
        .state()
        .sources
        .run
        .as_ref()
        .expect("a run")
        .attribution
        .sources[1]
        .containment;
    h.get_by_label_contains("of the document is found in two.txt")
        .click();
    settle(&mut h);
    let state = h.state();
    assert_eq!(state.settings.central_view, CentralView::Texts);
    let names: Vec<String> = state
        .docs
        .iter()
        .map(|d| d.as_ref().map_or(String::new(), |d| d.file_name()))
        .collect();
    assert_eq!(names, ["doc.txt", "two.txt"]);
    let figures = &state.view.as_ref().expect("compared").figures;
    // The document in the source, as the side-by-side comparison counts it.
    assert_eq!(figures.containment[0], listed);
}

#[test]
fn clicking_a_sentence_opens_its_source_at_that_sentence() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (document, sources) = folder(dir.path());
    let mut h = run_view(&document, &sources);
    // The sentence's text is drawn as one galley per paragraph: click where its words are.
    let text_pos = sentence_position(&mut h, 3);
    h.hover_at(text_pos);
    h.run_ok();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: text_pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    }
    settle(&mut h);
    let state = h.state();
    assert_eq!(state.settings.central_view, CentralView::Texts);
    assert_eq!(
        state.docs[1].as_ref().map(|d| d.file_name()).as_deref(),
        Some("two.txt")
    );
    assert_eq!(state.selection.pair, Some((3, 0)));
    assert_eq!(state.shown_sentence(Side::Left), Some(3));
    assert_eq!(state.shown_sentence(Side::Right), Some(0));
}

/// Where sentence `position` of the document is drawn, found by moving the pointer over the
/// text until the view reports that sentence under it.
fn sentence_position(h: &mut Harness<'_, SimdocApp>, position: u32) -> egui::Pos2 {
    for y in (150..600).step_by(6) {
        for x in (560..1380).step_by(20) {
            let at = egui::pos2(x as f32, y as f32);
            h.hover_at(at);
            h.run_ok();
            if h.state().sources.hovered_sentence == Some(position) {
                return at;
            }
        }
    }
    panic!("sentence {position} not found on screen");
}

#[test]
fn a_higher_permission_runs_again_and_drops_the_near_copy() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (document, sources) = folder(dir.path());
    let mut h = run_view(&document, &sources);
    assert_eq!(source_rows(&h).len(), 2);
    let mut thresholds = h.state().settings.thresholds;
    thresholds.permission = 1.0;
    h.state_mut().set_thresholds(thresholds);
    settle(&mut h);
    assert_eq!(source_rows(&h), ["60% of the document is found in one.txt"]);
    // The run used that permission (the settings', as `simdoc sources` runs).
    assert_eq!(
        h.state()
            .sources
            .run
            .as_ref()
            .expect("a run")
            .thresholds
            .permission,
        thresholds.permission
    );
}

#[test]
fn the_html_report_is_exported_from_the_view() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (document, sources) = folder(dir.path());
    let mut h = run_view(&document, &sources);
    let path = dir.path().join("report.html");
    h.state_mut().export_sources(path.clone());
    settle(&mut h);
    let html = std::fs::read_to_string(&path).expect("exported");
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("one.txt") && html.contains("two.txt"));
    assert!(!html.contains("three.txt"));
    assert!(
        h.state()
            .messages
            .iter()
            .any(|m| m.text == format!("Exported {}", path.display()))
    );
}

#[test]
fn document_a_is_the_document_when_none_is_typed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (document, sources) = folder(dir.path());
    let mut app = sources_app();
    app.open(Side::Left, document);
    let mut h = harness(app);
    settle(&mut h);
    type_into(
        &mut h,
        "Sources folder or files",
        &sources.display().to_string(),
    );
    h.get_by_label("Run").click();
    settle(&mut h);
    assert_eq!(
        source_rows(&h).first().map(String::as_str),
        Some("60% of the document is found in one.txt")
    );
}

/// A BBC business summary (its sentences copied from its article) against all 510 business
/// articles: its own article holds all of it; the next, another report of the same story, 43%
/// (as `simdoc sources` says, tests/sources_real.rs).
#[test]
#[cfg_attr(
    not(simdoc_data),
    ignore = "needs SIMDOC_DATA (the shared data folder)"
)]
fn a_bbc_summary_is_found_whole_in_its_own_article() {
    let data = common::data_dir();
    let articles = data.join("documents/bbc-news/bbc/business");
    let summary =
        data.join("documents/bbc-news-summaries/BBC News Summary/Summaries/business/003.txt");
    let h = run_view(&summary, &articles);
    let rows = source_rows(&h);
    assert_eq!(
        rows[..2],
        [
            "100% of the document is found in 003.txt",
            "43% of the document is found in 127.txt"
        ]
    );
    let run = h.state().sources.run.as_ref().expect("a run");
    assert_eq!(run.input.sources.len(), 510);
}

/// One pair reads one containment under the default in every view: `simdoc compare`, `simdoc
/// sources` against a pool of that one source, the viewer's Sources view, `simdoc collection`
/// of the two at its default (the documents preset), and the viewer's side-by-side comparison (a BBC summary
/// and the other report of its story, 43% of it).
#[test]
#[cfg_attr(
    not(simdoc_data),
    ignore = "needs SIMDOC_DATA (the shared data folder)"
)]
fn compare_sources_and_the_sources_view_read_one_containment() {
    let data = common::data_dir();
    let dir = tempfile::tempdir().expect("temp dir");
    let pool = dir.path().join("pool");
    std::fs::create_dir(&pool).expect("pool folder");
    let source = pool.join("127.txt");
    std::fs::copy(
        data.join("documents/bbc-news/bbc/business/127.txt"),
        &source,
    )
    .expect("copy");
    let summary =
        data.join("documents/bbc-news-summaries/BBC News Summary/Summaries/business/003.txt");
    let compared = common::json_of(&[
        "compare",
        common::arg(&summary),
        common::arg(&source),
        "--json",
        "-",
    ])["figures"]["containment"][0]
        .as_f64()
        .expect("compare's containment");
    let attributed = common::json_of(&[
        "sources",
        common::arg(&summary),
        common::arg(&pool),
        "--json",
        "-",
    ])["sources"][0]["containment"]
        .as_f64()
        .expect("sources' containment");
    let h = run_view(&summary, &pool);
    let run = h.state().sources.run.as_ref().expect("a run");
    let shown = run.attribution.sources[0].containment;
    assert!(compared > 0.3, "{compared}");
    assert_eq!(attributed, compared);
    assert_eq!(shown, compared);
    // The collection of the two at its default (the documents preset: `compare`'s matching,
    // judged against chance) reports the pair with the same containment as its evidence, and
    // says what it reports by.
    let json = dir.path().join("collection.json");
    let out = common::simdoc(&[
        "collection",
        common::arg(&summary),
        common::arg(&source),
        "--json",
        common::arg(&json),
    ]);
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json")).expect("parse");
    let summary_at = report["documents"]
        .as_array()
        .expect("documents")
        .iter()
        .position(|name| name.as_str() == Some(common::arg(&summary)))
        .expect("the summary is a document");
    assert!(
        report["matching"]
            .as_str()
            .is_some_and(|m| m.contains("the documents preset's matching")
                && m.contains("a pair reported when its comparison finds such a passage")
                && !m.contains("--min-resemblance")),
        "{report}"
    );
    let pair = &report["pairs"][0];
    let side = usize::from(pair["a"].as_u64() != Some(summary_at as u64));
    assert_eq!(
        pair["evidence"]["containment"][side].as_f64(),
        Some(compared),
        "{report}"
    );
    // The viewer's side-by-side comparison of the pair, under its default preset.
    let mut app = SimdocApp::new(Settings::default(), Arc::new(ReferenceModel::embedded()));
    app.settings.example_shown = true;
    app.open(Side::Left, summary.clone());
    app.open(Side::Right, source.clone());
    let mut h = harness(app);
    settle(&mut h);
    let viewed = h
        .state()
        .view
        .as_ref()
        .expect("compared")
        .figures
        .containment[0];
    assert_eq!(viewed, compared);
}

#[test]
fn the_teacher_preset_button_attributes_as_simdoc_sources_does_under_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (document, sources) = folder(dir.path());
    let mut h = run_view(&document, &sources);
    h.get_by_label("Teacher preset").click();
    settle(&mut h);
    let run = h.state().sources.run.as_ref().expect("a run");
    // Collection mode's teacher matching: permission 0.6, every pair reaching it (not judged
    // against chance).
    assert_eq!(run.thresholds.permission, 0.6);
    assert!(h.state().settings.chance_search.is_none());
    let shown: Vec<(String, f64)> = run
        .attribution
        .sources
        .iter()
        .map(|s| (run.input.display_name(s.source).to_string(), s.containment))
        .collect();
    // The command line under the same preset gives the same shares.
    let report = common::json_of(&[
        "sources",
        common::arg(&document),
        common::arg(&sources),
        "--preset",
        "teacher",
        "--json",
        "-",
    ]);
    let printed: Vec<(String, f64)> = report["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .map(|s| {
            let path = s["path"].as_str().expect("path");
            let name = Path::new(path).file_name().expect("a name");
            (
                name.to_string_lossy().into_owned(),
                s["containment"].as_f64().expect("containment"),
            )
        })
        .collect();
    // The same sources in the same order, the same shares (to the last bits of a sum taken in
    // another order).
    assert_eq!(shown.len(), printed.len(), "{shown:?} / {printed:?}");
    for ((name, share), (printed_name, printed_share)) in shown.iter().zip(&printed) {
        assert_eq!(name, printed_name);
        assert!(
            (share - printed_share).abs() < 1e-12,
            "{shown:?} / {printed:?}"
        );
    }
    assert_eq!(shown[0], ("one.txt".to_string(), 0.6));
}
