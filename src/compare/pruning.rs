//! Which scored pairs a comparison keeps once its one-to-two matches are found.
//!
//! The matchers return every pair in which *either* directional Sim reaches the floor: a short
//! sentence contained in a longer one scores high one way only, and containment and one-to-two
//! matches are made of exactly such pairs. On ordinary prose they are most of the output and
//! their number grows with the square of the documents (a short sentence reaches the floor into
//! every longer sentence that shares a content word and a few function words: 188,000 pairs of
//! which 11,000 reach the floor both ways on 1 MB of Wikipedia compared with itself, 1.3
//! million of which 45,000 on 3 MB). Everything a comparison is used for needs few of them:
//!
//! - a match (thesis eq. 3.4) needs both Sims at the permission, which is at or above the floor:
//!   every pair reaching the floor both ways is kept;
//! - containment (each counted sentence's best directional Sim at the permission) needs only
//!   each sentence's best pair in its own direction: kept;
//! - one-to-two matches are found before pruning, from all pairs, and kept apart.
//!
//! So [`keep_needed`] keeps the pairs reaching the floor both ways and, per sentence of either
//! side, its best pair among those reaching the floor in that sentence's direction only (higher
//! directional Sim first, then the higher reverse Sim, then the earlier partner). Matches,
//! figures and containment are then the same at every permission at or above the floor as with
//! all pairs (tested against the unpruned comparison), while the pairs kept grow with the
//! sentences and the matches, not with their square.
//!
//! The fuzzy matcher does most of this as it scores, so that the one-way pairs are never all
//! held at once ([`crate::similarity::needed`], given each sentence's neighbours for the
//! one-to-two matches): it returns a subset that gives the same result, and [`keep_needed`]
//! finishes the job for every matcher.

use crate::similarity::ScoredPair;

/// The pairs of `pairs` that matches, figures and containment need at permissions at or above
/// `floor` (see the module docs), in their order. `left_len` and `right_len` are the two
/// documents' sentence counts (positions in `pairs` are below them).
pub fn keep_needed(
    pairs: Vec<ScoredPair>,
    floor: f64,
    left_len: usize,
    right_len: usize,
) -> Vec<ScoredPair> {
    // Per sentence, the index in `pairs` of its best one-way pair so far.
    let mut best_of_left: Vec<Option<usize>> = vec![None; left_len];
    let mut best_of_right: Vec<Option<usize>> = vec![None; right_len];
    let better = |candidate: &ScoredPair, current: &ScoredPair, forward: bool| {
        let key = |p: &ScoredPair| {
            if forward {
                (p.sim_lr, p.sim_rl)
            } else {
                (p.sim_rl, p.sim_lr)
            }
        };
        // Ties keep the earlier pair: `pairs` is sorted, so that is the earlier partner.
        key(candidate) > key(current)
    };
    for (at, pair) in pairs.iter().enumerate() {
        if pair.sim_lr >= floor && pair.sim_rl >= floor {
            continue;
        }
        let (slot, forward) = if pair.sim_lr >= floor {
            (best_of_left.get_mut(pair.left as usize), true)
        } else {
            (best_of_right.get_mut(pair.right as usize), false)
        };
        if let Some(slot) = slot
            && slot.is_none_or(|current| better(pair, &pairs[current], forward))
        {
            *slot = Some(at);
        }
    }
    let mut keep = vec![false; pairs.len()];
    for at in best_of_left.into_iter().chain(best_of_right).flatten() {
        keep[at] = true;
    }
    pairs
        .into_iter()
        .zip(keep)
        .filter(|(pair, kept)| *kept || (pair.sim_lr >= floor && pair.sim_rl >= floor))
        .map(|(pair, _)| pair)
        .collect()
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::compare::{CompareOptions, Comparison, PreparedPair};
    use crate::document::{SourceFormat, parse_text};
    use crate::model::ReferenceModel;
    use crate::similarity::{Method, ScoringRequest, Thresholds};

    fn pair(left: u32, right: u32, sim_lr: f64, sim_rl: f64) -> ScoredPair {
        ScoredPair::scored(left, right, sim_lr, sim_rl)
    }

    #[test]
    fn keeps_two_way_pairs_and_each_sentences_best_one_way_pair() {
        let pairs = vec![
            pair(0, 0, 0.9, 0.8), // both ways: kept
            pair(0, 1, 1.0, 0.1), // left 0's best one-way pair: kept
            pair(0, 2, 1.0, 0.05),
            pair(1, 1, 0.5, 0.2), // left 1's only one-way pair: kept
            pair(2, 1, 0.1, 0.6), // right 1: tied on 0.6 with (3, 1), lower reverse Sim
            pair(3, 1, 0.2, 0.6), // right 1's best: kept
            pair(3, 2, 0.3, 0.7), // right 2's best: kept
            pair(4, 2, 0.35, 0.45),
        ];
        let kept = keep_needed(pairs, 0.4, 5, 3);
        let kept: Vec<(u32, u32)> = kept.iter().map(|p| (p.left, p.right)).collect();
        assert_eq!(kept, vec![(0, 0), (0, 1), (1, 1), (3, 1), (3, 2)]);
    }

    #[test]
    fn a_tie_on_the_directional_sim_goes_to_the_higher_reverse_sim() {
        let pairs = vec![pair(0, 0, 1.0, 0.1), pair(0, 1, 1.0, 0.3)];
        let kept = keep_needed(pairs, 0.4, 1, 2);
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].right, 1);
        // Equal both ways: the earlier partner.
        let pairs = vec![pair(0, 0, 1.0, 0.3), pair(0, 1, 1.0, 0.3)];
        assert_eq!(keep_needed(pairs, 0.4, 1, 2)[0].right, 0);
    }

    /// The bundled example pair (two Wikipedia articles on Guinea, one reusing the other) under
    /// the default options: matches, figures and containment with the pruned pairs equal those
    /// with every pair, at every permission from the floor up.
    #[test]
    fn pruning_changes_no_match_and_no_figure() {
        let left = parse_text(
            include_str!("../../assets/examples/guinea.md"),
            "guinea.md",
            SourceFormat::Text,
        );
        let right = parse_text(
            include_str!("../../assets/examples/history-of-guinea.md"),
            "history-of-guinea.md",
            SourceFormat::Text,
        );
        let model = ReferenceModel::embedded();
        // Every partner kept: pruning alone is checked (capping partners drops some by design).
        let options = CompareOptions {
            partners_kept: 0,
            ..CompareOptions::default()
        };
        let pair = PreparedPair::new(&left, &right, model, &options);
        let never = AtomicBool::new(false);
        let pruned = pair
            .compare(model, Method::Fuzzy, options.floor, &never)
            .expect("not cancelled");
        let mut all = Method::Fuzzy
            .matcher()
            .score_pairs(
                &ScoringRequest {
                    left: &pair.left,
                    right: &pair.right,
                    model,
                    floor: options.floor,
                    rules: &pair.rules,
                },
                &never,
            )
            .expect("not cancelled");
        all.sort_unstable_by_key(|p| (p.left, p.right));
        assert!(
            pruned.pairs.len() * 2 < all.len(),
            "{} of {}",
            pruned.pairs.len(),
            all.len()
        );
        let unpruned = Comparison {
            pairs: all,
            ..pruned.clone()
        };
        for step in 0..=12 {
            for variation in [0.15, 1.0] {
                let thresholds = Thresholds {
                    permission: options.floor + 0.05 * f64::from(step),
                    variation,
                    max_e_value: None,
                    min_words: 0,
                };
                let matched = |c: &Comparison| -> Vec<ScoredPair> {
                    c.matches(&thresholds).copied().collect()
                };
                assert_eq!(matched(&pruned), matched(&unpruned), "{thresholds:?}");
                assert_eq!(
                    pruned.figures(&thresholds),
                    unpruned.figures(&thresholds),
                    "{thresholds:?}"
                );
            }
        }
    }
}
