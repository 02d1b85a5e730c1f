//! Invariants of the matchers and comparisons on random documents and random correlation models:
//! the index finds exactly the pairs brute force finds, scores lie in [0, 1], swapping the
//! documents mirrors everything, and a document compared with itself overlaps fully.

use std::sync::atomic::AtomicBool;

use proptest::prelude::*;
use simdoc::compare::Preset;
use simdoc::compare::{CompareOptions, PreparedPair};
use simdoc::document::{SourceFormat, parse_text};
use simdoc::model::vectors::VectorParams;
use simdoc::model::{ModelParams, ReferenceModel, Relatedness, build_from_texts};
use simdoc::similarity::needed::{MAX_NEIGHBOURS_CHECKED, contract_violation};
use simdoc::similarity::table::TableModel;
use simdoc::similarity::{
    MatchRules, Method, ModelView, NeededPairs, Neighbours, PreparedDoc, Relate, ScoredPair,
    ScoringRequest, Thresholds,
};
use simdoc::text::RefineOptions;

const WORDS: usize = 24;

/// Words that survive refining unchanged (no stopwords, stemmer leaves them alone).
fn word(i: usize) -> String {
    format!("zq{i}x")
}

/// A random symmetric correlation table over `WORDS` words, and 4-gram counts.
fn model_strategy() -> impl Strategy<Value = TableModel> {
    (
        prop::collection::vec((0..WORDS, 0..WORDS, 1u32..=1000), 0..80),
        prop::collection::vec((0..WORDS, 1u32..50), 0..WORDS),
    )
        .prop_map(|(pairs, grams)| {
            let mut model = TableModel::new();
            for i in 0..WORDS {
                model.add_term(&word(i));
            }
            for (a, b, c) in pairs {
                model.set_correlation(&word(a), &word(b), c as f32 / 1000.0);
            }
            for (w, count) in grams {
                let g: String = word(w).chars().take(4).collect();
                model.set_fourgram(&g, count);
            }
            model
        })
}

/// A random plain-text document: paragraphs of sentences of random words (sometimes a word no
/// model knows, sometimes an empty-of-terms sentence).
fn doc_strategy() -> impl Strategy<Value = String> {
    let sentence = prop::collection::vec(0..WORDS + 3, 0..7).prop_map(|ws| {
        let words: Vec<String> = ws
            .into_iter()
            .map(|w| match w {
                w if w < WORDS => word(w),
                w if w == WORDS => "unknownword".to_string(),
                _ => "the".to_string(),
            })
            .collect();
        format!("Zz {}.", words.join(" "))
    });
    prop::collection::vec(prop::collection::vec(sentence, 1..5), 1..6).prop_map(|paras| {
        paras
            .into_iter()
            .map(|p| p.join(" "))
            .collect::<Vec<_>>()
            .join("\n\n")
    })
}

/// A document that repeats a few sentences many times, in paragraphs and as headings.
fn repetitive_doc_strategy() -> impl Strategy<Value = String> {
    let sentence = prop::collection::vec(0..WORDS + 3, 1..6).prop_map(|ws| {
        let words: Vec<String> = ws
            .into_iter()
            .map(|w| match w {
                w if w < WORDS => word(w),
                w if w == WORDS => "unknownword".to_string(),
                _ => "the".to_string(),
            })
            .collect();
        format!("Zz {}.", words.join(" "))
    });
    (
        prop::collection::vec(sentence, 1..4),
        prop::collection::vec(prop::collection::vec(0usize..4, 1..6), 1..8),
    )
        .prop_map(|(sentences, paras)| {
            paras
                .into_iter()
                .enumerate()
                .map(|(n, p)| {
                    let body: Vec<&str> = p
                        .iter()
                        .map(|&i| sentences[i % sentences.len()].as_str())
                        .collect();
                    let heading = if n % 3 == 0 {
                        "# Zz zq1x zq2x zq3x\n\n"
                    } else {
                        ""
                    };
                    format!("{heading}{}", body.join(" "))
                })
                .collect::<Vec<_>>()
                .join("\n\n")
        })
}

fn prepared(a: &str, b: &str, model: &TableModel) -> PreparedPair {
    prepared_with(a, b, model, &CompareOptions::default())
}

fn prepared_with(a: &str, b: &str, model: &TableModel, options: &CompareOptions) -> PreparedPair {
    let left = parse_text(a, "a.txt", SourceFormat::Text);
    let right = parse_text(b, "b.txt", SourceFormat::Text);
    PreparedPair::new(&left, &right, model, options)
}

/// What `method`'s index and its brute force find for `left` against `right`, each sorted by
/// (left, right) sentence.
fn indexed_and_brute(
    method: Method,
    (left, right): (&PreparedDoc, &PreparedDoc),
    model: &dyn ModelView,
    floor: f64,
    rules: &MatchRules,
) -> (Vec<ScoredPair>, Vec<ScoredPair>) {
    let matcher = method.matcher();
    let request = ScoringRequest {
        left,
        right,
        model,
        floor,
        rules,
    };
    let mut indexed = matcher
        .score_pairs(&request, &AtomicBool::new(false))
        .expect("never cancelled");
    let mut brute = matcher.score_pairs_brute_force(&request);
    indexed.sort_by_key(|p| (p.left, p.right));
    brute.sort_by_key(|p| (p.left, p.right));
    (indexed, brute)
}

/// Every refinement and rule set the matchers must be exact under: the two presets, stopwords
/// and numbers kept with and without a content floor, and no rule at all.
fn option_sets() -> Vec<CompareOptions> {
    let keep_all = RefineOptions {
        keep_stopwords: true,
        keep_numbers: true,
    };
    let mut sets = Vec::new();
    for preset in [Preset::MEASURED, Preset::THESIS] {
        for refine in [preset.refine, keep_all] {
            sets.push(CompareOptions {
                refine,
                rules: preset.rules,
                ..CompareOptions::default()
            });
        }
    }
    sets.push(CompareOptions {
        refine: keep_all,
        rules: MatchRules {
            min_terms: 2,
            content_floor: 0.35,
            relate: Relate::All,
            ..MatchRules::MEASURED
        },
        ..CompareOptions::default()
    });
    for refine in [RefineOptions::THESIS, keep_all] {
        sets.push(CompareOptions {
            refine,
            rules: MatchRules {
                relate: Relate::Aligned,
                ..MatchRules::MEASURED
            },
            ..CompareOptions::default()
        });
    }
    sets
}

/// A reference model with word-vector relatedness, learned from texts over the test's words
/// (each word used beside a few others), so that its correlations are what a vectors model
/// stores rather than hand-set values.
fn vectors_model() -> &'static ReferenceModel {
    static MODEL: std::sync::LazyLock<ReferenceModel> = std::sync::LazyLock::new(|| {
        let texts: Vec<String> = (0..WORDS)
            .map(|i| {
                (0..6)
                    .map(|k| {
                        format!(
                            "{} {} {}.",
                            word(i),
                            word((i + 1 + k % 3) % WORDS),
                            word((i * 7 + k) % WORDS)
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let params = ModelParams {
            relatedness: Relatedness::Vectors(VectorParams {
                window: 2,
                dimensions: 8,
                min_count: 1,
                threshold: 0.1,
                scale: 1.5,
            }),
            floor: 0.0,
            per_term: 8,
            ..ModelParams::default()
        };
        build_from_texts(&refs, &params).expect("a small vectors model")
    });
    &MODEL
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The index is exact whatever kind of relatedness the model holds: word vectors here.
    #[test]
    fn index_equals_brute_force_with_word_vectors(
        a in doc_strategy(),
        b in doc_strategy(),
        floor in 0.05f64..1.0,
    ) {
        let model = vectors_model();
        for options in option_sets() {
            let left = parse_text(&a, "a.txt", SourceFormat::Text);
            let right = parse_text(&b, "b.txt", SourceFormat::Text);
            let pair = PreparedPair::new(&left, &right, model, &options);
            for method in [Method::Fuzzy, Method::Overlap] {
                let (indexed, brute) =
                    indexed_and_brute(method, (&pair.left, &pair.right), model, floor, &pair.rules);
                prop_assert_eq!(&indexed, &brute, "method {} options {:?}", method.name(), options);
                for p in &indexed {
                    prop_assert!((0.0..=1.0).contains(&p.sim_lr) && (0.0..=1.0).contains(&p.sim_rl));
                }
            }
        }
    }

    #[test]
    fn index_equals_brute_force(
        model in model_strategy(),
        a in doc_strategy(),
        b in doc_strategy(),
        floor in 0.05f64..1.0,
    ) {
        for options in option_sets() {
            let pair = prepared_with(&a, &b, &model, &options);
            let rules = &pair.rules;
            for method in Method::ALL {
                let (indexed, brute) =
                    indexed_and_brute(method, (&pair.left, &pair.right), &model, floor, rules);
                prop_assert_eq!(&indexed, &brute, "method {} options {:?}", method.name(), options);
                for p in &indexed {
                    prop_assert!((0.0..=1.0).contains(&p.sim_lr) && (0.0..=1.0).contains(&p.sim_rl));
                    prop_assert!(p.sim_lr.max(p.sim_rl) >= floor);
                }
            }
        }
    }

    /// A document against itself (the same object, as a collection's sentences are matched:
    /// the candidates are searched one way round) gives the brute-force pairs; asked for the
    /// pairs reaching the floor both ways only, the index gives exactly those of brute force.
    #[test]
    fn index_equals_brute_force_against_itself_and_both_ways(
        model in model_strategy(),
        a in doc_strategy(),
        b in doc_strategy(),
        floor in 0.05f64..1.0,
    ) {
        let cancel = AtomicBool::new(false);
        for options in option_sets() {
            let pair = prepared_with(&a, &b, &model, &options);
            let rules = &pair.rules;
            for method in [Method::Fuzzy, Method::Overlap] {
                let matcher = method.matcher();
                let both_ways = |pairs: &[ScoredPair]| -> Vec<ScoredPair> {
                    let mut kept: Vec<ScoredPair> =
                        pairs.iter().filter(|p| p.min_sim() >= floor).copied().collect();
                    kept.sort_by_key(|p| (p.left, p.right));
                    kept
                };
                let (itself, brute) =
                    indexed_and_brute(method, (&pair.left, &pair.left), &model, floor, rules);
                prop_assert_eq!(&itself, &brute, "itself: method {} options {:?}", method.name(), options);
                for (left, right) in [(&pair.left, &pair.left), (&pair.left, &pair.right)] {
                    let request = ScoringRequest { left, right, model: &model, floor, rules };
                    let needed = matcher
                        .score_needed_pairs(&request, NeededPairs::BothWays, &cancel)
                        .unwrap();
                    let brute = matcher.score_pairs_brute_force(&request);
                    prop_assert_eq!(both_ways(&needed), both_ways(&brute), "both ways: method {} options {:?}", method.name(), options);
                }
            }
        }
    }

    /// Asked for the pairs a comparison needs, given the sentences' neighbours (in reading
    /// order, or drawn at random as the classes of repeated sentences make them, some past the
    /// most checked), every matcher keeps what the contract of `similarity::needed` names: a
    /// subset of its pairs with the two-way pairs, each sentence's best one-way pair and the
    /// one-way pairs a neighbour shares.
    #[test]
    fn the_needed_pairs_keep_what_their_contract_names(
        model in model_strategy(),
        a in doc_strategy(),
        b in doc_strategy(),
        floor in 0.05f64..1.0,
        scattered in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let cancel = AtomicBool::new(false);
        for options in option_sets() {
            let pair = prepared_with(&a, &b, &model, &options);
            let rules = &pair.rules;
            let neighbours = |len: usize, salt: u64| {
                if !scattered {
                    return Neighbours::in_order(len);
                }
                // Each sentence gets a few neighbours anywhere in the document, or (one in
                // seven) more than are checked.
                let mut state = seed ^ salt;
                let mut next = move || {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (state >> 33) as usize
                };
                Neighbours::new((0..len).map(|_| {
                    let count = if next() % 7 == 0 { MAX_NEIGHBOURS_CHECKED + 1 } else { next() % 4 };
                    (0..count).map(|_| (next() % len.max(1)) as u32).collect::<Vec<u32>>()
                }))
            };
            let near_left = neighbours(pair.left.sentences.len(), 1);
            let near_right = neighbours(pair.right.sentences.len(), 2);
            let request =
                ScoringRequest { left: &pair.left, right: &pair.right, model: &model, floor, rules };
            for method in Method::ALL {
                let matcher = method.matcher();
                let all = matcher.score_pairs(&request, &cancel).unwrap();
                for needed in [
                    NeededPairs::WithOneWay { left: &near_left, right: &near_right },
                    NeededPairs::BothWays,
                ] {
                    let returned = matcher.score_needed_pairs(&request, needed, &cancel).unwrap();
                    let violation = contract_violation(&all, &returned, floor, needed);
                    prop_assert!(violation.is_none(), "{:?}: method {} options {:?}", violation, method.name(), options);
                }
            }
        }
    }

    /// Matching classes of repeated sentences lists exactly the pairs sentence-by-sentence
    /// brute force finds, and the figures from the classes equal those counted pair by pair.
    #[test]
    fn classes_change_no_pair_and_no_figure(
        model in model_strategy(),
        a in repetitive_doc_strategy(),
        b in prop_oneof![repetitive_doc_strategy(), doc_strategy()],
        floor in 0.05f64..1.0,
        permission in 0.05f64..1.0,
        variation in 0.0f64..1.0,
    ) {
        let cancel = AtomicBool::new(false);
        let thresholds = Thresholds { permission: permission.max(floor), variation, max_e_value: None, min_words: 0 };
        for options in option_sets() {
            // Every partner kept: the classes are checked against every pair (each sentence
            // keeping its best partners is checked below).
            let options = CompareOptions { partners_kept: 0, ..options };
            let pair = prepared_with(&a, &b, &model, &options);
            for method in Method::ALL {
                let cmp = pair.compare(&model, method, floor, &cancel).unwrap();
                prop_assert!(cmp.capped.is_empty());
                let request = ScoringRequest {
                    left: &pair.left,
                    right: &pair.right,
                    model: &model,
                    floor,
                    rules: &pair.rules,
                };
                let mut brute = method.matcher().score_pairs_brute_force(&request);
                brute.sort_by_key(|p| (p.left, p.right));
                // The comparison keeps the pairs its matches and containment need.
                let brute = simdoc::compare::pruning::keep_needed(
                    brute,
                    floor,
                    pair.left.sentences.len(),
                    pair.right.sentences.len(),
                );
                prop_assert_eq!(&cmp.pairs, &brute, "method {}", method.name());
                let matches: Vec<_> = cmp.matches(&thresholds).copied().collect();
                prop_assert_eq!(
                    cmp.figures_given(&matches, &thresholds),
                    cmp.figures(&thresholds),
                    "method {}", method.name()
                );
                prop_assert_eq!(
                    cmp.figures(&thresholds),
                    cmp.figures_of(&matches, &thresholds),
                    "method {} options {:?}", method.name(), options
                );
            }
        }
    }

    /// Each sentence keeping its best partner changes no matched sentence (the variation off)
    /// and no containment, at any permission from the floor up: one keeps its best partner by
    /// the smaller Sim and its best by its own Sim. One-to-two matches are off (they are looked
    /// for among the partners kept). With headings and fragments not counted, a sentence's best
    /// partner may be one that does not count: the cap ranks counted partners apart, or the
    /// figures would miss the best counted one (a class of four counted sentences behind a
    /// fragment went from matched to unmatched before it did).
    #[test]
    fn keeping_the_best_partners_changes_no_match_nor_containment(
        model in model_strategy(),
        a in repetitive_doc_strategy(),
        b in prop_oneof![repetitive_doc_strategy(), doc_strategy()],
        floor in 0.05f64..0.6,
        step in 0.0f64..1.0,
    ) {
        let cancel = AtomicBool::new(false);
        let permission = floor + step * (1.0 - floor);
        let thresholds = Thresholds { permission, variation: 1.0, max_e_value: None, min_words: 0 };
        let both_ways_of_counting = option_sets()
            .into_iter()
            .flat_map(|o| [(o, true), (o, false)]);
        for (options, count_fragments) in both_ways_of_counting {
            let run = |partners_kept: usize| {
                let options = CompareOptions {
                    partners_kept,
                    one_to_two: false,
                    count_fragments,
                    ..options
                };
                let pair = prepared_with(&a, &b, &model, &options);
                pair.compare(&model, Method::Fuzzy, floor, &cancel).unwrap()
            };
            let (capped, every) = (run(1), run(0));
            prop_assert!(capped.pairs.len() <= every.pairs.len());
            let (c, e) = (capped.figures(&thresholds), every.figures(&thresholds));
            prop_assert_eq!(
                c.matched,
                e.matched,
                "options {:?}, fragments counted: {}", options, count_fragments
            );
            prop_assert_eq!(
                capped.containment(permission),
                every.containment(permission),
                "options {:?}, fragments counted: {}", options, count_fragments
            );
        }
    }

    #[test]
    fn swapping_documents_mirrors_everything(
        model in model_strategy(),
        a in doc_strategy(),
        b in doc_strategy(),
    ) {
        let cancel = AtomicBool::new(false);
        let options = CompareOptions::default();
        let ab = prepared(&a, &b, &model).compare(&model, options.method, options.floor, &cancel).unwrap();
        let ba = prepared(&b, &a, &model).compare(&model, options.method, options.floor, &cancel).unwrap();
        prop_assert_eq!(&ab.swapped(), &ba);
        let t = Thresholds::THESIS;
        prop_assert_eq!(ab.figures(&t).swapped(), ba.figures(&t));
    }

    #[test]
    fn a_document_overlaps_itself_fully(model in model_strategy(), a in doc_strategy()) {
        let cancel = AtomicBool::new(false);
        for method in Method::ALL {
            let cmp = prepared(&a, &a, &model).compare(&model, method, 0.5, &cancel).unwrap();
            let f = cmp.figures(&Thresholds::THESIS);
            if f.sentences[0] > 0 {
                prop_assert_eq!(f.overlap, [1.0, 1.0]);
                prop_assert_eq!(f.resemblance, [1.0, 1.0]);
                prop_assert_eq!(f.odds_ratio, 100.0);
            } else {
                prop_assert_eq!(f.odds_ratio, 0.0);
            }
        }
    }
}

#[test]
fn thresholds_filter_without_rescoring() {
    let mut model = TableModel::new();
    model.set_correlation("zq1x", "zq2x", 0.6);
    let pair = prepared("Zz zq1x zq3x.", "Zz zq2x zq3x.", &model);
    let cancel = AtomicBool::new(false);
    let cmp = pair.compare(&model, Method::Fuzzy, 0.5, &cancel).unwrap();
    // "zz" is a term too: {zz, zq1x, zq3x} vs {zz, zq2x, zq3x}: mu = 1, 0.6, 1 -> 0.8667 both ways.
    assert_eq!(cmp.pairs.len(), 1);
    let sim = cmp.pairs[0].sim_lr;
    assert!((sim - (2.6 / 3.0)).abs() < 1e-6, "{sim}");
    let strict = Thresholds {
        permission: 0.9,
        variation: 0.15,
        max_e_value: None,
        min_words: 0,
    };
    let lenient = Thresholds {
        permission: 0.85,
        variation: 0.15,
        max_e_value: None,
        min_words: 0,
    };
    assert_eq!(cmp.matches(&strict).count(), 0);
    assert_eq!(cmp.matches(&lenient).count(), 1);
    assert!(cmp.covers(&lenient));
    assert!(!cmp.covers(&Thresholds {
        permission: 0.4,
        variation: 0.1,
        max_e_value: None,
        min_words: 0,
    }));
}

#[test]
fn the_word_vector_model_relates_words() {
    let stats = vectors_model().stats();
    assert!(
        stats.correlation_entries >= 2 * WORDS,
        "{} entries",
        stats.correlation_entries
    );
}
