//! The viewer's evidence and the defects of issue 12, driven through egui_kittest: passages and
//! their navigation, the word view, scrolling to a match inside one huge paragraph, the typed
//! path, headers, presets and options, re-scoring below the floor.
#![cfg(feature = "gui")]

use crate::viewer_support;

use std::path::Path;
use std::sync::Arc;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use simdoc::app::{Settings, SharedModel, Side, SimdocApp};
use simdoc::compare::Preset;
use simdoc::model::ReferenceModel;
use simdoc::similarity::table::TableModel;
use simdoc::similarity::{Method, Thresholds};
use viewer_support::{choose_preset, harness, preset_shown, settle, write};

fn frames(harness: &mut Harness<'_, SimdocApp>, n: usize) {
    for _ in 0..n {
        harness.step();
    }
}

fn app_with(model: SharedModel, settings: Settings) -> SimdocApp {
    let mut app = SimdocApp::new(
        Settings {
            example_shown: true,
            ..settings
        },
        model,
    );
    app.settings.example_shown = true;
    app
}

fn embedded() -> SharedModel {
    Arc::new(ReferenceModel::embedded())
}

fn open_pair(dir: &Path, a: &str, b: &str, app: SimdocApp) -> Harness<'static, SimdocApp> {
    let mut app = app;
    app.open(Side::Left, write(dir, "a.txt", a));
    app.open(Side::Right, write(dir, "b.txt", b));
    let mut h = harness(app);
    settle(&mut h);
    h
}

/// Three sentences of A taken over in order by B (with one sentence of B's own between two of
/// them), and one sentence elsewhere.
const A: &str = "Volcanic ash closed the northern airports on Monday morning. \
    Airlines cancelled hundreds of flights across the whole region. \
    Passengers waited for many hours in crowded terminal buildings. \
    Gardeners planted tomatoes in the spring sunshine yesterday.\n";
const B: &str = "An unrelated opening line about football results and league tables. \
    Volcanic ash closed the northern airports on Monday morning. \
    Airlines cancelled hundreds of flights across the whole region. \
    Train operators added extra carriages to their busiest services. \
    Passengers waited for many hours in crowded terminal buildings.\n";

#[test]
fn passages_are_listed_drawn_and_navigated() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = open_pair(dir.path(), A, B, app_with(embedded(), Settings::default()));
    let view = h.state().view.as_ref().expect("a view");
    let passages: Vec<([u32; 2], [u32; 2], usize)> =
        view.passages.iter().map(|p| (p.a, p.b, p.pairs)).collect();
    assert_eq!(passages, vec![([0, 2], [1, 4], 3)]);

    h.get_by_label("Passages (1)").click();
    h.run_ok();
    h.get_by_label_contains("A 0–2 · B 1–4 · 3 pairs").click();
    h.run_ok();
    assert_eq!(h.state().selection.passage, Some(0));
    assert_eq!(h.state().selection.pair, Some((0, 1)));
    assert!(
        h.query_by_label_contains("3 matched pairs, 1 passage")
            .is_some()
            && h.query_by_label_contains("1 passages").is_none(),
        "the dotplot counts them, in the singular for one"
    );

    // Shift+N steps by passage (one passage: it stays); n steps by match, inside it.
    h.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::N);
    h.run_ok();
    assert_eq!(h.state().selection.pair, Some((0, 1)));
    h.key_press(egui::Key::N);
    h.run_ok();
    assert_eq!(h.state().selection.pair, Some((1, 2)));

    // A minimum length above the passage's hides it.
    h.state_mut().settings.min_passage = 4;
    h.state_mut().refresh_view();
    h.run_ok();
    assert!(h.state().view.as_ref().expect("a view").passages.is_empty());
    assert!(h.query_by_label("Passages (0)").is_some());
}

#[test]
fn the_word_view_shows_how_each_word_met_the_other_sentence() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut model = TableModel::new();
    model.set_correlation("dog", "cat", 0.5);
    let mut h = open_pair(
        dir.path(),
        "The quick brown fox jumps over the lazy dog near the river bank.\n",
        "The quick brown fox jumped over the lazy cat near the bank.\n",
        // Two one-sentence documents carry no evidence against chance without a reference
        // model's word rates: the pair is shown under the measured preset.
        app_with(Arc::new(model), Settings::with_preset(Preset::MEASURED)),
    );
    h.state_mut().step_match(1);
    h.get_by_label("Words").click();
    h.run_ok();
    // 13 words in A: 10 written the same in B, "jumps" another form of "jumped", "dog" related to
    // "cat", "river" only in A. B: 10 the same, "jumped", "cat".
    assert!(
        h.query_by_label(
            "A: 10 identical, 1 same stem, 1 related, 1 only in A · \
             B: 10 identical, 1 same stem, 1 related, 0 only in B"
        )
        .is_some()
    );
    // The sentences as written, with their capital and full stop, and the related pair named.
    assert!(
        h.query_by_label("The quick brown fox jumps over the lazy dog near the river bank.")
            .is_some()
    );
    assert!(
        h.query_by_label("The quick brown fox jumped over the lazy cat near the bank.")
            .is_some()
    );
    assert!(h.query_by_label_contains("dog ~ cat (c 0.50)").is_some());
}

/// The one sentence A holds, which B holds once inside one long paragraph.
const ZEBRA: &str = "The zebra crossed the wide river at dawn.\n";

/// One paragraph of 4,000 sentences, all filler but [`ZEBRA`] at position `target`.
fn one_paragraph_with_zebra_at(target: usize) -> String {
    (0..4000)
        .map(|i| {
            if i == target {
                "The zebra crossed the wide river at dawn. ".to_string()
            } else {
                format!("Filler sentence number {i} says very little. ")
            }
        })
        .collect()
}

#[test]
fn selecting_a_match_scrolls_to_it_inside_one_huge_paragraph() {
    let dir = tempfile::tempdir().expect("temp dir");
    let target = 3042;
    let mut h = open_pair(
        dir.path(),
        ZEBRA,
        &one_paragraph_with_zebra_at(target),
        app_with(embedded(), Settings::default()),
    );
    let matches = &h.state().view.as_ref().expect("a view").matches;
    assert_eq!(matches.len(), 1);
    assert_eq!((matches[0].left, matches[0].right), (0, target as u32));
    h.get_by_label_contains("A    0 – B 3042").click();
    frames(&mut h, 20);
    assert_eq!(h.state().shown_sentence(Side::Right), Some(target as u32));
    assert_eq!(h.state().shown_sentence(Side::Left), Some(0));
}

/// The overview strip beside B marks where its one match lies, three quarters down a paragraph
/// of 4,000 sentences; a click there brings that part of the text into view.
#[test]
fn clicking_the_overview_strip_jumps_to_that_part_of_the_text() {
    let dir = tempfile::tempdir().expect("temp dir");
    let target = 3000;
    let mut h = open_pair(
        dir.path(),
        ZEBRA,
        &one_paragraph_with_zebra_at(target),
        app_with(embedded(), Settings::default()),
    );
    let top = |h: &Harness<'_, SimdocApp>| h.state().top_sentence(Side::Right).unwrap_or(0);
    assert!(top(&h) < 100, "B starts at its top: {}", top(&h));
    let strip = h.get_by_label("Overview of B").rect();
    let at = egui::pos2(strip.center().x, strip.min.y + strip.height() * 0.75);
    h.hover_at(at);
    h.drag_at(at);
    h.step();
    h.drop_at(at);
    frames(&mut h, 20);
    let shown = top(&h);
    assert!(
        (2800..=3100).contains(&shown),
        "the text shows sentence {shown} at its top"
    );
}

/// Chinese text without a CJK font on the system: the pane says the glyphs are missing (and
/// says nothing when a font was found, or for Latin text).
#[test]
fn cjk_text_without_a_cjk_font_is_explained_in_the_pane() {
    let dir = tempfile::tempdir().expect("temp dir");
    let chinese = "北京是中国的首都。上海是最大的城市。\n";
    for (missing, a, expected) in [
        (true, chinese, 1),
        (false, chinese, 0),
        (true, "Paris is the capital of France.\n", 0),
    ] {
        let mut app = app_with(embedded(), Settings::default());
        app.cjk_font_missing = missing;
        app.open(Side::Left, write(dir.path(), "a.txt", a));
        app.open(Side::Right, write(dir.path(), "b.txt", B));
        // The boxes are what this test is about: the viewer draws them, as it does for users.
        let mut h = Harness::builder()
            .with_size(egui::vec2(1400.0, 900.0))
            .allow_missing_glyphs()
            .build_ui_state(|ui, app: &mut SimdocApp| app.ui(ui), app);
        settle(&mut h);
        let notices = h
            .query_all_by_label_contains("Chinese, Japanese or Korean")
            .count();
        assert_eq!(notices, expected, "font missing: {missing}, text: {a}");
    }
}

#[test]
fn a_path_typed_in_the_open_menu_opens_the_document() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write(dir.path(), "typed.txt", A);
    let mut h = harness(app_with(embedded(), Settings::default()));
    h.run_ok();
    h.get_by_label("Open A").click();
    h.run_ok();
    h.get_by_role(Role::TextInput).click();
    h.run_ok();
    assert!(
        h.query_by_label("Open a path:").is_some(),
        "clicking into the field keeps the menu open"
    );
    h.get_by_role(Role::TextInput)
        .type_text(&path.display().to_string());
    h.run_ok();
    h.get_by_label("Open path").click();
    settle(&mut h);
    let loaded = h.state().docs[0].as_ref().expect("document A");
    assert_eq!(loaded.path, path);
}

#[test]
fn headers_show_the_file_name_and_the_path_on_hover() {
    let dir = tempfile::tempdir().expect("temp dir");
    let deep = dir.path().join("a/very/deep/folder/of/submissions");
    std::fs::create_dir_all(&deep).expect("folders");
    let mut app = app_with(embedded(), Settings::default());
    app.open(Side::Left, write(&deep, "student-answer.txt", A));
    app.open(Side::Right, write(dir.path(), "source.txt", B));
    let mut h = harness(app);
    settle(&mut h);
    assert!(h.query_by_label("student-answer.txt").is_some());
    assert!(h.query_by_label("source.txt").is_some());
    // The title is the file name (no heading opens the text), so it is not repeated.
    assert!(
        h.query_by_label_contains("4 sentences, 4 compared")
            .is_some()
    );
}

#[test]
fn presets_show_which_is_active_and_custom_after_a_change() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = open_pair(dir.path(), A, B, app_with(embedded(), Settings::default()));
    // The preset menu shows the active preset.
    let shown = |h: &Harness<'_, SimdocApp>| preset_shown(h);
    assert_eq!(shown(&h), "Documents");

    // Keep numbers off (an option the presets set): the configuration is custom and compared
    // again.
    h.get_by_label("Options").click();
    h.run_ok();
    h.get_by_label("Keep numbers").click();
    h.run_ok();
    assert!(
        h.query_by_label("Keep stopwords").is_some(),
        "the menu stays open"
    );
    settle(&mut h);
    assert!(!h.state().settings.refine.keep_numbers);
    assert_eq!(shown(&h), "Custom");
    choose_preset(&mut h, "Measured");
    settle(&mut h);
    assert_eq!(h.state().settings.preset(), Preset::MEASURED);
    assert_eq!(shown(&h), "Measured");
    choose_preset(&mut h, "Documents");
    settle(&mut h);
    assert_eq!(h.state().settings.preset(), Preset::DOCUMENTS);
    assert_eq!(shown(&h), "Documents");
}

/// The preset menu lists the library's table, each preset under its title, plus "Custom"; each
/// chosen is shown as active (News was missing, so `simdoc view --preset news` showed "Custom"),
/// and a change after choosing one says which preset it started from.
#[test]
fn the_preset_menu_lists_the_librarys_table() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = open_pair(dir.path(), A, B, app_with(embedded(), Settings::default()));
    h.get_by_label("Preset").click();
    h.run_ok();
    for named in Preset::all() {
        assert!(
            h.query_all_by_label(named.title).count() >= 1,
            "{} is not in the menu",
            named.title
        );
    }
    assert!(h.query_all_by_label("Custom").count() >= 1);
    h.get_by_label("Preset").click();
    h.run_ok();
    for named in Preset::all() {
        choose_preset(&mut h, named.title);
        settle(&mut h);
        assert_eq!(h.state().settings.preset(), named.preset, "{}", named.name);
        assert_eq!(preset_shown(&h), named.title);
        assert_eq!(h.state().settings.preset_name.as_deref(), Some(named.name));
    }
    // A change of its own: custom, and still known to come from the last preset chosen.
    let mut thresholds = h.state().settings.thresholds;
    thresholds.permission = 0.77;
    h.state_mut().set_thresholds(thresholds);
    settle(&mut h);
    assert_eq!(preset_shown(&h), "Custom");
    let last = Preset::all().last().expect("a preset");
    assert_eq!(h.state().settings.preset_name.as_deref(), Some(last.name));
}

#[test]
fn the_toolbar_keeps_its_place_when_the_method_changes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = open_pair(dir.path(), A, B, app_with(embedded(), Settings::default()));
    let export_x = |h: &Harness<'_, SimdocApp>| h.get_by_label("Export").rect().min.x;
    let before = export_x(&h);
    for method in Method::ALL {
        h.state_mut().settings.method = method;
        h.state_mut().recompare();
        settle(&mut h);
        assert_eq!(export_x(&h), before, "{method:?}");
    }
}

/// In a window too narrow for the toolbar, a control moves to the next row whole: the Export
/// button once wrapped its label a letter per line when it met the window's edge (at 1440
/// pixels), then, unwrapped, ran past the edge. Every width from 900 to 1600 puts the edge somewhere along the toolbar.
#[test]
fn a_narrow_window_wraps_the_toolbar_not_a_button_label() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (a, b) = (write(dir.path(), "a.txt", A), write(dir.path(), "b.txt", B));
    for width in (900..=1600).step_by(10) {
        let mut app = app_with(embedded(), Settings::default());
        app.open(Side::Left, a.clone());
        app.open(Side::Right, b.clone());
        let mut h = Harness::builder()
            .with_size(egui::vec2(width as f32, 800.0))
            .build_ui_state(|ui, app: &mut SimdocApp| app.ui(ui), app);
        settle(&mut h);
        let export = h.get_by_label("Export").rect();
        assert!(
            export.width() > export.height() && export.max.x <= width as f32,
            "at {width} pixels the Export button is {export:?}"
        );
    }
}

#[test]
fn a_permission_below_the_floor_rescores_while_the_old_view_stays() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The floor is the measured preset's (judged against chance, every link is scored).
    let settings = Settings::with_preset(Preset::MEASURED);
    let mut h = open_pair(dir.path(), A, B, app_with(embedded(), settings));
    let old_pairs = h.state().view.as_ref().expect("a view").matches.len();
    let low = Thresholds {
        permission: 0.25,
        variation: 1.0,
        max_e_value: None,
        min_words: 0,
    };
    h.state_mut().set_thresholds(low);
    // The old comparison is still shown while the new one runs.
    assert!(h.state().is_rescoring());
    assert_eq!(
        h.state().view.as_ref().expect("the old view").matches.len(),
        old_pairs
    );
    h.step();
    // Unless the (small) comparison finished already, the summary says a new one is coming.
    if h.state().is_rescoring() {
        assert!(
            h.query_by_label_contains("Re-scoring at permission 0.25")
                .is_some()
        );
    }
    settle(&mut h);
    assert!(!h.state().is_rescoring());
    let analysis = h.state().analysis.as_ref().expect("compared again");
    assert_eq!(analysis.comparison.floor, 0.25);
    assert_eq!(h.state().view.as_ref().expect("a view").thresholds, low);
}

#[test]
fn export_notices_replace_each_other() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = open_pair(dir.path(), A, B, app_with(embedded(), Settings::default()));
    for name in ["one.json", "two.json", "three.json"] {
        let path = dir.path().join(name);
        h.state_mut()
            .export(simdoc::app::export::ExportKind::ReportJson, path);
        settle(&mut h);
    }
    let messages = &h.state().messages;
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(messages[0].text.ends_with("three.json"));
    // The export carries the passages and each match's words.
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("three.json")).expect("json"),
    )
    .expect("valid json");
    assert_eq!(report["passages"][0]["sentences"], 3);
    assert!(report["matches"][0]["words"]["a"].is_array());
}
