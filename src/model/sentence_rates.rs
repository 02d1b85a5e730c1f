//! How common each term is in the reference collection's *sentences*: the rate a document's
//! word would have if nothing tied it to the other document, which the chance model of a
//! comparison leans on where the documents cannot say ([`crate::compare::chance::null`]).
//!
//! A comparison judges a pair of sentences by how unlikely its shared words are by chance. It
//! reads each word's rate from the documents themselves (so that a topic's words, common in
//! both, count little), but a document of four sentences cannot tell a rare word from a common
//! one, and a document that is mostly a copy learns its rates from the copy. The reference
//! collection's share of sentences holding the word is the rate that knows neither document.
//! Document frequencies overstate it (a word in one sentence of an article holds the whole
//! article), so these are counted per sentence, with the terms a comparison uses: refined with
//! stopwords and numbers kept ([`crate::text::RefineOptions::MEASURED`]), content words by the
//! model's term ids, stopwords and numbers by their text.
//!
//! Stored in the model file (format version 4, [`super::format`]):
//! 1. the sentences counted, a varint;
//! 2. per vocabulary term, in id order, the sentences holding it (varint);
//! 3. the stopwords and numbers held by at least [`LEAST_COUNT_KEPT`] sentences: their number,
//!    then each as its text (string) and count (varint), in increasing order of text.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::build::{BuildError, BuildProgress};
use super::codec::{Reader, Writer};
use super::{ReferenceModel, TermId};
use crate::corpus;
use crate::document::{Document, LoadOptions};
use crate::text::{self, RefineOptions, TermKind};

/// Stopwords and numbers held by fewer sentences are not stored (a number seen twice in 800,000
/// sentences is as rare as an unseen one, and there are many).
pub const LEAST_COUNT_KEPT: u32 = 3;

/// The reference collection's sentences holding each term (see the module docs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SentenceRates {
    sentences: u64,
    /// Per vocabulary term id.
    per_term: Vec<u32>,
    /// Stopwords and numbers by text, sorted.
    by_text: Vec<(String, u32)>,
}

/// What one batch of documents counted.
#[derive(Default)]
struct Tally {
    sentences: u64,
    per_term: FxHashMap<TermId, u32>,
    by_text: FxHashMap<String, u32>,
}

impl Tally {
    fn add_documents(&mut self, documents: &[Document], model: &ReferenceModel) {
        let mut seen_terms: Vec<TermId> = Vec::new();
        let mut seen_texts: Vec<String> = Vec::new();
        for doc in documents {
            for node in doc.nodes.iter().filter(|n| !n.boilerplate) {
                for sentence in &doc.sentences[node.own_sentences.clone()] {
                    seen_terms.clear();
                    seen_texts.clear();
                    for (term, kind) in text::refine_with(&sentence.text, &RefineOptions::MEASURED)
                    {
                        match (kind, model.term_id(&term)) {
                            (TermKind::Content, Some(id)) => seen_terms.push(id),
                            (TermKind::Content, None) => {}
                            (TermKind::Stopword | TermKind::Number, _) => seen_texts.push(term),
                        }
                    }
                    if seen_terms.is_empty() && seen_texts.is_empty() {
                        continue;
                    }
                    self.sentences += 1;
                    seen_terms.sort_unstable();
                    seen_terms.dedup();
                    for &id in &seen_terms {
                        *self.per_term.entry(id).or_default() += 1;
                    }
                    seen_texts.sort_unstable();
                    seen_texts.dedup();
                    for t in seen_texts.drain(..) {
                        *self.by_text.entry(t).or_default() += 1;
                    }
                }
            }
        }
    }

    fn merge(mut self, other: Tally) -> Tally {
        self.sentences += other.sentences;
        for (id, n) in other.per_term {
            *self.per_term.entry(id).or_default() += n;
        }
        for (t, n) in other.by_text {
            *self.by_text.entry(t).or_default() += n;
        }
        self
    }

    fn finish(self, terms: usize) -> SentenceRates {
        let mut per_term = vec![0u32; terms];
        for (id, n) in self.per_term {
            if let Some(slot) = per_term.get_mut(id as usize) {
                *slot = n;
            }
        }
        let mut by_text: Vec<(String, u32)> = self
            .by_text
            .into_iter()
            .filter(|&(_, n)| n >= LEAST_COUNT_KEPT)
            .collect();
        by_text.sort_unstable();
        SentenceRates {
            sentences: self.sentences,
            per_term,
            by_text,
        }
    }
}

impl SentenceRates {
    /// Counts the sentences of the files under `paths` (read as [`super::build()`] reads a
    /// corpus) holding each term of `model`, and each stopword and number.
    pub fn count(
        paths: &[PathBuf],
        model: &ReferenceModel,
        progress: &dyn BuildProgress,
    ) -> Result<SentenceRates, BuildError> {
        let files = corpus::list_files(paths)?;
        progress.phase("counting sentences", files.len() as u64);
        let options = LoadOptions::default();
        let stop = AtomicBool::new(false);
        let tally = files
            .par_iter()
            .map(|file| -> Result<Tally, BuildError> {
                let mut tally = Tally::default();
                if stop.load(Ordering::Relaxed) || progress.cancelled() {
                    stop.store(true, Ordering::Relaxed);
                    return Err(BuildError::Cancelled);
                }
                let entries = corpus::read_entries(file, &options)?;
                let documents: Vec<Document> = entries.iter().map(|e| e.to_document()).collect();
                tally.add_documents(&documents, model);
                progress.advance(1);
                Ok(tally)
            })
            .try_reduce(Tally::default, |a, b| Ok(a.merge(b)))?;
        if tally.sentences == 0 {
            return Err(BuildError::Empty);
        }
        Ok(tally.finish(model.term_count()))
    }

    /// Counts the sentences of documents in memory (for tests and small tools).
    pub fn count_documents(documents: &[Document], model: &ReferenceModel) -> SentenceRates {
        let mut tally = Tally::default();
        tally.add_documents(documents, model);
        tally.finish(model.term_count())
    }

    /// The sentences counted.
    pub fn sentences(&self) -> u64 {
        self.sentences
    }

    /// The stopwords and numbers stored.
    pub fn texts_kept(&self) -> usize {
        self.by_text.len()
    }

    /// The share of sentences holding vocabulary term `id`; a term never seen in a sentence, or
    /// outside the vocabulary, at [`Self::unseen_rate`].
    pub fn term_rate(&self, id: TermId) -> f64 {
        match self.per_term.get(id as usize) {
            Some(&n) if n > 0 => self.rate(n),
            _ => self.unseen_rate(),
        }
    }

    /// The share of sentences holding a stopword or number, by its refined text; one held by
    /// fewer than [`LEAST_COUNT_KEPT`] at [`Self::unseen_rate`] (so never above that count's).
    pub fn text_rate(&self, text: &str) -> f64 {
        match self.by_text.binary_search_by(|(t, _)| t.as_str().cmp(text)) {
            Ok(i) => self.rate(self.by_text[i].1),
            Err(_) => self.unseen_rate(),
        }
    }

    /// The rate given to what the collection shows in no sentence (or in too few to store): half
    /// a sentence, as a document frequency of 0 is read elsewhere.
    pub fn unseen_rate(&self) -> f64 {
        self.rate_of(0.5)
    }

    fn rate(&self, n: u32) -> f64 {
        self.rate_of(f64::from(n))
    }

    fn rate_of(&self, n: f64) -> f64 {
        (n / self.sentences.max(1) as f64).min(1.0)
    }

    pub(crate) fn encode(&self, w: &mut Writer) {
        w.varint(self.sentences);
        for &n in &self.per_term {
            w.varint(u64::from(n));
        }
        w.varint(self.by_text.len() as u64);
        for (t, n) in &self.by_text {
            w.string(t);
            w.varint(u64::from(*n));
        }
    }

    /// Reads what [`Self::encode`] wrote for a model of `terms` terms; every count at most the
    /// sentences counted, texts strictly increasing.
    pub(crate) fn decode(r: &mut Reader<'_>, terms: usize) -> Result<SentenceRates, String> {
        let sentences = r.varint()?;
        let check = |n: u32, what: &str| {
            if u64::from(n) > sentences {
                Err(format!(
                    "{what} is held by {n} sentences, more than the {sentences} counted"
                ))
            } else {
                Ok(n)
            }
        };
        if terms > r.remaining() {
            return Err(format!(
                "sentence rates: {terms} terms announced, more than the remaining {} bytes hold",
                r.remaining()
            ));
        }
        let mut per_term = Vec::with_capacity(terms);
        for id in 0..terms {
            per_term.push(check(
                r.varint_u32("a sentence count")?,
                &format!("term {id}"),
            )?);
        }
        let kept = r.count("sentence rates' texts", 2)?;
        let mut by_text: Vec<(String, u32)> = Vec::with_capacity(kept);
        for _ in 0..kept {
            let t = r.string("a stopword or number")?.to_string();
            if by_text.last().is_some_and(|(last, _)| *last >= t) {
                return Err("sentence rates' texts are not increasing".to_string());
            }
            let n = check(r.varint_u32("a sentence count")?, &format!("{t:?}"))?;
            by_text.push((t, n));
        }
        Ok(SentenceRates {
            sentences,
            per_term,
            by_text,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::{SourceFormat, parse_text};
    use crate::model::{ModelParams, build_from_texts};

    #[test]
    fn rates_are_shares_of_sentences_with_stopwords_and_numbers_by_text() {
        let texts = [
            "The cat sat on the mat. The dog ran in 1999.\n\nA cat and a dog.",
            "Cats sleep. Dogs bark in 1999. The end of 1999 came.",
        ];
        let model = build_from_texts(&texts, &ModelParams::default()).expect("model");
        let docs: Vec<Document> = texts
            .iter()
            .map(|t| parse_text(t, "t", SourceFormat::Text))
            .collect();
        let rates = SentenceRates::count_documents(&docs, &model);
        assert_eq!(rates.sentences(), 6);
        let cat = model.term_id("cat").expect("cat is a term");
        // "cat" (stemmed: "cat", "cats") in three of six sentences.
        assert!((rates.term_rate(cat) - 0.5).abs() < 1e-12);
        // "the" in three sentences, "1999" in three: kept; "and" in one: unseen.
        assert!((rates.text_rate("the") - 0.5).abs() < 1e-12);
        assert!((rates.text_rate("1999") - 0.5).abs() < 1e-12);
        assert_eq!(rates.text_rate("and"), rates.unseen_rate());
        assert!((rates.unseen_rate() - 0.5 / 6.0).abs() < 1e-12);

        let mut w = Writer::default();
        rates.encode(&mut w);
        let decoded = SentenceRates::decode(&mut Reader::new(&w.out), model.term_count());
        assert_eq!(decoded, Ok(rates));
    }

    #[test]
    fn a_forged_table_is_refused() {
        // Two terms, one sentence counted, a term held by two sentences.
        let mut w = Writer::default();
        w.varint(1);
        w.varint(1);
        w.varint(2);
        w.varint(0);
        let err = SentenceRates::decode(&mut Reader::new(&w.out), 2).expect_err("refused");
        assert!(err.contains("more than the 1 counted"), "{err}");
        // Texts out of order.
        let mut w = Writer::default();
        w.varint(5);
        w.varint(2);
        for t in ["of", "and"] {
            w.string(t);
            w.varint(1);
        }
        let err = SentenceRates::decode(&mut Reader::new(&w.out), 0).expect_err("refused");
        assert!(err.contains("not increasing"), "{err}");
    }
}
