//! Figures of whole comparisons on hand-made documents with exact expected values.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::document::{SourceFormat, parse_text};
use crate::similarity::table::TableModel;
use crate::similarity::{JoinSide, NeededPairs, ScoringRequest, Thresholds};

fn compare_texts(a: &str, b: &str, model: &TableModel) -> Comparison {
    let left = parse_text(a, "a.txt", SourceFormat::Text);
    let right = parse_text(b, "b.txt", SourceFormat::Text);
    let never = AtomicBool::new(false);
    compare(&left, &right, model, &CompareOptions::default(), &never).expect("not cancelled")
}

const LOOSE: Thresholds = Thresholds {
    permission: 0.5,
    variation: 1.0,
    max_e_value: None,
    min_words: 0,
};

#[test]
fn containment_averages_each_sentences_best_sim() {
    let model = TableModel::new();
    // A1 ~ B1: three of four words shared both ways (Sim 0.75); A2 has no partner.
    let c = compare_texts(
        "Alpha beta gamma delta. Unrelated words entirely here.",
        "Alpha beta gamma epsilon.",
        &model,
    );
    let f = c.figures(&LOOSE);
    assert_eq!(f.containment, [0.375, 0.75]);
    assert_eq!(f.resemblance, [0.5, 1.0]);
    // Above the Sim, nothing counts.
    let strict = Thresholds {
        permission: 0.8,
        variation: 1.0,
        max_e_value: None,
        min_words: 0,
    };
    assert_eq!(c.figures(&strict).containment, [0.0, 0.0]);
    assert_eq!(c.swapped().figures(&LOOSE).containment, [0.75, 0.375]);
}

#[test]
fn containment_is_directional_where_eq_is_not() {
    let model = TableModel::new();
    // The short sentence is all inside the long one: Sim 1 one way, 0.5 the other.
    let c = compare_texts(
        "Alpha beta gamma delta.",
        "Alpha beta gamma delta epsilon zeta eta theta.",
        &model,
    );
    let strict_variation = Thresholds {
        permission: 0.5,
        variation: 0.2,
        max_e_value: None,
        min_words: 0,
    };
    let f = c.figures(&strict_variation);
    assert_eq!(f.pairs, 0, "EQ rejects a subset (thesis 3.2.2)");
    assert_eq!(f.containment, [1.0, 0.5]);
}

#[test]
fn a_split_sentence_is_matched_one_to_two() {
    let model = TableModel::new();
    let c = compare_texts(
        "Alpha beta gamma delta. Epsilon zeta eta theta.",
        "Alpha beta gamma delta epsilon zeta eta theta.",
        &model,
    );
    let thresholds = Thresholds {
        permission: 0.8,
        variation: 0.15,
        max_e_value: None,
        min_words: 0,
    };
    let matches: Vec<ScoredPair> = c.matches(&thresholds).copied().collect();
    assert_eq!(matches.len(), 2);
    assert!(
        matches
            .iter()
            .all(|p| p.joined.map(|j| j.side) == Some(JoinSide::Left))
    );
    let f = c.figures(&thresholds);
    assert_eq!(f.matched, [2, 1]);
    assert_eq!(f.common, 1);
    assert_eq!(f.containment, [1.0, 1.0]);
    // Swapped, the join is on the other side and the figures mirror.
    let s = c.swapped();
    let swapped: Vec<ScoredPair> = s.matches(&thresholds).copied().collect();
    assert!(
        swapped
            .iter()
            .all(|p| p.joined.map(|j| j.side) == Some(JoinSide::Right))
    );
    assert_eq!(s.figures(&thresholds), f.swapped());
}

/// Chinese has no spaces between words: a whole clause was one term, so two Chinese texts
/// sharing sentences had no sentence counted (a fragment) and figures of 0. Read as character
/// pairs, the shared sentences count and a reworded one matches in part.
#[test]
fn chinese_texts_sharing_sentences_have_their_figures() {
    let model = TableModel::new();
    let a = "北京是中国的首都，也是一座历史悠久的城市。上海是中国最大的经济中心之一。\
             今天天气很好，我们去公园散步吧。";
    let b = "上海是中国最大的经济中心之一。北京是中国的首都，也是一座历史悠久的城市。\
             这本书非常有意思。";
    let comparison = compare_texts(a, b, &model);
    let figures = comparison.figures(&Thresholds::default());
    assert_eq!(figures.sentences, [3, 3]);
    assert_eq!(figures.matched, [2, 2]);
    assert_eq!(comparison.identical_pairs(&Thresholds::default()), 2);
    let reworded = compare_texts(a, "北京是中国的首都，也是一座古老而美丽的城市。", &model);
    let figures = reworded.figures(&Thresholds::default());
    assert_eq!(figures.matched, [1, 1]);
    assert_eq!(reworded.identical_pairs(&Thresholds::default()), 0);
}

/// What must not change when the matcher keeps only the needed one-way pairs: the pairs
/// listed, the one-to-two matches, and the matches and figures at permissions from the floor up.
fn assert_same_result(name: &str, needed: &Comparison, every: &Comparison) {
    assert_eq!(needed.pairs, every.pairs, "{name}: pairs");
    assert_eq!(needed.joined, every.joined, "{name}: one-to-two matches");
    for step in 0..=12 {
        for variation in [0.15, 1.0] {
            let thresholds = Thresholds {
                permission: needed.floor + 0.05 * f64::from(step),
                variation,
                max_e_value: None,
                min_words: 0,
            };
            let matched =
                |c: &Comparison| -> Vec<ScoredPair> { c.matches(&thresholds).copied().collect() };
            assert_eq!(matched(needed), matched(every), "{name}: {thresholds:?}");
            assert_eq!(
                needed.figures(&thresholds),
                every.figures(&thresholds),
                "{name}: {thresholds:?}"
            );
        }
    }
}

/// Compares `a` with `b` and `b` with `a`, from the needed pairs and from every pair, and
/// asserts the same result; returns how many class pairs the matcher kept of how many, `a`
/// against `b`, and how many pairs of one-to-two matches there were both ways.
fn compare_both_ways(name: &str, a: &str, b: &str) -> (usize, usize, usize) {
    let a = parse_text(a, "a.txt", SourceFormat::Text);
    let b = parse_text(b, "b.txt", SourceFormat::Text);
    let (needed, every, joined) = needed_against_every_pair(name, &a, &b);
    let (_, _, joined_back) = needed_against_every_pair(name, &b, &a);
    (needed, every, joined + joined_back)
}

fn needed_against_every_pair(
    name: &str,
    left: &Document,
    right: &Document,
) -> (usize, usize, usize) {
    let model = crate::model::ReferenceModel::embedded();
    // Every partner kept: what is checked here is that the needed one-way pairs lose nothing
    // (capping each sentence's partners drops some by design: `tests/partners_capped.rs`).
    let options = CompareOptions {
        partners_kept: 0,
        ..CompareOptions::default()
    };
    let pair = PreparedPair::new(left, right, model, &options);
    let never = AtomicBool::new(false);
    let needed = pair
        .compare(model, Method::Fuzzy, options.floor, &never)
        .expect("not cancelled");
    let every = pair.compare_keeping_every_pair(model, Method::Fuzzy, options.floor);
    assert_same_result(name, &needed, &every);
    let (left_classes, left_representatives) = SentenceClasses::group(&pair.left);
    let (right_classes, right_representatives) = SentenceClasses::group(&pair.right);
    let neighbours = [&left_classes, &right_classes].map(|c| classes::neighbours(c, true));
    let matcher = Method::Fuzzy.matcher();
    let request = ScoringRequest {
        left: &left_representatives,
        right: &right_representatives,
        model,
        floor: options.floor,
        rules: &pair.rules,
    };
    let needed_pairs = matcher.score_needed_pairs(
        &request,
        NeededPairs::WithOneWay {
            left: &neighbours[0],
            right: &neighbours[1],
        },
        &never,
    );
    let every_pair = matcher.score_pairs(&request, &never);
    let count = |pairs: Result<Vec<ScoredPair>, Cancelled>| pairs.expect("not cancelled").len();
    (count(needed_pairs), count(every_pair), every.joined.len())
}

#[test]
fn the_needed_pairs_give_the_comparison_of_every_pair() {
    let guinea = include_str!("../../assets/examples/guinea.md");
    let history = include_str!("../../assets/examples/history-of-guinea.md");
    let (needed, every, _) = compare_both_ways("guinea", guinea, history);
    assert!(needed < every, "{needed} of {every} pairs kept");
    // Split and glued sentences, a repeated heading and a repeated line between them.
    let split = "Contents. The committee approved the budget. It takes effect in March. \
                 Contents. Share this. The mayor opened the bridge. It links two districts. \
                 Share this. Contents.";
    let glued = "Contents. The committee approved the budget and it takes effect in March. \
                 Share this. The mayor opened the bridge, which links two districts. Contents. \
                 Share this. Share this.";
    let (_, _, joined) = compare_both_ways("split and glued", split, glued);
    assert!(joined > 0, "the glued sentences are matched one-to-two");
    let (_, _, joined) =
        compare_both_ways("guinea split", guinea, &guinea.replace(", and ", ". And "));
    assert!(joined > 0, "the split sentences are matched one-to-two");
}

/// [`the_needed_pairs_give_the_comparison_of_every_pair`] on real texts: BBC summaries against
/// their articles and Wikipedia runs (build.rs sets `simdoc_data` when `SIMDOC_DATA` is set).
#[test]
#[cfg_attr(
    not(simdoc_data),
    ignore = "needs SIMDOC_DATA (the shared data folder)"
)]
fn the_needed_pairs_give_the_comparison_of_every_pair_on_real_texts() {
    let data = std::env::var_os("SIMDOC_DATA").expect("SIMDOC_DATA names the shared data folder");
    let data = std::path::Path::new(&data);
    let summaries = data.join("documents/bbc-news-summaries/BBC News Summary/Summaries/business");
    let articles = data.join("documents/bbc-news/bbc/business");
    let mut joined = 0;
    for n in 1..=20 {
        let name = format!("{n:03}.txt");
        let read = |dir: &std::path::Path| std::fs::read_to_string(dir.join(&name));
        let (Ok(summary), Ok(article)) = (read(&summaries), read(&articles)) else {
            panic!("BBC business {name} is in the shared data");
        };
        joined += compare_both_ways(&format!("BBC business {name}"), &article, &summary).2;
    }
    assert!(joined > 0, "some summaries glue their articles' sentences");
    let wiki = data.join("reference/enwiki-2015/text/AA");
    let run = |file: &str| -> String {
        let entries = crate::corpus::read_entries(&wiki.join(file), &Default::default())
            .expect("the enwiki file is in the shared data");
        entries
            .iter()
            .take(8)
            .map(|e| format!("{}\n\n", e.text))
            .collect()
    };
    let (a, b) = (run("wiki_00"), run("wiki_01"));
    let (needed, every, _) = compare_both_ways("Wikipedia runs", &a, &format!("{b}{a}"));
    println!("Wikipedia runs: {needed} of {every} pairs kept");
    assert!(needed * 2 < every, "{needed} of {every} pairs kept");
}

/// The bundled example article compared with itself under `rules`, matches judged against
/// chance.
fn example_against_itself(rules: crate::similarity::MatchRules) -> Comparison {
    let options = CompareOptions {
        chance_search: Some(chance::ChanceSearch::DEFAULT),
        rules,
        ..CompareOptions::default()
    };
    let text = include_str!("../../assets/examples/guinea.md");
    let doc = parse_text(text, "guinea.md", SourceFormat::Text);
    let model = crate::model::ReferenceModel::embedded();
    compare(&doc, &doc, &model, &options, &AtomicBool::new(false)).expect("runs")
}

#[test]
fn a_document_judged_against_chance_finds_itself_however_short() {
    // The bundled example article against itself: nearly every sentence is a link of one
    // passage far beyond chance.
    let cmp = example_against_itself(CompareOptions::default().rules);
    let figures = cmp.figures(&Thresholds::DOCUMENTS);
    assert!(figures.containment[0] > 0.9, "{:?}", figures.containment);
    let chains = cmp.evidence_chains(&Thresholds::DOCUMENTS);
    assert!(chains.iter().all(|c| c.ln_e <= 1e-5f64.ln()));
    // Four sentences too: every word is in a quarter of them, so their own rates alone could
    // not tell a copy from chance (they read 0% before the reference prior); the reference
    // collection's rates can.
    let tiny = parse_text(
        "Volcanic ash closed the northern airports on Monday. \
         Airlines cancelled hundreds of flights. Passengers waited in crowded terminals. \
         Completely unrelated prose about gardening tomatoes.",
        "a.txt",
        SourceFormat::Text,
    );
    let options = CompareOptions {
        chance_search: Some(chance::ChanceSearch::DEFAULT),
        ..CompareOptions::default()
    };
    let model = crate::model::ReferenceModel::embedded();
    let cmp = compare(&tiny, &tiny, &model, &options, &AtomicBool::new(false)).expect("runs");
    assert_eq!(cmp.matches(&Thresholds::DOCUMENTS).count(), 4);
    // Two unrelated short texts share nothing.
    let other = parse_text(
        "The orchestra rehearsed the symphony on Monday. \
         Violinists tuned their instruments. The conductor praised the brass section. \
         Tickets for the concert sold out quickly.",
        "b.txt",
        SourceFormat::Text,
    );
    let cmp = compare(&tiny, &other, &model, &options, &AtomicBool::new(false)).expect("runs");
    assert_eq!(cmp.matches(&Thresholds::DOCUMENTS).count(), 0);
}

#[test]
fn under_the_verdict_a_links_probability_decides_whether_it_may_be_one() {
    let cmp = example_against_itself(crate::similarity::MatchRules::VERDICT);
    assert!(cmp.decided_by_verdict);
    assert!(cmp.pairs.iter().all(|p| p.verdict.is_some()));
    // A sentence against itself is the same sentence: links at any probability bar below 1.
    let at = |permission| Thresholds {
        permission,
        ..Thresholds::DOCUMENTS
    };
    let matched = |permission| cmp.matches(&at(permission)).count();
    assert!(matched(0.46) > 0);
    assert!(
        cmp.matches(&at(0.46))
            .all(|p| p.verdict.is_some_and(|v| v >= 0.46))
    );
    // Past every probability, no link, so no passage.
    assert_eq!(matched(1.01), 0);
    // The bar filters: a higher one keeps no more.
    assert!(matched(0.9) <= matched(0.46));
}

#[test]
fn a_shortest_match_leaves_out_short_runs_from_matches_and_figures() {
    let model = TableModel::new();
    // A run of two sentences (4 + 5 words on each side) and, far from it, a single one of 3.
    let c = compare_texts(
        "Alpha beta gamma delta. Epsilon zeta eta theta iota. Unrelated words here. \
         More unrelated words. Still other words. Kappa lambda mu.",
        "Alpha beta gamma delta. Epsilon zeta eta theta iota. Nothing alike at all. \
         Quite different text. Yet another line. Some other filler. Kappa lambda mu.",
        &model,
    );
    let at = |min_words| Thresholds { min_words, ..LOOSE };
    let pairs = |min_words| -> Vec<(u32, u32)> {
        c.matches(&at(min_words))
            .map(|p| (p.left, p.right))
            .collect()
    };
    assert_eq!(pairs(0), [(0, 0), (1, 1), (5, 6)]);
    // Every run has a word at least: the same matches.
    assert_eq!(pairs(1), pairs(0));
    assert_eq!(pairs(4), [(0, 0), (1, 1)]);
    assert_eq!(pairs(9), [(0, 0), (1, 1)]);
    assert_eq!(pairs(10), []);
    // The figures count the matches kept, whichever way they are asked for.
    for min_words in [0, 4, 10] {
        let matches: Vec<ScoredPair> = c.matches(&at(min_words)).copied().collect();
        let figures = c.figures(&at(min_words));
        assert_eq!(figures, c.figures_given(&matches, &at(min_words)));
        assert_eq!(figures.matched[0], matches.len(), "{min_words}");
    }
    assert_eq!(c.figures(&at(10)).containment, [0.0, 0.0]);
    // Seen from the other side, the same runs.
    assert_eq!(
        c.swapped().matches(&at(4)).count(),
        c.matches(&at(4)).count()
    );
}

#[test]
fn evidence_chains_kept_for_one_set_of_thresholds_are_never_given_for_another() {
    let cmp = example_against_itself(CompareOptions::default().rules);
    let loose = Thresholds {
        max_e_value: None,
        ..Thresholds::DOCUMENTS
    };
    let strict = Thresholds {
        max_e_value: Some(1e-40),
        ..Thresholds::DOCUMENTS
    };
    // Each asked for on a fresh copy (a copy keeps nothing) and then in turn on one comparison.
    let fresh = |t: &Thresholds| cmp.clone().evidence_chains(t);
    let (all, few) = (fresh(&loose), fresh(&strict));
    assert!(few.len() < all.len(), "{} against {}", few.len(), all.len());
    for t in [&loose, &loose, &strict, &loose, &strict, &strict] {
        let expected = if t == &loose { &all } else { &few };
        assert_eq!(&cmp.evidence_chains(t), expected);
    }
    // The matches and figures follow the thresholds asked, whatever was asked before.
    assert_eq!(
        cmp.matches(&strict).count(),
        cmp.clone().matches(&strict).count()
    );
}
