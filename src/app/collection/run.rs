//! A collection run in the background: read the folder (and the sources), run the chosen
//! detector with its preset's parameters, and the fuzzy comparison's matrix for small
//! collections, then, with sources, rank the student pairs by what they share beyond them
//! ([`super::ranking`]); or read a result simdoc-spark wrote.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::result::CollectionResult;
use crate::collection::presets::{CollectionPreset, Detector};
use crate::collection::roles::RoledPairs;
use crate::collection::run::RunSettings;
use crate::collection::{self, Job, Normaliser, fuzzy};
use crate::document::LoadOptions;
use crate::selection::gather::{GatherRequest, gather};
use crate::selection::{FileSelection, Order};
use crate::similarity::ModelView;

/// A result that simdoc-spark wrote (a folder with run.json and Parquet tables), shown as a
/// run here would be; its documents are loaded from their files when a pair is opened.
fn from_tables(folder: &Path) -> Result<CollectionResult, String> {
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
        common: None,
        cluster_evidence: read.compared,
        discounts: Vec::new(),
        ranking_note: None,
    })
}

/// How a document is named in the viewer: relative to the folder it was found in (the folder
/// part is the same for all), sources marked as such.
fn shown_name(name: &str, folder: &Path, is_source: bool) -> String {
    let prefix = format!("{}/", folder.display());
    let name = name.strip_prefix(&prefix).unwrap_or(name);
    if is_source {
        format!("source: {name}")
    } else {
        name.to_string()
    }
}

pub fn run(
    folder: &Path,
    sources: Option<&Path>,
    (preset, detector): (CollectionPreset, Detector),
    include_boilerplate: bool,
    model: &(dyn ModelView + Sync),
    job: &mut Job<'_>,
) -> Result<CollectionResult, String> {
    if folder.join("run.json").is_file() {
        return from_tables(folder);
    }
    // Read as `simdoc collection FOLDER --sources SOURCES` reads them: sources first in the
    // stream, a file under both folders a source.
    let source_paths: Vec<PathBuf> = sources.map(Path::to_path_buf).into_iter().collect();
    let cancel = job.cancel;
    let mut stage = |done, total| {
        let _ = job.step("reading", done, total);
    };
    let gathered = gather(
        &GatherRequest {
            sources: &source_paths,
            paths: &[folder.to_path_buf()],
            selection: &FileSelection::default(),
            order: &Order::Name,
            load: &LoadOptions::default(),
            except: None,
        },
        &mut stage,
        cancel,
    )
    .map_err(|e| e.to_string())?;
    let is_source = gathered.is_source();
    let skipped = gathered.left_out();
    let documents = gathered.documents;
    if documents.is_empty() {
        return Err(format!("{}: no readable document", folder.display()));
    }
    let names: Vec<String> = gathered
        .names
        .iter()
        .zip(&is_source)
        .map(|(name, &source)| match sources {
            Some(dir) if source => shown_name(name, dir, true),
            _ => shown_name(name, folder, false),
        })
        .collect();
    let preset_params = preset.params();
    let params = fuzzy::FuzzyParams {
        include_boilerplate,
        ..preset_params.fuzzy
    };
    let method = preset_params.method(detector);
    // Judged against chance, each candidate pair is compared as its page compares it.
    let evidence = collection::evidence::EvidenceOptions::of_fuzzy(&params);
    let outcome = collection::run::detect(
        names.clone(),
        &documents,
        &RunSettings {
            method: method.as_ref(),
            params: &params,
            normaliser: Normaliser::Refine,
            idf_from: None,
            // The viewer shows the heatmap whenever the collection is small enough for one.
            matrix: true,
            model,
            evidence: &evidence,
        },
        job,
    )
    .map_err(|e| e.to_string())?;
    let matrix = outcome.odds_matrix();
    let common = outcome.resemblances.as_ref().and_then(|r| r.common.clone());
    let detection = outcome.detection;
    let pairs = RoledPairs::split(&detection.pairs, &is_source)
        .iter()
        .map(|(kind, p)| (kind, *p))
        .collect();
    let mut result = CollectionResult {
        detector,
        preset: Some(preset),
        fuzzy: Some(params),
        names,
        documents: documents.into_iter().map(Arc::new).collect(),
        pairs,
        sources: gathered.sources,
        groups: detection.groups.clone(),
        detection,
        matrix,
        skipped,
        notes: outcome.notes,
        common,
        cluster_evidence: Vec::new(),
        discounts: Vec::new(),
        ranking_note: None,
    };
    // A class's student pairs listed as its export and `simdoc collection --sources` rank them.
    super::ranking::rank_student_pairs(&mut result, model, job);
    Ok(result)
}
