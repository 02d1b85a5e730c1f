//! What a comparison judged against chance keeps to weigh its passages again under any
//! thresholds: the null model, and for each link the terms its two sentences share.
//!
//! A passage pools its links' evidence ([`super::chains`]), but only evidence that is new. Words
//! come in bursts: a story about an airline strike says "labor" and "union" in ten sentences, and
//! so may an encyclopedia article on unions, so ten neighbouring sentences of one may each share
//! those two words with the heading "Labor unions." of the other. Counted ten times, that looks
//! like a copied paragraph; it is one coincidence. So a link's evidence inside a chain counts only
//! the shared terms no earlier link of the chain counted ([`ChanceEvidence::chain_surprise`]; the
//! chaining itself, which weighs one step at a time, discounts what the link before shared,
//! [`ChanceEvidence::surprise`]): a copied passage's sentences share different words each (their
//! own content), a topical coincidence the same few again.

use std::sync::Arc;

use rustc_hash::FxHashSet;

use super::null::NullModel;
use super::search::ChanceSummary;
use crate::similarity::ScoredPair;

/// One link's shared terms, as a range of [`ChanceEvidence::terms`].
#[derive(Clone, Debug, PartialEq)]
struct LinkTerms {
    left: u32,
    right: u32,
    /// The pair's length factor (see [`NullModel::length_factor`]).
    factor: f64,
    start: u32,
    end: u32,
}

/// The null model and every link's shared terms (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct ChanceEvidence {
    pub summary: ChanceSummary,
    null: Arc<NullModel>,
    /// Sorted by (left, right).
    links: Vec<LinkTerms>,
    /// Shared terms (dense index, weight), link after link, each link's sorted by index.
    terms: Vec<(u32, f64)>,
}

/// One link's shared terms as the search found them: (left, right, length factor, the terms both
/// sentences hold as (dense index, weight)).
pub type SharedTerms = (u32, u32, f64, Vec<(u32, f64)>);

impl ChanceEvidence {
    /// `shared` lists, per link, the terms both sentences hold.
    pub fn new(
        summary: ChanceSummary,
        null: Arc<NullModel>,
        mut shared: Vec<SharedTerms>,
    ) -> ChanceEvidence {
        shared.sort_by_key(|s| (s.0, s.1));
        let mut links = Vec::with_capacity(shared.len());
        let mut terms = Vec::new();
        for (left, right, factor, list) in shared {
            let start = terms.len() as u32;
            terms.extend(list);
            links.push(LinkTerms {
                left,
                right,
                factor,
                start,
                end: terms.len() as u32,
            });
        }
        ChanceEvidence {
            summary,
            null,
            links,
            terms,
        }
    }

    fn find(&self, pair: &ScoredPair) -> Option<&LinkTerms> {
        self.links
            .binary_search_by_key(&(pair.left, pair.right), |l| (l.left, l.right))
            .ok()
            .map(|i| &self.links[i])
    }

    fn shared(&self, link: &LinkTerms) -> &[(u32, f64)] {
        &self.terms[link.start as usize..link.end as usize]
    }

    /// The evidence of `pair` as a chain's link, in nats (-ln P): of its shared terms those
    /// `after` (the link before it in the chain) did not share; all of them for a first link.
    pub fn surprise(&self, pair: &ScoredPair, after: Option<&ScoredPair>) -> f64 {
        let Some(link) = self.find(pair) else {
            return 0.0;
        };
        let mine = self.shared(link);
        let before = after
            .and_then(|p| self.find(p))
            .map_or(&[][..], |l| self.shared(l));
        let mut score = 0.0;
        let mut k = 0;
        for &(t, w) in mine {
            while k < before.len() && before[k].0 < t {
                k += 1;
            }
            if k < before.len() && before[k].0 == t {
                continue;
            }
            score += w;
        }
        -self.null.ln_p(score, link.factor)
    }

    /// The evidence of a whole chain, in nats (the sum of its links' -ln P): each link counts
    /// only the shared terms no earlier link of the chain counted, so a term shared again and
    /// again (a topic's words, a heading met by ten sentences) is one coincidence.
    pub fn chain_surprise(&self, members: &[&ScoredPair]) -> f64 {
        // A set, not a sorted list: a whole copied document is one chain of tens of thousands
        // of links, and inserting into a sorted list made this quadratic in its terms.
        let mut counted: FxHashSet<u32> = FxHashSet::default();
        let mut total = 0.0;
        for pair in members {
            let Some(link) = self.find(pair) else {
                continue;
            };
            let mut score = 0.0;
            for &(t, w) in self.shared(link) {
                if counted.insert(t) {
                    score += w;
                }
            }
            total += -self.null.ln_p(score, link.factor);
        }
        total
    }

    /// The same evidence seen from the other document.
    pub fn swapped(&self) -> ChanceEvidence {
        let shared = self
            .links
            .iter()
            .map(|l| (l.right, l.left, l.factor, self.shared(l).to_vec()))
            .collect();
        let summary = ChanceSummary {
            sentences: [self.summary.sentences[1], self.summary.sentences[0]],
            ..self.summary
        };
        ChanceEvidence::new(summary, self.null.clone(), shared)
    }
}
