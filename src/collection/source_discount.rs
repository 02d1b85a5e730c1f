//! Text shared with a marked source, discounted in submission-to-submission pairs.
//!
//! In a class, most pairs of submissions that share text share it because both students used
//! the same source: a teacher wants to see the text two students share *beyond* the sources.
//! JPlag removes the matches that also occur in the "base code" it is given (`-bc`), and Dolos
//! leaves out the fragments of a "template"; both tools report the similarity of what is left.
//! simdoc does the same with the sources marked for a collection:
//!
//! 1. each submission of a submission-submission pair is compared with every marked source,
//!    with the evidence's matching ([`super::evidence::EvidenceOptions`]); its sentences with
//!    a match in a source (a sentence taken together with its neighbour in a one-to-two match
//!    counts both) are *found in a source*;
//! 2. the pair's own matches that involve a sentence found in a source, on either side, are
//!    left out, and containment both ways is counted over the rest (each counted sentence's
//!    best directional Sim among the remaining matches, 0 without one, averaged:
//!    [`crate::compare::Comparison::containment_of`]).
//!
//! The report gives both figures and how many matched sentences were left out, so the
//! discount is never hidden. Deviation from JPlag: JPlag drops base-code tokens from the
//! submissions before matching; simdoc drops matched sentence pairs after matching, so a
//! sentence a student rewrote from the source and another student copied from the first
//! student is discounted too (it is found in the source); the count of discounted sentences
//! says how much that is.

use rayon::prelude::*;
use serde::Serialize;

use super::evidence::{EvidenceOptions, NOTHING_LEFT_OUT, compare_pair};
use super::{Cancelled, DocId, Job};
use crate::compare::Comparison;
use crate::document::Document;
use crate::similarity::{JoinSide, ModelView, ScoredPair};

/// A submission-submission pair with the text its documents share with marked sources left out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SourceDiscount {
    /// [a in b, b in a] over the matches that involve no sentence found in a source.
    pub containment: [f64; 2],
    /// Sentences of a and of b with a match in the other that involves no sentence found in a
    /// source.
    pub matched_sentences: [usize; 2],
    /// Sentences of a and of b matched in the other but left out: they (or their partner) are
    /// found in a marked source.
    pub found_in_sources: [usize; 2],
}

/// The sentences of `submission` with a match in any of `sources` under `options`.
fn found_in_sources(
    submission: &Document,
    sources: &[&Document],
    model: &dyn ModelView,
    options: &EvidenceOptions,
    job_cancel: &std::sync::atomic::AtomicBool,
) -> Result<Vec<bool>, Cancelled> {
    let mut found = vec![false; submission.sentences.len()];
    for source in sources {
        let comparison = compare_pair(
            submission,
            source,
            model,
            options,
            NOTHING_LEFT_OUT,
            job_cancel,
        )?;
        for pair in comparison.matches(&options.thresholds) {
            let [first, last] = pair.sentences(JoinSide::Left);
            for position in first..=last {
                if let Some(flag) = found.get_mut(position as usize) {
                    *flag = true;
                }
            }
        }
    }
    Ok(found)
}

/// The discount of one pair's comparison given which sentences of each side are found in a
/// source.
fn discount_of(
    comparison: &Comparison,
    found: [&[bool]; 2],
    options: &EvidenceOptions,
) -> SourceDiscount {
    let is_capped = comparison.capped_test();
    let in_source = |side: usize, pair: &ScoredPair| {
        let join = if side == 0 {
            JoinSide::Left
        } else {
            JoinSide::Right
        };
        let [first, last] = pair.sentences(join);
        (first..=last).any(|p| found[side].get(p as usize) == Some(&true))
    };
    let (mut kept, mut dropped) = (Vec::new(), Vec::new());
    for pair in comparison.matches(&options.thresholds) {
        if is_capped(pair) {
            continue;
        }
        if in_source(0, pair) || in_source(1, pair) {
            dropped.push(*pair);
        } else {
            kept.push(*pair);
        }
    }
    let kept_figures = comparison.figures_of(&kept, &options.thresholds);
    let all_figures = comparison.figures_of(
        &[kept.as_slice(), dropped.as_slice()].concat(),
        &options.thresholds,
    );
    SourceDiscount {
        containment: comparison.containment_of(&kept),
        matched_sentences: kept_figures.matched,
        found_in_sources: [0, 1]
            .map(|side| all_figures.matched[side].saturating_sub(kept_figures.matched[side])),
    }
}

/// The discount of each of `pairs` (submission-submission pairs, positions into `documents`)
/// against the marked `sources`, in their order; `None` for a pair naming a missing document.
pub fn source_discounts(
    pairs: &[(DocId, DocId)],
    documents: &[Document],
    sources: &[DocId],
    model: &(dyn ModelView + Sync),
    options: &EvidenceOptions,
    job: &mut Job<'_>,
) -> Result<Vec<Option<SourceDiscount>>, Cancelled> {
    source_discounts_of(pairs, &|d| documents.get(d), sources, model, options, job)
}

/// A collection's document at a position, if any: the viewer holds its documents shared
/// (`Arc`), and copying a whole collection to discount a few pairs would double its memory.
pub type DocumentAt<'d> = dyn Fn(DocId) -> Option<&'d Document> + Sync + 'd;

/// [`source_discounts`] with the documents read through `documents`.
pub fn source_discounts_of<'d>(
    pairs: &[(DocId, DocId)],
    documents: &DocumentAt<'d>,
    sources: &[DocId],
    model: &(dyn ModelView + Sync),
    options: &EvidenceOptions,
    job: &mut Job<'_>,
) -> Result<Vec<Option<SourceDiscount>>, Cancelled> {
    let cancel = job.cancel;
    let source_documents: Vec<&Document> = sources.iter().filter_map(|&s| documents(s)).collect();
    let mut submissions: Vec<DocId> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
    submissions.sort_unstable();
    submissions.dedup();
    job.step("sources in submissions", 0, submissions.len())?;
    let found: Vec<(DocId, Vec<bool>)> = submissions
        .par_iter()
        .filter_map(|&d| documents(d).map(|doc| (d, doc)))
        .map(|(d, doc)| {
            found_in_sources(doc, &source_documents, model, options, cancel).map(|f| (d, f))
        })
        .collect::<Result<_, Cancelled>>()?;
    job.step(
        "sources in submissions",
        submissions.len(),
        submissions.len(),
    )?;
    let found_of = |d: DocId| {
        found
            .binary_search_by_key(&d, |(doc, _)| *doc)
            .ok()
            .map(|i| found[i].1.as_slice())
    };
    job.step("source discounts", 0, pairs.len())?;
    let discounts = pairs
        .par_iter()
        .map(|&(a, b)| {
            let (Some(doc_a), Some(doc_b), Some(found_a), Some(found_b)) =
                (documents(a), documents(b), found_of(a), found_of(b))
            else {
                return Ok(None);
            };
            // The pair read as its evidence reads it: without the collection's common text.
            let common = options.common.as_deref();
            let left_out = [a, b].map(|d| common.map_or(&[] as &[bool], |c| c.mask(d)));
            let comparison = compare_pair(doc_a, doc_b, model, options, left_out, cancel)?;
            Ok(Some(discount_of(&comparison, [found_a, found_b], options)))
        })
        .collect::<Result<_, Cancelled>>()?;
    job.step("source discounts", pairs.len(), pairs.len())?;
    Ok(discounts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collection::without_job;
    use crate::compare::CompareOptions;
    use crate::compare::Preset;
    use crate::document::{SourceFormat, parse_text};
    use crate::model::ReferenceModel;

    fn doc(text: &str) -> Document {
        parse_text(text, "test.txt", SourceFormat::Text)
    }

    fn options() -> EvidenceOptions {
        let preset = Preset::MEASURED;
        EvidenceOptions::new(
            CompareOptions {
                refine: preset.refine,
                rules: preset.rules,
                floor: crate::compare::floor_for(&preset.rules, &preset.thresholds),
                chance_search: None,
                ..CompareOptions::default()
            },
            preset.thresholds,
        )
    }

    #[test]
    fn text_both_students_took_from_the_source_is_discounted_and_their_own_is_not() {
        let model = ReferenceModel::embedded();
        let source = "The river flooded the lower town in April. Farmers lost most of their \
                      spring wheat. The council opened the school as a shelter.";
        // Both quote the source's first two sentences; they also share one sentence of their
        // own that is in no source.
        let shared_own = "My grandmother still keeps a photograph of the flooded market square.";
        let alice = format!(
            "The river flooded the lower town in April. Farmers lost most of their spring \
             wheat. {shared_own} I think the town was lucky."
        );
        let bob = format!(
            "The river flooded the lower town in April. Farmers lost most of their spring \
             wheat. {shared_own} Volunteers worked for weeks afterwards."
        );
        let documents = vec![doc(source), doc(&alice), doc(&bob)];
        let discounts = without_job(|job| {
            source_discounts(&[(1, 2)], &documents, &[0], model, &options(), job)
        })
        .expect("not cancelled");
        let discount = discounts[0].as_ref().expect("both documents exist");
        // Of three shared sentences each, two are the source's: left out.
        assert_eq!(discount.found_in_sources, [2, 2]);
        assert_eq!(discount.matched_sentences, [1, 1]);
        // One of four sentences of each, found whole in the other: 1/4.
        for side in 0..2 {
            assert!(
                (discount.containment[side] - 0.25).abs() < 1e-9,
                "{discount:?}"
            );
        }
        // Without sources nothing is found in one, and nothing is left out.
        let undiscounted =
            without_job(|job| source_discounts(&[(1, 2)], &documents, &[], model, &options(), job))
                .expect("not cancelled");
        let undiscounted = undiscounted[0].as_ref().expect("both documents exist");
        assert_eq!(undiscounted.found_in_sources, [0, 0]);
        assert_eq!(undiscounted.matched_sentences, [3, 3]);
    }

    #[test]
    fn a_pair_naming_a_missing_document_has_no_discount() {
        let model = ReferenceModel::embedded();
        let documents = vec![doc("One sentence here."), doc("Another one there.")];
        let discounts = without_job(|job| {
            source_discounts(&[(1, 7)], &documents, &[0], model, &options(), job)
        })
        .expect("not cancelled");
        assert_eq!(discounts, [None]);
    }
}
