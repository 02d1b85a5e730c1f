//! CoDet: sentence-based containment detection with the corpus tree (Varol, Can, Aykanat, Kaya,
//! CIKM 2011; /work/shared/papers/000_3d68e4424a5a67a6.txt, sect. 3).
//!
//! Containment similarity (eq. 1-2): `CS(d_C, d_A) = Σ_{s_i∈S_C} Σ_{s_j∈S_A} cs(s_i, s_j)` with
//! `cs(s_i, s_j) = Σ_{k=1}^{len} k · idf(w_k)` over the longest common word prefix of the two
//! sentences. The corpus tree computes it while inserting: every sentence's words (sorted by idf,
//! descending) are walked from a virtual root; revisiting a node at depth k labelled w adds
//! `k · idf(w)` to the similarity of the new document with each document already in the node's
//! list. "`d_C` contains `d_A`" when `CS(d_A, d_C) / SCS(d_A)` exceeds the equivalency threshold
//! ETL (sect. 3.2). Parameters: depth threshold DT and processed suffix count PSC (sect. 5.1),
//! word sorting WS (Fig. 4-5), a time window (sect. 3.3).
//!
//! Choices where the paper is silent:
//! - A node's document list holds one entry per visit (stored as document and count, since a
//!   document's visits are consecutive), so a document whose sentences pass a node `n_A` times
//!   adds `n_A · n_C` times the node's impact: eq. 1's double sum, literally.
//! - Self-containment SCS(d) is eq. 1 with `d_C = d_A` (every ordered sentence pair of d,
//!   itself included), so an exact copy has `CS / SCS = 1` exactly.
//! - Both directions of a pair are decided once the later document is inserted (its SCS is
//!   then complete); CS is symmetric, only the SCS it is divided by differs.
//! - Equal idf values are ordered by the term's text ([`Collection::idf_rank`]); repeated
//!   words of a sentence are kept.
//! - ETL has no default in the paper ("different ETL values are tested"); the default 0.6 was
//!   chosen on the BBC summaries mixed into the articles (EVALUATION.md, "Collection
//!   detectors": recall at 1 0.931, precision 0.862; 0.5 gives 0.932 and 0.812).
//! - The time window counts documents: when document `i` arrives, document `i - window` and its
//!   nodes leave the tree (the stream has no timestamps).

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use super::prepare::TermId;
use super::{Cancelled, Collection, DetectedPair, Detection, DocId, Job, Relation};

/// CoDet's parameters, named as in the paper.
#[derive(Clone, Debug, PartialEq)]
pub struct CoDetParams {
    /// DT: how many words of each (sorted) sentence are inserted (sect. 5.1; best at 5).
    pub depth_threshold: usize,
    /// PSC: how many suffixes of each sentence are inserted (1 = the sentence only).
    pub processed_suffix_count: usize,
    /// ETL: "d_C contains d_A" when CS(d_A, d_C) / SCS(d_A) exceeds it.
    pub equivalency_threshold: f64,
    /// WS: sort each sentence's words by idf, descending, before inserting (Fig. 4 vs 5).
    pub word_sorting: bool,
    /// Keep only the latest this many documents in the tree (None: all).
    pub time_window: Option<usize>,
}

impl Default for CoDetParams {
    fn default() -> Self {
        CoDetParams {
            depth_threshold: 5,
            processed_suffix_count: 1,
            equivalency_threshold: 0.6,
            word_sorting: true,
            time_window: None,
        }
    }
}

type NodeId = u32;
const ROOT: NodeId = 0;

#[derive(Clone, Debug, Default)]
struct Node {
    term: TermId,
    depth: u32,
    parent: NodeId,
    /// Visiting documents in arrival order, with how many of their sentences passed here.
    visits: VecDeque<(u32, u32)>,
}

/// The corpus tree (sect. 3.2) with the containment similarities it produces.
pub struct CorpusTree<'c> {
    collection: &'c Collection,
    params: CoDetParams,
    idf: Vec<f64>,
    rank: Vec<u32>,
    nodes: Vec<Node>,
    free: Vec<NodeId>,
    children: FxHashMap<(NodeId, TermId), NodeId>,
    /// SCS of every inserted document.
    self_similarity: Vec<f64>,
    /// Nodes each document in the window visited, in visit order (parents before children).
    window: VecDeque<(u32, Vec<NodeId>)>,
}

/// What inserting one document produced.
#[derive(Clone, Debug, PartialEq)]
pub struct Insertion {
    /// SCS of the inserted document.
    pub self_similarity: f64,
    /// CS of the inserted document with each earlier document it shares a node with, by id.
    pub similarities: Vec<(DocId, f64)>,
}

impl<'c> CorpusTree<'c> {
    pub fn new(collection: &'c Collection, params: CoDetParams) -> Self {
        let idf = (0..collection.vocabulary.len())
            .map(|t| collection.frequencies.idf_plus_one(t as TermId))
            .collect();
        let rank = if params.word_sorting {
            collection.idf_rank()
        } else {
            Vec::new()
        };
        CorpusTree {
            collection,
            params,
            idf,
            rank,
            nodes: vec![Node::default()],
            free: Vec::new(),
            children: FxHashMap::default(),
            self_similarity: Vec::new(),
            window: VecDeque::new(),
        }
    }

    /// Number of live nodes, the virtual root included.
    pub fn node_count(&self) -> usize {
        self.nodes.len() - self.free.len()
    }

    /// SCS of an inserted document.
    pub fn self_similarity(&self, doc: DocId) -> f64 {
        self.self_similarity.get(doc).copied().unwrap_or(0.0)
    }

    /// Inserts the next document of the stream (documents must come in collection order).
    pub fn insert(&mut self, doc: DocId) -> Insertion {
        self.expire(doc);
        let doc_id = u32::try_from(doc).unwrap_or(u32::MAX);
        let mut similarities: FxHashMap<u32, f64> = FxHashMap::default();
        let mut scs = 0.0;
        let mut visited = Vec::new();
        let mut words: Vec<TermId> = Vec::new();
        let prepared = &self.collection.documents[doc];
        for sentence in &prepared.sentences {
            words.clear();
            words.extend_from_slice(sentence);
            if self.params.word_sorting {
                words.sort_by_key(|&t| self.rank.get(t as usize).copied().unwrap_or(u32::MAX));
            }
            let suffixes = self.params.processed_suffix_count.max(1).min(words.len());
            for start in 0..suffixes {
                let mut node = ROOT;
                for (k, &word) in words[start..]
                    .iter()
                    .take(self.params.depth_threshold)
                    .enumerate()
                {
                    node = self.child(node, word, k as u32 + 1);
                    let depth = self.nodes[node as usize].depth;
                    let impact =
                        f64::from(depth) * self.idf.get(word as usize).copied().unwrap_or(1.0);
                    let visits = &mut self.nodes[node as usize].visits;
                    let mut own = 0u32;
                    for &(other, count) in visits.iter() {
                        if other == doc_id {
                            own = count;
                        } else {
                            *similarities.entry(other).or_insert(0.0) += impact * f64::from(count);
                        }
                    }
                    // n_A² grows by 2·n_A + 1 when the document passes the node once more.
                    scs += impact * f64::from(2 * own + 1);
                    match visits.back_mut() {
                        Some((last, count)) if *last == doc_id => *count += 1,
                        _ => {
                            visits.push_back((doc_id, 1));
                            visited.push(node);
                        }
                    }
                }
            }
        }
        if self.self_similarity.len() <= doc {
            self.self_similarity.resize(doc + 1, 0.0);
        }
        self.self_similarity[doc] = scs;
        if self.params.time_window.is_some() {
            self.window.push_back((doc_id, visited));
        }
        let mut similarities: Vec<(DocId, f64)> = similarities
            .into_iter()
            .map(|(d, cs)| (d as DocId, cs))
            .collect();
        similarities.sort_by_key(|&(d, _)| d);
        Insertion {
            self_similarity: scs,
            similarities,
        }
    }

    fn child(&mut self, parent: NodeId, term: TermId, depth: u32) -> NodeId {
        if let Some(&child) = self.children.get(&(parent, term)) {
            return child;
        }
        let node = Node {
            term,
            depth,
            parent,
            visits: VecDeque::new(),
        };
        let id = match self.free.pop() {
            Some(id) => {
                self.nodes[id as usize] = node;
                id
            }
            None => {
                self.nodes.push(node);
                NodeId::try_from(self.nodes.len() - 1).unwrap_or(NodeId::MAX)
            }
        };
        self.children.insert((parent, term), id);
        id
    }

    /// Removes the documents that fall out of the time window before `next` arrives.
    fn expire(&mut self, next: DocId) {
        let Some(window) = self.params.time_window else {
            return;
        };
        while let Some(&(oldest, _)) = self.window.front() {
            if (oldest as usize) + window.max(1) > next {
                break;
            }
            let Some((oldest, visited)) = self.window.pop_front() else {
                break;
            };
            // Children were visited after their parents: undo in reverse so that a node is
            // freed only after its children.
            for &node in visited.iter().rev() {
                let entry = &mut self.nodes[node as usize];
                if entry.visits.front().is_some_and(|&(d, _)| d == oldest) {
                    entry.visits.pop_front();
                }
                if entry.visits.is_empty() {
                    let key = (entry.parent, entry.term);
                    self.children.remove(&key);
                    self.free.push(node);
                }
            }
        }
    }

    /// The depth of a node (for tests and diagnostics).
    #[cfg(test)]
    fn depth_of(&self, parent: NodeId, term: TermId) -> Option<u32> {
        let child = self.children.get(&(parent, term))?;
        Some(self.nodes[*child as usize].depth)
    }
}

/// One corpus-tree node as one document's sentences pass it, for front ends that build no tree
/// (the Spark executors): a node is the word path from the virtual root, named by the 64-bit
/// SHA-1 of its words joined by spaces. Over the nodes two documents share,
/// `CS = Σ impact · n_A · n_C` (eq. 1, the double sum the tree computes), and a document's
/// `SCS = Σ impact · n²`; the sums are the tree's, added in another order.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeVisit {
    pub node: u64,
    /// `k · idf(w_k)` of the node at depth k labelled w_k.
    pub impact: f64,
    /// How many times the document's sentences (and suffixes) pass the node.
    pub count: u32,
}

/// The nodes a document's sentences would visit in the corpus tree, as [`CorpusTree::insert`]
/// walks them: each sentence's words given with their document frequencies over `documents`
/// documents, sorted by idf (WS) as [`Collection::idf_rank`] sorts them, PSC suffixes, DT words
/// deep. Sorted by node.
pub fn node_visits(
    sentences: &[Vec<(&str, u32)>],
    documents: u32,
    params: &CoDetParams,
) -> Vec<NodeVisit> {
    use super::hashing::sha1_u64_of_words;
    use super::prepare::{idf, idf_order};

    let mut visits: FxHashMap<u64, NodeVisit> = FxHashMap::default();
    let mut buffer = Vec::new();
    for sentence in sentences {
        let mut words: Vec<(&str, f64)> = sentence
            .iter()
            .map(|&(word, df)| (word, idf(documents, df)))
            .collect();
        if params.word_sorting {
            words.sort_by(|x, y| idf_order((x.1, x.0), (y.1, y.0)));
        }
        let suffixes = params.processed_suffix_count.max(1).min(words.len());
        for start in 0..suffixes {
            let path = &words[start..];
            for depth in 1..=path.len().min(params.depth_threshold) {
                let node = sha1_u64_of_words(path[..depth].iter().map(|w| w.0), &mut buffer);
                // The tree's idf is `idf + 1` (CorpusTree::new).
                let impact = depth as f64 * (path[depth - 1].1 + 1.0);
                visits
                    .entry(node)
                    .or_insert(NodeVisit {
                        node,
                        impact,
                        count: 0,
                    })
                    .count += 1;
            }
        }
    }
    let mut visits: Vec<NodeVisit> = visits.into_values().collect();
    visits.sort_by_key(|v| v.node);
    visits
}

/// Decides containment for one pair from its CS and both SCS values: the later document in the
/// earlier (`CS / SCS(later) > ETL`), the earlier in the later, both (a duplicate), or neither.
pub fn decide(
    later: DocId,
    earlier: DocId,
    cs: f64,
    scs_later: f64,
    scs_earlier: f64,
    etl: f64,
) -> Option<DetectedPair> {
    let ratio = |scs: f64| if scs > 0.0 { cs / scs } else { 0.0 };
    let later_in_earlier = ratio(scs_later);
    let earlier_in_later = ratio(scs_earlier);
    match (later_in_earlier > etl, earlier_in_later > etl) {
        (true, true) => Some(DetectedPair::new(
            earlier,
            later,
            Relation::Duplicate,
            later_in_earlier.min(earlier_in_later),
        )),
        (true, false) => Some(DetectedPair::new(
            earlier,
            later,
            Relation::Contains,
            later_in_earlier,
        )),
        (false, true) => Some(DetectedPair::new(
            later,
            earlier,
            Relation::Contains,
            earlier_in_later,
        )),
        (false, false) => None,
    }
}

/// Runs CoDet in stream order. A pair's score is `CS(d_A, d_C) / SCS(d_A)` for the contained
/// document `d_A` (the smaller of the two ratios for a duplicate).
pub fn detect(
    collection: &Collection,
    params: &CoDetParams,
    job: &mut Job<'_>,
) -> Result<Detection, Cancelled> {
    let mut tree = CorpusTree::new(collection, params.clone());
    let mut pairs = Vec::new();
    let total = collection.len();
    for doc in 0..total {
        job.step("codet", doc, total)?;
        let insertion = tree.insert(doc);
        for (earlier, cs) in insertion.similarities {
            let scs_earlier = tree.self_similarity(earlier);
            pairs.extend(decide(
                doc,
                earlier,
                cs,
                insertion.self_similarity,
                scs_earlier,
                params.equivalency_threshold,
            ));
        }
    }
    job.step("codet", total, total)?;
    Ok(Detection::from_pairs(pairs, collection))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::{prepare::words, without_job};
    use super::*;

    #[test]
    fn node_visits_give_the_trees_similarities() {
        let docs = vec![
            vec![words("b a c d"), words("x y z"), words("a b")],
            vec![words("a b c d e"), words("z y x w")],
            vec![words("a b"), words("b a c d"), words("a b")],
            vec![words("q r s")],
        ];
        let c = Collection::from_terms(vec![], docs, vec![]);
        for params in [
            CoDetParams::default(),
            CoDetParams {
                processed_suffix_count: 3,
                depth_threshold: 2,
                ..CoDetParams::default()
            },
            CoDetParams {
                word_sorting: false,
                ..CoDetParams::default()
            },
        ] {
            let visits: Vec<Vec<NodeVisit>> = (0..c.len())
                .map(|d| {
                    let sentences: Vec<Vec<(&str, u32)>> = c.documents[d]
                        .sentences
                        .iter()
                        .map(|s| {
                            s.iter()
                                .map(|&t| (c.term(t), c.frequencies.df[t as usize]))
                                .collect()
                        })
                        .collect();
                    node_visits(&sentences, c.frequencies.documents, &params)
                })
                .collect();
            let cs = |x: &[NodeVisit], y: &[NodeVisit]| -> f64 {
                x.iter()
                    .filter_map(|v| {
                        let w = y.iter().find(|w| w.node == v.node)?;
                        Some(v.impact * f64::from(v.count) * f64::from(w.count))
                    })
                    .sum()
            };
            let mut tree = CorpusTree::new(&c, params.clone());
            for doc in 0..c.len() {
                let insertion = tree.insert(doc);
                let scs = cs(&visits[doc], &visits[doc]);
                assert!((insertion.self_similarity - scs).abs() < 1e-9, "{params:?}");
                let expected: Vec<(DocId, f64)> = (0..doc)
                    .map(|e| (e, cs(&visits[doc], &visits[e])))
                    .filter(|&(_, v)| v > 0.0)
                    .collect();
                assert_eq!(insertion.similarities.len(), expected.len(), "{params:?}");
                for ((d1, v1), (d2, v2)) in insertion.similarities.iter().zip(&expected) {
                    assert_eq!(d1, d2);
                    assert!((v1 - v2).abs() < 1e-9, "{params:?}");
                }
            }
        }
    }

    /// Eq. 2 directly: Σ k · idf(w_k) over the longest common prefix.
    fn cs_by_hand(x: &[TermId], y: &[TermId], idf: &[f64]) -> f64 {
        x.iter()
            .zip(y)
            .take_while(|(a, b)| a == b)
            .enumerate()
            .map(|(k, (&w, _))| (k + 1) as f64 * idf[w as usize])
            .sum()
    }

    /// Each sentence as the tree sees it: sorted by idf rank (or not) and cut at DT.
    fn processed(c: &Collection, params: &CoDetParams, doc: DocId) -> Vec<Vec<TermId>> {
        let rank = c.idf_rank();
        c.documents[doc]
            .sentences
            .iter()
            .map(|s| {
                let mut s = s.clone();
                if params.word_sorting {
                    s.sort_by_key(|&t| rank[t as usize]);
                }
                s.truncate(params.depth_threshold);
                s
            })
            .collect()
    }

    proptest! {
        /// The corpus tree computes eq. 1 exactly: CS of every pair and SCS of every document
        /// equal the brute-force double sum over sentence pairs.
        #[test]
        fn tree_equals_the_double_sum_of_eq_1(
            docs in proptest::collection::vec(
                proptest::collection::vec(proptest::collection::vec(0u8..6, 1..6), 0..4),
                1..6,
            ),
            depth_threshold in 1usize..6,
            word_sorting in any::<bool>(),
        ) {
            let docs: Vec<Vec<Vec<String>>> = docs
                .iter()
                .map(|d| d.iter().map(|s| s.iter().map(|w| format!("w{w}")).collect()).collect())
                .collect();
            let c = Collection::from_terms(vec![], docs, vec![]);
            let params = CoDetParams { depth_threshold, word_sorting, ..CoDetParams::default() };
            let idf: Vec<f64> = (0..c.vocabulary.len())
                .map(|t| c.frequencies.idf_plus_one(t as TermId))
                .collect();
            let sentences: Vec<Vec<Vec<TermId>>> =
                (0..c.len()).map(|d| processed(&c, &params, d)).collect();
            let double_sum = |x: usize, y: usize| -> f64 {
                sentences[x]
                    .iter()
                    .flat_map(|s| sentences[y].iter().map(move |t| (s, t)))
                    .map(|(s, t)| cs_by_hand(s, t, &idf))
                    .sum()
            };
            let mut tree = CorpusTree::new(&c, params);
            for doc in 0..c.len() {
                let insertion = tree.insert(doc);
                prop_assert!((insertion.self_similarity - double_sum(doc, doc)).abs() < 1e-9);
                for earlier in 0..doc {
                    let expected = double_sum(doc, earlier);
                    let got = insertion
                        .similarities
                        .iter()
                        .find(|&&(d, _)| d == earlier)
                        .map_or(0.0, |&(_, cs)| cs);
                    prop_assert!((got - expected).abs() < 1e-9, "{} vs {}", got, expected);
                }
            }
        }
    }

    /// The paper's Fig. 1: d_A "NASDAQ starts day with an increase. Shares gain 2%.", d_B
    /// "NASDAQ starts (the) day with a decrease. Shares lose 2%.", d_C "Shares lose 2%.", words
    /// unsorted and unstemmed as in the figure (its walk-through drops d_B's "the").
    fn figure_1() -> Collection {
        let docs = vec![
            vec![
                words("nasdaq starts day with an increase"),
                words("shares gain 2%"),
            ],
            vec![
                words("nasdaq starts day with a decrease"),
                words("shares lose 2%"),
            ],
            vec![words("shares lose 2%")],
        ];
        Collection::from_terms(vec!["A".into(), "B".into(), "C".into()], docs, vec![])
    }

    fn unsorted(depth_threshold: usize) -> CoDetParams {
        CoDetParams {
            depth_threshold,
            word_sorting: false,
            ..CoDetParams::default()
        }
    }

    fn close(x: f64, y: f64) -> bool {
        (x - y).abs() < 1e-9
    }

    /// Hand-computed with idf = ln(3/df) + 1 over the three documents (the figure's
    /// "log(3/2) + 1" for "starts"): df 1 -> 2.098612, df 2 -> 1.405465, df 3 -> 1.
    #[test]
    fn figure_1_values_by_hand() {
        let c = figure_1();
        let (one, two, three) = (1.0 + 3f64.ln(), 1.0 + 1.5f64.ln(), 1.0);
        let mut tree = CorpusTree::new(&c, unsorted(10));
        // Fig. 1-I: d_A creates 6 + 3 nodes.
        let a = tree.insert(0);
        assert!(a.similarities.is_empty());
        assert_eq!(tree.node_count(), 1 + 9);
        // SCS(d_A) = (1+2+3+4)·idf(df 2) + 5·idf(an) + 6·idf(increase)
        //          + 1·idf(shares) + 2·idf(gain) + 3·idf(2%).
        let scs_a = 10.0 * two + 11.0 * one + three + 2.0 * one + 3.0 * three;
        assert!(close(a.self_similarity, scs_a), "{}", a.self_similarity);
        // Fig. 1-II: d_B revisits nasdaq, starts, day, with (depths 1-4) and shares (depth 1).
        // "The contribution of the node with label starts is 2 × (log(3/2) + 1)."
        let b = tree.insert(1);
        let cs_ab = (1.0 + 2.0 + 3.0 + 4.0) * two + 1.0 * three;
        assert_eq!(b.similarities.len(), 1);
        assert_eq!(b.similarities[0].0, 0);
        assert!(close(b.similarities[0].1, cs_ab));
        assert_eq!(tree.node_count(), 1 + 9 + 2 + 2);
        assert_eq!(
            tree.depth_of(ROOT, c.vocabulary.id("shares").unwrap()),
            Some(1)
        );
        // Fig. 1-III: d_C walks shares (A, B), lose (B), 2% (B); creates no node.
        let cc = tree.insert(2);
        assert_eq!(tree.node_count(), 14);
        let cs_cb = 1.0 * three + 2.0 * two + 3.0 * three;
        assert_eq!(cc.similarities.len(), 2);
        assert!(
            close(cc.similarities[0].1, 1.0 * three),
            "CS(C, A) = idf(shares)"
        );
        assert!(close(cc.similarities[1].1, cs_cb));
        // SCS(d_C) equals CS(d_C, d_B): d_B contains d_C with ratio 1.
        assert!(close(cc.self_similarity, cs_cb));
        assert!(
            (scs_a - (37.139_386_26 + 8.197_224_58)).abs() < 1e-6,
            "{scs_a}"
        );
        assert!((cs_ab - 15.054_651_08).abs() < 1e-6, "{cs_ab}");
    }

    #[test]
    fn figure_1_decisions() {
        let c = figure_1();
        let detection = without_job(|job| detect(&c, &unsorted(10), job)).unwrap();
        // CS(C,B)/SCS(C) = 1 > 0.6: B contains C. CS(A,B)/SCS(A) = 15.05/45.34 = 0.33 and
        // CS(A,B)/SCS(B) = 15.05/45.34: no containment. CS(C,A)/SCS(C) = 1/6.81: none.
        assert_eq!(detection.pairs.len(), 1);
        let pair = detection.pairs[0];
        assert_eq!((pair.a, pair.b, pair.relation), (1, 2, Relation::Contains));
        assert!(close(pair.score, 1.0));
        assert!(detection.groups.is_empty());
    }

    #[test]
    fn depth_threshold_cuts_sentences() {
        let c = figure_1();
        let mut tree = CorpusTree::new(&c, unsorted(5));
        let a = tree.insert(0);
        let (one, two, three) = (1.0 + 3f64.ln(), 1.0 + 1.5f64.ln(), 1.0);
        // "increase" (depth 6) is not inserted.
        assert!(close(
            a.self_similarity,
            10.0 * two + 5.0 * one + three + 2.0 * one + 3.0 * three
        ));
        assert_eq!(tree.node_count(), 1 + 5 + 3);
    }

    #[test]
    fn word_sorting_puts_rare_words_at_the_root() {
        let c = figure_1();
        let mut tree = CorpusTree::new(&c, CoDetParams::default());
        tree.insert(0);
        // d_A's first sentence sorted by idf: an, increase (df 1) then day, nasdaq, starts,
        // with (df 2), ties by text.
        let an = c.vocabulary.id("an").unwrap();
        let increase = c.vocabulary.id("increase").unwrap();
        assert_eq!(tree.depth_of(ROOT, an), Some(1));
        let an_node = tree.children[&(ROOT, an)];
        assert_eq!(tree.depth_of(an_node, increase), Some(2));
    }

    #[test]
    fn repeated_sentences_count_as_eq_1_double_sum() {
        let docs = vec![vec![words("x y"), words("x y")], vec![words("x y")]];
        let c = Collection::from_terms(vec![], docs, vec![]);
        let mut tree = CorpusTree::new(&c, unsorted(5));
        let a = tree.insert(0);
        let b = tree.insert(1);
        // idf = ln(2/2) + 1 = 1. cs(s, s) = 1 + 2 = 3; d_0 has 2×2 ordered sentence pairs.
        assert!(close(a.self_similarity, 12.0));
        assert!(close(b.self_similarity, 3.0));
        assert!(close(b.similarities[0].1, 6.0));
    }

    #[test]
    fn processed_suffixes_insert_shorter_paths() {
        let docs = vec![vec![words("p q r")], vec![words("z q r")]];
        let c = Collection::from_terms(vec![], docs, vec![]);
        let params = CoDetParams {
            processed_suffix_count: 2,
            ..unsorted(5)
        };
        let mut tree = CorpusTree::new(&c, params);
        tree.insert(0);
        let b = tree.insert(1);
        // The suffix "q r" of both: idf(q) = idf(r) = 1 at depths 1 and 2.
        assert!(close(b.similarities[0].1, 3.0));
    }

    #[test]
    fn time_window_forgets_old_documents_and_frees_their_nodes() {
        let docs = vec![
            vec![words("a b c")],
            vec![words("d e")],
            vec![words("a b c")],
            vec![words("d e")],
        ];
        let c = Collection::from_terms(vec![], docs, vec![]);
        let params = CoDetParams {
            time_window: Some(2),
            ..unsorted(5)
        };
        let mut tree = CorpusTree::new(&c, params.clone());
        tree.insert(0);
        tree.insert(1);
        assert_eq!(tree.node_count(), 1 + 3 + 2);
        // Document 0 leaves before 2 arrives: 2 finds nothing, and its nodes are new.
        let third = tree.insert(2);
        assert!(third.similarities.is_empty());
        assert_eq!(tree.node_count(), 1 + 3 + 2);
        let detection = without_job(|job| detect(&c, &params, job)).unwrap();
        assert!(detection.pairs.is_empty());
        let unlimited = without_job(|job| detect(&c, &unsorted(5), job)).unwrap();
        assert_eq!(unlimited.groups, vec![vec![0, 2], vec![1, 3]]);
    }
}
