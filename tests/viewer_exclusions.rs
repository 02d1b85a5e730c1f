//! The viewer's Leave out options, driven through egui_kittest: quotations and the bibliography
//! left out of a comparison from the Options menu, shown as left out, and the shortest match
//! acting as a threshold (at once, without comparing again).
#![cfg(feature = "gui")]

use crate::viewer_support;

use std::sync::Arc;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use simdoc::app::{Settings, Side, SimdocApp};
use simdoc::document::exclusions::LeftOut;
use simdoc::model::ReferenceModel;
use viewer_support::{harness, settle};

/// The viewer under `settings` with the essay (A) and its source (B) of
/// `tests/fixtures/exclusions/` compared: the essay quotes its source, copies two sentences of
/// it unmarked and lists the same references.
fn open_essay(settings: Settings) -> Harness<'static, SimdocApp> {
    let fixtures =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/exclusions");
    let mut app = SimdocApp::new(settings, Arc::new(ReferenceModel::embedded()));
    app.settings.example_shown = true;
    let mut h = harness(app);
    h.state_mut().open(Side::Left, fixtures.join("essay.txt"));
    h.state_mut()
        .open(Side::Right, fixtures.join("wetlands.txt"));
    settle(&mut h);
    h
}

/// The essay's share found in the source, as the figures panel has it.
fn essay_share(h: &Harness<'_, SimdocApp>) -> f64 {
    h.state().view.as_ref().expect("a view").figures.containment[0]
}

/// Opens the Options menu and clicks `labels` in it (the menu stays open until a click
/// outside it).
fn click_options(h: &mut Harness<'_, SimdocApp>, labels: &[&str]) {
    h.get_by_label("Options").click();
    h.run_ok();
    for label in labels {
        h.get_by_label(label).click();
        h.run_ok();
    }
}

#[test]
fn quotations_and_the_bibliography_are_left_out_from_the_options_menu() {
    let mut h = open_essay(Settings::default());
    let everything = essay_share(&h);
    assert!(everything > 0.75, "{everything}");

    click_options(&mut h, &["Quotations", "Bibliography"]);
    settle(&mut h);
    assert!(h.state().settings.exclusions.quotations);
    assert!(h.state().settings.exclusions.bibliography);
    // The essay's own sentences that count: its first, the two copied, its last; two found.
    let share = essay_share(&h);
    assert!((share - 0.5).abs() < 1e-9, "{share}");
    let analysis = h.state().analysis.as_ref().expect("an analysis");
    let essay = &analysis.docs[0].doc;
    let reason_of = |start: &str| {
        let position = essay
            .sentences
            .iter()
            .position(|s| s.text.starts_with(start))
            .expect("the sentence");
        analysis.left_out[0][position]
    };
    assert_eq!(reason_of("As one review"), Some(LeftOut::Quotation));
    assert_eq!(reason_of("Smith, J."), Some(LeftOut::Bibliography));
    assert_eq!(reason_of("When a marsh"), None);

    // The shortest match is a threshold: the two copied sentences are one run of 43 words, a
    // passage of 45 with the title's two (it shares "Wetlands" with the source's, a weak link
    // of the passage judged against chance).
    let compared = Arc::clone(&h.state().analysis.as_ref().expect("analysis").prepared);
    let mut thresholds = h.state().settings.thresholds;
    thresholds.min_words = 46;
    h.state_mut().set_thresholds(thresholds);
    settle(&mut h);
    assert_eq!(essay_share(&h), 0.0);
    assert!(h.state().view.as_ref().expect("view").matches.is_empty());
    thresholds.min_words = 45;
    h.state_mut().set_thresholds(thresholds);
    settle(&mut h);
    assert!((essay_share(&h) - 0.5).abs() < 1e-9);
    let still = &h.state().analysis.as_ref().expect("analysis").prepared;
    assert!(
        Arc::ptr_eq(&compared, still),
        "a threshold does not compare again"
    );
}

#[test]
fn hovering_a_left_out_sentence_says_why() {
    let mut settings = Settings::default();
    settings.exclusions.quotations = true;
    let mut h = open_essay(settings);
    // Somewhere over the essay's text (the left pane) the quoted sentence's tooltip appears.
    let reason = "Left out: a quotation (Options, Leave out).";
    let found = (120..700).step_by(6).any(|y| {
        (20..680).step_by(24).any(|x| {
            h.hover_at(egui::pos2(x as f32, y as f32));
            h.run_ok();
            h.query_by_label(reason).is_some()
        })
    });
    assert!(found, "no sentence says `{reason}`");
}
