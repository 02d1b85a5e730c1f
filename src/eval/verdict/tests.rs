//! Tests of training the pair verdict.

use super::*;
use crate::similarity::table::TableModel;
use crate::similarity::verdict::FEATURES;

/// Pairs that are the same sentence reworded a little (positive) or two unrelated
/// sentences (negative).
fn toy(n: usize) -> Vec<(String, String, bool)> {
    let words = [
        "river", "bank", "money", "stone", "music", "garden", "winter", "letter", "engine",
        "forest", "market", "planet",
    ];
    (0..n)
        .map(|i| {
            let w = |k: usize| words[(i * 7 + k * 5) % words.len()];
            let a = format!("The {} near the {} holds a {} today.", w(0), w(1), w(2));
            if i % 2 == 0 {
                let b = format!("Today the {} near the {} holds a {}.", w(0), w(1), w(2));
                (a, b, true)
            } else {
                let b = format!("A {} of {} was sold in {}.", w(3), w(4), w(5));
                (a, b, false)
            }
        })
        .collect()
}

#[test]
fn training_separates_a_toy_set_and_chooses_from_its_grids() {
    let model = TableModel::new();
    let pairs = toy(60);
    let texts: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(a, b, _)| (a.as_str(), b.as_str()))
        .collect();
    let (features, lengths) = features_of(&texts, &model, WordnetWeights::TRIAL);
    let set = LabelledFeatures {
        name: "toy".into(),
        features,
        labels: pairs.iter().map(|p| p.2).collect(),
        lengths,
    };
    let trained = train(&[set.clone(), set], 5, WordnetWeights::TRIAL).unwrap();
    let r = &trained.report;
    assert_eq!(r.penalties.len(), penalty_grid().len());
    assert!(penalty_grid().contains(&r.penalty));
    assert!(threshold_grid().contains(&r.threshold));
    for figures in &r.cross_validated {
        assert_eq!(figures.figures.f1, 1.0, "{figures:?}");
        assert_eq!(figures.auc, Some(1.0));
    }
    assert_eq!(r.weights.len(), FEATURE_NAMES.len());
    assert!(!r.bands.is_empty());
}

#[test]
fn features_are_named_singly_or_by_group() {
    let bleu = features_named(&["bleu".into()]).unwrap();
    assert_eq!(bleu.len(), 8);
    assert!(bleu.iter().all(|&i| FEATURE_NAMES[i].starts_with("bleu")));
    let one = features_named(&["length_ratio".into(), "length".into()]).unwrap();
    assert_eq!(one.len(), 1);
    assert!(features_named(&["nonsense".into()]).is_err());
    let mut sets = vec![LabelledFeatures {
        name: "x".into(),
        features: vec![[0.5; FEATURES]; 2],
        labels: vec![true, false],
        lengths: vec![1.0; 2],
    }];
    leave_out(&mut sets, &one);
    assert_eq!(sets[0].features[1][one[0]], 0.0);
    assert_eq!(sets[0].features[1][0], 0.5);
}

#[test]
fn folds_are_balanced_and_repeat() {
    let set = LabelledFeatures {
        name: "x".into(),
        features: vec![[0.0; FEATURES]; 23],
        labels: vec![true; 23],
        lengths: vec![1.0; 23],
    };
    let a = folds_of(std::slice::from_ref(&set), 10);
    assert_eq!(a, folds_of(std::slice::from_ref(&set), 10));
    let mut counts = [0; 10];
    for &f in &a[0] {
        counts[f] += 1;
    }
    assert!(counts.iter().all(|&c| c == 2 || c == 3), "{counts:?}");
}
