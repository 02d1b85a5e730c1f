//! Tree matching (thesis 4.3, Fig. 4.4): which nodes of the two semantic hierarchies share
//! sentences, and how much of each node is matched ("shaded").
//!
//! The thesis's Tree_Matching/Node_Comparison walk compares every node of one tree with every node
//! of the other, sentence by sentence, and claims n log n. simdoc computes the sentence matches once
//! (the comparison) and aggregates them to node pairs here, in time linear in the matches and nodes.
//! Its Graphical_Display shades node M by Cnt / |M.SPos|: the share of M's sentences that match.
//! simdoc gives that share over the node's own sentences and, as a second figure, over its whole
//! subtree (a section is shaded by all its paragraphs).

use serde::Serialize;

use crate::document::{Document, NodeId};
use crate::similarity::ScoredPair;

/// How one node of one hierarchy meets the other hierarchy.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct NodeMatch {
    /// Own sentences taking part in the comparison.
    pub own: u32,
    /// Of those, how many have at least one match.
    pub matched_own: u32,
    /// Sentences of the whole subtree taking part.
    pub subtree: u32,
    /// Of those, how many have at least one match.
    pub matched_subtree: u32,
    /// Nodes of the other hierarchy this node's own sentences match, with how many of its own
    /// sentences match into each; sorted by node id.
    pub partners: Vec<(NodeId, u32)>,
}

impl NodeMatch {
    /// Matched share of the node's own sentences (0 for a node without any).
    pub fn shaded(&self) -> f64 {
        crate::compare::figures::ratio(self.matched_own as usize, self.own as usize)
    }

    /// Matched share of the subtree's sentences.
    pub fn subtree_shaded(&self) -> f64 {
        crate::compare::figures::ratio(self.matched_subtree as usize, self.subtree as usize)
    }
}

/// An edge between matched nodes, weighted by the matched sentence pairs between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct NodeEdge {
    pub left: NodeId,
    pub right: NodeId,
    pub pairs: u32,
}

/// The node-level view of a comparison.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TreeMatching {
    /// One entry per node of the left document.
    pub left: Vec<NodeMatch>,
    /// One entry per node of the right document.
    pub right: Vec<NodeMatch>,
    /// Node pairs sharing matched sentences, sorted by (left, right).
    pub edges: Vec<NodeEdge>,
}

/// Aggregates sentence matches to the two hierarchies. `active` says which sentences take part
/// (per document, indexed by sentence position); `pairs` are the matches.
///
/// Linear in the matches and the nodes: pairs are taken in left-sentence order (sorted here if
/// they are not), so the pairs of one left node come together (sentence positions follow the
/// node order), and per-right-node and per-right-sentence counters are plain arrays stamped with
/// the current left node instead of hash maps.
pub fn match_trees<'a>(
    left: &Document,
    right: &Document,
    active: [&[bool]; 2],
    pairs: impl Iterator<Item = &'a ScoredPair>,
) -> TreeMatching {
    let mut pairs: Vec<&ScoredPair> = pairs
        .filter(|p| {
            (p.left as usize) < left.sentences.len() && (p.right as usize) < right.sentences.len()
        })
        .collect();
    if !pairs.is_sorted_by_key(|p| (p.left, p.right)) {
        pairs.sort_unstable_by_key(|p| (p.left, p.right));
    }
    let mut matched = [
        vec![false; left.sentences.len()],
        vec![false; right.sentences.len()],
    ];
    for p in &pairs {
        matched[0][p.left as usize] = true;
        matched[1][p.right as usize] = true;
    }
    let mut result = TreeMatching {
        left: node_shares(left, active[0], &matched[0]),
        right: node_shares(right, active[1], &matched[1]),
        edges: Vec::new(),
    };

    // Per right node, for the current left node: pairs, distinct left and right sentences.
    const UNSEEN: usize = usize::MAX;
    let mut stamp = vec![UNSEEN; right.nodes.len()];
    let mut counts = vec![(0u32, 0u32, 0u32); right.nodes.len()];
    let mut last_left = vec![u32::MAX; right.nodes.len()];
    let mut right_seen = vec![UNSEEN; right.sentences.len()];
    let mut touched: Vec<NodeId> = Vec::new();
    let flush = |ln: NodeId,
                 touched: &mut Vec<NodeId>,
                 counts: &[(u32, u32, u32)],
                 result: &mut TreeMatching| {
        touched.sort_unstable();
        for &rn in touched.iter() {
            let (pairs, left_sentences, right_sentences) = counts[rn];
            result.edges.push(NodeEdge {
                left: ln,
                right: rn,
                pairs,
            });
            result.left[ln].partners.push((rn, left_sentences));
            result.right[rn].partners.push((ln, right_sentences));
        }
        touched.clear();
    };
    let mut current: Option<NodeId> = None;
    for p in pairs {
        let ln = left.sentences[p.left as usize].node;
        let rn = right.sentences[p.right as usize].node;
        if current != Some(ln) {
            if let Some(previous) = current {
                flush(previous, &mut touched, &counts, &mut result);
            }
            current = Some(ln);
        }
        if stamp[rn] != ln {
            stamp[rn] = ln;
            counts[rn] = (0, 0, 0);
            last_left[rn] = u32::MAX;
            touched.push(rn);
        }
        let entry = &mut counts[rn];
        entry.0 += 1;
        if last_left[rn] != p.left {
            last_left[rn] = p.left;
            entry.1 += 1;
        }
        if right_seen[p.right as usize] != ln {
            right_seen[p.right as usize] = ln;
            entry.2 += 1;
        }
    }
    if let Some(previous) = current {
        flush(previous, &mut touched, &counts, &mut result);
    }
    result
}

fn node_shares(doc: &Document, active: &[bool], matched: &[bool]) -> Vec<NodeMatch> {
    let mut shares = vec![NodeMatch::default(); doc.nodes.len()];
    for (position, sentence) in doc.sentences.iter().enumerate() {
        if active.get(position).copied().unwrap_or(false) {
            let share = &mut shares[sentence.node];
            share.own += 1;
            share.matched_own += u32::from(matched[position]);
        }
    }
    for share in &mut shares {
        share.subtree = share.own;
        share.matched_subtree = share.matched_own;
    }
    // Node ids are in pre-order: a reverse sweep adds each subtree to its parent after the
    // subtree itself is complete.
    for id in (1..doc.nodes.len()).rev() {
        if let Some(parent) = doc.nodes[id].parent {
            let (subtree, matched_subtree) = (shares[id].subtree, shares[id].matched_subtree);
            shares[parent].subtree += subtree;
            shares[parent].matched_subtree += matched_subtree;
        }
    }
    shares
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::{SourceFormat, parse_text};

    fn pair(left: u32, right: u32) -> ScoredPair {
        ScoredPair::new(left, right, [1.0, 1.0], true)
    }

    /// Thesis Fig. 4.4 in miniature: a node whose 1 of 3 sentences matches is 33% shaded; one
    /// whose 3 of 4 match (into two different nodes) is 75% shaded.
    #[test]
    fn shading_partners_and_edges() {
        let left = parse_text(
            "# A\n\nOne. Two. Three.\n\n# B\n\nFour. Five. Six. Seven.\n",
            "l.txt",
            SourceFormat::Text,
        );
        let right = parse_text("P one.\n\nQ one. Q two.\n", "r.txt", SourceFormat::Text);
        // Left: 0 "A", 1-3 in node 2, 4 "B", 5-8 in node 4.
        let texts: Vec<&str> = left.sentences.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "A", "One.", "Two.", "Three.", "B", "Four.", "Five.", "Six.", "Seven."
            ]
        );
        let node_of = |i: usize| left.sentences[i].node;
        let pairs = [pair(1, 0), pair(5, 1), pair(6, 2), pair(7, 2), pair(7, 1)];
        let active_l = vec![true; left.sentences.len()];
        let active_r = vec![true; right.sentences.len()];
        let m = match_trees(&left, &right, [&active_l, &active_r], pairs.iter());

        let first = &m.left[node_of(1)];
        assert_eq!((first.own, first.matched_own), (3, 1));
        assert!((first.shaded() - 1.0 / 3.0).abs() < 1e-12);
        let second = &m.left[node_of(5)];
        assert_eq!((second.own, second.matched_own), (4, 3));
        assert_eq!(second.shaded(), 0.75);
        // The root's subtree: 4 of 9 sentences matched.
        assert_eq!((m.left[0].subtree, m.left[0].matched_subtree), (9, 4));

        let (p, q) = (right.sentences[0].node, right.sentences[1].node);
        // Node of "Four. .. Seven." matches P? No: Q holds sentences 1 and 2. Sentences 5, 6, 7
        // match into Q (7 twice), so 3 distinct sentences; "One." matches into P.
        assert_eq!(second.partners, vec![(q, 3)]);
        assert_eq!(first.partners, vec![(p, 1)]);
        // Q's own sentences: 1 matches 5 and 7, 2 matches 6 and 7: both sentences of Q.
        assert_eq!(m.right[q].partners, vec![(node_of(5), 2)]);
        assert_eq!(
            m.edges,
            vec![
                NodeEdge {
                    left: node_of(1),
                    right: p,
                    pairs: 1
                },
                NodeEdge {
                    left: node_of(5),
                    right: q,
                    pairs: 4
                },
            ]
        );
    }

    #[test]
    fn inactive_sentences_do_not_count() {
        let doc = parse_text("One. Two.\n", "d.txt", SourceFormat::Text);
        let m = match_trees(
            &doc,
            &doc,
            [&[true, false], &[true, true]],
            [pair(0, 0)].iter(),
        );
        assert_eq!((m.left[0].own, m.left[0].matched_own), (1, 1));
        assert_eq!((m.right[0].own, m.right[0].matched_own), (2, 1));
    }
}
