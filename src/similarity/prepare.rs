//! Sentences ready for matching: refined terms (thesis 3.1) as ids shared by the documents compared.
//!
//! When the model carries WordNet's relations ([`crate::model::wordnet`]), each content word's
//! lemmas (WordNet's morphology of the word as written, not of its stem) are kept beside its
//! term, for relatedness looked up by word ([`super::lexical`]).

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::{ModelView, TermId};
use crate::document::Document;
use crate::document::exclusions::Exclusions;
use crate::model::wordnet::LemmaId;
use crate::text::{self, RefineOptions, RefinedTerm, TermKind};

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
    /// Per surface word seen, where its lemmas lie in `lemma_arena` (start, length): morphology
    /// runs once per distinct word.
    lemmas_of_word: FxHashMap<String, (u32, u32)>,
    lemma_arena: Vec<LemmaId>,
    /// Refine a text met before in the same call again instead of copying its sentence
    /// ([`Self::refining_every_text`]).
    refine_repeats: bool,
}

impl Vocabulary {
    pub fn new(model: &dyn ModelView) -> Self {
        Vocabulary {
            next_local: model.vocabulary_size(),
            ids: FxHashMap::default(),
            stopword_ids: FxHashMap::default(),
            names: FxHashMap::default(),
            lemmas_of_word: FxHashMap::default(),
            lemma_arena: Vec::new(),
            refine_repeats: false,
        }
    }

    /// Where the lemmas of a surface word lie in `lemma_arena`, looked up once per word.
    fn lemma_span(&mut self, word: &str, model: &dyn ModelView) -> (u32, u32) {
        if let Some(&span) = self.lemmas_of_word.get(word) {
            return span;
        }
        let start = self.lemma_arena.len();
        if let Some(lexicon) = model.lexicon() {
            lexicon.lemmas_of(word, &mut self.lemma_arena);
        }
        let span = (start as u32, (self.lemma_arena.len() - start) as u32);
        self.lemmas_of_word.insert(word.to_string(), span);
        span
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

    /// This vocabulary, refining every text it prepares, a repeated one too. For a caller that
    /// prepares each document once and keeps them all: measured on 50 pages of 10,000 repeated
    /// headings, copying a repeated text's sentence saved a second of the 3 s of preparing
    /// them, but raised the run's peak by 66 MB (`scripts/bench-all.sh repetition`, the
    /// collection's row without evidence, with `fuzzy::resemblances` on `Vocabulary::new`
    /// instead: 1.9 s and 470 MB against 2.9 s and 403 MB). The memory the documents' reading left free
    /// in other threads' heaps is reused only by the sentences refined there, so copying them
    /// made the calling thread's heap grow instead. A comparison of a pair prepares its two
    /// documents again for each pair, which is where the copies pay.
    pub fn refining_every_text(mut self) -> Self {
        self.refine_repeats = true;
        self
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
        // Refining (tokenising and stemming) is the costly part and needs no shared state, so
        // it runs in parallel; interning then runs in order. A chunk at a time: the refined
        // strings take about ten times the room of the interned sentence (a pool of 626,000
        // sentences held 1.3 GB of them at once), so only one chunk's are alive.
        // Surface words are kept only for a model with WordNet's relations to look them up in.
        //
        // A text met before in the same call is not refined again (unless the vocabulary is
        // [`Self::refining_every_text`]): its sentence is a copy of the
        // first one's (refining reads the text alone, and the first occurrence interned every
        // term, so the copy is what refining it again would give). A forum page repeats "Reply
        // to this comment" 10,000 times, and a collection's judged run prepares each such page
        // once per pair it is in: refining them all again was most of that run.
        let with_lemmas = model.lexicon().is_some();
        let mut sentences: Vec<PreparedSentence> = Vec::with_capacity(texts.len());
        let mut lemma_spans: Vec<(u32, u32)> = Vec::new();
        let mut first_of: FxHashMap<&str, usize> = FxHashMap::default();
        for (chunk_index, chunk) in texts.chunks(REFINE_CHUNK).enumerate() {
            let start = chunk_index * REFINE_CHUNK;
            // Per text of the chunk: the position of its first occurrence.
            let firsts: Vec<usize> = chunk
                .iter()
                .enumerate()
                .map(|(i, &t)| {
                    if self.refine_repeats {
                        start + i
                    } else {
                        *first_of.entry(t).or_insert(start + i)
                    }
                })
                .collect();
            let new: Vec<&str> = chunk
                .iter()
                .zip(&firsts)
                .enumerate()
                .filter(|&(i, (_, &first))| first == start + i)
                .map(|(_, (&t, _))| t)
                .collect();
            let refined: Vec<Vec<RefinedTerm>> = new
                .par_iter()
                .map(|t| refine_one(t, options, with_lemmas))
                .collect();
            let mut refined = refined.into_iter();
            for (i, &first) in firsts.iter().enumerate() {
                let sentence = if first == start + i {
                    let terms = refined.next().unwrap_or_default();
                    self.intern_sentence(&terms, model, with_lemmas, &mut lemma_spans)
                } else {
                    sentences[first].clone()
                };
                sentences.push(sentence);
            }
        }
        PreparedDoc {
            included: vec![true; sentences.len()],
            sentences,
            options: *options,
        }
    }

    /// One refined sentence's terms interned (and their WordNet lemmas looked up).
    fn intern_sentence(
        &mut self,
        terms: &[RefinedTerm],
        model: &dyn ModelView,
        with_lemmas: bool,
        lemma_spans: &mut Vec<(u32, u32)>,
    ) -> PreparedSentence {
        let mut ids = Vec::with_capacity(terms.len());
        let mut content = Vec::with_capacity(terms.len());
        let mut has_stopwords = false;
        let mut thesis_string = String::new();
        lemma_spans.clear();
        for RefinedTerm {
            term,
            kind,
            surface,
        } in terms
        {
            match kind {
                TermKind::Stopword => {
                    has_stopwords = true;
                    ids.push(self.intern_stopword(term));
                    lemma_spans.push((0, 0));
                }
                TermKind::Content | TermKind::Number => {
                    let id = self.intern(term, model);
                    ids.push(id);
                    content.push(id);
                    if *kind == TermKind::Content {
                        thesis_string.push_str(term);
                    }
                    lemma_spans.push(match surface {
                        Some(word) => self.lemma_span(word, model),
                        None => (0, 0),
                    });
                }
            }
        }
        let content = has_stopwords.then(|| {
            content.sort_unstable();
            content.dedup();
            content
        });
        thesis_string.shrink_to_fit();
        let mut sentence = PreparedSentence::with_content(ids, content, thesis_string);
        if with_lemmas {
            let arena = &self.lemma_arena;
            let per_term: Vec<&[LemmaId]> = lemma_spans
                .iter()
                .map(|&(start, len)| &arena[start as usize..(start + len) as usize])
                .collect();
            sentence.lemmas = SetLemmas::new(&sentence.set, &sentence.terms, &per_term);
        }
        sentence
    }
}

/// Sentences refined at once before they are interned ([`Vocabulary::prepare_texts_with`]):
/// enough to keep every core busy, few enough that their refined strings stay a few megabytes.
const REFINE_CHUNK: usize = 8192;

/// A sentence's refined terms; with `with_surface`, each content word's surface form beside it.
fn refine_one(text: &str, options: &RefineOptions, with_surface: bool) -> Vec<RefinedTerm> {
    if with_surface {
        text::refine_with_surface(text, options)
    } else {
        text::refine_with(text, options)
            .into_iter()
            .map(|(term, kind)| RefinedTerm {
                term,
                kind,
                surface: None,
            })
            .collect()
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
    /// WordNet lemmas of the words behind each term of [`Self::set`] (empty without a model
    /// with WordNet's relations).
    lemmas: SetLemmas,
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
        // A pool of sources holds hundreds of thousands of sentences: no slack kept per list.
        set.shrink_to_fit();
        let content = content.filter(|c| *c != set).map(|mut c| {
            c.shrink_to_fit();
            c
        });
        PreparedSentence {
            terms,
            set,
            content,
            refined,
            lemmas: SetLemmas::default(),
        }
    }

    /// This sentence followed by `next`, read as one (a one-to-two match): their terms in
    /// order, and each term's lemmas from both.
    pub fn followed_by(&self, next: &PreparedSentence) -> PreparedSentence {
        let terms: Vec<TermId> = self.terms.iter().chain(&next.terms).copied().collect();
        let content = (self.has_stopwords() || next.has_stopwords()).then(|| {
            let mut content: Vec<TermId> = self
                .content()
                .iter()
                .chain(next.content())
                .copied()
                .collect();
            content.sort_unstable();
            content.dedup();
            content
        });
        let refined = format!("{}{}", self.refined, next.refined);
        let mut joined = PreparedSentence::with_content(terms, content, refined);
        if !self.lemmas.is_empty() || !next.lemmas.is_empty() {
            let per_term: Vec<&[LemmaId]> = self
                .terms
                .iter()
                .map(|&t| self.lemmas_of(t))
                .chain(next.terms.iter().map(|&t| next.lemmas_of(t)))
                .collect();
            joined.lemmas = SetLemmas::new(&joined.set, &joined.terms, &per_term);
        }
        joined
    }

    /// The WordNet lemmas of the words this sentence writes the term `term` with (empty for a
    /// term it does not hold, a stopword, or without WordNet).
    pub fn lemmas_of(&self, term: TermId) -> &[LemmaId] {
        if self.lemmas.is_empty() {
            return &[];
        }
        self.set
            .binary_search(&term)
            .map_or(&[][..], |slot| self.lemmas.of(slot))
    }

    /// The lemmas of the term at `slot` of [`Self::set`].
    pub fn lemmas_at(&self, slot: usize) -> &[LemmaId] {
        self.lemmas.of(slot)
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

/// Per distinct term of a sentence, the sorted lemmas of its words: one boxed slice holding
/// `set.len() + 1` positions (where each term's lemmas start in the same slice, and where the
/// last ends) followed by the lemmas; or nothing at all (no lemmas: no allocation, the case of
/// every sentence without WordNet).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct SetLemmas(Box<[u32]>);

impl SetLemmas {
    /// From the lemmas of each occurrence (`per_term[i]` for `terms[i]`), united per term of
    /// `set` (the sorted distinct `terms`).
    fn new(set: &[TermId], terms: &[TermId], per_term: &[&[LemmaId]]) -> SetLemmas {
        let mut pairs: Vec<(TermId, LemmaId)> = terms
            .iter()
            .zip(per_term)
            .flat_map(|(&t, lemmas)| lemmas.iter().map(move |&l| (t, l)))
            .collect();
        if pairs.is_empty() {
            return SetLemmas::default();
        }
        pairs.sort_unstable();
        pairs.dedup();
        let base = set.len() + 1;
        let mut data = Vec::with_capacity(base + pairs.len());
        let mut at = 0;
        for &term in set {
            while at < pairs.len() && pairs[at].0 < term {
                at += 1;
            }
            data.push((base + at) as u32);
            while at < pairs.len() && pairs[at].0 == term {
                at += 1;
            }
        }
        data.push((base + pairs.len()) as u32);
        data.extend(pairs.iter().map(|p| p.1));
        SetLemmas(data.into_boxed_slice())
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The lemmas of the term at `slot` of the sentence's set.
    fn of(&self, slot: usize) -> &[LemmaId] {
        match (self.0.get(slot), self.0.get(slot + 1)) {
            (Some(&start), Some(&end)) if start <= end => {
                self.0.get(start as usize..end as usize).unwrap_or(&[])
            }
            _ => &[],
        }
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
    /// Leaves out the sentences of `doc` (the document this was prepared from) that
    /// `exclusions` leave out, as boilerplate is left out: they are shown but neither match nor
    /// count ([`crate::document::exclusions`]).
    pub fn leave_out(&mut self, doc: &Document, exclusions: &Exclusions) {
        if !exclusions.any() {
            return;
        }
        for (included, out) in self.included.iter_mut().zip(exclusions.mask(doc)) {
            *included &= !out;
        }
    }

    /// Leaves out the sentences `marked` (by position; past its end, none).
    pub fn leave_out_marked(&mut self, marked: &[bool]) {
        for (included, &out) in self.included.iter_mut().zip(marked) {
            *included &= !out;
        }
    }

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

#[cfg(test)]
mod tests;
