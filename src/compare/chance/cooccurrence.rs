//! Words that come together: the evidence of a pair's shared words, each weighed given the
//! heavier ones it shares too, from how often they occur together in the two documents.
//!
//! The null model ([`super::null`]) treats a sentence's words as independent, and for most words
//! that holds well enough. It fails for words that come in groups: lists of names ("Brazil,
//! Mexico, Guatemala, El Salvador, Costa Rica"), collocations ("financial rand", "South Africa"),
//! the vocabulary of one topic. A news story listing coffee producers and an encyclopedia article
//! listing the countries of a region share five rare names, which under independence would be
//! a one-in-10^30 coincidence; it is one coincidence, that both texts list the same countries.
//!
//! So the weight of a shared term t is taken given the heavier shared terms before it (the
//! terms in weight order, heaviest first): P_A(t | u) is the share of A's other sentences holding u
//! that also hold t, the largest over those u, and never below t's own rate q_A(t) (the discount
//! only ever lowers a weight). The term then weighs -ln(P_A(t | u) P_B(t | u)) instead of
//! -ln(q_A(t) q_B(t)). Words of a copied sentence rarely occur together elsewhere in both
//! documents, so their weights stay; names of a list, or a topic's words, do, and weigh little
//! after the first. The pair itself is left out of the counts (its own co-occurrence is what is
//! being judged).
//!
//! Counting co-occurrence walks the sentence lists of the terms, which would cost the square of
//! a document's size for its common words. So each list is walked in a sample of about K of its
//! sentences ([`super::search::ChanceOptions::discount_list_cap`], chosen on the text-alignment
//! corpus): a list of L sentences keeps those whose hash is below K / L, with one hash of the
//! sentence's position for every list (coordinated sampling, as in bottom-k sketches: Cohen and
//! Kaplan 2007, *Summarizing data using bottom-k sketches*, PODC). A sentence holding both t and u
//! is then in both samples exactly when its hash is below the smaller of the two rates, so the
//! sentences holding both, counted in the samples and divided by that rate, estimate how many
//! hold both without bias; lists of at most K sentences are walked whole and counted exactly.
//! The cost per sentence weighed is then at most K per term, whatever the size of the
//! documents. (Before, lists longer than a cap were not counted at all and their words never
//! discounted; the cap that served large documents was too costly for them, and a topic's words
//! passed it as documents grew.)

use std::sync::OnceLock;

use super::null::NullModel;

/// For each term (dense index of [`NullModel`]), how many of one document's sentences hold it
/// and the sample of them (positions, ascending) that co-occurrence is counted in.
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
    positions: usize,
}

/// A sentence position's key in [0, 1) for the coordinated samples: the same for every list, so
/// that a sentence in the sample of a longer list is in the sample of every shorter one it is in
/// (SplitMix64's finaliser, Steele et al. 2014: a fixed, well-mixed function of the position).
fn sample_key(position: u32) -> f64 {
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
        Postings {
            held,
            samples,
            rates,
            sentences,
            positions: terms.len(),
        }
    }

    /// How many of the document's sentences hold `term`.
    fn held(&self, term: u32) -> usize {
        self.held.get(term as usize).map_or(0, |&n| n as usize)
    }

    fn sample(&self, term: u32) -> &[u32] {
        self.samples.get(term as usize).map_or(&[], Vec::as_slice)
    }

    /// The rate at which `term`'s list is sampled (1: walked whole).
    fn sampling_rate(&self, term: u32) -> f64 {
        self.rates.get(term as usize).copied().unwrap_or(1.0)
    }

    /// t's rate among this document's sentences.
    fn rate(&self, t: u32) -> f64 {
        self.held(t) as f64 / self.sentences.max(1) as f64
    }
}

/// The co-occurrence counts a discount reads, one document's side: for each sentence, how many
/// of the document's other sentences hold each two of its terms, computed the first time the
/// sentence is weighed and kept (a search weighs each sentence against a window of neighbours,
/// so the same sentence comes back many times: counting once per sentence instead of once per
/// pair made comparing a text with its revision 8x cheaper).
pub struct SentenceCounts<'a> {
    postings: &'a Postings,
    terms: &'a [&'a [(u32, f64)]],
    rows: Vec<OnceLock<Counts>>,
}

/// One sentence's counts: its terms (ascending dense index) and, for each two of them, the other
/// sentences holding both, estimated from the samples (lower triangle).
struct Counts {
    terms: Box<[u32]>,
    /// f32: whole counts are exact to 2^24, and a sentence's k (k - 1) / 2 of them are kept
    /// for every sentence weighed.
    both: Box<[f32]>,
}

impl Counts {
    /// The other sentences holding both `t` and `u` (estimated where a list is sampled).
    fn both(&self, t: u32, u: u32) -> Option<f64> {
        let (i, j) = (
            self.terms.binary_search(&t).ok()?,
            self.terms.binary_search(&u).ok()?,
        );
        let (high, low) = (i.max(j), i.min(j));
        (high != low).then(|| f64::from(self.both[high * (high - 1) / 2 + low]))
    }
}

impl<'a> SentenceCounts<'a> {
    /// The counts of a document whose sentences' weighted terms by position are `terms` and
    /// whose lists are `postings` (made from the same terms).
    pub fn new(postings: &'a Postings, terms: &'a [&'a [(u32, f64)]]) -> SentenceCounts<'a> {
        SentenceCounts {
            postings,
            terms,
            rows: (0..terms.len()).map(|_| OnceLock::new()).collect(),
        }
    }

    fn counts(&self, position: u32) -> &Counts {
        self.rows[position as usize].get_or_init(|| {
            let terms: Box<[u32]> = self.terms[position as usize]
                .iter()
                .map(|&(t, _)| t)
                .collect();
            let k = terms.len();
            let square = cooccurrences(&terms, self.postings, position);
            let rate = |t: u32| self.postings.sampling_rate(t);
            let mut both = Vec::with_capacity(k * k.saturating_sub(1) / 2);
            for i in 1..k {
                both.extend((0..i).map(|j| {
                    // Both terms' samples hold a sentence holding both exactly when its key is
                    // below the smaller rate: the count over that rate estimates the whole.
                    (f64::from(square[j * k + i]) / rate(terms[i]).min(rate(terms[j]))) as f32
                }));
            }
            Counts {
                terms,
                both: both.into_boxed_slice(),
            }
        })
    }
}

/// The shared terms of sentences `own` (left at position `own[0]`, right at `own[1]`), heaviest
/// first as (dense index, weight), with each weight taken given the heavier ones (see the module
/// docs). `counts` are the two documents' co-occurrence counts.
pub fn discounted(
    shared: &[(u32, f64)],
    counts: [&SentenceCounts; 2],
    own: [u32; 2],
) -> Vec<(u32, f64)> {
    let rows = [counts[0].counts(own[0]), counts[1].counts(own[1])];
    let mut out = Vec::with_capacity(shared.len());
    for (i, &(t, w)) in shared.iter().enumerate() {
        let mut weight = w;
        let rates = [0, 1].map(|side| counts[side].postings.rate(t));
        for &(u, _) in &shared[..i] {
            let given = [0, 1].map(|side| {
                let held = counts[side].postings.held(u);
                rows[side]
                    .both(t, u)
                    .filter(|_| held > 1)
                    .map(|both| (both / (held - 1) as f64).min(1.0))
            });
            weight = given_the_heavier(weight, given, rates);
        }
        out.push((t, weight.max(0.0)));
    }
    out
}

/// A word's weight after one heavier word it shares: `given` are P_A(t | u) and P_B(t | u)
/// (`None` where u is held by no other sentence), `rates` its own rates q_A(t) and q_B(t). Only
/// words that come together more often than alone are discounted, to -ln(P_A P_B).
fn given_the_heavier(weight: f64, given: [Option<f64>; 2], rates: [f64; 2]) -> f64 {
    let (Some(pa), Some(pb)) = (given[0], given[1]) else {
        return weight;
    };
    if pa <= rates[0] && pb <= rates[1] {
        return weight;
    }
    let p = pa.max(rates[0]) * pb.max(rates[1]);
    if p > 0.0 { weight.min(-p.ln()) } else { weight }
}

/// For terms `terms` (k of them), the number of this document's sentences other than `own` in
/// the samples of both the j-th and the i-th, at `j * k + i` (j < i). One pass over the samples
/// marks, for each sentence, which of the terms it holds (a bit set, in a scratch array by
/// sentence that is cleared after); then each sentence adds one to each pair of terms it holds.
/// The cost is the samples' lengths (at most about the sample size each) plus, per sentence, the
/// square of how many of the terms it holds.
fn cooccurrences(terms: &[u32], postings: &Postings, own: u32) -> Vec<u32> {
    let k = terms.len();
    let words = k.div_ceil(64).max(1);
    let mut counts = vec![0u32; k * k];
    SCRATCH.with_borrow_mut(|scratch| {
        let Scratch { held, touched } = scratch;
        let needed = postings.positions * words;
        if held.len() < needed {
            held.resize(needed, 0);
        }
        touched.clear();
        for (index, &t) in terms.iter().enumerate() {
            for &sentence in postings.sample(t).iter().filter(|&&s| s != own) {
                let row = &mut held[sentence as usize * words..][..words];
                if row.iter().all(|&w| w == 0) {
                    touched.push(sentence);
                }
                row[index / 64] |= 1 << (index % 64);
            }
        }
        let mut indices: Vec<usize> = Vec::with_capacity(k);
        for &sentence in touched.iter() {
            let row = &mut held[sentence as usize * words..][..words];
            indices.clear();
            for (word, bits) in row.iter_mut().enumerate() {
                let mut rest = *bits;
                while rest != 0 {
                    indices.push(word * 64 + rest.trailing_zeros() as usize);
                    rest &= rest - 1;
                }
                *bits = 0;
            }
            for (x, &j) in indices.iter().enumerate() {
                for &i in &indices[x + 1..] {
                    counts[j * k + i] += 1;
                }
            }
        }
    });
    counts
}

/// One thread's scratch for [`cooccurrences`]: a bit set of terms per sentence (all zero between
/// calls) and the sentences whose sets are not.
#[derive(Default)]
struct Scratch {
    held: Vec<u64>,
    touched: Vec<u32>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// The shared terms of two weighted term lists (sorted by dense index, heaviest first).
pub fn shared_terms(left: &[(u32, f64)], right: &[(u32, f64)]) -> Vec<(u32, f64)> {
    let (mut i, mut j) = (0, 0);
    let mut both = Vec::new();
    while i < left.len() && j < right.len() {
        match left[i].0.cmp(&right[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                both.push(left[i]);
                i += 1;
                j += 1;
            }
        }
    }
    both
}

/// The evidence of a pair of sentences: its shared terms discounted (`counts`; `None` weighs
/// each term alone, the discount switched off), their summed weight W, and ln P of W at the
/// pair's length factor.
///
/// `ln_p_bar` is the bar the caller will hold ln P to: a pair whose undiscounted ln P is already
/// above it is returned undiscounted (the discount only lowers weights, so it would stay above),
/// which spares the discount for the many pairs a search looks at and rejects. Pass
/// `f64::INFINITY` for the discounted evidence of every pair.
pub fn weigh(
    null: &NullModel,
    terms: [&[(u32, f64)]; 2],
    lengths: [usize; 2],
    counts: Option<[&SentenceCounts; 2]>,
    own: [u32; 2],
    ln_p_bar: f64,
) -> (Vec<(u32, f64)>, f64, f64) {
    let factor = null.length_factor(lengths[0], lengths[1]);
    let both = shared_terms(terms[0], terms[1]);
    let plain: f64 = both.iter().map(|&(_, w)| w).sum();
    let plain_ln_p = null.ln_p(plain, factor);
    let Some(counts) = counts.filter(|_| plain_ln_p <= ln_p_bar) else {
        return (both, plain, plain_ln_p);
    };
    let shared = discounted(&both, counts, own);
    let w: f64 = shared.iter().map(|&(_, w)| w).sum();
    (shared, w, null.ln_p(w, factor))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `f` with the counts of a document whose sentences hold `sentences` (terms below 10,
    /// of weight 1), each word's sentences sampled to about `sample`.
    fn with_counts<R>(
        sentences: &[&[u32]],
        sample: u32,
        f: impl FnOnce(&SentenceCounts) -> R,
    ) -> R {
        let lists: Vec<Vec<(u32, f64)>> = sentences
            .iter()
            .map(|s| s.iter().map(|&t| (t, 1.0)).collect())
            .collect();
        let slices: Vec<&[(u32, f64)]> = lists.iter().map(Vec::as_slice).collect();
        let postings = Postings::new(&slices, 10, sample);
        f(&SentenceCounts::new(&postings, &slices))
    }

    impl Postings {
        /// P(t | u) in this document, the sentence `own` left out: the share of the other sentences
        /// holding `u` that also hold `t`, those holding both counted in the sentences of both
        /// lists whose key is below the smaller sampling rate and divided by it; `None` when
        /// no other sentence holds `u`.
        fn conditional(
            &self,
            sentences: &[&[(u32, f64)]],
            t: u32,
            u: u32,
            own: u32,
        ) -> Option<f64> {
            let list = |term: u32| -> Vec<u32> {
                (0u32..)
                    .zip(sentences)
                    .filter(|(_, s)| s.iter().any(|&(x, _)| x == term))
                    .map(|(p, _)| p)
                    .collect()
            };
            let (lt, lu) = (list(t), list(u));
            if lu.len() <= 1 {
                return None;
            }
            let rate = self.sampling_rate(t).min(self.sampling_rate(u));
            let both = lt
                .iter()
                .filter(|&&p| p != own && lu.binary_search(&p).is_ok())
                .filter(|&&p| rate >= 1.0 || sample_key(p) < rate)
                .count();
            // Kept as f32, as the counts are.
            let estimate = f64::from((both as f64 / rate) as f32);
            Some((estimate / (lu.len() - 1) as f64).min(1.0))
        }
    }

    /// The discount as first written: each two shared terms' lists intersected apart (the
    /// counting is what is checked; the weight rule is shared).
    fn discounted_by_walking(
        shared: &[(u32, f64)],
        postings: [&Postings; 2],
        sentences: [&[&[(u32, f64)]]; 2],
        own: [u32; 2],
    ) -> Vec<(u32, f64)> {
        let mut out = Vec::with_capacity(shared.len());
        for (k, &(t, w)) in shared.iter().enumerate() {
            let mut weight = w;
            for &(u, _) in &shared[..k] {
                let given =
                    [0, 1].map(|side| postings[side].conditional(sentences[side], t, u, own[side]));
                let rates = [0, 1].map(|side| postings[side].rate(t));
                weight = given_the_heavier(weight, given, rates);
            }
            out.push((t, weight.max(0.0)));
        }
        out
    }

    proptest::proptest! {
        /// Counting co-occurrences in one pass gives the weights of walking each two lists.
        #[test]
        fn one_pass_counts_weigh_as_walking_each_two_lists(
            left in proptest::collection::vec(proptest::collection::btree_set(0u32..12, 0..8), 2..40),
            right in proptest::collection::vec(proptest::collection::btree_set(0u32..12, 0..8), 2..40),
            weights in proptest::collection::vec(0.5f64..12.0, 12),
            own_left in 0usize..40,
            own_right in 0usize..40,
            cap in 1u32..48,
        ) {
            let own = [own_left % left.len(), own_right % right.len()];
            let as_lists = |side: &Vec<std::collections::BTreeSet<u32>>| -> Vec<Vec<(u32, f64)>> {
                side.iter().map(|s| s.iter().map(|&t| (t, weights[t as usize])).collect()).collect()
            };
            let (l, r) = (as_lists(&left), as_lists(&right));
            let ls: Vec<&[(u32, f64)]> = l.iter().map(Vec::as_slice).collect();
            let rs: Vec<&[(u32, f64)]> = r.iter().map(Vec::as_slice).collect();
            let postings = [Postings::new(&ls, 12, cap), Postings::new(&rs, 12, cap)];
            let counts = [SentenceCounts::new(&postings[0], &ls), SentenceCounts::new(&postings[1], &rs)];
            let both = shared_terms(&l[own[0]], &r[own[1]]);
            let own = [own[0] as u32, own[1] as u32];
            proptest::prop_assert_eq!(
                discounted(&both, [&counts[0], &counts[1]], own),
                discounted_by_walking(&both, [&postings[0], &postings[1]], [&ls, &rs], own)
            );
        }
    }

    #[test]
    fn words_listed_together_elsewhere_weigh_little_after_the_first() {
        // Terms 0, 1, 2 are country names listed together in three other sentences of each
        // document; 3 and 4 are words of the pair alone.
        let document: [&[u32]; 5] = [
            &[0, 1, 2, 3, 4],
            &[0, 1, 2],
            &[0, 1, 2, 5],
            &[0, 1, 2],
            &[5, 6],
        ];
        let shared = [(0, 10.0), (1, 10.0), (2, 10.0), (3, 10.0), (4, 10.0)];
        let out = with_counts(&document, 2048, |side| {
            discounted(&shared, [side, side], [0, 0])
        });
        assert_eq!(out[0].1, 10.0, "the heaviest term keeps its weight");
        assert!(out[1].1 < 0.01 && out[2].1 < 0.01, "{out:?}");
        assert_eq!(out[3].1, 10.0, "words of the pair alone keep theirs");
        assert_eq!(out[4].1, 10.0);
    }

    #[test]
    fn words_together_in_more_sentences_than_the_sample_are_discounted_from_it() {
        // Terms 0 and 1 come together in 3,000 sentences, 2 is alone in 3,000 others: with a
        // sample of 64 sentences a list, 1 given 0 is still estimated as certain (the samples
        // are coordinated, so the sentences sampled for 0 are those sampled for 1) and 2 given
        // 0 as never.
        let mut document: Vec<&[u32]> = vec![&[0, 1, 2]];
        document.extend((0..3000).map(|_| &[0u32, 1][..]));
        document.extend((0..3000).map(|_| &[2u32, 3][..]));
        let shared = [(0, 10.0), (1, 10.0), (2, 10.0)];
        let (sampled, out) = with_counts(&document, 64, |counts| {
            let sampled = counts.postings.sample(0).len();
            (sampled, discounted(&shared, [counts, counts], [0, 0]))
        });
        assert!(sampled < 200, "{sampled}");
        assert_eq!(out[0].1, 10.0);
        assert!(out[1].1 < 0.01, "{out:?}");
        assert_eq!(out[2].1, 10.0, "{out:?}");
    }

    #[test]
    fn the_pair_itself_is_not_counted_as_co_occurrence() {
        // 0 and 1 meet only in the pair's own sentence: no discount.
        let shared = [(0, 8.0), (1, 8.0)];
        let out = with_counts(&[&[0, 1], &[0], &[1], &[2]], 2048, |side| {
            discounted(&shared, [side, side], [0, 0])
        });
        assert_eq!(out[1].1, 8.0);
        // Once they also meet in another sentence of both documents, 1 given 0 is likely.
        let out = with_counts(&[&[0, 1], &[0, 1], &[1], &[2]], 2048, |side| {
            discounted(&shared, [side, side], [0, 0])
        });
        assert!(out[1].1 < 0.01, "{out:?}");
    }
}
