//! The features of the learned pair verdict: what two prepared sentences have in common,
//! each symmetric in the pair and none an absolute length.
//!
//! PAN's negatives are about twice as long as its positives: sentence length alone gives F1
//! 0.79 there (issue 27), a cue that says nothing about reuse. So lengths enter only as a ratio,
//! and the training command checks the verdict within bands of length
//! (EVALUATION.md, "A learned pair verdict").
//!
//! Both sentences are prepared as the measured preset prepares them (stopwords and numbers
//! kept as terms, [`crate::text::RefineOptions::MEASURED`]); "content" are their other terms.
//! A feature depends on the prepared sentences and their terms' names only, so sentences equal
//! once prepared (a repetition class) get the same verdict against anything. Directional
//! scores enter as the smaller and the larger of the two directions.
//!
//! | feature | what |
//! |---|---|
//! | `wordnet_min`, `wordnet_max` | Sim (eq. 3.3) with WordNet's relations counted where a word replaces another ([`super::super::aligned`]), all terms |
//! | `wordnet_content_min`, `wordnet_content_max` | the same over content terms only |
//! | `wordnet_anywhere_min`, `wordnet_anywhere_max` | Sim with WordNet's relations counted anywhere in the other sentence (eq. 3.2 as written), all terms |
//! | `overlap_min`, `overlap_max` | Sim without relatedness (the share of a sentence's distinct terms in the other), all terms |
//! | `overlap_content_min`, `overlap_content_max` | the same over content terms only |
//! | `function_words` | Dice coefficient of the two sets of kept stopwords (1 when neither has any) |
//! | `length_ratio` | terms of the shorter sentence / terms of the longer |
//! | `numbers_one_side` | 1 when a number is in one sentence and not the other |
//! | `negation_one_side` | 1 when exactly one sentence holds a negation ("not", "never", "n't", ...) |
//! | `char_4grams` | Dice coefficient of the distinct character 4-grams of the terms joined by spaces |
//! | `lcs_ratio` | 2 x the longest common subsequence of the term sequences / their summed lengths |
//! | `bigrams_min`, `bigrams_max`, `trigrams_min`, `trigrams_max` | the share of a sentence's distinct term bigrams (trigrams) found in the other, the smaller and the larger direction (0 for a sentence without any) |
//! | `content_lcs_ratio`, `content_bigrams_min`, `content_bigrams_max` | the same longest common subsequence ratio and bigram shares over the content terms in order (stopwords skipped) |
//! | `bleu1_min` .. `bleu4_max`, `meteor_min`, `meteor_max`, `meteor_fragmentation`, `edit_rate_min`, `edit_rate_max` | after the machine-translation metrics BLEU, METEOR and TER, as Madnani, Tetreault & Chodorow (2012) used them to identify paraphrases ([`super::mt`]) |
//! | `kld_cosine` .. `kld_unshared_max` | overlap weighted per word by what the training pairs say sharing it means, after Ji & Eisenstein's (2013) TF-KLD ([`super::kld`]); learnt from labels, so the training command computes them inside each fold |

use std::hash::{Hash, Hasher};
use std::sync::LazyLock;

use rustc_hash::{FxHashSet, FxHasher};

use super::super::aligned::{PairRelatedness, aligned_sims};
use super::super::lexical::Lexical;
use super::super::{PreparedSentence, TermId};
use super::kld::{KLD_FEATURES, KLD_NAMES, TermAgreement, TermEntry, kld_features};
use super::mt::{MT_FEATURES, MT_NAMES, MtFacts, mt_features};
use super::pair_words::PairWords;
use crate::text::{self, RefineOptions};

/// The features' names, in the order of [`Features`]; stored with a trained verdict, which is
/// refused if they differ.
pub const FEATURE_NAMES: [&str; FEATURES] = joined(UNLEARNT_NAMES, KLD_NAMES);

/// The features that learn nothing from labels beyond the regression's weights.
const UNLEARNT_NAMES: [&str; UNLEARNT_FEATURES] = joined(BASE_NAMES, MT_NAMES);

/// The features' own names, before the machine-translation metrics' ([`MT_NAMES`]).
const BASE_NAMES: [&str; BASE_FEATURES] = [
    "wordnet_min",
    "wordnet_max",
    "wordnet_content_min",
    "wordnet_content_max",
    "wordnet_anywhere_min",
    "wordnet_anywhere_max",
    "overlap_min",
    "overlap_max",
    "overlap_content_min",
    "overlap_content_max",
    "function_words",
    "length_ratio",
    "numbers_one_side",
    "negation_one_side",
    "char_4grams",
    "lcs_ratio",
    "bigrams_min",
    "bigrams_max",
    "trigrams_min",
    "trigrams_max",
    "content_lcs_ratio",
    "content_bigrams_min",
    "content_bigrams_max",
];

/// Two lists of names one after the other (a `const` can't call `concat`).
const fn joined<const A: usize, const B: usize, const C: usize>(
    a: [&'static str; A],
    b: [&'static str; B],
) -> [&'static str; C] {
    assert!(A + B == C);
    let mut out = [""; C];
    let mut i = 0;
    while i < A {
        out[i] = a[i];
        i += 1;
    }
    while i < C {
        out[i] = b[i - A];
        i += 1;
    }
    out
}

/// How many features: 23 of their own, [`MT_FEATURES`] after the machine-translation
/// metrics and [`KLD_FEATURES`] from weights learnt per word.
pub const FEATURES: usize = UNLEARNT_FEATURES + KLD_FEATURES;

/// The features before the TF-KLD ones, which are the last [`KLD_FEATURES`]
/// ([`LEARNT_FEATURES`]).
pub const UNLEARNT_FEATURES: usize = BASE_FEATURES + MT_FEATURES;

/// The positions of the features whose values depend on statistics of labelled pairs
/// ([`super::kld`]): what the training command recomputes inside each fold.
pub const LEARNT_FEATURES: std::ops::Range<usize> = UNLEARNT_FEATURES..FEATURES;

/// The features before the machine-translation metrics'.
const BASE_FEATURES: usize = 23;

/// One pair's features, in the order of [`FEATURE_NAMES`].
pub type Features = [f64; FEATURES];

/// Words that negate, as refined terms (stopwords stay as written, content words are stemmed:
/// "nothing" is "noth").
static NEGATIONS: LazyLock<FxHashSet<String>> = LazyLock::new(|| {
    let words = "not no nor never nothing none nobody neither nowhere cannot without \
                 don't doesn't didn't isn't aren't wasn't weren't hasn't haven't hadn't won't \
                 wouldn't shan't shouldn't can't couldn't mustn't needn't mightn't daren't";
    words
        .split_whitespace()
        .flat_map(|w| text::refine_with(w, &RefineOptions::MEASURED))
        .map(|(term, _)| term)
        .collect()
});

/// What the features need of one sentence beyond its prepared terms, computed once per
/// sentence.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SentenceFacts {
    /// Distinct number terms, sorted.
    numbers: Vec<TermId>,
    negated: bool,
    /// Distinct kept stopwords, sorted.
    stopwords: Vec<TermId>,
    /// Distinct character 4-grams of the terms' names joined by spaces, hashed, sorted.
    fourgrams: Vec<u64>,
    bigrams: Vec<[TermId; 2]>,
    trigrams: Vec<[TermId; 3]>,
    content_bigrams: Vec<[TermId; 2]>,
    /// The content terms in order (repeats kept), for the aligned Sims.
    content_sequence: Vec<TermId>,
    /// What the machine-translation metrics' features need.
    mt: MtFacts,
    /// The distinct terms with their counts and learnt rates (empty without rates).
    kld: Vec<TermEntry>,
}

impl SentenceFacts {
    /// The facts of `sentence`, whose terms are named by `name` (the comparison's vocabulary),
    /// with no learnt term rates (the TF-KLD features of its pairs are then 0).
    pub fn new<'n>(sentence: &PreparedSentence, name: impl Fn(TermId) -> &'n str) -> Self {
        Self::with_rates(sentence, name, None)
    }

    /// The facts of `sentence` with each distinct term's rates looked up in `rates`.
    pub fn with_rates<'n>(
        sentence: &PreparedSentence,
        name: impl Fn(TermId) -> &'n str,
        rates: Option<&TermAgreement>,
    ) -> Self {
        let content = sentence.content();
        let mut numbers: Vec<TermId> = content
            .iter()
            .copied()
            .filter(|&t| {
                let n = name(t);
                !n.is_empty() && !n.chars().any(char::is_alphabetic)
            })
            .collect();
        numbers.sort_unstable();
        let negated = sentence.set.iter().any(|&t| NEGATIONS.contains(name(t)));
        let stopwords: Vec<TermId> = sentence
            .set
            .iter()
            .copied()
            .filter(|t| content.binary_search(t).is_err())
            .collect();
        let joined: Vec<char> = sentence
            .terms
            .iter()
            .map(|&t| name(t))
            .collect::<Vec<_>>()
            .join(" ")
            .chars()
            .collect();
        let mut fourgrams: Vec<u64> = joined
            .windows(4)
            .map(|w| {
                let mut h = FxHasher::default();
                w.hash(&mut h);
                h.finish()
            })
            .collect();
        fourgrams.sort_unstable();
        fourgrams.dedup();
        let mut bigrams: Vec<[TermId; 2]> =
            sentence.terms.windows(2).map(|w| [w[0], w[1]]).collect();
        bigrams.sort_unstable();
        bigrams.dedup();
        let mut trigrams: Vec<[TermId; 3]> = sentence
            .terms
            .windows(3)
            .map(|w| [w[0], w[1], w[2]])
            .collect();
        trigrams.sort_unstable();
        trigrams.dedup();
        let content_sequence: Vec<TermId> = sentence
            .terms
            .iter()
            .copied()
            .filter(|t| content.binary_search(t).is_ok())
            .collect();
        let mut content_bigrams: Vec<[TermId; 2]> =
            content_sequence.windows(2).map(|w| [w[0], w[1]]).collect();
        content_bigrams.sort_unstable();
        content_bigrams.dedup();
        let mt = MtFacts::new(sentence);
        let kld = match rates {
            Some(rates) => term_counts(sentence)
                .into_iter()
                .map(|(term, count)| TermEntry {
                    term,
                    count,
                    agreement: rates.of(name(term)),
                })
                .collect(),
            None => Vec::new(),
        };
        SentenceFacts {
            numbers,
            negated,
            stopwords,
            fourgrams,
            bigrams,
            trigrams,
            content_bigrams,
            content_sequence,
            mt,
            kld,
        }
    }
}

/// Each distinct term of `sentence` with how often it holds it, sorted by term.
pub fn term_counts(sentence: &PreparedSentence) -> Vec<(TermId, u32)> {
    let mut terms = sentence.terms.clone();
    terms.sort_unstable();
    let mut out: Vec<(TermId, u32)> = Vec::with_capacity(sentence.set.len());
    for t in terms {
        match out.last_mut() {
            Some((last, n)) if *last == t => *n += 1,
            _ => out.push((t, 1)),
        }
    }
    out
}

/// The shared count of two sorted, distinct lists.
pub(crate) fn shared<T: Ord>(a: &[T], b: &[T]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

/// Dice's coefficient of two sorted, distinct lists; `empty` when both are empty.
fn dice<T: Ord>(a: &[T], b: &[T], empty: f64) -> f64 {
    if a.is_empty() && b.is_empty() {
        return empty;
    }
    2.0 * shared(a, b) as f64 / (a.len() + b.len()) as f64
}

/// The two shares of each sorted distinct list found in the other (0 for an empty list).
fn containment<T: Ord>(a: &[T], b: &[T]) -> (f64, f64) {
    let n = shared(a, b) as f64;
    let share = |len: usize| if len == 0 { 0.0 } else { n / len as f64 };
    (share(a.len()), share(b.len()))
}

/// Both Sims of eq. 3.2-3.3 with `c` counted anywhere in the other sentence (sorted distinct
/// term sets).
fn sims_anywhere(a: &[TermId], b: &[TermId], c: &impl Fn(TermId, TermId) -> f32) -> (f64, f64) {
    if a.is_empty() || b.is_empty() {
        return (0.0, 0.0);
    }
    let mut right = vec![1.0f64; b.len()];
    let mut sum_left = 0.0;
    for &w in a {
        let mut product = 1.0f64;
        for (slot, &k) in b.iter().enumerate() {
            let c = if w == k { 1.0 } else { f64::from(c(w, k)) };
            if c > 0.0 {
                product *= 1.0 - c;
                right[slot] *= 1.0 - c;
            }
        }
        sum_left += 1.0 - product;
    }
    let sum_right: f64 = right.iter().map(|p| 1.0 - p).sum();
    (sum_left / a.len() as f64, sum_right / b.len() as f64)
}

/// Both overlap Sims of two sorted distinct term sets (0 for an empty set).
fn overlap(a: &[TermId], b: &[TermId]) -> (f64, f64) {
    if a.is_empty() || b.is_empty() {
        return (0.0, 0.0);
    }
    let n = shared(a, b) as f64;
    (n / a.len() as f64, n / b.len() as f64)
}

fn min_max((x, y): (f64, f64)) -> (f64, f64) {
    (x.min(y), x.max(y))
}

/// The length of the longest common subsequence of two sequences (`row` is scratch space).
fn lcs(a: &[TermId], b: &[TermId], row: &mut Vec<u32>) -> usize {
    row.clear();
    row.resize(b.len() + 1, 0);
    for &x in a {
        let mut diagonal = 0;
        for (j, &y) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if x == y {
                diagonal + 1
            } else {
                above.max(row[j])
            };
            diagonal = above;
        }
    }
    row[b.len()] as usize
}

/// The features of a pair (see the module docs). `lexical` relates the two sentences' words
/// (without it no two words are related and the WordNet Sims are the overlap Sims); `dp` is
/// scratch space.
pub fn pair_features(
    a: &PreparedSentence,
    facts_a: &SentenceFacts,
    b: &PreparedSentence,
    facts_b: &SentenceFacts,
    lexical: Option<&Lexical<'_>>,
    dp: &mut Vec<u32>,
) -> Features {
    let c = PairWords::new(a, b, lexical);
    let wordnet = min_max(aligned_sims(&a.terms, &a.set, &b.terms, &b.set, &c, dp));
    let wordnet_content = min_max(aligned_sims(
        &facts_a.content_sequence,
        a.content(),
        &facts_b.content_sequence,
        b.content(),
        &c,
        dp,
    ));
    let anywhere = min_max(sims_anywhere(&a.set, &b.set, &|l, r| c.c(l, r)));
    let plain = min_max(overlap(&a.set, &b.set));
    let bigrams = min_max(containment(&facts_a.bigrams, &facts_b.bigrams));
    let trigrams = min_max(containment(&facts_a.trigrams, &facts_b.trigrams));
    let content_bigrams = min_max(containment(
        &facts_a.content_bigrams,
        &facts_b.content_bigrams,
    ));
    let (ca, cb) = (
        facts_a.content_sequence.len(),
        facts_b.content_sequence.len(),
    );
    let content_lcs = if ca + cb == 0 {
        0.0
    } else {
        2.0 * lcs(&facts_a.content_sequence, &facts_b.content_sequence, dp) as f64
            / (ca + cb) as f64
    };
    let plain_content = min_max(overlap(a.content(), b.content()));
    let (la, lb) = (a.terms.len(), b.terms.len());
    let length_ratio = if la.max(lb) == 0 {
        0.0
    } else {
        la.min(lb) as f64 / la.max(lb) as f64
    };
    let numbers_one_side = shared(&facts_a.numbers, &facts_b.numbers)
        < facts_a.numbers.len().max(facts_b.numbers.len());
    let common = lcs(&a.terms, &b.terms, dp);
    let mt = mt_features(a, &facts_a.mt, b, &facts_b.mt, lexical, dp);
    let lcs_ratio = if la + lb == 0 {
        0.0
    } else {
        2.0 * common as f64 / (la + lb) as f64
    };
    let base: [f64; BASE_FEATURES] = [
        wordnet.0,
        wordnet.1,
        wordnet_content.0,
        wordnet_content.1,
        anywhere.0,
        anywhere.1,
        plain.0,
        plain.1,
        plain_content.0,
        plain_content.1,
        dice(&facts_a.stopwords, &facts_b.stopwords, 1.0),
        length_ratio,
        f64::from(u8::from(numbers_one_side)),
        f64::from(u8::from(facts_a.negated != facts_b.negated)),
        dice(&facts_a.fourgrams, &facts_b.fourgrams, 0.0),
        lcs_ratio,
        bigrams.0,
        bigrams.1,
        trigrams.0,
        trigrams.1,
        content_lcs,
        content_bigrams.0,
        content_bigrams.1,
    ];
    let mut out = [0.0; FEATURES];
    out[..BASE_FEATURES].copy_from_slice(&base);
    out[BASE_FEATURES..UNLEARNT_FEATURES].copy_from_slice(&mt);
    out[LEARNT_FEATURES].copy_from_slice(&kld_features(&facts_a.kld, &facts_b.kld));
    out
}

#[cfg(test)]
#[path = "features_tests.rs"]
mod tests;
