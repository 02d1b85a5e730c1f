//! Scoring the candidates of the fuzzy-set matcher ([`super`]): a collection against itself
//! both ways, the scorer with its scratch space, and the pieces of pairs each parallel task
//! keeps (every pair at the floor both ways, the one-way pairs the caller needs).

use super::capped_search::{CANDIDATES_BEFORE_CAPPED, PartnerRanking};
use super::pair_bound::PairBound;
use super::pair_relations::{LemmaRelations, PairRelations};
use super::*;

/// A collection's sentences against themselves when only the pairs reaching the floor both ways
/// are needed (EQ counts): each sentence's candidates are scored as they are found and
/// forgotten, instead of holding every sentence's list and the lists turned around to
/// intersect them. A pair reaching the floor both ways is a candidate of each of its sentences,
/// so one direction's candidates hold them all; scoring the pairs the other direction's bound
/// would have ruled out costs time, and holding both directions' lists cost memory that grew
/// with the square of the collection (Reuters-21578: 470 million candidates a direction).
pub(super) fn score_itself_both_ways<T: Send>(
    doc: &PreparedDoc,
    model: &dyn ModelView,
    content_floor: f64,
    scoring: &Scoring<'_>,
    keep: impl Fn(&ScoredPair) -> Option<T> + Sync,
    cancel: &AtomicBool,
) -> Result<Vec<T>, Cancelled> {
    let search = CandidateSearch::new(doc, doc, model, content_floor);
    check(cancel)?;
    let active: Vec<(u32, &PreparedSentence)> = doc.active().collect();
    // Each parallel piece gathers its pairs in one list, appended in order at the end: one
    // list per sentence, flattened, held the pairs twice at the peak.
    active
        .par_iter()
        .try_fold(
            || (search.scratch(), ScoringScratch::default(), Vec::new()),
            |(mut searching, mut scratch, mut pairs), &(i, sentence)| {
                check(cancel)?;
                let list = search.of(sentence, &mut searching);
                let found = scoring.score(i, &list, &mut scratch);
                pairs.extend(
                    found
                        .iter()
                        .filter(|p| p.min_sim() >= scoring.floor)
                        .filter_map(&keep),
                );
                Ok((searching, scratch, pairs))
            },
        )
        .map(|piece| piece.map(|(_, _, pairs)| pairs))
        .try_reduce(Vec::new, |mut pairs, mut next| {
            pairs.append(&mut next);
            Ok(pairs)
        })
}

/// [`score_itself_both_ways`] keeping each sentence's `kept` best partners at the floor both
/// ways (by the smaller Sim, then the larger, then the nearest position, then the earlier
/// one: [`crate::similarity::partners`]), each search stopping once it holds them
/// ([`CandidateSearch::of_capped`]). A pair is returned by each of its sentences that keeps
/// it (once or twice, either way round). Also the sentences that had more partners than they
/// keep, or whose search stopped, ascending.
pub(super) fn score_itself_capped<T: Send>(
    doc: &PreparedDoc,
    model: &dyn ModelView,
    content_floor: f64,
    scoring: &Scoring<'_>,
    kept: usize,
    keep: impl Fn(&ScoredPair) -> Option<T> + Sync,
    cancel: &AtomicBool,
) -> Result<(Vec<T>, Vec<u32>), Cancelled> {
    let search = CandidateSearch::new(doc, doc, model, content_floor);
    check(cancel)?;
    let active: Vec<(u32, &PreparedSentence)> = doc.active().collect();
    let floor = scoring.floor;
    let (mut pairs, mut capped) = active
        .par_iter()
        .try_fold(
            || {
                let scratch = (search.scratch(), ScoringScratch::default());
                (scratch, Vec::new(), Vec::new())
            },
            |((mut searching, mut scratch), mut pairs, mut capped), &(i, sentence)| {
                check(cancel)?;
                scoring.prepare(i, &mut scratch);
                let mut met: Vec<ScoredPair> = Vec::new();
                let mut score = |j: u32| {
                    let pair = scoring.score_prepared(i, j, &mut scratch)?;
                    met.push(pair);
                    Some((pair.sim_lr, pair.sim_rl))
                };
                // A collection counts every sentence.
                let mut ranking = PartnerRanking {
                    kept,
                    counted: &[],
                    floor,
                    near: i,
                    score: &mut score,
                    diagonal: false,
                    capped_from: CANDIDATES_BEFORE_CAPPED,
                };
                let found = search.of_capped(sentence, &mut searching, &mut ranking);
                if !found.scored {
                    met = scoring.score(i, &found.candidates, &mut scratch);
                }
                met.retain(|p| p.min_sim() >= floor);
                met.sort_unstable_by(|p, q| {
                    q.min_sim()
                        .total_cmp(&p.min_sim())
                        .then(q.sim_lr.max(q.sim_rl).total_cmp(&p.sim_lr.max(p.sim_rl)))
                        .then(p.right.abs_diff(i).cmp(&q.right.abs_diff(i)))
                        .then(p.right.cmp(&q.right))
                });
                if found.stopped || met.len() > kept {
                    capped.push(i);
                }
                pairs.extend(met.iter().take(kept).filter_map(&keep));
                Ok(((searching, scratch), pairs, capped))
            },
        )
        .map(|piece| piece.map(|(_, pairs, capped)| (pairs, capped)))
        .try_reduce(
            || (Vec::new(), Vec::new()),
            |(mut pairs, mut capped), (mut more, mut more_capped)| {
                pairs.append(&mut more);
                capped.append(&mut more_capped);
                Ok((pairs, capped))
            },
        )?;
    pairs.shrink_to_fit();
    capped.sort_unstable();
    Ok((pairs, capped))
}

/// Scoring a left sentence against its candidates: the two documents, the rules, the floor and
/// the correlate rows of the left terms, restricted to terms present on the right.
pub(super) struct Scoring<'a> {
    pub(super) left: &'a PreparedDoc,
    pub(super) right: &'a PreparedDoc,
    pub(super) rules: &'a MatchRules,
    pub(super) rows: FxHashMap<TermId, Vec<(TermId, f32)>>,
    /// WordNet's relations between the words of each pair, instead of `rows`.
    pub(super) lexical: Option<Lexical<'a>>,
    pub(super) floor: f64,
    /// Only the pairs reaching the floor both ways are wanted: a pair missing the content floor
    /// either way is not scored further (see [`sims_under_rules`]).
    pub(super) both_ways_only: bool,
}

/// One thread's working space for [`Scoring::score`]: the left sentence's related terms over
/// all its terms and over its content terms (or its words' WordNet relations by lemma), and the
/// alignment's scratch.
#[derive(Default)]
pub(super) struct ScoringScratch {
    pub(super) related: RelatedTerms,
    pub(super) related_content: RelatedTerms,
    pub(super) lemma_relations: LemmaRelations,
    pub(super) pair_bound: PairBound,
    pub(super) pair_relations: PairRelations,
    pub(super) align: AlignScratch,
}

impl<'a> Scoring<'a> {
    pub(super) fn new(
        left: &'a PreparedDoc,
        right: &'a PreparedDoc,
        model: &dyn ModelView,
        rules: &'a MatchRules,
        lexical: Option<Lexical<'a>>,
        floor: f64,
        both_ways_only: bool,
    ) -> Scoring<'a> {
        let rows = if lexical.is_some() {
            FxHashMap::default()
        } else {
            let right_terms: FxHashSet<TermId> = right
                .active()
                .flat_map(|(_, s)| s.content().iter().copied())
                .collect();
            let left_terms = left.active().flat_map(|(_, s)| s.content().iter().copied());
            correlate_rows(left_terms, model, |k| right_terms.contains(&k))
        };
        Scoring {
            left,
            right,
            rules,
            rows,
            lexical,
            floor,
            both_ways_only,
        }
    }

    /// The pairs of left sentence `i` with the right sentences of `list` that the rules allow
    /// and that reach the floor one way or both, in the order of `list`.
    pub(super) fn score(
        &self,
        i: u32,
        list: &[u32],
        scratch: &mut ScoringScratch,
    ) -> Vec<ScoredPair> {
        self.prepare(i, scratch);
        list.iter()
            .filter_map(|&j| self.score_prepared(i, j, scratch))
            .collect()
    }

    /// Readies `scratch` to score left sentence `i` against any right sentences
    /// ([`Self::score_prepared`]): its related terms (or its words' WordNet relations by lemma), read
    /// once for all its candidates.
    pub(super) fn prepare(&self, i: u32, scratch: &mut ScoringScratch) {
        let sentence = &self.left.sentences[i as usize];
        if let Some(lexical) = &self.lexical {
            scratch.lemma_relations.fill(sentence, lexical);
            scratch.pair_bound.prepare(sentence);
            return;
        }
        scratch.related.fill(&sentence.set, &self.rows);
        if sentence.has_stopwords() {
            scratch.related_content.fill(sentence.content(), &self.rows);
        }
    }

    /// The pair of left sentence `i` (whose scratch [`Self::prepare`] filled last) with right
    /// sentence `j`, if the rules allow it and it reaches the floor one way or both.
    pub(super) fn score_prepared(
        &self,
        i: u32,
        j: u32,
        scratch: &mut ScoringScratch,
    ) -> Option<ScoredPair> {
        let sentence = &self.left.sentences[i as usize];
        let other = &self.right.sentences[j as usize];
        let ScoringScratch {
            related,
            related_content,
            lemma_relations,
            pair_bound,
            pair_relations,
            align,
        } = scratch;
        if self.lexical.is_some() {
            if !self.rules.may_match(sentence, other) {
                return None;
            }
            // Most candidates of the index's per-stem bound miss the floor by their own words:
            // the bound of `pair_bound` finds most of them without listing their links, that
            // of `pair_relations` the rest without aligning them.
            let (floor, both_ways_only) = (self.floor, self.both_ways_only);
            let rules = self.rules;
            if !pair_bound.may_keep(
                lemma_relations,
                sentence,
                other,
                rules,
                floor,
                both_ways_only,
            ) {
                return None;
            }
            pair_relations.fill(lemma_relations, sentence, other);
            if !pair_relations.may_keep(sentence, other, rules, floor, both_ways_only) {
                return None;
            }
            let c = pair_relations.links(lemma_relations, sentence, other);
            let sims = lexical_sims(sentence, other, self.rules, &c, align, self.both_ways_only);
            return kept(i, j, sims, self.floor, sentence, other);
        }
        let c = correlation_in(&self.rows);
        let sims = sims_under_rules(
            sentence,
            other,
            self.rules,
            &c,
            |a, b, content| {
                let related = if content && sentence.has_stopwords() {
                    &*related_content
                } else {
                    &*related
                };
                related.sims(a.len(), b)
            },
            align,
            self.both_ways_only,
        );
        kept(i, j, sims, self.floor, sentence, other)
    }
}

/// What the parallel scoring of a run of left sentences gathers: their pairs in order, and the
/// best right-to-left pair of each right sentence so far (with [`NeededPairs`]).
pub(super) struct ScoredPiece {
    pub(super) pairs: Vec<ScoredPair>,
    pub(super) best_of_right: BestOfRight,
    pub(super) scratch: ScoringScratch,
}

impl ScoredPiece {
    pub(super) fn new(right_len: usize) -> ScoredPiece {
        ScoredPiece {
            pairs: Vec::new(),
            best_of_right: BestOfRight::new(right_len),
            scratch: Default::default(),
        }
    }

    /// `self` followed by `next` (the left sentences of `next` come after).
    pub(super) fn join(mut self, mut next: ScoredPiece) -> ScoredPiece {
        self.pairs.append(&mut next.pairs);
        self.best_of_right = self.best_of_right.merge(next.best_of_right);
        self
    }
}

/// Adds to `piece` the pairs of one left sentence (`found`, sorted by right sentence) that
/// [`NeededPairs`] asks for: those at the floor both ways; the sentence's best pair at the floor
/// left to right only; a left-to-right pair when `neighbours_of_i_reach` its right sentence
/// (a neighbour of the left sentence has it as a candidate) and a right-to-left one when
/// `neighbours_of_j_reached` (a neighbour of its right sentence is a candidate of the left
/// one). Every right-to-left pair is offered as its right sentence's best.
pub(super) fn keep_needed_one_way(
    found: Vec<ScoredPair>,
    floor: f64,
    neighbours_of_i_reach: impl Fn(u32) -> bool,
    neighbours_of_j_reached: impl Fn(u32) -> bool,
    piece: &mut ScoredPiece,
) {
    let start = piece.pairs.len();
    let mut best_of_left: Option<(ScoredPair, bool)> = None;
    for pair in found {
        let (lr, rl) = (pair.sim_lr >= floor, pair.sim_rl >= floor);
        if lr && rl {
            piece.pairs.push(pair);
        } else if lr {
            let keep = neighbours_of_i_reach(pair.right);
            if keep {
                piece.pairs.push(pair);
            }
            if best_of_left.is_none_or(|(best, _)| needed::better_for_left(&pair, &best)) {
                best_of_left = Some((pair, keep));
            }
        } else {
            if neighbours_of_j_reached(pair.right) {
                piece.pairs.push(pair);
            }
            piece.best_of_right.offer(pair);
        }
    }
    if let Some((best, false)) = best_of_left {
        let own = &piece.pairs[start..];
        let at = start + own.partition_point(|p| p.right < best.right);
        piece.pairs.insert(at, best);
    }
}
