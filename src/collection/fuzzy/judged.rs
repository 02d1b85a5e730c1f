//! The fuzzy collection comparison's pairs judged against chance, as `simdoc compare` judges
//! one pair: the standard of evidence the comparison of two documents, `simdoc sources` and
//! the viewer use, so that a pair reads the same containment in a collection report as
//! anywhere else.
//!
//! Counting EQ sentences (thesis eq. 4.1) says how many sentences two documents share at a Sim,
//! not whether that many could be shared by chance: 200 unrelated Wikipedia articles gave 13
//! pairs of "reuse" at resemblances 0.44-0.52 whose shared sentences were one- to three-word
//! headings, while a passage of 3-6 copied sentences in articles of about 100 resembles at
//! 0.03-0.06, below any raw cut that keeps such pairs out. So when the run's matching judges
//! against chance ([`super::FuzzyParams::chance`]), the EQ index only proposes candidates:
//! every pair of documents sharing an EQ sentence. Each candidate is then compared as `simdoc
//! compare` compares it, with the same options ([`EvidenceOptions`]), and reported when a
//! passage passes the chance bar; its relation and score come from that comparison's
//! containment, not from the counts.
//!
//! Chance counts every document searched, as in `simdoc sources` (BLAST against a database,
//! Altschul et al. 1997): a passage's E-value in its pair's comparison counts the sentence pairs
//! of those two documents; searched against the whole collection, a document forms as many more
//! as the collection's other sentences outnumber its partner's. A pair is reported when one of
//! its passages reaches the bar with its E-value scaled so ([`collection_factor`]), from the
//! side of either document. The pair's figures stay those of its comparison, what `simdoc
//! compare` shows for it. Two disambiguation pages sharing "... may refer to:" reach E = 5e-6
//! in the comparison of their three sentences, under the bar of one comparison; among the 40
//! Wikipedia articles of `tests/collection_judged_real.rs` their own sentences are a few of
//! thousands searched, and the scaled E-value is far above it, while four sentences copied into
//! an article pass with room to spare.

use super::{FuzzyParams, Resemblances, relation_of};
use crate::collection::evidence::{EvidenceOptions, evidence_of_pairs, pairs_within_budget};
use crate::collection::{Cancelled, DetectedPair, DocId, Job};
use crate::document::Document;
use crate::similarity::ModelView;

/// Most distinct sentences (both documents of each candidate pair, summed over the pairs) one
/// run compares to judge its candidates. Candidates are judged in order of their EQ resemblance,
/// the strongest first; those past the budget are left unjudged and unreported, and the run
/// says how many ([`JudgedPairs::note`]). 500 Wikipedia articles of about 100 sentences with
/// 16,737 candidate pairs need 3.3 million.
pub const JUDGING_BUDGET: usize = 20_000_000;

/// The pairs a judged fuzzy run reports, with what judging them cost.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JudgedPairs {
    /// The pairs with a passage that passed the chance bar, their relation and score read from
    /// the comparison's containment.
    pub pairs: Vec<DetectedPair>,
    /// Candidate pairs (sharing at least one EQ sentence).
    pub candidates: usize,
    /// Candidates compared (all of them unless the budget ran out).
    pub judged: usize,
    /// The budget the run was given, in distinct sentences ([`FuzzyParams::judging_budget`]).
    pub budget: usize,
}

impl JudgedPairs {
    /// The note for the reader when not every candidate could be judged.
    pub fn note(&self) -> Option<String> {
        (self.judged < self.candidates).then(|| {
            format!(
                "{} of {} candidate pairs (those sharing an EQ sentence) were judged against \
                 chance, the ones of highest resemblance first: comparing the rest would take \
                 the run past {} distinct sentences; they are not reported",
                self.judged, self.candidates, self.budget
            )
        })
    }
}

/// The pairs of a fuzzy run judged against chance: every pair sharing an EQ sentence in
/// `resemblances` compared with `options` (module docs). A pair is reported when its
/// comparison counts a matched sentence and the larger of its two containments reaches
/// `params.min_resemblance`; duplicates, containment and reuse are told apart by
/// `params.containment` as for counted pairs, on the containments (the scores are
/// containments too).
pub fn judged_pairs(
    resemblances: &Resemblances,
    documents: &[Document],
    model: &(dyn ModelView + Sync),
    params: &FuzzyParams,
    options: &EvidenceOptions,
    job: &mut Job<'_>,
) -> Result<JudgedPairs, Cancelled> {
    let mut candidates = resemblances.pairs(params.containment);
    // Strongest first, so that a budget cut leaves out the weakest; ties in document order.
    candidates.sort_by(|x, y| {
        y.score
            .total_cmp(&x.score)
            .then((x.a, x.b).cmp(&(y.a, y.b)))
    });
    let pairs: Vec<(DocId, DocId)> = candidates.iter().map(|p| (p.a, p.b)).collect();
    // A comparison scores each distinct sentence once (repeated ones as a class), so the
    // budget counts distinct sentences: fifty pages of 10,000 identical headings are 1,225
    // cheap comparisons, not 24.5 million sentences past the budget.
    let judged = pairs_within_budget(
        &pairs,
        |d| resemblances.distinct_sentences(d),
        params.judging_budget,
    );
    // Each pair compared without the collection's common text, if the run found any.
    let options = &EvidenceOptions {
        common: resemblances.common.clone(),
        ..options.clone()
    };
    let found = evidence_of_pairs(
        &pairs[..judged],
        documents,
        model,
        options,
        job,
        &|_, _, _, _| {},
    )?;
    let collection_sentences: usize = resemblances.sentences.iter().sum();
    let bar = options.thresholds.max_e_value;
    let mut kept: Vec<DetectedPair> = pairs
        .iter()
        .zip(found)
        .filter_map(|(&(a, b), evidence)| {
            let evidence = evidence?;
            let factor = collection_factor(evidence.sentences, collection_sentences);
            let significant = evidence
                .passages
                .iter()
                .any(|p| passes_over_collection(p.e_value, bar, factor));
            // [a in b, b in a]: RS(a, b) and RS(b, a) of the counted pairs, on the containments.
            let [in_b, in_a] = evidence.containment;
            (significant && in_b.max(in_a) >= params.min_resemblance)
                .then(|| relation_of(a, b, in_b, in_a, params.containment))
        })
        .collect();
    kept.sort_by_key(|p| (p.a, p.b, p.relation));
    Ok(JudgedPairs {
        pairs: kept,
        candidates: candidates.len(),
        judged,
        budget: params.judging_budget,
    })
}

/// How many times more sentence pairs a search of the collection forms than the comparison of
/// one pair, whose `sentences` take part, in a collection of `total` such sentences: searched
/// against every other document, a document of m sentences forms m(total - m) pairs, m n of
/// them with its partner of n. The smaller of the two sides' factors (the pair is found by
/// whichever document is searched), and never below 1.
pub fn collection_factor(sentences: [usize; 2], total: usize) -> f64 {
    let [m, n] = sentences.map(|s| s.max(1) as f64);
    let total = total as f64;
    let from_a = (total - m) / n;
    let from_b = (total - n) / m;
    from_a.min(from_b).max(1.0)
}

/// Whether a passage with E-value `chance` in its comparison is evidence over the collection,
/// at the bar `bar` (none: every passage counts) with the search `factor` times larger. A
/// passage of a judged comparison above the bar is one counted whatever its E-value: a whole
/// text copied verbatim, too short to reach the bar even against its own copy
/// (`Comparison::too_short_to_judge`); it stays evidence, identity not being chance.
fn passes_over_collection(chance: Option<f64>, bar: Option<f64>, factor: f64) -> bool {
    match (chance, bar) {
        (Some(e), Some(bar)) => e > bar || e * factor <= bar,
        _ => true,
    }
}

/// The pairs a fuzzy collection run reports, and a note for the reader when there is one:
/// judged against chance when `params` say so ([`judged_pairs`], compared with `options`),
/// else counted by their EQ sentences ([`Resemblances::reported_pairs`]). The one definition
/// the command line and the viewer both run.
pub fn reported_pairs(
    resemblances: &Resemblances,
    documents: &[Document],
    model: &(dyn ModelView + Sync),
    params: &FuzzyParams,
    options: &EvidenceOptions,
    job: &mut Job<'_>,
) -> Result<(Vec<DetectedPair>, Option<String>), Cancelled> {
    if params.chance_search.is_none() {
        return Ok((resemblances.reported_pairs(params), None));
    }
    let judged = judged_pairs(resemblances, documents, model, params, options, job)?;
    let note = judged.note();
    Ok((judged.pairs, note))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_collection_factor_is_the_lenient_sides_and_at_least_one() {
        // 3 and 100 sentences in a collection of 2,003: searched against the collection, the
        // short document forms 2,000 / 100 = 20 times its pairs with the long one; the long
        // one 1,903 / 3 times.
        assert_eq!(collection_factor([3, 100], 2_003), 20.0);
        assert_eq!(collection_factor([100, 3], 2_003), 20.0);
        // A collection of two documents is one comparison.
        assert_eq!(collection_factor([5, 7], 12), 1.0);
        assert_eq!(collection_factor([0, 0], 0), 1.0);
    }

    #[test]
    fn a_passage_passes_at_the_bar_scaled_and_a_whole_copy_above_it_always() {
        let bar = Some(1e-5);
        assert!(passes_over_collection(Some(1e-9), bar, 1_000.0));
        assert!(!passes_over_collection(Some(5e-6), bar, 1_000.0));
        assert!(passes_over_collection(Some(5e-6), bar, 1.0));
        // Counted above the bar: a short text copied whole (the comparison's own exception).
        assert!(passes_over_collection(Some(0.3), bar, 1_000.0));
        // No bar (`--max-e-value off`), or a comparison not judged: every passage.
        assert!(passes_over_collection(Some(0.3), None, 1_000.0));
        assert!(passes_over_collection(None, bar, 1_000.0));
    }
}
