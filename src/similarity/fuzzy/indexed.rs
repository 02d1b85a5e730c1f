//! The indexed scoring of two documents ([`FuzzyMatcher::score_indexed`]): candidates from
//! both directions (or capped searches), scored once, keeping the pairs the caller needs.
//! The trait's scoring entry points (all but brute force) end here; apart from the trait's
//! implementation, which only says which pairs are needed and how partners are capped.

use super::capped_lists::CandidateLists;
use super::*;

impl FuzzyMatcher {
    /// The indexed scoring, through the model's correlations or without them, of the pairs
    /// `needed` asks for (all of them for `None`), with each sentence's partners capped as `cap`
    /// says (none for `None`).
    pub(super) fn score_indexed(
        &self,
        request: &ScoringRequest<'_>,
        needed: Option<NeededPairs<'_>>,
        cap: Option<PartnerCap<'_>>,
        cancel: &AtomicBool,
    ) -> Result<CappedPairs, Cancelled> {
        let ScoringRequest {
            left,
            right,
            model,
            floor,
            rules,
        } = *request;
        let lens = [left.sentences.len(), right.sentences.len()];
        let capped = |pairs: Vec<ScoredPair>, stopped: [Vec<u32>; 2]| match cap {
            Some(cap) => cap.keep(pairs, floor, lens, stopped),
            None => CappedPairs {
                pairs,
                capped: Default::default(),
            },
        };
        let both_ways = matches!(needed, Some(NeededPairs::BothWays));
        if both_ways && std::ptr::eq(left, right) && cap.is_none() {
            let pairs = self.pairs_within(request, |p| Some(*p), cancel)?;
            return Ok(capped(pairs, Default::default()));
        }
        let lexical = self.lexical(model, rules);
        let indexed = IndexedView::new(self, model, lexical.as_ref(), &[left, right]);
        let model = indexed.view();
        let stopwords = left.options.keep_stopwords || right.options.keep_stopwords;
        // Candidates are generated from content terms: without stopwords their Sim is the Sim;
        // with them, a kept direction needs the content floor (or the floor, if lower: a pair of
        // sentences without stopwords needs only that).
        let content_floor = rules.content_floor_for(floor, stopwords).min(floor);
        if content_floor <= 0.0 {
            // Every pair may reach a non-positive floor: there is nothing to prune. (`model` is
            // already the one without correlations for the overlap matcher.)
            let pairs = self.score_pairs_brute_force(&ScoringRequest { model, ..*request });
            return Ok(capped(pairs, Default::default()));
        }
        let scoring = Scoring::new(left, right, model, rules, lexical, floor, both_ways);
        // Under WordNet's relations most candidates at the content floor miss the floor over
        // the whole sets, and each costs its words' relations to find that out.
        let whole_floor = lexical.is_some().then_some(floor);
        let mut stopped: [Vec<u32>; 2] = Default::default();
        // Candidates missing the whole sets' floor that a capped search left out, per direction.
        let mut missing_whole: [CandidateLists; 2] = Default::default();
        let forward = match cap {
            Some(cap) => {
                let found =
                    candidates_capped(left, right, model, content_floor, &scoring, cap, cancel)?;
                stopped[0] = found.stopped;
                missing_whole[0] = found.missing_whole;
                found.lists
            }
            None => candidates(left, right, model, content_floor, whole_floor, cancel)?,
        };
        // A document compared with itself (a collection's sentences against each other) has the
        // same candidates both ways round.
        let mut backward = if std::ptr::eq(left, right) {
            stopped[1] = stopped[0].clone();
            None
        } else if let Some(PartnerCap {
            kept,
            counted,
            beside,
            ..
        }) = cap
        {
            // The right sentences' searches rank their partners from their own side.
            let from_right = Scoring::new(right, left, model, rules, lexical, floor, both_ways);
            let cap = PartnerCap {
                kept,
                counted: [counted[1], counted[0]],
                starts: None,
                beside,
            };
            let found =
                candidates_capped(right, left, model, content_floor, &from_right, cap, cancel)?;
            stopped[1] = found.stopped;
            missing_whole[1] = found.missing_whole;
            Some(found.lists)
        } else {
            Some(candidates(
                right,
                left,
                model,
                content_floor,
                whole_floor,
                cancel,
            )?)
        };
        // A sentence whose capped search stopped may have left out a pair it reaches the floor
        // with, which the other sentence's search found, as a candidate at the content floor
        // that may miss the whole sets' floor its own way round: such candidates are put back,
        // so that the pairs scored are those scored without the whole sets' floor.
        let [forward_missing, backward_missing] = missing_whole;
        let mut forward = forward;
        put_back(&mut forward, forward_missing, &stopped[1]);
        if let Some(backward) = &mut backward {
            put_back(backward, backward_missing, &stopped[0]);
        }
        let merged = merge_directions(left.sentences.len(), forward, backward, both_ways);
        check(cancel)?;
        // Each left sentence's candidates, by position, for the neighbour test of `needed`.
        let mut candidates_of: Vec<&[u32]> = vec![&[]; left.sentences.len()];
        for (i, list) in &merged {
            candidates_of[*i as usize] = list;
        }
        let right_len = right.sentences.len();
        let scored = merged
            .par_iter()
            .try_fold(
                || ScoredPiece::new(right_len),
                |mut piece, (i, list)| {
                    check(cancel)?;
                    let mut found = scoring.score(*i, list, &mut piece.scratch);
                    match needed {
                        None => piece.pairs.append(&mut found),
                        Some(NeededPairs::BothWays) => piece
                            .pairs
                            .extend(found.into_iter().filter(|p| p.min_sim() >= floor)),
                        Some(NeededPairs::WithOneWay {
                            left: near_left,
                            right: near_right,
                        }) => {
                            let neighbours_of_i_reach = |j: u32| {
                                near_left.any(*i, |n| {
                                    candidates_of[n as usize].binary_search(&j).is_ok()
                                })
                            };
                            let neighbours_of_j_reached =
                                |j: u32| near_right.any(j, |m| list.binary_search(&m).is_ok());
                            keep_needed_one_way(
                                found,
                                floor,
                                neighbours_of_i_reach,
                                neighbours_of_j_reached,
                                &mut piece,
                            );
                        }
                    }
                    Ok(piece)
                },
            )
            .try_reduce(|| ScoredPiece::new(right_len), |a, b| Ok(a.join(b)))?;
        let mut pairs = scored.pairs;
        let best_of_right: Vec<ScoredPair> = scored.best_of_right.into_pairs().collect();
        if !best_of_right.is_empty() {
            pairs.extend(best_of_right);
            pairs.sort_unstable_by_key(|p| (p.left, p.right));
            pairs.dedup_by_key(|p| (p.left, p.right));
        }
        Ok(capped(pairs, stopped))
    }
}

/// Adds to `lists` (per sentence, its candidates) each candidate of `missing` (per sentence,
/// candidates left out) whose own search stopped (`stopped`, ascending), keeping each list
/// sorted and the lists in order of their sentences.
fn put_back(lists: &mut CandidateLists, missing: CandidateLists, stopped: &[u32]) {
    if stopped.is_empty() {
        return;
    }
    for (i, left_out) in missing {
        let back: Vec<u32> = left_out
            .into_iter()
            .filter(|j| stopped.binary_search(j).is_ok())
            .collect();
        if back.is_empty() {
            continue;
        }
        match lists.binary_search_by_key(&i, |(s, _)| *s) {
            Ok(at) => {
                let list = &mut lists[at].1;
                list.extend(back);
                list.sort_unstable();
                list.dedup();
            }
            Err(at) => lists.insert(at, (i, back)),
        }
    }
}
