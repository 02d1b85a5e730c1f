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
//! Counting co-occurrence walks the sentence lists of both terms, so it is done only for terms
//! held by at most [`MAX_LIST`] sentences on each side (a heavier term conditions on a lighter one
//! through its list, which is then short): the very common words weigh little anyway.

use super::null::NullModel;
use crate::similarity::verdict::features::shared;

/// Terms held by more sentences than this on a side are neither discounted nor conditioned on.
pub const MAX_LIST: usize = 2048;

/// For each term (dense index of [`NullModel`]), the positions of one document's sentences
/// holding it, ascending.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Postings {
    lists: Vec<Vec<u32>>,
    sentences: usize,
}

impl Postings {
    /// The lists of a document's sentences, given their weighted terms by position.
    pub fn new(terms: &[&[(u32, f64)]], vocabulary: usize) -> Postings {
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
        Postings { lists, sentences }
    }

    fn list(&self, term: u32) -> &[u32] {
        self.lists.get(term as usize).map_or(&[], Vec::as_slice)
    }

    /// P(t | u) in this document, the sentence `own` left out: the share of the other sentences
    /// holding `u` that also hold `t`; `None` when there are none or a list is too long to walk.
    fn conditional(&self, t: u32, u: u32, own: u32) -> Option<f64> {
        let (lt, lu) = (self.list(t), self.list(u));
        if lt.len() > MAX_LIST || lu.len() > MAX_LIST || lu.len() <= 1 {
            return None;
        }
        let both = shared(lt, lu) - usize::from(lt.binary_search(&own).is_ok());
        Some(both as f64 / (lu.len() - 1) as f64)
    }

    /// t's rate among this document's sentences.
    fn rate(&self, t: u32) -> f64 {
        self.list(t).len() as f64 / self.sentences.max(1) as f64
    }
}

/// The shared terms of sentences `own` (left at position `own[0]`, right at `own[1]`), heaviest
/// first as (dense index, weight), with each weight taken given the heavier ones (see the module
/// docs).
pub fn discounted(
    shared: &[(u32, f64)],
    postings: [&Postings; 2],
    own: [u32; 2],
) -> Vec<(u32, f64)> {
    let mut out = Vec::with_capacity(shared.len());
    for (k, &(t, w)) in shared.iter().enumerate() {
        let mut weight = w;
        for &(u, _) in &shared[..k] {
            let given = [0, 1].map(|side| postings[side].conditional(t, u, own[side]));
            let rates = [0, 1].map(|side| postings[side].rate(t));
            let (Some(pa), Some(pb)) = (given[0], given[1]) else {
                continue;
            };
            // Only words that come together more often than alone are discounted.
            if pa <= rates[0] && pb <= rates[1] {
                continue;
            }
            let p = pa.max(rates[0]) * pb.max(rates[1]);
            if p > 0.0 {
                weight = weight.min(-p.ln());
            }
        }
        out.push((t, weight.max(0.0)));
    }
    out
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

/// The evidence of a pair of sentences: its shared terms discounted (`postings`; `None` weighs
/// each term alone, the discount switched off), their summed weight W, and ln P of W at the
/// pair's length factor.
pub fn weigh(
    null: &NullModel,
    terms: [&[(u32, f64)]; 2],
    lengths: [usize; 2],
    postings: Option<[&Postings; 2]>,
    own: [u32; 2],
) -> (Vec<(u32, f64)>, f64, f64) {
    let both = shared_terms(terms[0], terms[1]);
    let shared = match postings {
        Some(postings) => discounted(&both, postings, own),
        None => both,
    };
    let w: f64 = shared.iter().map(|&(_, w)| w).sum();
    let ln_p = null.ln_p(w, null.length_factor(lengths[0], lengths[1]));
    (shared, w, ln_p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn postings(sentences: &[&[u32]]) -> Postings {
        let lists: Vec<Vec<(u32, f64)>> = sentences
            .iter()
            .map(|s| s.iter().map(|&t| (t, 1.0)).collect())
            .collect();
        let slices: Vec<&[(u32, f64)]> = lists.iter().map(Vec::as_slice).collect();
        Postings::new(&slices, 10)
    }

    #[test]
    fn words_listed_together_elsewhere_weigh_little_after_the_first() {
        // Terms 0, 1, 2 are country names listed together in three other sentences of each
        // document; 3 and 4 are words of the pair alone.
        let side = postings(&[
            &[0, 1, 2, 3, 4],
            &[0, 1, 2],
            &[0, 1, 2, 5],
            &[0, 1, 2],
            &[5, 6],
        ]);
        let shared = [(0, 10.0), (1, 10.0), (2, 10.0), (3, 10.0), (4, 10.0)];
        let out = discounted(&shared, [&side, &side], [0, 0]);
        assert_eq!(out[0].1, 10.0, "the heaviest term keeps its weight");
        assert!(out[1].1 < 0.01 && out[2].1 < 0.01, "{out:?}");
        assert_eq!(out[3].1, 10.0, "words of the pair alone keep theirs");
        assert_eq!(out[4].1, 10.0);
    }

    #[test]
    fn the_pair_itself_is_not_counted_as_co_occurrence() {
        // 0 and 1 meet only in the pair's own sentence: no discount.
        let side = postings(&[&[0, 1], &[0], &[1], &[2]]);
        let out = discounted(&[(0, 8.0), (1, 8.0)], [&side, &side], [0, 0]);
        assert_eq!(out[1].1, 8.0);
        // Once they also meet in another sentence of both documents, 1 given 0 is likely.
        let side = postings(&[&[0, 1], &[0, 1], &[1], &[2]]);
        let out = discounted(&[(0, 8.0), (1, 8.0)], [&side, &side], [0, 0]);
        assert!(out[1].1 < 0.01, "{out:?}");
        assert_eq!(shared(&[1u32, 3, 5, 7], &[2, 3, 7, 9]), 2);
    }
}
