//! Builds reference models from a few real Wikipedia files and checks facts any sensible model of
//! them has. Reads `SIMDOC_DATA` (the shared data folder); ignored when it is unset.

use crate::common;

use std::path::PathBuf;

use simdoc::model::{
    CooccurrenceUnit, ModelParams, NoProgress, ReferenceModel, Relatedness, build,
};

fn enwiki_files(count: usize) -> Vec<PathBuf> {
    let folder = common::data_dir().join("reference/enwiki-2015/text/AA");
    (0..count)
        .map(|i| folder.join(format!("wiki_{i:02}")))
        .collect()
}

fn id(model: &ReferenceModel, term: &str) -> u32 {
    model
        .term_id(term)
        .unwrap_or_else(|| panic!("{term} is not in the model"))
}

fn model(files: &[PathBuf], unit: CooccurrenceUnit) -> ReferenceModel {
    let params = ModelParams {
        relatedness: Relatedness::Cooccurrence,
        unit,
        ..ModelParams::default()
    };
    build(files, &params, &NoProgress).unwrap()
}

/// Facts that do not depend on the unit.
fn check_common(model: &ReferenceModel) {
    // The first three files hold 131 articles, Anarchism (id 12) first.
    assert_eq!(model.documents(), 131);
    // Refined terms only: stopwords and unstemmed forms are absent.
    assert_eq!(model.term_id("the"), None);
    assert_eq!(model.term_id("anarchism"), None);
    // A word of one article is rarer than a word of many.
    assert_eq!(model.df(id(model, "autism")), 1);
    assert!(model.idf(id(model, "autism")) > model.idf(id(model, "war")));
    // Common English 4-grams are frequent; impossible ones unseen.
    assert!(model.fourgram_count(['t', 'i', 'o', 'n']) > 1000);
    assert_eq!(model.fourgram_count(['q', 'x', 'z', 'j']), 0);
    for a in 0..model.term_count() as u32 {
        for (b, c) in model.correlates(a) {
            assert_eq!(model.correlation(b, a), c);
        }
    }
    let bytes = model.to_bytes();
    let loaded = ReferenceModel::from_bytes(&bytes, "memory".as_ref()).unwrap();
    assert_eq!(&loaded, model);
}

/// `c(a, b)` is stored, at least `at_least`, and above `c(a, unrelated)`.
fn assert_related(model: &ReferenceModel, a: &str, b: &str, unrelated: &str, at_least: f32) {
    let (a_id, b_id, u_id) = (id(model, a), id(model, b), id(model, unrelated));
    let c = model.correlation(a_id, b_id);
    assert!(c >= at_least, "c({a}, {b}) = {c}");
    let other = model.correlation(a_id, u_id);
    assert!(
        c > other,
        "c({a}, {b}) = {c} <= c({a}, {unrelated}) = {other}"
    );
}

#[test]
#[cfg_attr(
    not(simdoc_data),
    ignore = "needs SIMDOC_DATA (the shared data folder)"
)]
fn paragraph_correlations_link_related_terms() {
    let files = enwiki_files(3);
    let model = model(&files, CooccurrenceUnit::Paragraph);
    check_common(&model);
    assert_related(&model, "autism", "autist", "moon", 0.3);
    assert_related(&model, "anarch", "anarchist", "novel", 0.3);
    assert_related(&model, "moon", "lunar", "war", 0.15);
    assert_related(&model, "moon", "orbit", "presid", 0.15);
}

#[test]
#[cfg_attr(
    not(simdoc_data),
    ignore = "needs SIMDOC_DATA (the shared data folder)"
)]
fn document_correlations_link_related_terms() {
    let files = enwiki_files(3);
    let model = model(&files, CooccurrenceUnit::Document);
    check_common(&model);
    // One-article words are below min_df (3 documents) and correlate with nothing.
    assert_eq!(model.correlates(id(&model, "autism")).count(), 0);
    assert_related(&model, "presid", "elect", "moon", 0.4);
    assert_related(&model, "novel", "fiction", "presid", 0.3);
    assert_related(&model, "moon", "orbit", "novel", 0.15);
}
