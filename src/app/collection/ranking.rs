//! The on-screen pair list of a class ranked as its export and `simdoc collection --sources`
//! rank it (issue 41): the submission-submission pairs by the larger share left once the text
//! found in a marked source is left out, then by score.
//!
//! The list would otherwise disagree with the report the same window exports: a pair of
//! students who both quoted the set source outranks, by its raw score, the pair that shares
//! text of its own. The discounts come from the report's own function
//! ([`crate::render::collection_ranking::discount_and_rank`]: the same pairs, matching, limit
//! and budget), computed in the run's background job after the detector, so the UI thread
//! only reads them.

use super::export::EVIDENCE_PAIRS;
use super::result::CollectionResult;
use crate::collection::roles::PairKind;
use crate::collection::source_discount::SourceDiscount;
use crate::collection::{Cancelled, DetectedPair, DocId, Job};
use crate::render::collection_ranking::discount_and_rank;
use crate::similarity::ModelView;

/// What the list says when the ranking was cancelled: the detector's pairs are kept (their
/// order is the raw one), since stopping the ranking should not throw the run away.
pub const RANKING_CANCELLED: &str = "the submission-submission pairs are ranked by score: \
     their ranking by the share left once the text found in a marked source is left out was \
     cancelled";

/// Ranks `result`'s submission-submission pairs by their discounts (a run with sources and
/// its documents at hand; otherwise nothing changes) and records the discounts beside the
/// pairs and the note that says how they are ranked. A cancelled ranking leaves the raw order
/// and says so.
pub fn rank_student_pairs(
    result: &mut CollectionResult,
    model: &(dyn ModelView + Sync),
    job: &mut Job<'_>,
) {
    match discounted(result, model, job) {
        Ok(Some(ranked)) => {
            result.pairs = ranked.pairs;
            result.discounts = ranked.discounts;
            result.ranking_note = ranked.note;
        }
        Ok(None) => {}
        Err(Cancelled) => result.ranking_note = Some(RANKING_CANCELLED.to_string()),
    }
}

/// A ranking found for a result's pairs, to be put in its place.
struct Ranked {
    pairs: Vec<(PairKind, DetectedPair)>,
    discounts: Vec<Option<SourceDiscount>>,
    note: Option<String>,
}

/// The pairs of `result` in the report's order with their discounts, or `None` when the
/// result has no sources or no documents here (a result read from simdoc-spark's tables).
fn discounted(
    result: &CollectionResult,
    model: &(dyn ModelView + Sync),
    job: &mut Job<'_>,
) -> Result<Option<Ranked>, Cancelled> {
    if result.sources == 0 || result.documents.is_empty() {
        return Ok(None);
    }
    // Not ranked yet: the report in the detector's order.
    let mut report = result.report();
    let documents = &result.documents;
    let document_at = |d: DocId| documents.get(d).map(|doc| &**doc);
    let note = discount_and_rank(
        &mut report,
        &document_at,
        model,
        &result.evidence_options(),
        job,
        EVIDENCE_PAIRS,
    )?;
    let pairs: Vec<_> = report.pairs.iter().map(|(kind, p)| (kind, *p)).collect();
    let discounts = (0..pairs.len())
        .map(|rank| report.discount_at(rank).cloned())
        .collect();
    Ok(Some(Ranked {
        pairs,
        discounts,
        note,
    }))
}
