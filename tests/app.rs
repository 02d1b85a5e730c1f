//! The viewer driven through egui_kittest (no display or GPU needed): load two documents, read the
//! summary, move a slider, click a match, step with the keyboard, export, and survive a bad file.
#![cfg(feature = "gui")]

use crate::viewer_support;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use simdoc::app::export::ExportKind;
use simdoc::app::{CentralView, Settings, Side, SimdocApp};
use simdoc::compare::Preset;
use simdoc::model::ReferenceModel;
use simdoc::similarity::Thresholds;
use viewer_support::{choose_preset, harness, settle, write};

pub(crate) const A: &str = "# Fox report\n\n\
    The quick brown fox jumps over the lazy dog near the river bank. \
    Farmers in the valley reported the sighting on Tuesday morning. \
    Nobody could explain why the animal returned every spring.\n\n\
    Officials promised a full survey of the wildlife next year.\n";
pub(crate) const B: &str = "# Another fox\n\n\
    Farmers in the valley reported the sighting on Tuesday morning. \
    The quick brown fox jumps over the lazy cat near the river bank. \
    A completely different sentence about markets and bonds.\n";

fn loaded(dir: &Path) -> Harness<'static, SimdocApp> {
    let a = write(dir, "a.txt", A.as_bytes());
    let b = write(dir, "b.txt", B.as_bytes());
    let model = Arc::new(ReferenceModel::embedded());
    // Documents of three or four sentences cannot show reuse against chance (EVALUATION.md,
    // "Text alignment"): these tests of the viewer's parts use the measured preset.
    let mut app = SimdocApp::new(Settings::with_preset(Preset::MEASURED), model);
    app.settings.example_shown = true;
    app.open(Side::Left, a);
    app.open(Side::Right, b);
    let mut h = harness(app);
    settle(&mut h);
    h
}

#[test]
fn loads_compares_and_filters_live() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = loaded(dir.path());
    let figures = h.state().view.as_ref().expect("a view").figures;
    // Identical "Farmers ..." and near-identical "quick brown fox" sentences match, and so do the
    // headings "Fox report" and "Another fox" (half their words shared); headings are shown but
    // do not count towards the figures.
    assert_eq!(figures.pairs, 3);
    assert_eq!(figures.matched, [2, 2]);
    assert!(h.query_by_label("Resemblance (eq. 4.1)").is_some());
    assert!(h.query_by_label_contains("Matches (3)").is_some());

    // Raise the permission threshold: the similar (not identical) pair drops out, at once.
    h.get_by_role_and_label(Role::Slider, "Permission")
        .set_value_accesskit(0.98);
    h.run_ok();
    assert!(!h.state().is_busy(), "a threshold move must not rescore");
    let view = h.state().view.as_ref().expect("a view");
    assert_eq!(view.thresholds.permission, 0.98);
    assert_eq!(view.figures.pairs, 1);
    assert!(view.matches.iter().all(|p| p.identical));

    // The presets are one click away: the thesis's values, then the measured default again.
    // A preset with other refining or rules than the current one compares again.
    choose_preset(&mut h, "Thesis");
    settle(&mut h);
    let view = h.state().view.as_ref().expect("a view");
    assert_eq!(view.thresholds, Thresholds::THESIS);
    assert_eq!(view.figures.pairs, 2);
    choose_preset(&mut h, "Measured");
    settle(&mut h);
    assert_eq!(h.state().settings.thresholds, Thresholds::MEASURED);
}

#[test]
fn the_verdict_preset_decides_by_probability_and_its_slider_sets_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = loaded(dir.path());
    // Under the verdict preset every kept pair carries the probability and the permission
    // slider becomes "Probability".
    choose_preset(&mut h, "Verdict");
    settle(&mut h);
    assert_eq!(h.state().settings.thresholds, Thresholds::VERDICT);
    assert!(h.state().settings.rules.verdict);
    let view = h.state().view.as_ref().expect("a view");
    assert!(!view.matches.is_empty());
    assert!(view.matches.iter().all(|p| p.verdict.is_some()));
    let least = view
        .matches
        .iter()
        .filter_map(|p| p.verdict)
        .fold(1.0, f64::min);
    let matched = view.figures.pairs;
    assert!(
        h.query_by_role_and_label(Role::Slider, "Permission")
            .is_none()
    );
    // Above the least probable match's probability, that match drops out, without rescoring.
    h.get_by_role_and_label(Role::Slider, "Probability")
        .set_value_accesskit(((least + 0.005) * 200.0).ceil() / 200.0);
    h.run_ok();
    assert!(!h.state().is_busy(), "a threshold move must not rescore");
    let view = h.state().view.as_ref().expect("a view");
    assert!(
        view.figures.pairs < matched,
        "{} of {matched}",
        view.figures.pairs
    );
    // The WordNet preset decides by the Sims again.
    choose_preset(&mut h, "WordNet");
    settle(&mut h);
    assert_eq!(h.state().settings.thresholds, Thresholds::WORDNET);
    let view = h.state().view.as_ref().expect("a view");
    assert!(view.matches.iter().all(|p| p.verdict.is_none()));
    assert!(
        h.query_by_role_and_label(Role::Slider, "Permission")
            .is_some()
    );
}

#[test]
fn clicking_a_match_selects_it_everywhere_and_keys_step() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = loaded(dir.path());
    let first = h.state().view.as_ref().expect("a view").matches[0];
    let row = format!("A {:>4} – B {:>4}", first.left, first.right);
    h.get_by_label_contains(&row).click();
    h.run_ok();
    assert_eq!(h.state().selection.pair, Some((first.left, first.right)));
    // Both panes consumed their scroll request (they brought the sentences into view).
    assert_eq!(h.state().selection.scroll_to, [None, None]);

    h.key_press(egui::Key::N);
    h.run_ok();
    let second = h.state().view.as_ref().expect("a view").matches[1];
    assert_eq!(h.state().selection.pair, Some((second.left, second.right)));
    h.key_press(egui::Key::P);
    h.run_ok();
    assert_eq!(h.state().selection.pair, Some((first.left, first.right)));

    // The hierarchies view draws and a node click selects it.
    h.state_mut().settings.central_view = CentralView::Hierarchies;
    h.run_ok();
    assert!(h.query_by_label("Shade by whole subtree").is_some());
}

#[test]
fn exports_valid_png_and_svg() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = loaded(dir.path());
    let png = dir.path().join("plot.png");
    let svg = dir.path().join("plot.svg");
    let json = dir.path().join("report.json");
    h.state_mut().export(ExportKind::DotplotPng, png.clone());
    h.state_mut().export(ExportKind::DotplotSvg, svg.clone());
    h.state_mut().export(ExportKind::ReportJson, json.clone());
    settle(&mut h);
    let bytes = std::fs::read(&png).expect("png written");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let svg_text = std::fs::read_to_string(&svg).expect("svg written");
    assert_eq!(svg_text.matches(r#"class="mark""#).count(), 3);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json")).expect("valid json");
    assert_eq!(report["matches"].as_array().map(Vec::len), Some(3));
    assert!(
        h.state()
            .messages
            .iter()
            .all(|m| !m.is_error && m.text.starts_with("Exported")),
        "{:?}",
        h.state().messages
    );
}

#[test]
fn a_binary_file_shows_an_error_and_the_app_keeps_working() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = loaded(dir.path());
    let binary = write(
        dir.path(),
        "picture.png",
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10",
    );
    h.state_mut().open(Side::Left, binary);
    settle(&mut h);
    assert!(
        h.query_by_label_contains("picture.png: is not a text or HTML file")
            .is_some()
    );
    // What was loaded stays, and so does the comparison.
    assert!(
        h.state().docs[0]
            .as_ref()
            .is_some_and(|d| d.path.ends_with("a.txt"))
    );
    assert!(h.state().view.is_some());
    h.get_by_label("Dismiss").click();
    h.run_ok();
    assert!(h.state().messages.is_empty());
}

#[test]
fn first_start_opens_the_bundled_example() {
    let mut app = SimdocApp::new(Settings::default(), Arc::new(ReferenceModel::embedded()));
    app.open_example();
    let mut h = harness(app);
    settle(&mut h);
    let view = h.state().view.as_ref().expect("the example is compared");
    assert!(view.figures.pairs > 50, "{}", view.figures.pairs);
    assert!(h.state().settings.example_shown);
}

/// A file dropped through the window system, as eframe hands it to egui.
#[derive(Debug)]
struct DroppedPath(PathBuf);

impl egui::DroppedFile for DroppedPath {
    fn path(&self) -> &Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

fn drop_files(h: &mut Harness<'_, SimdocApp>, paths: &[&Path]) {
    for path in paths {
        h.input_mut()
            .dropped_files
            .push(Arc::new(DroppedPath(path.to_path_buf())));
    }
    settle(h);
}

fn path_on(h: &Harness<'_, SimdocApp>, side: Side) -> PathBuf {
    h.state().docs[side.index()]
        .as_ref()
        .expect("a document on that side")
        .path
        .clone()
}

#[test]
fn dropped_files_fill_the_empty_side_or_ask_which_to_replace() {
    let dir = tempfile::tempdir().expect("temp dir");
    let c = write(dir.path(), "c.txt", B.as_bytes());
    let d = write(dir.path(), "d.txt", A.as_bytes());

    // An empty viewer: the first file opens as A, the next fills B.
    let model = Arc::new(ReferenceModel::embedded());
    let mut app = SimdocApp::new(Settings::with_preset(Preset::MEASURED), model);
    app.settings.example_shown = true;
    let mut h = harness(app);
    drop_files(&mut h, &[&d]);
    assert_eq!(path_on(&h, Side::Left), d);
    assert!(h.state().docs[1].is_none());
    drop_files(&mut h, &[&c]);
    assert_eq!(
        (path_on(&h, Side::Left), path_on(&h, Side::Right)),
        (d.clone(), c.clone())
    );
    assert!(h.state().view.is_some(), "the pair is compared");

    // Both sides loaded: the viewer asks, and nothing changes until the user answers.
    let mut h = loaded(dir.path());
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    drop_files(&mut h, &[&c]);
    assert_eq!(
        (path_on(&h, Side::Left), path_on(&h, Side::Right)),
        (a.clone(), b.clone())
    );
    h.get_by_label("As B (replaces b.txt)").click();
    settle(&mut h);
    assert_eq!(
        (path_on(&h, Side::Left), path_on(&h, Side::Right)),
        (a.clone(), c.clone())
    );
    assert!(
        h.query_by_label("As B (replaces c.txt)").is_none(),
        "the question is gone"
    );
    drop_files(&mut h, &[&d]);
    h.get_by_label("As A (replaces a.txt)").click();
    settle(&mut h);
    assert_eq!(path_on(&h, Side::Left), d);
    drop_files(&mut h, &[&a]);
    h.get_by_label("Cancel").click();
    settle(&mut h);
    assert_eq!((path_on(&h, Side::Left), path_on(&h, Side::Right)), (d, c));

    // Two files at once: A and B in order.
    drop_files(&mut h, &[&a, &b]);
    assert_eq!((path_on(&h, Side::Left), path_on(&h, Side::Right)), (a, b));
}

#[test]
fn a_dropped_docx_and_pdf_open_and_compare() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/formats");
    let docx = fixtures.join("guinea.docx");
    let pdf = fixtures.join("guinea.pdf");
    let model = Arc::new(ReferenceModel::embedded());
    let mut app = SimdocApp::new(Settings::with_preset(Preset::MEASURED), model);
    app.settings.example_shown = true;
    let mut h = harness(app);
    drop_files(&mut h, &[&docx, &pdf]);
    assert_eq!(path_on(&h, Side::Left), docx);
    assert_eq!(path_on(&h, Side::Right), pdf);
    let formats = [0, 1].map(|i| h.state().docs[i].as_ref().expect("loaded").doc.format);
    assert_eq!(
        formats,
        [
            simdoc::document::SourceFormat::Docx,
            simdoc::document::SourceFormat::Pdf
        ]
    );
    let figures = h
        .state()
        .view
        .as_ref()
        .expect("the pair is compared")
        .figures;
    assert!(
        figures.resemblance.iter().all(|&r| r >= 0.95),
        "{figures:?}"
    );
    // The match list quotes the extracted sentences, and both documents hold the extracted text.
    assert!(
        h.query_all_by_label_contains("officially the Republic of Guinea")
            .next()
            .is_some()
    );
    for side in 0..2 {
        let text = &h.state().docs[side].as_ref().expect("loaded").doc.text;
        assert!(text.contains("officially the Republic of Guinea"), "{side}");
    }
}
