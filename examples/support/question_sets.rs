//! The sets `eval_collection -- presets` measures the detectors on, ready to run many times:
//! the sets with sources marked (the teacher's question) and the BBC versions set (the news
//! question), with the figures each question reads (`collection_presets.rs` has the criteria).

use std::collections::{HashMap, HashSet};
use std::path::Path;

use rayon::prelude::*;
use simdoc::collection::evidence::EvidenceOptions;
use simdoc::collection::fuzzy::judged::judged_pairs;
use simdoc::collection::roles::RoledPairs;
use simdoc::collection::{
    Collection, Detection, DocumentFrequencies, Method, Normaliser, fuzzy, hashing, without_job,
};
use simdoc::document::{self, Document, SourceFormat};
use simdoc::eval::metrics::harmonic_mean;
use simdoc::model::ReferenceModel;

use super::truth_sets::{self, Part, Set};

/// How a setting runs: a detector of the collection, or the fuzzy comparison of the documents.
#[derive(Clone)]
pub enum Config {
    Classic(Method),
    Fuzzy(fuzzy::FuzzyParams),
}

/// A set ready to run: prepared once, run many times.
pub struct Ready {
    pub name: &'static str,
    pub documents: Vec<Document>,
    pub collection: Collection,
    /// idf of the documents themselves (the default), kept while the reference model's is tried.
    pub own_frequencies: DocumentFrequencies,
    /// Fuzzy resemblances by matching settings (containment left out): the costly part of the
    /// fuzzy comparison, shared by every containment cut.
    pub fuzzy_cache: HashMap<String, fuzzy::Resemblances>,
    /// The pairs judged against chance by the same key, at no reporting cut.
    pub judged_cache: HashMap<String, Vec<simdoc::collection::DetectedPair>>,
}

impl Ready {
    pub fn new(name: &'static str, documents: Vec<Document>) -> Ready {
        let names = (0..documents.len()).map(|i| i.to_string()).collect();
        let collection = without_job(|job| {
            Collection::from_documents(names, &documents, Normaliser::Refine, job)
        })
        .expect("never cancelled");
        Ready {
            name,
            documents,
            own_frequencies: collection.frequencies.clone(),
            collection,
            fuzzy_cache: HashMap::new(),
            judged_cache: HashMap::new(),
        }
    }

    pub fn detect(&mut self, config: &Config) -> Detection {
        match config {
            Config::Classic(method) => {
                without_job(|job| method.detect(&self.collection, job)).expect("never cancelled")
            }
            Config::Fuzzy(params) => {
                let key = format!(
                    "{:?}",
                    fuzzy::FuzzyParams {
                        containment: 0.0,
                        min_resemblance: 0.0,
                        ..*params
                    }
                );
                let documents = &self.documents;
                let r = self.fuzzy_cache.entry(key.clone()).or_insert_with(|| {
                    without_job(|job| {
                        fuzzy::resemblances(documents, ReferenceModel::embedded(), params, job)
                    })
                    .expect("never cancelled")
                });
                if params.chance_search.is_none() {
                    return Detection::from_pairs(r.reported_pairs(params), &self.collection);
                }
                // Judged against chance: every candidate compared once (at no reporting cut),
                // then cut by the pair's score, its containment (the larger one for reuse; a
                // containment or duplicate pair's reaches 0.9 and every cut of the grids).
                let judged = self.judged_cache.entry(key).or_insert_with(|| {
                    let all = fuzzy::FuzzyParams {
                        min_resemblance: 0.0,
                        ..*params
                    };
                    let options = EvidenceOptions::of_fuzzy(&all);
                    without_job(|job| {
                        judged_pairs(
                            r,
                            documents,
                            ReferenceModel::embedded(),
                            &all,
                            &options,
                            job,
                        )
                    })
                    .expect("never cancelled")
                    .pairs
                });
                let kept = judged
                    .iter()
                    .filter(|p| p.score >= params.min_resemblance)
                    .copied()
                    .collect();
                Detection::from_pairs(kept, &self.collection)
            }
        }
    }
}

/// A set with sources marked (teacher question).
pub struct TeacherSet {
    pub ready: Ready,
    pub sources: usize,
    /// Per submission, its own sources (empty: clean).
    pub own: Vec<Vec<usize>>,
    /// Per submission, how it was made.
    pub kinds: Vec<&'static str>,
}

impl TeacherSet {
    pub fn new(set: Set) -> TeacherSet {
        let sources = set.sources.len();
        let mut documents = set.sources;
        let mut own = Vec::new();
        let mut kinds = Vec::new();
        for (doc, sources_of, kind) in set.documents {
            documents.push(doc);
            own.push(sources_of);
            kinds.push(kind);
        }
        TeacherSet {
            ready: Ready::new(set.name, documents),
            sources,
            own,
            kinds,
        }
    }

    pub fn measure(&mut self, config: &Config) -> TeacherFigures {
        let detection = self.ready.detect(config);
        let n = self.sources;
        let is_source: Vec<bool> = (0..n + self.own.len()).map(|d| d < n).collect();
        let roled = RoledPairs::split(&detection.pairs, &is_source);
        // (submission, source) of every submission-source pair.
        let pairs: Vec<(usize, usize)> = roled
            .submission_source
            .iter()
            .map(|p| {
                if p.a < n {
                    (p.b - n, p.a)
                } else {
                    (p.a - n, p.b)
                }
            })
            .collect();
        let own = |d: usize, s: usize| self.own[d].contains(&s);
        let mut attributed_documents = HashSet::new();
        let mut flagged_clean = HashSet::new();
        let mut right = 0;
        for &(d, s) in &pairs {
            if own(d, s) {
                right += 1;
                attributed_documents.insert(d);
            }
            if self.own[d].is_empty() {
                flagged_clean.insert(d);
            }
        }
        let mut by_kind: Vec<(&'static str, usize, usize)> = Vec::new();
        for (d, &kind) in self.kinds.iter().enumerate() {
            if self.own[d].is_empty() {
                continue;
            }
            let hit = usize::from(attributed_documents.contains(&d));
            match by_kind.iter_mut().find(|k| k.0 == kind) {
                Some(k) => {
                    k.1 += hit;
                    k.2 += 1;
                }
                None => by_kind.push((kind, hit, 1)),
            }
        }
        TeacherFigures {
            by_kind: by_kind
                .iter()
                .map(|&(_, hit, of)| format!("{:.1}%", 100.0 * ratio(hit, of)))
                .collect::<Vec<_>>()
                .join(" · "),
            contained: self.own.iter().filter(|o| !o.is_empty()).count(),
            attributed: attributed_documents.len(),
            right_pairs: right,
            false_pairs: pairs.len() - right,
            clean_flagged: flagged_clean.len(),
            between_submissions: roled.submission_submission.len(),
        }
    }
}

#[derive(Clone, Default)]
pub struct TeacherFigures {
    /// Attribution per kind of contained submission (e.g. "100.0% · 86.0%").
    pub by_kind: String,
    pub contained: usize,
    pub attributed: usize,
    pub right_pairs: usize,
    pub false_pairs: usize,
    pub clean_flagged: usize,
    pub between_submissions: usize,
}

impl TeacherFigures {
    pub fn attribution(&self) -> f64 {
        ratio(self.attributed, self.contained)
    }
    pub fn precision(&self) -> f64 {
        ratio(self.right_pairs, self.right_pairs + self.false_pairs)
    }
    pub fn f1(&self) -> f64 {
        harmonic_mean(self.precision(), self.attribution())
    }
}

/// The BBC versions set (module docs).
pub struct NewsSet {
    pub ready: Ready,
    /// Story of each document: equal = versions of one story.
    pub story: Vec<usize>,
    pub truth_pairs: usize,
    /// Distinct refined terms of each document.
    pub terms: Vec<HashSet<u32>>,
}

impl NewsSet {
    pub fn new(data: &Path, part: Part) -> NewsSet {
        let dir = truth_sets::bbc_articles_dir(data);
        let parity = match part {
            Part::Tune => 0,
            Part::HeldOut => 1,
        };
        let names: Vec<String> = truth_sets::bbc_names(&dir)
            .into_iter()
            .skip(parity)
            .step_by(2)
            .collect();
        let bytes: Vec<Vec<u8>> = names
            .iter()
            .map(|n| std::fs::read(dir.join(n)).expect("article"))
            .collect();
        let mut documents: Vec<Document> = names
            .par_iter()
            .zip(&bytes)
            .map(|(n, b)| document::parse_bytes(b, &dir.join(n), None).expect("article parses"))
            .collect();
        let mut ids: HashMap<[u8; 20], usize> = HashMap::new();
        let mut story: Vec<usize> = bytes
            .iter()
            .map(|b| {
                let next = ids.len();
                *ids.entry(hashing::sha1(b)).or_insert(next)
            })
            .collect();
        for j in (0..names.len()).step_by(4) {
            let text = String::from_utf8_lossy(&bytes[j]);
            let version = match (j / 4) % 4 {
                0 => document::parse_bytes(&bytes[j], &dir.join(&names[j]), None)
                    .expect("article parses"),
                1 => text_document(&cut_last_paragraph(&text)),
                2 => {
                    let next = String::from_utf8_lossy(&bytes[(j + 1) % bytes.len()]);
                    text_document(&format!("{}\n\n{}", text.trim_end(), last_paragraph(&next)))
                }
                _ => text_document(&delete_every_nth_word(&text, 12)),
            };
            documents.push(version);
            story.push(story[j]);
        }
        let mut sizes: HashMap<usize, usize> = HashMap::new();
        for &s in &story {
            *sizes.entry(s).or_default() += 1;
        }
        let truth_pairs = sizes.values().map(|&k| k * (k - 1) / 2).sum();
        let ready = Ready::new("bbc versions", documents);
        let terms = ready
            .collection
            .documents
            .iter()
            .map(|d| d.terms().collect())
            .collect();
        NewsSet {
            ready,
            story,
            truth_pairs,
            terms,
        }
    }

    pub fn word_containment(&self, inner: usize, outer: usize) -> f64 {
        let (a, b) = (&self.terms[inner], &self.terms[outer]);
        ratio(a.intersection(b).count(), a.len())
    }

    pub fn measure(&mut self, config: &Config) -> NewsFigures {
        let detection = self.ready.detect(config);
        let pairs: HashSet<(usize, usize)> = detection
            .pairs
            .iter()
            .map(|p| (p.a.min(p.b), p.a.max(p.b)))
            .collect();
        let mut figures = NewsFigures {
            truth: self.truth_pairs,
            ..Default::default()
        };
        for &(a, b) in &pairs {
            if self.story[a] == self.story[b] {
                figures.right += 1;
            } else if self.word_containment(a, b) >= 0.9 || self.word_containment(b, a) >= 0.9 {
                figures.unknown_versions += 1;
            } else {
                figures.false_pairs += 1;
            }
        }
        figures
    }
}

#[derive(Clone, Copy, Default)]
pub struct NewsFigures {
    pub truth: usize,
    pub right: usize,
    pub false_pairs: usize,
    pub unknown_versions: usize,
}

impl NewsFigures {
    pub fn recall(&self) -> f64 {
        ratio(self.right, self.truth)
    }
    pub fn precision(&self) -> f64 {
        ratio(self.right, self.right + self.false_pairs)
    }
    pub fn f1(&self) -> f64 {
        harmonic_mean(self.precision(), self.recall())
    }
}

pub fn text_document(text: &str) -> Document {
    document::parse_text(text, "version", SourceFormat::Text)
}

pub fn paragraphs(text: &str) -> Vec<&str> {
    text.split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

pub fn cut_last_paragraph(text: &str) -> String {
    let p = paragraphs(text);
    p[..p.len().saturating_sub(1).max(1)].join("\n\n")
}

pub fn last_paragraph(text: &str) -> String {
    paragraphs(text)
        .last()
        .copied()
        .unwrap_or_default()
        .to_string()
}

pub fn delete_every_nth_word(text: &str, n: usize) -> String {
    paragraphs(text)
        .iter()
        .map(|p| {
            p.split_whitespace()
                .enumerate()
                .filter(|(i, _)| (i + 1) % n != 0)
                .map(|(_, w)| w)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

pub fn ratio(n: usize, d: usize) -> f64 {
    if d == 0 { 0.0 } else { n as f64 / d as f64 }
}
