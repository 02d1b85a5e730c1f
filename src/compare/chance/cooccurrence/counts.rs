//! One document's co-occurrence counts, for each sentence weighed: how many of its other
//! sentences hold each two of the sentence's terms (see the parent module).

use std::sync::OnceLock;

use super::postings::{Postings, sample_key};

/// The co-occurrence counts a discount reads, one document's side: for each sentence, how many
/// of the document's other sentences hold each two of its terms, computed the first time the
/// sentence is weighed and kept (a search weighs each sentence against a window of neighbours,
/// so the same sentence comes back many times: counting once per sentence instead of once per
/// pair made comparing a text with its revision 8x cheaper).
pub struct SentenceCounts<'a> {
    pub(super) postings: &'a Postings,
    terms: &'a [&'a [(u32, f64)]],
    rows: Vec<OnceLock<Counts>>,
}

/// One sentence's counts: its terms (ascending dense index) and, for each two of them, the other
/// sentences holding both, estimated from the samples (lower triangle).
pub(super) struct Counts {
    terms: Box<[u32]>,
    /// f32: whole counts are exact to 2^24, and a sentence's k (k - 1) / 2 of them are kept
    /// for every sentence weighed.
    both: Box<[f32]>,
}

impl Counts {
    /// The other sentences holding both the terms at places `i` and `j` of [`Self::terms`]
    /// (estimated where a list is sampled); `None` when they are the same term.
    pub(super) fn both_at(&self, i: usize, j: usize) -> Option<f64> {
        let (high, low) = (i.max(j), i.min(j));
        (high != low).then(|| f64::from(self.both[high * (high - 1) / 2 + low]))
    }

    /// The place of `t` in [`Self::terms`] (`None` for a term the sentence does not hold),
    /// looked for from `*from` on, which moves past it: terms asked for in ascending order are
    /// found in one walk of the list.
    pub(super) fn place_from(&self, from: &mut usize, t: u32) -> Option<usize> {
        let rest = self.terms.get(*from..).unwrap_or(&[]);
        *from += rest.partition_point(|&u| u < t);
        (self.terms.get(*from) == Some(&t)).then_some(*from)
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

    pub(super) fn counts(&self, position: u32) -> &Counts {
        self.rows[position as usize].get_or_init(|| {
            let terms: Box<[u32]> = self.terms[position as usize]
                .iter()
                .map(|&(t, _)| t)
                .collect();
            let k = terms.len();
            let square = self.cooccurrences(&terms, position);
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

impl SentenceCounts<'_> {
    /// For terms `terms` (k of them, the terms of the sentence at `own`), the number of this
    /// document's sentences other than `own` in the samples of both the j-th and the i-th, at
    /// `j * k + i` (j < i).
    ///
    /// Two terms whose lists are sampled (the common words, many of a sentence's terms in prose
    /// that keeps its stopwords) are counted together once for the whole document, when the
    /// postings are made ([`Postings::both_sampled`]): walking their samples for every sentence
    /// weighed was most of the discount's cost (a text against its revision weighs every
    /// sentence), while a common word's sample holds few of the sentences, so counting each
    /// sentence's two or three sampled words together is cheap. Only the lists
    /// walked whole are walked for each sentence: one pass marks, for each sentence they hold,
    /// which of the terms it holds (a bit set, in a scratch array by sentence that is cleared
    /// after); a sentence so marked adds the sampled terms whose samples hold it
    /// ([`Postings::in_samples_of`]); then each sentence adds one to each pair of terms it
    /// holds, but for two sampled ones. The counts are the same as walking every sample.
    fn cooccurrences(&self, terms: &[u32], own: u32) -> Vec<u32> {
        let postings = self.postings;
        let k = terms.len();
        let words = k.div_ceil(64).max(1);
        let mut counts = vec![0u32; k * k];
        let rates: Vec<f64> = terms.iter().map(|&t| postings.sampling_rate(t)).collect();
        let sampled = |i: usize| rates[i] < 1.0;
        let own_key = sample_key(own);
        for i in (0..k).filter(|&i| sampled(i)) {
            for j in (0..i).filter(|&j| sampled(j)) {
                let both = postings.both_sampled(terms[j], terms[i]);
                // The sentence itself is in both samples when its key is below both rates.
                let own_in_both = own_key < rates[i].min(rates[j]);
                counts[j * k + i] = both.saturating_sub(u32::from(own_in_both));
            }
        }
        SCRATCH.with_borrow_mut(|scratch| {
            let Scratch {
                held,
                touched,
                sampled_place,
            } = scratch;
            let needed = postings.positions * words;
            if held.len() < needed {
                held.resize(needed, 0);
            }
            touched.clear();
            // Only a sentence whose key is below one of the sampled terms' rates can be in
            // their samples.
            let mut widest = 0.0f64;
            for (i, &t) in terms.iter().enumerate().filter(|&(i, _)| sampled(i)) {
                if sampled_place.len() <= t as usize {
                    sampled_place.resize(t as usize + 1, 0);
                }
                sampled_place[t as usize] = i as u32 + 1;
                widest = widest.max(rates[i]);
            }
            for (index, &t) in terms.iter().enumerate().filter(|&(i, _)| !sampled(i)) {
                let bit = 1u64 << (index % 64);
                for &sentence in postings.sample(t).iter().filter(|&&s| s != own) {
                    if words == 1 {
                        // Nearly every sentence: one word of bits, no slice to walk.
                        let row = &mut held[sentence as usize];
                        if *row == 0 {
                            touched.push(sentence);
                        }
                        *row |= bit;
                        continue;
                    }
                    let row = &mut held[sentence as usize * words..][..words];
                    if row.iter().all(|&w| w == 0) {
                        touched.push(sentence);
                    }
                    row[index / 64] |= bit;
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
                if sample_key(sentence) < widest {
                    for &t in postings.in_samples_of(sentence) {
                        match sampled_place.get(t as usize) {
                            Some(&place) if place > 0 => indices.push(place as usize - 1),
                            _ => {}
                        }
                    }
                }
                for (x, &a) in indices.iter().enumerate() {
                    for &b in &indices[x + 1..] {
                        if !(sampled(a) && sampled(b)) {
                            counts[a.min(b) * k + a.max(b)] += 1;
                        }
                    }
                }
            }
            for (_, &t) in terms.iter().enumerate().filter(|&(i, _)| sampled(i)) {
                sampled_place[t as usize] = 0;
            }
        });
        counts
    }
}

/// One thread's scratch for [`SentenceCounts::cooccurrences`]: a bit set of terms per sentence
/// (all zero between calls), the sentences whose sets are not, and the places of the sentence's
/// sampled terms by dense index (all zero between calls).
#[derive(Default)]
struct Scratch {
    held: Vec<u64>,
    touched: Vec<u32>,
    /// Per dense term index: for the sentence's sampled terms, 1 + the term's place among its
    /// terms; 0 for every other term.
    sampled_place: Vec<u32>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}
