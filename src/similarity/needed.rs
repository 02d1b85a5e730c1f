//! Which pairs a comparison needs of those reaching the floor one way only.
//!
//! A matcher reports every pair with a directional Sim at the floor, and on ordinary prose
//! almost all of them reach it one way only: a short sentence reaches the floor into every
//! longer sentence that shares a content word and a few function words. 20 MB of Wikipedia
//! compared with itself has about 50 million such pairs, against under a million that reach
//! the floor both ways. A comparison keeps few of them: matches need both directions; its
//! containment figure needs each sentence's best pair in its own direction; and a one-to-two
//! match (two consecutive sentences inside one sentence of the other side) needs a one-way pair
//! only when a neighbour of the contained sentence reaches the floor into the same sentence.
//! [`NeededPairs`] tells a matcher the neighbours, so that it can drop the other one-way pairs
//! as it scores them instead of holding them all (gigabytes at 20 MB) and dropping them later.
//!
//! The contract: a matcher given [`NeededPairs::WithOneWay`] returns a subset of what it returns
//! without, sorted the same way, that holds every pair reaching the floor both ways, each
//! sentence's best pair among those reaching the floor in its own direction only (higher
//! directional Sim, then higher reverse Sim, then the earlier partner, as the comparison's
//! pruning ranks them), and every one-way pair whose contained sentence has a neighbour that
//! reaches the floor into the same sentence. It may return more (the fuzzy matcher keeps a one-way pair when the
//! neighbour is merely a candidate of the same sentence, which it knows before scoring). Given
//! [`NeededPairs::BothWays`], the subset need hold only the pairs reaching the floor both ways.

use super::ScoredPair;

/// The most neighbours a sentence has before it is not checked at all: its one-way pairs are
/// all kept. A sentence has two neighbours; a class of repeated sentences (scored once for all
/// its members) has those of every member, and a heading repeated on every page can have
/// thousands.
pub const MAX_NEIGHBOURS_CHECKED: usize = 32;

/// For each sentence of one side (as the matcher sees it: classes of repeated sentences count
/// once), the sentences next to it in reading order, before or after; `None` when there are
/// more than [`MAX_NEIGHBOURS_CHECKED`].
#[derive(Clone, Debug, Default)]
pub struct Neighbours {
    lists: Vec<Option<Vec<u32>>>,
}

impl Neighbours {
    /// From each sentence's neighbours (any order, repeats allowed).
    pub fn new(lists: impl IntoIterator<Item = Vec<u32>>) -> Neighbours {
        Neighbours {
            lists: lists
                .into_iter()
                .map(|mut list| {
                    list.sort_unstable();
                    list.dedup();
                    (list.len() <= MAX_NEIGHBOURS_CHECKED).then_some(list)
                })
                .collect(),
        }
    }

    /// Sentences in reading order, each its own class: the one before and the one after.
    pub fn in_order(len: usize) -> Neighbours {
        Neighbours::new((0..len).map(|i| {
            let mut list = Vec::with_capacity(2);
            if i > 0 {
                list.push(i as u32 - 1);
            }
            if i + 1 < len {
                list.push(i as u32 + 1);
            }
            list
        }))
    }

    /// Whether some neighbour of `sentence` passes `test`; true when the sentence has too many
    /// neighbours to check (or is unknown), so that nothing needed is ever dropped.
    pub fn any(&self, sentence: u32, mut test: impl FnMut(u32) -> bool) -> bool {
        match self.lists.get(sentence as usize) {
            Some(Some(list)) => list.iter().any(|&n| test(n)),
            _ => true,
        }
    }
}

/// Which pairs a caller needs, given to a matcher so that it drops the others as it scores.
#[derive(Clone, Copy, Debug)]
pub enum NeededPairs<'a> {
    /// The pairs reaching the floor both ways only (EQ counts in a collection need no more):
    /// the matcher need not even score a pair that can reach the floor one way only.
    BothWays,
    /// Those and the one-way pairs of the module docs, with the neighbours of both sides'
    /// sentences.
    WithOneWay {
        left: &'a Neighbours,
        right: &'a Neighbours,
    },
}

/// Whether `candidate` ranks above `current` as the best pair of its left sentence among the
/// pairs reaching the floor left to right only: higher Sim(left, right), then higher reverse
/// Sim, then the earlier right sentence.
pub fn better_for_left(candidate: &ScoredPair, current: &ScoredPair) -> bool {
    let key = |p: &ScoredPair| (p.sim_lr, p.sim_rl, p.right);
    ranks_above(key(candidate), key(current))
}

/// The same for a right sentence: higher Sim(right, left), then higher Sim(left, right), then
/// the earlier left sentence.
pub fn better_for_right(candidate: &ScoredPair, current: &ScoredPair) -> bool {
    let key = |p: &ScoredPair| (p.sim_rl, p.sim_lr, p.left);
    ranks_above(key(candidate), key(current))
}

/// Higher own Sim, then higher reverse Sim, then the earlier partner.
fn ranks_above((own, reverse, partner): (f64, f64, u32), current: (f64, f64, u32)) -> bool {
    match (own, reverse).partial_cmp(&(current.0, current.1)) {
        Some(std::cmp::Ordering::Greater) => true,
        Some(std::cmp::Ordering::Equal) => partner < current.2,
        _ => false,
    }
}

/// Each right sentence's best pair reaching the floor right to left only, gathered while the
/// left sentences are scored in parallel (one per parallel piece, merged at the end).
#[derive(Debug, Default)]
pub struct BestOfRight {
    /// Allocated at the first pair offered: most pieces of a small comparison offer none.
    best: Vec<Option<ScoredPair>>,
    len: usize,
}

impl BestOfRight {
    pub fn new(right_len: usize) -> BestOfRight {
        BestOfRight {
            best: Vec::new(),
            len: right_len,
        }
    }

    pub fn offer(&mut self, pair: ScoredPair) {
        if self.best.is_empty() {
            self.best = vec![None; self.len];
        }
        if let Some(slot) = self.best.get_mut(pair.right as usize)
            && slot
                .as_ref()
                .is_none_or(|current| better_for_right(&pair, current))
        {
            *slot = Some(pair);
        }
    }

    /// The better of the two for each right sentence (the order of merging does not matter:
    /// ties go to the earlier left sentence).
    pub fn merge(mut self, other: BestOfRight) -> BestOfRight {
        if self.best.is_empty() {
            return other;
        }
        for pair in other.best.into_iter().flatten() {
            self.offer(pair);
        }
        self
    }

    pub fn into_pairs(self) -> impl Iterator<Item = ScoredPair> {
        self.best.into_iter().flatten()
    }
}

/// How `returned` (what a matcher gave for `needed`) breaks the contract of the module docs
/// against `all` (what the same matcher gives without `needed`), or `None` when it keeps it:
/// the first pair it holds that `all` does not, or the first pair it lacks that the contract
/// names. For the property tests and the fuzzing of every matcher.
pub fn contract_violation(
    all: &[ScoredPair],
    returned: &[ScoredPair],
    floor: f64,
    needed: NeededPairs<'_>,
) -> Option<String> {
    use rustc_hash::FxHashSet;
    let key = |p: &ScoredPair| (p.left, p.right);
    let all_keys: rustc_hash::FxHashMap<(u32, u32), &ScoredPair> =
        all.iter().map(|p| (key(p), p)).collect();
    if let Some(extra) = returned
        .iter()
        .find(|p| all_keys.get(&key(p)).is_none_or(|q| *q != *p))
    {
        return Some(format!(
            "{extra:?} is not a pair scored without the needed pairs"
        ));
    }
    let kept: FxHashSet<(u32, u32)> = returned.iter().map(key).collect();
    let lacking = |p: &ScoredPair, why: &str| {
        (!kept.contains(&key(p))).then(|| format!("{p:?} is missing: {why}"))
    };
    let both = |p: &ScoredPair| p.sim_lr >= floor && p.sim_rl >= floor;
    if let Some(missing) = all
        .iter()
        .filter(|p| both(p))
        .find_map(|p| lacking(p, "both ways"))
    {
        return Some(missing);
    }
    let NeededPairs::WithOneWay { left, right } = needed else {
        return None;
    };
    let left_to_right = |p: &&ScoredPair| p.sim_lr >= floor && p.sim_rl < floor;
    let right_to_left = |p: &&ScoredPair| p.sim_rl >= floor && p.sim_lr < floor;
    let mut best_of_left: rustc_hash::FxHashMap<u32, &ScoredPair> = Default::default();
    let mut best_of_right: rustc_hash::FxHashMap<u32, &ScoredPair> = Default::default();
    for p in all.iter().filter(left_to_right) {
        let best = best_of_left.entry(p.left).or_insert(p);
        if better_for_left(p, best) {
            *best = p;
        }
    }
    for p in all.iter().filter(right_to_left) {
        let best = best_of_right.entry(p.right).or_insert(p);
        if better_for_right(p, best) {
            *best = p;
        }
    }
    let best = best_of_left.values().chain(best_of_right.values());
    if let Some(missing) = best
        .into_iter()
        .find_map(|p| lacking(p, "a sentence's best one way"))
    {
        return Some(missing);
    }
    let reaches = |i: u32, j: u32, forward: bool| {
        all_keys
            .get(&(i, j))
            .is_some_and(|p| if forward { p.sim_lr } else { p.sim_rl } >= floor)
    };
    let joins = all
        .iter()
        .filter(left_to_right)
        .filter(|p| left.any(p.left, |n| reaches(n, p.right, true)))
        .chain(
            all.iter()
                .filter(right_to_left)
                .filter(|p| right.any(p.right, |m| reaches(p.left, m, false))),
        );
    joins
        .into_iter()
        .find_map(|p| lacking(p, "its neighbour reaches the same sentence"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(left: u32, right: u32, sim_lr: f64, sim_rl: f64) -> ScoredPair {
        ScoredPair::scored(left, right, sim_lr, sim_rl)
    }

    #[test]
    fn a_contract_violation_names_the_extra_or_the_missing_pair() {
        let all = [
            pair(0, 0, 0.9, 0.8),
            pair(0, 1, 0.5, 0.1),
            pair(1, 0, 0.45, 0.1),
            pair(1, 1, 0.6, 0.2),
            pair(2, 0, 0.1, 0.7),
        ];
        let (left, right) = (Neighbours::in_order(3), Neighbours::in_order(2));
        let one_way = NeededPairs::WithOneWay {
            left: &left,
            right: &right,
        };
        assert_eq!(contract_violation(&all, &all, 0.4, one_way), None);
        // (0, 1) is left 0's best pair one way and (2, 0) right 0's; (1, 0) is not left 1's
        // best, but its neighbour, left 0, reaches right 0 too.
        let without = |at: usize| {
            let mut kept = all.to_vec();
            kept.remove(at);
            contract_violation(&all, &kept, 0.4, one_way)
        };
        assert!(without(0).is_some_and(|why| why.contains("both ways")));
        assert!(without(1).is_some_and(|why| why.contains("best")));
        assert!(without(2).is_some_and(|why| why.contains("neighbour")));
        assert!(without(4).is_some_and(|why| why.contains("best")));
        let apart = Neighbours::new([vec![], vec![], vec![]]);
        let no_neighbours = NeededPairs::WithOneWay {
            left: &apart,
            right: &right,
        };
        let mut kept = all.to_vec();
        kept.remove(2);
        assert_eq!(contract_violation(&all, &kept, 0.4, no_neighbours), None);
        assert_eq!(
            contract_violation(&all, &all[..1], 0.4, NeededPairs::BothWays),
            None
        );
        let changed = [pair(0, 0, 0.9, 0.7)];
        assert!(
            contract_violation(&all, &changed, 0.4, NeededPairs::BothWays)
                .is_some_and(|why| why.contains("not a pair"))
        );
    }

    #[test]
    fn neighbours_in_order_are_the_sentences_before_and_after() {
        let n = Neighbours::in_order(3);
        let of = |i: u32| {
            let mut seen = Vec::new();
            n.any(i, |m| {
                seen.push(m);
                false
            });
            seen
        };
        assert_eq!(of(0), vec![1]);
        assert_eq!(of(1), vec![0, 2]);
        assert_eq!(of(2), vec![1]);
        assert!(n.any(7, |_| false), "an unknown sentence is never dropped");
    }

    #[test]
    fn too_many_neighbours_keep_everything() {
        let many: Vec<u32> = (0..=MAX_NEIGHBOURS_CHECKED as u32).collect();
        let n = Neighbours::new([many, vec![3, 3, 1]]);
        assert!(n.any(0, |_| false));
        assert!(!n.any(1, |m| m == 2));
        assert!(n.any(1, |m| m == 3));
    }

    #[test]
    fn the_best_of_a_right_sentence_does_not_depend_on_the_merge_order() {
        let pairs = [
            pair(4, 0, 0.2, 0.5),
            pair(2, 0, 0.3, 0.5),
            pair(1, 0, 0.3, 0.5),
            pair(0, 1, 0.1, 0.6),
            pair(3, 1, 0.1, 0.7),
        ];
        let gather = |order: &[usize]| {
            let mut a = BestOfRight::new(2);
            let mut b = BestOfRight::new(2);
            for (k, &at) in order.iter().enumerate() {
                if k % 2 == 0 {
                    a.offer(pairs[at]);
                } else {
                    b.offer(pairs[at]);
                }
            }
            let mut best: Vec<(u32, u32)> =
                a.merge(b).into_pairs().map(|p| (p.left, p.right)).collect();
            best.sort_unstable();
            best
        };
        let expected = vec![(1, 0), (3, 1)];
        assert_eq!(gather(&[0, 1, 2, 3, 4]), expected);
        assert_eq!(gather(&[4, 3, 2, 1, 0]), expected);
        assert_eq!(gather(&[2, 0, 4, 1, 3]), expected);
    }

    #[test]
    fn the_best_of_a_left_sentence_prefers_the_reverse_sim_then_the_earlier_partner() {
        assert!(better_for_left(
            &pair(0, 5, 0.5, 0.1),
            &pair(0, 1, 0.4, 0.3)
        ));
        assert!(better_for_left(
            &pair(0, 5, 0.5, 0.2),
            &pair(0, 1, 0.5, 0.1)
        ));
        assert!(better_for_left(
            &pair(0, 1, 0.5, 0.2),
            &pair(0, 5, 0.5, 0.2)
        ));
        assert!(!better_for_left(
            &pair(0, 5, 0.5, 0.2),
            &pair(0, 1, 0.5, 0.2)
        ));
    }
}
