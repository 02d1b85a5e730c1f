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

mod batch;

/// A document's position as the tree stores it.
fn doc_as_id(doc: DocId) -> u32 {
    u32::try_from(doc).unwrap_or(u32::MAX)
}

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
        let (passes, visited) = self.walk(doc);
        let insertion = self.similarities_of(doc, &passes);
        self.set_self_similarity(doc, insertion.self_similarity);
        if self.params.time_window.is_some() {
            self.window.push_back((doc_as_id(doc), visited));
        }
        insertion
    }

    /// Walks document `doc`'s sentences into the tree (each sentence's words sorted by idf,
    /// PSC suffixes, DT words deep), adding its visits to the nodes. Returns every pass in
    /// order, as (node, impact `k · idf(w_k)`), and the nodes it visited first, in visit order
    /// (parents before children).
    fn walk(&mut self, doc: DocId) -> (Vec<(NodeId, f64)>, Vec<NodeId>) {
        let doc_id = doc_as_id(doc);
        let collection = self.collection;
        let mut passes = Vec::new();
        let mut visited = Vec::new();
        let mut words: Vec<TermId> = Vec::new();
        for sentence in &collection.documents[doc].sentences {
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
                    passes.push((node, impact));
                    let visits = &mut self.nodes[node as usize].visits;
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
        (passes, visited)
    }

    /// CS of document `doc` with every earlier document, and its SCS, from its `passes`
    /// ([`Self::walk`]) over the tree: each pass through a node adds the node's impact times
    /// each earlier document's visits there (eq. 1), and `n_A² ` grows by `2·n_A + 1` with each
    /// pass of the document itself. Only the tree's nodes are read, and only documents before
    /// `doc` count, so later documents already walked into the tree change nothing: a batch of
    /// documents can be read in parallel ([`batch`]). The sums run in the order a document-by-
    /// document insertion adds them, so they are the same to the bit.
    fn similarities_of(&self, doc: DocId, passes: &[(NodeId, f64)]) -> Insertion {
        let doc_id = doc_as_id(doc);
        let mut similarities: FxHashMap<u32, f64> = FxHashMap::default();
        let mut own: FxHashMap<NodeId, u32> = FxHashMap::default();
        let mut scs = 0.0;
        for &(node, impact) in passes {
            // Visits are in arrival order: the earlier documents come first.
            for &(other, count) in &self.nodes[node as usize].visits {
                if other >= doc_id {
                    break;
                }
                *similarities.entry(other).or_insert(0.0) += impact * f64::from(count);
            }
            let passed = own.entry(node).or_insert(0);
            scs += impact * f64::from(2 * *passed + 1);
            *passed += 1;
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

    fn set_self_similarity(&mut self, doc: DocId, scs: f64) {
        if self.self_similarity.len() <= doc {
            self.self_similarity.resize(doc + 1, 0.0);
        }
        self.self_similarity[doc] = scs;
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
/// document `d_A` (the smaller of the two ratios for a duplicate). Without a time window the
/// documents go in batches ([`CorpusTree::insert_batch`]: walked in order, read on every core);
/// with one, one at a time (a document leaving the window changes what the next ones read).
pub fn detect(
    collection: &Collection,
    params: &CoDetParams,
    job: &mut Job<'_>,
) -> Result<Detection, Cancelled> {
    let mut tree = CorpusTree::new(collection, params.clone());
    let mut pairs = Vec::new();
    let total = collection.len();
    let batch = if params.time_window.is_none() {
        batch::DOCUMENTS
    } else {
        1
    };
    for first in (0..total).step_by(batch) {
        job.step("codet", first, total)?;
        let docs = first..(first + batch).min(total);
        let insertions = if batch == 1 {
            vec![tree.insert(first)]
        } else {
            tree.insert_batch(docs.clone())
        };
        for (doc, insertion) in docs.zip(insertions) {
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
    }
    job.step("codet", total, total)?;
    Ok(Detection::from_pairs(pairs, collection))
}

#[cfg(test)]
mod tests;
