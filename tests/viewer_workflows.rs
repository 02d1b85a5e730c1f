//! The viewer's defects and workflows of issue 29, driven through egui_kittest: the dotplot's
//! zoom after another pair opens, the state after Cancel, the toolbar at the default window
//! size, the dotplot's legend for its section lines; the Changes list and its keys.
#![cfg(feature = "gui")]

use crate::viewer_support;

use std::path::Path;
use std::sync::Arc;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use simdoc::app::{Settings, Side, SimdocApp};
use simdoc::model::ReferenceModel;
use viewer_support::{harness, settle, write};

fn app(settings: Settings) -> SimdocApp {
    let mut app = SimdocApp::new(settings, Arc::new(ReferenceModel::embedded()));
    app.settings.example_shown = true;
    app
}

/// `n` sentences about numbered towns, every one different, under `sections` headings.
fn towns(n: usize, sections: usize, twist: &str) -> String {
    let mut text = String::new();
    for s in 0..sections {
        text.push_str(&format!("# Region {s}\n\n"));
        for i in (s * n / sections)..((s + 1) * n / sections) {
            text.push_str(&format!(
                "The council of town {i} approved a new {twist} budget for bridge number {}. ",
                i * 7 + 3
            ));
        }
        text.push_str("\n\n");
    }
    text
}

/// Sentences `range` of made-up words, each of seven words that few other sentences share.
fn distinct(range: std::ops::Range<usize>) -> String {
    const SYLLABLES: [&str; 10] = ["ka", "lo", "mi", "ne", "tu", "ra", "si", "po", "de", "fu"];
    let word = |k: usize| {
        let k = k % 1000;
        format!(
            "{}{}{}n",
            SYLLABLES[k / 100],
            SYLLABLES[k / 10 % 10],
            SYLLABLES[k % 10]
        )
    };
    range
        .map(|i| {
            let words: Vec<String> = (0..7).map(|j| word(i * 7 + j * 131 + j * j * i)).collect();
            let sentence = words.join(" ");
            format!("{}{}.", sentence[..1].to_uppercase(), &sentence[1..])
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn open_pair(h: &mut Harness<'_, SimdocApp>, dir: &Path, names: [&str; 2], texts: [&str; 2]) {
    for (side, (name, text)) in Side::BOTH.into_iter().zip(names.into_iter().zip(texts)) {
        let path = write(dir, name, text);
        h.state_mut().open(side, path);
    }
    settle(h);
}

#[test]
fn opening_another_pair_resets_the_dotplot_zoom() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = harness(app(Settings::default()));
    let long = towns(300, 3, "road");
    open_pair(&mut h, dir.path(), ["a.txt", "b.txt"], [&long, &long]);
    let (rect, min, max) = h.state().dotplot_shown().expect("a dotplot");
    assert!(max[0] - min[0] >= 300.0, "all of A shown: {min:?} {max:?}");
    // Zoom in around the plot's centre (Ctrl+wheel or a pinch: egui's zoom delta).
    for _ in 0..6 {
        h.event(egui::Event::PointerMoved(rect.center()));
        h.event(egui::Event::Zoom(1.6));
        h.step();
    }
    h.run_ok();
    let (_, min, max) = h.state().dotplot_shown().expect("a dotplot");
    assert!(max[0] - min[0] < 100.0, "zoomed in: {min:?} {max:?}");

    // Another, shorter pair: the plot shows all of it, not the old corner.
    let short = towns(40, 2, "school");
    open_pair(&mut h, dir.path(), ["c.txt", "d.txt"], [&short, &short]);
    h.run_ok();
    let (_, min, max) = h.state().dotplot_shown().expect("a dotplot");
    assert!(
        min[0] <= 0.0 && max[0] >= 40.0 && min[1] <= 0.0 && max[1] >= 40.0,
        "the new pair is shown whole: {min:?} {max:?}"
    );
}

#[test]
fn after_cancel_the_summary_offers_to_compare_again_and_forgets_it_after() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = harness(app(Settings::default()));
    let (a, b) = (towns(3000, 10, "road"), towns(3000, 10, "rail"));
    h.state_mut()
        .open(Side::Left, write(dir.path(), "a.txt", a));
    h.state_mut()
        .open(Side::Right, write(dir.path(), "b.txt", b));
    // Wait for both loads, then cancel the comparison they started.
    let start = std::time::Instant::now();
    while !(h.state().docs.iter().all(Option::is_some) && h.state().is_comparing()) {
        h.step();
        assert!(
            start.elapsed().as_secs() < 60,
            "the comparison never started"
        );
    }
    h.run_ok();
    assert!(h.query_by_label("Comparing…").is_some());
    h.get_by_label("Cancel").click();
    settle(&mut h);
    assert!(
        h.state().view.is_none(),
        "the comparison finished before Cancel"
    );
    assert!(
        h.query_by_label("Comparing…").is_none(),
        "a cancelled comparison is not running"
    );
    assert!(
        h.query_by_label_contains("The comparison stopped")
            .is_some(),
        "the summary says it stopped"
    );
    h.get_by_label("Compare again").click();
    settle(&mut h);
    assert!(h.state().view.is_some(), "compared again");
    assert!(
        h.query_by_label_contains("The comparison stopped")
            .is_none(),
        "the stop is forgotten once a comparison finished"
    );
    assert!(h.state().messages.is_empty(), "no banner outlives the stop");
}

#[test]
fn the_toolbar_fits_one_row_at_the_default_window_size() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The window's default inner size (`run_native`), with long file names on both menus.
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 860.0))
        .build_ui_state(
            |ui, app: &mut SimdocApp| app.ui(ui),
            app(Settings::default()),
        );
    let text = towns(20, 2, "road");
    open_pair(
        &mut h,
        dir.path(),
        [
            "a-rather-long-name-of-a-news-page.html.txt",
            "the-same-page-revised-a-week-later.txt",
        ],
        [&text, &text],
    );
    let row = |label: &str| h.get_by_label(label).rect().center().y;
    let method = row("Method");
    for last in ["Export", "Options", "Preset"] {
        assert!(
            (row(last) - method).abs() < 2.0,
            "{last} is on another row than Method ({} against {method})",
            row(last)
        );
    }
}

#[test]
fn the_dotplot_names_its_section_lines() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = harness(app(Settings::default()));
    let text = towns(30, 3, "road");
    open_pair(&mut h, dir.path(), ["a.txt", "b.txt"], [&text, &text]);
    assert!(h.query_by_label_contains("section starts").is_some());
    // Without sections there are no lines, and no legend for them.
    let plain = towns(30, 1, "road").replace("# Region 0\n\n", "");
    open_pair(&mut h, dir.path(), ["c.txt", "d.txt"], [&plain, &plain]);
    assert!(h.query_by_label_contains("section starts").is_none());
}

/// A news item (A) and its revision (B): sentence 1 reworded, 4 deleted, 5 moved to the end,
/// one sentence added after 8.
const NEWS: [&str; 10] = [
    "The city council met on Monday to discuss the new budget for public transport.",
    "Several members argued that bus fares should be frozen for another year.",
    "The mayor presented a plan to extend the tram line to the northern suburbs.",
    "Engineers estimate that the extension will take four years to build.",
    "Local shop owners fear the construction work will drive customers away.",
    "A public consultation will open next month and run until the end of March.",
    "The opposition criticised the plan as too expensive for a city of this size.",
    "Residents can submit their views online or at the town hall.",
    "The final vote on the budget is expected before the summer recess.",
    "Weather forecasters predict heavy snow in the mountains this weekend.",
];
const REWORDED: &str =
    "Several councillors argued that bus fares should stay frozen for one more year.";
const ADDED: &str = "A spokesperson said the full figures would appear on the website soon.";

fn news_pair(dir: &Path) -> Harness<'static, SimdocApp> {
    let a = NEWS.join(" ");
    let b = [
        NEWS[0], REWORDED, NEWS[2], NEWS[3], NEWS[6], NEWS[7], NEWS[8], ADDED, NEWS[9], NEWS[5],
    ]
    .join(" ");
    // Ten-sentence texts cannot show reuse against chance (EVALUATION.md, "Text alignment"):
    // the measured preset, as the viewer's other tests of its parts.
    let mut h = harness(app(Settings::with_preset(
        simdoc::compare::Preset::MEASURED,
    )));
    open_pair(&mut h, dir, ["a.txt", "b.txt"], [&a, &b]);
    h
}

#[test]
fn the_changes_list_tells_an_editor_what_was_added_deleted_changed_and_moved() {
    use simdoc::compare::changes::ChangeKind;
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = news_pair(dir.path());
    let view = h.state().view.clone().expect("a view");
    let kinds: Vec<_> = view
        .changes
        .list
        .iter()
        .map(|c| (c.kind, c.a, c.b))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (ChangeKind::Changed, Some([1, 1]), Some([1, 1])),
            (ChangeKind::Deleted, Some([4, 4]), None),
            (ChangeKind::Moved, Some([5, 5]), Some([9, 9])),
            (ChangeKind::Added, None, Some([7, 7])),
        ]
    );

    h.get_by_label("Changes (4)").click();
    h.run_ok();
    for label in ["Added (1)", "Deleted (1)", "Changed (1)", "Moved (1)"] {
        assert!(h.query_by_label(label).is_some(), "{label}");
    }
    // c steps forward through the changes, Shift+C back; the texts follow.
    h.key_press(egui::Key::C);
    h.run_ok();
    assert_eq!(h.state().selection.pair, Some((1, 1)), "the reworded pair");
    h.key_press(egui::Key::C);
    h.run_ok();
    assert_eq!(h.state().selection.sentence, Some((Side::Left, 4)));
    h.key_press(egui::Key::C);
    h.run_ok();
    assert_eq!(h.state().selection.pair, Some((5, 9)), "the moved sentence");
    h.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::C);
    h.run_ok();
    assert_eq!(h.state().selection.sentence, Some((Side::Left, 4)));
    // The filter lists one kind, and c then steps through that kind only.
    h.get_by_label("Added (1)").click();
    h.run_ok();
    h.key_press(egui::Key::C);
    h.run_ok();
    assert_eq!(h.state().selection.sentence, Some((Side::Right, 7)));
    assert!(
        h.query_by_label_contains(ADDED).is_some(),
        "the list previews the added sentence"
    );
}

#[test]
fn the_match_filter_lets_n_skip_identical_matches() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = news_pair(dir.path());
    h.get_by_label("Changed").click();
    h.run_ok();
    for _ in 0..3 {
        h.key_press(egui::Key::N);
        h.run_ok();
        assert_eq!(
            h.state().selection.pair,
            Some((1, 1)),
            "the only changed match"
        );
    }
    h.get_by_label("All").click();
    h.run_ok();
    h.key_press(egui::Key::N);
    h.run_ok();
    assert_ne!(h.state().selection.pair, Some((1, 1)));
}

#[test]
fn scrolling_one_text_brings_the_other_along_the_alignment() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = harness(app(Settings::with_preset(
        simdoc::compare::Preset::MEASURED,
    )));
    // B is A with a long inserted part before A's sentence 20: with A scrolled past it, B
    // must show A's top sentence's partner, 100 further on.
    let a = distinct(0..300);
    let b = format!(
        "{} {} {}",
        distinct(0..20),
        distinct(1000..1100),
        distinct(20..300)
    );
    open_pair(&mut h, dir.path(), ["a.txt", "b.txt"], [&a, &b]);
    h.state_mut().settings.scroll_in_step = true;
    // The user scrolls A with the wheel, well past the inserted part's place.
    let over_a = egui::pos2(250.0, 500.0);
    h.hover_at(over_a);
    for _ in 0..40 {
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, -400.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
            modifiers: egui::Modifiers::NONE,
        });
        h.step();
        if h.state().top_sentence(Side::Left).unwrap_or(0) >= 150 {
            break;
        }
    }
    for _ in 0..30 {
        h.step();
    }
    let top_b = h.state().top_sentence(Side::Right).expect("B shows text");
    let top_a = h.state().top_sentence(Side::Left).expect("A shows text");
    assert!(top_a >= 100, "A was scrolled: {top_a}");
    // B is brought to the partner, 100 sentences on, shown a little below its top edge (as
    // every jump to a sentence is, so that the lines above it give context).
    let shown_b = h
        .state()
        .shown_sentence(Side::Right)
        .expect("B was scrolled");
    assert_eq!(shown_b, top_a + 100, "B follows along the alignment");
    assert!(
        (90..=100).contains(&(i64::from(top_b) - i64::from(top_a))),
        "B's top follows A's: A at {top_a}, B at {top_b}"
    );
}
