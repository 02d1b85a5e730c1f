//! Exact values of a model built from a hand-made collection; the file format's round trips and
//! error cases are in [`file_format`].

use super::*;

mod file_format;

/// Four documents; blank lines separate paragraphs. Refined, the units are:
///
/// | doc | paragraphs                         | document             |
/// |-----|------------------------------------|----------------------|
/// | A   | {cat, dog}, {cat, fish}            | {cat, dog, fish}     |
/// | B   | {cat, dog, bird}                   | {cat, dog, bird}     |
/// | C   | {dog, fish}, {bird}                | {dog, fish, bird}    |
/// | D   | {moon, star, sun} (two sentences)  | {moon, star, sun}    |
///
/// Term ids follow sorted order: bird 0, cat 1, dog 2, fish 3, moon 4, star 5, sun 6.
const COLLECTION: [&str; 4] = [
    "Cat dog.\n\nCat fish.",
    "Cat dog bird.",
    "Dog fish.\n\nBird.",
    "Moon star. Sun.",
];

fn params(unit: CooccurrenceUnit, min_df: u32, floor: f64, per_term: u32) -> ModelParams {
    ModelParams {
        relatedness: Relatedness::Cooccurrence,
        unit,
        min_df,
        floor,
        per_term,
    }
}

fn model(p: ModelParams) -> ReferenceModel {
    build_from_texts(&COLLECTION, &p).unwrap()
}

/// Every stored pair `(a, b, c)` with `a < b` by term, `c` rounded to 4 decimals.
fn pairs(m: &ReferenceModel) -> Vec<(String, String, f64)> {
    let mut out = Vec::new();
    for a in 0..m.term_count() as TermId {
        for (b, c) in m.correlates(a) {
            if a < b {
                let c = (f64::from(c) * 1e4).round() / 1e4;
                out.push((m.term(a).to_string(), m.term(b).to_string(), c));
            }
        }
    }
    out
}

fn p(a: &str, b: &str, c: f64) -> (String, String, f64) {
    (a.to_string(), b.to_string(), c)
}

#[test]
fn counts_vocabulary_and_idf() {
    let m = model(params(CooccurrenceUnit::Paragraph, 1, 0.0, 100));
    assert_eq!(
        *m.counts(),
        CollectionCounts {
            documents: 4,
            units: 6,
            sentences: 7,
            tokens: 13,
        }
    );
    let terms: Vec<&str> = (0..m.term_count() as TermId).map(|i| m.term(i)).collect();
    assert_eq!(terms, ["bird", "cat", "dog", "fish", "moon", "star", "sun"]);
    let dog = m.term_id("dog").unwrap();
    assert_eq!(dog, 2);
    assert_eq!(m.term_id("cats"), None);
    let df: Vec<u32> = (0..7).map(|i| m.df(i)).collect();
    assert_eq!(df, [2, 2, 3, 2, 1, 1, 1]);
    assert_eq!(m.idf(dog), (4.0f64 / 3.0).ln());
    assert_eq!(m.idf(m.term_id("moon").unwrap()), 4.0f64.ln());
    assert_eq!(m.df(99), 0);
    let by_document = model(params(CooccurrenceUnit::Document, 1, 0.0, 100));
    assert_eq!(by_document.units(), 4);
    assert_eq!(by_document.documents(), 4);
}

/// Eq. 3.1 over documents: n(cat) 2, n(dog) 3, n(fish) 2, n(bird) 2, the sky words 1 each.
#[test]
fn correlations_over_documents() {
    let m = model(params(CooccurrenceUnit::Document, 1, 0.0, 100));
    assert_eq!(
        pairs(&m),
        [
            p("bird", "cat", 0.3333),  // 1 / (2 + 2 - 1)
            p("bird", "dog", 0.6667),  // 2 / (2 + 3 - 2)
            p("bird", "fish", 0.3333), // 1 / (2 + 2 - 1)
            p("cat", "dog", 0.6667),   // 2 / (2 + 3 - 2)
            p("cat", "fish", 0.3333),  // 1 / (2 + 2 - 1)
            p("dog", "fish", 0.6667),  // 2 / (3 + 2 - 2)
            p("moon", "star", 1.0),
            p("moon", "sun", 1.0),
            p("star", "sun", 1.0),
        ]
    );
}

/// Eq. 3.1 over paragraphs: n(cat) 3, n(dog) 3, n(fish) 2, n(bird) 2; fish and bird never
/// share a paragraph.
#[test]
fn correlations_over_paragraphs() {
    let m = model(params(CooccurrenceUnit::Paragraph, 1, 0.0, 100));
    assert_eq!(
        pairs(&m),
        [
            p("bird", "cat", 0.25), // 1 / (2 + 3 - 1)
            p("bird", "dog", 0.25),
            p("cat", "dog", 0.5), // 2 / (3 + 3 - 2)
            p("cat", "fish", 0.25),
            p("dog", "fish", 0.25),
            p("moon", "star", 1.0),
            p("moon", "sun", 1.0),
            p("star", "sun", 1.0),
        ]
    );
    let (bird, fish) = (m.term_id("bird").unwrap(), m.term_id("fish").unwrap());
    assert_eq!(m.correlation(bird, fish), 0.0);
    assert_eq!(m.correlation(fish, fish), 1.0);
    let (cat, dog) = (m.term_id("cat").unwrap(), m.term_id("dog").unwrap());
    assert_eq!(m.correlation(cat, dog), dequantise(quantise(0.5)));
    assert!((m.correlation(cat, dog) - 0.5).abs() < 1e-5);
}

#[test]
fn min_df_leaves_rare_terms_out() {
    let m = model(params(CooccurrenceUnit::Paragraph, 2, 0.0, 100));
    assert_eq!(
        pairs(&m),
        [
            p("bird", "cat", 0.25),
            p("bird", "dog", 0.25),
            p("cat", "dog", 0.5),
            p("cat", "fish", 0.25),
            p("dog", "fish", 0.25),
        ]
    );
    // Still in the vocabulary, for idf.
    assert_eq!(m.df(m.term_id("moon").unwrap()), 1);
    let m = model(params(CooccurrenceUnit::Paragraph, 3, 0.0, 100));
    assert_eq!(pairs(&m), [p("cat", "dog", 0.5)]);
}

#[test]
fn the_floor_drops_weak_correlations() {
    let m = model(params(CooccurrenceUnit::Paragraph, 2, 0.3, 100));
    assert_eq!(pairs(&m), [p("cat", "dog", 0.5)]);
    // Inclusive: c >= floor is kept.
    let m = model(params(CooccurrenceUnit::Document, 2, 2.0 / 3.0, 100));
    assert_eq!(
        pairs(&m),
        [
            p("bird", "dog", 0.6667),
            p("cat", "dog", 0.6667),
            p("dog", "fish", 0.6667),
        ]
    );
}

/// With one correlate per term: cat and dog keep each other (0.5); fish and bird each keep cat
/// (0.25, tied with dog, and cat has the smaller id). The union is stored in both rows, so cat's
/// row has three entries although the cap is one.
#[test]
fn the_cap_keeps_the_strongest_and_the_matrix_stays_symmetric() {
    let m = model(params(CooccurrenceUnit::Paragraph, 2, 0.0, 1));
    assert_eq!(
        pairs(&m),
        [
            p("bird", "cat", 0.25),
            p("cat", "dog", 0.5),
            p("cat", "fish", 0.25),
        ]
    );
    let cat = m.term_id("cat").unwrap();
    let row: Vec<&str> = m.correlates(cat).map(|(j, _)| m.term(j)).collect();
    assert_eq!(row, ["bird", "dog", "fish"]);
    assert_eq!(m.stats().correlation_entries, 6);
    let none = model(params(CooccurrenceUnit::Paragraph, 1, 0.0, 0));
    assert_eq!(none.stats().correlation_entries, 0);
}

#[test]
fn correlates_are_sorted_and_symmetric() {
    for unit in [CooccurrenceUnit::Document, CooccurrenceUnit::Paragraph] {
        let m = model(params(unit, 1, 0.0, 2));
        for a in 0..m.term_count() as TermId {
            let row: Vec<(TermId, f32)> = m.correlates(a).collect();
            assert!(row.windows(2).all(|w| w[0].0 < w[1].0));
            for (b, c) in row {
                assert_ne!(a, b);
                assert_eq!(m.correlation(b, a), c);
            }
        }
    }
}

fn gram(s: &str) -> [char; 4] {
    let c: Vec<char> = s.chars().collect();
    [c[0], c[1], c[2], c[3]]
}

/// Refined sentences: catdog, catfish, catdogbird, dogfish, bird, moonstar, sun.
#[test]
fn fourgram_counts() {
    let m = model(ModelParams::default());
    assert_eq!(m.fourgram_count(gram("catd")), 2);
    assert_eq!(m.fourgram_count(gram("fish")), 2);
    assert_eq!(m.fourgram_count(gram("bird")), 2);
    assert_eq!(m.fourgram_count(gram("dogb")), 1);
    assert_eq!(m.fourgram_count(gram("moon")), 1);
    // Not across sentences: "moonstar" and "sun" are separate.
    assert_eq!(m.fourgram_count(gram("tars")), 0);
    assert_eq!(m.fourgram_count(gram("zzzz")), 0);
    let stats = m.stats();
    assert_eq!(stats.fourgrams, 19);
    assert_eq!(stats.fourgram_occurrences, 3 + 4 + 7 + 4 + 1 + 5);
}

#[test]
fn from_parts_builds_a_model_by_hand() {
    let m = ReferenceModel::from_parts(ModelParts {
        counts: CollectionCounts {
            documents: 10,
            ..CollectionCounts::default()
        },
        terms: vec![
            ("tsunami".into(), 2),
            ("global".into(), 5),
            ("aid".into(), 4),
        ],
        correlations: vec![("global".into(), "aid".into(), 0.8)],
        fourgrams: vec![(gram("glob"), 3)],
        ..ModelParts::default()
    })
    .unwrap();
    let (aid, global) = (m.term_id("aid").unwrap(), m.term_id("global").unwrap());
    assert_eq!((aid, global), (0, 1));
    assert!((m.correlation(global, aid) - 0.8).abs() < 1e-5);
    assert_eq!(m.correlation(aid, global), m.correlation(global, aid));
    assert_eq!(m.idf(aid), (10.0f64 / 4.0).ln());
    assert_eq!(m.fourgram_count(gram("glob")), 3);
    let unknown = ReferenceModel::from_parts(ModelParts {
        terms: vec![("a".into(), 1)],
        counts: CollectionCounts {
            documents: 1,
            ..CollectionCounts::default()
        },
        correlations: vec![("a".into(), "b".into(), 0.5)],
        ..ModelParts::default()
    });
    assert_eq!(unknown, Err(InvalidModel::UnknownTerm("b".into())));
    let df_too_large = ReferenceModel::from_parts(ModelParts {
        terms: vec![("a".into(), 2)],
        counts: CollectionCounts {
            documents: 1,
            ..CollectionCounts::default()
        },
        ..ModelParts::default()
    });
    assert!(matches!(
        df_too_large,
        Err(InvalidModel::DfRange { df: 2, .. })
    ));
}

#[test]
fn parameters_are_checked() {
    let bad = params(CooccurrenceUnit::Paragraph, 1, 1.5, 4);
    assert!(matches!(
        build_from_texts(&COLLECTION, &bad),
        Err(BuildError::Params(InvalidModel::Floor(_)))
    ));
    assert!(matches!(
        build_from_texts(
            &COLLECTION,
            &params(CooccurrenceUnit::Paragraph, 1, f64::NAN, 4)
        ),
        Err(BuildError::Params(InvalidModel::Floor(_)))
    ));
    assert_eq!("document".parse(), Ok(CooccurrenceUnit::Document));
    assert!("sentence".parse::<CooccurrenceUnit>().is_err());
}
