//! The unaligned bound of [`super::pair_relations`] against the aligned Sims it bounds, on
//! random sentences of inflected words under random WordNet relations and weights: never
//! below either directional Sim (whole sets and content terms), and a pair it rules out is one
//! the exact scoring would not keep; the same for the first, looser look of
//! [`super::pair_bound`], which is never below the exact bound but for rounding. The index-against-brute-force property
//! (`tests/wordnet_properties.rs`) checks the same end to end.

use proptest::prelude::*;

use super::pair_bound::PairBound;
use super::pair_relations::{LemmaRelations, PairRelations};
use super::pair_sims::{AlignScratch, content_sequence};
use super::*;
use crate::model::vocabulary::Vocabulary as Lemmas;
use crate::model::wordnet::{Lexicon, Relation};
use crate::similarity::table::TableModel;
use crate::similarity::{WordnetWeights, lexical::RelatedWords};
use crate::text::RefineOptions;
use crate::text::morphy::PartOfSpeech;

/// Lemmas; "university" / "universe" share a Snowball stem.
const LEMMAS: [&str; 10] = [
    "aid",
    "help",
    "walk",
    "stone",
    "river",
    "university",
    "universe",
    "light",
    "sound",
    "travel",
];
const SUFFIXES: [&str; 4] = ["", "s", "ed", "ing"];

fn lexicon_strategy() -> impl Strategy<Value = Lexicon> {
    prop::collection::vec((0..LEMMAS.len(), 0..LEMMAS.len(), 1u8..32), 0..40).prop_map(|pairs| {
        let mut sorted: Vec<&str> = LEMMAS.to_vec();
        sorted.sort_unstable();
        let lemmas = Lemmas::from_sorted(&sorted).expect("sorted lemmas");
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

/// Sentences of inflected lemmas, stopwords and numbers, long enough for words to fall in
/// different gaps.
fn sentences_strategy() -> impl Strategy<Value = Vec<String>> {
    let word = (0..LEMMAS.len() + 2, 0..SUFFIXES.len()).prop_map(|(l, s)| match l {
        l if l < LEMMAS.len() => format!("{}{}", LEMMAS[l], SUFFIXES[s]),
        l if l == LEMMAS.len() => "the".to_string(),
        _ => "42".to_string(),
    });
    let sentence = prop::collection::vec(word, 0..14).prop_map(|ws| ws.join(" "));
    prop::collection::vec(sentence, 1..5)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_unaligned_bound_is_never_below_the_aligned_sims(
        lexicon in lexicon_strategy(),
        (synonym, derived, hypernym) in (0u8..=4, 0u8..=4, 0u8..=4),
        a in sentences_strategy(),
        b in sentences_strategy(),
        floor in 0.05f64..1.0,
        content_floor in 0.0f64..0.6,
    ) {
        let weights = WordnetWeights {
            synonym: f64::from(synonym) / 4.0,
            derived: f64::from(derived) / 4.0,
            hypernym: f64::from(hypernym) / 4.0,
        };
        let model = TableModel::new().with_lexicon(lexicon);
        let rules = MatchRules {
            content_floor,
            related_words: RelatedWords::Wordnet(weights),
            min_terms: 0,
            ..MatchRules::WORDNET
        };
        let mut vocabulary = Vocabulary::new(&model);
        let mut prepare = |texts: &[String]| {
            let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
            vocabulary.prepare_texts_with(&texts, &model, &RefineOptions::MEASURED)
        };
        let (left, right) = (prepare(&a), prepare(&b));
        let lexical = Lexical::of(&model, &rules.related_words).expect("WordNet relations");
        let (mut relations, mut pair_relations) = (LemmaRelations::default(), PairRelations::default());
        let mut pair_bound = PairBound::default();
        let mut scratch = AlignScratch::default();
        let mut dp = Vec::new();
        let (mut l_seq, mut r_seq) = (Vec::new(), Vec::new());
        for l in &left.sentences {
            relations.fill(l, &lexical);
            pair_bound.prepare(l);
            for r in &right.sentences {
                pair_relations.fill(&relations, l, r);
                let words = WordsOf { lexical: &lexical, left: l, right: r };
                // The sets' bounds against the aligned Sims the scoring computes, by words.
                let whole = aligned_sims(&l.terms, &l.set, &r.terms, &r.set, &words, &mut dp);
                let whole_bound = pair_relations.bounds(l, r, false);
                prop_assert!(whole_bound.0 >= whole.0 && whole_bound.1 >= whole.1,
                    "sets: bound {whole_bound:?} below {whole:?}");
                content_sequence(l, &mut l_seq);
                content_sequence(r, &mut r_seq);
                let content = aligned_sims(&l_seq, l.content(), &r_seq, r.content(), &words, &mut dp);
                let content_bound = pair_relations.bounds(l, r, true);
                prop_assert!(content_bound.0 >= content.0 && content_bound.1 >= content.1,
                    "content: bound {content_bound:?} below {content:?}");
                // The first look's bound is at least the exact bound, but for rounding.
                for (exact, content) in [(whole_bound, false), (content_bound, true)] {
                    let first = pair_bound.bounds(&relations, l, r, content);
                    prop_assert!(first.0 >= exact.0 - 1e-12 && first.1 >= exact.1 - 1e-12,
                        "first look {first:?} below {exact:?} (content: {content})");
                }
                let first_may_keep = pair_bound.may_keep(&relations, l, r, &rules, floor, false);
                let first_both_ways = pair_bound.may_keep(&relations, l, r, &rules, floor, true);
                // The links give the alignment `c` as the lexicon does.
                let may_keep = pair_relations.may_keep(l, r, &rules, floor, false);
                let both_ways = pair_relations.may_keep(l, r, &rules, floor, true);
                let table = pair_relations.links(&relations, l, r);
                for &x in &l.set {
                    for &y in &r.set {
                        prop_assert_eq!(table.c(x, y), words.c(x, y));
                    }
                    prop_assert_eq!(table.left_relates(x), words.left_relates(x));
                }
                for &y in &r.set {
                    prop_assert_eq!(table.right_relates(y), words.right_relates(y));
                    let related: Vec<(TermId, f32)> = l.set.iter()
                        .map(|&x| (x, words.c(x, y)))
                        .filter(|&(_, c)| c > 0.0)
                        .collect();
                    prop_assert_eq!(table.right_links(y), Some(&related[..]));
                }
                for &x in &l.set {
                    let related: Vec<(TermId, f32)> = r.set.iter()
                        .map(|&y| (y, words.c(x, y)))
                        .filter(|&(_, c)| c > 0.0)
                        .collect();
                    prop_assert_eq!(table.left_links(x), Some(&related[..]));
                }
                // Aligned through the links, the same bits as through the lexicon.
                let linked = aligned_sims(&l.terms, &l.set, &r.terms, &r.set, &table, &mut dp);
                prop_assert_eq!(linked, whole);
                let linked = aligned_sims(&l_seq, l.content(), &r_seq, r.content(), &table, &mut dp);
                prop_assert_eq!(linked, content);
                // A pair ruled out is not kept by its exact Sims.
                let sims = lexical_sims(l, r, &rules, &words, &mut scratch, false);
                if !may_keep || !first_may_keep {
                    prop_assert!(kept(0, 0, sims, floor, l, r).is_none(), "{sims:?} at {floor}");
                }
                if !both_ways || !first_both_ways {
                    prop_assert!(sims.is_none_or(|(lr, rl)| lr.min(rl) < floor), "{sims:?} at {floor}");
                }
            }
        }
    }
}
