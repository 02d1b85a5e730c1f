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
    /// most [`Thresholds::chance`] ([`Self::evidence_chains`]).
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
        if self.chance.is_some() {
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
    /// most [`Thresholds::chance`], all chains when it is `None`), their members indexing
    /// [`Self::pairs`]. Empty otherwise.
    pub fn evidence_chains(&self, thresholds: &Thresholds) -> Vec<chance::chains::Chain> {
        let Some(evidence) = &self.chance else {
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
        evidence: &chance::ChanceEvidence,
        thresholds: &Thresholds,
    ) -> Vec<chance::chains::Chain> {
        let summary = &evidence.summary;
        let eligible: Vec<usize> = (0..self.pairs.len())
            .filter(|&i| self.pairs[i].is_link(thresholds))
            .collect();
        let links: Vec<ScoredPair> = eligible.iter().map(|&i| self.pairs[i]).collect();
        let kept: Vec<Option<u32>> = links.iter().map(|p| evidence.index_of(p)).collect();
        let bar = thresholds.chance.map_or(f64::INFINITY, |e| e.max(0.0).ln());
        let surprise = |i: usize, before: Option<usize>| {
            evidence.surprise(kept[i], before.and_then(|j| kept[j]))
        };
        let whole = |members: &[usize]| evidence.chain_surprise(members.iter().map(|&m| kept[m]));
        chance::chains::find(
            &links,
            summary.ln_pairs,
            summary.options.reach,
            surprise,
            whole,
        )
        .into_iter()
        .filter(|c| c.ln_e <= bar)
        .map(|mut c| {
            for m in &mut c.members {
                *m = eligible[*m];
            }
            c
        })
        .collect()
    }
}
