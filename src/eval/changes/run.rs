//! A tool's change lists over a corpus of revisions, scored: simdoc's, computed here (possibly
//! under several configurations from one comparison each), or another tool's, read from its
//! `--changes`-shaped JSON files.

use std::path::Path;

use anyhow::Context;
use rayon::prelude::*;

use super::corpus::{Manifest, Revision, Truth};
use super::score::{ChangeScore, score};
use crate::document::{self, Document, LoadOptions};
use crate::render::changes::{ChangesFile, JsonChange};

/// The scores of one configuration: over all revisions, and per size (in the manifest's
/// order of sizes).
pub type Scores = (ChangeScore, Vec<(usize, ChangeScore)>);

/// A revision's two texts as read, and as documents.
fn load(folder: &Path, revision: &Revision) -> anyhow::Result<([String; 2], [Document; 2], Truth)> {
    let [a, b, truth] = Manifest::paths(folder, revision);
    let read = |path: &Path| {
        std::fs::read_to_string(path)
            .with_context(|| format!("{}: cannot read", crate::escape::path(path)))
    };
    let options = LoadOptions::default();
    Ok((
        [read(&a)?, read(&b)?],
        [document::load(&a, &options)?, document::load(&b, &options)?],
        Truth::read(&truth)?,
    ))
}

/// Runs `detect` on every revision whose size is in `sizes` (all when empty), in parallel;
/// `detect` answers one change list per configuration. Returns the scores per configuration,
/// over all revisions and per size (in the manifest's order of sizes).
pub fn evaluate<F>(
    folder: &Path,
    manifest: &Manifest,
    sizes: &[usize],
    detect: F,
) -> anyhow::Result<Vec<Scores>>
where
    F: Fn(&Revision, [&Document; 2]) -> anyhow::Result<Vec<Vec<JsonChange>>> + Sync,
{
    let chosen: Vec<&Revision> = manifest
        .revisions
        .iter()
        .filter(|r| sizes.is_empty() || sizes.contains(&r.size))
        .collect();
    let scored: Vec<(usize, Vec<ChangeScore>)> = chosen
        .par_iter()
        .map(|revision| {
            let (texts, [a, b], truth) = load(folder, revision)?;
            let lists = detect(revision, [&a, &b])?;
            let scores = lists
                .iter()
                .map(|changes| score([&texts[0], &texts[1]], &truth, changes))
                .collect();
            Ok((revision.size, scores))
        })
        .collect::<anyhow::Result<_>>()?;
    let configurations = scored.first().map_or(0, |(_, s)| s.len());
    Ok((0..configurations)
        .map(|k| {
            let mut all = ChangeScore::default();
            let mut by_size: Vec<(usize, ChangeScore)> = Vec::new();
            for (size, scores) in &scored {
                all.add(&scores[k]);
                match by_size.iter_mut().find(|(s, _)| s == size) {
                    Some((_, total)) => total.add(&scores[k]),
                    None => {
                        let mut total = ChangeScore::default();
                        total.add(&scores[k]);
                        by_size.push((*size, total));
                    }
                }
            }
            (all, by_size)
        })
        .collect())
}

/// Scores another tool's change lists: `detections/NNNNN.json` per revision, in the shape of
/// simdoc's `--changes` (only each change's `kind`, `a`, `b` and, for moved text, `reworded` are
/// read). A revision without a file counts as no change found.
pub fn score_files(
    folder: &Path,
    manifest: &Manifest,
    detections: &Path,
) -> anyhow::Result<Scores> {
    let mut all = ChangeScore::default();
    let mut by_size: Vec<(usize, ChangeScore)> = Vec::new();
    for revision in &manifest.revisions {
        let [a, b, truth] = Manifest::paths(folder, revision);
        let texts = [&a, &b].map(std::fs::read_to_string);
        let [Ok(text_a), Ok(text_b)] = texts else {
            anyhow::bail!("{}: cannot read the revision's texts", revision.name);
        };
        let truth = Truth::read(&truth)?;
        let path = detections.join(format!("{}.json", revision.name));
        let changes = if path.exists() {
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("{}: cannot read", crate::escape::path(&path)))?;
            serde_json::from_str::<ChangesFile>(&text)
                .with_context(|| crate::escape::path(&path))?
                .changes
        } else {
            Vec::new()
        };
        let one = score([&text_a, &text_b], &truth, &changes);
        all.add(&one);
        match by_size.iter_mut().find(|(s, _)| *s == revision.size) {
            Some((_, total)) => total.add(&one),
            None => by_size.push((revision.size, one)),
        }
    }
    Ok((all, by_size))
}
