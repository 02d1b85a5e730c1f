//! Passages: runs of matched sentences that follow each other in both documents.
//!
//! An analyst judges reuse by passages, not by single sentences: five consecutive sentences
//! taken over in order are one act of copying, five scattered single matches may be chance.
//! In the dotplot a passage is a segment along a diagonal. Not in the thesis; the idea is that
//! of WCopyfind's and JPlag's runs of matching text, at the sentence level.
//!
//! A passage is a chain of matched pairs (a, b), each step moving forward in both documents by
//! at most `gap + 1` sentences (so up to `gap` unmatched sentences may lie between two matches on
//! either side). A one-to-two match ([`crate::similarity::Joined`]) may also step on one side
//! only: sentence 7 of A matched to sentences 3 and 4 of B together is one step.
//!
//! Chains are built greedily in (a, b) order: each pair extends the open passage whose last pair
//! it can follow, preferring the one on its own diagonal (b - a unchanged), then the shortest
//! step; each passage end is extended at most once. O(pairs x (gap + 1)^2) hash look-ups.

mod nested;

pub use nested::{fold_nested, join_adjacent};

use super::Comparison;
use crate::document::Document;
use crate::similarity::{JoinSide, ScoredPair, Thresholds};

/// The default largest number of unmatched sentences between two matches of one passage.
pub const DEFAULT_GAP: u32 = 2;

/// The default shortest passage worth listing, in matched pairs: one pair alone is a match, not
/// a passage (when matches are not judged against chance; see [`default_min_pairs`]).
pub const DEFAULT_MIN_PAIRS: usize = 2;

/// The default shortest passage for a comparison: one pair when matches are judged against
/// chance (a single reused sentence unlikely by chance is a passage of its own; whether a
/// passage counts is up to its E-value), else [`DEFAULT_MIN_PAIRS`].
pub fn default_min_pairs(judged_against_chance: bool) -> usize {
    if judged_against_chance {
        1
    } else {
        DEFAULT_MIN_PAIRS
    }
}

/// One passage. It reads back from its JSON (the `members` left empty), as simdoc-spark's
/// evidence table stores it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Passage {
    /// First and last sentence of the passage in A (inclusive).
    pub a: [u32; 2],
    /// First and last sentence of the passage in B (inclusive).
    pub b: [u32; 2],
    /// Matched pairs in the passage (a one-to-two match counts as its two pairs).
    #[serde(rename = "sentences")]
    pub pairs: usize,
    /// Words of the matched sentences, on the side that has fewer: the length of the shorter
    /// copy (a passage can never be longer than what was copied).
    pub words: usize,
    /// The mean of the pairs' smaller directional Sims.
    pub score: f64,
    /// When matches are judged against chance: the passage's E-value, the expected number of
    /// passages at least as good by chance in this comparison ([`super::chance::chains`]).
    #[serde(default, alias = "chance", skip_serializing_if = "Option::is_none")]
    pub e_value: Option<f64>,
    /// Indices of the pairs (into the slice given to [`find`]) in chain order.
    #[serde(skip)]
    pub members: Vec<usize>,
}

impl Passage {
    /// Whether sentence `position` of side `side` (0 = A, 1 = B) lies in the passage's range.
    pub fn covers(&self, side: usize, position: u32) -> bool {
        let [first, last] = if side == 0 { self.a } else { self.b };
        (first..=last).contains(&position)
    }
}

/// Whether `next` may follow `last` in one passage.
fn may_follow(last: &ScoredPair, next: &ScoredPair, gap: u32) -> bool {
    let reach = gap.saturating_add(1);
    let (da, db) = (
        i64::from(next.left) - i64::from(last.left),
        i64::from(next.right) - i64::from(last.right),
    );
    let forward = (1..=i64::from(reach)).contains(&da) && (1..=i64::from(reach)).contains(&db);
    // One-to-two: the two pairs of one join share the sentence on the other side.
    let joined_step = |side: JoinSide| {
        [last, next]
            .iter()
            .all(|p| p.joined.is_some_and(|j| j.side == side))
    };
    let one_sided = (da == 1 && db == 0 && joined_step(JoinSide::Left))
        || (da == 0 && db == 1 && joined_step(JoinSide::Right));
    forward || one_sided
}

/// The passages among `pairs` (any order; matched pairs, typically [`super::Comparison::matches`]),
/// with up to `gap` unmatched sentences between consecutive matches, sorted by their first A
/// sentence. Every pair belongs to exactly one passage (possibly of one pair); filter by
/// [`Passage::pairs`] for a minimum length. `words[side][position]` is the number of words of a
/// sentence (missing positions count 0).
pub fn find(pairs: &[ScoredPair], gap: u32, words: [&[u32]; 2]) -> Vec<Passage> {
    let mut order: Vec<usize> = (0..pairs.len()).collect();
    // A comparison's matches come sorted already; checking is cheaper than sorting again.
    if !order.is_sorted_by_key(|&i| (pairs[i].left, pairs[i].right)) {
        order.sort_unstable_by_key(|&i| (pairs[i].left, pairs[i].right));
    }
    // The chains, and which chain ends at which (a, b): the (b, chain) of the chains ending in
    // each of the last `gap + 2` rows of A, the only ones a pair can follow (pairs come in A
    // order). A scan of a row's few ends costs less than hashing (a, b) several times per pair,
    // which at 158,000 matches was most of a slider move's passage search.
    let mut chains: Vec<Vec<usize>> = Vec::new();
    let reach = gap.saturating_add(1);
    let mut ends = RecentRows::new(reach as usize + 1);
    for &i in &order {
        let pair = &pairs[i];
        // The chain ending at (a, b) that this pair may follow, if any.
        let follows = |a: u32, b: u32| -> Option<usize> {
            let &(_, chain) = ends.row(a).iter().find(|&&(end, _)| end == b)?;
            let last = &pairs[chains[chain][chains[chain].len() - 1]];
            may_follow(last, pair, gap).then_some(chain)
        };
        // Prefer the own diagonal, then the shortest step (then the earlier chain). On the
        // diagonal the steps differ in length, so the first one found is the best: most pairs
        // of a passage are settled there with a few lookups.
        let on_diagonal = (1..=reach).find_map(|d| {
            let a = pair.left.checked_sub(d)?;
            let b = pair.right.checked_sub(d)?;
            follows(a, b).map(|chain| (false, 2 * u64::from(d), chain))
        });
        let mut best: Option<(bool, u64, usize)> = on_diagonal;
        if best.is_none() {
            for da in 0..=reach {
                let Some(a) = pair.left.checked_sub(da) else {
                    break;
                };
                for db in (0..=reach).filter(|&db| db != da) {
                    let Some(b) = pair.right.checked_sub(db) else {
                        break;
                    };
                    let Some(chain) = follows(a, b) else {
                        continue;
                    };
                    let key = (true, u64::from(da) + u64::from(db), chain);
                    if best.is_none_or(|b| key < b) {
                        best = Some(key);
                    }
                }
            }
        }
        let chain = match best {
            Some((_, _, chain)) => {
                let last = &pairs[chains[chain][chains[chain].len() - 1]];
                ends.remove(last.left, last.right);
                chains[chain].push(i);
                chain
            }
            None => {
                chains.push(vec![i]);
                chains.len() - 1
            }
        };
        // A second pair ending at the same (a, b) (a duplicate) keeps the first.
        ends.insert(pair.left, pair.right, chain);
    }
    chains
        .into_iter()
        .map(|members| passage_of(pairs, members, words))
        .collect()
}

/// The chain ends of the last few rows of A, in a ring: row `a` lives in slot `a % len` until a
/// later row takes the slot (rows come in ascending order).
struct RecentRows {
    slots: Vec<(u32, Vec<(u32, usize)>)>,
}

impl RecentRows {
    fn new(rows: usize) -> RecentRows {
        RecentRows {
            slots: vec![(u32::MAX, Vec::new()); rows.max(1)],
        }
    }

    /// The (b, chain) ends in row `a` (none if the row has left the ring).
    fn row(&self, a: u32) -> &[(u32, usize)] {
        let (row, ends) = &self.slots[a as usize % self.slots.len()];
        if *row == a { ends } else { &[] }
    }

    fn remove(&mut self, a: u32, b: u32) {
        let at = a as usize % self.slots.len();
        let (row, ends) = &mut self.slots[at];
        if *row == a
            && let Some(k) = ends.iter().position(|&(end, _)| end == b)
        {
            ends.swap_remove(k);
        }
    }

    /// Records that `chain` ends at (a, b), unless a chain ends there already.
    fn insert(&mut self, a: u32, b: u32, chain: usize) {
        let at = a as usize % self.slots.len();
        let (row, ends) = &mut self.slots[at];
        if *row != a {
            *row = a;
            ends.clear();
        }
        if !ends.iter().any(|&(end, _)| end == b) {
            ends.push((b, chain));
        }
    }
}

/// The passage of the chain `members` (indices into `pairs`, in chain order).
pub(crate) fn passage_of(pairs: &[ScoredPair], members: Vec<usize>, words: [&[u32]; 2]) -> Passage {
    let mut a = [u32::MAX, 0];
    let mut b = [u32::MAX, 0];
    let mut score = 0.0;
    // Words of the distinct sentences per side. A chain never steps back on either side, so a
    // sentence repeats (a one-to-two match, or a duplicate pair) only next to itself.
    let mut side_words = [0usize; 2];
    let mut previous: [Option<u32>; 2] = [None, None];
    for &m in &members {
        let p = &pairs[m];
        a = [a[0].min(p.left), a[1].max(p.left)];
        b = [b[0].min(p.right), b[1].max(p.right)];
        score += p.min_sim();
        for (side, position) in [(0, p.left), (1, p.right)] {
            if previous[side] != Some(position) {
                side_words[side] +=
                    words[side].get(position as usize).copied().unwrap_or(0) as usize;
                previous[side] = Some(position);
            }
        }
    }
    Passage {
        a,
        b,
        pairs: members.len(),
        words: side_words[0].min(side_words[1]),
        score: if members.is_empty() {
            0.0
        } else {
            score / members.len() as f64
        },
        e_value: None,
        members,
    }
}

/// For each of `pairs` (matched pairs, any order), whether it lies in a run of at least
/// `min_words` words ([`Passage::words`]): a passage of [`find`] with at most [`DEFAULT_GAP`]
/// unmatched sentences between two matches. What a shortest match
/// ([`crate::similarity::Thresholds::min_words`]) keeps.
pub fn in_long_runs(pairs: &[ScoredPair], words: [&[u32]; 2], min_words: usize) -> Vec<bool> {
    let mut long_enough = vec![false; pairs.len()];
    for run in find(pairs, DEFAULT_GAP, words) {
        if run.words >= min_words {
            for m in run.members {
                long_enough[m] = true;
            }
        }
    }
    long_enough
}

/// The number of words of each sentence: runs of characters holding a letter or digit between
/// whitespace, each Chinese or Japanese character counting as one (those scripts put no spaces
/// between words). Cheap, and close enough for a length (the refined terms are what is
/// compared).
pub fn word_counts<'a>(sentences: impl IntoIterator<Item = &'a str>) -> Vec<u32> {
    sentences
        .into_iter()
        .map(|s| {
            let n: usize = s
                .split_whitespace()
                .map(|w| {
                    let cjk = w.chars().filter(|&c| crate::text::is_cjk(c)).count();
                    let other = w
                        .chars()
                        .any(|c| c.is_alphanumeric() && !crate::text::is_cjk(c));
                    cjk + usize::from(other)
                })
                .sum();
            u32::try_from(n).unwrap_or(u32::MAX)
        })
        .collect()
}

/// How passages are found for a report or a pair's evidence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassageOptions {
    /// The largest number of unmatched sentences between two matches of one passage.
    pub gap: u32,
    /// The fewest matched pairs a passage must have to be listed.
    pub min_pairs: usize,
}

impl Default for PassageOptions {
    fn default() -> Self {
        PassageOptions {
            gap: DEFAULT_GAP,
            min_pairs: DEFAULT_MIN_PAIRS,
        }
    }
}

/// The number of words of each sentence of both documents ([`word_counts`]), which passages
/// count: computed once per pair of documents, not at each threshold.
pub fn sentence_words(docs: [&Document; 2]) -> [Vec<u32>; 2] {
    docs.map(|d| word_counts(d.sentences.iter().map(|s| s.text.as_str())))
}

/// A test of whether a match is, for a sentence listing only its best partners
/// ([`Comparison::partners_capped`]: a templated line), one of them scoring below its best: the
/// line's other near-copies stand beside its place in reading order, and chaining them made a
/// parallel passage for each (1,000 template lines against themselves: 23 passages, one after).
fn runner_up_test<'c>(
    comparison: &'c Comparison,
    matches: &[ScoredPair],
) -> impl Fn(&ScoredPair) -> bool + 'c {
    let capped = &comparison.partners_capped;
    let best = |side: usize, sentences: &[u32]| {
        let mut best = vec![f64::NEG_INFINITY; comparison.active[side].len()];
        for pair in matches {
            let own = if side == 0 { pair.left } else { pair.right };
            if sentences.binary_search(&own).is_ok()
                && let Some(slot) = best.get_mut(own as usize)
            {
                *slot = slot.max(pair.min_sim());
            }
        }
        best
    };
    let best = if capped.is_empty() {
        [Vec::new(), Vec::new()]
    } else {
        [best(0, &capped.left), best(1, &capped.right)]
    };
    move |pair: &ScoredPair| {
        let below = |side: usize, own: u32| {
            best[side]
                .get(own as usize)
                .is_some_and(|&b| pair.min_sim() < b)
        };
        below(0, pair.left) || below(1, pair.right)
    }
}

/// The passages of `matches` (filtered from `comparison` under `thresholds`), those with at
/// least `options.min_pairs` pairs, and for each match the index of its passage among them.
/// Passages count the comparison's words of each sentence ([`Comparison::words`]).
///
/// When the comparison judges matches against chance, the passages are its evidence chains
/// ([`Comparison::evidence_chains`]: the matches are their links), each with its E-value, sorted
/// by their first A sentence. Otherwise they are found among the matches ([`find`]); the pairs of
/// repeated sentences listed only in part ([`Comparison::capped`]) then take no part: a band of a
/// class's partners is not a run of reuse in reading order, and chaining the millions of pairs it
/// may stand for would cost what the repetition classes exist to avoid. Nor do the partners of a
/// templated line that score below its best ([`runner_up_test`]).
pub fn passages_of(
    comparison: &Comparison,
    matches: &[ScoredPair],
    thresholds: &Thresholds,
    options: PassageOptions,
) -> (Vec<Passage>, Vec<Option<u32>>) {
    let words = [&*comparison.words[0], &*comparison.words[1]];
    let found: Vec<Passage> = if comparison.link_surprises.is_some() {
        let index_of = |p: &ScoredPair| {
            matches
                .binary_search_by_key(&(p.left, p.right), |m| (m.left, m.right))
                .ok()
        };
        let chains: Vec<Passage> = comparison
            .evidence_chains(thresholds)
            .into_iter()
            .filter(|c| c.members.len() >= options.min_pairs)
            .filter_map(|c| {
                let members: Option<Vec<usize>> = c
                    .members
                    .iter()
                    .map(|&m| index_of(&comparison.pairs[m]))
                    .collect();
                let mut passage = passage_of(matches, members?, words);
                passage.e_value = Some(c.ln_e.exp());
                Some(passage)
            })
            .collect();
        let reach = comparison
            .link_surprises
            .as_ref()
            .map_or(options.gap + 1, |c| c.summary.options.reach);
        join_adjacent(fold_nested(chains), reach)
    } else if comparison.capped.is_empty() && comparison.partners_capped.is_empty() {
        find(matches, options.gap, words)
            .into_iter()
            .filter(|p| p.pairs >= options.min_pairs)
            .collect()
    } else {
        let is_capped = comparison.capped_test();
        let runner_up = runner_up_test(comparison, matches);
        let taking_part: Vec<usize> = (0..matches.len())
            .filter(|&i| !is_capped(&matches[i]) && !runner_up(&matches[i]))
            .collect();
        let chained: Vec<ScoredPair> = taking_part.iter().map(|&i| matches[i]).collect();
        find(&chained, options.gap, words)
            .into_iter()
            .filter(|p| p.pairs >= options.min_pairs)
            .map(|mut p| {
                // Members index `matches`, not the pairs taking part.
                for m in &mut p.members {
                    *m = taking_part[*m];
                }
                p
            })
            .collect()
    };
    let mut of = vec![None; matches.len()];
    for (index, passage) in (0u32..).zip(&found) {
        for &m in &passage.members {
            if let Some(slot) = of.get_mut(m) {
                *slot = Some(index);
            }
        }
    }
    (found, of)
}

#[cfg(test)]
mod tests;
