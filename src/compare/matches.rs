//! Which scored pairs are matches under a set of thresholds: the pairs EQ under them (thesis
//! eq. 3.4, one-to-two matches preferred where they score better), or, judged against chance,
//! the links of the passages unlikely enough by chance; less the runs of matches shorter than
//! the shortest match ([`Thresholds::min_words`]).

use super::{Comparison, chance, passages};
use crate::similarity::{ScoredPair, Thresholds};

impl Comparison {
    /// The pairs that are EQ under `thresholds` (eq. 3.4), in (left, right) order: the pairs of
    /// EQ one-to-two matches (a join is kept only where it scores better than either half alone,
    /// so it is the better account of the pair), and the other pairs EQ on their own.
    ///
    /// When matches are judged against chance, only the links of passages whose E-value is at
    /// most [`Thresholds::max_e_value`] ([`Self::evidence_chains`]).
    ///
    /// With [`Thresholds::min_words`], matches in a run of fewer words are left out: a passage
    /// (an evidence chain when judged against chance, else a run of matches with at most
    /// [`passages::DEFAULT_GAP`] unmatched sentences between two of them, [`passages::in_long_runs`])
    /// counts the words of its sentences on the side that has fewer.
    pub fn matches<'a>(
        &'a self,
        thresholds: &'a Thresholds,
    ) -> Box<dyn Iterator<Item = &'a ScoredPair> + 'a> {
        let min_words = thresholds.min_words as usize;
        let words = [&*self.words[0], &*self.words[1]];
        if self.link_surprises.is_some() {
            let mut members: Vec<usize> = self
                .evidence_chains(thresholds)
                .into_iter()
                .filter(|c| {
                    min_words == 0
                        || passages::passage_of(&self.pairs, c.members.clone(), words).words
                            >= min_words
                })
                .flat_map(|c| c.members)
                .collect();
            members.sort_unstable();
            return Box::new(members.into_iter().map(|i| &self.pairs[i]));
        }
        let eq = self.eq_matches(thresholds);
        if min_words == 0 {
            return eq;
        }
        let eq: Vec<&ScoredPair> = eq.collect();
        let copies: Vec<ScoredPair> = eq.iter().map(|p| **p).collect();
        let long_enough = passages::in_long_runs(&copies, words, min_words);
        Box::new(
            eq.into_iter()
                .zip(long_enough)
                .filter_map(|(pair, keep)| keep.then_some(pair)),
        )
    }

    /// The pairs EQ under `thresholds`, of any length (see [`Self::matches`]).
    fn eq_matches<'a>(
        &'a self,
        thresholds: &'a Thresholds,
    ) -> Box<dyn Iterator<Item = &'a ScoredPair> + 'a> {
        let key = |p: &ScoredPair| (p.left, p.right);
        let mut singles = self.pairs.iter().filter(|p| p.is_eq(thresholds)).peekable();
        let mut joined = self
            .joined
            .iter()
            .filter(|p| p.is_eq(thresholds))
            .peekable();
        Box::new(std::iter::from_fn(move || {
            match (singles.peek(), joined.peek()) {
                (Some(s), Some(j)) if key(j) < key(s) => joined.next(),
                (Some(s), Some(j)) if key(j) == key(s) => {
                    singles.next();
                    joined.next()
                }
                (Some(_), _) => singles.next(),
                (None, _) => joined.next(),
            }
        }))
    }

    /// In a comparison judged against chance: the passages that count as evidence under
    /// `thresholds` (chains of links admitted by [`ScoredPair::is_link`] whose E-value is at
    /// most [`Thresholds::max_e_value`], all chains when it is `None`), their members indexing
    /// [`Self::pairs`]. Empty otherwise.
    pub fn evidence_chains(&self, thresholds: &Thresholds) -> Vec<chance::chains::Chain> {
        let Some(evidence) = &self.link_surprises else {
            return Vec::new();
        };
        let chains = evidence.memo().get_or_find(thresholds, || {
            self.find_evidence_chains(evidence, thresholds)
        });
        chains.as_ref().clone()
    }

    /// [`Self::evidence_chains`], found.
    fn find_evidence_chains(
        &self,
        evidence: &chance::LinkSurprises,
        thresholds: &Thresholds,
    ) -> Vec<chance::chains::Chain> {
        let summary = &evidence.summary;
        let eligible: Vec<usize> = (0..self.pairs.len())
            .filter(|&i| self.pairs[i].is_link(thresholds))
            .collect();
        let links: Vec<ScoredPair> = eligible.iter().map(|&i| self.pairs[i]).collect();
        let kept: Vec<Option<u32>> = links.iter().map(|p| evidence.index_of(p)).collect();
        let bar = thresholds
            .max_e_value
            .map_or(f64::INFINITY, |e| e.max(0.0).ln());
        let surprise = |i: usize, before: Option<usize>| {
            evidence.surprise(kept[i], before.and_then(|j| kept[j]))
        };
        let whole = |members: &[usize]| evidence.chain_surprise(members.iter().map(|&m| kept[m]));
        let chains = chance::chains::find(
            &links,
            summary.ln_pairs,
            summary.options.reach,
            surprise,
            whole,
        )
        .into_iter()
        .filter(|c| c.ln_e <= bar || self.copies_a_whole_text(c.members.iter().map(|&m| &links[m])))
        .map(|mut c| {
            for m in &mut c.members {
                *m = eligible[*m];
            }
            c
        })
        .collect();
        self.extend_through_identical_flanks(chains, thresholds)
    }

    /// Each chain extended at both ends along its diagonal through identical pairs (the same
    /// words in the same order), at most [`chance::links::LONGEST_BRIDGE`] each way, that are
    /// links under `thresholds` and in no other chain. A copied title or heading whose words the
    /// text repeats throughout is likely alone ("Chicago White Sox" in its own article), so it
    /// did not join the passage of the copy it opens and an identical copy read 95%: text
    /// identical on both sides next to evidence on its diagonal is the same copy, as between
    /// two links ([`chance::links::bridge_identical`]).
    fn extend_through_identical_flanks(
        &self,
        mut chains: Vec<chance::chains::Chain>,
        thresholds: &Thresholds,
    ) -> Vec<chance::chains::Chain> {
        let index_of = |left: i64, right: i64| -> Option<usize> {
            let (l, r) = (u32::try_from(left).ok()?, u32::try_from(right).ok()?);
            let i = self
                .pairs
                .binary_search_by_key(&(l, r), |p| (p.left, p.right))
                .ok()?;
            let pair = &self.pairs[i];
            (pair.identical && pair.is_link(thresholds)).then_some(i)
        };
        let mut used: rustc_hash::FxHashSet<usize> = chains
            .iter()
            .flat_map(|c| c.members.iter().copied())
            .collect();
        for chain in &mut chains {
            let (Some(&first), Some(&last)) = (chain.members.first(), chain.members.last()) else {
                continue;
            };
            let mut before = Vec::new();
            let (a, b) = (
                i64::from(self.pairs[first].left),
                i64::from(self.pairs[first].right),
            );
            for k in 1..=i64::from(chance::links::LONGEST_BRIDGE) {
                match index_of(a - k, b - k).filter(|i| !used.contains(i)) {
                    Some(i) => before.push(i),
                    None => break,
                }
            }
            let mut after = Vec::new();
            let (a, b) = (
                i64::from(self.pairs[last].left),
                i64::from(self.pairs[last].right),
            );
            for k in 1..=i64::from(chance::links::LONGEST_BRIDGE) {
                match index_of(a + k, b + k).filter(|i| !used.contains(i)) {
                    Some(i) => after.push(i),
                    None => break,
                }
            }
            if before.is_empty() && after.is_empty() {
                continue;
            }
            used.extend(before.iter().chain(&after).copied());
            before.reverse();
            before.append(&mut chain.members);
            before.append(&mut after);
            chain.members = before;
        }
        chains
    }

    /// Whether a chain of `members` is a whole text copied: every pair identical and every
    /// counted sentence of one side in it. A text too short to be judged against chance (one
    /// word, "Cleveland"; a title) cannot reach the bar even against its own copy, yet found
    /// whole and verbatim in the other it is found, and reading 0% would say it is not: such a
    /// chain counts as evidence whatever its E-value, and the summary says why
    /// ([`Self::too_short_to_judge`]).
    fn copies_a_whole_text<'a>(&self, members: impl Iterator<Item = &'a ScoredPair>) -> bool {
        let mut sides: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
        for pair in members {
            if !pair.identical {
                return false;
            }
            sides[0].push(pair.left);
            sides[1].push(pair.right);
        }
        (0..2).any(|side| {
            let counted = &self.counted[side];
            let total = counted.iter().filter(|&&c| c).count();
            let mut held: Vec<u32> = sides[side]
                .iter()
                .copied()
                .filter(|&p| counted.get(p as usize).copied().unwrap_or(false))
                .collect();
            held.sort_unstable();
            held.dedup();
            total > 0 && held.len() == total
        })
    }

    /// Whether some of the evidence under `thresholds` is a whole text copied that is too short
    /// to reach the chance bar on its own ([`Self::copies_a_whole_text`]), for the summary.
    pub fn too_short_to_judge(&self, thresholds: &Thresholds) -> bool {
        let bar = thresholds
            .max_e_value
            .map_or(f64::INFINITY, |e| e.max(0.0).ln());
        self.link_surprises.is_some()
            && self
                .evidence_chains(thresholds)
                .iter()
                .any(|c| c.ln_e > bar)
    }
}
