//! The floor of the whole sets in the candidate search, beside the content floor it searches
//! at ([`super::candidates`]).
//!
//! With kept stopwords, a direction of a pair is kept only if its content terms reach the
//! content floor *and* its whole sets reach the floor (`sims_under_rules`). Stopwords relate to
//! nothing: over the whole set a stopword counts 1 where the other sentence holds it and 0
//! otherwise, and a content term counts what it counts over the content terms. So
//! Sim(S_i, S_j) x |S_i| is at most the search's bound of the content terms' sum plus the
//! number of stopwords the two sentences share, and a candidate whose bound falls short of
//! floor x |S_i| less those stopwords cannot be kept that way round. The search itself runs at
//! the content floor (the lower one, which no untouched sentence may reach), and each
//! sentence it finds is then held to this one ([`WholeSetFloor::needed`]).
//!
//! On the 5,000-sentence benchmark under the wordnet preset (`bench_compare presets`: content
//! floor 0.3, floor 0.4), it rules out 58% of the search's candidates both ways round, each of
//! which was scored (its words' relations looked up) to find it out.
//!
//! Only the plain search's candidates are held to it (the capped search ranks every candidate
//! it meets by its exact score anyway), and only where the caller asks for it: the comparisons
//! under WordNet's relations.

use rustc_hash::FxHashMap;

use crate::similarity::{PreparedDoc, PreparedSentence, TermId};

/// As many distinct stopwords as [`StopwordMask`] has bits.
const MASK_BITS: usize = 256;

/// A sentence's stopwords as bits (each distinct stopword of the two documents one bit).
type StopwordMask = [u64; MASK_BITS / 64];

/// The whole sets' floor for the candidates of one search (see the module docs).
pub(super) struct WholeSetFloor {
    floor: f64,
    /// Each stopword of the two documents' bit, when they hold at most [`MASK_BITS`] distinct
    /// stopwords (a few hundred are kept by any refinement); `None` otherwise, and then two
    /// sentences are taken to share as many stopwords as the one with fewer holds.
    bits: Option<FxHashMap<TermId, u8>>,
    /// Per sentence of the document searched into: its stopwords' mask and their number.
    masks: Vec<StopwordMask>,
    counts: Vec<u32>,
}

/// What [`WholeSetFloor::needed`] needs of the sentence searching.
#[derive(Clone, Copy)]
pub(super) struct Searching {
    /// floor x the sentence's terms.
    terms_floor: f64,
    mask: StopwordMask,
    count: u32,
}

impl WholeSetFloor {
    /// The floor `floor` of the whole sets for searches of `from`'s sentences into `to`'s.
    pub(super) fn new(from: &PreparedDoc, to: &PreparedDoc, floor: f64) -> WholeSetFloor {
        let mut bits: Option<FxHashMap<TermId, u8>> = Some(FxHashMap::default());
        for sentence in from.sentences.iter().chain(&to.sentences) {
            let Some(known) = &mut bits else {
                break;
            };
            for t in stopwords(sentence) {
                let next = known.len();
                if next == MASK_BITS && !known.contains_key(&t) {
                    bits = None;
                    break;
                }
                known.entry(t).or_insert(next as u8);
            }
        }
        let mut whole = WholeSetFloor {
            floor,
            bits,
            masks: Vec::with_capacity(to.sentences.len()),
            counts: Vec::with_capacity(to.sentences.len()),
        };
        for sentence in &to.sentences {
            let Searching { mask, count, .. } = whole.searching(sentence);
            whole.masks.push(mask);
            whole.counts.push(count);
        }
        whole
    }

    /// What [`Self::needed`] needs of `sentence`, a sentence of the document searched from.
    pub(super) fn searching(&self, sentence: &PreparedSentence) -> Searching {
        let mut mask = [0u64; MASK_BITS / 64];
        let mut count = 0;
        for t in stopwords(sentence) {
            count += 1;
            if let Some(bit) = self.bits.as_ref().and_then(|bits| bits.get(&t)) {
                mask[usize::from(*bit) / 64] |= 1 << (bit % 64);
            }
        }
        Searching {
            terms_floor: self.floor * sentence.set.len() as f64,
            mask,
            count,
        }
    }

    /// The bound of the content terms' sum that the searching sentence's candidate `j` must
    /// reach for the whole sets to reach the floor (less a hair of slack, as the search's own
    /// bound, so that rounding can only admit a pair).
    pub(super) fn needed(&self, searching: &Searching, j: u32) -> f64 {
        let j = j as usize;
        let shared = match (&self.bits, self.masks.get(j), self.counts.get(j)) {
            (Some(_), Some(mask), _) => searching
                .mask
                .iter()
                .zip(mask)
                .map(|(a, b)| (a & b).count_ones())
                .sum(),
            (None, _, Some(&count)) => searching.count.min(count),
            // Not a sentence of the document searched into: nothing ruled out.
            _ => return f64::NEG_INFINITY,
        };
        searching.terms_floor - f64::from(shared) - 1e-9
    }
}

/// The kept stopwords of `sentence` (its terms that are not content terms), ascending.
fn stopwords(sentence: &PreparedSentence) -> impl Iterator<Item = TermId> + '_ {
    let mut content = sentence.content().iter().peekable();
    sentence
        .set
        .iter()
        .filter(move |t| content.next_if_eq(t).is_none())
        .copied()
}
