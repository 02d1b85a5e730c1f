//! CoDet on every core. Inserting a document into the corpus tree is one walk that both reads
//! the earlier documents' visits (the similarities) and adds its own, and the next document's
//! walk depends on it. The two halves come apart: a batch of documents is walked into the tree
//! in stream order (cheap: a child lookup and a counter per pass), then each document's
//! similarities are read off the tree in parallel, counting only the documents before it
//! ([`CorpusTree::similarities_of`]). Without a time window this gives exactly what inserting
//! one document at a time gives (`tests::batches_equal_one_document_at_a_time`).

use rayon::prelude::*;

use super::{CorpusTree, Insertion};
use crate::collection::DocId;

/// Documents walked into the tree before their similarities are read.
pub const DOCUMENTS: usize = 256;

impl CorpusTree<'_> {
    /// Inserts the documents `docs` (the next ones of the stream, in order) and returns their
    /// insertions, in order. Only without a time window: a document leaving the window while
    /// the batch is walked would be missing from what an earlier document of the batch reads.
    pub fn insert_batch(&mut self, docs: std::ops::Range<DocId>) -> Vec<Insertion> {
        debug_assert!(self.params.time_window.is_none());
        let walks: Vec<(DocId, Vec<(super::NodeId, f64)>)> =
            docs.map(|doc| (doc, self.walk(doc).0)).collect();
        let tree = &*self;
        let insertions: Vec<Insertion> = walks
            .par_iter()
            .map(|(doc, passes)| tree.similarities_of(*doc, passes))
            .collect();
        for ((doc, _), insertion) in walks.iter().zip(&insertions) {
            self.set_self_similarity(*doc, insertion.self_similarity);
        }
        insertions
    }
}

#[cfg(test)]
mod tests {
    use super::super::{CoDetParams, Collection};
    use super::*;
    use crate::collection::prepare::{numbers, words};

    /// 600 documents of 1-4 sentences over 60 words (a fixed generator), every third a copy of
    /// an earlier one with a sentence added: many shared nodes across batches.
    fn collection() -> Collection {
        let mut next = numbers(0x2545_f491_4f6c_dd1du64);
        let mut docs: Vec<Vec<Vec<String>>> = Vec::new();
        for d in 0..600u64 {
            let sentence = |next: &mut dyn FnMut(u64) -> u64| {
                let text: Vec<String> =
                    (0..3 + next(8)).map(|_| format!("w{}", next(60))).collect();
                words(&text.join(" "))
            };
            if d % 3 == 2 {
                let mut copy = docs[next(d) as usize].clone();
                copy.push(sentence(&mut next));
                docs.push(copy);
            } else {
                docs.push((0..1 + next(4)).map(|_| sentence(&mut next)).collect());
            }
        }
        Collection::from_terms(vec![], docs, vec![])
    }

    #[test]
    fn batches_equal_one_document_at_a_time() {
        let collection = collection();
        for params in [
            CoDetParams::default(),
            CoDetParams {
                processed_suffix_count: 3,
                word_sorting: false,
                ..CoDetParams::default()
            },
        ] {
            let mut one = CorpusTree::new(&collection, params.clone());
            let single: Vec<Insertion> = (0..collection.len()).map(|d| one.insert(d)).collect();
            let mut batched = CorpusTree::new(&collection, params);
            let mut batches = Vec::new();
            for first in (0..collection.len()).step_by(64) {
                batches.extend(batched.insert_batch(first..(first + 64).min(collection.len())));
            }
            assert_eq!(single, batches, "bit for bit");
            let shared: usize = single.iter().map(|i| i.similarities.len()).sum();
            assert!(shared > 1000, "documents share nodes: {shared}");
        }
    }
}
