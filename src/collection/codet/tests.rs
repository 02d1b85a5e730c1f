use proptest::prelude::*;

use super::super::{prepare::words, without_job};
use super::*;

#[test]
fn node_visits_give_the_trees_similarities() {
    let docs = vec![
        vec![words("b a c d"), words("x y z"), words("a b")],
        vec![words("a b c d e"), words("z y x w")],
        vec![words("a b"), words("b a c d"), words("a b")],
        vec![words("q r s")],
    ];
    let c = Collection::from_terms(vec![], docs, vec![]);
    for params in [
        CoDetParams::default(),
        CoDetParams {
            processed_suffix_count: 3,
            depth_threshold: 2,
            ..CoDetParams::default()
        },
        CoDetParams {
            word_sorting: false,
            ..CoDetParams::default()
        },
    ] {
        let visits: Vec<Vec<NodeVisit>> = (0..c.len())
            .map(|d| {
                let sentences: Vec<Vec<(&str, u32)>> = c.documents[d]
                    .sentences
                    .iter()
                    .map(|s| {
                        s.iter()
                            .map(|&t| (c.term(t), c.frequencies.df[t as usize]))
                            .collect()
                    })
                    .collect();
                node_visits(&sentences, c.frequencies.documents, &params)
            })
            .collect();
        let cs = |x: &[NodeVisit], y: &[NodeVisit]| -> f64 {
            x.iter()
                .filter_map(|v| {
                    let w = y.iter().find(|w| w.node == v.node)?;
                    Some(v.impact * f64::from(v.count) * f64::from(w.count))
                })
                .sum()
        };
        let mut tree = CorpusTree::new(&c, params.clone());
        for doc in 0..c.len() {
            let insertion = tree.insert(doc);
            let scs = cs(&visits[doc], &visits[doc]);
            assert!((insertion.self_similarity - scs).abs() < 1e-9, "{params:?}");
            let expected: Vec<(DocId, f64)> = (0..doc)
                .map(|e| (e, cs(&visits[doc], &visits[e])))
                .filter(|&(_, v)| v > 0.0)
                .collect();
            assert_eq!(insertion.similarities.len(), expected.len(), "{params:?}");
            for ((d1, v1), (d2, v2)) in insertion.similarities.iter().zip(&expected) {
                assert_eq!(d1, d2);
                assert!((v1 - v2).abs() < 1e-9, "{params:?}");
            }
        }
    }
}

/// Eq. 2 directly: Σ k · idf(w_k) over the longest common prefix.
fn cs_by_hand(x: &[TermId], y: &[TermId], idf: &[f64]) -> f64 {
    x.iter()
        .zip(y)
        .take_while(|(a, b)| a == b)
        .enumerate()
        .map(|(k, (&w, _))| (k + 1) as f64 * idf[w as usize])
        .sum()
}

/// Each sentence as the tree sees it: sorted by idf rank (or not) and cut at DT.
fn processed(c: &Collection, params: &CoDetParams, doc: DocId) -> Vec<Vec<TermId>> {
    let rank = c.idf_rank();
    c.documents[doc]
        .sentences
        .iter()
        .map(|s| {
            let mut s = s.clone();
            if params.word_sorting {
                s.sort_by_key(|&t| rank[t as usize]);
            }
            s.truncate(params.depth_threshold);
            s
        })
        .collect()
}

proptest! {
    /// The corpus tree computes eq. 1 exactly: CS of every pair and SCS of every document
    /// equal the brute-force double sum over sentence pairs.
    #[test]
    fn tree_equals_the_double_sum_of_eq_1(
        docs in proptest::collection::vec(
            proptest::collection::vec(proptest::collection::vec(0u8..6, 1..6), 0..4),
            1..6,
        ),
        depth_threshold in 1usize..6,
        word_sorting in any::<bool>(),
    ) {
        let docs: Vec<Vec<Vec<String>>> = docs
            .iter()
            .map(|d| d.iter().map(|s| s.iter().map(|w| format!("w{w}")).collect()).collect())
            .collect();
        let c = Collection::from_terms(vec![], docs, vec![]);
        let params = CoDetParams { depth_threshold, word_sorting, ..CoDetParams::default() };
        let idf: Vec<f64> = (0..c.vocabulary.len())
            .map(|t| c.frequencies.idf_plus_one(t as TermId))
            .collect();
        let sentences: Vec<Vec<Vec<TermId>>> =
            (0..c.len()).map(|d| processed(&c, &params, d)).collect();
        let double_sum = |x: usize, y: usize| -> f64 {
            sentences[x]
                .iter()
                .flat_map(|s| sentences[y].iter().map(move |t| (s, t)))
                .map(|(s, t)| cs_by_hand(s, t, &idf))
                .sum()
        };
        let mut tree = CorpusTree::new(&c, params);
        for doc in 0..c.len() {
            let insertion = tree.insert(doc);
            prop_assert!((insertion.self_similarity - double_sum(doc, doc)).abs() < 1e-9);
            for earlier in 0..doc {
                let expected = double_sum(doc, earlier);
                let got = insertion
                    .similarities
                    .iter()
                    .find(|&&(d, _)| d == earlier)
                    .map_or(0.0, |&(_, cs)| cs);
                prop_assert!((got - expected).abs() < 1e-9, "{} vs {}", got, expected);
            }
        }
    }
}

/// The paper's Fig. 1: d_A "NASDAQ starts day with an increase. Shares gain 2%.", d_B
/// "NASDAQ starts (the) day with a decrease. Shares lose 2%.", d_C "Shares lose 2%.", words
/// unsorted and unstemmed as in the figure (its walk-through drops d_B's "the").
fn figure_1() -> Collection {
    let docs = vec![
        vec![
            words("nasdaq starts day with an increase"),
            words("shares gain 2%"),
        ],
        vec![
            words("nasdaq starts day with a decrease"),
            words("shares lose 2%"),
        ],
        vec![words("shares lose 2%")],
    ];
    Collection::from_terms(vec!["A".into(), "B".into(), "C".into()], docs, vec![])
}

fn unsorted(depth_threshold: usize) -> CoDetParams {
    CoDetParams {
        depth_threshold,
        word_sorting: false,
        ..CoDetParams::default()
    }
}

fn close(x: f64, y: f64) -> bool {
    (x - y).abs() < 1e-9
}

/// Hand-computed with idf = ln(3/df) + 1 over the three documents (the figure's
/// "log(3/2) + 1" for "starts"): df 1 -> 2.098612, df 2 -> 1.405465, df 3 -> 1.
#[test]
fn figure_1_values_by_hand() {
    let c = figure_1();
    let (one, two, three) = (1.0 + 3f64.ln(), 1.0 + 1.5f64.ln(), 1.0);
    let mut tree = CorpusTree::new(&c, unsorted(10));
    // Fig. 1-I: d_A creates 6 + 3 nodes.
    let a = tree.insert(0);
    assert!(a.similarities.is_empty());
    assert_eq!(tree.node_count(), 1 + 9);
    // SCS(d_A) = (1+2+3+4)·idf(df 2) + 5·idf(an) + 6·idf(increase)
    //          + 1·idf(shares) + 2·idf(gain) + 3·idf(2%).
    let scs_a = 10.0 * two + 11.0 * one + three + 2.0 * one + 3.0 * three;
    assert!(close(a.self_similarity, scs_a), "{}", a.self_similarity);
    // Fig. 1-II: d_B revisits nasdaq, starts, day, with (depths 1-4) and shares (depth 1).
    // "The contribution of the node with label starts is 2 × (log(3/2) + 1)."
    let b = tree.insert(1);
    let cs_ab = (1.0 + 2.0 + 3.0 + 4.0) * two + 1.0 * three;
    assert_eq!(b.similarities.len(), 1);
    assert_eq!(b.similarities[0].0, 0);
    assert!(close(b.similarities[0].1, cs_ab));
    assert_eq!(tree.node_count(), 1 + 9 + 2 + 2);
    assert_eq!(
        tree.depth_of(ROOT, c.vocabulary.id("shares").unwrap()),
        Some(1)
    );
    // Fig. 1-III: d_C walks shares (A, B), lose (B), 2% (B); creates no node.
    let cc = tree.insert(2);
    assert_eq!(tree.node_count(), 14);
    let cs_cb = 1.0 * three + 2.0 * two + 3.0 * three;
    assert_eq!(cc.similarities.len(), 2);
    assert!(
        close(cc.similarities[0].1, 1.0 * three),
        "CS(C, A) = idf(shares)"
    );
    assert!(close(cc.similarities[1].1, cs_cb));
    // SCS(d_C) equals CS(d_C, d_B): d_B contains d_C with ratio 1.
    assert!(close(cc.self_similarity, cs_cb));
    assert!(
        (scs_a - (37.139_386_26 + 8.197_224_58)).abs() < 1e-6,
        "{scs_a}"
    );
    assert!((cs_ab - 15.054_651_08).abs() < 1e-6, "{cs_ab}");
}

#[test]
fn figure_1_decisions() {
    let c = figure_1();
    let detection = without_job(|job| detect(&c, &unsorted(10), job)).unwrap();
    // CS(C,B)/SCS(C) = 1 > 0.6: B contains C. CS(A,B)/SCS(A) = 15.05/45.34 = 0.33 and
    // CS(A,B)/SCS(B) = 15.05/45.34: no containment. CS(C,A)/SCS(C) = 1/6.81: none.
    assert_eq!(detection.pairs.len(), 1);
    let pair = detection.pairs[0];
    assert_eq!((pair.a, pair.b, pair.relation), (1, 2, Relation::Contains));
    assert!(close(pair.score, 1.0));
    assert!(detection.groups.is_empty());
}

#[test]
fn depth_threshold_cuts_sentences() {
    let c = figure_1();
    let mut tree = CorpusTree::new(&c, unsorted(5));
    let a = tree.insert(0);
    let (one, two, three) = (1.0 + 3f64.ln(), 1.0 + 1.5f64.ln(), 1.0);
    // "increase" (depth 6) is not inserted.
    assert!(close(
        a.self_similarity,
        10.0 * two + 5.0 * one + three + 2.0 * one + 3.0 * three
    ));
    assert_eq!(tree.node_count(), 1 + 5 + 3);
}

#[test]
fn word_sorting_puts_rare_words_at_the_root() {
    let c = figure_1();
    let mut tree = CorpusTree::new(&c, CoDetParams::default());
    tree.insert(0);
    // d_A's first sentence sorted by idf: an, increase (df 1) then day, nasdaq, starts,
    // with (df 2), ties by text.
    let an = c.vocabulary.id("an").unwrap();
    let increase = c.vocabulary.id("increase").unwrap();
    assert_eq!(tree.depth_of(ROOT, an), Some(1));
    let an_node = tree.children[&(ROOT, an)];
    assert_eq!(tree.depth_of(an_node, increase), Some(2));
}

#[test]
fn repeated_sentences_count_as_eq_1_double_sum() {
    let docs = vec![vec![words("x y"), words("x y")], vec![words("x y")]];
    let c = Collection::from_terms(vec![], docs, vec![]);
    let mut tree = CorpusTree::new(&c, unsorted(5));
    let a = tree.insert(0);
    let b = tree.insert(1);
    // idf = ln(2/2) + 1 = 1. cs(s, s) = 1 + 2 = 3; d_0 has 2×2 ordered sentence pairs.
    assert!(close(a.self_similarity, 12.0));
    assert!(close(b.self_similarity, 3.0));
    assert!(close(b.similarities[0].1, 6.0));
}

#[test]
fn processed_suffixes_insert_shorter_paths() {
    let docs = vec![vec![words("p q r")], vec![words("z q r")]];
    let c = Collection::from_terms(vec![], docs, vec![]);
    let params = CoDetParams {
        processed_suffix_count: 2,
        ..unsorted(5)
    };
    let mut tree = CorpusTree::new(&c, params);
    tree.insert(0);
    let b = tree.insert(1);
    // The suffix "q r" of both: idf(q) = idf(r) = 1 at depths 1 and 2.
    assert!(close(b.similarities[0].1, 3.0));
}

#[test]
fn time_window_forgets_old_documents_and_frees_their_nodes() {
    let docs = vec![
        vec![words("a b c")],
        vec![words("d e")],
        vec![words("a b c")],
        vec![words("d e")],
    ];
    let c = Collection::from_terms(vec![], docs, vec![]);
    let params = CoDetParams {
        time_window: Some(2),
        ..unsorted(5)
    };
    let mut tree = CorpusTree::new(&c, params.clone());
    tree.insert(0);
    tree.insert(1);
    assert_eq!(tree.node_count(), 1 + 3 + 2);
    // Document 0 leaves before 2 arrives: 2 finds nothing, and its nodes are new.
    let third = tree.insert(2);
    assert!(third.similarities.is_empty());
    assert_eq!(tree.node_count(), 1 + 3 + 2);
    let detection = without_job(|job| detect(&c, &params, job)).unwrap();
    assert!(detection.pairs.is_empty());
    let unlimited = without_job(|job| detect(&c, &unsorted(5), job)).unwrap();
    assert_eq!(unlimited.groups, vec![vec![0, 2], vec![1, 3]]);
}
