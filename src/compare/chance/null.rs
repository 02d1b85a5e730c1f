//! How good a sentence pair is by chance in one comparison: the null distribution of the shared
//! words' weight, from the two documents' own word frequencies.
//!
//! The question asked of a pair (a, b) is the one BLAST asks of a local alignment (Altschul et
//! al. 1990; Karlin & Altschul 1990): among all the pairs the two documents could form, how many
//! would share words at least this telling if their sentences had nothing to do with each other?
//!
//! - A term t is in a random sentence of A with probability q_A(t) = df_A(t) / n (the share of
//!   A's n active sentences holding it), and of B with q_B(t) = df_B(t) / m. A random pair shares
//!   it with probability pi(t) = q_A(t) q_B(t); its *weight* is w(t) = -ln pi(t), the evidence that
//!   sharing it carries (a word in every sentence weighs nothing; a word in one sentence of each
//!   document weighs ln(nm)).
//! - A pair's score is W = the sum of the weights of the terms both sentences hold.
//! - Under the null the terms of a random pair are shared independently, each with probability
//!   pi(t) scaled by how long the two sentences are against their documents' mean, r =
//!   (len a / mean len A) (len b / mean len B): long sentences share more by chance. So W' is a
//!   sum of independent weighted Bernoulli variables, whose upper tail P_r(W' >= W) is computed
//!   here: exactly (a convolution) for the few common terms (p > [`EXACT_ABOVE`]), as a compound
//!   Poisson sum by Panjer's recursion (Panjer 1981, *Recursive evaluation of a family of compound
//!   distributions*, ASTIN Bulletin 12) for the many rare ones (the Poisson approximation of a
//!   sum of rare Bernoulli variables; Le Cam's bound on its error is the sum of their squared
//!   probabilities; far in the tail it over-states, since a Poisson count may use one rare term
//!   twice: conservative), on a grid of [`STEP`] nats with every weight rounded up and the observed score
//!   rounded down (so P is never understated), for [`BUCKETS`] length factors (each rounded up to
//!   its bucket's upper edge, also conservative).
//! - The pair's E-value is E = n m P_r(W' >= W): the expected number of pairs at least as good by
//!   chance in this comparison. A pair of unrelated documents has E around 1 for its best pair at
//!   any size; copied text has E far below.
//!
//! A document of a few sentences says little about how common its words are: in four sentences
//! every word holds at least a quarter of them, so two identical four-sentence texts looked
//! like chance (0% of an essay found in its identical copy). And a document that is mostly a
//! copy of the other learns its rates from the copy. So each rate leans on a [`RatePrior`]: the
//! reference collection's share of *sentences* holding the term (a content word by the model's
//! id, a stopword or number by its text: [`crate::model::sentence_rates`], counted with the
//! terms a comparison uses), as the posterior mean of a Beta prior worth `alpha` sentences:
//! q_A(t) = (df_A(t) + alpha s(t)) / (n + alpha). Long documents outweigh the prior; short ones
//! lean on it. (A prior of the reference's share of *documents* was tried first and lowered
//! plagdet at every size: a word in one sentence of an article holds the whole article, so
//! shared words looked commoner.) The pair itself stays in the counts, so no rate falls below
//! one sentence in n + alpha: estimating one side's rate without the pair was measured too, and
//! made two unrelated 5 MB documents' words shared once each look like evidence (EVALUATION.md,
//! "Text alignment in every regime"). alpha is chosen on the text-alignment corpora of every
//! regime (EVALUATION.md).
//!
//! Terms that only one document holds cannot be shared and take no part. The independence of
//! terms within a sentence is an approximation (collocations such as "New York" share two terms
//! that are one); how well the E-values hold on unrelated documents is measured (EVALUATION.md,
//! "Text alignment").

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use crate::similarity::{ModelView, PreparedDoc, TermId, Vocabulary};

mod tail;

pub use tail::BUCKETS;
use tail::{bucket_factor, bucket_of, chernoff_ln_p, weight_grid, weighted_tail_table};
#[cfg(test)]
use tail::{compound_poisson, tail_table};

/// The grid step of the score's distribution, in nats.
pub const STEP: f64 = 0.1;

/// The largest score the distribution is tabulated to, in nats; a pair scoring more gets the
/// probability of this score (below 1e-130 for documents of sentences), or a Chernoff bound
/// where that is not small ([`NullModel::ln_p`]).
pub const MAX_SCORE: f64 = 300.0;

/// Terms shared by chance with a probability above this are convolved exactly; below it, they
/// are summed as a compound Poisson variable.
pub const EXACT_ABOVE: f64 = 0.05;

/// A table whose last score is at most this likely needs no bound past it: a pair scoring more
/// is already far beyond any bar ([`NullModel::ln_p`]).
const TABULATED_ENOUGH: f64 = -100.0;

/// The smallest ln P kept (about 1e-304): tails below are clamped here.
pub const LN_P_FLOOR: f64 = -700.0;

/// Both documents' word statistics and the null distribution of a pair's score.
#[derive(Clone, Debug)]
pub struct NullModel {
    /// Per term shared by both documents: its dense index into [`Self::weights`], heaviest
    /// first.
    dense: FxHashMap<TermId, u32>,
    /// How many terms both documents hold: the dense indices below this are theirs, those from
    /// it on are related pairs' ([`Self::related`]).
    shared: usize,
    /// Per term of A related to terms of B ([`super::related`]): those terms, sorted, each with
    /// the pair's dense index (heaviest first among the pairs, after every shared term's).
    related: FxHashMap<TermId, Box<[(TermId, u32)]>>,
    /// Per dense index: the term's weight w(t) = -ln pi(t), in nats.
    weights: Vec<f64>,
    /// The weights counted per grid step ([`weight_grid`]), for the bound past the table.
    weight_grid: Vec<(f64, f64)>,
    /// How many sentences the rates' prior is worth (0 without one): the co-occurrence
    /// discount leans on the same prior ([`super::cooccurrence::conditional`]).
    pub alpha: f64,
    /// Per side, per dense index: the term's rate q(t) in that document.
    rates: [Vec<f64>; 2],
    /// Mean number of distinct terms of an active sentence, per side.
    mean_length: [f64; 2],
    /// Active sentences per side (n, m).
    pub sentences: [usize; 2],
    /// Per dense index: pi(t), the chance a random pair of sentences shares the term.
    probabilities: Vec<f64>,
    /// Per length bucket, ln P(W' >= k STEP) for k = 0..=MAX_SCORE / STEP, made the first time
    /// a pair of that bucket asks: each table is a recursion over the grid for every weight
    /// (up to 3,000 steps by as many weights), and a comparison whose sentences are of a few
    /// lengths meets a few of the [`BUCKETS`] (making all of them dominated the comparison of
    /// two short documents).
    ln_tails: Vec<OnceLock<Vec<f32>>>,
}

/// Equal models: the same terms, weights, rates and sizes (the tail tables follow from these,
/// whichever of them were made).
impl PartialEq for NullModel {
    fn eq(&self, other: &Self) -> bool {
        self.dense == other.dense
            && self.shared == other.shared
            && self.related == other.related
            && self.weights == other.weights
            && self.weight_grid == other.weight_grid
            && self.alpha == other.alpha
            && self.rates == other.rates
            && self.mean_length == other.mean_length
            && self.sentences == other.sentences
            && self.probabilities == other.probabilities
    }
}

/// What a term's rate leans towards in documents too short to estimate it (see the module docs).
pub struct RatePrior<'a> {
    /// A term's rate among the reference collection's sentences (in (0, 1]).
    pub rate: &'a (dyn Fn(TermId) -> f64 + Sync),
    /// How many sentences the prior is worth.
    pub alpha: f64,
}

/// The rates q_A(t), q_B(t) a pair sharing term `t` is judged by: each the posterior mean of
/// the share of its document's sentences holding `t` (`df` of `sentences`) under the prior, or
/// the plain share without one (see the module docs).
fn shared_rates(
    t: TermId,
    df: [u32; 2],
    sentences: [usize; 2],
    prior: Option<&RatePrior>,
) -> [f64; 2] {
    let Some(prior) = prior.filter(|p| p.alpha > 0.0) else {
        return [0, 1].map(|side| f64::from(df[side]) / sentences[side].max(1) as f64);
    };
    let reference = (prior.rate)(t);
    [0, 1].map(|side| {
        (f64::from(df[side]) + prior.alpha * reference) / (sentences[side] as f64 + prior.alpha)
    })
}

impl NullModel {
    /// The statistics of two prepared documents (their active sentences), with each rate
    /// leaning on `prior` when given (see the module docs).
    pub fn new(left: &PreparedDoc, right: &PreparedDoc, prior: Option<&RatePrior>) -> NullModel {
        Self::with_related(left, right, prior, &[], 0.0)
    }

    /// [`Self::new`] with the pairs (a term of A, a term of B) that count when one sentence holds
    /// the first and the other the second in its place ([`super::related`]): each such pair is
    /// one more term of the null model, held by a random pair of sentences with probability
    /// q_A(s) q_B(t), and weighing -ln(q_A(s) q_B(t)) less `discount` nats (pairs left with
    /// less than a grid step are left out): the tail of every score counts them at their own
    /// probability and that weight.
    pub fn with_related(
        left: &PreparedDoc,
        right: &PreparedDoc,
        prior: Option<&RatePrior>,
        related: &[(TermId, TermId)],
        discount: f64,
    ) -> NullModel {
        let stats = [left, right].map(|doc| {
            let mut df: FxHashMap<TermId, u32> = FxHashMap::default();
            let mut sentences = 0usize;
            let mut terms = 0usize;
            for (_, sentence) in doc.active() {
                sentences += 1;
                terms += sentence.set.len();
                for &t in &sentence.set {
                    *df.entry(t).or_default() += 1;
                }
            }
            (df, sentences, terms)
        });
        let [(df_left, n, terms_left), (df_right, m, terms_right)] = stats;
        let mut shared: Vec<(TermId, [f64; 2])> = df_left
            .iter()
            .filter_map(|(&t, &a)| {
                let b = *df_right.get(&t)?;
                Some((t, shared_rates(t, [a, b], [n, m], prior)))
            })
            .collect();
        let pi = |rates: &[f64; 2]| rates[0] * rates[1];
        // Dense indices in one fixed order, heaviest first (rarest shared), ties by id: sentences
        // list their terms in it, so a prefix of a sentence is its heaviest terms, and nothing
        // depends on a hash map's iteration.
        shared.sort_unstable_by(|x, y| pi(&x.1).total_cmp(&pi(&y.1)).then(x.0.cmp(&y.0)));
        let dense = shared
            .iter()
            .enumerate()
            .map(|(i, &(t, _))| (t, i as u32))
            .collect();
        let mut weights: Vec<f64> = shared.iter().map(|(_, r)| -pi(r).ln()).collect();
        let mut probabilities: Vec<f64> = shared.iter().map(|(_, r)| pi(r)).collect();
        let rates = [0, 1].map(|side| shared.iter().map(|(_, r)| r[side]).collect());
        // The related pairs, each at the rates of its own two terms, heaviest first after the
        // shared terms. A pair one of whose terms is in no active sentence cannot be seen.
        let mut pairs: Vec<(TermId, TermId, f64)> = related
            .iter()
            .filter_map(|&(s, t)| {
                let a = *df_left.get(&s)?;
                let b = *df_right.get(&t)?;
                let rate = |term: TermId, df: [u32; 2]| shared_rates(term, df, [n, m], prior);
                let p = rate(s, [a, 0])[0] * rate(t, [0, b])[1];
                (-p.ln() - discount >= STEP).then_some((s, t, p))
            })
            .collect();
        pairs.sort_unstable_by(|x, y| x.2.total_cmp(&y.2).then((x.0, x.1).cmp(&(y.0, y.1))));
        pairs.dedup_by_key(|p| (p.0, p.1));
        let mut by_left: FxHashMap<TermId, Vec<(TermId, u32)>> = FxHashMap::default();
        for &(s, t, p) in &pairs {
            let index = weights.len() as u32;
            weights.push(-p.ln() - discount);
            probabilities.push(p);
            by_left.entry(s).or_default().push((t, index));
        }
        let related = by_left
            .into_iter()
            .map(|(s, mut list)| {
                list.sort_unstable();
                (s, list.into_boxed_slice())
            })
            .collect();
        let weight_grid = weight_grid(&weights);
        let mean_length = [
            terms_left as f64 / n.max(1) as f64,
            terms_right as f64 / m.max(1) as f64,
        ];
        let ln_tails = (0..BUCKETS).map(|_| OnceLock::new()).collect();
        NullModel {
            dense,
            shared: shared.len(),
            related,
            weights,
            weight_grid,
            alpha: prior.map_or(0.0, |p| p.alpha.max(0.0)),
            rates,
            mean_length,
            sentences: [n, m],
            probabilities,
            ln_tails,
        }
    }

    /// The tail table of the bucket of length factor `factor`, made on first use.
    fn tails(&self, factor: f64) -> &[f32] {
        let bucket = bucket_of(factor);
        self.ln_tails[bucket].get_or_init(|| {
            weighted_tail_table(&self.probabilities, &self.weights, bucket_factor(bucket))
        })
    }

    /// A shared term's rate in one document (`side` 0 or 1), by dense index: the share of its
    /// background sentences holding it, leaning on the prior.
    pub fn rate(&self, side: usize, dense: u32) -> f64 {
        self.rates[side].get(dense as usize).copied().unwrap_or(1.0)
    }

    /// How many terms both documents hold (their dense indices are below this).
    pub fn shared_terms(&self) -> usize {
        self.shared
    }

    /// How many related pairs of terms the model counts ([`Self::with_related`]).
    pub fn related_pairs(&self) -> usize {
        self.weights.len() - self.shared
    }

    /// The related pairs two sentences hold in each other's place, as (dense index, weight)
    /// sorted by index (heaviest first): a term `s` of the left sentence that the right one
    /// lacks, against a term `t` related to it that the right one holds and the left lacks. Each
    /// term counts in one pair at most, the heaviest pairs taken first: a sentence that says
    /// "car" where the other says "automobile" and "motorcar" has swapped one word, not two.
    /// The sentences' `content` terms (the only ones with lemmas) and their whole sorted `set`s
    /// are given.
    pub fn related_terms(
        &self,
        left_content: &[TermId],
        left_set: &[TermId],
        right_set: &[TermId],
    ) -> Vec<(u32, f64)> {
        if self.related.is_empty() {
            return Vec::new();
        }
        let mut found: Vec<(u32, TermId, TermId)> = Vec::new();
        for &s in left_content {
            let Some(list) = self.related.get(&s) else {
                continue;
            };
            if right_set.binary_search(&s).is_ok() {
                continue;
            }
            for &(t, index) in list.iter() {
                if right_set.binary_search(&t).is_ok() && left_set.binary_search(&t).is_err() {
                    found.push((index, s, t));
                }
            }
        }
        if found.is_empty() {
            return Vec::new();
        }
        found.sort_unstable();
        let (mut taken_left, mut taken_right) = (Vec::new(), Vec::new());
        let mut out = Vec::new();
        for (index, s, t) in found {
            if taken_left.contains(&s) || taken_right.contains(&t) {
                continue;
            }
            taken_left.push(s);
            taken_right.push(t);
            out.push((index, self.weights[index as usize]));
        }
        out
    }

    /// The weight of a term (0 for a term one document lacks: it cannot be shared).
    pub fn weight(&self, term: TermId) -> f64 {
        self.dense
            .get(&term)
            .map_or(0.0, |&i| self.weights[i as usize])
    }

    /// A sentence's terms that both documents hold, as (dense index, weight), sorted by index,
    /// which is heaviest first: what [`score`] merges.
    pub fn weighted_terms(&self, set: &[TermId]) -> Vec<(u32, f64)> {
        let mut terms: Vec<(u32, f64)> = set
            .iter()
            .filter_map(|t| {
                let i = *self.dense.get(t)?;
                Some((i, self.weights[i as usize]))
            })
            .collect();
        terms.sort_unstable_by_key(|&(i, _)| i);
        terms
    }

    /// ln(n m): what the E-value adds to ln P.
    pub fn ln_pairs(&self) -> f64 {
        ((self.sentences[0].max(1) * self.sentences[1].max(1)) as f64).ln()
    }

    /// The length factor r of a pair of sentences with these numbers of distinct terms.
    pub fn length_factor(&self, left_terms: usize, right_terms: usize) -> f64 {
        let rho = |len: usize, mean: f64| len as f64 / mean.max(1e-9);
        rho(left_terms, self.mean_length[0]) * rho(right_terms, self.mean_length[1])
    }

    /// ln P_r(W' >= score): how likely a random pair of this length factor scores at least
    /// `score` (see the module docs).
    pub fn ln_p(&self, score: f64, factor: f64) -> f64 {
        let table = self.tails(factor);
        let bin = score_bin(score);
        let last = f64::from(table[table.len() - 1]);
        if bin < table.len() {
            f64::from(table[bin])
        } else if last > TABULATED_ENOUGH {
            // Past the table while its end is still likely: a document of one "sentence" of
            // 70,000 distinct words (a word list) makes a random pair score past MAX_SCORE
            // itself, and its copy would read as chance. Bounded instead.
            last.min(chernoff_ln_p(&self.weight_grid, score, factor))
        } else {
            last
        }
    }

    /// ln E = ln(n m) + ln P: the E-value of a pair, in natural log.
    pub fn ln_e(&self, score: f64, factor: f64) -> f64 {
        self.ln_pairs() + self.ln_p(score, factor)
    }

    /// The smallest score bin ([`score_bin`]) whose ln P at length factor `factor` is at most
    /// `ln_p`: what a pair's score must reach to be that unlikely (`None` if no tabulated score
    /// is).
    pub fn bin_needed(&self, ln_p: f64, factor: f64) -> Option<usize> {
        let table = self.tails(factor);
        // The tail falls as the score grows.
        let bin = table.partition_point(|&t| f64::from(t) > ln_p);
        (bin < table.len()).then_some(bin)
    }
}

/// A term's rate among the reference collection's sentences, by the ids of `vocabulary` (the
/// vocabulary the compared documents were prepared with): content words by the model's ids, kept
/// stopwords and numbers by their text ([`crate::model::sentence_rates`]). `None` when the model
/// has no sentence rates.
pub fn reference_rates<'a>(
    model: &'a dyn ModelView,
    vocabulary: &'a Vocabulary,
) -> Option<impl Fn(TermId) -> f64 + Sync + 'a> {
    let rates = model.sentence_rates()?;
    let known = model.vocabulary_size();
    Some(move |t: TermId| {
        if t < known {
            rates.term_rate(t)
        } else {
            rates.text_rate(vocabulary.name(t))
        }
    })
}

/// W: the summed weight of the terms two sentences share (both [`NullModel::weighted_terms`]).
pub fn score(left: &[(u32, f64)], right: &[(u32, f64)]) -> f64 {
    let (mut i, mut j, mut sum) = (0, 0, 0.0);
    while i < left.len() && j < right.len() {
        match left[i].0.cmp(&right[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                sum += left[i].1;
                i += 1;
                j += 1;
            }
        }
    }
    sum
}

/// The grid bin of a score (scores are rounded down, so P is never understated).
pub fn score_bin(score: f64) -> usize {
    (score / STEP).floor().max(0.0) as usize
}

/// A score below which no score falls in `bin` or above (for bounds on sums of weights, whose
/// rounding may differ from one order of summing to another).
pub fn score_below_bin(bin: usize) -> f64 {
    bin as f64 * STEP - 1e-6
}

#[cfg(test)]
mod tests;
