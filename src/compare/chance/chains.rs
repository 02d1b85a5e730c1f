//! Chains: runs of links in the same order in both documents, and how unlikely each run is by
//! chance, pooled from its links.
//!
//! A passage is a chain of links (a_1, b_1), (a_2, b_2), ... each moving forward by 0 to `reach`
//! sentences on each side, and on at least one (staying on one side is a sentence split in two,
//! or two merged into one, as reworded text often does). Its evidence pools its links' (the sum statistic of
//! Karlin & Altschul 1993, *Applications and statistics for multiple high-scoring segments in
//! molecular sequences*, in the form of Fisher's combination of independent p-values):
//!
//! - X = sum of -ln P_i over its k links; the chance that k independent pairs are jointly at
//!   least this unlikely is P_k = exp(-X) sum_{j<k} X^j / j! (Fisher 1932);
//! - a chain can start at any of the n m pairs and each next link may lie at any of
//!   s = (reach + 1)^2 - 1 places, so E = n m s^(k-1) P_k: the expected number of chains this
//!   good by chance.
//!
//! A one-link chain's E is its pair's. A link adds to a chain only when it is more unlikely than
//! the s places it could have been found in (ln P < -ln s), so a run of weak links
//! stands where none would alone, while chance neighbours do not lengthen a passage.
//!
//! The chains are found by dynamic programming over the links in reading order (each link's best
//! chain ending there: its own -ln P, plus the best predecessor's value less ln s when that
//! is positive), then taken greedily from the best end, each link in one chain: the chaining of
//! sparse local alignments (as in MUMmer or minimap2) with BLAST's statistics.

use crate::similarity::ScoredPair;

/// One chain: indices into the links given to [`find`], in reading order, and its E-value.
#[derive(Clone, Debug, PartialEq)]
pub struct Chain {
    pub members: Vec<usize>,
    /// ln E of the chain.
    pub ln_e: f64,
}

/// ln of Fisher's combined p-value of k independent p-values whose -ln sum to `x`:
/// ln(exp(-x) sum_{j<k} x^j / j!).
pub fn ln_fisher(x: f64, k: usize) -> f64 {
    if k <= 1 || x <= 0.0 {
        return -x.max(0.0);
    }
    // Log-sum-exp of j ln x - ln j! for j < k.
    let terms: Vec<f64> = (0..k)
        .scan(0.0f64, |ln_factorial, j| {
            if j > 0 {
                *ln_factorial += (j as f64).ln();
            }
            Some(j as f64 * x.ln() - *ln_factorial)
        })
        .collect();
    let top = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = terms.iter().map(|t| (t - top).exp()).sum();
    (-x + top + sum.ln()).min(0.0)
}

/// ln of the number of places a chain's next link may lie at: 0 to `reach` sentences on, on each
/// side, but not 0 on both.
pub fn step_cost(reach: u32) -> f64 {
    let side = f64::from(reach.max(1)) + 1.0;
    (side * side - 1.0).ln()
}

/// ln E of a chain of `k` links whose -ln P sum to `x`, in a comparison of `ln_pairs` = ln(n m)
/// pairs with steps of up to `reach` sentences.
pub fn chain_ln_e(x: f64, k: usize, ln_pairs: f64, reach: u32) -> f64 {
    ln_pairs + (k.saturating_sub(1)) as f64 * step_cost(reach) + ln_fisher(x, k)
}

/// The pair's -ln P from its E-value (`chance`) in a comparison of `ln_pairs` pairs: its whole
/// evidence, whatever comes before it. (The tests build chains from pairs' E-values with it.)
#[cfg(test)]
pub fn surprise_of(pair: &ScoredPair, ln_pairs: f64) -> f64 {
    pair.e_value
        .map_or(0.0, |e| (ln_pairs - e.max(f64::MIN_POSITIVE).ln()).max(0.0))
}

/// The chains among `links` (sorted by (left, right)): every link in exactly one chain, chains
/// sorted by their first link. `surprise(i, before)` is link `i`'s evidence in nats (-ln P) as a
/// chain's first link (`None`) or after link `before` (what it adds to what that one showed;
/// [`super::surprise::LinkSurprises::surprise`]), what the chaining weighs; `whole(members)` is
/// a finished chain's evidence, what its E-value is computed from
/// ([`super::surprise::LinkSurprises::chain_surprise`]).
pub fn find(
    links: &[ScoredPair],
    ln_pairs: f64,
    reach: u32,
    surprise: impl Fn(usize, Option<usize>) -> f64,
    whole: impl Fn(&[usize]) -> f64,
) -> Vec<Chain> {
    let reach = reach.max(1);
    let step_cost = step_cost(reach);
    let mut best: Vec<f64> = (0..links.len()).map(|i| surprise(i, None)).collect();
    let mut previous: Vec<Option<usize>> = vec![None; links.len()];
    for i in 0..links.len() {
        let (a, b) = (links[i].left, links[i].right);
        let mut chosen: Option<(f64, usize)> = None;
        for da in 0..=reach {
            let Some(pa) = a.checked_sub(da) else { break };
            let low = b.saturating_sub(reach);
            // A step may stay on one side (a sentence split in two, or two merged), never on both.
            let high = if da == 0 { b } else { b + 1 };
            let start = links.partition_point(|l| (l.left, l.right) < (pa, low));
            let end = links.partition_point(|l| (l.left, l.right) < (pa, high));
            for j in start..end {
                if j == i || best[j] <= step_cost {
                    continue;
                }
                let total = best[j] - step_cost + surprise(i, Some(j));
                if total > best[i] && chosen.is_none_or(|(t, k)| total > t || (total == t && j < k))
                {
                    chosen = Some((total, j));
                }
            }
        }
        if let Some((total, j)) = chosen {
            best[i] = total;
            previous[i] = Some(j);
        }
    }
    // Take the chains from the best end down, each link once.
    let mut order: Vec<usize> = (0..links.len()).collect();
    order.sort_by(|&x, &y| best[y].total_cmp(&best[x]).then(x.cmp(&y)));
    let mut used = vec![false; links.len()];
    let mut chains = Vec::new();
    for end in order {
        if used[end] {
            continue;
        }
        let mut members = vec![end];
        used[end] = true;
        let mut at = end;
        while let Some(p) = previous[at] {
            if used[p] {
                break;
            }
            used[p] = true;
            members.push(p);
            at = p;
        }
        members.reverse();
        let x = whole(&members);
        chains.push(Chain {
            ln_e: chain_ln_e(x, members.len(), ln_pairs, reach),
            members,
        });
    }
    chains.sort_by_key(|c| c.members[0]);
    chains
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Chains with each link's whole evidence counted, whatever precedes it.
    fn find_plain(links: &[ScoredPair], ln_pairs: f64, reach: u32) -> Vec<Chain> {
        find(
            links,
            ln_pairs,
            reach,
            |i, _| surprise_of(&links[i], ln_pairs),
            |members| {
                members
                    .iter()
                    .map(|&m| surprise_of(&links[m], ln_pairs))
                    .sum()
            },
        )
    }

    fn link(left: u32, right: u32, ln_e: f64) -> ScoredPair {
        ScoredPair::scored(left, right, 0.5, 0.5).with_e_value(ln_e.exp())
    }

    #[test]
    fn fisher_matches_its_closed_form() {
        // k = 2: P = e^-x (1 + x).
        let x = 7.0f64;
        assert!((ln_fisher(x, 2) - (-x + (1.0 + x).ln())).abs() < 1e-12);
        assert_eq!(ln_fisher(3.0, 1), -3.0);
        // The combination of k p-values of 1 is 1.
        assert!(ln_fisher(0.0, 4).abs() < 1e-12);
        // Pooling never makes the whole less likely than its best part alone.
        assert!(ln_fisher(20.0, 3) >= -20.0);
    }

    #[test]
    fn a_run_of_weak_links_pools_into_one_strong_chain() {
        // n m = e^10; each link alone has E = e^2 (not significant), P = e^-8.
        let ln_pairs = 10.0;
        let links: Vec<ScoredPair> = (0..6).map(|i| link(10 + i, 40 + i, 2.0)).collect();
        let chains = find_plain(&links, ln_pairs, 3);
        assert_eq!(chains.len(), 1);
        assert_eq!(chains[0].members, vec![0, 1, 2, 3, 4, 5]);
        assert!(chains[0].ln_e < -5.0, "{}", chains[0].ln_e);
    }

    #[test]
    fn a_sentence_split_in_two_stays_in_its_chain() {
        // B 7 and B 8 are A 4 split in two.
        let links = vec![
            link(3, 6, -5.0),
            link(4, 7, -5.0),
            link(4, 8, -5.0),
            link(5, 9, -5.0),
        ];
        let chains = find_plain(&links, 10.0, 1);
        assert_eq!(chains.len(), 1);
        assert_eq!(chains[0].members, vec![0, 1, 2, 3]);
    }

    #[test]
    fn evidence_shared_with_the_link_before_does_not_count_again() {
        // Ten sentences of A each share the same words with one heading of B: alone each is
        // weak (E = e^3); counted again and again they would pool into a strong chain.
        let ln_pairs = 12.0;
        let links: Vec<ScoredPair> = (0..10).map(|i| link(i, 5, 3.0)).collect();
        let pooled = find_plain(&links, ln_pairs, 1);
        assert!(pooled.iter().any(|c| c.ln_e < 0.0));
        let once = find(
            &links,
            ln_pairs,
            1,
            |i, before| match before {
                None => surprise_of(&links[i], ln_pairs),
                Some(_) => 0.0,
            },
            |members| surprise_of(&links[members[0]], ln_pairs),
        );
        assert!(once.iter().all(|c| c.ln_e >= 3.0 - 1e-9), "{once:?}");
    }

    #[test]
    fn a_backward_step_or_a_far_one_starts_a_new_chain() {
        let ln_pairs = 10.0;
        let links = vec![
            link(1, 10, -5.0),
            link(2, 9, -5.0),  // backwards on B
            link(9, 19, -5.0), // too far on A for reach 3
            link(9, 19, -5.0), // the same place twice is no step
        ];
        assert_eq!(find_plain(&links, ln_pairs, 3).len(), 4);
    }

    #[test]
    fn a_link_likelier_than_its_search_window_does_not_join() {
        // reach 3: a step must beat ln 15 = 2.7 nats. The second link has -ln P = 1 (E = e^9).
        let ln_pairs = 10.0;
        let links = vec![link(1, 1, -5.0), link(2, 2, 9.0)];
        let chains = find_plain(&links, ln_pairs, 3);
        assert_eq!(chains.len(), 2);
        assert!((chains[0].ln_e - -5.0).abs() < 1e-9);
    }

    #[test]
    fn each_link_is_in_exactly_one_chain() {
        let ln_pairs = 12.0;
        let mut links = Vec::new();
        for a in 0..15u32 {
            for b in 0..15u32 {
                if (a * 7 + b * 3) % 5 == 0 {
                    links.push(link(a, b, -f64::from((a + b) % 7)));
                }
            }
        }
        let chains = find_plain(&links, ln_pairs, 2);
        let mut seen = vec![0; links.len()];
        for chain in &chains {
            for w in chain.members.windows(2) {
                let (p, q) = (&links[w[0]], &links[w[1]]);
                assert!(q.left >= p.left && q.left - p.left <= 2);
                assert!(q.right >= p.right && q.right - p.right <= 2);
                assert!((q.left, q.right) != (p.left, p.right));
            }
            for &m in &chain.members {
                seen[m] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 1));
    }
}
