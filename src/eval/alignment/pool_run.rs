//! Running `simdoc sources` over a pool corpus ([`super::pool`]): each suspicious document
//! against every source of its pool, as a teacher runs it against a course's sources.
//!
//! The detections are what the attribution shows: per source, its passages (judged against
//! chance, as `compare` lists them); without passages (sentences judged by Sims alone), the
//! document sentences the source holds, consecutive ones (a sentence apart at most, as a passage bridges a gap) taken as one
//! detection from the first sentence's start to the last one's end, and on the source's side
//! from its first matched sentence to its last. A detection names its source file, so a case
//! attributed to the wrong source counts as a miss and a false detection, as it should.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::corpus::{CorpusPair, Manifest};
use super::measures::Annotation;
use super::run::PairOutcome;
use crate::compare::CompareOptions;
use crate::document::{self, Document, LoadOptions};
use crate::similarity::{ModelView, Thresholds};
use crate::sources::{SourceIndex, SourceShare};

/// How many document sentences apart two attributed sentences may be and still make one
/// detection (one: a sentence left out inside a reused run, as passages bridge it).
const RUN_GAP: u32 = 2;

/// Runs the attribution over every pool pair whose pool size is in `sizes` (all when empty).
/// Returns, per pair (manifest order), its one outcome and the seconds the attribution took
/// (the index of each pool is built once and not counted: `simdoc sources` builds it once for
/// every document it is given).
pub fn evaluate(
    folder: &Path,
    manifest: &Manifest,
    sizes: &[usize],
    model: &dyn ModelView,
    options: &CompareOptions,
    thresholds: &Thresholds,
) -> anyhow::Result<Vec<(usize, Vec<PairOutcome>, f64)>> {
    let never = AtomicBool::new(false);
    let load = LoadOptions::default();
    let mut results = Vec::new();
    let mut pools: Vec<&str> = manifest
        .pairs
        .iter()
        .filter(|p| sizes.is_empty() || sizes.contains(&p.size))
        .map(|p| p.source.as_str())
        .collect();
    pools.sort_unstable();
    pools.dedup();
    for pool in pools {
        let (names, sources) = load_pool(&folder.join("src").join(pool), &load)?;
        let mut index = SourceIndex::new(&sources, model, options);
        for (i, pair) in manifest.pairs.iter().enumerate() {
            if pair.source != pool || !(sizes.is_empty() || sizes.contains(&pair.size)) {
                continue;
            }
            let suspicious = document::load(&folder.join("susp").join(&pair.suspicious), &load)?;
            let started = Instant::now();
            let attribution = index
                .attribute(&suspicious, model, thresholds, &never)
                .map_err(|_| anyhow::anyhow!("cancelled"))?;
            let seconds = started.elapsed().as_secs_f64();
            let detections = attribution
                .sources
                .iter()
                .flat_map(|share| {
                    let name = format!("{pool}/{}", names[share.source]);
                    detections_of(pair, &suspicious, &sources[share.source], &name, share)
                })
                .collect();
            let outcome = PairOutcome {
                detections,
                containment: attribution.attributed_share(),
            };
            results.push((i, vec![outcome], seconds));
        }
    }
    results.sort_by_key(|r| r.0);
    Ok(results)
}

/// The pool's files in name order, read.
fn load_pool(dir: &Path, load: &LoadOptions) -> anyhow::Result<(Vec<String>, Vec<Document>)> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort_unstable();
    let documents = names
        .iter()
        .map(|n| document::load(&dir.join(n), load))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((names, documents))
}

/// One source's attributed sentences as detections (see the module docs).
fn detections_of(
    pair: &CorpusPair,
    suspicious: &Document,
    source: &Document,
    name: &str,
    share: &SourceShare,
) -> Vec<Annotation> {
    if !share.passages.is_empty() {
        return super::run::detections_of(
            &share.passages,
            [suspicious, source],
            [&pair.suspicious, name],
        );
    }
    let mut detections = Vec::new();
    let mut runs: Vec<(u32, u32, u32, u32)> = Vec::new();
    for m in &share.sentences {
        let last = m
            .joined_with
            .unwrap_or(m.source_sentence)
            .max(m.source_sentence);
        let first = m.source_sentence.min(last);
        match runs.last_mut() {
            Some(run) if m.sentence <= run.1 + RUN_GAP => {
                run.1 = m.sentence;
                run.2 = run.2.min(first);
                run.3 = run.3.max(last);
            }
            _ => runs.push((m.sentence, m.sentence, first, last)),
        }
    }
    let span = |doc: &Document, first: u32, last: u32| {
        let start = doc.sentences.get(first as usize)?.offsets.start;
        let end = doc.sentences.get(last as usize)?.offsets.end;
        Some(start..end.max(start))
    };
    for (a0, a1, b0, b1) in runs {
        if let (Some(this), Some(that)) = (span(suspicious, a0, a1), span(source, b0, b1)) {
            detections.push(Annotation {
                suspicious: pair.suspicious.clone(),
                this,
                source: name.to_string(),
                that,
            });
        }
    }
    detections
}
