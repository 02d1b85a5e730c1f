//! Tests of qSign: signatures, the range, the index and the detector on small collections.

use super::super::{prepare::words, without_job};
use super::index::{MAX_BALL, ball_masks, ball_size};
use super::range::{
    bit_switch_probability, exact_bit_difference_probability, max_bit_difference_probability,
};
use super::*;
use rustc_hash::FxHashSet;

#[test]
fn word_signatures_set_exactly_l_of_m_bits() {
    for word in ["motorola", "music", "phone", "a", ""] {
        let s32 = word_signature(word, 32, 2);
        assert_eq!(s32.count_ones(), 2);
        assert!(s32 < 1 << 32);
        let s16 = word_signature(word, 16, 1);
        assert_eq!(s16.count_ones(), 1);
        assert!(s16 < 1 << 16);
    }
    assert_eq!(
        word_signature("x", 4, 9).count_ones(),
        4,
        "l is capped at m"
    );
}

#[test]
fn hamming_balls_are_counted_and_enumerated() {
    assert_eq!(ball_size(32, 2), 1 + 32 + 496);
    assert_eq!(ball_size(16, 1), 17);
    let masks = ball_masks(32, 2);
    assert_eq!(masks.len(), 529);
    let distinct: FxHashSet<u64> = masks.iter().copied().collect();
    assert_eq!(distinct.len(), 529);
    assert!(masks.iter().all(|m| m.count_ones() <= 2 && *m < 1 << 32));
}

/// m = 32, l = 2, n = 5, k = 1, evaluated by hand (Python, `math.comb`):
/// p = (31/32)^10 · (1 - (31/32)^2) = 0.0447876; C(32,2) p² (1-p)^30 = 0.2516493;
/// Σ_{t≤2} = 0.8286927.
#[test]
fn search_range_probabilities_by_hand() {
    let p = bit_switch_probability(32, 2, 5, 1);
    assert!((p - 0.044_787_595_576_507_91).abs() < 1e-12, "{p}");
    let exact = exact_bit_difference_probability(32, 2, 5, 1, 2);
    assert!((exact - 0.251_649_330_888_356_7).abs() < 1e-12, "{exact}");
    let at_most = max_bit_difference_probability(32, 2, 5, 1, 2);
    assert!((at_most - 0.828_692_674_100_568).abs() < 1e-12, "{at_most}");
    // A distribution over t = 0..=m, growing with d.
    let total: f64 = (0..=32)
        .map(|t| exact_bit_difference_probability(32, 2, 7, 3, t))
        .sum();
    assert!((total - 1.0).abs() < 1e-12, "{total}");
    let cumulative: Vec<f64> = (0..=6)
        .map(|d| max_bit_difference_probability(32, 2, 7, 3, d))
        .collect();
    assert!(cumulative.windows(2).all(|w| w[0] < w[1]), "{cumulative:?}");
    assert_eq!(exact_bit_difference_probability(16, 1, 3, 1, 17), 0.0);
}

/// Values of P_max(32, 2, n, k + 1 = 2, d) for d = 0, 1, 2, 3 (same hand evaluation):
/// n = 2: 0.029 0.136 0.333 0.563; n = 5: 0.055 0.221 0.466 0.699;
/// n = 10: 0.124 0.391 0.671 0.859; n = 20: 0.336 0.709 0.909 0.979.
#[test]
fn search_range_is_the_largest_d_within_the_false_hit_rate() {
    let range = |rate: f64, words: usize| {
        AdaptiveRange {
            word_flexibility: 1,
            false_hit_rate: rate,
        }
        .bit_difference(32, 2, words, 5)
    };
    assert_eq!(range(0.5, 2), 2);
    assert_eq!(range(0.5, 5), 2);
    assert_eq!(range(0.5, 10), 1);
    assert_eq!(range(0.5, 20), 0);
    assert_eq!(range(0.2, 5), 0);
    assert_eq!(range(0.7, 5), 3);
    // Short sentences get the wider range; the cap always holds.
    assert_eq!(range(1.0, 40), 5);
    assert_eq!(range(0.0, 2), 0);
}

#[test]
fn adaptive_range_finds_short_sentences_with_extra_words() {
    // A three-word sentence reused with one more word: the signatures differ in up to
    // l = 2 bits, so d = 0 misses it.
    let docs = vec![
        vec![words("alpha beta gamma")],
        vec![words("alpha beta gamma delta")],
        vec![words("zeta")],
    ];
    let c = Collection::from_terms(vec![], docs, vec![]);
    let signature = |text: &str| {
        words(text)
            .iter()
            .fold(0u64, |s, w| s | word_signature(w, 32, 2))
    };
    let difference =
        (signature("alpha beta gamma") ^ signature("alpha beta gamma delta")).count_ones();
    assert!(difference > 0, "the test needs signatures that differ");
    let fixed = |d| QSignParams {
        max_bit_difference: d,
        ..QSignParams::default()
    };
    let adaptive = QSignParams {
        max_bit_difference: 3,
        adaptive: Some(AdaptiveRange {
            word_flexibility: 1,
            false_hit_rate: 0.5,
        }),
        ..QSignParams::default()
    };
    let run = |params: &QSignParams| without_job(|job| detect(&c, params, job)).unwrap();
    assert!(run(&fixed(0)).pairs.is_empty());
    assert_eq!(run(&fixed(difference)).pairs.len(), 1);
    // The query is the later, four-word sentence; k + 1 = 2: d = 2 at ρ_fp = 0.5
    // (P_max 0.422 at d = 2, 0.657 at d = 3).
    let range = adaptive.adaptive.unwrap().bit_difference(32, 2, 4, 3);
    assert_eq!(range, 2);
    assert!(difference <= 2, "one word sets at most l = 2 bits");
    assert_eq!(run(&adaptive).pairs.len(), 1);
    // With the cap at 0 the adaptive range cannot widen the search.
    let capped = QSignParams {
        max_bit_difference: 0,
        ..adaptive.clone()
    };
    assert!(run(&capped).pairs.is_empty());
}

/// N = 4 documents; df(a) = 1, df(b) = 2, df(c) = 4 (idf 0), df(d) = 1.
#[test]
fn word_overlap_by_hand() {
    let idf = [4f64.ln(), 2f64.ln(), 0.0, 4f64.ln()];
    let (a, b, c, d) = (0, 1, 2, 3);
    let q = [a, b, c];
    let q_weight = 4f64.ln() + 2f64.ln();
    // Q ∩ R = {a, c}: 2/3 · (ln 4 + 0) / (ln 4 + ln 2) = 2/3 · 2/3.
    let s = word_overlap(&q, &[a, c, d], q_weight, &idf);
    assert!((s - 4.0 / 9.0).abs() < 1e-12, "{s}");
    assert!((word_overlap(&q, &[a, b, c, d], q_weight, &idf) - 1.0).abs() < 1e-12);
    assert_eq!(word_overlap(&q, &[d], q_weight, &idf), 0.0);
    assert_eq!(word_overlap(&[c], &[c], 0.0, &idf), 0.0);
}

#[test]
fn contained_documents_are_found_in_either_order() {
    let docs = vec![
        // 0: an article of four sentences.
        vec![
            words("alpha beta gamma"),
            words("delta epsilon zeta"),
            words("eta theta iota"),
            words("chi psi omega"),
        ],
        // 1: unrelated.
        vec![words("kappa lambda mu"), words("nu xi omicron")],
        // 2: a summary of 0: two of its sentences verbatim.
        vec![words("alpha beta gamma"), words("eta theta iota")],
        // 3: reuses one sentence of 1 and adds one of its own.
        vec![words("kappa lambda mu"), words("pi rho sigma")],
        // 4: filler so that the words above are not in every document.
        vec![words("tau upsilon phi")],
    ];
    let c = Collection::from_terms(vec![], docs, vec![]);
    let found = without_job(|job| detect(&c, &QSignParams::default(), job)).unwrap();
    let got: Vec<_> = found.pairs.iter().map(|p| (p.a, p.b, p.relation)).collect();
    assert_eq!(
        got,
        vec![(0, 2, Relation::Contains), (3, 1, Relation::Reuses)]
    );
    assert_eq!(found.pairs[0].score, 1.0);
    assert_eq!(found.pairs[1].score, 0.5);
    // The article after its summary: the stored summary's sentences count backwards.
    let reversed = Collection::from_terms(
        vec![],
        vec![
            vec![words("alpha beta gamma"), words("eta theta iota")],
            vec![
                words("alpha beta gamma"),
                words("delta epsilon zeta"),
                words("eta theta iota"),
                words("chi psi omega"),
            ],
            vec![words("tau")],
        ],
        vec![],
    );
    let found = without_job(|job| detect(&reversed, &QSignParams::default(), job)).unwrap();
    assert_eq!(
        found.pairs,
        vec![DetectedPair::new(1, 0, Relation::Contains, 1.0)]
    );
    // Below the reporting floor, a pair that shares one of four sentences is left out.
    let floor = QSignParams {
        min_reuse_share: 0.3,
        containment_share: 1.0,
        ..QSignParams::default()
    };
    let article_then_one_sentence = Collection::from_terms(
        vec![],
        vec![
            vec![
                words("alpha beta gamma"),
                words("delta epsilon zeta"),
                words("eta theta iota"),
                words("chi psi omega"),
            ],
            vec![
                words("alpha beta gamma"),
                words("kappa lambda"),
                words("mu nu"),
                words("xi pi"),
            ],
            vec![words("tau")],
        ],
        vec![],
    );
    let found = without_job(|job| detect(&article_then_one_sentence, &floor, job)).unwrap();
    assert!(found.pairs.is_empty());
    let found = without_job(|job| detect(&reversed, &QSignParams::default(), job)).unwrap();
    assert_eq!(
        found.pairs,
        vec![DetectedPair::new(1, 0, Relation::Contains, 1.0)]
    );
}

#[test]
fn block_index_fallback_finds_what_the_ball_finds() {
    let docs = vec![
        vec![words("alpha beta gamma delta")],
        vec![words("alpha beta gamma delta epsilon")],
        vec![words("zeta")],
    ];
    let c = Collection::from_terms(vec![], docs, vec![]);
    let ball = QSignParams::default();
    let blocks = QSignParams {
        max_bit_difference: 6,
        ..QSignParams::default()
    };
    assert!(ball_size(32, 6) > MAX_BALL);
    let with_ball = without_job(|job| detect(&c, &ball, job)).unwrap();
    let with_blocks = without_job(|job| detect(&c, &blocks, job)).unwrap();
    assert_eq!(with_ball.pairs.len(), 1);
    assert_eq!(with_ball, with_blocks);
}

/// Checking documents in batches (in parallel, each against the index before its batch and
/// the earlier documents of its own batch) finds what checking one at a time finds, on real
/// stories whatever the batch size, with the paper's fixed range and the derived one.
#[test]
fn batches_find_what_one_document_at_a_time_finds() {
    let stories = [
        "Shares rose on Monday. The bank reported strong profits. Analysts were surprised.",
        "The bank reported strong profits. Shares rose on Monday.",
        "Rain fell across the north. Farmers welcomed the rain.",
        "Farmers welcomed the rain. Rain fell across the north. Roads were closed.",
        "The bank reported strong profits. Analysts were surprised. Rain fell across the north.",
        "A new bridge opened in the city. Traffic eased at once.",
        "Traffic eased at once. A new bridge opened in the city.",
    ];
    let docs: Vec<Vec<Vec<String>>> = stories
        .iter()
        .map(|s| s.trim_end_matches('.').split(". ").map(words).collect())
        .collect();
    let c = Collection::from_terms(vec![], docs, vec![]);
    for params in [
        QSignParams::default(),
        QSignParams {
            adaptive: Some(AdaptiveRange {
                word_flexibility: 1,
                false_hit_rate: 0.1,
            }),
            ..QSignParams::default()
        },
    ] {
        let one_at_a_time = without_job(|job| detect_in_batches(&c, &params, job, 1)).unwrap();
        assert!(one_at_a_time.pairs.len() >= 4, "{one_at_a_time:?}");
        for batch in [2, 3, 7, BATCH] {
            let batched = without_job(|job| detect_in_batches(&c, &params, job, batch)).unwrap();
            assert_eq!(batched, one_at_a_time, "batch {batch}");
        }
    }
}
