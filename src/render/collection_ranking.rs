//! The submission-submission pairs of a class's report discounted and ranked by what they share
//! beyond the marked sources ([`crate::collection::discounted_rank`]), before their evidence
//! and pages are computed, so that the evidence `--evidence N` pays for goes to the pairs a
//! teacher reads first.

use super::collection::CollectionReport;
use crate::collection::discounted_rank::ranking_note;
use crate::collection::evidence::{EvidenceOptions, SENTENCE_BUDGET, pairs_within_budget};
use crate::collection::source_discount::{DocumentAt, source_discounts_of};
use crate::collection::{Cancelled, DocId, Job};
use crate::similarity::ModelView;

/// Discounts the first `limit` submission-submission pairs of `report` (its documents read
/// through `documents`; within
/// [`SENTENCE_BUDGET`] sentences of their documents) against its marked sources and ranks them
/// by what is left ([`CollectionReport::rank_by_discounts`]); returns the note that says how
/// the pairs are ranked, or `None` when the report has no sources or nothing was discounted.
pub fn discount_and_rank(
    report: &mut CollectionReport<'_>,
    documents: &DocumentAt<'_>,
    model: &(dyn ModelView + Sync),
    options: &EvidenceOptions,
    job: &mut Job<'_>,
    limit: usize,
) -> Result<Option<String>, Cancelled> {
    if !report.has_roles() {
        return Ok(None);
    }
    let mut wanted = report.discounts_wanted(limit);
    let pairs: Vec<(DocId, DocId)> = wanted.iter().map(|&(_, a, b)| (a, b)).collect();
    let sentences = |d: DocId| documents(d).map_or(0, |doc| doc.sentences.len());
    wanted.truncate(pairs_within_budget(&pairs, sentences, SENTENCE_BUDGET));
    if wanted.is_empty() {
        return Ok(None);
    }
    let pairs: Vec<(DocId, DocId)> = wanted.iter().map(|&(_, a, b)| (a, b)).collect();
    let found = source_discounts_of(&pairs, documents, &report.sources, model, options, job)?;
    let ranks = wanted.iter().map(|&(rank, _, _)| rank).max().unwrap_or(0) + 1;
    let mut discounts = vec![None; ranks];
    for (&(rank, _, _), discount) in wanted.iter().zip(found) {
        if let Some(slot) = discounts.get_mut(rank) {
            *slot = discount;
        }
    }
    let discounted = discounts.iter().flatten().count();
    report.rank_by_discounts(discounts);
    Ok(ranking_note(
        discounted,
        report.pairs.submission_submission.len(),
    ))
}
