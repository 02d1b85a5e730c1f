//! A sentence's few best partners: the output of a comparison bounded whatever the repetition.
//!
//! Templated text (a table, a list, log lines, a form whose lines differ by one number) has
//! sentences that all reach the floor with each other: 1,000 such lines compared with themselves
//! are a million pairs at the floor both ways, 3,000 are nine million, and holding, pruning,
//! joining and drawing them grew with their square. Each sentence keeps instead its
//! [`PARTNERS_KEPT`] best partners among the pairs reaching the floor both ways (by the smaller
//! Sim, then the larger, then the partner nearest the diagonal, then the earlier one), and as
//! many by its own directional Sim; a pair is kept when it is among the best of either of its
//! sentences, so a comparison lists at most twice [`PARTNERS_KEPT`] pairs per sentence of both
//! documents. What the figures read is unchanged: whether a sentence has a match at a
//! permission (the variation off) depends on its best partner by the smaller Sim, and its
//! containment on its best by its own Sim; the number of matched pairs counts the pairs kept,
//! and a one-to-two match, the one-to-one matching (common sentences) or a variation bar sees
//! the partners kept only. The sentences whose partners were cut are
//! reported ([`CappedPairs::capped`]), so that a summary can say a cap applied.
//!
//! A sentence that counts towards the figures ranks the partners that count apart from those
//! that do not (headings, the title, fragments of fewer than three content terms): it keeps its
//! best of each by the smaller Sim. A sentence's best partner may be a fragment ("Share this."
//! beside a template line), which a matched sentence is not counted through; keeping that one
//! alone would lose the counted partner the figures read (a property test found a class of four
//! counted sentences go from matched to unmatched with one partner kept). Containment reads
//! every partner, counted or not, so the ranking by its own Sim is over them all.
//!
//! Pairs reaching the floor one way only are left as they are: the matchers keep few of them
//! ([`super::needed`]).

use super::ScoredPair;

/// Partners a sentence keeps among those reaching the floor both ways (a counted sentence:
/// of its counted partners and of the others), and as many by its own Sim. Chosen on the
/// text-alignment tuning corpus (EVALUATION.md, "Partners kept") by mean plagdet over the sizes
/// at the measured preset: 0.579 with 1 partner, 0.576 with 3, 0.574 with 10, 30 or every pair
/// (the thesis preset 0.517 at each). Only the 5 MB documents move: their sentences meet
/// thousands of partners by chance, and the ones kept beyond the best chain into false
/// passages. The figures a sentence's best partners decide (matched sentences, containment)
/// are the same at any cap (a property test); a sentence repeated in the other document is
/// still linked to each copy, since each copy keeps its own best. `--partners 0` lists every
/// pair, as the thesis does.
pub const PARTNERS_KEPT: usize = 1;

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
    pairs: Vec<ScoredPair>,
    floor: f64,
    partners: PartnersKept<'_>,
    lens: [usize; 2],
    stopped: [Vec<u32>; 2],
) -> CappedPairs {
    keep(pairs, floor, partners, lens, stopped, None)
}

/// [`keep_best`] for a document (left) against a pool of sources (right, source `g` holding
/// the sentences `starts[g]..starts[g + 1]`): a document sentence keeps its best partners in
/// each source, not over the pool (a sentence copied into fifty story updates counts in each
/// one's share), and a source sentence its best in the document. Pairs reaching the floor one
/// way only are capped too (a pool is scored without the neighbour test that keeps few of them
/// in a comparison): each sentence also keeps its `kept` best by its own Sim, so that its best
/// directional Sim into each source (what containment and attribution read) is kept.
pub fn keep_best_per_source(
    pairs: Vec<ScoredPair>,
    floor: f64,
    partners: PartnersKept<'_>,
    lens: [usize; 2],
    stopped: [Vec<u32>; 2],
    starts: &[usize],
) -> CappedPairs {
    keep(pairs, floor, partners, lens, stopped, Some(starts))
}

/// How many partners each sentence keeps, and which sentences count towards the figures (see
/// the module docs).
#[derive(Clone, Copy, Debug)]
pub struct PartnersKept<'c> {
    /// Partners kept per sentence and ranking; 0 keeps every pair.
    pub kept: usize,
    /// Per side, per sentence: whether it counts towards the figures (an empty mask: every
    /// sentence does).
    pub counted: [&'c [bool]; 2],
}

impl<'c> PartnersKept<'c> {
    /// `kept` partners per sentence, every sentence counted.
    pub fn best(kept: usize) -> PartnersKept<'static> {
        PartnersKept {
            kept,
            counted: [&[], &[]],
        }
    }

    /// `kept` partners per sentence, `counted` saying which sentences count.
    pub fn counting(kept: usize, counted: [&'c [bool]; 2]) -> PartnersKept<'c> {
        PartnersKept { kept, counted }
    }

    /// Whether sentence `i` of `side` counts.
    pub fn counts(&self, side: usize, i: u32) -> bool {
        counts(self.counted[side], i)
    }
}

/// Whether sentence `i` counts by `mask` (an empty mask: every sentence does).
pub(crate) fn counts(mask: &[bool], i: u32) -> bool {
    mask.get(i as usize).copied().unwrap_or(true)
}

/// How many partners a matcher keeps per sentence, and whether per source of a pool.
#[derive(Clone, Copy, Debug)]
pub struct PartnerCap<'s> {
    pub kept: usize,
    /// Per side, per sentence: whether it counts ([`PartnersKept::counted`]).
    pub counted: [&'s [bool]; 2],
    /// Where each source of the right side starts, and the end ([`keep_best_per_source`]);
    /// `None`: a comparison of two documents ([`keep_best`]).
    pub starts: Option<&'s [usize]>,
    /// A search that stopped once it held its best partners also scores the sentences beside
    /// each candidate it met (in the same source), so that the pairs [`keep_best_per_source`]
    /// keeps beside the best are there.
    pub beside: bool,
}

impl PartnerCap<'_> {
    /// [`keep_best`] or [`keep_best_per_source`], as the cap says.
    pub fn keep(
        self,
        pairs: Vec<ScoredPair>,
        floor: f64,
        lens: [usize; 2],
        stopped: [Vec<u32>; 2],
    ) -> CappedPairs {
        let partners = PartnersKept::counting(self.kept, self.counted);
        keep(pairs, floor, partners, lens, stopped, self.starts)
    }
}

/// [`keep_best`], or with `starts` [`keep_best_per_source`].
fn keep(
    mut pairs: Vec<ScoredPair>,
    floor: f64,
    partners: PartnersKept<'_>,
    lens: [usize; 2],
    stopped: [Vec<u32>; 2],
    starts: Option<&[usize]>,
) -> CappedPairs {
    let kept = partners.kept;
    if kept == 0 {
        return CappedPairs {
            pairs,
            capped: stopped,
        };
    }
    // Sorted by (left, right) from here on: a left sentence's pairs are consecutive, and the
    // pairs beside a kept one are looked up.
    pairs.sort_unstable_by_key(|p| (p.left, p.right));
    // The source of a right sentence (0 without sources), and where it starts and ends.
    let source_of = |j: u32| starts.map_or(0, |s| s.partition_point(|&s| s <= j as usize) - 1);
    let span = |source: usize| starts.map_or((0, lens[1]), |s| (s[source], s[source + 1]));
    let source: Vec<u32> = match starts {
        Some(_) => pairs.iter().map(|p| source_of(p.right) as u32).collect(),
        None => Vec::new(),
    };
    let source_at = |at: u32| source.get(at as usize).map_or(0, |&s| s as usize);
    let mut keep = vec![false; pairs.len()];
    let mut capped = stopped;
    // Each sentence's best partners are chosen within its group of pairs (a selection, not a
    // sort of them all: a templated line has thousands, and 3 million pairs sorted with their
    // ranking took most of a comparison's time).
    let mut ranked: [Vec<u32>; 2] = Default::default();
    for (side, capped) in capped.iter_mut().enumerate() {
        let own = |p: &ScoredPair| if side == 0 { p.left } else { p.right };
        let partner = |p: &ScoredPair| if side == 0 { p.right } else { p.left };
        let own_sim = |p: &ScoredPair| if side == 0 { p.sim_lr } else { p.sim_rl };
        // How far a partner is from the sentence's proportional place on the other side (in
        // its source, with sources).
        let off_diagonal = |at: u32| {
            let p = &pairs[at as usize];
            let (start, end) = span(source_at(at));
            let (from, len, other_len) = if side == 0 {
                (p.left as usize, lens[0], end - start)
            } else {
                (p.right as usize - start, end - start, lens[0])
            };
            let place = (from as u64 * other_len as u64 / len.max(1) as u64) as usize;
            let place = if side == 0 { start + place } else { place };
            (partner(p) as usize).abs_diff(place)
        };
        let then_nearest = |a: u32, b: u32| {
            off_diagonal(a)
                .cmp(&off_diagonal(b))
                .then_with(|| partner(&pairs[a as usize]).cmp(&partner(&pairs[b as usize])))
        };
        let by_smaller = |&a: &u32, &b: &u32| {
            let (p, q) = (&pairs[a as usize], &pairs[b as usize]);
            q.min_sim()
                .total_cmp(&p.min_sim())
                .then(q.sim_lr.max(q.sim_rl).total_cmp(&p.sim_lr.max(p.sim_rl)))
                .then_with(|| then_nearest(a, b))
        };
        let by_own = |&a: &u32, &b: &u32| {
            let (p, q) = (&pairs[a as usize], &pairs[b as usize]);
            own_sim(q)
                .total_cmp(&own_sim(p))
                .then(q.min_sim().total_cmp(&p.min_sim()))
                .then_with(|| then_nearest(a, b))
        };
        // The pairs grouped by the sentence on this side: on the left they are already (and
        // per source, since a source's sentences are consecutive), on the right by counting.
        let order: Vec<u32> = if side == 0 {
            (0..pairs.len() as u32).collect()
        } else {
            grouped_by_right(&pairs)
        };
        let same_group = |a: &u32, b: &u32| {
            let (p, q) = (&pairs[*a as usize], &pairs[*b as usize]);
            own(p) == own(q) && (side == 1 || source_at(*a) == source_at(*b))
        };
        for group in order.chunk_by(same_group) {
            let sentence = own(&pairs[group[0] as usize]);
            let counts = partners.counts(side, sentence);
            let mut cut = false;
            // By the smaller Sim among the pairs at the floor both ways, a counted sentence's
            // counted partners apart from the others.
            let [counted_partners, others] = &mut ranked;
            counted_partners.clear();
            others.clear();
            for &at in group {
                let p = &pairs[at as usize];
                if p.min_sim() < floor {
                    continue;
                }
                if counts && partners.counts(1 - side, partner(p)) {
                    counted_partners.push(at);
                } else {
                    others.push(at);
                }
            }
            cut |= keep_best_of(counted_partners, kept, by_smaller, &mut keep);
            cut |= keep_best_of(others, kept, by_smaller, &mut keep);
            // By its own Sim too, so that each sentence's best directional Sim (containment)
            // stays: among the pairs at the floor both ways in a comparison (the one-way pairs
            // stay there), among all of them against sources.
            let all = &mut ranked[0];
            all.clear();
            all.extend(
                group
                    .iter()
                    .filter(|&&at| starts.is_some() || pairs[at as usize].min_sim() >= floor),
            );
            cut |= keep_best_of(all, kept, by_own, &mut keep);
            // A sentence with more partners than it keeps (in either ranking) is reported.
            if cut {
                capped.push(sentence);
            }
        }
        capped.sort_unstable();
        capped.dedup();
    }
    if starts.is_some() {
        // The pairs beside a kept pair (the next or previous sentence on either side, in the
        // same source) stay too: one-to-two matches join two consecutive sentences that both
        // reach into one of the other side, and would otherwise be looked for among the best
        // partners only.
        let beside: Vec<usize> = (0..pairs.len())
            .filter(|&at| keep[at])
            .flat_map(|at| {
                let p = &pairs[at];
                let source = source_of(p.right);
                let (i, j) = (i64::from(p.left), i64::from(p.right));
                [(i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)]
                    .into_iter()
                    .filter(move |&(i, j)| {
                        i >= 0 && j >= 0 && j < lens[1] as i64 && source_of(j as u32) == source
                    })
                    .filter_map(|(i, j)| {
                        pairs
                            .binary_search_by_key(&(i as u32, j as u32), |q| (q.left, q.right))
                            .ok()
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        for at in beside {
            keep[at] = true;
        }
    }
    let mut at = 0;
    pairs.retain(|p| {
        let keep_it = keep[at] || (starts.is_none() && p.min_sim() < floor);
        at += 1;
        keep_it
    });
    CappedPairs { pairs, capped }
}

/// Marks the `kept` best of `candidates` by `ranking` (a total order) in `keep`; whether there
/// were more than `kept`. A selection: what it costs grows with the candidates, not with their
/// logarithm too.
fn keep_best_of(
    candidates: &mut [u32],
    kept: usize,
    ranking: impl Fn(&u32, &u32) -> std::cmp::Ordering,
    keep: &mut [bool],
) -> bool {
    let more = candidates.len() > kept;
    if more {
        candidates.select_nth_unstable_by(kept - 1, ranking);
    }
    for &at in candidates.iter().take(kept) {
        keep[at as usize] = true;
    }
    more
}

/// The indices of `pairs` grouped by right sentence (ascending), each group in the pairs'
/// order: a counting sort.
fn grouped_by_right(pairs: &[ScoredPair]) -> Vec<u32> {
    let len = pairs
        .iter()
        .map(|p| p.right as usize + 1)
        .max()
        .unwrap_or(0);
    let mut next = vec![0u32; len + 1];
    for p in pairs {
        next[p.right as usize + 1] += 1;
    }
    for j in 1..next.len() {
        next[j] += next[j - 1];
    }
    let mut order = vec![0u32; pairs.len()];
    for (at, p) in pairs.iter().enumerate() {
        let slot = &mut next[p.right as usize];
        order[*slot as usize] = at as u32;
        *slot += 1;
    }
    order
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
        let capped = keep_best(pairs, 0.4, PartnersKept::best(2), [2, 5], [vec![], vec![]]);
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
        let capped = keep_best(pairs, 0.4, PartnersKept::best(1), [1, 3], [vec![], vec![]]);
        assert_eq!(capped.pairs.len(), 3);
        assert_eq!(capped.capped, [vec![0], vec![]]);
    }

    #[test]
    fn a_counted_sentence_keeps_its_best_counted_partner_behind_a_fragment() {
        // Left 0 meets a fragment (right 0) at 0.9 and a counted sentence (right 1) at 0.7,
        // whose own best is left 1 (0.95).
        let pairs = vec![
            ScoredPair::scored(0, 0, 0.9, 0.9),
            ScoredPair::scored(0, 1, 0.7, 0.7),
            ScoredPair::scored(1, 1, 0.95, 0.95),
        ];
        let kept = |partners| {
            let capped = keep_best(pairs.clone(), 0.4, partners, [2, 2], [vec![], vec![]]);
            let kept: Vec<(u32, u32)> = capped.pairs.iter().map(|p| (p.left, p.right)).collect();
            (kept, capped.capped)
        };
        // Every sentence counted: no sentence keeps (0, 1), and left 0 is not matched to a
        // counted sentence any more.
        assert_eq!(
            kept(PartnersKept::best(1)),
            (vec![(0, 0), (1, 1)], [vec![0], vec![1]])
        );
        // Counted apart: left 0 keeps its best counted partner beside the fragment (still
        // reported: by its own Sim it has two partners and keeps one).
        let counted: [&[bool]; 2] = [&[true, true], &[false, true]];
        assert_eq!(
            kept(PartnersKept::counting(1, counted)),
            (vec![(0, 0), (0, 1), (1, 1)], [vec![0], vec![1]])
        );
        // Uncounted, left 0 and right 1 rank their partners together, as before.
        let uncounted: [&[bool]; 2] = [&[false, true], &[false, false]];
        assert_eq!(
            kept(PartnersKept::counting(1, uncounted)),
            (vec![(0, 0), (1, 1)], [vec![0], vec![1]])
        );
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
        let capped = keep_best(
            pairs,
            0.4,
            PartnersKept::best(2),
            [10, 10],
            [vec![], vec![]],
        );
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
