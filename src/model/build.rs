//! Building a [`ReferenceModel`] from a corpus on disk.
//!
//! Files are listed and read with [`crate::corpus`] (plain text, HTML, WikiExtractor and
//! Reuters-21578 container files, folders recursively) and parsed into documents. For each
//! document, in parallel:
//! - its *units*: the whole document, or each hierarchy node's own sentences (a paragraph, a
//!   heading, a list item; one line of WikiExtractor output) — see [`CooccurrenceUnit`]; or,
//!   for word vectors ([`Relatedness::Vectors`]), each sentence's terms in order;
//! - each sentence is refined ([`crate::text::refine`]); a unit's terms are the distinct refined
//!   terms of its sentences; a document's terms give its document frequencies;
//! - the character 4-grams of each refined, space-free sentence ([`crate::text::refined_string`],
//!   [`crate::text::fourgrams`]) are counted, every occurrence.
//!
//! Sentences in boilerplate regions (HTML `nav`, `footer`, ...) are skipped: they are not the
//! running text a reference collection stands for. Units and documents without any refined term
//! are not counted.
//!
//! Files are read by rayon's workers and merged one at a time on the calling thread through a
//! small bounded channel, so memory holds the merged statistics and a few files in flight, not the
//! whole corpus.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::cooccurrence::{self, Units};
use super::correlations::CorrelationError;
use super::fourgrams::FourgramTable;
use super::vectors::{self, Sequences};
use super::vocabulary::Vocabulary;
use super::{
    CollectionCounts, CooccurrenceUnit, InvalidModel, ModelParams, ReferenceModel, Relatedness,
    TermId,
};
use crate::corpus;
use crate::document::{Document, LoadError, LoadOptions, SourceFormat};
use crate::text;

/// Reports how a build is going, and lets a caller stop it. Called from several threads.
pub trait BuildProgress: Sync {
    /// A new phase starts, with `total` steps (files, then terms).
    fn phase(&self, name: &str, total: u64);
    /// `steps` more steps of the current phase are done.
    fn advance(&self, steps: u64);
    /// Whether the caller wants the build to stop ([`BuildError::Cancelled`]).
    fn cancelled(&self) -> bool {
        false
    }
}

/// Progress that nobody watches.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl BuildProgress for NoProgress {
    fn phase(&self, _name: &str, _total: u64) {}
    fn advance(&self, _steps: u64) {}
}

/// Why a model could not be built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// A corpus file could not be listed or read (the error names it).
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error("no file under the given paths holds any text")]
    Empty,
    #[error("the corpus has more than 4 Gi co-occurrence units or terms")]
    TooLarge,
    #[error("invalid parameters: {0}")]
    Params(InvalidModel),
    #[error("the build was cancelled")]
    Cancelled,
}

impl From<CorrelationError> for BuildError {
    fn from(_: CorrelationError) -> Self {
        // The builder only makes pairs of distinct ids below the term count; the one error it can
        // meet is the entry count limit.
        BuildError::TooLarge
    }
}

/// Builds a model from the files under `paths` (see the module docs). The source note names the
/// paths; callers may replace it ([`ReferenceModel::set_source`]).
pub fn build(
    paths: &[PathBuf],
    params: &ModelParams,
    progress: &dyn BuildProgress,
) -> Result<ReferenceModel, BuildError> {
    params.validate().map_err(BuildError::Params)?;
    let files = corpus::list_files(paths)?;
    progress.phase("reading files", files.len() as u64);
    let options = LoadOptions::default();
    let stop = AtomicBool::new(false);
    let mut collector = Collector::default();
    let (sender, receiver) = mpsc::sync_channel::<Result<Batch, LoadError>>(4);
    std::thread::scope(|scope| -> Result<(), BuildError> {
        let stop = &stop;
        let options = &options;
        scope.spawn(move || {
            files.par_iter().for_each_with(sender, |sender, file| {
                if stop.load(Ordering::Relaxed) || progress.cancelled() {
                    return;
                }
                let batch = read_file(file, options, params);
                // A closed channel means the receiver stopped on an error; nothing to do.
                let _ = sender.send(batch);
            });
        });
        for batch in receiver {
            match batch {
                Ok(batch) => collector.merge(batch),
                Err(err) => {
                    stop.store(true, Ordering::Relaxed);
                    return Err(err.into());
                }
            }
            progress.advance(1);
            if progress.cancelled() {
                stop.store(true, Ordering::Relaxed);
                return Err(BuildError::Cancelled);
            }
        }
        Ok(())
    })?;
    if progress.cancelled() {
        return Err(BuildError::Cancelled);
    }
    if collector.counts.documents == 0 {
        return Err(BuildError::Empty);
    }
    let note = format!(
        "built from {}",
        paths
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    collector.finish(params, note, progress)
}

/// Builds a model from texts in memory, each parsed as a plain-text document (blank lines
/// separate paragraphs). For tests and small tools.
pub fn build_from_texts(
    texts: &[&str],
    params: &ModelParams,
) -> Result<ReferenceModel, BuildError> {
    params.validate().map_err(BuildError::Params)?;
    let documents: Vec<Document> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| crate::document::parse_text(t, &format!("text {i}"), SourceFormat::Text))
        .collect();
    let mut collector = Collector::default();
    collector.merge(Batch::from_documents(&documents, params));
    collector.finish(
        params,
        "built from texts in memory".to_string(),
        &NoProgress,
    )
}

/// One file's statistics, with term ids local to the batch.
#[derive(Debug, Default)]
struct Batch {
    terms: Vec<String>,
    /// Each document's distinct terms.
    documents: Units,
    /// Each unit's distinct terms; `None` when the unit is the document (see `documents`).
    units: Option<Units>,
    /// Each sentence's terms in order, for word vectors; `None` otherwise.
    sequences: Option<Sequences>,
    fourgrams: FxHashMap<[char; 4], u64>,
    sentences: u64,
    tokens: u64,
}

fn read_file(path: &Path, options: &LoadOptions, params: &ModelParams) -> Result<Batch, LoadError> {
    let entries = corpus::read_entries(path, options)?;
    let documents: Vec<Document> = entries.iter().map(|e| e.to_document()).collect();
    Ok(Batch::from_documents(&documents, params))
}

impl Batch {
    fn from_documents(documents: &[Document], params: &ModelParams) -> Batch {
        let vectors = matches!(params.relatedness, Relatedness::Vectors(_));
        let mut batch = Batch {
            units: (!vectors && params.unit == CooccurrenceUnit::Paragraph).then(Units::new),
            sequences: vectors.then(Sequences::new),
            ..Batch::default()
        };
        let mut sentence_terms: Vec<TermId> = Vec::new();
        let mut ids: FxHashMap<String, TermId> = FxHashMap::default();
        let mut doc_terms: Vec<TermId> = Vec::new();
        let mut unit_terms: Vec<TermId> = Vec::new();
        for doc in documents {
            doc_terms.clear();
            for node in doc.nodes.iter().filter(|n| !n.boilerplate) {
                unit_terms.clear();
                for sentence in &doc.sentences[node.own_sentences.clone()] {
                    let refined = text::refine(&sentence.text);
                    batch.sentences += 1;
                    batch.tokens += refined.len() as u64;
                    for gram in text::fourgrams(&text::refined_string(&refined)) {
                        *batch.fourgrams.entry(gram).or_default() += 1;
                    }
                    sentence_terms.clear();
                    for term in refined {
                        let next = batch.terms.len() as TermId;
                        let id = *ids.entry(term).or_insert_with_key(|term| {
                            batch.terms.push(term.clone());
                            next
                        });
                        unit_terms.push(id);
                        sentence_terms.push(id);
                    }
                    if let Some(sequences) = &mut batch.sequences {
                        sequences.push(&sentence_terms);
                    }
                }
                doc_terms.extend_from_slice(&unit_terms);
                if let Some(units) = &mut batch.units
                    && !unit_terms.is_empty()
                {
                    units.push(&mut unit_terms);
                }
            }
            if !doc_terms.is_empty() {
                batch.documents.push(&mut doc_terms);
            }
        }
        batch
    }
}

/// The statistics merged so far, with term ids in order of first appearance.
#[derive(Debug, Default)]
struct Collector {
    ids: FxHashMap<String, TermId>,
    terms: Vec<String>,
    df: Vec<u32>,
    units: Units,
    sequences: Sequences,
    fourgrams: FxHashMap<[char; 4], u64>,
    counts: CollectionCounts,
}

impl Collector {
    fn merge(&mut self, batch: Batch) {
        let local: Vec<TermId> = batch
            .terms
            .into_iter()
            .map(|term| {
                let next = self.terms.len() as TermId;
                *self.ids.entry(term).or_insert_with_key(|term| {
                    self.terms.push(term.clone());
                    self.df.push(0);
                    next
                })
            })
            .collect();
        let mut row = Vec::new();
        let unit_rows = batch.units.as_ref().unwrap_or(&batch.documents);
        for u in 0..batch.documents.len() {
            for &t in batch.documents.unit(u) {
                self.df[local[t as usize] as usize] += 1;
            }
        }
        if let Some(sequences) = &batch.sequences {
            self.sequences.extend_mapped(sequences, &local);
        } else {
            for u in 0..unit_rows.len() {
                row.clear();
                row.extend(unit_rows.unit(u).iter().map(|&t| local[t as usize]));
                self.units.push(&mut row);
            }
        }
        for (gram, n) in batch.fourgrams {
            *self.fourgrams.entry(gram).or_default() += n;
        }
        self.counts.documents += batch.documents.len() as u64;
        self.counts.units += unit_rows.len() as u64;
        self.counts.sentences += batch.sentences;
        self.counts.tokens += batch.tokens;
    }

    /// Sorts the vocabulary, computes the correlations and the 4-gram table.
    fn finish(
        mut self,
        params: &ModelParams,
        source: String,
        progress: &dyn BuildProgress,
    ) -> Result<ReferenceModel, BuildError> {
        if self.terms.len() >= u32::MAX as usize || self.counts.units >= u64::from(u32::MAX) {
            return Err(BuildError::TooLarge);
        }
        let mut order: Vec<TermId> = (0..self.terms.len() as TermId).collect();
        order.sort_unstable_by(|&a, &b| self.terms[a as usize].cmp(&self.terms[b as usize]));
        let mut new_id = vec![0 as TermId; order.len()];
        for (sorted, &old) in order.iter().enumerate() {
            new_id[old as usize] = sorted as TermId;
        }
        let vocabulary = Vocabulary::from_sorted(
            &order
                .iter()
                .map(|&old| self.terms[old as usize].as_str())
                .collect::<Vec<_>>(),
        )
        .map_err(|_| BuildError::TooLarge)?;
        let df: Vec<u32> = order.iter().map(|&old| self.df[old as usize]).collect();
        drop(self.ids);
        let correlations = match &params.relatedness {
            Relatedness::Cooccurrence => {
                self.units.remap(&new_id);
                cooccurrence::correlations(&self.units, vocabulary.len(), params, progress)?
            }
            Relatedness::Vectors(vector_params) => {
                self.sequences.remap(&new_id);
                vectors::correlations(
                    &self.sequences,
                    vocabulary.len(),
                    vector_params,
                    params.floor,
                    params.per_term,
                    progress,
                )?
            }
        };
        drop(self.units);
        drop(self.sequences);
        let fourgrams = FourgramTable::from_counts(&self.fourgrams);
        ReferenceModel::assemble(
            *params,
            source,
            self.counts,
            vocabulary,
            df,
            correlations,
            fourgrams,
        )
        .map_err(BuildError::Params)
    }
}
