//! The fuzzy matcher's exact candidate search (the module docs of [`super`]): per content term,
//! the sentences of the other document it touches, and per sentence, the sentences whose Sim
//! may reach the floor, in one direction or merged from both.

use std::sync::atomic::AtomicBool;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::correlate_rows;
use super::scoring::{Scoring, ScoringScratch};
use crate::similarity::{Cancelled, ModelView, PreparedDoc, PreparedSentence, TermId, check};

/// How one term touches the other document.
#[derive(Default)]
struct Touch {
    /// Sentences of the other document containing the term itself (mu = 1 there).
    exact: Vec<u32>,
    /// Sentences containing stored correlates of it but not the term, sorted, each with mu(term,
    /// S) = 1 - prod(1 - c) over the correlates it holds (eq. 3.2; with aligned relatedness mu
    /// is at most this).
    via_correlates: Vec<(u32, f64)>,
    /// The largest mu in `via_correlates` (0 when empty).
    via_max: f64,
}

/// One of a term's two lists of sentences in [`candidates`]: those holding the term (mu = 1),
/// or those holding only its correlates (each with its mu; the largest beside).
enum Postings<'t> {
    Exact(&'t [u32]),
    Via(&'t [(u32, f64)], f64),
}

impl Postings<'_> {
    fn len(&self) -> usize {
        match self {
            Postings::Exact(list) => list.len(),
            Postings::Via(list, _) => list.len(),
        }
    }

    /// The largest weight a sentence can take from this list.
    fn max(&self) -> f64 {
        match self {
            Postings::Exact(_) => 1.0,
            Postings::Via(_, max) => *max,
        }
    }

    fn for_each(&self, mut f: impl FnMut(u32, f64)) {
        match self {
            Postings::Exact(list) => list.iter().for_each(|&j| f(j, 1.0)),
            Postings::Via(list, _) => list.iter().for_each(|&(j, mu)| f(j, mu)),
        }
    }

    /// The entry at `at`: a sentence and its weight.
    fn entry(&self, at: usize) -> (u32, f64) {
        match self {
            Postings::Exact(list) => (list[at], 1.0),
            Postings::Via(list, _) => list[at],
        }
    }

    /// Where the entries of sentences from `j` on start.
    fn position_of(&self, j: u32) -> usize {
        match self {
            Postings::Exact(list) => list.partition_point(|&s| s < j),
            Postings::Via(list, _) => list.partition_point(|&(s, _)| s < j),
        }
    }

    /// The weight of sentence `j` in this list (0 when absent), by a binary search.
    fn weight_of(&self, j: u32) -> f64 {
        let at = self.position_of(j);
        match (at < self.len()).then(|| self.entry(at)) {
            Some((s, weight)) if s == j => weight,
            _ => 0.0,
        }
    }

    /// The weight of sentence `j` in this list (0 when absent), searching from `*cursor` on
    /// and leaving it at the first entry not below `j`. Sentences are looked up in ascending
    /// order, so the cursor only moves forward: a galloping search (steps doubling from the
    /// cursor, then a binary search within the last step) costs the logarithm of the distance
    /// moved, not of the list's length, and a list consulted for most of its entries is in
    /// effect merged.
    fn weight_from(&self, j: u32, cursor: &mut usize) -> f64 {
        fn seek<T>(list: &[T], cursor: &mut usize, below: impl Fn(&T) -> bool) {
            let mut low = *cursor;
            let mut step = 1;
            while low + step < list.len() && below(&list[low + step]) {
                low += step;
                step *= 2;
            }
            let high = (low + step + 1).min(list.len());
            *cursor = low + list[low.min(high)..high].partition_point(below);
        }
        match self {
            Postings::Exact(list) => {
                seek(list, cursor, |&s| s < j);
                if list.get(*cursor) == Some(&j) {
                    1.0
                } else {
                    0.0
                }
            }
            Postings::Via(list, _) => {
                seek(list, cursor, |&(s, _)| s < j);
                match list.get(*cursor) {
                    Some(&(s, mu)) if s == j => mu,
                    _ => 0.0,
                }
            }
        }
    }
}

/// Per content term of the `from` document: how it touches the `to` document's sentences.
fn touches(
    from: &PreparedDoc,
    to: &PreparedDoc,
    model: &dyn ModelView,
) -> FxHashMap<TermId, Touch> {
    let mut postings: FxHashMap<TermId, Vec<u32>> = FxHashMap::default();
    for (j, sentence) in to.active() {
        for &k in sentence.content() {
            postings.entry(k).or_default().push(j);
        }
    }
    let from_terms = from.active().flat_map(|(_, s)| s.content().iter().copied());
    let rows = correlate_rows(from_terms, model, |k| postings.contains_key(&k));
    rows.par_iter()
        .map(|(&w, row)| {
            let exact: Vec<u32> = postings.get(&w).cloned().unwrap_or_default();
            // (sentence, 1 - c) for every correlate occurrence, then one product per sentence:
            // the exact mu(w, S_j) of eq. 3.2 over the correlates S_j holds.
            let mut factors: Vec<(u32, f64)> = Vec::new();
            for &(k, c) in row {
                if let Some(p) = postings.get(&k) {
                    factors.extend(p.iter().map(|&j| (j, 1.0 - f64::from(c))));
                }
            }
            factors.sort_unstable_by_key(|&(j, _)| j);
            let mut via: Vec<(u32, f64)> = Vec::new();
            for group in factors.chunk_by(|a, b| a.0 == b.0) {
                let j = group[0].0;
                if exact.binary_search(&j).is_err() {
                    let product: f64 = group.iter().map(|&(_, f)| f).product();
                    via.push((j, 1.0 - product));
                }
            }
            let via_max = via.iter().map(|&(_, mu)| mu).fold(0.0, f64::max);
            let touch = Touch {
                exact,
                via_correlates: via,
                via_max,
            };
            (w, touch)
        })
        .collect()
}

/// For every active sentence of `from`, the sentences of `to` whose Sim from it (over content
/// terms) may reach `floor`, sorted: the prefix-filtered bound of the module docs. No sentence
/// that could reach the floor is left out.
pub(super) fn candidates(
    from: &PreparedDoc,
    to: &PreparedDoc,
    model: &dyn ModelView,
    floor: f64,
    cancel: &AtomicBool,
) -> Result<Vec<(u32, Vec<u32>)>, Cancelled> {
    let search = CandidateSearch::new(from, to, model, floor);
    check(cancel)?;
    let active: Vec<(u32, &PreparedSentence)> = from.active().collect();
    active
        .par_iter()
        .map_init(
            || search.scratch(),
            |scratch, &(i, sentence)| {
                check(cancel)?;
                Ok((i, search.of(sentence, scratch)))
            },
        )
        .collect()
}

/// Per sentence of one document with candidates, its candidates in the other, sorted.
type CandidateLists = Vec<(u32, Vec<u32>)>;

/// [`candidates`] for a caller keeping each sentence's `kept` best partners at `floor` both ways
/// ([`CandidateSearch::of_capped`], each candidate met scored by `scoring`, which scores `from`
/// against `to`), at the content floor `content_floor`; also the sentences of `from` whose
/// search stopped, ascending.
pub(super) fn candidates_capped(
    from: &PreparedDoc,
    to: &PreparedDoc,
    model: &dyn ModelView,
    content_floor: f64,
    scoring: &Scoring<'_>,
    kept: usize,
    cancel: &AtomicBool,
) -> Result<(CandidateLists, Vec<u32>), Cancelled> {
    let search = CandidateSearch::new(from, to, model, content_floor);
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
                scoring.prepare(i, scoring_scratch);
                let mut score = |j: u32| {
                    scoring
                        .score_prepared(i, j, scoring_scratch)
                        .map(|p| (p.sim_lr, p.sim_rl))
                };
                let mut ranking = PartnerRanking {
                    kept,
                    floor: scoring.floor,
                    near: (u64::from(i) * to_len / from_len) as u32,
                    score: &mut score,
                    capped_from: CANDIDATES_BEFORE_CAPPED_IN_PAIRS,
                };
                Ok((i, search.of_capped(sentence, searching, &mut ranking)))
            },
        )
        .collect::<Result<_, Cancelled>>()?;
    let stopped = found
        .iter()
        .filter(|(_, search)| search.stopped)
        .map(|&(i, _)| i)
        .collect();
    let lists = found
        .into_iter()
        .map(|(i, search)| (i, search.candidates))
        .collect();
    Ok((lists, stopped))
}

/// The candidate search of one document's sentences into another, one sentence at a time:
/// [`candidates`] holds every sentence's list at once, while a caller that scores each list as
/// it is found (a collection's sentences against themselves, both ways) holds one per thread.
pub(super) struct CandidateSearch {
    index: FxHashMap<TermId, Touch>,
    to_len: usize,
    floor: f64,
}

/// The working space of one thread's [`CandidateSearch::of`], reused from sentence to sentence.
pub(super) struct SearchScratch<'s> {
    /// Per sentence of `to`, its bound so far (zero when untouched).
    bounds: Vec<f64>,
    touched: Vec<u32>,
    lists: Vec<(Postings<'s>, u32)>,
    /// [`CandidateSearch::tight_suffix`] of `lists`.
    tight: Vec<f64>,
    suffix: Vec<f64>,
    cursors: Vec<usize>,
    marks: Vec<u64>,
}

impl CandidateSearch {
    /// The search of `from`'s sentences into `to`'s at `floor`.
    pub(super) fn new(
        from: &PreparedDoc,
        to: &PreparedDoc,
        model: &dyn ModelView,
        floor: f64,
    ) -> CandidateSearch {
        CandidateSearch {
            index: touches(from, to, model),
            to_len: to.sentences.len(),
            floor,
        }
    }

    pub(super) fn scratch(&self) -> SearchScratch<'_> {
        SearchScratch {
            bounds: vec![0.0; self.to_len],
            touched: Vec::new(),
            lists: Vec::new(),
            tight: Vec::new(),
            suffix: Vec::new(),
            cursors: Vec::new(),
            marks: vec![0; self.to_len.div_ceil(64)],
        }
    }

    /// Fills `lists` with the postings of `sentence`'s content terms, shortest first (each with
    /// the position of its word among them), and
    /// `suffix` with what the lists from each on can add at most; returns the bound a
    /// candidate's sum must reach (floor x content terms, less a hair of slack so that rounding
    /// can only admit, never drop, a pair).
    ///
    /// Upper bounds of Sim(S_i, S_j) x n, per sentence of `to`: 1 for each word in both, the
    /// word's mu for each word touching only through correlates. Each word is two lists (the
    /// sentences holding it, weight 1; those holding only its correlates, weight at most the
    /// largest such mu, usually far below 1), short lists first; once the lists left could not
    /// lift an untouched sentence to the floor, the rest are only looked up for the sentences
    /// already touched (prefix filtering, weighted by each list's largest weight).
    fn lists_of<'s>(
        &'s self,
        sentence: &PreparedSentence,
        lists: &mut Vec<(Postings<'s>, u32)>,
        suffix: &mut Vec<f64>,
    ) -> f64 {
        let content = sentence.content();
        lists.clear();
        for (slot, touch) in content.iter().enumerate() {
            let Some(touch) = self.index.get(touch) else {
                continue;
            };
            let slot = slot as u32;
            if !touch.exact.is_empty() {
                lists.push((Postings::Exact(&touch.exact), slot));
            }
            if !touch.via_correlates.is_empty() {
                lists.push((Postings::Via(&touch.via_correlates, touch.via_max), slot));
            }
        }
        lists.sort_unstable_by_key(|(list, _)| list.len());
        suffix.clear();
        suffix.resize(lists.len() + 1, 0.0);
        for at in (0..lists.len()).rev() {
            suffix[at] = suffix[at + 1] + lists[at].0.max();
        }
        self.floor * content.len() as f64 - 1e-9
    }

    /// What a sentence met in none of the lists before `at` can add at most from the lists
    /// from `at` on, for each `at` (into `tight`), from the lists [`Self::lists_of`] left: per
    /// word the larger of its two lists' weights, not their sum as `suffix` takes them (a
    /// sentence holding a word is not in the list of those holding only its correlates).
    fn tight_suffix(lists: &[(Postings<'_>, u32)], words: usize, tight: &mut Vec<f64>) {
        let mut per_word = vec![0.0f64; words];
        tight.clear();
        tight.resize(lists.len() + 1, 0.0);
        for at in (0..lists.len()).rev() {
            let (list, slot) = &lists[at];
            let word = &mut per_word[*slot as usize];
            let larger = word.max(list.max());
            tight[at] = tight[at + 1] - *word + larger;
            *word = larger;
        }
    }

    /// The sentences of `to` whose Sim from `sentence` (a sentence of `from`) may reach the
    /// floor, sorted.
    pub(super) fn of<'s>(
        &'s self,
        sentence: &PreparedSentence,
        scratch: &mut SearchScratch<'s>,
    ) -> Vec<u32> {
        let needed = self.lists_of(sentence, &mut scratch.lists, &mut scratch.suffix);
        self.of_lists(needed, scratch)
    }

    /// [`Self::of`] over the lists [`Self::lists_of`] left in `scratch`.
    fn of_lists(&self, needed: f64, scratch: &mut SearchScratch<'_>) -> Vec<u32> {
        self.found_within(needed, scratch, usize::MAX)
            .unwrap_or_default()
    }

    /// The search of [`Self::of`] over the lists [`Self::lists_of`] left in `scratch`, or
    /// `None` (`scratch` left ready for the next sentence) when it would touch more than
    /// `budget` sentences of `to`.
    fn found_within(
        &self,
        needed: f64,
        scratch: &mut SearchScratch<'_>,
        budget: usize,
    ) -> Option<Vec<u32>> {
        let SearchScratch {
            bounds,
            touched,
            lists,
            suffix,
            cursors,
            marks,
            ..
        } = scratch;
        touched.clear();
        let mut rest = lists.len();
        for (at, (list, _)) in lists.iter().enumerate() {
            if suffix[at] < needed {
                rest = at;
                break;
            }
            if touched.len() + list.len() > budget {
                for &j in touched.iter() {
                    bounds[j as usize] = 0.0;
                }
                touched.clear();
                return None;
            }
            list.for_each(|j, weight| {
                let bound = &mut bounds[j as usize];
                if *bound == 0.0 {
                    touched.push(j);
                }
                *bound += weight;
            });
        }
        // The lists left are looked up for the sentences touched, in ascending order (each
        // list's cursor only moves forward), until a sentence's bound reaches the floor (it is a
        // candidate; the exact score comes later) or can no longer.
        sort_positions(touched, marks);
        cursors.clear();
        cursors.resize(lists.len(), 0);
        let mut found: Vec<u32> = Vec::new();
        for &j in touched.iter() {
            let mut bound = bounds[j as usize];
            bounds[j as usize] = 0.0;
            for at in rest..lists.len() {
                if bound >= needed || bound + suffix[at] < needed {
                    break;
                }
                bound += lists[at].0.weight_from(j, &mut cursors[at]);
            }
            if bound >= needed {
                found.push(j);
            }
        }
        Some(found)
    }
}

/// A sentence searches for its best partners, stopping once it holds them
/// ([`CandidateSearch::of_capped`]), when its plain search would touch more than this many
/// sentences of the other document or find more than [`CANDIDATES_BEFORE_CAPPED`] candidates.
/// The plain search costs less per sentence touched (its bounds are sums in an array; the capped
/// search looks each sentence up in the lists it has not read yet, and scores each candidate
/// as it meets it), so it is kept for all but the sentences that meet a great many others:
/// templated lines meet every other line through their shared words. With every sentence
/// touching over 1,024 searched the capped way, the BBC articles and summaries as a collection
/// took twice the CPU of the plain search (the sentences of 4,450 documents often touch more);
/// with these two bounds the same CPU, within the machine's noise.
pub(super) const TOUCHED_BEFORE_CAPPED: usize = 16_384;

/// See [`TOUCHED_BEFORE_CAPPED`]: a sentence of a collection with more candidates than this is
/// searched again the capped way (8,000 one-line documents sharing a phrase: each line touches
/// 8,000 and all are candidates). With 1,024 the BBC collection took 10% more CPU than the
/// plain search; with 4,096 the same. A collection's sentence keeps its best partners as soon
/// as it is scored, so fewer candidates than this cost time, not memory.
pub(super) const CANDIDATES_BEFORE_CAPPED: usize = 4_096;

/// [`CANDIDATES_BEFORE_CAPPED`] when two documents are compared: their pairs are kept until
/// both sides' best are known, so a sentence with more candidates than this searches the
/// capped way (3,000 template lines searched the plain way, each with 3,000 candidates, held 9
/// million pairs: 11 s, 1.1 GB).
pub(super) const CANDIDATES_BEFORE_CAPPED_IN_PAIRS: usize = 256;

/// How [`CandidateSearch::of_capped`] ranks the partners it meets.
pub(super) struct PartnerRanking<'f> {
    /// Partners kept per sentence among those reaching the floor both ways.
    pub(super) kept: usize,
    /// The floor both Sims of a pair must reach for it to count as a partner.
    pub(super) floor: f64,
    /// The sentence's proportional place in `to`: each list is read outwards from there, so
    /// that among partners scoring alike those nearest the diagonal are met first.
    pub(super) near: u32,
    /// Both Sims of the sentence with a sentence of `to`, from the sentence's side (`None`:
    /// the rules forbid the pair, or it misses the floor both ways).
    pub(super) score: &'f mut dyn FnMut(u32) -> Option<(f64, f64)>,
    /// A sentence with more candidates than this is searched the capped way
    /// ([`CANDIDATES_BEFORE_CAPPED`] or [`CANDIDATES_BEFORE_CAPPED_IN_PAIRS`]).
    pub(super) capped_from: usize,
}

/// What [`CandidateSearch::of_capped`] found.
pub(super) struct CappedSearch {
    /// The candidates met (every candidate when the search did not stop), sorted.
    pub(super) candidates: Vec<u32>,
    /// The search stopped before meeting every candidate: the sentence has at least `kept`
    /// partners at the floor both ways that no sentence left unmet could beat.
    pub(super) stopped: bool,
    /// Every candidate was scored (by `ranking.score`) as it was met; false when the lists
    /// were short enough to be read as [`CandidateSearch::of`] reads them, scoring nothing.
    pub(super) scored: bool,
}

impl CandidateSearch {
    /// [`Self::of`] for a caller that keeps only each sentence's `ranking.kept` best partners
    /// reaching the floor both ways (by the smaller Sim): a sentence whose lists are long (a
    /// templated line meets every other line through its shared words) scores its candidates
    /// as it meets them and stops once it holds `kept` partners whose smaller Sim no sentence
    /// not yet met could beat: one it has not met reaches from the sentence at most what the
    /// lists not yet read can add (`suffix`; with stopwords, each of them may add 1 more), and
    /// its smaller Sim is at most that. The partners kept are then the best there are (among
    /// equals, those met first: nearest the diagonal in the shortest long list), and the
    /// search costs what the partners cost, not what the lines sharing a word cost. A
    /// sentence whose lists are short, or that does not hold `kept` such partners, meets every
    /// candidate, as [`Self::of`] does.
    pub(super) fn of_capped<'s>(
        &'s self,
        sentence: &PreparedSentence,
        scratch: &mut SearchScratch<'s>,
        ranking: &mut PartnerRanking<'_>,
    ) -> CappedSearch {
        let needed = self.lists_of(sentence, &mut scratch.lists, &mut scratch.suffix);
        let plain = |candidates| CappedSearch {
            candidates,
            stopped: false,
            scored: false,
        };
        if ranking.kept == 0 {
            return plain(self.of_lists(needed, scratch));
        }
        // The most a sentence not yet met can score from this one once the lists before `at`
        // are read: the content terms' bound, and 1 for each other term.
        let others = (sentence.set.len() - sentence.content().len()) as f64;
        let terms = sentence.set.len().max(1) as f64;
        let unmet_bound = |tight: &[f64], at: usize| (tight[at] + others) / terms;
        let found = self.found_within(needed, scratch, TOUCHED_BEFORE_CAPPED);
        if let Some(candidates) = &found
            && candidates.len() <= ranking.capped_from
        {
            return plain(found.unwrap_or_default());
        }
        // Many candidates: search the capped way only if it is likely to stop, that is if the
        // first list longer than `kept` holds many more than `kept` partners beyond the bound
        // of what its unmet sentences could score.
        Self::tight_suffix(&scratch.lists, sentence.content().len(), &mut scratch.tight);
        let (lists, suffix, tight) = (&scratch.lists, &scratch.suffix, &scratch.tight);
        let probe = lists
            .iter()
            .zip(suffix.iter())
            .position(|((list, _), &left)| left >= needed && list.len() > ranking.kept);
        let likely_to_stop =
            probe.is_some_and(|at| stops_early(&lists[at].0, unmet_bound(tight, at), ranking));
        if !likely_to_stop {
            return plain(found.unwrap_or_else(|| self.of_lists(needed, scratch)));
        }
        let SearchScratch {
            touched: met,
            marks,
            lists,
            suffix,
            tight,
            ..
        } = scratch;
        let unmet_bound = |at: usize| unmet_bound(tight, at);
        // The `kept` best smaller Sims so far, ascending (a few: kept sorted by insertion).
        let mut best: Vec<f64> = Vec::with_capacity(ranking.kept + 1);
        let beaten = |best: &[f64], bound: f64| best.len() == ranking.kept && best[0] >= bound;
        met.clear();
        let mut found: Vec<u32> = Vec::new();
        let mut stopped = false;
        'lists: for (at, (list, _)) in lists.iter().enumerate() {
            if suffix[at] < needed {
                break;
            }
            if beaten(&best, unmet_bound(at)) {
                stopped = true;
                break;
            }
            let start = list.position_of(ranking.near);
            for step in 0..list.len() {
                // start, start - 1, start + 1, start - 2, ... while both sides last, then the rest.
                let below = start.min(list.len() - start);
                let offset = if step < 2 * below {
                    if step % 2 == 0 {
                        start + step / 2
                    } else {
                        start - 1 - step / 2
                    }
                } else if start >= list.len() - start {
                    start - 1 - (step - list.len() + start)
                } else {
                    start + (step - start)
                };
                let (j, weight) = list.entry(offset);
                let word = &mut marks[j as usize / 64];
                if *word & (1 << (j % 64)) != 0 {
                    continue;
                }
                *word |= 1 << (j % 64);
                met.push(j);
                // Not met before: absent from the lists before this one.
                let mut bound = weight;
                for later in at + 1..lists.len() {
                    if bound >= needed || bound + suffix[later] < needed {
                        break;
                    }
                    bound += lists[later].0.weight_of(j);
                }
                if bound < needed {
                    continue;
                }
                found.push(j);
                if let Some((own, other)) = (ranking.score)(j) {
                    let smaller = own.min(other);
                    if smaller >= ranking.floor {
                        let at = best.partition_point(|&b| b < smaller);
                        best.insert(at, smaller);
                        if best.len() > ranking.kept {
                            best.remove(0);
                        }
                    }
                }
                if beaten(&best, unmet_bound(at)) {
                    stopped = true;
                    break 'lists;
                }
            }
        }
        for &j in met.iter() {
            marks[j as usize / 64] = 0;
        }
        met.clear();
        found.sort_unstable();
        CappedSearch {
            candidates: found,
            stopped,
            scored: true,
        }
    }
}

/// How many entries of a long list [`stops_early`] scores.
const PARTNER_SAMPLE: usize = 64;

/// Whether the capped search is likely to stop within `list` (the first list longer than the
/// partners kept): whether [`PARTNER_SAMPLE`] of its entries, spread evenly, show it to hold at
/// least [`STOP_MARGIN`] times `ranking.kept` partners whose smaller Sim reaches `bound`, what a
/// sentence not met before the list could score. A templated line's list is almost all such
/// partners (each line shares all its words but the number with every other); a short sentence of prose
/// has as many candidates (any sentence holding one of its few words may contain it) but few
/// partners, and a line of a financial report ("Shr 12 cts vs 10 cts") many partners that
/// mostly score below the bound: searching those the capped way never stops and costs more
/// than the plain search (2.5 MB of BBC articles against a revision at the measured preset took
/// 1.27-1.55x the CPU; Reuters-21578 as a collection, 2.1x).
fn stops_early(list: &Postings<'_>, bound: f64, ranking: &mut PartnerRanking<'_>) -> bool {
    let step = list.len().div_ceil(PARTNER_SAMPLE).max(1);
    let (mut sampled, mut beyond) = (0usize, 0usize);
    for at in (0..list.len()).step_by(step) {
        sampled += 1;
        let (j, _) = list.entry(at);
        if (ranking.score)(j).is_some_and(|(own, other)| own.min(other) >= bound) {
            beyond += 1;
        }
    }
    beyond * list.len() >= STOP_MARGIN * ranking.kept * sampled.max(1)
}

/// How many times the partners kept [`stops_early`] asks the sample to promise beyond the
/// bound: at 2, 2.5 MB of BBC prose against its revision at the measured preset took 1.13x the
/// CPU of the plain search (retellings of one story promise a few dozen partners and the
/// capped search then meets them all); templated lines promise thousands.
const STOP_MARGIN: usize = 8;

/// Sorts `positions` (distinct, each below 64 x `marks.len()`), using `marks` (all zero, and
/// left so) as a bitmap when there are enough of them that reading the bitmap in order is
/// cheaper than sorting: a sentence touching thousands of others, as a common word makes it
/// in a long document (10 MB of prose against itself: the candidate search took 11.9 s with
/// sorting, 9.3 s with the bitmap).
pub(super) fn sort_positions(positions: &mut Vec<u32>, marks: &mut [u64]) {
    let n = positions.len();
    if n < 64 || n * (n.ilog2() as usize) < marks.len() {
        positions.sort_unstable();
        return;
    }
    for &p in positions.iter() {
        marks[p as usize / 64] |= 1 << (p % 64);
    }
    positions.clear();
    for (word_at, word) in marks.iter_mut().enumerate() {
        let mut bits = std::mem::take(word);
        while bits != 0 {
            positions.push(word_at as u32 * 64 + bits.trailing_zeros());
            bits &= bits - 1;
        }
    }
}

/// Per left sentence position with candidates, its candidates in both directions, sorted:
/// `forward` lists right candidates per left sentence, `backward` left candidates per right
/// sentence (`None` when the two documents are the same object: then it equals `forward`, and
/// is not searched a second time). Their union, or with `both_ways` their intersection: a pair
/// reaches the floor both ways only if each side's bound lets it.
pub(super) fn merge_directions(
    left_len: usize,
    forward: Vec<(u32, Vec<u32>)>,
    backward: Option<Vec<(u32, Vec<u32>)>>,
    both_ways: bool,
) -> Vec<(u32, Vec<u32>)> {
    // The backward lists turned around, per left sentence; sorted, since the right sentences
    // come in ascending order.
    let mut turned: Vec<Vec<u32>> = vec![Vec::new(); left_len];
    for (j, list) in backward.as_ref().unwrap_or(&forward) {
        for &i in list {
            turned[i as usize].push(*j);
        }
    }
    drop(backward);
    let mut merged = Vec::with_capacity(forward.len());
    let mut forward = forward.into_iter().peekable();
    for (i, back) in turned.into_iter().enumerate() {
        let ahead = forward
            .next_if(|(f, _)| *f as usize == i)
            .map(|(_, list)| list);
        let list = match (ahead, both_ways) {
            (Some(ahead), true) => sorted_intersection(&ahead, &back),
            (None, true) => Vec::new(),
            (Some(ahead), false) => sorted_union(&ahead, &back),
            (None, false) => back,
        };
        if !list.is_empty() {
            merged.push((i as u32, list));
        }
    }
    merged
}

/// The values in both sorted lists, sorted.
fn sorted_intersection(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::new();
    let (mut x, mut y) = (0, 0);
    while x < a.len() && y < b.len() {
        match a[x].cmp(&b[y]) {
            std::cmp::Ordering::Less => x += 1,
            std::cmp::Ordering::Greater => y += 1,
            std::cmp::Ordering::Equal => {
                out.push(a[x]);
                x += 1;
                y += 1;
            }
        }
    }
    out
}

/// The values in either sorted list, sorted, each once.
fn sorted_union(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut x, mut y) = (0, 0);
    while x < a.len() && y < b.len() {
        match a[x].cmp(&b[y]) {
            std::cmp::Ordering::Less => {
                out.push(a[x]);
                x += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[y]);
                y += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[x]);
                x += 1;
                y += 1;
            }
        }
    }
    out.extend_from_slice(&a[x..]);
    out.extend_from_slice(&b[y..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_sort_alike_by_sorting_and_through_the_bitmap() {
        let universe = 10_000u32;
        let mut marks = vec![0u64; (universe as usize).div_ceil(64)];
        // A few positions (sorted), and many (read through the bitmap), scattered.
        for count in [5u32, 40, 300, 4_000] {
            let mut positions: Vec<u32> = (0..count).map(|k| (k * 7_919) % universe).collect();
            let mut expected = positions.clone();
            expected.sort_unstable();
            sort_positions(&mut positions, &mut marks);
            assert_eq!(positions, expected, "{count} positions");
            assert!(marks.iter().all(|&w| w == 0), "the bitmap is left clear");
        }
    }
}
