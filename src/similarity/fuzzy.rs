//! The fuzzy-set IR sentence matcher of thesis 3.2.2.
//!
//! - eq. 3.1: c(i,j) = n(i,j) / (n(i) + n(j) - n(i,j)), from the reference model; c(i,i) = 1;
//! - eq. 3.2: mu(i, S_j) = 1 - prod over k in S_j of (1 - c(i,k));
//! - eq. 3.3: Sim(S_i, S_j) = mean of mu(w, S_j) over the words w of S_i;
//! - eq. 3.4: EQ(S_i, S_j) = 1 iff min(Sim(S_i,S_j), Sim(S_j,S_i)) >= permission (0.825) and
//!   |Sim(S_i,S_j) - Sim(S_j,S_i)| <= variation (0.15) ([`super::ScoredPair::is_eq`]).
//!
//! A sentence is read as the *set* of its distinct refined terms (the thesis does not say what a
//! repeated word does; as a set, repeating a word neither adds weight to it in the mean of eq. 3.3
//! nor multiplies its factor in eq. 3.2). A sentence without terms has no similarity to anything.
//! [`MatchRules`] may forbid a pair (short sentences) or zero a direction (content floor).
//!
//! [`FuzzyMatcher::OVERLAP`] is the same matcher with every correlation taken as 0: Sim is then
//! the share of a sentence's terms found in the other, stemmed word overlap, the baseline that
//! shows what word relatedness adds.
//!
//! ## Exact candidate generation
//! A pair is kept when either directional Sim reaches the floor, so candidates are generated in
//! both directions (left sentences against an index of the right document, and the reverse) and
//! scored once (`fuzzy/candidates.rs`). A document compared with itself (the same object: a
//! collection's sentences) is searched one way round, the other being the same. A caller that
//! needs only pairs at the floor both ways ([`NeededPairs::BothWays`]) has only the candidates
//! of both directions scored (against itself: each sentence's candidates are scored as they
//! are found), and one that needs a few one-way pairs has the others dropped as they are scored
//! ([`super::needed`]). Only content terms are indexed: with kept stopwords the content floor
//! of [`MatchRules`] bounds what the content terms must reach. In one direction:
//! mu(w, S_j) is 0 unless some k in S_j has c(w,k) > 0 ("w touches S_j"), and never above 1, so
//! Sim(S_i, S_j) <= touched(S_i, S_j) / |S_i|; tighter, a word touching S_j only through
//! correlates has exactly mu(w, S_j) = 1 - prod(1 - c(w,k)) over its correlates k in S_j. The
//! index keeps, per left term, the right sentences holding it (mu = 1) and those holding only
//! its correlates, each with that mu. For each left sentence it adds up the bounds per
//! right sentence, taking the words with the shortest lists first; once the remaining words
//! could not lift an untouched sentence to the floor they are only looked up for the sentences
//! already touched (prefix filtering; in ascending order, with a galloping search from where
//! the last lookup in that list stopped, and only until the bound reaches the floor or can no
//! longer). Only the right sentences whose bound reaches
//! floor x |S_i| are scored exactly, through the sentence's related terms sorted once (one
//! binary search per right word instead of one per pair of words). No pair that could reach the
//! floor is skipped; [`FuzzyMatcher::score_pairs_brute_force`] scores every pair the thesis's way and the
//! tests check both agree bit for bit.

use std::sync::atomic::AtomicBool;

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

mod candidates;
mod capped_search;
mod scoring;
mod sets;

use self::scoring::{
    ScoredPiece, Scoring, keep_needed_one_way, score_itself_both_ways, score_itself_capped,
};
pub use self::sets::similarity;
use self::sets::{
    LexicalRows, LexicalTable, RowsAgainst, WordsOf, directional_sims, lexical_sims, lookup,
};

use self::candidates::{CandidateSearch, candidates, merge_directions};
use self::capped_search::candidates_capped;
use super::aligned::{PairRelatedness, aligned_sims};
use super::lexical::{self, BoundView, Lexical};
use super::needed::{self, BestOfRight};
use super::partners::{self, CappedPairs, PartnerCap, PartnersKept};
use super::{
    Cancelled, Explanation, MatchRules, Method, ModelView, NeededPairs, PreparedDoc,
    PreparedSentence, Relate, ScoredPair, ScoringRequest, SentenceMatcher, TermId, TermMatch,
    Vocabulary, check,
};
use crate::model::wordnet::LemmaId;

/// The fuzzy-set IR matcher, with the reference model's correlations or without them.
#[derive(Clone, Copy, Debug)]
pub struct FuzzyMatcher {
    /// Read the model's correlations (eq. 3.1); without them every c(i, j) with i != j is 0.
    correlations: bool,
}

impl FuzzyMatcher {
    /// The thesis's matcher: eq. 3.2-3.3 with the model's correlations.
    pub const THESIS: FuzzyMatcher = FuzzyMatcher { correlations: true };
    /// Stemmed word overlap: the same Sim with every correlation taken as 0.
    pub const OVERLAP: FuzzyMatcher = FuzzyMatcher {
        correlations: false,
    };

    /// WordNet's relations, when the rules read them and this matcher reads relatedness at all
    /// (not [`FuzzyMatcher::OVERLAP`]).
    fn lexical<'m>(&self, model: &'m dyn ModelView, rules: &MatchRules) -> Option<Lexical<'m>> {
        if self.correlations {
            Lexical::of(model, &rules.related_words)
        } else {
            None
        }
    }

    /// The method this matcher implements.
    fn kind(&self) -> Method {
        if self.correlations {
            Method::Fuzzy
        } else {
            Method::Overlap
        }
    }
}

impl Default for FuzzyMatcher {
    fn default() -> Self {
        FuzzyMatcher::THESIS
    }
}

/// A model seen without its correlations (for [`FuzzyMatcher::OVERLAP`]).
struct NoCorrelations<'a>(&'a dyn ModelView);

impl ModelView for NoCorrelations<'_> {
    fn term_id(&self, term: &str) -> Option<TermId> {
        self.0.term_id(term)
    }
    fn vocabulary_size(&self) -> u32 {
        self.0.vocabulary_size()
    }
    fn correlates(&self, _term: TermId, _out: &mut Vec<(TermId, f32)>) {}
    fn fourgram_count(&self, gram: [char; 4]) -> u32 {
        self.0.fourgram_count(gram)
    }
    fn has_document_rates(&self) -> bool {
        self.0.has_document_rates()
    }
    fn document_rate(&self, term: TermId) -> f64 {
        self.0.document_rate(term)
    }
    fn sentence_rates(&self) -> Option<&crate::model::sentence_rates::SentenceRates> {
        self.0.sentence_rates()
    }
}

/// The model the candidate index of one comparison reads its correlate rows from: the model
/// itself, the model without correlations (for [`FuzzyMatcher::OVERLAP`]), or, with WordNet's
/// relations, rows bounding each pair of stems by the largest `c` over the compared documents'
/// words ([`lexical::bound_rows`]; each candidate is then scored by its own words).
enum IndexedView<'m> {
    Model(&'m dyn ModelView),
    Without(NoCorrelations<'m>),
    Bound(BoundView<'m>),
}

impl<'m> IndexedView<'m> {
    fn new(
        matcher: &FuzzyMatcher,
        model: &'m dyn ModelView,
        lexical: Option<&Lexical<'_>>,
        docs: &[&PreparedDoc],
    ) -> IndexedView<'m> {
        match lexical {
            Some(lexical) => IndexedView::Bound(BoundView {
                model,
                rows: lexical::bound_rows(docs, lexical),
            }),
            None if matcher.correlations => IndexedView::Model(model),
            None => IndexedView::Without(NoCorrelations(model)),
        }
    }

    fn view(&self) -> &dyn ModelView {
        match self {
            IndexedView::Model(model) => *model,
            IndexedView::Without(without) => without,
            IndexedView::Bound(bound) => bound,
        }
    }
}

/// Scratch space for one pair's aligned Sims: the alignment's table and the two sentences'
/// content terms in order.
#[derive(Default)]
struct AlignScratch {
    dp: Vec<u32>,
    left: Vec<TermId>,
    right: Vec<TermId>,
}

/// The content terms of `sentence` in order (repeats kept), into `out`.
fn content_sequence(sentence: &PreparedSentence, out: &mut Vec<TermId>) {
    let content = sentence.content();
    out.clear();
    out.extend(
        sentence
            .terms
            .iter()
            .copied()
            .filter(|t| content.binary_search(t).is_ok()),
    );
}

/// Both directional Sims of two sentences under `rules`: `None` for a pair the rules forbid; a
/// direction whose content terms miss the content floor counts 0 when stopwords take part.
/// `sets` computes the thesis's Sims of two term sets (its flag: content terms only); `c(l, r)`
/// relates a left term to a right term for [`Relate::Aligned`]. A pair whose content terms miss
/// the content floor both ways (or either way, with `both_ways_only`: only pairs reaching the
/// floor both ways are wanted) scores 0 both ways without its whole sets scored.
fn sims_under_rules(
    left: &PreparedSentence,
    right: &PreparedSentence,
    rules: &MatchRules,
    c: &impl PairRelatedness,
    mut sets: impl FnMut(&[TermId], &[TermId], bool) -> (f64, f64),
    scratch: &mut AlignScratch,
    both_ways_only: bool,
) -> Option<(f64, f64)> {
    if !rules.may_match(left, right) {
        return None;
    }
    let stopwords = left.has_stopwords() || right.has_stopwords();
    let content = stopwords.then(|| match rules.relate {
        Relate::All => sets(left.content(), right.content(), true),
        Relate::Aligned => {
            content_sequence(left, &mut scratch.left);
            content_sequence(right, &mut scratch.right);
            aligned_sims(
                &scratch.left,
                left.content(),
                &scratch.right,
                right.content(),
                c,
                &mut scratch.dp,
            )
        }
    });
    // Both directions zeroed by the content floor (or one, when both are wanted): the whole
    // sets need no scoring.
    if content.is_some_and(|(lr, rl)| {
        let (lr_out, rl_out) = (lr < rules.content_floor, rl < rules.content_floor);
        (lr_out && rl_out) || (both_ways_only && (lr_out || rl_out))
    }) {
        return Some((0.0, 0.0));
    }
    let (mut lr, mut rl) = match rules.relate {
        Relate::All => sets(&left.set, &right.set, false),
        Relate::Aligned => aligned_sims(
            &left.terms,
            &left.set,
            &right.terms,
            &right.set,
            c,
            &mut scratch.dp,
        ),
    };
    if let Some((content_lr, content_rl)) = content {
        if content_lr < rules.content_floor {
            lr = 0.0;
        }
        if content_rl < rules.content_floor {
            rl = 0.0;
        }
    }
    Some((lr, rl))
}

/// c(l, r) from a map of sorted correlate rows of the left terms.
fn correlation_in<'m>(
    rows: &'m FxHashMap<TermId, Vec<(TermId, f32)>>,
) -> impl Fn(TermId, TermId) -> f32 + 'm {
    move |l, r| lookup(rows.get(&l).map_or(&[][..], Vec::as_slice), l, r)
}

/// Both directional Sims of two prepared sentences under `rules`, straight from a model; 0 both
/// ways for a pair the rules forbid.
pub fn sentence_similarity(
    left: &PreparedSentence,
    right: &PreparedSentence,
    model: &dyn ModelView,
    rules: &MatchRules,
) -> (f64, f64) {
    if let Some(lexical) = FuzzyMatcher::THESIS.lexical(model, rules) {
        let c = WordsOf {
            lexical: &lexical,
            left,
            right,
        };
        return lexical_sims(left, right, rules, &c, &mut AlignScratch::default(), false)
            .unwrap_or((0.0, 0.0));
    }
    // Two sentences with the same terms: every term meets itself (c = 1), so its membership
    // (eq. 3.2) is 1 whatever else it relates to, and the Sims are the overlap's, bit for bit (a
    // product with a factor 0 is 0). Most links of a text against its revision are such pairs,
    // and reading their correlate rows was a tenth of comparing the two.
    if rules.relate == Relate::All && left.set == right.set && left.content() == right.content() {
        return sentence_overlap(left, right, rules);
    }
    correlated_sentence_similarity(left, right, model, rules)
}

/// [`sentence_similarity`] from the model's correlate rows, whatever the two sentences are.
fn correlated_sentence_similarity(
    left: &PreparedSentence,
    right: &PreparedSentence,
    model: &dyn ModelView,
    rules: &MatchRules,
) -> (f64, f64) {
    let rows = SentenceRows::of(&left.set, model);
    let mut scratch = Vec::new();
    sims_under_rules(
        left,
        right,
        rules,
        &|l, r| lookup(rows.row(l).unwrap_or(&[]), l, r),
        |a, b, _| directional_sims(a, b, |w| rows.row(w), &mut scratch),
        &mut AlignScratch::default(),
        false,
    )
    .unwrap_or((0.0, 0.0))
}

/// The correlate rows of one sentence's terms, as [`correlate_rows`] keeps them (sorted, the
/// term itself and zero correlations left out), in one list: scoring one pair (a link of a
/// comparison judged against chance, an explained pair) reads a few terms' rows, and a hash map
/// with a list per term cost more to make than the scoring.
struct SentenceRows<'s> {
    /// The sentence's distinct terms, ascending.
    terms: &'s [TermId],
    /// `entries[starts[i]..starts[i + 1]]` is the row of `terms[i]`.
    starts: Vec<u32>,
    entries: Vec<(TermId, f32)>,
}

impl<'s> SentenceRows<'s> {
    /// The rows of `set` (distinct terms, ascending).
    fn of(set: &'s [TermId], model: &dyn ModelView) -> SentenceRows<'s> {
        let mut starts = Vec::with_capacity(set.len() + 1);
        let mut entries = Vec::new();
        starts.push(0);
        for &w in set {
            append_correlate_row(w, model, &|_| true, &mut entries);
            starts.push(entries.len() as u32);
        }
        SentenceRows {
            terms: set,
            starts,
            entries,
        }
    }

    /// The row of `w` (`None` for a term not of the sentence).
    fn row(&self, w: TermId) -> Option<&[(TermId, f32)]> {
        let i = self.terms.binary_search(&w).ok()?;
        Some(&self.entries[self.starts[i] as usize..self.starts[i + 1] as usize])
    }
}

/// Both directional Sims of two prepared sentences under `rules` with every correlation taken as
/// 0: the overlap method's scores (0 both ways for a pair the rules forbid).
pub fn sentence_overlap(
    left: &PreparedSentence,
    right: &PreparedSentence,
    rules: &MatchRules,
) -> (f64, f64) {
    let mut scratch = Vec::new();
    sims_under_rules(
        left,
        right,
        rules,
        &|_, _| 0.0,
        |a, b, _| directional_sims(a, b, |_| None, &mut scratch),
        &mut AlignScratch::default(),
        false,
    )
    .unwrap_or((0.0, 0.0))
}

/// For each term, its stored correlates (sorted by id) that pass `keep`.
fn correlate_rows(
    terms: impl Iterator<Item = TermId>,
    model: &dyn ModelView,
    keep: impl Fn(TermId) -> bool + Sync,
) -> FxHashMap<TermId, Vec<(TermId, f32)>> {
    let distinct: FxHashSet<TermId> = terms.collect();
    let distinct: Vec<TermId> = distinct.into_iter().collect();
    let row_of = |w: TermId| {
        let mut row = Vec::new();
        append_correlate_row(w, model, &keep, &mut row);
        (w, row)
    };
    // A sentence's few terms (one pair explained or joined) are read in place: handing them to
    // the thread pool costs more than reading them, and done once per pair it dominated.
    if distinct.len() < PARALLEL_ROWS {
        distinct.into_iter().map(row_of).collect()
    } else {
        distinct.into_par_iter().map(row_of).collect()
    }
}

/// Appends to `out` the stored correlates of `w` that pass `keep`, sorted by id, without `w`
/// itself and zero correlations: one row of [`correlate_rows`] or [`SentenceRows`].
fn append_correlate_row(
    w: TermId,
    model: &dyn ModelView,
    keep: &impl Fn(TermId) -> bool,
    out: &mut Vec<(TermId, f32)>,
) {
    let from = out.len();
    model.correlates(w, out);
    let mut kept = from;
    for at in from..out.len() {
        let (k, c) = out[at];
        if k != w && c > 0.0 && keep(k) {
            out[kept] = (k, c);
            kept += 1;
        }
    }
    out.truncate(kept);
    out[from..].sort_unstable_by_key(|&(k, _)| k);
}

/// From this many distinct terms on, [`correlate_rows`] reads the model's rows in parallel.
const PARALLEL_ROWS: usize = 256;

/// For one left term set: every term it relates to, as `(k, slot of the left word, 1 - c)`,
/// sorted by `k` and then by slot (the left word itself is related with `c = 1`), with where
/// each `k`'s entries start. Filled once per left sentence and read for each of its candidates.
#[derive(Default)]
struct RelatedTerms {
    entries: Vec<(TermId, u32, f64)>,
    /// Per term id, the index of its first entry ([`NOT_RELATED`] for a term not related): one
    /// array read per right term. A binary search over the entries (hundreds: every correlate
    /// of every word) cost a third of the indexed scoring; a hash lookup in their place was
    /// slower too (10 MB of prose against itself: 23.6-23.9 s, against 22.1 s). Grown to the
    /// largest id seen; only the entries of the last fill are set, and the next fill clears
    /// them.
    starts: Vec<u32>,
}

/// [`RelatedTerms::starts`] of a term with no entry.
const NOT_RELATED: u32 = u32::MAX;

impl RelatedTerms {
    fn fill(&mut self, set: &[TermId], rows: &FxHashMap<TermId, Vec<(TermId, f32)>>) {
        let entries = &mut self.entries;
        for &(k, _, _) in entries.iter() {
            self.starts[k as usize] = NOT_RELATED;
        }
        entries.clear();
        for (slot, &w) in set.iter().enumerate() {
            entries.push((w, slot as u32, 0.0));
            for &(k, c) in rows.get(&w).map_or(&[][..], Vec::as_slice) {
                entries.push((k, slot as u32, 1.0 - f64::from(c)));
            }
        }
        entries.sort_unstable_by_key(|&(k, slot, _)| (k, slot));
        if let Some(&(largest, _, _)) = entries.last()
            && largest as usize >= self.starts.len()
        {
            self.starts.resize(largest as usize + 1, NOT_RELATED);
        }
        for (at, &(k, _, _)) in entries.iter().enumerate().rev() {
            self.starts[k as usize] = at as u32;
        }
    }

    /// Both directional similarities of the left term set (of `left_len` terms) and a right
    /// one. The same products and sums as [`directional_sims`], taken in the same order (a left
    /// word's factors in ascending right-term order, a right term's factors in ascending
    /// left-word order), so the values are bit-identical; but the cost is one lookup per right
    /// term instead of one per pair of words.
    fn sims(&self, left_len: usize, right: &[TermId]) -> (f64, f64) {
        if left_len == 0 || right.is_empty() {
            return (0.0, 0.0);
        }
        let mut left_products = [1.0f64; 64];
        let mut heap;
        let products: &mut [f64] = if left_len <= left_products.len() {
            &mut left_products[..left_len]
        } else {
            heap = vec![1.0f64; left_len];
            &mut heap
        };
        let mut sum_right = 0.0;
        for &k in right {
            let mut product = 1.0f64;
            let start = self.starts.get(k as usize).copied().unwrap_or(NOT_RELATED);
            if start != NOT_RELATED {
                for &(t, slot, factor) in &self.entries[start as usize..] {
                    if t != k {
                        break;
                    }
                    products[slot as usize] *= factor;
                    product *= factor;
                }
            }
            sum_right += 1.0 - product;
        }
        let sum_left: f64 = products.iter().map(|p| 1.0 - p).sum();
        (sum_left / left_len as f64, sum_right / right.len() as f64)
    }
}

/// The pair if the rules allow it and one of its directional Sims reaches the floor.
fn kept(
    i: u32,
    j: u32,
    sims: Option<(f64, f64)>,
    floor: f64,
    left: &PreparedSentence,
    right: &PreparedSentence,
) -> Option<ScoredPair> {
    let (sim_lr, sim_rl) = sims?;
    (sim_lr >= floor || sim_rl >= floor).then(|| ScoredPair {
        left: i,
        right: j,
        sim_lr,
        sim_rl,
        identical: left.terms == right.terms,
        joined: None,
        chance: None,
        verdict: None,
    })
}

impl FuzzyMatcher {
    /// The indexed scoring, through the model's correlations or without them, of the pairs
    /// `needed` asks for (all of them for `None`), with each sentence's partners capped as `cap`
    /// says (none for `None`).
    fn score_indexed(
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

impl FuzzyMatcher {
    /// What scoring a document against itself (`request.left`, which `request.right` must be:
    /// [`ScoringRequest::within`]) reads: WordNet's relations (when the rules read them), the
    /// view the candidate index reads correlations through, and the floor the content terms
    /// must reach (see `score_indexed`).
    fn within<'m>(
        &self,
        request: &ScoringRequest<'m>,
    ) -> (Option<Lexical<'m>>, IndexedView<'m>, f64) {
        let ScoringRequest {
            left: doc,
            right,
            model,
            floor,
            rules,
        } = *request;
        debug_assert!(
            std::ptr::eq(doc, right),
            "a document against itself is asked for with ScoringRequest::within"
        );
        let lexical = self.lexical(model, rules);
        let indexed = IndexedView::new(self, model, lexical.as_ref(), &[doc]);
        let content_floor = rules
            .content_floor_for(floor, doc.options.keep_stopwords)
            .min(floor);
        (lexical, indexed, content_floor)
    }

    /// The pairs of a document's sentences with each other (each with itself included) that
    /// reach the floor both ways, as `keep` makes them (those it returns `None` for are
    /// dropped): what [`SentenceMatcher::score_needed_pairs`] with [`NeededPairs::BothWays`]
    /// returns for a document against itself, without holding a whole [`ScoredPair`] for each
    /// pair a caller only counts (a collection's sentences: 10.9 million pairs on
    /// Reuters-21578, 40 bytes each). The document is `request.left`, which `request.right` must
    /// be (a request made by [`ScoringRequest::within`]).
    pub fn pairs_within<T: Send>(
        &self,
        request: &ScoringRequest<'_>,
        keep: impl Fn(&ScoredPair) -> Option<T> + Sync,
        cancel: &AtomicBool,
    ) -> Result<Vec<T>, Cancelled> {
        let (lexical, indexed, content_floor) = self.within(request);
        let ScoringRequest {
            left: doc,
            floor,
            rules,
            ..
        } = *request;
        let model = indexed.view();
        if content_floor <= 0.0 {
            // Nothing to prune (see `score_indexed`).
            let all = self.score_pairs_brute_force(&ScoringRequest { model, ..*request });
            return Ok(all
                .iter()
                .filter(|p| p.min_sim() >= floor)
                .filter_map(keep)
                .collect());
        }
        let scoring = Scoring::new(doc, doc, model, rules, lexical, floor, true);
        score_itself_both_ways(doc, model, content_floor, &scoring, keep, cancel)
    }
}

impl FuzzyMatcher {
    /// [`Self::pairs_within`] with each sentence keeping its `kept` best partners at the floor
    /// both ways ([`super::partners`]): a collection of templated lines (8,000 one-line
    /// documents sharing a phrase) costs what the partners kept cost, not the square of the
    /// lines. A pair comes once for each of its sentences that keeps it, either way round (the
    /// caller orders and deduplicates what `keep` makes). Also the sentences that kept fewer
    /// partners than they had (or whose search stopped once it held its best), ascending.
    pub fn pairs_within_capped<T: Send>(
        &self,
        request: &ScoringRequest<'_>,
        kept: usize,
        keep: impl Fn(&ScoredPair) -> Option<T> + Sync,
        cancel: &AtomicBool,
    ) -> Result<(Vec<T>, Vec<u32>), Cancelled> {
        let (lexical, indexed, content_floor) = self.within(request);
        let ScoringRequest {
            left: doc,
            floor,
            rules,
            ..
        } = *request;
        let model = indexed.view();
        if content_floor <= 0.0 {
            // Nothing to prune (see `score_indexed`): every pair scored, then each sentence's
            // best kept.
            let all = self.score_pairs_brute_force(&ScoringRequest { model, ..*request });
            let lens = [doc.sentences.len(); 2];
            let capped = partners::keep_best(
                all,
                floor,
                PartnersKept::best(kept),
                lens,
                Default::default(),
            );
            let pairs = capped.pairs.iter().filter(|p| p.min_sim() >= floor);
            let mut sentences = capped.capped[0].clone();
            sentences.extend(&capped.capped[1]);
            sentences.sort_unstable();
            sentences.dedup();
            return Ok((pairs.filter_map(keep).collect(), sentences));
        }
        let scoring = Scoring::new(doc, doc, model, rules, lexical, floor, true);
        score_itself_capped(doc, model, content_floor, &scoring, kept, keep, cancel)
    }
}

impl SentenceMatcher for FuzzyMatcher {
    fn method(&self) -> Method {
        self.kind()
    }

    fn score_pairs(
        &self,
        request: &ScoringRequest<'_>,
        cancel: &AtomicBool,
    ) -> Result<Vec<ScoredPair>, Cancelled> {
        Ok(self.score_indexed(request, None, None, cancel)?.pairs)
    }

    fn score_needed_pairs(
        &self,
        request: &ScoringRequest<'_>,
        needed: NeededPairs<'_>,
        cancel: &AtomicBool,
    ) -> Result<Vec<ScoredPair>, Cancelled> {
        Ok(self
            .score_indexed(request, Some(needed), None, cancel)?
            .pairs)
    }

    fn score_capped_pairs(
        &self,
        request: &ScoringRequest<'_>,
        needed: NeededPairs<'_>,
        partners: PartnersKept<'_>,
        cancel: &AtomicBool,
    ) -> Result<CappedPairs, Cancelled> {
        let cap = (partners.kept > 0).then_some(PartnerCap {
            kept: partners.kept,
            counted: partners.counted,
            starts: None,
            beside: false,
        });
        self.score_indexed(request, Some(needed), cap, cancel)
    }

    fn score_capped_per_source(
        &self,
        request: &ScoringRequest<'_>,
        partners: PartnersKept<'_>,
        starts: &[usize],
        cancel: &AtomicBool,
    ) -> Result<CappedPairs, Cancelled> {
        let cap = (partners.kept > 0).then_some(PartnerCap {
            kept: partners.kept,
            counted: partners.counted,
            starts: Some(starts),
            beside: true,
        });
        self.score_indexed(request, None, cap, cancel)
    }

    fn score_pairs_brute_force(&self, request: &ScoringRequest<'_>) -> Vec<ScoredPair> {
        let ScoringRequest {
            left,
            right,
            model,
            floor,
            rules,
        } = *request;
        let lexical = self.lexical(model, rules);
        let without = NoCorrelations(model);
        let model: &dyn ModelView = if self.correlations { model } else { &without };
        // Correlate rows are looked up per term, unrestricted: no knowledge of the right
        // document is used to skip anything. With WordNet, each pair is scored by its words.
        let left_terms = left.active().flat_map(|(_, s)| s.set.iter().copied());
        let rows = if lexical.is_some() {
            FxHashMap::default()
        } else {
            correlate_rows(left_terms, model, |_| true)
        };
        let c = correlation_in(&rows);
        let right_active: Vec<(u32, &PreparedSentence)> = right.active().collect();
        let active: Vec<(u32, &PreparedSentence)> = left.active().collect();
        active
            .par_iter()
            .map_init(
                || (Vec::new(), AlignScratch::default()),
                |(scratch, align), &(i, sentence)| {
                    let mut found = Vec::new();
                    for &(j, other) in &right_active {
                        let sims = match &lexical {
                            Some(lexical) => {
                                let c = WordsOf {
                                    lexical,
                                    left: sentence,
                                    right: other,
                                };
                                lexical_sims(sentence, other, rules, &c, align, false)
                            }
                            None => sims_under_rules(
                                sentence,
                                other,
                                rules,
                                &c,
                                |a, b, _| {
                                    directional_sims(
                                        a,
                                        b,
                                        |w| rows.get(&w).map(Vec::as_slice),
                                        scratch,
                                    )
                                },
                                align,
                                false,
                            ),
                        };
                        found.extend(kept(i, j, sims, floor, sentence, other));
                    }
                    found
                },
            )
            .flatten()
            .collect()
    }

    fn explain(
        &self,
        left: &PreparedSentence,
        right: &PreparedSentence,
        vocabulary: &Vocabulary,
        model: &dyn ModelView,
        rules: &MatchRules,
    ) -> Explanation {
        let lexical = self.lexical(model, rules);
        let without = NoCorrelations(model);
        let model: &dyn ModelView = if self.correlations { model } else { &without };
        let rows = if lexical.is_some() {
            FxHashMap::default()
        } else {
            let all = left.set.iter().chain(&right.set).copied();
            correlate_rows(all, model, |_| true)
        };
        let (sim_lr, sim_rl) = sentence_similarity(left, right, model, rules);
        // c of a word of `from` and one of `to`, and how they are related (WordNet only).
        let link =
            |from: &PreparedSentence, to: &PreparedSentence, w: TermId, k: TermId| match &lexical {
                Some(lexical) => lexical
                    .link(from.lemmas_of(w), to.lemmas_of(k))
                    .map(|(c, how)| (c, Some(how.describe()))),
                None => {
                    let c = lookup(rows.get(&w).map_or(&[][..], Vec::as_slice), w, k);
                    (c > 0.0).then_some((c, None))
                }
            };
        let describe = |from: &PreparedSentence, to: &PreparedSentence| -> Vec<TermMatch> {
            from.set
                .iter()
                .map(|&w| {
                    let exact = to.set.binary_search(&w).is_ok();
                    let mut product = 1.0f64;
                    let mut best: Option<(TermId, f32, Option<String>)> = None;
                    for &k in &to.set {
                        let found = if k == w {
                            Some((1.0, None))
                        } else {
                            link(from, to, w, k)
                        };
                        if let Some((c, how)) = found {
                            product *= 1.0 - f64::from(c);
                            if k != w && best.as_ref().is_none_or(|(_, b, _)| c > *b) {
                                best = Some((k, c, how));
                            }
                        }
                    }
                    let best = best.filter(|_| !exact);
                    TermMatch {
                        term: vocabulary.name(w).to_string(),
                        mu: 1.0 - product,
                        exact,
                        relation: best.as_ref().and_then(|(_, _, how)| how.clone()),
                        best: best.map(|(k, c, _)| (vocabulary.name(k).to_string(), c)),
                    }
                })
                .collect()
        };
        Explanation {
            method: self.kind(),
            sim_lr,
            sim_rl,
            left_terms: describe(left, right),
            right_terms: describe(right, left),
            fingerprints: None,
        }
    }
}

#[cfg(test)]
mod tests;
