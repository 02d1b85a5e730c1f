//! One document's word lists for the co-occurrence discount: each word's sentences, sampled
//! (see the parent module), and what is counted once for the whole document.

use rustc_hash::FxHashMap;

/// For each term (dense index of [`super::NullModel`]), how many of one document's sentences
/// hold it and the sample of them (positions, ascending) that co-occurrence is counted in.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Postings {
    /// Per term, the sentences holding it.
    held: Vec<u32>,
    /// Per term, the sentences holding it whose [`sample_key`] is below its sampling rate (all
    /// of them when they are at most the sample size), ascending.
    samples: Vec<Vec<u32>>,
    /// Per term, its sampling rate: the sample size over its list's length, at most 1.
    rates: Vec<f64>,
    sentences: usize,
    /// Sentence positions (active or not): the bound of every list's entries.
    pub(super) positions: usize,
    /// Per sentence position, the terms whose lists are sampled (rate below 1) and whose
    /// sample holds it, ascending: `in_samples[in_samples_start[p]..in_samples_start[p + 1]]`.
    /// Two or three per sentence: a common word's sample holds few of its sentences.
    in_samples: Vec<u32>,
    in_samples_start: Vec<u32>,
    /// Lists walked whole (rate 1) of at least this many sentences are *long*: a sentence's
    /// counts read the pairs with a long-listed term from a row of its co-occurrences made once
    /// per term (`SentenceCounts`), instead of walking its list.
    long_from: usize,
    /// Per sentence position, its terms whose lists are long, ascending, as
    /// `long_terms[long_terms_start[p]..long_terms_start[p + 1]]`.
    long_terms: Vec<u32>,
    long_terms_start: Vec<u32>,
    /// For each two sampled terms (the lower dense index in the high half of the key), how many
    /// sentences both samples hold, when some do ([`Self::both_sampled`]).
    sampled_pairs: FxHashMap<u64, u32>,
}

/// Each sentence position's terms that pass `keep(position, term)`, as one list and where each
/// position's part starts (read back with [`part`]).
fn per_position(terms: &[&[(u32, f64)]], keep: impl Fn(u32, u32) -> bool) -> (Vec<u32>, Vec<u32>) {
    let mut all = Vec::new();
    let mut start = Vec::with_capacity(terms.len() + 1);
    start.push(0);
    for (position, list) in terms.iter().enumerate() {
        all.extend(
            list.iter()
                .map(|&(t, _)| t)
                .filter(|&t| keep(position as u32, t)),
        );
        start.push(all.len() as u32);
    }
    (all, start)
}

/// Position `position`'s part of a list kept per position (`all`, with where each part starts).
fn part<'a>(all: &'a [u32], start: &[u32], position: u32) -> &'a [u32] {
    let p = position as usize;
    match (start.get(p), start.get(p + 1)) {
        (Some(&from), Some(&to)) => &all[from as usize..to as usize],
        _ => &[],
    }
}

/// The length from which a list walked whole is long, for lists sampled to about `sample`: an
/// eighth of the sample (at least 2). Walking a list of L sentences for each of the L sentences
/// holding it costs L^2; a long list's row of co-occurrences is made once in about L.
fn long_from(sample: f64) -> usize {
    ((sample / 8.0) as usize).max(2)
}

fn pair_key(low: u32, high: u32) -> u64 {
    (u64::from(low) << 32) | u64::from(high)
}

/// A sentence position's key in [0, 1) for the coordinated samples: the same for every list, so
/// that a sentence in the sample of a longer list is in the sample of every shorter one it is in
/// (SplitMix64's finaliser, Steele et al. 2014: a fixed, well-mixed function of the position).
pub(super) fn sample_key(position: u32) -> f64 {
    let mut z = u64::from(position).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

impl Postings {
    /// The lists of a document's sentences, given their weighted terms by position, each sampled
    /// to about `sample` sentences (see the module docs).
    pub fn new(terms: &[&[(u32, f64)]], vocabulary: usize, sample: u32) -> Postings {
        let mut lists = vec![Vec::new(); vocabulary];
        let mut sentences = 0;
        for (position, list) in terms.iter().enumerate() {
            if list.is_empty() {
                continue;
            }
            sentences += 1;
            for &(t, _) in list.iter() {
                if let Some(l) = lists.get_mut(t as usize) {
                    l.push(position as u32);
                }
            }
        }
        let sample = f64::from(sample.max(1));
        let mut held = Vec::with_capacity(lists.len());
        let mut rates = Vec::with_capacity(lists.len());
        let samples = lists
            .into_iter()
            .map(|list| {
                let rate = (sample / list.len().max(1) as f64).min(1.0);
                held.push(list.len() as u32);
                rates.push(rate);
                if rate >= 1.0 {
                    list
                } else {
                    list.into_iter().filter(|&p| sample_key(p) < rate).collect()
                }
            })
            .collect();
        let mut postings = Postings {
            held,
            samples,
            rates,
            sentences,
            positions: terms.len(),
            in_samples: Vec::new(),
            in_samples_start: Vec::new(),
            long_from: long_from(sample),
            long_terms: Vec::new(),
            long_terms_start: Vec::new(),
            sampled_pairs: FxHashMap::default(),
        };
        (postings.in_samples, postings.in_samples_start) = per_position(terms, |position, t| {
            let rate = postings.sampling_rate(t);
            rate < 1.0 && sample_key(position) < rate
        });
        (postings.long_terms, postings.long_terms_start) =
            per_position(terms, |_, t| postings.is_long(t));
        let mut sampled_pairs: FxHashMap<u64, u32> = FxHashMap::default();
        for p in 0..terms.len() as u32 {
            let here = postings.in_samples_of(p);
            for (x, &low) in here.iter().enumerate() {
                for &high in &here[x + 1..] {
                    *sampled_pairs.entry(pair_key(low, high)).or_default() += 1;
                }
            }
        }
        postings.sampled_pairs = sampled_pairs;
        postings
    }

    /// The terms of the sentence at `position` whose lists are long (walked whole, of at least
    /// [`Self::long_from`] sentences), ascending.
    pub(super) fn long_terms_of(&self, position: u32) -> &[u32] {
        part(&self.long_terms, &self.long_terms_start, position)
    }

    /// Whether `term`'s list is long (walked whole, of at least [`Self::long_from`] sentences).
    pub(super) fn is_long(&self, term: u32) -> bool {
        self.sampling_rate(term) >= 1.0 && self.held(term) >= self.long_from
    }

    /// How many sentences the samples of both `low` and `high` hold (two sampled terms,
    /// `low < high`).
    pub(super) fn both_sampled(&self, low: u32, high: u32) -> u32 {
        self.sampled_pairs
            .get(&pair_key(low, high))
            .copied()
            .unwrap_or(0)
    }

    /// The sampled terms whose samples hold the sentence at `position`, ascending.
    pub(super) fn in_samples_of(&self, position: u32) -> &[u32] {
        part(&self.in_samples, &self.in_samples_start, position)
    }

    /// How many terms the lists are kept for (dense indices below it).
    pub(super) fn vocabulary(&self) -> usize {
        self.held.len()
    }

    /// How many of the document's sentences hold `term`.
    pub(super) fn held(&self, term: u32) -> usize {
        self.held.get(term as usize).map_or(0, |&n| n as usize)
    }

    pub(super) fn sample(&self, term: u32) -> &[u32] {
        self.samples.get(term as usize).map_or(&[], Vec::as_slice)
    }

    /// The rate at which `term`'s list is sampled (1: walked whole).
    pub(super) fn sampling_rate(&self, term: u32) -> f64 {
        self.rates.get(term as usize).copied().unwrap_or(1.0)
    }

    /// t's rate among this document's sentences.
    pub(super) fn rate(&self, t: u32) -> f64 {
        self.held(t) as f64 / self.sentences.max(1) as f64
    }
}
