//! The figures that sum up a comparison: degree of overlap (thesis eq. 3.5), degree of
//! resemblance (eq. 4.1) and odds ratio (eq. 4.2-4.3).
//!
//! - *Overlap* divides "the number of common sentences" by each document's sentence count. With
//!   similar (not identical) sentences one sentence may match several; simdoc counts common
//!   sentences as a maximum one-to-one matching between the two documents' sentences
//!   (Hopcroft-Karp), which is what the thesis's single count of common sentences means when
//!   matches are one-to-one (Example 3: 12 common sentences in 32 and 21 -> 0.38 and 0.57).
//! - *Resemblance* RS(doc1, doc2) of eq. 4.1 sums EQ over all sentence pairs, which double-counts a
//!   sentence matching several others and can exceed 1; simdoc counts the sentences of doc1 that
//!   have at least one match, so RS is in [0, 1] (see ../DESIGN.md).
//! - *Odds ratio* p / (1 - p) with p = RS(doc1, doc2) x RS(doc2, doc1) (Dempster's rule); 100 stands
//!   for infinity when p = 1, as in the thesis, and caps larger values.
//!
//! A document's sentence count is the number of sentences that take part: not boilerplate (unless
//! included) and with at least one refined term (a sentence of stopwords only, like "Why not?", is
//! not a sentence the matchers can compare). Empty documents give 0, never NaN.

use serde::Serialize;

/// The odds ratio the thesis assigns to "infinity" (p = 1), and the cap for larger values.
pub const ODDS_RATIO_INFINITY: f64 = 100.0;

/// A comparison's summary figures, both ways where they have a direction.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Figures {
    /// Sentences taking part in each document.
    pub sentences: [usize; 2],
    /// Sentences of each document with at least one match.
    pub matched: [usize; 2],
    /// Common sentences: the size of a maximum one-to-one matching.
    pub common: usize,
    /// Degree of overlap (eq. 3.5): common / sentences, per document.
    pub overlap: [f64; 2],
    /// Degree of resemblance (eq. 4.1, counting matched sentences): matched / sentences.
    pub resemblance: [f64; 2],
    /// Odds ratio (eq. 4.3) of the two resemblances.
    pub odds_ratio: f64,
    /// Containment, [A in B, B in A]: the mean over a document's sentences of each sentence's
    /// best directional Sim into the other document (counting those at or above the permission
    /// threshold, else 0). A graded "share of the text found in the other": a reworded sentence
    /// counts with its Sim, not all or nothing as in the resemblance. Not in the thesis.
    pub containment: [f64; 2],
    /// Number of matched sentence pairs.
    pub pairs: usize,
}

impl Figures {
    /// The figures from the counts they derive from: overlap (eq. 3.5), resemblance (eq. 4.1)
    /// and the odds ratio (eq. 4.3) follow from the sentences, matched and common counts. The
    /// one place both the class-level and the pair-by-pair counting end in.
    pub fn from_counts(
        sentences: [usize; 2],
        matched: [usize; 2],
        common: usize,
        containment: [f64; 2],
        pairs: usize,
    ) -> Figures {
        let resemblance = [
            ratio(matched[0], sentences[0]),
            ratio(matched[1], sentences[1]),
        ];
        Figures {
            sentences,
            matched,
            common,
            overlap: overlap(common, sentences),
            resemblance,
            odds_ratio: odds_ratio(resemblance[0], resemblance[1]),
            containment,
            pairs,
        }
    }

    /// The figures of the same comparison with the documents swapped.
    pub fn swapped(&self) -> Figures {
        Figures {
            sentences: [self.sentences[1], self.sentences[0]],
            matched: [self.matched[1], self.matched[0]],
            overlap: [self.overlap[1], self.overlap[0]],
            resemblance: [self.resemblance[1], self.resemblance[0]],
            containment: [self.containment[1], self.containment[0]],
            ..*self
        }
    }
}

/// `part / whole`, 0 for an empty whole.
pub fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// `sum / count`, 0 for no count (a mean over no sentences).
pub fn ratio_f64(sum: f64, count: usize) -> f64 {
    if count == 0 { 0.0 } else { sum / count as f64 }
}

/// Degree of overlap, eq. 3.5: (common / |doc1|, common / |doc2|).
pub fn overlap(common: usize, sentences: [usize; 2]) -> [f64; 2] {
    [ratio(common, sentences[0]), ratio(common, sentences[1])]
}

/// Odds ratio of two degrees of resemblance, eq. 4.3 (100 for p = 1 and above).
pub fn odds_ratio(rs_12: f64, rs_21: f64) -> f64 {
    let p = rs_12 * rs_21;
    if !p.is_finite() || p <= 0.0 {
        return 0.0;
    }
    if p >= 1.0 {
        return ODDS_RATIO_INFINITY;
    }
    (p / (1.0 - p)).min(ODDS_RATIO_INFINITY)
}

/// The size of a maximum matching in the bipartite graph whose edges are `pairs` (left, right),
/// by Hopcroft-Karp, O(E sqrt(V)). Iterative, so no recursion depth limit.
pub fn maximum_matching(pairs: &[(u32, u32)], left_count: usize, right_count: usize) -> usize {
    const FREE: u32 = u32::MAX;
    const UNSEEN: u32 = u32::MAX;
    // Adjacency in CSR form, only over left vertices that have edges.
    let mut degree = vec![0u32; left_count + 1];
    for &(l, r) in pairs {
        if (l as usize) < left_count && (r as usize) < right_count {
            degree[l as usize + 1] += 1;
        }
    }
    for i in 0..left_count {
        degree[i + 1] += degree[i];
    }
    let start = degree;
    let mut fill = start.clone();
    let mut adjacency = vec![0u32; start[left_count] as usize];
    for &(l, r) in pairs {
        if (l as usize) < left_count && (r as usize) < right_count {
            adjacency[fill[l as usize] as usize] = r;
            fill[l as usize] += 1;
        }
    }
    let lefts: Vec<u32> = (0..left_count as u32)
        .filter(|&u| start[u as usize] < start[u as usize + 1])
        .collect();

    let mut pair_left = vec![FREE; left_count];
    let mut pair_right = vec![FREE; right_count];
    let mut dist = vec![UNSEEN; left_count];
    let mut next_edge = vec![0u32; left_count];
    let mut queue = Vec::with_capacity(lefts.len());
    let mut stack: Vec<u32> = Vec::new();
    let mut matching = 0usize;

    // Greedy start: match each left vertex to its first free right vertex.
    for &u in &lefts {
        for e in start[u as usize]..start[u as usize + 1] {
            let v = adjacency[e as usize];
            if pair_right[v as usize] == FREE {
                pair_right[v as usize] = u;
                pair_left[u as usize] = v;
                matching += 1;
                break;
            }
        }
    }

    loop {
        // BFS layers from the free left vertices.
        queue.clear();
        for &u in &lefts {
            if pair_left[u as usize] == FREE {
                dist[u as usize] = 0;
                queue.push(u);
            } else {
                dist[u as usize] = UNSEEN;
            }
        }
        let mut found_free = false;
        let mut head = 0;
        while head < queue.len() {
            let u = queue[head];
            head += 1;
            for e in start[u as usize]..start[u as usize + 1] {
                let w = pair_right[adjacency[e as usize] as usize];
                if w == FREE {
                    found_free = true;
                } else if dist[w as usize] == UNSEEN {
                    dist[w as usize] = dist[u as usize] + 1;
                    queue.push(w);
                }
            }
        }
        if !found_free {
            return matching;
        }
        // DFS along the layers for vertex-disjoint shortest augmenting paths.
        for &u in &lefts {
            next_edge[u as usize] = start[u as usize];
        }
        for &root in &lefts {
            if pair_left[root as usize] != FREE {
                continue;
            }
            stack.clear();
            stack.push(root);
            while let Some(&u) = stack.last() {
                let e = next_edge[u as usize];
                if e >= start[u as usize + 1] {
                    // Dead end: never try u again this phase; the parent moves on.
                    dist[u as usize] = UNSEEN;
                    stack.pop();
                    if let Some(&parent) = stack.last() {
                        next_edge[parent as usize] += 1;
                    }
                    continue;
                }
                let v = adjacency[e as usize];
                let w = pair_right[v as usize];
                if w == FREE {
                    // Augment along the stack: each vertex takes the edge it stands on.
                    for &x in stack.iter().rev() {
                        let vx = adjacency[next_edge[x as usize] as usize];
                        pair_left[x as usize] = vx;
                        pair_right[vx as usize] = x;
                    }
                    matching += 1;
                    break;
                }
                if dist[w as usize] != UNSEEN && dist[w as usize] == dist[u as usize] + 1 {
                    stack.push(w);
                } else {
                    next_edge[u as usize] += 1;
                }
            }
        }
    }
}

/// The maximum flow from left to right vertices through `edges` (uncapacitated), where left
/// vertex `l` can send at most `left_capacity[l]` and right vertex `r` take at most
/// `right_capacity[r]`. With repetition classes as vertices and class sizes as capacities, this
/// is the size of a maximum one-to-one matching between the classes' sentences (each sentence
/// is matched once, any member of a class can take any of its class pairs), computed without
/// listing the sentence pairs. Dinic's algorithm, with an explicit stack (no recursion); with
/// every capacity at most 1 it is [`maximum_matching`].
pub fn maximum_flow(left_capacity: &[u64], right_capacity: &[u64], edges: &[(u32, u32)]) -> u64 {
    let (nl, nr) = (left_capacity.len(), right_capacity.len());
    let edges: Vec<(u32, u32)> = edges
        .iter()
        .copied()
        .filter(|&(l, r)| {
            left_capacity.get(l as usize).is_some_and(|&c| c > 0)
                && right_capacity.get(r as usize).is_some_and(|&c| c > 0)
        })
        .collect();
    if left_capacity.iter().chain(right_capacity).all(|&c| c <= 1) {
        return maximum_matching(&edges, nl, nr) as u64;
    }
    let mut network = FlowNetwork::new(nl + nr + 2);
    let (source, sink) = (0, nl + nr + 1);
    let total: u64 = left_capacity.iter().sum();
    for (l, &c) in left_capacity.iter().enumerate() {
        if c > 0 {
            network.add(source, 1 + l, c);
        }
    }
    for (r, &c) in right_capacity.iter().enumerate() {
        if c > 0 {
            network.add(1 + nl + r, sink, c);
        }
    }
    for &(l, r) in &edges {
        network.add(1 + l as usize, 1 + nl + r as usize, total);
    }
    network.max_flow(source, sink)
}

/// A flow network in adjacency-array form for [`maximum_flow`].
struct FlowNetwork {
    /// Per vertex, the indices of its edges in `to` / `capacity`.
    adjacency: Vec<Vec<u32>>,
    to: Vec<u32>,
    capacity: Vec<u64>,
}

impl FlowNetwork {
    fn new(vertices: usize) -> Self {
        FlowNetwork {
            adjacency: vec![Vec::new(); vertices],
            to: Vec::new(),
            capacity: Vec::new(),
        }
    }

    /// An edge and its residual twin (at index `e ^ 1`).
    fn add(&mut self, from: usize, to: usize, capacity: u64) {
        let e = self.to.len() as u32;
        self.adjacency[from].push(e);
        self.to.push(to as u32);
        self.capacity.push(capacity);
        self.adjacency[to].push(e + 1);
        self.to.push(from as u32);
        self.capacity.push(0);
    }

    fn max_flow(&mut self, source: usize, sink: usize) -> u64 {
        const UNSEEN: u32 = u32::MAX;
        let n = self.adjacency.len();
        let mut level = vec![UNSEEN; n];
        let mut next = vec![0usize; n];
        let mut queue = Vec::with_capacity(n);
        let mut path: Vec<u32> = Vec::new();
        let mut flow = 0u64;
        loop {
            level.fill(UNSEEN);
            level[source] = 0;
            queue.clear();
            queue.push(source as u32);
            let mut head = 0;
            while head < queue.len() {
                let v = queue[head] as usize;
                head += 1;
                for &e in &self.adjacency[v] {
                    let w = self.to[e as usize] as usize;
                    if self.capacity[e as usize] > 0 && level[w] == UNSEEN {
                        level[w] = level[v] + 1;
                        queue.push(w as u32);
                    }
                }
            }
            if level[sink] == UNSEEN {
                return flow;
            }
            next.fill(0);
            // Blocking flow: walk down the levels along edges with capacity left, one path at
            // a time (`path` holds its edges); retreat from dead ends.
            loop {
                let v = path
                    .last()
                    .map_or(source, |&e| self.to[e as usize] as usize);
                if v == sink {
                    let pushed = path
                        .iter()
                        .map(|&e| self.capacity[e as usize])
                        .min()
                        .unwrap_or(0);
                    for &e in &path {
                        self.capacity[e as usize] -= pushed;
                        self.capacity[(e ^ 1) as usize] += pushed;
                    }
                    flow += pushed;
                    // Back up to the tail of the first saturated edge.
                    let cut = path
                        .iter()
                        .position(|&e| self.capacity[e as usize] == 0)
                        .unwrap_or(0);
                    path.truncate(cut);
                    continue;
                }
                let mut advanced = false;
                while next[v] < self.adjacency[v].len() {
                    let e = self.adjacency[v][next[v]];
                    let w = self.to[e as usize] as usize;
                    if self.capacity[e as usize] > 0 && level[w] == level[v] + 1 {
                        path.push(e);
                        advanced = true;
                        break;
                    }
                    next[v] += 1;
                }
                if advanced {
                    continue;
                }
                // Dead end: nothing more goes through v in this phase.
                level[v] = UNSEEN;
                match path.pop() {
                    Some(e) => {
                        let tail = self.to[(e ^ 1) as usize] as usize;
                        next[tail] += 1;
                    }
                    None => break,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(x: f64, digits: i32) -> f64 {
        let f = 10f64.powi(digits);
        (x * f).round() / f
    }

    /// Thesis Example 3: 12 common sentences in documents of 32 and 21 sentences.
    #[test]
    fn thesis_example_3_overlap() {
        let [a, b] = overlap(12, [32, 21]);
        assert_eq!((round(a, 2), round(b, 2)), (0.38, 0.57));
    }

    /// Thesis 4.2: resemblances 0.9 and 0.9 give 4.26; 0.1 and 0.9 give 0.098.
    #[test]
    fn thesis_odds_ratios() {
        assert_eq!(round(odds_ratio(0.9, 0.9), 2), 4.26);
        assert_eq!(round(odds_ratio(0.1, 0.9), 3), 0.099);
        // The thesis prints 0.098: 0.09 / 0.91 = 0.0989..., which it truncated.
        assert!((odds_ratio(0.1, 0.9) - 0.09 / 0.91).abs() < 1e-12);
        assert_eq!(odds_ratio(1.0, 1.0), ODDS_RATIO_INFINITY);
        assert_eq!(odds_ratio(0.999, 0.999), ODDS_RATIO_INFINITY);
        assert_eq!(odds_ratio(0.0, 0.9), 0.0);
        assert_eq!(odds_ratio(f64::NAN, 0.5), 0.0);
    }

    #[test]
    fn empty_documents_give_zero() {
        assert_eq!(overlap(0, [0, 0]), [0.0, 0.0]);
        assert_eq!(ratio(3, 0), 0.0);
    }

    #[test]
    fn maximum_matching_finds_augmenting_paths() {
        // Greedy would match 0-0 and leave 1 unmatched; the maximum is 2 (0-1, 1-0).
        assert_eq!(maximum_matching(&[(0, 0), (0, 1), (1, 0)], 2, 2), 2);
        // Star: many lefts to one right.
        assert_eq!(maximum_matching(&[(0, 0), (1, 0), (2, 0)], 3, 1), 1);
        assert_eq!(maximum_matching(&[], 5, 5), 0);
        // Out-of-range edges are ignored rather than panicking.
        assert_eq!(maximum_matching(&[(9, 0), (0, 9)], 2, 2), 0);
    }

    /// Left i links to right i and i+1; greedy takes every i-i, leaving the extra left vertex
    /// (linked to right 0 only) free. The one augmenting path runs through the whole chain to
    /// right n, so the search must not recurse.
    #[test]
    fn maximum_matching_long_augmenting_path_does_not_overflow() {
        let n = 200_000u32;
        let mut edges = Vec::new();
        for i in 0..n {
            edges.push((i, i));
            edges.push((i, i + 1));
        }
        edges.push((n, 0));
        let size = maximum_matching(&edges, n as usize + 1, n as usize + 1);
        assert_eq!(size, n as usize + 1);
    }

    /// Compares with an exhaustive search on small random graphs.
    #[test]
    fn maximum_matching_agrees_with_exhaustive_search() {
        fn exhaustive(edges: &[(u32, u32)], used_r: &mut Vec<bool>, l: u32, nl: u32) -> usize {
            if l == nl {
                return 0;
            }
            let mut best = exhaustive(edges, used_r, l + 1, nl);
            for &(a, b) in edges {
                if a == l && !used_r[b as usize] {
                    used_r[b as usize] = true;
                    best = best.max(1 + exhaustive(edges, used_r, l + 1, nl));
                    used_r[b as usize] = false;
                }
            }
            best
        }
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u32
        };
        for _ in 0..300 {
            let (nl, nr) = (next() % 6 + 1, next() % 6 + 1);
            let m = next() % 12;
            let edges: Vec<(u32, u32)> = (0..m).map(|_| (next() % nl, next() % nr)).collect();
            let expected = exhaustive(&edges, &mut vec![false; nr as usize], 0, nl);
            assert_eq!(
                maximum_matching(&edges, nl as usize, nr as usize),
                expected,
                "{edges:?}"
            );
        }
    }

    /// Classes as capacitated vertices give the maximum matching of their expanded sentences.
    #[test]
    fn maximum_flow_equals_the_matching_of_the_expanded_classes() {
        let mut seed = 987654321u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u32
        };
        for _ in 0..300 {
            let (nl, nr) = (next() % 5 + 1, next() % 5 + 1);
            let left: Vec<u64> = (0..nl).map(|_| u64::from(next() % 4)).collect();
            let right: Vec<u64> = (0..nr).map(|_| u64::from(next() % 4)).collect();
            let edges: Vec<(u32, u32)> = (0..next() % 10)
                .map(|_| (next() % nl, next() % nr))
                .collect();
            // Expand: class c's members are consecutive sentence ids.
            let starts = |caps: &[u64]| -> Vec<u32> {
                caps.iter()
                    .scan(0u32, |at, &c| {
                        let s = *at;
                        *at += c as u32;
                        Some(s)
                    })
                    .collect()
            };
            let (ls, rs) = (starts(&left), starts(&right));
            let mut expanded = Vec::new();
            for &(l, r) in &edges {
                for a in 0..left[l as usize] as u32 {
                    for b in 0..right[r as usize] as u32 {
                        expanded.push((ls[l as usize] + a, rs[r as usize] + b));
                    }
                }
            }
            let total_l = left.iter().sum::<u64>() as usize;
            let total_r = right.iter().sum::<u64>() as usize;
            assert_eq!(
                maximum_flow(&left, &right, &edges),
                maximum_matching(&expanded, total_l, total_r) as u64,
                "{left:?} {right:?} {edges:?}"
            );
        }
        // 100,000 copies on each side of one class pair: no sentence pair is listed.
        assert_eq!(
            maximum_flow(&[100_000], &[60_000, 50_000], &[(0, 0), (0, 1)]),
            100_000
        );
    }
}
