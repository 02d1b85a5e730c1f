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
    /// Per term whose list is long ([`Postings::is_long`]), made the first time a sentence
    /// holding it is counted: the other long-listed and sampled terms its sentences hold, each
    /// with how many of them hold it (a sampled term counted only where its sample holds the
    /// sentence), sorted by term. See [`SentenceCounts::cooccurrences`].
    long_rows: Vec<OnceLock<LongRow>>,
}

/// A long-listed term's row: (other term, sentences holding both), sorted by term.
type LongRow = Box<[(u32, u32)]>;

/// The most terms of one sentence whose co-occurrences are counted: its heaviest. A sentence's
/// counts take k (k - 1) / 2 numbers and their counting k^2 for its k terms, so a "sentence" of
/// 100,000 distinct words (a word list, an index, CJK text without a full stop) asked for 40 GB.
/// Prose sentences hold 5-60 terms, so none is cut; the terms past the heaviest 256 of a longer
/// one are weighed given no other (and no term is weighed given them), as terms held by no
/// other sentence are: a long list matched by a copy of it is then as strong evidence as it
/// looks, and one matched by an unrelated text shares few of its terms anyway.
pub(super) const MOST_TERMS_COUNTED: usize = 256;

/// One sentence's counts: its terms (ascending dense index; at most [`MOST_TERMS_COUNTED`]) and, for each two of them, the other
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
            long_rows: (0..postings.vocabulary())
                .map(|_| OnceLock::new())
                .collect(),
        }
    }

    /// The row of long-listed term `t` (see [`Self::long_rows`]), the sentence itself included.
    fn long_row(&self, t: u32) -> &[(u32, u32)] {
        let Some(row) = self.long_rows.get(t as usize) else {
            return &[];
        };
        row.get_or_init(|| {
            let postings = self.postings;
            let mut met: Vec<u32> = Vec::new();
            for &sentence in postings.sample(t) {
                met.extend(
                    postings
                        .long_terms_of(sentence)
                        .iter()
                        .chain(postings.in_samples_of(sentence))
                        .filter(|&&u| u != t),
                );
            }
            met.sort_unstable();
            met.chunk_by(|a, b| a == b)
                .map(|run| (run[0], run.len() as u32))
                .collect()
        })
    }

    pub(super) fn counts(&self, position: u32) -> &Counts {
        self.rows[position as usize].get_or_init(|| {
            // Sorted by dense index, which is heaviest first: the heaviest terms are the first.
            let terms: Box<[u32]> = self.terms[position as usize]
                .iter()
                .take(MOST_TERMS_COUNTED)
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
    /// sentence's two or three sampled words together is cheap. Likewise a term whose list is
    /// walked whole but long ([`Postings::is_long`]: an eighth of the sample or more) would be
    /// walked once for each of the L sentences holding it, L^2 in all, and those lists were most
    /// of what was left; its row of co-occurrences with the long-listed and sampled terms its
    /// sentences hold is made once, in about L ([`Self::long_row`]), and read for every pair of
    /// it with such a term. Only the short lists are walked for each sentence: one pass marks,
    /// for each sentence they hold, which of the terms it holds (a bit set, in a scratch array
    /// by sentence that is cleared after); a sentence so marked adds the long-listed terms it
    /// holds ([`Postings::long_terms_of`]) and the sampled terms whose samples hold it
    /// ([`Postings::in_samples_of`]); then each sentence adds one to each pair of terms it
    /// holds with a short-listed one. The counts are the same as walking every sample.
    fn cooccurrences(&self, terms: &[u32], own: u32) -> Vec<u32> {
        let postings = self.postings;
        let k = terms.len();
        let words = k.div_ceil(64).max(1);
        let mut counts = vec![0u32; k * k];
        let rates: Vec<f64> = terms.iter().map(|&t| postings.sampling_rate(t)).collect();
        let sampled = |i: usize| rates[i] < 1.0;
        let long: Vec<bool> = terms.iter().map(|&t| postings.is_long(t)).collect();
        // Walked for this sentence: the short lists; every pair with a term of one is counted
        // by the walk, every other pair from what is counted once per document.
        let walked = |i: usize| !sampled(i) && !long[i];
        let own_key = sample_key(own);
        for i in (0..k).filter(|&i| sampled(i)) {
            for j in (0..i).filter(|&j| sampled(j)) {
                let both = postings.both_sampled(terms[j], terms[i]);
                // The sentence itself is in both samples when its key is below both rates.
                let own_in_both = own_key < rates[i].min(rates[j]);
                counts[j * k + i] = both.saturating_sub(u32::from(own_in_both));
            }
        }
        // A long-listed term with another long-listed or a sampled one: from its row (for two
        // long-listed terms, the row of the first). The sentence itself holds both, and is
        // counted where a sampled term's sample holds it.
        for i in (0..k).filter(|&i| long[i]) {
            let row = self.long_row(terms[i]);
            let mut from = 0;
            for j in (0..k).filter(|&j| j != i && !walked(j) && !(long[j] && j < i)) {
                let u = terms[j];
                from += row[from..].partition_point(|&(v, _)| v < u);
                let both = match row.get(from) {
                    Some(&(v, n)) if v == u => n,
                    _ => 0,
                };
                let own_in_both = !sampled(j) || own_key < rates[j];
                counts[i.min(j) * k + i.max(j)] = both.saturating_sub(u32::from(own_in_both));
            }
        }
        SCRATCH.with_borrow_mut(|scratch| {
            let Scratch {
                held,
                touched,
                looked_up_place,
            } = scratch;
            let needed = postings.positions * words;
            if held.len() < needed {
                held.resize(needed, 0);
            }
            touched.clear();
            // Only a sentence whose key is below one of the sampled terms' rates can be in
            // their samples.
            let mut widest = 0.0f64;
            for (i, &t) in terms.iter().enumerate().filter(|&(i, _)| !walked(i)) {
                if looked_up_place.len() <= t as usize {
                    looked_up_place.resize(t as usize + 1, 0);
                }
                looked_up_place[t as usize] = i as u32 + 1;
                if sampled(i) {
                    widest = widest.max(rates[i]);
                }
            }
            for (index, &t) in terms.iter().enumerate().filter(|&(i, _)| walked(i)) {
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
            let place = |t: u32| match looked_up_place.get(t as usize) {
                Some(&place) if place > 0 => Some(place as usize - 1),
                _ => None,
            };
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
                // The short-listed terms it holds are marked; the long-listed ones it holds, and
                // the sampled ones whose samples hold it, are looked up.
                indices.extend(
                    postings
                        .long_terms_of(sentence)
                        .iter()
                        .filter_map(|&t| place(t)),
                );
                if sample_key(sentence) < widest {
                    indices.extend(
                        postings
                            .in_samples_of(sentence)
                            .iter()
                            .filter_map(|&t| place(t)),
                    );
                }
                for (x, &a) in indices.iter().enumerate() {
                    for &b in &indices[x + 1..] {
                        if walked(a) || walked(b) {
                            counts[a.min(b) * k + a.max(b)] += 1;
                        }
                    }
                }
            }
            for (_, &t) in terms.iter().enumerate().filter(|&(i, _)| !walked(i)) {
                looked_up_place[t as usize] = 0;
            }
        });
        counts
    }
}

/// One thread's scratch for [`SentenceCounts::cooccurrences`]: a bit set of terms per sentence
/// (all zero between calls), the sentences whose sets are not, and the places of the sentence's
/// looked-up terms by dense index (all zero between calls).
#[derive(Default)]
struct Scratch {
    held: Vec<u64>,
    touched: Vec<u32>,
    /// Per dense term index: for the sentence's sampled and long-listed terms, 1 + the term's
    /// place among its terms; 0 for every other term.
    looked_up_place: Vec<u32>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}
