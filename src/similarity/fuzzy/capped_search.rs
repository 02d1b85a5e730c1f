//! The capped candidate search: a sentence that meets a great many others (a templated line
//! meets every other line through its shared words) scores its candidates as it meets them and
//! stops once it holds its best partners ([`CandidateSearch::of_capped`]), so that what it costs
//! follows the partners kept, not the lines sharing a word.

use super::candidates::{CandidateSearch, Postings, SearchScratch};
use crate::similarity::{PreparedSentence, partners};

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
    /// Per sentence of `to`, whether it counts towards the figures (empty: every sentence
    /// does, or the sentence searching does not count itself). The search stops once it
    /// holds `kept` counted partners no sentence left unmet could beat: the figures read a
    /// counted sentence's best counted partner, which a fragment ahead of it must not hide
    /// ([`crate::similarity::partners`]). An uncounted partner left unmet is no loss: it
    /// reaches from the sentence at most what the counted ones held reach (containment reads
    /// the best of all by the sentence's own Sim).
    pub(super) counted: &'f [bool],
    /// The floor both Sims of a pair must reach for it to count as a partner.
    pub(super) floor: f64,
    /// The sentence's proportional place in `to`: each list is read outwards from there, so
    /// that among partners scoring alike those nearest the diagonal are met first.
    pub(super) near: u32,
    /// Both Sims of the sentence with a sentence of `to`, from the sentence's side (`None`:
    /// the rules forbid the pair, or it misses the floor both ways).
    pub(super) score: &'f mut dyn FnMut(u32) -> Option<(f64, f64)>,
    /// Whether `near` is the sentence's place on a diagonal where its copy, if any, is likely
    /// (two documents, or a document and a source): [`stops_near`] looks there first. Not in a
    /// collection, whose documents follow each other in no order.
    pub(super) diagonal: bool,
    /// A sentence with more candidates than this is searched the capped way
    /// ([`CANDIDATES_BEFORE_CAPPED`] or [`CANDIDATES_BEFORE_CAPPED_IN_PAIRS`]).
    pub(super) capped_from: usize,
}

impl PartnerRanking<'_> {
    /// Whether partner `j` fills the search's best ([`Self::counted`]).
    fn counts(&self, j: u32) -> bool {
        partners::counts(self.counted, j)
    }
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
    /// The plain search's candidates at the content floor left out of `candidates` because
    /// they miss the whole sets' floor, sorted ([`CandidateSearch::reaching_whole`]).
    pub(super) missing_whole: Vec<u32>,
}

/// A search that met every candidate and scored none: those that may reach the whole sets'
/// floor, and those that miss it.
fn plain((candidates, missing_whole): (Vec<u32>, Vec<u32>)) -> CappedSearch {
    CappedSearch {
        candidates,
        stopped: false,
        scored: false,
        missing_whole,
    }
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
        let needed = self.lists_of(sentence, scratch);
        self.capped_over_lists(sentence, needed, scratch, ranking)
    }

    /// [`Self::of_capped`] for a caller that keeps each sentence's best partners in each group
    /// of `to`'s sentences (a pool of sources one after another: group `g` is
    /// `starts[g]..starts[g + 1]`), not over them all: a sentence copied into fifty story
    /// updates keeps its best partners in each. A sentence with few candidates meets them all,
    /// as [`Self::of`] does; one with many searches each group it touches on its own, the capped
    /// way within the group (its place on the diagonal taken in the group: `place` is the
    /// sentence's position and the number of sentences of `from`), so that a source of a
    /// thousand template lines costs what the partners kept there cost.
    pub(super) fn of_capped_per_group<'s>(
        &'s self,
        sentence: &PreparedSentence,
        scratch: &mut SearchScratch<'s>,
        ranking: &mut PartnerRanking<'_>,
        starts: &[usize],
        place: (u64, u64),
    ) -> CappedSearch {
        let needed = self.lists_of(sentence, scratch);
        if ranking.kept == 0 {
            return plain(self.of_lists_split(needed, scratch));
        }
        let group_of = |j: u32| starts.partition_point(|&s| s <= j as usize) - 1;
        // The plain search, when it stays within its budget, finds every candidate; only a
        // group holding many of them (a source of template lines) needs the capped search, and
        // the others keep what the plain search found (prose meets many sources a few
        // sentences each: searching each source on its own cost 1.4x the CPU on 2.4 MB of BBC
        // articles against 2,225 sources).
        let (light, heavy) = match self.found_within(needed, scratch, TOUCHED_BEFORE_CAPPED) {
            Some(candidates) => {
                let mut light = Vec::new();
                let mut heavy = Vec::new();
                for in_group in candidates.chunk_by(|&a, &b| group_of(a) == group_of(b)) {
                    if in_group.len() > ranking.capped_from {
                        heavy.push(group_of(in_group[0]));
                    } else {
                        light.extend_from_slice(in_group);
                    }
                }
                if heavy.is_empty() {
                    return plain(self.reaching_whole(candidates, scratch));
                }
                (light, Some(heavy))
            }
            None => (Vec::new(), None),
        };
        let whole = std::mem::take(&mut scratch.lists);
        let groups = heavy.unwrap_or_else(|| {
            // A candidate is met in one of the lists needed before the rest can only add to a
            // bound (`suffix` at or above `needed`): the groups touched are those these lists
            // hold.
            let mut groups: Vec<usize> = Vec::new();
            for (at, (list, _)) in whole.iter().enumerate() {
                if scratch.suffix[at] < needed {
                    break;
                }
                let mut entry = 0;
                while entry < list.len() {
                    let group = group_of(list.entry(entry).0);
                    groups.push(group);
                    entry = list.position_of(starts[group + 1] as u32);
                }
            }
            groups.sort_unstable();
            groups.dedup();
            groups
        });
        let (i, from_len) = place;
        let mut found = CappedSearch {
            scored: light.is_empty(),
            candidates: light,
            stopped: false,
            missing_whole: Vec::new(),
        };
        for group in groups {
            let (start, end) = (starts[group] as u32, starts[group + 1] as u32);
            scratch.lists.clear();
            scratch
                .lists
                .extend(whole.iter().filter_map(|(list, slot)| {
                    let part = list.within(start, end);
                    (part.len() > 0).then_some((part, *slot))
                }));
            Self::order_lists(&mut scratch.lists, &mut scratch.suffix);
            ranking.near = start + (i * u64::from(end - start) / from_len.max(1)) as u32;
            let in_group = self.capped_over_lists(sentence, needed, scratch, ranking);
            found.candidates.extend(in_group.candidates);
            found.missing_whole.extend(in_group.missing_whole);
            found.stopped |= in_group.stopped;
            found.scored &= in_group.scored;
        }
        scratch.lists = whole;
        // Each group's candidates lie within it, and no group is searched twice.
        found.candidates.sort_unstable();
        found.missing_whole.sort_unstable();
        found
    }

    /// [`Self::of_capped`] over the lists [`Self::lists_of`] left in `scratch` (`needed`: the
    /// bound it returned).
    fn capped_over_lists<'s>(
        &'s self,
        sentence: &PreparedSentence,
        needed: f64,
        scratch: &mut SearchScratch<'s>,
        ranking: &mut PartnerRanking<'_>,
    ) -> CappedSearch {
        if ranking.kept == 0 {
            return plain(self.of_lists_split(needed, scratch));
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
            return plain(self.reaching_whole(found.unwrap_or_default(), scratch));
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
        // Or, between two documents, if a list read after short ones holds the sentence's copy
        // beside its place ([`stops_near`]): the short lists are read and scored, and the search
        // stops there (a price list against next month's: each line shares its item number and
        // perhaps a price with its copy, and every word but its numbers with every other line,
        // so the lists of its numbers are short and, once they are read, the copy is all that
        // reaches what an unmet line could score).
        let mut near_copy = false;
        if ranking.diagonal {
            let mut read = 0;
            for (at, ((list, _), &left)) in lists.iter().zip(suffix.iter()).enumerate() {
                if left < needed || read > NEAR_READ * ranking.capped_from {
                    break;
                }
                if list.len() > ranking.kept && stops_near(list, unmet_bound(tight, at), ranking) {
                    near_copy = true;
                    break;
                }
                read += list.len();
            }
        }
        let likely_to_stop = near_copy
            || probe.is_some_and(|at| stops_early(&lists[at].0, unmet_bound(tight, at), ranking));
        if !likely_to_stop {
            return plain(match found {
                Some(found) => self.reaching_whole(found, scratch),
                None => self.of_lists_split(needed, scratch),
            });
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
                    if smaller >= ranking.floor && ranking.counts(j) {
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
            missing_whole: Vec::new(),
        }
    }
}

/// How many entries of a long list [`stops_early`] scores.
const PARTNER_SAMPLE: usize = 64;

/// Whether the capped search is likely to stop within `list` (the first list longer than the
/// partners kept): whether [`PARTNER_SAMPLE`] of its entries, spread evenly, show it to hold at
/// least [`STOP_MARGIN`] times `ranking.kept` partners whose smaller Sim reaches `bound`, what a
/// sentence not met before the list could score. A templated line's list is almost all such
/// partners (each line shares all its words but the number with every other); a short sentence
/// of prose has as many candidates (any sentence holding one of its few words may contain it) but few
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
        if ranking.counts(j)
            && (ranking.score)(j).is_some_and(|(own, other)| own.min(other) >= bound)
        {
            beyond += 1;
        }
    }
    beyond * list.len() >= STOP_MARGIN * ranking.kept * sampled.max(1)
}

/// Whether the capped search is likely to stop as soon as it starts reading `list` (having read
/// the lists before it), from the sentence's place on the diagonal outwards:
/// whether, of the [`NEAR_PROBE`] times `ranking.kept` entries nearest that place, at least
/// `ranking.kept` are counted partners whose smaller Sim reaches `bound`. A table compared with
/// its next version (a price list whose lines differ by two numbers) has each line's copy on
/// the diagonal and no other line reaching the bound: a sample spread over the list misses the
/// copy, and the plain search then listed every pair of lines (two lists of 10,000 lines at the
/// measured preset: 10^8 pairs, 58 s and 11.4 GB). Only where the diagonal means something
/// ([`PartnerRanking::diagonal`]).
fn stops_near(list: &Postings<'_>, bound: f64, ranking: &mut PartnerRanking<'_>) -> bool {
    if !ranking.diagonal || ranking.kept == 0 {
        return false;
    }
    let probed = (NEAR_PROBE * ranking.kept).min(list.len());
    let start = list.position_of(ranking.near);
    // The entries nearest the place: those from where it falls on both sides.
    let from = start.saturating_sub(probed / 2).min(list.len() - probed);
    let mut beyond = 0;
    for at in from..from + probed {
        let (j, _) = list.entry(at);
        if ranking.counts(j)
            && (ranking.score)(j).is_some_and(|(own, other)| own.min(other) >= bound)
        {
            beyond += 1;
        }
    }
    beyond >= ranking.kept
}

/// How many times the partners kept [`stops_near`] scores around the diagonal.
const NEAR_PROBE: usize = 4;

/// How many times the capped search's trigger ([`CANDIDATES_BEFORE_CAPPED_IN_PAIRS`]) the lists
/// before the one [`stops_near`] probes may hold: what the capped search reads and scores
/// before it can stop there.
const NEAR_READ: usize = 8;

/// How many times the partners kept [`stops_early`] asks the sample to promise beyond the
/// bound: at 2, 2.5 MB of BBC prose against its revision at the measured preset took 1.13x the
/// CPU of the plain search (retellings of one story promise a few dozen partners and the
/// capped search then meets them all); templated lines promise thousands.
const STOP_MARGIN: usize = 8;
