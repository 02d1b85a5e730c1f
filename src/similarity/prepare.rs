//! Sentences ready for matching: refined terms (thesis 3.1) as ids shared by the documents compared.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::{ModelView, TermId};
use crate::document::Document;
use crate::text::{self, RefineOptions, TermKind};

/// Term ids for the documents of one comparison (or one collection): the model's id for a term it
/// knows, else a fresh id above the model's vocabulary, so that unknown words still match
/// themselves. Kept stopwords get ids of their own (never the model's), so that a stopword never
/// inherits the correlations of a content stem spelt the same way.
#[derive(Clone, Debug, Default)]
pub struct Vocabulary {
    next_local: TermId,
    ids: FxHashMap<String, TermId>,
    stopword_ids: FxHashMap<String, TermId>,
    names: FxHashMap<TermId, String>,
}

impl Vocabulary {
    pub fn new(model: &dyn ModelView) -> Self {
        Vocabulary {
            next_local: model.vocabulary_size(),
            ids: FxHashMap::default(),
            stopword_ids: FxHashMap::default(),
            names: FxHashMap::default(),
        }
    }

    fn fresh(&mut self) -> TermId {
        let id = self.next_local;
        self.next_local = self.next_local.saturating_add(1);
        id
    }

    /// The id of a refined content term (or kept number).
    pub fn intern(&mut self, term: &str, model: &dyn ModelView) -> TermId {
        if let Some(&id) = self.ids.get(term) {
            return id;
        }
        let id = model.term_id(term).unwrap_or_else(|| self.fresh());
        self.ids.insert(term.to_string(), id);
        self.names.insert(id, term.to_string());
        id
    }

    /// The id of a kept stopword: always a local id.
    fn intern_stopword(&mut self, term: &str) -> TermId {
        if let Some(&id) = self.stopword_ids.get(term) {
            return id;
        }
        let id = self.fresh();
        self.stopword_ids.insert(term.to_string(), id);
        self.names.insert(id, term.to_string());
        id
    }

    /// The refined term behind an id (empty if the id was never interned here).
    pub fn name(&self, id: TermId) -> &str {
        self.names.get(&id).map_or("", String::as_str)
    }

    /// Prepares a document's sentences with the thesis's refinement; boilerplate sentences are
    /// left out unless `include_boilerplate`.
    pub fn prepare(
        &mut self,
        doc: &Document,
        model: &dyn ModelView,
        include_boilerplate: bool,
    ) -> PreparedDoc {
        self.prepare_with(doc, model, include_boilerplate, &RefineOptions::THESIS)
    }

    /// Prepares a document's sentences keeping what `options` asks for.
    pub fn prepare_with(
        &mut self,
        doc: &Document,
        model: &dyn ModelView,
        include_boilerplate: bool,
        options: &RefineOptions,
    ) -> PreparedDoc {
        let texts: Vec<&str> = doc.sentences.iter().map(|s| s.text.as_str()).collect();
        let mut prepared = self.prepare_texts_with(&texts, model, options);
        if !include_boilerplate {
            prepared.included = doc.boilerplate_mask().iter().map(|b| !b).collect();
        }
        prepared
    }

    /// Prepares loose sentences (all included) with the thesis's refinement.
    pub fn prepare_texts(&mut self, texts: &[&str], model: &dyn ModelView) -> PreparedDoc {
        self.prepare_texts_with(texts, model, &RefineOptions::THESIS)
    }

    /// Prepares loose sentences (all included) keeping what `options` asks for.
    pub fn prepare_texts_with(
        &mut self,
        texts: &[&str],
        model: &dyn ModelView,
        options: &RefineOptions,
    ) -> PreparedDoc {
        // Refining (tokenising and stemming) is the costly part and needs no shared state.
        let refined: Vec<Vec<(String, TermKind)>> = texts
            .par_iter()
            .map(|t| text::refine_with(t, options))
            .collect();
        let sentences = refined
            .into_iter()
            .map(|terms| {
                let mut ids = Vec::with_capacity(terms.len());
                let mut content = Vec::with_capacity(terms.len());
                let mut has_stopwords = false;
                let mut thesis_string = String::new();
                for (term, kind) in &terms {
                    match kind {
                        TermKind::Stopword => {
                            has_stopwords = true;
                            ids.push(self.intern_stopword(term));
                        }
                        TermKind::Content | TermKind::Number => {
                            let id = self.intern(term, model);
                            ids.push(id);
                            content.push(id);
                            if *kind == TermKind::Content {
                                thesis_string.push_str(term);
                            }
                        }
                    }
                }
                let content = has_stopwords.then(|| {
                    content.sort_unstable();
                    content.dedup();
                    content
                });
                PreparedSentence::with_content(ids, content, thesis_string)
            })
            .collect::<Vec<_>>();
        PreparedDoc {
            included: vec![true; sentences.len()],
            sentences,
            options: *options,
        }
    }
}

/// One sentence ready for matching.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PreparedSentence {
    /// Refined terms in order, repeats kept (the exact method compares these).
    pub terms: Vec<TermId>,
    /// Distinct terms, sorted (the fuzzy method reads a sentence as a set of words).
    pub set: Vec<TermId>,
    /// The distinct content terms (and kept numbers), sorted, when the sentence holds kept
    /// stopwords; `None` when they are all of [`Self::set`]. See [`Self::content`].
    content: Option<Vec<TermId>>,
    /// The thesis's refined content words joined without spaces (the 4-gram method reads this,
    /// whatever else is kept as terms).
    pub refined: String,
}

impl PreparedSentence {
    /// A sentence of content terms only (the thesis's refinement).
    pub fn new(terms: Vec<TermId>, refined: String) -> Self {
        Self::with_content(terms, None, refined)
    }

    /// A sentence whose `terms` may hold stopwords; `content` is then its sorted distinct content
    /// terms (`None`: every term is a content term).
    pub fn with_content(terms: Vec<TermId>, content: Option<Vec<TermId>>, refined: String) -> Self {
        let mut set = terms.clone();
        set.sort_unstable();
        set.dedup();
        let content = content.filter(|c| *c != set);
        PreparedSentence {
            terms,
            set,
            content,
            refined,
        }
    }

    /// The distinct content terms, sorted: the words that carry the sentence's meaning and the
    /// only ones the reference model relates (kept stopwords are left out).
    pub fn content(&self) -> &[TermId] {
        self.content.as_deref().unwrap_or(&self.set)
    }

    /// Whether some terms are kept stopwords (then [`Self::content`] is a strict subset of
    /// [`Self::set`]).
    pub fn has_stopwords(&self) -> bool {
        self.content.is_some()
    }
}

/// A document's sentences ready for matching, in reading order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PreparedDoc {
    pub sentences: Vec<PreparedSentence>,
    /// Whether each sentence takes part (boilerplate is left out by default).
    pub included: Vec<bool>,
    /// How the sentences were refined.
    pub options: RefineOptions,
}

impl PreparedDoc {
    /// The sentences that take part, with their positions: included, with at least one content
    /// term (a sentence of stopwords only, like "Why not?", carries nothing to compare).
    pub fn active(&self) -> impl Iterator<Item = (u32, &PreparedSentence)> {
        self.sentences
            .iter()
            .zip(&self.included)
            .enumerate()
            .filter(|(_, (s, inc))| **inc && !s.content().is_empty())
            .map(|(i, (s, _))| (i as u32, s))
    }

    /// How many sentences take part (included, whether or not they have terms).
    pub fn included_count(&self) -> usize {
        self.included.iter().filter(|&&b| b).count()
    }
}
