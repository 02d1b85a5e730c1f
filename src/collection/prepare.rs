//! Documents to a [`Collection`]: sentences as interned terms, and document frequencies.
//!
//! Choices the papers leave open, made here once for every detector:
//! - A sentence is one [`Sentence`](crate::document::Sentence) of the document model (reading
//!   order); sentences of boilerplate nodes (navigation, footers, ...) are left out, as in pair
//!   comparisons. A sentence with no term left after normalisation is dropped.
//! - Words are split and normalised by a [`Normaliser`]: simdoc's default
//!   ([`crate::text::refine`]: Snowball stopwords, Snowball stemming) or the CoDet paper's
//!   preprocessing (sect. 4: stopword elimination and first-5 truncation stemming).
//! - idf comes from the collection itself unless a reference is given
//!   ([`Collection::use_reference_frequencies`]); the CoDet paper took it from a large
//!   reference collection (sect. 4), its Fig. 1 example from the three documents themselves.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::{Cancelled, Job};
use crate::document::Document;
use crate::text;

/// Index of a term in a collection's vocabulary.
pub type TermId = u32;

/// How a sentence's words become terms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Normaliser {
    /// [`crate::text::refine`]: lowercase, Snowball stopwords and numbers removed, Snowball
    /// (Porter2) stemming.
    #[default]
    Refine,
    /// The CoDet paper's preprocessing (sect. 4): stopword elimination (the same Snowball list)
    /// and "first-5" truncation stemming: every word cut to its first five characters. Numbers
    /// are kept (the paper's Fig. 1 keeps "2%"; [`crate::text::tokens`] reads it as "2").
    StopwordsFirst5,
}

impl Normaliser {
    /// The terms of one sentence, in order.
    pub fn terms(self, sentence: &str) -> Vec<String> {
        match self {
            Normaliser::Refine => text::refine(sentence),
            Normaliser::StopwordsFirst5 => text::tokens(sentence)
                .into_iter()
                .map(|token| token.to_lowercase())
                .filter(|word| !text::is_stopword(word))
                .map(|word| word.chars().take(5).collect())
                .collect(),
        }
    }
}

/// One document as the detectors see it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PreparedDocument {
    /// Sentences in reading order, each a non-empty list of terms in order.
    pub sentences: Vec<Vec<TermId>>,
    /// Length of the document's text in bytes: "the longest document" of a duplicate group.
    pub length: usize,
}

impl PreparedDocument {
    /// All terms of the document in reading order, across sentence boundaries.
    pub fn terms(&self) -> impl Iterator<Item = TermId> + '_ {
        self.sentences.iter().flatten().copied()
    }

    pub fn term_count(&self) -> usize {
        self.sentences.iter().map(Vec::len).sum()
    }
}

/// One document's sentences as the detectors see them: every sentence outside boilerplate nodes,
/// in reading order, as its normalised terms (a sentence may come out empty; collections drop
/// those). Public so that front ends which prepare documents elsewhere (the Spark executors of
/// `simdoc-spark`) prepare them exactly as [`Collection::from_documents`] does.
pub fn document_sentences(doc: &Document, normaliser: Normaliser) -> Vec<Vec<String>> {
    doc.sentences
        .iter()
        .filter(|s| !doc.nodes.get(s.node).is_some_and(|n| n.boilerplate))
        .map(|s| normaliser.terms(&s.text))
        .collect()
}

/// `ln(N / df)` for a term in `df` of `documents` documents; `df` 0 counts as 1 (the rarest)
/// and `N` is at least `df`. The one definition behind [`DocumentFrequencies::idf`], shared with
/// front ends that count document frequencies themselves.
pub fn idf(documents: u32, df: u32) -> f64 {
    let df = df.max(1);
    let n = documents.max(df);
    (f64::from(n) / f64::from(df)).ln()
}

/// The order "by idf values in descending order" of every idf-ranked detector: idf descending,
/// ties broken by the term's text ascending (a choice: the papers do not say).
pub fn idf_order(x: (f64, &str), y: (f64, &str)) -> std::cmp::Ordering {
    y.0.total_cmp(&x.0).then_with(|| x.1.cmp(y.1))
}

/// Distinct `(term, df)` of one document sorted by [`idf_order`] over `documents` documents,
/// with each term's idf: a document's terms ranked as [`Collection::idf_rank`] ranks them, for
/// front ends that hold the document frequencies but not a [`Collection`]. A term given twice
/// must come with the same df both times.
pub fn rank_terms<'t>(terms: &[(&'t str, u32)], documents: u32) -> Vec<(&'t str, f64)> {
    let mut ranked: Vec<(&str, f64)> = terms
        .iter()
        .map(|&(term, df)| (term, idf(documents, df)))
        .collect();
    ranked.sort_by(|x, y| idf_order((x.1, x.0), (y.1, y.0)));
    ranked.dedup_by(|x, y| x.0 == y.0);
    ranked
}

/// Terms and their ids.
#[derive(Clone, Debug, Default)]
pub struct Vocabulary {
    terms: Vec<String>,
    ids: FxHashMap<String, TermId>,
}

impl Vocabulary {
    /// The id of `term`, adding it if new.
    pub fn intern(&mut self, term: &str) -> TermId {
        if let Some(&id) = self.ids.get(term) {
            return id;
        }
        // More than 4 billion distinct terms cannot be held in memory anyway.
        let id = TermId::try_from(self.terms.len()).unwrap_or(TermId::MAX);
        self.terms.push(term.to_string());
        self.ids.insert(term.to_string(), id);
        id
    }

    pub fn id(&self, term: &str) -> Option<TermId> {
        self.ids.get(term).copied()
    }

    /// The term of an id from this vocabulary ("" for a foreign id).
    pub fn term(&self, id: TermId) -> &str {
        self.terms.get(id as usize).map_or("", String::as_str)
    }

    pub fn len(&self) -> usize {
        self.terms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }
}

/// Document frequencies: in how many of `documents` documents each term occurs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DocumentFrequencies {
    pub documents: u32,
    /// Indexed by [`TermId`].
    pub df: Vec<u32>,
}

impl DocumentFrequencies {
    /// `ln(N / df)`, the idf of qSign (Metzler et al.'s word overlap) and Roul et al. eq. 2. A
    /// term unknown to the frequencies counts as occurring once (the rarest).
    pub fn idf(&self, term: TermId) -> f64 {
        idf(
            self.documents,
            self.df.get(term as usize).copied().unwrap_or(0),
        )
    }

    /// `ln(N / df) + 1`, the idf of the CoDet paper's Fig. 1 example ("`log(3/2) + 1`"), used by
    /// CoDet, I-Match and SimHash: never zero, so a word in every document still counts.
    pub fn idf_plus_one(&self, term: TermId) -> f64 {
        self.idf(term) + 1.0
    }
}

impl DocumentFrequencies {
    /// The document frequencies of a reference collection (CoDet sect. 4 takes idf from one)
    /// for this collection's `vocabulary`: each term's df in the reference model, a term the
    /// reference never saw counting as occurring once (the rarest). The model's terms are
    /// refined words, so the collection must be prepared with [`Normaliser::Refine`].
    pub fn from_reference(vocabulary: &Vocabulary, model: &crate::model::ReferenceModel) -> Self {
        let df = (0..vocabulary.len())
            .map(|t| {
                model
                    .term_id(vocabulary.term(t as TermId))
                    .map_or(0, |id| model.df(id))
            })
            .collect();
        DocumentFrequencies {
            documents: u32::try_from(model.documents()).unwrap_or(u32::MAX),
            df,
        }
    }
}

/// The documents of a collection, ready for the detectors.
#[derive(Clone, Debug, Default)]
pub struct Collection {
    /// How each document is named in reports (usually its path).
    pub names: Vec<String>,
    pub documents: Vec<PreparedDocument>,
    pub vocabulary: Vocabulary,
    pub frequencies: DocumentFrequencies,
}

/// Documents prepared per parallel batch between two progress reports.
const BATCH: usize = 256;

impl Collection {
    /// Prepares `documents` (named by `names`, same order = stream order) with `normaliser`.
    pub fn from_documents(
        names: Vec<String>,
        documents: &[Document],
        normaliser: Normaliser,
        job: &mut Job<'_>,
    ) -> Result<Self, Cancelled> {
        let mut sentences = Vec::with_capacity(documents.len());
        let mut lengths = Vec::with_capacity(documents.len());
        for (batch_index, batch) in documents.chunks(BATCH).enumerate() {
            job.step("preparing", batch_index * BATCH, documents.len())?;
            let prepared: Vec<Vec<Vec<String>>> = batch
                .par_iter()
                .map(|doc| document_sentences(doc, normaliser))
                .collect();
            sentences.extend(prepared);
            lengths.extend(batch.iter().map(|d| d.text.len()));
        }
        job.step("preparing", documents.len(), documents.len())?;
        Ok(Self::from_terms(names, sentences, lengths))
    }

    /// A collection from documents already split into sentences of terms (tests, examples,
    /// other front ends). `lengths[i]` is document i's length for "keep the longest"; missing
    /// lengths count the terms.
    pub fn from_terms(
        names: Vec<String>,
        documents: Vec<Vec<Vec<String>>>,
        lengths: Vec<usize>,
    ) -> Self {
        let mut vocabulary = Vocabulary::default();
        let mut prepared = Vec::with_capacity(documents.len());
        for (index, sentences) in documents.into_iter().enumerate() {
            let sentences: Vec<Vec<TermId>> = sentences
                .into_iter()
                .filter(|s| !s.is_empty())
                .map(|s| s.iter().map(|t| vocabulary.intern(t)).collect())
                .collect();
            let mut doc = PreparedDocument {
                sentences,
                length: 0,
            };
            doc.length = lengths
                .get(index)
                .copied()
                .unwrap_or_else(|| doc.term_count());
            prepared.push(doc);
        }
        let mut names = names;
        names.resize_with(prepared.len(), String::new);
        let frequencies = count_frequencies(&prepared, vocabulary.len());
        Collection {
            names,
            documents: prepared,
            vocabulary,
            frequencies,
        }
    }

    /// Replaces the collection's own document frequencies with those of a reference collection
    /// of `documents` documents (the CoDet paper's setting); `df` gives a term's frequency there.
    pub fn use_reference_frequencies(&mut self, documents: u32, df: impl Fn(&str) -> u32) {
        let df = (0..self.vocabulary.len())
            .map(|id| df(self.vocabulary.term(id as TermId)))
            .collect();
        self.frequencies = DocumentFrequencies { documents, df };
    }

    pub fn len(&self) -> usize {
        self.documents.len()
    }

    pub fn is_empty(&self) -> bool {
        self.documents.is_empty()
    }

    /// The term of an id.
    pub fn term(&self, id: TermId) -> &str {
        self.vocabulary.term(id)
    }

    /// Every term id ranked by [`idf_order`] (idf descending, ties by text). `rank[id]` is the
    /// position of term `id` in that order, so sorting by rank sorts "by idf values in
    /// descending order" deterministically.
    pub fn idf_rank(&self) -> Vec<u32> {
        let mut order: Vec<TermId> = (0..self.vocabulary.len() as TermId).collect();
        order.sort_by(|&x, &y| {
            idf_order(
                (self.frequencies.idf(x), self.term(x)),
                (self.frequencies.idf(y), self.term(y)),
            )
        });
        let mut rank = vec![0u32; order.len()];
        for (position, id) in order.into_iter().enumerate() {
            rank[id as usize] = position as u32;
        }
        rank
    }
}

fn count_frequencies(documents: &[PreparedDocument], terms: usize) -> DocumentFrequencies {
    let mut df = vec![0u32; terms];
    let mut last_seen = vec![usize::MAX; terms];
    for (index, doc) in documents.iter().enumerate() {
        for term in doc.terms() {
            let t = term as usize;
            if last_seen[t] != index {
                last_seen[t] = index;
                df[t] += 1;
            }
        }
    }
    DocumentFrequencies {
        documents: u32::try_from(documents.len()).unwrap_or(u32::MAX),
        df,
    }
}

#[cfg(test)]
pub(crate) fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// A fixed pseudo-random sequence (xorshift64 from `seed`, not 0): each call gives a number
/// below its argument. For tests that generate collections which must be the same each run.
#[cfg(test)]
pub(crate) fn numbers(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut state = seed;
    move |below: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % below
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_frequencies_come_from_the_model_and_unknown_terms_are_rarest() {
        let model = crate::model::ReferenceModel::embedded();
        let mut vocabulary = Vocabulary::default();
        let common = vocabulary.intern("year");
        let unknown = vocabulary.intern("zzqxw");
        let frequencies = DocumentFrequencies::from_reference(&vocabulary, model);
        assert_eq!(u64::from(frequencies.documents), model.documents());
        let year = model
            .term_id("year")
            .expect("a common word of the reference");
        assert_eq!(frequencies.df[common as usize], model.df(year));
        assert!(frequencies.df[common as usize] > 100);
        assert_eq!(frequencies.df[unknown as usize], 0);
        assert!(frequencies.idf(unknown) > frequencies.idf(common));
    }

    #[test]
    fn first_five_truncation_keeps_numbers_and_drops_stopwords() {
        assert_eq!(
            Normaliser::StopwordsFirst5.terms("NASDAQ starts the day with an increase of 2%."),
            vec!["nasda", "start", "day", "incre", "2"]
        );
        assert_eq!(
            Normaliser::Refine.terms("NASDAQ starts the day with an increase of 2%."),
            vec!["nasdaq", "start", "day", "increas"]
        );
    }

    #[test]
    fn frequencies_count_documents_not_occurrences() {
        let c = Collection::from_terms(
            vec!["a".into(), "b".into()],
            vec![vec![words("x y x"), words("x")], vec![words("y z"), vec![]]],
            vec![],
        );
        let id = |t| c.vocabulary.id(t).unwrap();
        assert_eq!(c.frequencies.documents, 2);
        assert_eq!(c.frequencies.df[id("x") as usize], 1);
        assert_eq!(c.frequencies.df[id("y") as usize], 2);
        assert_eq!(
            c.documents[1].sentences.len(),
            1,
            "empty sentences are dropped"
        );
        assert_eq!(
            c.documents[0].length, 4,
            "length defaults to the term count"
        );
        assert!((c.frequencies.idf(id("x")) - 2f64.ln()).abs() < 1e-12);
        assert_eq!(c.frequencies.idf(id("y")), 0.0);
        assert_eq!(c.frequencies.idf_plus_one(id("y")), 1.0);
        // Ranked by idf descending, ties by text: x, z (idf ln 2), then y.
        let rank = c.idf_rank();
        assert_eq!(
            (
                rank[id("x") as usize],
                rank[id("z") as usize],
                rank[id("y") as usize]
            ),
            (0, 1, 2)
        );
    }

    #[test]
    fn ranking_outside_a_collection_equals_the_collections_rank() {
        let c = Collection::from_terms(
            vec![],
            vec![vec![words("x y z")], vec![words("y z")], vec![words("z w")]],
            vec![],
        );
        let rank = c.idf_rank();
        let df = |t: &str| c.frequencies.df[c.vocabulary.id(t).unwrap() as usize];
        // Document 0, with a repeated term: x (df 1), then y (df 2), then z (df 3).
        let ranked = rank_terms(
            &[("z", df("z")), ("x", df("x")), ("y", df("y")), ("x", 1)],
            3,
        );
        let names: Vec<&str> = ranked.iter().map(|r| r.0).collect();
        assert_eq!(names, vec!["x", "y", "z"]);
        let mut by_collection = vec!["z", "x", "y"];
        by_collection.sort_by_key(|t| rank[c.vocabulary.id(t).unwrap() as usize]);
        assert_eq!(names, by_collection);
        assert!((ranked[0].1 - 3f64.ln()).abs() < 1e-12);
        assert_eq!(ranked[2].1, 0.0);
        // Equal idf: by text.
        let tied = rank_terms(&[("b", 1), ("a", 1)], 3);
        assert_eq!(tied.iter().map(|r| r.0).collect::<Vec<_>>(), vec!["a", "b"]);
    }

    #[test]
    fn reference_frequencies_replace_the_collections_own() {
        let mut c = Collection::from_terms(vec![], vec![vec![words("x y")]], vec![]);
        c.use_reference_frequencies(100, |t| if t == "x" { 10 } else { 0 });
        let x = c.vocabulary.id("x").unwrap();
        let y = c.vocabulary.id("y").unwrap();
        assert!((c.frequencies.idf(x) - 10f64.ln()).abs() < 1e-12);
        assert!((c.frequencies.idf(y) - 100f64.ln()).abs() < 1e-12);
    }
}
