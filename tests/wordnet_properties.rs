//! WordNet relatedness is looked up by word, yet the fuzzy matcher's index stays exact: on random
//! documents of real inflected words (some sharing a stem but not a lemma, "university" and
//! "universe") and random WordNet relations and weights, the index finds exactly the pairs brute
//! force finds, with bit-identical Sims, under every refinement and place relatedness counts; and
//! a comparison decided by the learned verdict matches by the probability alone.

use std::sync::atomic::AtomicBool;

use proptest::prelude::*;
use simdoc::compare::Preset;
use simdoc::compare::{CompareOptions, PreparedPair};
use simdoc::document::{SourceFormat, parse_text};
use simdoc::model::vocabulary::Vocabulary;
use simdoc::model::wordnet::{Lexicon, Relation};
use simdoc::similarity::table::TableModel;
use simdoc::similarity::{
    MatchRules, Method, NeededPairs, Relate, RelatedWords, ScoredPair, ScoringRequest,
    WordnetWeights,
};
use simdoc::text::RefineOptions;
use simdoc::text::morphy::PartOfSpeech;

/// Lemmas; "university" / "universe" and "general" / "generous" share a Snowball stem each.
const LEMMAS: [&str; 12] = [
    "aid",
    "help",
    "walk",
    "stone",
    "river",
    "university",
    "universe",
    "general",
    "generous",
    "light",
    "sound",
    "travel",
];
const SUFFIXES: [&str; 4] = ["", "s", "ed", "ing"];

fn lexicon_strategy() -> impl Strategy<Value = Lexicon> {
    prop::collection::vec((0..LEMMAS.len(), 0..LEMMAS.len(), 1u8..32), 0..30).prop_map(|pairs| {
        let mut sorted: Vec<&str> = LEMMAS.to_vec();
        sorted.sort_unstable();
        let lemmas = Vocabulary::from_sorted(&sorted).expect("sorted lemmas");
        let parts = vec![PartOfSpeech::Noun.bit() | PartOfSpeech::Verb.bit(); sorted.len()];
        let id = |w: &str| lemmas.id(w).expect("a lemma");
        let pairs = pairs
            .into_iter()
            .filter(|(a, b, _)| a != b)
            .filter_map(|(a, b, bits)| {
                Some((id(LEMMAS[a]), id(LEMMAS[b]), Relation::from_bits(bits)?))
            })
            .collect();
        Lexicon::new(String::new(), lemmas, parts, Vec::new(), pairs).expect("a lexicon")
    })
}

fn weights_strategy() -> impl Strategy<Value = WordnetWeights> {
    (0u8..=4, 0u8..=4, 0u8..=4).prop_map(|(s, d, h)| WordnetWeights {
        synonym: f64::from(s) / 4.0,
        derived: f64::from(d) / 4.0,
        hypernym: f64::from(h) / 4.0,
    })
}

/// Paragraphs of sentences of inflected lemmas, stopwords and numbers.
fn doc_strategy() -> impl Strategy<Value = String> {
    let word = (0..LEMMAS.len() + 2, 0..SUFFIXES.len()).prop_map(|(l, s)| match l {
        l if l < LEMMAS.len() => format!("{}{}", LEMMAS[l], SUFFIXES[s]),
        l if l == LEMMAS.len() => "the".to_string(),
        _ => "42".to_string(),
    });
    let sentence = prop::collection::vec(word, 0..7).prop_map(|ws| format!("Zz {}.", ws.join(" ")));
    prop::collection::vec(prop::collection::vec(sentence, 1..4), 1..5).prop_map(|paras| {
        paras
            .into_iter()
            .map(|p| p.join(" "))
            .collect::<Vec<_>>()
            .join("\n\n")
    })
}

fn sorted(mut pairs: Vec<ScoredPair>) -> Vec<ScoredPair> {
    pairs.sort_by_key(|p| (p.left, p.right));
    pairs
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_index_is_exact_with_wordnet_relations_between_words(
        lexicon in lexicon_strategy(),
        weights in weights_strategy(),
        a in doc_strategy(),
        b in doc_strategy(),
        floor in 0.05f64..1.0,
    ) {
        let model = TableModel::new().with_lexicon(lexicon);
        let cancel = AtomicBool::new(false);
        for refine in [RefineOptions::THESIS, RefineOptions::MEASURED] {
            for relate in [Relate::All, Relate::Aligned] {
                for content_floor in [0.0, 0.2] {
                    let rules = MatchRules {
                        relate,
                        content_floor,
                        related_words: RelatedWords::Wordnet(weights),
                        ..MatchRules::MEASURED
                    };
                    let options = CompareOptions { refine, rules, ..CompareOptions::default() };
                    let left = parse_text(&a, "a.txt", SourceFormat::Text);
                    let right = parse_text(&b, "b.txt", SourceFormat::Text);
                    let pair = PreparedPair::new(&left, &right, &model, &options);
                    let matcher = Method::Fuzzy.matcher();
                    let request = ScoringRequest {
                        left: &pair.left,
                        right: &pair.right,
                        model: &model,
                        floor,
                        rules: &rules,
                    };
                    let brute = sorted(matcher.score_pairs_brute_force(&request));
                    let indexed = sorted(matcher.score_pairs(&request, &cancel).unwrap());
                    prop_assert_eq!(&indexed, &brute, "{:?}", rules);
                    // Against itself, both ways only (a collection's sentences).
                    let within = ScoringRequest::within(&pair.left, &model, floor, &rules);
                    let itself = sorted(matcher
                        .score_needed_pairs(&within, NeededPairs::BothWays, &cancel)
                        .unwrap());
                    let brute_itself: Vec<ScoredPair> = sorted(matcher
                        .score_pairs_brute_force(&within))
                        .into_iter()
                        .filter(|p| p.min_sim() >= floor)
                        .collect();
                    prop_assert_eq!(&itself, &brute_itself, "itself {:?}", rules);
                    for p in &indexed {
                        prop_assert!((0.0..=1.0).contains(&p.sim_lr) && (0.0..=1.0).contains(&p.sim_rl));
                    }
                }
            }
        }
    }
}

/// "universe" and "university" share the stem "univers" but not a lemma: related by WordNet to
/// different words, each is related only to its own.
#[test]
fn a_stem_shared_by_two_words_relates_by_the_word_written() {
    let mut sorted = vec!["cosmos", "universe", "university", "college"];
    sorted.sort_unstable();
    let lemmas = Vocabulary::from_sorted(&sorted).unwrap();
    let id = |w: &str| lemmas.id(w).unwrap();
    let pairs = vec![
        (id("universe"), id("cosmos"), Relation::SYNONYM),
        (id("university"), id("college"), Relation::HYPERNYM),
    ];
    let parts = vec![PartOfSpeech::Noun.bit(); 4];
    let lexicon = Lexicon::new(String::new(), lemmas, parts, Vec::new(), pairs).unwrap();
    let model = TableModel::new().with_lexicon(lexicon);
    let options = CompareOptions {
        refine: RefineOptions::THESIS,
        rules: MatchRules {
            relate: Relate::All,
            related_words: RelatedWords::Wordnet(WordnetWeights::TRIAL),
            ..Preset::WORDNET.rules
        },
        one_to_two: false,
        ..CompareOptions::default()
    };
    // One document holds both words, so a table by stem would relate "universe" to "college".
    let left = parse_text("Universe.\n\nUniversity.", "a.txt", SourceFormat::Text);
    let right = parse_text("College.\n\nCosmos.", "b.txt", SourceFormat::Text);
    let pair = PreparedPair::new(&left, &right, &model, &options);
    let comparison = pair
        .compare(&model, Method::Fuzzy, 0.05, &AtomicBool::new(false))
        .unwrap();
    let found: Vec<(u32, u32, f64, f64)> = comparison
        .pairs
        .iter()
        .map(|p| (p.left, p.right, p.sim_lr, p.sim_rl))
        .collect();
    // TRIAL weights: a synonym counts 1, a hypernym 0.5.
    assert_eq!(found, vec![(0, 1, 1.0, 1.0), (1, 0, 0.5, 0.5)]);
}
