//! Each link's surprise (-ln P of what its two sentences share under the null model), as a
//! comparison judged against chance keeps it to weigh its passages again under any thresholds:
//! the null model, and for each link the terms its two sentences share. ("Evidence" elsewhere
//! names what a reader checks before believing a pair, `collection::evidence`.)
//!
//! A passage pools its links' evidence ([`super::chains`]), but only evidence that is new. Words
//! come in bursts: a story about an airline strike says "labor" and "union" in ten sentences, and
//! so may an encyclopedia article on unions, so ten neighbouring sentences of one may each share
//! those two words with the heading "Labor unions." of the other. Counted ten times, that looks
//! like a copied paragraph; it is one coincidence. So a link's evidence inside a chain counts only
//! the shared terms no earlier link of the chain counted ([`LinkSurprises::chain_surprise`]; the
//! chaining itself, which weighs one step at a time, discounts what the link before shared,
//! [`LinkSurprises::surprise`]): a copied passage's sentences share different words each (their
//! own content), a topical coincidence the same few again.

use std::sync::{Arc, Mutex};

use rustc_hash::FxHashSet;

use super::chains::Chain;
use super::null::NullModel;
use super::search::ChanceSummary;
use crate::similarity::{ScoredPair, Thresholds};

/// One link's shared terms, as a range of [`LinkSurprises::terms`].
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
pub struct LinkSurprises {
    pub summary: ChanceSummary,
    null: Arc<NullModel>,
    /// Sorted by (left, right).
    links: Vec<LinkTerms>,
    /// Shared terms (dense index, weight), link after link, each link's sorted by index.
    terms: Vec<(u32, f64)>,
    /// The passages last weighed from this evidence (see [`ChainMemo`]).
    memo: ChainMemo,
}

/// The evidence chains of the comparison that holds this evidence, under the thresholds they
/// were last found for. One report asks for them several times under the same thresholds (the
/// matches, the figures, the passages, the identical pairs), and on two long documents finding
/// them weighs every link again: a tenth of comparing a 10 MB text with its revision, each
/// time. A comparison's pairs and evidence do not change once made, so the thresholds are the
/// whole key.
#[derive(Default)]
pub struct ChainMemo(Mutex<Option<(Thresholds, Arc<Vec<Chain>>)>>);

impl ChainMemo {
    /// The chains under `thresholds`: those kept when they were found for the same thresholds,
    /// else `find()`'s, which are kept in their place.
    pub fn get_or_find(
        &self,
        thresholds: &Thresholds,
        find: impl FnOnce() -> Vec<Chain>,
    ) -> Arc<Vec<Chain>> {
        // A panic while the lock was held cannot leave the entry half written (it is replaced
        // whole), so a poisoned lock is still sound to use.
        let lock = || {
            self.0
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
        };
        if let Some((kept, chains)) = lock().as_ref()
            && kept == thresholds
        {
            return chains.clone();
        }
        // Found outside the lock: another thread asking under other thresholds need not wait.
        let chains = Arc::new(find());
        *lock() = Some((*thresholds, chains.clone()));
        chains
    }
}

/// A copy starts with nothing kept: the copy may be changed where the original is not.
impl Clone for ChainMemo {
    fn clone(&self) -> Self {
        ChainMemo::default()
    }
}

/// What is kept is derived from the rest of the evidence, so it never tells two apart.
impl PartialEq for ChainMemo {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for ChainMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ChainMemo")
    }
}

/// One link's shared terms as the search found them: (left, right, length factor, the terms both
/// sentences hold as (dense index, weight)).
pub type SharedTerms = (u32, u32, f64, Vec<(u32, f64)>);

impl LinkSurprises {
    /// `shared` lists, per link, the terms both sentences hold.
    pub fn new(
        summary: ChanceSummary,
        null: Arc<NullModel>,
        mut shared: Vec<SharedTerms>,
    ) -> LinkSurprises {
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
        LinkSurprises {
            summary,
            null,
            links,
            terms,
            memo: ChainMemo::default(),
        }
    }

    /// The passages last weighed from this evidence ([`ChainMemo`]).
    pub fn memo(&self) -> &ChainMemo {
        &self.memo
    }

    /// Where `pair`'s shared terms are kept (`None` for a pair that is no link): what
    /// [`Self::surprise`] and [`Self::chain_surprise`] take, found once per link instead of
    /// once per time the chaining weighs it.
    pub fn index_of(&self, pair: &ScoredPair) -> Option<u32> {
        self.links
            .binary_search_by_key(&(pair.left, pair.right), |l| (l.left, l.right))
            .ok()
            .map(|i| i as u32)
    }

    fn shared(&self, link: &LinkTerms) -> &[(u32, f64)] {
        &self.terms[link.start as usize..link.end as usize]
    }

    /// The evidence of the link at `link` ([`Self::index_of`]) as a chain's link, in nats
    /// (-ln P): of its shared terms those `after` (the link before it in the chain) did not
    /// share; all of them for a first link. 0 for a pair that is no link.
    pub fn surprise(&self, link: Option<u32>, after: Option<u32>) -> f64 {
        let Some(link) = link.and_then(|i| self.links.get(i as usize)) else {
            return 0.0;
        };
        let mine = self.shared(link);
        let before = after
            .and_then(|i| self.links.get(i as usize))
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

    /// The evidence of a whole chain of the links at these places ([`Self::index_of`]), in nats
    /// (the sum of its links' -ln P): each link counts only the shared terms no earlier link of
    /// the chain counted, so a term shared again and again (a topic's words, a heading met by
    /// ten sentences) is one coincidence.
    pub fn chain_surprise(&self, members: impl IntoIterator<Item = Option<u32>>) -> f64 {
        // A set, not a sorted list: a whole copied document is one chain of tens of thousands
        // of links, and inserting into a sorted list made this quadratic in its terms.
        let mut counted: FxHashSet<u32> = FxHashSet::default();
        let mut total = 0.0;
        for index in members {
            let Some(link) = index.and_then(|i| self.links.get(i as usize)) else {
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

    /// The evidence cut by part of the right document (a pool of sources joined, its parts
    /// starting at `starts`, ascending, the first 0): per part holding links, its index and the
    /// evidence of its links with right positions made local. The null model and the number of
    /// pairs stay the whole pool's, so each part's passages are judged against chance over every
    /// source searched, as BLAST reports a hit against a database.
    pub fn split_right(&self, starts: &[usize]) -> Vec<(usize, LinkSurprises)> {
        let part = |p: u32| {
            starts
                .partition_point(|&s| s <= p as usize)
                .saturating_sub(1)
        };
        let mut by_part: Vec<(usize, Vec<SharedTerms>)> = Vec::new();
        let mut order: Vec<&LinkTerms> = self.links.iter().collect();
        order.sort_by_key(|l| (part(l.right), l.left, l.right));
        for link in order {
            let owner = part(link.right);
            let start = starts.get(owner).copied().unwrap_or(0) as u32;
            let local = (
                link.left,
                link.right - start,
                link.factor,
                self.shared(link).to_vec(),
            );
            match by_part.last_mut() {
                Some((p, list)) if *p == owner => list.push(local),
                _ => by_part.push((owner, vec![local])),
            }
        }
        by_part
            .into_iter()
            .map(|(owner, shared)| {
                let summary = ChanceSummary {
                    links: shared.len(),
                    ..self.summary
                };
                (
                    owner,
                    LinkSurprises::new(summary, self.null.clone(), shared),
                )
            })
            .collect()
    }

    /// The same evidence seen from the other document.
    pub fn swapped(&self) -> LinkSurprises {
        let shared = self
            .links
            .iter()
            .map(|l| (l.right, l.left, l.factor, self.shared(l).to_vec()))
            .collect();
        let summary = ChanceSummary {
            sentences: [self.summary.sentences[1], self.summary.sentences[0]],
            ..self.summary
        };
        LinkSurprises::new(summary, self.null.clone(), shared)
    }
}
