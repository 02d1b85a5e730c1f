//! Exact values of a model built from a hand-made collection, and the file format's error cases.

use std::path::Path;

use proptest::prelude::*;

use super::*;

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

// --- the file format ---

fn sample_bytes() -> Vec<u8> {
    let mut m = model(params(CooccurrenceUnit::Paragraph, 1, 0.0, 100));
    m.set_source("four hand-made documents");
    m.to_bytes()
}

fn load(bytes: &[u8]) -> Result<ReferenceModel, ModelError> {
    ReferenceModel::from_bytes(bytes, Path::new("test.simdoc-model"))
}

/// Recomputes the checksum after an edit, to reach the decoder with forged content.
fn reseal(bytes: &mut [u8]) {
    let end = bytes.len() - 4;
    let crc = crc32fast::hash(&bytes[8..end]);
    bytes[end..].copy_from_slice(&crc.to_le_bytes());
}

#[test]
fn save_and_load_round_trip() {
    let mut m = model(params(CooccurrenceUnit::Document, 1, 0.1, 3));
    m.set_source("four hand-made documents");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.simdoc-model");
    m.save(&path).unwrap();
    let loaded = ReferenceModel::load(&path).unwrap();
    assert_eq!(loaded, m);
    assert_eq!(loaded.source(), "four hand-made documents");
    assert_eq!(loaded.params(), m.params());
    assert!(!dir.path().join("m.simdoc-model.partial").exists());
    let m = model(ModelParams::default());
    assert_eq!(load(&m.to_bytes()).unwrap(), m);
}

#[test]
fn vector_parameters_round_trip() {
    let params = ModelParams {
        relatedness: Relatedness::Vectors(vectors::VectorParams {
            window: 3,
            dimensions: 2,
            min_count: 1,
            threshold: 0.25,
            scale: 1.5,
        }),
        ..params(CooccurrenceUnit::Paragraph, 1, 0.0, 4)
    };
    let m = model(params);
    let loaded = load(&m.to_bytes()).unwrap();
    assert_eq!(loaded.params(), &params);
    assert_eq!(loaded, m);
}

/// Files of format versions 1 (no relatedness kind: a co-occurrence model), 2 (no WordNet
/// relations or verdict) and 3 (no sentence rates) still load.
#[test]
fn version_1_2_and_3_files_still_load() {
    let m = model(params(CooccurrenceUnit::Document, 1, 0.1, 3));
    let v4 = m.to_bytes();
    // Payload: unit (1 byte), min_df 1 (1), floor (8), per_term 3 (1), then the kind byte; at
    // its end the three bytes saying there is no lexicon, no verdict and no sentence rates.
    let kind_at = 20 + 11;
    assert_eq!(v4[kind_at], 0, "co-occurrence");
    let rates_at = v4.len() - 4 - 1;
    assert_eq!(v4[rates_at], 0);
    let with_version = |bytes: &[u8], version: u32| {
        let mut out = bytes.to_vec();
        out.extend_from_slice(&[0; 4]);
        out[8..12].copy_from_slice(&version.to_le_bytes());
        let payload = (out.len() - 24) as u64;
        out[12..20].copy_from_slice(&payload.to_le_bytes());
        reseal(&mut out);
        out
    };
    let v3 = with_version(&v4[..rates_at], 3);
    assert_eq!(load(&v3).unwrap(), m);
    // Read as version 4 the same bytes are malformed (the rates' marker is missing).
    assert!(matches!(
        load(&with_version(&v4[..rates_at], 4)),
        Err(ModelError::Malformed { .. })
    ));
    let markers_at = rates_at - 2;
    assert_eq!(&v4[markers_at..markers_at + 2], &[0, 0]);
    let with_version = |bytes: &[u8], version: u32| {
        let mut out = bytes.to_vec();
        out.extend_from_slice(&[0; 4]);
        out[8..12].copy_from_slice(&version.to_le_bytes());
        let payload = (out.len() - 24) as u64;
        out[12..20].copy_from_slice(&payload.to_le_bytes());
        reseal(&mut out);
        out
    };
    let v2 = with_version(&v4[..markers_at], 2);
    assert_eq!(load(&v2).unwrap(), m);
    let mut v1_bytes = v4[..kind_at].to_vec();
    v1_bytes.extend_from_slice(&v4[kind_at + 1..markers_at]);
    let v1 = with_version(&v1_bytes, 1);
    assert_eq!(load(&v1).unwrap(), m);
    // Read as version 2 the same bytes are malformed, not misread; so are version 2's read
    // as version 3.
    assert!(matches!(
        load(&with_version(&v1_bytes, 2)),
        Err(ModelError::Malformed { .. })
    ));
    assert!(matches!(
        load(&with_version(&v4[..markers_at], 3)),
        Err(ModelError::Malformed { .. })
    ));
}

/// Sentence rates survive a save and a load; the embedded model carries them.
#[test]
fn sentence_rates_round_trip() {
    let texts = ["The cat sat on the mat.", "A dog and the cat ran in 1999."];
    let mut m = crate::model::build_from_texts(&texts, &ModelParams::default()).unwrap();
    let docs: Vec<crate::document::Document> = texts
        .iter()
        .map(|t| crate::document::parse_text(t, "t", crate::document::SourceFormat::Text))
        .collect();
    let rates = crate::model::sentence_rates::SentenceRates::count_documents(&docs, &m);
    m.set_sentence_rates(Some(rates.clone()));
    let loaded = load(&m.to_bytes()).unwrap();
    assert_eq!(loaded.sentence_rates(), Some(&rates));
    let embedded = crate::model::ReferenceModel::embedded();
    let rates = embedded
        .sentence_rates()
        .expect("the embedded model has sentence rates");
    assert!(rates.sentences() > 500_000);
    // "the" is in more sentences than "volcano".
    let volcano = embedded.term_id("volcano").expect("a known term");
    assert!(rates.text_rate("the") > 100.0 * rates.term_rate(volcano));
}

/// A model with WordNet's relations and a verdict: both survive the file, and any damage to
/// them is caught.
#[test]
fn wordnet_relations_and_a_verdict_round_trip() {
    let mut m = model(params(CooccurrenceUnit::Paragraph, 1, 0.0, 100));
    m.set_lexicon(Some(super::wordnet::sample()));
    m.set_verdict(super::verdict::StoredVerdict {
        note: "a hand-made verdict".into(),
        wordnet_weights: [1.0, 0.8, 0.5],
        intercept: 0.25,
        threshold: 0.5,
        features: vec![super::verdict::StoredFeature {
            name: "wordnet_min".into(),
            weight: 3.0,
            mean: 0.5,
            sd: 0.25,
        }],
    })
    .unwrap();
    let bytes = m.to_bytes();
    let loaded = load(&bytes).unwrap();
    assert_eq!(loaded, m);
    assert!(loaded.lexicon().is_some() && loaded.verdict().is_some());
    for at in 0..bytes.len() {
        let mut corrupt = bytes.clone();
        corrupt[at] ^= 0x01;
        assert!(load(&corrupt).is_err(), "flip at {at} went unnoticed");
    }
    // A verdict that is not a probability model is refused when stored.
    let mut bad = loaded.verdict().unwrap().clone();
    bad.threshold = 2.0;
    assert!(m.set_verdict(bad).is_err());
}

#[test]
fn a_missing_file_is_an_io_error_naming_it() {
    let err = ReferenceModel::load(Path::new("/nonexistent/x.simdoc-model")).unwrap_err();
    assert!(matches!(err, ModelError::Io { .. }));
    assert!(err.to_string().starts_with("/nonexistent/x.simdoc-model: "));
}

#[test]
fn an_empty_file() {
    let err = load(&[]).unwrap_err();
    assert!(matches!(err, ModelError::Empty { .. }));
    assert_eq!(
        err.to_string(),
        "test.simdoc-model: the model file is empty"
    );
}

#[test]
fn a_foreign_file() {
    let err = load(b"<html><body>not a model</body></html>").unwrap_err();
    assert!(matches!(err, ModelError::NotAModel { .. }));
    let mut bytes = sample_bytes();
    bytes[0] = b'X';
    assert!(matches!(load(&bytes), Err(ModelError::NotAModel { .. })));
    assert!(matches!(load(b"SIMDOX"), Err(ModelError::NotAModel { .. })));
}

#[test]
fn a_truncated_file() {
    let bytes = sample_bytes();
    let full = bytes.len() as u64;
    for cut in [
        1,
        7,
        8,
        12,
        19,
        20,
        21,
        bytes.len() / 2,
        bytes.len() - 4,
        bytes.len() - 1,
    ] {
        match load(&bytes[..cut]) {
            Err(ModelError::Truncated {
                expected, actual, ..
            }) => {
                assert_eq!(actual, cut as u64);
                assert!(
                    expected == full || cut < 20,
                    "cut {cut}: expected {expected}"
                );
            }
            other => panic!("cut at {cut}: {other:?}"),
        }
    }
}

#[test]
fn trailing_bytes() {
    let mut bytes = sample_bytes();
    bytes.push(0);
    assert!(matches!(
        load(&bytes),
        Err(ModelError::TrailingBytes { .. })
    ));
}

#[test]
fn a_flipped_byte_fails_the_checksum() {
    let bytes = sample_bytes();
    for at in [20, 21, bytes.len() / 2, bytes.len() - 5, bytes.len() - 1] {
        let mut corrupt = bytes.clone();
        corrupt[at] ^= 0x10;
        match load(&corrupt) {
            Err(err @ ModelError::Checksum { .. }) => {
                assert!(err.to_string().contains("corrupted"), "{err}");
            }
            other => panic!("flip at {at}: {other:?}"),
        }
    }
    // Every single-bit flip anywhere is caught by some check.
    for at in 0..bytes.len() {
        let mut corrupt = bytes.clone();
        corrupt[at] ^= 0x01;
        assert!(load(&corrupt).is_err(), "flip at {at} went unnoticed");
    }
}

#[test]
fn a_newer_or_unknown_version() {
    let mut bytes = sample_bytes();
    bytes[8..12].copy_from_slice(&5u32.to_le_bytes());
    let err = load(&bytes).unwrap_err();
    assert!(matches!(err, ModelError::NewerVersion { found: 5, .. }));
    assert!(err.to_string().contains("newer"), "{err}");
    bytes[8..12].copy_from_slice(&0u32.to_le_bytes());
    assert!(matches!(
        load(&bytes),
        Err(ModelError::UnknownVersion { found: 0, .. })
    ));
}

#[test]
fn forged_content_with_a_valid_checksum_is_malformed() {
    let mut bytes = sample_bytes();
    // The unit byte is the payload's first.
    bytes[20] = 7;
    reseal(&mut bytes);
    match load(&bytes) {
        Err(ModelError::Malformed { reason, .. }) => {
            assert_eq!(reason, "unknown co-occurrence unit 7");
        }
        other => panic!("{other:?}"),
    }
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = load(&bytes);
        let mut framed = format::MAGIC.to_vec();
        framed.extend_from_slice(&bytes);
        let _ = load(&framed);
    }

    /// Arbitrary payloads behind a valid header and checksum reach the decoder.
    #[test]
    fn arbitrary_sealed_payloads_never_panic(payload in proptest::collection::vec(any::<u8>(), 0..400)) {
        let mut bytes = format::MAGIC.to_vec();
        bytes.extend_from_slice(&format::VERSION.to_le_bytes());
        bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&payload);
        bytes.extend_from_slice(&[0; 4]);
        reseal(&mut bytes);
        let _ = load(&bytes);
    }

    /// A real file with bytes changed and the checksum recomputed: decoded or refused, never a
    /// panic; if it decodes, it is internally consistent.
    #[test]
    fn edited_and_resealed_files_never_panic(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4)
    ) {
        let mut bytes = sample_bytes();
        let payload_len = bytes.len() - 24;
        for (at, value) in edits {
            bytes[20 + at.index(payload_len)] = value;
        }
        reseal(&mut bytes);
        if let Ok(m) = load(&bytes) {
            for a in 0..m.term_count() as TermId {
                for (b, c) in m.correlates(a) {
                    prop_assert_eq!(m.correlation(b, a), c);
                }
                let _ = m.idf(a);
            }
        }
    }
}
