//! The candidates of every sentence of one document in another by the capped search
//! ([`candidates_capped`], [`super::capped_search`]), for a caller keeping each sentence's best
//! partners.

use std::sync::atomic::AtomicBool;

use rayon::prelude::*;

use super::candidates::CandidateSearch;
use super::capped_search::{CANDIDATES_BEFORE_CAPPED_IN_PAIRS, CappedSearch, PartnerRanking};
use super::scoring::{Scoring, ScoringScratch};
use crate::similarity::partners;
use crate::similarity::{Cancelled, ModelView, PartnerCap, PreparedDoc, PreparedSentence, check};

/// Per sentence of one document with candidates, its candidates in the other, sorted.
pub(super) type CandidateLists = Vec<(u32, Vec<u32>)>;

/// What [`candidates_capped`] found: per sentence its candidates, and apart those its plain
/// search found at the content floor that miss the whole sets' floor (sentences without any
/// left out; [`super::whole_floor`]); and the sentences whose search stopped, ascending.
pub(super) struct CappedCandidates {
    pub(super) lists: CandidateLists,
    pub(super) missing_whole: CandidateLists,
    pub(super) stopped: Vec<u32>,
}

/// [`super::candidates::candidates`] for a caller keeping each sentence's `cap.kept` best
/// partners at `floor` both ways, in each source of `to` when `cap.starts` says where they
/// start ([`CandidateSearch::of_capped`], [`CandidateSearch::of_capped_per_group`], each
/// candidate met scored by `scoring`, which scores `from` against `to`), at the content floor
/// `content_floor` (under WordNet's relations the plain search's candidates are held to
/// `scoring`'s floor over the whole sets too: [`super::whole_floor`]); also the sentences of
/// `from` whose search stopped, ascending.
pub(super) fn candidates_capped(
    from: &PreparedDoc,
    to: &PreparedDoc,
    model: &dyn ModelView,
    content_floor: f64,
    scoring: &Scoring<'_>,
    cap: PartnerCap<'_>,
    cancel: &AtomicBool,
) -> Result<CappedCandidates, Cancelled> {
    // Under WordNet's relations, the plain search's candidates are held to the floor over the
    // whole sets too ([`super::whole_floor`]).
    let whole_floor = scoring.lexical.is_some().then_some(scoring.floor);
    let search = CandidateSearch::new(from, to, model, content_floor).with_whole_floor(
        from,
        to,
        whole_floor,
    );
    check(cancel)?;
    let active: Vec<(u32, &PreparedSentence)> = from.active().collect();
    let (from_len, to_len) = (
        from.sentences.len().max(1) as u64,
        to.sentences.len() as u64,
    );
    let found: Vec<(u32, CappedSearch)> = active
        .par_iter()
        .map_init(
            || (search.scratch(), ScoringScratch::default()),
            |(searching, scoring_scratch), &(i, sentence)| {
                check(cancel)?;
                // Readied at the first pair scored: most searches score none (the plain search
                // lists candidates that `score_indexed` scores later).
                let mut prepared = false;
                let mut score = |j: u32| {
                    if !prepared {
                        scoring.prepare(i, scoring_scratch);
                        prepared = true;
                    }
                    scoring
                        .score_prepared(i, j, scoring_scratch)
                        .map(|p| (p.sim_lr, p.sim_rl))
                };
                // A counted sentence holds its best counted partners before it stops; the others
                // it meets are kept as candidates ([`PartnerRanking::counted`]).
                let counts = partners::counts(cap.counted[0], i);
                let mut ranking = PartnerRanking {
                    kept: cap.kept,
                    counted: if counts { cap.counted[1] } else { &[] },
                    floor: scoring.floor,
                    near: (u64::from(i) * to_len / from_len) as u32,
                    score: &mut score,
                    diagonal: true,
                    capped_from: CANDIDATES_BEFORE_CAPPED_IN_PAIRS,
                };
                let mut found = match cap.starts {
                    Some(starts) => search.of_capped_per_group(
                        sentence,
                        searching,
                        &mut ranking,
                        starts,
                        (u64::from(i), from_len),
                    ),
                    None => search.of_capped(sentence, searching, &mut ranking),
                };
                if cap.beside && found.stopped {
                    found.candidates = with_neighbours(&found.candidates, to.sentences.len(), cap);
                }
                Ok((i, found))
            },
        )
        .collect::<Result<_, Cancelled>>()?;
    let stopped = found
        .iter()
        .filter(|(_, search)| search.stopped)
        .map(|&(i, _)| i)
        .collect();
    let mut lists = Vec::with_capacity(found.len());
    let mut missing_whole = Vec::new();
    for (i, search) in found {
        lists.push((i, search.candidates));
        if !search.missing_whole.is_empty() {
            missing_whole.push((i, search.missing_whole));
        }
    }
    Ok(CappedCandidates {
        lists,
        missing_whole,
        stopped,
    })
}

/// `candidates` (sorted) with the sentences beside each (before and after, within `0..len`
/// and within the same source of `cap.starts`), sorted.
fn with_neighbours(candidates: &[u32], len: usize, cap: PartnerCap<'_>) -> Vec<u32> {
    let source_of = |j: u32| {
        cap.starts
            .map_or(0, |s| s.partition_point(|&s| s <= j as usize))
    };
    let mut out: Vec<u32> = candidates
        .iter()
        .flat_map(|&j| {
            let before = j.checked_sub(1);
            let after = (j as usize + 1 < len).then_some(j + 1);
            [before, Some(j), after]
                .into_iter()
                .flatten()
                .filter(move |&k| source_of(k) == source_of(j))
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}
