//! Figures of whole comparisons on hand-made documents with exact expected values.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::document::{SourceFormat, parse_text};
use crate::similarity::table::TableModel;
use crate::similarity::{JoinSide, Thresholds};

fn compare_texts(a: &str, b: &str, model: &TableModel) -> Comparison {
    let left = parse_text(a, "a.txt", SourceFormat::Text);
    let right = parse_text(b, "b.txt", SourceFormat::Text);
    let never = AtomicBool::new(false);
    compare(&left, &right, model, &CompareOptions::default(), &never).expect("not cancelled")
}

const LOOSE: Thresholds = Thresholds {
    permission: 0.5,
    variation: 1.0,
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
