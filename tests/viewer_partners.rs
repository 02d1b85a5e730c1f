//! The viewer's partners kept, driven through egui_kittest: the Options menu offers the count,
//! and a templated table compared at the measured preset lists more pairs with more partners,
//! with the same matched sentences and containment.
#![cfg(feature = "gui")]

use crate::viewer_support;

use std::sync::Arc;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use simdoc::app::{Settings, Side, SimdocApp};
use simdoc::compare::Preset;
use simdoc::model::ReferenceModel;
use viewer_support::{harness, settle};

/// The viewer at the measured preset with `partners_kept`, two tables of 300 lines that differ
/// by their numbers compared (every two lines pass the floor both ways).
fn open_tables(dir: &std::path::Path, partners_kept: usize) -> Harness<'static, SimdocApp> {
    let table = |seed: usize| -> String {
        (0..300)
            .map(|i| {
                let price = 2 + (i * 37 + seed * 11) % 89;
                format!("Item {i}: unit price {price} dollars in stock.\n")
            })
            .collect()
    };
    let (a, b) = (dir.join("march.txt"), dir.join("april.txt"));
    std::fs::write(&a, table(1)).unwrap();
    std::fs::write(&b, table(2)).unwrap();
    let settings = Settings {
        partners_kept,
        ..Settings::with_preset(Preset::MEASURED)
    };
    let mut app = SimdocApp::new(settings, Arc::new(ReferenceModel::embedded()));
    app.settings.example_shown = true;
    let mut h = harness(app);
    h.state_mut().open(Side::Left, a);
    h.state_mut().open(Side::Right, b);
    settle(&mut h);
    h
}

#[test]
fn more_partners_list_more_pairs_and_change_no_figure_they_read() {
    let dir = tempfile::tempdir().unwrap();
    let figures = |partners_kept| {
        let h = open_tables(dir.path(), partners_kept);
        h.state().view.as_ref().expect("a view").figures
    };
    let (one, ten, every) = (figures(1), figures(10), figures(0));
    assert_eq!(one.matched, [300, 300]);
    for other in [&ten, &every] {
        assert_eq!(other.matched, one.matched);
        assert_eq!(other.containment, one.containment);
    }
    assert!(
        one.pairs < ten.pairs && ten.pairs < every.pairs,
        "pairs listed: {} with one partner, {} with ten, {} with every pair",
        one.pairs,
        ten.pairs,
        every.pairs
    );
    assert_eq!(every.pairs, 300 * 300);
}

#[test]
fn the_partners_kept_are_set_from_the_options_menu() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_tables(dir.path(), 1);
    h.get_by_label("Options").click();
    h.run_ok();
    let pairs = |h: &Harness<'_, SimdocApp>| h.state().view.as_ref().expect("a view").figures.pairs;
    let one = pairs(&h);
    // Every pair, from the menu: the comparison is made again.
    h.get_by_label("Each sentence lists its best")
        .set_value_accesskit(0.0);
    h.run_ok();
    settle(&mut h);
    assert_eq!(h.state().settings.partners_kept, 0);
    assert_eq!(pairs(&h), 300 * 300, "{one} pairs with one partner");
}
