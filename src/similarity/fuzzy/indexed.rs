//! The indexed scoring of two documents ([`FuzzyMatcher::score_indexed`]): candidates from
//! both directions (or capped searches), scored once, keeping the pairs the caller needs.
//! The trait's scoring entry points (all but brute force) end here; apart from the trait's
//! implementation, which only says which pairs are needed and how partners are capped.

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
        let mut stopped: [Vec<u32>; 2] = Default::default();
        let forward = match cap {
            Some(cap) => {
                let (lists, left_stopped) =
                    candidates_capped(left, right, model, content_floor, &scoring, cap, cancel)?;
                stopped[0] = left_stopped;
                lists
            }
            None => candidates(left, right, model, content_floor, cancel)?,
        };
        // A document compared with itself (a collection's sentences against each other) has the
        // same candidates both ways round.
        let backward = if std::ptr::eq(left, right) {
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
            let (lists, right_stopped) =
                candidates_capped(right, left, model, content_floor, &from_right, cap, cancel)?;
            stopped[1] = right_stopped;
            Some(lists)
        } else {
            Some(candidates(right, left, model, content_floor, cancel)?)
        };
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
