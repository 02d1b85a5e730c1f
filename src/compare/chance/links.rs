//! Links: the pairs a passage may be built from, found by extending the seeds along the text.
//!
//! Reused text is a run: a copied paragraph's sentences follow each other in both documents, and
//! a reworded one keeps most of them recognisable. Once a seed is found, its neighbourhood is
//! searched the way BLAST extends a word hit (Altschul et al. 1990): every pair within `reach`
//! sentences after (and before) it on both sides (0 on one side: a sentence split in two) is
//! scored, and each that is unlikely enough by chance (ln P at most the link bar) becomes a link
//! and is extended in turn. The bar keeps the search from wandering through unrelated text: a
//! random pair passes it with probability exp(-bar), so each link finds on average
//! 2 ((reach + 1)^2 - 1) exp(-bar) chance links, well under one at the default bar. The cost is
//! the seeds and links times the window, linear in what is found.
//!
//! A seed becomes a link at a bar of its own (the seed link bar). A seed has already passed its
//! E-value bar, which is strict in long documents (ln P near -10 at 4 MB) and loose in short ones
//! (near -3 in 5 KB essays), while a pair met beside a link has only the link bar to pass. With
//! one bar for both, the bar decided too much at once: at 7 a copied table whose rows differ by a
//! number (each row with its copy at ln P -6.9) had no link at all, and at 0 (every seed a link)
//! an essay's title joined its copied sentences. The two bars are chosen apart, on the
//! text-alignment corpus (EVALUATION.md, "Text alignment").

use std::sync::atomic::AtomicBool;

use rustc_hash::FxHashSet;

use super::seeds::Seed;
use crate::similarity::{Cancelled, check};

/// One link: a pair of sentences and how unlikely it is by chance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Link {
    pub left: u32,
    pub right: u32,
    /// W, the summed weight of the shared terms.
    pub score: f64,
    /// ln P of the pair by chance.
    pub ln_p: f64,
}

/// The links reachable from `seeds`: the seeds with ln P at most `seed_ln_p`, and every pair
/// within `reach` sentences of a link on both sides (forward or backward) with ln P at most
/// `link_ln_p` (the right one in the same part as the link's, `same_part`), sorted by (left, right), each with what its weighing found besides (`T`: the shared
/// terms the passages are weighed with, so that no link is weighed twice). `sizes` are the
/// documents' numbers of sentences; `weigh(a, b)` gives a pair's score and ln P (`None` for a
/// sentence that takes no part, or a pair that cannot pass the bar).
pub fn extend<T>(
    sizes: [usize; 2],
    same_part: &(dyn Fn(usize, usize) -> bool + Sync),
    weigh: &(dyn Fn(usize, usize) -> Option<(f64, f64, T)> + Sync),
    seeds: Vec<(Seed, T)>,
    reach: u32,
    [seed_ln_p, link_ln_p]: [f64; 2],
    cancel: &AtomicBool,
) -> Result<Vec<(Link, T)>, Cancelled> {
    let mut seen = Seen::new(sizes[0]);
    let mut links: Vec<(Link, T)> = Vec::new();
    let mut work: Vec<Link> = Vec::new();
    for (seed, found) in seeds {
        seen.insert(seed.left, seed.right);
        if seed.ln_p <= seed_ln_p {
            let link = Link {
                left: seed.left,
                right: seed.right,
                score: seed.score,
                ln_p: seed.ln_p,
            };
            links.push((link, found));
            work.push(link);
        }
    }
    let sizes = sizes.map(|s| s as i64);
    let reach = i64::from(reach);
    let mut visited = 0usize;
    while let Some(link) = work.pop() {
        visited += 1;
        if visited.is_multiple_of(4096) {
            check(cancel)?;
        }
        for direction in [1i64, -1] {
            for da in 0..=reach {
                for db in (0..=reach).filter(|&db| da + db > 0) {
                    let a = i64::from(link.left) + direction * da;
                    let b = i64::from(link.right) + direction * db;
                    if a < 0 || b < 0 || a >= sizes[0] || b >= sizes[1] {
                        continue;
                    }
                    let (a, b) = (a as usize, b as usize);
                    if !same_part(link.right as usize, b) || !seen.insert(a as u32, b as u32) {
                        continue;
                    }
                    let Some((w, ln_p, found)) = weigh(a, b) else {
                        continue;
                    };
                    if ln_p <= link_ln_p {
                        let link = Link {
                            left: a as u32,
                            right: b as u32,
                            score: w,
                            ln_p,
                        };
                        links.push((link, found));
                        work.push(link);
                    }
                }
            }
        }
    }
    links.sort_unstable_by_key(|(l, _)| (l.left, l.right));
    Ok(links)
}

/// The longest run of identical sentence pairs [`bridge_identical`] fills between two links.
pub const LONGEST_BRIDGE: u32 = 64;

/// Fills the gaps of a copy: between two links on one diagonal (b - a the same) at most
/// [`LONGEST_BRIDGE`] sentences apart, when every pair between them is identical
/// (`identical(a, b)`: the same refined words in the same order), those pairs become links too,
/// weighed by `weigh` (sorted by (left, right) again).
///
/// Each pair is judged by the words it shares, as a set; the order of a sentence's words is not
/// seen. A paragraph that a document repeats in another version (a news story and its update)
/// makes the words of its copy look like a phrase the document uses anyway (the co-occurrence
/// discount), and a copy's heading is a fragment of a word or two: so an identical copy
/// came out as passages split at every repeated paragraph and heading (an identical 500 KB
/// news text: 20 passages). Text identical on both sides, in order, between two pieces of
/// evidence on their diagonal, is the same copy: the bridge adds no evidence of its own beyond
/// its pairs' (it is chained and judged like every link) but lets the passage run through.
pub fn bridge_identical<T>(
    mut links: Vec<(Link, T)>,
    identical: &(dyn Fn(usize, usize) -> bool + Sync),
    same_part: &(dyn Fn(usize, usize) -> bool + Sync),
    weigh: &(dyn Fn(usize, usize) -> Option<(f64, f64, T)> + Sync),
) -> Vec<(Link, T)> {
    let mut by_diagonal: Vec<(i64, u32, u32)> = links
        .iter()
        .map(|(l, _)| (i64::from(l.right) - i64::from(l.left), l.left, l.right))
        .collect();
    by_diagonal.sort_unstable();
    let mut added = Vec::new();
    for pair in by_diagonal.windows(2) {
        let [(d0, a0, b0), (d1, a1, b1)] = [pair[0], pair[1]];
        let gap = a1.saturating_sub(a0);
        if d0 != d1 || gap <= 1 || gap > LONGEST_BRIDGE + 1 || !same_part(b0 as usize, b1 as usize)
        {
            continue;
        }
        let between = (1..gap).map(|k| ((a0 + k) as usize, (b0 + k) as usize));
        if between.clone().all(|(a, b)| identical(a, b)) {
            for (a, b) in between {
                if let Some((score, ln_p, found)) = weigh(a, b) {
                    let link = Link {
                        left: a as u32,
                        right: b as u32,
                        score,
                        ln_p,
                    };
                    added.push((link, found));
                }
            }
        }
    }
    if !added.is_empty() {
        links.extend(added);
        links.sort_unstable_by_key(|(l, _)| (l.left, l.right));
        links.dedup_by_key(|(l, _)| (l.left, l.right));
    }
    links
}

/// The pairs [`extend`] has looked at. Every link looks at the pairs within `reach` of it, and a
/// run of links along a copied passage looks at each pair near it several times, millions of
/// times in all for a long revision: a hash set of the pairs cost more than weighing them once
/// the set outgrew the cache. The right sentences looked at with one left sentence lie near its
/// links, so each left sentence keeps a window of 64 right positions as bits, placed around the
/// first one looked at, and only pairs outside it go to a hash set.
struct Seen {
    /// Per left sentence, where its window of right positions starts.
    start: Vec<u32>,
    /// Per left sentence, the right positions looked at within its window (bit `b - start`).
    window: Vec<u64>,
    outside: FxHashSet<(u32, u32)>,
}

impl Seen {
    fn new(left_sentences: usize) -> Seen {
        Seen {
            start: vec![0; left_sentences],
            window: vec![0; left_sentences],
            outside: FxHashSet::default(),
        }
    }

    /// Records pair (a, b); whether it was new. `a` must be below the number of left sentences.
    fn insert(&mut self, a: u32, b: u32) -> bool {
        let (start, window) = (&mut self.start[a as usize], &mut self.window[a as usize]);
        if *window == 0 {
            *start = b.saturating_sub(32);
        }
        match b.checked_sub(*start).filter(|&offset| offset < 64) {
            Some(offset) => {
                let bit = 1u64 << offset;
                let new = *window & bit == 0;
                *window |= bit;
                new
            }
            None => self.outside.insert((a, b)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seed passes the seed link bar and a pair beside a link the link bar, each its own: with
    /// every pair at ln P -6, a seed is a link under a seed link bar of 5 but a link bar of 7
    /// finds nothing around it; under a seed link bar of 7 nothing is a link.
    #[test]
    fn seeds_and_the_pairs_beside_links_pass_their_own_bars() {
        let never = AtomicBool::new(false);
        let weigh = |_: usize, _: usize| Some((1.0, -6.0, ()));
        let seed = Seed {
            left: 4,
            right: 4,
            score: 1.0,
            ln_p: -6.0,
        };
        let run = |[seed_bar, link_bar]: [f64; 2]| -> Vec<(u32, u32)> {
            extend(
                [10, 10],
                &|_, _| true,
                &weigh,
                vec![(seed, ())],
                1,
                [-seed_bar, -link_bar],
                &never,
            )
            .expect("not cancelled")
            .into_iter()
            .map(|(link, ())| (link.left, link.right))
            .collect()
        };
        assert_eq!(run([5.0, 7.0]), [(4, 4)]);
        assert!(run([7.0, 5.0]).is_empty());
        // Both bars passed: the links spread from the seed through the whole window of pairs.
        assert_eq!(run([5.0, 5.0]).len(), 100);
    }

    proptest::proptest! {
        /// The windows and the set outside them remember the pairs a hash set of them would.
        #[test]
        fn looked_at_pairs_are_remembered_as_a_set_would(
            pairs in proptest::collection::vec((0u32..20, 0u32..300), 0..400),
        ) {
            let mut seen = Seen::new(20);
            let mut set: FxHashSet<(u32, u32)> = FxHashSet::default();
            for (a, b) in pairs {
                proptest::prop_assert_eq!(seen.insert(a, b), set.insert((a, b)), "({}, {})", a, b);
            }
        }
    }
}
