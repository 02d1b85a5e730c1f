//! Tests of the verdict's features ([`super`]).
use super::*;
use crate::similarity::Vocabulary;
use crate::similarity::table::TableModel;

fn features(left: &str, right: &str) -> Features {
    let model = TableModel::new();
    let mut vocabulary = Vocabulary::new(&model);
    let doc = vocabulary.prepare_texts_with(&[left, right], &model, &RefineOptions::MEASURED);
    let [a, b] = [&doc.sentences[0], &doc.sentences[1]];
    let name = |t| vocabulary.name(t);
    let (fa, fb) = (SentenceFacts::new(a, name), SentenceFacts::new(b, name));
    pair_features(a, &fa, b, &fb, None, &mut Vec::new())
}

fn named(f: &Features, name: &str) -> f64 {
    f[FEATURE_NAMES.iter().position(|n| *n == name).unwrap()]
}

#[test]
fn identical_sentences_agree_on_everything() {
    let f = features(
        "The cat sat on the mat in 2019.",
        "the cat sat on the mat in 2019",
    );
    // 8 terms, all aligned in one chunk: METEOR's fragmentation 1/8, its penalty
    // 0.5 (1/8)^3.
    for name in FEATURE_NAMES {
        let expected = match name {
            _ if name.ends_with("one_side")
                || name.starts_with("edit_rate")
                || name.starts_with("kld") =>
            {
                0.0
            }
            "meteor_fragmentation" => 1.0 / 8.0,
            "meteor_min" | "meteor_max" => 1.0 - 0.5 / 512.0,
            _ => 1.0,
        };
        assert!((named(&f, name) - expected).abs() < 1e-12, "{name}");
    }
}

#[test]
fn features_are_symmetric_and_see_numbers_and_negation() {
    let (x, y) = (
        "The company did not report 12 losses last year.",
        "The firm reported 13 losses in the last year.",
    );
    let (f, g) = (features(x, y), features(y, x));
    assert_eq!(f, g);
    assert_eq!(named(&f, "numbers_one_side"), 1.0);
    assert_eq!(named(&f, "negation_one_side"), 1.0);
    // "the losses last year" of 9 and 9 terms in order: the, report, losses, last, year.
    // left: the company did not report 12 loss last year (9); right: the firm report 13
    // loss in the last year (9).
    assert_eq!(named(&f, "length_ratio"), 1.0);
    assert!((named(&f, "lcs_ratio") - 2.0 * 5.0 / 18.0).abs() < 1e-12);
    // Bigrams shared: "last year" only, of 8 each way.
    assert!((named(&f, "bigrams_min") - 1.0 / 8.0).abs() < 1e-12);
    assert!((named(&f, "bigrams_max") - 1.0 / 8.0).abs() < 1e-12);
    assert_eq!(named(&f, "trigrams_max"), 0.0);
    // Content terms: compani report 12 loss last year (6) / firm report 13 loss last year
    // (6): in order report, loss, last, year; bigrams (loss last), (last year) of 5 each.
    assert!((named(&f, "content_lcs_ratio") - 2.0 * 4.0 / 12.0).abs() < 1e-12);
    assert!((named(&f, "content_bigrams_max") - 2.0 / 5.0).abs() < 1e-12);
    // Without relatedness the WordNet Sims are the overlap Sims.
    assert_eq!(named(&f, "wordnet_min"), named(&f, "overlap_min"));
    assert_eq!(named(&f, "wordnet_anywhere_max"), named(&f, "overlap_max"));
    assert_eq!(
        named(&f, "wordnet_content_max"),
        named(&f, "overlap_content_max")
    );
    // BLEU's unigrams: the, report, loss, last, year (the right's second "the" clipped) of
    // 9 terms each way; its bigrams as the distinct ones above; no shared 4-gram.
    assert!((named(&f, "bleu1_min") - 5.0 / 9.0).abs() < 1e-12);
    assert!((named(&f, "bleu2_max") - 1.0 / 8.0).abs() < 1e-12);
    assert_eq!(named(&f, "bleu4_max"), 0.0);
    let same_numbers = features("It costs 12 dollars.", "Its price is 12 dollars.");
    assert_eq!(named(&same_numbers, "numbers_one_side"), 0.0);
    assert_eq!(named(&same_numbers, "negation_one_side"), 0.0);
}
