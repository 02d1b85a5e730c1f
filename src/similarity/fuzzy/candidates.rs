//! The fuzzy matcher's exact candidate search (the module docs of [`super`]): per content term,
//! the sentences of the other document it touches, and per sentence, the sentences whose Sim
//! may reach the floor, in one direction or merged from both.

use std::sync::atomic::AtomicBool;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::correlate_rows;
use super::whole_floor::{Searching, WholeSetFloor};
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
#[derive(Clone, Copy)]
pub(super) enum Postings<'t> {
    Exact(&'t [u32]),
    Via(&'t [(u32, f64)], f64),
}

impl<'t> Postings<'t> {
    pub(super) fn len(&self) -> usize {
        match self {
            Postings::Exact(list) => list.len(),
            Postings::Via(list, _) => list.len(),
        }
    }

    /// The largest weight a sentence can take from this list.
    pub(super) fn max(&self) -> f64 {
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
    pub(super) fn entry(&self, at: usize) -> (u32, f64) {
        match self {
            Postings::Exact(list) => (list[at], 1.0),
            Postings::Via(list, _) => list[at],
        }
    }

    /// Where the entries of sentences from `j` on start.
    pub(super) fn position_of(&self, j: u32) -> usize {
        match self {
            Postings::Exact(list) => list.partition_point(|&s| s < j),
            Postings::Via(list, _) => list.partition_point(|&(s, _)| s < j),
        }
    }

    /// The entries of sentences in `from..to` (a part of the other document: one source of a
    /// pool), as a list of their own; a list of correlates keeps its largest weight as bound.
    pub(super) fn within(&self, from: u32, to: u32) -> Postings<'t> {
        let (start, end) = (self.position_of(from), self.position_of(to));
        match *self {
            Postings::Exact(list) => Postings::Exact(&list[start..end]),
            Postings::Via(list, max) => Postings::Via(&list[start..end], max),
        }
    }

    /// The weight of sentence `j` in this list (0 when absent), by a binary search.
    pub(super) fn weight_of(&self, j: u32) -> f64 {
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
/// terms) may reach `floor`, sorted: the prefix-filtered bound of the module docs; with
/// `whole_floor`, also those whose whole sets may reach it ([`WholeSetFloor`]). No sentence
/// that could reach the floors is left out.
pub(super) fn candidates(
    from: &PreparedDoc,
    to: &PreparedDoc,
    model: &dyn ModelView,
    floor: f64,
    whole_floor: Option<f64>,
    cancel: &AtomicBool,
) -> Result<Vec<(u32, Vec<u32>)>, Cancelled> {
    let search =
        CandidateSearch::new(from, to, model, floor).with_whole_floor(from, to, whole_floor);
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

/// The candidate search of one document's sentences into another, one sentence at a time:
/// [`candidates`] holds every sentence's list at once, while a caller that scores each list as
/// it is found (a collection's sentences against themselves, both ways) holds one per thread.
pub(super) struct CandidateSearch {
    index: FxHashMap<TermId, Touch>,
    to_len: usize,
    floor: f64,
    /// The whole sets' floor the plain search's candidates are held to, if any.
    whole: Option<WholeSetFloor>,
}

/// The working space of one thread's [`CandidateSearch::of`], reused from sentence to sentence.
pub(super) struct SearchScratch<'s> {
    /// Per sentence of `to`, its bound so far (zero when untouched).
    pub(super) bounds: Vec<f64>,
    pub(super) touched: Vec<u32>,
    pub(super) lists: Vec<(Postings<'s>, u32)>,
    /// [`CandidateSearch::tight_suffix`] of `lists`.
    pub(super) tight: Vec<f64>,
    pub(super) suffix: Vec<f64>,
    pub(super) cursors: Vec<usize>,
    pub(super) marks: Vec<u64>,
    /// The sentence searching, as [`WholeSetFloor::needed`] reads it.
    searching: Option<Searching>,
    /// Per candidate the last [`CandidateSearch::found_within`] found, whether it reaches the
    /// whole sets' floor (empty without one).
    reaches_whole: Vec<bool>,
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
            whole: None,
        }
    }

    /// This search with its plain candidates held to `floor` over the whole sets too, if given
    /// ([`WholeSetFloor`]); `from` and `to` are the documents it searches from and into.
    pub(super) fn with_whole_floor(
        mut self,
        from: &PreparedDoc,
        to: &PreparedDoc,
        floor: Option<f64>,
    ) -> CandidateSearch {
        self.whole = floor.map(|floor| WholeSetFloor::new(from, to, floor));
        self
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
            searching: None,
            reaches_whole: Vec::new(),
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
    pub(super) fn lists_of<'s>(
        &'s self,
        sentence: &PreparedSentence,
        scratch: &mut SearchScratch<'s>,
    ) -> f64 {
        scratch.searching = self.whole.as_ref().map(|w| w.searching(sentence));
        let SearchScratch { lists, suffix, .. } = scratch;
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
        Self::order_lists(lists, suffix);
        self.floor * content.len() as f64 - 1e-9
    }

    /// Sorts `lists` shortest first and fills `suffix` with what the lists from each on can
    /// add at most ([`Self::lists_of`]).
    pub(super) fn order_lists(lists: &mut [(Postings<'_>, u32)], suffix: &mut Vec<f64>) {
        lists.sort_unstable_by_key(|(list, _)| list.len());
        suffix.clear();
        suffix.resize(lists.len() + 1, 0.0);
        for at in (0..lists.len()).rev() {
            suffix[at] = suffix[at + 1] + lists[at].0.max();
        }
    }

    /// What a sentence met in none of the lists before `at` can add at most from the lists
    /// from `at` on, for each `at` (into `tight`), from the lists [`Self::lists_of`] left: per
    /// word the larger of its two lists' weights, not their sum as `suffix` takes them (a
    /// sentence holding a word is not in the list of those holding only its correlates).
    pub(super) fn tight_suffix(lists: &[(Postings<'_>, u32)], words: usize, tight: &mut Vec<f64>) {
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
        let needed = self.lists_of(sentence, scratch);
        self.of_lists(needed, scratch)
    }

    /// [`Self::of`] over the lists [`Self::lists_of`] left in `scratch`.
    pub(super) fn of_lists(&self, needed: f64, scratch: &mut SearchScratch<'_>) -> Vec<u32> {
        self.of_lists_split(needed, scratch).0
    }

    /// [`Self::of_lists`], and apart the candidates that miss the whole sets' floor
    /// ([`Self::reaching_whole`]).
    pub(super) fn of_lists_split(
        &self,
        needed: f64,
        scratch: &mut SearchScratch<'_>,
    ) -> (Vec<u32>, Vec<u32>) {
        let found = self
            .found_within(needed, scratch, usize::MAX)
            .unwrap_or_default();
        self.reaching_whole(found, scratch)
    }

    /// `found`, what the last [`Self::found_within`] over `scratch` found, split into the
    /// candidates that may reach the whole sets' floor ([`WholeSetFloor`]; all of them without
    /// one) and those that miss it, each sorted.
    pub(super) fn reaching_whole(
        &self,
        found: Vec<u32>,
        scratch: &SearchScratch<'_>,
    ) -> (Vec<u32>, Vec<u32>) {
        let reaches = &scratch.reaches_whole;
        if self.whole.is_none() || reaches.len() != found.len() {
            return (found, Vec::new());
        }
        let (mut kept, mut missed) = (Vec::with_capacity(found.len()), Vec::new());
        for (j, &reaches) in found.into_iter().zip(reaches) {
            if reaches {
                kept.push(j);
            } else {
                missed.push(j);
            }
        }
        (kept, missed)
    }

    /// The search of [`Self::of`] over the lists [`Self::lists_of`] left in `scratch`, or
    /// `None` (`scratch` left ready for the next sentence) when it would touch more than
    /// `budget` sentences of `to`.
    pub(super) fn found_within(
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
            searching,
            reaches_whole,
            ..
        } = scratch;
        touched.clear();
        reaches_whole.clear();
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
        let whole = self.whole.as_ref().zip(searching.as_ref());
        for &j in touched.iter() {
            let mut bound = bounds[j as usize];
            bounds[j as usize] = 0.0;
            let mut at = rest;
            // Adds the lists from `at` on until the bound reaches `target` or can no longer.
            let mut reach = |target: f64, bound: &mut f64| {
                while at < lists.len() && *bound < target && *bound + suffix[at] >= target {
                    *bound += lists[at].0.weight_from(j, &mut cursors[at]);
                    at += 1;
                }
                *bound >= target
            };
            if reach(needed, &mut bound) {
                found.push(j);
                // The same lists read on, for the whole sets' floor.
                if let Some((whole, searching)) = whole {
                    reaches_whole.push(reach(whole.needed(searching, j), &mut bound));
                }
            }
        }
        Some(found)
    }
}

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
