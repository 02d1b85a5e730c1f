//! Sentences ready for matching: refined terms (thesis 3.1) as ids shared by the documents compared.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::{ModelView, TermId};
use crate::document::Document;
use crate::text;

/// Term ids for the documents of one comparison (or one collection): the model's id for a term it
/// knows, else a fresh id above the model's vocabulary, so that unknown words still match
/// themselves.
#[derive(Clone, Debug, Default)]
pub struct Vocabulary {
    next_local: TermId,
    ids: FxHashMap<String, TermId>,
    names: FxHashMap<TermId, String>,
}

impl Vocabulary {
    pub fn new(model: &dyn ModelView) -> Self {
        Vocabulary {
            next_local: model.vocabulary_size(),
            ids: FxHashMap::default(),
            names: FxHashMap::default(),
        }
    }

    /// The id of a refined term.
    pub fn intern(&mut self, term: &str, model: &dyn ModelView) -> TermId {
        if let Some(&id) = self.ids.get(term) {
            return id;
        }
        let id = model.term_id(term).unwrap_or_else(|| {
            let id = self.next_local;
            self.next_local = self.next_local.saturating_add(1);
            id
        });
        self.ids.insert(term.to_string(), id);
        self.names.insert(id, term.to_string());
        id
    }

    /// The refined term behind an id (empty if the id was never interned here).
    pub fn name(&self, id: TermId) -> &str {
        self.names.get(&id).map_or("", String::as_str)
    }

    /// Prepares a document's sentences; boilerplate sentences are left out unless
    /// `include_boilerplate`.
    pub fn prepare(
        &mut self,
        doc: &Document,
        model: &dyn ModelView,
        include_boilerplate: bool,
    ) -> PreparedDoc {
        let texts: Vec<&str> = doc.sentences.iter().map(|s| s.text.as_str()).collect();
        let mut prepared = self.prepare_texts(&texts, model);
        if !include_boilerplate {
            prepared.included = doc.boilerplate_mask().iter().map(|b| !b).collect();
        }
        prepared
    }

    /// Prepares loose sentences (all included).
    pub fn prepare_texts(&mut self, texts: &[&str], model: &dyn ModelView) -> PreparedDoc {
        // Refining (tokenising and stemming) is the costly part and needs no shared state.
        let refined: Vec<Vec<String>> = texts.par_iter().map(|t| text::refine(t)).collect();
        let sentences = refined
            .into_iter()
            .map(|terms| {
                let ids: Vec<TermId> = terms.iter().map(|t| self.intern(t, model)).collect();
                PreparedSentence::new(ids, text::refined_string(&terms))
            })
            .collect::<Vec<_>>();
        PreparedDoc {
            included: vec![true; sentences.len()],
            sentences,
        }
    }
}

/// One sentence ready for matching.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreparedSentence {
    /// Refined terms in order, repeats kept (the exact method compares these).
    pub terms: Vec<TermId>,
    /// Distinct terms, sorted (the fuzzy method reads a sentence as a set of words).
    pub set: Vec<TermId>,
    /// Refined terms joined without spaces (the 4-gram method reads this).
    pub refined: String,
}

impl PreparedSentence {
    pub fn new(terms: Vec<TermId>, refined: String) -> Self {
        let mut set = terms.clone();
        set.sort_unstable();
        set.dedup();
        PreparedSentence {
            terms,
            set,
            refined,
        }
    }
}

/// A document's sentences ready for matching, in reading order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PreparedDoc {
    pub sentences: Vec<PreparedSentence>,
    /// Whether each sentence takes part (boilerplate is left out by default).
    pub included: Vec<bool>,
}

impl PreparedDoc {
    /// The sentences that take part, with their positions.
    pub fn active(&self) -> impl Iterator<Item = (u32, &PreparedSentence)> {
        self.sentences
            .iter()
            .zip(&self.included)
            .enumerate()
            .filter(|(_, (s, inc))| **inc && !s.set.is_empty())
            .map(|(i, (s, _))| (i as u32, s))
    }

    /// How many sentences take part (included, whether or not they have terms).
    pub fn included_count(&self) -> usize {
        self.included.iter().filter(|&&b| b).count()
    }
}
