//! A sentence's few best partners: the output of a comparison bounded whatever the repetition.
//!
//! Templated text (a table, a list, log lines, a form whose lines differ by one number) has
//! sentences that all reach the floor with each other: 1,000 such lines compared with themselves
//! are a million pairs at the floor both ways, 3,000 are nine million, and holding, pruning,
//! joining and drawing them grew with their square. Each sentence keeps instead its
//! [`PARTNERS_KEPT`] best partners among the pairs reaching the floor both ways (by the smaller
//! Sim, then the larger, then the partner nearest the diagonal, then the earlier one); a pair is
//! kept when it is among the best of either of its sentences, so a comparison lists at most
//! [`PARTNERS_KEPT`] pairs per sentence of both documents. What the figures read is unchanged:
//! whether a sentence has a match at a permission depends on its best partner only, and its best
//! directional Sim (containment) is at least its best partner's; only the number of matched
//! pairs, where a cap applies, counts the pairs kept. The sentences whose partners were cut are
//! reported ([`CappedPairs::capped`]), so that a summary can say a cap applied.
//!
//! Pairs reaching the floor one way only are left as they are: the matchers keep few of them
//! ([`super::needed`]).

use super::ScoredPair;

/// Partners a sentence keeps among those reaching the floor both ways. Ordinary prose seldom
/// has more (a sentence with ten near-copies elsewhere in the other document); a template line
/// has thousands, all alike.
pub const PARTNERS_KEPT: usize = 10;

/// Pairs with each sentence's partners capped, and which sentences were cut.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CappedPairs {
    /// Sorted by (left, right).
    pub pairs: Vec<ScoredPair>,
    /// Per side, the sentences (positions, ascending) that had more partners at the floor both
    /// ways than they keep (or whose search stopped once it held its best ones).
    pub capped: [Vec<u32>; 2],
}

/// Keeps of `pairs` those reaching `floor` one way only, and of those reaching it both ways each
/// sentence's `kept` best (see the module docs). `lens` are the two sides' sentence counts (for
/// the diagonal); `stopped` are sentences already known to be capped (their search stopped).
pub fn keep_best(
    mut pairs: Vec<ScoredPair>,
    floor: f64,
    kept: usize,
    lens: [usize; 2],
    stopped: [Vec<u32>; 2],
) -> CappedPairs {
    let both_ways: Vec<usize> = (0..pairs.len())
        .filter(|&at| pairs[at].min_sim() >= floor)
        .collect();
    let mut keep = vec![false; pairs.len()];
    let mut capped = stopped;
    for side in 0..2 {
        let own = |p: &ScoredPair| if side == 0 { p.left } else { p.right };
        let partner = |p: &ScoredPair| if side == 0 { p.right } else { p.left };
        // How far a partner is from the sentence's proportional place on the other side.
        let off_diagonal = |p: &ScoredPair| {
            let place = own(p) as u64 * lens[1 - side] as u64 / lens[side].max(1) as u64;
            (partner(p) as u64).abs_diff(place)
        };
        let mut order = both_ways.clone();
        order.sort_unstable_by(|&a, &b| {
            let (p, q) = (&pairs[a], &pairs[b]);
            own(p)
                .cmp(&own(q))
                .then(q.min_sim().total_cmp(&p.min_sim()))
                .then(q.sim_lr.max(q.sim_rl).total_cmp(&p.sim_lr.max(p.sim_rl)))
                .then(off_diagonal(p).cmp(&off_diagonal(q)))
                .then(partner(p).cmp(&partner(q)))
        });
        for group in order.chunk_by(|&a, &b| own(&pairs[a]) == own(&pairs[b])) {
            for &at in group.iter().take(kept) {
                keep[at] = true;
            }
            if group.len() > kept {
                capped[side].push(own(&pairs[group[0]]));
            }
        }
        capped[side].sort_unstable();
        capped[side].dedup();
    }
    let mut at = 0;
    pairs.retain(|p| {
        let keep_it = keep[at] || p.min_sim() < floor;
        at += 1;
        keep_it
    });
    pairs.sort_unstable_by_key(|p| (p.left, p.right));
    CappedPairs { pairs, capped }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_sentence_keeps_its_best_partners_and_one_way_pairs_stay() {
        // Left sentence 0 meets five right sentences both ways; right 4 also meets left 1.
        let mut pairs: Vec<ScoredPair> = (0..5)
            .map(|j| ScoredPair::scored(0, j, 0.5 + 0.1 * f64::from(j), 0.9))
            .collect();
        pairs.push(ScoredPair::scored(1, 4, 0.6, 0.6));
        pairs.push(ScoredPair::scored(1, 3, 0.9, 0.1));
        let capped = keep_best(pairs, 0.4, 2, [2, 5], [vec![], vec![]]);
        let kept: Vec<(u32, u32)> = capped.pairs.iter().map(|p| (p.left, p.right)).collect();
        // Left 0 keeps its two best (right 4 at 0.9, right 3 at 0.8); right 0-2 each keep left 0
        // (their only partner); left 1 keeps right 4; the one-way pair stays.
        assert_eq!(
            kept,
            vec![(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (1, 3), (1, 4)]
        );
        assert_eq!(capped.capped, [vec![0], vec![]]);
        // With one partner kept, right 0-2 still keep left 0 (pairs are kept for either side).
        let pairs: Vec<ScoredPair> = (0..3).map(|j| ScoredPair::scored(0, j, 0.9, 0.9)).collect();
        let capped = keep_best(pairs, 0.4, 1, [1, 3], [vec![], vec![]]);
        assert_eq!(capped.pairs.len(), 3);
        assert_eq!(capped.capped, [vec![0], vec![]]);
    }

    #[test]
    fn among_equals_the_partner_nearest_the_diagonal_is_kept() {
        // Ten lines alike with each other: each keeps itself (Sim 1) and its nearest neighbour.
        let mut pairs = Vec::new();
        for i in 0..10u32 {
            for j in 0..10u32 {
                let sim = if i == j { 1.0 } else { 0.8 };
                pairs.push(ScoredPair::scored(i, j, sim, sim));
            }
        }
        let capped = keep_best(pairs, 0.4, 2, [10, 10], [vec![], vec![]]);
        for p in &capped.pairs {
            assert!(
                p.left.abs_diff(p.right) <= 1,
                "{p:?} is far from the diagonal"
            );
        }
        assert!(capped.pairs.len() <= 2 * 10 * 2);
        assert_eq!(capped.capped[0], (0..10).collect::<Vec<u32>>());
    }
}
