//! The search a comparison runs when matches are judged against chance: seeds through the
//! exact index, then links around them, each link scored with the comparison's method so the
//! views can show its Sims.
//!
//! Nothing here grows with the pairs that merely pass a similarity bar: the seeds are about as
//! many as the sentences by chance (plus what was reused), repeated sentences are searched once
//! per class and listed as bands ([`crate::compare::classes`]), and each link costs a fixed
//! window of look-ups.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::cooccurrence::{self, Discount, Postings, SentenceCounts};
use super::links::{self, Link};
use super::null::{NullModel, RatePrior};
use super::related::{self, RelatedKinds};
use super::seeds::{self, Seed};
use super::surprise::LinkSurprises;
use crate::compare::classes::{self, CappedPartners, SentenceClasses};
use crate::similarity::fuzzy::{sentence_overlap, sentence_similarity};
use crate::similarity::{
    Cancelled, MatchRules, Method, ModelView, PreparedDoc, PreparedSentence, ScoredPair, TermId,
    check,
};

/// How matches are searched for when they are judged against chance (what is fixed when the
/// comparison runs; the bar a passage must pass is a threshold, [`crate::similarity::Thresholds`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChanceSearch {
    /// A seed's E-value is at most this times the number of sentences of both documents.
    pub seeds_per_sentence: f64,
    /// A link found around another one has -ln P (its surprise, in nats) of at least this.
    pub link_bar: f64,
    /// A seed (which has passed its own E-value bar) is a link when its -ln P is at least this.
    #[serde(default = "default_seed_link_bar")]
    pub seed_link_bar: f64,
    /// Consecutive links of a passage are at most this many sentences apart on each side (the
    /// passage gap plus one).
    pub reach: u32,
    /// How many sentences the reference collection's word rates (its share of sentences holding
    /// each term) are worth in each document's ([`super::null::RatePrior`]); 0 estimates the
    /// rates from the two documents alone.
    #[serde(default = "default_prior_sentences")]
    pub prior_sentences: f64,
    /// Fill the gaps between two links on one diagonal where the text is identical on both
    /// sides ([`super::links::bridge_identical`]).
    #[serde(default = "bridge_on")]
    pub bridge_identical: bool,
    /// Weigh a shared word given the heavier shared words it comes with elsewhere
    /// ([`super::cooccurrence`]); off, every shared word weighs its own rate.
    #[serde(default = "discount_on")]
    pub cooccurrence_discount: bool,
    /// The discount counts co-occurrence in a sample of about this many of the sentences
    /// holding each word ([`super::cooccurrence`]; all of them when fewer), so that its cost per
    /// sentence weighed is bounded whatever the documents' size. (The name is the option's
    /// first meaning, a cap on the lists counted at all, kept for saved settings.)
    #[serde(default = "default_list_cap")]
    pub discount_list_cap: u32,
    /// The discount weighs a word given a heavier one only when their coming together in a
    /// document is at least this many nats unlikely at the word's own rate
    /// ([`super::cooccurrence::conditional`]); 0 takes every share above the rate.
    #[serde(default = "default_discount_bar")]
    pub discount_bar: f64,
    /// Which words WordNet relates count when one sentence holds one where the other holds the
    /// other ([`super::related`]); off, only shared terms are evidence. Needs a model with
    /// WordNet's relations (without one, nothing is related). Off by default: measured, it
    /// loses ([`super::related`]).
    #[serde(default = "default_related_evidence")]
    pub related_evidence: RelatedKinds,
    /// A related pair weighs this many nats less than a shared word of the same rates: a
    /// rewording keeps a word more often than it swaps it for one particular relative, so a
    /// swap is weaker evidence of reuse ([`super::related`]).
    #[serde(default = "default_related_discount")]
    pub related_discount: f64,
}

fn default_related_discount() -> f64 {
    ChanceSearch::DEFAULT.related_discount
}

fn default_related_evidence() -> RelatedKinds {
    ChanceSearch::DEFAULT.related_evidence
}

fn default_discount_bar() -> f64 {
    ChanceSearch::DEFAULT.discount_bar
}

fn discount_on() -> bool {
    true
}

fn bridge_on() -> bool {
    ChanceSearch::DEFAULT.bridge_identical
}

fn default_prior_sentences() -> f64 {
    ChanceSearch::DEFAULT.prior_sentences
}

fn default_seed_link_bar() -> f64 {
    ChanceSearch::DEFAULT.seed_link_bar
}

fn default_list_cap() -> u32 {
    ChanceSearch::DEFAULT.discount_list_cap
}

impl ChanceSearch {
    /// The defaults (chosen on the text-alignment corpus, EVALUATION.md "Text alignment").
    pub const DEFAULT: ChanceSearch = ChanceSearch {
        seeds_per_sentence: 1.0,
        link_bar: 7.0,
        seed_link_bar: 3.0,
        reach: 3,
        prior_sentences: 50.0,
        bridge_identical: true,
        cooccurrence_discount: true,
        discount_list_cap: 256,
        discount_bar: 3.0,
        related_evidence: RelatedKinds::OFF,
        related_discount: 0.0,
    };
}

impl Default for ChanceSearch {
    fn default() -> Self {
        ChanceSearch::DEFAULT
    }
}

/// What a comparison judged against chance knows of its search.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ChanceSummary {
    pub options: ChanceSearch,
    /// Active sentences of each document (n, m).
    pub sentences: [usize; 2],
    /// ln(n m).
    pub ln_pairs: f64,
    /// Seed sentence pairs found (after repeated sentences were listed as bands).
    pub seeds: usize,
    /// Links found around them.
    pub links: usize,
}

/// The sentence pairs found, the class pairs cut to bands, and what weighs their passages.
pub struct Found {
    pub pairs: Vec<ScoredPair>,
    pub capped: Vec<CappedPartners>,
    pub evidence: LinkSurprises,
}

/// What [`search`] searches, and how.
pub struct SearchRequest<'a> {
    /// The two prepared documents.
    pub docs: [&'a PreparedDoc; 2],
    /// Their repetition classes (each class is searched once, as its first member).
    pub classes: [&'a SentenceClasses; 2],
    pub model: &'a dyn ModelView,
    /// A term's rate among the reference collection's sentences, when the model has them
    /// ([`super::null::reference_rates`]).
    pub reference: Option<&'a (dyn Fn(TermId) -> f64 + Sync)>,
    /// The method that gives each link its Sims.
    pub method: Method,
    pub rules: &'a MatchRules,
    pub options: &'a ChanceSearch,
    /// Where the parts of the right document start, when it is a pool of sources joined
    /// (ascending, the first 0): no link is looked for across two parts. Empty for one document.
    pub right_parts: &'a [usize],
}

impl SearchRequest<'_> {
    /// Whether two positions of the right document lie in one part.
    fn same_part(&self, x: usize, y: usize) -> bool {
        let part = |p: usize| self.right_parts.partition_point(|&start| start <= p);
        self.right_parts.is_empty() || part(x) == part(y)
    }
}

/// Searches two prepared documents (see the module docs).
pub fn search(request: &SearchRequest, cancel: &AtomicBool) -> Result<Found, Cancelled> {
    let SearchRequest {
        docs: [left, right],
        classes: [left_classes, right_classes],
        model,
        reference,
        method,
        rules,
        options,
        ..
    } = *request;
    let prior = reference.map(|rate| RatePrior {
        rate,
        alpha: options.prior_sentences,
    });
    let related_pairs = model.lexicon().map_or_else(Vec::new, |lexicon| {
        related::related_pairs([left, right], lexicon, options.related_evidence)
    });
    let null = NullModel::with_related(
        left,
        right,
        prior.as_ref(),
        &related_pairs,
        options.related_discount,
    );
    drop(related_pairs);
    let [n, m] = null.sentences;
    let ln_pairs = null.ln_pairs();
    // Seeds among the classes' representatives.
    let reps = [
        left_classes.representatives(left),
        right_classes.representatives(right),
    ];
    let rep_terms = reps
        .each_ref()
        .map(|reps| seeds::weighted_sentences(reps, &null));
    let rep_lengths = reps.each_ref().map(|reps| lengths(reps));
    let seed_e = (options.seeds_per_sentence * (n + m) as f64).max(f64::MIN_POSITIVE);
    let ln_p_bar = seed_e.ln() - ln_pairs;
    let sizes = [left_classes, right_classes].map(|classes| {
        (0..classes.len() as u32)
            .map(|c| classes.members(c).len() as u32)
            .collect::<Vec<u32>>()
    });
    let candidates = seeds::hits([&reps[0], &reps[1]], [&sizes[0], &sizes[1]]);
    let class_seeds = seeds::find(
        &null,
        [&rep_terms[0].slices(), &rep_terms[1].slices()],
        [&rep_lengths[0], &rep_lengths[1]],
        &candidates,
        ln_p_bar,
        cancel,
    )?;
    check(cancel)?;
    // Each class seed stands for its members' pairs, listed as a band when they are many.
    let budget = 4 * (n + m) as u64 + 1024;
    let as_pairs: Vec<ScoredPair> = class_seeds.iter().map(seed_pair).collect();
    let (member_pairs, capped) =
        classes::expand_within(&as_pairs, [left_classes, right_classes], budget);
    // Sentence positions from here on.
    let position_terms = [
        by_position(left_classes, &rep_terms[0]),
        by_position(right_classes, &rep_terms[1]),
    ];
    let position_lengths = [
        by_position_length(left_classes, &rep_lengths[0]),
        by_position_length(right_classes, &rep_lengths[1]),
    ];
    let postings = [0, 1].map(|side| {
        Postings::new(
            &position_terms[side],
            null.shared_terms(),
            options.discount_list_cap,
        )
    });
    // A pair's evidence with the words that come together discounted ([`cooccurrence`]).
    let counts = [
        SentenceCounts::new(&postings[0], &position_terms[0]),
        SentenceCounts::new(&postings[1], &position_terms[1]),
    ];
    let weigh = |a: usize, b: usize, ln_p_bar: f64| {
        let related = match (left.sentences.get(a), right.sentences.get(b)) {
            (Some(l), Some(r)) => null.related_terms(l.content(), &l.set, &r.set),
            _ => Vec::new(),
        };
        cooccurrence::weigh(
            &null,
            [position_terms[0][a], position_terms[1][b]],
            &related,
            [position_lengths[0][a], position_lengths[1][b]],
            options.cooccurrence_discount.then_some(Discount {
                counts: [&counts[0], &counts[1]],
                bar: options.discount_bar,
                null: prior
                    .as_ref()
                    .is_some_and(|p| p.alpha > 0.0)
                    .then_some(&null),
            }),
            [a as u32, b as u32],
            ln_p_bar,
        )
    };
    // The seeds' plain scores bound their discounted ones, which decide.
    let member_seeds: Vec<(Seed, Vec<(u32, f64)>)> = member_pairs
        .par_iter()
        .filter_map(|p| {
            let (shared, w, ln_p) = weigh(p.left as usize, p.right as usize, ln_p_bar)?;
            (ln_p <= ln_p_bar).then_some((
                Seed {
                    left: p.left,
                    right: p.right,
                    score: w,
                    ln_p,
                },
                shared,
            ))
        })
        .collect();
    let seeds_found = member_seeds.len();
    let found_links = links::extend(
        [position_terms[0].len(), position_terms[1].len()],
        &|b0, b1| request.same_part(b0, b1),
        &|a, b| {
            if position_terms[0][a].is_empty() || position_terms[1][b].is_empty() {
                return None;
            }
            let (shared, w, ln_p) = weigh(a, b, -options.link_bar)?;
            Some((w, ln_p, shared))
        },
        member_seeds,
        options.reach,
        [-options.seed_link_bar, -options.link_bar],
        cancel,
    )?;
    check(cancel)?;
    let found_links = if options.bridge_identical {
        let active = |doc: &PreparedDoc, p: usize| {
            doc.included.get(p) == Some(&true)
                && doc
                    .sentences
                    .get(p)
                    .is_some_and(|s| !s.content().is_empty())
        };
        links::bridge_identical(
            found_links,
            &|a, b| {
                active(left, a)
                    && active(right, b)
                    && left.sentences[a].terms == right.sentences[b].terms
            },
            &|b0, b1| request.same_part(b0, b1),
            &|a, b| {
                let (shared, w, ln_p) = weigh(a, b, f64::INFINITY)?;
                Some((w, ln_p, shared))
            },
        )
    } else {
        found_links
    };
    let pairs: Vec<ScoredPair> = found_links
        .par_iter()
        .map(|(link, _)| scored(link, [left, right], model, method, rules, ln_pairs))
        .collect();
    // Each link's shared terms as its weighing found them (discounted, when the discount is
    // on): what its passages are weighed with.
    let shared = found_links
        .into_iter()
        .map(|(link, shared)| {
            let (a, b) = (link.left as usize, link.right as usize);
            let factor = null.length_factor(position_lengths[0][a], position_lengths[1][b]);
            (link.left, link.right, factor, shared)
        })
        .collect();
    let summary = ChanceSummary {
        options: *options,
        sentences: [n, m],
        ln_pairs,
        seeds: seeds_found,
        links: pairs.len(),
    };
    Ok(Found {
        evidence: LinkSurprises::new(summary, Arc::new(null), shared),
        pairs,
        capped,
    })
}

/// A seed carried through [`classes::expand_within`] as a pair of class ids (its score and ln P
/// ride in the Sim fields, read back right after).
fn seed_pair(seed: &Seed) -> ScoredPair {
    ScoredPair::new(seed.left, seed.right, [seed.score, seed.ln_p], false)
}

fn lengths(sentences: &[&PreparedSentence]) -> Vec<usize> {
    sentences.iter().map(|s| s.set.len()).collect()
}

/// Each sentence position's weighted terms: its class representative's (empty when it does not
/// take part).
fn by_position<'t>(
    classes: &SentenceClasses,
    rep_terms: &'t seeds::WeightedTerms,
) -> Vec<&'t [(u32, f64)]> {
    (0..classes.positions())
        .map(|p| {
            classes
                .class_of(p)
                .map_or(&[][..], |c| rep_terms.get(c as usize))
        })
        .collect()
}

fn by_position_length(classes: &SentenceClasses, rep_lengths: &[usize]) -> Vec<usize> {
    (0..classes.positions())
        .map(|p| {
            classes
                .class_of(p)
                .and_then(|c| rep_lengths.get(c as usize).copied())
                .unwrap_or(0)
        })
        .collect()
}

/// A link as a scored pair: its Sims under the comparison's method and rules, and its E-value.
fn scored(
    link: &Link,
    [left, right]: [&PreparedDoc; 2],
    model: &dyn ModelView,
    method: Method,
    rules: &MatchRules,
    ln_pairs: f64,
) -> ScoredPair {
    let l = &left.sentences[link.left as usize];
    let r = &right.sentences[link.right as usize];
    let (sim_lr, sim_rl) = match method {
        Method::Overlap => sentence_overlap(l, r, rules),
        _ => sentence_similarity(l, r, model, rules),
    };
    ScoredPair::new(link.left, link.right, [sim_lr, sim_rl], l.terms == r.terms)
        .with_e_value((ln_pairs + link.ln_p).exp())
}
