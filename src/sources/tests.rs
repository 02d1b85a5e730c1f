//! One document against many sources on hand-made texts, with exact expected values, and the
//! promise that each source's figure is the pair's own comparison.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::compare::{self, CompareOptions};
use crate::document::{SourceFormat, parse_text};
use crate::similarity::table::TableModel;

const LOOSE: Thresholds = Thresholds {
    permission: 0.5,
    variation: 1.0,
    max_e_value: None,
    min_words: 0,
};

fn doc(text: &str, name: &str) -> Document {
    parse_text(text, name, SourceFormat::Text)
}

fn run(document: &Document, sources: &[Document], options: &CompareOptions) -> Attribution {
    let never = AtomicBool::new(false);
    attribute(
        document,
        sources,
        &TableModel::new(),
        options,
        &LOOSE,
        &never,
    )
    .expect("not cancelled")
}

/// The document's containment in `source` when the two are compared alone.
fn pairwise(document: &Document, source: &Document, options: &CompareOptions) -> [f64; 2] {
    let never = AtomicBool::new(false);
    compare::compare(document, source, &TableModel::new(), options, &never)
        .expect("not cancelled")
        .containment(LOOSE.permission)
}

#[test]
fn each_sentence_goes_to_its_best_source_and_sources_rank_by_containment() {
    let document = doc(
        "Alpha beta gamma delta. Epsilon zeta eta theta. Iota kappa lambda omicron. \
         Nothing here was copied from anywhere.",
        "essay.txt",
    );
    let sources = [
        doc("Unrelated text about rivers and hills.", "s0.txt"),
        // Sentence 1 of the document, three of four words (Sim 0.75).
        doc(
            "Epsilon zeta eta sigma. Another line of source text.",
            "s1.txt",
        ),
        // Sentences 0 and 2, whole.
        doc(
            "Iota kappa lambda omicron. Alpha beta gamma delta.",
            "s2.txt",
        ),
    ];
    let a = run(&document, &sources, &CompareOptions::default());
    let ranked: Vec<(SourceId, f64)> = a
        .sources
        .iter()
        .map(|s| (s.source, s.containment))
        .collect();
    assert_eq!(ranked, vec![(2, 0.5), (1, 0.1875)]);
    assert_eq!(a.sources[0].used, 1.0);
    assert_eq!(a.sources[0].matched, 2);
    let s2: Vec<(u32, u32, f64)> = a.sources[0]
        .sentences
        .iter()
        .map(|m| (m.sentence, m.source_sentence, m.sim))
        .collect();
    assert_eq!(s2, vec![(0, 1, 1.0), (2, 0, 1.0)]);
    let attributed: Vec<Option<(SourceId, u32)>> = a
        .sentences
        .iter()
        .map(|s| s.map(|s| (s.source, s.source_sentence)))
        .collect();
    assert_eq!(
        attributed,
        vec![Some((2, 1)), Some((1, 0)), Some((2, 0)), None]
    );
    assert_eq!(a.attributed_share(), 0.75);
    assert_eq!(a.containment(), (1.0 + 0.75 + 1.0) / 4.0);
    for share in &a.sources {
        assert_eq!(
            [share.containment, share.used],
            pairwise(
                &document,
                &sources[share.source],
                &CompareOptions::default()
            )
        );
    }
}

#[test]
fn a_split_sentence_is_attributed_to_the_first_half_and_counts_whole() {
    let document = doc("Alpha beta gamma delta epsilon zeta eta theta.", "d.txt");
    let sources = [doc(
        "Alpha beta gamma delta. Epsilon zeta eta theta.",
        "s.txt",
    )];
    let a = run(&document, &sources, &CompareOptions::default());
    assert_eq!(a.sources.len(), 1);
    assert_eq!(a.sources[0].containment, 1.0);
    assert_eq!(
        a.sentences[0],
        Some(SentenceSource {
            source: 0,
            source_sentence: 0,
            joined_with: Some(1),
            sim: 1.0
        })
    );
    assert_eq!(
        [a.sources[0].containment, a.sources[0].used],
        pairwise(&document, &sources[0], &CompareOptions::default())
    );
}

#[test]
fn ties_go_to_the_source_holding_more_of_the_document() {
    let document = doc("Alpha beta gamma delta. Epsilon zeta eta theta.", "d.txt");
    let sources = [
        doc("Alpha beta gamma delta.", "s0.txt"),
        doc("Epsilon zeta eta theta. Alpha beta gamma delta.", "s1.txt"),
    ];
    let a = run(&document, &sources, &CompareOptions::default());
    assert_eq!(
        a.sources.iter().map(|s| s.source).collect::<Vec<_>>(),
        [1, 0]
    );
    assert!(a.sentences.iter().all(|s| s.map(|s| s.source) == Some(1)));
}

#[test]
fn boilerplate_seen_in_a_source_is_left_out_of_the_document_as_compare_does() {
    // The source's menu is marked up as navigation; the document has the same list as plain
    // markup (the pages of the counting module's test).
    let source = parse_text(
        "<html><body><nav><ul><li>World news today</li><li>Business and markets</li>\
         <li>Entertainment and arts</li></ul></nav><p>The storm closed three airports on \
         Monday morning. Thousands of travellers spent the night in crowded terminals. \
         Airlines expect to clear the backlog by Thursday evening. Officials will review \
         the response next week.</p></body></html>",
        "a.html",
        SourceFormat::Html,
    );
    assert!(
        source.boilerplate_mask()[0],
        "the source's menu is detected"
    );
    let document = parse_text(
        "<html><body><ul><li>World news today</li><li>Business and markets</li>\
         <li>More entertainment stories</li></ul><p>The storm closed three airports on \
         Monday morning. Flights resumed after the storm passed the coast.</p></body></html>",
        "b.html",
        SourceFormat::Html,
    );
    let sources = [
        source,
        doc(
            "Flights resumed after the storm passed the coast.",
            "s1.txt",
        ),
    ];
    let options = CompareOptions::default();
    let a = run(&document, &sources, &options);
    for share in &a.sources {
        assert_eq!(
            [share.containment, share.used],
            pairwise(&document, &sources[share.source], &options),
            "source {}",
            share.source
        );
    }
    // Against the page, the document's list is boilerplate too: one of its two counted
    // sentences is found. Against the plain source the list counts, where it is not a fragment
    // ("World news today" has three content words, the other two items fewer): one of three.
    let in_page = a.sources.iter().find(|s| s.source == 0).expect("matched");
    assert_eq!(in_page.containment, 0.5);
    let in_plain = a.sources.iter().find(|s| s.source == 1).expect("matched");
    assert_eq!(in_plain.containment, 1.0 / 3.0);
}

#[test]
fn no_sources_and_empty_documents_give_nothing() {
    let a = run(
        &doc("Alpha beta gamma delta.", "d.txt"),
        &[],
        &CompareOptions::default(),
    );
    assert!(a.sources.is_empty());
    assert_eq!(a.sentences, vec![None]);
    let b = run(
        &doc("", "e.txt"),
        &[doc("Alpha beta.", "s.txt")],
        &CompareOptions::default(),
    );
    assert!(b.sources.is_empty());
    assert_eq!(b.containment(), 0.0);
    assert_eq!(b.attributed_share(), 0.0);
}

/// A source whose sentence pairs reach the comparison floor but none the permission holds none
/// of the document: it is not listed (it was, at containment 0).
#[test]
fn a_source_reaching_only_the_floor_is_not_listed() {
    let document = doc("Alpha beta gamma delta epsilon.", "d.txt");
    let sources = [
        doc("Alpha beta gamma delta epsilon.", "s0.txt"),
        doc("Alpha beta zeta eta theta.", "s1.txt"),
    ];
    let a = run(&document, &sources, &CompareOptions::default());
    assert_eq!(a.sources.iter().map(|s| s.source).collect::<Vec<_>>(), [0]);
}
