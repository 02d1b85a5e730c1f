//! Passages chained from hand-made pairs (gaps, diagonals, backward steps, one-to-two matches),
//! their properties against a full search, and the word counts. Apart from the chaining so that
//! it reads on its own.

use super::*;
use rustc_hash::FxHashMap;

use crate::similarity::Joined;

fn pair(left: u32, right: u32, sim: f64) -> ScoredPair {
    ScoredPair::new(left, right, [sim, sim], false)
}

fn ranges(passages: &[Passage]) -> Vec<([u32; 2], [u32; 2], usize)> {
    passages.iter().map(|p| (p.a, p.b, p.pairs)).collect()
}

#[test]
fn a_diagonal_run_with_a_small_gap_is_one_passage() {
    let pairs = [
        pair(2, 10, 1.0),
        pair(3, 11, 0.5),
        pair(5, 13, 0.75), // one unmatched sentence on both sides
        pair(20, 1, 0.5),  // elsewhere
    ];
    let words = [vec![4; 30], vec![3; 30]];
    let found = find(&pairs, 1, [&words[0], &words[1]]);
    assert_eq!(
        ranges(&found),
        vec![([2, 5], [10, 13], 3), ([20, 20], [1, 1], 1)]
    );
    assert_eq!(found[0].words, 9, "three sentences of 3 words on B's side");
    assert_eq!(found[0].score, 0.75);
    assert_eq!(found[0].members, vec![0, 1, 2]);
}

#[test]
fn a_gap_larger_than_allowed_splits_the_passage() {
    let pairs = [pair(2, 10, 1.0), pair(5, 13, 1.0)];
    let words = [vec![1; 20], vec![1; 20]];
    assert_eq!(find(&pairs, 1, [&words[0], &words[1]]).len(), 2);
    assert_eq!(find(&pairs, 2, [&words[0], &words[1]]).len(), 1);
}

#[test]
fn the_own_diagonal_wins_over_a_neighbour() {
    // Two parallel runs one sentence apart: each stays on its own diagonal.
    let pairs = [
        pair(0, 0, 1.0),
        pair(0, 1, 1.0),
        pair(1, 1, 1.0),
        pair(1, 2, 1.0),
        pair(2, 2, 1.0),
        pair(2, 3, 1.0),
    ];
    let words = [vec![1; 5], vec![1; 5]];
    assert_eq!(
        ranges(&find(&pairs, 1, [&words[0], &words[1]])),
        vec![([0, 2], [0, 2], 3), ([0, 2], [1, 3], 3)]
    );
}

#[test]
fn a_backward_step_starts_a_new_passage() {
    let pairs = [pair(0, 5, 1.0), pair(1, 4, 1.0), pair(2, 3, 1.0)];
    let words = [vec![1; 6], vec![1; 6]];
    assert_eq!(find(&pairs, 2, [&words[0], &words[1]]).len(), 3);
}

#[test]
fn a_one_to_two_match_is_one_step_on_one_side() {
    let joined = |left, right, with| ScoredPair {
        joined: Some(Joined {
            side: JoinSide::Right,
            with,
        }),
        ..pair(left, right, 0.8)
    };
    // A 4 was split into B 7 and B 8; A 5 follows as B 9.
    let pairs = [
        pair(3, 6, 1.0),
        joined(4, 7, 8),
        joined(4, 8, 7),
        pair(5, 9, 1.0),
    ];
    let words = [vec![10, 10, 10, 10, 20, 10], vec![10; 10]];
    let found = find(&pairs, 0, [&words[0], &words[1]]);
    assert_eq!(ranges(&found), vec![([3, 5], [6, 9], 4)]);
    assert_eq!(found[0].words, 40, "A: 10 + 20 + 10; B: 4 x 10");
    // Without the join mark, the vertical step is not a passage step.
    let plain = [pair(3, 6, 1.0), pair(4, 7, 1.0), pair(4, 8, 1.0)];
    assert_eq!(find(&plain, 0, [&words[0], &words[1]]).len(), 2);
}

proptest::proptest! {
    /// Every pair lies in exactly one passage, whose ranges hold it, and every step of a
    /// passage moves forward in both documents by at most gap + 1; a passage's words are
    /// those of its distinct sentences on the side with fewer.
    #[test]
    fn passages_partition_the_pairs(
        raw in proptest::collection::vec((0u32..40, 0u32..40), 0..80),
        gap in 0u32..3,
        lengths in proptest::collection::vec(0u32..30, 80),
    ) {
        let pairs: Vec<ScoredPair> = raw.iter().map(|&(a, b)| pair(a, b, 0.5)).collect();
        let words = [lengths[..40].to_vec(), lengths[40..].to_vec()];
        let found = find(&pairs, gap, [&words[0], &words[1]]);
        let mut seen = vec![0; pairs.len()];
        for passage in &found {
            proptest::prop_assert_eq!(passage.pairs, passage.members.len());
            let distinct_words = |side: usize| -> usize {
                let mut positions: Vec<u32> = passage
                    .members
                    .iter()
                    .map(|&m| if side == 0 { pairs[m].left } else { pairs[m].right })
                    .collect();
                positions.sort_unstable();
                positions.dedup();
                positions.iter().map(|&p| words[side][p as usize] as usize).sum()
            };
            proptest::prop_assert_eq!(passage.words, distinct_words(0).min(distinct_words(1)));
            for (k, &m) in passage.members.iter().enumerate() {
                seen[m] += 1;
                proptest::prop_assert!(passage.covers(0, pairs[m].left));
                proptest::prop_assert!(passage.covers(1, pairs[m].right));
                if k > 0 {
                    let prev = &pairs[passage.members[k - 1]];
                    proptest::prop_assert!(may_follow(prev, &pairs[m], gap));
                }
            }
        }
        proptest::prop_assert!(seen.iter().all(|&n| n == 1));
    }

    /// The diagonal-first search chains exactly as weighing every cell within reach does.
    #[test]
    fn the_diagonal_shortcut_chains_as_the_full_search(
        raw in proptest::collection::vec((0u32..30, 0u32..30), 0..80),
        gap in 0u32..3,
    ) {
        let pairs: Vec<ScoredPair> = raw.iter().map(|&(a, b)| pair(a, b, 0.5)).collect();
        let words = [vec![1; 30], vec![1; 30]];
        let members = |found: Vec<Passage>| -> Vec<Vec<usize>> {
            found.into_iter().map(|p| p.members).collect()
        };
        proptest::prop_assert_eq!(
            members(find(&pairs, gap, [&words[0], &words[1]])),
            full_search_chains(&pairs, gap)
        );
    }
}

/// The chains by weighing every cell within reach (the definition the search implements).
fn full_search_chains(pairs: &[ScoredPair], gap: u32) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..pairs.len()).collect();
    order.sort_unstable_by_key(|&i| (pairs[i].left, pairs[i].right));
    let mut chains: Vec<Vec<usize>> = Vec::new();
    let mut ends: FxHashMap<(u32, u32), usize> = FxHashMap::default();
    let reach = gap + 1;
    for &i in &order {
        let pair = &pairs[i];
        let mut best: Option<(bool, u32, usize)> = None;
        for da in 0..=reach.min(pair.left) {
            for db in 0..=reach.min(pair.right) {
                let Some(&chain) = ends.get(&(pair.left - da, pair.right - db)) else {
                    continue;
                };
                let last = &pairs[*chains[chain].last().expect("chains are not empty")];
                let key = (da != db, da + db, chain);
                if may_follow(last, pair, gap) && best.is_none_or(|b| key < b) {
                    best = Some(key);
                }
            }
        }
        match best {
            Some((_, _, chain)) => {
                let last = &pairs[*chains[chain].last().expect("chains are not empty")];
                ends.remove(&(last.left, last.right));
                chains[chain].push(i);
                ends.entry((pair.left, pair.right)).or_insert(chain);
            }
            None => {
                ends.entry((pair.left, pair.right)).or_insert(chains.len());
                chains.push(vec![i]);
            }
        }
    }
    chains
}

#[test]
fn word_counts_count_each_chinese_character() {
    assert_eq!(
        word_counts(["北京是中国的首都。", "我用iPhone手机"]),
        vec![8, 5]
    );
}

#[test]
fn word_counts_ignore_punctuation_tokens() {
    assert_eq!(
        word_counts(["Hello, world — again.", "", "a 2 b"]),
        vec![3, 0, 3]
    );
}
