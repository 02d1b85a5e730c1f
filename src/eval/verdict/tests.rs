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

/// A labelled set of `pairs` (left, right, label) with their features, its terms named in
/// `names`.
fn labelled(
    name: &str,
    pairs: &[(String, String, bool)],
    model: &TableModel,
    names: &mut TermNames,
) -> LabelledFeatures {
    let texts: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(a, b, _)| (a.as_str(), b.as_str()))
        .collect();
    let (features, lengths, terms) = features_of(&texts, model, WordnetWeights::TRIAL, names);
    LabelledFeatures {
        name: name.into(),
        features,
        labels: pairs.iter().map(|p| p.2).collect(),
        lengths,
        terms,
    }
}

#[test]
fn training_separates_a_toy_set_and_chooses_from_its_grids() {
    let model = TableModel::new();
    let pairs = toy(60);
    let mut names = TermNames::default();
    let set = labelled("toy", &pairs, &model, &mut names);
    let options = TrainOptions {
        folds: 5,
        ..TrainOptions::new(WordnetWeights::TRIAL)
    };
    let trained = train(&[set.clone(), set], &names, &options).unwrap();
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
    // The stored counts are those of all pairs of both sets: "river" is in 10 of the 60 toy
    // pairs' first sentences (i * 7 % 12 == 0 or the like), counted once per pair and set.
    let stored = &trained.terms;
    assert!(stored.terms.windows(2).all(|w| w[0].0 < w[1].0));
    let holds = |i: usize, word: &str| {
        let (a, b, _) = &pairs[i];
        (
            a.to_lowercase().contains(word),
            b.to_lowercase().contains(word),
        )
    };
    let (mut same_either, mut same_both) = (0, 0);
    for i in (0..pairs.len()).filter(|i| i % 2 == 0) {
        let (a, b) = holds(i, "today");
        same_either += u32::from(a || b);
        same_both += u32::from(a && b);
    }
    let today = &stored.terms.iter().find(|(n, _)| n == "today").unwrap().1;
    assert_eq!(today.same_either, 2 * same_either);
    assert_eq!(today.same_both, 2 * same_both);
    assert_eq!(today.different_either, 2 * 30);
    assert_eq!(today.different_both, 0);
}

/// The TF-KLD features never see the labels of the pairs they are scored on: every pair is
/// the same two sentences but for a word of its own in both, and the labels are noise. Out of
/// fold nothing tells them apart; counts over all pairs would name every pair's label by its
/// own word.
#[test]
fn learnt_features_are_computed_without_the_held_out_pairs() {
    let model = TableModel::new();
    let own_word = |mut i: usize| {
        let mut w = String::from("k");
        loop {
            w.push(char::from(b'a' + (i % 26) as u8));
            i /= 26;
            if i == 0 {
                return w;
            }
        }
    };
    let pairs: Vec<(String, String, bool)> = (0..200)
        .map(|i| {
            let word = own_word(i);
            (
                format!("Some shared words here {word}."),
                format!("Some shared words there {word}."),
                (i * 37 + 11) % 5 < 2,
            )
        })
        .collect();
    let mut names = TermNames::default();
    let set = labelled("leak", &pairs, &model, &mut names);
    // Only the learnt features may tell the labels: everything else is left out.
    let options = TrainOptions {
        folds: 5,
        left_out: (0..FEATURES)
            .filter(|i| !crate::similarity::verdict::LEARNT_FEATURES.contains(i))
            .collect(),
        ..TrainOptions::new(WordnetWeights::TRIAL)
    };
    for fitting in [Fitting::Cross, Fitting::Plain] {
        let options = TrainOptions {
            fitting,
            ..options.clone()
        };
        let trained = train(std::slice::from_ref(&set), &names, &options).unwrap();
        let auc = trained.report.cross_validated[0].auc.unwrap();
        assert!(auc < 0.65, "{fitting:?}: out-of-fold AUC {auc}");
        // In sample, plainly fitted, the counts hold each pair's own word: it is told apart.
        if fitting == Fitting::Plain {
            assert!(trained.report.in_sample[0].auc.unwrap() > 0.95);
        }
    }
}

#[test]
fn features_are_named_singly_or_by_group() {
    let bleu = features_named(&["bleu".into()]).unwrap();
    assert_eq!(bleu.len(), 8);
    assert!(bleu.iter().all(|&i| FEATURE_NAMES[i].starts_with("bleu")));
    let one = features_named(&["length_ratio".into(), "length".into()]).unwrap();
    assert_eq!(one.len(), 1);
    assert!(features_named(&["nonsense".into()]).is_err());
    let mut design = vec![vec![[0.5; FEATURES]; 2]];
    leave_out(&mut design, &one);
    assert_eq!(design[0][1][one[0]], 0.0);
    assert_eq!(design[0][1][0], 0.5);
}

#[test]
fn folds_are_balanced_and_repeat() {
    let set = LabelledFeatures {
        name: "x".into(),
        features: vec![[0.0; FEATURES]; 23],
        labels: vec![true; 23],
        lengths: vec![1.0; 23],
        terms: vec![Default::default(); 23],
    };
    let a = folds_of(std::slice::from_ref(&set), 10);
    assert_eq!(a, folds_of(std::slice::from_ref(&set), 10));
    let mut counts = [0; 10];
    for &f in &a[0] {
        counts[f] += 1;
    }
    assert!(counts.iter().all(|&c| c == 2 || c == 3), "{counts:?}");
}
