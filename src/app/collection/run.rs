//! A collection run in the background: read the folder (and the sources), run the chosen
//! detector with its preset's parameters, and the fuzzy comparison's matrix for small
//! collections; or read a result simdoc-spark wrote.

use std::path::PathBuf;
use std::sync::Arc;

use super::result::CollectionResult;
use crate::collection::presets::{CollectionPreset, Detector};
use crate::collection::roles::RoledPairs;
use crate::collection::{self, Collection, Job, Normaliser, fuzzy};
use crate::corpus;
use crate::document::LoadOptions;
use crate::model::ReferenceModel;
use crate::selection::FileSelection;

/// Most documents the heatmap (the pairwise fuzzy comparison) is computed for.
const MAX_MATRIX: usize = 300;

/// A result that simdoc-spark wrote (a folder with run.json and Parquet tables), shown as a
/// run here would be; its documents are loaded from their files when a pair is opened.
fn from_tables(folder: &std::path::Path) -> Result<CollectionResult, String> {
    let read = collection::tables::read_results(folder).map_err(|e| e.to_string())?;
    let detector = Detector::ALL
        .into_iter()
        .find(|d| d.name() == read.method)
        .ok_or_else(|| format!("{}: unknown method {}", folder.display(), read.method))?;
    let pairs = RoledPairs::split(&read.detection.pairs, &[])
        .iter()
        .map(|(kind, p)| (kind, *p))
        .collect();
    Ok(CollectionResult {
        detector,
        preset: None,
        fuzzy: None,
        names: read.names,
        documents: Vec::new(),
        pairs,
        sources: 0,
        groups: read.detection.groups.clone(),
        detection: read.detection,
        matrix: None,
        skipped: read.unreadable.into_iter().map(|u| u.error).collect(),
        notes: Vec::new(),
        cluster_evidence: read.compared,
    })
}

/// The files of `folder` that are documents, in name order; files describing the folder
/// (README, SOURCE, LICENSE, ...) are left out and listed in `skipped`.
fn folder_files(
    folder: &std::path::Path,
    skipped: &mut Vec<String>,
) -> Result<Vec<PathBuf>, String> {
    let selected = FileSelection::default()
        .list(&[folder.to_path_buf()])
        .map_err(|e| e.to_string())?;
    for (path, reason) in selected.skipped {
        skipped.push(format!("{}: {}", path.display(), reason.describe()));
    }
    skipped.extend(selected.unreadable.iter().map(ToString::to_string));
    Ok(selected.files)
}

pub fn run(
    folder: &std::path::Path,
    sources: Option<&std::path::Path>,
    (preset, detector): (CollectionPreset, Detector),
    include_boilerplate: bool,
    job: &mut Job<'_>,
) -> Result<CollectionResult, String> {
    if folder.join("run.json").is_file() {
        return from_tables(folder);
    }
    let mut skipped = Vec::new();
    // Sources first in the stream; a file under both folders is a source.
    let source_files = match sources {
        Some(dir) => folder_files(dir, &mut skipped)?,
        None => Vec::new(),
    };
    let mut files = source_files.clone();
    for file in folder_files(folder, &mut skipped)? {
        if !source_files.contains(&file) {
            files.push(file);
        }
    }
    let mut names = Vec::new();
    let mut documents = Vec::new();
    let mut source_count = 0;
    for (i, file) in files.iter().enumerate() {
        job.step("reading", i, files.len())
            .map_err(|e| e.to_string())?;
        match corpus::read_entries(file, &LoadOptions::default()) {
            Ok(entries) => {
                for entry in entries {
                    let entry_name = entry.name.clone();
                    let doc = entry.into_document();
                    if doc.sentences.is_empty() {
                        skipped.push(format!("{entry_name}: holds no readable text"));
                    } else {
                        // Named relative to the folder: the folder part is the same for all.
                        let is_source = i < source_files.len();
                        let base = match sources {
                            Some(dir) if is_source => dir,
                            _ => folder,
                        };
                        let prefix = format!("{}/", base.display());
                        let name = entry_name.strip_prefix(&prefix).unwrap_or(&entry_name);
                        names.push(if is_source {
                            format!("source: {name}")
                        } else {
                            name.to_string()
                        });
                        documents.push(doc);
                        source_count += usize::from(is_source);
                    }
                }
            }
            Err(err) => skipped.push(err.to_string()),
        }
    }
    if documents.is_empty() {
        return Err(format!("{}: no readable document", folder.display()));
    }
    let model = ReferenceModel::embedded();
    let preset_params = preset.params();
    let params = fuzzy::FuzzyParams {
        include_boilerplate,
        ..preset_params.fuzzy
    };
    let method = preset_params.method(detector);
    let resemblances = if method.is_none() || documents.len() <= MAX_MATRIX {
        Some(fuzzy::resemblances(&documents, model, &params, job).map_err(|e| e.to_string())?)
    } else {
        None
    };
    let collection = Collection::from_documents(names.clone(), &documents, Normaliser::Refine, job)
        .map_err(|e| e.to_string())?;
    let mut notes: Vec<String> = resemblances
        .as_ref()
        .and_then(fuzzy::Resemblances::capped_note)
        .into_iter()
        .collect();
    let detection = match (&method, &resemblances) {
        (Some(method), _) => method.detect(&collection, job).map_err(|e| e.to_string())?,
        (None, Some(r)) => {
            // Judged against chance, each candidate pair is compared as its page compares it.
            let evidence = collection::evidence::EvidenceOptions::of_fuzzy(&params);
            let (pairs, note) =
                fuzzy::judged::reported_pairs(r, &documents, model, &params, &evidence, job)
                    .map_err(|e| e.to_string())?;
            notes.extend(note);
            collection::Detection::from_pairs(pairs, &collection)
        }
        (None, None) => collection::Detection::default(),
    };
    let is_source: Vec<bool> = (0..documents.len()).map(|d| d < source_count).collect();
    let pairs = RoledPairs::split(&detection.pairs, &is_source)
        .iter()
        .map(|(kind, p)| (kind, *p))
        .collect();
    let matrix = resemblances
        .filter(|_| documents.len() <= MAX_MATRIX)
        .map(|r| r.odds_matrix());
    Ok(CollectionResult {
        detector,
        preset: Some(preset),
        fuzzy: Some(params),
        names,
        documents: documents.into_iter().map(Arc::new).collect(),
        pairs,
        sources: source_count,
        groups: detection.groups.clone(),
        detection,
        matrix,
        skipped,
        notes,
        cluster_evidence: Vec::new(),
    })
}
