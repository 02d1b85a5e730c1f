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
//! In a short document that share is read from a handful of sentences: in a five-sentence summary
//! two sentences about a company and its buyer make each name "certain" given the other, and a
//! sentence copied word for word from the article lost most of its weight (the BBC summaries'
//! recall fell to 0.84 under this discount, 0.99 without it). Two sentences out of two are no
//! evidence that words come together when each is in half the document's sentences anyway. So
//! a word is discounted given a heavier one only when their coming together is itself unlikely
//! at the word's own rate: when n KL(P_A(t | u), q_A(t)) reaches a bar
//! ([`super::search::ChanceSearch::discount_bar`], chosen on the text-alignment corpus), the
//! Chernoff bound on -ln P of seeing that share or more among the n other sentences holding u
//! (KL the Kullback-Leibler divergence of two Bernoulli rates). Lists and a topic's words in
//! long documents pass it by far (three sentences out of three, at a rate of one in thousands);
//! a short text's words that merely share its few sentences do not.

//! Counting co-occurrence walks the sentence lists of the terms, which would cost the square of
//! a document's size for its common words. So each list is walked in a sample of about K of its
//! sentences ([`super::search::ChanceSearch::discount_list_cap`], chosen on the text-alignment
//! corpus): a list of L sentences keeps those whose hash is below K / L, with one hash of the
//! sentence's position for every list (coordinated sampling, as in bottom-k sketches: Cohen and
//! Kaplan 2007, *Summarizing data using bottom-k sketches*, PODC). A sentence holding both t and u
//! is then in both samples exactly when its hash is below the smaller of the two rates, so the
//! sentences holding both, counted in the samples and divided by that rate, estimate how many
//! hold both without bias; lists of at most K sentences are walked whole and counted exactly.
//! The cost per sentence weighed is then at most K per term, whatever the size of the
//! documents; and two sampled words (common ones) are counted together once for the whole
//! document, from the few sentences each sample holds, and a word whose whole list is long
//! (K / 8 sentences or more) has its co-occurrences with the other long-listed and sampled
//! words counted once, in a row kept for it (`counts`), so that each sentence walks only its
//! rare words' short lists. (Before, lists longer than a cap were not counted at all and
//! their words never discounted; the cap that served large documents was too costly for them,
//! and a topic's words passed it as documents grew.)

//!
//! - `postings`: each word's sentences, sampled, and the pairs of sampled words counted once;
//! - `counts`: each weighed sentence's counts, computed once and kept, and the long-listed
//!   words' rows.

mod counts;
mod postings;

pub use counts::SentenceCounts;
pub use postings::Postings;

use super::null::NullModel;

/// What a discount reads: the two documents' co-occurrence counts, and how unlikely (nats) two
/// words' coming together must be to count ([`conditional`]).
#[derive(Clone, Copy)]
pub struct Discount<'a> {
    pub counts: [&'a SentenceCounts<'a>; 2],
    pub bar: f64,
    /// Each term's own rate per document, what a discount compares P(t | u) with (`None`: the
    /// share of the lists' sentences holding it).
    pub null: Option<&'a NullModel>,
}

/// How many sentences the prior on a conditional share is worth, when the rates have a prior
/// (at the rate itself). Measured on the regimes' corpora (EVALUATION.md, "Text alignment in
/// every regime"): the rates' own 50 let the co-occurrences of rare words in 5 MB documents go
/// undiscounted (plagdet 0.970 -> 0.821 at 5 MB); none let a title met by one other sentence
/// explain its own copy away.
pub const DISCOUNT_PRIOR: f64 = 1.0;

/// P(t | u) in one document as the discount reads it: the share both / others of the `others`
/// sentences holding u that also hold t (`both`), at most 1, when that share is above t's own
/// rate `rate` by at least `bar` nats of evidence (others KL(share, rate), the Chernoff bound
/// on -ln P of a share as high at the rate); otherwise the rate itself (no discount). See the
/// module docs.
pub fn conditional(both: f64, others: f64, rate: f64, bar: f64) -> f64 {
    let share = (both / others).min(1.0);
    if share > rate && others * bernoulli_kl(share, rate) < bar {
        return rate;
    }
    share
}

/// The Kullback-Leibler divergence of Bernoulli(q) from Bernoulli(p), in nats.
fn bernoulli_kl(p: f64, q: f64) -> f64 {
    let term = |a: f64, b: f64| if a > 0.0 { a * (a / b).ln() } else { 0.0 };
    term(p, q) + term(1.0 - p, 1.0 - q)
}

/// The shared terms of sentences `own` (left at position `own[0]`, right at `own[1]`), heaviest
/// first as (dense index, weight), with each weight taken given the heavier ones (see the module
/// docs), as `discount` reads the two documents' co-occurrence counts.
pub fn discounted(shared: &[(u32, f64)], discount: Discount, own: [u32; 2]) -> Vec<(u32, f64)> {
    let Discount { counts, bar, null } = discount;
    let rows = [counts[0].counts(own[0]), counts[1].counts(own[1])];
    // Each shared term's place in both sentences' counts, and how many sentences hold it, per
    // side: found once, not once per pair of shared terms.
    let mut from = [0, 0];
    let known: Vec<([Option<usize>; 2], [usize; 2])> = shared
        .iter()
        .map(|&(u, _)| {
            (
                [0, 1].map(|side| rows[side].place_from(&mut from[side], u)),
                [0, 1].map(|side| counts[side].postings.held(u)),
            )
        })
        .collect();
    // Only terms counted on both sides discount or are discounted (at most
    // MOST_TERMS_COUNTED of them): the loop below is then linear in the shared terms beyond.
    let counted: Vec<([usize; 2], [usize; 2], usize)> = known
        .iter()
        .enumerate()
        .filter_map(|(i, (places, held))| Some(([places[0]?, places[1]?], *held, i)))
        .collect();
    let mut next_counted = 0;
    let mut out = Vec::with_capacity(shared.len());
    for (i, &(t, w)) in shared.iter().enumerate() {
        let mut weight = w;
        let Some(&(own_places, _, _)) = counted.get(next_counted).filter(|c| c.2 == i) else {
            out.push((t, weight.max(0.0)));
            continue;
        };
        let heavier = &counted[..next_counted];
        next_counted += 1;
        let rates = [0, 1].map(|side| match null {
            Some(null) => null.rate(side, t),
            None => counts[side].postings.rate(t),
        });
        for (places, held, _) in heavier {
            let given = [0, 1].map(|side| {
                let held = held[side];
                rows[side]
                    .both_at(own_places[side], places[side])
                    .filter(|_| held > 1)
                    .map(|both| {
                        // With a prior on the rates, the share leans on it too, worth
                        // DISCOUNT_PRIOR sentences: one other sentence holding both words is
                        // not yet proof that they always come together.
                        let alpha = null.map_or(0.0, |n| n.alpha.min(DISCOUNT_PRIOR));
                        conditional(
                            both + alpha * rates[side],
                            (held - 1) as f64 + alpha,
                            rates[side],
                            bar,
                        )
                    })
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

/// A pair's evidence: its shared terms as (dense index, weight), their summed weight W, and
/// ln P of W.
pub type Weighed = (Vec<(u32, f64)>, f64, f64);

/// The evidence of a pair of sentences: its shared terms discounted (`discount`; `None` weighs
/// each term alone, the discount switched off) followed by the related pairs it holds
/// (`related`, [`NullModel::related_terms`]: not discounted, their dense indices after every
/// shared term's), their summed weight W, and ln P of W at the pair's length factor.
///
/// `ln_p_bar` is the bar the caller will hold ln P to: a pair whose undiscounted ln P is already
/// above it gives `None` (the discount only lowers weights, so it would stay above), which
/// spares the discount, and the list of shared terms, for the many pairs a search looks at and
/// rejects. Pass `f64::INFINITY` for the evidence of every pair.
pub fn weigh(
    null: &NullModel,
    terms: [&[(u32, f64)]; 2],
    related: &[(u32, f64)],
    lengths: [usize; 2],
    discount: Option<Discount>,
    own: [u32; 2],
    ln_p_bar: f64,
) -> Option<Weighed> {
    let factor = null.length_factor(lengths[0], lengths[1]);
    let related_weight: f64 = related.iter().map(|&(_, w)| w).sum();
    let plain = super::null::score(terms[0], terms[1]) + related_weight;
    let plain_ln_p = null.ln_p(plain, factor);
    if plain_ln_p > ln_p_bar {
        return None;
    }
    let mut both = shared_terms(terms[0], terms[1]);
    let Some(discount) = discount else {
        both.extend_from_slice(related);
        return Some((both, plain, plain_ln_p));
    };
    let mut shared = discounted(&both, discount, own);
    shared.extend_from_slice(related);
    let w: f64 = shared.iter().map(|&(_, w)| w).sum();
    Some((shared, w, null.ln_p(w, factor)))
}

#[cfg(test)]
mod tests {
    use super::postings::sample_key;
    use super::*;

    /// The discount as first built: P(t | u) the plain share, however few sentences show it.
    fn plain_share<'a>(counts: [&'a SentenceCounts<'a>; 2]) -> Discount<'a> {
        Discount {
            counts,
            bar: 0.0,
            null: None,
        }
    }

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
        fn conditional_by_walking(
            &self,
            sentences: &[&[(u32, f64)]],
            t: u32,
            u: u32,
            own: u32,
            bar: f64,
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
            Some(conditional(
                estimate,
                (lu.len() - 1) as f64,
                self.rate(t),
                bar,
            ))
        }
    }

    /// The discount as first written: each two shared terms' lists intersected apart (the
    /// counting is what is checked; the weight rule is shared).
    fn discounted_by_walking(
        shared: &[(u32, f64)],
        postings: [&Postings; 2],
        sentences: [&[&[(u32, f64)]]; 2],
        own: [u32; 2],
        bar: f64,
    ) -> Vec<(u32, f64)> {
        let mut out = Vec::with_capacity(shared.len());
        for (k, &(t, w)) in shared.iter().enumerate() {
            let mut weight = w;
            for &(u, _) in &shared[..k] {
                let given = [0, 1].map(|side| {
                    postings[side].conditional_by_walking(sentences[side], t, u, own[side], bar)
                });
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
            bar in proptest::sample::select(vec![0.0, 0.5, 3.0]),
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
                discounted(&both, Discount { counts: [&counts[0], &counts[1]], bar, null: None }, own),
                discounted_by_walking(&both, [&postings[0], &postings[1]], [&ls, &rs], own, bar)
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
            discounted(&shared, plain_share([side, side]), [0, 0])
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
            (
                sampled,
                discounted(&shared, plain_share([counts, counts]), [0, 0]),
            )
        });
        assert!(sampled < 200, "{sampled}");
        assert_eq!(out[0].1, 10.0);
        assert!(out[1].1 < 0.01, "{out:?}");
        assert_eq!(out[2].1, 10.0, "{out:?}");
    }

    #[test]
    fn words_of_a_short_text_are_not_a_list_for_sharing_its_few_sentences() {
        // A text of five sentences: terms 0 and 1 (a company and its buyer) are in three of
        // them, and come together in the two besides the pair's. Taken alone, 1 given 0 is
        // certain (2 of 2) and 1 weighs nothing; but at 1's rate of 3 / 5 two of two is
        // 2 KL(1, 0.6) = 1.02 nats of evidence, under a bar of 3: no discount.
        let short: [&[u32]; 5] = [&[0, 1, 2], &[0, 1], &[0, 1, 4], &[3], &[4]];
        let shared = [(0, 10.0), (1, 10.0), (2, 10.0)];
        let weigh = |document: &[&[u32]], bar: f64| {
            with_counts(document, 2048, |side| {
                discounted(
                    &shared,
                    Discount {
                        counts: [side, side],
                        bar,
                        null: None,
                    },
                    [0, 0],
                )
            })
        };
        assert!(weigh(&short, 0.0)[1].1 < 0.01);
        assert_eq!(weigh(&short, 3.0)[1].1, 10.0);
        // In a text of 40 where they come together in 3 of 3 other sentences (rate 4 / 40:
        // 3 KL(1, 0.1) = 6.9 nats), and in a list of 40, they are discounted.
        let mut rare: Vec<&[u32]> = vec![&[0, 1, 2], &[0, 1], &[0, 1], &[0, 1]];
        rare.extend((0..36).map(|_| &[3u32][..]));
        assert!(weigh(&rare, 3.0)[1].1 < 0.01);
        let mut long: Vec<&[u32]> = vec![&[0, 1, 2]];
        long.extend((0..40).map(|_| &[0u32, 1][..]));
        long.extend((0..40).map(|_| &[3u32][..]));
        assert!(weigh(&long, 3.0)[1].1 < 0.01);
        assert_eq!(
            weigh(&long, 3.0)[2].1,
            10.0,
            "a word of the pair alone keeps its weight"
        );
    }

    #[test]
    fn the_pair_itself_is_not_counted_as_co_occurrence() {
        // 0 and 1 meet only in the pair's own sentence: no discount.
        let shared = [(0, 8.0), (1, 8.0)];
        let out = with_counts(&[&[0, 1], &[0], &[1], &[2]], 2048, |side| {
            discounted(&shared, plain_share([side, side]), [0, 0])
        });
        assert_eq!(out[1].1, 8.0);
        // Once they also meet in another sentence of both documents, 1 given 0 is likely.
        let out = with_counts(&[&[0, 1], &[0, 1], &[1], &[2]], 2048, |side| {
            discounted(&shared, plain_share([side, side]), [0, 0])
        });
        assert!(out[1].1 < 0.01, "{out:?}");
    }
}
